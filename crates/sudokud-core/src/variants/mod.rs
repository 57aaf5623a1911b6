//! Variant Sudoku: diagonals, extra regions, jigsaw regions, killer cages, anti-knight,
//! anti-king, non-consecutive, thermometers, Kropki dots and even/odd cells, as data next to a
//! board of any size, alone or combined.
//!
//! [`Constraints`] is what a request gives, [`Preset`] a variant by name; [`Variant::new`] checks
//! them against the grid's shape once and builds the houses, peers, pair relations and cage sums
//! that [`solver`] and [`rules`] read. [`Puzzle`] is a board with or without constraints, and
//! sends each to its solver: a board without constraints keeps its classic path untouched.

mod constraints;
pub mod generate;
pub mod rules;
pub mod solver;
pub(crate) mod sum_groups;
mod variant;

pub use constraints::{Cage, Constraints, Diagonals, Kropki, Place, Preset, RegionId, Regions};
pub use variant::{ConstraintError, Variant, windows};

use crate::logic::Rating;
use crate::rules::Validation;
use crate::sizes::layout::Layout;
use crate::sizes::logic::{self as sized_logic, Book, GridStep};
use crate::sizes::rules::Conflict;
use crate::sizes::{AnyGrid, Explained, Grid, Marked, Marks, wrong_entries};
use crate::solver::{Interrupt, Interrupted, Progress, Unanswerable, Verdict};

/// A board and the rules it is played by: the classic rules alone, or a variant's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// No constraint beyond rows, columns and boxes.
    Classic(AnyGrid),
    /// A grid under a variant's constraints.
    Variant(Box<(Grid, Variant)>),
}

impl Puzzle {
    /// `grid` under `preset`'s and `constraints`' rules, checked against its shape; the classic
    /// rules alone when neither adds anything.
    pub fn new(grid: AnyGrid, preset: Option<Preset>, constraints: &Constraints) -> Result<Puzzle, ConstraintError> {
        if preset.is_none() && constraints.is_empty() {
            return Ok(Puzzle::Classic(grid));
        }
        let grid = match grid {
            AnyGrid::Classic(board) => Grid::from(&board),
            AnyGrid::Sized(grid) => grid,
        };
        let variant = Variant::new(grid.shape(), preset, constraints)?;
        Ok(Puzzle::Variant(Box::new((grid, variant))))
    }

    /// The grid's shape.
    pub fn shape(&self) -> crate::sizes::Shape {
        match self {
            Puzzle::Classic(grid) => grid.shape(),
            Puzzle::Variant(puzzle) => puzzle.0.shape(),
        }
    }

    /// The board without its constraints.
    pub fn grid(&self) -> AnyGrid {
        match self {
            Puzzle::Classic(grid) => grid.clone(),
            Puzzle::Variant(puzzle) => AnyGrid::from(puzzle.0.clone()),
        }
    }

    /// The variant's rules, if any.
    pub fn variant(&self) -> Option<&Variant> {
        match self {
            Puzzle::Classic(_) => None,
            Puzzle::Variant(puzzle) => Some(&puzzle.1),
        }
    }

    /// The box, or the jigsaw region, each cell is in, numbered from 0: the outlines a drawing
    /// of the grid makes thick.
    pub fn regions(&self) -> Vec<u8> {
        let shape = self.shape();
        let size = shape.size();
        let boxes: Vec<&[u16]> = match self {
            Puzzle::Classic(_) => Layout::of(shape).houses().skip(2 * size).take(size).collect(),
            // Rows and columns come first in a variant's houses too, then the boxes or regions.
            Puzzle::Variant(puzzle) => puzzle.1.houses().skip(2 * size).take(size).collect(),
        };
        let mut regions = vec![0; shape.cells()];
        for (region, cells) in boxes.into_iter().enumerate() {
            for &cell in cells {
                regions[usize::from(cell)] = region as u8;
            }
        }
        regions
    }

    /// What the puzzle is: conflicting, unsolvable, unique or multiple (see
    /// [`AnyGrid::classify`]); a variant's conflicts name the constraints they break.
    pub fn classify(&self, interrupt: &mut impl Interrupt) -> Result<Verdict<AnyGrid, Conflict>, Interrupted> {
        self.classify_from(&mut Progress::default(), interrupt)
    }

    /// [`Puzzle::classify`], going on from where an earlier call paused: a classic 9x9 puzzle's
    /// search keeps in `progress` where `interrupt` stopped it (see [`Progress`]); other sizes
    /// and variants start over.
    pub fn classify_from(
        &self,
        progress: &mut Progress,
        interrupt: &mut impl Interrupt,
    ) -> Result<Verdict<AnyGrid, Conflict>, Interrupted> {
        let (grid, variant) = match self {
            Puzzle::Classic(grid) => return grid.classify(progress, interrupt),
            Puzzle::Variant(puzzle) => (&puzzle.0, &puzzle.1),
        };
        let count = solver::count_solutions(grid, variant, 2, interrupt)?;
        Ok(match (count.solutions, count.first) {
            (1, Some(solution)) => Verdict::Unique(AnyGrid::from(solution)),
            (_, Some(solution)) => Verdict::Multiple(AnyGrid::from(solution)),
            (_, None) => {
                let conflicts = rules::conflicts(grid, variant);
                if conflicts.is_empty() { Verdict::Unsolvable } else { Verdict::Conflicting(conflicts) }
            }
        })
    }

    /// The number of solutions up to `limit`, or the conflicting cells of a puzzle without any
    /// (see [`AnyGrid::count`]).
    pub fn count(
        &self,
        limit: usize,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<usize, Vec<Conflict>>, Interrupted> {
        self.count_from(limit, &mut Progress::default(), interrupt)
    }

    /// [`Puzzle::count`], going on from where an earlier call paused, as
    /// [`Puzzle::classify_from`] does.
    pub fn count_from(
        &self,
        limit: usize,
        progress: &mut Progress,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<usize, Vec<Conflict>>, Interrupted> {
        let (grid, variant) = match self {
            Puzzle::Classic(grid) => return grid.count(limit, progress, interrupt),
            Puzzle::Variant(puzzle) => (&puzzle.0, &puzzle.1),
        };
        let count = solver::count_solutions(grid, variant, limit, interrupt)?;
        let conflicts = if count.solutions == 0 { rules::conflicts(grid, variant) } else { Vec::new() };
        Ok(if conflicts.is_empty() { Ok(count.solutions) } else { Err(conflicts) })
    }

    /// How hard the puzzle is for a person, if it is a proper puzzle (see [`AnyGrid::rate`]); a
    /// variant's path takes the house-based techniques over its houses, its cage sums and its
    /// rules between touching cells, then brute force.
    pub fn rate(&self, interrupt: &mut impl Interrupt) -> Result<Result<Rating, Unanswerable<Conflict>>, Interrupted> {
        let (grid, variant) = match self {
            Puzzle::Classic(grid) => return grid.rate(interrupt),
            Puzzle::Variant(puzzle) => (&puzzle.0, &puzzle.1),
        };
        self.with_solution(interrupt, |solution, interrupt| {
            Ok(sized_logic::rate_until_in(Book::Variant(variant), grid, None, solution, interrupt))
        })
    }

    /// The candidates a person pencils in before any technique: in each blank cell every value
    /// the rules allow there (an even cell's even values, say) that no peer holds, peers by the
    /// variant's rules (a diagonal's cells, a knight's move away). For any board, proper puzzle
    /// or not: a blank cell left with none shows why a board cannot be completed.
    pub fn candidates(&self) -> Marks {
        match self {
            Puzzle::Classic(grid) => {
                let grid = sized(grid);
                sized_logic::basic_marks(Book::of(&grid), &grid)
            }
            Puzzle::Variant(puzzle) => sized_logic::basic_marks(Book::Variant(&puzzle.1), &puzzle.0),
        }
    }

    /// The steps a person takes up to and including the next placement, if it is a proper
    /// puzzle (see [`AnyGrid::hint`] and [`Puzzle::rate`]); empty for a complete grid.
    pub fn hint(
        &self,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<Vec<GridStep>, Unanswerable<Conflict>>, Interrupted> {
        let (grid, variant) = match self {
            Puzzle::Classic(grid) => return grid.hint(interrupt),
            Puzzle::Variant(puzzle) => (&puzzle.0, &puzzle.1),
        };
        self.with_solution(interrupt, |solution, interrupt| {
            sized_logic::steps_to_next_placement_in(Book::Variant(variant), grid, None, solution, interrupt)
        })
    }

    /// Every step from the puzzle to its solution, if it is a proper puzzle, with the path's
    /// rating (see [`AnyGrid::explain`] and [`Puzzle::rate`]).
    pub fn explain(
        &self,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<Explained, Unanswerable<Conflict>>, Interrupted> {
        let (grid, variant) = match self {
            Puzzle::Classic(grid) => return grid.explain(interrupt),
            Puzzle::Variant(puzzle) => (&puzzle.0, &puzzle.1),
        };
        self.with_solution(interrupt, |solution, interrupt| {
            let (steps, rating, end) =
                sized_logic::explain_in(Book::Variant(variant), grid, None, solution, interrupt)?;
            Ok(Explained { steps, rating, solution: AnyGrid::from(end) })
        })
    }

    /// [`Puzzle::rate`] from a player's pencil marks when given: how hard the rest is from where
    /// the player stands, each blank cell starting with the candidates both the marks and the
    /// basic eliminations leave. With `givens`, the puzzle as first given (the board then holds the
    /// player's entries too: see [`check_givens`](crate::sizes::check_givens)), the solution is
    /// the givens' and entries it does not have are mistakes. Mistakes are pointed out instead of
    /// a path, since a path from them could be wrong.
    ///
    /// # Panics
    /// If `marks` or `givens` are of another shape than the board.
    pub fn rate_from(
        &self,
        marks: Option<&Marks>,
        givens: Option<&AnyGrid>,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<Marked<Rating>, Unanswerable<Conflict>>, Interrupted> {
        self.with_checked_marks(marks, givens, interrupt, |solution, interrupt| match self {
            Puzzle::Classic(grid) => grid.rate_with(marks, solution, interrupt),
            Puzzle::Variant(puzzle) => {
                let book = Book::Variant(&puzzle.1);
                Ok(sized_logic::rate_until_in(book, &puzzle.0, marks, &sized(solution), interrupt))
            }
        })
    }

    /// [`Puzzle::hint`] from a player's pencil marks, as [`Puzzle::rate_from`]: the steps up to
    /// the next placement from where the player stands.
    ///
    /// # Panics
    /// If `marks` are of another shape than the board.
    pub fn hint_from(
        &self,
        marks: Option<&Marks>,
        givens: Option<&AnyGrid>,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<Marked<Vec<GridStep>>, Unanswerable<Conflict>>, Interrupted> {
        self.with_checked_marks(marks, givens, interrupt, |solution, interrupt| match self {
            Puzzle::Classic(grid) => grid.hint_with(marks, solution, interrupt),
            Puzzle::Variant(puzzle) => {
                let book = Book::Variant(&puzzle.1);
                sized_logic::steps_to_next_placement_in(book, &puzzle.0, marks, &sized(solution), interrupt)
            }
        })
    }

    /// [`Puzzle::explain`] from a player's pencil marks, as [`Puzzle::rate_from`].
    ///
    /// # Panics
    /// If `marks` are of another shape than the board.
    pub fn explain_from(
        &self,
        marks: Option<&Marks>,
        givens: Option<&AnyGrid>,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<Marked<Explained>, Unanswerable<Conflict>>, Interrupted> {
        self.with_checked_marks(marks, givens, interrupt, |solution, interrupt| match self {
            Puzzle::Classic(grid) => grid.explain_with(marks, solution, interrupt),
            Puzzle::Variant(puzzle) => {
                let book = Book::Variant(&puzzle.1);
                let (steps, rating, end) =
                    sized_logic::explain_in(book, &puzzle.0, marks, &sized(solution), interrupt)?;
                Ok(Explained { steps, rating, solution: AnyGrid::from(end) })
            }
        })
    }

    /// `job` on the one solution (of the givens when given, else of the board) once the board's
    /// entries and `marks` are checked against it, or what is wrong: the mistakes, or why there
    /// is no one solution.
    fn with_checked_marks<T, I: Interrupt>(
        &self,
        marks: Option<&Marks>,
        givens: Option<&AnyGrid>,
        interrupt: &mut I,
        job: impl FnOnce(&AnyGrid, &mut I) -> Result<T, Interrupted>,
    ) -> Result<Result<Marked<T>, Unanswerable<Conflict>>, Interrupted> {
        assert!(
            marks.is_none_or(|marks| marks.shape() == self.shape()),
            "pencil marks of another shape than the board"
        );
        assert!(givens.is_none_or(|givens| givens.shape() == self.shape()), "givens of another shape than the board");
        let verdict = match givens {
            Some(givens) => self.with_board(givens.clone()).classify(interrupt)?,
            None => self.classify(interrupt)?,
        };
        match verdict.unique() {
            Ok(solution) => {
                let board = self.grid();
                // A wrong entry rules its value out of its peers, so it may take a solution value
                // from marks the player never touched: entries first, marks once they are right.
                let mut mistakes = givens.map_or_else(Vec::new, |givens| wrong_entries(&board, givens, &solution));
                if let (true, Some(marks)) = (mistakes.is_empty(), marks) {
                    mistakes = marks.mistakes(&board, &solution);
                }
                if !mistakes.is_empty() {
                    return Ok(Ok(Marked::Mistaken(mistakes)));
                }
                job(&solution, interrupt).map(|followed| Ok(Marked::Followed(followed)))
            }
            Err(unanswerable) => Ok(Err(unanswerable)),
        }
    }

    /// `job` on the variant's one solution, or why there is none (see [`Puzzle::rate`]).
    fn with_solution<T, I: Interrupt>(
        &self,
        interrupt: &mut I,
        job: impl FnOnce(&Grid, &mut I) -> Result<T, Interrupted>,
    ) -> Result<Result<T, Unanswerable<Conflict>>, Interrupted> {
        match self.classify(interrupt)?.unique() {
            Ok(solution) => job(&sized(&solution), interrupt).map(Ok),
            Err(unanswerable) => Ok(Err(unanswerable)),
        }
    }

    /// `grid` under this puzzle's rules.
    fn with_board(&self, grid: AnyGrid) -> Puzzle {
        match self {
            Puzzle::Classic(_) => Puzzle::Classic(grid),
            Puzzle::Variant(puzzle) => Puzzle::Variant(Box::new((sized(&grid), puzzle.1.clone()))),
        }
    }

    /// The board checked against its rules, the variant's included.
    pub fn validate(&self) -> Validation<Conflict> {
        match self {
            Puzzle::Classic(grid) => grid.validate(),
            Puzzle::Variant(puzzle) => {
                let conflicts = rules::conflicts(&puzzle.0, &puzzle.1);
                Validation { valid: conflicts.is_empty(), complete: puzzle.0.is_complete(), conflicts }
            }
        }
    }
}

/// A grid of any shape as the variants' logic reads it.
pub(crate) fn sized(grid: &AnyGrid) -> Grid {
    match grid {
        AnyGrid::Classic(board) => Grid::from(board),
        AnyGrid::Sized(grid) => grid.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizes::Shape;

    #[test]
    fn regions_are_the_boxes_or_the_jigsaw_regions() {
        let grid = AnyGrid::from(Grid::empty(Shape::new(2, 3).unwrap()));
        let classic = Puzzle::new(grid.clone(), None, &Constraints::default()).unwrap();
        let expected: Vec<u8> = (0..36).map(|cell| (cell / 6 / 2 * 2 + cell % 6 / 3) as u8).collect();
        assert_eq!(classic.regions(), expected);
        // A diagonal keeps the boxes.
        let x = Puzzle::new(grid.clone(), Some(Preset::X), &Constraints::default()).unwrap();
        assert_eq!(x.regions(), expected);
        // Jigsaw regions as columns: region = column.
        let line: String = (0..36).map(|cell| char::from(b'a' + (cell % 6) as u8)).collect();
        let constraints = Constraints { regions: Some(Regions::Line(line)), ..Constraints::default() };
        let jigsaw = Puzzle::new(grid, Some(Preset::Jigsaw), &constraints).unwrap();
        let columns: Vec<u8> = (0..36).map(|cell| (cell % 6) as u8).collect();
        assert_eq!(jigsaw.regions(), columns);
    }
}

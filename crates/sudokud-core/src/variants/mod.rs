//! Variant Sudoku: diagonals, extra regions, jigsaw regions, killer cages, anti-knight,
//! anti-king, non-consecutive, thermometers, Kropki dots and even/odd cells, as data next to a
//! board of any size, alone or combined.
//!
//! [`Constraints`] is what a request gives, [`Preset`] a variant by name; [`Variant::new`] checks
//! them against the grid's shape once and builds the houses, peers, pair relations and cage sums
//! that [`solver`] and [`rules`] read. [`Puzzle`] is a board with or without constraints, and
//! sends each to its solver: a board without constraints keeps its classic path untouched.

pub mod generate;
pub mod rules;
pub mod solver;

pub(crate) use sudokud_model::{constraints, variant};

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

/// The killer's innie and outie groups (`sudokud_model::family::cages::sum_groups`) on generated puzzles and
/// in the logic's steps, which the model's own tests cannot reach.
#[cfg(test)]
pub(crate) mod sum_group_tests {
    use super::{Constraints, Preset, Variant};
    use crate::logic::Level;
    use crate::rules::Unit;
    use crate::sizes::Shape;
    use crate::solver::Never;

    /// Every group's cells, read off a solved grid, add up to its sum: the solution is the
    /// oracle, and the groups were found from the cages alone.
    #[test]
    fn every_group_adds_up_on_the_solution() {
        let shape = Shape::new(3, 3).unwrap();
        let (mut innies, mut outies) = (0, 0);
        for seed in 0..6 {
            let generated = super::generate::made(shape, Preset::Killer, Level::Easy, seed);
            let variant = Variant::new(shape, Some(Preset::Killer), &generated.constraints).unwrap();
            for group in &variant.sum_groups {
                let digits = group.cells.iter().map(|&cell| u32::from(generated.solution.cells()[usize::from(cell)]));
                assert_eq!(digits.sum::<u32>(), group.sum, "{group:?}");
                assert!(group.cells.len() <= 9);
                if group.outies {
                    outies += 1;
                } else {
                    innies += 1;
                }
            }
        }
        assert!(innies > 50 && outies > 50, "{innies} innie and {outies} outie groups");
    }

    /// Hard and extreme killers explained step by step: every placement and elimination agrees
    /// with the solution, and the innies-and-outies and cage-combination sentences say which
    /// area, cage and cells.
    #[test]
    fn killer_steps_keep_the_solution() {
        use crate::logic::Technique;
        let shape = Shape::new(3, 3).unwrap();
        let (mut innies, mut combinations) = (Vec::new(), Vec::new());
        for (level, seed) in
            [(Level::Hard, 0), (Level::Hard, 1), (Level::Hard, 2), (Level::Extreme, 0), (Level::Extreme, 1)]
        {
            let generated = super::generate::made(shape, Preset::Killer, level, seed);
            let puzzle =
                super::Puzzle::new(generated.puzzle.clone().into(), Some(Preset::Killer), &generated.constraints)
                    .unwrap();
            let explained = puzzle.explain(&mut Never).unwrap().unwrap();
            let solution = generated.solution.cells();
            let digit = |row: usize, col: usize| solution[row * 9 + col];
            for step in &explained.steps {
                assert!(step.placements.iter().all(|placed| placed.digit == digit(placed.row, placed.col)), "{step:?}");
                assert!(step.eliminations.iter().all(|lost| lost.digit != digit(lost.row, lost.col)), "{step:?}");
                match step.technique {
                    Technique::InniesOuties => innies.push(step.explanation.clone()),
                    Technique::CageCombination => combinations.push(step.explanation.clone()),
                    _ => {}
                }
            }
        }
        assert!(innies.len() >= 6, "{innies:?}");
        let adds_up = |text: &String| text.contains(" add up to ") || text.contains(" adds up to ");
        assert!(innies.iter().all(adds_up), "{innies:?}");
        assert!(innies.iter().any(|text| text.starts_with("The cages that cover ")), "no outies in {innies:?}");
        assert!(innies.iter().any(|text| text.contains("wholly inside")), "no innies in {innies:?}");
        assert!(combinations.len() >= 3, "{combinations:?}");
        let said = |text: &String| {
            text.starts_with("Trying every way the cage of ") || text.starts_with("Every way the cage of ")
        };
        assert!(combinations.iter().all(said), "{combinations:?}");
    }

    /// Boxes 1 and 2 of a 9x9 grid: a cage across their border (r1c3, r1c4: 3), the rest of box
    /// 1 (44) and of box 2 but r3c6 (38) lie wholly inside the pair, so r3c6 adds up to
    /// 90 - 85 = 5, which neither box alone shows (each has a cage sticking out).
    pub(crate) fn cages_across_two_boxes() -> Constraints {
        let box_1 = (0..3).flat_map(|row| (0..3).map(move |col| [row, col]));
        let box_2 = (0..3).flat_map(|row| (3..6).map(move |col| [row, col]));
        let rest_1: Vec<_> = box_1.filter(|&cell| cell != [0, 2]).collect();
        let rest_2: Vec<_> = box_2.filter(|&cell| cell != [0, 3] && cell != [2, 5]).collect();
        serde_json::from_value(serde_json::json!({
            "cages": [{"cells": [[0, 2], [0, 3]], "sum": 3}, {"cells": rest_1, "sum": 44}, {"cells": rest_2, "sum": 38}]
        }))
        .unwrap()
    }

    #[test]
    fn a_cage_across_two_boxes_gives_an_innie_of_the_pair() {
        let variant = Variant::new(Shape::CLASSIC, None, &cages_across_two_boxes()).unwrap();
        let pair = variant.sum_groups.iter().find(|group| group.cells == [23]).expect("an innie r3c6");
        assert_eq!((pair.sum, pair.outies, pair.houses.len()), (5, false, 2));
        let boxes: Vec<Unit> = pair.houses.iter().map(|&house| variant.house_units[usize::from(house)]).collect();
        assert_eq!(boxes, [Unit::Box, Unit::Box]);
    }
}

//! A grid of any size, the classic 9x9 one in its own fast form: what the service and the CLI
//! take and answer, so that which solver and which rules a grid goes to is decided here, once.

use std::fmt;

use super::generate as sized_generate;
use super::grid::Grid;
use super::logic::{self as sized_logic, Book, GridStep};
use super::marks::Marks;
use super::rules::{self as sized_rules, Conflict};
use super::shape::Shape;
use super::solver as sized_solver;
use crate::board::{Board, BoardError, CELLS};
use crate::generate::{self, Symmetry};
use crate::logic::{self, Level, Rating};
use crate::rules::{self, Validation};
use crate::solver::{self, Interrupt, Interrupted, Progress, Unanswerable, Verdict};

/// A board of any size: the 9x9 board with 3x3 boxes, which [`crate::solver`] is specialised
/// for, or a grid of another shape, which [`super::solver`] serves.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyGrid {
    /// 9x9 with 3x3 boxes.
    Classic(Board),
    /// Every other shape.
    Sized(Grid),
}

impl AnyGrid {
    /// Reads a text board of any size, as [`Grid::parse`] does, with boxes of `shape` when given;
    /// 81 cells make the classic board, read (and its mistakes worded) as [`Board::parse_line`]
    /// does.
    pub fn parse(text: &str, shape: Option<Shape>) -> Result<AnyGrid, BoardError> {
        ReadCells::parse(text)?.with_box(shape)
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        match self {
            AnyGrid::Classic(_) => Shape::CLASSIC,
            AnyGrid::Sized(grid) => grid.shape(),
        }
    }

    /// The cells in row-major order, 0 for blank.
    pub fn cells(&self) -> &[u8] {
        match self {
            AnyGrid::Classic(board) => board.cells(),
            AnyGrid::Sized(grid) => grid.cells(),
        }
    }

    /// Whether every cell is filled.
    pub fn is_complete(&self) -> bool {
        self.cells().iter().all(|&value| value != 0)
    }

    /// What the puzzle is: conflicting, unsolvable, unique or multiple (see
    /// [`solver::classify`]), going on from where an earlier call paused: a 9x9 grid's search
    /// keeps in `progress` where `interrupt` stopped it (see [`Progress`]); other sizes start
    /// over.
    pub fn classify(
        &self,
        progress: &mut Progress,
        interrupt: &mut impl Interrupt,
    ) -> Result<Verdict<AnyGrid, Conflict>, Interrupted> {
        Ok(match self {
            AnyGrid::Classic(board) => match solver::classify_from(board, progress, interrupt)? {
                Verdict::Conflicting(conflicts) => {
                    Verdict::Conflicting(conflicts.into_iter().map(Conflict::from).collect())
                }
                Verdict::Unsolvable => Verdict::Unsolvable,
                Verdict::Unique(solution) => Verdict::Unique(AnyGrid::Classic(solution)),
                Verdict::Multiple(solution) => Verdict::Multiple(AnyGrid::Classic(solution)),
            },
            AnyGrid::Sized(grid) => match sized_solver::classify(grid, interrupt)? {
                Verdict::Conflicting(conflicts) => Verdict::Conflicting(conflicts),
                Verdict::Unsolvable => Verdict::Unsolvable,
                Verdict::Unique(solution) => Verdict::Unique(AnyGrid::Sized(solution)),
                Verdict::Multiple(solution) => Verdict::Multiple(AnyGrid::Sized(solution)),
            },
        })
    }

    /// The number of solutions up to `limit`, or the conflicting givens of a grid without any
    /// (see [`solver::count_or_conflicts`]), going on from where an earlier call paused, as
    /// [`AnyGrid::classify`] does.
    pub fn count(
        &self,
        limit: usize,
        progress: &mut Progress,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<usize, Vec<Conflict>>, Interrupted> {
        Ok(match self {
            AnyGrid::Classic(board) => solver::count_or_conflicts(board, limit, progress, interrupt)?
                .map(|count| count.solutions)
                .map_err(|conflicts| conflicts.into_iter().map(Conflict::from).collect()),
            AnyGrid::Sized(grid) => {
                let count = sized_solver::count_solutions(grid, limit, interrupt)?;
                let conflicts = if count.solutions == 0 { sized_rules::conflicts(grid) } else { Vec::new() };
                if conflicts.is_empty() { Ok(count.solutions) } else { Err(conflicts) }
            }
        })
    }

    /// How hard the puzzle is for a person, if it is a proper puzzle (see [`crate::logic::rate`]
    /// for 9x9 and [`sized_logic::rate`] for other shapes, whose ratings use the house-based
    /// techniques alone); otherwise why it has no rating: its conflicts, no solution or several.
    /// `interrupt` stopping the rating (not the search for the solution before it) answers the
    /// lower bound reached, not [`Rating::exact`].
    pub fn rate(&self, interrupt: &mut impl Interrupt) -> Result<Result<Rating, Unanswerable<Conflict>>, Interrupted> {
        self.with_solution(interrupt, |puzzle, solution, interrupt| puzzle.rate_with(None, solution, interrupt))
    }

    /// [`AnyGrid::rate`] with `solution` known, from a player's `marks` when given (which must keep
    /// every value of the solution: see [`Marks::mistakes`]).
    pub(crate) fn rate_with(
        &self,
        marks: Option<&Marks>,
        solution: &AnyGrid,
        interrupt: &mut impl Interrupt,
    ) -> Result<Rating, Interrupted> {
        Ok(match (self, solution) {
            (AnyGrid::Classic(puzzle), AnyGrid::Classic(solution)) => {
                logic::rate_until(puzzle, marks, solution, interrupt)
            }
            (AnyGrid::Sized(puzzle), AnyGrid::Sized(solution)) => {
                sized_logic::rate_until_in(Book::of(puzzle), puzzle, marks, solution, interrupt)
            }
            _ => unreachable!("a solution has its puzzle's shape"),
        })
    }

    /// The steps a person takes up to and including the next placement, if it is a proper
    /// puzzle (see [`crate::logic::steps_to_next_placement`]; other shapes take the house-based
    /// techniques, [`sized_logic::steps_to_next_placement`]); empty for a complete grid.
    pub fn hint(
        &self,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<Vec<GridStep>, Unanswerable<Conflict>>, Interrupted> {
        self.with_solution(interrupt, |puzzle, solution, interrupt| puzzle.hint_with(None, solution, interrupt))
    }

    /// [`AnyGrid::hint`] with `solution` known, from a player's `marks` when given, as
    /// [`AnyGrid::rate_with`].
    pub(crate) fn hint_with(
        &self,
        marks: Option<&Marks>,
        solution: &AnyGrid,
        interrupt: &mut impl Interrupt,
    ) -> Result<Vec<GridStep>, Interrupted> {
        match (self, solution) {
            (AnyGrid::Classic(puzzle), AnyGrid::Classic(solution)) => {
                let steps = logic::steps_to_next_placement_from(puzzle, marks, solution, interrupt)?;
                Ok(steps.into_iter().map(GridStep::from).collect())
            }
            (AnyGrid::Sized(puzzle), AnyGrid::Sized(solution)) => {
                sized_logic::steps_to_next_placement_in(Book::of(puzzle), puzzle, marks, solution, interrupt)
            }
            _ => unreachable!("a solution has its puzzle's shape"),
        }
    }

    /// Every step from the puzzle to its solution, if it is a proper puzzle, with the path's
    /// rating (see [`crate::logic::explain`] and [`sized_logic::explain`]).
    pub fn explain(
        &self,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<Explained, Unanswerable<Conflict>>, Interrupted> {
        self.with_solution(interrupt, |puzzle, solution, interrupt| puzzle.explain_with(None, solution, interrupt))
    }

    /// [`AnyGrid::explain`] with `solution` known, from a player's `marks` when given, as
    /// [`AnyGrid::rate_with`].
    pub(crate) fn explain_with(
        &self,
        marks: Option<&Marks>,
        solution: &AnyGrid,
        interrupt: &mut impl Interrupt,
    ) -> Result<Explained, Interrupted> {
        match (self, solution) {
            (AnyGrid::Classic(puzzle), AnyGrid::Classic(solution)) => {
                let explanation = logic::explain_from(puzzle, marks, solution, interrupt)?;
                let steps = explanation.steps.into_iter().map(GridStep::from).collect();
                Ok(Explained { steps, rating: explanation.rating, solution: AnyGrid::Classic(explanation.solution) })
            }
            (AnyGrid::Sized(puzzle), AnyGrid::Sized(solution)) => {
                let (steps, rating, end) =
                    sized_logic::explain_in(Book::of(puzzle), puzzle, marks, solution, interrupt)?;
                Ok(Explained { steps, rating, solution: AnyGrid::Sized(end) })
            }
            _ => unreachable!("a solution has its puzzle's shape"),
        }
    }

    /// `job` on the puzzle and its one solution, or why there is none: ratings, hints and
    /// explanations mean something only for a proper puzzle (a "next step" of a puzzle with
    /// several solutions is a guess, and uniqueness techniques rely on one).
    fn with_solution<T, I: Interrupt>(
        &self,
        interrupt: &mut I,
        job: impl FnOnce(&AnyGrid, &AnyGrid, &mut I) -> Result<T, Interrupted>,
    ) -> Result<Result<T, Unanswerable<Conflict>>, Interrupted> {
        match self.classify(&mut Progress::default(), interrupt)?.unique() {
            Ok(solution) => job(self, &solution, interrupt).map(Ok),
            Err(unanswerable) => Ok(Err(unanswerable)),
        }
    }

    /// The grid checked against the rules.
    pub fn validate(&self) -> Validation<Conflict> {
        let conflicts: Vec<Conflict> = match self {
            AnyGrid::Classic(board) => rules::conflicts(board).into_iter().map(Conflict::from).collect(),
            AnyGrid::Sized(grid) => sized_rules::conflicts(grid),
        };
        Validation { valid: conflicts.is_empty(), complete: self.is_complete(), conflicts }
    }
}

/// A generated puzzle of any shape, its solution and its rating.
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedGrid {
    /// The puzzle, with one solution.
    pub puzzle: AnyGrid,
    /// Its solution.
    pub solution: AnyGrid,
    /// Its rating, of the level asked for.
    pub rating: Rating,
}

/// A whole solving path: what [`AnyGrid::explain`] answers.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// Every step, in order.
    pub steps: Vec<GridStep>,
    /// The rating of the path.
    pub rating: Rating,
    /// The grid after the last step: the solution.
    pub solution: AnyGrid,
}

/// A level [`AnyGrid::generate`] does not offer for a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{level} puzzles are not offered at {n}x{n}; its levels are {}",
    AnyGrid::levels(*shape).iter().map(Level::to_string).collect::<Vec<_>>().join(", "),
    n = shape.size()
)]
pub struct NotOffered {
    /// The level asked for.
    pub level: Level,
    /// The shape asked for.
    pub shape: Shape,
}

impl AnyGrid {
    /// The levels [`AnyGrid::generate`] offers for `shape`: every level for 9x9, and for other
    /// shapes [`sized_generate::levels`].
    pub fn levels(shape: Shape) -> &'static [Level] {
        if shape == Shape::CLASSIC { &Level::ALL } else { sized_generate::levels(shape) }
    }

    /// Whether `level` is offered for `shape`, or the error that says which levels are.
    pub fn offers(shape: Shape, level: Level) -> Result<(), NotOffered> {
        if AnyGrid::levels(shape).contains(&level) { Ok(()) } else { Err(NotOffered { level, shape }) }
    }

    /// A puzzle of `shape` and `level` from `seed`: the 9x9 generator ([`generate::generate`])
    /// for 9x9, whose ratings use every technique, and [`sized_generate::generate`] for others.
    pub fn generate(
        shape: Shape,
        level: Level,
        symmetry: Symmetry,
        seed: u64,
        interrupt: &mut impl Interrupt,
    ) -> Result<GeneratedGrid, Interrupted> {
        if shape == Shape::CLASSIC {
            let generated = generate::generate(level, symmetry, seed, interrupt)?;
            let (puzzle, solution) = (AnyGrid::Classic(generated.puzzle), AnyGrid::Classic(generated.solution));
            return Ok(GeneratedGrid { puzzle, solution, rating: generated.rating });
        }
        let generated = sized_generate::generate(shape, level, symmetry, seed, interrupt)?;
        let (puzzle, solution) = (AnyGrid::Sized(generated.puzzle), AnyGrid::Sized(generated.solution));
        Ok(GeneratedGrid { puzzle, solution, rating: generated.rating })
    }
}

/// The cells of a board of any size as read, before its box is known: a 9x9 board straight into
/// its fast form (9x9 has one box shape), any other size as N x N values 0 to N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ReadCells {
    Classic(Board),
    Sized { size: usize, cells: Vec<u8> },
}

impl ReadCells {
    /// Reads a text board: 81 cells as [`Board::parse_line`] does, any other count of cells as
    /// [`Grid::parse`] does.
    pub(crate) fn parse(text: &str) -> Result<ReadCells, BoardError> {
        match Board::parse_line(text) {
            Ok(board) => Ok(ReadCells::Classic(board)),
            // 81 cells are a 9x9 board, whose reader words the mistake; another count is a grid
            // of another size perhaps (whose letters the 9x9 reader refuses before it counts).
            Err(error) if Grid::cell_count(text) == CELLS => Err(error),
            Err(_) => {
                let (size, cells) = Grid::read_cells(text)?;
                Ok(ReadCells::Sized { size, cells })
            }
        }
    }

    /// The grid, with boxes of `shape` when given (it must fit the board's size) or else of the
    /// size's default ([`Shape::default_for`]).
    pub(crate) fn with_box(self, shape: Option<Shape>) -> Result<AnyGrid, BoardError> {
        match (self, shape) {
            (ReadCells::Classic(_), Some(shape)) if shape != Shape::CLASSIC => {
                Err(BoardError::BoxMismatch { shape, size: Shape::CLASSIC.size() })
            }
            (ReadCells::Classic(board), _) => Ok(AnyGrid::Classic(board)),
            (ReadCells::Sized { size, cells }, shape) => {
                let shape = shape.unwrap_or_else(|| Shape::default_for(size).expect("the readers only accept sizes"));
                Grid::new(shape, cells).map(AnyGrid::Sized)
            }
        }
    }
}

/// A grid of the classic shape becomes the classic board.
impl From<Grid> for AnyGrid {
    fn from(grid: Grid) -> AnyGrid {
        match grid.to_board() {
            Some(board) => AnyGrid::Classic(board),
            None => AnyGrid::Sized(grid),
        }
    }
}

/// One line of N x N symbols, `.` for blank.
impl fmt::Display for AnyGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyGrid::Classic(board) => board.fmt(f),
            AnyGrid::Sized(grid) => grid.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::EXAMPLE_PUZZLE;
    use crate::generate::Symmetry;
    use crate::solver::Never;

    const SIX: &str = "1.3...4.6..3.3.2...5.6.1..2.5.....1.";

    #[test]
    fn the_classic_shape_takes_the_classic_path_and_others_the_generic_one() {
        assert!(matches!(AnyGrid::parse(EXAMPLE_PUZZLE, None), Ok(AnyGrid::Classic(_))));
        assert!(matches!(AnyGrid::parse(EXAMPLE_PUZZLE, Some(Shape::CLASSIC)), Ok(AnyGrid::Classic(_))));
        assert!(matches!(AnyGrid::parse(SIX, None), Ok(AnyGrid::Sized(_))));
        let grid = Grid::parse(EXAMPLE_PUZZLE, None).unwrap();
        assert!(matches!(AnyGrid::from(grid), AnyGrid::Classic(_)));
        assert_eq!(
            AnyGrid::parse(EXAMPLE_PUZZLE, Shape::new(2, 3)),
            Err(BoardError::BoxMismatch { shape: Shape::new(2, 3).unwrap(), size: 9 })
        );
    }

    #[test]
    fn generation_takes_the_classic_generator_for_9x9_and_offers_its_levels() {
        let classic = AnyGrid::generate(Shape::CLASSIC, Level::Hard, Symmetry::None, 4, &mut Never).unwrap();
        let expected = generate::generate(Level::Hard, Symmetry::None, 4, &mut Never).unwrap();
        assert_eq!(classic.puzzle, AnyGrid::Classic(expected.puzzle));
        assert_eq!(AnyGrid::levels(Shape::CLASSIC), Level::ALL);
        let six = Shape::new(3, 2).unwrap();
        let generated = AnyGrid::generate(six, Level::Medium, Symmetry::None, 4, &mut Never).unwrap();
        assert_eq!((generated.puzzle.shape(), generated.rating.level), (six, Level::Medium));
        let four = Shape::new(2, 2).unwrap();
        let refused = AnyGrid::offers(four, Level::Medium).unwrap_err();
        assert_eq!(refused.to_string(), "medium puzzles are not offered at 4x4; its levels are easy");
        assert_eq!(AnyGrid::offers(six, Level::Extreme), Ok(()));
    }

    #[test]
    fn a_rating_is_for_proper_puzzles_of_any_shape() {
        let classic = AnyGrid::parse(EXAMPLE_PUZZLE, None).unwrap();
        let expected =
            logic::rate(&EXAMPLE_PUZZLE.parse().unwrap(), &crate::board::EXAMPLE_SOLUTION.parse().unwrap(), &mut Never);
        assert_eq!(classic.rate(&mut Never).unwrap(), Ok(expected.unwrap()));
        let six = Shape::new(3, 2).unwrap();
        let generated = AnyGrid::generate(six, Level::Medium, Symmetry::None, 4, &mut Never).unwrap();
        assert_eq!(generated.puzzle.rate(&mut Never).unwrap(), Ok(generated.rating));
        let empty = AnyGrid::from(Grid::empty(six));
        assert_eq!(empty.rate(&mut Never).unwrap(), Err(Unanswerable::Multiple));
    }

    #[test]
    fn hints_and_explanations_are_for_proper_puzzles_of_any_shape() {
        let classic = AnyGrid::parse(EXAMPLE_PUZZLE, None).unwrap();
        let hint = classic.hint(&mut Never).unwrap().unwrap();
        assert_eq!(hint[0].explanation, "In box 2, 8 fits only in r1c6, so r1c6 = 8.");
        let six = Shape::new(2, 3).unwrap();
        let generated = AnyGrid::generate(six, Level::Medium, Symmetry::None, 3, &mut Never).unwrap();
        let explained = generated.puzzle.explain(&mut Never).unwrap().unwrap();
        assert_eq!((explained.solution, explained.rating), (generated.solution, generated.rating));
        let hint = generated.puzzle.hint(&mut Never).unwrap().unwrap();
        assert_eq!(hint, explained.steps[..hint.len()]);
        let empty = AnyGrid::from(Grid::empty(six));
        assert_eq!(empty.hint(&mut Never).unwrap(), Err(Unanswerable::Multiple));
    }

    #[test]
    fn both_paths_answer_alike() {
        let six =
            super::super::generate::unique(Shape::new(2, 3).unwrap(), Symmetry::None, 0, 6, &mut Never).unwrap().0;
        for text in [EXAMPLE_PUZZLE.to_owned(), six.to_string()] {
            let grid = AnyGrid::parse(&text, None).unwrap();
            let Ok(Verdict::Unique(solution)) = grid.classify(&mut Progress::default(), &mut Never) else {
                panic!("{text}")
            };
            assert!(solution.validate().valid && solution.is_complete());
            assert_eq!(grid.count(10, &mut Progress::default(), &mut Never), Ok(Ok(1)));
            let mut conflicting = solution.cells().to_vec();
            conflicting[1] = conflicting[0];
            let conflicting = AnyGrid::from(Grid::new(grid.shape(), conflicting).unwrap());
            let validation = conflicting.validate();
            assert!(!validation.valid && !validation.conflicts.is_empty());
            assert_eq!(
                conflicting.count(10, &mut Progress::default(), &mut Never),
                Ok(Err(validation.conflicts.clone()))
            );
            assert_eq!(
                conflicting.classify(&mut Progress::default(), &mut Never),
                Ok(Verdict::Conflicting(validation.conflicts))
            );
        }
    }
}

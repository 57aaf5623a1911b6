//! The front door: a board and the rules it is played by, and all the core does with one
//! (classify, count, rate, hint, explain, candidates, validate) and makes (generate), for every
//! size and variant.
//!
//! [`Puzzle`] is the one place that sends a puzzle to its engine: a classic 9x9 board to the 9x9
//! solver and logic ([`crate::solver`], [`crate::logic`]), a grid of another shape to the
//! generic ones ([`crate::sizes`]), a variant to [`crate::variants`]; a board without
//! constraints keeps its classic path untouched.

use std::borrow::Cow;

use crate::board::Board;
use crate::exchange::SharedPuzzle;
use crate::generate::variants::{self as variant_generate, Refused};
use crate::generate::{self, Symmetry};
use crate::interrupt::{Interrupt, Interrupted};
use crate::logic::sized::{self as sized_logic, Book, GridStep};
use crate::logic::{self, Level, Rating};
use crate::rules::{self, Conflict, Validation};
use crate::search::{self, Target};
use crate::sizes::layout::Layout;
use crate::sizes::{self, AnyGrid, Grid, Marked, Marks, Shape, wrong_entries};
use crate::solver::Progress;
use crate::variants::{ConstraintError, Constraints, Preset, Variant};
use crate::verdict::{Unanswerable, Verdict};

/// A board and the rules it is played by: the classic rules alone, or a variant's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Puzzle {
    /// No constraint beyond rows, columns and boxes.
    Classic(AnyGrid),
    /// A grid under a variant's constraints.
    Variant(Box<(Grid, Variant)>),
}

/// A generated puzzle of any shape and rules, its solution and its rating.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The givens, with one solution.
    pub puzzle: AnyGrid,
    /// Its solution.
    pub solution: AnyGrid,
    /// For a variant, the constraints it is played by: the request's, the preset's, and any
    /// regions or cages made for it.
    pub constraints: Option<Constraints>,
    /// Its rating, of the level asked for.
    pub rating: Rating,
    /// Solved grids tried, this one included.
    pub attempts: u32,
}

impl Generated {
    /// The puzzle under the rules it was made for.
    pub fn to_puzzle(&self) -> Result<Puzzle, ConstraintError> {
        match &self.constraints {
            None => Ok(Puzzle::Classic(self.puzzle.clone())),
            // The made constraints hold the preset's already.
            Some(constraints) => Puzzle::new(self.puzzle.clone(), None, constraints),
        }
    }
}

/// A whole solving path: what [`Puzzle::explain`] answers.
#[derive(Clone, Debug, PartialEq)]
pub struct Explained {
    /// Every step, in order.
    pub steps: Vec<GridStep>,
    /// The rating of the path.
    pub rating: Rating,
    /// The grid after the last step: the solution.
    pub solution: AnyGrid,
}

/// A level [`Puzzle::generate`] does not offer for a shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{level} puzzles are not offered at {n}x{n}; its levels are {}",
    Puzzle::levels(*shape).iter().map(Level::to_string).collect::<Vec<_>>().join(", "),
    n = shape.size()
)]
pub struct NotOffered {
    /// The level asked for.
    pub level: Level,
    /// The shape asked for.
    pub shape: Shape,
}

impl Puzzle {
    /// `grid` under `preset`'s and `constraints`' rules, checked against its shape; the classic
    /// rules alone when neither adds anything.
    pub fn new(grid: AnyGrid, preset: Option<Preset>, constraints: &Constraints) -> Result<Puzzle, ConstraintError> {
        if preset.is_none() && constraints.is_empty() {
            return Ok(Puzzle::Classic(grid));
        }
        let grid = Grid::from(grid);
        let variant = Variant::new(grid.shape(), preset, constraints)?;
        Ok(Puzzle::Variant(Box::new((grid, variant))))
    }

    /// The puzzle another tool shared ([`crate::exchange::read`]), its rules checked as
    /// [`Puzzle::new`] checks them.
    pub fn from_shared(shared: SharedPuzzle) -> Result<Puzzle, ConstraintError> {
        Puzzle::new(AnyGrid::from(shared.givens), None, &shared.constraints)
    }

    /// The puzzle as other tools share it ([`crate::exchange::write`]): its board as givens,
    /// its rules with a preset's written out.
    pub fn to_shared(&self) -> SharedPuzzle {
        let constraints = self.variant().map(|variant| variant.constraints().clone()).unwrap_or_default();
        SharedPuzzle { givens: Grid::from(self.grid()), constraints }
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
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
    /// [`search::classify_from`]); a variant's conflicts name the constraints they break.
    pub fn classify(&self, interrupt: &mut impl Interrupt) -> Result<Verdict<AnyGrid>, Interrupted> {
        self.classify_from(&mut Progress::default(), interrupt)
    }

    /// [`Puzzle::classify`], going on from where an earlier call paused: a classic 9x9 puzzle's
    /// search keeps in `progress` where `interrupt` stopped it (see [`Progress`]); other sizes
    /// and variants start over.
    pub fn classify_from(
        &self,
        progress: &mut Progress,
        interrupt: &mut impl Interrupt,
    ) -> Result<Verdict<AnyGrid>, Interrupted> {
        search::classify_from(self.target(), progress, interrupt, || self.conflicts())
    }

    /// The number of solutions up to `limit`, or the conflicting cells of a puzzle without any
    /// (see [`search::count_from`]).
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
        let count = search::count_from(self.target(), limit, progress, interrupt, || self.conflicts())?;
        Ok(count.map(|count| count.solutions))
    }

    /// What the search runs on.
    fn target(&self) -> Target<'_> {
        match self {
            Puzzle::Classic(AnyGrid::Classic(board)) => Target::Classic(board),
            Puzzle::Classic(AnyGrid::Sized(grid)) => Target::Grid(grid),
            Puzzle::Variant(puzzle) => Target::Variant(&puzzle.0, &puzzle.1),
        }
    }

    /// The givens that break the rules, the variant's included.
    fn conflicts(&self) -> Vec<Conflict> {
        match self {
            Puzzle::Classic(AnyGrid::Classic(board)) => rules::conflicts(board),
            Puzzle::Classic(AnyGrid::Sized(grid)) => sizes::rules::conflicts(grid),
            Puzzle::Variant(puzzle) => puzzle.1.conflicts(&puzzle.0),
        }
    }

    /// The board checked against its rules, the variant's included.
    pub fn validate(&self) -> Validation {
        let conflicts = self.conflicts();
        let complete = match self {
            Puzzle::Classic(grid) => grid.is_complete(),
            Puzzle::Variant(puzzle) => puzzle.0.is_complete(),
        };
        Validation { valid: conflicts.is_empty(), complete, conflicts }
    }

    /// How hard the puzzle is for a person, if it is a proper puzzle (see [`crate::logic::rate`]
    /// for 9x9, whose ratings use every technique, and [`sized_logic::rate`] for other shapes,
    /// whose ratings use the house-based techniques alone; a variant's path takes them over its
    /// houses, its cage sums and its rules between touching cells, then brute force); otherwise
    /// why it has no rating: its conflicts, no solution or several. `interrupt` stopping the
    /// rating (not the search for the solution before it) answers the lower bound reached, not
    /// [`Rating::exact`].
    pub fn rate(&self, interrupt: &mut impl Interrupt) -> Result<Result<Rating, Unanswerable>, Interrupted> {
        self.with_solution(interrupt, |solution, interrupt| self.rate_with(None, solution, interrupt))
    }

    /// The steps a person takes up to and including the next placement, if it is a proper
    /// puzzle (see [`crate::logic::steps_to_next_placement`] and [`Puzzle::rate`]); empty for a
    /// complete grid.
    pub fn hint(&self, interrupt: &mut impl Interrupt) -> Result<Result<Vec<GridStep>, Unanswerable>, Interrupted> {
        self.with_solution(interrupt, |solution, interrupt| self.hint_with(None, solution, interrupt))
    }

    /// Every step from the puzzle to its solution, if it is a proper puzzle, with the path's
    /// rating (see [`crate::logic::explain`] and [`Puzzle::rate`]).
    pub fn explain(&self, interrupt: &mut impl Interrupt) -> Result<Result<Explained, Unanswerable>, Interrupted> {
        self.with_solution(interrupt, |solution, interrupt| self.explain_with(None, solution, interrupt))
    }

    /// The candidates a person pencils in before any technique: in each blank cell every value
    /// the rules allow there (an even cell's even values, say) that no peer holds, peers by the
    /// variant's rules (a diagonal's cells, a knight's move away). For any board, proper puzzle
    /// or not: a blank cell left with none shows why a board cannot be completed.
    pub fn candidates(&self) -> Marks {
        match self {
            Puzzle::Classic(grid) => {
                let grid = Grid::from(grid.clone());
                sized_logic::basic_marks(Book::of(&grid), &grid)
            }
            Puzzle::Variant(puzzle) => sized_logic::basic_marks(Book::Variant(&puzzle.1), &puzzle.0),
        }
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
    ) -> Result<Result<Marked<Rating>, Unanswerable>, Interrupted> {
        self.with_checked_marks(marks, givens, interrupt, |solution, interrupt| {
            self.rate_with(marks, solution, interrupt)
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
    ) -> Result<Result<Marked<Vec<GridStep>>, Unanswerable>, Interrupted> {
        self.with_checked_marks(marks, givens, interrupt, |solution, interrupt| {
            self.hint_with(marks, solution, interrupt)
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
    ) -> Result<Result<Marked<Explained>, Unanswerable>, Interrupted> {
        self.with_checked_marks(marks, givens, interrupt, |solution, interrupt| {
            self.explain_with(marks, solution, interrupt)
        })
    }

    /// [`Puzzle::rate`] with `solution` known, from a player's `marks` when given (which must keep
    /// every value of the solution: see [`Marks::mistakes`]).
    pub(crate) fn rate_with(
        &self,
        marks: Option<&Marks>,
        solution: &AnyGrid,
        interrupt: &mut impl Interrupt,
    ) -> Result<Rating, Interrupted> {
        Ok(match self.engine(solution) {
            Engine::Classic(puzzle, solution) => logic::rate_until(puzzle, marks, solution, interrupt),
            Engine::Book(book, puzzle, solution) => {
                sized_logic::rate_until_in(book, puzzle, marks, &solution, interrupt)
            }
        })
    }

    /// [`Puzzle::hint`] with `solution` known, from a player's `marks` when given, as
    /// [`Puzzle::rate_with`].
    fn hint_with(
        &self,
        marks: Option<&Marks>,
        solution: &AnyGrid,
        interrupt: &mut impl Interrupt,
    ) -> Result<Vec<GridStep>, Interrupted> {
        match self.engine(solution) {
            Engine::Classic(puzzle, solution) => {
                let steps = logic::steps_to_next_placement_from(puzzle, marks, solution, interrupt)?;
                Ok(steps.into_iter().map(GridStep::from).collect())
            }
            Engine::Book(book, puzzle, solution) => {
                sized_logic::steps_to_next_placement_in(book, puzzle, marks, &solution, interrupt)
            }
        }
    }

    /// [`Puzzle::explain`] with `solution` known, from a player's `marks` when given, as
    /// [`Puzzle::rate_with`].
    fn explain_with(
        &self,
        marks: Option<&Marks>,
        solution: &AnyGrid,
        interrupt: &mut impl Interrupt,
    ) -> Result<Explained, Interrupted> {
        match self.engine(solution) {
            Engine::Classic(puzzle, solution) => {
                let explanation = logic::explain_from(puzzle, marks, solution, interrupt)?;
                let steps = explanation.steps.into_iter().map(GridStep::from).collect();
                Ok(Explained { steps, rating: explanation.rating, solution: AnyGrid::Classic(explanation.solution) })
            }
            Engine::Book(book, puzzle, solution) => {
                let (steps, rating, end) = sized_logic::explain_in(book, puzzle, marks, &solution, interrupt)?;
                let solution = match self {
                    Puzzle::Variant(_) => AnyGrid::from(end),
                    Puzzle::Classic(_) => AnyGrid::Sized(end),
                };
                Ok(Explained { steps, rating, solution })
            }
        }
    }

    /// The logic engine for the puzzle and its `solution`: the 9x9 one for a classic 9x9 board,
    /// the house-based one over the shape's or the variant's houses and rules otherwise.
    fn engine<'a>(&'a self, solution: &'a AnyGrid) -> Engine<'a> {
        match (self, solution) {
            (Puzzle::Classic(AnyGrid::Classic(puzzle)), AnyGrid::Classic(solution)) => {
                Engine::Classic(puzzle, solution)
            }
            (Puzzle::Classic(AnyGrid::Sized(puzzle)), AnyGrid::Sized(solution)) => {
                Engine::Book(Book::of(puzzle), puzzle, Cow::Borrowed(solution))
            }
            (Puzzle::Variant(puzzle), solution) => {
                Engine::Book(Book::Variant(&puzzle.1), &puzzle.0, Cow::Owned(Grid::from(solution.clone())))
            }
            _ => unreachable!("a solution has its puzzle's shape"),
        }
    }

    /// `job` on the puzzle's one solution, or why there is none: ratings, hints and
    /// explanations mean something only for a proper puzzle (a "next step" of a puzzle with
    /// several solutions is a guess, and uniqueness techniques rely on one).
    fn with_solution<T, I: Interrupt>(
        &self,
        interrupt: &mut I,
        job: impl FnOnce(&AnyGrid, &mut I) -> Result<T, Interrupted>,
    ) -> Result<Result<T, Unanswerable>, Interrupted> {
        match self.classify(interrupt)?.unique() {
            Ok(solution) => job(&solution, interrupt).map(Ok),
            Err(unanswerable) => Ok(Err(unanswerable)),
        }
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
    ) -> Result<Result<Marked<T>, Unanswerable>, Interrupted> {
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

    /// `grid` under this puzzle's rules (a grid of the puzzle's shape: the rules were checked
    /// against it).
    pub fn with_board(&self, grid: AnyGrid) -> Puzzle {
        assert_eq!(grid.shape(), self.shape(), "a board of another shape than the puzzle's rules");
        match self {
            Puzzle::Classic(_) => Puzzle::Classic(grid),
            Puzzle::Variant(puzzle) => Puzzle::Variant(Box::new((Grid::from(grid), puzzle.1.clone()))),
        }
    }

    /// The levels [`Puzzle::generate`] offers for `shape` under the classic rules (see
    /// [`crate::generate::sizes::levels`]).
    pub fn levels(shape: Shape) -> &'static [Level] {
        crate::generate::sizes::levels(shape)
    }

    /// Whether `level` is offered for `shape` under the classic rules, or the error that says
    /// which levels are.
    pub fn offers(shape: Shape, level: Level) -> Result<(), NotOffered> {
        if Puzzle::levels(shape).contains(&level) { Ok(()) } else { Err(NotOffered { level, shape }) }
    }

    /// A puzzle of `shape` and `level` under the classic rules from `seed`: the 9x9 generator
    /// ([`generate`]) for 9x9, whose ratings use every technique, and [`crate::generate::sizes`] for
    /// other shapes.
    pub fn generate(
        shape: Shape,
        level: Level,
        symmetry: Symmetry,
        seed: u64,
        interrupt: &mut impl Interrupt,
    ) -> Result<Generated, Interrupted> {
        Ok(if shape == Shape::CLASSIC {
            let made = generate::generate(level, symmetry, seed, interrupt)?;
            let (puzzle, solution) = (AnyGrid::Classic(made.puzzle), AnyGrid::Classic(made.solution));
            Generated { puzzle, solution, constraints: None, rating: made.rating, attempts: made.attempts }
        } else {
            let made = crate::generate::sizes::generate(shape, level, symmetry, seed, interrupt)?;
            let (puzzle, solution) = (AnyGrid::Sized(made.puzzle), AnyGrid::Sized(made.solution));
            Generated { puzzle, solution, constraints: None, rating: made.rating, attempts: made.attempts }
        })
    }

    /// The levels [`Puzzle::generate_variant`] offers for these rules at `shape`: those of
    /// [`Puzzle::levels`] that every kind of rule present reached within the default one-second
    /// solve timeout (docs/variants.md).
    pub fn variant_levels(shape: Shape, preset: Option<Preset>, constraints: &Constraints) -> Vec<Level> {
        variant_generate::levels(shape, preset, constraints)
    }

    /// Whether [`Puzzle::generate_variant`] takes these rules and this level, or why not.
    pub fn variant_offers(
        shape: Shape,
        preset: Option<Preset>,
        constraints: &Constraints,
        level: Level,
    ) -> Result<(), Refused> {
        variant_generate::offers(shape, preset, constraints, level)
    }

    /// Whether some solved grid keeps these rules, as far as a short search can tell (a few
    /// milliseconds; combinations such as a 4x4 anti-king X grid have none).
    pub fn variant_has_grid(
        shape: Shape,
        preset: Option<Preset>,
        constraints: &Constraints,
    ) -> Result<(), ConstraintError> {
        variant_generate::has_grid(shape, preset, constraints)
    }

    /// A puzzle of `shape` and `level` under `preset`'s and `constraints`' rules from `seed`, with
    /// the constraints it is played by: a jigsaw without regions gets regions made for it, a
    /// killer without cages cages cut from the solution. The constraints are checked first, as
    /// [`Variant::new`] checks them; a level the rules cannot reach is searched until `interrupt`
    /// stops it.
    pub fn generate_variant(
        shape: Shape,
        preset: Option<Preset>,
        constraints: &Constraints,
        level: Level,
        symmetry: Symmetry,
        seed: u64,
        interrupt: &mut impl Interrupt,
    ) -> Result<Result<Generated, ConstraintError>, Interrupted> {
        let made = variant_generate::generate(shape, preset, constraints, level, symmetry, seed, interrupt)?;
        Ok(made.map(|made| Generated {
            puzzle: AnyGrid::from(made.puzzle),
            solution: AnyGrid::from(made.solution),
            constraints: Some(made.constraints),
            rating: made.rating,
            attempts: made.attempts,
        }))
    }
}

/// The engine a puzzle's logic runs on, with the puzzle and its solution in its form.
enum Engine<'a> {
    /// The 9x9 engine, every technique.
    Classic(&'a Board, &'a Board),
    /// The house-based engine over a shape's or a variant's houses and rules.
    Book(Book<'a>, &'a Grid, Cow<'a, Grid>),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{EXAMPLE_PUZZLE, EXAMPLE_SOLUTION};
    use crate::interrupt::Never;
    use crate::variants::Regions;

    fn classic(text: &str) -> Puzzle {
        Puzzle::Classic(AnyGrid::parse(text, None).unwrap())
    }

    #[test]
    fn generation_takes_the_classic_generator_for_9x9_and_offers_its_levels() {
        let made = Puzzle::generate(Shape::CLASSIC, Level::Hard, Symmetry::None, 4, &mut Never).unwrap();
        let expected = generate::generate(Level::Hard, Symmetry::None, 4, &mut Never).unwrap();
        assert_eq!(made.puzzle, AnyGrid::Classic(expected.puzzle));
        assert_eq!(Puzzle::levels(Shape::CLASSIC), Level::ALL);
        let six = Shape::new(3, 2).unwrap();
        let generated = Puzzle::generate(six, Level::Medium, Symmetry::None, 4, &mut Never).unwrap();
        assert_eq!((generated.puzzle.shape(), generated.rating.level), (six, Level::Medium));
        let four = Shape::new(2, 2).unwrap();
        let refused = Puzzle::offers(four, Level::Medium).unwrap_err();
        assert_eq!(refused.to_string(), "medium puzzles are not offered at 4x4; its levels are easy");
        assert_eq!(Puzzle::offers(six, Level::Extreme), Ok(()));
    }

    #[test]
    fn a_rating_is_for_proper_puzzles_of_any_shape() {
        let expected = logic::rate(&EXAMPLE_PUZZLE.parse().unwrap(), &EXAMPLE_SOLUTION.parse().unwrap(), &mut Never);
        assert_eq!(classic(EXAMPLE_PUZZLE).rate(&mut Never).unwrap(), Ok(expected.unwrap()));
        let six = Shape::new(3, 2).unwrap();
        let generated = Puzzle::generate(six, Level::Medium, Symmetry::None, 4, &mut Never).unwrap();
        assert_eq!(Puzzle::Classic(generated.puzzle).rate(&mut Never).unwrap(), Ok(generated.rating));
        let empty = Puzzle::Classic(AnyGrid::from(Grid::empty(six)));
        assert_eq!(empty.rate(&mut Never).unwrap(), Err(Unanswerable::Multiple));
    }

    #[test]
    fn hints_and_explanations_are_for_proper_puzzles_of_any_shape() {
        let hint = classic(EXAMPLE_PUZZLE).hint(&mut Never).unwrap().unwrap();
        assert_eq!(hint[0].explanation, "In box 2, 8 fits only in r1c6, so r1c6 = 8.");
        let six = Shape::new(2, 3).unwrap();
        let generated = Puzzle::generate(six, Level::Medium, Symmetry::None, 3, &mut Never).unwrap();
        let puzzle = Puzzle::Classic(generated.puzzle);
        let explained = puzzle.explain(&mut Never).unwrap().unwrap();
        assert_eq!((explained.solution, explained.rating), (generated.solution, generated.rating));
        let hint = puzzle.hint(&mut Never).unwrap().unwrap();
        assert_eq!(hint, explained.steps[..hint.len()]);
        let empty = Puzzle::Classic(AnyGrid::from(Grid::empty(six)));
        assert_eq!(empty.hint(&mut Never).unwrap(), Err(Unanswerable::Multiple));
    }

    #[test]
    fn both_paths_answer_alike() {
        let six =
            crate::generate::sizes::unique(Shape::new(2, 3).unwrap(), Symmetry::None, 0, 6, &mut Never).unwrap().0;
        for text in [EXAMPLE_PUZZLE.to_owned(), six.to_string()] {
            let puzzle = classic(&text);
            let Ok(Verdict::Unique(solution)) = puzzle.classify(&mut Never) else { panic!("{text}") };
            let solved = Puzzle::Classic(solution.clone());
            assert!(solved.validate().valid && solution.is_complete());
            assert_eq!(puzzle.count(10, &mut Never), Ok(Ok(1)));
            let mut conflicting = solution.cells().to_vec();
            conflicting[1] = conflicting[0];
            let conflicting = Puzzle::Classic(AnyGrid::from(Grid::new(puzzle.shape(), conflicting).unwrap()));
            let validation = conflicting.validate();
            assert!(!validation.valid && !validation.conflicts.is_empty());
            assert_eq!(conflicting.count(10, &mut Never), Ok(Err(validation.conflicts.clone())));
            assert_eq!(conflicting.classify(&mut Never), Ok(Verdict::Conflicting(validation.conflicts)));
        }
    }

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

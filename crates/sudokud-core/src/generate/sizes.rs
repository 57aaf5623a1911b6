//! Unique puzzles of every shape and level, the same for the same seed.
//!
//! A solved grid is filled as 9x9 grids are (by [`crate::generate`]'s own search, never a
//! solver's, so a seed makes the same puzzle however the solvers are tuned); then cells are
//! blanked in a random order, with their symmetric partner, as long as the puzzle stays within
//! reach of the level: solved by the techniques up to it
//! ([`logic::solves_within`], which also proves it has one solution), or for extreme by the solver
//! finding one solution. The puzzle is kept when its rating is of the level; otherwise another
//! solved grid is tried, as [`crate::generate`] does for 9x9.

use crate::generate::{Attempts, Symmetry, blank_cells, make, solved_grid};
use crate::interrupt::{Interrupt, Interrupted};
use crate::logic::sized as logic;
use crate::logic::{Level, Rating};
use crate::random::SplitMix64;
use crate::search::count_grid;
use sudokud_model::grid::Grid;
use sudokud_model::shape::Shape;

/// A generated puzzle, its solution and its rating.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Generated {
    /// The puzzle: one solution, its givens in the asked symmetry.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
    /// Its rating, of the level asked for.
    pub rating: Rating,
    /// Solved grids tried, this one included.
    pub attempts: u32,
}

/// The levels offered at each size: those generated within one second, a third of the service's
/// default generation timeout, in every try measured (`cargo bench --bench sizes -- generate`; the table is in
/// docs/benchmarks.md). A 4x4 grid never needs more than singles; 20x20 and 25x25 puzzles that
/// need guessing take minutes to blank to a minimum. Expert rests on the chains, which made it
/// (and 6x6 hard) quick at 6x6, 8x8 and 10x10 too. 9x9 has every level, from [`crate::generate`].
pub fn levels(shape: Shape) -> &'static [Level] {
    match shape.size() {
        4 => &[Level::Easy],
        20 | 25 => &[Level::Easy, Level::Medium, Level::Hard, Level::Expert],
        _ => &Level::ALL,
    }
}

/// A puzzle of `shape` and `level` from `seed`, each blanking checked as the module says, which
/// `interrupt` may stop. A level not in [`levels`] may never be found: the search goes on until
/// `interrupt` stops it.
pub(crate) fn generate(
    shape: Shape,
    level: Level,
    symmetry: Symmetry,
    seed: u64,
    interrupt: &mut impl Interrupt,
) -> Result<Generated, Interrupted> {
    let made = make(
        Attempts { seed, symmetry, level, min_givens: 0 },
        interrupt,
        |random, _| Ok::<_, Interrupted>(Some((solved_grid(shape, random), ()))),
        |(), puzzle, _, blanked, interrupt| within_reach(puzzle, level, blanked, interrupt),
        |(), puzzle, solution, interrupt| logic::rate(puzzle, solution, interrupt),
    )?;
    Ok(Generated { puzzle: made.puzzle, solution: made.solution, rating: made.rating, attempts: made.attempts })
}

/// A puzzle of `shape` from `seed` whatever its level, and its solution: blanked while it keeps
/// one solution, down to `min_givens` givens (0: a minimal puzzle for its blanking order). What
/// benchmarks and tests of the solver use.
pub fn unique(
    shape: Shape,
    symmetry: Symmetry,
    min_givens: usize,
    seed: u64,
    interrupt: &mut impl Interrupt,
) -> Result<(Grid, Grid), Interrupted> {
    let mut random = SplitMix64(seed);
    let solution = solved_grid(shape, &mut random);
    let puzzle = blank_cells(&solution, symmetry, min_givens, &mut random, |puzzle, blanked| {
        within_reach(puzzle, Level::Extreme, blanked, interrupt)
    })?;
    Ok((puzzle, solution))
}

/// Whether `puzzle`, the one before it with its cells `blanked` filled in was, is within
/// `level`'s reach: solved by the techniques up to it, or for extreme of one solution.
fn within_reach(
    puzzle: &Grid,
    level: Level,
    blanked: &[usize],
    interrupt: &mut impl Interrupt,
) -> Result<bool, Interrupted> {
    match level {
        Level::Extreme => Ok(count_grid(puzzle, 2, interrupt)?.solutions == 1),
        _ => logic::solves_within_in(logic::Book::of(puzzle), puzzle, level, blanked, interrupt),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::{Never, PollBudget};
    use crate::sizes::rules::conflicts;

    #[test]
    fn a_blanking_check_that_ends_once_the_blanked_cells_are_placed_answers_as_the_whole_check() {
        let (mut checks, mut kept) = (0, 0);
        for (size, level, symmetry, seed) in [
            (9, Level::Expert, Symmetry::None, 1),
            (12, Level::Hard, Symmetry::Rotational, 2),
            (16, Level::Medium, Symmetry::None, 3),
            (16, Level::Expert, Symmetry::Rotational, 4),
        ] {
            let shape = Shape::default_for(size).unwrap();
            let mut random = SplitMix64(seed);
            let solution = solved_grid(shape, &mut random);
            blank_cells(&solution, symmetry, 0, &mut random, |puzzle, blanked| {
                let whole = logic::solves_within(puzzle, level, &mut Never)?;
                assert_eq!(
                    within_reach(puzzle, level, blanked, &mut Never)?,
                    whole,
                    "{size}x{size} {level}: {blanked:?}"
                );
                checks += 1;
                kept += usize::from(whole);
                Ok(whole)
            })
            .unwrap();
        }
        assert!(kept > 100 && checks - kept > 100, "{kept} of {checks} blankings kept");
    }

    #[test]
    fn every_shape_gets_a_unique_easy_puzzle_of_its_solution() {
        for shape in Shape::all().filter(|shape| shape.size() <= 16) {
            let generated = generate(shape, Level::Easy, Symmetry::None, 7, &mut Never).unwrap();
            let (puzzle, solution) = (&generated.puzzle, &generated.solution);
            assert!(solution.is_complete() && conflicts(solution).is_empty(), "{shape}: {solution:?}");
            let count = count_grid(puzzle, 2, &mut Never).unwrap();
            assert_eq!((count.solutions, count.first.as_ref()), (1, Some(solution)), "{shape}: {puzzle:?}");
            assert!(puzzle.cells().iter().zip(solution.cells()).all(|(&given, &value)| given == 0 || given == value));
            assert_eq!(generated.rating.level, Level::Easy);
            assert_eq!(logic::rate(puzzle, solution, &mut Never).unwrap(), generated.rating);
        }
    }

    #[test]
    fn harder_levels_need_their_techniques() {
        let shape = Shape::new(3, 4).unwrap();
        for level in [Level::Medium, Level::Hard] {
            let generated = generate(shape, level, Symmetry::None, 2, &mut Never).unwrap();
            assert_eq!(generated.rating.level, level);
            assert_eq!(
                logic::rate_within(&generated.puzzle, &generated.solution, Level::Easy, &mut Never).unwrap(),
                None
            );
            assert_eq!(count_grid(&generated.puzzle, 2, &mut Never).unwrap().solutions, 1);
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_puzzle_and_others_differ() {
        let shape = Shape::new(2, 3).unwrap();
        let first = generate(shape, Level::Easy, Symmetry::None, 1, &mut Never).unwrap();
        assert_eq!(generate(shape, Level::Easy, Symmetry::None, 1, &mut Never).unwrap(), first);
        let others: Vec<Grid> = (2..6)
            .map(|seed| generate(shape, Level::Easy, Symmetry::None, seed, &mut Never).unwrap().solution)
            .collect();
        assert!(others.iter().all(|other| *other != first.solution));
    }

    #[test]
    fn givens_follow_the_symmetry() {
        let shape = Shape::new(3, 4).unwrap();
        for symmetry in Symmetry::ALL {
            let puzzle = generate(shape, Level::Easy, symmetry, 3, &mut Never).unwrap().puzzle;
            for cell in 0..shape.cells() {
                let partner = symmetry.partner(12, cell);
                assert_eq!(puzzle.cells()[cell] == 0, puzzle.cells()[partner] == 0, "{symmetry}: cell {cell}");
            }
        }
    }

    #[test]
    fn a_minimal_puzzle_has_one_solution_and_no_givens_to_spare() {
        let (puzzle, solution) = unique(Shape::new(2, 4).unwrap(), Symmetry::None, 0, 5, &mut Never).unwrap();
        assert_eq!(count_grid(&puzzle, 2, &mut Never).unwrap().first, Some(solution));
        for cell in (0..puzzle.cells().len()).filter(|&cell| puzzle.cells()[cell] != 0) {
            let mut fewer = puzzle.cells().to_vec();
            fewer[cell] = 0;
            let fewer = Grid::new(puzzle.shape(), fewer).unwrap();
            assert_eq!(count_grid(&fewer, 2, &mut Never).unwrap().solutions, 2, "cell {cell}");
        }
    }

    #[test]
    fn a_floor_of_givens_stops_the_blanking() {
        let big = Shape::new(5, 5).unwrap();
        let (puzzle, _) = unique(big, Symmetry::Rotational, 450, 5, &mut Never).unwrap();
        assert!((450..452).contains(&puzzle.givens()), "{}", puzzle.givens());
        assert_eq!(count_grid(&puzzle, 2, &mut Never).unwrap().solutions, 1);
    }

    #[test]
    fn an_interrupt_stops_generation() {
        let shape = Shape::new(4, 4).unwrap();
        assert_eq!(generate(shape, Level::Easy, Symmetry::None, 1, &mut PollBudget(1)), Err(Interrupted));
    }
}

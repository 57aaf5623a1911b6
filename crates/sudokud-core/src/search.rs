//! The one place a search engine is chosen, as regex-automata's `meta` chooses among its regex
//! engines: everything that counts or classifies (the front door, generation, the commands) asks
//! here, and the engines never choose each other.
//!
//! | puzzle | engine |
//! |---|---|
//! | classic 9x9 | the bitboard solver ([`crate::solver`]), which can pause and go on |
//! | 4x4 | the table of all 288 solved grids |
//! | up to 64 cells (6x6, 8x8) | a word per digit (`sizes/small.rs`) |
//! | 9 to 16 digits (9x9 by another box, 10x10 to 16x16) | a 16-bit lane per row and digit (`sizes/lanes.rs`) |
//! | 20x20, 25x25 | the look-ahead search, then clause learning (`sizes/solver.rs`, `sizes/cdcl.rs`) |
//! | any shape under a variant's rules | the constrained search ([`crate::variants::solver`]) |

use crate::board::Board;
use crate::interrupt::{Interrupt, Interrupted};
use crate::rules::Conflict;
use crate::sizes::solver as sized;
pub use crate::sizes::solver::Count;
use crate::sizes::{AnyGrid, Grid};
use crate::solver::{self, Progress};
use crate::variants::{self, Variant};
use crate::verdict::Verdict;

/// What a search runs on.
#[derive(Clone, Copy, Debug)]
pub enum Target<'a> {
    /// The classic 9x9 board.
    Classic(&'a Board),
    /// A grid of another shape, or a 9x9 one by another box, under the classic rules.
    Grid(&'a Grid),
    /// A grid under a variant's rules (of the grid's shape).
    Variant(&'a Grid, &'a Variant),
}

/// The solutions of `target` up to `limit`, the first of them kept, or, when it has none, the
/// givens that break its rules (found by `conflicts`, or by the 9x9 solver from its own state),
/// unless `interrupt` stops the search first; a classic 9x9 search goes on from where an earlier
/// one paused (`progress`), the others start over. Conflicts are looked for only when there is no
/// solution, so solvable puzzles never pay for the check.
pub fn count_from(
    target: Target<'_>,
    limit: usize,
    progress: &mut Progress,
    interrupt: &mut impl Interrupt,
    conflicts: impl FnOnce() -> Vec<Conflict>,
) -> Result<Result<Count<AnyGrid>, Vec<Conflict>>, Interrupted> {
    let count = match target {
        Target::Classic(board) => {
            let count = solver::count_or_conflicts(board, limit, progress, interrupt)?;
            return Ok(
                count.map(|count| Count { solutions: count.solutions, first: count.first.map(AnyGrid::Classic) })
            );
        }
        Target::Grid(grid) => count_grid(grid, limit, interrupt)?.map(AnyGrid::from),
        Target::Variant(grid, variant) => {
            variants::solver::count_solutions(grid, variant, limit, interrupt)?.map(AnyGrid::from)
        }
    };
    if count.solutions > 0 {
        return Ok(Ok(count));
    }
    let conflicts = conflicts();
    Ok(if conflicts.is_empty() { Ok(count) } else { Err(conflicts) })
}

/// [`count_from`] on a grid of any shape under the classic rules: the engine its size calls for.
pub fn count_grid(puzzle: &Grid, limit: usize, interrupt: &mut impl Interrupt) -> Result<Count, Interrupted> {
    if interrupt.should_stop() {
        return Err(Interrupted);
    }
    if limit == 0 {
        return Ok(Count { solutions: 0, first: None });
    }
    // The state is sized for the grid's class, so a small grid does not clear (or copy on a
    // guess) the arrays of a 25x25 one; up to 64 cells, a digit's places fit one word.
    let cells = puzzle.shape().cells();
    if cells == 16 {
        Ok(sized::count_among_all_4x4_grids(puzzle, limit))
    } else if cells <= sized::SMALL_CELLS {
        sized::count_small(puzzle, limit, interrupt)
    } else if puzzle.size() <= sized::LANES_SIZE {
        sized::count_lanes(puzzle, limit, interrupt)
    } else {
        sized::count_large(puzzle, limit, interrupt)
    }
}

/// [`classify_from`] for a grid of any shape under the classic rules, its solution a grid of its
/// shape.
pub fn classify_grid(grid: &Grid, interrupt: &mut impl Interrupt) -> Result<Verdict<Grid>, Interrupted> {
    let conflicts = || crate::sizes::rules::conflicts(grid);
    Ok(match classify_from(Target::Grid(grid), &mut Progress::default(), interrupt, conflicts)? {
        Verdict::Unique(solution) => Verdict::Unique(Grid::from(solution)),
        Verdict::Multiple(solution) => Verdict::Multiple(Grid::from(solution)),
        Verdict::Unsolvable => Verdict::Unsolvable,
        Verdict::Conflicting(conflicts) => Verdict::Conflicting(conflicts),
    })
}

/// What `target` is (conflicting, unsolvable, unique or multiple): [`count_from`] up to two
/// solutions.
pub fn classify_from(
    target: Target<'_>,
    progress: &mut Progress,
    interrupt: &mut impl Interrupt,
    conflicts: impl FnOnce() -> Vec<Conflict>,
) -> Result<Verdict<AnyGrid>, Interrupted> {
    Ok(match count_from(target, 2, progress, interrupt, conflicts)? {
        Err(conflicts) => Verdict::Conflicting(conflicts),
        Ok(Count { solutions: 1, first: Some(solution) }) => Verdict::Unique(solution),
        Ok(Count { first: Some(solution), .. }) => Verdict::Multiple(solution),
        Ok(Count { first: None, .. }) => Verdict::Unsolvable,
    })
}

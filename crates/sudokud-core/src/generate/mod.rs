//! Puzzle generation: a puzzle with exactly one solution whose [`Level`] is the one asked for,
//! the same puzzle for the same seed.
//!
//! An attempt fills a random solved grid, then blanks cells (or symmetric groups of cells) in
//! random order, keeping each blank only while the puzzle still has one solution and, below
//! extreme, still rates at or under the wanted level. The result is as sparse as the level
//! allows; if it rates below the level (no cell could go without making it too hard), the next
//! attempt starts from a new grid. Extreme puzzles (those the logic engine cannot finish) are rare
//! among random ones, so they take the most attempts; every attempt polls the caller's
//! [`Interrupt`], so a deadline ends the search instead of letting it run on.
//!
//! Reproducibility: all randomness comes from [`SplitMix64`] seeded with the caller's seed, and
//! the solved grid is filled by our own search rather than the solver's (whose search order may
//! change as it gets faster). Counting solutions and rating are deterministic, so a seed, level
//! and symmetry give the same puzzle in every run of the same version of sudokud.

pub mod sizes;
pub mod variants;

use std::cell::Cell;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::board::Board;
use crate::interrupt::{Interrupt, Interrupted};
use crate::logic::{self, Level, Rating};
use crate::member::{Choice, choice_traits};
use crate::random::SplitMix64;
use crate::solver;
use sudokud_model::grid::Grid;
use sudokud_model::shape::{MAX_SIZE, Shape};

/// Which cells are blanked together, so the givens form a pattern.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Each cell on its own.
    #[default]
    None,
    /// Turning the grid half a turn maps givens to givens.
    Rotational,
    /// Mirror image top to bottom (row r and row 10 - r).
    Horizontal,
    /// Mirror image left to right (column c and column 10 - c).
    Vertical,
    /// Mirror image across the main diagonal (rNcM and rMcN).
    Diagonal,
}

impl Symmetry {
    /// Every symmetry.
    pub const ALL: [Symmetry; 5] =
        [Symmetry::None, Symmetry::Rotational, Symmetry::Horizontal, Symmetry::Vertical, Symmetry::Diagonal];

    /// The cell that must be blanked together with `cell` (row-major) in a grid of side `size`.
    pub(crate) fn partner(self, size: usize, cell: usize) -> usize {
        let (row, col, last) = (cell / size, cell % size, size - 1);
        match self {
            Symmetry::None => cell,
            Symmetry::Rotational => size * size - 1 - cell,
            Symmetry::Horizontal => (last - row) * size + col,
            Symmetry::Vertical => row * size + last - col,
            Symmetry::Diagonal => col * size + row,
        }
    }
}

impl Choice for Symmetry {
    const KIND: &'static str = "symmetry";
    const ALL: &'static [Symmetry] = &Symmetry::ALL;

    fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Rotational => "rotational",
            Symmetry::Horizontal => "horizontal",
            Symmetry::Vertical => "vertical",
            Symmetry::Diagonal => "diagonal",
        }
    }
}

choice_traits!(Symmetry);

/// A generated puzzle.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Generated {
    /// The puzzle: unique, of the asked level, its givens in the asked symmetry.
    pub puzzle: Board,
    /// Its one solution.
    pub solution: Board,
    /// Its rating, within the asked level.
    pub rating: Rating,
    /// Solved grids tried before this one was found, this one included.
    pub attempts: u32,
}

/// Generates a puzzle of `level` whose givens follow `symmetry`, from `seed`.
pub(crate) fn generate(
    level: Level,
    symmetry: Symmetry,
    seed: u64,
    interrupt: &mut impl Interrupt,
) -> Result<Generated, Interrupted> {
    // Below extreme, the last blanking's rating within the level is the puzzle's.
    let within = Cell::new(None);
    let made = make(
        Attempts { seed, symmetry, level, min_givens: 0 },
        interrupt,
        |random, _| Ok::<_, Interrupted>(Some((solved_grid(Shape::CLASSIC, random), ()))),
        |(), puzzle, solution, _, interrupt| {
            let (puzzle, solution) = (board(puzzle), board(solution));
            Ok(solver::count_solutions(&puzzle, 2, interrupt)?.solutions == 1
                && match level {
                    // Any unique puzzle may become extreme; rate only the final one.
                    Level::Extreme => true,
                    _ => {
                        let fitting = logic::rate_within(&puzzle, &solution, level, interrupt)?;
                        let fits = fitting.is_some();
                        if fits {
                            within.set(fitting);
                        }
                        fits
                    }
                })
        },
        |(), puzzle, solution, interrupt| match within.take() {
            Some(rating) if level != Level::Extreme => Ok(rating),
            _ => logic::rate(&board(puzzle), &board(solution), interrupt),
        },
    )?;
    let (puzzle, solution) = (board(&made.puzzle), board(&made.solution));
    Ok(Generated { puzzle, solution, rating: made.rating, attempts: made.attempts })
}

/// A 9x9 grid as the classic board.
fn board(grid: &Grid) -> Board {
    grid.to_board().expect("a 9x9 grid with 3x3 boxes")
}

/// What the generation loop tries ([`make`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attempts {
    /// Where its randomness comes from.
    pub(crate) seed: u64,
    /// Which cells are blanked together.
    pub(crate) symmetry: Symmetry,
    /// The level a puzzle must rate at to be kept.
    pub(crate) level: Level,
    /// The fewest givens a puzzle keeps (0: as few as its blanking order allows).
    pub(crate) min_givens: usize,
}

/// A puzzle the generation loop made, with the rules it was made for.
#[derive(Clone, Debug)]
pub(crate) struct Made<R> {
    pub(crate) puzzle: Grid,
    pub(crate) solution: Grid,
    pub(crate) rules: R,
    pub(crate) rating: Rating,
    /// Solved grids tried, this one included.
    pub(crate) attempts: u32,
}

/// The one generation loop, for every shape and rule set. Each attempt draws a solved grid and
/// the rules its puzzle is played by (`draw`, from the loop's one random stream; `None` to try
/// again, as when regions made at random leave no solved grid), blanks its cells in a random order
/// with their partners under the symmetry while the puzzle `stays` within the level's reach
/// (shown the puzzle, its solution and the cells just blanked), and `rate`s what is left; the
/// first puzzle that rates at the level is kept. Every step polls `interrupt`, so a deadline ends
/// the search; a level the rules cannot reach is searched until it does.
pub(crate) fn make<R, E: From<Interrupted>, I: Interrupt>(
    attempts: Attempts,
    interrupt: &mut I,
    mut draw: impl FnMut(&mut SplitMix64, &mut I) -> Result<Option<(Grid, R)>, E>,
    mut stays: impl FnMut(&R, &Grid, &Grid, &[usize], &mut I) -> Result<bool, Interrupted>,
    mut rate: impl FnMut(&R, &Grid, &Grid, &mut I) -> Result<Rating, Interrupted>,
) -> Result<Made<R>, E> {
    let mut random = SplitMix64(attempts.seed);
    for attempt in 1.. {
        if interrupt.should_stop() {
            return Err(Interrupted.into());
        }
        let Some((solution, rules)) = draw(&mut random, interrupt)? else { continue };
        let (symmetry, min_givens) = (attempts.symmetry, attempts.min_givens);
        let puzzle = blank_cells(&solution, symmetry, min_givens, &mut random, |puzzle, blanked| {
            stays(&rules, puzzle, &solution, blanked, interrupt)
        })?;
        let rating = rate(&rules, &puzzle, &solution, interrupt)?;
        if rating.level == attempts.level {
            return Ok(Made { puzzle, solution, rules, rating, attempts: attempt });
        }
    }
    unreachable!("the attempts never run out")
}

/// Blanks cells of `solution` in a random order (with their partners under `symmetry`) while
/// the puzzle `stays` within reach and keeps at least `min_givens` givens. `stays` is shown
/// each puzzle and the cells just blanked in it: the puzzle before, with them, stayed.
pub(crate) fn blank_cells(
    solution: &Grid,
    symmetry: Symmetry,
    min_givens: usize,
    random: &mut SplitMix64,
    mut stays: impl FnMut(&Grid, &[usize]) -> Result<bool, Interrupted>,
) -> Result<Grid, Interrupted> {
    let shape = solution.shape();
    let size = shape.size();
    let mut cells = solution.cells().to_vec();
    let mut givens = cells.len();
    let mut order: Vec<usize> = (0..cells.len()).filter(|&cell| symmetry.partner(size, cell) >= cell).collect();
    random.shuffle(&mut order);
    for cell in order {
        let partner = symmetry.partner(size, cell);
        let blanked = if partner == cell { 1 } else { 2 };
        if givens < min_givens + blanked {
            continue;
        }
        let kept = (cells[cell], cells[partner]);
        (cells[cell], cells[partner]) = (0, 0);
        let puzzle = Grid::new(shape, cells.clone()).expect("blanking keeps a grid a grid");
        let pair = [cell, partner];
        if stays(&puzzle, &pair[..blanked])? {
            givens -= blanked;
        } else {
            (cells[cell], cells[partner]) = kept;
        }
    }
    Ok(Grid::new(shape, cells).expect("blanking keeps a grid a grid"))
}

/// A random solved grid of `shape`: depth-first search that fills the cell with the fewest
/// candidates first (the first such cell, row-major), trying its values in random order. Every
/// generator draws its grids here, never from a solver, so a seed makes the same grid however
/// the solvers are tuned.
///
/// Past 9x9 a plain search can lose minutes below an early wrong value (one of 200 16x16 seeds),
/// so there it also backs off as soon as a row, column or box has a value none of its empty
/// cells can hold, and an attempt that meets [`DEAD_ENDS`] dead ends starts over, with twice the
/// allowance, on the random stream where it stopped: 300 seeds of 25x25 take 3.5 ms, the slowest
/// 22 ms. The classic grid keeps the plain search, so 9x9 seeds make the puzzles they always
/// made: it never came near the allowance (at most 34 dead ends in 1,000,000 seeds).
pub(crate) fn solved_grid(shape: Shape, rng: &mut SplitMix64) -> Grid {
    let mut allowance = DEAD_ENDS;
    loop {
        let mut fill = Fill::new(shape);
        if fill.complete(rng, &mut { allowance }).is_some() {
            return Grid::new(shape, fill.cells).expect("the search writes values 1 to N");
        }
        allowance *= 2;
    }
}

/// The dead ends a grid's first attempt may meet before it starts over.
const DEAD_ENDS: u32 = 1024;

/// The grid being filled, with the values each row, column and box already holds as bit sets
/// (bit v for value v).
struct Fill {
    shape: Shape,
    cells: Vec<u8>,
    rows: [u32; MAX_SIZE],
    cols: [u32; MAX_SIZE],
    boxes: [u32; MAX_SIZE],
    /// Every value of the grid.
    all: u32,
}

impl Fill {
    fn new(shape: Shape) -> Fill {
        let houses = [0; MAX_SIZE];
        let all = (1u32 << (shape.size() + 1)) - 2;
        Fill { shape, cells: vec![0; shape.cells()], rows: houses, cols: houses, boxes: houses, all }
    }

    /// The row, column and box of `cell`.
    fn houses(&self, cell: usize) -> (usize, usize, usize) {
        let (row, col) = (cell / self.shape.size(), cell % self.shape.size());
        (row, col, self.shape.box_of(row, col))
    }

    /// Values still possible in `cell`, as a bit set.
    fn candidates(&self, cell: usize) -> u32 {
        let (row, col, area) = self.houses(cell);
        !(self.rows[row] | self.cols[col] | self.boxes[area]) & self.all
    }

    /// Writes `value` in `cell`, or takes it out again: the bit sets flip either way.
    fn toggle(&mut self, cell: usize, value: u8) {
        let (row, col, area) = self.houses(cell);
        let bit = 1 << value;
        self.rows[row] ^= bit;
        self.cols[col] ^= bit;
        self.boxes[area] ^= bit;
    }

    /// Whether some row, column or box has a value left that none of its empty cells can hold.
    fn stuck(&self) -> bool {
        let (mut rows, mut cols, mut boxes) = (self.rows, self.cols, self.boxes);
        for cell in (0..self.cells.len()).filter(|&cell| self.cells[cell] == 0) {
            let candidates = self.candidates(cell);
            let (row, col, area) = self.houses(cell);
            rows[row] |= candidates;
            cols[col] |= candidates;
            boxes[area] |= candidates;
        }
        (0..self.shape.size()).any(|house| rows[house] & cols[house] & boxes[house] != self.all)
    }

    /// Fills the empty cells: `Some(true)` when done, `Some(false)` at a dead end, `None` once
    /// `allowance` dead ends have passed.
    fn complete(&mut self, rng: &mut SplitMix64, allowance: &mut u32) -> Option<bool> {
        if self.shape != Shape::CLASSIC && self.stuck() {
            return Fill::dead_end(allowance);
        }
        let Some((cell, candidates)) = (0..self.cells.len())
            .filter(|&cell| self.cells[cell] == 0)
            .map(|cell| (cell, self.candidates(cell)))
            .min_by_key(|&(_, candidates)| candidates.count_ones())
        else {
            return Some(true);
        };
        let mut values = [0u8; MAX_SIZE];
        let count = candidates.count_ones() as usize;
        for (slot, value) in values.iter_mut().zip((1..=MAX_SIZE as u8).filter(|&value| candidates & 1 << value != 0)) {
            *slot = value;
        }
        rng.shuffle(&mut values[..count]);
        for &value in &values[..count] {
            self.toggle(cell, value);
            self.cells[cell] = value;
            if self.complete(rng, allowance)? {
                return Some(true);
            }
            self.toggle(cell, value);
            self.cells[cell] = 0;
        }
        Fill::dead_end(allowance)
    }

    /// A dead end: `Some(false)`, one less left of `allowance`, or `None` when none was left.
    fn dead_end(allowance: &mut u32) -> Option<bool> {
        *allowance = allowance.checked_sub(1)?;
        Some(false)
    }
}

/// A seed for a caller that named none: below 2^53, so JavaScript clients can read it back
/// exactly and send it again.
pub fn fresh_seed() -> u64 {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO).as_nanos();
    // Mixed, so calls a nanosecond apart get unrelated seeds.
    SplitMix64(nanos as u64).next_u64() >> 11
}

/// The seed of puzzle `index` (from 0) of a batch whose first seed is `first`: `first + index`,
/// wrapping past the last seed, so that any puzzle of a batch can be made again alone.
pub fn batch_seed(first: u64, index: u64) -> u64 {
    first.wrapping_add(index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::CELLS;
    use crate::interrupt::Never;

    #[test]
    fn a_batch_s_seeds_follow_its_first_and_wrap() {
        assert_eq!((0..3).map(|index| batch_seed(7, index)).collect::<Vec<_>>(), [7, 8, 9]);
        assert_eq!(batch_seed(u64::MAX, 1), 0);
    }
    use crate::interrupt::PollBudget;

    #[test]
    fn splitmix_matches_its_reference_output() {
        // First outputs for seed 0 of the reference C implementation.
        let mut rng = SplitMix64(0);
        assert_eq!(rng.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(rng.next_u64(), 0x6E78_9E6A_A1B9_65F4);
    }

    #[test]
    fn solved_grids_of_every_shape_are_valid_and_differ_by_seed() {
        for shape in Shape::all() {
            let first = solved_grid(shape, &mut SplitMix64(1));
            let second = solved_grid(shape, &mut SplitMix64(2));
            for grid in [&first, &second] {
                assert!(grid.is_complete() && sudokud_model::rules::conflicts(grid).is_empty(), "{shape}: {grid:?}");
            }
            assert_ne!(first, second, "{shape}");
            assert_eq!(first, solved_grid(shape, &mut SplitMix64(1)), "{shape}");
        }
    }

    #[test]
    fn partners_are_mirror_images() {
        for symmetry in Symmetry::ALL {
            for cell in 0..CELLS {
                assert_eq!(symmetry.partner(9, symmetry.partner(9, cell)), cell, "{symmetry} is an involution");
            }
        }
        assert_eq!(Symmetry::Rotational.partner(9, 0), 80);
        assert_eq!(Symmetry::Horizontal.partner(9, 1), 73);
        assert_eq!(Symmetry::Vertical.partner(9, 9), 17);
        assert_eq!(Symmetry::Diagonal.partner(9, 1), 9);
        assert_eq!(Symmetry::None.partner(9, 5), 5);
    }

    #[test]
    fn generates_each_level_uniquely_and_reproducibly() {
        for (seed, level) in [Level::Easy, Level::Medium, Level::Hard].into_iter().enumerate() {
            let generated = generate(level, Symmetry::None, seed as u64, &mut Never).unwrap();
            assert_eq!(generated.rating.level, level);
            let count = solver::count_solutions(&generated.puzzle, 2, &mut Never).unwrap();
            assert_eq!(count.solutions, 1);
            assert_eq!(count.first, Some(generated.solution));
            assert_eq!(generated, generate(level, Symmetry::None, seed as u64, &mut Never).unwrap());
        }
    }

    #[test]
    fn givens_follow_the_symmetry() {
        for symmetry in Symmetry::ALL {
            let generated = generate(Level::Medium, symmetry, 7, &mut Never).unwrap();
            let cells = generated.puzzle.cells();
            for cell in 0..CELLS {
                assert_eq!(cells[cell] == 0, cells[symmetry.partner(9, cell)] == 0, "{symmetry}: cell {cell}");
            }
        }
    }

    #[test]
    fn an_interrupt_stops_generation() {
        assert_eq!(generate(Level::Extreme, Symmetry::None, 3, &mut PollBudget(50)), Err(Interrupted));
    }

    #[test]
    fn names_round_trip() {
        for symmetry in Symmetry::ALL {
            assert_eq!(symmetry.name().parse::<Symmetry>(), Ok(symmetry));
        }
        assert!("spiral".parse::<Symmetry>().is_err());
    }
}

//! The search for grids of any shape: candidates as bit sets, naked and hidden singles and
//! locked candidates, a look-ahead before each guess, restarts and the cooperative deadline.
//!
//! The 9x9 solver ([`crate::solver`]) packs a band of the grid into machine words, which only a
//! 9x9 grid allows; this one keeps a 32-bit candidate set per cell (N is at most 25), so the same
//! code serves every shape. Each placement removes its digit from the cell's peers (a naked
//! single appears when one candidate is left); then each house is swept once with two bit sets,
//! the digits seen at least once and at least twice, which finds every hidden single and every
//! digit with no place left. A guess saves the candidates (N x N words) and, when its subtree
//! fails, comes back to the saved state with the guessed digit removed: binary branching, so the
//! search needs one saved state per guess on the current path and nothing per alternative.
//!
//! Before each guess the search looks ahead, as look-ahead SAT solvers (march, kcnfs) do: for
//! each pair of which exactly one holds (a cell's two candidates, a digit's two places in a
//! house) it places each side and propagates singles. A side that fails is false, so the other
//! holds; a candidate neither side leaves is false; and otherwise the guess is the pair whose
//! sides remove the most candidates together. In 20x20 and 25x25 grids a wrong early guess costs
//! seconds to minutes of search, so a node costing hundreds of propagations pays: it took the
//! slowest of 20 generated 25x25 puzzles per level from over 30 s to tens of milliseconds.
//!
//! Grids of at most 64 cells (6x6, 8x8) are searched by the same rules with each digit's places
//! in one machine word (`sizes/small.rs`), which cuts their fixed cost to a third, and grids of 9
//! to 16 digits with each digit's places in 16 lanes of 16 bits, one per row (`sizes/lanes.rs`),
//! which halves their time. This search serves 20x20 and 25x25, and is the reference both are
//! tested against.
//!
//! A 4x4 grid has only 288 solutions; they are listed once, with the set of grids that have each
//! value in each cell, and a 4x4 puzzle is answered by intersecting its givens' sets, which takes
//! a fraction of the time a search would.

use std::cell::RefCell;
use std::sync::OnceLock;

use super::grid::Grid;
use super::layout::Layout;
use super::shape::{MAX_CELLS, MAX_SIZE, Shape};
use super::{cdcl, lanes, small};
use crate::interrupt::{Interrupt, Interrupted, POLL_INTERVAL};
use crate::random::SplitMix64;

/// Solutions counted up to a limit, the first found kept: what every search but the classic 9x9
/// one answers (that one's own is [`crate::solver::Count`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count<G = Grid> {
    /// Number of solutions found, never more than the limit asked for.
    pub solutions: usize,
    /// The first solution found, if any.
    pub first: Option<G>,
}

impl<G> Count<G> {
    /// The count with its solution in another form.
    pub fn map<H>(self, form: impl FnOnce(G) -> H) -> Count<H> {
        Count { solutions: self.solutions, first: self.first.map(form) }
    }
}

/// The most cells [`count_small`] takes.
pub(crate) const SMALL_CELLS: usize = small::MAX_CELLS;

/// The most digits [`count_lanes`] takes.
pub(crate) const LANES_SIZE: usize = lanes::MAX_SIZE;

/// Counts the solutions of a 20x20 or 25x25 `puzzle` (see [`crate::search::count_grid`]): the
/// look-ahead search for at most [`LOOK_AHEAD_GUESSES`] guesses, then clause learning
/// (`sizes/cdcl.rs`) from the start.
pub(crate) fn count_large(puzzle: &Grid, limit: usize, interrupt: &mut impl Interrupt) -> Result<Count, Interrupted> {
    let labels = relabeling(puzzle.size(), 0);
    let mut search = Search::<_, MAX_CELLS>::new(puzzle.shape(), limit, u32::MAX, &mut *interrupt);
    search.budget = LOOK_AHEAD_GUESSES;
    match search.run(puzzle.cells(), &labels) {
        Ok(()) => {
            // The first attempt's labels are the digits themselves.
            let first = (search.solutions > 0).then(|| {
                let cells = search.first[..puzzle.cells().len()].to_vec();
                Grid::new(puzzle.shape(), cells).expect("a solution of the same shape")
            });
            Ok(Count { solutions: search.solutions, first })
        }
        Err(Stop::Interrupted) => Err(Interrupted),
        Err(Stop::Restart) => cdcl::count(puzzle, limit, interrupt),
    }
}

/// Guesses the look-ahead search makes on a 20x20 or 25x25 grid before clause learning takes
/// over. The look-ahead settles a puzzle that needs few guesses in a fraction of clause
/// learning's time (160 generated puzzles, 20 seeds per offered level: at most 5 guesses, medians
/// 0.1-2.6 ms against 0.6-9.2 ms), but a puzzle that needs more runs long there (9,111 guesses,
/// 5.8 s) where clause learning takes 10-20 ms; on Gecode's minimal puzzles the two take about as
/// long wherever the look-ahead finishes at all (2026-12-06, Xeon, one run side by side).
const LOOK_AHEAD_GUESSES: u32 = 32;

/// Every solved 4x4 grid, 288 of them, and for each cell and value the set of grids that have
/// that value there, so a puzzle's solutions are the intersection of its givens' sets.
struct All4x4 {
    /// The grids, each as 16 cells of two bits (the value less one; cell `i` at bits `2i` and
    /// `2i + 1`), in the order a plain backtracking search finds them.
    grids: Vec<u32>,
    /// `having[4 * cell + value - 1]`: bit `g` is set when grid `g` has `value` at `cell`.
    having: [GridSet; 64],
}

/// A set of the 288 solved 4x4 grids, one bit each.
type GridSet = [u64; 5];

fn all_4x4() -> &'static All4x4 {
    static ALL: OnceLock<All4x4> = OnceLock::new();
    ALL.get_or_init(|| {
        // Per row, column and box, the values used so far, as bits.
        fn extend(cell: usize, grid: u32, used: &mut [[u8; 4]; 3], grids: &mut Vec<u32>) {
            if cell == 16 {
                grids.push(grid);
                return;
            }
            let (row, col) = (cell / 4, cell % 4);
            let house = [row, col, row / 2 * 2 + col / 2];
            for value in 0..4u32 {
                let bit = 1u8 << value;
                if (0..3).any(|kind| used[kind][house[kind]] & bit != 0) {
                    continue;
                }
                (0..3).for_each(|kind| used[kind][house[kind]] |= bit);
                extend(cell + 1, grid | value << (2 * cell), used, grids);
                (0..3).for_each(|kind| used[kind][house[kind]] &= !bit);
            }
        }
        let mut grids = Vec::with_capacity(288);
        extend(0, 0, &mut [[0; 4]; 3], &mut grids);
        let mut having = [[0u64; 5]; 64];
        for (index, &grid) in grids.iter().enumerate() {
            for cell in 0..16 {
                let value = (grid >> (2 * cell) & 0b11) as usize;
                having[4 * cell + value][index / 64] |= 1 << (index % 64);
            }
        }
        All4x4 { grids, having }
    })
}

/// [`crate::search::count_grid`] for a 4x4 puzzle: the solved grids that keep its givens, as the
/// intersection of one precomputed set per given (five words each). A search would spend more
/// setting up than these few instructions take.
pub(crate) fn count_among_all_4x4_grids(puzzle: &Grid, limit: usize) -> Count {
    let all = all_4x4();
    let mut fits: GridSet = [u64::MAX, u64::MAX, u64::MAX, u64::MAX, (1 << (288 - 256)) - 1];
    for (cell, &value) in puzzle.cells().iter().enumerate() {
        if value != 0 {
            let having = &all.having[4 * cell + usize::from(value) - 1];
            fits.iter_mut().zip(having).for_each(|(fit, having)| *fit &= having);
        }
    }
    let solutions = fits.iter().map(|word| word.count_ones() as usize).sum::<usize>();
    let first = fits.iter().enumerate().find(|&(_, &word)| word != 0).map(|(index, word)| {
        let grid = all.grids[64 * index + word.trailing_zeros() as usize];
        let cells = (0..16).map(|cell| (grid >> (2 * cell) & 0b11) as u8 + 1).collect();
        Grid::new(puzzle.shape(), cells).expect("a solved 4x4 grid")
    });
    Count { solutions: solutions.min(limit), first }
}

/// [`crate::search::count_grid`] for a grid of at most 64 cells, a digit's places in one word.
pub(crate) fn count_small(puzzle: &Grid, limit: usize, interrupt: &mut impl Interrupt) -> Result<Count, Interrupted> {
    with_restarts(puzzle, limit, interrupt, |attempt| small::attempt(puzzle.shape(), puzzle.cells(), attempt))
}

/// [`crate::search::count_grid`] for a grid of 9 to 16 digits, a digit's places in 16 lanes of 16 bits.
pub(crate) fn count_lanes(puzzle: &Grid, limit: usize, interrupt: &mut impl Interrupt) -> Result<Count, Interrupted> {
    with_restarts(puzzle, limit, interrupt, |attempt| lanes::attempt(puzzle.shape(), puzzle.cells(), attempt))
}

/// [`crate::search::count_grid`] by the look-ahead search (20x20 and 25x25 grids): the reference the
/// clause-learning search is tested against.
#[cfg(test)]
pub(super) fn count_by_look_ahead(
    puzzle: &Grid,
    limit: usize,
    interrupt: &mut impl Interrupt,
) -> Result<Count, Interrupted> {
    count_in::<MAX_CELLS>(puzzle, limit, interrupt)
}

/// [`crate::search::count_grid`] by the look-ahead search with state for up to `CAP` cells.
#[cfg(test)]
fn count_in<const CAP: usize>(
    puzzle: &Grid,
    limit: usize,
    interrupt: &mut impl Interrupt,
) -> Result<Count, Interrupted> {
    with_restarts(puzzle, limit, interrupt, |attempt| {
        let mut search = Search::<_, CAP>::new(puzzle.shape(), limit, attempt.allowance, attempt.interrupt);
        search.run(puzzle.cells(), attempt.labels)?;
        if search.solutions > 0 {
            attempt.first.copy_from_slice(&search.first[..puzzle.cells().len()]);
        }
        Ok(search.solutions)
    })
}

/// What one attempt of a search is given.
pub(super) struct Attempt<'a, I> {
    /// The digits' labels (see [`relabeling`]): the search reads value `v` as `labels[v]`.
    pub(super) labels: &'a [u8; 32],
    /// Solutions to find before stopping.
    pub(super) limit: usize,
    /// Guesses allowed without a solution before [`Stop::Restart`].
    pub(super) allowance: u32,
    pub(super) interrupt: &'a mut I,
    /// Where the first solution goes, as labels, one per cell.
    pub(super) first: &'a mut [u8],
}

/// Runs `attempt` on `puzzle` until one finishes: the first with the digits as they are, each
/// later one relabeled and with twice the allowance. An attempt that goes `RESTART_GUESSES`
/// (16,384) guesses without a solution starts over on a copy of the puzzle with its digits
/// relabeled (whose solutions map back one to one), which sends the search down other branches
/// first: a wrong early turn into a large empty subtree costs at most as much as the attempt
/// that finally succeeds. An attempt answers the number of solutions it found, the first written
/// as labels.
fn with_restarts<I: Interrupt>(
    puzzle: &Grid,
    limit: usize,
    interrupt: &mut I,
    mut attempt: impl FnMut(Attempt<'_, I>) -> Result<usize, Stop>,
) -> Result<Count, Interrupted> {
    let mut first = vec![0u8; puzzle.cells().len()];
    for number in 0u32.. {
        let labels = relabeling(puzzle.size(), number);
        let allowance = u32::try_from(u64::from(RESTART_GUESSES) << number.min(32)).unwrap_or(u32::MAX);
        let given = Attempt { labels: &labels, limit, allowance, interrupt: &mut *interrupt, first: &mut first };
        match attempt(given) {
            Ok(0) => return Ok(Count { solutions: 0, first: None }),
            Ok(solutions) => {
                let mut unlabel = [0u8; 32];
                for (value, &label) in labels.iter().enumerate() {
                    unlabel[usize::from(label)] = value as u8;
                }
                first.iter_mut().for_each(|label| *label = unlabel[usize::from(*label)]);
                let first = Grid::new(puzzle.shape(), first).expect("a solution of the same shape");
                return Ok(Count { solutions, first: Some(first) });
            }
            Err(Stop::Interrupted) => return Err(Interrupted),
            // Restarts happen only before a first solution (see `after_guess`), so nothing
            // found is lost.
            Err(Stop::Restart) => continue,
        }
    }
    unreachable!("the allowance grows until an attempt finishes")
}

/// A search state explored by copying it for each guess: the word and lane searches
/// (`small.rs`, `lanes.rs`), whose states are a few hundred bytes to 1.6 KB, share
/// [`search_copies`].
pub(super) trait SearchNode: Copy {
    /// A digit in a cell.
    type Guess: Copy;
    /// Applies every rule until nothing changes; `false` on a contradiction.
    fn propagate(&mut self) -> bool;
    /// Whether every cell is decided.
    fn solved(&self) -> bool;
    /// The digits of a solved state as labels, one per cell in row-major order.
    fn write(&self, labels: &mut [u8]);
    /// The guess to make.
    fn choose(&self) -> Self::Guess;
    /// Decides the guess's cell as its digit.
    fn place(&mut self, guess: Self::Guess);
    /// Takes the guess's digit from its cell.
    fn exclude(&mut self, guess: Self::Guess);
}

/// Counts the solutions of `node` for one attempt (see [`with_restarts`]): depth-first with
/// binary branching, each guess searched in a copy of the state (recursion is at most one level
/// per cell), and when it is done the guessed digit is removed from the cell and the search goes
/// on.
pub(super) fn search_copies(node: impl SearchNode, attempt: Attempt<'_, impl Interrupt>) -> Result<usize, Stop> {
    let mut counter = Counter { attempt, solutions: 0, guesses: 0 };
    counter.search(node)?;
    Ok(counter.solutions)
}

/// What [`search_copies`] keeps across its recursion.
struct Counter<'a, I> {
    attempt: Attempt<'a, I>,
    solutions: usize,
    guesses: u32,
}

impl<I: Interrupt> Counter<'_, I> {
    fn search<N: SearchNode>(&mut self, mut node: N) -> Result<(), Stop> {
        loop {
            if !node.propagate() {
                return Ok(());
            }
            if node.solved() {
                if self.solutions == 0 {
                    node.write(self.attempt.first);
                }
                self.solutions += 1;
                return Ok(());
            }
            let guess = node.choose();
            self.guesses += 1;
            after_guess(self.guesses, self.solutions, self.attempt.allowance, &mut *self.attempt.interrupt)?;
            let mut guessed = node;
            guessed.place(guess);
            self.search(guessed)?;
            if self.solutions >= self.attempt.limit {
                return Ok(());
            }
            node.exclude(guess);
        }
    }
}

/// How much an undecided peer sharing a digit with a two-candidate cell counts for guessing that
/// cell (the degree rule of every search here): one, and 16 more when the peer has two candidates
/// itself, since either digit of the guess then decides it or leaves it one, and the chain of
/// singles that follows prunes the most. Over the peers that only share a digit alone, it cut the
/// median of minimal 16x16 puzzles from 1.06 to 0.41 ms and of 20x20 ones from 424 to 64 ms.
pub(crate) const fn linked_weight(two_candidates: bool) -> u32 {
    if two_candidates { 17 } else { 1 }
}

/// Called after each guess: polls the interrupt at its interval and, while no solution is
/// found, stops the attempt for a restart once it has used its allowance.
#[inline]
pub(crate) fn after_guess(
    guesses: u32,
    solutions: usize,
    allowance: u32,
    interrupt: &mut impl Interrupt,
) -> Result<(), Stop> {
    if guesses & (interrupt.poll_interval() - 1) == 0 {
        if interrupt.should_stop() {
            return Err(Stop::Interrupted);
        }
        if solutions == 0 && guesses >= allowance {
            return Err(Stop::Restart);
        }
    }
    Ok(())
}

/// Guesses an attempt may make without a solution before the search starts over: a multiple of
/// every poll interval, since it is checked when the interrupt is polled.
pub(crate) const RESTART_GUESSES: u32 = 16 * POLL_INTERVAL;

/// The digits' labels for an attempt: unchanged for the first, a permutation of 1 to N seeded by
/// the attempt after. Index 0, the blank, stays 0.
fn relabeling(size: usize, attempt: u32) -> [u8; 32] {
    let mut labels = [0u8; 32];
    for (value, label) in labels.iter_mut().enumerate().take(size + 1) {
        *label = value as u8;
    }
    if attempt > 0 {
        let mut random = SplitMix64(u64::from(attempt));
        for last in (2..=size).rev() {
            let other = 1 + (random.next_u64() % last as u64) as usize;
            labels.swap(last, other);
        }
    }
    labels
}

/// Marks a cell whose value is decided, so the same word holds the value's bit and the fact.
pub(crate) const SOLVED: u32 = 1 << 31;

/// A cell's word split without a branch: its candidates if undecided, else its digit with the
/// [`SOLVED`] flag (each part 0 when the other is not).
#[inline]
fn split(word: u32) -> (u32, u32) {
    let decided = ((word as i32) >> 31) as u32;
    (word & !decided, word & decided)
}

/// The digits with one open place left in `house` (candidate words as the searches keep them),
/// or `None` when a digit has no place left there. One pass, two bit sets: the digits seen at least
/// once and at least twice. A digit placed but not yet removed from its peers is not counted.
#[inline]
pub(crate) fn hidden_digits(house: &[u16], candidates: &[u32], full: u32) -> Option<u32> {
    let (mut once, mut twice, mut solved) = (0u32, 0u32, 0u32);
    for &cell in house {
        // Without a branch: whether a cell is decided is as good as random here.
        let (open, decided) = split(candidates[usize::from(cell)]);
        solved |= decided;
        twice |= once & open;
        once |= open;
    }
    solved &= !SOLVED;
    ((once | solved) == full).then_some(once & !twice & !solved)
}

/// The open cell of `house` that may hold the digit of `bit`, if one still does (another hidden
/// digit of the house may have taken it).
#[inline]
pub(crate) fn open_place(house: &[u16], candidates: &[u32], bit: u32) -> Option<usize> {
    house
        .iter()
        .map(|&cell| usize::from(cell))
        .find(|&cell| candidates[cell] & bit != 0 && candidates[cell] & SOLVED == 0)
}

/// Why an attempt stopped early.
pub(crate) enum Stop {
    Interrupted,
    Restart,
}

thread_local! {
    /// The saved candidate sets of the guesses on the current path, kept between searches so a
    /// search allocates nothing once the thread's first deep search has grown it.
    static SAVED: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// A search state that [`branch`] drives: this module's search and the variants' share the loop,
/// each with its own propagation and choice of guess. Candidate words hold a cell's candidates,
/// or its digit with [`SOLVED`].
pub(crate) trait Branching {
    /// The candidate words of the grid's cells, to save before a guess and restore after.
    fn words(&mut self) -> &mut [u32];
    /// Cells not yet decided.
    fn unsolved(&self) -> usize;
    fn set_unsolved(&mut self, unsolved: usize);
    /// Applies every rule until nothing changes; `false` on a contradiction.
    fn propagate(&mut self) -> bool;
    /// The guess: a cell and one of its digits' bits.
    fn choose(&mut self) -> (usize, u32);
    /// Decides `cell` as the digit of `bit`.
    fn place(&mut self, cell: usize, bit: u32);
    /// Back in a saved state (fully propagated): forgets pending work, then takes the guessed
    /// digit from its cell, which has another left.
    fn resume_without(&mut self, cell: usize, bit: u32);
    /// Counts a solution (the grid is decided); whether the search is to stop there.
    fn found(&mut self) -> bool;
    /// Counts a guess, and stops the search when the interrupt or the restart allowance says so.
    fn guessed(&mut self) -> Result<(), Stop>;
}

/// Depth-first search with binary branching: guess the chosen digit in the chosen cell; when
/// that subtree is done, restore the state saved before the guess and remove the digit. The
/// saved states live in the thread's [`SAVED`] buffer, given back however the search ends.
pub(crate) fn branch(search: &mut impl Branching) -> Result<(), Stop> {
    let mut saved = SavedGuard(SAVED.with_borrow_mut(std::mem::take));
    let saved = &mut saved.0;
    // Each saved entry: the cell and bit guessed, the unsolved count, then the candidates.
    let cells = search.words().len();
    let frame = cells + 3;
    let mut depth = 0;
    loop {
        let mut consistent = search.propagate();
        if consistent && search.unsolved() == 0 {
            if search.found() {
                return Ok(());
            }
            consistent = false;
        }
        if consistent {
            let (cell, bit) = search.choose();
            if saved.len() < (depth + 1) * frame {
                saved.resize((depth + 1) * frame, 0);
            }
            let entry = &mut saved[depth * frame..(depth + 1) * frame];
            entry[0] = cell as u32;
            entry[1] = bit;
            entry[2] = search.unsolved() as u32;
            entry[3..].copy_from_slice(search.words());
            depth += 1;
            search.guessed()?;
            search.place(cell, bit);
            continue;
        }
        // Back to the latest guess, whose cell has another candidate left.
        if depth == 0 {
            return Ok(());
        }
        depth -= 1;
        let entry = &saved[depth * frame..(depth + 1) * frame];
        let (cell, bit) = (entry[0] as usize, entry[1]);
        search.set_unsolved(entry[2] as usize);
        search.words().copy_from_slice(&entry[3..]);
        search.resume_without(cell, bit);
    }
}

/// One attempt's state.
struct Search<'i, I, const CAP: usize> {
    shape: Shape,
    layout: &'static Layout,
    cells: usize,
    full: u32,
    candidates: [u32; CAP],
    unsolved: usize,
    /// Cells placed whose digit is not yet removed from their peers.
    pending: [u16; CAP],
    pending_len: usize,
    /// Houses where a candidate went since their last sweep for hidden singles.
    dirty: u128,
    limit: usize,
    solutions: usize,
    /// The first solution, valid once `solutions` is above 0.
    first: [u8; CAP],
    guesses: u32,
    allowance: u32,
    /// Guesses after which the search gives up (`Stop::Restart`) even past a first solution.
    budget: u32,
    interrupt: &'i mut I,
    /// The guess the look-ahead chose for this node.
    choice: Option<(usize, u32)>,
    /// Candidates removed since the count was last reset: what a probe weighs.
    eliminated: u32,
    /// Probes made, for polling the interrupt between guesses.
    probes: u32,
    /// The interrupt said stop during a look-ahead; the next guess stops the search.
    stopped: bool,
    /// Within a probe: singles only.
    probing: bool,
    /// Per literal (`32 * cell + digit`), its probe's slot in `results` plus one, 0 when not
    /// probed at this node.
    weights: Vec<u32>,
    /// Per probe at this node, its weight and the candidates it left.
    results: Vec<u32>,
    /// The literals weighed at this node, to clear `weights` after.
    weighed: Vec<u32>,
    /// The pairs of literals of which exactly one holds: a cell's two candidates, a digit's two
    /// places in a house.
    pairs: Vec<(u32, u32)>,
}

/// The most pairs a look-ahead probes at a node (two-candidate cells first, then houses in order):
/// a bound on a node's cost where sparse grids have hundreds. On generated 20x20 and 25x25
/// puzzles 64, 256 and no bound searched alike; 16 let the slowest take seconds.
const PAIRS_PROBED: usize = 256;

/// What a look-ahead at a node found.
enum LookAhead {
    Contradiction,
    /// Candidates removed: propagate again.
    Deduced,
    Choose(usize, u32),
}

impl<'i, I: Interrupt, const CAP: usize> Search<'i, I, CAP> {
    fn new(shape: Shape, limit: usize, allowance: u32, interrupt: &'i mut I) -> Self {
        let size = shape.size();
        Search {
            shape,
            layout: Layout::of(shape),
            cells: shape.cells(),
            full: (1 << size) - 1,
            candidates: [0; CAP],
            unsolved: 0,
            pending: [0; CAP],
            pending_len: 0,
            dirty: 0,
            limit,
            solutions: 0,
            first: [0; CAP],
            guesses: 0,
            allowance,
            budget: u32::MAX,
            interrupt,
            choice: None,
            eliminated: 0,
            probes: 0,
            stopped: false,
            probing: false,
            weights: vec![0; 32 * CAP],
            results: Vec::new(),
            weighed: Vec::with_capacity(4 * CAP),
            pairs: Vec::with_capacity(4 * CAP),
        }
    }

    /// The pairs of literals of which exactly one holds, into `self.pairs`.
    fn collect_pairs(&mut self) {
        self.pairs.clear();
        for (cell, &candidates) in self.candidates[..self.cells].iter().enumerate() {
            if candidates & SOLVED == 0 && candidates.count_ones() == 2 {
                let literal = 32 * cell as u32;
                let low = candidates.trailing_zeros();
                let high = 31 - candidates.leading_zeros();
                self.pairs.push((literal + low, literal + high));
            }
        }
        for house in self.layout.houses() {
            let (mut once, mut twice, mut more) = (0u32, 0u32, 0u32);
            for &cell in house {
                let (open, _) = split(self.candidates[usize::from(cell)]);
                more |= twice & open;
                twice |= once & open;
                once |= open;
            }
            let mut pairs = twice & !more;
            while pairs != 0 {
                let digit = pairs.trailing_zeros();
                pairs &= pairs - 1;
                let mut places = house
                    .iter()
                    .map(|&cell| usize::from(cell))
                    .filter(|&cell| self.candidates[cell] & (1 << digit | SOLVED) == 1 << digit);
                let (Some(first), Some(second)) = (places.next(), places.next()) else { continue };
                self.pairs.push((32 * first as u32 + digit, 32 * second as u32 + digit));
            }
        }
    }

    /// Probes both literals of every pair: a literal whose propagation fails is false, so its
    /// candidate goes, and a candidate that neither side of a pair leaves goes too (what both
    /// sides of a pair imply holds). Otherwise the pair whose two sides remove the most
    /// candidates together is the guess (the look-ahead of SAT solvers such as march).
    fn look_ahead(&mut self) -> LookAhead {
        self.collect_pairs();
        if self.pairs.is_empty() {
            let (cell, bit) = self.choose();
            return LookAhead::Choose(cell, bit);
        }
        let cells = self.cells;
        let mut saved = [0u32; CAP];
        saved[..cells].copy_from_slice(&self.candidates[..cells]);
        let mut unsolved = self.unsolved;
        let mut best = (0u64, self.pairs[0].0);
        // Deductions made this round: the probes already made stay sound (a probe from fewer
        // candidates leaves a subset of what it left before), so the round goes on from the
        // state after them.
        let mut deduced = false;
        let open = |saved: &[u32; CAP], literal: u32| {
            saved[(literal / 32) as usize] & (1 << (literal % 32) | SOLVED) == 1 << (literal % 32)
        };
        'pairs: for index in 0..self.pairs.len().min(PAIRS_PROBED) {
            let pair = self.pairs[index];
            if !open(&saved, pair.0) || !open(&saved, pair.1) {
                continue;
            }
            let mut slots = [0usize; 2];
            for (side, literal) in [pair.0, pair.1].into_iter().enumerate() {
                let known = self.weights[literal as usize];
                if known > 0 {
                    slots[side] = known as usize - 1;
                    continue;
                }
                self.probes += 1;
                if self.probes & (self.interrupt.poll_interval() - 1) == 0 && self.interrupt.should_stop() {
                    self.stopped = true;
                    break 'pairs;
                }
                let (cell, bit) = ((literal / 32) as usize, 1u32 << (literal % 32));
                self.eliminated = 0;
                self.place(cell, bit);
                self.probing = true;
                let consistent = self.settle();
                self.probing = false;
                let weight = if self.unsolved == 0 { u32::MAX / 2 } else { self.eliminated };
                let slot = self.weighed.len();
                if consistent {
                    // The probe's outcome: its weight, then its candidates.
                    let at = slot * (cells + 1);
                    if self.results.len() < at + cells + 1 {
                        self.results.resize(at + cells + 1, 0);
                    }
                    self.results[at] = weight;
                    self.results[at + 1..at + 1 + cells].copy_from_slice(&self.candidates[..cells]);
                }
                self.candidates[..cells].copy_from_slice(&saved[..cells]);
                self.unsolved = unsolved;
                self.pending_len = 0;
                self.dirty = 0;
                if !consistent {
                    let removed = self.remove(cell, bit).is_some();
                    if let Some(outcome) = self.settle_deductions(removed, &mut saved, &mut unsolved) {
                        return self.forget_probes(outcome);
                    }
                    deduced = true;
                    continue 'pairs;
                }
                self.weights[literal as usize] = slot as u32 + 1;
                self.weighed.push(literal);
                slots[side] = slot;
            }
            let [first, second] = slots.map(|slot| slot * (cells + 1));
            // Candidates that neither side leaves.
            let (mut removed, mut consistent) = (false, true);
            for cell in 0..cells {
                let (open, _) = split(self.candidates[cell]);
                let left = (self.results[first + 1 + cell] | self.results[second + 1 + cell]) & !SOLVED;
                if open & !left != 0 {
                    removed = true;
                    consistent &= self.remove(cell, open & !left).is_some();
                }
            }
            if removed {
                if let Some(outcome) = self.settle_deductions(consistent, &mut saved, &mut unsolved) {
                    return self.forget_probes(outcome);
                }
                deduced = true;
                continue;
            }
            let sides = [first, second].map(|at| u64::from(self.results[at]));
            let score = sides[0] * sides[1] + sides[0] + sides[1];
            if score > best.0 {
                best = (score, pair.0);
            }
        }
        // After deductions the round's best pair is still the guess if it is still open: a round
        // more to confirm them cost as much as the round itself, for a guess hardly better
        // (Gecode's minimal 25x25 puzzles 1.5x faster without it).
        if deduced && (best.0 == 0 || !open(&saved, best.1)) {
            return self.forget_probes(LookAhead::Deduced);
        }
        self.forget_probes(LookAhead::Choose((best.1 / 32) as usize, 1 << (best.1 % 32)))
    }

    /// After a look-ahead's deductions (`consistent` when none emptied a cell): propagates them
    /// and saves the state the round goes on from, or answers how the look-ahead ends, when it
    /// found a contradiction or solved the grid.
    fn settle_deductions(
        &mut self,
        consistent: bool,
        saved: &mut [u32; CAP],
        unsolved: &mut usize,
    ) -> Option<LookAhead> {
        if !consistent || !self.settle() {
            return Some(LookAhead::Contradiction);
        }
        saved[..self.cells].copy_from_slice(&self.candidates[..self.cells]);
        *unsolved = self.unsolved;
        (self.unsolved == 0).then_some(LookAhead::Deduced)
    }

    /// Clears the probes of this node's look-ahead, then answers `outcome`.
    fn forget_probes(&mut self, outcome: LookAhead) -> LookAhead {
        for &literal in &self.weighed {
            self.weights[literal as usize] = 0;
        }
        self.weighed.clear();
        outcome
    }

    /// Searches `puzzle` (values in row-major order, each read through `labels`) until the
    /// limit, the end, or a stop.
    fn run(&mut self, puzzle: &[u8], labels: &[u8; 32]) -> Result<(), Stop> {
        self.candidates[..self.cells].fill(self.full);
        self.dirty = self.layout.all_houses();
        self.unsolved = self.cells;
        for (cell, &value) in puzzle.iter().enumerate() {
            if value != 0 {
                self.place(cell, 1 << (labels[usize::from(value)] - 1));
            }
        }
        branch(self)
    }

    /// Decides `cell` as the digit of `bit` and queues the removal from its peers.
    #[inline]
    fn place(&mut self, cell: usize, bit: u32) {
        self.eliminated = self.eliminated.wrapping_add((self.candidates[cell] & !SOLVED).count_ones() - 1);
        self.candidates[cell] = bit | SOLVED;
        self.dirty |= self.layout.houses_of(cell);
        self.unsolved -= 1;
        self.pending[self.pending_len] = cell as u16;
        self.pending_len += 1;
    }

    /// Places every single until none is left; `false` on a contradiction.
    fn settle(&mut self) -> bool {
        loop {
            while self.pending_len > 0 {
                self.pending_len -= 1;
                let cell = usize::from(self.pending[self.pending_len]);
                let bit = self.candidates[cell] & !SOLVED;
                for &peer in self.layout.peers(cell) {
                    let peer = usize::from(peer);
                    let candidates = self.candidates[peer];
                    if candidates & bit == 0 {
                        continue;
                    }
                    // A peer decided as the same digit, or left with no candidate.
                    if candidates & SOLVED != 0 || self.remove(peer, bit).is_none() {
                        return false;
                    }
                }
            }
            let mut placed = false;
            // Only houses that lost a candidate can have a new hidden single; a placement here
            // makes its houses dirty again for the next round.
            let mut sweep = std::mem::take(&mut self.dirty);
            while sweep != 0 {
                let index = sweep.trailing_zeros() as usize;
                sweep &= sweep - 1;
                let house = self.layout.house(index);
                let Some(mut hidden) = hidden_digits(house, &self.candidates, self.full) else { return false };
                while hidden != 0 {
                    let bit = hidden & hidden.wrapping_neg();
                    hidden &= hidden - 1;
                    let Some(cell) = open_place(house, &self.candidates, bit) else { return false };
                    self.place(cell, bit);
                    placed = true;
                }
            }
            if placed {
                continue;
            }
            if self.probing {
                return true;
            }
            match self.intersections() {
                Some(true) => continue,
                Some(false) => return true,
                None => return false,
            }
        }
    }

    /// Locked candidates, both ways, for every line and box that cross: a digit whose places in
    /// a box all lie on one line is removed from the rest of the line, and one whose places on a
    /// line all lie in one box from the rest of the box. Whether anything was removed, or
    /// `None` on a contradiction. The 9x9 solver's band rule does this and more; here, sparse
    /// 16x16 and 25x25 grids need it to keep their searches small.
    fn intersections(&mut self) -> Option<bool> {
        let shape = self.shape;
        let size = shape.size();
        let (box_rows, box_cols) = (shape.box_rows(), shape.box_cols());
        // The candidates of each line's cells in each box, rows and columns in one pass: a row
        // crosses `box_rows` boxes, a column `box_cols`.
        let mut rows = [0u32; MAX_SIZE * 5];
        let mut cols = [0u32; MAX_SIZE * 5];
        for row in 0..size {
            let band = row / box_rows;
            for segment in 0..box_rows {
                for step in 0..box_cols {
                    let col = segment * box_cols + step;
                    let (open, _) = split(self.candidates[row * size + col]);
                    rows[row * box_rows + segment] |= open;
                    cols[col * box_cols + band] |= open;
                }
            }
        }
        let mut removed = false;
        for across in [true, false] {
            // A "line" is a row or a column, its "segments" its cells in each box it crosses:
            // `per` segments of `short` cells; `per` lines cross each box side by side.
            let (masks, per, short) = if across { (&rows, box_rows, box_cols) } else { (&cols, box_cols, box_rows) };
            // The digits in two or more segments of each line, and in two or more lines of each
            // box: a digit of a segment is elsewhere on its line, or elsewhere in its box, exactly
            // when it is in these.
            let (mut line_twice, mut box_twice) = ([0u32; MAX_SIZE], [0u32; MAX_SIZE]);
            for line in 0..size {
                let mut once = 0;
                for &mask in &masks[line * per..(line + 1) * per] {
                    line_twice[line] |= once & mask;
                    once |= mask;
                }
            }
            for first_line in (0..size).step_by(per) {
                for segment in 0..per {
                    let mut once = 0;
                    for line in first_line..first_line + per {
                        let mask = masks[line * per + segment];
                        box_twice[first_line + segment] |= once & mask;
                        once |= mask;
                    }
                }
            }
            for line in 0..size {
                let first_line = line - line % per;
                for segment in 0..per {
                    let mask = masks[line * per + segment];
                    let (in_line, in_box) = (line_twice[line], box_twice[first_line + segment]);
                    let cell = |line: usize, segment: usize, step: usize| {
                        let along = segment * short + step;
                        if across { line * size + along } else { along * size + line }
                    };
                    // Pointing: only here in the box, so not elsewhere on the line.
                    let pointing = mask & !in_box & in_line;
                    if pointing != 0 {
                        for other in (0..per).filter(|&other| other != segment) {
                            for step in 0..short {
                                removed |= self.remove(cell(line, other, step), pointing)?;
                            }
                        }
                    }
                    // Claiming: only here on the line, so not elsewhere in the box.
                    let claiming = mask & !in_line & in_box;
                    if claiming != 0 {
                        for other in (first_line..first_line + per).filter(|&other| other != line) {
                            for step in 0..short {
                                removed |= self.remove(cell(other, segment, step), claiming)?;
                            }
                        }
                    }
                }
            }
            if removed {
                // The masks are stale; the propagation loop comes back here.
                return Some(true);
            }
        }
        Some(false)
    }

    /// Removes the digits of `digits` from an undecided `cell`: whether any was there, or `None`
    /// when none is left.
    #[inline]
    fn remove(&mut self, cell: usize, digits: u32) -> Option<bool> {
        let candidates = self.candidates[cell];
        if candidates & SOLVED != 0 || candidates & digits == 0 {
            return Some(false);
        }
        let left = candidates & !digits;
        if left == 0 {
            return None;
        }
        self.eliminated = self.eliminated.wrapping_add((candidates & digits).count_ones());
        if left & (left - 1) == 0 {
            self.place(cell, left);
        } else {
            self.candidates[cell] = left;
            self.dirty |= self.layout.houses_of(cell);
        }
        Some(true)
    }

    /// The undecided peers of `cell` that share one of `candidates`, weighed by
    /// [`linked_weight`].
    fn linked_peers(&self, cell: usize, candidates: u32) -> u32 {
        let peers = self.layout.peers(cell).iter().map(|&peer| self.candidates[usize::from(peer)]);
        peers
            .filter(|&peer| peer & SOLVED == 0 && peer & candidates != 0)
            .map(|peer| linked_weight(peer.count_ones() == 2))
            .sum()
    }

    /// The guess to make: a cell and one of its digits. A cell with two candidates if there is
    /// one (the one most linked to its peers); else a digit with two places left in some house (in large sparse grids these are
    /// far more common than two-candidate cells, and either way the guess halves the
    /// possibilities); else the cell with the fewest candidates.
    fn choose(&self) -> (usize, u32) {
        let (mut best, mut fewest, mut most_linked) = (usize::MAX, u32::MAX, 0);
        for (cell, &candidates) in self.candidates[..self.cells].iter().enumerate() {
            let count = candidates.count_ones();
            if candidates & SOLVED != 0 || count > fewest {
                continue;
            }
            // Among two-candidate cells, the one whose digits the most undecided peers share:
            // its guess removes the most candidates, and in sparse 15x15 to 20x20 grids this
            // cuts the slowest searches by a factor of 3 to 10.
            let linked = if count == 2 { self.linked_peers(cell, candidates) } else { 0 };
            if count < fewest || linked > most_linked {
                (best, fewest, most_linked) = (cell, count, linked);
            }
        }
        if fewest > 2 {
            for house in self.layout.houses() {
                let (mut once, mut twice, mut more) = (0u32, 0u32, 0u32);
                for &cell in house {
                    let candidates = self.candidates[usize::from(cell)];
                    if candidates & SOLVED == 0 {
                        more |= twice & candidates;
                        twice |= once & candidates;
                        once |= candidates;
                    }
                }
                let pairs = twice & !more;
                if pairs != 0 {
                    let bit = pairs & pairs.wrapping_neg();
                    let cell = house
                        .iter()
                        .map(|&cell| usize::from(cell))
                        .find(|&cell| self.candidates[cell] & (bit | SOLVED) == bit)
                        .expect("the digit has two places in the house");
                    return (cell, bit);
                }
            }
        }
        let candidates = self.candidates[best];
        (best, candidates & candidates.wrapping_neg())
    }
}

impl<I: Interrupt, const CAP: usize> Branching for Search<'_, I, CAP> {
    fn words(&mut self) -> &mut [u32] {
        &mut self.candidates[..self.cells]
    }

    fn unsolved(&self) -> usize {
        self.unsolved
    }

    fn set_unsolved(&mut self, unsolved: usize) {
        self.unsolved = unsolved;
    }

    fn propagate(&mut self) -> bool {
        loop {
            if !self.settle() {
                return false;
            }
            if self.unsolved == 0 {
                return true;
            }
            match self.look_ahead() {
                LookAhead::Contradiction => return false,
                LookAhead::Deduced => continue,
                LookAhead::Choose(cell, bit) => {
                    self.choice = Some((cell, bit));
                    return true;
                }
            }
        }
    }

    fn choose(&mut self) -> (usize, u32) {
        self.choice.take().unwrap_or_else(|| Search::choose(self))
    }

    fn place(&mut self, cell: usize, bit: u32) {
        Search::place(self, cell, bit);
    }

    fn resume_without(&mut self, cell: usize, bit: u32) {
        self.pending_len = 0;
        // The saved state was swept to the end: only the guessed cell changes.
        self.dirty = 0;
        self.remove(cell, bit).expect("a guessed cell keeps another candidate");
    }

    fn found(&mut self) -> bool {
        if self.solutions == 0 {
            for (value, &bit) in self.first.iter_mut().zip(&self.candidates[..self.cells]) {
                *value = (bit & !SOLVED).trailing_zeros() as u8 + 1;
            }
        }
        self.solutions += 1;
        self.solutions >= self.limit
    }

    fn guessed(&mut self) -> Result<(), Stop> {
        if self.stopped {
            return Err(Stop::Interrupted);
        }
        self.guesses += 1;
        if self.guesses >= self.budget {
            return Err(Stop::Restart);
        }
        after_guess(self.guesses, self.solutions, self.allowance, &mut *self.interrupt)
    }
}

/// Gives the saved states back to the thread when the search ends, however it ends.
struct SavedGuard(Vec<u32>);

impl Drop for SavedGuard {
    fn drop(&mut self) {
        let saved = std::mem::take(&mut self.0);
        SAVED.with_borrow_mut(|slot| {
            if slot.capacity() < saved.capacity() {
                *slot = saved;
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::{Never, PollBudget};
    use crate::search::{classify_grid as classify, count_grid};
    use crate::verdict::Verdict;

    /// The oracle: plain backtracking over the first blank cell, checking rows, columns and
    /// boxes by scanning them. It shares nothing with the search above.
    fn naive_count(shape: Shape, cells: &mut [u8], limit: usize, first: &mut Option<Vec<u8>>) -> usize {
        let n = shape.size();
        let Some(at) = cells.iter().position(|&value| value == 0) else {
            first.get_or_insert_with(|| cells.to_vec());
            return 1;
        };
        let (row, col) = (at / n, at % n);
        let mut found = 0;
        for value in 1..=n as u8 {
            let clash = (0..n).any(|other| {
                cells[row * n + other] == value
                    || cells[other * n + col] == value
                    || cells.iter().enumerate().any(|(index, &seen)| {
                        seen == value && shape.box_of(index / n, index % n) == shape.box_of(row, col)
                    })
            });
            if !clash {
                cells[at] = value;
                found += naive_count(shape, cells, limit - found, first);
                cells[at] = 0;
                if found >= limit {
                    break;
                }
            }
        }
        found
    }

    fn is_solution(puzzle: &Grid, solution: &Grid) -> bool {
        let (shape, n) = (puzzle.shape(), puzzle.size());
        let kept = puzzle.cells().iter().zip(solution.cells()).all(|(&given, &value)| given == 0 || given == value);
        let houses_full = (0..n).all(|house| {
            let mut rows = 0u32;
            let mut cols = 0u32;
            let mut boxes = 0u32;
            for index in 0..n * n {
                let (row, col) = (index / n, index % n);
                let bit = 1u32 << solution.cells()[index];
                if row == house {
                    rows |= bit;
                }
                if col == house {
                    cols |= bit;
                }
                if shape.box_of(row, col) == house {
                    boxes |= bit;
                }
            }
            let all = ((1u32 << n) - 1) << 1;
            rows == all && cols == all && boxes == all
        });
        kept && houses_full
    }

    /// A solved grid of `shape`, by the search from an empty grid, then relabeled and with its
    /// rows shuffled within bands by `seed`, so tests see many different solutions.
    fn solved(shape: Shape, seed: u64) -> Grid {
        let empty = Grid::empty(shape);
        let base = count_grid(&empty, 1, &mut Never).unwrap().first.unwrap();
        assert!(is_solution(&empty, &base), "{base:?}");
        let mut random = SplitMix64(seed);
        let n = shape.size();
        let mut labels: Vec<u8> = (0..=n as u8).collect();
        for last in (2..=n).rev() {
            labels.swap(last, 1 + (random.next_u64() % last as u64) as usize);
        }
        let mut rows: Vec<usize> = (0..n).collect();
        for band in rows.chunks_mut(shape.box_rows()) {
            for last in (1..band.len()).rev() {
                band.swap(last, (random.next_u64() % (last as u64 + 1)) as usize);
            }
        }
        let cells = rows
            .iter()
            .flat_map(|&row| base.cells()[row * n..(row + 1) * n].iter().map(|&value| labels[usize::from(value)]))
            .collect();
        let grid = Grid::new(shape, cells).unwrap();
        assert!(is_solution(&empty, &grid));
        grid
    }

    /// `solution` with the cells `seed` picks blanked, about `blank_percent` of them.
    fn puzzle(solution: &Grid, blank_percent: u64, seed: u64) -> Grid {
        let mut random = SplitMix64(seed);
        let cells = solution
            .cells()
            .iter()
            .map(|&value| if random.next_u64() % 100 < blank_percent { 0 } else { value })
            .collect();
        Grid::new(solution.shape(), cells).unwrap()
    }

    #[test]
    fn the_4x4_table_holds_every_solved_grid_once_and_answers_as_the_search_does() {
        let grids = &all_4x4().grids;
        let mut distinct = grids.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!((grids.len(), distinct.len()), (288, 288));
        let four = Shape::new(2, 2).unwrap();
        for seed in 0..200 {
            let puzzle = puzzle(&solved(four, seed), 30 + seed % 70, seed);
            for limit in [1, 2, 300] {
                let table = count_among_all_4x4_grids(&puzzle, limit);
                let searched = count_in::<36>(&puzzle, limit, &mut Never).unwrap();
                assert_eq!(table.solutions, searched.solutions, "{puzzle:?}");
                assert!(table.first.as_ref().is_none_or(|first| is_solution(&puzzle, first)), "{puzzle:?}");
            }
        }
        assert_eq!(count_grid(&Grid::empty(four), 1000, &mut Never).unwrap().solutions, 288);
    }

    #[test]
    fn the_word_search_and_the_cell_search_agree_on_every_shape_of_at_most_64_cells() {
        for shape in Shape::all().filter(|shape| shape.cells() <= small::MAX_CELLS) {
            for seed in 0..150 {
                let puzzle = puzzle(&solved(shape, seed), 30 + seed % 71, seed);
                for limit in [1, 2, 40] {
                    let words = count_small(&puzzle, limit, &mut Never).unwrap();
                    let cells = count_in::<144>(&puzzle, limit, &mut Never).unwrap();
                    assert_eq!(words.solutions, cells.solutions, "{shape} {puzzle}");
                    assert!(words.first.as_ref().is_some_and(|first| is_solution(&puzzle, first)), "{shape} {puzzle}");
                }
            }
            // An empty 4x4 grid has 288 solutions, the larger ones millions: no end before the poll.
            let empty = Grid::empty(shape);
            let interrupted = shape.size() > 4;
            assert_eq!(count_small(&empty, usize::MAX, &mut PollBudget(2)).is_err(), interrupted, "{shape}");
        }
    }

    #[test]
    fn the_lane_search_and_the_cell_search_agree_on_every_shape_of_9_to_16_digits() {
        let shapes = Shape::all().filter(|shape| shape.cells() > small::MAX_CELLS && shape.size() <= lanes::MAX_SIZE);
        for shape in shapes {
            for seed in 0..60 {
                // From nearly full grids with many solutions to sparse ones that need guesses, and
                // every tenth with a digit changed (often no solution, or a repeated given).
                let mut puzzle = puzzle(&solved(shape, seed), 20 + seed % 61, seed);
                if seed % 10 == 9 {
                    let mut cells = puzzle.cells().to_vec();
                    let given = cells.iter().position(|&value| value != 0).expect("a given");
                    cells[given] = cells[given] % shape.size() as u8 + 1;
                    puzzle = Grid::new(shape, cells).expect("values within the size");
                }
                for limit in [1, 2, 40] {
                    let lanes = count_lanes(&puzzle, limit, &mut Never).unwrap();
                    let cells = count_in::<MAX_CELLS>(&puzzle, limit, &mut Never).unwrap();
                    assert_eq!(lanes.solutions, cells.solutions, "{shape} {puzzle} limit {limit}");
                    assert_eq!(lanes.first.is_some(), lanes.solutions > 0, "{shape} {puzzle}");
                    if let Some(first) = &lanes.first {
                        assert!(is_solution(&puzzle, first), "{shape} {puzzle}");
                    }
                }
            }
            let empty = Grid::empty(shape);
            assert!(count_lanes(&empty, usize::MAX, &mut PollBudget(2)).is_err(), "{shape}");
        }
    }

    #[test]
    fn counts_agree_with_the_oracle_at_every_size_the_oracle_can_count() {
        for shape in Shape::all().filter(|shape| shape.size() <= 12) {
            for seed in 0..12 {
                let solution = solved(shape, seed);
                // The smaller the grid, the more blanks the oracle can afford.
                let blanks = if shape.size() <= 6 { 75 } else { 45 };
                let puzzle = puzzle(&solution, blanks, seed);
                let mut cells = puzzle.cells().to_vec();
                let mut oracle_first = None;
                let expected = naive_count(shape, &mut cells, 3, &mut oracle_first);
                let count = count_grid(&puzzle, 3, &mut Never).unwrap();
                assert_eq!(count.solutions, expected, "{shape} {puzzle}");
                let first = count.first.unwrap();
                assert!(is_solution(&puzzle, &first), "{shape} {puzzle} -> {first}");
                if expected == 1 {
                    assert_eq!(first.cells(), oracle_first.unwrap().as_slice());
                }
            }
        }
    }

    #[test]
    fn every_shape_solves_from_an_empty_grid_and_from_sparse_givens() {
        for shape in Shape::all() {
            let solution = solved(shape, 7);
            for blanks in [60, 80, 95] {
                let puzzle = puzzle(&solution, blanks, 11);
                let count = count_grid(&puzzle, 2, &mut Never).unwrap();
                assert!(count.solutions >= 1, "{shape} {puzzle}");
                assert!(is_solution(&puzzle, &count.first.unwrap()), "{shape} {puzzle}");
            }
        }
    }

    #[test]
    fn repeated_givens_and_dead_ends_have_no_solution() {
        let shape = Shape::new(2, 3).unwrap();
        let mut repeated = Grid::empty(shape).cells().to_vec();
        repeated[0] = 1;
        repeated[5] = 1;
        let repeated = Grid::new(shape, repeated).unwrap();
        assert_eq!(count_grid(&repeated, 2, &mut Never).unwrap(), Count { solutions: 0, first: None });
        // No conflict among the givens, but the top left cell sees 1 and 4 in its box, 2 and 3
        // in its column.
        let blocked = Grid::parse(".1.. .4.. 2... 3...", None).unwrap();
        let mut oracle_cells = blocked.cells().to_vec();
        assert_eq!(naive_count(blocked.shape(), &mut oracle_cells, 2, &mut None), 0);
        assert_eq!(count_grid(&blocked, 2, &mut Never).unwrap().solutions, 0);
    }

    #[test]
    fn the_limit_caps_the_count_and_zero_searches_nothing() {
        let empty = Grid::empty(Shape::new(2, 2).unwrap());
        // 288 grids of 4x4 exist.
        assert_eq!(count_grid(&empty, 1000, &mut Never).unwrap().solutions, 288);
        assert_eq!(count_grid(&empty, 5, &mut Never).unwrap().solutions, 5);
        assert_eq!(count_grid(&empty, 0, &mut Never).unwrap(), Count { solutions: 0, first: None });
    }

    #[test]
    fn an_interrupt_stops_the_search() {
        let empty = Grid::empty(Shape::new(5, 5).unwrap());
        assert_eq!(count_grid(&empty, 2, &mut PollBudget(0)), Err(Interrupted));
        assert_eq!(count_grid(&empty, usize::MAX, &mut PollBudget(3)), Err(Interrupted));
    }

    #[test]
    fn the_verdict_is_the_9x9_one_for_every_kind_of_puzzle() {
        let shape = Shape::new(2, 3).unwrap();
        let solution = solved(shape, 3);
        let unique = (0..40)
            .map(|seed| puzzle(&solution, 40, seed))
            .find(|puzzle| count_grid(puzzle, 2, &mut Never).unwrap().solutions == 1);
        let unique = unique.expect("a puzzle with one solution");
        assert_eq!(classify(&unique, &mut Never), Ok(Verdict::Unique(solution.clone())));
        let Ok(Verdict::Multiple(first)) = classify(&Grid::empty(shape), &mut Never) else { panic!("many solutions") };
        assert!(is_solution(&Grid::empty(shape), &first));
        let blocked = Grid::parse(".1.. .4.. 2... 3...", None).unwrap();
        assert_eq!(classify(&blocked, &mut Never), Ok(Verdict::Unsolvable));
        let repeated = Grid::parse("11.. .... .... ....", None).unwrap();
        let Ok(Verdict::Conflicting(found)) = classify(&repeated, &mut Never) else { panic!("conflicting") };
        assert_eq!(found.len(), 2);
    }

    #[test]
    fn relabelings_are_permutations_that_keep_the_blank() {
        for size in [4, 9, 25] {
            for attempt in 0..5 {
                let labels = relabeling(size, attempt);
                let mut seen: Vec<u8> = labels[..=size].to_vec();
                seen.sort_unstable();
                assert_eq!(seen, (0..=size as u8).collect::<Vec<_>>());
                assert_eq!(labels[0], 0);
            }
        }
    }
}

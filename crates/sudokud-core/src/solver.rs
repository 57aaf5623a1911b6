//! The solver: digit-major band bitboards, table-driven propagation, depth-first search.
//!
//! The grid is cut into three bands of three rows. For each band and digit a `u32` holds the 27
//! cells of the band where the digit is still possible (the layout of JCZSolve and the `sudoku`
//! crate), so most rules are a handful of bit operations on one word:
//!
//! - per band and digit (`State::drain`): locked candidates by a 512-entry table indexed by
//!   which mini-rows still hold the digit, then hidden singles in rows (a row with one bit),
//!   in rounds over the changed entries;
//! - per band, over the nine digits: naked singles and empty cells by bit-sliced counting;
//! - per digit, over the three bands: hidden singles in columns and, on puzzles of 17 to 29
//!   givens, locked candidates within each stack, the same table applied to mini-columns.
//!
//! A placement is lazy: it clears the digit's peers in its own band, and the band update then
//! finds the cell alone in its row and clears it from the other digits and its column from the
//! other bands. When nothing applies, the search guesses on a cell with two candidates (the one
//! whose digits its peers hold most often, peers with two candidates themselves counted more,
//! so both branches propagate far, and digits that have run out of places elsewhere in the tree
//! counted more too; else, weighed alike, one with the fewest), trying each (near
//! the top of the tree, the one that rules out the most first) on a copy of the 128-byte state:
//! copying is cheaper than undo bookkeeping, and the search allocates nothing.
//!
//! Search stops at the second solution when the caller only needs uniqueness (see
//! [`count_solutions`]'s `limit`), and polls an [`Interrupt`] every [`POLL_INTERVAL`] guesses
//! (or as often as it asks) so a deadline can end it; the levels of the tree it unwinds from such
//! a stop can be kept ([`Progress`]) for a later call, on any thread, to go on from. A search
//! that goes a few thousand guesses without a solution starts over on a relabeled copy of the
//! puzzle, which cuts the heavy tail of depth-first search on sparse grids from seconds to
//! milliseconds (see `count_with`).

use crate::board::bitboards::{self, BAND, Baseline, Build, COLUMN_SPREAD};
use crate::board::{Board, CELLS, Shuffle};
use crate::rules::{self, Conflict};

// The vocabulary every search shares, where it has always been named.
pub use crate::interrupt::{Deadline, EveryNthPoll, Interrupt, Interrupted, Never, POLL_INTERVAL, PollBudget};
pub use crate::verdict::{Unanswerable, Verdict};

/// What solving a puzzle found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exactly one solution.
    Unique(Board),
    /// Two or more solutions; this is the first one found.
    Multiple(Board),
    /// No solution (also when givens repeat a digit).
    Unsolvable,
}

/// Solutions counted up to a limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Count {
    /// Number of solutions found, never more than the limit asked for.
    pub solutions: usize,
    /// The first solution found, if any.
    pub first: Option<Board>,
}

/// Solves `puzzle` and tells whether the solution is unique, searching to the end.
pub fn solve(puzzle: &Board) -> Outcome {
    match solve_until(puzzle, &mut Never) {
        Ok(outcome) => outcome,
        Err(Interrupted) => unreachable!("Never does not interrupt"),
    }
}

/// Solves `puzzle` and tells whether the solution is unique, unless `interrupt` stops it first.
pub fn solve_until(puzzle: &Board, interrupt: &mut impl Interrupt) -> Result<Outcome, Interrupted> {
    let count = count_solutions(puzzle, 2, interrupt)?;
    Ok(match (count.solutions, count.first) {
        (1, Some(solution)) => Outcome::Unique(solution),
        (_, Some(solution)) => Outcome::Multiple(solution),
        (_, None) => Outcome::Unsolvable,
    })
}

/// Classifies `puzzle`, searching for at most two solutions unless `interrupt` stops it first.
pub fn classify(puzzle: &Board, interrupt: &mut impl Interrupt) -> Result<Verdict, Interrupted> {
    classify_from(puzzle, &mut Progress::default(), interrupt)
}

/// [`classify`], going on from where an earlier call on `puzzle` paused, and keeping in
/// `progress` where this one pauses if `interrupt` stops it.
pub fn classify_from(
    puzzle: &Board,
    progress: &mut Progress,
    interrupt: &mut impl Interrupt,
) -> Result<Verdict, Interrupted> {
    Ok(match count_or_conflicts(puzzle, 2, progress, interrupt)? {
        Err(conflicts) => Verdict::Conflicting(conflicts),
        Ok(Count { solutions: 1, first: Some(solution) }) => Verdict::Unique(solution),
        Ok(Count { first: Some(solution), .. }) => Verdict::Multiple(solution),
        Ok(Count { first: None, .. }) => Verdict::Unsolvable,
    })
}

/// Counts the solutions of `puzzle` up to `limit`, or says which givens conflict. Building the
/// search's state tells which digits' givens clash, so only those are looked at for the cells
/// that repeat them, and a puzzle whose givens agree never pays for the look. Goes on from
/// where an earlier call on the same puzzle and limit paused (see [`Progress`]).
pub fn count_or_conflicts(
    puzzle: &Board,
    limit: usize,
    progress: &mut Progress,
    interrupt: &mut impl Interrupt,
) -> Result<Result<Count, Vec<Conflict>>, Interrupted> {
    Ok(match count_with(puzzle, limit, interrupt, SearchPath::fastest(), progress)? {
        Searched::Counted(count) => Ok(count),
        Searched::Clashing(conflicts) => Err(conflicts),
    })
}

/// Counts the solutions of `puzzle`, stopping as soon as `limit` are found.
pub fn count_solutions(puzzle: &Board, limit: usize, interrupt: &mut impl Interrupt) -> Result<Count, Interrupted> {
    count_with(puzzle, limit, interrupt, SearchPath::fastest(), &mut Progress::default()).map(Searched::count)
}

/// [`count_solutions`] on the search `path`, or `None` where this CPU cannot run it. Every path
/// gives the same answers; this is what tests and fuzzing check them against each other with, in
/// one process (a global switch would race between threads). Goes on from where an earlier call
/// on the same path, puzzle and limit paused (see [`Progress`]).
pub fn count_solutions_on(
    path: SearchPath,
    puzzle: &Board,
    limit: usize,
    progress: &mut Progress,
    interrupt: &mut impl Interrupt,
) -> Option<Result<Count, Interrupted>> {
    path.is_supported().then(|| count_with(puzzle, limit, interrupt, path, progress).map(Searched::count))
}

/// The builds of the search in the binary: the same code, compiled for more of the CPU's
/// instructions. The release build targets baseline x86_64, where `count_ones` is a dozen
/// instructions and `trailing_zeros` needs a zero check; the others are compiled for the
/// extensions they name and run only where the CPU has them ([`SearchPath::fastest`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchPath {
    /// Baseline instructions, on any CPU.
    Portable,
    /// POPCNT and BMI1/2 make each bit count and scan one instruction, and with AVX2 the
    /// compiler compares and masks eight of a band's nine digits at once and copies the state
    /// at a guess in four moves: 4-6 % fewer instructions on every set (callgrind, `sudokud
    /// solve --threads 1`).
    Avx2,
    /// [`SearchPath::Avx2`], and the band rule's line found by an index one PEXT gathers from
    /// the entry, on CPUs where PEXT is fast (Intel's, AMD's since Zen 3): 3.5-4 % fewer
    /// instructions.
    Avx2Pext,
}

impl SearchPath {
    /// Every path, the portable first.
    pub const ALL: [SearchPath; 3] = [SearchPath::Portable, SearchPath::Avx2, SearchPath::Avx2Pext];

    /// Whether this CPU runs `self`.
    pub fn is_supported(self) -> bool {
        self.supported_on(CpuFeatures::get())
    }

    fn supported_on(self, cpu: CpuFeatures) -> bool {
        match self {
            SearchPath::Portable => true,
            SearchPath::Avx2 => cpu.avx2,
            SearchPath::Avx2Pext => cpu.avx2 && cpu.fast_pext,
        }
    }

    /// The fastest path this CPU runs, decided once.
    pub fn fastest() -> SearchPath {
        static FASTEST: std::sync::LazyLock<SearchPath> =
            std::sync::LazyLock::new(|| SearchPath::fastest_on(CpuFeatures::get()));
        *FASTEST
    }

    /// The fastest path a CPU with `cpu`'s features runs: the last of [`SearchPath::ALL`] it
    /// supports.
    fn fastest_on(cpu: CpuFeatures) -> SearchPath {
        *SearchPath::ALL.iter().rev().find(|path| path.supported_on(cpu)).expect("the portable path runs anywhere")
    }
}

/// What the CPU offers the search, asked once: std caches what CPUID said, but its four checks
/// were a call and 23 instructions a solve, a hundredth of a line of clashing givens in
/// `sudokud solve`.
#[derive(Clone, Copy)]
struct CpuFeatures {
    /// POPCNT, BMI1, BMI2 and AVX2: what [`SearchPath::Avx2`] is compiled for.
    avx2: bool,
    /// Whether PEXT (part of BMI2) is one quick instruction: on Intel CPUs, whose first with
    /// BMI2 (Haswell) already had it so, and on AMD's since Zen 3 (family 0x19). Zen 1 and 2 run
    /// it in microcode, in tens to hundreds of cycles by the mask's bits.
    fast_pext: bool,
}

impl CpuFeatures {
    #[cfg(target_arch = "x86_64")]
    fn get() -> CpuFeatures {
        static FEATURES: std::sync::LazyLock<CpuFeatures> = std::sync::LazyLock::new(|| {
            use std::arch::x86_64::__cpuid;
            let avx2 = is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("bmi1")
                && is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("avx2");
            // Leaf 0: the vendor's name in EBX, EDX, ECX; leaf 1: the family in EAX.
            let vendor = __cpuid(0);
            let name = |text: &[u8; 12]| {
                let word = |at: usize| u32::from_le_bytes([text[at], text[at + 1], text[at + 2], text[at + 3]]);
                (vendor.ebx, vendor.edx, vendor.ecx) == (word(0), word(4), word(8))
            };
            let signature = __cpuid(1).eax;
            let base_family = signature >> 8 & 0xf;
            let family = if base_family == 0xf { base_family + (signature >> 20 & 0xff) } else { base_family };
            let fast_pext = name(b"GenuineIntel") || (name(b"AuthenticAMD") && family >= 0x19);
            CpuFeatures { avx2, fast_pext }
        });
        *FEATURES
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn get() -> CpuFeatures {
        CpuFeatures { avx2: false, fast_pext: false }
    }
}

/// [`count_solutions`], on the search `path` (which the caller checked the CPU runs), going on
/// from where `progress` says an earlier call on the same puzzle and limit paused.
///
/// A depth-first search can take a wrong turn early into a large subtree with no solution, and
/// sparse grids hide such subtrees that take seconds to refute (one of 12 givens took 4.4 s)
/// where the same puzzle, looked at in another order, solves in microseconds. So an attempt that
/// goes [`RESTART_GUESSES`] guesses without finding a solution is abandoned, and the search
/// starts over on a relabeled copy of the puzzle (a [`Shuffle`], whose solutions map back one to
/// one) with twice the allowance, and so on. The allowances double, so however many attempts a
/// board needs, the abandoned ones together cost no more than the last one's allowance. Real
/// puzzles never restart: the hardest known need under 1,400 guesses in all.
fn count_with(
    puzzle: &Board,
    limit: usize,
    interrupt: &mut impl Interrupt,
    path: SearchPath,
    progress: &mut Progress,
) -> Result<Searched, Interrupted> {
    if interrupt.should_stop() {
        return Err(Interrupted);
    }
    if limit == 0 {
        return Ok(Searched::Counted(Count { solutions: 0, first: None }));
    }
    if progress.0.is_some() {
        return resume(puzzle, limit, interrupt, path, progress);
    }
    let mut search = Search::new(limit, RESTART_GUESSES, interrupt);
    match search.start(Entry::Puzzle(puzzle), path) {
        Ok(_) => Ok(Searched::Counted(search.count)),
        Err(Stop::Clashing) => Ok(Searched::Clashing(search.clashing)),
        // A restart or a pause comes after a guess, so after the givens were placed without a clash.
        ended => go_on(Attempt { puzzle: *puzzle, path, number: 0, first: None }, search, ended, progress)
            .map(Searched::Counted),
    }
}

/// What a search of a puzzle found: its solutions, or givens that clash (no solution).
enum Searched {
    Counted(Count),
    /// The givens that repeat a digit in a row, column or box.
    Clashing(Vec<Conflict>),
}

impl Searched {
    /// The solutions counted; none when givens clash.
    fn count(self) -> Count {
        match self {
            Searched::Counted(count) => count,
            Searched::Clashing(_) => Count { solutions: 0, first: None },
        }
    }
}

/// Where a search of a classic board paused when its interrupt said so, for the next call on the
/// same puzzle, limit and path to go on from (the service tries a puzzle on its async worker for
/// a few microseconds and hands what is left to its blocking pool; nothing done is done twice).
/// Empty until a search pauses, and again once it ends. A call on another puzzle or limit starts
/// over and forgets it. Grids of other sizes and variants always start over. Pausing allocates
/// (the levels kept); a search its interrupt does not stop allocates nothing.
#[derive(Default)]
pub struct Progress(Option<Box<Paused>>);

impl Progress {
    /// Whether a search paused here, for a call to go on with.
    pub fn is_paused(&self) -> bool {
        self.0.is_some()
    }
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let levels = self.0.as_ref().map(|paused| paused.search.frames.len());
        formatter.debug_struct("Progress").field("paused_levels", &levels).finish()
    }
}

/// Everything a paused search needs to go on: which attempt of which puzzle it was, with the
/// first solution the earlier attempts found, and the search itself, without its interrupt (its
/// tallies, and the levels of the tree with branches left to try).
struct Paused {
    attempt: Attempt,
    search: Search<()>,
}

/// An attempt at a puzzle (see [`count_with`]): its number (0 for the first, on the puzzle as
/// given) and the first solution any attempt found, mapped back to the puzzle.
struct Attempt {
    puzzle: Board,
    path: SearchPath,
    number: u32,
    first: Option<Board>,
}

/// Goes on with a paused search of `puzzle`, or starts over if `progress` is another's.
#[cold]
#[inline(never)]
fn resume(
    puzzle: &Board,
    limit: usize,
    interrupt: &mut impl Interrupt,
    path: SearchPath,
    progress: &mut Progress,
) -> Result<Searched, Interrupted> {
    let paused = progress.0.take().expect("the caller saw a paused search");
    if (paused.attempt.puzzle, paused.attempt.path, paused.search.limit) != (*puzzle, path, limit) {
        return count_with(puzzle, limit, interrupt, path, progress);
    }
    let Paused { attempt, search } = *paused;
    let mut search = search.with_interrupt(interrupt);
    let frames = std::mem::take(&mut search.frames);
    let ended = search.start(Entry::Paused(frames), path);
    go_on(attempt, search, ended, progress).map(Searched::Counted)
}

/// Takes the attempt `search` made at `attempt.puzzle` to its end, where it `ended`: its count,
/// or the next attempt on its own relabeling of the puzzle when it restarts, until one finishes or
/// pauses (into `progress`). Solutions an abandoned attempt found are counted again by the next,
/// but the first of them stays the first, so that the first solution does not depend on the
/// limit. Out of line: real puzzles never come here, and the easy ones should not pay for its
/// code.
#[cold]
#[inline(never)]
fn go_on<I: Interrupt>(
    mut attempt: Attempt,
    mut search: Search<&mut I>,
    mut ended: Result<bool, Stop>,
    progress: &mut Progress,
) -> Result<Count, Interrupted> {
    // The relabeling of the attempt under way (none for the first), made once per attempt.
    let mut shuffle = (attempt.number > 0).then(|| Shuffle::from_seed(u64::from(attempt.number)));
    loop {
        let found = search.count.first.map(|solution| shuffle.as_ref().map_or(solution, |s| s.undo(&solution)));
        attempt.first = attempt.first.or(found);
        match ended {
            Ok(_) => return Ok(Count { solutions: search.count.solutions, first: attempt.first }),
            Err(Stop::Interrupted) => {
                progress.0 = Some(Box::new(Paused { attempt, search: search.with_interrupt(()) }));
                return Err(Interrupted);
            }
            Err(Stop::Restart) => attempt.number += 1,
            Err(Stop::Clashing) => unreachable!("the first attempt placed these givens, so they agree"),
        }
        let allowance = restart_allowance(attempt.number);
        search = Search::new(search.limit, allowance, search.interrupt);
        let relabeling = Shuffle::from_seed(u64::from(attempt.number));
        let relabeled = relabeling.apply(&attempt.puzzle);
        shuffle = Some(relabeling);
        ended = search.start(Entry::Puzzle(&relabeled), attempt.path);
    }
}

/// Guesses the first attempt of a search may make without finding a solution before it starts
/// over (see [`count_with`]). A multiple of every [`Interrupt::poll_interval`]: it is checked when
/// the interrupt is polled, which keeps it off the hot path. 4,096 guesses take about a millisecond; the
/// hardest real puzzles need under 1,400 for their whole search, and `real_puzzles_never_restart`
/// keeps that margin at least twofold.
const RESTART_GUESSES: u32 = 4 * POLL_INTERVAL;
const _: () = assert!(RESTART_GUESSES.is_multiple_of(crate::interrupt::DEADLINE_POLL_INTERVAL));

/// The allowance of attempt `attempt`: doubled each time, up to where it never runs out.
fn restart_allowance(attempt: u32) -> u32 {
    u32::try_from(u64::from(RESTART_GUESSES) << attempt.min(32)).unwrap_or(u32::MAX)
}

/// Why a search stopped before it finished.
enum Stop {
    /// Givens clash: there is nothing to search ([`Search::clashing`] lists them).
    Clashing,
    /// The caller's [`Interrupt`] said so.
    Interrupted,
    /// The attempt used up its allowance of guesses: start over in another order.
    Restart,
}

/// Locked candidates for one digit in one band, by table (for stacks, [`stack_rule`] computes
/// the same rule; its test checks it against this table, transposed).
///
/// Index: the nine mini-rows of a band that still hold the digit, bit `3 * row + box` (or,
/// transposed, the nine mini-columns of a stack, bit `3 * band + column`). The digit takes
/// exactly one mini-row per row and per box, i.e. one of six permutations of rows onto boxes. A
/// mini-row used by no permutation that fits the index cannot hold the digit: this is box-line
/// reduction in both directions (pointing and claiming), plus the rarer patterns only the band
/// as a whole shows. Value: the mini-rows that survive, 0 when no permutation fits (a
/// contradiction).
const KEEP: [u16; 512] = {
    const PERMUTATIONS: [[usize; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
    let mut table = [0u16; 512];
    let mut present = 0;
    while present < 512 {
        let mut p = 0;
        while p < 6 {
            let [a, b, c] = PERMUTATIONS[p];
            let used = 1 << a | 1 << (3 + b) | 1 << (6 + c);
            if present & used == used {
                table[present] |= used as u16;
            }
            p += 1;
        }
        present += 1;
    }
    table
};

/// The mini-rows of a band that hold a candidate, box-major: bit `3 * box + row`, which is
/// [`KEEP`]'s index transposed. Shifts and ORs on the entry, where the row-major index took
/// three dependent lookups of a per-row table before [`SHRINK`]'s load could start. Box-major
/// because then each row's mini-rows need one shift (row 0 none) instead of one per box.
#[inline(always)]
fn mini_rows_held(cells: u32) -> usize {
    // Bit `9 * row + 3 * box` of `any`: the mini-row holds a candidate.
    let any = cells | cells >> 1 | cells >> 2;
    (any & 0o111 | any >> 8 & 0o222 | any >> 16 & 0o444) as usize
}

/// How [`State::drain`] finds an entry's line of the band rule: the same pair, by one of two
/// indexes, so that the search is compiled once for each.
trait BandRule {
    /// The band rule's pair for `cells` (see [`SHRINK`]).
    fn shrink(cells: u32) -> (u32, u32);
}

/// [`SHRINK`] by [`mini_rows_held`]'s shifts: on any CPU.
struct ByShifts;

impl BandRule for ByShifts {
    #[inline(always)]
    fn shrink(cells: u32) -> (u32, u32) {
        SHRINK[mini_rows_held(cells)]
    }
}

/// The first cell of each mini-row of a band: the mask that gathers whether each holds a
/// candidate, row-major.
#[cfg(target_arch = "x86_64")]
const MINI_ROW_FIRSTS: u32 = 0o111_111_111;

/// [`SHRINK`] by row-major index, which one PEXT gathers from the entry: 3.5-4 % fewer
/// instructions than [`ByShifts`] on every set (the row-major order costs nothing there).
#[cfg(target_arch = "x86_64")]
struct ByPext;

#[cfg(target_arch = "x86_64")]
impl BandRule for ByPext {
    #[inline(always)]
    fn shrink(cells: u32) -> (u32, u32) {
        let any = cells | cells >> 1 | cells >> 2;
        // SAFETY: only the search of `SearchPath::Avx2Pext` uses `ByPext`, and it runs only
        // where the CPU has BMI2 (`SearchPath::is_supported`); the intrinsic reads no memory.
        #[allow(unsafe_code)]
        let held = unsafe { std::arch::x86_64::_pext_u32(any, MINI_ROW_FIRSTS) };
        // A PEXT by a 9-bit mask leaves 9 bits; the AND says so to the compiler, which then
        // drops both it and the bounds check (-0.7 to -1.2 % instructions on every set).
        SHRINK_ROW_MAJOR[held as usize & 0x1ff]
    }
}

/// Within each mini-row of `cells`, its one cell when it has exactly one, else nothing.
/// Arithmetic on the entry, so it runs while [`SHRINK`] is read.
#[inline(always)]
fn mini_row_singles(cells: u32) -> u32 {
    // At bit `3 * mini`: an odd number of the three cells, but not all three.
    let one = (cells ^ cells >> 1 ^ cells >> 2) & !(cells & cells >> 1 & cells >> 2) & 0o111_111_111;
    (one * 7) & cells
}

/// The transpose of a 9-bit mini-row set: bit `3 * row + box` to bit `3 * box + row`.
const fn transposed(minis: usize) -> usize {
    let mut out = 0;
    let mut bit = 0;
    while bit < 9 {
        if minis & (1 << bit) != 0 {
            out |= 1 << (3 * (bit % 3) + bit / 3);
        }
        bit += 1;
    }
    out
}

/// The band rule on [`mini_rows_held`]'s box-major index: `SHRINK[held].0` the cells of the
/// mini-rows that [`KEEP`] keeps (0 when none fits), `.1` those of them that are the only one
/// kept in their row. A digit's cell alone in its row is then that mini-row's cell when the
/// mini-row has one ([`mini_row_singles`]): no second walk over the shrunk entry's rows. One
/// table of pairs, so both come from one cache line.
const SHRINK: [(u32, u32); 512] = {
    let mut table = [(0u32, 0u32); 512];
    let mut held = 0;
    while held < 512 {
        let kept = KEEP[transposed(held)] as usize;
        let mut row = 0;
        while row < 3 {
            let boxes = kept >> (3 * row) & 7;
            let mut column_box = 0;
            while column_box < 3 {
                if boxes & (1 << column_box) != 0 {
                    let cells = 7 << (9 * row + 3 * column_box);
                    table[held].0 |= cells;
                    if boxes.count_ones() == 1 {
                        table[held].1 |= cells;
                    }
                }
                column_box += 1;
            }
            row += 1;
        }
        held += 1;
    }
    table
};

/// [`SHRINK`] by [`KEEP`]'s row-major index (bit `3 * row + box`), for [`ByPext`].
#[cfg(target_arch = "x86_64")]
const SHRINK_ROW_MAJOR: [(u32, u32); 512] = {
    let mut table = [(0u32, 0u32); 512];
    let mut held = 0;
    while held < 512 {
        table[held] = SHRINK[transposed(held)];
        held += 1;
    }
    table
};

/// For each cell of a band, the other cells of the band in its row, column or box: the cells a
/// digit placed there rules out within the band.
const BAND_PEERS: [u32; 27] = {
    let mut table = [0u32; 27];
    let mut cell = 0;
    while cell < 27 {
        let mut other = 0;
        while other < 27 {
            let same_row = other / 9 == cell / 9;
            // Within a band, a shared column implies a shared box.
            let same_box = (other % 9) / 3 == (cell % 9) / 3;
            if other != cell && (same_row || same_box) {
                table[cell] |= 1 << other;
            }
            other += 1;
        }
        cell += 1;
    }
    table
};

/// Row `i` has all bits set in lane `i` and none elsewhere: OR-ed into a mask applied to the
/// nine digits (or three bands) of an entry, it exempts entry `i`. A table load instead of a
/// comparison per lane lets the compiler apply the mask to several lanes at once.
const ONE_LANE: [[u32; 9]; 9] = {
    let mut table = [[0; 9]; 9];
    let mut lane = 0;
    while lane < 9 {
        table[lane][lane] = u32::MAX;
        lane += 1;
    }
    table
};

/// The band and digit of each entry of [`State::dirty`]: a load instead of a division by 9.
const ENTRY: [(u8, u8); 32] = {
    let mut table = [(0, 0); 32];
    let mut index = 0;
    while index < 27 {
        table[index] = ((index / 9) as u8, (index % 9) as u8);
        index += 1;
    }
    table
};

/// The search state, digit-major: for each band and digit, the cells of the band where the
/// digit is still possible. A placed digit keeps just its cell. 128 bytes, so a guess copies it
/// instead of keeping an undo log.
#[derive(Clone, Copy)]
struct State {
    /// `candidates[band][digit]` (digits 0-8), bits as in [`BAND`]. Band-major so the nine
    /// digits of a band, which naked singles and placements sweep, sit side by side.
    candidates: [[u32; 9]; 3],
    /// Per band, the cells not placed yet.
    unsolved: [u32; 3],
    /// Bit `9 * band + digit` is set when that entry of `candidates` changed since
    /// [`State::drain`] last looked at it.
    dirty: u32,
    /// What changed since the whole-grid passes last looked: bit `digit` for
    /// [`State::column_pass`], bit `9 + band` for [`State::naked_singles`]. Only these need a
    /// new look, since both passes depend on nothing else.
    stale: u32,
}

/// How many times more [`State::reach`] counts a peer that is a pair itself: the guess's digit
/// turns such a peer into a single, whose own placement rules out more in turn. Branch points per
/// puzzle counted once (plain reach) and 3 times more: forum_hardest_1106 152 -> 122,
/// magictour 13.3 -> 8.8, unsolvable 10.1 -> 7.8, 17-clue 0.9 -> 0.6; 2 to 4 do about as well,
/// 6 and more worse.
const PAIR_PEER_WEIGHT: u32 = 3;

/// The most candidates per cell [`State::fewest_candidates`] counts for a whole band at once.
const COUNTED: usize = 5;

/// How many of the cells with the fewest candidates [`State::guess_cell`] weighs when no cell
/// has two. Candidates tried per puzzle against taking the first: forum_hardest_1106 245.7 ->
/// 235.3, 1905 145.1 -> 143.8 (its first 2,000), multiple_solutions' instructions -5 %; 6 and
/// 10 no better.
const FEWEST_WEIGHED: u32 = 3;

/// Above this many open cells, [`State::heaviest`] also weighs which digit of its cell to try
/// first (see [`Guess`]). Near the top of the tree, where the choice decides most; weighed at
/// every guess it cost the hardest sets 2-3 % for the same trees (candidates tried per puzzle on
/// multiple_solutions: 16.6 at every guess, 17.1 above 55 open cells, 19.1 above 60).
const ORDER_OPEN: u32 = 55;

/// How many cells with two candidates [`State::guess_cell`] weighs at most.
const PAIRS_WEIGHED: u32 = 10;

/// Below this many unsolved cells, [`State::guess_cell`] weighs only [`PAIRS_FEW`] pairs: late
/// guesses propagate little either way, and multi-solution sets guess there most (serg -5%
/// instructions, hardest sets +1%).
const OPEN_FEW: u32 = 30;
const PAIRS_FEW: u32 = 4;

/// From this many givens on, [`State::guess_cell`] takes the first pair until the search meets a
/// contradiction: such puzzles, when they need guesses at all, mostly have many solutions and
/// every branch succeeds, so weighing is wasted (serg -10% instructions). Below it, weighing
/// from the start pays on the hard sets (20-26 givens).
const WEIGH_GIVENS: u32 = 30;

/// Below this many givens, as from [`WEIGH_GIVENS`] on, [`State::guess_cell`] takes the first
/// pair until a contradiction, and propagation leaves out the stack rule ([`STACK_GIVENS`]): no
/// puzzle of 16 givens or fewer has exactly one solution (McGuire, Tugemann and Civario, 2012),
/// so the search ends at a second solution, which most branches lead to, and a cheaper node
/// beats a smaller tree. Instructions per puzzle, 17-clue puzzles less 1-9 givens: -16 % by the
/// guess, -28 % with the stack rule left out too (random 8-16 cells of solved grids: -24 %).
/// Means and 99th percentiles fall; a rare puzzle takes a wrong first turn that weighing
/// avoided, and takes up to about 0.9 ms (the restarts bound it).
const UNIQUE_GIVENS: u32 = 17;

/// Below this many givens, [`State::column_pass`] also looks for locked candidates in stacks.
/// With more, singles alone nearly always finish the puzzle or reach a guess, and the stack
/// rule costs more than it rules out (serg -10% instructions, easy -2%); with fewer, it cuts
/// the guesses (without them: 17-clue +16%, magictour +25%, hardest sets +3-8%).
const STACK_GIVENS: u32 = 30;

/// For a puzzle of `givens` givens: whether [`State::guess_cell`] weighs from the start (see
/// [`WEIGH_GIVENS`]), and whether propagation uses the stack rule (see [`STACK_GIVENS`]); both
/// not below [`UNIQUE_GIVENS`].
fn strategy(givens: u32) -> (bool, bool) {
    ((UNIQUE_GIVENS..WEIGH_GIVENS).contains(&givens), (UNIQUE_GIVENS..STACK_GIVENS).contains(&givens))
}

/// Every entry of [`State::dirty`].
const ALL_DIRTY: u32 = (1 << 27) - 1;

/// Every entry of [`State::stale`].
const ALL_STALE: u32 = (1 << 12) - 1;

/// Per-lane bit masks of nine lanes (a band's nine digits), on x86_64 four lanes at a time:
/// two SSE2 compares or shifts and a `movmskps` give four lanes' bits at once. The same loops in
/// plain Rust compile to a step per lane and the bits put together one by one, which made the
/// whole solve 7-10 % slower (these run at every placement and every weighed guess).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod lanes {
    use std::arch::x86_64::{
        __m128i, _mm_castsi128_ps, _mm_cmpeq_epi32, _mm_cvtsi32_si128, _mm_movemask_ps, _mm_set_epi32, _mm_sll_epi32,
    };

    // SAFETY (every block here): SSE2 is part of the x86_64 baseline, so every CPU this code
    // runs on has it; the intrinsics work on values and read no memory.

    /// Lanes `first..first + 4` of `values`.
    #[inline(always)]
    fn four(values: &[u32; 9], first: usize) -> __m128i {
        let lane = |i: usize| values[first + i] as i32;
        unsafe { _mm_set_epi32(lane(3), lane(2), lane(1), lane(0)) }
    }

    /// The sign bits of four lanes, as bits 0-3.
    #[inline(always)]
    fn signs(lanes: __m128i) -> u32 {
        unsafe { _mm_movemask_ps(_mm_castsi128_ps(lanes)) as u32 }
    }

    /// Bit `i` set where `before[i] != after[i]`.
    #[inline(always)]
    pub(super) fn changed(before: &[u32; 9], after: &[u32; 9]) -> u32 {
        let equal = |first| signs(unsafe { _mm_cmpeq_epi32(four(before, first), four(after, first)) });
        !(equal(0) | equal(4) << 4 | u32::from(before[8] == after[8]) << 8) & 0x1ff
    }

    /// Bit `i` set where lane `i` has bit `pos` (below 32) set.
    #[inline(always)]
    pub(super) fn with_bit(values: &[u32; 9], pos: u32) -> u32 {
        let to_sign = unsafe { _mm_cvtsi32_si128(31 - pos as i32) };
        let bits = |first| signs(unsafe { _mm_sll_epi32(four(values, first), to_sign) });
        bits(0) | bits(4) << 4 | (values[8] >> pos & 1) << 8
    }
}

/// [`lanes`] lane by lane, where there is no SSE2.
#[cfg(not(target_arch = "x86_64"))]
mod lanes {
    /// Bit `i` set where `before[i] != after[i]`.
    #[inline(always)]
    pub(super) fn changed(before: &[u32; 9], after: &[u32; 9]) -> u32 {
        (0..9).fold(0, |changed, i| changed | u32::from(before[i] != after[i]) << i)
    }

    /// Bit `i` set where lane `i` has bit `pos` set.
    #[inline(always)]
    pub(super) fn with_bit(values: &[u32; 9], pos: u32) -> u32 {
        (0..9).fold(0, |bits, i| bits | (values[i] >> pos & 1) << i)
    }
}

/// The bits of [`State::stale`] for a set of entries of [`State::dirty`]: the digits and the
/// bands they belong to.
#[inline(always)]
fn stale_of(entries: u32) -> u32 {
    let digits = (entries | entries >> 9 | entries >> 18) & 0x1ff;
    let band = |band: u32| u32::from(entries >> (9 * band) & 0x1ff != 0) << (9 + band);
    digits | band(0) | band(1) | band(2)
}

/// Per digit, the dead ends met so far in one search where the digit ran out of places (in a
/// band, a column or a stack): a digit that keeps running out of places is where the puzzle is
/// tight, so [`State::reach`] counts each of its dead ends as half a candidate ruled out, and the
/// search branches on such digits sooner and meets its next dead ends higher in the tree.
/// Candidates tried on forum_hardest_1106 -12.5 %, 1905 -7 %, other sets within 1 %; kept per
/// digit, not per band and digit (1106 -8 %) or with recent dead ends counted more (bigger
/// trees). Most come from the band rule; the columns' few took another 0.2-0.7 % off.
#[derive(Clone, Copy, Default)]
struct DeadEnds([u32; 9]);

impl DeadEnds {
    /// Counts a dead end where `digit` ran out of places.
    #[inline(always)]
    fn record(&mut self, digit: usize) {
        self.0[digit] += 1;
    }
}

/// How a pass of naked singles ended.
enum Naked {
    Contradiction,
    Placed,
    Nothing,
}

/// Within each stack of a 9-bit column set, column `3s + j` takes column `3s + (j + 1) % 3`'s bit.
#[inline(always)]
fn next_in_stack(columns: u32) -> u32 {
    (columns >> 1 & 0o333) | (columns << 2 & 0o444)
}

/// Within each stack of a 9-bit column set, column `3s + j` takes column `3s + (j + 2) % 3`'s bit.
#[inline(always)]
fn after_next_in_stack(columns: u32) -> u32 {
    (columns >> 2 & 0o111) | (columns << 1 & 0o666)
}

/// Locked candidates for one digit in all three stacks at once, without a table: of each band's
/// columns that hold the digit (`columns`), those some assignment of the stack's three bands to
/// its three columns uses. Band `b` keeps column `j` when the other two bands can take the
/// other two columns of the stack, one way or the other: the same rule as [`KEEP`] for one
/// stack, for the three in a few register operations. A stack with no assignment keeps nothing.
#[inline(always)]
fn stack_rule(columns: [u32; 3]) -> [u32; 3] {
    let next = columns.map(next_in_stack);
    let after_next = columns.map(after_next_in_stack);
    let keep = |band: usize, one: usize, other: usize| {
        columns[band] & (next[one] & after_next[other] | after_next[one] & next[other])
    };
    [keep(0, 1, 2), keep(1, 0, 2), keep(2, 0, 1)]
}

/// Whether a band's kept columns (from [`stack_rule`]) hold some column in every stack.
#[inline(always)]
fn every_stack_holds(columns: u32) -> bool {
    (columns | columns >> 1 | columns >> 2) & 0o111 == 0o111
}

/// A cell to branch on: its band, position in the band and candidate digits (bit per digit),
/// and the digit to try first, the others following from the lowest.
///
/// The first digit matters only for puzzles with several solutions, where the search stops at
/// the second: for the others every branch is searched to its end in any order. Trying first the
/// digit that rules out the most reaches solutions sooner (candidates tried per puzzle on
/// multiple_solutions 19.2 -> 17.1; the digit that rules out the least first: 20.7).
#[derive(Clone, Copy)]
struct Guess {
    band: usize,
    pos: u32,
    digits: u16,
    first: usize,
}

impl State {
    /// A state for [`State::give`] to place a puzzle's givens in.
    const UNGIVEN: State = State { candidates: [[0; 9]; 3], unsolved: [0; 3], dirty: ALL_DIRTY, stale: ALL_STALE };

    /// Places `puzzle`'s givens in this state, fresh from [`State::UNGIVEN`], or returns false
    /// when some clash, with those in `clashing`, listed from the same bitboards for only the
    /// digits found clashing. Built in bulk from the rows, columns and boxes each digit is
    /// given in ([`Build::givens`]), which is cheaper than placing the givens one by one. `B`
    /// picks the instructions that build them. In place, where the search keeps it, rather than
    /// returned: see [`Build::givens`].
    #[inline(always)]
    fn give<B: Build>(&mut self, puzzle: &Board, clashing: &mut Vec<Conflict>) -> bool {
        let bitboards = B::bitboards(puzzle);
        let clashing_digits = B::givens(&bitboards, &mut self.candidates);
        if clashing_digits != 0 {
            *clashing = rules::conflicts_among(puzzle, &bitboards, clashing_digits);
            return false;
        }
        self.unsolved = bitboards.blanks;
        true
    }

    /// Records `cells` of `band` as holding `digit`: clears them from the other digits and
    /// their columns from the digit's other bands. The digit's own band is left to
    /// [`State::drain`].
    #[inline(always)]
    fn settle(&mut self, band: usize, digit: usize, cells: u32) {
        self.unsolved[band] &= !cells;
        // Branch-free: which digits actually lose a cell is unpredictable.
        let before = self.candidates[band];
        for (candidates, &own) in self.candidates[band].iter_mut().zip(&ONE_LANE[digit]) {
            *candidates &= !cells | own;
        }
        self.dirty |= lanes::changed(&before, &self.candidates[band]) << (9 * band);
        let columns = (cells | cells >> 9 | cells >> 18) & 0x1ff;
        let column_cells = columns * COLUMN_SPREAD;
        // Gathered per band at bit `9 * band`, shifted to the digit once.
        let mut changed = 0;
        for ((row, &own), other) in self.candidates.iter_mut().zip(&ONE_LANE[band]).zip(0..) {
            let keep = !column_cells | own;
            let after = row[digit] & keep;
            changed |= u32::from(after != row[digit]) << (9 * other);
            row[digit] = after;
        }
        self.dirty |= changed << digit;
    }

    /// Places `digit` at `pos` of `band` lazily: only the digit's own band changes here, and
    /// [`State::drain`] then finds the cell alone in its row and settles it.
    #[inline(always)]
    fn place(&mut self, band: usize, digit: usize, pos: u32) {
        self.candidates[band][digit] &= !BAND_PEERS[pos as usize];
        self.dirty |= 1 << (9 * band + digit);
    }

    /// Rules out `digit` at `pos` of `band`, for [`State::drain`] to follow up.
    #[inline(always)]
    fn rule_out(&mut self, band: usize, digit: usize, pos: u32) {
        self.candidates[band][digit] &= !(1 << pos);
        self.dirty |= 1 << (9 * band + digit);
    }

    /// Locked candidates and hidden singles in rows, per band and digit, for every changed entry
    /// until nothing changes. Returns false on a contradiction.
    ///
    /// In rounds: first each changed entry's own work (its locked candidates by table, and the
    /// cells alone in their row), which is independent of the other entries', so the processor
    /// overlaps them; then what the new cells rule out elsewhere ([`State::settle`]), which
    /// marks the entries it changes for the next round. Done entry by entry instead, each entry
    /// waited on the one before it and on a mispredicted "found a cell?" branch: easy puzzles
    /// 15 % slower, the hardest 6-10 %. The fixpoint, and so every guess, is the same in any
    /// order. A cell alone in its row also ends up alone in its box and band column: `SHRINK`
    /// gave its box to its row.
    #[inline(always)]
    fn drain<R: BandRule>(&mut self, dead_ends: &mut DeadEnds) -> bool {
        // Per entry, the cells it has just found alone in their row (read only where this round
        // wrote them); bit `entry` of `finding` where any.
        let mut found = [0u32; 27];
        // Every entry looked at, for `stale` once at the end rather than entry by entry.
        let mut looked_at = 0;
        while self.dirty != 0 {
            let mut round = self.dirty;
            looked_at |= round;
            self.dirty = 0;
            let mut finding = 0u32;
            while round != 0 {
                let index = round.trailing_zeros() as usize;
                round &= round - 1;
                let band = usize::from(ENTRY[index].0);
                // The flat index, not `band`, addresses the entry: its load then does not wait
                // on the band's.
                let entry = &mut self.candidates.as_flattened_mut()[index];
                let held = *entry;
                let (kept, lone) = R::shrink(held);
                let cells = held & kept;
                if cells == 0 {
                    dead_ends.record(usize::from(ENTRY[index].1));
                    return false;
                }
                *entry = cells;
                let new = mini_row_singles(held) & lone & self.unsolved[band];
                found[index] = new;
                finding |= u32::from(new != 0) << index;
            }
            while finding != 0 {
                let index = finding.trailing_zeros() as usize;
                finding &= finding - 1;
                let (band, digit) = (usize::from(ENTRY[index].0), usize::from(ENTRY[index].1));
                // An earlier settle may have given some of the cells to another digit; the entry
                // is then marked, and its emptied row found next round.
                let new = found[index] & self.candidates[band][digit] & self.unsolved[band];
                if new != 0 {
                    self.settle(band, digit, new);
                }
            }
        }
        self.stale |= stale_of(looked_at);
        true
    }

    /// Finds cells with no candidate (a contradiction) and cells with one (placed).
    #[inline(always)]
    fn naked_singles(&mut self) -> Naked {
        let mut result = Naked::Nothing;
        let mut bands = self.stale >> 9;
        self.stale &= 0x1ff;
        while bands != 0 {
            let band = bands.trailing_zeros() as usize;
            bands &= bands - 1;
            // Bit-sliced counting: per cell, "at least one" and "at least two" candidates.
            let (mut once, mut twice) = (0u32, 0u32);
            for &cells in &self.candidates[band] {
                twice |= once & cells;
                once |= cells;
            }
            // Placed cells keep their digit, so every cell must show up.
            if once != BAND {
                return Naked::Contradiction;
            }
            let mut singles = once & !twice & self.unsolved[band];
            while singles != 0 {
                let pos = singles.trailing_zeros();
                singles &= singles - 1;
                // An earlier single of this pass may have taken the only candidate.
                let digits = self.digits_at(band, pos);
                if digits == 0 {
                    return Naked::Contradiction;
                }
                let digit = digits.trailing_zeros() as usize;
                self.place(band, digit, pos);
                result = Naked::Placed;
            }
        }
        result
    }

    /// Per digit, what [`State::drain`] does per band but for columns: hidden singles in
    /// columns, a digit with no place in a column (a contradiction), and locked candidates
    /// within each stack (a box's candidates all in one column, or a column's all in one box)
    /// when `stacks`: see [`STACK_GIVENS`]. A contradiction is counted in `dead_ends`.
    #[inline(always)]
    fn column_pass(&mut self, stacks: bool, dead_ends: &mut DeadEnds) -> Naked {
        let mut result = Naked::Nothing;
        let mut digits = self.stale & 0x1ff;
        self.stale &= !0x1ff;
        while digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let cells = [self.candidates[0][digit], self.candidates[1][digit], self.candidates[2][digit]];
            // Per band, the columns with a candidate, and per column, "at least one" and "at
            // least two" candidates over the nine rows.
            let mut columns = [0u32; 3];
            let (mut once, mut twice) = (0u32, 0u32);
            for (band, &cells) in cells.iter().enumerate() {
                let (a, b, c) = (cells & 0x1ff, cells >> 9 & 0x1ff, cells >> 18);
                columns[band] = a | b | c;
                twice |= once & columns[band] | a & b | a & c | b & c;
                once |= columns[band];
            }
            if once != 0x1ff {
                dead_ends.record(digit);
                return Naked::Contradiction;
            }
            let allowed = if stacks {
                let allowed = stack_rule(columns);
                if !every_stack_holds(allowed[0]) {
                    dead_ends.record(digit);
                    return Naked::Contradiction;
                }
                allowed
            } else {
                [0x1ff; 3]
            };
            let lone = (once & !twice) * COLUMN_SPREAD;
            for band in 0..3 {
                let kept = cells[band] & (allowed[band] * COLUMN_SPREAD);
                if kept != cells[band] {
                    self.candidates[band][digit] = kept;
                    self.dirty |= 1 << (9 * band + digit);
                    result = Naked::Placed;
                }
                let mut new = kept & lone & self.unsolved[band];
                while new != 0 {
                    self.place(band, digit, new.trailing_zeros());
                    new &= new - 1;
                    result = Naked::Placed;
                }
            }
        }
        result
    }

    /// Propagates until stuck, with locked candidates in stacks when `stacks`. Returns false on
    /// a contradiction.
    #[inline(always)]
    fn propagate<R: BandRule>(&mut self, stacks: bool, dead_ends: &mut DeadEnds) -> bool {
        loop {
            if !self.drain::<R>(dead_ends) {
                return false;
            }
            match self.naked_singles() {
                Naked::Contradiction => return false,
                Naked::Placed => continue,
                // Every cell placed is a solution: each placement cleared its digit from the
                // cell's row, box and column, so the column pass would find nothing to do.
                Naked::Nothing if self.is_solved() => return true,
                Naked::Nothing => {}
            }
            match self.column_pass(stacks, dead_ends) {
                Naked::Contradiction => return false,
                Naked::Placed => continue,
                Naked::Nothing => return true,
            }
        }
    }

    /// The cells not placed yet.
    #[inline(always)]
    fn open(&self) -> u32 {
        self.unsolved[0].count_ones() + self.unsolved[1].count_ones() + self.unsolved[2].count_ones()
    }

    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved == [0; 3]
    }

    /// The cell to guess on: of the cells with two candidates, the one whose digits rule out the
    /// most ([`State::reach`]: either branch then propagates further), or the first pair when not
    /// `weigh`; with no pair, of the cells with the fewest candidates, likewise.
    #[inline(always)]
    fn guess_cell(&self, weigh: bool, dead_ends: &DeadEnds) -> Guess {
        if !weigh {
            let first_of = |cells: [u32; 3]| {
                let band = cells.iter().position(|&cells| cells != 0)?;
                let pos = cells[band].trailing_zeros();
                let digits = self.digits_at(band, pos);
                Some(Guess { band, pos, digits, first: digits.trailing_zeros() as usize })
            };
            // A `match`, not `Option::or_else`, which the compiler kept out of line and so
            // without the fast path's instructions.
            return match first_of([self.pairs_in(0), self.pairs_in(1), self.pairs_in(2)]) {
                Some(guess) => guess,
                None => first_of(self.fewest_candidates()).expect("an unsolved board has open cells"),
            };
        }
        let pairs = [self.pairs_in(0), self.pairs_in(1), self.pairs_in(2)];
        if pairs == [0; 3] {
            return self.heaviest(&self.fewest_candidates(), FEWEST_WEIGHED, &pairs, dead_ends);
        }
        // Weighing every pair costs more than it saves: boards with many pairs have many good ones.
        let budget = if self.open() < OPEN_FEW { PAIRS_FEW } else { PAIRS_WEIGHED };
        self.heaviest(&pairs, budget, &pairs, dead_ends)
    }

    /// Of the first `budget` of `cells` (per band, not all empty), the one whose digits rule out
    /// the most, with the peers in `pairs` weighed as [`State::reach`] says. With more than
    /// [`ORDER_OPEN`] open cells, its digit that rules out the most (the lowest of those that
    /// tie) is tried first, else its lowest.
    #[inline(always)]
    fn heaviest(&self, cells: &[u32; 3], mut budget: u32, pairs: &[u32; 3], dead_ends: &DeadEnds) -> Guess {
        let (mut best_band, mut best_pos, mut best_digits) = (0, 0, 0u16);
        let mut best_reach = 0;
        'weighing: for (band, &cells_in_band) in cells.iter().enumerate() {
            let mut left = cells_in_band;
            while left != 0 {
                let pos = left.trailing_zeros();
                left &= left - 1;
                let digits = self.digits_at(band, pos);
                // Plus one, so that any cell beats none.
                let reach = self.reach(band, pos, digits, pairs, dead_ends) + 1;
                if reach > best_reach {
                    best_reach = reach;
                    (best_band, best_pos, best_digits) = (band, pos, digits);
                }
                budget -= 1;
                if budget == 0 {
                    break 'weighing;
                }
            }
        }
        let (mut first, mut first_reach) = (best_digits.trailing_zeros() as usize, 0);
        let mut digits = if self.open() > ORDER_OPEN { best_digits } else { 0 };
        while digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            let reach = self.reach(best_band, best_pos, 1 << digit, pairs, dead_ends) + 1;
            if reach > first_reach {
                (first, first_reach) = (digit, reach);
            }
        }
        Guess { band: best_band, pos: best_pos, digits: best_digits, first }
    }

    /// Per band, the open cells with the fewest candidates.
    ///
    /// Bit-sliced, for all cells of a band at once: "more than `k` candidates" for each `k` up to
    /// [`COUNTED`], as [`State::pairs_in`] counts to three. Sparse boards often have no pair, and
    /// then every guess comes here. Only a board whose every open cell has more (the empty grid,
    /// nearly) is counted cell by cell.
    #[inline(always)]
    fn fewest_candidates(&self) -> [u32; 3] {
        // `more_than[band][k]`: the band's cells with more than `k` candidates.
        let mut more_than = [[0u32; COUNTED + 1]; 3];
        for (band, more_than) in more_than.iter_mut().enumerate() {
            for &cells in &self.candidates[band] {
                for k in (1..=COUNTED).rev() {
                    more_than[k] |= more_than[k - 1] & cells;
                }
                more_than[0] |= cells;
            }
        }
        for k in 0..COUNTED {
            let exactly = [0, 1, 2].map(|band| more_than[band][k] & !more_than[band][k + 1] & self.unsolved[band]);
            if exactly != [0; 3] {
                return exactly;
            }
        }
        let mut fewest = (u32::MAX, [0u32; 3]);
        for band in 0..3 {
            let mut open = self.unsolved[band];
            while open != 0 {
                let pos = open.trailing_zeros();
                open &= open - 1;
                let count = self.digits_at(band, pos).count_ones();
                if count < fewest.0 {
                    fewest = (count, [0; 3]);
                }
                if count == fewest.0 {
                    fewest.1[band] |= 1 << pos;
                }
            }
        }
        fewest.1
    }

    /// The unsolved cells of `band` with exactly two candidates.
    #[inline(always)]
    fn pairs_in(&self, band: usize) -> u32 {
        // Bit-sliced counting up to three candidates per cell.
        let (mut once, mut twice, mut thrice) = (0u32, 0u32, 0u32);
        for &cells in &self.candidates[band] {
            thrice |= twice & cells;
            twice |= once & cells;
            once |= cells;
        }
        twice & !thrice & self.unsolved[band]
    }

    /// What placing `digits` at `pos` of `band` would rule out, in halves: the candidates of
    /// `digits` its peers hold, each peer that is a pair itself (`pairs`, per band) counted
    /// [`PAIR_PEER_WEIGHT`] times more, and half a candidate for each of the digits' dead ends.
    #[inline(always)]
    fn reach(&self, band: usize, pos: u32, mut digits: u16, pairs: &[u32; 3], dead_ends: &DeadEnds) -> u32 {
        let column = pos % 9;
        let column_cells = COLUMN_SPREAD << column;
        let (near, far) = ((band + 1) % 3, (band + 2) % 3);
        // The peers as one word: the band's cells, then the column in the two other bands as
        // bits 27, 36, 45 and 28, 37, 46. One count per digit for all of them.
        let gather = |near_cells: u32, far_cells: u32, own: u32| {
            u64::from(own) | u64::from((near_cells & column_cells | (far_cells & column_cells) << 1) >> column) << 27
        };
        let paired_peers = gather(pairs[near], pairs[far], pairs[band] & BAND_PEERS[pos as usize]);
        let candidates = &self.candidates;
        let (mut reach, mut paired, mut ends) = (0, 0, 0);
        while digits != 0 {
            let digit = digits.trailing_zeros() as usize;
            digits &= digits - 1;
            ends += dead_ends.0[digit];
            let peers = gather(
                candidates[near][digit],
                candidates[far][digit],
                candidates[band][digit] & BAND_PEERS[pos as usize],
            );
            reach += peers.count_ones();
            paired += (peers & paired_peers).count_ones();
        }
        2 * (reach + PAIR_PEER_WEIGHT * paired) + ends
    }

    /// The digits possible at `pos` of `band`, bit per digit.
    #[inline(always)]
    fn digits_at(&self, band: usize, pos: u32) -> u16 {
        lanes::with_bit(&self.candidates[band], pos) as u16
    }

    fn to_board(self) -> Board {
        bitboards::solved_board(&self.candidates)
    }
}

/// A search of one attempt at a puzzle, `J` its interrupt: `&mut I` while it runs, none while it
/// is paused.
struct Search<J> {
    limit: usize,
    count: Count,
    guesses: u32,
    /// [`Search::guesses`] when the last solution was found (or 0).
    guesses_at_solution: u32,
    /// Guesses this attempt may make without finding a solution: see [`count_with`].
    allowance: u32,
    /// Whether [`State::guess_cell`] weighs its pairs: see [`WEIGH_GIVENS`].
    weigh: bool,
    /// Whether propagation looks for locked candidates in stacks: see [`STACK_GIVENS`].
    stacks: bool,
    /// The givens that clash, when [`Stop::Clashing`] ended the search: kept here rather than
    /// in `Stop`, so that the result of every step of the search fits in registers.
    clashing: Vec<Conflict>,
    /// What this search has learnt of where the puzzle is tight (see [`DeadEnds`]).
    dead_ends: DeadEnds,
    /// When the interrupt stopped the search: the levels with branches left, innermost first,
    /// kept as the search unwound, so that it can go on later (see [`Progress`]).
    frames: Vec<Frame>,
    interrupt: J,
}

/// Where [`Search::start`] begins: at a puzzle, or where a search paused.
enum Entry<'p> {
    Puzzle(&'p Board),
    Paused(Vec<Frame>),
}

/// A level of a paused search: its state, and the digits still to try in its guess's cell
/// (`guess.digits`, from `guess.first` on). `tried`, if any, is the digit whose branch was being
/// searched when the search paused: once that branch ends, it is ruled out here.
struct Frame {
    state: State,
    guess: Guess,
    tried: Option<usize>,
}

impl<J> Search<J> {
    /// The same search, with another interrupt (or none, to keep it paused).
    fn with_interrupt<K>(self, interrupt: K) -> Search<K> {
        Search {
            limit: self.limit,
            count: self.count,
            guesses: self.guesses,
            guesses_at_solution: self.guesses_at_solution,
            allowance: self.allowance,
            weigh: self.weigh,
            stacks: self.stacks,
            clashing: self.clashing,
            dead_ends: self.dead_ends,
            frames: self.frames,
            interrupt,
        }
    }
}

impl<'a, I: Interrupt> Search<&'a mut I> {
    fn new(limit: usize, allowance: u32, interrupt: &'a mut I) -> Self {
        Search {
            limit,
            count: Count { solutions: 0, first: None },
            guesses: 0,
            guesses_at_solution: 0,
            allowance,
            weigh: true,
            stacks: true,
            clashing: Vec::new(),
            dead_ends: DeadEnds::default(),
            frames: Vec::new(),
            interrupt,
        }
    }

    /// [`Search::begin`], or one of its twins compiled for `path`, which the caller checked the
    /// CPU runs ([`SearchPath::is_supported`]).
    fn start(&mut self, entry: Entry, path: SearchPath) -> Result<bool, Stop> {
        debug_assert!(path.is_supported());
        match path {
            SearchPath::Portable => self.begin(entry),
            // SAFETY (both): the CPU has every feature the twin is compiled for: callers pass
            // `SearchPath::fastest()` or a path `count_solutions_on` found supported.
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            SearchPath::Avx2 => unsafe { self.begin_fast(entry) },
            #[cfg(target_arch = "x86_64")]
            #[allow(unsafe_code)]
            SearchPath::Avx2Pext => unsafe { self.begin_fast_pext(entry) },
            #[cfg(not(target_arch = "x86_64"))]
            SearchPath::Avx2 | SearchPath::Avx2Pext => unreachable!("no CPU of this architecture runs {path:?}"),
        }
    }

    /// Builds the state of the entry's puzzle and explores it, or goes on where it paused.
    fn begin(&mut self, entry: Entry) -> Result<bool, Stop> {
        self.begin_with::<Baseline>(entry, Self::run)
    }

    /// [`Search::begin`] compiled like [`Search::run_fast`], so that building the state counts
    /// bits in one instruction too.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,avx2")]
    fn begin_fast(&mut self, entry: Entry) -> Result<bool, Stop> {
        self.begin_with::<bitboards::Avx2>(entry, |search, state| search.run_fast(state))
    }

    /// [`Search::begin_fast`] for [`Search::run_fast_pext`].
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,avx2")]
    fn begin_fast_pext(&mut self, entry: Entry) -> Result<bool, Stop> {
        self.begin_with::<bitboards::Avx2>(entry, |search, state| search.run_fast_pext(state))
    }

    /// The body of [`Search::begin`], generic over how it builds the state and the search it
    /// starts.
    #[inline(always)]
    fn begin_with<B: Build>(
        &mut self,
        entry: Entry,
        mut run: impl FnMut(&mut Self, &mut State) -> Result<bool, Stop>,
    ) -> Result<bool, Stop> {
        let puzzle = match entry {
            Entry::Puzzle(puzzle) => puzzle,
            Entry::Paused(frames) => return self.resume(frames, &mut run),
        };
        let mut state = State::UNGIVEN;
        if !state.give::<B>(puzzle, &mut self.clashing) {
            return Err(Stop::Clashing);
        }
        (self.weigh, self.stacks) = strategy(CELLS as u32 - state.open());
        run(self, &mut state)
    }

    /// Explores every completion of `state`. `Ok(true)` means stop: the limit is reached.
    fn run(&mut self, state: &mut State) -> Result<bool, Stop> {
        self.step::<ByShifts>(state, Self::run)
    }

    /// [`Search::run`] compiled with POPCNT, BMI1/2 and AVX2: the same body, inlined here, so
    /// every `count_ones` and `trailing_zeros` of the search becomes one instruction (see
    /// [`SearchPath::Avx2`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,avx2")]
    fn run_fast(&mut self, state: &mut State) -> Result<bool, Stop> {
        self.step::<ByShifts>(state, |search, next| search.run_fast(next))
    }

    /// [`Search::run_fast`] with the band rule indexed by PEXT ([`SearchPath::Avx2Pext`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2,avx2")]
    fn run_fast_pext(&mut self, state: &mut State) -> Result<bool, Stop> {
        self.step::<ByPext>(state, |search, next| search.run_fast_pext(next))
    }

    /// The search body, generic over how it recurses and finds the band rule, so that it is
    /// compiled into [`Search::run`] and each of its twins.
    #[inline(always)]
    fn step<R: BandRule>(
        &mut self,
        state: &mut State,
        recurse: impl FnMut(&mut Self, &mut State) -> Result<bool, Stop>,
    ) -> Result<bool, Stop> {
        if !state.propagate::<R>(self.stacks, &mut self.dead_ends) {
            self.weigh = true;
            return Ok(false);
        }
        if state.is_solved() {
            self.count.solutions += 1;
            self.guesses_at_solution = self.guesses;
            self.count.first.get_or_insert_with(|| state.to_board());
            return Ok(self.count.solutions >= self.limit);
        }
        let guess = state.guess_cell(self.weigh, &self.dead_ends);
        self.branch(state, guess, recurse)
    }

    /// Searches each digit of `guess` in turn from `guess.first`, the others with each ruled out
    /// once its branch has been searched. `Ok(true)` means stop: the limit is reached.
    #[inline(always)]
    fn branch(
        &mut self,
        state: &mut State,
        Guess { band, pos, mut digits, first }: Guess,
        mut recurse: impl FnMut(&mut Self, &mut State) -> Result<bool, Stop>,
    ) -> Result<bool, Stop> {
        let mut next = first;
        while digits != 0 {
            let digit = next;
            digits &= !(1 << digit);
            next = digits.trailing_zeros() as usize;
            self.guesses = self.guesses.wrapping_add(1);
            if self.guesses.is_multiple_of(self.interrupt.poll_interval()) {
                if self.interrupt.should_stop() {
                    self.keep(state, Guess { band, pos, digits: digits | 1 << digit, first: digit }, None);
                    return Err(Stop::Interrupted);
                }
                if self.guesses.wrapping_sub(self.guesses_at_solution) >= self.allowance {
                    return Err(Stop::Restart);
                }
            }
            if digits == 0 {
                // The last candidate: `state` is not needed any more, so the branch takes it
                // over instead of a copy.
                state.place(band, digit, pos);
                return recurse(self, state);
            }
            let mut branch = *state;
            branch.place(band, digit, pos);
            match recurse(self, &mut branch) {
                Ok(false) => {}
                Ok(true) => return Ok(true),
                Err(Stop::Interrupted) => {
                    self.keep(state, Guess { band, pos, digits, first: next }, Some(digit));
                    return Err(Stop::Interrupted);
                }
                Err(stop) => return Err(stop),
            }
            // Every completion with this digit here has been seen: rule it out.
            state.rule_out(band, digit, pos);
        }
        Ok(false)
    }

    /// Keeps a level of the search as it unwinds from a pause (see [`Frame`]).
    #[cold]
    #[inline(never)]
    fn keep(&mut self, state: &State, guess: Guess, tried: Option<usize>) {
        self.frames.push(Frame { state: *state, guess, tried });
    }

    /// Goes on with a paused search from its innermost level out, each level's branches once the
    /// one inside it ends, as the recursion would have; pausing again keeps the levels left.
    #[cold]
    #[inline(never)]
    fn resume(
        &mut self,
        frames: Vec<Frame>,
        mut recurse: impl FnMut(&mut Self, &mut State) -> Result<bool, Stop>,
    ) -> Result<bool, Stop> {
        // The innermost level paused just after counting its next guess: trying it counts it again.
        self.guesses = self.guesses.wrapping_sub(1);
        let mut frames = frames.into_iter();
        while let Some(Frame { mut state, guess, tried }) = frames.next() {
            if let Some(digit) = tried {
                state.rule_out(guess.band, digit, guess.pos);
            }
            match self.branch(&mut state, guess, &mut recurse) {
                Ok(false) => {}
                Ok(true) => return Ok(true),
                Err(Stop::Interrupted) => {
                    self.frames.extend(frames);
                    return Err(Stop::Interrupted);
                }
                Err(stop) => return Err(stop),
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    use crate::board::{EXAMPLE_PUZZLE as LEETCODE_37, EXAMPLE_SOLUTION as LEETCODE_37_SOLUTION};
    /// The first puzzle of the forum's hardest list (tests/data/forum_hardest_1106.txt).
    const HARD: &str = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

    fn board(line: &str) -> Board {
        line.parse().unwrap()
    }

    /// Against lane-by-lane checks: lanes that differ in one bit, in all, or not at all, and
    /// lanes that hold a bit.
    #[test]
    fn lane_masks_mark_exactly_their_lanes() {
        let mut random = crate::random::SplitMix64(9);
        for _ in 0..2000 {
            let before: [u32; 9] = std::array::from_fn(|_| random.next_u64() as u32);
            let after: [u32; 9] = std::array::from_fn(|lane| match random.below(3) {
                0 => before[lane],
                1 => before[lane] ^ 1 << random.below(32),
                _ => !before[lane],
            });
            let expected = (0..9).filter(|&lane| before[lane] != after[lane]).fold(0, |bits, lane| bits | 1 << lane);
            assert_eq!(lanes::changed(&before, &after), expected, "{before:?} {after:?}");
            let pos = random.below(32) as u32;
            let expected = (0..9).filter(|&lane| before[lane] >> pos & 1 == 1).fold(0, |bits, lane| bits | 1 << lane);
            assert_eq!(lanes::with_bit(&before, pos), expected, "{before:?} bit {pos}");
        }
    }

    #[test]
    fn solves_the_leetcode_example_uniquely() {
        assert_eq!(solve(&board(LEETCODE_37)), Outcome::Unique(board(LEETCODE_37_SOLUTION)));
    }

    #[test]
    fn a_solved_board_is_its_own_unique_solution() {
        assert_eq!(solve(&board(LEETCODE_37_SOLUTION)), Outcome::Unique(board(LEETCODE_37_SOLUTION)));
    }

    #[test]
    fn the_empty_board_has_many_solutions() {
        let Outcome::Multiple(solution) = solve(&Board::EMPTY) else { panic!("expected several solutions") };
        assert!(solution.is_complete());
        assert!(crate::rules::conflicts(&solution).is_empty());
    }

    #[test]
    fn repeated_givens_are_unsolvable() {
        let mut line = LEETCODE_37.to_owned();
        line.replace_range(2..3, "5");
        assert_eq!(solve(&board(&line)), Outcome::Unsolvable);
    }

    #[test]
    fn a_cell_with_no_candidate_is_unsolvable() {
        // r0c8 sees 1-8 in its row and 9 in its column.
        let line = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
        assert_eq!(solve(&board(&line)), Outcome::Unsolvable);
    }

    #[test]
    fn counts_up_to_the_limit() {
        let count = count_solutions(&Board::EMPTY, 5, &mut Never).unwrap();
        assert_eq!(count.solutions, 5);
        assert!(count.first.is_some());
        let none = count_solutions(&Board::EMPTY, 0, &mut Never).unwrap();
        assert_eq!(none, Count { solutions: 0, first: None });
    }

    #[test]
    fn a_hard_puzzle_is_unique() {
        let Outcome::Unique(solution) = solve(&board(HARD)) else { panic!("expected one solution") };
        assert!(crate::rules::conflicts(&solution).is_empty());
    }

    #[test]
    fn a_passed_deadline_stops_before_searching() {
        let mut deadline = Deadline(Instant::now());
        assert_eq!(solve_until(&board(HARD), &mut deadline), Err(Interrupted));
    }

    #[test]
    fn the_interrupt_is_polled_during_a_long_search() {
        // Counting a million solutions of the empty board needs far more than POLL_INTERVAL
        // guesses; the second poll is the first inside the search.
        let mut interrupt = PollBudget(2);
        assert_eq!(count_solutions(&Board::EMPTY, 1_000_000, &mut interrupt), Err(Interrupted));
        assert_eq!(interrupt.0, 0, "stopped at the second poll");
    }

    /// Runs `count_solutions_on(path, ..)` paused at every `n`-th poll and called again each
    /// time with its progress until it ends: its count, the pauses, and the polls.
    fn paused_and_resumed(path: SearchPath, puzzle: &Board, limit: usize, n: u32) -> (Count, u32, u32) {
        let mut progress = Progress::default();
        let mut interrupt = EveryNthPoll::new(n);
        let mut pauses = 0;
        loop {
            match count_solutions_on(path, puzzle, limit, &mut progress, &mut interrupt).expect("a supported path") {
                Ok(count) => {
                    assert!(!progress.is_paused(), "a finished search leaves nothing to go on with");
                    return (count, pauses, interrupt.polls());
                }
                Err(Interrupted) => {
                    assert!(progress.is_paused());
                    pauses += 1;
                }
            }
        }
    }

    /// A search paused again and again, on every path, ends as it does straight through, and
    /// guesses no more: its polls (one a guess) are the straight run's, plus two a pause (the
    /// next call's first, and the guess it paused at, polled again).
    #[test]
    fn a_paused_search_goes_on_where_it_stopped() {
        let puzzles: Vec<Board> = data_set("forum_hardest_1106.txt").into_iter().step_by(50).collect();
        for path in SearchPath::ALL.into_iter().filter(|path| path.is_supported()) {
            for (puzzle, limit) in puzzles.iter().map(|puzzle| (puzzle, 2)).chain([(&Board::EMPTY, 50)]) {
                let mut straight = EveryNthPoll::new(u32::MAX);
                let expected = count_solutions_on(path, puzzle, limit, &mut Progress::default(), &mut straight);
                for n in [3, 4, 17, 100] {
                    let (count, pauses, polls) = paused_and_resumed(path, puzzle, limit, n);
                    assert_eq!(Some(Ok(count)), expected, "{path:?} {puzzle} every {n}");
                    assert!(pauses > 0, "{puzzle} every {n}");
                    assert_eq!(polls, straight.polls() + 2 * pauses, "{path:?} {puzzle} every {n}");
                }
            }
        }
    }

    /// An interrupt that would stop a resumed search again at the guess it paused at is refused.
    #[test]
    #[should_panic(expected = "never get past its pause")]
    fn pausing_at_every_other_poll_is_refused() {
        EveryNthPoll::new(2);
    }

    /// Pauses in the attempts after a restart go on in the same attempt, on its relabeling.
    #[test]
    fn a_search_paused_after_restarts_goes_on_in_its_attempt() {
        let puzzle = board(STUCK);
        let expected = count_solutions(&puzzle, 2, &mut Never).unwrap();
        assert!(restarts(&puzzle, 2, RESTART_GUESSES));
        let mut straight = EveryNthPoll::new(u32::MAX);
        count_solutions(&puzzle, 2, &mut straight).unwrap();
        // Every third poll: a pause at nearly every guess, so in the second attempt too.
        let (count, pauses, polls) = paused_and_resumed(SearchPath::fastest(), &puzzle, 2, 3);
        assert_eq!(count, expected);
        assert_eq!(polls, straight.polls() + 2 * pauses);
        assert!(pauses > RESTART_GUESSES + 1, "{pauses} pauses, {} polls straight", straight.polls());
    }

    /// What another puzzle's or limit's search left is not gone on with: the search starts over.
    #[test]
    fn progress_of_another_search_is_set_aside() {
        let mut progress = Progress::default();
        let hard = board(HARD);
        assert_eq!(count_or_conflicts(&hard, 2, &mut progress, &mut EveryNthPoll::new(20)), Err(Interrupted));
        assert!(progress.is_paused());
        for (puzzle, limit) in [(board(LEETCODE_37), 2), (hard, 1)] {
            let mut kept = Progress::default();
            count_or_conflicts(&hard, 2, &mut kept, &mut EveryNthPoll::new(20)).unwrap_err();
            let count = count_or_conflicts(&puzzle, limit, &mut kept, &mut Never).unwrap().unwrap();
            assert_eq!(count, count_solutions(&puzzle, limit, &mut Never).unwrap(), "{puzzle} to {limit}");
            assert!(!kept.is_paused());
        }
    }

    /// Found by `cargo fuzz run solver`: 12 givens, so many solutions, but the first guesses
    /// lead into a subtree without one that took a single search 4.4 s (over 10 million
    /// guesses) to leave.
    const STUCK: &str = "............195.4...........8.................7.............28....419..........7.";

    #[test]
    fn a_stuck_search_starts_over_and_finds_the_solutions() {
        let puzzle = board(STUCK);
        // 200 polls allow 204,800 guesses: far too few for one search, plenty with restarts.
        let count = count_solutions(&puzzle, 2, &mut PollBudget(200)).expect("finished with restarts");
        assert_eq!(count.solutions, 2);
        let first = count.first.expect("a solution");
        assert!(first.is_complete() && crate::rules::conflicts(&first).is_empty());
        assert!(puzzle.cells().iter().zip(first.cells()).all(|(&given, &cell)| given == 0 || given == cell));
        // The first solution does not depend on the limit, nor on the search path.
        assert_eq!(count_solutions(&puzzle, 1, &mut Never).unwrap().first, Some(first));
        for path in SearchPath::ALL {
            assert!(
                count_solutions_on(path, &puzzle, 2, &mut Progress::default(), &mut Never)
                    .is_none_or(|other| other == Ok(count)),
                "{path:?}"
            );
        }
        assert_eq!(solve(&puzzle), Outcome::Multiple(first));
    }

    #[test]
    fn a_stuck_search_without_solutions_still_ends_unsolvable() {
        // STUCK's first wrong turn, made a given: no solution, and as slow to refute in one search.
        let puzzle = board("....7....62.195.............86............7...7.............28....419..........7.");
        assert_eq!(count_solutions(&puzzle, 2, &mut PollBudget(200)), Ok(Count { solutions: 0, first: None }));
    }

    #[test]
    fn counting_many_solutions_does_not_restart() {
        // Solutions keep coming, so no attempt goes long without one: a restart would count anew.
        let count = count_solutions(&Board::EMPTY, 20_000, &mut Never).unwrap();
        assert_eq!(count.solutions, 20_000);
        assert!(!restarts(&Board::EMPTY, 20_000, RESTART_GUESSES));
    }

    /// Real puzzles finish their first attempt with room to spare: half the allowance is enough
    /// for every puzzle of the hardest collections and of the unsolvable and multiple-solution
    /// sets, so restarts cost them nothing.
    #[test]
    fn real_puzzles_never_restart() {
        let sets = [
            "forum_hardest_1106.txt",
            "forum_hardest_1905_11plus_10k.txt",
            "magictour_top1465.txt",
            "unsolvable.txt",
            "multiple_solutions.txt",
        ];
        for set in sets {
            for puzzle in data_set(set) {
                assert!(!restarts(&puzzle, 2, RESTART_GUESSES / 2), "{set}: {puzzle} would restart");
            }
        }
    }

    /// The puzzles of a data set in tests/data, shared with the service's tests.
    fn data_set(set: &str) -> Vec<Board> {
        let path = format!("{}/../../tests/data/{set}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the data set");
        text.lines().filter(|line| !line.trim().is_empty()).map(board).collect()
    }

    /// [`State::reach`] against a count cell by cell ([`counted_reach`]), on the pairs of the
    /// hardest puzzles' states along the path of first guesses, with dead ends for every digit
    /// but one.
    #[test]
    fn reach_counts_each_peer_and_pair_peers_more_and_dead_ends_by_half() {
        let dead_ends = DeadEnds([0, 3, 1, 4, 1, 5, 9, 2, 6]);
        let mut checked = 0;
        for puzzle in data_set("forum_hardest_1106.txt") {
            for state in first_guess_path(&puzzle) {
                let pairs = [state.pairs_in(0), state.pairs_in(1), state.pairs_in(2)];
                for cell in (0..CELLS).filter(|&cell| is_pair(&state, cell)) {
                    assert_ne!(pairs[cell / 27] >> (cell % 27) & 1, 0);
                    let digits: Vec<usize> = (0..9).filter(|&d| holds(&state, cell, d)).collect();
                    let mask = digits.iter().fold(0u16, |mask, &d| mask | 1 << d);
                    let ends: u32 = digits.iter().map(|&d| dead_ends.0[d]).sum();
                    assert_eq!(
                        state.reach(cell / 27, (cell % 27) as u32, mask, &pairs, &dead_ends),
                        2 * counted_reach(&state, cell, &digits) + ends,
                        "{puzzle} cell {cell}"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 5000, "only {checked} pairs checked");
    }

    /// The guess tries first, near the top of the tree, the digit of its cell that rules out the
    /// most by a count cell by cell (the lowest of those that tie), and the lowest further down.
    #[test]
    fn a_guess_tries_first_the_digit_that_rules_out_most() {
        let (mut weighed, mut lowest) = (0, 0);
        for puzzle in data_set("multiple_solutions.txt").iter().chain(&data_set("forum_hardest_1106.txt")) {
            for state in first_guess_path(puzzle) {
                let Guess { band, pos, digits, first } = state.guess_cell(true, &DeadEnds::default());
                let digits: Vec<usize> = (0..9).filter(|&d| digits >> d & 1 != 0).collect();
                let expected = if state.open() > ORDER_OPEN {
                    weighed += 1;
                    let cell = 27 * band + pos as usize;
                    let most = digits.iter().map(|&d| counted_reach(&state, cell, &[d])).max().expect("candidates");
                    *digits.iter().find(|&&d| counted_reach(&state, cell, &[d]) == most).expect("the most")
                } else {
                    lowest += 1;
                    digits[0]
                };
                assert_eq!(first, expected, "{puzzle}");
            }
        }
        assert!(weighed > 100 && lowest > 1000, "{weighed} weighed, {lowest} lowest");
    }

    #[test]
    fn the_fastest_path_is_the_last_the_features_allow() {
        let fastest = |avx2, fast_pext| SearchPath::fastest_on(CpuFeatures { avx2, fast_pext });
        assert_eq!(fastest(false, false), SearchPath::Portable);
        assert_eq!(fastest(false, true), SearchPath::Portable);
        assert_eq!(fastest(true, false), SearchPath::Avx2);
        assert_eq!(fastest(true, true), SearchPath::Avx2Pext);
        assert_eq!(SearchPath::fastest(), SearchPath::fastest_on(CpuFeatures::get()));
    }

    /// Only puzzles that may have one solution, and not so many givens that singles nearly
    /// always finish them, get the weighed guess and the stack rule.
    #[test]
    fn weighing_and_the_stack_rule_are_for_puzzles_that_can_be_unique() {
        assert_eq!(strategy(0), (false, false));
        assert_eq!(strategy(16), (false, false));
        assert_eq!(strategy(17), (true, true));
        assert_eq!(strategy(29), (true, true));
        assert_eq!(strategy(30), (false, false));
        assert_eq!(strategy(81), (false, false));
    }

    /// The state of `puzzle`, whose givens do not clash.
    fn state_of(puzzle: &Board) -> State {
        let mut state = State::UNGIVEN;
        assert!(state.give::<Baseline>(puzzle, &mut Vec::new()), "no clash");
        state
    }

    /// The states after propagation along the path of first guesses.
    fn first_guess_path(puzzle: &Board) -> Vec<State> {
        let mut states = vec![];
        let mut state = state_of(puzzle);
        while state.propagate::<ByShifts>(true, &mut DeadEnds::default()) && !state.is_solved() {
            states.push(state);
            let Guess { band, pos, first, .. } = state.guess_cell(true, &DeadEnds::default());
            state.place(band, first, pos);
        }
        states
    }

    fn holds(state: &State, cell: usize, digit: usize) -> bool {
        state.candidates[cell / 27][digit] >> (cell % 27) & 1 != 0
    }

    fn is_pair(state: &State, cell: usize) -> bool {
        state.unsolved[cell / 27] >> (cell % 27) & 1 != 0 && (0..9).filter(|&d| holds(state, cell, d)).count() == 2
    }

    /// [`State::reach`] cell by cell: every peer in the grid that holds one of `digits`, once per
    /// digit, and [`PAIR_PEER_WEIGHT`] times more when it is an unsolved cell with two candidates.
    fn counted_reach(state: &State, cell: usize, digits: &[usize]) -> u32 {
        let sees = |a: usize, b: usize| {
            a != b && (a / 9 == b / 9 || a % 9 == b % 9 || (a / 27 == b / 27 && a % 9 / 3 == b % 9 / 3))
        };
        (0..CELLS)
            .filter(|&peer| sees(cell, peer))
            .map(|peer| {
                let held = digits.iter().filter(|&&d| holds(state, peer, d)).count() as u32;
                held * if is_pair(state, peer) { 1 + PAIR_PEER_WEIGHT } else { 1 }
            })
            .sum()
    }

    /// Counts the candidates a search tries at its branch points.
    struct GuessCount(u64);

    impl Interrupt for GuessCount {
        fn poll_interval(&self) -> u32 {
            1
        }

        fn should_stop(&mut self) -> bool {
            self.0 += 1;
            false
        }
    }

    /// The guess's weighing keeps the hardest puzzles' trees small: first solution and the
    /// uniqueness check take about 208 candidates tried per puzzle on forum_hardest_1106 (two
    /// per branch point), where the plain count of what a guess rules out took 305, and the
    /// weighing without the dead ends 236.
    #[test]
    fn the_hardest_puzzles_take_few_guesses() {
        let puzzles = data_set("forum_hardest_1106.txt");
        let mut guesses = GuessCount(0);
        for puzzle in &puzzles {
            assert!(matches!(count_solutions(puzzle, 2, &mut guesses), Ok(Count { solutions: 1, .. })));
        }
        let per_puzzle = guesses.0 as f64 / puzzles.len() as f64;
        assert!(per_puzzle < 215.0, "{per_puzzle} candidates tried per puzzle");
    }

    /// The band rule as drain applies it (each [`BandRule`] this CPU runs, and
    /// [`mini_row_singles`]) against trying each of the six assignments of rows to boxes on the
    /// entry itself, and then counting each row's cells: every pattern of held mini-rows, with
    /// random cells in them (one, two or three per mini-row), about two million entries.
    #[test]
    fn the_band_rule_keeps_assigned_mini_rows_and_finds_lone_cells() {
        const ASSIGNMENTS: [[u32; 3]; 6] = [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];
        let mini_row = |row: u32, boxed: u32| 7u32 << (9 * row + 3 * boxed);
        let mut random = crate::random::SplitMix64(27);
        for pattern in 0..512u32 {
            for _ in 0..4000 {
                let mut cells = 0;
                for mini in (0..9).filter(|mini| pattern >> mini & 1 != 0) {
                    let content = [1, 2, 4, 3, 5, 6, 7][random.below(7)];
                    cells |= content << (9 * (mini / 3) + 3 * (mini % 3));
                }
                let mut expected = 0;
                for rows_box in ASSIGNMENTS {
                    let used = (0..3).fold(0, |used, row| used | mini_row(row, rows_box[row as usize]));
                    if (0..3).all(|row| cells & mini_row(row, rows_box[row as usize]) != 0) {
                        expected |= cells & used;
                    }
                }
                let expected_lone = (0..3)
                    .map(|row| expected & 0x1ff << (9 * row))
                    .filter(|row| row.count_ones() == 1)
                    .fold(0, |a, b| a | b);
                let (kept, lone) = ByShifts::shrink(cells);
                assert_eq!(cells & kept, expected, "{cells:027b}");
                assert_eq!(mini_row_singles(cells) & lone, expected_lone, "{cells:027b}");
                #[cfg(target_arch = "x86_64")]
                if is_x86_feature_detected!("bmi2") {
                    assert_eq!(ByPext::shrink(cells), (kept, lone), "{cells:027b}");
                }
            }
        }
    }

    /// [`stack_rule`] against [`KEEP`] (built by trying every assignment) on every pattern of a
    /// stack's columns, in each stack, the other stacks holding every column.
    #[test]
    fn the_stack_rule_keeps_what_some_assignment_uses() {
        for stack in 0..3 {
            let others = 0o777 & !(0o7 << (3 * stack));
            for present in 0..512u32 {
                let kept = stack_rule([0, 1, 2].map(|band| others | (present >> (3 * band) & 7) << (3 * stack)));
                let expected = u32::from(KEEP[present as usize]);
                for (band, &kept) in kept.iter().enumerate() {
                    assert_eq!(kept & others, others, "the other stacks untouched: {present:o}");
                    assert_eq!(kept >> (3 * stack) & 7, expected >> (3 * band) & 7, "{present:o} in stack {stack}");
                }
                assert_eq!(every_stack_holds(kept[0]), expected != 0, "{present:o}");
            }
        }
    }

    /// [`State::fewest_candidates`] against a count cell by cell, on the states of sparse and
    /// multi-solution puzzles along the path of first guesses (some 90 of them without a pair),
    /// and on the empty grid, whose every cell has more candidates than the bit-sliced count
    /// reaches.
    #[test]
    fn fewest_candidates_are_the_open_cells_of_the_least_count() {
        let mut states = vec![state_of(&board(&".".repeat(CELLS)))];
        for puzzle in data_set("17_clue_10k.txt").iter().take(300).chain(&data_set("multiple_solutions.txt")) {
            states.extend(first_guess_path(puzzle));
        }
        let mut without_pairs = 0;
        for state in &states {
            let count =
                |cell: usize| (0..9).filter(|&d| state.candidates[cell / 27][d] >> (cell % 27) & 1 != 0).count();
            let open: Vec<usize> =
                (0..CELLS).filter(|&cell| state.unsolved[cell / 27] >> (cell % 27) & 1 != 0).collect();
            let least = open.iter().map(|&cell| count(cell)).min().expect("unsolved");
            let mut expected = [0u32; 3];
            for &cell in open.iter().filter(|&&cell| count(cell) == least) {
                expected[cell / 27] |= 1 << (cell % 27);
            }
            assert_eq!(state.fewest_candidates(), expected);
            without_pairs += usize::from(least > 2);
        }
        assert!(without_pairs > 50, "only {without_pairs} states without a pair");
    }

    /// Whether one attempt (portable path, no restarts) would use up `allowance`.
    fn restarts(puzzle: &Board, limit: usize, allowance: u32) -> bool {
        let mut never = Never;
        let mut search = Search::new(limit, allowance, &mut never);
        matches!(search.start(Entry::Puzzle(puzzle), SearchPath::Portable), Err(Stop::Restart))
    }

    #[test]
    fn a_puzzle_is_classified_once_for_every_front_end() {
        let puzzle = LEETCODE_37;
        let solution = board(LEETCODE_37_SOLUTION);
        assert_eq!(classify(&board(puzzle), &mut Never), Ok(Verdict::Unique(solution)));
        assert_eq!(Verdict::<_, Conflict>::Unique(solution).unique(), Ok(solution));

        let Ok(Verdict::Multiple(first)) = classify(&board(&".".repeat(81)), &mut Never) else { panic!("many") };
        assert_eq!(Verdict::<_, Conflict>::Multiple(first).solved(), Ok((first, false)));
        assert_eq!(Verdict::<_, Conflict>::Multiple(first).unique(), Err(Unanswerable::Multiple));

        let conflicting = format!("55{}", &puzzle[2..]);
        let Ok(Verdict::Conflicting(conflicts)) = classify(&board(&conflicting), &mut Never) else { panic!() };
        assert_eq!(conflicts, rules::conflicts(&board(&conflicting)));

        // The digits that clash, found while the givens are placed, pick the cells to report:
        // the same as checking every digit, on random boards with and without repeats.
        let mut random = crate::random::SplitMix64(37);
        for _ in 0..2000 {
            let mut cells = [0u8; CELLS];
            for _ in 0..random.below(30) {
                cells[random.below(CELLS)] = 1 + random.below(9) as u8;
            }
            let board = Board::from_cells(cells).unwrap();
            let expected = rules::conflicts(&board);
            match count_or_conflicts(&board, 1, &mut Progress::default(), &mut Never).unwrap() {
                Err(conflicts) => assert_eq!(conflicts, expected, "{board}"),
                Ok(_) => assert!(expected.is_empty(), "{board}"),
            }
        }

        let unsolvable = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
        assert_eq!(classify(&board(&unsolvable), &mut Never), Ok(Verdict::Unsolvable));
        assert_eq!(Verdict::<Board, Conflict>::Unsolvable.solved(), Err(Unanswerable::Unsolvable));
        assert_eq!(classify(&board(puzzle), &mut PollBudget(0)), Err(Interrupted));
    }
}

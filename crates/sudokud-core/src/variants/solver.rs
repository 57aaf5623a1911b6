//! The search for variant grids: the generic search of [`crate::sizes::solver`] (candidates as
//! bit sets, naked and hidden singles, a guess with binary branching, restarts, the cooperative
//! deadline) over the variant's houses and peers, with each constraint that is not a house
//! narrowing candidates too:
//!
//! - a pair relation (a thermometer's step, a Kropki dot, non-consecutive neighbours) keeps in
//!   each cell only the digits the other cell's candidates allow;
//! - a cage with a sum keeps in its open cells the digits of the sets that make the sum, hold its
//!   placed digits and fit its open cells' candidates (listed once per puzzle by
//!   [`Variant::new`]; for a cage with too many such sets, the digits the remaining sum allows),
//!   and a digit every such set holds goes to its one place in the cage, or from the cells
//!   outside that see all its places;
//! - a house's innies are a cage no clue draws (their digits differ), narrowed as the cages;
//! - an innie or outie group (cells whose sum the 45 rule gives, found once per variant) and a
//!   sum difference (a run of rows or columns: its innies less the outies of the cages mostly
//!   inside it), keeps in each open cell the digits that leave the others a sum between their
//!   least and most, or with three open cells or fewer exactly the digits the others can
//!   complete (the killer player's 45 rule: they took "Killing with flowers", a hard killer
//!   without givens, from 0.88 s to 0.09 s; docs/benchmarks.md);
//! - a little killer's diagonal keeps in each open cell exactly the digits of some way to make
//!   its sum, the digits of its runs through a box differing (The Barbed Cross, eight little
//!   killers and no givens, about 10x faster than by least and most alone);
//! - a renban line keeps in each cell the digits of the runs of consecutive digits, as long as
//!   the line, that every cell has a candidate in and whose every digit some cell can hold (its
//!   digits differ as peers), and a digit every such run holds goes in the one cell that can
//!   hold it, when only one can;
//! - an arrow keeps its bulb's number between the least and most its shaft can add up to, and
//!   each shaft cell within what the bulb leaves once the other cells' least and most are taken
//!   (bounds both ways, a pill's digits weighted as its number's); a one-cell bulb's arrow, the
//!   shaft less the bulb adding up to 0, is narrowed as a sum difference (exactly with three
//!   open cells or fewer);
//! - a between line keeps in its circles the digits of the pairs, either way round, that leave
//!   every cell between them a candidate strictly between, and in those cells the candidates some
//!   such pair allows, and a lockout line in its diamonds the pairs far enough apart that leave
//!   every cell between them a candidate outside theirs
//!   ([`LineRule::support`](sudokud_model::family::lines::LineRule::support));
//! - a window of digit classes (three cells in a row along a modular or entropic line, a 2x2
//!   square under global entropy or global mod) keeps in
//!   each cell the candidates of the classes some way of giving every cell a class it can still
//!   hold leaves it, every class in the window
//!   ([`ClassWindow::support`](sudokud_model::family::classes::ClassWindow::support)): a class
//!   with one place left goes there, a cell of one class takes it from the others of three;
//! - a clue beside a row or column (a sandwich) keeps in each of the line's cells the digits some
//!   way of meeting it uses ([`WholeRule::keep`]): for a sandwich, each place of the 1 and the
//!   N its cells allow, with a set of different digits between them that makes the sum, fits
//!   the cells between and that they cover, and digits other than the two outside;
//! - under the non-consecutive rule, a cell beside every place a digit has left in a house holds
//!   neither neighbouring digit (locked candidates through the rule).
//!
//! A count guesses first in the cells whose guesses most often ended in contradictions, per
//! candidate (`Branch::Conflicts`); a random solution for generation, in the cells of fewest
//! candidates. Relabeling digits, as the generic search does to restart, would break sums,
//! thermometers and dots; a restart here breaks ties between guesses at random instead, and tries
//! a random digit.

use super::variant::{MAX_CAGES, MAX_HOUSES, Variant};
use crate::interrupt::{Interrupt, Interrupted};
use crate::random::SplitMix64;
use crate::sizes::solver::{
    Branching, Count, RESTART_GUESSES, SOLVED, Stop, after_guess, branch, hidden_digits, open_place,
};
use crate::sizes::{Grid, MAX_CELLS};
use sudokud_model::family::arrows::{MAX_ARROWS, arrow_bounds, arrow_range};
use sudokud_model::family::beside_every;
use sudokud_model::family::cages::CageRule;
use sudokud_model::family::classes::MAX_WINDOWS;
use sudokud_model::family::lines::MAX_LINES;
use sudokud_model::family::little_killers::MAX_LITTLE_KILLERS;
use sudokud_model::family::outside::MAX_OUTSIDE_CLUES;
use sudokud_model::family::quadruples::MAX_QUADRUPLES;
use sudokud_model::family::renban::{MAX_RENBANS, renban_support};
use sudokud_model::family::whole::WholeRule;

/// Counts the solutions of `puzzle` under `variant`'s rules (of the same shape), stopping as
/// soon as `limit` are found, unless `interrupt` stops it first. An attempt that goes
/// `RESTART_GUESSES` guesses without a solution starts over with other tie-breaks and twice the
/// allowance (see [`crate::search::count_grid`]).
pub fn count_solutions(
    puzzle: &Grid,
    variant: &Variant,
    limit: usize,
    interrupt: &mut impl Interrupt,
) -> Result<Count, Interrupted> {
    assert_eq!(puzzle.shape(), variant.shape(), "the variant is for the puzzle's shape");
    if interrupt.should_stop() {
        return Err(Interrupted);
    }
    if limit == 0 {
        return Ok(Count { solutions: 0, first: None });
    }
    search_with_restarts(puzzle, variant, limit, None, RESTART_GUESSES, interrupt)
}

/// A solution of `variant` on an empty grid drawn at random from `seed` (every guess's cell among
/// the tied and its digit at random), or `None` when the variant has none: what generation starts
/// from. Its restarts begin after 1,024 guesses, not the solver's 16,384: an empty grid has solutions down
/// most branches, so a long fruitless one is better left early.
pub fn random_solution(
    variant: &Variant,
    seed: u64,
    interrupt: &mut impl Interrupt,
) -> Result<Option<Grid>, Interrupted> {
    let empty = Grid::empty(variant.shape());
    Ok(search_with_restarts(&empty, variant, 1, Some(seed), RANDOM_RESTART_GUESSES, interrupt)?.first)
}

/// Guesses the first attempt of [`random_solution`] may make before it starts over: the poll
/// interval, the least the restart check allows.
const RANDOM_RESTART_GUESSES: u32 = crate::interrupt::POLL_INTERVAL;

/// The attempts of a search: the first with tie-breaks drawn from `seed` (when given, else the
/// first of each), each later one from another seed with twice the allowance.
fn search_with_restarts(
    puzzle: &Grid,
    variant: &Variant,
    limit: usize,
    seed: Option<u64>,
    first_allowance: u32,
    interrupt: &mut impl Interrupt,
) -> Result<Count, Interrupted> {
    for attempt in 0u32.. {
        let allowance = u32::try_from(u64::from(first_allowance) << attempt.min(32)).unwrap_or(u32::MAX);
        let random = match seed {
            Some(seed) => Some(SplitMix64(seed ^ u64::from(attempt).rotate_left(32))),
            None => (attempt > 0).then_some(SplitMix64(u64::from(attempt))),
        };
        let branching = if seed.is_some() { Branch::Fewest } else { Branch::Conflicts };
        let mut search = Search::new(variant, limit, allowance, random, branching, &mut *interrupt);
        match search.run(puzzle.cells()) {
            Ok(()) => {
                let cells = puzzle.cells().len();
                let first = (search.solutions > 0).then(|| {
                    Grid::new(puzzle.shape(), search.first[..cells].to_vec()).expect("a solution of the same shape")
                });
                return Ok(Count { solutions: search.solutions, first });
            }
            Err(Stop::Interrupted) => return Err(Interrupted),
            // Restarts happen only before a first solution, so nothing found is lost.
            Err(Stop::Restart) => continue,
        }
    }
    unreachable!("the allowance grows until an attempt finishes")
}

/// Per rule of each kind the search narrows (by index, a bit each), whether one of its cells
/// changed since it was last narrowed: only those are narrowed again.
#[derive(Clone, Copy, Default)]
struct Stale {
    cages: [u64; MAX_CAGES / 64],
    /// The innie and outie sum groups.
    groups: [u64; MAX_CAGES / 64],
    differences: [u64; MAX_CAGES / 64],
    hidden: [u64; MAX_CAGES / 64],
    renbans: [u64; MAX_RENBANS / 64],
    arrows: [u64; MAX_ARROWS / 64],
    little_killers: [u64; MAX_LITTLE_KILLERS / 64],
    /// The lines read whole (between and lockout lines).
    lines: [u64; MAX_LINES / 64],
    quadruples: [u64; MAX_QUADRUPLES / 64],
    /// The clues beside rows and columns.
    outside_clues: [u64; MAX_OUTSIDE_CLUES / 64],
    /// The windows of digit classes.
    windows: [u64; MAX_WINDOWS / 64],
}

/// One attempt's state.
struct Search<'v, 'i, I> {
    variant: &'v Variant,
    cells: usize,
    full: u32,
    candidates: [u32; MAX_CELLS],
    unsolved: usize,
    /// Cells placed whose digit is not yet removed from their peers.
    pending: [u16; MAX_CELLS],
    pending_len: usize,
    /// Houses where a candidate went since their last sweep for hidden singles.
    dirty: [u64; MAX_HOUSES / 64],
    /// Houses where a candidate went since their last look for locked candidates.
    unlocked: [u64; MAX_HOUSES / 64],
    /// Cells whose candidates changed since their pairs were last narrowed.
    changed: [u64; MAX_CELLS.div_ceil(64)],
    /// The rules with a cell that changed since they were last narrowed.
    stale: Stale,
    limit: usize,
    solutions: usize,
    /// The first solution, valid once `solutions` is above 0.
    first: [u8; MAX_CELLS],
    guesses: u32,
    allowance: u32,
    /// Tie-breaks for a restart; none on the first attempt.
    random: Option<SplitMix64>,
    branching: Branch,
    /// Per cell, how often a guess there ended in a contradiction (halved now and then), on
    /// top of how constrained the cell is: what [`Branch::Conflicts`] prefers.
    scores: [u32; MAX_CELLS],
    /// The cell of the guess (or of its other branch) being propagated, if any.
    guessed_cell: Option<usize>,
    /// Contradictions until the scores are next halved.
    until_decay: u32,
    interrupt: &'i mut I,
}

/// How a search picks the cell to guess.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Branch {
    /// The fewest candidates, ties to the cell linked to most undecided cells: generation's
    /// random solutions, which ids reproduce, so never to change.
    Fewest,
    /// The most contradictions per candidate: cells whose guesses recently failed, where the
    /// puzzle is tight, are guessed first (ISS's conflict scores, dom/wdeg in constraint
    /// solvers). Merry X/V-mas: 10,413 guesses down to 436; hard killers alike or fewer.
    Conflicts,
}

/// Contradictions between halvings of the conflict scores, so that they follow where the
/// search is now rather than where it was.
const DECAY_INTERVAL: u32 = 16_384;

impl<'v, 'i, I: Interrupt> Search<'v, 'i, I> {
    fn new(
        variant: &'v Variant,
        limit: usize,
        allowance: u32,
        random: Option<SplitMix64>,
        branching: Branch,
        interrupt: &'i mut I,
    ) -> Self {
        let size = variant.shape().size();
        let mut scores = [0; MAX_CELLS];
        if branching == Branch::Conflicts {
            // The cells the most rules bear on go first until contradictions say otherwise.
            for (cell, score) in scores[..variant.shape().cells()].iter_mut().enumerate() {
                let houses = variant.houses_of(cell).iter().map(|&house| variant.house(usize::from(house)).len());
                let cages = variant.cages_of(cell).iter().map(|&cage| variant.cages[usize::from(cage)].cells.len());
                let renbans = variant.renbans_of(cell).iter().map(|&line| variant.renbans[usize::from(line)].len());
                let arrows = variant
                    .arrows_of(cell)
                    .iter()
                    .map(|&arrow| variant.arrows[usize::from(arrow)].shaft_then_bulb.len());
                let diagonals = variant
                    .little_killers_of(cell)
                    .iter()
                    .map(|&clue| variant.little_killers[usize::from(clue)].cells.len());
                let whole = variant.lines_of(cell).iter().map(|&line| variant.lines[usize::from(line)].cells.len());
                let beside = variant
                    .outside_clues_of(cell)
                    .iter()
                    .map(|&clue| variant.outside_clues[usize::from(clue)].cells.len());
                let windows = variant.windows_of(cell).len();
                let lines = renbans.sum::<usize>()
                    + arrows.sum::<usize>()
                    + diagonals.sum::<usize>()
                    + whole.sum::<usize>()
                    + beside.sum::<usize>()
                    + windows;
                *score =
                    (houses.sum::<usize>() + cages.sum::<usize>() + lines + 2 * variant.pairs_of(cell).len()) as u32;
            }
        }
        Search {
            variant,
            cells: variant.shape().cells(),
            full: (1 << size) - 1,
            candidates: [0; MAX_CELLS],
            unsolved: 0,
            pending: [0; MAX_CELLS],
            pending_len: 0,
            dirty: [0; MAX_HOUSES / 64],
            unlocked: [0; MAX_HOUSES / 64],
            changed: [0; MAX_CELLS.div_ceil(64)],
            stale: Stale::default(),
            limit,
            solutions: 0,
            first: [0; MAX_CELLS],
            guesses: 0,
            allowance,
            random,
            branching,
            scores,
            guessed_cell: None,
            until_decay: DECAY_INTERVAL,
            interrupt,
        }
    }

    /// Searches `puzzle` (values in row-major order) until the limit, the end, or a stop.
    fn run(&mut self, puzzle: &[u8]) -> Result<(), Stop> {
        self.candidates[..self.cells].copy_from_slice(&self.variant.allowed);
        fill_first(&mut self.dirty, self.variant.house_units.len());
        fill_first(&mut self.unlocked, self.variant.house_units.len());
        fill_first(&mut self.changed, self.cells);
        fill_first(&mut self.stale.cages, self.variant.cages.len());
        fill_first(&mut self.stale.groups, self.variant.sum_groups.len());
        fill_first(&mut self.stale.differences, self.variant.sum_differences.len());
        fill_first(&mut self.stale.hidden, self.variant.hidden_cages.len());
        fill_first(&mut self.stale.renbans, self.variant.renbans.len());
        fill_first(&mut self.stale.arrows, self.variant.arrows.len());
        fill_first(&mut self.stale.little_killers, self.variant.little_killers.len());
        fill_first(&mut self.stale.lines, self.variant.lines.len());
        fill_first(&mut self.stale.quadruples, self.variant.quadruples.len());
        fill_first(&mut self.stale.outside_clues, self.variant.outside_clues.len());
        fill_first(&mut self.stale.windows, self.variant.windows.len());
        self.unsolved = self.cells;
        for (cell, &value) in puzzle.iter().enumerate() {
            if value != 0 {
                let bit = 1 << (value - 1);
                // A given its cell may not hold (an odd digit on an even cell).
                if self.candidates[cell] & bit == 0 {
                    return Ok(());
                }
                self.place(cell, bit);
            }
        }
        branch(self)
    }

    /// Decides `cell` as the digit of `bit` and queues the removal from its peers.
    fn place(&mut self, cell: usize, bit: u32) {
        self.candidates[cell] = bit | SOLVED;
        self.touch(cell);
        self.unsolved -= 1;
        self.pending[self.pending_len] = cell as u16;
        self.pending_len += 1;
    }

    /// Marks `cell`'s houses for a sweep, and the cell for its pairs and cages.
    fn touch(&mut self, cell: usize) {
        for &house in self.variant.houses_of(cell) {
            mark(&mut self.dirty, usize::from(house));
            mark(&mut self.unlocked, usize::from(house));
        }
        mark(&mut self.changed, cell);
    }

    /// Removes the digits of `digits` from `cell`: whether any was there, or `None` when that
    /// leaves it nothing (for a decided cell, when its digit is among them).
    fn remove(&mut self, cell: usize, digits: u32) -> Option<bool> {
        let candidates = self.candidates[cell];
        if candidates & digits == 0 {
            return Some(false);
        }
        let left = candidates & !digits & !SOLVED;
        if left == 0 || candidates & SOLVED != 0 {
            return None;
        }
        if left & (left - 1) == 0 {
            self.place(cell, left);
        } else {
            self.candidates[cell] = left;
            self.touch(cell);
        }
        Some(true)
    }

    /// Places every single and applies every constraint until nothing changes; `false` on a
    /// contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            while self.pending_len > 0 {
                self.pending_len -= 1;
                let cell = usize::from(self.pending[self.pending_len]);
                let bit = self.candidates[cell] & !SOLVED;
                for &peer in self.variant.peers(cell) {
                    if self.remove(usize::from(peer), bit).is_none() {
                        return false;
                    }
                }
            }
            match self.hidden_singles() {
                Some(true) => continue,
                Some(false) => {}
                None => return false,
            }
            let Some(related) = self.relations() else { return false };
            let Some(caged) = self.cages() else { return false };
            let Some(lined) = self.renbans() else { return false };
            let Some(aimed) = self.arrows() else { return false };
            let variant = self.variant;
            let stale = std::mem::take(&mut self.stale.lines);
            let Some(bounded) = self.whole(&variant.lines, &stale) else { return false };
            let Some(circled) = self.quadruples() else { return false };
            let stale = std::mem::take(&mut self.stale.windows);
            let Some(classed) = self.whole(&variant.windows, &stale) else { return false };
            let stale = std::mem::take(&mut self.stale.outside_clues);
            let Some(clued) = self.whole(&variant.outside_clues, &stale) else { return false };
            if related || caged || lined || aimed || bounded || circled || classed || clued {
                continue;
            }
            // The costliest rule last, once the others have nothing left.
            match self.locked() {
                Some(true) => continue,
                Some(false) => return true,
                None => return false,
            }
        }
    }

    /// Sweeps the houses that changed for digits with one place left, and places them: whether
    /// any was placed, or `None` when a digit has no place left in a house.
    fn hidden_singles(&mut self) -> Option<bool> {
        let mut placed = false;
        let dirty = std::mem::take(&mut self.dirty);
        for house in set_bits(&dirty) {
            let cells = self.variant.house(house);
            let mut hidden = hidden_digits(cells, &self.candidates, self.full)?;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                let cell = open_place(cells, &self.candidates, bit)?;
                self.place(cell, bit);
                placed = true;
            }
        }
        Some(placed)
    }

    /// Locked candidates over any houses: when a digit's places in a house all see some other
    /// cells (a box's places on one row see the rest of the row; a diagonal's in one box the rest
    /// of the box; two places a knight's move from a third cell...), those cells lose the digit.
    /// Looks at houses that changed since it last did: whether anything went, or `None` on a
    /// contradiction.
    fn locked(&mut self) -> Option<bool> {
        /// Digits with more places than this in a house are left to the search: their common
        /// peers are rarely any, and the sets to intersect many. The counts below go to it.
        const MOST_PLACES: usize = 3;
        let variant = self.variant;
        let words = variant.set_words();
        let non_consecutive = variant.constraints().non_consecutive;
        let mut removed = false;
        let unlocked = std::mem::take(&mut self.unlocked);
        for house in set_bits(&unlocked) {
            let cells = variant.house(house);
            // The digits with two or three places: counted for all digits at once, a bit per
            // digit in each count (once, twice, three times, more), before any place is listed.
            let (mut once, mut twice, mut thrice, mut more, mut solved) = (0u32, 0u32, 0u32, 0u32, 0u32);
            for &cell in cells {
                let candidates = self.candidates[usize::from(cell)];
                if candidates & SOLVED != 0 {
                    solved |= candidates;
                    continue;
                }
                more |= thrice & candidates;
                thrice |= twice & candidates;
                twice |= once & candidates;
                once |= candidates;
            }
            // A digit decided in this pass still has stale places here, not its real ones.
            let wanted = twice & !more & !solved;
            if wanted == 0 {
                continue;
            }
            let mut places = [[0u16; MOST_PLACES]; 32];
            let mut counts = [0usize; 32];
            for &cell in cells {
                let mut digits = self.candidates[usize::from(cell)] & wanted;
                while digits != 0 {
                    let digit = digits.trailing_zeros() as usize;
                    digits &= digits - 1;
                    places[digit][counts[digit]] = cell;
                    counts[digit] += 1;
                }
            }
            for digit in set_bits(&[u64::from(wanted)]) {
                let count = counts[digit];
                let mut common = [0u64; MAX_CELLS.div_ceil(64)];
                common[..words].copy_from_slice(variant.peer_set(usize::from(places[digit][0])));
                for &place in &places[digit][1..count] {
                    common.iter_mut().zip(variant.peer_set(usize::from(place))).for_each(|(a, b)| *a &= b);
                }
                for cell in set_bits(&common[..words]) {
                    // A cell decided in this pass, not yet removed from its peers, is left to
                    // that removal, which finds any contradiction.
                    if self.candidates[cell] & SOLVED == 0 {
                        removed |= self.remove(cell, 1 << digit)?;
                    }
                }
                if non_consecutive {
                    removed |= self.beside_every(&places[digit][..count], digit)?;
                }
            }
        }
        Some(removed)
    }

    /// Non-consecutive locked candidates ([`beside_every`]): the cells beside every place of
    /// `digit` (0-based) in a house lose its neighbouring digits. Whether anything went, or
    /// `None` on a contradiction.
    fn beside_every(&mut self, places: &[u16], digit: usize) -> Option<bool> {
        let neighbours = (1u32 << digit >> 1) | (1 << (digit + 1) & self.full);
        let mut removed = false;
        for cell in beside_every(self.variant.shape().size(), places) {
            if self.candidates[usize::from(cell)] & SOLVED == 0 {
                removed |= self.remove(usize::from(cell), neighbours)?;
            }
        }
        Some(removed)
    }

    /// Narrows the pairs of every changed cell to the digits the other cell allows, until no
    /// pair changes, and marks their cages: whether anything went, or `None` on a
    /// contradiction.
    fn relations(&mut self) -> Option<bool> {
        let variant = self.variant;
        let mut removed = false;
        loop {
            let changed = std::mem::take(&mut self.changed);
            if changed.iter().all(|&word| word == 0) {
                return Some(removed);
            }
            for cell in set_bits(&changed) {
                for &cage in variant.cages_of(cell) {
                    mark(&mut self.stale.cages, usize::from(cage));
                }
                for &group in variant.sum_groups_of(cell) {
                    mark(&mut self.stale.groups, usize::from(group));
                }
                for &difference in variant.sum_differences_of(cell) {
                    mark(&mut self.stale.differences, usize::from(difference));
                }
                for &hidden in variant.hidden_cages_of(cell) {
                    mark(&mut self.stale.hidden, usize::from(hidden));
                }
                for &line in variant.renbans_of(cell) {
                    mark(&mut self.stale.renbans, usize::from(line));
                }
                for &arrow in variant.arrows_of(cell) {
                    mark(&mut self.stale.arrows, usize::from(arrow));
                }
                for &clue in variant.little_killers_of(cell) {
                    mark(&mut self.stale.little_killers, usize::from(clue));
                }
                for &line in variant.lines_of(cell) {
                    mark(&mut self.stale.lines, usize::from(line));
                }
                for &quadruple in variant.quadruples_of(cell) {
                    mark(&mut self.stale.quadruples, usize::from(quadruple));
                }
                for &clue in variant.outside_clues_of(cell) {
                    mark(&mut self.stale.outside_clues, usize::from(clue));
                }
                for &window in variant.windows_of(cell) {
                    mark(&mut self.stale.windows, usize::from(window));
                }
                for &pair in variant.pairs_of(cell) {
                    let pair = &variant.pairs[usize::from(pair)];
                    let (first, second) = (usize::from(pair.first), usize::from(pair.second));
                    let relation = variant.relation(pair);
                    let digits = self.candidates[first] & !SOLVED;
                    removed |= self.narrow(second, relation.support(digits, false))?;
                    let digits = self.candidates[second] & !SOLVED;
                    removed |= self.narrow(first, relation.support(digits, true))?;
                }
            }
        }
    }

    /// Keeps in `cell` only the digits of `allowed`.
    fn narrow(&mut self, cell: usize, allowed: u32) -> Option<bool> {
        self.remove(cell, self.full & !allowed)
    }

    /// Narrows each stale cage's open cells to the digits that can still make its sum, and each
    /// stale sum group's, sum difference's and little killer's: whether anything went, or `None`
    /// on a contradiction.
    fn cages(&mut self) -> Option<bool> {
        let variant = self.variant;
        let size = variant.shape().size() as u32;
        let mut removed = false;
        let stale = std::mem::take(&mut self.stale.cages);
        for cage in set_bits(&stale).map(|number| &variant.cages[number]) {
            removed |= self.narrow_cage(cage)?;
        }
        let stale = std::mem::take(&mut self.stale.hidden);
        for cage in set_bits(&stale).map(|number| &variant.hidden_cages[number]) {
            removed |= self.narrow_cage(cage)?;
        }
        let stale = std::mem::take(&mut self.stale.groups);
        for group in set_bits(&stale).map(|number| &variant.sum_groups[number]) {
            removed |= self.bound_sum(&group.cells, group.cells.len(), group.sum)?;
        }
        let stale = std::mem::take(&mut self.stale.differences);
        for difference in set_bits(&stale).map(|number| &variant.sum_differences[number]) {
            // A taken digit d counts as N + 1 - d: the sum gains N + 1 per taken cell.
            let taken = (difference.cells.len() - difference.added) as i32;
            let sum = u32::try_from(difference.difference + taken * (size as i32 + 1)).ok();
            removed |= self.bound_sum(&difference.cells, difference.added, sum?)?;
        }
        let stale = std::mem::take(&mut self.stale.little_killers);
        for clue in set_bits(&stale).map(|number| &variant.little_killers[number]) {
            removed |= self.diagonal_sum(&clue.cells, clue.sum)?;
        }
        Some(removed)
    }

    /// Narrows each stale renban line's cells to the runs of consecutive digits that still fit
    /// it ([`renban_support`]): whether anything went, or `None` on a contradiction.
    fn renbans(&mut self) -> Option<bool> {
        let variant = self.variant;
        let size = variant.shape().size();
        let mut removed = false;
        let stale = std::mem::take(&mut self.stale.renbans);
        for line in set_bits(&stale).map(|number| &variant.renbans[number]) {
            let (mut candidates, mut kept) = ([0u32; 32], [0u32; 32]);
            for (digits, &cell) in candidates.iter_mut().zip(line) {
                *digits = self.candidates[usize::from(cell)] & !SOLVED;
            }
            let length = line.len();
            let runs = renban_support(size, &candidates[..length], &mut kept[..length]);
            if runs == 0 {
                return None;
            }
            for (&cell, &digits) in line.iter().zip(&kept) {
                removed |= self.narrow(usize::from(cell), digits)?;
            }
            // The digits every run that fits holds are on the line, whose cells differ: placed
            // or locked as a cage's required digits.
            let run = (1u32 << length) - 1;
            let required = (run << runs.trailing_zeros()) & (run << (31 - runs.leading_zeros()));
            removed |= self.required_in(line, required)?;
        }
        Some(removed)
    }

    /// Narrows each stale arrow's cells to the digits that keep its bulb's number within its
    /// shaft's reach and the other way round ([`arrow_range`]): whether anything went, or `None`
    /// on a contradiction.
    fn arrows(&mut self) -> Option<bool> {
        let variant = self.variant;
        let size = variant.shape().size() as u32;
        let mut removed = false;
        let stale = std::mem::take(&mut self.stale.arrows);
        for arrow in set_bits(&stale).map(|number| &variant.arrows[number]) {
            if let [_] = arrow.bulb[..] {
                // The shaft less the bulb adds up to 0: a sum difference, narrowed exactly when
                // few cells are open.
                removed |= self.bound_sum(&arrow.shaft_then_bulb, arrow.shaft.len(), size + 1)?;
                continue;
            }
            let range = |candidates: u32| {
                let digits = candidates & !SOLVED;
                (digits != 0).then(|| (digits.trailing_zeros() + 1, 32 - digits.leading_zeros()))
            };
            let bounds = arrow_bounds(arrow, |cell| range(self.candidates[usize::from(cell)]))?;
            for (cell, weight, bulb) in arrow.terms() {
                let cell = usize::from(cell);
                let own = range(self.candidates[cell])?;
                let (low, high) = arrow_range(bounds, weight, bulb, own);
                if low > high {
                    return None;
                }
                if (low, high) != own {
                    removed |= self.narrow(cell, (2u32 << (high - 1)) - (1 << (low - 1)))?;
                }
            }
        }
        Some(removed)
    }

    /// Narrows each stale rule of `rules` read whole (a between or lockout line, a window of
    /// digit classes, a clue beside a row or column) to the digits that still fit it ([`WholeRule::keep`]), `stale` its bits:
    /// whether anything went, or `None` on a contradiction.
    fn whole<R: WholeRule>(&mut self, rules: &[R], stale: &[u64]) -> Option<bool> {
        let mut removed = false;
        // Most variants have none: no buffers to clear then.
        if stale.iter().all(|&word| word == 0) {
            return Some(false);
        }
        let (mut candidates, mut kept) = ([0u32; MAX_CELLS], [0u32; MAX_CELLS]);
        for rule in set_bits(stale).map(|number| &rules[number]) {
            let length = rule.cells().len();
            for (digits, &cell) in candidates.iter_mut().zip(rule.cells()) {
                *digits = self.candidates[usize::from(cell)] & !SOLVED;
            }
            if !rule.keep(&candidates[..length], &mut kept[..length]) {
                return None;
            }
            for (&cell, &digits) in rule.cells().iter().zip(&kept) {
                removed |= self.narrow(usize::from(cell), digits)?;
            }
        }
        Some(removed)
    }

    /// Narrows each stale quadruple's cells to what some way of giving each written digit a cell
    /// of its own leaves them ([`sudokud_model::variant::QuadrupleRule::support`], two peers never sharing a digit), and
    /// takes each written digit from the cells outside that see all its places: whether anything
    /// went, or `None` on a contradiction.
    fn quadruples(&mut self) -> Option<bool> {
        let variant = self.variant;
        let mut removed = false;
        let stale = std::mem::take(&mut self.stale.quadruples);
        for rule in set_bits(&stale).map(|number| &variant.quadruples[number]) {
            let candidates = rule.cells.map(|cell| self.candidates[usize::from(cell)] & !SOLVED);
            let apart = |a: usize, b: usize| {
                let other = usize::from(rule.cells[b]);
                variant.peer_set(usize::from(rule.cells[a]))[other / 64] >> (other % 64) & 1 == 1
            };
            let support = rule.support(candidates, |a, b| !apart(a, b));
            for (&cell, &digits) in rule.cells.iter().zip(&support) {
                if digits == 0 {
                    return None;
                }
                removed |= self.narrow(usize::from(cell), digits)?;
            }
            let written = rule.digits.iter().fold(0u32, |set, &digit| set | 1 << (digit - 1));
            removed |= self.required_in(&rule.cells, written)?;
        }
        Some(removed)
    }

    /// Narrows a cage's open cells to the digits of the sets that can still make its sum:
    /// whether anything went, or `None` on a contradiction.
    fn narrow_cage(&mut self, cage: &CageRule) -> Option<bool> {
        let size = self.variant.shape().size() as u32;
        if cage.sum.is_none() {
            return Some(false);
        }
        let (mut placed, mut placed_sum, mut open, mut open_count) = (0u32, 0u32, 0u32, 0u32);
        for &cell in &cage.cells {
            let candidates = self.candidates[usize::from(cell)];
            if candidates & SOLVED != 0 {
                let digit = candidates & !SOLVED;
                placed |= digit;
                placed_sum += digit.trailing_zeros() + 1;
            } else {
                open |= candidates;
                open_count += 1;
            }
        }
        let allowed = cage.open_digits(size, placed, placed_sum, open, open_count)?;
        let mut removed = false;
        for &cell in &cage.cells {
            let cell = usize::from(cell);
            if self.candidates[cell] & SOLVED == 0 {
                removed |= self.narrow(cell, allowed)?;
            }
        }
        let required = cage.required_digits(placed, open & allowed);
        Some(removed | self.required_in(&cage.cells, required)?)
    }

    /// Each digit of `required` must take one of its places among `cage`'s cells (a cage or a
    /// renban line: cells that differ): a lone place holds it, and a cell outside that sees every
    /// place loses it (locked candidates through the cage, as through a house). Halved the
    /// guesses on hard killers. Whether anything went, or `None` when a required digit has no
    /// place.
    fn required_in(&mut self, cage: &[u16], required: u32) -> Option<bool> {
        let variant = self.variant;
        let words = variant.set_words();
        let mut removed = false;
        let mut digits = required;
        while digits != 0 {
            let bit = digits & digits.wrapping_neg();
            digits &= digits - 1;
            let mut seen_by_all = [u64::MAX; MAX_CELLS.div_ceil(64)];
            let (mut places, mut place) = (0, 0);
            for &cell in cage {
                let cell = usize::from(cell);
                let candidates = self.candidates[cell];
                if candidates & bit != 0 {
                    places += 1;
                    place = cell;
                    seen_by_all.iter_mut().zip(variant.peer_set(cell)).for_each(|(common, peers)| *common &= peers);
                }
            }
            // A cell the narrowing above just decided as the digit is its one place too.
            match places {
                0 => return None,
                1 if self.candidates[place] & SOLVED != 0 => {}
                1 => removed |= self.narrow(place, bit)?,
                _ => {
                    for cell in set_bits(&seen_by_all[..words]) {
                        // A cage's own cells see each other; a decided cell is left to its removal.
                        if self.candidates[cell] & SOLVED == 0 && !cage.contains(&(cell as u16)) {
                            removed |= self.remove(cell, bit)?;
                        }
                    }
                }
            }
        }
        Some(removed)
    }

    /// Narrows the open cells of `cells`, whose digits add up to `sum` (an innie or outie group or
    /// a little killer's diagonal, whose digits may repeat), to the digits that leave the others a sum they can make:
    /// whether anything went, or `None` when no digits can make it. The cells from `added` on
    /// are taken away rather than added (a sum difference's outies): their digit d counts as
    /// N + 1 - d, and `sum` includes N + 1 for each. Up to [`EXACT_CELLS`] open cells, exactly;
    /// more, by the least and most the others can make.
    fn bound_sum(&mut self, cells: &[u16], added: usize, sum: u32) -> Option<bool> {
        let size = self.variant.shape().size() as u32;
        // The digits of the cell at `at`, as they count: turned over past `added`.
        let counted = |at: usize, digits: u32| if at < added { digits } else { digits.reverse_bits() >> (32 - size) };
        let (mut left, mut least, mut most) = (sum, 0u32, 0u32);
        let mut open = [(0usize, 0u32); EXACT_CELLS];
        let mut open_count = 0;
        for (at, &cell) in cells.iter().enumerate() {
            let candidates = self.candidates[usize::from(cell)];
            let digits = counted(at, candidates & !SOLVED);
            if candidates & SOLVED != 0 {
                left = left.checked_sub(digits.trailing_zeros() + 1)?;
            } else {
                least += digits.trailing_zeros() + 1;
                most += 32 - digits.leading_zeros();
                if open_count < EXACT_CELLS {
                    open[open_count] = (at, digits);
                }
                open_count += 1;
            }
        }
        if !(least..=most).contains(&left) {
            return None;
        }
        let mut removed = false;
        if open_count <= EXACT_CELLS {
            // Each digit d stays where the other open cells have digits that make left - d.
            for this in 0..open_count {
                let others = open[..open_count].iter().enumerate().filter(|&(other, _)| other != this);
                let reach = others.fold(1u64, |reach, (_, &(_, digits))| sums_with(reach, digits));
                let (at, digits) = open[this];
                let kept = (0..size)
                    .filter(|&digit| digits >> digit & 1 == 1)
                    .filter(|&digit| {
                        left.checked_sub(digit + 1).is_some_and(|rest| rest < 64 && reach >> rest & 1 == 1)
                    })
                    .fold(0, |kept, digit| kept | 1 << digit);
                if kept != digits {
                    removed |= self.narrow(usize::from(cells[at]), counted(at, kept))?;
                    open[this].1 = kept;
                }
            }
            return Some(removed);
        }
        for (at, &cell) in cells.iter().enumerate() {
            let cell = usize::from(cell);
            let candidates = self.candidates[cell];
            if candidates & SOLVED != 0 {
                continue;
            }
            // This cell's digit d needs the others to make left - d, between their least and most.
            let digits = counted(at, candidates);
            let (low, high) = (digits.trailing_zeros() + 1, 32 - digits.leading_zeros());
            let smallest = left.saturating_sub(most - high).max(1);
            let largest = left - (least - low);
            if smallest > low || largest < high {
                let range = (u32::MAX >> (32 - largest.min(32))) & !((1u32 << (smallest - 1)) - 1);
                removed |= self.narrow(cell, counted(at, range & self.full))?;
            }
        }
        Some(removed)
    }

    /// Narrows the open cells of `cells`, whose digits add up to `sum` and repeat only between
    /// cells that do not see each other (a little killer's diagonal), to the digits of some way
    /// to make the sum: whether anything went, or `None` when there is none. The open cells
    /// split into groups of up to [`GROUP_CELLS`] that all see each other (a diagonal's run
    /// through a box), whose digits differ: each group's ways are tried digit by digit, and the
    /// groups combine as sets of sums, grown forwards from 0 and backwards from the sum. Bounds
    /// by least and most sums alone let a 9-cell diagonal's digits range widely for long; its
    /// runs of distinct digits are what pins them (The Barbed Cross, docs/benchmarks.md). A sum
    /// past [`Sums::LIMIT`], by [`Search::bound_sum`].
    fn diagonal_sum(&mut self, cells: &[u16], sum: u32) -> Option<bool> {
        let mut left = sum;
        let mut groups = [[(0usize, 0u32); GROUP_CELLS]; MAX_DIAGONAL];
        let mut group_lengths = [0usize; MAX_DIAGONAL];
        let mut group_count = 0;
        for &cell in cells {
            let cell = usize::from(cell);
            let candidates = self.candidates[cell];
            if candidates & SOLVED != 0 {
                left = left.checked_sub(candidates.trailing_zeros() + 1)?;
                continue;
            }
            let peers = self.variant.peer_set(cell);
            let sees = |&(other, _): &(usize, u32)| peers[other / 64] >> (other % 64) & 1 == 1;
            let joined = (0..group_count).find(|&group| {
                group_lengths[group] < GROUP_CELLS && groups[group][..group_lengths[group]].iter().all(sees)
            });
            let group = joined.unwrap_or_else(|| {
                group_count += 1;
                group_count - 1
            });
            groups[group][group_lengths[group]] = (cell, candidates);
            group_lengths[group] += 1;
        }
        if left >= Sums::LIMIT {
            return self.bound_sum(cells, cells.len(), sum);
        }
        let words = left as usize / 64 + 1;
        let members = |group: usize| &groups[group][..group_lengths[group]];
        // `still_needed[g]`: the sums groups `0..g` must make for groups `g..` to complete `left`.
        let mut still_needed = [Sums::EMPTY; MAX_DIAGONAL + 1];
        still_needed[group_count] = Sums::only(left);
        for group in (0..group_count).rev() {
            let mut totals = 0u128;
            each_way(members(group), &mut |total, _, last| totals |= u128::from(last) << (total + 1));
            still_needed[group] = still_needed[group + 1].minus_each(&Sums::below_128(totals), words);
        }
        if !still_needed[0].contains(0) {
            return None;
        }
        let mut removed = false;
        let mut reached = Sums::only(0);
        for group in 0..group_count {
            // A group's totals are below 128 (GROUP_CELLS digits of at most 25).
            let fitting = still_needed[group + 1].minus_each(&reached, words).first_128();
            let (mut kept, last) = ([0u32; GROUP_CELLS], group_lengths[group] - 1);
            let mut totals = 0u128;
            each_way(members(group), &mut |total, picked, free| {
                let fits = free & (fitting >> (total + 1)) as u32;
                if fits != 0 {
                    totals |= u128::from(fits) << (total + 1);
                    kept.iter_mut().zip(picked).for_each(|(kept, &digit)| *kept |= digit);
                    kept[last] |= fits;
                }
            });
            for (&(cell, candidates), &kept) in members(group).iter().zip(&kept) {
                if kept != candidates & !SOLVED {
                    removed |= self.narrow(cell, kept)?;
                }
            }
            reached = reached.plus_each(&Sums::below_128(totals), words);
        }
        Some(removed)
    }

    /// The guess to make: an undecided cell with the fewest candidates and one of its digits
    /// (the first of each, or on a restart one at random).
    fn choose(&mut self) -> (usize, u32) {
        if self.branching == Branch::Conflicts {
            return self.choose_by_conflicts();
        }
        let (mut best, mut fewest, mut ties, mut most_linked) = (usize::MAX, u32::MAX, 0u64, 0usize);
        for (cell, &candidates) in self.candidates[..self.cells].iter().enumerate() {
            if candidates & SOLVED != 0 {
                continue;
            }
            let count = candidates.count_ones();
            if count > fewest {
                continue;
            }
            if let Some(random) = &mut self.random {
                if count < fewest {
                    (best, fewest, ties) = (cell, count, 1);
                } else {
                    // Reservoir sampling: each of the tied cells ends up chosen with equal chance.
                    ties += 1;
                    if random.next_u64() % ties == 0 {
                        best = cell;
                    }
                }
                continue;
            }
            // Among the fewest, the cell whose guess reaches the most undecided cells: peers that
            // share a candidate, and related pairs (the degree rule of constraint solvers).
            let linked = self.linked(cell, candidates);
            if count < fewest || linked > most_linked {
                (best, fewest, most_linked) = (cell, count, linked);
            }
        }
        let mut candidates = self.candidates[best];
        if let Some(random) = &mut self.random {
            for _ in 0..random.below(candidates.count_ones() as usize) {
                candidates &= candidates - 1;
            }
        }
        (best, candidates & candidates.wrapping_neg())
    }

    /// [`Branch::Conflicts`]: the undecided cell of the highest score per candidate, the first of
    /// those tied (on a restart one at random), and its first digit.
    fn choose_by_conflicts(&mut self) -> (usize, u32) {
        let (mut best, mut best_score, mut best_count, mut ties) = (usize::MAX, 0u64, 1u64, 0u64);
        for (cell, &candidates) in self.candidates[..self.cells].iter().enumerate() {
            if candidates & SOLVED != 0 {
                continue;
            }
            let (score, count) = (u64::from(self.scores[cell]), u64::from(candidates.count_ones()));
            // score / count against best_score / best_count, without dividing.
            let (this, that) = (score * best_count, best_score * count);
            if best == usize::MAX || this > that {
                (best, best_score, best_count, ties) = (cell, score, count, 1);
            } else if this == that
                && let Some(random) = &mut self.random
            {
                ties += 1;
                if random.next_u64() % ties == 0 {
                    (best, best_score, best_count) = (cell, score, count);
                }
            }
        }
        let candidates = self.candidates[best];
        (best, candidates & candidates.wrapping_neg())
    }

    /// The undecided peers of `cell` that share one of `candidates`, and the cell's related pairs.
    fn linked(&self, cell: usize, candidates: u32) -> usize {
        let peers = self.variant.peers(cell).iter().map(|&peer| self.candidates[usize::from(peer)]);
        peers.filter(|&peer| peer & SOLVED == 0 && peer & candidates != 0).count() + self.variant.pairs_of(cell).len()
    }
}

impl<I: Interrupt> Branching for Search<'_, '_, I> {
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
        let consistent = Search::propagate(self);
        if let Some(cell) = self.guessed_cell.take()
            && !consistent
        {
            self.scores[cell] += 1;
            self.until_decay -= 1;
            if self.until_decay == 0 {
                self.until_decay = DECAY_INTERVAL;
                self.scores[..self.cells].iter_mut().for_each(|score| *score >>= 1);
            }
        }
        consistent
    }

    fn choose(&mut self) -> (usize, u32) {
        Search::choose(self)
    }

    fn place(&mut self, cell: usize, bit: u32) {
        self.guessed_cell = Some(cell);
        Search::place(self, cell, bit);
    }

    fn resume_without(&mut self, cell: usize, bit: u32) {
        self.pending_len = 0;
        // The saved state was narrowed to the end: only the guessed cell changes.
        self.dirty = [0; MAX_HOUSES / 64];
        self.unlocked = [0; MAX_HOUSES / 64];
        self.changed = [0; MAX_CELLS.div_ceil(64)];
        self.stale = Stale::default();
        self.guessed_cell = Some(cell);
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
        self.guesses += 1;
        after_guess(self.guesses, self.solutions, self.allowance, &mut *self.interrupt)
    }
}

/// Open cells of a sum [`Search::bound_sum`] narrows exactly rather than by bounds: few enough
/// that the sums the others can make fit a word, and the common end of a sum. Three measured
/// best on hard killers (guesses and time, against two and four).
const EXACT_CELLS: usize = 3;

/// The sums `reach` (bit s for the sum s) extended by one more cell holding one of `digits`.
fn sums_with(reach: u64, digits: u32) -> u64 {
    (0..32).filter(|&digit| digits >> digit & 1 == 1).fold(0, |sums, digit| sums | reach << (digit + 1))
}

/// Most cells of a diagonal: a 25x25 grid's.
const MAX_DIAGONAL: usize = 25;

/// Most cells of a group [`Search::diagonal_sum`] tries way by way: a 9x9 diagonal's run through
/// a box.
const GROUP_CELLS: usize = 3;

// A group's totals are sets of sums below 128 (`u128`), on every size up to 25x25.
const _: () = assert!(GROUP_CELLS * 25 < 128);

/// Calls `visit` with the total and the digits (one bit each) of every way to give the cells of
/// `group` (cell, candidates) but the last different digits among their candidates, and with
/// the last cell's candidates left beside them (maybe none). The last cell's digits come as one
/// mask rather than one visit each: a 9x9 run of three cells is at most 9 x 8 visits, not
/// 9 x 8 x 7 (The Barbed Cross spent 40 % of its time here visiting way by way).
fn each_way(group: &[(usize, u32)], visit: &mut impl FnMut(u32, &[u32], u32)) {
    fn next(
        group: &[(usize, u32)],
        at: usize,
        used: u32,
        total: u32,
        picked: &mut [u32; GROUP_CELLS],
        visit: &mut impl FnMut(u32, &[u32], u32),
    ) {
        let free = group[at].1 & !SOLVED & !used;
        if at + 1 == group.len() {
            return visit(total, &picked[..at], free);
        }
        let mut digits = free;
        while digits != 0 {
            let digit = digits & digits.wrapping_neg();
            digits &= digits - 1;
            picked[at] = digit;
            next(group, at + 1, used | digit, total + digit.trailing_zeros() + 1, picked, visit);
        }
    }
    next(group, 0, 0, 0, &mut [0; GROUP_CELLS], visit);
}

/// A set of sums below [`Sums::LIMIT`], bit s for the sum s: enough for a 25x25 diagonal's.
/// Operations read only the first `words` words, those that hold the sums in play.
#[derive(Clone, Copy)]
struct Sums([u64; Sums::WORDS]);

impl Sums {
    const WORDS: usize = 10;
    const LIMIT: u32 = 64 * Self::WORDS as u32;
    const EMPTY: Sums = Sums([0; Self::WORDS]);

    fn only(sum: u32) -> Sums {
        let mut sums = Sums::EMPTY;
        sums.insert(sum);
        sums
    }

    /// The sums below 128 of `sums`, bit s for the sum s.
    fn below_128(sums: u128) -> Sums {
        let mut words = Sums::EMPTY;
        words.0[..2].copy_from_slice(&[sums as u64, (sums >> 64) as u64]);
        words
    }

    /// The sums below 128, bit s for the sum s.
    fn first_128(&self) -> u128 {
        u128::from(self.0[0]) | u128::from(self.0[1]) << 64
    }

    fn insert(&mut self, sum: u32) {
        self.0[sum as usize / 64] |= 1 << (sum % 64);
    }

    fn contains(&self, sum: u32) -> bool {
        self.0[sum as usize / 64] >> (sum % 64) & 1 == 1
    }

    fn each(&self) -> impl Iterator<Item = u32> + '_ {
        set_bits(&self.0).map(|sum| sum as u32)
    }

    /// The sums a + b, a of these and b of `other`, below `words` words.
    fn plus_each(&self, other: &Sums, words: usize) -> Sums {
        let mut union = Sums::EMPTY;
        for by in other.each() {
            let (skip, bits) = (by as usize / 64, by % 64);
            for word in skip..words {
                let from = word - skip;
                let carried = if bits == 0 || from == 0 { 0 } else { self.0[from - 1] >> (64 - bits) };
                union.0[word] |= self.0[from] << bits | carried;
            }
        }
        union
    }

    /// The sums a - b, a of these and b of `other`, at least 0.
    fn minus_each(&self, other: &Sums, words: usize) -> Sums {
        let mut union = Sums::EMPTY;
        for by in other.each() {
            let (skip, bits) = (by as usize / 64, by % 64);
            for word in 0..words.saturating_sub(skip) {
                let from = word + skip;
                let carried = if bits == 0 || from + 1 >= words { 0 } else { self.0[from + 1] << (64 - bits) };
                union.0[word] |= self.0[from] >> bits | carried;
            }
        }
        union
    }
}

/// Sets bit `index` of a bit set kept in words.
#[inline]
fn mark(words: &mut [u64], index: usize) {
    words[index / 64] |= 1 << (index % 64);
}

/// The set bits of a bit set kept in words, smallest first.
#[inline]
fn set_bits(words: &[u64]) -> impl Iterator<Item = usize> + '_ {
    words.iter().enumerate().flat_map(|(index, &word)| {
        let mut word = word;
        std::iter::from_fn(move || {
            (word != 0).then(|| {
                let bit = word.trailing_zeros() as usize;
                word &= word - 1;
                64 * index + bit
            })
        })
    })
}

/// Sets the first `count` bits of `words`, clears the rest.
fn fill_first(words: &mut [u64], count: usize) {
    for (index, word) in words.iter_mut().enumerate() {
        let bits = count.saturating_sub(64 * index).min(64);
        *word = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::{Never, PollBudget};
    use crate::random::SplitMix64;
    use crate::sizes::Shape;
    use crate::variants::{
        Between, Cage, Constraints, CustomRelation, Diagonals, DigitPair, Direction, End, GreaterThan, Kropki,
        LittleKiller, LockoutLine, Place, Quadruple, Regions, Sandwich, Whispers, XSum, Xv,
    };

    /// [`Sums`]' sums and differences of sets against adding every pair, across words.
    #[test]
    fn sums_add_and_take_away_as_sets_do() {
        let mut random = SplitMix64(25);
        for _ in 0..500 {
            let pick = |random: &mut SplitMix64, count: usize, below: usize| {
                let values: Vec<u32> = (0..count).map(|_| random.below(below) as u32).collect();
                let mut sums = Sums::EMPTY;
                values.iter().for_each(|&value| sums.insert(value));
                (values, sums)
            };
            let (these, these_sums) = pick(&mut random, 6, 400);
            let (others, others_sums) = pick(&mut random, 4, 200);
            let words = 1 + random.below(Sums::WORDS);
            let limit = 64 * words as u32;
            let added: std::collections::BTreeSet<u32> =
                these.iter().flat_map(|a| others.iter().map(move |b| a + b)).filter(|&sum| sum < limit).collect();
            let taken: std::collections::BTreeSet<u32> = these
                .iter()
                .filter(|&&a| a < limit)
                .flat_map(|&a| others.iter().filter_map(move |&b| a.checked_sub(b)))
                .collect();
            assert_eq!(
                these_sums.plus_each(&others_sums, words).each().collect::<std::collections::BTreeSet<_>>(),
                added
            );
            assert_eq!(
                these_sums.minus_each(&others_sums, words).each().collect::<std::collections::BTreeSet<_>>(),
                taken
            );
        }
    }

    /// [`each_way`] gives the cells of a group different digits, every way once.
    #[test]
    fn each_way_tries_every_way_of_different_digits_once() {
        let group = [(0, 0b111), (1, 0b110), (2, 0b1_0011)];
        let mut ways = Vec::new();
        each_way(&group, &mut |total, picked, mut last| {
            while last != 0 {
                let digit = last & last.wrapping_neg();
                last &= last - 1;
                ways.push((total + digit.trailing_zeros() + 1, [picked, &[digit]].concat()));
            }
        });
        // 1 2 5, 2 3 1, 2 3 5, 1 3 2, 1 3 5, 3 2 1, 3 2 5
        let mut expected = vec![
            (8, vec![1, 2, 16]),
            (6, vec![2, 4, 1]),
            (10, vec![2, 4, 16]),
            (6, vec![1, 4, 2]),
            (9, vec![1, 4, 16]),
            (6, vec![4, 2, 1]),
            (10, vec![4, 2, 16]),
        ];
        expected.sort();
        ways.sort();
        assert_eq!(ways, expected);
    }

    /// Whether any rule of `constraints` is broken among the filled cells, read straight from
    /// the constraints with nothing shared with [`Variant`]: the oracle's rule book.
    fn breaks(shape: Shape, constraints: &Constraints, cells: &[u8]) -> bool {
        let size = shape.size();
        let at = |place: &Place| place.0 as usize * size + place.1 as usize;
        let value = |cell: usize| i32::from(cells[cell]);
        let repeats = |group: &[usize]| {
            group
                .iter()
                .enumerate()
                .any(|(i, &a)| group[i + 1..].iter().any(|&b| value(a) != 0 && value(a) == value(b)))
        };
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for line in 0..size {
            groups.push((0..size).map(|col| line * size + col).collect());
            groups.push((0..size).map(|row| row * size + line).collect());
        }
        match &constraints.regions {
            Some(Regions::Rows(rows)) => {
                let ids: Vec<u64> = rows.iter().flatten().map(|id| id.0).collect();
                for id in 0..size as u64 {
                    groups.push((0..size * size).filter(|&cell| ids[cell] == id).collect());
                }
            }
            _ => {
                for number in 0..size {
                    groups.push(
                        (0..size * size).filter(|&cell| shape.box_of(cell / size, cell % size) == number).collect(),
                    );
                }
            }
        }
        if constraints.disjoint_groups {
            // The cells whose row and column leave the same remainders by the box's sides.
            let place = |cell: usize| (cell / size % shape.box_rows(), cell % size % shape.box_cols());
            for first in 0..size {
                let at = place(first / shape.box_cols() * size + first % shape.box_cols());
                groups.push((0..size * size).filter(|&cell| place(cell) == at).collect());
            }
        }
        if matches!(constraints.diagonals, Some(Diagonals::Main | Diagonals::Both)) {
            groups.push((0..size).map(|step| step * size + step).collect());
        }
        if matches!(constraints.diagonals, Some(Diagonals::Anti | Diagonals::Both)) {
            groups.push((0..size).map(|step| step * size + size - 1 - step).collect());
        }
        groups.extend(constraints.extra_regions.iter().map(|region| region.iter().map(at).collect()));
        groups.extend(constraints.cages.iter().map(|cage| cage.cells.iter().map(at).collect()));
        if groups.iter().any(|group| repeats(group)) {
            return true;
        }
        for cage in constraints.cages.iter().filter(|cage| cage.sum.is_some()) {
            let sum = cage.sum.unwrap() as i32;
            let filled: Vec<i32> = cage.cells.iter().map(|place| value(at(place))).collect();
            let total: i32 = filled.iter().sum();
            if total > sum || (filled.iter().all(|&v| v != 0) && total != sum) {
                return true;
            }
        }
        for path in &constraints.thermometers {
            let values: Vec<i32> = path.iter().map(|place| value(at(place))).filter(|&v| v != 0).collect();
            if values.windows(2).any(|pair| pair[0] >= pair[1]) {
                return true;
            }
        }
        for whispers in &constraints.whispers {
            let difference = whispers.difference.map_or(size.div_ceil(2) as i32, |difference| difference as i32);
            let values: Vec<i32> = whispers.line.iter().map(|place| value(at(place))).collect();
            if values.windows(2).any(|pair| pair[0] != 0 && pair[1] != 0 && (pair[0] - pair[1]).abs() < difference) {
                return true;
            }
        }
        for palindrome in &constraints.palindromes {
            let values: Vec<i32> = palindrome.iter().map(|place| value(at(place))).collect();
            if values.iter().zip(values.iter().rev()).any(|(&a, &b)| a != 0 && b != 0 && a != b) {
                return true;
            }
        }
        for renban in &constraints.renbans {
            let values: Vec<i32> = renban.iter().map(|place| value(at(place))).filter(|&v| v != 0).collect();
            let spread = values.iter().max().zip(values.iter().min()).map_or(0, |(high, low)| high - low);
            if repeats(&renban.iter().map(at).collect::<Vec<_>>()) || spread >= renban.len() as i32 {
                return true;
            }
        }
        // A row's or column's digits read from a clue's end.
        let line_of = |row: Option<u64>, column: Option<u64>, from: End| {
            let mut line: Vec<i32> = (0..size)
                .map(|step| match (row, column) {
                    (Some(row), _) => value(row as usize * size + step),
                    (_, Some(column)) => value(step * size + column as usize),
                    _ => unreachable!("a clue names its line"),
                })
                .collect();
            if from == End::End {
                line.reverse();
            }
            line
        };
        for clue in &constraints.x_sums {
            // Once the first digit and as many cells as it says are filled.
            let line = line_of(clue.row, clue.column, clue.from);
            let first = line[0] as usize;
            if first != 0
                && line[..first].iter().all(|&v| v != 0)
                && line[..first].iter().sum::<i32>() != clue.sum as i32
            {
                return true;
            }
        }
        for clue in &constraints.sandwiches {
            // The row's or column's digits, once its 1 and N and every cell between are filled.
            let line = line_of(clue.row, clue.column, clue.from);
            let one = line.iter().position(|&v| v == 1);
            let top = line.iter().position(|&v| v == size as i32);
            if let (Some(one), Some(top)) = (one, top) {
                let between = &line[one.min(top) + 1..one.max(top)];
                if between.iter().all(|&v| v != 0) && between.iter().sum::<i32>() != clue.sum as i32 {
                    return true;
                }
            }
        }
        for clue in &constraints.little_killers {
            let digits: Vec<i32> = clue.cells(size).iter().map(|place| value(at(place))).collect();
            let total: i32 = digits.iter().sum();
            if total > clue.sum as i32 || (digits.iter().all(|&v| v != 0) && total != clue.sum as i32) {
                return true;
            }
        }
        for line in &constraints.between_lines {
            let values: Vec<i32> = line.iter().map(|place| value(at(place))).collect();
            let (first, last) = (values[0], values[values.len() - 1]);
            let (low, high) = (first.min(last), first.max(last));
            let inside = &values[1..values.len() - 1];
            if low != 0 && inside.iter().any(|&digit| digit != 0 && (digit <= low || digit >= high)) {
                return true;
            }
        }
        for lockout in &constraints.lockout_lines {
            let values: Vec<i32> = lockout.line.iter().map(|place| value(at(place))).collect();
            let (first, last) = (values[0], values[values.len() - 1]);
            let (low, high) = (first.min(last), first.max(last));
            let difference = lockout.difference.unwrap_or(size as u64 / 2) as i32;
            let inside = &values[1..values.len() - 1];
            if low != 0
                && (high - low < difference || inside.iter().any(|&digit| digit != 0 && low <= digit && digit <= high))
            {
                return true;
            }
        }
        for arrow in &constraints.arrows {
            let bulb: Vec<i32> = arrow.bulb.iter().map(|place| value(at(place))).collect();
            let shaft: Vec<i32> = arrow.line.iter().map(|place| value(at(place))).collect();
            let number = bulb.iter().fold(0, |number, &digit| 10 * number + digit);
            if bulb.iter().chain(&shaft).all(|&v| v != 0) && number != shaft.iter().sum::<i32>() {
                return true;
            }
        }
        for quadruple in &constraints.quadruples {
            let Place(row, col) = quadruple.top_left;
            let mut left: Vec<i32> = [(0, 0), (0, 1), (1, 0), (1, 1)]
                .map(|(down, right)| value(at(&Place(row + down, col + right))))
                .to_vec();
            let empty = left.iter().filter(|&&v| v == 0).count();
            // Each written digit takes a filled cell holding it, or else needs an empty one.
            let mut short = 0;
            for &digit in &quadruple.digits {
                match left.iter().position(|&v| v == digit as i32) {
                    Some(found) => left[found] = -1,
                    None => short += 1,
                }
            }
            if short > empty {
                return true;
            }
        }
        // Digit classes: thirds (low, middle, high) or residues mod 3; a window of n cells needs
        // min(n, 3) classes among its digits, which its filled cells' classes and one class per
        // empty cell must reach.
        let third = (size / 3).max(1) as i32;
        let thirds = |digit: i32| (digit - 1) / third;
        let residues = |digit: i32| digit % 3;
        let short_of_classes = |window: &[usize], class: &dyn Fn(i32) -> i32| {
            let filled: Vec<i32> = window.iter().map(|&cell| value(cell)).filter(|&v| v != 0).collect();
            let mut classes: Vec<i32> = filled.iter().map(|&digit| class(digit)).collect();
            classes.sort_unstable();
            classes.dedup();
            classes.len() + window.len() - filled.len() < window.len().min(3)
        };
        for (lines, class) in
            [(&constraints.modular_lines, &residues as &dyn Fn(i32) -> i32), (&constraints.entropic_lines, &thirds)]
        {
            for line in lines {
                let cells: Vec<usize> = line.iter().map(at).collect();
                if cells.windows(cells.len().min(3)).any(|window| short_of_classes(window, class)) {
                    return true;
                }
            }
        }
        // Global entropy and global mod: every 2x2 square is such a window.
        for (on, class) in
            [(constraints.global_mod, &residues as &dyn Fn(i32) -> i32), (constraints.global_entropy, &thirds)]
        {
            for top_left in (0..size * size).filter(|cell| cell / size + 1 < size && cell % size + 1 < size) {
                let square = [top_left, top_left + 1, top_left + size, top_left + size + 1];
                if on && short_of_classes(&square, class) {
                    return true;
                }
            }
        }
        let dot = |places: &[Place; 2]| (value(at(&places[0])), value(at(&places[1])));
        let consecutive = |a: i32, b: i32| (a - b).abs() == 1;
        let double = |a: i32, b: i32| a == 2 * b || b == 2 * a;
        for (a, b) in constraints.kropki.white.iter().map(dot) {
            if a != 0 && b != 0 && !consecutive(a, b) {
                return true;
            }
        }
        for (a, b) in constraints.kropki.black.iter().map(dot) {
            if a != 0 && b != 0 && !double(a, b) {
                return true;
            }
        }
        for (marks, sum) in [(&constraints.xv.x, 10), (&constraints.xv.v, 5)] {
            if marks.iter().map(dot).any(|(a, b)| a != 0 && b != 0 && a + b != sum) {
                return true;
            }
        }
        let sign = |sign: &GreaterThan| (value(at(&sign.greater)), value(at(&sign.less)));
        if constraints.greater_than.iter().map(sign).any(|(greater, less)| less != 0 && greater != 0 && greater <= less)
        {
            return true;
        }
        for (first, second) in (0..size * size).flat_map(|a| (0..size * size).map(move |b| (a, b))) {
            let (a, b) = (value(first), value(second));
            if a == 0 || b == 0 || first >= second {
                continue;
            }
            let rows = (first / size).abs_diff(second / size);
            let cols = (first % size).abs_diff(second % size);
            let (near, far) = (rows.min(cols), rows.max(cols));
            if a == b
                && ((constraints.anti_knight && (near, far) == (1, 2))
                    || (constraints.anti_king && (near, far) == (1, 1))
                    || (constraints.anti_taxicab && (rows + cols) as i32 == a))
            {
                return true;
            }
            if (near, far) == (0, 1) {
                if constraints.non_consecutive && consecutive(a, b) {
                    return true;
                }
                let pair = [
                    Place((first / size) as u64, (first % size) as u64),
                    Place((second / size) as u64, (second % size) as u64),
                ];
                let dotted = |dots: &[[Place; 2]]| dots.iter().any(|dot| *dot == pair || *dot == [pair[1], pair[0]]);
                let has_dot = dotted(&constraints.kropki.white) || dotted(&constraints.kropki.black);
                if constraints.kropki.all_given && !has_dot && (consecutive(a, b) || double(a, b)) {
                    return true;
                }
                let has_mark = dotted(&constraints.xv.x) || dotted(&constraints.xv.v);
                if constraints.xv.all_given && !has_mark && (a + b == 10 || a + b == 5) {
                    return true;
                }
            }
        }
        // A custom relation's two cells hold a pair its table lacks.
        for relation in &constraints.relations {
            for (first, second) in relation.pairs() {
                let (a, b) = (value(at(&relation.cells[first])), value(at(&relation.cells[second])));
                if a != 0 && b != 0 && !relation.allowed.contains(&DigitPair(a as u64, b as u64)) {
                    return true;
                }
            }
        }
        let parity = |places: &[Place], remainder: i32| {
            places.iter().map(|place| value(at(place))).any(|value| value != 0 && value % 2 == remainder)
        };
        parity(&constraints.even, 1) || parity(&constraints.odd, 0)
    }

    /// Solutions up to `limit` by trying every digit in the first empty cell.
    fn naive_count(shape: Shape, constraints: &Constraints, cells: &mut Vec<u8>, limit: usize) -> usize {
        if breaks(shape, constraints, cells) {
            return 0;
        }
        let Some(empty) = cells.iter().position(|&value| value == 0) else { return 1 };
        let mut found = 0;
        for value in 1..=shape.size() as u8 {
            cells[empty] = value;
            found += naive_count(shape, constraints, cells, limit - found);
            if found >= limit {
                break;
            }
        }
        cells[empty] = 0;
        found
    }

    /// Random constraints of every kind for a grid of `shape`; about half of the kinds each time.
    fn random_constraints(shape: Shape, random: &mut SplitMix64) -> Constraints {
        let size = shape.size();
        let place = |random: &mut SplitMix64| Place(random.below(size) as u64, random.below(size) as u64);
        let mut c = Constraints::default();
        let coin = |random: &mut SplitMix64| random.below(3) == 0;
        if coin(random) {
            c.diagonals = Some([Diagonals::Main, Diagonals::Anti, Diagonals::Both][random.below(3)]);
        }
        if coin(random) {
            let mut cells: Vec<u64> = (0..(size * size) as u64).collect();
            random.shuffle(&mut cells);
            let mut ids = vec![0u64; size * size];
            for (order, &cell) in cells.iter().enumerate() {
                ids[cell as usize] = (order / size) as u64;
            }
            c.regions = Some(Regions::Rows(
                ids.chunks(size).map(|row| row.iter().map(|&id| super::super::RegionId(id)).collect()).collect(),
            ));
        }
        (c.anti_knight, c.anti_king, c.non_consecutive) = (coin(random), coin(random), random.below(6) == 0);
        // Jigsaws have no disjoint groups: tried sometimes, to be refused.
        c.disjoint_groups = random.below(6) == 0 && (c.regions.is_none() || random.below(4) == 0);
        let walk = |random: &mut SplitMix64, length: usize, diagonal: bool| {
            let mut path = vec![place(random)];
            while path.len() < length {
                let Place(row, col) = *path.last().unwrap();
                let (down, right) = match random.below(if diagonal { 8 } else { 4 }) {
                    0 => (1, 0),
                    1 => (-1, 0),
                    2 => (0, 1),
                    3 => (0, -1),
                    4 => (1, 1),
                    5 => (1, -1),
                    6 => (-1, 1),
                    _ => (-1, -1),
                };
                let (row, col) = (row as i64 + down, col as i64 + right);
                let next = Place(row as u64, col as u64);
                if (0..size as i64).contains(&row) && (0..size as i64).contains(&col) && !path.contains(&next) {
                    path.push(next);
                } else {
                    break;
                }
            }
            path
        };
        for _ in 0..random.below(3) {
            let length = 2 + random.below(3);
            let cells = walk(random, length, false);
            let (smallest, largest) =
                (cells.len() * (cells.len() + 1) / 2, cells.len() * (2 * size + 1 - cells.len()) / 2);
            let sum = (random.below(3) > 0).then(|| (smallest + random.below(largest - smallest + 1)) as u64);
            c.cages.push(Cage { cells, sum });
        }
        for _ in 0..random.below(2) {
            let length = 2 + random.below(3);
            c.thermometers.push(walk(random, length, true));
        }
        let mut kropki = Kropki::default();
        for _ in 0..random.below(3) {
            let pair = walk(random, 2, false);
            if let [first, second] = pair[..] {
                if random.below(2) == 0 {
                    kropki.white.push([first, second])
                } else {
                    kropki.black.push([first, second])
                }
            }
        }
        kropki.all_given = random.below(8) == 0;
        c.kropki = kropki;
        c.xv = random_marks(shape, random, |random| walk(random, 2, false));
        for _ in 0..random.below(2) {
            if let [greater, less] = walk(random, 2, false)[..] {
                c.greater_than.push(GreaterThan { greater, less });
            }
        }
        if random.below(3) == 0 {
            let length = 2 + random.below(3);
            let line = walk(random, length, true);
            let difference = (random.below(2) == 0).then(|| 1 + random.below(size - 1) as u64);
            c.whispers.push(Whispers { line, difference });
        }
        if random.below(4) == 0 {
            let length = 2 + random.below(3);
            c.palindromes.push(walk(random, length, true));
        }
        if random.below(3) == 0 {
            let length = 2 + random.below(3);
            c.renbans.push(walk(random, length, true));
        }
        if random.below(4) == 0 {
            let length = 3 + random.below(2);
            c.between_lines.push(walk(random, length, true));
        }
        if random.below(4) == 0 {
            // A bulb and a shaft of one or two cells, walked as one line.
            let length = 2 + random.below(2);
            let mut cells = walk(random, length, true);
            let shaft = cells.split_off(1);
            c.arrows.push(crate::variants::Arrow { bulb: cells, line: shaft });
        }
        if random.below(3) == 0 {
            // A clue from a random edge cell, pointing into the grid, of a sum its cells reach.
            let (edge, last) = (random.below(size) as u64, size as u64 - 1);
            let (start, direction) = [
                (Place(0, edge), Direction::DownLeft),
                (Place(0, edge), Direction::DownRight),
                (Place(last, edge), Direction::UpLeft),
                (Place(last, edge), Direction::UpRight),
            ][random.below(4)];
            let length = LittleKiller { sum: 0, start, direction }.cells(size).len();
            let sum = (length + random.below(length * (size - 1) + 1)) as u64;
            c.little_killers.push(LittleKiller { sum, start, direction });
        }
        if random.below(4) == 0 {
            // A sandwich of any line, of any sum its digits between reach or one past them.
            let line = Some(random.below(size) as u64);
            let (row, column) = if random.below(2) == 0 { (line, None) } else { (None, line) };
            let sum = random.below(size * (size + 1) / 2 - size) as u64;
            let from = [End::Start, End::End][random.below(2)];
            c.sandwiches.push(Sandwich { sum, row, column, from });
        }
        if random.below(8) == 0 {
            // An X-sum of any line, of any sum up to all its digits'.
            let line = Some(random.below(size) as u64);
            let (row, column) = if random.below(2) == 0 { (line, None) } else { (None, line) };
            let sum = 1 + random.below(size * (size + 1) / 2) as u64;
            let from = [End::Start, End::End][random.below(2)];
            c.x_sums.push(XSum { sum, row, column, from });
        }
        for _ in 0..random.below(3) {
            let cell = place(random);
            if random.below(2) == 0 { c.even.push(cell) } else { c.odd.push(cell) }
        }
        if random.below(4) == 0 {
            // One or two digits on a corner: some written twice, which only a corner of four
            // boxes takes.
            let mut corner = || random.below(size - 1) as u64;
            let top_left = Place(corner(), corner());
            let digits = (0..1 + random.below(2)).map(|_| 1 + random.below(size) as u64).collect();
            c.quadruples.push(Quadruple { top_left, digits });
        }
        if random.below(4) == 0 {
            let length = 2 + random.below(3);
            let line = walk(random, length, true);
            let difference = (random.below(2) == 0).then(|| 1 + random.below(size - 1) as u64);
            c.lockout_lines.push(LockoutLine { line, difference });
        }
        c.anti_taxicab = random.below(8) == 0;
        c.odd.retain(|cell| !c.even.contains(cell));
        c
    }

    /// Up to two X or V marks between neighbours that `pair` draws (an X only where digits reach
    /// 10), every mark given one time in eight.
    fn random_marks(shape: Shape, random: &mut SplitMix64, pair: impl Fn(&mut SplitMix64) -> Vec<Place>) -> Xv {
        let mut xv = Xv::default();
        for _ in 0..random.below(3) {
            if let [first, second] = pair(random)[..] {
                if shape.size() >= 6 && random.below(2) == 0 {
                    xv.x.push([first, second])
                } else {
                    xv.v.push([first, second])
                }
            }
        }
        xv.all_given = random.below(8) == 0;
        xv
    }

    #[test]
    fn counts_agree_with_a_naive_search_on_random_constraints_of_every_kind() {
        // As families join the draws, more of them have no solution: rather than 10,000 draws,
        // draw until every outcome (none, one, two, more) was met often, up to a bound.
        let mut random = SplitMix64(15);
        let mut counted = [0usize; 4];
        let met_often = |counted: &[usize; 4]| counted.iter().all(|&times| times > 20);
        for draw in 0..100_000 {
            if draw >= 10_000 && met_often(&counted) {
                break;
            }
            let shape = Shape::new(2, 2).unwrap();
            let constraints = random_constraints(shape, &mut random);
            let Ok(variant) = Variant::new(shape, None, &constraints) else { continue };
            let mut cells = vec![0u8; shape.cells()];
            for _ in 0..random.below(4) {
                cells[random.below(shape.cells())] = 1 + random.below(shape.size()) as u8;
            }
            let expected = naive_count(shape, &constraints, &mut cells.clone(), 3);
            let grid = Grid::new(shape, cells.clone()).unwrap();
            let count = count_solutions(&grid, &variant, 3, &mut Never).unwrap();
            assert_eq!(count.solutions, expected, "{constraints:?} on {grid}");
            counted[expected] += 1;
            if let Some(first) = count.first {
                assert!(!breaks(shape, &constraints, first.cells()) && first.is_complete(), "{constraints:?}: {first}");
                assert!(cells.iter().zip(first.cells()).all(|(&given, &value)| given == 0 || given == value));
            }
        }
        assert!(met_often(&counted), "{counted:?}");
    }

    /// Killers whose cages tile the grid, where the innie and outie sums narrow the search too:
    /// generated ones, blanked, with one cage's sum sometimes moved by one so that some have no
    /// solution or several.
    #[test]
    fn counts_agree_with_a_naive_search_on_tiled_killers() {
        let shape = Shape::new(2, 2).unwrap();
        let mut random = SplitMix64(3);
        let mut counted = [0usize; 4];
        for seed in 0..300 {
            let made =
                crate::generate::variants::made(shape, super::super::Preset::Killer, crate::logic::Level::Easy, seed);
            let mut constraints = made.constraints;
            if random.below(2) == 0 {
                let cage = random.below(constraints.cages.len());
                let sum = constraints.cages[cage].sum.as_mut().unwrap();
                *sum = if random.below(2) == 0 { *sum + 1 } else { *sum - 1 };
            }
            let Ok(variant) = Variant::new(shape, None, &constraints) else { continue };
            assert!(!variant.sum_groups.is_empty());
            let mut cells = vec![0u8; shape.cells()];
            let expected = naive_count(shape, &constraints, &mut cells, 3);
            let grid = Grid::new(shape, cells).unwrap();
            assert_eq!(count_solutions(&grid, &variant, 3, &mut Never).unwrap().solutions, expected, "{constraints:?}");
            counted[expected] += 1;
        }
        assert!(counted.iter().all(|&times| times > 10), "{counted:?}");
    }

    /// 6x6 non-consecutive puzzles (no 4x4 grid is one): generated minimal ones with givens
    /// taken away or a wrong one added, so that some have several solutions or none.
    #[test]
    fn counts_agree_with_a_naive_search_on_non_consecutive_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let mut random = SplitMix64(5);
        let mut counted = [0usize; 4];
        for seed in 0..24 {
            let made = crate::generate::variants::made(
                shape,
                super::super::Preset::NonConsecutive,
                crate::logic::Level::Extreme,
                seed,
            );
            let mut cells = made.puzzle.cells().to_vec();
            let count = cells.len();
            cells.iter_mut().filter(|_| random.below(2) == 0).for_each(|value| *value = 0);
            if random.below(3) == 0 {
                cells[random.below(count)] = 1 + random.below(6) as u8;
            }
            let expected = naive_count(shape, &made.constraints, &mut cells.clone(), 3);
            let variant = Variant::new(shape, None, &made.constraints).unwrap();
            let grid = Grid::new(shape, cells).unwrap();
            assert_eq!(count_solutions(&grid, &variant, 3, &mut Never).unwrap().solutions, expected, "{grid}");
            counted[expected] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// 6x6 puzzles of marks between neighbours taken from a random solved grid: `start` gives
    /// each its constraints before the marks, `mark` adds what it makes of a pair of neighbours
    /// and their digits in the solution (or nothing); some of the solution's digits are given,
    /// sometimes one wrong, so that some have one solution, several or none.
    fn counts_agree_on_marks_of_6x6_solutions(
        seed: u64,
        start: impl Fn(&mut SplitMix64) -> Constraints,
        mark: impl Fn(&mut SplitMix64, &mut Constraints, [Place; 2], (u8, u8)),
    ) {
        let shape = Shape::new(2, 3).unwrap();
        let size = shape.size();
        let classic = Variant::new(shape, None, &Constraints::default()).unwrap();
        let mut random = SplitMix64(seed);
        let mut counted = [0usize; 4];
        for seed in 0..40 {
            let solution = random_solution(&classic, seed, &mut Never).unwrap().unwrap();
            let value = |cell: usize| solution.cells()[cell];
            let mut constraints = start(&mut random);
            for (first, second) in (0..size * size).flat_map(|cell| [(cell, cell + 1), (cell, cell + size)]) {
                let (row, col) = (first / size, first % size);
                let beside = if second == first + 1 { col + 1 < size } else { row + 1 < size };
                if beside {
                    let pair = [Place(row as u64, col as u64), Place((second / size) as u64, (second % size) as u64)];
                    mark(&mut random, &mut constraints, pair, (value(first), value(second)));
                }
            }
            let mut cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(3) == 0 { value } else { 0 }).collect();
            if random.below(4) == 0 {
                cells[random.below(size * size)] = 1 + random.below(size) as u8;
            }
            counted[checked_count(shape, &constraints, cells).expect("marks of a solution fit")] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// The solutions of `cells` under `constraints`, up to 3, the search's count held to the
    /// naive one's and its first solution checked; `None` when the constraints do not fit.
    fn checked_count(shape: Shape, constraints: &Constraints, cells: Vec<u8>) -> Option<usize> {
        let variant = Variant::new(shape, None, constraints).ok()?;
        let expected = naive_count(shape, constraints, &mut cells.clone(), 3);
        let grid = Grid::new(shape, cells).unwrap();
        let count = count_solutions(&grid, &variant, 3, &mut Never).unwrap();
        assert_eq!(count.solutions, expected, "{constraints:?} on {grid}");
        if let Some(first) = count.first {
            assert!(!breaks(shape, constraints, first.cells()) && first.is_complete(), "{constraints:?}: {first}");
        }
        Some(expected)
    }

    /// 6x6 little killers: clues of a random solved grid from random edge cells, each the sum of
    /// its diagonal (one sometimes off by one), some of its digits as givens; so that some have
    /// one solution, several or none.
    #[test]
    fn counts_agree_with_a_naive_search_on_little_killers_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let size = shape.size();
        let classic = Variant::new(shape, None, &Constraints::default()).unwrap();
        let mut random = SplitMix64(13);
        let mut counted = [0usize; 4];
        for seed in 0..40 {
            let solution = random_solution(&classic, seed, &mut Never).unwrap().unwrap();
            let last = size as u64 - 1;
            let mut constraints = Constraints::default();
            for _ in 0..2 + random.below(5) {
                let edge = random.below(size) as u64;
                let (start, direction) = [
                    (Place(0, edge), Direction::DownLeft),
                    (Place(edge, 0), Direction::DownRight),
                    (Place(last, edge), Direction::UpRight),
                    (Place(edge, last), Direction::UpLeft),
                ][random.below(4)];
                let clue = LittleKiller { sum: 0, start, direction };
                let sum = clue
                    .cells(size)
                    .iter()
                    .map(|place| u64::from(solution.cells()[place.0 as usize * size + place.1 as usize]))
                    .sum::<u64>();
                constraints.little_killers.push(LittleKiller { sum, ..clue });
            }
            if random.below(4) == 0 {
                constraints.little_killers[0].sum += 1;
            }
            let cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(3) == 0 { value } else { 0 }).collect();
            // A sum moved past what its cells can make is refused.
            let Some(count) = checked_count(shape, &constraints, cells) else { continue };
            counted[count] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// 6x6 between lines: walks through a random solved grid whose ends' digits hold every digit
    /// between them along the walk (now and then one taken whatever it holds, so that some have no
    /// solution), half the solution's digits as givens; so that some have one solution,
    /// several or none.
    #[test]
    fn counts_agree_with_a_naive_search_on_between_lines_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let size = shape.size();
        let classic = Variant::new(shape, None, &Constraints::default()).unwrap();
        let mut random = SplitMix64(17);
        let mut counted = [0usize; 4];
        for seed in 0..40 {
            let solution = random_solution(&classic, seed, &mut Never).unwrap().unwrap();
            let digit = |place: &Place| solution.cells()[place.0 as usize * size + place.1 as usize];
            let mut constraints = Constraints::default();
            while constraints.between_lines.len() < 2 + random.below(3) {
                let length = 3 + random.below(3);
                let line = random_walk(shape, &mut random, length);
                let (first, last) = (digit(&line[0]), digit(&line[line.len() - 1]));
                let (low, high) = (first.min(last), first.max(last));
                let between = line[1..line.len() - 1].iter().all(|place| (low + 1..high).contains(&digit(place)));
                if line.len() >= 3 && (between || random.below(12) == 0) {
                    constraints.between_lines.push(line);
                }
            }
            let cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(2) == 0 { value } else { 0 }).collect();
            counted[checked_count(shape, &constraints, cells).expect("lines of a solution fit")] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// 6x6 clues beside rows and columns: `add` puts the clue of a random solved grid's random
    /// row or column, read from a random end (its digits from there), into the constraints, and
    /// `nudge` sometimes moves the first off by one; some of the grid's digits as givens; so that
    /// some have one solution, several or none.
    fn counts_agree_on_outside_clues_of_6x6_solutions(
        seed: u64,
        add: impl Fn(&mut Constraints, &[u8], Option<u64>, Option<u64>, End),
        nudge: impl Fn(&mut Constraints),
    ) {
        let shape = Shape::new(2, 3).unwrap();
        let size = shape.size();
        let classic = Variant::new(shape, None, &Constraints::default()).unwrap();
        let mut random = SplitMix64(seed);
        let mut counted = [0usize; 4];
        for seed in 0..40 {
            let solution = random_solution(&classic, seed, &mut Never).unwrap().unwrap();
            let mut constraints = Constraints::default();
            for _ in 0..2 + random.below(5) {
                let line = random.below(size);
                let is_row = random.below(2) == 0;
                let mut digits: Vec<u8> = (0..size)
                    .map(|step| solution.cells()[if is_row { line * size + step } else { step * size + line }])
                    .collect();
                let from = [End::Start, End::End][random.below(2)];
                if from == End::End {
                    digits.reverse();
                }
                let (row, column) = if is_row { (Some(line as u64), None) } else { (None, Some(line as u64)) };
                add(&mut constraints, &digits, row, column, from);
            }
            if random.below(4) == 0 {
                nudge(&mut constraints);
            }
            let cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(4) == 0 { value } else { 0 }).collect();
            // A clue moved past what its line can make is refused.
            let Some(count) = checked_count(shape, &constraints, cells) else { continue };
            counted[count] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// 6x6 sandwiches of random solved grids.
    #[test]
    fn counts_agree_with_a_naive_search_on_sandwiches_6x6() {
        counts_agree_on_outside_clues_of_6x6_solutions(
            17,
            |constraints, digits, row, column, from| {
                let one = digits.iter().position(|&digit| digit == 1).unwrap();
                let top = digits.iter().position(|&digit| digit as usize == digits.len()).unwrap();
                let sum = digits[one.min(top) + 1..one.max(top)].iter().map(|&digit| u64::from(digit)).sum();
                constraints.sandwiches.push(Sandwich { sum, row, column, from });
            },
            |constraints| constraints.sandwiches[0].sum += 1,
        );
    }

    /// 6x6 X-sums of random solved grids.
    #[test]
    fn counts_agree_with_a_naive_search_on_x_sums_6x6() {
        counts_agree_on_outside_clues_of_6x6_solutions(
            19,
            |constraints, digits, row, column, from| {
                let sum = digits[..usize::from(digits[0])].iter().map(|&digit| u64::from(digit)).sum();
                constraints.x_sums.push(XSum { sum, row, column, from });
            },
            |constraints| constraints.x_sums[0].sum += 1,
        );
    }

    /// 6x6 lockout lines: walks through a random solved grid whose diamonds' digits are far enough
    /// apart and lock out every digit between them along the walk (now and then one taken whatever
    /// it holds, so that some have no solution), half the solution's digits as givens.
    #[test]
    fn counts_agree_with_a_naive_search_on_lockout_lines_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let size = shape.size();
        let classic = Variant::new(shape, None, &Constraints::default()).unwrap();
        let mut random = SplitMix64(23);
        let mut counted = [0usize; 4];
        for seed in 0..40 {
            let solution = random_solution(&classic, seed, &mut Never).unwrap().unwrap();
            let digit = |place: &Place| solution.cells()[place.0 as usize * size + place.1 as usize];
            let mut constraints = Constraints::default();
            while constraints.lockout_lines.len() < 2 + random.below(3) {
                let length = 2 + random.below(4);
                let line = random_walk(shape, &mut random, length);
                if line.len() < 2 {
                    continue;
                }
                let difference = 2 + random.below(2) as u8;
                let (first, last) = (digit(&line[0]), digit(&line[line.len() - 1]));
                let (low, high) = (first.min(last), first.max(last));
                let outside = line[1..line.len() - 1].iter().all(|place| !(low..=high).contains(&digit(place)));
                if (high - low >= difference && outside) || random.below(12) == 0 {
                    let difference = Some(u64::from(difference)).filter(|&difference| difference != 3);
                    constraints.lockout_lines.push(LockoutLine { line, difference });
                }
            }
            let cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(2) == 0 { value } else { 0 }).collect();
            counted[checked_count(shape, &constraints, cells).expect("lines of a solution fit")] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// 6x6 custom relations: groups of any cells of a random solved grid (each cell and the next,
    /// or every two), each table the pairs the solution puts on its cells and a few random ones
    /// (now and then random pairs alone, so that some have no solution), some of the solution's
    /// digits as givens; so that some have one solution, several or none.
    #[test]
    fn counts_agree_with_a_naive_search_on_relations_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let size = shape.size();
        let classic = Variant::new(shape, None, &Constraints::default()).unwrap();
        let mut random = SplitMix64(29);
        let mut counted = [0usize; 4];
        for seed in 0..60 {
            let solution = random_solution(&classic, seed, &mut Never).unwrap().unwrap();
            let digit = |place: &Place| u64::from(solution.cells()[place.0 as usize * size + place.1 as usize]);
            let mut constraints = Constraints::default();
            for _ in 0..1 + random.below(3) {
                let mut cells: Vec<Place> = Vec::new();
                for _ in 0..2 + random.below(3) {
                    let place = Place(random.below(size) as u64, random.below(size) as u64);
                    if !cells.contains(&place) {
                        cells.push(place);
                    }
                }
                if cells.len() < 2 {
                    continue;
                }
                let between = [Between::Neighbours, Between::EveryTwo][random.below(2)];
                let mut relation = CustomRelation { cells, between, allowed: Vec::new(), name: None };
                if random.below(10) != 0 {
                    for (first, second) in relation.pairs() {
                        relation.allowed.push(DigitPair(digit(&relation.cells[first]), digit(&relation.cells[second])));
                    }
                }
                for _ in 0..1 + random.below(4) {
                    let mut random_digit = || 1 + random.below(size) as u64;
                    relation.allowed.push(DigitPair(random_digit(), random_digit()));
                }
                constraints.relations.push(relation);
            }
            let cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(3) == 0 { value } else { 0 }).collect();
            if let Some(count) = checked_count(shape, &constraints, cells) {
                counted[count] += 1;
            }
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// 6x6 modular and entropic lines: walks through a random solved grid every three cells in a
    /// row of which hold three classes (now and then one taken whatever it holds, so that some
    /// have no solution), some of the solution's digits as givens; so that some have one
    /// solution, several or none.
    #[test]
    fn counts_agree_with_a_naive_search_on_modular_and_entropic_lines_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let size = shape.size();
        let classic = Variant::new(shape, None, &Constraints::default()).unwrap();
        let mut random = SplitMix64(23);
        let mut counted = [0usize; 4];
        for seed in 0..60 {
            let solution = random_solution(&classic, seed, &mut Never).unwrap().unwrap();
            let digit = |place: &Place| solution.cells()[place.0 as usize * size + place.1 as usize];
            let mut constraints = Constraints::default();
            let modular = seed % 2 == 0;
            let class = |digit: u8| if modular { digit % 3 } else { (digit - 1) / 2 };
            let mut lines = 0;
            while lines < 2 + random.below(3) {
                let length = 2 + random.below(4);
                let line = random_walk(shape, &mut random, length);
                let fits = line.windows(line.len().min(3)).all(|window| {
                    let mut classes: Vec<u8> = window.iter().map(|place| class(digit(place))).collect();
                    classes.sort_unstable();
                    classes.dedup();
                    classes.len() == window.len()
                });
                if line.len() >= 2 && (fits || random.below(15) == 0) {
                    lines += 1;
                    if modular { constraints.modular_lines.push(line) } else { constraints.entropic_lines.push(line) }
                }
            }
            let cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(2) == 0 { value } else { 0 }).collect();
            counted[checked_count(shape, &constraints, cells).expect("lines of a solution fit")] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// 6x6 global entropy and global mod: some of the digits of a random solved grid under the
    /// rule as givens, now and then one of them changed, so that some have one solution, several
    /// or none.
    #[test]
    fn counts_agree_with_a_naive_search_on_global_entropy_and_mod_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let mut random = SplitMix64(29);
        let mut counted = [0usize; 4];
        for seed in 0..40 {
            let constraints = match seed % 3 {
                0 => Constraints { global_entropy: true, ..Constraints::default() },
                1 => Constraints { global_mod: true, ..Constraints::default() },
                _ => Constraints { global_entropy: true, global_mod: true, ..Constraints::default() },
            };
            let variant = Variant::new(shape, None, &constraints).unwrap();
            let solution = random_solution(&variant, seed, &mut Never).unwrap().expect("6x6 grids keep both rules");
            let mut cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(3) == 0 { value } else { 0 }).collect();
            if random.below(4) == 0 {
                let cell = random.below(shape.cells());
                cells[cell] = 1 + random.below(shape.size()) as u8;
            }
            counted[checked_count(shape, &constraints, cells).expect("6x6 takes both rules")] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// A walk of up to `length` cells from a random cell, each touching the last (side by side or
    /// diagonally), none twice.
    fn random_walk(shape: Shape, random: &mut SplitMix64, length: usize) -> Vec<Place> {
        let size = shape.size() as i64;
        let mut path = vec![Place(random.below(shape.size()) as u64, random.below(shape.size()) as u64)];
        for _ in 0..4 * length {
            if path.len() == length {
                break;
            }
            let Place(row, col) = *path.last().unwrap();
            let (row, col) = (row as i64 + random.below(3) as i64 - 1, col as i64 + random.below(3) as i64 - 1);
            let next = Place(row as u64, col as u64);
            if (0..size).contains(&row) && (0..size).contains(&col) && !path.contains(&next) {
                path.push(next);
            }
        }
        path
    }

    /// 6x6 XV puzzles: every X and V of a random solved grid, or a few of them.
    #[test]
    fn counts_agree_with_a_naive_search_on_xv_6x6() {
        counts_agree_on_marks_of_6x6_solutions(
            11,
            |random| Constraints {
                xv: Xv { all_given: random.below(2) == 0, ..Xv::default() },
                ..Constraints::default()
            },
            |random, constraints, pair, digits| {
                let xv = &mut constraints.xv;
                if xv.all_given || random.below(3) == 0 {
                    match digits.0 + digits.1 {
                        10 => xv.x.push(pair),
                        5 => xv.v.push(pair),
                        _ => {}
                    }
                }
            },
        );
    }

    /// 6x6 greater-than puzzles: a sign between a third of a random solved grid's neighbours.
    #[test]
    fn counts_agree_with_a_naive_search_on_greater_than_signs_6x6() {
        counts_agree_on_marks_of_6x6_solutions(
            13,
            |_| Constraints::default(),
            |random, constraints, [first, second], (a, b)| {
                if random.below(3) == 0 {
                    let (greater, less) = if a > b { (first, second) } else { (second, first) };
                    constraints.greater_than.push(GreaterThan { greater, less });
                }
            },
        );
    }

    /// 6x6 disjoint groups: a third of the digits of random solved grids under the rule as
    /// givens, sometimes one wrong, with diagonals or anti-king beside some.
    #[test]
    fn counts_agree_with_a_naive_search_on_disjoint_groups_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let mut random = SplitMix64(17);
        let mut counted = [0usize; 4];
        for seed in 0..40 {
            let constraints = Constraints {
                disjoint_groups: true,
                diagonals: (random.below(3) == 0).then_some(Diagonals::Both),
                anti_king: random.below(4) == 0,
                ..Constraints::default()
            };
            let variant = Variant::new(shape, None, &constraints).unwrap();
            let Some(solution) = random_solution(&variant, seed, &mut Never).unwrap() else { continue };
            let mut cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(3) == 0 { value } else { 0 }).collect();
            if random.below(4) == 0 {
                cells[random.below(shape.cells())] = 1 + random.below(shape.size()) as u8;
            }
            counted[checked_count(shape, &constraints, cells).expect("the rules fit 6x6")] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// 6x6 anti-taxicab: a third to a fifth of the digits of random solved grids under the rule as
    /// givens, sometimes one wrong, with diagonals or anti-knight beside some.
    #[test]
    fn counts_agree_with_a_naive_search_on_anti_taxicab_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let mut random = SplitMix64(23);
        let mut counted = [0usize; 4];
        for seed in 0..40 {
            let constraints = Constraints {
                anti_taxicab: true,
                diagonals: (random.below(3) == 0).then_some(Diagonals::Both),
                anti_knight: random.below(4) == 0,
                ..Constraints::default()
            };
            let variant = Variant::new(shape, None, &constraints).unwrap();
            let Some(solution) = random_solution(&variant, seed, &mut Never).unwrap() else { continue };
            // The fewer the givens, the likelier several solutions.
            let share = 3 + random.below(3);
            let mut cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(share) == 0 { value } else { 0 }).collect();
            if random.below(4) == 0 {
                cells[random.below(shape.cells())] = 1 + random.below(shape.size()) as u8;
            }
            counted[checked_count(shape, &constraints, cells).expect("the rule fits 6x6")] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    /// 6x6 quadruples: circles on random corners of random solved grids, each with some of the
    /// four digits around it (one sometimes wrong), a few givens; so that some have one
    /// solution, several or none.
    #[test]
    fn counts_agree_with_a_naive_search_on_quadruples_6x6() {
        let shape = Shape::new(2, 3).unwrap();
        let size = shape.size();
        let classic = Variant::new(shape, None, &Constraints::default()).unwrap();
        let mut random = SplitMix64(19);
        let mut counted = [0usize; 4];
        for seed in 0..40 {
            let solution = random_solution(&classic, seed, &mut Never).unwrap().unwrap();
            let mut constraints = Constraints::default();
            for _ in 0..3 + random.below(5) {
                let (row, col) = (random.below(size - 1), random.below(size - 1));
                if constraints.quadruples.iter().any(|quadruple| quadruple.top_left == Place(row as u64, col as u64)) {
                    continue;
                }
                let mut around: Vec<u64> =
                    [0, 1, size, size + 1].map(|step| u64::from(solution.cells()[row * size + col + step])).to_vec();
                random.shuffle(&mut around);
                around.truncate(1 + random.below(4));
                if random.below(8) == 0 {
                    around[0] = 1 + random.below(size) as u64;
                }
                constraints.quadruples.push(Quadruple { top_left: Place(row as u64, col as u64), digits: around });
            }
            let cells: Vec<u8> =
                solution.cells().iter().map(|&value| if random.below(4) == 0 { value } else { 0 }).collect();
            // A digit made twice where no diagonal may repeat it is refused.
            let Some(count) = checked_count(shape, &constraints, cells) else { continue };
            counted[count] += 1;
        }
        assert!(counted[0] > 0 && counted[1] > 0 && counted[2] + counted[3] > 0, "{counted:?}");
    }

    #[test]
    fn the_deadline_stops_a_long_search() {
        let shape = Shape::new(5, 5).unwrap();
        let variant = Variant::new(shape, None, &Constraints { anti_knight: true, ..Constraints::default() }).unwrap();
        let mut budget = PollBudget(1);
        let grid = Grid::empty(shape);
        assert_eq!(count_solutions(&grid, &variant, usize::MAX, &mut budget), Err(Interrupted));
    }
}

//! Conflict-driven clause learning (CDCL) for large grids, specialised to Sudoku.
//!
//! The variables are the (cell, digit) pairs, `cell * N + digit`; literal `2v` says v holds,
//! `2v + 1` that it does not. The rules are never written out as clauses:
//!
//! - At most one per cell and per digit and house (some 750k binary clauses at 25x25): a true
//!   variable makes every variable sharing its cell or its digit in a peer cell false, with that
//!   true variable as the reason (the implicit binary clause).
//! - At least one per cell and per digit and house: a bit set per group of the members not yet
//!   false. When a member goes false its four groups (cell, row, column, box) are checked: an
//!   empty set is a conflict (the clause is the whole group), a single member left is true with
//!   the group as its reason.
//! - Locked candidates as propagation too: when a digit's places left in a house all lie where
//!   it crosses another house, the digit is false in the rest of that other house, the reason
//!   being the first house's members outside the crossing (all false).
//! - Naked and hidden pairs too: two cells of a house left with the same two digits take them
//!   from the rest of the house (the reason: both cells' other digits, all false), and two
//!   digits of a house left in the same two cells take those cells from every other digit (the
//!   reason: both digits' other places in the house). A fifth fewer conflicts on Gecode's
//!   minimal 25x25 puzzles, each a little dearer: 6 % less CPU time over 14 of them.
//!
//! Only learned clauses are stored, in one arena, watched by two literals each (MiniSat). A
//! conflict is analysed to its first unique implication point and the clause minimised
//! recursively (every literal whose reasons lead only to other literals of the clause goes),
//! then by the implicit binary clauses (a false variable that excludes a true one of the clause
//! goes), then shrunk (each lower level's literals replaced by that level's own unique
//! implication point where there is one: clauses a third shorter, Gecode's hardest minimal
//! puzzles 10-30 % faster). Variables are chosen by EVSIDS (activity bumped in every conflict,
//! the bump growing by 1 / 0.99 per conflict), preferring among the 16 most active one of the
//! last two members of a group, and set true, the strong decision here (it falsifies some 90
//! variables): a quarter fewer conflicts than the most active alone. Restarts follow the Luby
//! sequence in units of 32 conflicts; at a restart past a growing threshold, learned clauses of
//! high LBD (how many decision levels they span) are deleted, half of those above 2. Tried and
//! dropped, each no better side by side on Gecode's minimal 25x25 puzzles: saved or false
//! phases, glucose-style restarts, decay 0.8-0.95, Luby units 16-256, look-ahead decisions (half
//! the conflicts, twice the time), probing at level 0, reductions twice as often or half, or
//! deleting three quarters; watching a literal `v false` before `v true` (falsified 24 times
//! less often: half the clause visits, no less time); and for the uniqueness check refuting
//! each other candidate in turn (by fewest candidates or by activity), or deciding the first
//! solution's variables false: as many conflicts as the blocking clause; target phases (the
//! longest conflict-free trail's values, as CaDiCaL's stable mode) and bumping the variables of
//! the learned clause's reasons (CaDiCaL's `bumpreason`), each finding the first solution
//! sooner on some puzzles but the whole count 6-12 % dearer; no restarts in the uniqueness
//! check, or deleting a third at a reduction (3-4 % fewer conflicts, within the noise); a true
//! literal found beside a falsified watch kept as the watch's blocker instead of watched.
//! Whatever the first solution costs, the count ends after about as many conflicts (within
//! 5-10 % on three relabelings of each puzzle): the uniqueness check is a proof that nothing
//! else is left, which costs as much however soon the solution came.
//!
//! Counting: after a solution, a clause that some blank cell differs from it is added (at level 0,
//! where it cannot be a reason yet) and the search goes on, keeping what it learned, until the
//! limit or until the clauses have no model left. The interrupt is polled every
//! `poll_interval` decisions and conflicts together, a few milliseconds at most apart.

use std::cell::RefCell;

use super::grid::Grid;
use super::layout::Layout;
use super::shape::Shape;
use super::solver::Count;
use crate::interrupt::{Interrupt, Interrupted};

/// A reason's kind, in its top two bits: a true peer variable (at most one), a group of which
/// the variable is the last member left (at least one), a clause's arena offset, or none (a
/// decision, a given, a learned unit).
const PEER: u32 = 0;
const GROUP: u32 = 1 << 30;
const CLAUSE: u32 = 2 << 30;
/// Locked candidates: a digit whose places in a house all lie where it crosses another house is
/// false in the rest of that other house; payload `group << 7 | other house`, the reason being
/// the group's members outside the crossing (all false).
const LOCKED: u32 = 3 << 30;
/// Naked pairs, under the peer kind (whose payload, a variable, needs 14 bits): two cells of a
/// house left with the same two digits take them from the rest of the house; payload
/// `cell << 15 | partner << 5 | other digit`, the reason being both cells' other digits (all
/// false).
const NAKED: u32 = 1 << 29;
/// Hidden pairs, under the group kind (whose payload, a group, needs 12 bits): two digits of a
/// house left in the same two cells take those cells from every other digit; payload
/// `house << 15 | digit << 10 | other digit << 5 | a cell's place`, the reason being both
/// digits' other places in the house (all false).
const HIDDEN: u32 = 1 << 29;
const NONE: u32 = u32::MAX;
const KIND: u32 = 3 << 30;
const PAYLOAD: u32 = !KIND;

/// A clause's second header word: its LBD, and flags.
const LBD: u32 = (1 << 29) - 1;
/// Used as a reason or conflict since the last reduction: kept once more.
const USED: u32 = 1 << 29;
/// Not implied by the rules (a solution's blocking clause): never deleted.
const KEPT: u32 = 1 << 30;

/// Conflicts of the Luby sequence's unit.
const LUBY_UNIT: u64 = 32;
/// Conflicts before the first reduction of the learned clauses, and how much each later
/// interval grows.
const REDUCE_FIRST: u64 = 2000;
const REDUCE_STEP: u64 = 300;
/// Arena words (4 bytes each) a thread keeps between searches.
const KEPT_ARENA: usize = 1 << 18;
/// Unassigned variables of highest activity a decision looks among for one of a pair (see
/// [`Cdcl::pick`]): 4 to 64 did alike on Gecode's minimal 25x25 puzzles, a quarter fewer conflicts
/// and less time than the most active variable alone.
const PICKED: usize = 16;
/// EVSIDS: the bump grows by 1 / DECAY per conflict.
const DECAY: f64 = 0.99;

#[derive(Clone, Copy)]
struct Watch {
    clause: u32,
    /// Another literal of the clause: when it is true the clause is not looked at.
    blocker: u32,
}

/// A falsified constraint: two true variables that exclude each other, a group with no member
/// left, or a clause.
#[derive(Clone, Copy)]
enum Conflict {
    Pair(u32, u32),
    Group(u32),
    Clause(u32),
    /// A variable true where a derived rule (a reason: [`LOCKED`], [`NAKED`] or [`HIDDEN`])
    /// excludes it.
    Excluded(u32, u32),
}

/// The solver's state, kept per thread between calls so a search allocates nothing once warm.
pub(crate) struct Cdcl {
    shape: Shape,
    n: usize,
    cells: usize,
    vars: usize,
    layout: &'static Layout,
    /// Per variable, its cell and digit.
    var_cell: Vec<u16>,
    var_digit: Vec<u8>,
    /// Per cell, its three houses and its place in each.
    cell_houses: Vec<[u16; 3]>,
    cell_places: Vec<[u8; 3]>,
    /// Per house, its first row and column (boxes), for locked candidates.
    corner: Vec<(u16, u16)>,
    /// In a box's places, the mask of each of its rows, then each of its columns.
    box_lines: Vec<u32>,
    /// Group `g < cells`: the digits of cell `g` not false. Group `cells + h * N + d`: the
    /// places of digit `d` in house `h` not false.
    open: Vec<u32>,
    /// Per literal: 1 true, -1 false, 0 unassigned.
    value: Vec<i8>,
    level: Vec<u32>,
    reason: Vec<u32>,
    trail: Vec<u32>,
    /// Where each decision level starts on the trail.
    levels: Vec<u32>,
    head: usize,
    arena: Vec<u32>,
    spare: Vec<u32>,
    /// Offsets of the deletable learned clauses, and of the kept ones.
    learned: Vec<u32>,
    kept: Vec<u32>,
    watches: Vec<Vec<Watch>>,
    activity: Vec<f64>,
    bump: f64,
    heap: Vec<u32>,
    /// Per variable, its index in `heap`, or `NONE`.
    heap_at: Vec<u32>,
    // Analysis scratch.
    seen: Vec<u8>,
    learnt: Vec<u32>,
    antecedents: Vec<u32>,
    stack: Vec<u32>,
    to_clear: Vec<u32>,
    level_stamp: Vec<u32>,
    /// Per variable, the stamp of the shrinking that marked it (see [`Cdcl::shrink`]).
    mark: Vec<u32>,
    mark_stamp: u32,
    stamp: u32,
    conflicts: u64,
    ticks: u32,
    restarts: u32,
    restart_at: u64,
    reduce_at: u64,
    reductions: u64,
}

thread_local! {
    static SOLVER: RefCell<Option<Box<Cdcl>>> = const { RefCell::new(None) };
}

/// Counts the solutions of `puzzle` up to `limit` (at least 1) by clause learning.
pub(crate) fn count(puzzle: &Grid, limit: usize, interrupt: &mut impl Interrupt) -> Result<Count, Interrupted> {
    let shape = puzzle.shape();
    let mut solver = SOLVER
        .with_borrow_mut(Option::take)
        .filter(|solver| solver.shape == shape)
        .unwrap_or_else(|| Box::new(Cdcl::new(shape)));
    let counted = solver.count(puzzle, limit, interrupt);
    // A long search's clauses are not kept past it: a thread keeps about a megabyte of them.
    if solver.arena.capacity() > KEPT_ARENA {
        solver.arena = Vec::with_capacity(1 << 16);
        solver.spare = Vec::with_capacity(1 << 16);
        solver.watches.iter_mut().for_each(|watches| *watches = Vec::new());
    }
    SOLVER.with_borrow_mut(|slot| *slot = Some(solver));
    counted
}

impl Cdcl {
    fn new(shape: Shape) -> Cdcl {
        let (n, cells) = (shape.size(), shape.cells());
        let vars = n * cells;
        let layout = Layout::of(shape);
        let mut cell_houses = vec![[0u16; 3]; cells];
        let mut cell_places = vec![[0u8; 3]; cells];
        for house in 0..3 * n {
            for (place, &cell) in layout.house(house).iter().enumerate() {
                let kind = house / n;
                cell_houses[usize::from(cell)][kind] = house as u16;
                cell_places[usize::from(cell)][kind] = place as u8;
            }
        }
        let (box_rows, box_cols) = (shape.box_rows(), shape.box_cols());
        let corner = (0..3 * n)
            .map(|house| {
                let cell = usize::from(layout.house(house)[0]);
                ((cell / n) as u16, (cell % n) as u16)
            })
            .collect();
        let row_mask = (1u32 << box_cols) - 1;
        let col_mask = (0..box_rows).fold(0u32, |mask, row| mask | 1 << (row * box_cols));
        let box_lines = (0..box_rows)
            .map(|row| row_mask << (row * box_cols))
            .chain((0..box_cols).map(|col| col_mask << col))
            .collect();
        Cdcl {
            corner,
            box_lines,
            shape,
            n,
            cells,
            vars,
            layout,
            var_cell: (0..vars).map(|var| (var / n) as u16).collect(),
            var_digit: (0..vars).map(|var| (var % n) as u8).collect(),
            cell_houses,
            cell_places,
            open: vec![0; cells + 3 * n * n],
            value: vec![0; 2 * vars],
            level: vec![0; vars],
            reason: vec![NONE; vars],
            trail: Vec::with_capacity(vars),
            levels: Vec::with_capacity(cells),
            head: 0,
            arena: Vec::with_capacity(1 << 16),
            spare: Vec::with_capacity(1 << 16),
            learned: Vec::new(),
            kept: Vec::new(),
            watches: (0..2 * vars).map(|_| Vec::new()).collect(),
            activity: vec![0.0; vars],
            bump: 1.0,
            heap: Vec::with_capacity(vars),
            heap_at: vec![NONE; vars],
            seen: vec![0; vars],
            learnt: Vec::with_capacity(vars),
            antecedents: Vec::with_capacity(4 * n),
            stack: Vec::with_capacity(vars),
            to_clear: Vec::with_capacity(vars),
            level_stamp: vec![0; cells + 2],
            mark: vec![0; vars],
            mark_stamp: 0,
            stamp: 0,
            conflicts: 0,
            ticks: 0,
            restarts: 0,
            restart_at: 0,
            reduce_at: 0,
            reductions: 0,
        }
    }

    /// Back to an empty grid with no clauses (keeping every buffer's capacity).
    fn reset(&mut self) {
        let full = (1u32 << self.n) - 1;
        self.open.fill(full);
        self.value.fill(0);
        self.reason.fill(NONE);
        self.trail.clear();
        self.levels.clear();
        self.head = 0;
        self.arena.clear();
        self.learned.clear();
        self.kept.clear();
        self.watches.iter_mut().for_each(Vec::clear);
        self.activity.fill(0.0);
        self.bump = 1.0;
        self.heap.clear();
        for var in 0..self.vars {
            self.heap_at[var] = var as u32;
            self.heap.push(var as u32);
        }
        self.seen.fill(0);
        self.level_stamp.fill(0);
        self.mark.fill(0);
        self.mark_stamp = 0;
        self.stamp = 0;
        self.conflicts = 0;
        self.ticks = 0;
        self.restarts = 0;
        self.restart_at = LUBY_UNIT;
        self.reduce_at = REDUCE_FIRST;
        self.reductions = 0;
    }

    fn count(&mut self, puzzle: &Grid, limit: usize, interrupt: &mut impl Interrupt) -> Result<Count, Interrupted> {
        self.reset();
        let none = Count { solutions: 0, first: None };
        let n = self.n;
        for (cell, &value) in puzzle.cells().iter().enumerate() {
            if value != 0 {
                let literal = 2 * (cell * n + usize::from(value) - 1) as u32;
                match self.value[literal as usize] {
                    0 => self.assign(literal, NONE),
                    1 => {}
                    _ => return Ok(none),
                }
            }
        }
        if self.propagate().is_some() {
            return Ok(none);
        }
        let (mut solutions, mut first) = (0, None);
        while self.solve(interrupt)? {
            solutions += 1;
            if first.is_none() {
                let cells = (0..self.cells)
                    .map(|cell| {
                        (0..n).find(|&digit| self.value[2 * (cell * n + digit)] == 1).expect("solved") as u8 + 1
                    })
                    .collect();
                first = Some(Grid::new(self.shape, cells).expect("a solution of the same shape"));
            }
            if solutions >= limit || !self.block(puzzle) {
                break;
            }
        }
        Ok(Count { solutions, first })
    }

    /// Adds the clause that some blank cell differs from the current (solved) assignment, at
    /// level 0; `false` when no other assignment is left.
    fn block(&mut self, puzzle: &Grid) -> bool {
        let n = self.n;
        self.learnt.clear();
        for (cell, &given) in puzzle.cells().iter().enumerate() {
            if given == 0 {
                let digit = (0..n).find(|&digit| self.value[2 * (cell * n + digit)] == 1).expect("solved");
                self.learnt.push(2 * (cell * n + digit) as u32 + 1);
            }
        }
        self.backtrack(0);
        // Literals false at level 0 (cells decided by the givens alone) go.
        let value = &self.value;
        self.learnt.retain(|&literal| value[literal as usize] == 0);
        match self.learnt.len() {
            0 => false,
            1 => {
                self.assign(self.learnt[0], NONE);
                self.propagate().is_none()
            }
            _ => {
                let offset = self.store(KEPT);
                self.kept.push(offset);
                true
            }
        }
    }

    /// Searches for a model of the rules, the givens and the clauses; `Ok(false)` when none is
    /// left.
    fn solve(&mut self, interrupt: &mut impl Interrupt) -> Result<bool, Interrupted> {
        let poll = interrupt.poll_interval() - 1;
        loop {
            if let Some(conflict) = self.propagate() {
                self.conflicts += 1;
                self.ticks += 1;
                if self.ticks & poll == 0 && interrupt.should_stop() {
                    return Err(Interrupted);
                }
                if self.levels.is_empty() {
                    return Ok(false);
                }
                let (back, lbd) = self.analyze(conflict);
                self.backtrack(back);
                if self.learnt.len() == 1 {
                    self.assign(self.learnt[0], NONE);
                } else {
                    let offset = self.store(lbd);
                    self.learned.push(offset);
                    self.assign(self.learnt[0], CLAUSE | offset);
                }
                self.bump /= DECAY;
                if self.bump > 1e100 {
                    self.rescale();
                }
                continue;
            }
            // A fixpoint: restart (and reduce) here, where level 0 is fully propagated.
            if self.conflicts >= self.restart_at {
                self.restarts += 1;
                self.restart_at = self.conflicts + LUBY_UNIT * luby(self.restarts);
                self.backtrack(0);
                if self.conflicts >= self.reduce_at {
                    self.reductions += 1;
                    self.reduce_at = self.conflicts + REDUCE_FIRST + REDUCE_STEP * self.reductions;
                    self.reduce();
                }
            }
            let Some(var) = self.pick() else { return Ok(true) };
            self.ticks += 1;
            if self.ticks & poll == 0 && interrupt.should_stop() {
                return Err(Interrupted);
            }
            // True: the strong decision, which falsifies every peer of the variable.
            self.levels.push(self.trail.len() as u32);
            self.assign(2 * var, NONE);
        }
    }

    #[inline]
    fn assign(&mut self, literal: u32, reason: u32) {
        let var = (literal >> 1) as usize;
        self.value[literal as usize] = 1;
        self.value[(literal ^ 1) as usize] = -1;
        self.level[var] = self.levels.len() as u32;
        self.reason[var] = reason;
        self.trail.push(literal);
        if literal & 1 == 1 {
            self.close(var, true);
        }
    }

    /// Takes a false variable out of its groups' open sets (`true`) or puts it back.
    #[inline]
    fn close(&mut self, var: usize, closing: bool) {
        let (cell, digit) = (usize::from(self.var_cell[var]), usize::from(self.var_digit[var]));
        let houses = self.cell_houses[cell];
        let places = self.cell_places[cell];
        let n = self.n;
        let toggle = |open: &mut u32, bit: u32| {
            if closing { *open &= !bit } else { *open |= bit }
        };
        toggle(&mut self.open[cell], 1 << digit);
        for kind in 0..3 {
            toggle(&mut self.open[self.cells + usize::from(houses[kind]) * n + digit], 1 << places[kind]);
        }
    }

    /// Unit propagation to a fixpoint, or the first conflict.
    fn propagate(&mut self) -> Option<Conflict> {
        let n = self.n;
        while self.head < self.trail.len() {
            let literal = self.trail[self.head];
            self.head += 1;
            let var = (literal >> 1) as usize;
            let (cell, digit) = (usize::from(self.var_cell[var]), usize::from(self.var_digit[var]));
            if literal & 1 == 0 {
                // True: every other digit of the cell and this digit in every peer are false.
                let reason = PEER | var as u32;
                for other in (cell * n..cell * n + n).filter(|&other| other != var) {
                    match self.value[2 * other] {
                        0 => self.assign(2 * other as u32 + 1, reason),
                        1 => return Some(Conflict::Pair(var as u32, other as u32)),
                        _ => {}
                    }
                }
                for &peer in self.layout.peers(cell) {
                    let other = usize::from(peer) * n + digit;
                    match self.value[2 * other] {
                        0 => self.assign(2 * other as u32 + 1, reason),
                        1 => return Some(Conflict::Pair(var as u32, other as u32)),
                        _ => {}
                    }
                }
            } else {
                // False: each of its four groups may be empty now, or down to one member.
                let open = self.open[cell];
                if open == 0 {
                    return Some(Conflict::Group(cell as u32));
                }
                if open & (open - 1) == 0 {
                    let last = cell * n + open.trailing_zeros() as usize;
                    if self.value[2 * last] == 0 {
                        self.assign(2 * last as u32, GROUP | cell as u32);
                    }
                } else if open.count_ones() == 2
                    && let Some(conflict) = self.naked_pair(cell, open)
                {
                    return Some(conflict);
                }
                let houses = self.cell_houses[cell];
                for house in houses {
                    let group = self.cells + usize::from(house) * n + digit;
                    let open = self.open[group];
                    if open == 0 {
                        return Some(Conflict::Group(group as u32));
                    }
                    if open & (open - 1) == 0 {
                        let place = self.layout.house(usize::from(house))[open.trailing_zeros() as usize];
                        let last = usize::from(place) * n + digit;
                        if self.value[2 * last] == 0 {
                            self.assign(2 * last as u32, GROUP | group as u32);
                        }
                    } else {
                        if let Some(conflict) = self.lock(cell, usize::from(house), digit, open) {
                            return Some(conflict);
                        }
                        if open.count_ones() == 2
                            && let Some(conflict) = self.hidden_pair(usize::from(house), digit, open)
                        {
                            return Some(conflict);
                        }
                    }
                }
            }
            if let Some(clause) = self.propagate_watches(literal ^ 1) {
                return Some(Conflict::Clause(clause));
            }
        }
        None
    }

    /// Locked candidates after `digit` left `cell` in `house`, where `open` (two places or more)
    /// are its places left: when they all lie in the house's crossing with another house, and
    /// the place just closed did not, the digit goes from the rest of that other house.
    #[inline]
    fn lock(&mut self, cell: usize, house: usize, digit: usize, open: u32) -> Option<Conflict> {
        let (n, shape) = (self.n, self.shape);
        let (box_rows, box_cols) = (shape.box_rows(), shape.box_cols());
        let kind = house / n;
        let closed = 1u32 << self.cell_places[cell][kind];
        let first = open.trailing_zeros() as usize;
        let (segment, target) = match kind {
            // A row: places are columns; the boxes it crosses are runs of `box_cols`.
            0 => {
                let segment = ((1u32 << box_cols) - 1) << (first / box_cols * box_cols);
                (segment, 2 * n + shape.box_of(house, first))
            }
            1 => {
                let segment = ((1u32 << box_rows) - 1) << (first / box_rows * box_rows);
                (segment, 2 * n + shape.box_of(first, house - n))
            }
            _ => {
                let (top, left) = self.corner[house];
                let row = self.box_lines[first / box_cols];
                if open & !row == 0 {
                    (row, usize::from(top) + first / box_cols)
                } else {
                    (self.box_lines[box_rows + first % box_cols], n + usize::from(left) + first % box_cols)
                }
            }
        };
        if open & !segment != 0 || closed & segment != 0 {
            return None;
        }
        let group = self.cells + house * n + digit;
        let reason = LOCKED | (group as u32) << 7 | target as u32;
        for &other in self.layout.house(target) {
            let other = usize::from(other);
            if usize::from(self.cell_houses[other][kind]) == house {
                continue;
            }
            let var = other * n + digit;
            match self.value[2 * var] {
                0 => self.assign(2 * var as u32 + 1, reason),
                1 => return Some(Conflict::Excluded(reason, var as u32)),
                _ => {}
            }
        }
        None
    }

    /// Naked pairs with `cell`, whose digits left are the two of `pair`: in each of its houses
    /// where another cell has just those two and a third cell one of them, the third loses it.
    fn naked_pair(&mut self, cell: usize, pair: u32) -> Option<Conflict> {
        let n = self.n;
        let (low, high) = (pair.trailing_zeros() as usize, 31 - pair.leading_zeros() as usize);
        for kind in 0..3 {
            let house = usize::from(self.cell_houses[cell][kind]);
            let group = self.cells + house * n;
            let (lows, highs) = (self.open[group + low], self.open[group + high]);
            let both = lows & highs & !(1 << self.cell_places[cell][kind]);
            if (lows | highs).count_ones() <= 2 || both == 0 {
                continue;
            }
            let members = self.layout.house(house);
            let mut partners = both;
            let partner = loop {
                if partners == 0 {
                    break None;
                }
                let other = usize::from(members[partners.trailing_zeros() as usize]);
                if self.open[other] == pair {
                    break Some(other);
                }
                partners &= partners - 1;
            };
            let Some(partner) = partner else { continue };
            let pair_places = 1 << self.cell_places[cell][kind] | 1 << self.cell_places[partner][kind];
            for (digit, kept, places) in [(low, high, lows), (high, low, highs)] {
                let reason = PEER | NAKED | (cell << 15 | partner << 5 | kept) as u32;
                let mut places = places & !pair_places;
                while places != 0 {
                    let var = usize::from(members[places.trailing_zeros() as usize]) * n + digit;
                    places &= places - 1;
                    match self.value[2 * var] {
                        0 => self.assign(2 * var as u32 + 1, reason),
                        1 => return Some(Conflict::Excluded(reason, var as u32)),
                        _ => {}
                    }
                }
            }
        }
        None
    }

    /// Hidden pairs with `digit`, whose places left in `house` are the two of `places`: every
    /// other digit with just those two places there leaves both cells with only the pair.
    fn hidden_pair(&mut self, house: usize, digit: usize, places: u32) -> Option<Conflict> {
        let n = self.n;
        let group = self.cells + house * n;
        let members = self.layout.house(house);
        let (low, high) = (places.trailing_zeros() as usize, 31 - places.leading_zeros() as usize);
        let (one, two) = (usize::from(members[low]), usize::from(members[high]));
        let mut others = self.open[one] & self.open[two] & !(1 << digit);
        if (self.open[one] | self.open[two]).count_ones() <= 2 {
            return None;
        }
        while others != 0 {
            let other = others.trailing_zeros() as usize;
            others &= others - 1;
            if self.open[group + other] != places {
                continue;
            }
            let pair = 1 << digit | 1 << other;
            for (cell, partner_place) in [(one, high), (two, low)] {
                let reason = GROUP | HIDDEN | (house << 15 | digit << 10 | other << 5 | partner_place) as u32;
                let mut rest = self.open[cell] & !pair;
                while rest != 0 {
                    let var = cell * n + rest.trailing_zeros() as usize;
                    rest &= rest - 1;
                    match self.value[2 * var] {
                        0 => self.assign(2 * var as u32 + 1, reason),
                        1 => return Some(Conflict::Excluded(reason, var as u32)),
                        _ => {}
                    }
                }
            }
            return None;
        }
        None
    }

    /// The other places of a hidden pair's two digits in its house (the payload of
    /// [`HIDDEN`], with the place of the cell beside the one implied), into
    /// `self.antecedents`; `var` is the variable implied, in the pair's other cell.
    fn hidden_members(&mut self, payload: u32, var: u32) {
        let n = self.n;
        let house = (payload >> 15) as usize;
        let (digit, other) = ((payload >> 10 & 31) as usize, (payload >> 5 & 31) as usize);
        let partner = usize::from(self.layout.house(house)[(payload & 31) as usize]);
        let cell = var as usize / n;
        for &member in self.layout.house(house) {
            let member = usize::from(member);
            if member != cell && member != partner {
                self.antecedents.extend([(member * n + digit) as u32, (member * n + other) as u32]);
            }
        }
    }

    /// The other digits of a naked pair's two cells (the payload of [`NAKED`]; `digit` the
    /// one of the pair taken), into `self.antecedents`.
    fn naked_members(&mut self, payload: u32, digit: usize) {
        let n = self.n;
        let (cell, partner) = ((payload >> 15 & 1023) as usize, (payload >> 5 & 1023) as usize);
        let kept = (payload & 31) as usize;
        for base in [cell * n, partner * n] {
            let others = (0..n).filter(|&other| other != digit && other != kept);
            self.antecedents.extend(others.map(|other| (base + other) as u32));
        }
    }

    /// The members of a locked reason's group outside its other house, into
    /// `self.antecedents`.
    fn locked_members(&mut self, payload: u32) {
        let n = self.n;
        let (group, target) = ((payload >> 7) as usize, (payload & 127) as usize);
        let (house, digit) = ((group - self.cells) / n, (group - self.cells) % n);
        let kind = target / n;
        for &cell in self.layout.house(house) {
            if usize::from(self.cell_houses[usize::from(cell)][kind]) != target {
                self.antecedents.push((usize::from(cell) * n + digit) as u32);
            }
        }
    }

    /// Visits the clauses watching `falsified`, which just became false.
    #[inline]
    fn propagate_watches(&mut self, falsified: u32) -> Option<u32> {
        if self.watches[falsified as usize].is_empty() {
            return None;
        }
        let mut watches = std::mem::take(&mut self.watches[falsified as usize]);
        let (mut read, mut write) = (0, 0);
        let mut conflict = None;
        'watches: while read < watches.len() {
            let watch = watches[read];
            read += 1;
            if self.value[watch.blocker as usize] == 1 {
                watches[write] = watch;
                write += 1;
                continue;
            }
            let at = watch.clause as usize;
            let len = self.arena[at] as usize;
            let literals = at + 2..at + 2 + len;
            if self.arena[literals.start] == falsified {
                self.arena.swap(literals.start, literals.start + 1);
            }
            let first = self.arena[literals.start];
            let kept = Watch { clause: watch.clause, blocker: first };
            if first != watch.blocker && self.value[first as usize] == 1 {
                watches[write] = kept;
                write += 1;
                continue;
            }
            for other in literals.start + 2..literals.end {
                let literal = self.arena[other];
                if self.value[literal as usize] != -1 {
                    self.arena.swap(literals.start + 1, other);
                    self.watches[literal as usize].push(kept);
                    continue 'watches;
                }
            }
            watches[write] = kept;
            write += 1;
            if self.value[first as usize] == -1 {
                conflict = Some(watch.clause);
                while read < watches.len() {
                    watches[write] = watches[read];
                    write += 1;
                    read += 1;
                }
            } else {
                self.assign(first, CLAUSE | watch.clause);
            }
        }
        watches.truncate(write);
        self.watches[falsified as usize] = watches;
        conflict
    }

    /// Puts `self.learnt` in the arena, watched by its first two literals.
    fn store(&mut self, meta: u32) -> u32 {
        let offset = self.arena.len() as u32;
        self.arena.push(self.learnt.len() as u32);
        self.arena.push(meta);
        self.arena.extend_from_slice(&self.learnt);
        let (first, second) = (self.learnt[0], self.learnt[1]);
        self.watches[first as usize].push(Watch { clause: offset, blocker: second });
        self.watches[second as usize].push(Watch { clause: offset, blocker: first });
        offset
    }

    /// The variables of a conflict into `self.antecedents`.
    fn conflict_variables(&mut self, conflict: Conflict) {
        self.antecedents.clear();
        match conflict {
            Conflict::Pair(one, other) => self.antecedents.extend([one, other]),
            Conflict::Group(group) => self.group_members(group as usize, u32::MAX),
            Conflict::Clause(at) => {
                self.arena[at as usize + 1] |= USED;
                let len = self.arena[at as usize] as usize;
                let literals = &self.arena[at as usize + 2..at as usize + 2 + len];
                self.antecedents.extend(literals.iter().map(|&literal| literal >> 1));
            }
            Conflict::Excluded(reason, var) => {
                self.antecedents.push(var);
                self.reason_members(reason, var);
            }
        }
    }

    /// The variables whose values implied `var`'s into `self.antecedents`.
    fn reason_variables(&mut self, var: u32) {
        self.antecedents.clear();
        let reason = self.reason[var as usize];
        debug_assert_ne!(reason, NONE, "only implied variables have reasons");
        self.reason_members(reason, var);
    }

    /// The variables whose values imply `var`'s by `reason`, added to `self.antecedents`.
    fn reason_members(&mut self, reason: u32, var: u32) {
        let digit = var as usize % self.n;
        match reason & KIND {
            PEER if reason & NAKED != 0 => self.naked_members(reason & PAYLOAD & !NAKED, digit),
            PEER => self.antecedents.push(reason & PAYLOAD),
            GROUP if reason & HIDDEN != 0 => self.hidden_members(reason & PAYLOAD & !HIDDEN, var),
            GROUP => self.group_members((reason & PAYLOAD) as usize, var),
            LOCKED => self.locked_members(reason & PAYLOAD),
            _ => {
                let at = (reason & PAYLOAD) as usize;
                self.arena[at + 1] |= USED;
                let len = self.arena[at] as usize;
                let literals = &self.arena[at + 3..at + 2 + len];
                self.antecedents.extend(literals.iter().map(|&literal| literal >> 1));
            }
        }
    }

    fn group_members(&mut self, group: usize, except: u32) {
        let n = self.n;
        if group < self.cells {
            self.antecedents.extend((group * n..group * n + n).map(|var| var as u32).filter(|&var| var != except));
        } else {
            let (house, digit) = ((group - self.cells) / n, (group - self.cells) % n);
            let members = self.layout.house(house).iter().map(|&cell| (usize::from(cell) * n + digit) as u32);
            self.antecedents.extend(members.filter(|&var| var != except));
        }
    }

    /// The literal of `var` that is false now.
    #[inline]
    fn false_literal(&self, var: u32) -> u32 {
        if self.value[2 * var as usize] == 1 { 2 * var + 1 } else { 2 * var }
    }

    /// First-UIP analysis into `self.learnt` (the asserting literal first, then one of the
    /// highest level below): the level to go back to, and the clause's LBD.
    fn analyze(&mut self, conflict: Conflict) -> (usize, u32) {
        let current = self.levels.len() as u32;
        self.learnt.clear();
        self.learnt.push(0);
        self.conflict_variables(conflict);
        let mut pending = 0;
        let mut index = self.trail.len();
        loop {
            for at in 0..self.antecedents.len() {
                let var = self.antecedents[at];
                if self.seen[var as usize] == 0 && self.level[var as usize] > 0 {
                    self.seen[var as usize] = 1;
                    self.bump_activity(var);
                    if self.level[var as usize] >= current {
                        pending += 1;
                    } else {
                        self.learnt.push(self.false_literal(var));
                    }
                }
            }
            let var = loop {
                index -= 1;
                let var = self.trail[index] >> 1;
                if self.seen[var as usize] != 0 {
                    break var;
                }
            };
            self.seen[var as usize] = 0;
            pending -= 1;
            if pending == 0 {
                self.learnt[0] = self.trail[index] ^ 1;
                break;
            }
            self.reason_variables(var);
        }
        self.minimize();
        self.shrink();
        // The literal of the highest level below goes second, to be watched.
        let mut back = 0;
        for at in 1..self.learnt.len() {
            let level = self.level[(self.learnt[at] >> 1) as usize];
            if level > back {
                back = level;
                self.learnt.swap(1, at);
            }
        }
        self.stamp += 1;
        let mut lbd = 0;
        for &literal in &self.learnt {
            let level = self.level[(literal >> 1) as usize] as usize;
            if self.level_stamp[level] != self.stamp {
                self.level_stamp[level] = self.stamp;
                lbd += 1;
            }
        }
        (back as usize, lbd)
    }

    /// Replaces the literals of each level below the conflict's by that level's unique
    /// implication point where one is reached by resolving only on that level's literals and
    /// those the clause has (shrinking, as in CaDiCaL).
    fn shrink(&mut self) {
        if self.learnt.len() < 3 {
            return;
        }
        let level = &self.level;
        self.learnt[1..].sort_unstable_by_key(|&literal| std::cmp::Reverse(level[(literal >> 1) as usize]));
        self.mark_stamp += 1;
        let clause = self.mark_stamp;
        for &literal in &self.learnt[1..] {
            self.mark[(literal >> 1) as usize] = clause;
        }
        let (mut read, mut write) = (1, 1);
        while read < self.learnt.len() {
            let at = self.level[(self.learnt[read] >> 1) as usize];
            let mut end = read + 1;
            while end < self.learnt.len() && self.level[(self.learnt[end] >> 1) as usize] == at {
                end += 1;
            }
            if end - read >= 2
                && let Some(uip) = self.block_uip(at as usize, read, end, clause)
            {
                self.learnt[write] = uip;
                write += 1;
            } else {
                for index in read..end {
                    self.learnt[write] = self.learnt[index];
                    write += 1;
                }
            }
            read = end;
        }
        self.learnt.truncate(write);
    }

    /// The unique implication point of `level` for the clause's literals `learnt[from..to]`
    /// (all of that level), as a literal, or `None` when resolving reaches a variable of another
    /// level the clause lacks.
    fn block_uip(&mut self, level: usize, from: usize, to: usize, clause: u32) -> Option<u32> {
        self.mark_stamp += 1;
        let here = self.mark_stamp;
        for index in from..to {
            self.mark[(self.learnt[index] >> 1) as usize] = here;
        }
        let mut open = to - from;
        let start = self.levels[level - 1] as usize;
        let mut index = self.levels.get(level).map_or(self.trail.len(), |&end| end as usize);
        loop {
            index -= 1;
            debug_assert!(index >= start, "the level's decision is a unique implication point");
            let var = self.trail[index] >> 1;
            if self.mark[var as usize] != here {
                continue;
            }
            open -= 1;
            if open == 0 {
                return Some(self.trail[index] ^ 1);
            }
            self.reason_variables(var);
            for at in 0..self.antecedents.len() {
                let other = self.antecedents[at] as usize;
                let other_level = self.level[other] as usize;
                if other_level == level {
                    if self.mark[other] != here {
                        self.mark[other] = here;
                        open += 1;
                    }
                } else if other_level != 0 && self.mark[other] != clause {
                    return None;
                }
            }
        }
    }

    /// Drops each literal of `self.learnt` (past the first) implied by the others (MiniSat's
    /// recursive minimisation, bounded by the levels the clause spans), then clears `seen`.
    fn minimize(&mut self) {
        let mut levels = 0u32;
        self.to_clear.clear();
        for &literal in &self.learnt[1..] {
            let var = (literal >> 1) as usize;
            levels |= 1 << (self.level[var] & 31);
            self.to_clear.push(var as u32);
        }
        let mut write = 1;
        for read in 1..self.learnt.len() {
            let literal = self.learnt[read];
            let var = literal >> 1;
            if self.reason[var as usize] == NONE || !self.redundant(var, levels) {
                self.learnt[write] = literal;
                write += 1;
            }
        }
        self.learnt.truncate(write);
        self.peer_minimize();
        for &var in &self.to_clear {
            self.seen[var as usize] = 0;
        }
    }

    /// Drops each false variable of `self.learnt` that excludes a true one of it (resolving
    /// with the implicit binary clause), `seen` still marking the clause's variables.
    fn peer_minimize(&mut self) {
        let n = self.n;
        for at in 1..self.learnt.len() {
            let literal = self.learnt[at];
            if literal & 1 == 0 {
                continue;
            }
            // `literal` is ¬x for a true x: its peers' positive literals are implied.
            let var = (literal >> 1) as usize;
            let (cell, digit) = (usize::from(self.var_cell[var]), usize::from(self.var_digit[var]));
            for other in cell * n..cell * n + n {
                if self.seen[other] == 1 {
                    self.seen[other] = 2;
                }
            }
            for &peer in self.layout.peers(cell) {
                let other = usize::from(peer) * n + digit;
                if self.seen[other] == 1 {
                    self.seen[other] = 2;
                }
            }
        }
        let mut write = 1;
        for read in 1..self.learnt.len() {
            let literal = self.learnt[read];
            if literal & 1 == 1 || self.seen[(literal >> 1) as usize] != 2 {
                self.learnt[write] = literal;
                write += 1;
            }
        }
        self.learnt.truncate(write);
    }

    fn redundant(&mut self, var: u32, levels: u32) -> bool {
        self.stack.clear();
        self.stack.push(var);
        let top = self.to_clear.len();
        while let Some(next) = self.stack.pop() {
            self.reason_variables(next);
            for at in 0..self.antecedents.len() {
                let other = self.antecedents[at] as usize;
                if self.seen[other] != 0 || self.level[other] == 0 {
                    continue;
                }
                if self.reason[other] != NONE && (1 << (self.level[other] & 31)) & levels != 0 {
                    self.seen[other] = 1;
                    self.stack.push(other as u32);
                    self.to_clear.push(other as u32);
                } else {
                    for &cleared in &self.to_clear[top..] {
                        self.seen[cleared as usize] = 0;
                    }
                    self.to_clear.truncate(top);
                    return false;
                }
            }
        }
        true
    }

    /// Undoes every level above `level`.
    fn backtrack(&mut self, level: usize) {
        if self.levels.len() <= level {
            return;
        }
        let start = self.levels[level] as usize;
        for at in (start..self.trail.len()).rev() {
            let literal = self.trail[at];
            let var = (literal >> 1) as usize;
            self.value[literal as usize] = 0;
            self.value[(literal ^ 1) as usize] = 0;
            if literal & 1 == 1 {
                self.close(var, false);
            }
            if self.heap_at[var] == NONE {
                self.heap_insert(var as u32);
            }
        }
        self.trail.truncate(start);
        self.levels.truncate(level);
        self.head = start;
    }

    /// The decision: among the [`PICKED`] unassigned variables of highest activity, the first
    /// that is one of the last two members of one of its groups (its cell's digits, or its
    /// digit's places in a house), else the most active; the others go back to the heap.
    fn pick(&mut self) -> Option<u32> {
        let mut taken = [0u32; PICKED];
        let (mut len, mut choice) = (0, 0);
        while len < PICKED {
            let Some(&var) = self.heap.first() else { break };
            self.heap_remove_top();
            if self.value[2 * var as usize] != 0 {
                continue;
            }
            taken[len] = var;
            len += 1;
            if self.in_pair(var as usize) {
                choice = len - 1;
                break;
            }
        }
        if len == 0 {
            return None;
        }
        for (at, &var) in taken[..len].iter().enumerate() {
            if at != choice {
                self.heap_insert(var);
            }
        }
        Some(taken[choice])
    }

    /// Whether `var` (unassigned, so each of its groups has two members open or more) is one of
    /// two in one of its groups.
    fn in_pair(&self, var: usize) -> bool {
        let (cell, digit) = (usize::from(self.var_cell[var]), usize::from(self.var_digit[var]));
        self.open[cell].count_ones() == 2
            || self.cell_houses[cell]
                .iter()
                .any(|&house| self.open[self.cells + usize::from(house) * self.n + digit].count_ones() == 2)
    }

    fn bump_activity(&mut self, var: u32) {
        let var = var as usize;
        self.activity[var] += self.bump;
        if self.activity[var] > 1e100 {
            self.rescale();
        }
        if self.heap_at[var] != NONE {
            self.sift_up(self.heap_at[var] as usize);
        }
    }

    fn rescale(&mut self) {
        self.activity.iter_mut().for_each(|activity| *activity *= 1e-100);
        self.bump *= 1e-100;
    }

    fn heap_insert(&mut self, var: u32) {
        self.heap_at[var as usize] = self.heap.len() as u32;
        self.heap.push(var);
        self.sift_up(self.heap.len() - 1);
    }

    fn heap_remove_top(&mut self) {
        let top = self.heap[0];
        self.heap_at[top as usize] = NONE;
        let last = self.heap.pop().expect("not empty");
        if !self.heap.is_empty() {
            self.heap[0] = last;
            self.heap_at[last as usize] = 0;
            self.sift_down(0);
        }
    }

    fn sift_up(&mut self, mut at: usize) {
        let var = self.heap[at];
        let activity = self.activity[var as usize];
        while at > 0 {
            let parent = (at - 1) / 2;
            let above = self.heap[parent];
            if self.activity[above as usize] >= activity {
                break;
            }
            self.heap[at] = above;
            self.heap_at[above as usize] = at as u32;
            at = parent;
        }
        self.heap[at] = var;
        self.heap_at[var as usize] = at as u32;
    }

    fn sift_down(&mut self, mut at: usize) {
        let var = self.heap[at];
        let activity = self.activity[var as usize];
        loop {
            let mut child = 2 * at + 1;
            if child >= self.heap.len() {
                break;
            }
            if child + 1 < self.heap.len()
                && self.activity[self.heap[child + 1] as usize] > self.activity[self.heap[child] as usize]
            {
                child += 1;
            }
            let below = self.heap[child];
            if self.activity[below as usize] <= activity {
                break;
            }
            self.heap[at] = below;
            self.heap_at[below as usize] = at as u32;
            at = child;
        }
        self.heap[at] = var;
        self.heap_at[var as usize] = at as u32;
    }

    /// At level 0: deletes the learned clauses of high LBD (half of those above 2, the oldest
    /// first among equals; a clause used since the last reduction stays once more), drops
    /// clauses satisfied and literals falsified at level 0, and rebuilds the watches.
    fn reduce(&mut self) {
        let arena = &self.arena;
        let lbd = |at: u32| arena[at as usize + 1] & LBD;
        // Most useful first: low LBD, then the newest.
        self.learned.sort_unstable_by(|&one, &other| lbd(one).cmp(&lbd(other)).then(other.cmp(&one)));
        let above_two = self.learned.iter().filter(|&&at| lbd(at) > 2).count();
        let mut deletable = above_two / 2;
        for at in (0..self.learned.len()).rev() {
            if deletable == 0 {
                break;
            }
            let offset = self.learned[at] as usize;
            let meta = self.arena[offset + 1];
            if meta & LBD <= 2 {
                break;
            }
            if meta & USED != 0 {
                self.arena[offset + 1] &= !USED;
                continue;
            }
            self.arena[offset] = 0;
            deletable -= 1;
        }
        // Rebuild: the arena compacted into the spare, every watch list anew.
        self.watches.iter_mut().for_each(Vec::clear);
        self.spare.clear();
        let mut learned = std::mem::take(&mut self.learned);
        let mut kept = std::mem::take(&mut self.kept);
        for list in [&mut learned, &mut kept] {
            let mut write = 0;
            for read in 0..list.len() {
                let at = list[read] as usize;
                let len = self.arena[at] as usize;
                let literals = &self.arena[at + 2..at + 2 + len];
                if len == 0 || literals.iter().any(|&literal| self.value[literal as usize] == 1) {
                    continue;
                }
                let offset = self.spare.len() as u32;
                self.spare.push(0);
                self.spare.push(self.arena[at + 1]);
                self.spare.extend(literals.iter().copied().filter(|&literal| self.value[literal as usize] == 0));
                let len = self.spare.len() - offset as usize - 2;
                debug_assert!(len >= 2, "level 0 is propagated");
                self.spare[offset as usize] = len as u32;
                let (first, second) = (self.spare[offset as usize + 2], self.spare[offset as usize + 3]);
                self.watches[first as usize].push(Watch { clause: offset, blocker: second });
                self.watches[second as usize].push(Watch { clause: offset, blocker: first });
                list[write] = offset;
                write += 1;
            }
            list.truncate(write);
        }
        self.learned = learned;
        self.kept = kept;
        std::mem::swap(&mut self.arena, &mut self.spare);
    }
}

/// The Luby sequence (1, 1, 2, 1, 1, 2, 4, ...), from index 0.
fn luby(mut index: u32) -> u64 {
    // The smallest complete sequence holding the index: 2^k - 1 terms, ending with 2^(k-1).
    let (mut size, mut power) = (1u32, 0u32);
    while size < index + 1 {
        size = 2 * size + 1;
        power += 1;
    }
    while size - 1 != index {
        size = (size - 1) >> 1;
        power -= 1;
        index %= size;
    }
    1 << power
}

#[cfg(test)]
mod tests {
    use super::super::solver::count_by_look_ahead;
    use super::*;
    use crate::interrupt::{Never, PollBudget};
    use crate::random::SplitMix64;

    /// The lines of `tests/data/sizes/<name>`, the puzzle before any tab.
    fn data(name: &str) -> Vec<(Grid, Option<String>)> {
        let path = format!("{}/../../tests/data/sizes/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {path}: {error}"));
        text.lines()
            .filter(|line| !line.trim().is_empty())
            .map(|line| {
                let (puzzle, solution) =
                    line.split_once('\t').map_or((line, None), |(p, s)| (p, Some(s.trim().to_owned())));
                (Grid::parse(puzzle, None).expect("a puzzle"), solution)
            })
            .collect()
    }

    fn is_solution(puzzle: &Grid, solution: &Grid) -> bool {
        let n = puzzle.size();
        let layout = Layout::of(puzzle.shape());
        let kept = puzzle.cells().iter().zip(solution.cells()).all(|(&given, &value)| given == 0 || given == value);
        let full = layout.houses().all(|house| {
            let seen = house.iter().fold(0u32, |seen, &cell| seen | 1 << solution.cells()[usize::from(cell)]);
            seen == ((1u32 << n) - 1) << 1
        });
        kept && full
    }

    /// Both searches on `puzzle` up to `limit`: the same count, and a first solution that is one.
    fn agree(puzzle: &Grid, limit: usize) -> Count {
        let learned = count(puzzle, limit, &mut Never).unwrap();
        let reference = count_by_look_ahead(puzzle, limit, &mut Never).unwrap();
        assert_eq!(learned.solutions, reference.solutions, "{puzzle} limit {limit}");
        assert_eq!(learned.first.is_some(), learned.solutions > 0, "{puzzle}");
        if let Some(first) = &learned.first {
            assert!(is_solution(puzzle, first), "{puzzle} -> {first}");
        }
        // A unique solution is the same one; with more, either may come first.
        if limit > 1 && learned.solutions == 1 {
            assert_eq!(learned.first, reference.first, "{puzzle}");
        }
        learned
    }

    /// `solution` with about `percent` of its cells blanked, as `seed` picks them.
    fn blanked(solution: &Grid, percent: u64, seed: u64) -> Grid {
        let mut random = SplitMix64(seed);
        let cells = solution.cells().iter().map(|&value| if random.next_u64() % 100 < percent { 0 } else { value });
        Grid::new(solution.shape(), cells.collect()).unwrap()
    }

    #[test]
    fn generated_puzzles_have_the_look_aheads_one_solution() {
        for name in ["generated_20x20.txt", "generated_25x25.txt"] {
            for (puzzle, _) in data(name).iter().step_by(5) {
                assert_eq!(agree(puzzle, 2).solutions, 1, "{puzzle}");
            }
        }
    }

    #[test]
    fn public_puzzles_have_their_published_solution() {
        let smt = data("25x25_sudoku_smt_solvers.tsv");
        // The two quickest of the minimal Gecode puzzles; the others take seconds.
        let gecode = data("25x25_gecode.tsv");
        for (puzzle, solution) in smt.iter().step_by(4).chain(&gecode[16..]) {
            let count = count(puzzle, 2, &mut Never).unwrap();
            assert_eq!(count.solutions, 1, "{puzzle}");
            let found = count.first.unwrap().to_string();
            assert!(found.eq_ignore_ascii_case(solution.as_ref().unwrap()), "{puzzle}");
        }
    }

    #[test]
    fn every_learned_clause_holds_in_the_one_solution() {
        // A clause shrunk or minimised wrongly could cut off the solution it was learned on the
        // way to; the published solution is the check, independent of both searches.
        let smt = data("25x25_sudoku_smt_solvers.tsv");
        let gecode = data("25x25_gecode.tsv");
        for (puzzle, solution) in smt.iter().step_by(8).chain(&gecode[16..]) {
            let solution = Grid::parse(solution.as_ref().unwrap(), None).unwrap();
            let n = puzzle.size();
            let holds = |literal: u32| {
                let var = (literal >> 1) as usize;
                let (cell, digit) = (var / n, var % n);
                (usize::from(solution.cells()[cell]) == digit + 1) == (literal & 1 == 0)
            };
            let mut solver = Cdcl::new(puzzle.shape());
            assert_eq!(solver.count(puzzle, 1, &mut Never).unwrap().first.as_ref(), Some(&solution));
            for &at in &solver.learned {
                let (at, len) = (at as usize, solver.arena[at as usize] as usize);
                let literals = &solver.arena[at + 2..at + 2 + len];
                assert!(literals.iter().any(|&literal| holds(literal)), "{puzzle}: {literals:?}");
            }
        }
    }

    #[test]
    fn counts_agree_with_the_look_ahead_on_blankings_with_many_solutions_or_none() {
        for (index, (puzzle, _)) in data("generated_25x25.txt").iter().take(4).enumerate() {
            let solution = count(puzzle, 1, &mut Never).unwrap().first.unwrap();
            for (step, percent) in [55, 62, 70, 80].into_iter().enumerate() {
                let seed = (4 * index + step) as u64;
                let sparse = blanked(&solution, percent, seed);
                for limit in [1, 2, 3, 7] {
                    agree(&sparse, limit);
                }
                // A given changed: no solution, or (rarely) others.
                let mut cells = sparse.cells().to_vec();
                let given = cells.iter().position(|&value| value != 0).unwrap();
                cells[given] = cells[given] % 25 + 1;
                agree(&Grid::new(sparse.shape(), cells).unwrap(), 2);
            }
        }
    }

    #[test]
    fn every_shape_from_9_digits_agrees_with_the_look_ahead() {
        for shape in Shape::all().filter(|shape| shape.size() >= 9) {
            let solution = count(&Grid::empty(shape), 1, &mut Never).unwrap().first.unwrap();
            assert!(is_solution(&Grid::empty(shape), &solution), "{shape}");
            for seed in 0..8 {
                let puzzle = blanked(&solution, 40 + 6 * seed, seed);
                agree(&puzzle, 1 + seed as usize % 3);
            }
        }
    }

    #[test]
    fn repeated_givens_and_dead_ends_have_no_solution() {
        let shape = Shape::default_for(25).unwrap();
        let mut cells = vec![0u8; shape.cells()];
        (cells[0], cells[24]) = (7, 7);
        assert_eq!(
            count(&Grid::new(shape, cells).unwrap(), 2, &mut Never).unwrap(),
            Count { solutions: 0, first: None }
        );
        // No repeated given, but the first cell sees every digit but 1, and 1 is in its box.
        let mut cells = vec![0u8; shape.cells()];
        for digit in 2..=25u8 {
            cells[usize::from(digit) - 1] = digit;
        }
        cells[shape.cells() / 25 + 1] = 1;
        assert_eq!(count(&Grid::new(shape, cells).unwrap(), 2, &mut Never).unwrap().solutions, 0);
    }

    #[test]
    fn an_interrupt_stops_the_search() {
        let empty = Grid::empty(Shape::default_for(25).unwrap());
        assert_eq!(count(&empty, usize::MAX, &mut PollBudget(3)), Err(Interrupted));
        // And the thread's solver is sound after it.
        let (puzzle, _) = &data("generated_20x20.txt")[0];
        assert_eq!(agree(puzzle, 2).solutions, 1);
    }

    /// A 9x9 solver at level 0 with `falses` (cell, digit) variables set false, propagated.
    fn propagated_9x9(falses: impl IntoIterator<Item = (usize, usize)>) -> Cdcl {
        let mut solver = Cdcl::new(Shape::default_for(9).unwrap());
        solver.reset();
        for (cell, digit) in falses {
            solver.assign(2 * (cell * 9 + digit) as u32 + 1, NONE);
        }
        assert!(solver.propagate().is_none());
        solver
    }

    /// The antecedents of `var`'s reason, sorted, checking it is of the kind `flag` marks.
    fn reason_of(solver: &mut Cdcl, var: usize, kind: u32, flag: u32) -> Vec<u32> {
        assert_eq!(solver.value[2 * var], -1, "variable {var} is false");
        let reason = solver.reason[var];
        assert_eq!((reason & KIND, reason & flag), (kind, flag), "variable {var}'s reason");
        solver.reason_variables(var as u32);
        let mut members = solver.antecedents.clone();
        members.sort_unstable();
        members
    }

    #[test]
    fn a_naked_pair_takes_its_digits_from_its_houses_for_its_cells_other_digits() {
        // Cells 0 and 1 (row 0, box 0) keep only digits 0 and 1.
        let mut solver = propagated_9x9([0, 1].into_iter().flat_map(|cell| (2..9).map(move |digit| (cell, digit))));
        let pair_cells_others: Vec<u32> =
            [0u32, 1].iter().flat_map(|&cell| (2..9).map(move |digit| cell * 9 + digit)).collect();
        // The rest of row 0 and of box 0.
        for cell in [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 18, 19, 20] {
            for digit in [0, 1] {
                assert_eq!(reason_of(&mut solver, cell * 9 + digit, PEER, NAKED), pair_cells_others, "cell {cell}");
            }
        }
        // Elsewhere the pair's digits stay.
        assert_eq!(solver.value[2 * (12 * 9)], 0);
    }

    #[test]
    fn a_hidden_pair_takes_its_cells_from_other_digits_for_its_digits_other_places() {
        // Digits 0 and 1 leave row 0 but for cells 0 and 1.
        let mut solver = propagated_9x9((2..9).flat_map(|cell| [(cell, 0), (cell, 1)]));
        let digits_other_places: Vec<u32> = (2u32..9).flat_map(|cell| [cell * 9, cell * 9 + 1]).collect();
        for cell in [0, 1] {
            for digit in 2..9 {
                assert_eq!(reason_of(&mut solver, cell * 9 + digit, GROUP, HIDDEN), digits_other_places);
            }
        }
    }

    #[test]
    fn a_puzzle_with_two_solutions_counts_two() {
        // A full grid less four cells of a rectangle on two rows of a band whose values swap
        // (a, b over b, a): exactly the grid and the swapped grid solve it.
        let (puzzle, _) = &data("generated_25x25.txt")[1];
        let solution = count(puzzle, 1, &mut Never).unwrap().first.unwrap();
        let (shape, n) = (solution.shape(), solution.size());
        let at = |row: usize, col: usize| solution.cells()[row * n + col];
        let rectangle = (0..n)
            .flat_map(|top| (top + 1..n).map(move |bottom| (top, bottom)))
            .filter(|&(top, bottom)| top / shape.box_rows() == bottom / shape.box_rows())
            .flat_map(|rows| (0..n).flat_map(move |left| (left + 1..n).map(move |right| (rows, left, right))))
            .find(|&((top, bottom), left, right)| {
                left / shape.box_cols() != right / shape.box_cols()
                    && at(top, left) == at(bottom, right)
                    && at(top, right) == at(bottom, left)
            })
            .expect("a rectangle of swappable values");
        let ((top, bottom), left, right) = rectangle;
        let corners = [top * n + left, top * n + right, bottom * n + left, bottom * n + right];
        let mut cells = solution.cells().to_vec();
        corners.iter().for_each(|&corner| cells[corner] = 0);
        let two = Grid::new(shape, cells).unwrap();
        let counted = count(&two, 3, &mut Never).unwrap();
        assert_eq!(counted.solutions, 2);
        let mut swapped = solution.cells().to_vec();
        swapped.swap(corners[0], corners[1]);
        swapped.swap(corners[2], corners[3]);
        let first = counted.first.unwrap();
        assert!(first == solution || first.cells() == swapped.as_slice(), "{first}");
        assert!(is_solution(&two, &Grid::new(shape, swapped).unwrap()));
        // With more blanks around it, the look-ahead's count.
        for seed in 0..4 {
            let mut sparse = blanked(&two, 45, seed).cells().to_vec();
            corners.iter().for_each(|&corner| sparse[corner] = 0);
            assert!(agree(&Grid::new(shape, sparse).unwrap(), 3).solutions >= 2);
        }
    }

    #[test]
    fn the_luby_sequence_starts_as_published() {
        let start: Vec<u64> = (0..15).map(luby).collect();
        assert_eq!(start, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }
}

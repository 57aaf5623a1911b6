//! Forcing chains, as Sudoku Explainer finds and rates them: assume a candidate true or false,
//! follow everything that must then follow, and conclude from what the assumption breaks or from
//! what every possibility agrees on.
//!
//! An assumption's consequences are literals, a candidate that is true ("on") or false ("off"),
//! found breadth first from the assumption, each remembering the literals it follows from, so a
//! conclusion can be explained and its chain measured. What follows from what:
//! - a true candidate turns off the cell's other candidates and its digit in every peer;
//! - statically, a false candidate turns on the other candidate of a two-candidate cell, and
//!   the other place of its digit in a house where the digit has two places (the grid's
//!   candidates decide, not what the assumption has ruled out so far);
//! - dynamically, a cell left with one candidate, or a house left with one place for a digit,
//!   by what the assumption has ruled out turns that candidate on.
//!
//! The families, easiest first, each taking the shortest chain it finds (a chain rates higher
//! the longer it is, see [`super::super::step::chain_rating`]):
//! - cycle: a loop from a candidate back to itself that holds read either way round, so what
//!   sees a true literal of each reading goes (statically);
//! - forcing chain: one assumption leads back to its own opposite (statically);
//! - nishio: a digit's assumption, followed dynamically within the digit, makes a candidate both
//!   true and false;
//! - multiple forcing chains (static) and dynamic forcing chains: an assumption that makes a
//!   candidate both true and false; a literal that follows both from a candidate and from its
//!   opposite; one that follows from every candidate of a cell, or from every place of a digit
//!   in a house.
//!
//! These searches follow hundreds of assumptions per step, so their buffers live in one
//! [`Engine`] per thread, reused from step to step.

use std::cell::{Cell as Slot, RefCell};
use std::collections::HashMap;
use std::ops::Range;

use crate::interrupt::{Interrupt, Interrupted};
use crate::logic::cells::{CellSet, per_thread};
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, GridKey, bit, digits, is_pair, is_single, ones};
use crate::logic::step::{CellDigit, Deduction, Technique, chain_rating, join, symbol};
use crate::logic::techniques::Changed;

/// The number of `digit` in `cell` among the candidates of a grid of cell sets `C`, for tables
/// indexed by candidate: `cell * C::DIGITS + digit - 1` (729 of them on 9x9, 15,625 at most
/// on 25x25, so a `u16` holds one).
fn candidate<C: CellSet>(cell: usize, digit: u8) -> usize {
    cell * C::DIGITS + usize::from(digit) - 1
}

/// How many candidate numbers a grid of cell sets `C` has.
const fn candidate_count<C: CellSet>() -> usize {
    C::CELLS * C::DIGITS
}

/// A set of candidates, one bit each.
#[derive(Clone, Copy)]
struct CandidateSet<C: CellSet>(C::Candidates);

impl<C: CellSet> CandidateSet<C> {
    fn new() -> CandidateSet<C> {
        CandidateSet(C::no_candidates())
    }

    fn contains(&self, candidate: usize) -> bool {
        self.0.as_ref()[candidate / 64] >> (candidate % 64) & 1 == 1
    }

    fn insert(&mut self, candidate: usize) {
        self.0.as_mut()[candidate / 64] |= 1 << (candidate % 64);
    }

    /// The candidate bits of `cell`, bit `d - 1` for digit `d`.
    fn of_cell(&self, cell: usize) -> u32 {
        let words = self.0.as_ref();
        let first = cell * C::DIGITS;
        let (word, shift) = (first / 64, first % 64);
        let low = words[word] >> shift;
        let high = if shift > 64 - C::DIGITS && word + 1 < words.len() { words[word + 1] << (64 - shift) } else { 0 };
        ((low | high) & ((1 << C::DIGITS) - 1)) as u32
    }
}

/// A candidate that is true (`on`) or false, held as its [`candidate`] number in the grid it
/// was found in; its cell and digit are read back with that grid's cell sets `C` (on 9x9, the
/// arithmetic it always had).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Literal {
    /// [`candidate`].
    candidate: u16,
    on: bool,
}

impl Literal {
    fn new<C: CellSet>(cell: usize, digit: u8, on: bool) -> Literal {
        Literal::of(candidate::<C>(cell, digit), on)
    }

    /// The literal of candidate number `candidate`.
    fn of(candidate: usize, on: bool) -> Literal {
        Literal { candidate: candidate as u16, on }
    }

    fn cell<C: CellSet>(self) -> usize {
        usize::from(self.candidate) / C::DIGITS
    }

    fn digit<C: CellSet>(self) -> u8 {
        (usize::from(self.candidate) % C::DIGITS) as u8 + 1
    }

    fn opposite(self) -> Literal {
        Literal { on: !self.on, ..self }
    }

    /// Its candidate's number.
    fn candidate(self) -> usize {
        usize::from(self.candidate)
    }

    /// The index of this literal among the two per candidate number (for tables indexed by
    /// literal).
    fn index(self) -> usize {
        self.candidate() * 2 + usize::from(self.on)
    }

    /// "r4c5 is 5" or "r4c5 isn't 5".
    fn describe<C: CellSet>(self, geometry: &Geometry<C>) -> String {
        let verb = if self.on { "is" } else { "isn't" };
        format!("{} {verb} {}", geometry.cell_name(self.cell::<C>()), symbol(self.digit::<C>()))
    }
}

/// How an assumption's consequences are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rules {
    /// Only the grid's conjugate pairs and two-candidate cells turn candidates on; `digit_links`
    /// and `cell_links` say which of the two (and of a true candidate's two kinds of
    /// eliminations) a chain may use.
    Static { digit_links: bool, cell_links: bool },
    /// What the assumption has ruled out so far decides: `one_digit` keeps to the assumption's
    /// digit (nishio); `nesting` says what else is tried once that runs out.
    Dynamic { one_digit: bool, nesting: Nesting },
}

/// What a dynamic chain tries when the singles run out, Sudoku Explainer's "+" levels: other
/// techniques applied to the grid as the assumption has left it, each of their eliminations a
/// new consequence resting on the removals its pattern reads. The hardest puzzles need these;
/// each level costs far more than the one before, so the rating path tries them in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Nesting {
    /// Nothing more: plain dynamic forcing chains (SE 8.5).
    Plain,
    /// Locked candidates, subsets and fish (SE's "Dynamic forcing chains (+)", 9.0).
    Basic,
    /// Those and single forcing chains (9.5).
    ForcingChains,
    /// Those and multiple forcing chains (10.0).
    MultipleForcingChains,
    /// Those and dynamic forcing chains (10.5).
    DynamicForcingChains,
}

impl Nesting {
    /// Every level, least first.
    const ALL: [Nesting; 5] = [
        Nesting::Plain,
        Nesting::Basic,
        Nesting::ForcingChains,
        Nesting::MultipleForcingChains,
        Nesting::DynamicForcingChains,
    ];

    /// The level of dynamic forcing chains that `technique` is, if it is one.
    pub(super) fn of(technique: Technique) -> Option<Nesting> {
        Nesting::ALL.into_iter().find(|nesting| nesting.technique() == technique)
    }

    /// The technique of dynamic forcing chains nesting this much, whose rating is their base.
    fn technique(self) -> Technique {
        match self {
            Nesting::Plain => Technique::DynamicForcingChains,
            Nesting::Basic => Technique::DynamicForcingChainsPlus,
            Nesting::ForcingChains => Technique::NestedForcingChains,
            Nesting::MultipleForcingChains => Technique::NestedMultipleForcingChains,
            Nesting::DynamicForcingChains => Technique::NestedDynamicForcingChains,
        }
    }

    /// The techniques tried inside a chain, easiest first.
    pub(super) fn techniques(self) -> &'static [Technique] {
        use Technique::*;
        const ALL: [Technique; 14] = [
            Pointing,
            Claiming,
            NakedPair,
            XWing,
            HiddenPair,
            NakedTriple,
            Swordfish,
            HiddenTriple,
            NakedQuad,
            Jellyfish,
            HiddenQuad,
            // X- and XY-chains and cycles are forcing chains too, and the search for the easiest
            // of those alone costs a fraction of all four's: inside a chain that is what counts.
            ForcingChain,
            MultipleForcingChains,
            DynamicForcingChains,
        ];
        match self {
            Nesting::Plain => &[],
            Nesting::Basic => &ALL[..11],
            Nesting::ForcingChains => &ALL[..12],
            Nesting::MultipleForcingChains => &ALL[..13],
            Nesting::DynamicForcingChains => &ALL,
        }
    }
}

/// One literal an assumption leads to: where its reasons are in [`Implications::reasons`], how
/// many steps from the assumption it was found, and, for one a technique found inside the
/// chain, that technique and the length of its own chains (which the step's length counts too,
/// as SE counts them).
#[derive(Clone, Copy, Debug)]
struct Node {
    literal: Literal,
    reasons_start: u32,
    reasons_len: u16,
    depth: u16,
    nested: Option<(Technique, u16)>,
}

/// When following an assumption ends, besides running out of consequences.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    /// At the first candidate found both true and false (every pending true literal is followed
    /// before a false one, as SE does).
    AtContradiction,
    /// Once `target` is found, or past `depth` steps (nothing further could be short enough);
    /// strictly breadth first, so the target is found by one of its shortest chains.
    At { target: Literal, depth: u16 },
}

/// Everything one assumption leads to, in the order found (the assumption first), until the
/// first contradiction.
#[derive(Clone)]
struct Implications<C: CellSet> {
    on: CandidateSet<C>,
    off: CandidateSet<C>,
    nodes: Vec<Node>,
    /// Node indexes: the literals each node follows from.
    reasons: Vec<u16>,
    /// The two nodes of a candidate found both true and false, if that happened.
    contradiction: Option<(u16, u16)>,
}

impl<C: CellSet> Default for Implications<C> {
    fn default() -> Implications<C> {
        let none = CandidateSet::new();
        Implications { on: none, off: none, nodes: Vec::new(), reasons: Vec::new(), contradiction: None }
    }
}

impl<C: CellSet> Implications<C> {
    fn holds(&self, literal: Literal) -> bool {
        let set = if literal.on { &self.on } else { &self.off };
        set.contains(literal.candidate())
    }

    /// How many literals a node rests on, itself included, and those of the chains found
    /// inside it: the length Sudoku Explainer rates a chain by.
    fn ancestors(&self, node: usize, seen: &mut Vec<bool>) -> usize {
        seen.clear();
        seen.resize(self.nodes.len(), false);
        let mut stack = vec![node];
        let mut count = 0;
        seen[node] = true;
        while let Some(at) = stack.pop() {
            let Node { reasons_start, reasons_len, nested, .. } = self.nodes[at];
            count += 1 + nested.map_or(0, |(_, length)| usize::from(length));
            for &reason in &self.reasons[reasons_start as usize..][..usize::from(reasons_len)] {
                if !std::mem::replace(&mut seen[usize::from(reason)], true) {
                    stack.push(usize::from(reason));
                }
            }
        }
        count
    }

    /// The chain behind a node: every literal it rests on, in the order found (so each follows
    /// from earlier ones), ending with the node.
    fn chain(&self, node: usize, seen: &mut Vec<bool>) -> Vec<Literal> {
        self.ancestors(node, seen);
        (0..self.nodes.len()).filter(|&at| seen[at]).map(|at| self.nodes[at].literal).collect()
    }

    /// [`Implications::chain`] as branch `branch` of a step, noting in `nested` the literals
    /// of it that a technique inside the chain found, with the branch and that technique.
    fn noted_chain(&self, node: usize, branch: usize, seen: &mut Vec<bool>, nested: &mut Vec<Nested>) -> Vec<Literal> {
        let chain = self.chain(node, seen);
        let nodes = self.nodes.iter().zip(seen.iter()).filter(|&(_, &seen)| seen);
        nested
            .extend(nodes.filter_map(|(node, _)| node.nested.map(|(technique, _)| (branch, node.literal, technique))));
        chain
    }
}

/// A literal of a step's chains that a technique nested inside found: the branch (the index of
/// the chain in [`Deduction::chains`]), the literal and the technique.
pub(crate) type Nested = (usize, Literal, Technique);

/// Where each literal of the assumption being followed sits in its [`Implications`], indexed
/// by [`Literal::index`]: on the heap, as on 25x25 it is 62 KiB.
struct Positions(Vec<u16>);

impl Positions {
    fn new<C: CellSet>() -> Positions {
        Positions(vec![0; candidate_count::<C>() * 2])
    }
}

/// The candidates of one grid numbered in the order [`candidates`] lists them, for tables as
/// long as the grid has candidates rather than as long as a grid of its size may have.
#[derive(Default)]
struct Numbering {
    /// Per candidate number ([`candidate`]), its index among the grid's; `u16::MAX` for one the
    /// grid does not have.
    index: Vec<u16>,
    /// The candidate number of each index.
    list: Vec<u16>,
}

impl Numbering {
    fn number<C: CellSet>(&mut self, grid: &Grid<C>) {
        // Unnumber the last grid's candidates (fewer than filling the whole table).
        self.index.resize(candidate_count::<C>(), u16::MAX);
        for &candidate in &self.list {
            self.index[usize::from(candidate)] = u16::MAX;
        }
        self.list.clear();
        for (cell, digit) in candidates(grid) {
            let candidate = candidate::<C>(cell, digit);
            self.index[candidate] = self.list.len() as u16;
            self.list.push(candidate as u16);
        }
    }

    /// Where `literal` is in a table of two per candidate of the grid, as [`Literal::index`].
    fn literal(&self, literal: Literal) -> usize {
        usize::from(self.index[literal.candidate()]) * 2 + usize::from(literal.on)
    }
}

/// The searches' buffers: the consequences of every assumption of a step.
struct Engine<C: CellSet> {
    /// What each literal of the grid leads to ([`Numbering::literal`] of `numbering`), for the
    /// multiple and dynamic searches.
    all: Vec<Implications<C>>,
    numbering: Numbering,
    /// The grid and nesting of dynamic chains `all` holds every assumption's consequences for,
    /// when it does: the next level on the same grid takes up each from where it stalled.
    followed: Option<(GridKey<C>, Nesting)>,
    /// The consequences of one assumption, for the single-chain searches.
    one: Implications<C>,
    positions: Positions,
    seen: Vec<bool>,
    /// The search of every candidate's forcing chain at once.
    sources: Sources,
}

impl<C: CellSet> Default for Engine<C> {
    fn default() -> Engine<C> {
        Engine {
            all: Vec::new(),
            numbering: Numbering::default(),
            followed: None,
            one: Implications::default(),
            positions: Positions::new::<C>(),
            seen: Vec::new(),
            sources: Sources::default(),
        }
    }
}

/// This thread's engines for cell sets `C`: one for the step's own search, one for the
/// searches nested inside its chains (which run while the outer one is half way through an
/// assumption).
type Engines<C> = [RefCell<Engine<C>>; 2];

thread_local! {
    /// Which of the [`Engines`] a search takes: 1 while a nested search runs.
    static DEPTH: Slot<usize> = const { Slot::new(0) };
}

/// While alive, searches take the engine for nested ones; dropped (even by a panic, which the
/// server catches and survives), the step's own again.
struct Inside;

impl Inside {
    fn enter() -> Inside {
        let before = DEPTH.replace(1);
        debug_assert_eq!(before, 0, "nested searches never nest");
        Inside
    }
}

impl Drop for Inside {
    fn drop(&mut self) {
        DEPTH.set(0);
    }
}

/// Runs `search` with this thread's engine for the current nesting depth.
fn with_engine<C: CellSet, R>(search: impl FnOnce(&mut Engine<C>) -> R) -> R {
    let engines = per_thread::<Engines<C>>();
    search(&mut engines[DEPTH.get()].borrow_mut())
}

/// What [`follow`] is asked to do (its fields are the names its description uses).
struct Task {
    assumption: Literal,
    rules: Rules,
    stop: Stop,
    resume: Option<usize>,
    /// The techniques nested inside (bit `i` for the nesting's `i`-th) known to find nothing
    /// in `grid` itself: inside the chain they need look only where the assumption changed it.
    barren: u16,
}

/// Follows `assumption` in `grid` under `rules`, filling `out`, until `stop`. A single chain's
/// search goes on past a contradiction (everything still follows from the assumption), so the
/// chain back to the assumption's opposite is found even then. Only nested techniques are long
/// enough to poll `interrupt`.
///
/// With `resume`, `out` already holds what the assumption leads to under a lower nesting, which
/// stalled there with no contradiction: the first `resume` techniques of `rules`' nesting are
/// the lower one's, which found nothing more, so following goes on from there with the rest.
/// The same steps would lead to the same place again (each nesting tries the one below's
/// techniques first), so this is the same answer for a fraction of the work.
fn follow<C: CellSet>(
    grid: &Grid<C>,
    Task { assumption, rules, stop, resume, barren }: Task,
    out: &mut Implications<C>,
    positions: &mut Positions,
    interrupt: &mut dyn Interrupt,
) -> Result<(), Interrupted> {
    // The candidates ruled out and already followed, per cell and per digit: the dynamic rules
    // count only these as gone, as SE does. A house whose last places are ruled out together
    // then still turns one of them on, and the clash shows the contradiction.
    let mut gone = CandidateSet::<C>::new();
    let mut gone_cells = C::per_digit(C::EMPTY);
    let mut skip = 0;
    if let Some(known) = resume {
        if out.contradiction.is_some() {
            return Ok(());
        }
        for (at, node) in out.nodes.iter().enumerate() {
            positions.0[node.literal.index()] = at as u16;
            if !node.literal.on {
                gone.insert(node.literal.candidate());
                gone_cells.as_mut()[usize::from(node.literal.digit::<C>()) - 1] |= C::cell(node.literal.cell::<C>());
            }
        }
        skip = known;
    } else {
        out.on = CandidateSet::new();
        out.off = CandidateSet::new();
        out.nodes.clear();
        out.reasons.clear();
        out.contradiction = None;
    }
    // A literal rests on at most a cell's other candidates or a digit's other places in a house.
    let mut reasons = C::per_digit(0u16);
    let (on_first, target, max_depth) = match stop {
        Stop::AtContradiction => (true, None, u16::MAX),
        Stop::At { target, depth } => (false, Some(target), depth),
    };
    // Adds a literal found `depth` steps out; false when following should end.
    let push = |out: &mut Implications<C>,
                positions: &mut Positions,
                literal: Literal,
                reasons: &[u16],
                depth: u16,
                nested: Option<(Technique, u16)>| {
        if out.holds(literal) || depth > max_depth {
            return true;
        }
        let at = out.nodes.len() as u16;
        let reasons_start = out.reasons.len() as u32;
        out.nodes.push(Node { literal, reasons_start, reasons_len: reasons.len() as u16, depth, nested });
        out.reasons.extend_from_slice(reasons);
        positions.0[literal.index()] = at;
        let candidate = literal.candidate();
        if literal.on {
            out.on.insert(candidate);
        } else {
            out.off.insert(candidate);
        }
        if out.holds(literal.opposite()) && out.contradiction.is_none() {
            out.contradiction = Some((positions.0[literal.opposite().index()], at));
            if on_first {
                return false;
            }
        }
        target != Some(literal)
    };
    if resume.is_none() {
        push(out, positions, assumption, &[], 0, None);
    }
    let (digit_links, cell_links, dynamic, nesting) = match rules {
        Rules::Static { digit_links, cell_links } => (digit_links, cell_links, false, Nesting::Plain),
        Rules::Dynamic { one_digit, nesting } => (true, !one_digit, true, nesting),
    };
    let mut inner = Deduction::new();
    let mut reduced = None;
    // Breadth first, so a single chain is one of the shortest; the searches that stop at a
    // contradiction take every pending true literal before a false one, as SE does.
    let (mut next_on, mut next_off) = if resume.is_some() { (out.nodes.len(), out.nodes.len()) } else { (0, 0) };
    loop {
        let len = out.nodes.len();
        if on_first {
            while next_on < len && !out.nodes[next_on].literal.on {
                next_on += 1;
            }
            while next_off < len && out.nodes[next_off].literal.on {
                next_off += 1;
            }
        }
        let here = if next_on < len {
            next_on += 1;
            next_on - 1
        } else if on_first && next_off < len {
            next_off += 1;
            next_off - 1
        } else if nesting != Nesting::Plain
            && nested_step(
                grid,
                nesting,
                (std::mem::take(&mut skip), barren),
                out,
                &mut reduced,
                &mut inner,
                interrupt,
            )?
        {
            // What the nested technique concludes rests on the removals its pattern reads.
            let reasons = pattern_reasons(grid.geometry(), &inner, out);
            let length = inner.chains.iter().map(Vec::len).sum::<usize>();
            let nested = Some((inner.technique, u16::try_from(length).unwrap_or(u16::MAX)));
            let depth = out.nodes.last().map_or(0, |node| node.depth.saturating_add(1));
            let placed = inner.placements.iter().map(|placed| (placed, true));
            for (candidate, on) in placed.chain(inner.eliminations.iter().map(|removed| (removed, false))) {
                let literal = Literal::new::<C>(candidate.cell, candidate.digit, on);
                if !push(out, positions, literal, &reasons, depth, nested) {
                    return Ok(());
                }
            }
            continue;
        } else {
            break;
        };
        let Node { literal, depth, .. } = out.nodes[here];
        let (cell, digit) = (literal.cell::<C>(), literal.digit::<C>());
        let (here, depth) = (here as u16, depth.saturating_add(1));
        let all_pushed = if literal.on {
            turned_off(grid, literal, cell_links).all(|off| push(out, positions, off, &[here], depth, None))
        } else if !dynamic {
            turned_on(grid, literal, digit_links, cell_links).all(|on| push(out, positions, on, &[here], depth, None))
        } else {
            // A false candidate, once followed, is gone: which candidates that leaves alone in its
            // cell and its houses, each resting on every candidate gone from there.
            gone.insert(literal.candidate());
            gone_cells.as_mut()[usize::from(digit) - 1] |= C::cell(cell);
            let mut all_pushed = true;
            let left = grid.candidates(cell) & !gone.of_cell(cell);
            if cell_links && is_single(u128::from(left)) {
                let value = left.trailing_zeros() as u8 + 1;
                let gone_here =
                    digits(grid.candidates(cell) & !left).map(|other| Literal::new::<C>(cell, other, false));
                let count = gather(positions, gone_here, reasons.as_mut());
                let on = Literal::new::<C>(cell, value, true);
                all_pushed = push(out, positions, on, &reasons.as_ref()[..count], depth, None);
            }
            for house in grid.geometry().houses_of(cell).filter(|_| digit_links) {
                let members = grid.geometry().cells(house) & grid.cells_with(digit);
                let left = members & !gone_cells.as_ref()[usize::from(digit) - 1];
                if all_pushed && left.is_single() {
                    let gone_here = (members & !left).ones().map(|place| Literal::new::<C>(place, digit, false));
                    let count = gather(positions, gone_here, reasons.as_mut());
                    let on = Literal::new::<C>(left.lowest(), digit, true);
                    all_pushed = push(out, positions, on, &reasons.as_ref()[..count], depth, None);
                }
            }
            all_pushed
        };
        if !all_pushed {
            return Ok(());
        }
    }
    Ok(())
}

/// The grid as the assumption being followed has left it (its true literals placed, its false
/// ones removed), kept from one nested step to the next with, per technique tried inside, what
/// changed since that technique last found nothing there.
struct Reduced<'g, C: CellSet> {
    grid: Grid<'g, C>,
    /// How many of the assumption's nodes `grid` has taken in.
    applied: usize,
    changed: [Changed<C>; 14],
}

impl<C: CellSet> Reduced<'_, C> {
    /// Takes in the nodes of `out` found since the last time; what they removed.
    fn catch_up(&mut self, out: &Implications<C>) -> Changed<C> {
        let before = self.grid.clone();
        for node in &out.nodes[self.applied..] {
            let (cell, digit) = (node.literal.cell::<C>(), node.literal.digit::<C>());
            if node.literal.on {
                self.grid.place(cell, digit);
            } else {
                self.grid.eliminate(cell, digit);
            }
        }
        self.applied = out.nodes.len();
        Changed::between(&before, &self.grid)
    }
}

/// Looks for a step of the techniques `nesting` allows, from the `from`th on, in `grid` as the
/// assumption followed in `out` has left it, leaving it in `found`. `reduced` keeps that grid
/// between the calls of one assumption's following: each call takes in only the literals found
/// since, and a technique that found nothing last time looks only where they changed something.
/// The first call knows that of the techniques `barren` in `grid` itself.
fn nested_step<'g, C: CellSet>(
    grid: &Grid<'g, C>,
    nesting: Nesting,
    (from, barren): (usize, u16),
    out: &Implications<C>,
    reduced: &mut Option<Reduced<'g, C>>,
    found: &mut Deduction,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, Interrupted> {
    let reduced = match reduced {
        Some(reduced) => {
            let changed = reduced.catch_up(out);
            for technique in &mut reduced.changed {
                technique.add(&changed);
            }
            reduced
        }
        None => {
            let changed =
                std::array::from_fn(|at| if barren >> at & 1 == 1 { Changed::none() } else { Changed::all() });
            let mut fresh = Reduced { grid: grid.clone(), applied: 0, changed };
            let assumed = fresh.catch_up(out);
            for technique in &mut fresh.changed {
                technique.add(&assumed);
            }
            // The first `from` found nothing on this very grid (the level below's).
            for technique in &mut fresh.changed[..from] {
                *technique = Changed::none();
            }
            reduced.insert(fresh)
        }
    };
    let _inside = Inside::enter();
    let mut result = Ok(false);
    for (&technique, changed) in nesting.techniques().iter().zip(&mut reduced.changed).skip(from) {
        result = if technique < Technique::ForcingChain {
            super::find_changed(technique, &reduced.grid, changed, found, interrupt)
        } else {
            remembered(&reduced.grid, technique, found, |found| {
                found.start(technique);
                if technique == Technique::ForcingChain {
                    forcing_chain(&reduced.grid, found, f32::INFINITY, true, interrupt)
                } else {
                    super::find_changed(technique, &reduced.grid, &Changed::all(), found, interrupt)
                }
            })
        };
        // Found nothing: nothing to look at again until something changes. Found a step: look
        // everywhere next time.
        *changed = if result == Ok(false) { Changed::none() } else { Changed::all() };
        if result != Ok(false) {
            break;
        }
    }
    result
}

/// How many grids [`remembered`] keeps before it starts over (a few megabytes).
const REMEMBERED: usize = 4096;

/// What the chain searches nested inside found (`None`: nothing) on the grids they met, one
/// per thread and type of cell sets.
type Memo<C> = RefCell<HashMap<(GridKey<C>, Technique), Option<Deduction>>>;

/// `search` for a step of `technique` (a chain) in `grid`, or what it found last time on the
/// same grid: a chain's search depends on the grid alone, and the same grid comes back under
/// other assumptions (a candidate true and the other of its two false lead to one) and at the
/// next step, where the step's own candidate was already gone under the assumption.
fn remembered<C: CellSet>(
    grid: &Grid<C>,
    technique: Technique,
    found: &mut Deduction,
    search: impl FnOnce(&mut Deduction) -> Result<bool, Interrupted>,
) -> Result<bool, Interrupted> {
    let memo = per_thread::<Memo<C>>();
    let key = (grid.key(), technique);
    if let Some(known) = memo.borrow().get(&key).cloned() {
        return Ok(known.is_some_and(|step| {
            *found = step;
            true
        }));
    }
    let result = search(found)?;
    let mut memo = memo.borrow_mut();
    if memo.len() >= REMEMBERED {
        memo.clear();
    }
    memo.insert(key, result.then(|| found.clone()));
    Ok(result)
}

/// The false literals of `out` a nested step's pattern reads: those in its cells, and those of
/// its digits in its houses (the removals that made a subset, a fish or a locked candidate).
fn pattern_reasons<C: CellSet>(geometry: &Geometry<C>, found: &Deduction, out: &Implications<C>) -> Vec<u16> {
    let cells = found.cells.iter().fold(C::EMPTY, |acc, &cell| acc | C::cell(cell));
    let houses = found.houses.iter().fold(C::EMPTY, |acc, &house| acc | geometry.cells(house));
    let digits = found.digits.iter().fold(0u32, |acc, &digit| acc | bit(digit));
    let read = |literal: Literal| {
        let (cell, digit) = (literal.cell::<C>(), literal.digit::<C>());
        !literal.on && (cells.has(cell) || (houses.has(cell) && digits & bit(digit) != 0))
    };
    let reasons: Vec<u16> =
        out.nodes.iter().enumerate().filter(|(_, node)| read(node.literal)).map(|(at, _)| at as u16).collect();
    // A pattern the assumption did not help make would have been found without it; should one
    // read nothing removed, it rests on the assumption itself.
    if reasons.is_empty() { vec![0] } else { reasons }
}

/// Writes into `reasons` where each of `literals` sits among the assumption's nodes; how many.
fn gather(positions: &Positions, literals: impl Iterator<Item = Literal>, reasons: &mut [u16]) -> usize {
    let mut count = 0;
    for (slot, literal) in reasons.iter_mut().zip(literals) {
        *slot = positions.0[literal.index()];
        count += 1;
    }
    count
}

/// What a true `literal` turns off: its cell's other candidates (with `cell_links`), then its
/// digit in every peer.
fn turned_off<'a, C: CellSet>(
    grid: &'a Grid<'_, C>,
    literal: Literal,
    cell_links: bool,
) -> impl Iterator<Item = Literal> + 'a {
    let (cell, digit) = (literal.cell::<C>(), literal.digit::<C>());
    let others = if cell_links { grid.candidates(cell) & !bit(digit) } else { 0 };
    let peers = grid.geometry().peers(cell) & grid.cells_with(digit);
    digits(others)
        .map(move |other| Literal::new::<C>(cell, other, false))
        .chain(peers.ones().map(move |peer| Literal::new::<C>(peer, digit, false)))
}

/// What a false `literal` turns on by the grid's candidates alone: the other candidate of its
/// two-candidate cell (with `cell_links`), then its digit's other place in each house where the
/// digit has two (with `digit_links`). The links are strong, so they run both ways: these are also
/// the candidates whose falsehood makes `literal` true.
fn turned_on<'a, C: CellSet>(
    grid: &'a Grid<'_, C>,
    literal: Literal,
    digit_links: bool,
    cell_links: bool,
) -> impl Iterator<Item = Literal> + 'a {
    let (cell, digit) = (literal.cell::<C>(), literal.digit::<C>());
    let pair = grid.candidates(cell);
    let other = (cell_links && is_pair(u128::from(pair)))
        .then(|| Literal::new::<C>(cell, (pair & !bit(digit)).trailing_zeros() as u8 + 1, true));
    let houses = grid.geometry().houses_of(cell).filter(move |_| digit_links);
    other.into_iter().chain(houses.filter_map(move |house| {
        let places = grid.geometry().cells(house) & grid.cells_with(digit);
        places.is_pair().then(|| Literal::new::<C>((places & !C::cell(cell)).lowest(), digit, true))
    }))
}

/// A conclusion and how hard its chains are.
#[derive(Clone, Copy, Debug)]
struct Found {
    rating: f32,
    conclusion: Literal,
}

/// Whether `literal` changes the grid: a candidate to remove, or one to place (a candidate is
/// always in a blank cell).
fn changes<C: CellSet>(grid: &Grid<C>, literal: Literal) -> bool {
    grid.has(literal.cell::<C>(), literal.digit::<C>())
}

/// Every candidate of the grid, as `(cell, digit)`.
fn candidates<'a, C: CellSet>(grid: &'a Grid<'_, C>) -> impl Iterator<Item = (usize, u8)> + 'a {
    grid.blanks().ones().flat_map(move |cell| digits(grid.candidates(cell)).map(move |digit| (cell, digit)))
}

/// Forcing chains: the shortest static chain from an assumption back to its opposite, using
/// one digit's links (a forcing X-chain), two-candidate cells' (a forcing Y-chain) or both.
/// `inside` a dynamic chain, only chains from a true candidate through any links are looked
/// for: they find every elimination the others do, at a quarter of the cost, and there it is
/// the elimination that counts.
pub(super) fn forcing_chain<C: CellSet>(
    grid: &Grid<C>,
    out: &mut Deduction,
    below: f32,
    inside: bool,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, Interrupted> {
    with_engine(|engine| {
        let Engine { one, positions, seen, sources, .. } = engine;
        let mut best: Option<(Found, Vec<Literal>)> = None;
        if inside {
            // Inside a chain most searches find nothing, and a whole step asks the same of every
            // candidate: the search of all at once says which (the first of the easiest) ends
            // and how far out, and only that one is followed again to be recorded.
            if interrupt.should_stop() {
                return Err(Interrupted);
            }
            let Some((cell, digit, length)) = sources.shortest_refutation(grid, true) else { return Ok(false) };
            let assumption = Literal::new::<C>(cell, digit, true);
            // Breadth first, the target is found at the same depth and by the same chain
            // whatever the depth allowed beyond it.
            let depth = u16::try_from(length - 1).unwrap_or(u16::MAX);
            let stop = Stop::At { target: assumption.opposite(), depth };
            let rules = Rules::Static { digit_links: true, cell_links: true };
            follow(grid, Task { assumption, rules, stop, resume: None, barren: 0 }, one, positions, interrupt)?;
            let end = usize::from(positions.0[assumption.opposite().index()]);
            debug_assert!(one.holds(assumption.opposite()) && one.ancestors(end, seen) == length);
            let found = Found { rating: chain_rating(7.0, length), conclusion: assumption.opposite() };
            return Ok(found.rating < below && record::<C>(out, found, vec![one.chain(end, seen)], Vec::new()));
        }
        // SE's forcing chains: one digit's links (a forcing X-chain) or every link.
        let kinds: &[(bool, bool, f32)] = &[(true, false, 6.6), (true, true, 7.0)];
        for (cell, digit) in candidates(grid) {
            if interrupt.should_stop() {
                return Err(Interrupted);
            }
            for &(digit_links, cell_links, base) in kinds {
                // The longest chain that would still rate below the best so far.
                let bound = best.as_ref().map_or(below, |(found, _)| found.rating);
                let Some(longest) = longest_below(base, bound) else { continue };
                // From "not d", the chain's last link must be a strong one into the candidate.
                let strong_in =
                    turned_on(grid, Literal::new::<C>(cell, digit, false), digit_links, cell_links).next().is_some();
                for on in [true, false] {
                    if !on && !strong_in {
                        continue;
                    }
                    let assumption = Literal::new::<C>(cell, digit, on);
                    let stop = Stop::At { target: assumption.opposite(), depth: longest - 1 };
                    let rules = Rules::Static { digit_links, cell_links };
                    follow(grid, Task { assumption, rules, stop, resume: None, barren: 0 }, one, positions, interrupt)?;
                    if !one.holds(assumption.opposite()) {
                        continue;
                    }
                    let end = usize::from(positions.0[assumption.opposite().index()]);
                    let length = one.ancestors(end, seen);
                    let rating = chain_rating(base, length);
                    if best.as_ref().is_none_or(|(found, _)| rating < found.rating) {
                        let chain = one.chain(end, seen);
                        best = Some((Found { rating, conclusion: assumption.opposite() }, chain));
                    }
                }
            }
        }
        Ok(best.is_some_and(|(found, chain)| record::<C>(out, found, vec![chain], Vec::new())))
    })
}

/// The breadth-first search of every candidate's static chains at once, the transpose of one
/// search per candidate: each literal holds the set of assumptions (sources, bit `i` for the
/// grid's `i`-th candidate true) that reach it, and a level of the search moves every source's
/// front one step along the links in one pass over the literals the last level reached. Its
/// buffers live in the [`Engine`], sized to the grid's candidates. A pass follows up to
/// [`BATCH`] sources (every candidate of a 9x9 grid); larger grids take a pass per batch.
#[derive(Default)]
struct Sources {
    /// The grid's candidates, in the order [`candidates`] lists them.
    numbering: Numbering,
    /// The links as lists of indexes: what each true literal turns off (`weak`) and each false
    /// one turns on (`strong`), the literals of index `i` at `starts[i]..starts[i + 1]`.
    weak: Vec<u16>,
    weak_starts: Vec<u32>,
    strong: Vec<u16>,
    strong_starts: Vec<u32>,
    /// Per literal, `W` words a set of the pass's sources: those that reached it at the last
    /// level, and at any level, for true and for false literals; the next level.
    on_front: Vec<u64>,
    off_front: Vec<u64>,
    on_seen: Vec<u64>,
    off_seen: Vec<u64>,
    next: Vec<u64>,
    /// The literals the last level reached (their fronts are the only ones not empty), those
    /// the next reaches, and per literal the level that last wrote its `next`.
    active: Vec<u16>,
    touched: Vec<u16>,
    stamps: Vec<u32>,
    /// Per source, the length of its shortest refutation once found (0 until then).
    lengths: Vec<u16>,
    /// Whether a search notes in `levels` how far out each source reaches each literal, and
    /// that, at `(source * count + literal index) * 2 + on` (read only where a source reached);
    /// in `reached` the literals each source reaches, `rows` words a source, the true
    /// literals' bits (by index) before the false ones'; and in `contradicted` the sources
    /// that make a candidate both true and false.
    record: bool,
    levels: Vec<u16>,
    reached: Vec<u64>,
    rows: usize,
    contradicted: Vec<u64>,
}

/// The most sources one pass of [`Sources`] follows: sets of 12 words.
const BATCH: usize = 12 * 64;

impl Sources {
    /// The first candidate of `grid`, in [`candidates`] order, among those whose shortest
    /// static chain through any links from it true to it false rates lowest (SE's forcing
    /// chain, 7.0 plus its length), and that length: what asking [`refutation_length`] of each
    /// candidate in turn finds, with the bound tightened by each chain found. With `cut`, the
    /// search stops past the lengths that rate as the first found; without, it goes on until
    /// every source's front dies out, leaving every candidate's shortest length in `lengths`.
    fn shortest_refutation<C: CellSet>(&mut self, grid: &Grid<C>, cut: bool) -> Option<(usize, u8, usize)> {
        self.link(grid);
        let count = self.numbering.list.len();
        self.lengths.clear();
        self.lengths.resize(count, 0);
        if self.record {
            self.levels.resize(count * count * 2, 0);
            self.rows = (count * 2).div_ceil(64);
            self.reached.clear();
            self.reached.resize(count * self.rows, 0);
            self.contradicted.clear();
            self.contradicted.resize(count.div_ceil(64), 0);
        }
        // The rating of the easiest refutation found and the first source that has it.
        let mut best = None;
        for start in (0..count).step_by(BATCH) {
            let batch = start..count.min(start + BATCH);
            // The search with the words of a set known to the compiler, for the sizes a pass has.
            match batch.len().div_ceil(64) {
                1 => self.search::<1>(cut, batch, &mut best),
                2 => self.search::<2>(cut, batch, &mut best),
                3 => self.search::<3>(cut, batch, &mut best),
                4 => self.search::<4>(cut, batch, &mut best),
                5 => self.search::<5>(cut, batch, &mut best),
                6 => self.search::<6>(cut, batch, &mut best),
                7 => self.search::<7>(cut, batch, &mut best),
                8 => self.search::<8>(cut, batch, &mut best),
                9 => self.search::<9>(cut, batch, &mut best),
                10 => self.search::<10>(cut, batch, &mut best),
                11 => self.search::<11>(cut, batch, &mut best),
                _ => self.search::<12>(cut, batch, &mut best),
            }
        }
        best.map(|(_, source)| {
            let literal = Literal::of(usize::from(self.numbering.list[source]), true);
            (literal.cell::<C>(), literal.digit::<C>(), usize::from(self.lengths[source]))
        })
    }

    /// Numbers the candidates of `grid` and lists their links.
    fn link<C: CellSet>(&mut self, grid: &Grid<C>) {
        self.numbering.number(grid);
        let Numbering { index, list } = &self.numbering;
        let at = |cell: usize, digit: u8| index[candidate::<C>(cell, digit)];
        self.weak.clear();
        self.weak_starts.clear();
        self.strong.clear();
        self.strong_starts.clear();
        for &candidate in list {
            let literal = Literal::of(usize::from(candidate), true);
            let (cell, digit) = (literal.cell::<C>(), literal.digit::<C>());
            self.weak_starts.push(self.weak.len() as u32);
            for other in digits(grid.candidates(cell) & !bit(digit)) {
                self.weak.push(at(cell, other));
            }
            for peer in (grid.geometry().peers(cell) & grid.cells_with(digit)).ones() {
                self.weak.push(at(peer, digit));
            }
            self.strong_starts.push(self.strong.len() as u32);
            // As `turned_on`: the cell's other candidate, then the digit's other place in each
            // house.
            let pair = grid.candidates(cell);
            if is_pair(u128::from(pair)) {
                self.strong.push(at(cell, (pair & !bit(digit)).trailing_zeros() as u8 + 1));
            }
            for house in grid.geometry().houses_of(cell) {
                let places = grid.geometry().cells(house) & grid.cells_with(digit);
                if places.is_pair() {
                    self.strong.push(at((places & !C::cell(cell)).lowest(), digit));
                }
            }
        }
        self.weak_starts.push(self.weak.len() as u32);
        self.strong_starts.push(self.strong.len() as u32);
    }

    /// One pass of [`Sources::shortest_refutation`] once the grid is linked: the sources of
    /// `batch`, with sets of `W` words, bit `i` for the batch's `i`-th; `best` the easiest
    /// refutation so far, as `(rating, source)`.
    fn search<const W: usize>(&mut self, cut: bool, batch: Range<usize>, best: &mut Option<(f32, usize)>) {
        let count = self.numbering.list.len();
        // Only the sets of sources seen start empty: a front or a next level is read only
        // where written first.
        for buffer in [&mut self.on_front, &mut self.off_front, &mut self.next] {
            buffer.resize(count * W, 0);
        }
        for buffer in [&mut self.on_seen, &mut self.off_seen] {
            buffer.clear();
            buffer.resize(count * W, 0);
        }
        self.stamps.clear();
        self.stamps.resize(count, 0);
        self.active.clear();
        let (on_front, _) = self.on_front.as_chunks_mut::<W>();
        let (on_seen, _) = self.on_seen.as_chunks_mut::<W>();
        for source in batch.clone() {
            let at = source - batch.start;
            let mut bit = [0u64; W];
            bit[at / 64] = 1u64 << (at % 64);
            on_front[source] = bit;
            on_seen[source] = bit;
            if self.record {
                self.levels[(source * count + source) * 2 + 1] = 0;
                self.reached[source * self.rows + source / 64] |= 1 << (source % 64);
            }
            self.active.push(source as u16);
        }
        let mut depth = 0usize;
        loop {
            // What the sources' new true literals turn off: their digit in their peers, their
            // cell's other candidates. A refutation ends at a false literal, `depth` steps and
            // `depth + 1` literals out.
            depth += 1;
            if cut && best.is_some_and(|(rating, _)| chain_rating(7.0, depth + 1) > rating) {
                break;
            }
            self.step::<W>(depth, true, batch.start);
            let mut first_hit = None;
            for &to in &self.active {
                let to = usize::from(to);
                let Some(at) = to.checked_sub(batch.start).filter(|&at| at < batch.len()) else { continue };
                if self.off_front[to * W + at / 64] >> (at % 64) & 1 == 1 {
                    self.lengths[to] = (depth + 1) as u16;
                    first_hit = Some(first_hit.map_or(to, |hit: usize| hit.min(to)));
                }
            }
            if let Some(hit) = first_hit {
                // Every later refutation of the pass is at least as long, so its first level
                // with one holds its easiest rating; a later level of the same rating may add
                // an earlier source.
                let rating = chain_rating(7.0, depth + 1);
                if best.is_none_or(|(least, first)| rating < least || (rating == least && hit < first)) {
                    *best = Some((rating, hit));
                }
            }
            if self.active.is_empty() {
                break;
            }
            // What the new false literals turn on: the other candidate of a two-candidate cell,
            // the other place of a digit with two in a house. No refutation ends here.
            depth += 1;
            self.step::<W>(depth, false, batch.start);
            if self.active.is_empty() {
                break;
            }
        }
        if self.record {
            // A source that makes a candidate both true and false.
            let (on_seen, _) = self.on_seen.as_chunks::<W>();
            let (off_seen, _) = self.off_seen.as_chunks::<W>();
            let contradicted = &mut self.contradicted[batch.start / 64..];
            for (on, off) in on_seen.iter().zip(off_seen) {
                for ((word, &on), &off) in contradicted.iter_mut().zip(on).zip(off) {
                    *word |= on & off;
                }
            }
        }
    }

    /// Static multiple forcing chains as [`multiple`] finds them with [`Multiple::Static`]
    /// (`base` their rating): among `sets`, in order, the first conclusion of the easiest, as
    /// `(set, conclusion, rating)`. The consequences of every candidate at once, to the end, and
    /// how far out each lies: an assumption followed statically rests each literal on the one it
    /// came from, so a literal `d` steps out has a chain of `d + 1`.
    fn easiest_common<C: CellSet>(
        &mut self,
        grid: &Grid<C>,
        sets: &[Vec<Literal>],
        base: f32,
    ) -> Option<(usize, Literal, f32)> {
        // The search to its end, noting each source's reach.
        self.record = true;
        self.shortest_refutation(grid, false);
        self.record = false;
        let count = self.numbering.list.len();
        if count == 0 {
            return None;
        }
        let (contradicted, rows) = (&self.contradicted, self.rows);
        let mut common = vec![0u64; rows];
        let mut best: Option<(usize, Literal, f32)> = None;
        for (at, set) in sets.iter().enumerate() {
            let sources: Vec<usize> =
                set.iter().map(|literal| usize::from(self.numbering.index[literal.candidate()])).collect();
            if sources.iter().any(|&source| contradicted[source / 64] >> (source % 64) & 1 == 1) {
                continue;
            }
            common.copy_from_slice(&self.reached[sources[0] * rows..][..rows]);
            for &source in &sources[1..] {
                for (common, &reached) in common.iter_mut().zip(&self.reached[source * rows..][..rows]) {
                    *common &= reached;
                }
            }
            // True conclusions first, then false ones, each in the grid's order.
            for (word, &bits) in common.iter().enumerate() {
                for bit in ones(u128::from(bits)) {
                    let column = word * 64 + bit;
                    let (to, on) = if column < count { (column, true) } else { (column - count, false) };
                    let conclusion = Literal::of(usize::from(self.numbering.list[to]), on);
                    if set.contains(&conclusion) {
                        continue;
                    }
                    let steps = sources.iter().map(|&source| self.levels[(source * count + to) * 2 + usize::from(on)]);
                    let length = steps.map(|level| usize::from(level) + 1).sum();
                    let rating = chain_rating(base, length);
                    if best.is_none_or(|(_, _, least)| rating < least) {
                        best = Some((at, conclusion, rating));
                    }
                }
            }
        }
        best
    }

    /// One level: the fronts of the `active` literals (true ones when `from_on`) moved along
    /// their links, less the sources that reached a literal before, become the new fronts; the
    /// literals reached become `active`. The pass's sources start at `first_source`.
    fn step<const W: usize>(&mut self, level: usize, from_on: bool, first_source: usize) {
        let level = level as u32;
        let (links, starts) =
            if from_on { (&self.weak, &self.weak_starts) } else { (&self.strong, &self.strong_starts) };
        let (fronts, into_front, into_seen) = if from_on {
            (&self.on_front, &mut self.off_front, &mut self.off_seen)
        } else {
            (&self.off_front, &mut self.on_front, &mut self.on_seen)
        };
        let (fronts, _) = fronts.as_chunks::<W>();
        let (into_front, _) = into_front.as_chunks_mut::<W>();
        let (into_seen, _) = into_seen.as_chunks_mut::<W>();
        let (next, _) = self.next.as_chunks_mut::<W>();
        self.touched.clear();
        for &from in &self.active {
            let from = usize::from(from);
            let front = &fronts[from];
            for &to in &links[starts[from] as usize..starts[from + 1] as usize] {
                let to = usize::from(to);
                let next = &mut next[to];
                if self.stamps[to] != level {
                    self.stamps[to] = level;
                    self.touched.push(to as u16);
                    *next = *front;
                } else {
                    for (next, &word) in next.iter_mut().zip(front) {
                        *next |= word;
                    }
                }
            }
        }
        // A front is read only while its literal is active, just after it is written: older
        // ones need no clearing.
        self.active.clear();
        for &to in &self.touched {
            let to = usize::from(to);
            let (next, seen) = (&next[to], &mut into_seen[to]);
            let mut any = 0;
            let mut fresh = [0u64; W];
            for ((fresh, &next), seen) in fresh.iter_mut().zip(next).zip(seen.iter_mut()) {
                *fresh = next & !*seen;
                *seen |= *fresh;
                any |= *fresh;
            }
            into_front[to] = fresh;
            if self.record && any != 0 {
                let count = self.numbering.list.len();
                let (on, column) = (usize::from(!from_on), if from_on { count + to } else { to });
                for (word, &bits) in fresh.iter().enumerate() {
                    for bit in ones(u128::from(bits)) {
                        let source = first_source + word * 64 + bit;
                        self.levels[(source * count + to) * 2 + on] = level as u16;
                        self.reached[source * self.rows + column / 64] |= 1 << (column % 64);
                    }
                }
            }
            if any != 0 {
                self.active.push(to as u16);
            }
        }
    }
}

/// The strong links of a grid, looked up per false candidate by [`refutation_length`] instead
/// of counting a house's places each time.
#[cfg(test)]
struct Partners<C: CellSet> {
    /// Per digit (from 0) and cell, the other place of the digit in each house of the cell
    /// where it has two.
    places: Vec<C::PerCell<C>>,
    /// Per cell, its candidates when it has two, else none.
    pairs: Vec<u32>,
}

#[cfg(test)]
impl<C: CellSet> Partners<C> {
    fn of(grid: &Grid<C>) -> Partners<C> {
        let geometry = grid.geometry();
        let mut places = vec![C::per_cell(C::EMPTY); geometry.side()];
        for (index, partners) in places.iter_mut().enumerate() {
            let digit = index as u8 + 1;
            for &house in geometry.all_cells() {
                let cells = house & grid.cells_with(digit);
                if cells.is_pair() {
                    let (first, second) = (cells.lowest(), cells.without_lowest().lowest());
                    partners.as_mut()[first] |= C::cell(second);
                    partners.as_mut()[second] |= C::cell(first);
                }
            }
        }
        let pairs = (0..geometry.cell_count()).map(|cell| grid.candidates(cell));
        let pairs = pairs.map(|set| if set.count_ones() == 2 { set } else { 0 });
        Partners { places, pairs: pairs.collect() }
    }
}

/// How long the shortest static chain through any links is, from `digit` true in `cell` to it
/// false, if it is at most `max_depth` steps: what [`follow`] finds breadth first (each of its
/// static literals rests on one, so the chain has a literal more than steps), without recording
/// the chain. Literals as sets of cells per digit, a whole level at a time. One candidate at a
/// time, the oracle [`Sources::shortest_refutation`] is held to.
#[cfg(test)]
fn refutation_length<C: CellSet>(
    grid: &Grid<C>,
    partners: &Partners<C>,
    cell: usize,
    digit: u8,
    max_depth: u16,
) -> Option<usize> {
    let start = usize::from(digit) - 1;
    let none = C::per_digit(C::EMPTY);
    let (mut on_seen, mut off_seen) = (none, none);
    let mut on_front = none;
    on_front.as_mut()[start] = C::cell(cell);
    on_seen.as_mut()[start] = C::cell(cell);
    let mut depth = 0;
    loop {
        // What the new true literals turn off: their digit in their peers, their cell's others.
        depth += 1;
        if depth > max_depth {
            return None;
        }
        let mut off_front = none;
        for (index, &cells) in on_front.as_ref().iter().enumerate() {
            let at = index as u8 + 1;
            for on in cells.ones() {
                off_front.as_mut()[index] |= grid.geometry().peers(on) & grid.cells_with(at);
                for other in digits(grid.candidates(on) & !bit(at)) {
                    off_front.as_mut()[usize::from(other) - 1] |= C::cell(on);
                }
            }
        }
        let mut any = C::EMPTY;
        for (front, seen) in off_front.as_mut().iter_mut().zip(off_seen.as_mut()) {
            *front &= !*seen;
            *seen |= *front;
            any |= *front;
        }
        if off_front.as_ref()[start].has(cell) {
            return Some(usize::from(depth) + 1);
        }
        if any.is_empty() {
            return None;
        }
        // What the new false literals turn on: the other candidate of a two-candidate cell, the
        // other place of a digit with two in a house.
        depth += 1;
        if depth > max_depth {
            return None;
        }
        let mut on_new = none;
        for (index, &cells) in off_front.as_ref().iter().enumerate() {
            let at = bit(index as u8 + 1);
            for off in cells.ones() {
                on_new.as_mut()[index] |= partners.places[index].as_ref()[off];
                let pair = partners.pairs[off];
                if pair & at != 0 {
                    on_new.as_mut()[(pair & !at).trailing_zeros() as usize] |= C::cell(off);
                }
            }
        }
        let mut any = C::EMPTY;
        for (front, seen) in on_new.as_mut().iter_mut().zip(on_seen.as_mut()) {
            *front &= !*seen;
            *seen |= *front;
            any |= *front;
        }
        if any.is_empty() {
            return None;
        }
        on_front = on_new;
    }
}

/// Bidirectional cycles: a loop of alternating links that closes on itself, from a candidate
/// back to it, holds read either way round, so one of its two colourings is the truth. A
/// candidate that sees a true end of one colouring and of the other is false either way. Kinds
/// as SE: one digit's links (an X-cycle, 6.5), two-candidate cells' (a Y-cycle, 6.5) or both
/// (7.0), plus the cycle's length; only cycles rating below `below` are looked for.
pub(super) fn cycle<C: CellSet>(
    grid: &Grid<C>,
    out: &mut Deduction,
    below: f32,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, Interrupted> {
    let kinds = [
        (true, false, 6.5, Technique::XCycle),
        (false, true, 6.5, Technique::YCycle),
        (true, true, 7.0, Technique::XYCycle),
    ];
    let mut best: Option<(f32, Technique, Cycle<C>)> = None;
    let mut nodes: Vec<(Literal, u16)> = Vec::new();
    for (digit_links, cell_links, base, technique) in kinds {
        for (cell, digit) in candidates(grid) {
            if interrupt.should_stop() {
                return Err(Interrupted);
            }
            // Y-cycles start from two-candidate cells, as SE's do.
            if !digit_links && grid.candidates(cell).count_ones() != 2 {
                continue;
            }
            let bound = best.as_ref().map_or(below, |found| found.0);
            let Some(longest) = longest_below(base, bound) else { break };
            let start = Literal::new::<C>(cell, digit, true);
            if let Some((length, cycle)) =
                find_cycle(grid, start, digit_links, cell_links, usize::from(longest), &mut nodes)
            {
                let rating = chain_rating(base, length);
                if best.as_ref().is_none_or(|found| rating < found.0) {
                    best = Some((rating, technique, cycle));
                }
            }
        }
    }
    Ok(best.is_some_and(|(rating, technique, (loop_, eliminated))| {
        out.start(technique);
        out.rating = rating;
        let mut cells: Vec<usize> = loop_.iter().map(|literal| literal.cell::<C>()).collect();
        cells.sort_unstable();
        cells.dedup();
        out.add_cells(cells);
        for (digit, &cells) in (1..).zip(eliminated.as_ref()) {
            out.eliminate(cells, digit);
        }
        out.chains = vec![loop_];
        out.finish()
    }))
}

/// A cycle's literals, the start at both ends, and what it eliminates per digit.
type Cycle<C> = (Vec<Literal>, <C as CellSet>::PerDigit<C>);

/// The shortest cycle through `start` (at most `longest` literals) that eliminates something:
/// its length, its literals from `start` back to it, and what it eliminates per digit. Breadth
/// first in alternating layers, each literal followed once; a loop closes when a true literal
/// rules out a candidate whose falsehood would make `start` true again (another candidate of its
/// two-candidate cell, or its digit's other place in a house), however early that candidate was
/// reached, so a loop may come back through the start's own cell.
fn find_cycle<C: CellSet>(
    grid: &Grid<C>,
    start: Literal,
    digit_links: bool,
    cell_links: bool,
    longest: usize,
    nodes: &mut Vec<(Literal, u16)>,
) -> Option<(usize, Cycle<C>)> {
    nodes.clear();
    nodes.push((start, u16::MAX));
    let (mut seen_on, mut seen_off) = (CandidateSet::<C>::new(), CandidateSet::<C>::new());
    seen_on.insert(start.candidate());
    // The candidates whose falsehood makes `start` true, the cycle's last link: those a false
    // `start` would turn on (strong links run both ways), its cell's other candidate and its
    // digit's other place in each of its houses (up to eight, on an X grid's centre five).
    let mut closers = [u16::MAX; 9];
    for (slot, closer) in closers.iter_mut().zip(turned_on(grid, start.opposite(), digit_links, cell_links)) {
        *slot = closer.candidate;
    }
    if closers[0] == u16::MAX {
        return None;
    }
    let closes = |off: Literal| closers.contains(&off.candidate);
    let (mut layer_start, mut depth) = (0, 0);
    while layer_start < nodes.len() && depth + 2 <= longest {
        let layer_end = nodes.len();
        for at in layer_start..layer_end {
            let (literal, _) = nodes[at];
            if literal.on {
                for off in turned_off(grid, literal, cell_links) {
                    // Four literals at least: start, a link out, a link back, the closing one.
                    if depth >= 2 && closes(off) {
                        let mut loop_ = vec![start, off];
                        let mut back = at as u16;
                        while back != u16::MAX {
                            loop_.push(nodes[usize::from(back)].0);
                            back = nodes[usize::from(back)].1;
                        }
                        loop_.reverse();
                        let eliminated = cycle_eliminations(grid, &loop_);
                        if eliminated.as_ref().iter().any(|cells| !cells.is_empty()) {
                            return Some((loop_.len() - 1, (loop_, eliminated)));
                        }
                    }
                    if !seen_off.contains(off.candidate()) {
                        seen_off.insert(off.candidate());
                        nodes.push((off, at as u16));
                    }
                }
                continue;
            }
            for on in turned_on(grid, literal, digit_links, cell_links) {
                if !seen_on.contains(on.candidate()) {
                    seen_on.insert(on.candidate());
                    nodes.push((on, at as u16));
                }
            }
        }
        layer_start = layer_end;
        depth += 1;
    }
    None
}

/// What a cycle (its literals, the start at both ends) eliminates, per digit: the candidates
/// outside its cells that see a true literal of each reading.
fn cycle_eliminations<C: CellSet>(grid: &Grid<C>, loop_: &[Literal]) -> C::PerDigit<C> {
    let cells = loop_.iter().fold(C::EMPTY, |acc, literal| acc | C::cell(literal.cell::<C>()));
    let (mut forward, mut backward) = (C::per_digit(C::EMPTY), C::per_digit(C::EMPTY));
    for literal in &loop_[1..] {
        let digit = usize::from(literal.digit::<C>()) - 1;
        let seen = grid.geometry().peers(literal.cell::<C>()) & grid.cells_with(literal.digit::<C>()) & !cells;
        let reading = if literal.on { &mut forward } else { &mut backward };
        reading.as_mut()[digit] |= seen;
    }
    for (forward, &backward) in forward.as_mut().iter_mut().zip(backward.as_ref()) {
        *forward &= backward;
    }
    forward
}

/// The most literals a chain of technique rating `base` may have to rate below `bound`
/// (unbounded for an infinite bound), `None` if even the shortest does not.
fn longest_below(base: f32, bound: f32) -> Option<u16> {
    if bound.is_infinite() {
        return Some(u16::MAX);
    }
    (2..u16::MAX).take_while(|&length| chain_rating(base, length.into()) < bound).last()
}

/// Which searches [`multiple`] runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Multiple {
    /// A digit's assumptions followed dynamically within the digit, looking for contradictions.
    Nishio,
    /// Static consequences of every candidate and its opposite, cells and houses.
    Static,
    /// The same, followed dynamically, nesting other techniques inside as told.
    Dynamic(Nesting),
}

/// Nishio, multiple and dynamic forcing chains: a contradiction from one assumption, or a
/// literal that follows from both a candidate and its opposite, from each candidate of a cell, or
/// from each place of a digit in a house. The easiest such conclusion wins.
pub(super) fn multiple<C: CellSet>(
    grid: &Grid<C>,
    out: &mut Deduction,
    kind: Multiple,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, Interrupted> {
    if kind == Multiple::Static && DEPTH.get() == 1 {
        return multiple_inside(grid, out, interrupt);
    }
    let (rules, base) = match kind {
        Multiple::Nishio => (Rules::Dynamic { one_digit: true, nesting: Nesting::Plain }, Technique::Nishio.rating()),
        Multiple::Static => {
            (Rules::Static { digit_links: true, cell_links: true }, Technique::MultipleForcingChains.rating())
        }
        Multiple::Dynamic(nesting) => (Rules::Dynamic { one_digit: false, nesting }, nesting.technique().rating()),
    };
    with_engine(|engine| {
        let Engine { all, numbering, followed, positions, seen, .. } = engine;
        numbering.number(grid);
        // Only grows: its buffers are kept from step to step.
        if all.len() < numbering.list.len() * 2 {
            all.resize_with(numbering.list.len() * 2, Implications::default);
        }
        let at = |literal: Literal| numbering.literal(literal);
        // The level below on this grid stalled everywhere (or it would have concluded): go on
        // from there.
        let resume = match (kind, followed.take()) {
            (Multiple::Dynamic(nesting), Some((before, below))) if below < nesting && before == grid.key() => {
                Some(below.techniques().len())
            }
            _ => None,
        };
        // The techniques nested inside that find nothing in the grid itself (on the rating path
        // all of them, being easier than these chains; checked all the same, it costs little):
        // inside each assumption's chain they look only where it changed the grid. Forcing
        // chains and those above are not narrowed.
        let mut barren = 0u16;
        if let Multiple::Dynamic(nesting) = kind {
            let mut scratch = Deduction::new();
            for (at, &technique) in nesting
                .techniques()
                .iter()
                .enumerate()
                .take_while(|&(_, &technique)| technique < Technique::ForcingChain)
            {
                if !super::find(technique, grid, &mut scratch, interrupt)? {
                    barren |= 1 << at;
                }
            }
        }
        // Static chains start only from true candidates; the others from both.
        let polarities: &[bool] = if kind == Multiple::Static { &[true] } else { &[true, false] };
        for (cell, digit) in candidates(grid) {
            if interrupt.should_stop() {
                return Err(Interrupted);
            }
            for &on in polarities {
                let assumption = Literal::new::<C>(cell, digit, on);
                let out = &mut all[at(assumption)];
                let task = Task { assumption, rules, stop: Stop::AtContradiction, resume, barren };
                follow(grid, task, out, positions, interrupt)?;
            }
        }
        // Searches nested inside never go on to a next level.
        if let Multiple::Dynamic(nesting) = kind
            && DEPTH.get() == 0
        {
            *followed = Some((grid.key(), nesting));
        }
        type Best = (Found, Vec<Vec<Literal>>, Vec<Nested>);
        let mut best: Option<Best> = None;
        type Branches<'a> = &'a dyn Fn(&mut Vec<bool>, &mut Vec<Nested>) -> Vec<Vec<Literal>>;
        let mut offer = |found: Found, branches: Branches, seen: &mut Vec<bool>| {
            if best.as_ref().is_none_or(|(best, _, _)| found.rating < best.rating) {
                let mut nested = Vec::new();
                let chains = branches(seen, &mut nested);
                best = Some((found, chains, nested));
            }
        };
        // Contradictions, nishio's and the dynamic ones: the assumption is false.
        if kind != Multiple::Static {
            for (cell, digit) in candidates(grid) {
                for on in [true, false] {
                    let assumption = Literal::new::<C>(cell, digit, on);
                    let implications = &all[at(assumption)];
                    let Some((first, second)) = implications.contradiction else { continue };
                    let (first, second) = (usize::from(first), usize::from(second));
                    let length = implications.ancestors(first, seen) + implications.ancestors(second, seen);
                    let found = Found { rating: chain_rating(base, length), conclusion: assumption.opposite() };
                    let branches = |seen: &mut Vec<bool>, nested: &mut Vec<Nested>| {
                        vec![
                            implications.noted_chain(first, 0, seen, nested),
                            implications.noted_chain(second, 1, seen, nested),
                        ]
                    };
                    offer(found, &branches, seen);
                }
            }
        }
        if kind == Multiple::Nishio {
            return Ok(best.is_some_and(|(found, chains, nested)| record::<C>(out, found, chains, nested)));
        }
        for set in &sets(grid, kind) {
            if interrupt.should_stop() {
                return Err(Interrupted);
            }
            let branches: Vec<&Implications<C>> = set.iter().map(|&literal| &all[at(literal)]).collect();
            if branches.iter().any(|branch| branch.contradiction.is_some()) {
                continue;
            }
            let mut common_on = branches[0].on;
            let mut common_off = branches[0].off;
            for branch in &branches[1..] {
                for (common, branch) in [(&mut common_on, &branch.on), (&mut common_off, &branch.off)] {
                    for (word, &theirs) in common.0.as_mut().iter_mut().zip(branch.0.as_ref()) {
                        *word &= theirs;
                    }
                }
            }
            for (common, on) in [(common_on, true), (common_off, false)] {
                for (word, &bits) in common.0.as_ref().iter().enumerate() {
                    for bit_index in ones(u128::from(bits)) {
                        let conclusion = Literal::of(word * 64 + bit_index, on);
                        if !changes(grid, conclusion) || set.contains(&conclusion) {
                            continue;
                        }
                        let ends: Vec<usize> = branches
                            .iter()
                            .map(|branch| branch.nodes.iter().position(|node| node.literal == conclusion))
                            .map(|end| end.expect("a literal every branch holds is among its nodes"))
                            .collect();
                        let length: usize =
                            branches.iter().zip(&ends).map(|(branch, &end)| branch.ancestors(end, seen)).sum();
                        let found = Found { rating: chain_rating(base, length), conclusion };
                        let chains = |seen: &mut Vec<bool>, nested: &mut Vec<Nested>| {
                            let ends = branches.iter().zip(&ends).enumerate();
                            ends.map(|(index, (branch, &end))| branch.noted_chain(end, index, seen, nested)).collect()
                        };
                        offer(found, &chains, seen);
                    }
                }
            }
        }
        Ok(best.is_some_and(|(found, chains, nested)| record::<C>(out, found, chains, nested)))
    })
}

/// Sets of assumptions one of which holds. SE starts its static chains only from cells of three
/// or more candidates (its region chains too, from the house's first place), its dynamic ones
/// from any open cell, with the double chains of a candidate and its opposite again from three.
fn sets<C: CellSet>(grid: &Grid<C>, kind: Multiple) -> Vec<Vec<Literal>> {
    let fewest = if kind == Multiple::Static { 3 } else { 2 };
    let mut sets: Vec<Vec<Literal>> = Vec::new();
    if matches!(kind, Multiple::Dynamic(_)) {
        for (cell, digit) in candidates(grid).filter(|&(cell, _)| grid.candidates(cell).count_ones() >= 3) {
            sets.push(vec![Literal::new::<C>(cell, digit, true), Literal::new::<C>(cell, digit, false)]);
        }
    }
    for cell in grid.blanks().ones().filter(|&cell| grid.candidates(cell).count_ones() >= fewest) {
        sets.push(digits(grid.candidates(cell)).map(|digit| Literal::new::<C>(cell, digit, true)).collect());
    }
    for house in 0..grid.geometry().house_count() {
        for digit in 1..=grid.geometry().side() as u8 {
            let places = grid.geometry().cells(house) & grid.cells_with(digit);
            if places.more_than(1) && grid.candidates(places.lowest()).count_ones() >= fewest {
                sets.push(places.ones().map(|place| Literal::new::<C>(place, digit, true)).collect());
            }
        }
    }
    sets
}

/// Static multiple forcing chains inside a dynamic chain, where they are asked for thousands of
/// times a step: the search of every candidate at once says which set concludes what, and only
/// that set's assumptions are followed again to record their chains. The step [`multiple`]
/// finds, which on the step's own grid is the reference the tests hold this one to.
fn multiple_inside<C: CellSet>(
    grid: &Grid<C>,
    out: &mut Deduction,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, Interrupted> {
    if interrupt.should_stop() {
        return Err(Interrupted);
    }
    with_engine(|engine| {
        let Engine { one, positions, seen, sources, .. } = engine;
        let sets = sets(grid, Multiple::Static);
        let base = Technique::MultipleForcingChains.rating();
        let Some((at, conclusion, rating)) = sources.easiest_common(grid, &sets, base) else { return Ok(false) };
        let rules = Rules::Static { digit_links: true, cell_links: true };
        let (mut chains, mut nested) = (Vec::new(), Vec::new());
        for (branch, &assumption) in sets[at].iter().enumerate() {
            let task = Task { assumption, rules, stop: Stop::AtContradiction, resume: None, barren: 0 };
            follow(grid, task, one, positions, interrupt)?;
            debug_assert!(one.holds(conclusion) && one.contradiction.is_none());
            let end = usize::from(positions.0[conclusion.index()]);
            chains.push(one.noted_chain(end, branch, seen, &mut nested));
        }
        debug_assert_eq!(chain_rating(base, chains.iter().map(Vec::len).sum()), rating);
        Ok(record::<C>(out, Found { rating, conclusion }, chains, nested))
    })
}

/// Records a conclusion, the chains it rests on (each starting with its assumption) and their
/// literals a technique nested inside found.
fn record<C: CellSet>(out: &mut Deduction, found: Found, chains: Vec<Vec<Literal>>, nested: Vec<Nested>) -> bool {
    out.nested = nested;
    out.rating = found.rating;
    let conclusion = found.conclusion;
    let mut cells: Vec<usize> = chains.iter().flatten().map(|literal| literal.cell::<C>()).collect();
    cells.sort_unstable();
    cells.dedup();
    out.add_cells(cells);
    out.add_digits([conclusion.digit::<C>()]);
    out.chains = chains;
    if conclusion.on {
        out.place(conclusion.cell::<C>(), conclusion.digit::<C>())
    } else {
        out.eliminations.push(CellDigit { cell: conclusion.cell::<C>(), digit: conclusion.digit::<C>() });
        true
    }
}

/// Branch `branch` of a step, after its assumption: "r1c5 isn't 5, so r4c5 is 5, so ...", each
/// literal a technique inside the chain found followed by that technique: "r3c4 isn't 7 (Naked
/// pair)".
fn describe_chain<C: CellSet>(geometry: &Geometry<C>, chain: &[Literal], branch: usize, nested: &[Nested]) -> String {
    let by = |literal: Literal| nested.iter().find(|&&(at, found, _)| at == branch && found == literal);
    join_so(chain[1..].iter().map(|&literal| match by(literal) {
        Some((_, _, technique)) => format!("{} ({technique})", literal.describe(geometry)),
        None => literal.describe(geometry),
    }))
}

fn join_so(parts: impl Iterator<Item = String>) -> String {
    parts.collect::<Vec<_>>().join(", so ")
}

/// The sentence of a forcing-chain step.
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let name = |found: &CellDigit| (geometry.cell_name(found.cell), symbol(found.digit));
    let conclusion = match (deduction.placements.first().map(name), deduction.eliminations.first().map(name)) {
        (Some((cell, digit)), _) => format!("{cell} = {digit}"),
        (None, Some((cell, digit))) => format!("{cell} can't be {digit}"),
        (None, None) => unreachable!("a forcing chain concludes something"),
    };
    let (chains, nested) = (&deduction.chains, &deduction.nested);
    let assumed = |chain: &[Literal]| chain[0].describe(geometry);
    let first = &chains[0];
    if chains.len() == 1 {
        let chain = describe_chain(geometry, first, 0, nested);
        return format!("If {}, then {chain}: a contradiction, so {conclusion}.", assumed(first));
    }
    if chains.iter().all(|chain| chain[0] == first[0]) {
        // A contradiction: the same assumption leads to a candidate and its opposite.
        let branches = join(
            chains.iter().enumerate().map(|(branch, chain)| describe_chain(geometry, chain, branch, nested)),
            "and also",
        );
        return format!("If {}, then {branches}: a contradiction, so {conclusion}.", assumed(first));
    }
    let branches: Vec<String> = chains
        .iter()
        .enumerate()
        .map(|(at, chain)| format!("if {}, {}", assumed(chain), describe_chain(geometry, chain, at, nested)))
        .collect();
    let starts: Vec<Literal> = chains.iter().map(|chain| chain[0]).collect();
    let cell = geometry.cell_name(starts[0].cell::<C>());
    let digit = symbol(starts[0].digit::<C>());
    let opening = if starts.len() == 2 && starts[0] == starts[1].opposite() {
        format!("Whether or not {cell} is {digit}")
    } else if starts.iter().all(|start| start.cell::<C>() == starts[0].cell::<C>()) {
        format!("Whatever {cell} is")
    } else {
        let mut houses = geometry.houses_of(starts[0].cell::<C>());
        let house = houses.find(|&house| starts.iter().all(|start| geometry.cells(house).has(start.cell::<C>())));
        let house = house.expect("a digit's places in a house share it");
        format!("Wherever {digit} goes in {}", geometry.name(house))
    };
    format!("{opening}, {conclusion}: {}.", branches.join("; "))
}

/// "The loop r1c1 is 5, so r1c5 isn't 5, ..., so r1c1 is 5 holds read either way round, so r2c5
/// can't be 5 and r7c7 can't be 2."
pub(super) fn describe_cycle<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let loop_ = &deduction.chains[0];
    let mut lost: Vec<String> = Vec::new();
    for digit in 1..=geometry.side() as u8 {
        let cells: Vec<usize> =
            deduction.eliminations.iter().filter(|gone| gone.digit == digit).map(|gone| gone.cell).collect();
        if !cells.is_empty() {
            lost.push(format!("{} can't be {}", crate::logic::step::cell_list(geometry, cells), symbol(digit)));
        }
    }
    format!(
        "The loop {} holds read either way round, so {}.",
        join_so(loop_.iter().map(|literal| literal.describe(geometry))),
        join(lost, "and")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::Never;
    use crate::logic::cells::Wide;
    use crate::logic::techniques::testing::{cand, run, sparse, sparse_over};

    /// r2c2 = 1 empties r1c1 of 1, so r1c1 = 2, r1c5 = 3, r2c6 = 1, which r2c2 sees. r3c3 and
    /// r2c9 keep box 1 and row 2 from being pairs of 1, so no chain runs backwards.
    const CHAIN: &[(usize, usize, &[u8])] =
        &[(2, 2, &[1, 9]), (1, 1, &[1, 2]), (1, 5, &[2, 3]), (2, 6, &[3, 1]), (3, 3, &[1, 8]), (2, 9, &[1, 8])];

    /// Whatever r5c5 is (1, 2 or 3), a 7 lands in r5c9, r9c5 or r9c1, each seeing r9c9; r1c9
    /// keeps 7 in column 9 from being a pair.
    const CELL_FORCING: &[(usize, usize, &[u8])] = &[
        (1, 9, &[6, 7]),
        (5, 5, &[1, 2, 3]),
        (5, 9, &[1, 7]),
        (9, 5, &[2, 7]),
        (5, 1, &[3, 4]),
        (9, 1, &[4, 7]),
        (9, 9, &[7, 8]),
    ];

    /// `CHAIN` on 25x25: its third and fourth cells a column further right, into the second
    /// box (5x5), and the 1 keeping row 2 from being a pair in the third box.
    const CHAIN_25: &[(usize, usize, &[u8])] =
        &[(2, 2, &[1, 9]), (1, 1, &[1, 2]), (1, 6, &[2, 3]), (2, 7, &[3, 1]), (3, 3, &[1, 8]), (2, 12, &[1, 8])];

    #[test]
    fn forcing_chain_from_a_candidate_back_to_its_opposite() {
        let grid = sparse(CHAIN);
        let mut out = Deduction::new();
        out.start(Technique::ForcingChain);
        assert!(forcing_chain(&grid, &mut out, f32::INFINITY, false, &mut Never).unwrap());
        assert_eq!(out.eliminations, [cand(2, 2, 1)]);
        assert_eq!(out.rating, 7.1, "eight literals, from r2c2 = 1 to r2c2 isn't 1");
        assert_eq!(
            describe(Geometry::classic(), &out),
            "If r2c2 is 1, then r1c1 isn't 1, so r1c1 is 2, so r1c5 isn't 2, so r1c5 is 3, so r2c6 isn't 3, so r2c6 \
             is 1, so r2c2 isn't 1: a contradiction, so r2c2 can't be 1."
        );
        // Broken at r1c5, the chain never comes back.
        let grid = sparse(&[
            (2, 2, &[1, 9]),
            (1, 1, &[1, 2]),
            (1, 5, &[2, 3, 4]),
            (2, 6, &[3, 1]),
            (3, 3, &[1, 8]),
            (2, 9, &[1, 8]),
        ]);
        let mut out = Deduction::new();
        out.start(Technique::ForcingChain);
        assert!(!forcing_chain(&grid, &mut out, f32::INFINITY, false, &mut Never).unwrap());
    }

    #[test]
    fn cell_forcing_chains_agree_whatever_the_cell_holds() {
        let cells = CELL_FORCING;
        let step = run(Technique::MultipleForcingChains, &sparse(cells)).unwrap();
        assert_eq!(step.eliminations, [cand(9, 9, 7)]);
        assert_eq!(step.rating, 8.3, "branches of 4, 4 and 6 literals");
        assert_eq!(
            describe(Geometry::classic(), &step),
            "Whatever r5c5 is, r9c9 can't be 7: if r5c5 is 1, r5c9 isn't 1, so r5c9 is 7, so r9c9 isn't 7; if r5c5 \
             is 2, r9c5 isn't 2, so r9c5 is 7, so r9c9 isn't 7; if r5c5 is 3, r5c1 isn't 3, so r5c1 is 4, so r9c1 \
             isn't 4, so r9c1 is 7, so r9c9 isn't 7."
        );
        // With r5c1 free to be something else, the third branch proves nothing.
        let open: Vec<_> = cells
            .iter()
            .map(|&(row, col, digits)| if (row, col) == (5, 1) { (5, 1, &[3, 4, 6][..]) } else { (row, col, digits) })
            .collect();
        assert!(run(Technique::MultipleForcingChains, &sparse(&open)).is_none());
    }

    /// The rows, columns and boxes of a `size`x`size` grid.
    fn geometry_of<C: CellSet>(size: usize) -> Geometry<C> {
        Geometry::of_shape(crate::sizes::Shape::default_for(size).expect("a size")).expect("fits its cell sets")
    }

    /// A step's eliminations as 1-based `(row, column, digit)`, whatever the grid's side.
    fn eliminated<C: CellSet>(geometry: &Geometry<C>, step: &Deduction) -> Vec<(usize, usize, u8)> {
        let side = geometry.side();
        step.eliminations.iter().map(|lost| (lost.cell / side + 1, lost.cell % side + 1, lost.digit)).collect()
    }

    #[test]
    fn on_16x16_the_chains_of_a_pattern_are_the_classic_grids() {
        // The patterns of the tests above meet the same rows, columns and boxes on 16x16 as on
        // 9x9 (its boxes 4x4): the same steps, in the same words, as the classic engine's.
        let (chain, cells) = (CHAIN, CELL_FORCING);
        let sixteen = geometry_of::<Wide<4>>(16);
        let mut classic = Deduction::new();
        classic.start(Technique::ForcingChain);
        assert!(forcing_chain(&sparse(chain), &mut classic, f32::INFINITY, false, &mut Never).unwrap());
        let mut wide = Deduction::new();
        wide.start(Technique::ForcingChain);
        assert!(forcing_chain(&sparse_over(&sixteen, chain), &mut wide, f32::INFINITY, false, &mut Never).unwrap());
        let multiple = (
            run(Technique::MultipleForcingChains, &sparse(cells)).unwrap(),
            run(Technique::MultipleForcingChains, &sparse_over(&sixteen, cells)).unwrap(),
        );
        for (classic, wide) in [(classic, wide), multiple] {
            assert_eq!((wide.technique, wide.rating), (classic.technique, classic.rating));
            assert_eq!(eliminated(&sixteen, &wide), eliminated(Geometry::classic(), &classic));
            assert_eq!(describe(&sixteen, &wide), describe(Geometry::classic(), &classic));
        }
    }

    #[test]
    fn on_25x25_a_forcing_chain_comes_back_to_its_opposite() {
        let chain = CHAIN_25;
        let geometry = geometry_of::<Wide<10>>(25);
        let mut out = Deduction::new();
        out.start(Technique::ForcingChain);
        assert!(forcing_chain(&sparse_over(&geometry, chain), &mut out, f32::INFINITY, false, &mut Never).unwrap());
        assert_eq!((eliminated(&geometry, &out), out.rating), (vec![(2, 2, 1)], 7.1));
        assert_eq!(
            describe(&geometry, &out),
            "If r2c2 is 1, then r1c1 isn't 1, so r1c1 is 2, so r1c6 isn't 2, so r1c6 is 3, so r2c7 isn't 3, so r2c7 \
             is 1, so r2c2 isn't 1: a contradiction, so r2c2 can't be 1."
        );
    }

    #[test]
    fn on_25x25_the_deepest_nesting_fits_a_small_stack() {
        // Every level of a dynamic chain keeps its grid, what changed per nested technique and
        // what the assumption ruled out on the stack: on 25x25 tens of KiB a level, where a
        // spawned thread has 2 MiB. Assumptions that stall here run every nested search.
        let stack = 512 * 1024;
        let search = || {
            let geometry = geometry_of::<Wide<10>>(25);
            let grid = sparse_over(&geometry, CHAIN_25);
            let mut out = Deduction::new();
            out.start(Technique::NestedDynamicForcingChains);
            let found = multiple(&grid, &mut out, Multiple::Dynamic(Nesting::DynamicForcingChains), &mut Never);
            (found.unwrap(), eliminated(&geometry, &out))
        };
        let found = std::thread::Builder::new().stack_size(stack).spawn(search).unwrap().join().unwrap();
        assert_eq!(found, (true, vec![(2, 2, 1)]));
    }

    #[test]
    fn x_cycle_clears_cells_seeing_both_ends_of_its_weak_links() {
        // Rows 1 and 5 hold 1 only in columns 1 and 5: the loop r1c1-r1c5-r5c5-r5c1 holds
        // either way round, so the other 1s of columns 1 and 5 go.
        let cells: &[(usize, usize, &[u8])] =
            &[(1, 1, &[1, 2]), (1, 5, &[1, 3]), (5, 5, &[1, 4]), (5, 1, &[1, 6]), (8, 1, &[1, 7]), (8, 5, &[1, 8])];
        let grid = sparse(cells);
        let step = run(Technique::XChain, &grid).expect("found with the single chains");
        assert_eq!((step.technique, step.rating), (Technique::XCycle, 6.5));
        assert_eq!(step.eliminations, [cand(8, 1, 1), cand(8, 5, 1)]);
        let text = describe_cycle(Geometry::classic(), &step);
        assert!(
            text.starts_with("The loop r")
                && text.ends_with("holds read either way round, so r8c1 and r8c5 can't be 1."),
            "{text}"
        );
        // A third 1 in rows 5 and 8 leaves row 1 the only pair: no loop.
        let mut open = cells.to_vec();
        open.extend([(5, 9, &[1, 9][..]), (8, 9, &[1, 9][..])]);
        let mut out = Deduction::new();
        assert!(!cycle(&sparse(&open), &mut out, f32::INFINITY, &mut Never).unwrap());
    }

    /// The first step of `technique` on the path of `puzzle` (one of `tests/data/se_rated_hardest.tsv`),
    /// with the grid it is found in, checked against the solution.
    fn first_nested_step(puzzle: &str, technique: Technique) -> (Grid<'static>, Deduction) {
        use std::ops::ControlFlow;
        let puzzle: crate::board::Board = puzzle.parse().unwrap();
        let crate::solver::Outcome::Unique(solution) = crate::solver::solve(&puzzle) else { panic!("one solution") };
        let mut first = None;
        crate::logic::run(&puzzle, None, &solution, crate::logic::Level::Extreme, &mut Never, |grid, found| {
            if found.technique != technique {
                return ControlFlow::Continue(());
            }
            first = Some((grid.clone(), found.clone()));
            ControlFlow::Break(())
        })
        .unwrap();
        let (grid, found) = first.expect("the path takes the technique");
        let value = |candidate: &CellDigit| solution.cells()[candidate.cell];
        assert!(found.placements.iter().all(|placed| value(placed) == placed.digit), "{found:?}");
        assert!(found.eliminations.iter().all(|removed| value(removed) != removed.digit), "{found:?}");
        assert!(!found.placements.is_empty() || !found.eliminations.is_empty());
        (grid, found)
    }

    #[test]
    fn nested_techniques_conclude_where_plain_dynamic_chains_cannot() {
        // SE 9.7: its path needs locked candidates, subsets or fish inside its chains.
        let nine_seven = "........1.....2.....1345.....36....7.2.....8.9.....5....6.7...3.8.....2.5.....9..";
        // SE 10.7: forcing chains inside.
        let ten_seven = "........1.....2.3...4.5.6.....1...7...6..3.2..8..4.9...48.......657.....9...6.5..";
        for (puzzle, technique, nesting) in [
            (nine_seven, Technique::DynamicForcingChainsPlus, Nesting::Basic),
            (ten_seven, Technique::NestedForcingChains, Nesting::ForcingChains),
        ] {
            let (grid, found) = first_nested_step(puzzle, technique);
            let below =
                [Nesting::Plain, Nesting::Basic, Nesting::ForcingChains].into_iter().filter(|&less| less < nesting);
            for less in below {
                let mut out = Deduction::new();
                assert!(!multiple(&grid, &mut out, Multiple::Dynamic(less), &mut Never).unwrap(), "{less:?}");
            }
            assert_eq!(found.technique, nesting.technique());
            let base = nesting.technique().rating();
            assert!(found.rating >= base + 0.1 && found.rating < base + 2.0, "{}", found.rating);
            assert!(!found.nested.is_empty(), "a nested technique concluded something");
            assert!(
                found.nested.iter().all(|(_, _, inner)| nesting.techniques().contains(inner)),
                "{:?}",
                found.nested
            );
            let text = describe(Geometry::classic(), &found);
            let (_, literal, inner) = found.nested[0];
            assert!(text.contains(&format!("{} ({inner})", literal.describe(Geometry::classic()))), "{text}");
            // A literal is marked only in the branches where a nested technique found it.
            for (branch, chain) in found.chains.iter().enumerate() {
                let marked = found.nested.iter().filter(|&&(at, _, _)| at == branch);
                assert!(marked.clone().all(|(_, literal, _)| chain.contains(literal)), "{:?}", found.nested);
            }
        }
    }

    #[test]
    fn each_nesting_adds_its_own_technique_to_the_ones_below() {
        let levels = [
            (Nesting::Basic, Technique::HiddenQuad),
            (Nesting::ForcingChains, Technique::ForcingChain),
            (Nesting::MultipleForcingChains, Technique::MultipleForcingChains),
            (Nesting::DynamicForcingChains, Technique::DynamicForcingChains),
        ];
        for nesting in Nesting::ALL {
            assert_eq!(Nesting::of(nesting.technique()), Some(nesting));
        }
        let mut below: &[Technique] = Nesting::Plain.techniques();
        for (nesting, last) in levels {
            let techniques = nesting.techniques();
            assert_eq!((techniques.last(), &techniques[..below.len()]), (Some(&last), below), "{nesting:?}");
            below = techniques;
        }
    }

    #[test]
    fn the_lean_searches_find_the_lengths_follow_does() {
        let (grids, thinned) = grids_along_a_path();
        let found = lean_searches_agree(grids.iter().step_by(4).chain(&thinned));
        assert!(found > 1000, "many candidates refute themselves: {found}");
    }

    #[test]
    fn on_16x16_the_lean_searches_agree_past_one_pass_of_sources() {
        let grids = grids_of_a_16x16_puzzle();
        assert!(grids.iter().any(|grid| candidates(grid).count() > BATCH), "two passes");
        let found = lean_searches_agree(grids.iter());
        assert!(found > 100, "candidates refute themselves: {found}");
        let found = static_multiple_chains_agree(grids.iter());
        assert!(found > 0, "static multiple chains conclude");
    }

    /// The start of a generated 16x16 puzzle (`tests/data/sizes`) and that grid thinned as
    /// [`grids_along_a_path`]'s.
    fn grids_of_a_16x16_puzzle() -> Vec<Grid<'static, Wide<4>>> {
        use crate::sizes::{self as sized, Shape};
        let path = format!("{}/../../tests/data/sizes/generated_16x16.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("the data set");
        let puzzle = sized::Grid::parse(text.lines().next().expect("a puzzle"), Shape::default_for(16)).unwrap();
        let solution = crate::search::count_grid(&puzzle, 2, &mut Never).unwrap().first.expect("one solution");
        let geometry: &'static Geometry<Wide<4>> = Box::leak(Box::new(geometry_of(16)));
        let start = Grid::of_values(geometry, puzzle.cells());
        let mut state = 99u64;
        let mut grids = vec![start.clone()];
        for share in [3, 6] {
            let mut thin = start.clone();
            for (cell, digit) in candidates(&start) {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                if solution.cells()[cell] != digit && (state >> 33) % 10 < share {
                    thin.eliminate(cell, digit);
                }
            }
            grids.push(thin);
        }
        grids
    }

    /// Holds the search of every candidate at once to [`follow`] and [`refutation_length`] on
    /// `grids`; how many lengths were found.
    fn lean_searches_agree<'a, C: CellSet>(grids: impl Iterator<Item = &'a Grid<'a, C>>) -> usize {
        let (mut out, mut positions, mut seen) = (Implications::default(), Positions::new::<C>(), Vec::new());
        let mut sources = Sources::default();
        let mut found = 0;
        for grid in grids {
            let partners = Partners::of(grid);
            // The search of all candidates at once, to the end: every candidate's length.
            sources.shortest_refutation(grid, false);
            let mut first_easiest: Option<(f32, usize, u8, usize)> = None;
            for (index, (cell, digit)) in candidates(grid).enumerate() {
                for depth in [3, 7, u16::MAX] {
                    let assumption = Literal::new::<C>(cell, digit, true);
                    let rules = Rules::Static { digit_links: true, cell_links: true };
                    let stop = Stop::At { target: assumption.opposite(), depth };
                    follow(
                        grid,
                        Task { assumption, rules, stop, resume: None, barren: 0 },
                        &mut out,
                        &mut positions,
                        &mut Never,
                    )
                    .unwrap();
                    let end = usize::from(positions.0[assumption.opposite().index()]);
                    let expected = out.holds(assumption.opposite()).then(|| out.ancestors(end, &mut seen));
                    assert_eq!(
                        refutation_length(grid, &partners, cell, digit, depth),
                        expected,
                        "r{cell} {digit} {depth}"
                    );
                    found += usize::from(expected.is_some());
                }
                let length = refutation_length(grid, &partners, cell, digit, u16::MAX);
                assert_eq!(length.unwrap_or(0), usize::from(sources.lengths[index]), "r{cell} {digit}");
                if let Some(length) = length {
                    let rating = chain_rating(7.0, length);
                    if first_easiest.is_none_or(|(best, ..)| rating < best) {
                        first_easiest = Some((rating, cell, digit, length));
                    }
                }
            }
            // Cut short once the easiest rating is known, the same answer.
            let expected = first_easiest.map(|(_, cell, digit, length)| (cell, digit, length));
            assert_eq!(sources.shortest_refutation(grid, true), expected);
            assert_eq!(sources.shortest_refutation(grid, false), expected);
        }
        found
    }

    /// Grids along the path of an SE 9.7 puzzle (tests/data/se_rated_hardest.tsv), and every
    /// fourth of them thinned.
    fn grids_along_a_path() -> (Vec<Grid<'static>>, Vec<Grid<'static>>) {
        use std::ops::ControlFlow;
        let puzzle: crate::board::Board =
            "........1.....2.....1345.....36....7.2.....8.9.....5....6.7...3.8.....2.5.....9..".parse().unwrap();
        let crate::solver::Outcome::Unique(solution) = crate::solver::solve(&puzzle) else { panic!("one solution") };
        let mut grids = Vec::new();
        crate::logic::run(&puzzle, None, &solution, crate::logic::Level::Extreme, &mut Never, |grid, _| {
            grids.push(grid.clone());
            ControlFlow::Continue(())
        })
        .unwrap();
        // And each less a share of its candidates off the solution, as an assumption's chain
        // leaves a grid: many more two-candidate cells and pairs, many more refutations.
        let mut state = 99u64;
        let thinned: Vec<Grid> = grids
            .iter()
            .step_by(4)
            .flat_map(|grid| {
                [3, 6].map(|share| {
                    let mut thin = grid.clone();
                    for (cell, digit) in candidates(grid) {
                        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        if solution.cells()[cell] != digit && (state >> 33) % 10 < share {
                            thin.eliminate(cell, digit);
                        }
                    }
                    thin
                })
            })
            .collect();
        (grids, thinned)
    }

    #[test]
    fn static_multiple_chains_inside_are_the_ones_followed_one_by_one() {
        let (grids, thinned) = grids_along_a_path();
        let found = static_multiple_chains_agree(grids.iter().step_by(2).chain(&thinned));
        assert!(found > 20, "static multiple chains conclude on many of the grids: {found}");
    }

    /// Holds [`multiple_inside`] to [`multiple`]'s static chains on `grids`; on how many they
    /// concluded.
    fn static_multiple_chains_agree<'a, C: CellSet>(grids: impl Iterator<Item = &'a Grid<'a, C>>) -> usize {
        let mut found = 0;
        for grid in grids {
            let (mut lean, mut full) = (Deduction::new(), Deduction::new());
            lean.start(Technique::MultipleForcingChains);
            full.start(Technique::MultipleForcingChains);
            let by_sets = multiple_inside(grid, &mut lean, &mut Never).unwrap();
            assert_eq!(by_sets, multiple(grid, &mut full, Multiple::Static, &mut Never).unwrap());
            if by_sets {
                found += 1;
                assert_eq!(lean.rating, full.rating);
                assert_eq!((&lean.placements, &lean.eliminations), (&full.placements, &full.eliminations));
                assert_eq!((&lean.chains, &lean.cells), (&full.chains, &full.cells));
            }
        }
        found
    }

    #[test]
    fn chain_ratings_add_a_tenth_per_step_of_length() {
        let added = [6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27, 34, 35, 50, 51, 66, 67]
            .map(|length| ((chain_rating(7.0, length) - 7.0) * 10.0).round() as i32);
        assert_eq!(added, [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9]);
        assert_eq!(chain_rating(8.5, 12), 8.8);
    }
}

//! The search for grids of 9 to 16 digits (9x9 to 16x16; 65 to 256 cells): each digit's places
//! are 16 lanes of 16 bits, one lane per row, so a digit's whole grid is one 256-bit value.
//!
//! The rules are the generic search's ([`super::solver`]): naked and hidden singles, locked
//! candidates, a guess on the two-candidate cell whose digits the most undecided peers share,
//! weighed by [`linked_weight`] (else
//! a digit with two places in a row, else the cell with the fewest candidates), binary
//! branching, the restarts and the interrupt. Only the representation differs. There, a candidate
//! set per cell, so a placement walks the cell's peers one by one (39 at 16x16) and each house
//! sweep reads N cells. Here, a placement is one AND-NOT of the digit's lanes with the cell's peer
//! mask, naked singles come from counting the digits' lanes to two, a row's places for a digit are
//! one lane, and a column's or a box's are the OR of a band's lanes. Three more things make the
//! difference, each measured on minimal 16x16 puzzles: the box's sides are constants of each
//! shape's copy of the code, so its loops unroll (3.9 -> 2.2 ms at the median); each digit
//! remembers its places when the singles and locked-candidates sweeps last read it, so a sweep
//! skips the digits nothing touched (2.2 -> 1.4 ms); and a digit's rows are tested for hidden
//! singles in one pass over all lanes (1.4 -> 1.1 ms; the cell search took 2.4).
//!
//! The lanes are plain `[u16; 16]` arrays, which the compiler turns into SSE2 instructions; a copy
//! compiled for AVX2 measured no faster, so there is no run-time dispatch and no `unsafe` here.

use std::sync::OnceLock;

use super::layout::Layout;
use super::shape::Shape;
use super::solver::{Attempt, SearchNode, Stop, linked_weight, search_copies};
use crate::interrupt::Interrupt;

/// The most digits (and rows, and columns) of a grid searched here.
pub(super) const MAX_SIZE: usize = 16;

/// One digit's places: lane `row`, bit `col`. Lanes and bits past the grid's size stay clear.
type Lanes = [u16; MAX_SIZE];

/// A shape's cells and peers as lanes.
struct Masks {
    /// Every cell of the grid.
    all: Lanes,
    /// For each cell (`MAX_SIZE * row + col`), the cells that share a house with it.
    peers: Vec<Lanes>,
}

impl Masks {
    /// The masks of `shape` (9 to 16 digits), built on first use.
    fn of(shape: Shape) -> &'static Masks {
        static MASKS: [OnceLock<Masks>; Shape::COUNT] = [const { OnceLock::new() }; Shape::COUNT];
        MASKS[shape.ordinal()].get_or_init(|| {
            let size = shape.size();
            let mut all = [0; MAX_SIZE];
            all[..size].fill(((1u32 << size) - 1) as u16);
            let layout = Layout::of(shape);
            let mut peers = vec![[0; MAX_SIZE]; MAX_SIZE * MAX_SIZE];
            for cell in 0..shape.cells() {
                let lanes = &mut peers[MAX_SIZE * (cell / size) + cell % size];
                for &peer in layout.peers(cell) {
                    let peer = usize::from(peer);
                    lanes[peer / size] |= 1 << (peer % size);
                }
            }
            Masks { all, peers }
        })
    }
}

/// The columns of each of the `R` stacks of boxes `C` wide.
#[inline(always)]
fn stacks<const R: usize, const C: usize>() -> [u16; MAX_SIZE] {
    std::array::from_fn(|stack| if stack < R { (((1u32 << C) - 1) << (stack * C)) as u16 } else { 0 })
}

/// The first column of each stack, as bits.
#[inline(always)]
fn stack_starts<const R: usize, const C: usize>() -> u16 {
    (0..R).fold(0, |starts, stack| starts | 1 << (stack * C))
}

/// A search state: for each digit, the cells it may still take (a decided cell keeps only its
/// digit), and the cells decided.
#[derive(Clone, Copy)]
struct State {
    places: [Lanes; MAX_SIZE],
    decided: Lanes,
    /// Each digit's places when hidden singles, and then locked candidates, last looked at it:
    /// both read only the digit's own places, so a digit that has not changed since has nothing
    /// new for them. A guess changes the few digits its cell had, so its subtree starts from
    /// there rather than from every digit.
    swept: [Lanes; MAX_SIZE],
    locked: [Lanes; MAX_SIZE],
}

/// A state with its shape's masks: what [`search_copies`] copies for each guess.
#[derive(Clone, Copy)]
struct Node<const R: usize, const C: usize> {
    masks: &'static Masks,
    state: State,
}

/// Searches `puzzle` (9 to 16 digits) for up to `attempt.limit` solutions, as [`super::solver`]'s
/// generic search does for larger grids. The box's sides are constants of each shape's copy of
/// the search, so its loops over bands and stacks unroll.
pub(super) fn attempt(shape: Shape, puzzle: &[u8], attempt: Attempt<'_, impl Interrupt>) -> Result<usize, Stop> {
    match (shape.box_rows(), shape.box_cols()) {
        (3, 3) => attempt_in::<3, 3>(shape, puzzle, attempt),
        (2, 5) => attempt_in::<2, 5>(shape, puzzle, attempt),
        (5, 2) => attempt_in::<5, 2>(shape, puzzle, attempt),
        (3, 4) => attempt_in::<3, 4>(shape, puzzle, attempt),
        (4, 3) => attempt_in::<4, 3>(shape, puzzle, attempt),
        (3, 5) => attempt_in::<3, 5>(shape, puzzle, attempt),
        (5, 3) => attempt_in::<5, 3>(shape, puzzle, attempt),
        (4, 4) => attempt_in::<4, 4>(shape, puzzle, attempt),
        _ => unreachable!("{shape} has more than 16 digits or at most 64 cells"),
    }
}

/// [`attempt`] for boxes `R` rows high and `C` columns wide.
fn attempt_in<const R: usize, const C: usize>(
    shape: Shape,
    puzzle: &[u8],
    attempt: Attempt<'_, impl Interrupt>,
) -> Result<usize, Stop> {
    let masks = Masks::of(shape);
    let size = R * C;
    let never = [[u16::MAX; MAX_SIZE]; MAX_SIZE];
    let mut state = State { places: [[0; MAX_SIZE]; MAX_SIZE], decided: [0; MAX_SIZE], swept: never, locked: never };
    state.places[..size].fill(masks.all);
    for (cell, &value) in puzzle.iter().enumerate() {
        if value != 0 {
            let digit = usize::from(attempt.labels[usize::from(value)] - 1);
            let (row, col) = (cell / size, cell % size);
            if state.places[digit][row] >> col & 1 == 0 {
                // A peer already holds the digit: repeated givens have no solution.
                return Ok(0);
            }
            place::<R, C>(masks, &mut state, digit, row, col);
        }
    }
    search_copies(Node::<R, C> { masks, state }, attempt)
}

/// Decides the cell at `row`, `col` as `digit`: no other digit there, and the digit nowhere else
/// in its houses.
#[inline]
fn place<const R: usize, const C: usize>(masks: &Masks, state: &mut State, digit: usize, row: usize, col: usize) {
    let bit = 1u16 << col;
    for places in &mut state.places[..(R * C)] {
        places[row] &= !bit;
    }
    let places = &mut state.places[digit];
    for (lane, peers) in places.iter_mut().zip(&masks.peers[MAX_SIZE * row + col]) {
        *lane &= !peers;
    }
    places[row] |= bit;
    state.decided[row] |= bit;
}

/// Places `digit` at `row`, `col` found as a hidden single in an earlier copy of the state, if it
/// still may go there: an earlier placement of the same sweep may have taken the place (the
/// house is then empty, which the next sweep finds) or filled it.
#[inline]
fn place_if_open<const R: usize, const C: usize>(
    masks: &Masks,
    state: &mut State,
    digit: usize,
    row: usize,
    col: usize,
) -> bool {
    let open = (state.places[digit][row] & !state.decided[row]) >> col & 1 == 1;
    if open {
        place::<R, C>(masks, state, digit, row, col);
    }
    open
}

impl<const R: usize, const C: usize> SearchNode for Node<R, C> {
    /// A digit, a row and a column.
    type Guess = (usize, usize, usize);

    fn propagate(&mut self) -> bool {
        propagate::<R, C>(self.masks, &mut self.state)
    }

    fn solved(&self) -> bool {
        self.state.decided == self.masks.all
    }

    fn write(&self, labels: &mut [u8]) {
        let size = R * C;
        for (cell, label) in labels.iter_mut().enumerate() {
            let (row, col) = (cell / size, cell % size);
            let digit = self.state.places[..size].iter().position(|places| places[row] >> col & 1 == 1);
            *label = digit.expect("a decided cell keeps its digit") as u8 + 1;
        }
    }

    fn choose(&self) -> (usize, usize, usize) {
        choose::<R, C>(self.masks, &self.state)
    }

    fn place(&mut self, (digit, row, col): (usize, usize, usize)) {
        place::<R, C>(self.masks, &mut self.state, digit, row, col);
    }

    fn exclude(&mut self, (digit, row, col): (usize, usize, usize)) {
        self.state.places[digit][row] &= !(1 << col);
    }
}

/// Whether the digit of `places` is decided in every row (its places are all `decided` cells):
/// no sweep finds anything for it.
#[inline]
fn settled(places: &Lanes, decided: &Lanes) -> bool {
    // A fold over every lane, not `all`: without its early exit, the loop vectorizes.
    places.iter().zip(decided).fold(0, |open, (&places, &decided)| open | places & !decided) == 0
}

/// For each lane, the bits set in at least one of `places` and in at least two.
#[inline]
fn once_twice<'p>(places: impl Iterator<Item = &'p Lanes>) -> (Lanes, Lanes) {
    let (mut once, mut twice) = ([0; MAX_SIZE], [0; MAX_SIZE]);
    for places in places {
        for lane in 0..MAX_SIZE {
            twice[lane] |= once[lane] & places[lane];
            once[lane] |= places[lane];
        }
    }
    (once, twice)
}

/// Places every single and applies locked candidates until nothing changes; `false` on a
/// contradiction (a cell without a digit, or a digit without a place in a house).
fn propagate<const R: usize, const C: usize>(masks: &Masks, state: &mut State) -> bool {
    let size = R * C;
    loop {
        // Naked singles: the cells with one digit left.
        let (once, twice) = once_twice(state.places[..size].iter());
        if once != masks.all {
            return false;
        }
        let mut placed = false;
        for (row, twice) in twice.into_iter().enumerate().take(size) {
            let mut singles = !twice & !state.decided[row] & masks.all[row];
            while singles != 0 {
                let col = singles.trailing_zeros() as usize;
                singles &= singles - 1;
                // An earlier single of this round may have taken the cell's digit from it.
                let Some(digit) = (0..size).find(|&digit| state.places[digit][row] >> col & 1 == 1) else {
                    return false;
                };
                place::<R, C>(masks, state, digit, row, col);
                placed = true;
            }
        }
        if placed {
            continue;
        }
        if state.decided == masks.all {
            return true;
        }
        match hidden_singles::<R, C>(masks, state) {
            Some(true) => continue,
            Some(false) => {}
            None => return false,
        }
        if !locked_candidates::<R, C>(masks, state) {
            return true;
        }
    }
}

/// Places every digit with one place left in a row, a column or a box: whether any was placed,
/// or `None` when a digit has no place left in a house.
fn hidden_singles<const R: usize, const C: usize>(masks: &Masks, state: &mut State) -> Option<bool> {
    let (size, box_rows) = (R * C, R);
    let row_mask = masks.all[0];
    let decided = state.decided;
    let mut placed = false;
    for digit in 0..size {
        // The digit's places as the sweep began; a placement checks the live state again.
        let places = state.places[digit];
        if places == state.swept[digit] {
            continue;
        }
        state.swept[digit] = places;
        if settled(&places, &decided) {
            continue;
        }
        // The rows without a place and the rows with one open place, as bits, all lanes at once.
        let (mut empty, mut single) = (0u32, 0u32);
        for row in 0..MAX_SIZE {
            let lane = places[row];
            empty |= u32::from(lane == 0) << row;
            single |= u32::from(lane & lane.wrapping_sub(1) == 0 && lane & !decided[row] != 0) << row;
        }
        if empty & ((1 << size) - 1) != 0 {
            return None;
        }
        while single != 0 {
            let row = single.trailing_zeros() as usize;
            single &= single - 1;
            placed |= place_if_open::<R, C>(masks, state, digit, row, places[row].trailing_zeros() as usize);
        }
        // Each band of rows folded to the columns the digit takes once, twice or in a decided
        // cell: a box is a band's stack, and the bands folded again give the columns.
        let (mut col_once, mut col_twice, mut col_decided) = (0u16, 0u16, 0u16);
        for top in (0..size).step_by(box_rows) {
            let (mut once, mut twice, mut done) = (0u16, 0u16, 0u16);
            for row in top..top + box_rows {
                twice |= once & places[row];
                once |= places[row];
                done |= places[row] & decided[row];
            }
            for &stack in &stacks::<R, C>()[..R] {
                let here = once & stack;
                if here == 0 {
                    return None;
                }
                if twice & stack == 0 && here & (here - 1) == 0 && done & stack == 0 {
                    let row = (top..top + box_rows).find(|&row| places[row] & here != 0).expect("a place in the box");
                    placed |= place_if_open::<R, C>(masks, state, digit, row, here.trailing_zeros() as usize);
                }
            }
            col_twice |= twice | col_once & once;
            col_once |= once;
            col_decided |= done;
        }
        if col_once != row_mask {
            return None;
        }
        let mut singles = col_once & !col_twice & !col_decided;
        while singles != 0 {
            let col = singles.trailing_zeros() as usize;
            singles &= singles - 1;
            let row = (0..size).find(|&row| places[row] >> col & 1 == 1).expect("a place in the column");
            placed |= place_if_open::<R, C>(masks, state, digit, row, col);
        }
    }
    Some(placed)
}

/// Locked candidates, both ways: a digit whose places in a box lie on one line (row or column)
/// leaves the rest of the line, and one whose places on a line lie in one box leaves the rest of
/// the box. Whether anything was removed.
///
/// Each digit's deductions are read from its places as they were before any of them (places only
/// shrink, so each stays true) and applied as one mask per row: a few dozen word operations per
/// band instead of a walk over every box's cells.
fn locked_candidates<const R: usize, const C: usize>(masks: &Masks, state: &mut State) -> bool {
    let (size, box_rows, box_cols) = (R * C, R, C);
    let bands = size / box_rows;
    // Stacks as their first columns: those `cols` touch, and a set of them widened back to the
    // stacks' columns.
    let starts = stack_starts::<R, C>();
    let narrow = |cols: u16| (0..box_cols).fold(0, |firsts, shift| firsts | cols >> shift) & starts;
    let widen = |firsts: u16| (0..box_cols).fold(0, |stacks, shift| stacks | firsts << shift);
    let mut removed = false;
    for digit in 0..size {
        let before = state.places[digit];
        if before == state.locked[digit] {
            continue;
        }
        state.locked[digit] = before;
        if settled(&before, &state.decided) {
            continue;
        }
        // The stacks each row holds the digit in.
        let stacks_of: Lanes = std::array::from_fn(|lane| narrow(before[lane]));
        let mut keep = masks.all;
        // Per band: the columns it holds the digit in, and those a box of it points down.
        let (mut band_cols, mut pointing_down) = ([0u16; MAX_SIZE], [0u16; MAX_SIZE]);
        for band in 0..bands {
            let rows = band * box_rows..(band + 1) * box_rows;
            let (mut once, mut twice, mut cols) = (0u16, 0u16, 0u16);
            // Claiming from a row: the stack a row's places all lie in, widened.
            let mut claims = [0u16; 5];
            for (claim, row) in claims.iter_mut().zip(rows.clone()) {
                let stacks = stacks_of[row];
                twice |= once & stacks;
                once |= stacks;
                cols |= before[row];
                if stacks != 0 && stacks & (stacks - 1) == 0 {
                    *claim = widen(stacks);
                }
            }
            // Pointing along a row: a box whose places all lie in one row keeps the row's places
            // to the box.
            let alone = once & !twice;
            for (index, row) in rows.clone().enumerate() {
                let pointing = stacks_of[row] & alone;
                if pointing != 0 {
                    keep[row] &= widen(pointing);
                }
                let others = claims.iter().enumerate().filter(|&(other, _)| other != index);
                keep[row] &= !others.fold(0, |claimed, (_, &claim)| claimed | claim);
            }
            // Pointing down a column: a box whose places all lie in one column.
            for &stack in &stacks::<R, C>()[..R] {
                let here = cols & stack;
                if here & (here.wrapping_sub(1)) == 0 {
                    pointing_down[band] |= here;
                }
            }
            band_cols[band] = cols;
        }
        let (mut col_once, mut col_twice) = (0u16, 0u16);
        for &cols in &band_cols[..bands] {
            col_twice |= col_once & cols;
            col_once |= cols;
        }
        for (band, (&cols, rows)) in band_cols.iter().zip(keep.chunks_exact_mut(box_rows)).enumerate().take(bands) {
            // Columns pointed down by another band's box leave this band; a column whose places
            // all lie in this band claims its box, whose other columns lose the digit here.
            let down = (0..bands).filter(|&other| other != band).fold(0, |down, other| down | pointing_down[other]);
            let claiming = col_once & !col_twice & cols;
            let lose = down | widen(narrow(claiming)) & !claiming;
            rows.iter_mut().for_each(|keep| *keep &= !lose);
        }
        let places = &mut state.places[digit];
        for lane in 0..MAX_SIZE {
            places[lane] &= keep[lane];
        }
        removed |= *places != before;
    }
    removed
}

/// The guess: a digit of the two-candidate cell whose digits the most undecided peers share (its
/// guess removes the most candidates) if there is one; else a digit with two places in a row;
/// else a digit of the cell with the fewest candidates.
fn choose<const R: usize, const C: usize>(masks: &Masks, state: &State) -> (usize, usize, usize) {
    let size = R * C;
    let places = &state.places[..size];
    let (mut once, mut twice, mut more) = ([0u16; MAX_SIZE], [0u16; MAX_SIZE], [0u16; MAX_SIZE]);
    for places in places {
        for lane in 0..MAX_SIZE {
            more[lane] |= twice[lane] & places[lane];
            twice[lane] |= once[lane] & places[lane];
            once[lane] |= places[lane];
        }
    }
    let undecided: Lanes = std::array::from_fn(|lane| masks.all[lane] & !state.decided[lane]);
    let digits_at = |row: usize, col: usize| (0..size).filter(move |&digit| places[digit][row] >> col & 1 == 1);
    let mut best: Option<(u32, usize, usize)> = None;
    for row in 0..size {
        let mut pairs = twice[row] & !more[row] & undecided[row];
        while pairs != 0 {
            let col = pairs.trailing_zeros() as usize;
            pairs &= pairs - 1;
            let mut digits = digits_at(row, col);
            let (first, second) = (digits.next().expect("two digits"), digits.next().expect("two digits"));
            let peers = &masks.peers[MAX_SIZE * row + col];
            let linked = (0..size)
                .map(|lane| {
                    let shared = (places[first][lane] | places[second][lane]) & peers[lane] & undecided[lane];
                    let pairs = shared & twice[lane] & !more[lane];
                    (shared & !pairs).count_ones() * linked_weight(false) + pairs.count_ones() * linked_weight(true)
                })
                .sum::<u32>();
            if best.is_none_or(|(most, _, _)| linked > most) {
                best = Some((linked, row, col));
            }
        }
    }
    if let Some((_, row, col)) = best {
        return (digits_at(row, col).next().expect("a candidate"), row, col);
    }
    for (digit, places) in places.iter().enumerate() {
        for row in 0..size {
            let lane = places[row] & undecided[row];
            if lane.count_ones() == 2 {
                return (digit, row, lane.trailing_zeros() as usize);
            }
        }
    }
    let (row, col) = (0..size * size)
        .map(|cell| (cell / size, cell % size))
        .filter(|&(row, col)| undecided[row] >> col & 1 == 1)
        .min_by_key(|&(row, col)| digits_at(row, col).count())
        .expect("an undecided cell");
    (digits_at(row, col).next().expect("a candidate"), row, col)
}

//! The search for grids of at most 64 cells (6x6 and 8x8; 4x4 has its table of solutions): each
//! digit's possible places fit one machine word, so a placement is one mask per digit, a sweep
//! for naked singles is N ORs, and a house's places for a digit are one AND.
//!
//! The rules are the generic search's ([`super::solver`]): naked and hidden singles, locked
//! candidates, a guess on a two-candidate cell or on a digit with two places in a house (else the
//! cell with the fewest candidates), binary branching, the restarts and the interrupt. Only the
//! representation differs: there, a candidate set per cell, which scales to 625 cells; here, a
//! cell set per digit, which makes the fixed cost of a small puzzle a few hundred nanoseconds,
//! a fifth of what the per-cell representation spends on its peer lists and house sweeps.

use std::sync::OnceLock;

use super::layout::Layout;
use super::shape::Shape;
use super::solver::{Attempt, SearchNode, Stop, search_copies};
use crate::interrupt::Interrupt;

/// The most cells a grid searched here has: one bit per cell in a `u64`.
pub(super) const MAX_CELLS: usize = 64;

/// The most digits of such a grid (8x8).
const MAX_DIGITS: usize = 8;

/// A shape's houses and peers as cell sets.
struct Masks {
    size: usize,
    /// Every cell of the grid.
    all: u64,
    /// For each cell, the cells that share a house with it.
    peers: [u64; MAX_CELLS],
    /// The rows, the columns and the boxes (3N of them).
    houses: Vec<u64>,
    /// Each box with each line (row or column) that crosses it, for locked candidates.
    crossings: Vec<(u64, u64)>,
}

impl Masks {
    /// The masks of `shape` (at most 64 cells), built from its [`Layout`] on first use.
    fn of(shape: Shape) -> &'static Masks {
        static MASKS: [OnceLock<Masks>; Shape::COUNT] = [const { OnceLock::new() }; Shape::COUNT];
        MASKS[shape.ordinal()].get_or_init(|| {
            let layout = Layout::of(shape);
            let size = shape.size();
            let cells = |cells: &[u16]| cells.iter().fold(0u64, |set, &cell| set | 1 << cell);
            let mut peers = [0; MAX_CELLS];
            for (cell, set) in peers.iter_mut().enumerate().take(shape.cells()) {
                *set = cells(layout.peers(cell));
            }
            let houses: Vec<u64> = layout.houses().map(cells).collect();
            let (lines, boxes) = houses.split_at(2 * size);
            let crossings = boxes
                .iter()
                .flat_map(|&square| {
                    lines.iter().filter(move |&&line| line & square != 0).map(move |&line| (square, line))
                })
                .collect();
            let all = if shape.cells() == 64 { u64::MAX } else { (1 << shape.cells()) - 1 };
            Masks { size, all, peers, houses, crossings }
        })
    }
}

/// A search state: for each digit, the cells it may still take (a decided cell keeps only its
/// digit), and the cells decided.
#[derive(Clone, Copy)]
struct State {
    places: [u64; MAX_DIGITS],
    decided: u64,
}

/// A state with its shape's masks: what [`search_copies`] copies for each guess.
#[derive(Clone, Copy)]
struct Node {
    masks: &'static Masks,
    state: State,
}

/// Searches `puzzle` (at most 64 cells) for up to `attempt.limit` solutions, as
/// [`super::solver`]'s generic search does for larger grids.
pub(super) fn attempt(shape: Shape, puzzle: &[u8], attempt: Attempt<'_, impl Interrupt>) -> Result<usize, Stop> {
    let masks = Masks::of(shape);
    let mut state = State { places: [0; MAX_DIGITS], decided: 0 };
    state.places[..masks.size].fill(masks.all);
    for (cell, &value) in puzzle.iter().enumerate() {
        if value != 0 {
            let digit = usize::from(attempt.labels[usize::from(value)] - 1);
            if state.places[digit] & 1 << cell == 0 {
                // A peer already holds the digit: repeated givens have no solution.
                return Ok(0);
            }
            place(masks, &mut state, digit, cell);
        }
    }
    search_copies(Node { masks, state }, attempt)
}

/// Decides `cell` as `digit`: no other digit there, and the digit nowhere else in its houses.
#[inline]
fn place(masks: &Masks, state: &mut State, digit: usize, cell: usize) {
    let bit = 1u64 << cell;
    for places in &mut state.places[..masks.size] {
        *places &= !bit;
    }
    state.places[digit] = (state.places[digit] & !masks.peers[cell]) | bit;
    state.decided |= bit;
}

impl SearchNode for Node {
    /// A digit and a cell.
    type Guess = (usize, usize);

    fn propagate(&mut self) -> bool {
        propagate(self.masks, &mut self.state)
    }

    fn solved(&self) -> bool {
        self.state.decided == self.masks.all
    }

    fn write(&self, labels: &mut [u8]) {
        for (cell, label) in labels.iter_mut().enumerate() {
            let digit = self.state.places[..self.masks.size].iter().position(|&places| places >> cell & 1 == 1);
            *label = digit.expect("a decided cell keeps its digit") as u8 + 1;
        }
    }

    fn choose(&self) -> (usize, usize) {
        choose(self.masks, &self.state)
    }

    fn place(&mut self, (digit, cell): (usize, usize)) {
        place(self.masks, &mut self.state, digit, cell);
    }

    fn exclude(&mut self, (digit, cell): (usize, usize)) {
        self.state.places[digit] &= !(1 << cell);
    }
}

/// Places every single and applies locked candidates until nothing changes; `false` on a
/// contradiction (a cell without a digit, or a digit without a place in a house).
fn propagate(masks: &Masks, state: &mut State) -> bool {
    let size = masks.size;
    loop {
        // Naked singles: the cells with one digit left, by counting each cell's digits to two.
        let (mut once, mut twice) = (0u64, 0u64);
        for &places in &state.places[..size] {
            twice |= once & places;
            once |= places;
        }
        if once != masks.all {
            return false;
        }
        let mut singles = !twice & !state.decided & masks.all;
        let mut placed = singles != 0;
        while singles != 0 {
            let cell = singles.trailing_zeros() as usize;
            singles &= singles - 1;
            // An earlier single of this round may have taken the cell's digit from it.
            let Some(digit) = state.places[..size].iter().position(|&places| places >> cell & 1 == 1) else {
                return false;
            };
            place(masks, state, digit, cell);
        }
        if placed {
            continue;
        }
        if state.decided == masks.all {
            return true;
        }
        // Hidden singles: a digit with one place in a house. A digit decided everywhere has one
        // place in each of its houses already.
        for digit in 0..size {
            if state.places[digit] & !state.decided == 0 {
                continue;
            }
            for &house in &masks.houses {
                let here = state.places[digit] & house;
                if here == 0 {
                    return false;
                }
                if here & (here - 1) == 0 && here & state.decided == 0 {
                    place(masks, state, digit, here.trailing_zeros() as usize);
                    placed = true;
                }
            }
        }
        if placed {
            continue;
        }
        // Locked candidates: a digit whose places in a box lie on one line leaves the rest of the
        // line, and one whose places on a line lie in one box leaves the rest of the box.
        let mut removed = false;
        for places in &mut state.places[..size] {
            if *places & !state.decided == 0 {
                continue;
            }
            for &(square, line) in &masks.crossings {
                let (in_box, on_line) = (*places & square, *places & line);
                let outside = if in_box & !line == 0 {
                    line & !square
                } else if on_line & !square == 0 {
                    square & !line
                } else {
                    continue;
                };
                removed |= *places & outside != 0;
                *places &= !outside;
            }
        }
        if !removed {
            return true;
        }
    }
}

/// The guess: a digit of a two-candidate cell if there is one; else a digit with two places in
/// a house; else a digit of the cell with the fewest candidates.
fn choose(masks: &Masks, state: &State) -> (usize, usize) {
    let size = masks.size;
    let places = &state.places[..size];
    let (mut once, mut twice, mut more) = (0u64, 0u64, 0u64);
    for &places in places {
        more |= twice & places;
        twice |= once & places;
        once |= places;
    }
    let undecided = !state.decided & masks.all;
    let two = twice & !more & undecided;
    let cell = if two != 0 {
        two.trailing_zeros() as usize
    } else {
        let pair = (0..size).find_map(|digit| {
            masks
                .houses
                .iter()
                .map(|&house| places[digit] & house & undecided)
                .find(|here| here.count_ones() == 2)
                .map(|here| (digit, here.trailing_zeros() as usize))
        });
        if let Some(guess) = pair {
            return guess;
        }
        (0..MAX_CELLS)
            .filter(|&cell| undecided >> cell & 1 == 1)
            .min_by_key(|&cell| places.iter().filter(|&&places| places >> cell & 1 == 1).count())
            .expect("an undecided cell")
    };
    let digit = places.iter().position(|&places| places >> cell & 1 == 1).expect("a candidate");
    (digit, cell)
}

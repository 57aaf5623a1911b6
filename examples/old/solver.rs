//! The solver: bitmask candidates, propagation of singles, and depth-first search.
//!
//! Each unsolved cell keeps a 9-bit mask of the digits still possible there. Placing a digit
//! clears its bit from the cell's 20 peers; a peer left with one candidate is queued as a naked
//! single, one left with none is a contradiction. When the queue runs dry, each of the 27 units
//! is scanned for hidden singles (a digit with exactly one place left) and for digits with no
//! place at all. Only when neither rule places anything does the search guess, on the cell with
//! the fewest candidates, trying each in turn on a copy of the state: the state is a few hundred
//! bytes of plain arrays, so a copy per guess is cheaper than undo bookkeeping, and the search
//! allocates nothing.
//!
//! Search stops at the second solution when the caller only needs uniqueness (see
//! [`count_solutions`]'s `limit`), and polls an [`Interrupt`] every [`POLL_INTERVAL`] guesses so
//! a deadline can end it.

use std::time::Instant;

use crate::board::{Board, CELLS};

/// Guesses between two polls of the [`Interrupt`]. A guess costs well under a microsecond, so
/// this bounds the overshoot past a deadline to about a millisecond, while keeping the clock read
/// off the hot path.
pub const POLL_INTERVAL: u32 = 1024;

/// Decides whether a running search should give up. Polled at the start and every
/// [`POLL_INTERVAL`] guesses.
pub trait Interrupt {
    fn should_stop(&mut self) -> bool;
}

/// Never interrupts: the search runs to its answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Never;

impl Interrupt for Never {
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// Interrupts once the clock passes an instant.
#[derive(Clone, Copy, Debug)]
pub struct Deadline(pub Instant);

impl Interrupt for Deadline {
    fn should_stop(&mut self) -> bool {
        Instant::now() >= self.0
    }
}

/// The search gave up because its [`Interrupt`] said so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search was interrupted before it finished")]
pub struct Interrupted;

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

/// Counts the solutions of `puzzle`, stopping as soon as `limit` are found.
pub fn count_solutions(puzzle: &Board, limit: usize, interrupt: &mut impl Interrupt) -> Result<Count, Interrupted> {
    if interrupt.should_stop() {
        return Err(Interrupted);
    }
    let mut search = Search { limit, count: Count { solutions: 0, first: None }, guesses: 0, interrupt };
    if limit == 0 {
        return Ok(search.count);
    }
    let mut state = State::new();
    let consistent = puzzle
        .cells()
        .iter()
        .enumerate()
        .filter(|(_, digit)| **digit != 0)
        .all(|(cell, &digit)| state.place(cell, 1 << (digit - 1)));
    if consistent {
        search.run(state)?;
    }
    Ok(search.count)
}

/// All nine candidate bits.
const ALL: u16 = 0x1ff;

/// The 27 units: rows, then columns, then boxes, each as 9 cell indices.
const UNITS: [[u8; 9]; 27] = {
    let mut units = [[0u8; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = (i * 9 + j) as u8;
            units[9 + i][j] = (j * 9 + i) as u8;
            units[18 + i][j] = ((i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3) as u8;
            j += 1;
        }
        i += 1;
    }
    units
};

/// For each cell, the 20 other cells that share its row, column or box.
const PEERS: [[u8; 20]; CELLS] = {
    let mut peers = [[0u8; 20]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (row, col) = (cell / 9, cell % 9);
        let mut count = 0;
        let mut other = 0;
        while other < CELLS {
            let (r, c) = (other / 9, other % 9);
            let shares = r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3);
            if other != cell && shares {
                peers[cell][count] = other as u8;
                count += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
};

/// The search state: candidates of every cell and which cells are settled.
#[derive(Clone, Copy)]
struct State {
    /// Candidate digits per cell, bit `d - 1` for digit `d`. A placed cell keeps just its digit.
    candidates: [u16; CELLS],
    /// Bit `i` is set once cell `i` has its digit.
    placed: u128,
}

impl State {
    fn new() -> State {
        State { candidates: [ALL; CELLS], placed: 0 }
    }

    fn is_placed(&self, cell: usize) -> bool {
        self.placed & (1 << cell) != 0
    }

    /// Places `bit` in `cell` and propagates every naked single it causes. Returns false on a
    /// contradiction.
    fn place(&mut self, cell: usize, bit: u16) -> bool {
        let mut pending = [0u8; CELLS];
        pending[0] = cell as u8;
        let mut bits = [0u16; CELLS];
        bits[0] = bit;
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let (cell, bit) = (usize::from(pending[len]), bits[len]);
            if self.is_placed(cell) {
                // Queued twice, or placed by an earlier entry: fine if it agrees.
                if self.candidates[cell] != bit {
                    return false;
                }
                continue;
            }
            if self.candidates[cell] & bit == 0 {
                return false;
            }
            self.candidates[cell] = bit;
            self.placed |= 1 << cell;
            for &peer in &PEERS[cell] {
                let peer = usize::from(peer);
                let remaining = self.candidates[peer] & !bit;
                if remaining == self.candidates[peer] {
                    continue;
                }
                if remaining == 0 {
                    return false;
                }
                self.candidates[peer] = remaining;
                if remaining.is_power_of_two() && !self.is_placed(peer) {
                    pending[len] = peer as u8;
                    bits[len] = remaining;
                    len += 1;
                }
            }
        }
        true
    }

    /// Places hidden singles until none is left. Returns false on a contradiction: a digit with
    /// no place in some unit, or a placement that empties a peer.
    fn propagate_hidden_singles(&mut self) -> bool {
        loop {
            let mut progress = false;
            for unit in &UNITS {
                let (mut once, mut twice, mut settled) = (0u16, 0u16, 0u16);
                for &cell in unit {
                    let cell = usize::from(cell);
                    let candidates = self.candidates[cell];
                    twice |= once & candidates;
                    once |= candidates;
                    if self.is_placed(cell) {
                        settled |= candidates;
                    }
                }
                if once != ALL {
                    return false;
                }
                // Digits already placed in the unit appear once too; skip them.
                let mut singles = once & !twice & !settled;
                while singles != 0 {
                    let bit = singles & singles.wrapping_neg();
                    singles &= singles - 1;
                    let cell =
                        unit.iter().map(|&cell| usize::from(cell)).find(|&cell| self.candidates[cell] & bit != 0);
                    // `once` has the bit, so some cell of the unit has it, unless a placement
                    // earlier in this loop removed it: then the digit has no place left.
                    let Some(cell) = cell else { return false };
                    if !self.place(cell, bit) {
                        return false;
                    }
                    progress = true;
                }
            }
            if !progress {
                return true;
            }
        }
    }

    /// The unsolved cell with the fewest candidates, or `None` when every cell is placed.
    fn best_guess_cell(&self) -> Option<usize> {
        let mut best = None;
        let mut fewest = u32::MAX;
        for cell in 0..CELLS {
            if self.is_placed(cell) {
                continue;
            }
            let count = self.candidates[cell].count_ones();
            if count < fewest {
                fewest = count;
                best = Some(cell);
                if count == 2 {
                    break;
                }
            }
        }
        best
    }

    fn to_board(self) -> Board {
        let mut cells = [0u8; CELLS];
        for (value, candidates) in cells.iter_mut().zip(self.candidates) {
            *value = candidates.trailing_zeros() as u8 + 1;
        }
        Board::from_cells(cells).expect("a solved state holds digits 1-9")
    }
}

struct Search<'a, I> {
    limit: usize,
    count: Count,
    guesses: u32,
    interrupt: &'a mut I,
}

impl<I: Interrupt> Search<'_, I> {
    /// Explores every completion of `state`. `Ok(true)` means stop: the limit is reached.
    fn run(&mut self, mut state: State) -> Result<bool, Interrupted> {
        if !state.propagate_hidden_singles() {
            return Ok(false);
        }
        let Some(cell) = state.best_guess_cell() else {
            self.count.solutions += 1;
            self.count.first.get_or_insert_with(|| state.to_board());
            return Ok(self.count.solutions >= self.limit);
        };
        let mut candidates = state.candidates[cell];
        while candidates != 0 {
            let bit = candidates & candidates.wrapping_neg();
            candidates &= candidates - 1;
            self.guesses = self.guesses.wrapping_add(1);
            if self.guesses.is_multiple_of(POLL_INTERVAL) && self.interrupt.should_stop() {
                return Err(Interrupted);
            }
            let mut next = state;
            if next.place(cell, bit) && self.run(next)? {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEETCODE_37: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const LEETCODE_37_SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
    /// The first puzzle of the forum's hardest list (tests/data/forum_hardest_1106.txt).
    const HARD: &str = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

    fn board(line: &str) -> Board {
        line.parse().unwrap()
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
        /// Lets the search start, then stops it at the first poll inside the search.
        struct SecondPoll(u32);
        impl Interrupt for SecondPoll {
            fn should_stop(&mut self) -> bool {
                self.0 += 1;
                self.0 > 1
            }
        }
        // Counting a million solutions of the empty board needs far more than POLL_INTERVAL guesses.
        let mut interrupt = SecondPoll(0);
        assert_eq!(count_solutions(&Board::EMPTY, 1_000_000, &mut interrupt), Err(Interrupted));
        assert_eq!(interrupt.0, 2);
    }
}

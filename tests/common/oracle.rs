//! The reference "seed" solver: plain backtracking exactly as in LeetCode 37, with one boolean
//! per (row, digit), (column, digit) and (box, digit), and blanks filled in row-major order,
//! trying digits 1 to 9.
//!
//! It shares no code or idea with `sudokud::solver` (no candidate masks, no propagation, no
//! cell ordering), which is what makes it useful as an independent check. It is far too slow for
//! the service (about a second per 17-clue puzzle), so it only lives under `tests/` and in the
//! benchmark as the baseline.

use sudokud::board::{Board, CELLS};

/// Solutions counted up to a limit, and the first one in the oracle's search order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OracleCount {
    /// Never more than the limit asked for.
    pub solutions: usize,
    pub first: Option<Board>,
}

/// Counts the solutions of `puzzle` up to `limit`. Repeated givens count as no solution, since
/// LeetCode 37 assumes valid input and the oracle must not report solutions of an invalid board.
pub(crate) fn count(puzzle: &Board, limit: usize) -> OracleCount {
    let mut search = Backtrack {
        cells: *puzzle.cells(),
        rows: [[false; 10]; 9],
        cols: [[false; 10]; 9],
        boxes: [[false; 10]; 9],
        blanks: Vec::with_capacity(CELLS),
        limit,
        found: OracleCount { solutions: 0, first: None },
    };
    if limit == 0 {
        return search.found;
    }
    for (index, &digit) in puzzle.cells().iter().enumerate() {
        if digit == 0 {
            search.blanks.push(index);
        } else if !search.set(index, digit, true) {
            return search.found;
        }
    }
    search.fill(0);
    search.found
}

struct Backtrack {
    cells: [u8; CELLS],
    rows: [[bool; 10]; 9],
    cols: [[bool; 10]; 9],
    boxes: [[bool; 10]; 9],
    /// The blank cells in row-major order: the order the search fills them.
    blanks: Vec<usize>,
    limit: usize,
    found: OracleCount,
}

impl Backtrack {
    /// Marks (or unmarks) `digit` as used in the row, column and box of `index`. When marking,
    /// returns false without changing anything if the digit is already used there.
    fn set(&mut self, index: usize, digit: u8, used: bool) -> bool {
        let (row, col, d) = (index / 9, index % 9, usize::from(digit));
        let bx = row / 3 * 3 + col / 3;
        if used && (self.rows[row][d] || self.cols[col][d] || self.boxes[bx][d]) {
            return false;
        }
        self.rows[row][d] = used;
        self.cols[col][d] = used;
        self.boxes[bx][d] = used;
        true
    }

    /// Fills blanks from `next` on. Returns true once the limit is reached, to unwind at once.
    fn fill(&mut self, next: usize) -> bool {
        let Some(&index) = self.blanks.get(next) else {
            self.found.solutions += 1;
            if self.found.first.is_none() {
                self.found.first = Some(Board::from_cells(self.cells).expect("the oracle only writes digits 1-9"));
            }
            return self.found.solutions >= self.limit;
        };
        for digit in 1..=9 {
            if self.set(index, digit, true) {
                self.cells[index] = digit;
                let done = self.fill(next + 1);
                self.cells[index] = 0;
                self.set(index, digit, false);
                if done {
                    return true;
                }
            }
        }
        false
    }
}

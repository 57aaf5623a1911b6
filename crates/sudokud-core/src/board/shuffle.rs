//! Relabelings that map Sudoku grids to Sudoku grids.

use super::{Board, CELLS};
use crate::random::SplitMix64;

/// One of the relabelings that keep every row, column and box a row, column or box: a
/// permutation of the digits, of the bands and of the rows within each band, of the stacks and
/// of the columns within each stack, then an optional transposition. Solutions map to solutions
/// one to one, so a board and its image have the same number of solutions; the solver uses this
/// to look at a puzzle in another order when its search is stuck (see `solver`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shuffle {
    /// Where each cell goes.
    cells: [u8; CELLS],
    /// What each digit becomes (0, a blank, stays 0), and back.
    digits: [u8; 10],
    digits_back: [u8; 10],
}

impl Shuffle {
    /// The relabeling drawn from `seed`: the same for the same seed on every machine.
    pub fn from_seed(seed: u64) -> Shuffle {
        let mut random = SplitMix64(seed);
        let rows = lines(&mut random);
        let columns = lines(&mut random);
        let transpose = random.next_u64() & 1 == 1;
        let mut cells = [0; CELLS];
        for (cell, to) in cells.iter_mut().enumerate() {
            let (row, column) = (rows[cell / 9], columns[cell % 9]);
            *to = if transpose { 9 * column + row } else { 9 * row + column };
        }
        let mut digits = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
        random.shuffle(&mut digits[1..]);
        let mut digits_back = [0; 10];
        for (digit, &to) in digits.iter().enumerate() {
            digits_back[usize::from(to)] = digit as u8;
        }
        Shuffle { cells, digits, digits_back }
    }

    /// The image of `board`.
    pub fn apply(&self, board: &Board) -> Board {
        let mut cells = [0; CELLS];
        for (cell, &value) in board.cells().iter().enumerate() {
            cells[usize::from(self.cells[cell])] = self.digits[usize::from(value)];
        }
        Board::from_cells(cells).expect("a relabeling maps 0-9 onto 0-9")
    }

    /// The board whose image is `board`: `undo(apply(b)) == b`.
    pub fn undo(&self, board: &Board) -> Board {
        let mut cells = [0; CELLS];
        for (cell, value) in cells.iter_mut().enumerate() {
            *value = self.digits_back[usize::from(board.cells()[usize::from(self.cells[cell])])];
        }
        Board::from_cells(cells).expect("a relabeling maps 0-9 onto 0-9")
    }
}

/// A permutation of the nine rows (or columns) that keeps each band (stack) together: the three
/// bands in a random order, and the three rows of each in a random order.
fn lines(random: &mut SplitMix64) -> [u8; 9] {
    let mut bands = [0u8, 1, 2];
    random.shuffle(&mut bands);
    let mut lines = [0; 9];
    for (band, &to) in bands.iter().enumerate() {
        let mut within = [0u8, 1, 2];
        random.shuffle(&mut within);
        for (line, &offset) in within.iter().enumerate() {
            lines[3 * band + line] = 3 * to + offset;
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules;
    use crate::solver::{self, Outcome};

    use crate::board::EXAMPLE_PUZZLE as PUZZLE;

    #[test]
    fn undo_reverses_apply() {
        let board: Board = PUZZLE.parse().unwrap();
        for seed in 0..100 {
            let shuffle = Shuffle::from_seed(seed);
            assert_eq!(shuffle.undo(&shuffle.apply(&board)), board, "seed {seed}");
        }
    }

    #[test]
    fn an_image_is_a_puzzle_with_the_image_of_the_solution() {
        let board: Board = PUZZLE.parse().unwrap();
        let Outcome::Unique(solution) = solver::solve(&board) else { panic!("a proper puzzle") };
        let mut images = std::collections::HashSet::new();
        for seed in 0..20 {
            let shuffle = Shuffle::from_seed(seed);
            let image = shuffle.apply(&board);
            assert!(rules::conflicts(&shuffle.apply(&solution)).is_empty(), "seed {seed}");
            assert_eq!(solver::solve(&image), Outcome::Unique(shuffle.apply(&solution)), "seed {seed}");
            assert_eq!(image.givens(), board.givens());
            images.insert(image);
        }
        assert!(images.len() > 15, "seeds give different relabelings");
    }

    #[test]
    fn conflicts_stay_conflicts() {
        let board: Board =
            "55...............................................................................".parse().unwrap();
        for seed in 0..20 {
            assert!(!rules::conflicts(&Shuffle::from_seed(seed).apply(&board)).is_empty());
        }
    }
}

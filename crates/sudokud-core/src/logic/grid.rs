//! The candidate grid the techniques read: per cell a 9-bit mask of the digits still possible,
//! and per digit a 81-bit mask of the cells where it is still possible. Both views are kept in
//! step, because singles and subsets think in cells while intersections, fish, colouring and
//! chains think in digits, and recomputing either view per question would dominate `rate`.

use crate::board::{Board, CELLS};

/// A set of cells, bit `i` for cell `i` (row-major).
pub(crate) type Cells = u128;

/// Number of units: rows 0-8, then columns 9-17, then boxes 18-26.
pub(crate) const UNIT_COUNT: usize = 27;

/// The nine cells of each unit, in reading order (row-major within a box).
pub(crate) const UNITS: [[u8; 9]; UNIT_COUNT] = units();

/// The cells of each unit as a set.
pub(crate) const UNIT_CELLS: [Cells; UNIT_COUNT] = unit_cells();

/// The row, column and box unit of each cell.
pub(crate) const CELL_UNITS: [[u8; 3]; CELLS] = cell_units();

/// The 20 peers of each cell (the cells sharing a unit with it, itself excluded).
pub(crate) const PEERS: [Cells; CELLS] = peers();

const fn units() -> [[u8; 9]; UNIT_COUNT] {
    let mut units = [[0u8; 9]; UNIT_COUNT];
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
}

const fn unit_cells() -> [Cells; UNIT_COUNT] {
    let mut sets = [0; UNIT_COUNT];
    let mut unit = 0;
    while unit < UNIT_COUNT {
        let mut j = 0;
        while j < 9 {
            sets[unit] |= 1 << UNITS[unit][j];
            j += 1;
        }
        unit += 1;
    }
    sets
}

const fn cell_units() -> [[u8; 3]; CELLS] {
    let mut units = [[0u8; 3]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (row, col) = (cell / 9, cell % 9);
        units[cell] = [row as u8, (9 + col) as u8, (18 + row / 3 * 3 + col / 3) as u8];
        cell += 1;
    }
    units
}

const fn peers() -> [Cells; CELLS] {
    let mut peers = [0; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut k = 0;
        while k < 3 {
            peers[cell] |= UNIT_CELLS[CELL_UNITS[cell][k] as usize];
            k += 1;
        }
        peers[cell] &= !(1 << cell);
        cell += 1;
    }
    peers
}

/// The bit of `digit` (1-9) in a candidate mask.
pub(crate) fn bit(digit: u8) -> u16 {
    1 << (digit - 1)
}

/// The set bits of `mask`, lowest first. Takes a `u128` so one helper serves cell sets and
/// (widened) digit and position masks.
pub(crate) fn ones(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let index = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            index
        })
    })
}

/// The digits (1-9) of a candidate mask, lowest first.
pub(crate) fn digits(mask: u16) -> impl Iterator<Item = u8> {
    ones(u128::from(mask)).map(|index| index as u8 + 1)
}

/// Whether cells `a` and `b` share a unit (a cell does not see itself).
pub(crate) fn sees(a: usize, b: usize) -> bool {
    PEERS[a] >> b & 1 == 1
}

/// The cells where `digit` is a candidate that see every cell of `cells`.
pub(crate) fn seeing_all(grid: &Grid, digit: u8, cells: &[usize]) -> Cells {
    cells.iter().fold(grid.cells_with(digit), |acc, &cell| acc & PEERS[cell])
}

/// Values and candidates of a partly solved board, and the blank cells as a set (so "how many
/// blanks has this unit", asked every round for full houses, is one popcount).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Grid {
    values: [u8; CELLS],
    candidates: [u16; CELLS],
    digit_cells: [Cells; 9],
    blanks: Cells,
}

impl Grid {
    /// The grid of `board`: each blank cell may hold any digit its peers do not.
    pub(crate) fn new(board: &Board) -> Grid {
        let all = (1 << CELLS) - 1;
        let mut grid = Grid { values: [0; CELLS], candidates: [0x1ff; CELLS], digit_cells: [all; 9], blanks: all };
        for (cell, &value) in board.cells().iter().enumerate() {
            if value != 0 {
                grid.place(cell, value);
            }
        }
        grid
    }

    /// The digit in `cell`, 0 if blank.
    pub(crate) fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidates of `cell` (bit `d - 1` for digit `d`), empty once it holds a digit.
    pub(crate) fn candidates(&self, cell: usize) -> u16 {
        self.candidates[cell]
    }

    /// Whether `digit` is a candidate of `cell`.
    pub(crate) fn has(&self, cell: usize, digit: u8) -> bool {
        self.candidates[cell] & bit(digit) != 0
    }

    /// The cells where `digit` is a candidate.
    pub(crate) fn cells_with(&self, digit: u8) -> Cells {
        self.digit_cells[usize::from(digit - 1)]
    }

    /// The blank cells with exactly `count` candidates (two: the cells wings and XY-chains use).
    pub(crate) fn cells_with_count(&self, count: u32) -> Cells {
        (0..CELLS).filter(|&cell| self.candidates[cell].count_ones() == count).fold(0, |acc, cell| acc | 1 << cell)
    }

    /// Where `digit` is a candidate in `unit`: bit `i` for the unit's `i`-th cell. For a row
    /// that is a set of columns, for a column a set of rows. Read off the digit's cell set
    /// (subsets and fish ask this for every unit and digit, each time they are tried).
    pub(crate) fn positions(&self, unit: usize, digit: u8) -> u16 {
        let cells = self.cells_with(digit);
        let bits = |shift: usize, mask: u128| (cells >> shift & mask) as u16;
        let index = unit % 9;
        match unit / 9 {
            0 => bits(9 * index, 0x1ff),
            1 => (0..9).fold(0, |acc, row| acc | bits(9 * row + index, 1) << row),
            _ => {
                let corner = index / 3 * 27 + index % 3 * 3;
                (0..3).fold(0, |acc, row| acc | bits(corner + 9 * row, 7) << (3 * row))
            }
        }
    }

    /// Puts `digit` in `cell` and removes it from the peers' candidates. Returns whether the
    /// grid changed (false for a cell already filled).
    pub(crate) fn place(&mut self, cell: usize, digit: u8) -> bool {
        if self.values[cell] != 0 {
            return false;
        }
        self.values[cell] = digit;
        self.blanks &= !(1 << cell);
        for other in digits(self.candidates[cell]) {
            self.digit_cells[usize::from(other - 1)] &= !(1 << cell);
        }
        self.candidates[cell] = 0;
        let mask = bit(digit);
        for peer in ones(PEERS[cell] & self.cells_with(digit)) {
            self.candidates[peer] &= !mask;
        }
        self.digit_cells[usize::from(digit - 1)] &= !PEERS[cell];
        true
    }

    /// Removes `digit` from the candidates of `cell`. Returns whether it was there.
    pub(crate) fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let had = self.has(cell, digit);
        self.candidates[cell] &= !bit(digit);
        self.digit_cells[usize::from(digit - 1)] &= !(1 << cell);
        had
    }

    /// Whether every cell holds a digit.
    pub(crate) fn is_solved(&self) -> bool {
        self.blanks == 0
    }

    /// The cells that hold no digit yet.
    pub(crate) fn blanks(&self) -> Cells {
        self.blanks
    }

    /// The values as a board, blanks where no digit is placed yet.
    pub(crate) fn board(&self) -> Board {
        Board::from_cells(self.values).expect("the grid only places digits 1-9")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_cover_each_cell_three_times_and_peers_are_twenty() {
        for cell in 0..CELLS {
            let containing = UNIT_CELLS.iter().filter(|&&set| set >> cell & 1 == 1).count();
            assert_eq!(containing, 3);
            assert_eq!(PEERS[cell].count_ones(), 20);
            for &unit in &CELL_UNITS[cell] {
                assert!(UNITS[usize::from(unit)].contains(&(cell as u8)));
            }
        }
        assert_eq!(UNITS[18 + 4], [30, 31, 32, 39, 40, 41, 48, 49, 50]);
    }

    #[test]
    fn placing_keeps_both_views_in_step() {
        let mut grid = Grid::new(&Board::EMPTY);
        assert!(grid.place(40, 5));
        assert!(!grid.place(40, 6));
        assert_eq!(grid.candidates(40), 0);
        assert_eq!(grid.blanks().count_ones(), 80);
        assert!(!grid.has(4, 5) && !grid.has(36, 5) && !grid.has(30, 5) && grid.has(0, 5));
        assert_eq!(grid.cells_with(5).count_ones(), 81 - 21);
        assert_eq!(grid.positions(0, 5), 0b1_1110_1111);
        assert_eq!(grid.positions(4, 5), 0);
        for (unit, cells) in UNITS.iter().enumerate() {
            for digit in 1..=9 {
                let expected = cells.iter().enumerate().filter(|&(_, &cell)| grid.has(usize::from(cell), digit));
                assert_eq!(grid.positions(unit, digit), expected.fold(0, |acc, (i, _)| acc | 1 << i));
            }
        }
        assert!(grid.eliminate(0, 1));
        assert!(!grid.eliminate(0, 1));
        assert_eq!(grid.cells_with(1) & 1, 0);
    }
}

//! The candidate grid the techniques read: per cell a 9-bit mask of the digits still possible,
//! and per digit a 81-bit mask of the cells where it is still possible. Both views are kept in
//! step, because singles and subsets think in cells while intersections, fish and
//! chains think in digits, and recomputing either view per question would dominate `rate`.
//!
//! Cells are row-major indexes, digits plain numbers and houses the [`Geometry`]'s indexes here,
//! for the inner loops; the techniques turn cells and digits into [`crate::position::Cell`]s and
//! [`crate::position::Digit`]s when they record a step.

use crate::board::{Board, CELLS};
use sudokud_model::marks::Marks;

use super::geometry::Geometry;

/// A set of cells, bit `i` for cell `i` (row-major).
pub(crate) type Cells = u128;

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

/// Bits 0, 9, 18, ..., 72 of `cells` (a column's, shifted to its first cell) as bits 0-8. Times
/// `2^64 + 2^56 + ... + 2^0`, bit `9k` lands on `64 - 8j + 9k` for each `j`: on `64 + k` when
/// `j = k`, and, as `9(k - k') = 8(j - j')` only for equal pairs, every product on a bit of its
/// own, so no carries: bits 64-72 are the column's, in order.
fn gather_column(cells: Cells) -> u16 {
    const SPACED: Cells = {
        let mut mask = 0;
        let mut row = 0;
        while row < 9 {
            mask |= 1 << (9 * row);
            row += 1;
        }
        mask
    };
    const MULTIPLIER: Cells = {
        let mut multiplier = 0;
        let mut j = 0;
        while j < 9 {
            multiplier |= 1 << (64 - 8 * j);
            j += 1;
        }
        multiplier
    };
    ((cells & SPACED).wrapping_mul(MULTIPLIER) >> 64) as u16 & 0x1ff
}

/// Where `cells` meets a house of `members`: bit `i` for its `i`-th cell. Out of line, so the
/// classic houses' bit tricks stay small enough to inline.
#[inline(never)]
fn gather(members: &[u8; 9], cells: Cells) -> u16 {
    members.iter().enumerate().fold(0, |acc, (i, &cell)| acc | ((cells >> cell & 1) as u16) << i)
}

/// How many bits a nine-bit mask (digits of a cell, positions in a house) has, by table: with
/// no popcount instruction in the baseline x86-64 target, `count_ones` is a dozen instructions,
/// and subsets and fish count unions in their innermost loop.
pub(crate) fn count9(mask: u16) -> usize {
    const COUNTS: [u8; 512] = {
        let mut counts = [0u8; 512];
        let mut mask = 1;
        while mask < 512 {
            counts[mask] = counts[mask >> 1] + (mask & 1) as u8;
            mask += 1;
        }
        counts
    };
    usize::from(COUNTS[usize::from(mask & 0x1ff)])
}

/// Whether `set` has more than `count` bits (`count` small).
pub(crate) fn more_than(mut set: u128, count: usize) -> bool {
    for _ in 0..count {
        set &= set.wrapping_sub(1);
    }
    set != 0
}

/// Whether `set` has exactly one bit. Without a popcount instruction in the baseline x86-64
/// target, `count_ones` on a `u128` is a few dozen instructions; this is three.
pub(crate) fn is_single(set: u128) -> bool {
    set != 0 && set & (set - 1) == 0
}

/// Whether `set` has exactly two bits.
pub(crate) fn is_pair(set: u128) -> bool {
    set != 0 && is_single(set & (set - 1))
}

/// The digits (1-9) of a candidate mask, lowest first.
pub(crate) fn digits(mask: u16) -> impl Iterator<Item = u8> {
    ones(u128::from(mask)).map(|index| index as u8 + 1)
}

/// The cells where `digit` is a candidate that see every cell of `cells`.
pub(crate) fn seeing_all(grid: &Grid, digit: u8, cells: &[usize]) -> Cells {
    let geometry = grid.geometry();
    cells.iter().fold(grid.cells_with(digit), |acc, &cell| acc & geometry.peers(cell))
}

/// Values and candidates of a partly solved board over its [`Geometry`], and the blank cells as
/// a set (so "how many blanks has this unit", asked every round for full houses, is one
/// popcount).
#[derive(Clone, Debug)]
pub(crate) struct Grid<'g> {
    geometry: &'g Geometry,
    values: [u8; CELLS],
    candidates: [u16; CELLS],
    digit_cells: [Cells; 9],
    blanks: Cells,
}

/// A grid's candidates with its geometry's id: what caches of what a search found in a grid key
/// on (the values and the other view follow from these).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct GridKey {
    geometry: u64,
    values: [u8; CELLS],
    candidates: [u16; CELLS],
}

#[cfg(test)]
impl Grid<'static> {
    /// The grid of `board` with the classic rows, columns and boxes.
    pub(crate) fn new(board: &Board) -> Grid<'static> {
        Grid::over(Geometry::classic(), board)
    }
}

impl<'g> Grid<'g> {
    /// The grid of `board` over `geometry`: each blank cell may hold any digit its peers do not.
    pub(crate) fn over(geometry: &'g Geometry, board: &Board) -> Grid<'g> {
        let all = (1 << CELLS) - 1;
        let mut grid =
            Grid { geometry, values: [0; CELLS], candidates: [0x1ff; CELLS], digit_cells: [all; 9], blanks: all };
        for (cell, &value) in board.cells().iter().enumerate() {
            if value != 0 {
                grid.place(cell, value);
            }
        }
        grid
    }

    /// The houses and peers the grid's rules make.
    pub(crate) fn geometry(&self) -> &'g Geometry {
        self.geometry
    }

    /// What caches of searches in this grid key on.
    pub(crate) fn key(&self) -> GridKey {
        GridKey { geometry: self.geometry.id(), values: self.values, candidates: self.candidates }
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

    /// Where `digit` is a candidate in `house`: bit `i` for the house's `i`-th cell. For a row
    /// that is a set of columns, for a column a set of rows. Read off the digit's cell set
    /// (subsets and fish ask this for every house and digit, each time they are tried).
    pub(crate) fn positions(&self, house: usize, digit: u8) -> u16 {
        let cells = self.cells_with(digit);
        let bits = |shift: usize, mask: u128| (cells >> shift & mask) as u16;
        // Each row of the grid is 9 consecutive bits; a classic box is three runs of 3, 9 bits
        // apart.
        let members = self.geometry.members(house);
        let corner = usize::from(members[0]);
        match house / 9 {
            0 => bits(corner, 0x1ff),
            // A column's nine bits lie 9 apart; one multiplication gathers them.
            1 => gather_column(cells >> corner),
            2 if self.geometry.classic_boxes() => {
                (0..3).fold(0, |acc, row| acc | bits(corner + 9 * row, 7) << (3 * row))
            }
            _ => gather(members, cells),
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
        let peers = self.geometry.peers(cell);
        for peer in ones(peers & self.cells_with(digit)) {
            self.candidates[peer] &= !mask;
        }
        self.digit_cells[usize::from(digit - 1)] &= !peers;
        true
    }

    /// Removes `digit` from the candidates of `cell`. Returns whether it was there.
    pub(crate) fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let had = self.has(cell, digit);
        self.candidates[cell] &= !bit(digit);
        self.digit_cells[usize::from(digit - 1)] &= !(1 << cell);
        had
    }

    /// Leaves each blank cell only the candidates a player's `marks` keep too.
    pub(crate) fn keep_only(&mut self, marks: &Marks) {
        for cell in 0..CELLS {
            for digit in digits(self.candidates[cell] & !(marks.set(cell) as u16)) {
                self.eliminate(cell, digit);
            }
        }
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
    use crate::position::House;

    #[test]
    fn positions_are_read_off_the_cells_in_every_house() {
        // Grids losing candidates in a fixed pseudo-random order, down to none.
        let mut grid = Grid::new(&Board::EMPTY);
        let mut state = 7u64;
        for round in 0..800 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            grid.eliminate((state >> 33) as usize % 81, (state >> 20) as u8 % 9 + 1);
            if round % 40 == 0 {
                for house in House::all() {
                    for digit in 1..=9 {
                        let expected = house.cells().enumerate().filter(|&(_, cell)| grid.has(cell.index(), digit));
                        assert_eq!(grid.positions(house.index(), digit), expected.fold(0, |acc, (i, _)| acc | 1 << i));
                    }
                }
            }
        }
    }

    #[test]
    fn singles_and_pairs_of_bits_are_counted_right() {
        for set in [0u128, 1, 2, 3, 5, 6, 7, 1 << 80, 1 << 80 | 1, 1 << 127 | 1 << 64, (1 << 81) - 1, 0b1011] {
            assert_eq!(is_single(set), set.count_ones() == 1, "{set:b}");
            assert_eq!(is_pair(set), set.count_ones() == 2, "{set:b}");
            for count in 0..6 {
                assert_eq!(more_than(set, count), set.count_ones() as usize > count, "{set:b} {count}");
            }
        }
        for mask in 0..512u16 {
            assert_eq!(count9(mask), mask.count_ones() as usize);
        }
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
        assert_eq!(grid.positions(House::Row(0).index(), 5), 0b1_1110_1111);
        assert_eq!(grid.positions(House::Row(4).index(), 5), 0);
        for house in House::all() {
            for digit in 1..=9 {
                let expected = house.cells().enumerate().filter(|&(_, cell)| grid.has(cell.index(), digit));
                assert_eq!(grid.positions(house.index(), digit), expected.fold(0, |acc, (i, _)| acc | 1 << i));
            }
        }
        assert!(grid.eliminate(0, 1));
        assert!(!grid.eliminate(0, 1));
        assert_eq!(grid.cells_with(1) & 1, 0);
    }
}

//! Sets of cells, bit `i` for cell `i` (row-major), and the fixed-size tables a grid of that
//! many cells keeps: the one type the engine is generic over. Each grid size compiles to its
//! own code, and classic 9x9 (jigsaw, X and windoku too) keeps the `u128` and the tables of 81
//! cells and 9 digits it always had; every other size is a [`Wide`] set of 64-bit words.

use std::any::Any;
use std::cell::RefCell;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};
use std::rc::Rc;

/// What a table holds: plain values, so tables copy, compare and hash as arrays do.
pub(crate) trait Entry: Copy + Eq + Hash + Debug {}

impl<T: Copy + Eq + Hash + Debug> Entry for T {}

/// A fixed-size table: an array, read as a slice.
pub(crate) trait Table<T>: Entry + AsRef<[T]> + AsMut<[T]> {}

impl<T, A: Entry + AsRef<[T]> + AsMut<[T]>> Table<T> for A {}

/// A digit mask as a grid stores it, bit `d - 1` for digit `d`: `u16` up to 16 digits, `u32`
/// beyond. The techniques read every mask as a `u32`.
pub(crate) trait DigitMask: Entry + Into<u32> {
    /// The mask of `bits` (which fit the type).
    fn of(bits: u32) -> Self;
}

impl DigitMask for u16 {
    fn of(bits: u32) -> u16 {
        bits as u16
    }
}

impl DigitMask for u32 {
    fn of(bits: u32) -> u32 {
        bits
    }
}

/// A set of cells of a grid of up to [`CellSet::CELLS`] cells, and the tables sized for it.
pub(crate) trait CellSet:
    Entry
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + Send
    + Sync
    + 'static
{
    /// The most cells a grid of these sets has.
    const CELLS: usize;
    /// The most digits a cell of such a grid may hold: candidate `cell * DIGITS + digit - 1`
    /// numbers every candidate of the grid (729 for `u128`, 15,625 at most).
    const DIGITS: usize;
    /// The grid's side when the type serves one size only (9 for `u128`), so loops over digits
    /// and house members have constant bounds there; `None` when the geometry tells.
    const SIDE: Option<usize>;
    /// The empty set.
    const EMPTY: Self;
    /// A value per cell.
    type PerCell<T: Entry>: Table<T>;
    /// A value per digit, or per cell of a house.
    type PerDigit<T: Entry>: Table<T>;
    /// A value per house, extra ones included.
    type PerHouse<T: Entry>: Table<T>;
    /// A cell's candidates.
    type Mask: DigitMask;
    /// A set of the grid's candidates, bit `cell * DIGITS + digit - 1` each.
    type Candidates: Table<u64>;

    /// A table of `value` in every cell.
    fn per_cell<T: Entry>(value: T) -> Self::PerCell<T>;
    /// A table of `value` for every digit.
    fn per_digit<T: Entry>(value: T) -> Self::PerDigit<T>;
    /// A table of `value` for every house.
    fn per_house<T: Entry>(value: T) -> Self::PerHouse<T>;
    /// No candidates.
    fn no_candidates() -> Self::Candidates;

    /// The set of `cell` alone.
    fn cell(cell: usize) -> Self;
    /// Whether `cell` is in the set.
    fn has(self, cell: usize) -> bool;
    /// The set less its lowest cell.
    fn without_lowest(self) -> Self;
    /// The lowest cell (the set is not empty).
    fn lowest(self) -> usize;
    /// How many cells the set has.
    fn count(self) -> usize;

    /// Where the set meets `house` (whose cells are `members`, in reading order), bit `i` for
    /// its `i`-th cell. `classic_boxes` tells that houses 18-26 are the classic boxes, which
    /// `u128` reads by bit tricks, as it reads rows and columns of 9.
    fn positions(self, house: usize, members: &[u16], classic_boxes: bool) -> u32 {
        let _ = (house, classic_boxes);
        gather(self, members)
    }

    /// Cells `0..count`.
    fn first(count: usize) -> Self {
        (0..count).fold(Self::EMPTY, |acc, cell| acc | Self::cell(cell))
    }

    /// Whether the set is empty.
    fn is_empty(self) -> bool {
        self == Self::EMPTY
    }

    /// The cells of the set, lowest first.
    fn ones(self) -> impl Iterator<Item = usize> {
        let mut set = self;
        std::iter::from_fn(move || {
            (!set.is_empty()).then(|| {
                let cell = set.lowest();
                set = set.without_lowest();
                cell
            })
        })
    }

    /// Whether the set has exactly one cell.
    fn is_single(self) -> bool {
        !self.is_empty() && self.without_lowest().is_empty()
    }

    /// Whether the set has exactly two cells.
    fn is_pair(self) -> bool {
        !self.is_empty() && self.without_lowest().is_single()
    }

    /// Whether the set has more than `count` cells (`count` small).
    fn more_than(self, count: usize) -> bool {
        (0..count).fold(self, |set, _| set.without_lowest()) != Self::EMPTY
    }
}

/// This thread's one `T`, made by `Default` the first time: the tables and buffers a technique
/// keeps from step to step, one per type of cell set (its `T` names the type). Shared, so a
/// search may take its own again while one is running (a chain nested inside a chain).
pub(crate) fn per_thread<T: Default + 'static>() -> Rc<T> {
    thread_local! {
        static VALUES: RefCell<Vec<Rc<dyn Any>>> = const { RefCell::new(Vec::new()) };
    }
    VALUES.with_borrow_mut(|values| {
        if let Some(known) = values.iter().find(|value| value.is::<T>()) {
            return known.clone().downcast::<T>().expect("found by its type");
        }
        let value = Rc::new(T::default());
        values.push(value.clone());
        value
    })
}

/// [`CellSet::positions`] cell by cell. Out of line, so the classic houses' bit tricks stay
/// small enough to inline.
#[inline(never)]
fn gather<C: CellSet>(cells: C, members: &[u16]) -> u32 {
    members.iter().enumerate().fold(0, |acc, (i, &cell)| acc | u32::from(cells.has(usize::from(cell))) << i)
}

/// Bits 0, 9, 18, ..., 72 of `cells` (a column's, shifted to its first cell) as bits 0-8. Times
/// `2^64 + 2^56 + ... + 2^0`, bit `9k` lands on `64 - 8j + 9k` for each `j`: on `64 + k` when
/// `j = k`, and, as `9(k - k') = 8(j - j')` only for equal pairs, every product on a bit of its
/// own, so no carries: bits 64-72 are the column's, in order.
fn gather_column(cells: u128) -> u32 {
    const SPACED: u128 = {
        let mut mask = 0;
        let mut row = 0;
        while row < 9 {
            mask |= 1 << (9 * row);
            row += 1;
        }
        mask
    };
    const MULTIPLIER: u128 = {
        let mut multiplier = 0;
        let mut j = 0;
        while j < 9 {
            multiplier |= 1 << (64 - 8 * j);
            j += 1;
        }
        multiplier
    };
    ((cells & SPACED).wrapping_mul(MULTIPLIER) >> 64) as u32 & 0x1ff
}

/// The classic grid's 81 cells: today's code for 9x9, its tables of 81 cells, 9 digits and up
/// to 48 houses (27, 9 disjoint groups, two diagonals, a windoku's four windows and more).
impl CellSet for u128 {
    const CELLS: usize = 81;
    const DIGITS: usize = 9;
    const SIDE: Option<usize> = Some(9);
    const EMPTY: u128 = 0;
    type PerCell<T: Entry> = [T; 81];
    type PerDigit<T: Entry> = [T; 9];
    type PerHouse<T: Entry> = [T; 48];
    type Mask = u16;
    type Candidates = [u64; 12];

    fn per_cell<T: Entry>(value: T) -> [T; 81] {
        [value; 81]
    }

    fn per_digit<T: Entry>(value: T) -> [T; 9] {
        [value; 9]
    }

    fn per_house<T: Entry>(value: T) -> [T; 48] {
        [value; 48]
    }

    fn no_candidates() -> [u64; 12] {
        [0; 12]
    }

    fn cell(cell: usize) -> u128 {
        1 << cell
    }

    fn has(self, cell: usize) -> bool {
        self >> cell & 1 == 1
    }

    fn without_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }

    fn lowest(self) -> usize {
        self.trailing_zeros() as usize
    }

    fn count(self) -> usize {
        self.count_ones() as usize
    }

    fn first(count: usize) -> u128 {
        (1 << count) - 1
    }

    fn positions(self, house: usize, members: &[u16], classic_boxes: bool) -> u32 {
        let bits = |shift: usize, mask: u128| (self >> shift & mask) as u32;
        // Each row of the grid is 9 consecutive bits; a classic box is three runs of 3, 9 bits
        // apart.
        let corner = usize::from(members[0]);
        match house / 9 {
            0 => bits(corner, 0x1ff),
            // A column's nine bits lie 9 apart; one multiplication gathers them.
            1 => gather_column(self >> corner),
            2 if classic_boxes => (0..3).fold(0, |acc, row| acc | bits(corner + 9 * row, 7) << (3 * row)),
            _ => gather(self, members),
        }
    }
}

/// A set of up to `64 * W` cells, for grids other than classic 9x9.
#[cfg_attr(
    not(test),
    expect(dead_code, reason = "other sizes reach this engine only in tests until the switch (issue 52)")
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Wide<const W: usize>([u64; W]);

impl<const W: usize> BitAnd for Wide<W> {
    type Output = Wide<W>;
    fn bitand(self, other: Wide<W>) -> Wide<W> {
        Wide(std::array::from_fn(|word| self.0[word] & other.0[word]))
    }
}

impl<const W: usize> BitOr for Wide<W> {
    type Output = Wide<W>;
    fn bitor(self, other: Wide<W>) -> Wide<W> {
        Wide(std::array::from_fn(|word| self.0[word] | other.0[word]))
    }
}

impl<const W: usize> Not for Wide<W> {
    type Output = Wide<W>;
    fn not(self) -> Wide<W> {
        Wide(self.0.map(|word| !word))
    }
}

impl<const W: usize> BitAndAssign for Wide<W> {
    fn bitand_assign(&mut self, other: Wide<W>) {
        *self = *self & other;
    }
}

impl<const W: usize> BitOrAssign for Wide<W> {
    fn bitor_assign(&mut self, other: Wide<W>) {
        *self = *self | other;
    }
}

/// The [`CellSet`] of `Wide<$words>`: up to `$cells` cells (`64 * $words`), `$digits` digits
/// (and cells a house), `$houses` houses, masks of `$mask`, `$candidates` words of candidates
/// (`$cells * $digits / 64`).
macro_rules! wide {
    ($words:literal, $cells:literal, $digits:literal, $houses:literal, $mask:ty, $candidates:literal) => {
        impl CellSet for Wide<$words> {
            const CELLS: usize = $cells;
            const DIGITS: usize = $digits;
            const SIDE: Option<usize> = None;
            const EMPTY: Wide<$words> = Wide([0; $words]);
            type PerCell<T: Entry> = [T; $cells];
            type PerDigit<T: Entry> = [T; $digits];
            type PerHouse<T: Entry> = [T; $houses];
            type Mask = $mask;
            type Candidates = [u64; $candidates];

            fn per_cell<T: Entry>(value: T) -> [T; $cells] {
                [value; $cells]
            }

            fn per_digit<T: Entry>(value: T) -> [T; $digits] {
                [value; $digits]
            }

            fn per_house<T: Entry>(value: T) -> [T; $houses] {
                [value; $houses]
            }

            fn no_candidates() -> [u64; $candidates] {
                [0; $candidates]
            }

            fn cell(cell: usize) -> Wide<$words> {
                let mut set = Wide::EMPTY;
                set.0[cell / 64] = 1 << (cell % 64);
                set
            }

            fn has(self, cell: usize) -> bool {
                self.0[cell / 64] >> (cell % 64) & 1 == 1
            }

            fn without_lowest(mut self) -> Wide<$words> {
                if let Some(word) = self.0.iter_mut().find(|word| **word != 0) {
                    *word &= *word - 1;
                }
                self
            }

            fn lowest(self) -> usize {
                let word = self.0.iter().position(|&word| word != 0).unwrap_or($words - 1);
                word * 64 + self.0[word].trailing_zeros() as usize
            }

            fn count(self) -> usize {
                self.0.iter().map(|word| word.count_ones() as usize).sum()
            }
        }
    };
}

// 4x4 to 10x10; 12x12 to 16x16; 20x20 and 25x25.
wide!(2, 128, 16, 64, u16, 32);
wide!(4, 256, 16, 64, u16, 64);
wide!(10, 640, 25, 96, u32, 250);

#[cfg(test)]
mod tests {
    use super::*;

    /// Cell sets drawn by a fixed pseudo-random sequence, each with the plain list of its cells.
    fn samples<C: CellSet>(cells: usize) -> Vec<(C, Vec<usize>)> {
        let mut state = 99u64;
        let mut sets = vec![(C::EMPTY, Vec::new()), (C::first(cells), (0..cells).collect())];
        for round in 0..200 {
            let mut list: Vec<usize> = Vec::new();
            for _ in 0..round % 12 {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                list.push((state >> 33) as usize % cells);
            }
            list.sort_unstable();
            list.dedup();
            sets.push((list.iter().fold(C::EMPTY, |acc, &cell| acc | C::cell(cell)), list));
        }
        sets
    }

    fn agrees_with_its_list<C: CellSet>(cells: usize) {
        let sets = samples::<C>(cells);
        for (set, list) in &sets {
            assert!(set.ones().eq(list.iter().copied()), "{set:?}");
            assert_eq!(set.count(), list.len());
            assert_eq!(set.is_empty(), list.is_empty());
            assert_eq!(set.is_single(), list.len() == 1);
            assert_eq!(set.is_pair(), list.len() == 2);
            for count in 0..5 {
                assert_eq!(set.more_than(count), list.len() > count);
            }
            assert!((0..cells).all(|cell| set.has(cell) == list.contains(&cell)));
            assert_eq!((!*set & C::first(cells)).count(), cells - list.len());
            for (other, theirs) in &sets[..20] {
                let both = list.iter().filter(|cell| theirs.contains(cell)).count();
                assert_eq!((*set & *other).count(), both);
                assert_eq!((*set | *other).count(), list.len() + theirs.len() - both);
            }
        }
    }

    #[test]
    fn every_kind_of_set_agrees_with_a_list_of_its_cells() {
        agrees_with_its_list::<u128>(81);
        agrees_with_its_list::<Wide<2>>(100);
        agrees_with_its_list::<Wide<4>>(256);
        agrees_with_its_list::<Wide<10>>(625);
    }

    #[test]
    fn positions_in_a_house_are_its_members_in_the_set() {
        // Rows, columns and boxes of the classic grid, read by bit tricks or cell by cell.
        let row = |r: usize| (0..9).map(move |c| (9 * r + c) as u16);
        let column = |c: usize| (0..9).map(move |r| (9 * r + c) as u16);
        let square = |b: usize| (0..9).map(move |i| (b / 3 * 27 + b % 3 * 3 + i / 3 * 9 + i % 3) as u16);
        let houses: Vec<Vec<u16>> = (0..9)
            .map(|r| row(r).collect())
            .chain((0..9).map(|c| column(c).collect()))
            .chain((0..9).map(|b| square(b).collect()))
            .collect();
        for (set, list) in samples::<u128>(81) {
            for (house, members) in houses.iter().enumerate() {
                let expected = members.iter().enumerate().filter(|(_, cell)| list.contains(&usize::from(**cell)));
                let expected = expected.fold(0, |acc, (i, _)| acc | 1 << i);
                assert_eq!(set.positions(house, members, true), expected);
                let wide = list.iter().fold(Wide::<2>::EMPTY, |acc, &cell| acc | Wide::cell(cell));
                assert_eq!(wide.positions(house, members, true), expected);
            }
        }
    }
}

//! The candidate grid the techniques read: per cell a mask of the digits still possible, and
//! per digit a set of the cells where it is still possible. Both views are kept in step,
//! because singles and subsets think in cells while intersections, fish and chains think in
//! digits, and recomputing either view per question would dominate `rate`.
//!
//! Cells are row-major indexes, digits plain numbers (1 to the grid's side) and houses the
//! [`Geometry`]'s indexes here, for the inner loops. The grid is generic over its cell sets
//! ([`CellSet`]): `u128` for 9x9, so classic `rate` keeps its code, [`super::cells::Wide`] for
//! other sizes.

use crate::board::Board;
use sudokud_model::marks::Marks;

use super::cells::{CellSet, DigitMask};
use super::geometry::Geometry;

/// A set of cells of a 9x9 grid, bit `i` for cell `i` (row-major).
pub(crate) type Cells = u128;

/// The bit of `digit` (1 to the side) in a candidate mask.
pub(crate) fn bit(digit: u8) -> u32 {
    1 << (digit - 1)
}

/// The set bits of `mask`, lowest first. Takes a `u128` so one helper serves 9x9 cell sets and
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

/// How many bits a digit mask or a house's positions have, by table for nine bits (any mask of
/// 9x9): with no popcount instruction in the baseline x86-64 target, `count_ones` is a dozen
/// instructions, and subsets and fish count unions in their innermost loop.
pub(crate) fn count9(mask: u32) -> usize {
    const COUNTS: [u8; 512] = {
        let mut counts = [0u8; 512];
        let mut mask = 1;
        while mask < 512 {
            counts[mask] = counts[mask >> 1] + (mask & 1) as u8;
            mask += 1;
        }
        counts
    };
    if mask < 512 { usize::from(COUNTS[mask as usize]) } else { mask.count_ones() as usize }
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

/// The digits of a candidate mask, lowest first.
pub(crate) fn digits(mask: u32) -> impl Iterator<Item = u8> {
    ones(u128::from(mask)).map(|index| index as u8 + 1)
}

/// The cells where `digit` is a candidate that see every cell of `cells`.
pub(crate) fn seeing_all<C: CellSet>(grid: &Grid<C>, digit: u8, cells: &[usize]) -> C {
    let geometry = grid.geometry();
    cells.iter().fold(grid.cells_with(digit), |acc, &cell| acc & geometry.peers(cell))
}

/// Values and candidates of a partly solved grid over its [`Geometry`], and the blank cells as
/// a set (so "how many blanks has this unit", asked every round for full houses, is one
/// popcount).
#[derive(Clone, Debug)]
pub(crate) struct Grid<'g, C: CellSet = Cells> {
    geometry: &'g Geometry<C>,
    values: C::PerCell<u8>,
    candidates: C::PerCell<C::Mask>,
    digit_cells: C::PerDigit<C>,
    blanks: C,
}

/// A grid's candidates with its geometry's id: what caches of what a search found in a grid key
/// on (the values and the other view follow from these).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct GridKey<C: CellSet = Cells> {
    geometry: u64,
    values: C::PerCell<u8>,
    candidates: C::PerCell<C::Mask>,
}

#[cfg(test)]
impl<'g> Grid<'g> {
    /// The grid of `board` with the classic rows, columns and boxes.
    pub(crate) fn new(board: &Board) -> Grid<'static> {
        Grid::over(Geometry::classic(), board)
    }

    /// The grid of `board` over `geometry`: each blank cell may hold any digit its peers do not.
    pub(crate) fn over(geometry: &'g Geometry, board: &Board) -> Grid<'g> {
        Grid::of_values(geometry, board.cells())
    }
}

impl Grid<'_> {
    /// The values as a board, blanks where no digit is placed yet.
    pub(crate) fn board(&self) -> Board {
        Board::from_cells(self.values).expect("the grid only places digits 1-9")
    }
}

impl<'g, C: CellSet> Grid<'g, C> {
    /// The grid of `values` (row-major, 0 for a blank) over `geometry`: each blank cell may hold
    /// any digit its rules allow there (an even cell the even ones) that its peers do not hold.
    pub(crate) fn of_values(geometry: &'g Geometry<C>, values: &[u8]) -> Grid<'g, C> {
        let (side, cells) = (geometry.side(), geometry.cell_count());
        let all = C::first(cells);
        let mut candidates = C::per_cell(C::Mask::of(0));
        candidates.as_mut()[..cells].fill(C::Mask::of((1 << side) - 1));
        let mut digit_cells = C::per_digit(C::EMPTY);
        digit_cells.as_mut()[..side].fill(all);
        let mut grid = Grid { geometry, values: C::per_cell(0), candidates, digit_cells, blanks: all };
        if let Some(rules) = geometry.rules() {
            for (cell, &allowed) in rules.allowed.iter().enumerate() {
                for digit in digits(grid.candidates(cell) & !allowed) {
                    grid.eliminate(cell, digit);
                }
            }
        }
        for (cell, &value) in values.iter().enumerate() {
            if value != 0 {
                grid.place(cell, value);
            }
        }
        grid
    }

    /// The houses and peers the grid's rules make.
    pub(crate) fn geometry(&self) -> &'g Geometry<C> {
        self.geometry
    }

    /// What caches of searches in this grid key on.
    pub(crate) fn key(&self) -> GridKey<C> {
        GridKey { geometry: self.geometry.id(), values: self.values, candidates: self.candidates }
    }

    /// The digit in `cell`, 0 if blank.
    pub(crate) fn value(&self, cell: usize) -> u8 {
        self.values.as_ref()[cell]
    }

    /// The candidates of `cell` (bit `d - 1` for digit `d`), empty once it holds a digit.
    pub(crate) fn candidates(&self, cell: usize) -> u32 {
        self.candidates.as_ref()[cell].into()
    }

    /// Whether `digit` is a candidate of `cell`.
    pub(crate) fn has(&self, cell: usize, digit: u8) -> bool {
        self.candidates(cell) & bit(digit) != 0
    }

    /// The cells where `digit` is a candidate.
    pub(crate) fn cells_with(&self, digit: u8) -> C {
        self.digit_cells.as_ref()[usize::from(digit - 1)]
    }

    /// The blank cells with exactly `count` candidates (two: the cells wings and XY-chains use).
    pub(crate) fn cells_with_count(&self, count: u32) -> C {
        let cells = 0..self.geometry.cell_count();
        cells
            .filter(|&cell| self.candidates(cell).count_ones() == count)
            .fold(C::EMPTY, |acc, cell| acc | C::cell(cell))
    }

    /// Where `digit` is a candidate in `house`: bit `i` for the house's `i`-th cell. For a row
    /// that is a set of columns, for a column a set of rows. Read off the digit's cell set
    /// (subsets and fish ask this for every house and digit, each time they are tried).
    pub(crate) fn positions(&self, house: usize, digit: u8) -> u32 {
        let geometry = self.geometry;
        self.cells_with(digit).positions(house, geometry.members(house), geometry.classic_boxes())
    }

    /// Puts `digit` in `cell` and removes it from the peers' candidates. Returns whether the
    /// grid changed (false for a cell already filled).
    pub(crate) fn place(&mut self, cell: usize, digit: u8) -> bool {
        if self.value(cell) != 0 {
            return false;
        }
        self.values.as_mut()[cell] = digit;
        self.blanks &= !C::cell(cell);
        for other in digits(self.candidates(cell)) {
            self.digit_cells.as_mut()[usize::from(other - 1)] &= !C::cell(cell);
        }
        self.candidates.as_mut()[cell] = C::Mask::of(0);
        let mask = bit(digit);
        let peers = self.geometry.peers(cell);
        for peer in (peers & self.cells_with(digit)).ones() {
            let candidates = &mut self.candidates.as_mut()[peer];
            *candidates = C::Mask::of((*candidates).into() & !mask);
        }
        self.digit_cells.as_mut()[usize::from(digit - 1)] &= !peers;
        true
    }

    /// Removes `digit` from the candidates of `cell`. Returns whether it was there.
    pub(crate) fn eliminate(&mut self, cell: usize, digit: u8) -> bool {
        let had = self.has(cell, digit);
        let candidates = &mut self.candidates.as_mut()[cell];
        *candidates = C::Mask::of((*candidates).into() & !bit(digit));
        self.digit_cells.as_mut()[usize::from(digit - 1)] &= !C::cell(cell);
        had
    }

    /// Leaves each blank cell only the candidates a player's `marks` keep too.
    pub(crate) fn keep_only(&mut self, marks: &Marks) {
        for cell in 0..self.geometry.cell_count() {
            for digit in digits(self.candidates(cell) & !marks.set(cell)) {
                self.eliminate(cell, digit);
            }
        }
    }

    /// Whether every cell holds a digit.
    pub(crate) fn is_solved(&self) -> bool {
        self.blanks.is_empty()
    }

    /// The cells that hold no digit yet.
    pub(crate) fn blanks(&self) -> C {
        self.blanks
    }

    /// The values, row-major, 0 where no digit is placed yet.
    #[cfg(test)]
    pub(crate) fn values(&self) -> &[u8] {
        &self.values.as_ref()[..self.geometry.cell_count()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::cells::Wide;
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

    /// The first puzzle of `tests/data/sizes/generated_NxN.txt` with the size's default shape.
    fn generated(size: usize) -> sudokud_model::grid::Grid {
        let path = format!("{}/../../tests/data/sizes/generated_{size}x{size}.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("the data set");
        let shape = crate::sizes::Shape::default_for(size);
        sudokud_model::grid::Grid::parse(text.lines().next().expect("a puzzle"), shape).expect("the puzzle parses")
    }

    /// On the first generated puzzle of `size`: the candidates are the digits no peer holds
    /// (the model's peers), positions are read right, and placing the solver's solution
    /// fills the grid.
    fn keeps_to_the_solution<C: CellSet>(size: usize) {
        let puzzle = generated(size);
        let solution = crate::search::count_grid(&puzzle, 2, &mut crate::interrupt::Never).unwrap();
        assert_eq!(solution.solutions, 1);
        let solution = solution.first.expect("the solution");
        let layout = sudokud_model::layout::Layout::of(puzzle.shape());
        let geometry = Geometry::<C>::of_shape(puzzle.shape()).expect("the shape fits");
        let mut grid = Grid::of_values(&geometry, puzzle.cells());
        let (values, cells) = (puzzle.cells(), size * size);
        for cell in (0..cells).filter(|&cell| values[cell] == 0) {
            let free = (1..=size as u8)
                .filter(|&digit| layout.peers(cell).iter().all(|&peer| values[usize::from(peer)] != digit));
            assert_eq!(grid.candidates(cell), free.fold(0, |acc, digit| acc | bit(digit)), "{cell}");
        }
        for (round, cell) in (0..cells).filter(|&cell| values[cell] == 0).enumerate() {
            if round % 40 == 0 {
                for house in 0..geometry.house_count() {
                    for digit in 1..=size as u8 {
                        let members = geometry.members(house).iter().enumerate();
                        let expected = members.filter(|&(_, &cell)| grid.has(usize::from(cell), digit));
                        assert_eq!(grid.positions(house, digit), expected.fold(0, |acc, (i, _)| acc | 1 << i));
                        let with = (0..cells).filter(|&cell| grid.has(cell, digit));
                        assert!(grid.cells_with(digit).ones().eq(with));
                    }
                }
            }
            let digit = solution.cells()[cell];
            assert!(grid.has(cell, digit), "{cell} {digit}");
            assert!(grid.place(cell, digit));
        }
        assert!(grid.is_solved());
        assert_eq!(grid.values(), solution.cells());
    }

    #[test]
    fn other_sizes_keep_both_views_in_step_to_the_solution() {
        keeps_to_the_solution::<Wide<2>>(6);
        keeps_to_the_solution::<Wide<4>>(16);
        keeps_to_the_solution::<Wide<10>>(25);
    }

    #[test]
    fn singles_and_pairs_of_bits_are_counted_right() {
        for set in [0u128, 1, 2, 3, 5, 6, 7, 1 << 80, 1 << 80 | 1, 1 << 127 | 1 << 64, (1 << 81) - 1, 0b1011] {
            assert_eq!(is_single(set), set.count_ones() == 1, "{set:b}");
            assert_eq!(is_pair(set), set.count_ones() == 2, "{set:b}");
            for count in 0..6 {
                assert_eq!(set.more_than(count), set.count_ones() as usize > count, "{set:b} {count}");
            }
        }
        for mask in 0..512u32 {
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

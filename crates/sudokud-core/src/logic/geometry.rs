//! Where the techniques look: a puzzle's houses and each cell's peers, built once per puzzle, so
//! one technique serves boxes and a jigsaw's regions alike. The classic 9x9 one is built once for
//! the process.
//!
//! Houses are indexes: rows `0..9`, columns `9..18`, then the boxes or regions `18..27`. Each
//! house has a role, its [`HouseKind`], that says what the techniques do with it: rows and
//! columns are lines (fish, hidden singles in a line), boxes and regions are boxes.

use std::sync::LazyLock;
#[cfg(test)]
use std::sync::atomic::{AtomicU64, Ordering};

use crate::board::{CELLS, SIZE};
use crate::position::{House, HouseKind};
use crate::rules::Unit;

use super::grid::Cells;

/// How many houses a 9x9 geometry has: nine rows, nine columns, nine boxes or regions.
const HOUSES: usize = 3 * SIZE;

/// A puzzle's houses and peers, for grids of 81 cells. Fixed-size tables: the techniques index
/// them in their innermost loops, where a length read from memory and its check would show.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Unique per geometry built, so caches keyed by a grid tell puzzles with other houses apart.
    id: u64,
    /// Whether the boxes are the classic ones, which [`super::grid::Grid::positions`] reads by
    /// bit tricks.
    classic_boxes: bool,
    /// The cells of each house as a set.
    cells: [Cells; HOUSES],
    /// The cells of each house in reading order.
    members: [[u8; SIZE]; HOUSES],
    /// What each house stands for, for sentences.
    units: [Unit; HOUSES],
    /// Each house's 1-based number among the houses of its unit.
    numbers: [u8; HOUSES],
    /// The cells sharing a house with each cell, itself excluded.
    peers: [Cells; CELLS],
    /// Each cell's row, column and box (or region) as house indexes, in that (ascending) order.
    of_cell: [[u8; 3]; CELLS],
}

/// Next [`Geometry::id`]; the classic geometry's is 0.
#[cfg(test)]
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

static CLASSIC: LazyLock<Geometry> = LazyLock::new(|| {
    let unit = |kind| [Unit::Row, Unit::Column, Unit::Box][kind as usize];
    let houses = House::all().map(|house| (unit(house.kind()), house.cells().map(|cell| cell.index() as u8).collect()));
    Geometry::build(0, houses.collect())
});

impl Geometry {
    /// The classic 9x9 grid's rows, columns and boxes.
    pub(crate) fn classic() -> &'static Geometry {
        &CLASSIC
    }

    /// The geometry of 9x9 houses given as `(unit, cells in reading order)`: nine rows, nine
    /// columns and nine boxes or regions that tile the grid, in that order. `None` if they are
    /// not. Houses beyond those (diagonals, extra regions) wait for uniqueness to learn when
    /// they allow it. Only tests build one until other rules are rated here (issue 52).
    #[cfg(test)]
    pub(crate) fn of_houses(houses: Vec<(Unit, Vec<u8>)>) -> Option<Geometry> {
        let expected = [Unit::Row, Unit::Column, Unit::Box, Unit::Region];
        let kinds_fit = houses.len() == HOUSES
            && houses.iter().enumerate().all(|(index, (unit, cells))| {
                cells.len() == SIZE
                    && cells.iter().all(|&cell| usize::from(cell) < CELLS)
                    && expected[..2].get(index / SIZE).is_none_or(|expected| unit == expected)
                    && (index < 2 * SIZE || expected[2..].contains(unit))
            });
        let tiled = |cell: u8| houses[2 * SIZE..].iter().filter(|(_, cells)| cells.contains(&cell)).count() == 1;
        (kinds_fit && (0..CELLS as u8).all(tiled))
            .then(|| Geometry::build(NEXT_ID.fetch_add(1, Ordering::Relaxed), houses))
    }

    fn build(id: u64, houses: Vec<(Unit, Vec<u8>)>) -> Geometry {
        let cells: [Cells; HOUSES] = std::array::from_fn(|h| houses[h].1.iter().fold(0, |acc, &cell| acc | 1 << cell));
        let of_cell: [[u8; 3]; CELLS] = std::array::from_fn(|cell| {
            let box_of = (2 * SIZE..HOUSES).find(|&h| cells[h] >> cell & 1 == 1).expect("the boxes tile the grid");
            [cell / SIZE, SIZE + cell % SIZE, box_of].map(|h| h as u8)
        });
        let peers = std::array::from_fn(|cell| {
            of_cell[cell].iter().fold(0, |acc, &h| acc | cells[usize::from(h)]) & !(1 << cell)
        });
        let units: [Unit; HOUSES] = std::array::from_fn(|h| houses[h].0);
        let numbers = std::array::from_fn(|h| units[..h].iter().filter(|&&unit| unit == units[h]).count() as u8 + 1);
        let members = std::array::from_fn(|h| std::array::from_fn(|i| houses[h].1[i]));
        let classic_boxes = (2 * SIZE..HOUSES).all(|h| cells[h] == CLASSIC_BOXES[h - 2 * SIZE]);
        Geometry { id, classic_boxes, cells, members, units, numbers, peers, of_cell }
    }

    /// Unique among the geometries of this process.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Whether the boxes are the classic 3x3 ones.
    pub(crate) fn classic_boxes(&self) -> bool {
        self.classic_boxes
    }

    /// How many houses there are.
    pub(crate) fn house_count(&self) -> usize {
        HOUSES
    }

    /// The houses whose role is `kind`.
    pub(crate) fn houses(&self, kind: HouseKind) -> std::ops::Range<usize> {
        match kind {
            HouseKind::Row => 0..SIZE,
            HouseKind::Column => SIZE..2 * SIZE,
            HouseKind::Box => 2 * SIZE..HOUSES,
        }
    }

    /// The role of `house`: row, column, or box (or region).
    pub(crate) fn kind(&self, house: usize) -> HouseKind {
        match house / SIZE {
            0 => HouseKind::Row,
            1 => HouseKind::Column,
            _ => HouseKind::Box,
        }
    }

    /// The cells of `house` as a set.
    pub(crate) fn cells(&self, house: usize) -> Cells {
        self.cells[house]
    }

    /// The cell sets of every house, in order.
    pub(crate) fn all_cells(&self) -> &[Cells] {
        &self.cells
    }

    /// The cells of `house` as row-major indexes, in reading order.
    pub(crate) fn members(&self, house: usize) -> &[u8; SIZE] {
        &self.members[house]
    }

    /// The cells sharing a house with `cell`.
    pub(crate) fn peers(&self, cell: usize) -> Cells {
        self.peers[cell]
    }

    /// Whether cells `a` and `b` share a house (a cell does not see itself).
    pub(crate) fn sees(&self, a: usize, b: usize) -> bool {
        self.peers[a] >> b & 1 == 1
    }

    /// The row, column or box (or region) of `kind` through `cell`.
    pub(crate) fn house_of(&self, cell: usize, kind: HouseKind) -> usize {
        usize::from(self.of_cell[cell][kind as usize])
    }

    /// The houses of `cell`, in order: its row, column and box (or region).
    pub(crate) fn houses_of(&self, cell: usize) -> [usize; 3] {
        self.of_cell[cell].map(usize::from)
    }

    /// The houses of `cell` as a set, bit `h` for house `h`.
    pub(crate) fn house_set(&self, cell: usize) -> u32 {
        self.of_cell[cell].iter().fold(0, |acc, &h| acc | 1 << h)
    }

    /// `row 3`, `box 3`, `region 3`: `house` for people.
    pub(crate) fn name(&self, house: usize) -> String {
        format!("{} {}", self.units[house].name(), self.numbers[house])
    }

    /// `rows`, `columns`: what several houses of the unit of `house` are called.
    pub(crate) fn plural(&self, house: usize) -> &'static str {
        match self.units[house] {
            Unit::Row => "rows",
            Unit::Column => "columns",
            Unit::Box => "boxes",
            _ => "regions",
        }
    }

    /// The 1-based number of `house` among those of its unit.
    pub(crate) fn number(&self, house: usize) -> u8 {
        self.numbers[house]
    }
}

/// The classic boxes' cell sets, to tell a grid whose boxes are classic.
const CLASSIC_BOXES: [Cells; SIZE] = {
    let mut sets = [0; SIZE];
    let mut cell = 0;
    while cell < CELLS {
        sets[cell / 27 * 3 + cell % 9 / 3] |= 1 << cell;
        cell += 1;
    }
    sets
};

#[cfg(test)]
mod tests {
    use std::ops::ControlFlow;

    use super::*;
    use crate::board::Board;
    use crate::logic::grid::Grid;
    use crate::logic::step::Technique;
    use crate::logic::{Level, run_over, techniques};
    use crate::position::Cell;
    use crate::solver::Never;

    /// A jigsaw's geometry: rows, columns, then the regions `regions` numbers cell by cell.
    fn jigsaw(regions: &[[u8; 9]; 9]) -> Geometry {
        let rows = (0..9).map(|row| (Unit::Row, (0..9).map(|col| row * 9 + col).collect()));
        let columns = (0..9).map(|col| (Unit::Column, (0..9).map(|row| row * 9 + col).collect()));
        let region =
            |number: u8| (0..81).filter(move |&cell| regions[usize::from(cell / 9)][usize::from(cell % 9)] == number);
        let regions = (0..9).map(|number| (Unit::Region, region(number).collect()));
        Geometry::of_houses(rows.chain(columns).chain(regions).collect()).expect("a jigsaw's houses")
    }

    /// `sudokud generate --variant jigsaw --difficulty extreme --seed 108` (rated 12.0, brute
    /// force, by the grid-size engine; 7.2 here): its path takes a turbot fish, a WXYZ-Wing and
    /// a forcing chain.
    const JIGSAW: (&str, &str, [[u8; 9]; 9]) = (
        ".2.78..5...8...1.........1...64....9......4........8...4.........5......9....7...",
        "129783654568324197497632518316458729283975461754196832642819375875261943931547286",
        [
            [0, 0, 0, 0, 0, 2, 2, 2, 2],
            [0, 0, 1, 1, 1, 1, 1, 2, 5],
            [0, 1, 1, 1, 4, 4, 1, 2, 5],
            [0, 3, 3, 4, 4, 2, 2, 2, 5],
            [3, 3, 3, 3, 4, 5, 5, 5, 5],
            [3, 3, 3, 4, 4, 4, 4, 5, 5],
            [6, 6, 7, 7, 7, 7, 7, 8, 8],
            [6, 6, 7, 6, 7, 8, 8, 8, 8],
            [6, 6, 6, 6, 7, 7, 8, 8, 8],
        ],
    );

    #[test]
    fn on_a_jigsaw_every_step_keeps_the_solution_and_the_hard_techniques_fire() {
        let (puzzle, solution, regions) = JIGSAW;
        let geometry = jigsaw(&regions);
        assert!(!geometry.classic_boxes());
        let (puzzle, solution): (Board, Board) = (puzzle.parse().unwrap(), solution.parse().unwrap());
        let mut used = Vec::new();
        let mut sentences = Vec::new();
        let path = run_over(&geometry, &puzzle, None, &solution, Level::Extreme, &mut Never, |grid, found| {
            for removed in &found.eliminations {
                assert_ne!(solution.cells()[removed.cell.index()], removed.digit.get(), "{:?}", found.technique);
            }
            for placed in &found.placements {
                assert_eq!(solution.cells()[placed.cell.index()], placed.digit.get(), "{:?}", found.technique);
            }
            used.push(found.technique);
            sentences.push(techniques::describe(grid, found));
            ControlFlow::Continue(())
        })
        .unwrap();
        assert!(path.rating.solved_by_logic);
        assert_eq!(path.grid.board(), solution);
        for technique in [Technique::TurbotFish, Technique::WxyzWing, Technique::ForcingChain] {
            assert!(used.contains(&technique), "{technique:?} in {used:?}");
        }
        assert!(sentences.iter().any(|sentence| sentence.starts_with("In region ")), "{sentences:?}");
        assert!(sentences.iter().all(|sentence| !sentence.contains("box")), "{sentences:?}");
    }

    #[test]
    fn positions_in_a_region_are_read_off_its_cells() {
        let geometry = jigsaw(&JIGSAW.2);
        let mut grid = Grid::over(&geometry, &JIGSAW.0.parse().unwrap());
        for cell in [0, 13, 40, 77] {
            for digit in [1, 5, 9] {
                grid.eliminate(cell, digit);
            }
        }
        for house in 0..geometry.house_count() {
            for digit in 1..=9 {
                let members = geometry.members(house).iter().enumerate();
                let expected = members.filter(|&(_, &cell)| grid.has(usize::from(cell), digit));
                assert_eq!(grid.positions(house, digit), expected.fold(0, |acc, (i, _)| acc | 1 << i));
            }
        }
    }

    #[test]
    fn the_classic_geometry_is_the_typed_positions() {
        let geometry = Geometry::classic();
        assert!(geometry.classic_boxes());
        for house in House::all() {
            let h = house.index();
            assert_eq!(geometry.name(h), house.to_string());
            assert_eq!(geometry.kind(h), house.kind());
            assert!(house.cells().map(|cell| cell.index() as u8).eq(geometry.members(h).iter().copied()));
        }
        for cell in Cell::all() {
            let index = cell.index();
            assert_eq!(geometry.peers(index).count_ones(), 20);
            assert_eq!(geometry.houses_of(index), cell.houses().map(House::index));
            for kind in HouseKind::ALL {
                assert_eq!(geometry.house_of(index, kind), cell.house(kind).index());
            }
            for other in Cell::all() {
                assert_eq!(geometry.sees(index, other.index()), cell.sees(other), "{cell} {other}");
            }
        }
    }
}

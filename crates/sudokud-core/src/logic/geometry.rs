//! Where the techniques look: a puzzle's houses and each cell's peers, built once per puzzle, so
//! one technique serves boxes and a jigsaw's regions alike. The classic 9x9 one is built once for
//! the process.
//!
//! Houses are indexes: rows `0..9`, columns `9..18`, the boxes or regions `18..27`, then any
//! others (diagonals, extra regions). Each house has a role, its [`HouseKind`], that says what
//! the techniques do with it: rows and columns are lines (fish, hidden singles in a line), every
//! other house counts as a box (as the grid-size engine counts them).

use std::sync::LazyLock;
#[cfg(test)]
use std::sync::atomic::{AtomicU64, Ordering};

use crate::board::{CELLS, SIZE};
use crate::position::{House, HouseKind};
use crate::rules::Unit;

use super::grid::Cells;

/// The rows, columns and boxes or regions: the houses every 9x9 geometry has.
const HOUSES: usize = 3 * SIZE;

/// The most houses a geometry has, extra ones included (house sets are `u32`).
const MOST_HOUSES: usize = 32;

/// The most houses one cell is in (the centre of an X grid is in five).
const MOST_PER_CELL: usize = 8;

/// A puzzle's houses and peers, for grids of 81 cells. Fixed-size tables: the techniques index
/// them in their innermost loops, where a length read from memory and its check would show.
#[derive(Debug)]
pub(crate) struct Geometry {
    /// Unique per geometry built, so caches keyed by a grid tell puzzles with other houses apart.
    id: u64,
    /// Whether the boxes are the classic ones, which [`super::grid::Grid::positions`] reads by
    /// bit tricks.
    classic_boxes: bool,
    /// How many houses there are.
    count: usize,
    /// The cells of each house as a set.
    cells: [Cells; MOST_HOUSES],
    /// The cells of each house in reading order.
    members: [[u8; SIZE]; MOST_HOUSES],
    /// What each house stands for, for sentences.
    units: [Unit; MOST_HOUSES],
    /// Each house's 1-based number among the houses of its unit.
    numbers: [u8; MOST_HOUSES],
    /// The cells sharing a house with each cell, itself excluded.
    peers: [Cells; CELLS],
    /// Each cell's houses in ascending order: its row, column and box (or region), then any
    /// others. A list rather than a bit set: chains walk it in their innermost loop.
    of_cell: [[u8; MOST_PER_CELL]; CELLS],
    /// How many houses each cell is in.
    counts: [u8; CELLS],
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
    /// columns and nine boxes or regions that tile the grid, in that order, then any diagonals
    /// and extra regions. `None` if they are not. Only tests build one until other rules are
    /// rated here (issue 52).
    #[cfg(test)]
    pub(crate) fn of_houses(houses: Vec<(Unit, Vec<u8>)>) -> Option<Geometry> {
        let expected = |index: usize| match index / SIZE {
            0 => &[Unit::Row][..],
            1 => &[Unit::Column],
            2 => &[Unit::Box, Unit::Region],
            _ => &[Unit::Diagonal, Unit::AntiDiagonal, Unit::ExtraRegion],
        };
        let kinds_fit = (HOUSES..=MOST_HOUSES).contains(&houses.len())
            && houses.iter().enumerate().all(|(index, (unit, cells))| {
                cells.len() == SIZE
                    && cells.iter().all(|&cell| usize::from(cell) < CELLS)
                    && expected(index).contains(unit)
            });
        let tiled = |cell: u8| houses[2 * SIZE..HOUSES].iter().filter(|(_, cells)| cells.contains(&cell)).count() == 1;
        let within = |cell: u8| houses.iter().filter(|(_, cells)| cells.contains(&cell)).count() <= MOST_PER_CELL;
        (kinds_fit && (0..CELLS as u8).all(|cell| tiled(cell) && within(cell)))
            .then(|| Geometry::build(NEXT_ID.fetch_add(1, Ordering::Relaxed), houses))
    }

    fn build(id: u64, houses: Vec<(Unit, Vec<u8>)>) -> Geometry {
        let count = houses.len();
        let cells: [Cells; MOST_HOUSES] = std::array::from_fn(|h| {
            houses.get(h).map_or(0, |(_, members)| members.iter().fold(0, |acc, &cell| acc | 1 << cell))
        });
        let mut of_cell = [[0; MOST_PER_CELL]; CELLS];
        let mut counts = [0; CELLS];
        for (cell, (houses, count_here)) in of_cell.iter_mut().zip(&mut counts).enumerate() {
            for (slot, house) in houses.iter_mut().zip((0..count).filter(|&h| cells[h] >> cell & 1 == 1)) {
                *slot = house as u8;
                *count_here += 1;
            }
        }
        let peers = std::array::from_fn(|cell| {
            let houses = of_cell[cell][..usize::from(counts[cell])].iter();
            houses.fold(0, |acc, &h| acc | cells[usize::from(h)]) & !(1 << cell)
        });
        let units: [Unit; MOST_HOUSES] =
            std::array::from_fn(|h| houses.get(h).map_or(Unit::ExtraRegion, |&(unit, _)| unit));
        let numbers = std::array::from_fn(|h| units[..h].iter().filter(|&&unit| unit == units[h]).count() as u8 + 1);
        let members =
            std::array::from_fn(|h| std::array::from_fn(|i| houses.get(h).map_or(0, |(_, members)| members[i])));
        let classic_boxes = (2 * SIZE..HOUSES).all(|h| cells[h] == CLASSIC_BOXES[h - 2 * SIZE]);
        Geometry { id, classic_boxes, count, cells, members, units, numbers, peers, of_cell, counts }
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
        self.count
    }

    /// The houses whose role is `kind`.
    pub(crate) fn houses(&self, kind: HouseKind) -> std::ops::Range<usize> {
        match kind {
            HouseKind::Row => 0..SIZE,
            HouseKind::Column => SIZE..2 * SIZE,
            HouseKind::Box => 2 * SIZE..self.count,
        }
    }

    /// The boxes or regions, which tile the grid.
    pub(crate) fn regions(&self) -> std::ops::Range<usize> {
        2 * SIZE..HOUSES
    }

    /// The houses beyond rows, columns and regions: diagonals, extra regions.
    pub(crate) fn extras(&self) -> std::ops::Range<usize> {
        HOUSES..self.count
    }

    /// The role of `house`: row, column, or box (every house not a line).
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
        &self.cells[..self.count]
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

    /// The houses of `cell`, in order: its row, column and box (or region), then any others.
    pub(crate) fn houses_of(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        self.of_cell[cell][..usize::from(self.counts[cell])].iter().map(|&house| usize::from(house))
    }

    /// The houses of `cell` as a set, bit `h` for house `h`.
    pub(crate) fn house_set(&self, cell: usize) -> u32 {
        self.houses_of(cell).fold(0, |acc, house| acc | 1 << house)
    }

    /// `row 3`, `box 3`, `region 3`, `the diagonal`, `extra region 2`: `house` for people, as
    /// the grid-size engine names them.
    pub(crate) fn name(&self, house: usize) -> String {
        match self.units[house] {
            Unit::Diagonal => "the diagonal".to_string(),
            Unit::AntiDiagonal => "the anti-diagonal".to_string(),
            Unit::ExtraRegion => format!("extra region {}", self.numbers[house]),
            unit => format!("{} {}", unit.name(), self.numbers[house]),
        }
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
    use crate::interrupt::Never;
    use crate::logic::grid::Grid;
    use crate::logic::sized::{Book, GridStep, TECHNIQUES, explain_in};
    use crate::logic::step::{Deduction, Technique};
    use crate::logic::{Level, run_over, techniques, to_step};
    use crate::position::Cell;
    use crate::sizes::{self as sized, Shape};
    use crate::variants::{Constraints, Variant};

    /// The geometry of a 9x9 variant given by its constraints' JSON (as `sudokud generate
    /// --variant` writes them), whose peers must be its houses' alone, and the variant.
    fn of_variant(json: &str) -> (Geometry, Variant) {
        let constraints: Constraints = serde_json::from_str(json).expect("constraints");
        let variant = Variant::new(Shape::default_for(9).unwrap(), None, &constraints).expect("a 9x9 variant");
        let houses = variant.houses().zip(&variant.house_units);
        let houses = houses.map(|(cells, &unit)| (unit, cells.iter().map(|&cell| cell as u8).collect()));
        let geometry = Geometry::of_houses(houses.collect()).expect("rows, columns, regions and extras");
        for cell in 0..CELLS {
            let peers = variant.peers(cell).iter().fold(0, |acc: Cells, &peer| acc | 1 << peer);
            assert_eq!(geometry.peers(cell), peers);
        }
        (geometry, variant)
    }

    /// Puzzles of `sudokud generate --variant V --difficulty extreme --seed S` (each rated 12.0,
    /// brute force, by the grid-size engine), as `(puzzle, solution, constraints)`: a jigsaw
    /// (seed 108), X (202) and windoku (208). Here each path takes a turbot fish, an ALS wing and
    /// a forcing chain.
    const VARIANTS: [(&str, &str, &str); 3] = [
        (
            ".2.78..5...8...1.........1...64....9......4........8...4.........5......9....7...",
            "129783654568324197497632518316458729283975461754196832642819375875261943931547286",
            r#"{"regions":[[0,0,0,0,0,2,2,2,2],[0,0,1,1,1,1,1,2,5],[0,1,1,1,4,4,1,2,5],[0,3,3,4,4,2,2,2,5],[3,3,3,3,4,5,5,5,5],[3,3,3,4,4,4,4,5,5],[6,6,7,7,7,7,7,8,8],[6,6,7,6,7,8,8,8,8],[6,6,6,6,7,7,8,8,8]]}"#,
        ),
        (
            ".9.6..4......2.7..2...4.1..7.....................5...6........95.3..2.....7..3...",
            "891637425435921768276845193769284351358176942124359876642718539583492617917563284",
            r#"{"diagonals":"both"}"#,
        ),
        (
            "81..............312.5............719....2..........5....4....25....8.1.........4.",
            "813492657649875231275136498426358719597621384381749562764913825932584176158267943",
            r#"{"extra_regions":[[[1,1],[1,2],[1,3],[2,1],[2,2],[2,3],[3,1],[3,2],[3,3]],[[1,5],[1,6],[1,7],[2,5],[2,6],[2,7],[3,5],[3,6],[3,7]],[[5,1],[5,2],[5,3],[6,1],[6,2],[6,3],[7,1],[7,2],[7,3]],[[5,5],[5,6],[5,7],[6,5],[6,6],[6,7],[7,5],[7,6],[7,7]]]}"#,
        ),
    ];

    #[test]
    fn on_variants_every_step_keeps_the_solution_and_the_hard_techniques_fire() {
        for (puzzle, solution, json) in VARIANTS {
            let (geometry, _) = of_variant(json);
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
            assert!(path.rating.solved_by_logic, "{json}");
            assert_eq!(path.grid.board(), solution);
            let als = [Technique::WxyzWing, Technique::VwxyzWing, Technique::UvwxyzWing, Technique::TuvwxyzWing];
            assert!(used.contains(&Technique::TurbotFish), "{used:?}");
            assert!(used.iter().any(|technique| als.contains(technique)), "{used:?}");
            assert!(used.contains(&Technique::ForcingChain), "{used:?}");
            let own = geometry.name(geometry.house_count() - 1);
            let own = own.trim_end_matches(char::is_numeric);
            assert!(sentences.iter().any(|sentence| sentence.contains(own)), "{own}: {sentences:?}");
        }
    }

    #[test]
    fn on_variants_the_steps_are_the_grid_size_engines_up_to_a_technique_it_lacks() {
        let mut compared = 0;
        for (puzzle, solution, json) in VARIANTS {
            let (geometry, variant) = of_variant(json);
            let (puzzle, solution): (Board, Board) = (puzzle.parse().unwrap(), solution.parse().unwrap());
            let mut ours = Vec::new();
            run_over(&geometry, &puzzle, None, &solution, Level::Extreme, &mut Never, |grid, found| {
                ours.push(GridStep::from(to_step(grid, found)));
                ControlFlow::Continue(())
            })
            .unwrap();
            let (puzzle, solution) = (sized::Grid::from(&puzzle), sized::Grid::from(&solution));
            let (theirs, _, _) = explain_in(Book::Variant(&variant), &puzzle, None, &solution, &mut Never).unwrap();
            let shared = ours.iter().take_while(|step| TECHNIQUES.contains(&step.technique));
            for (ours, theirs) in shared.zip(&theirs) {
                assert_eq!(serde_json::to_value(ours).unwrap(), serde_json::to_value(theirs).unwrap(), "{json}");
                compared += 1;
            }
        }
        assert!(compared > 40, "{compared} steps compared");
    }

    #[test]
    fn a_rectangle_whose_swap_breaks_a_diagonal_is_no_deadly_pattern() {
        // r1c1, r1c4, r2c1 and r2c4 hold 1 and 2 (r2c4 also 3): on a classic grid r2c4 loses 1
        // and 2; on an X grid the diagonal through r1c1 alone would repeat a digit after the
        // swap, so the rectangle proves nothing.
        let corners: [(usize, &[u8]); 4] = [(0, &[1, 2]), (3, &[1, 2]), (9, &[1, 2]), (12, &[1, 2, 3])];
        for (geometry, fires) in [(Geometry::classic(), true), (&of_variant(r#"{"diagonals":"both"}"#).0, false)] {
            let mut grid = Grid::over(geometry, &Board::EMPTY);
            for cell in 0..CELLS {
                let kept = corners.iter().find(|&&(at, _)| at == cell).map_or(&[][..], |&(_, digits)| digits);
                for digit in (1..=9).filter(|digit| !kept.contains(digit)) {
                    grid.eliminate(cell, digit);
                }
            }
            let mut out = Deduction::new();
            let found = techniques::find(Technique::UniqueRectangle1, &grid, &mut out, &mut Never).unwrap();
            assert_eq!(found, fires);
        }
    }

    #[test]
    fn positions_in_a_region_are_read_off_its_cells() {
        let (puzzle, _, json) = VARIANTS[0];
        let (geometry, _) = of_variant(json);
        let mut grid = Grid::over(&geometry, &puzzle.parse().unwrap());
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
            assert!(geometry.houses_of(index).eq(cell.houses().map(House::index)));
            for kind in HouseKind::ALL {
                assert_eq!(geometry.house_of(index, kind), cell.house(kind).index());
            }
            for other in Cell::all() {
                assert_eq!(geometry.sees(index, other.index()), cell.sees(other), "{cell} {other}");
            }
        }
    }
}

//! Where the techniques look: a puzzle's houses and each cell's peers, built once per puzzle, so
//! one technique serves boxes and a jigsaw's regions alike. The classic 9x9 one is built once for
//! the process.
//!
//! Houses are indexes: on a grid of side N, rows `0..N`, columns `N..2N`, the boxes or regions
//! `2N..3N`, then any others (diagonals, extra regions). Each house has a role, its
//! [`HouseKind`], that says what the techniques do with it: rows and columns are lines (fish,
//! hidden singles in a line), every other house counts as a box (as the grid-size engine counts
//! them).

use std::sync::LazyLock;
#[cfg(test)]
use std::sync::atomic::{AtomicU64, Ordering};

use crate::position::{House, HouseKind};
use crate::rules::Unit;
use sudokud_model::variant::Variant;

use super::cells::CellSet;
use super::grid::Cells;

/// The most houses one cell is in (the centre of an X grid is in five).
const MOST_PER_CELL: usize = 8;

/// A puzzle's houses and peers, in tables sized by its cell sets' type (81 cells and 32 houses
/// for 9x9): the techniques index them in their innermost loops, where a length read from
/// memory and its check would show.
#[derive(Debug)]
pub(crate) struct Geometry<C: CellSet = Cells> {
    /// Unique per geometry built, so caches keyed by a grid tell puzzles with other houses apart.
    id: u64,
    /// Whether the grid is 9x9 with the classic boxes, which [`CellSet::positions`] reads by
    /// bit tricks.
    classic_boxes: bool,
    /// The side: digits, and cells a house.
    side: usize,
    /// How many houses there are.
    count: usize,
    /// The cells of each house as a set.
    cells: C::PerHouse<C>,
    /// The cells of each house in reading order.
    members: C::PerHouse<C::PerDigit<u16>>,
    /// What each house stands for, for sentences.
    units: C::PerHouse<Unit>,
    /// Each house's 1-based number among the houses of its unit.
    numbers: C::PerHouse<u8>,
    /// The cells sharing a house with each cell, itself excluded.
    peers: C::PerCell<C>,
    /// Each cell's houses in ascending order: its row, column and box (or region), then any
    /// others. A list rather than a bit set: chains walk it in their innermost loop.
    of_cell: C::PerCell<[u8; MOST_PER_CELL]>,
    /// How many houses each cell is in.
    counts: C::PerCell<u8>,
    /// A variant's rules beyond its houses (peers that share no house, cages, related pairs,
    /// cells that may hold only some digits); `None` where the houses are the only rules.
    rules: Option<Box<Variant>>,
}

/// Next [`Geometry::id`]; the classic geometry's is 0.
#[cfg(test)]
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

static CLASSIC: LazyLock<Geometry> = LazyLock::new(|| {
    let unit = |kind| [Unit::Row, Unit::Column, Unit::Box][kind as usize];
    let houses =
        House::all().map(|house| (unit(house.kind()), house.cells().map(|cell| cell.index() as u16).collect()));
    Geometry::build(0, 9, houses.collect())
});

impl Geometry {
    /// The classic 9x9 grid's rows, columns and boxes.
    pub(crate) fn classic() -> &'static Geometry {
        &CLASSIC
    }
}

impl<C: CellSet> Geometry<C> {
    /// The geometry of the houses of a grid of `side` given as `(unit, cells in reading order)`:
    /// `side` rows, columns and boxes or regions that tile the grid, in that order, then any
    /// diagonals and extra regions. `None` if they are not, or do not fit `C`'s tables. Only
    /// tests build one until other rules are rated here (issue 52).
    #[cfg(test)]
    pub(crate) fn of_houses(side: usize, houses: Vec<(Unit, Vec<u16>)>) -> Option<Geometry<C>> {
        let cells = side * side;
        let expected = |index: usize| match index / side {
            0 => &[Unit::Row][..],
            1 => &[Unit::Column],
            2 => &[Unit::Box, Unit::Region],
            _ => &[Unit::Diagonal, Unit::AntiDiagonal, Unit::ExtraRegion, Unit::DisjointGroup],
        };
        let fits = C::SIDE.is_none_or(|fixed| fixed == side)
            && cells <= C::CELLS
            && side <= C::per_digit(0u8).as_ref().len()
            && (3 * side..=C::per_house(0u8).as_ref().len()).contains(&houses.len());
        let kinds_fit = fits
            && houses.iter().enumerate().all(|(index, (unit, members))| {
                members.len() == side
                    && members.iter().all(|&cell| usize::from(cell) < cells)
                    && expected(index).contains(unit)
            });
        let regions = 2 * side..3 * side;
        let tiled =
            |cell: u16| houses[regions.clone()].iter().filter(|(_, members)| members.contains(&cell)).count() == 1;
        let within = |cell: u16| houses.iter().filter(|(_, members)| members.contains(&cell)).count() <= MOST_PER_CELL;
        (kinds_fit && (0..cells as u16).all(|cell| tiled(cell) && within(cell)))
            .then(|| Geometry::build(NEXT_ID.fetch_add(1, Ordering::Relaxed), side, houses))
    }

    /// The rows, columns and boxes of `shape`'s grid (of any size), as the model lays them out.
    /// `None` if they do not fit `C`'s tables.
    #[cfg(test)]
    pub(crate) fn of_shape(shape: crate::sizes::Shape) -> Option<Geometry<C>> {
        let layout = sudokud_model::layout::Layout::of(shape);
        let units = [Unit::Row, Unit::Column, Unit::Box];
        let houses = layout.houses().enumerate().map(|(h, cells)| (units[h / shape.size()], cells.to_vec()));
        Geometry::of_houses(shape.size(), houses.collect())
    }

    fn build(id: u64, side: usize, houses: Vec<(Unit, Vec<u16>)>) -> Geometry<C> {
        let count = houses.len();
        let mut cells = C::per_house(C::EMPTY);
        let mut members = C::per_house(C::per_digit(0u16));
        let mut units = C::per_house(Unit::ExtraRegion);
        for (h, (unit, list)) in houses.iter().enumerate() {
            cells.as_mut()[h] = list.iter().fold(C::EMPTY, |acc, &cell| acc | C::cell(usize::from(cell)));
            members.as_mut()[h].as_mut()[..side].copy_from_slice(list);
            units.as_mut()[h] = *unit;
        }
        let mut numbers = C::per_house(0u8);
        for h in 0..count {
            let unit = units.as_ref()[h];
            numbers.as_mut()[h] = units.as_ref()[..h].iter().filter(|&&other| other == unit).count() as u8 + 1;
        }
        let mut of_cell = C::per_cell([0; MOST_PER_CELL]);
        let mut counts = C::per_cell(0u8);
        let mut peers = C::per_cell(C::EMPTY);
        for cell in 0..side * side {
            let houses_here = (0..count).filter(|&h| cells.as_ref()[h].has(cell));
            for (slot, house) in houses_here.take(MOST_PER_CELL).enumerate() {
                of_cell.as_mut()[cell][slot] = house as u8;
                counts.as_mut()[cell] += 1;
                peers.as_mut()[cell] |= cells.as_ref()[house];
            }
            peers.as_mut()[cell] &= !C::cell(cell);
        }
        let classic_box = |b: usize| (0..9).map(move |i| (b / 3 * 27 + b % 3 * 3 + i / 3 * 9 + i % 3) as u16);
        let classic_boxes = side == 9 && (0..9).all(|b| houses[18 + b].1.iter().copied().eq(classic_box(b)));
        Geometry { id, classic_boxes, side, count, cells, members, units, numbers, peers, of_cell, counts, rules: None }
    }

    /// The geometry of `variant`: its houses as [`Geometry::of_houses`], each cell's peers all
    /// the cells its digit may not repeat in (a knight's or king's move away, cage mates), and
    /// its other rules kept for the techniques that read them. `None` if the houses do not fit.
    #[cfg(test)]
    pub(crate) fn of_variant(variant: &Variant) -> Option<Geometry<C>> {
        let houses = variant.houses().zip(&variant.house_units).map(|(cells, &unit)| (unit, cells.to_vec()));
        let mut geometry = Geometry::of_houses(variant.shape().size(), houses.collect())?;
        let mut beyond_houses = !variant.cages.is_empty() || !variant.pairs.is_empty();
        beyond_houses |= !variant.renbans.is_empty()
            || !variant.arrows.is_empty()
            || !variant.little_killers.is_empty()
            || !variant.lines.is_empty()
            || !variant.quadruples.is_empty()
            || !variant.windows.is_empty()
            || !variant.outside_clues.is_empty();
        let all = (1u32 << geometry.side) - 1;
        beyond_houses |= variant.allowed.iter().any(|&digits| digits != all);
        for cell in 0..geometry.cell_count() {
            let peers = variant.peers(cell).iter().fold(C::EMPTY, |acc, &peer| acc | C::cell(usize::from(peer)));
            beyond_houses |= peers != geometry.peers(cell);
            geometry.peers.as_mut()[cell] = peers;
        }
        geometry.rules = beyond_houses.then(|| Box::new(variant.clone()));
        Some(geometry)
    }

    /// Unique among the geometries of this process.
    pub(crate) fn id(&self) -> u64 {
        self.id
    }

    /// Whether the grid is 9x9 with the classic boxes.
    pub(crate) fn classic_boxes(&self) -> bool {
        self.classic_boxes
    }

    /// The side of the grid: how many digits, and how many cells a house has (a constant for
    /// 9x9's `u128`).
    pub(crate) fn side(&self) -> usize {
        C::SIDE.unwrap_or(self.side)
    }

    /// How many cells the grid has.
    pub(crate) fn cell_count(&self) -> usize {
        self.side() * self.side()
    }

    /// How many houses there are.
    pub(crate) fn house_count(&self) -> usize {
        self.count
    }

    /// The houses whose role is `kind`.
    pub(crate) fn houses(&self, kind: HouseKind) -> std::ops::Range<usize> {
        let side = self.side();
        match kind {
            HouseKind::Row => 0..side,
            HouseKind::Column => side..2 * side,
            HouseKind::Box => 2 * side..self.count,
        }
    }

    /// The boxes or regions, which tile the grid.
    pub(crate) fn regions(&self) -> std::ops::Range<usize> {
        2 * self.side()..3 * self.side()
    }

    /// The houses beyond rows, columns and regions: diagonals, extra regions.
    pub(crate) fn extras(&self) -> std::ops::Range<usize> {
        3 * self.side()..self.count
    }

    /// The role of `house`: row, column, or box (every house not a line).
    pub(crate) fn kind(&self, house: usize) -> HouseKind {
        match house / self.side() {
            0 => HouseKind::Row,
            1 => HouseKind::Column,
            _ => HouseKind::Box,
        }
    }

    /// The cells of `house` as a set.
    pub(crate) fn cells(&self, house: usize) -> C {
        self.cells.as_ref()[house]
    }

    /// The cell sets of every house, in order.
    pub(crate) fn all_cells(&self) -> &[C] {
        &self.cells.as_ref()[..self.count]
    }

    /// The cells of `house` as row-major indexes, in reading order.
    pub(crate) fn members(&self, house: usize) -> &[u16] {
        &self.members.as_ref()[house].as_ref()[..self.side()]
    }

    /// The cells whose digit must differ from `cell`'s: those sharing a house with it, and on
    /// a variant any others its rules say (a knight's move away, cage mates).
    pub(crate) fn peers(&self, cell: usize) -> C {
        self.peers.as_ref()[cell]
    }

    /// A variant's rules beyond its houses, `None` where the houses are the only rules (then
    /// the peers are the house mates, and a pattern whose swap keeps every house valid is a
    /// second solution).
    pub(crate) fn rules(&self) -> Option<&Variant> {
        self.rules.as_deref()
    }

    /// Whether cells `a` and `b` may not hold the same digit: they share a house, or a
    /// variant's rule makes them peers (a cell does not see itself).
    pub(crate) fn sees(&self, a: usize, b: usize) -> bool {
        self.peers(a).has(b)
    }

    /// The row, column or box (or region) of `kind` through `cell`.
    pub(crate) fn house_of(&self, cell: usize, kind: HouseKind) -> usize {
        usize::from(self.of_cell.as_ref()[cell][kind as usize])
    }

    /// The houses of `cell`, in order: its row, column and box (or region), then any others.
    pub(crate) fn houses_of(&self, cell: usize) -> impl Iterator<Item = usize> + '_ {
        let count = usize::from(self.counts.as_ref()[cell]);
        self.of_cell.as_ref()[cell][..count].iter().map(|&house| usize::from(house))
    }

    /// The houses of `cell` as a set, bit `h` for house `h`.
    pub(crate) fn house_set(&self, cell: usize) -> u128 {
        self.houses_of(cell).fold(0, |acc, house| acc | 1 << house)
    }

    /// `r12c3`: `cell` for people, 1-based.
    pub(crate) fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", cell / self.side() + 1, cell % self.side() + 1)
    }

    /// `row 3`, `box 3`, `region 3`, `the diagonal`, `extra region 2`: `house` for people, as
    /// the grid-size engine names them.
    pub(crate) fn name(&self, house: usize) -> String {
        let kind = self.kind_name(house);
        match self.units.as_ref()[house] {
            Unit::Diagonal | Unit::AntiDiagonal => format!("the {kind}"),
            _ => format!("{kind} {}", self.numbers.as_ref()[house]),
        }
    }

    /// `row`, `box`, `region`, `diagonal`, `extra region`, `disjoint group`: what kind of house `house` is.
    pub(crate) fn kind_name(&self, house: usize) -> &'static str {
        match self.units.as_ref()[house] {
            Unit::Diagonal => "diagonal",
            Unit::AntiDiagonal => "anti-diagonal",
            Unit::ExtraRegion => "extra region",
            Unit::DisjointGroup => "disjoint group",
            unit => unit.name(),
        }
    }

    /// `rows`, `columns`: what several houses of the unit of `house` are called.
    pub(crate) fn plural(&self, house: usize) -> &'static str {
        match self.units.as_ref()[house] {
            Unit::Row => "rows",
            Unit::Column => "columns",
            Unit::Box => "boxes",
            _ => "regions",
        }
    }

    /// The 1-based number of `house` among those of its unit.
    pub(crate) fn number(&self, house: usize) -> u8 {
        self.numbers.as_ref()[house]
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use std::ops::ControlFlow;

    use super::*;
    use crate::board::Board;
    use crate::interrupt::Never;
    use crate::logic::cells::Wide;
    use crate::logic::grid::Grid;
    use crate::logic::sized::{Book, GridStep, TECHNIQUES, explain_in};
    use crate::logic::step::{Deduction, Technique};
    use crate::logic::{Level, run_over, techniques, to_grid_step};
    use crate::position::Cell;
    use crate::sizes::{self as sized, Shape};
    use crate::variants::{Constraints, Variant};

    /// The geometry of a 9x9 variant given by its constraints' JSON (as `sudokud generate
    /// --variant` writes them), whose peers must be its houses' alone, and the variant.
    fn of_variant(json: &str) -> (Geometry, Variant) {
        let constraints: Constraints = serde_json::from_str(json).expect("constraints");
        let variant = Variant::new(Shape::default_for(9).unwrap(), None, &constraints).expect("a 9x9 variant");
        let houses = variant.houses().zip(&variant.house_units);
        let houses = houses.map(|(cells, &unit)| (unit, cells.to_vec()));
        let geometry = Geometry::of_houses(9, houses.collect()).expect("rows, columns, regions and extras");
        for cell in 0..81 {
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

    /// The engine's path over `geometry` from `puzzle` to `solution` (values, row-major), every
    /// elimination and placement checked against the solution, with its steps in the grid-size
    /// engine's form.
    pub(crate) fn checked_path<'g, C: CellSet>(
        geometry: &'g Geometry<C>,
        puzzle: &[u8],
        solution: &[u8],
    ) -> (crate::logic::Path<'g, C>, Vec<GridStep>) {
        let mut steps = Vec::new();
        let path = run_over(geometry, puzzle, None, solution, Level::Extreme, &mut Never, |grid, found| {
            for removed in &found.eliminations {
                assert_ne!(solution[removed.cell], removed.digit, "{:?}", found.technique);
            }
            for placed in &found.placements {
                assert_eq!(solution[placed.cell], placed.digit, "{:?}", found.technique);
            }
            steps.push(to_grid_step(grid, found));
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(path.grid.values(), solution);
        (path, steps)
    }

    /// How many of `ours` agree with `theirs` in JSON (sentences included), up to the first of
    /// ours whose technique is not `shared`.
    fn agreeing(ours: &[GridStep], theirs: &[GridStep], shared: impl Fn(Technique) -> bool, puzzle: &str) -> usize {
        let ours = ours.iter().take_while(|step| shared(step.technique));
        ours.zip(theirs)
            .map(|(ours, theirs)| {
                assert_eq!(serde_json::to_value(ours).unwrap(), serde_json::to_value(theirs).unwrap(), "{puzzle}");
            })
            .count()
    }

    /// The puzzles of `tests/data/variants/*.jsonl` whose rules `keep` takes, as
    /// `(id, rules, puzzle, solution)`.
    pub(crate) fn variant_puzzles(keep: impl Fn(&Variant) -> bool) -> Vec<(String, Variant, sized::Grid, sized::Grid)> {
        let mut puzzles = Vec::new();
        for file in ["mixed_ccby", "iss_mit", "generated"] {
            let path = format!("{}/../../tests/data/variants/{file}.jsonl", env!("CARGO_MANIFEST_DIR"));
            for line in std::fs::read_to_string(path).expect("the data set").lines() {
                let json: serde_json::Value = serde_json::from_str(line).expect("a puzzle");
                let constraints: Constraints = serde_json::from_value(json["constraints"].clone()).expect("rules");
                let shape = Shape::default_for(json["size"].as_u64().unwrap_or(9) as usize);
                let variant = Variant::new(shape.expect("a size"), None, &constraints).expect("the rules fit");
                if !keep(&variant) {
                    continue;
                }
                let grid =
                    |member: &str| sized::Grid::parse(json[member].as_str().expect(member), shape).expect(member);
                puzzles.push((json["id"].to_string(), variant, grid("board"), grid("solution")));
            }
        }
        puzzles
    }

    /// The engine over `variant`'s geometry on `puzzle`, as [`checked_path`], its steps held to
    /// the grid-size engine's (brute force included) up to the first technique that one lacks:
    /// the techniques used and how many steps were compared.
    pub(crate) fn on_variant<C: CellSet>(
        variant: &Variant,
        puzzle: &sized::Grid,
        solution: &sized::Grid,
        id: &str,
    ) -> (Vec<Technique>, usize) {
        let geometry = Geometry::<C>::of_variant(variant).expect("the variant fits its cell sets");
        let (_, ours) = checked_path(&geometry, puzzle.cells(), solution.cells());
        let (theirs, _, _) = explain_in(Book::Variant(variant), puzzle, None, solution, &mut Never).unwrap();
        let compared = agreeing(&ours, &theirs, |technique| TECHNIQUES.contains(&technique), id);
        (ours.iter().map(|step| step.technique).collect(), compared)
    }

    const ALS: [Technique; 4] =
        [Technique::WxyzWing, Technique::VwxyzWing, Technique::UvwxyzWing, Technique::TuvwxyzWing];

    #[test]
    fn on_variants_every_step_keeps_the_solution_and_the_hard_techniques_fire() {
        for (puzzle, solution, json) in VARIANTS {
            let (geometry, _) = of_variant(json);
            let (puzzle, solution): (Board, Board) = (puzzle.parse().unwrap(), solution.parse().unwrap());
            let (path, steps) = checked_path(&geometry, puzzle.cells(), solution.cells());
            assert!(path.rating.solved_by_logic, "{json}");
            let used: Vec<Technique> = steps.iter().map(|step| step.technique).collect();
            assert!(used.contains(&Technique::TurbotFish), "{used:?}");
            assert!(used.iter().any(|technique| ALS.contains(technique)), "{used:?}");
            assert!(used.contains(&Technique::ForcingChain), "{used:?}");
            let own = geometry.name(geometry.house_count() - 1);
            let own = own.trim_end_matches(char::is_numeric);
            assert!(steps.iter().any(|step| step.explanation.contains(own)), "{own}: {steps:?}");
        }
    }

    #[test]
    fn on_variants_the_steps_are_the_grid_size_engines_up_to_a_technique_it_lacks() {
        let mut compared = 0;
        for (puzzle, solution, json) in VARIANTS {
            let (geometry, variant) = of_variant(json);
            let (puzzle, solution): (Board, Board) = (puzzle.parse().unwrap(), solution.parse().unwrap());
            let (_, ours) = checked_path(&geometry, puzzle.cells(), solution.cells());
            let (puzzle, solution) = (sized::Grid::from(&puzzle), sized::Grid::from(&solution));
            let (theirs, _, _) = explain_in(Book::Variant(&variant), &puzzle, None, &solution, &mut Never).unwrap();
            compared += agreeing(&ours, &theirs, |technique| TECHNIQUES.contains(&technique), json);
        }
        assert!(compared > 40, "{compared} steps compared");
    }

    #[test]
    fn a_variants_peers_and_candidates_are_its_rules_and_its_other_rules_are_kept_beyond_houses() {
        let mut beyond = 0;
        for (id, variant, puzzle, _) in variant_puzzles(|variant| variant.shape().size() == 9) {
            let geometry = Geometry::<Cells>::of_variant(&variant).expect("9x9 fits");
            let grid = Grid::of_values(&geometry, puzzle.cells());
            let marks = crate::logic::sized::basic_marks(Book::Variant(&variant), &puzzle);
            for cell in 0..81 {
                let peers = variant.peers(cell).iter().fold(0, |acc: Cells, &peer| acc | 1 << peer);
                assert_eq!(geometry.peers(cell), peers, "{id} {cell}");
                assert_eq!(grid.candidates(cell), marks.set(cell), "{id} {cell}");
            }
            let c = variant.constraints();
            let houses_only = c.cages.is_empty()
                && !(c.anti_knight || c.anti_king || c.non_consecutive || c.anti_taxicab)
                && c.thermometers.is_empty()
                && c.kropki == Default::default()
                && c.xv == Default::default()
                && c.whispers.is_empty()
                && c.palindromes.is_empty()
                && c.renbans.is_empty()
                && c.arrows.is_empty()
                && c.little_killers.is_empty()
                && c.between_lines.is_empty()
                && c.lockout_lines.is_empty()
                && c.quadruples.is_empty()
                && c.modular_lines.is_empty()
                && c.entropic_lines.is_empty()
                && !(c.global_entropy || c.global_mod)
                && c.sandwiches.is_empty()
                && c.x_sums.is_empty()
                && c.even.is_empty()
                && c.odd.is_empty();
            assert_eq!(geometry.rules().is_none(), houses_only, "{id}");
            beyond += usize::from(!houses_only);
        }
        assert!(beyond >= 15, "{beyond}");
    }

    #[test]
    fn on_variants_of_peers_parity_and_regions_every_step_keeps_the_solution_and_is_the_grid_size_engines() {
        let mut compared = 0;
        let mut families = 0;
        let puzzles = variant_puzzles(|variant| variant.cages.is_empty() && variant.pairs.is_empty());
        for (id, variant, puzzle, solution) in &puzzles {
            let (used, agreed) = on_variant::<Cells>(variant, puzzle, solution, id);
            assert!(used.contains(&Technique::NakedSingle) || used.contains(&Technique::HiddenSingleBox), "{id}");
            compared += agreed;
            families += 1;
        }
        assert!(families >= 14 && compared > 500, "{families} puzzles, {compared} steps compared");
    }

    #[test]
    fn a_rectangle_whose_swap_breaks_a_diagonal_or_a_thermometer_is_no_deadly_pattern() {
        // r1c1, r1c4, r2c1 and r2c4 hold 1 and 2 (r2c4 also 3): on a classic grid r2c4 loses 1
        // and 2; on an X grid the diagonal through r1c1 alone would repeat a digit after the
        // swap, so the rectangle proves nothing; nor on a grid with a thermometer from r1c1 to
        // r2c1, which the swap would run downhill.
        let corners: [(usize, &[u8]); 4] = [(0, &[1, 2]), (3, &[1, 2]), (9, &[1, 2]), (12, &[1, 2, 3])];
        let constraints = serde_json::from_str(r#"{"thermometers":[[[0,0],[1,0]]]}"#).unwrap();
        let thermometer = Variant::new(Shape::CLASSIC, None, &constraints).unwrap();
        let thermometer = Geometry::of_variant(&thermometer).unwrap();
        let geometries = [(Geometry::classic(), true), (&of_variant(r#"{"diagonals":"both"}"#).0, false)];
        for (geometry, fires) in geometries.into_iter().chain([(&thermometer, false)]) {
            let mut grid = Grid::over(geometry, &Board::EMPTY);
            for cell in 0..81 {
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

    /// Every shape's geometry in the cell sets of its size has the model's peers and houses.
    fn has_the_layouts_peers<C: CellSet>(shape: Shape) {
        let geometry = Geometry::<C>::of_shape(shape).expect("the shape fits its cell sets");
        let layout = sudokud_model::layout::Layout::of(shape);
        assert_eq!(geometry.house_count(), 3 * shape.size());
        for cell in 0..shape.size() * shape.size() {
            let peers = layout.peers(cell).iter().fold(C::EMPTY, |acc, &peer| acc | C::cell(usize::from(peer)));
            assert_eq!(geometry.peers(cell), peers, "{shape:?} {cell}");
            assert_eq!(geometry.house_set(cell), layout.houses_of(cell));
        }
        for (house, cells) in layout.houses().enumerate() {
            assert_eq!(geometry.members(house), cells);
            assert_eq!(
                geometry.name(house),
                format!("{} {}", ["row", "column", "box"][house / shape.size()], house % shape.size() + 1)
            );
        }
    }

    #[test]
    fn every_size_has_the_models_houses_and_peers() {
        for shape in Shape::all() {
            match shape.size() {
                9 => has_the_layouts_peers::<u128>(shape),
                0..=10 => has_the_layouts_peers::<Wide<2>>(shape),
                11..=16 => has_the_layouts_peers::<Wide<4>>(shape),
                _ => has_the_layouts_peers::<Wide<10>>(shape),
            }
        }
    }

    /// The engine on the first `count` generated puzzles of `size` (`tests/data/sizes`, whose
    /// solutions the solver finds), as [`checked_path`], its steps held to the grid-size
    /// engine's up to the first technique that one lacks, or brute force (reached here only
    /// past the forcing chains that one lacks). X- and XY-chains are shared: the steps carry no rating, where the two differ (this engine
    /// rates a chain by its length, the grid-size engine at its base, so where both kinds are
    /// found this one takes the shorter, that one the X-chain). On these puzzles a turbot fish,
    /// an ALS wing or brute force comes before any chain; `sized/chains.rs` holds the chains
    /// to each other on random 16x16 and 25x25 grids. Past them the 16x16 paths take forcing
    /// chains of every kind, each step checked against the solution. Returns the techniques
    /// used and how many steps were compared.
    fn on_other_sizes<C: CellSet>(size: usize, count: usize) -> (Vec<Technique>, usize) {
        let path = format!("{}/../../tests/data/sizes/generated_{size}x{size}.txt", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("the data set");
        let (mut used, mut compared) = (Vec::new(), 0);
        let lacking = [Technique::BruteForce];
        for line in text.lines().take(count) {
            let puzzle = sized::Grid::parse(line, Shape::default_for(size)).expect("the puzzle parses");
            let solution = crate::search::count_grid(&puzzle, 2, &mut Never).unwrap().first.expect("one solution");
            let geometry = Geometry::<C>::of_shape(puzzle.shape()).expect("the shape fits");
            let (_, ours) = checked_path(&geometry, puzzle.cells(), solution.cells());
            used.extend(ours.iter().map(|step| step.technique));
            let (theirs, _, _) = crate::logic::sized::explain(&puzzle, &solution, &mut Never).unwrap();
            let shared = |technique| TECHNIQUES.contains(&technique) && !lacking.contains(&technique);
            compared += agreeing(&ours, &theirs, shared, line);
        }
        eprintln!("DIAG {size} {used:?}");
        (used, compared)
    }

    #[test]
    fn on_16x16_every_step_keeps_the_solution_and_the_shared_steps_are_the_grid_size_engines() {
        let (used, compared) = on_other_sizes::<Wide<4>>(16, 3);
        assert!(compared > 100, "{compared} steps compared");
        assert!(used.iter().any(|technique| ALS.contains(technique)), "{used:?}");
        assert!(used.contains(&Technique::TurbotFish), "{used:?}");
        for chains in [Technique::ForcingChain, Technique::MultipleForcingChains, Technique::DynamicForcingChains] {
            assert!(used.contains(&chains), "{used:?}");
        }
    }

    #[test]
    fn on_25x25_every_step_keeps_the_solution_and_the_shared_steps_are_the_grid_size_engines() {
        let (_, compared) = on_other_sizes::<Wide<10>>(25, 1);
        assert!(compared > 100, "{compared} steps compared");
    }

    #[test]
    fn the_classic_geometry_is_the_typed_positions() {
        let geometry = Geometry::classic();
        assert!(geometry.classic_boxes());
        for house in House::all() {
            let h = house.index();
            assert_eq!(geometry.name(h), house.to_string());
            assert_eq!(geometry.kind(h), house.kind());
            assert!(house.cells().map(|cell| cell.index() as u16).eq(geometry.members(h).iter().copied()));
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

//! A variant checked against its grid's shape and turned into what the solver and the rules
//! read: houses, peers, pair relations and cages, each built once per puzzle by the constraint
//! families ([`crate::family`]).

use crate::constraints::{Constraints, Diagonals, Preset};
use crate::family::{self, Builder};
use crate::grid::Grid;
use crate::shape::Shape;
use crate::unit::{Conflict, Unit, Units};

use crate::family::cages::sum_groups::{sum_differences, sum_groups};

pub use crate::family::arrows::ArrowRule;
pub use crate::family::cages::sum_groups::{SumDifference, SumGroup};
pub use crate::family::cages::{CageRule, MAX_CAGES};
pub use crate::family::classes::{ClassWindow, Classes, WindowKind};
pub use crate::family::diagonals::windows;
pub use crate::family::lines::{Ends, LineKind, LineRule};
pub use crate::family::little_killers::LittleKillerRule;
pub use crate::family::outside::{OutsideClue, OutsideKind};
pub use crate::family::quadruples::QuadrupleRule;
pub use crate::family::{Pair, Relation};

/// Most houses a variant may have: 3 x 25 rows, columns and regions, two diagonals and the extra
/// regions. The solver keeps one bit per house.
pub const MAX_HOUSES: usize = 256;

/// Most related pairs of cells (thermometer steps, dots, neighbours): each is known by a `u16`.
pub(crate) const MAX_PAIRS: usize = 1 << 16;

/// A constraint that does not fit the grid, with the member it is in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{member}`: {message}")]
pub struct ConstraintError {
    /// Where: `constraints.cages[2]`, `variant`.
    pub member: String,
    /// What is wrong, naming the cell when one is at fault.
    pub message: String,
}

impl ConstraintError {
    pub(crate) fn new(member: impl Into<String>, message: impl Into<String>) -> ConstraintError {
        ConstraintError { member: member.into(), message: message.into() }
    }
}

/// The constraints of one puzzle, checked against its shape: every house in which no digit may
/// repeat, every cell's peers, the pairs of cells whose digits relate, the cages and the digits
/// each cell may hold at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    shape: Shape,
    /// The constraints as given, with the preset's folded in.
    constraints: Constraints,
    /// Houses of N cells each, in order: rows, columns, boxes or regions, disjoint groups,
    /// diagonals, extras.
    pub houses: Vec<u16>,
    /// The rule each house stands for, one per house.
    pub house_units: Vec<Unit>,
    /// For each cell, its houses.
    cell_houses: PerCell,
    /// For each cell, every cell its digit may not repeat in: house mates, cage mates, a knight's
    /// or a king's move away as the rules say.
    peers: PerCell,
    /// The same peers as bit sets of cells, [`Variant::set_words`] words per cell.
    peer_sets: Vec<u64>,
    /// Every pair of cells whose digits relate: thermometers, dots, non-consecutive neighbours.
    pub pairs: Vec<Pair>,
    /// The relations the pairs keep, each listed once.
    relations: Vec<Relation>,
    /// For each cell, the pairs it is in.
    cell_pairs: PerCell,
    /// The cages, checked.
    pub cages: Vec<CageRule>,
    /// For each cell, the cages it is in.
    cell_cages: PerCell,
    /// The innies and outies the cages make.
    pub sum_groups: Vec<SumGroup>,
    /// For each cell, the sum groups it is in.
    cell_sum_groups: PerCell,
    /// The innies less the outies of areas whose cages stick out both ways: the search narrows
    /// by them, the logic does not (yet) explain them.
    pub sum_differences: Vec<SumDifference>,
    /// For each cell, the sum differences it is in.
    cell_sum_differences: PerCell,
    /// The innies of a single house, whose digits differ: cages no clue draws, which the search
    /// narrows as it narrows the cages.
    pub hidden_cages: Vec<CageRule>,
    /// For each cell, the hidden cages it is in.
    cell_hidden_cages: PerCell,
    /// The renban lines' cells, in order: their digits are consecutive, in any order.
    pub renbans: Vec<Vec<u16>>,
    /// For each cell, the renban lines it is on.
    cell_renbans: PerCell,
    /// The arrows: each bulb's number is its shaft's sum.
    pub arrows: Vec<ArrowRule>,
    /// For each cell, the arrows it is on (bulb or shaft).
    cell_arrows: PerCell,
    /// The little killers: the digits along each diagonal add up to its sum, repeats allowed.
    pub little_killers: Vec<LittleKillerRule>,
    /// For each cell, the little killers' diagonals it is on.
    cell_little_killers: PerCell,
    /// The lines whose rule reads the whole line: between lines.
    pub lines: Vec<LineRule>,
    /// For each cell, the lines it is on.
    cell_lines: PerCell,
    /// The quadruples: each written digit appears among the four cells around its corner.
    pub quadruples: Vec<QuadrupleRule>,
    /// For each cell, the quadruples around it.
    cell_quadruples: PerCell,
    /// The windows of cells that hold a digit of each class: modular and entropic lines.
    pub windows: Vec<ClassWindow>,
    /// For each cell, the windows it is in.
    cell_windows: PerCell,
    /// The clues beside rows and columns (sandwiches): what each says of its line's digits.
    pub outside_clues: Vec<OutsideClue>,
    /// For each cell, the clues whose lines pass it.
    cell_outside_clues: PerCell,
    /// The digits each cell may hold at all (even and odd cells).
    pub allowed: Vec<u32>,
}

impl Variant {
    /// Checks `constraints` (and `preset`'s) against a grid of `shape`: every cell inside the
    /// grid, houses and regions of N cells, cages with sums their digits can make, dots and
    /// thermometer steps between neighbours. The error names the member and the cell.
    pub fn new(shape: Shape, preset: Option<Preset>, constraints: &Constraints) -> Result<Variant, ConstraintError> {
        let constraints = with_preset(shape, preset, constraints)?;
        let mut rules = Builder::new(shape);
        family::build(&constraints, &mut rules)?;
        let Builder {
            houses,
            house_units,
            cages,
            pairs,
            relations,
            renbans,
            arrows,
            little_killers,
            lines,
            quadruples,
            windows,
            outside_clues,
            allowed,
            moves,
            ..
        } = rules;
        if pairs.len() > MAX_PAIRS {
            let message = format!(
                "{} related pairs of cells from thermometers and dots; at most {MAX_PAIRS} are taken",
                pairs.len()
            );
            return Err(ConstraintError::new("constraints", message));
        }
        let size = shape.size();
        let cells = shape.cells();
        let mut mates: Vec<Vec<u16>> = vec![Vec::new(); cells];
        for house in houses.chunks_exact(size) {
            for &cell in house {
                mates[usize::from(cell)].extend(house.iter().filter(|&&other| other != cell));
            }
        }
        // A cage's and a renban line's digits differ.
        for group in cages.iter().map(|cage| &cage.cells).chain(&renbans) {
            for &cell in group {
                mates[usize::from(cell)].extend(group.iter().filter(|&&other| other != cell));
            }
        }
        for (cell, cell_mates) in mates.iter_mut().enumerate() {
            let (row, col) = ((cell / size) as isize, (cell % size) as isize);
            for &(down, right) in &moves {
                let (other_row, other_col) = (row + down, col + right);
                if (0..size as isize).contains(&other_row) && (0..size as isize).contains(&other_col) {
                    cell_mates.push((other_row as usize * size + other_col as usize) as u16);
                }
            }
            cell_mates.sort_unstable();
            cell_mates.dedup();
        }
        let words = cells.div_ceil(64);
        let mut peer_sets = vec![0u64; cells * words];
        for (cell, cell_mates) in mates.iter().enumerate() {
            for &mate in cell_mates {
                peer_sets[cell * words + usize::from(mate) / 64] |= 1 << (mate % 64);
            }
        }
        let cell_houses = PerCell::index(cells, houses.chunks_exact(size).map(<[u16]>::to_vec));
        let cell_pairs = PerCell::index(cells, pairs.iter().map(|pair| vec![pair.first, pair.second]));
        let cell_cages = PerCell::index(cells, cages.iter().map(|cage| cage.cells.clone()));
        let cell_renbans = PerCell::index(cells, renbans.iter().cloned());
        let cell_arrows = PerCell::index(cells, arrows.iter().map(|arrow| arrow.terms().map(|term| term.0).collect()));
        let cell_little_killers = PerCell::index(cells, little_killers.iter().map(|rule| rule.cells.clone()));
        let cell_lines = PerCell::index(cells, lines.iter().map(|line| line.cells.clone()));
        let cell_quadruples = PerCell::index(cells, quadruples.iter().map(|rule| rule.cells.to_vec()));
        let cell_windows = PerCell::index(cells, windows.iter().map(|window| window.cells.clone()));
        let cell_outside_clues = PerCell::index(cells, outside_clues.iter().map(|rule| rule.cells.clone()));
        let sum_groups = sum_groups(size, &houses, &house_units, &cages);
        let cell_sum_groups = PerCell::index(cells, sum_groups.iter().map(|group| group.cells.clone()));
        // A house's innies hold different digits: a cage the search narrows as the drawn ones.
        let hidden = sum_groups.iter().filter(|group| group.houses.len() == 1 && !group.outies);
        let hidden_cages: Vec<CageRule> =
            hidden.map(|group| CageRule::hidden(size, group.cells.clone(), group.sum)).collect();
        let cell_hidden_cages = PerCell::index(cells, hidden_cages.iter().map(|cage| cage.cells.clone()));
        let sum_differences = sum_differences(size, &houses, &house_units, &cages);
        let cell_sum_differences =
            PerCell::index(cells, sum_differences.iter().map(|difference| difference.cells.clone()));
        Ok(Variant {
            shape,
            constraints,
            houses,
            house_units,
            cell_houses,
            peers: PerCell::new(mates),
            peer_sets,
            pairs,
            relations,
            cell_pairs,
            cages,
            cell_cages,
            sum_groups,
            cell_sum_groups,
            sum_differences,
            cell_sum_differences,
            hidden_cages,
            cell_hidden_cages,
            renbans,
            cell_renbans,
            arrows,
            cell_arrows,
            little_killers,
            cell_little_killers,
            lines,
            cell_lines,
            quadruples,
            cell_quadruples,
            windows,
            cell_windows,
            outside_clues,
            cell_outside_clues,
            allowed,
        })
    }

    /// The rules each filled cell of `cells` (row-major, 0 for blank) breaks, per cell: a digit
    /// repeated in a house, a pair that breaks its relation, and what each family sees besides
    /// (a thermometer too tight for its steps, a cage's sum, a chess move, parity). Every set is empty exactly when no filled cell breaks a
    /// rule.
    pub fn broken(&self, cells: &[u8]) -> Vec<Units> {
        let mut broken = vec![Units::default(); cells.len()];
        for (house, &unit) in self.houses().zip(&self.house_units) {
            family::mark_repeats(cells, house, unit, &mut broken);
        }
        for pair in &self.pairs {
            let (first, second) = (usize::from(pair.first), usize::from(pair.second));
            let (a, b) = (cells[first], cells[second]);
            let relation = self.relation(pair);
            if a != 0 && b != 0 && !relation.holds(a, b) {
                broken[first].insert(relation.unit().into());
                broken[second].insert(relation.unit().into());
            }
        }
        family::conflicts(self, cells, &mut broken);
        broken
    }

    /// Every filled cell of `grid` (of the variant's shape) that breaks a rule, in row-major
    /// order, each with the rules it breaks (see [`Variant::broken`]). Empty exactly when no
    /// filled cell breaks a rule.
    pub fn conflicts(&self, grid: &Grid) -> Vec<Conflict> {
        let (cells, size) = (grid.cells(), grid.size());
        let broken = self.broken(cells);
        let conflicts = broken.iter().enumerate().filter(|&(cell, units)| cells[cell] != 0 && !units.is_empty());
        conflicts
            .map(|(cell, &units)| Conflict { row: cell / size, col: cell % size, value: cells[cell], units })
            .collect()
    }

    /// The relation `pair` keeps.
    #[inline]
    pub fn relation(&self, pair: &Pair) -> &Relation {
        &self.relations[usize::from(pair.relation)]
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The constraints, with the preset's folded in.
    pub fn constraints(&self) -> &Constraints {
        &self.constraints
    }

    /// The houses, N cells each.
    pub fn houses(&self) -> std::slice::ChunksExact<'_, u16> {
        self.houses.chunks_exact(self.shape.size())
    }

    /// The house `number`.
    pub fn house(&self, number: usize) -> &[u16] {
        let size = self.shape.size();
        &self.houses[number * size..(number + 1) * size]
    }

    /// The houses `cell` is in.
    pub fn houses_of(&self, cell: usize) -> &[u16] {
        self.cell_houses.of(cell)
    }

    /// The cells whose digit must differ from `cell`'s.
    pub fn peers(&self, cell: usize) -> &[u16] {
        self.peers.of(cell)
    }

    /// Words per bit set of cells.
    pub fn set_words(&self) -> usize {
        self.shape.cells().div_ceil(64)
    }

    /// The peers of `cell` as a bit set of cells.
    pub fn peer_set(&self, cell: usize) -> &[u64] {
        let words = self.set_words();
        &self.peer_sets[cell * words..(cell + 1) * words]
    }

    /// The pairs (indices into `pairs`) `cell` is in.
    pub fn pairs_of(&self, cell: usize) -> &[u16] {
        self.cell_pairs.of(cell)
    }

    /// The cages (indices into `cages`) `cell` is in.
    pub fn cages_of(&self, cell: usize) -> &[u16] {
        self.cell_cages.of(cell)
    }

    /// The sum groups (indices into `sum_groups`) `cell` is in.
    pub fn sum_groups_of(&self, cell: usize) -> &[u16] {
        self.cell_sum_groups.of(cell)
    }

    /// The hidden cages (indices into `hidden_cages`) `cell` is in.
    pub fn hidden_cages_of(&self, cell: usize) -> &[u16] {
        self.cell_hidden_cages.of(cell)
    }

    /// The renban lines (indices into `renbans`) `cell` is on.
    pub fn renbans_of(&self, cell: usize) -> &[u16] {
        self.cell_renbans.of(cell)
    }

    /// The arrows (indices into `arrows`) `cell` is on, in its bulb or on its shaft.
    pub fn arrows_of(&self, cell: usize) -> &[u16] {
        self.cell_arrows.of(cell)
    }

    /// The little killers (indices into `little_killers`) whose diagonals pass `cell`.
    pub fn little_killers_of(&self, cell: usize) -> &[u16] {
        self.cell_little_killers.of(cell)
    }

    /// The lines (indices into `lines`) `cell` is on.
    pub fn lines_of(&self, cell: usize) -> &[u16] {
        self.cell_lines.of(cell)
    }

    /// The quadruples (indices into `quadruples`) around `cell`.
    pub fn quadruples_of(&self, cell: usize) -> &[u16] {
        self.cell_quadruples.of(cell)
    }

    /// The windows of digit classes (indices into `windows`) `cell` is in.
    pub fn windows_of(&self, cell: usize) -> &[u16] {
        self.cell_windows.of(cell)
    }

    /// The clues beside rows and columns (indices into `outside_clues`) whose lines pass `cell`.
    pub fn outside_clues_of(&self, cell: usize) -> &[u16] {
        self.cell_outside_clues.of(cell)
    }

    /// The sum differences (indices into `sum_differences`) `cell` is in.
    pub fn sum_differences_of(&self, cell: usize) -> &[u16] {
        self.cell_sum_differences.of(cell)
    }
}

/// A list of numbers per cell, laid out end to end: the search reads them without a pointer
/// per cell.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PerCell {
    items: Vec<u16>,
    /// Where each cell's list starts; one more entry than cells.
    at: Vec<u32>,
}

impl PerCell {
    fn new(lists: Vec<Vec<u16>>) -> PerCell {
        let mut at = Vec::with_capacity(lists.len() + 1);
        at.push(0);
        let mut items = Vec::new();
        for list in lists {
            items.extend(list);
            at.push(items.len() as u32);
        }
        PerCell { items, at }
    }

    /// For each of `cells` cells, the numbers of the groups (in `groups` order) it is in.
    fn index(cells: usize, groups: impl Iterator<Item = Vec<u16>>) -> PerCell {
        let mut lists = vec![Vec::new(); cells];
        for (number, group) in groups.enumerate() {
            group.into_iter().for_each(|cell| lists[usize::from(cell)].push(number as u16));
        }
        PerCell::new(lists)
    }

    fn of(&self, cell: usize) -> &[u16] {
        &self.items[self.at[cell] as usize..self.at[cell + 1] as usize]
    }
}

/// `constraints` with `preset`'s constraints added, checked for what the preset needs.
fn with_preset(
    shape: Shape,
    preset: Option<Preset>,
    constraints: &Constraints,
) -> Result<Constraints, ConstraintError> {
    let mut constraints = constraints.clone();
    match preset {
        None => {}
        Some(Preset::X) => constraints.diagonals = Some(Diagonals::Both),
        // Every shape has room for at least one window: a box is smaller than the grid.
        Some(Preset::Windoku) => constraints.extra_regions.extend(windows(shape)),
        Some(Preset::Jigsaw) if constraints.regions.is_none() => {
            return Err(ConstraintError::new("variant", "jigsaw needs its regions in `constraints.regions`"));
        }
        Some(Preset::Killer) if constraints.cages.is_empty() => {
            return Err(ConstraintError::new("variant", "killer needs its cages in `constraints.cages`"));
        }
        Some(Preset::Jigsaw | Preset::Killer) => {}
        Some(Preset::AntiKnight) => constraints.anti_knight = true,
        Some(Preset::AntiKing) => constraints.anti_king = true,
        Some(Preset::NonConsecutive) => constraints.non_consecutive = true,
        Some(Preset::Xv) => constraints.xv.all_given = true,
    }
    Ok(constraints)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nine() -> Shape {
        Shape::CLASSIC
    }

    fn error(preset: Option<Preset>, json: &str) -> String {
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        Variant::new(nine(), preset, &constraints).unwrap_err().to_string()
    }

    #[test]
    fn each_misfit_names_its_member_and_cell() {
        for (preset, json, expected) in [
            (
                None,
                r#"{"cages":[{"cells":[[0,0],[9,1]],"sum":3}]}"#,
                "`constraints.cages[0].cells`: cell [9, 1] is outside the 9x9 grid (rows and columns 0 to 8)",
            ),
            (
                None,
                r#"{"cages":[{"cells":[[0,0],[0,1]],"sum":18}]}"#,
                "`constraints.cages[0].sum`: no 2 different digits from 1 to 9 add up to 18 (their sums run from 3 to 17)",
            ),
            (None, r#"{"cages":[{"cells":[[0,0],[0,0]]}]}"#, "`constraints.cages[0].cells`: r1c1 is listed twice"),
            (None, r#"{"cages":[{"cells":[]}]}"#, "`constraints.cages[0].cells`: has no cells"),
            (
                None,
                r#"{"extra_regions":[[[0,0],[0,1]]]}"#,
                "`constraints.extra_regions[0]`: has 2 cells; an extra region has 9",
            ),
            (None, r#"{"thermometers":[[[0,0],[0,2]]]}"#, "`constraints.thermometers[0]`: r1c1 and r1c3 do not touch"),
            (
                None,
                r#"{"kropki":{"black":[[[0,0],[1,1]]]}}"#,
                "`constraints.kropki.black[0]`: r1c1 and r2c2 are not side by side",
            ),
            (None, r#"{"even":[[4,4]],"odd":[[4,4]]}"#, "`constraints.even`: r5c5 is marked both even and odd"),
            (None, r#"{"regions":"111"}"#, "`constraints.regions`: has 3 cells; the 9x9 grid has 81"),
            (None, r#"{"regions":[[1]]}"#, "`constraints.regions`: expected 9 rows of 9 region ids, one per cell"),
            (Some(Preset::Jigsaw), "{}", "`variant`: jigsaw needs its regions in `constraints.regions`"),
            (Some(Preset::Killer), "{}", "`variant`: killer needs its cages in `constraints.cages`"),
        ] {
            assert_eq!(error(preset, json), expected, "{json}");
        }
        let mut ids = "000000000".repeat(9).into_bytes();
        ids[80] = b'1';
        let json = format!(r#"{{"regions":"{}"}}"#, String::from_utf8(ids).unwrap());
        assert_eq!(error(None, &json), "`constraints.regions`: has 2 regions; a 9x9 grid has 9 of 9 cells each");
        let uneven: String =
            (0..81).map(|cell| if cell < 10 { '0' } else { char::from(b'0' + (cell - 1) as u8 / 9) }).collect();
        assert_eq!(
            error(None, &format!(r#"{{"regions":"{uneven}"}}"#)),
            "`constraints.regions`: the region of r1c1 has 10 cells; every region has 9"
        );
    }

    #[test]
    fn the_preset_adds_its_constraints_and_the_peers_follow() {
        let x = Variant::new(nine(), Some(Preset::X), &Constraints::default()).unwrap();
        assert_eq!(x.constraints().diagonals, Some(Diagonals::Both));
        assert_eq!(x.house_units.len(), 29);
        // r1c1 sees its row, column, box and main diagonal: 20 + 6 more on the diagonal.
        assert_eq!(x.peers(0).len(), 26);
        let knight = Variant::new(nine(), Some(Preset::AntiKnight), &Constraints::default()).unwrap();
        // r5c5: 20 peers and 8 knight's moves, all out of its box; r1c1: 2 moves, both in its box.
        assert_eq!(knight.peers(40).len(), 28);
        assert_eq!(knight.peers(0).len(), 20);
    }

    /// The conflicts of a 4x4 `grid` under `constraints`, as JSON.
    fn found(grid: &str, constraints: &str) -> String {
        let grid = Grid::parse(grid, None).unwrap();
        let constraints: Constraints = serde_json::from_str(constraints).unwrap();
        let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
        serde_json::to_string(&variant.conflicts(&grid)).unwrap()
    }

    #[test]
    fn each_conflict_names_the_rules_it_breaks() {
        let cell = |row: usize, col: usize, digit: u8, units: &str| {
            format!(r#"{{"row":{row},"col":{col},"digit":{digit},"units":[{units}]}}"#)
        };
        for (grid, constraints, expected) in [
            (
                "1... .1.. .... ....",
                r#"{"diagonals":"main"}"#,
                vec![cell(0, 0, 1, r#""box","diagonal""#), cell(1, 1, 1, r#""box","diagonal""#)],
            ),
            (
                "...1 .... .... 1...",
                r#"{"diagonals":"anti"}"#,
                vec![cell(0, 3, 1, r#""anti_diagonal""#), cell(3, 0, 1, r#""anti_diagonal""#)],
            ),
            (
                "1... .... .1.. ....",
                r#"{"anti_knight":true}"#,
                vec![cell(0, 0, 1, r#""anti_knight""#), cell(2, 1, 1, r#""anti_knight""#)],
            ),
            (
                ".... .2.. ..2. ....",
                r#"{"anti_king":true}"#,
                vec![cell(1, 1, 2, r#""anti_king""#), cell(2, 2, 2, r#""anti_king""#)],
            ),
            (
                "12.. .... .... ....",
                r#"{"non_consecutive":true}"#,
                vec![cell(0, 0, 1, r#""non_consecutive""#), cell(0, 1, 2, r#""non_consecutive""#)],
            ),
            (
                "3.2. .... .... ....",
                r#"{"thermometers":[[[0,0],[0,1],[0,2]]]}"#,
                vec![cell(0, 0, 3, r#""thermometer""#), cell(0, 2, 2, r#""thermometer""#)],
            ),
            (
                "13.. .... .... ....",
                r#"{"kropki":{"white":[[[0,0],[0,1]]]}}"#,
                vec![cell(0, 0, 1, r#""kropki""#), cell(0, 1, 3, r#""kropki""#)],
            ),
            ("13.. .... .... ....", r#"{"kropki":{"all_given":true}}"#, vec![]),
            (
                "12.. .... .... ....",
                r#"{"kropki":{"all_given":true}}"#,
                vec![cell(0, 0, 1, r#""kropki""#), cell(0, 1, 2, r#""kropki""#)],
            ),
            (
                "13.. .... .... ....",
                r#"{"xv":{"v":[[[0,0],[0,1]]]}}"#,
                vec![cell(0, 0, 1, r#""xv""#), cell(0, 1, 3, r#""xv""#)],
            ),
            ("14.. .... .... ....", r#"{"xv":{"v":[[[0,0],[0,1]]],"all_given":true}}"#, vec![]),
            ("31.. .... .... ....", r#"{"greater_than":[{"greater":[0,0],"less":[0,1]}]}"#, vec![]),
            (
                "2... 3... .... ....",
                r#"{"greater_than":[{"greater":[0,0],"less":[1,0]}]}"#,
                vec![cell(0, 0, 2, r#""greater_than""#), cell(1, 0, 3, r#""greater_than""#)],
            ),
            (
                "1... 4... .... ....",
                r#"{"xv":{"v":[[[0,0],[0,1]]],"all_given":true}}"#,
                vec![cell(0, 0, 1, r#""xv""#), cell(1, 0, 4, r#""xv""#)],
            ),
            (
                "1... 1... .... ....",
                r#"{"cages":[{"cells":[[0,0],[1,0]]}]}"#,
                vec![cell(0, 0, 1, r#""column","box","cage""#), cell(1, 0, 1, r#""column","box","cage""#)],
            ),
            (
                "34.. .... .... ....",
                r#"{"cages":[{"cells":[[0,0],[0,1],[0,2]],"sum":7}]}"#,
                vec![cell(0, 0, 3, r#""cage_sum""#), cell(0, 1, 4, r#""cage_sum""#)],
            ),
            (
                "12.. .... .... ....",
                r#"{"cages":[{"cells":[[0,0],[0,1]],"sum":4}]}"#,
                vec![cell(0, 0, 1, r#""cage_sum""#), cell(0, 1, 2, r#""cage_sum""#)],
            ),
            (
                "1.2. .... .... ....",
                r#"{"even":[[0,0]],"odd":[[0,2]]}"#,
                vec![cell(0, 0, 1, r#""even""#), cell(0, 2, 2, r#""odd""#)],
            ),
            (
                "1..1 .... .... ....",
                r#"{"regions":"0011001122332233"}"#,
                vec![cell(0, 0, 1, r#""row""#), cell(0, 3, 1, r#""row""#)],
            ),
            (
                ".... .1.. ..1. ....",
                r#"{"extra_regions":[[[1,1],[1,2],[2,1],[2,2]]]}"#,
                vec![cell(1, 1, 1, r#""extra_region""#), cell(2, 2, 1, r#""extra_region""#)],
            ),
            (
                ".... .12. .31. ....",
                r#"{"quadruples":[{"top_left":[1,1],"digits":[4]}]}"#,
                vec![
                    cell(1, 1, 1, r#""quadruple""#),
                    cell(1, 2, 2, r#""quadruple""#),
                    cell(2, 1, 3, r#""quadruple""#),
                    cell(2, 2, 1, r#""quadruple""#),
                ],
            ),
            ("12.. 3... .... ....", r#"{"quadruples":[{"top_left":[0,0],"digits":[1,4]}]}"#, vec![]),
            (
                "1... .... ..1. ....",
                r#"{"disjoint_groups":true}"#,
                vec![cell(0, 0, 1, r#""disjoint_group""#), cell(2, 2, 1, r#""disjoint_group""#)],
            ),
        ] {
            assert_eq!(found(grid, constraints), format!("[{}]", expected.join(",")), "{grid} {constraints}");
        }
    }
}

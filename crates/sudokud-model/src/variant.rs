//! A variant checked against its grid's shape and turned into what the solver and the rules
//! read: houses, peers, pair relations and cages, each built once per puzzle.

use crate::constraints::{Cage, Constraints, Diagonals, Place, Preset, Regions};
use crate::layout::Layout;
use crate::shape::Shape;
use crate::sum_groups::{SumGroup, sum_groups};
use crate::unit::Unit;

/// Most houses a variant may have: 3 x 25 rows, columns and regions, two diagonals and the extra
/// regions. The solver keeps one bit per house.
pub const MAX_HOUSES: usize = 256;

/// Most cages a variant may have: the solver keeps one bit per cage.
pub const MAX_CAGES: usize = 640;

/// Most related pairs of cells (thermometer steps, dots, neighbours): each is known by a `u16`.
const MAX_PAIRS: usize = 1 << 16;

/// Most cells a cage's sum is worked out for by listing its digit sets; beyond, a cage's sum
/// bounds its digits by the smallest and largest sums instead (see [`CageRule::combinations`]).
const MAX_COMBINATIONS: usize = 4096;

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
    fn new(member: impl Into<String>, message: impl Into<String>) -> ConstraintError {
        ConstraintError { member: member.into(), message: message.into() }
    }
}

/// How two cells' digits must relate (beyond differing, which peers say).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The first is smaller (a thermometer's step).
    Less,
    /// Consecutive (a white Kropki dot).
    Consecutive,
    /// One twice the other (a black Kropki dot).
    Double,
    /// Neither consecutive nor one twice the other (no dot, with every dot given).
    NoDot,
    /// Not consecutive (non-consecutive neighbours).
    NotConsecutive,
}

impl Relation {
    /// The digits the second cell may hold when the first holds a digit of `first` (bit `d - 1`
    /// for digit `d`), among `full`. Reversed, the first's digits given the second's.
    pub fn support(self, first: u32, full: u32, reversed: bool) -> u32 {
        if first == 0 {
            return 0;
        }
        match self {
            // Above the smallest, or below the largest when reversed.
            Relation::Less if reversed => (1u32 << (31 - first.leading_zeros())) - 1,
            Relation::Less => full & !((first & first.wrapping_neg()) * 2 - 1),
            Relation::Consecutive => (first << 1 | first >> 1) & full,
            // A digit is ruled out only when every digit of `first` rules it out: the
            // intersection of what they forbid, empty after two or three digits at most.
            Relation::NotConsecutive | Relation::NoDot => {
                let mut forbidden = full;
                let mut digits = first;
                while digits != 0 && forbidden != 0 {
                    let bit = digits & digits.wrapping_neg();
                    digits &= digits - 1;
                    forbidden &= !self.allowed(bit, full);
                }
                full & !forbidden
            }
            _ => {
                let mut support = 0;
                let mut digits = first;
                while digits != 0 {
                    let bit = digits & digits.wrapping_neg();
                    digits &= digits - 1;
                    support |= self.allowed(bit, full);
                }
                support
            }
        }
    }

    /// The digits allowed beside the one digit of `bit`.
    fn allowed(self, bit: u32, full: u32) -> u32 {
        let neighbours = bit << 1 | bit >> 1;
        // Digit d is bit d - 1, so twice d is bit 2d - 1 and half of an even d is bit d/2 - 1.
        let index = bit.trailing_zeros() + 1;
        let double = 1u32.checked_shl(2 * index - 1).unwrap_or(0);
        let half = if index.is_multiple_of(2) { 1u32 << (index / 2 - 1) } else { 0 };
        let allowed = match self {
            Relation::Less => !(bit * 2 - 1),
            Relation::Consecutive => neighbours,
            Relation::Double => double | half,
            Relation::NoDot => !(neighbours | double | half),
            Relation::NotConsecutive => !neighbours,
        };
        allowed & full
    }

    /// Whether `first` and `second`, both filled, keep the relation.
    pub fn holds(self, first: u8, second: u8) -> bool {
        let (a, b) = (u32::from(first), u32::from(second));
        let consecutive = a.abs_diff(b) == 1;
        let double = a == 2 * b || b == 2 * a;
        match self {
            Relation::Less => a < b,
            Relation::Consecutive => consecutive,
            Relation::Double => double,
            Relation::NoDot => !consecutive && !double,
            Relation::NotConsecutive => !consecutive,
        }
    }

    /// Why two related cells `first` and `second` (named) limit each other, for a sentence
    /// that goes on "so ... can't be ...".
    pub fn reason(self, first: &str, second: &str) -> String {
        match self {
            Relation::Less => format!(
                "{first} and {second} are steps of a thermometer, {first} nearer the bulb, so {first} is smaller"
            ),
            Relation::Consecutive => format!("{first} and {second} share a white dot, so they are consecutive"),
            Relation::Double => format!("{first} and {second} share a black dot, so one is twice the other"),
            Relation::NoDot => format!(
                "{first} and {second} have no dot between them and every dot is given, so they are neither consecutive nor one twice the other"
            ),
            Relation::NotConsecutive => format!("{first} and {second} are side by side, so they are not consecutive"),
        }
    }

    /// The rule it stands for, in conflicts.
    pub fn unit(self) -> Unit {
        match self {
            Relation::Less => Unit::Thermometer,
            Relation::Consecutive | Relation::Double | Relation::NoDot => Unit::Kropki,
            Relation::NotConsecutive => Unit::NonConsecutive,
        }
    }
}

/// Two cells whose digits keep a [`Relation`], first to second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The first cell, row-major.
    pub first: u16,
    /// The second cell, row-major.
    pub second: u16,
    /// What the first cell's digit is to the second's.
    pub relation: Relation,
}

/// A cage, checked: its cells and, for a sum, the digit sets that make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageRule {
    /// The cage's cells, row-major.
    pub cells: Vec<u16>,
    /// What its digits add up to, when the cage has a sum.
    pub sum: Option<u32>,
    /// Every set of distinct digits of the cage's size that adds up to its sum, as bit sets;
    /// empty for a cage without a sum, or with more sets than are worth listing.
    pub combinations: Vec<u32>,
}

impl CageRule {
    /// The digits the cage's open cells may still hold: those of the digit sets that make its
    /// sum, hold its `placed` digits (adding up to `placed_sum`) and fit the union of its
    /// `open_count` open cells' candidates, `open`; for a cage with too many sets to list, those
    /// the remaining sum allows. `None` when the sum can no longer be made; every digit for a
    /// cage without a sum.
    pub fn open_digits(&self, size: u32, placed: u32, placed_sum: u32, open: u32, open_count: u32) -> Option<u32> {
        let full = (1u32 << size) - 1;
        let Some(sum) = self.sum else { return Some(full & !placed) };
        if open_count == 0 {
            return (placed_sum == sum).then_some(0);
        }
        let allowed = if self.combinations.is_empty() {
            // Digits d that leave the other open cells a sum of different digits they can make.
            let rest = sum.checked_sub(placed_sum)?;
            let others = open_count - 1;
            let smallest = others * (others + 1) / 2;
            let largest = others * (2 * size + 1 - others) / 2;
            let low = rest.saturating_sub(largest).max(1);
            let high = rest.checked_sub(smallest)?.min(size);
            if low > high {
                return None;
            }
            ((1u32 << high) - 1) & !((1u32 << (low - 1)) - 1)
        } else {
            let sets = self.combinations.iter().filter(|&&set| set & placed == placed && set & !placed & !open == 0);
            sets.fold(0, |allowed, set| allowed | set)
        };
        let allowed = allowed & !placed;
        (allowed != 0).then_some(allowed)
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
    /// Houses of N cells each, in order: rows, columns, boxes or regions, diagonals, extras.
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
    /// The digits each cell may hold at all (even and odd cells).
    pub allowed: Vec<u32>,
}

impl Variant {
    /// Checks `constraints` (and `preset`'s) against a grid of `shape`: every cell inside the
    /// grid, houses and regions of N cells, cages with sums their digits can make, dots and
    /// thermometer steps between neighbours. The error names the member and the cell.
    pub fn new(shape: Shape, preset: Option<Preset>, constraints: &Constraints) -> Result<Variant, ConstraintError> {
        let constraints = with_preset(shape, preset, constraints)?;
        let size = shape.size();
        let cells = shape.cells();
        let index = |row: usize, col: usize| (row * size + col) as u16;
        // Rows, columns and boxes as the shape's layout lists them; regions replace the boxes.
        let layout = Layout::of(shape);
        let kept = if constraints.regions.is_some() { 2 * size } else { 3 * size };
        let mut houses: Vec<u16> = layout.houses().take(kept).flatten().copied().collect();
        let mut house_units: Vec<Unit> = [Unit::Row, Unit::Column, Unit::Box]
            .into_iter()
            .flat_map(|unit| std::iter::repeat_n(unit, size))
            .take(kept)
            .collect();
        if let Some(regions) = &constraints.regions {
            for region in read_regions(shape, regions)? {
                houses.extend(region);
                house_units.push(Unit::Region);
            }
        }
        if matches!(constraints.diagonals, Some(Diagonals::Main | Diagonals::Both)) {
            houses.extend((0..size).map(|step| index(step, step)));
            house_units.push(Unit::Diagonal);
        }
        if matches!(constraints.diagonals, Some(Diagonals::Anti | Diagonals::Both)) {
            houses.extend((0..size).map(|step| index(step, size - 1 - step)));
            house_units.push(Unit::AntiDiagonal);
        }
        for (number, region) in constraints.extra_regions.iter().enumerate() {
            let member = format!("constraints.extra_regions[{number}]");
            let region = read_cells(shape, region, &member)?;
            if region.len() != size {
                let found = region.len();
                return Err(ConstraintError::new(member, format!("has {found} cells; an extra region has {size}")));
            }
            houses.extend(region);
            house_units.push(Unit::ExtraRegion);
        }
        if house_units.len() > MAX_HOUSES {
            let extra = MAX_HOUSES - (house_units.len() - constraints.extra_regions.len());
            let message = format!("at most {extra} extra regions fit a {size}x{size} grid with these rules");
            return Err(ConstraintError::new("constraints.extra_regions", message));
        }

        if constraints.cages.len() > MAX_CAGES {
            let message = format!("has {} cages; at most {MAX_CAGES} are taken", constraints.cages.len());
            return Err(ConstraintError::new("constraints.cages", message));
        }
        let mut cages = Vec::with_capacity(constraints.cages.len());
        for (number, cage) in constraints.cages.iter().enumerate() {
            cages.push(read_cage(shape, cage, &format!("constraints.cages[{number}]"))?);
        }

        let mut pairs = Vec::new();
        for (number, thermometer) in constraints.thermometers.iter().enumerate() {
            let member = format!("constraints.thermometers[{number}]");
            let path = read_cells(shape, thermometer, &member)?;
            if path.len() > size {
                let found = path.len();
                return Err(ConstraintError::new(
                    member,
                    format!("has {found} cells; digits 1 to {size} rise along {size} at most"),
                ));
            }
            for step in path.windows(2) {
                let (first, second) = (step[0], step[1]);
                if !touching(size, first, second, true) {
                    let message = format!("{} and {} do not touch", name(size, first), name(size, second));
                    return Err(ConstraintError::new(member, message));
                }
                pairs.push(Pair { first, second, relation: Relation::Less });
            }
        }
        let mut dotted = Vec::new();
        let kropki = &constraints.kropki;
        for (dots, relation, kind) in
            [(&kropki.white, Relation::Consecutive, "white"), (&kropki.black, Relation::Double, "black")]
        {
            for (number, dot) in dots.iter().enumerate() {
                let member = format!("constraints.kropki.{kind}[{number}]");
                let both = read_cells(shape, dot, &member)?;
                let (first, second) = (both[0], both[1]);
                if !touching(size, first, second, false) {
                    let message = format!("{} and {} are not side by side", name(size, first), name(size, second));
                    return Err(ConstraintError::new(member, message));
                }
                dotted.push((first.min(second), first.max(second)));
                pairs.push(Pair { first, second, relation });
            }
        }
        for cell in 0..cells {
            let (row, col) = (cell / size, cell % size);
            let right = (col + 1 < size).then(|| cell + 1);
            let below = (row + 1 < size).then(|| cell + size);
            for other in [right, below].into_iter().flatten() {
                let (first, second) = (cell as u16, other as u16);
                if constraints.non_consecutive {
                    pairs.push(Pair { first, second, relation: Relation::NotConsecutive });
                }
                if kropki.all_given && !dotted.contains(&(first, second)) {
                    pairs.push(Pair { first, second, relation: Relation::NoDot });
                }
            }
        }

        if pairs.len() > MAX_PAIRS {
            let message = format!(
                "{} related pairs of cells from thermometers and dots; at most {MAX_PAIRS} are taken",
                pairs.len()
            );
            return Err(ConstraintError::new("constraints", message));
        }
        let full = (1u32 << size) - 1;
        let mut allowed = vec![full; cells];
        // Digit d is bit d - 1: the even digits are the odd bits.
        for (places, digits, kind) in [(&constraints.even, 0xAAAA_AAAA, "even"), (&constraints.odd, 0x5555_5555, "odd")]
        {
            for (number, place) in places.iter().enumerate() {
                let cell = read_cell(shape, *place, &format!("constraints.{kind}[{number}]"))?;
                allowed[usize::from(cell)] &= digits;
            }
        }
        if let Some(cell) = allowed.iter().position(|&digits| digits == 0) {
            let message = format!("{} is marked both even and odd", name(size, cell as u16));
            return Err(ConstraintError::new("constraints.even", message));
        }

        let mut mates: Vec<Vec<u16>> = vec![Vec::new(); cells];
        for house in houses.chunks_exact(size) {
            for &cell in house {
                mates[usize::from(cell)].extend(house.iter().filter(|&&other| other != cell));
            }
        }
        for cage in &cages {
            for &cell in &cage.cells {
                mates[usize::from(cell)].extend(cage.cells.iter().filter(|&&other| other != cell));
            }
        }
        let knight: &[(isize, isize)] = &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
        let king: &[(isize, isize)] = &[(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let moves = [(constraints.anti_knight, knight), (constraints.anti_king, king)];
        for (cell, cell_mates) in mates.iter_mut().enumerate() {
            let (row, col) = ((cell / size) as isize, (cell % size) as isize);
            for &(_, steps) in moves.iter().filter(|(on, _)| *on) {
                for &(down, right) in steps {
                    let (other_row, other_col) = (row + down, col + right);
                    if (0..size as isize).contains(&other_row) && (0..size as isize).contains(&other_col) {
                        cell_mates.push(index(other_row as usize, other_col as usize));
                    }
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
        let sum_groups = sum_groups(size, &houses, &house_units, &cages);
        let cell_sum_groups = PerCell::index(cells, sum_groups.iter().map(|group| group.cells.clone()));
        Ok(Variant {
            shape,
            constraints,
            houses,
            house_units,
            cell_houses,
            peers: PerCell::new(mates),
            peer_sets,
            pairs,
            cell_pairs,
            cages,
            cell_cages,
            sum_groups,
            cell_sum_groups,
            allowed,
        })
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
    }
    Ok(constraints)
}

/// A windoku's windows: boxes' shapes starting one cell in from the top left, one cell apart,
/// as many as fit (four at 9x9, nine at 16x16).
pub fn windows(shape: Shape) -> Vec<Vec<Place>> {
    let (size, high, wide) = (shape.size(), shape.box_rows(), shape.box_cols());
    let tops: Vec<usize> = (1..).step_by(high + 1).take_while(|top| top + high < size + 1).collect();
    let lefts: Vec<usize> = (1..).step_by(wide + 1).take_while(|left| left + wide < size + 1).collect();
    let mut windows = Vec::new();
    for &top in &tops {
        for &left in &lefts {
            let cells =
                (top..top + high).flat_map(|row| (left..left + wide).map(move |col| Place(row as u64, col as u64)));
            windows.push(cells.collect());
        }
    }
    windows
}

/// `r3c4` for a cell index (1-based, as players name cells).
pub fn name(size: usize, cell: u16) -> String {
    let cell = usize::from(cell);
    format!("r{}c{}", cell / size + 1, cell % size + 1)
}

/// A place inside the grid, as a cell index.
fn read_cell(shape: Shape, place: Place, member: &str) -> Result<u16, ConstraintError> {
    let size = shape.size() as u64;
    let Place(row, col) = place;
    if row >= size || col >= size {
        let message =
            format!("cell [{row}, {col}] is outside the {size}x{size} grid (rows and columns 0 to {})", size - 1);
        return Err(ConstraintError::new(member, message));
    }
    Ok((row * size + col) as u16)
}

/// Places inside the grid, none twice, as cell indices.
fn read_cells(shape: Shape, places: &[Place], member: &str) -> Result<Vec<u16>, ConstraintError> {
    let mut cells = Vec::with_capacity(places.len());
    for &place in places {
        let cell = read_cell(shape, place, member)?;
        if cells.contains(&cell) {
            return Err(ConstraintError::new(member, format!("{} is listed twice", name(shape.size(), cell))));
        }
        cells.push(cell);
    }
    if cells.is_empty() {
        return Err(ConstraintError::new(member, "has no cells"));
    }
    Ok(cells)
}

/// Whether two cells touch: side by side, or also diagonally.
fn touching(size: usize, first: u16, second: u16, diagonally: bool) -> bool {
    let (first, second) = (usize::from(first), usize::from(second));
    let rows = (first / size).abs_diff(second / size);
    let cols = (first % size).abs_diff(second % size);
    rows.max(cols) == 1 && (diagonally || rows + cols == 1)
}

/// The regions' cells, each region's in row-major order, regions in the order their first cells
/// come.
fn read_regions(shape: Shape, regions: &Regions) -> Result<Vec<Vec<u16>>, ConstraintError> {
    const MEMBER: &str = "constraints.regions";
    let size = shape.size();
    let ids: Vec<u64> = match regions {
        Regions::Line(line) => line.chars().filter(|c| !c.is_whitespace()).map(u64::from).collect(),
        Regions::Rows(rows) => {
            if rows.len() != size || rows.iter().any(|row| row.len() != size) {
                let message = format!("expected {size} rows of {size} region ids, one per cell");
                return Err(ConstraintError::new(MEMBER, message));
            }
            rows.iter().flatten().map(|id| id.0).collect()
        }
    };
    if ids.len() != shape.cells() {
        let message = format!("has {} cells; the {size}x{size} grid has {}", ids.len(), shape.cells());
        return Err(ConstraintError::new(MEMBER, message));
    }
    let mut order: Vec<u64> = Vec::new();
    let mut regions: Vec<Vec<u16>> = Vec::new();
    for (cell, id) in ids.into_iter().enumerate() {
        let number = match order.iter().position(|&known| known == id) {
            Some(number) => number,
            None => {
                order.push(id);
                regions.push(Vec::new());
                order.len() - 1
            }
        };
        regions[number].push(cell as u16);
    }
    if regions.len() != size {
        let message = format!("has {} regions; a {size}x{size} grid has {size} of {size} cells each", regions.len());
        return Err(ConstraintError::new(MEMBER, message));
    }
    if let Some(region) = regions.iter().find(|region| region.len() != size) {
        let message =
            format!("the region of {} has {} cells; every region has {size}", name(size, region[0]), region.len());
        return Err(ConstraintError::new(MEMBER, message));
    }
    Ok(regions)
}

/// A cage checked: cells inside the grid, none twice, at most N of them, and a sum its digits
/// can make.
fn read_cage(shape: Shape, cage: &Cage, member: &str) -> Result<CageRule, ConstraintError> {
    let size = shape.size();
    let cells = read_cells(shape, &cage.cells, &format!("{member}.cells"))?;
    let count = cells.len();
    if count > size {
        let message = format!("has {count} cells; a cage's digits differ, so it has at most {size}");
        return Err(ConstraintError::new(member, message));
    }
    let Some(sum) = cage.sum else {
        return Ok(CageRule { cells, sum: None, combinations: Vec::new() });
    };
    // The smallest sum of `count` different digits is 1 + ... + count, the largest
    // N + ... + (N - count + 1); every sum between is made by some set.
    let smallest = (count * (count + 1) / 2) as u64;
    let largest = (count * (2 * size + 1 - count) / 2) as u64;
    if !(smallest..=largest).contains(&sum) {
        let message = format!(
            "no {count} different digits from 1 to {size} add up to {sum} (their sums run from {smallest} to {largest})"
        );
        return Err(ConstraintError::new(format!("{member}.sum"), message));
    }
    let sum = sum as u32;
    Ok(CageRule { cells, sum: Some(sum), combinations: combinations(size, count, sum) })
}

/// Every set of `count` different digits from 1 to `size` adding up to `sum`, as bit sets; empty
/// when there are more than [`MAX_COMBINATIONS`].
fn combinations(size: usize, count: usize, sum: u32) -> Vec<u32> {
    fn extend(next: u32, size: u32, left: usize, sum: u32, set: u32, found: &mut Vec<u32>) -> bool {
        if left == 0 {
            if sum == 0 {
                found.push(set);
            }
            return found.len() <= MAX_COMBINATIONS;
        }
        // The largest the rest can add up to: the `left` largest digits.
        let left_u32 = left as u32;
        if left_u32 * size - left_u32 * (left_u32 - 1) / 2 < sum {
            return true;
        }
        for digit in next..=size {
            // The smallest the rest can add up to from here on.
            if digit * left as u32 + (left as u32 - 1) * left as u32 / 2 > sum {
                break;
            }
            if !extend(digit + 1, size, left - 1, sum - digit, set | 1 << (digit - 1), found) {
                return false;
            }
        }
        true
    }
    let mut found = Vec::new();
    if extend(1, size as u32, count, sum, 0, &mut found) { found } else { Vec::new() }
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
    fn windows_sit_one_cell_in_and_one_apart() {
        let corners = |shape: Shape| -> Vec<(u64, u64)> {
            windows(shape).iter().map(|window| (window[0].0, window[0].1)).collect()
        };
        assert_eq!(corners(nine()), [(1, 1), (1, 5), (5, 1), (5, 5)]);
        assert_eq!(corners(Shape::new(4, 4).unwrap()).len(), 9);
        assert_eq!(corners(Shape::new(2, 3).unwrap()), [(1, 1), (4, 1)]);
        assert_eq!(corners(Shape::new(2, 2).unwrap()), [(1, 1)]);
        assert!(windows(nine()).iter().all(|window| window.len() == 9));
    }

    #[test]
    fn support_is_the_union_of_what_each_digit_allows() {
        let full = (1u32 << 9) - 1;
        for relation in
            [Relation::Less, Relation::Consecutive, Relation::Double, Relation::NoDot, Relation::NotConsecutive]
        {
            for first in 0..=full {
                for reversed in [false, true] {
                    let mut expected = 0;
                    for (a, b) in (1..=9u8).flat_map(|a| (1..=9u8).map(move |b| (a, b))) {
                        let (mine, other) = if reversed { (b, a) } else { (a, b) };
                        let holds = if reversed { relation.holds(other, mine) } else { relation.holds(mine, other) };
                        if first >> (mine - 1) & 1 == 1 && holds {
                            expected |= 1 << (other - 1);
                        }
                    }
                    assert_eq!(relation.support(first, full, reversed), expected, "{relation:?} {first:b} {reversed}");
                }
            }
        }
    }

    #[test]
    fn a_cage_lists_every_digit_set_that_makes_its_sum() {
        for count in 1..=9 {
            for sum in 1..=45 {
                let mut expected: Vec<u32> = (0u32..512)
                    .filter(|set| {
                        set.count_ones() as usize == count
                            && (0..9).filter(|d| set >> d & 1 == 1).map(|d| d + 1).sum::<u32>() == sum
                    })
                    .collect();
                let mut found = combinations(9, count, sum);
                found.sort_unstable();
                expected.sort_unstable();
                assert_eq!(found, expected, "{count} cells, {sum}");
            }
        }
        // Too many sets to list: 12 of 25 digits adding up to 156.
        assert!(combinations(25, 12, 156).is_empty());
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
}

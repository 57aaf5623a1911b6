//! The constraint families, one module each, holding all the rule set knows of its family: its
//! request members, their checks against the grid's shape, what it builds into the rule set
//! (houses, peers, related pairs, cages, the digits a cell may hold), the conflicts only it can
//! see, and, for a family of related pairs, what the relation allows and the sentence that says
//! why.
//!
//! The engines never match on a family. The solvers and the logic read the primitives the
//! families build ([`Variant`]'s houses, peers, pairs, cages, sum groups and allowed digits), and
//! a pair's digits through its [`Relation`], whose tables come from the family's [`PairRule`].
//! A new family made of these primitives is one new module here, its member in [`Constraints`],
//! its name in [`Unit`] and a line in the `families!` list below; a relation between two cells
//! needs no more than a [`PairRule`].

use crate::constraints::{Constraints, Place};
use crate::shape::Shape;
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

mod anti_chess;
mod anti_taxicab;
pub mod arrows;
mod between_lines;
pub mod cages;
mod class_lines;
pub mod classes;
pub mod diagonals;
pub mod disjoint_groups;
pub mod dots;
mod global_classes;
pub mod greater_than;
pub mod lines;
pub mod little_killers;
pub mod lockout_lines;
mod non_consecutive;
pub mod outside;
mod palindromes;
mod parity;
pub mod quadruples;
pub mod regions;
pub mod relations;
pub mod renban;
pub mod sandwiches;
mod thermometers;
pub mod whispers;
pub mod whole;
pub mod x_sums;
pub mod xv;

pub use non_consecutive::beside_every;

/// One kind of rule a variant may have, and the one place the rule set reaches it through.
pub(crate) trait Family {
    /// Checks the family's members of `constraints` against `rules`' shape and adds what they
    /// say to `rules`. The error names the member and the cell.
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError>;

    /// Marks in `broken` each filled cell of `cells` that breaks the family's rule in a way the
    /// primitives' own checks (repeats in houses and cages, related pairs) do not see.
    fn conflicts(_variant: &Variant, _cells: &[u8], _broken: &mut [Units]) {}
}

/// Lists the families once, in the order they build (the order of the houses: boxes or regions,
/// then diagonals and extra regions; and of the cages and pairs), and makes [`build`] and
/// [`conflicts`] of the list.
macro_rules! families {
    ($($family:ty),* $(,)?) => {
        /// What every family adds to `rules` from `constraints`.
        pub(crate) fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
            $(<$family as Family>::build(constraints, rules)?;)*
            Ok(())
        }

        /// The conflicts every family sees beyond its primitives' (see [`Family::conflicts`]).
        pub(crate) fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
            $(<$family as Family>::conflicts(variant, cells, broken);)*
        }
    };
}

families!(
    regions::Regions,
    disjoint_groups::DisjointGroups,
    diagonals::ExtraHouses,
    cages::Cages,
    thermometers::Thermometers,
    dots::Dots,
    xv::XvMarks,
    greater_than::Signs,
    whispers::WhispersLines,
    renban::Renbans,
    arrows::Arrows,
    little_killers::LittleKillers,
    between_lines::BetweenLines,
    class_lines::ModularLines,
    class_lines::EntropicLines,
    sandwiches::Sandwiches,
    x_sums::XSums,
    // After every family of clues beside rows and columns: their count.
    outside::OutsideClues,
    non_consecutive::NonConsecutive,
    parity::Parity,
    anti_chess::AntiChess,
    // After every rule whose cells may not repeat a digit, which a digit written twice needs.
    quadruples::Quadruples,
    // After every rule whose cells may not repeat a digit, which a palindrome may not make equal.
    palindromes::Palindromes,
    lockout_lines::LockoutLines,
    global_classes::GlobalEntropy,
    global_classes::GlobalMod,
    // After every house, which keeps its cells apart without a pair.
    anti_taxicab::AntiTaxicab,
    relations::Relations,
);

/// A rule set while its families build it: rows and columns first (every variant keeps them),
/// then what each family adds.
pub(crate) struct Builder {
    pub(crate) shape: Shape,
    /// Houses of N cells each, in order.
    pub(crate) houses: Vec<u16>,
    /// The rule each house stands for.
    pub(crate) house_units: Vec<Unit>,
    pub(crate) cages: Vec<cages::CageRule>,
    pub(crate) pairs: Vec<Pair>,
    pub(crate) relations: Vec<Relation>,
    /// The renban lines' cells, in order.
    pub(crate) renbans: Vec<Vec<u16>>,
    pub(crate) arrows: Vec<arrows::ArrowRule>,
    pub(crate) little_killers: Vec<little_killers::LittleKillerRule>,
    /// The lines whose rule reads the whole line (between and lockout lines).
    pub(crate) lines: Vec<lines::LineRule>,
    pub(crate) quadruples: Vec<quadruples::QuadrupleRule>,
    /// The windows of cells that hold a digit of each class (modular and entropic lines, the
    /// squares of global entropy and global mod).
    pub(crate) windows: Vec<classes::ClassWindow>,
    /// The clues beside rows and columns.
    pub(crate) outside_clues: Vec<outside::OutsideClue>,
    /// The digits each cell may hold at all.
    pub(crate) allowed: Vec<u32>,
    /// Steps (rows down, columns right) between cells whose digits differ, beyond houses and
    /// cages.
    pub(crate) moves: Vec<(isize, isize)>,
}

impl Builder {
    /// The rows and columns of `shape`, every digit allowed everywhere.
    pub(crate) fn new(shape: Shape) -> Builder {
        let size = shape.size();
        let layout = crate::layout::Layout::of(shape);
        Builder {
            shape,
            houses: layout.houses().take(2 * size).flatten().copied().collect(),
            house_units: [Unit::Row, Unit::Column]
                .into_iter()
                .flat_map(|unit| std::iter::repeat_n(unit, size))
                .collect(),
            cages: Vec::new(),
            pairs: Vec::new(),
            relations: Vec::new(),
            renbans: Vec::new(),
            arrows: Vec::new(),
            little_killers: Vec::new(),
            lines: Vec::new(),
            quadruples: Vec::new(),
            windows: Vec::new(),
            outside_clues: Vec::new(),
            allowed: vec![(1u32 << size) - 1; shape.cells()],
            moves: Vec::new(),
        }
    }

    /// Adds a house of N cells.
    pub(crate) fn add_house(&mut self, cells: impl IntoIterator<Item = u16>, unit: Unit) {
        self.houses.extend(cells);
        self.house_units.push(unit);
    }

    /// Relates `first`'s digit to `second`'s by `rule`, a rule without a parameter.
    pub(crate) fn relate(&mut self, first: u16, second: u16, rule: &'static PairRule) {
        self.relate_by(first, second, rule, 0);
    }

    /// Relates `first`'s digit to `second`'s by `rule` with its `parameter` (a whispers line's
    /// difference): each rule and parameter is one relation.
    pub(crate) fn relate_by(&mut self, first: u16, second: u16, rule: &'static PairRule, parameter: u32) {
        let same = |relation: &Relation| relation.is_rule(rule, parameter);
        let relation = match self.relations.iter().position(same) {
            Some(index) => index,
            None => {
                self.relations.push(Relation::new(rule, parameter, self.shape.size()));
                self.relations.len() - 1
            }
        };
        let relation = u8::try_from(relation).expect("fewer than 256 kinds of relation between two cells");
        self.pairs.push(Pair { first, second, relation });
    }

    /// Relates `first`'s digit to `second`'s by `relation`, a table of digits a request gives:
    /// each table (with its label) is one relation. `None` when the rule set has as many
    /// relations as a pair can name already and this one is new.
    pub(crate) fn relate_by_table(&mut self, first: u16, second: u16, relation: &Relation) -> Option<()> {
        let index = match self.relations.iter().position(|known| known == relation) {
            Some(index) => index,
            None if self.relations.len() < MAX_RELATIONS => {
                self.relations.push(relation.clone());
                self.relations.len() - 1
            }
            None => return None,
        };
        let relation = u8::try_from(index).expect("at most MAX_RELATIONS relations");
        self.pairs.push(Pair { first, second, relation });
        Some(())
    }

    /// The rule of a relation already between `first` and `second` (either way round) that no
    /// two digits keep together with `rule` and its `parameter`: two marks on one pair that
    /// contradict.
    pub(crate) fn clash(&self, first: u16, second: u16, rule: &PairRule, parameter: u32) -> Option<Unit> {
        self.clash_with(first, second, |a, b| (rule.holds)(u32::from(a), u32::from(b), parameter))
    }

    /// The rule of a relation already between `first` and `second` (either way round) that no
    /// two digits `a` and `b` for which `keeps(a, b)` (`a` the first's) keep too.
    pub(crate) fn clash_with(&self, first: u16, second: u16, keeps: impl Fn(u8, u8) -> bool) -> Option<Unit> {
        let size = self.shape.size() as u8;
        let digits = || (1..=size).flat_map(|a| (1..=size).map(move |b| (a, b)));
        self.pairs.iter().find_map(|pair| {
            let relation = &self.relations[usize::from(pair.relation)];
            let swapped = match (pair.first, pair.second) {
                ends if ends == (first, second) => false,
                ends if ends == (second, first) => true,
                _ => return None,
            };
            let both =
                |(a, b): (u8, u8)| keeps(a, b) && if swapped { relation.holds(b, a) } else { relation.holds(a, b) };
            (!digits().any(both)).then(|| relation.unit())
        })
    }

    /// A place inside the grid, as a cell index.
    pub(crate) fn cell(&self, place: Place, member: &str) -> Result<u16, ConstraintError> {
        let size = self.shape.size() as u64;
        let Place(row, col) = place;
        if row >= size || col >= size {
            let message =
                format!("cell [{row}, {col}] is outside the {size}x{size} grid (rows and columns 0 to {})", size - 1);
            return Err(ConstraintError::new(member, message));
        }
        Ok((row * size + col) as u16)
    }

    /// Places inside the grid, none twice, at least one, as cell indices.
    pub(crate) fn cells(&self, places: &[Place], member: &str) -> Result<Vec<u16>, ConstraintError> {
        let mut cells = Vec::with_capacity(places.len());
        for &place in places {
            let cell = self.cell(place, member)?;
            if cells.contains(&cell) {
                return Err(ConstraintError::new(member, format!("{} is listed twice", self.name(cell))));
            }
            cells.push(cell);
        }
        if cells.is_empty() {
            return Err(ConstraintError::new(member, "has no cells"));
        }
        Ok(cells)
    }

    /// The cells of a path (a thermometer, a line) as cell indices: inside the grid, none twice,
    /// at least one, each touching the next, side by side or diagonally.
    pub(crate) fn path(&self, places: &[Place], member: &str) -> Result<Vec<u16>, ConstraintError> {
        let path = self.cells(places, member)?;
        for step in path.windows(2) {
            if !self.touching(step[0], step[1], true) {
                let message = format!("{} and {} do not touch", self.name(step[0]), self.name(step[1]));
                return Err(ConstraintError::new(member, message));
            }
        }
        Ok(path)
    }

    /// The cells of a line (whispers, a palindrome, renban): a [`Builder::path`] of two cells or
    /// more.
    pub(crate) fn line(&self, places: &[Place], member: &str) -> Result<Vec<u16>, ConstraintError> {
        let line = self.path(places, member)?;
        if line.len() < 2 {
            return Err(ConstraintError::new(member, "has 1 cell; a line joins 2 cells at least"));
        }
        Ok(line)
    }

    /// The two cells a mark between orthogonal neighbours (a dot, an X) sits between, as cell
    /// indices: inside the grid, not the same, side by side.
    pub(crate) fn mark_cells(&self, mark: &[Place; 2], member: &str) -> Result<(u16, u16), ConstraintError> {
        let both = self.cells(mark, member)?;
        let (first, second) = (both[0], both[1]);
        if !self.touching(first, second, false) {
            let message = format!("{} and {} are not side by side", self.name(first), self.name(second));
            return Err(ConstraintError::new(member, message));
        }
        Ok((first, second))
    }

    /// The negative constraint of marks between neighbours: relates by `rule` every pair of
    /// orthogonal neighbours that is not `marked` (each pair smaller cell first).
    pub(crate) fn relate_unmarked(&mut self, marked: &[(u16, u16)], rule: &'static PairRule) {
        for (first, second) in neighbours(self.shape.size()) {
            if !marked.contains(&(first, second)) {
                self.relate(first, second, rule);
            }
        }
    }

    /// `r3c4` for a cell index.
    pub(crate) fn name(&self, cell: u16) -> String {
        name(self.shape.size(), cell)
    }

    /// Whether two cells touch: side by side, or also diagonally.
    pub(crate) fn touching(&self, first: u16, second: u16, diagonally: bool) -> bool {
        let size = self.shape.size();
        let (first, second) = (usize::from(first), usize::from(second));
        let rows = (first / size).abs_diff(second / size);
        let cols = (first % size).abs_diff(second % size);
        rows.max(cols) == 1 && (diagonally || rows + cols == 1)
    }
}

/// `r3c4` for a cell index of a grid of `size` (1-based, as players name cells).
pub fn name(size: usize, cell: u16) -> String {
    let cell = usize::from(cell);
    format!("r{}c{}", cell / size + 1, cell % size + 1)
}

/// How a family of related pairs relates the first cell's digit to the second's (beyond
/// differing, which peers say): all the engines need of it. A rule may take a number, its
/// parameter (a whispers line's difference), which each pair's [`Relation`] holds; rules
/// without one are given 0.
#[derive(Debug)]
pub struct PairRule {
    /// The rule a pair that breaks it breaks, in conflicts.
    pub unit: Unit,
    /// Whether digits `first` and `second` keep the relation with the rule's `parameter`.
    pub holds: fn(first: u32, second: u32, parameter: u32) -> bool,
    /// Why two cells named `first` and `second` limit each other, for a sentence that goes on
    /// "so ... can't be ...".
    pub reason: fn(first: &str, second: &str, parameter: u32) -> String,
    /// Whether the relation is an order (the first smaller): then what a set of digits allows
    /// across is what its smallest (its largest, backwards) allows, and the search reads one
    /// table entry instead of one per digit.
    pub increasing: bool,
}

/// How many distinct relations a rule set holds at most: a [`Pair`] names its relation by a byte.
pub const MAX_RELATIONS: usize = 256;

/// A [`PairRule`] with its parameter, or a table of digit pairs a request gives (a custom
/// relation), on a grid of one size, with what each digit allows across listed once, so the
/// search asks a table, not the rule.
#[derive(Clone, Debug)]
pub struct Relation {
    source: Source,
    /// Whether what a set of digits allows across is what its smallest allows ([`PairRule::increasing`]).
    increasing: bool,
    /// Every digit of the grid, as bits.
    full: u32,
    /// Per digit `d` (index `d - 1`) of the first cell, the digits the second may hold.
    forward: [u32; 32],
    /// Per digit of the second cell, the digits the first may hold.
    backward: [u32; 32],
}

/// Where a [`Relation`]'s table comes from.
#[derive(Clone, Debug)]
enum Source {
    /// A family's rule, with its parameter.
    Rule { rule: &'static PairRule, parameter: u32 },
    /// The digit pairs a request lists (`constraints.relations`), with their label if any.
    Table { label: Option<String> },
}

impl PartialEq for Relation {
    fn eq(&self, other: &Relation) -> bool {
        match (&self.source, &other.source) {
            (Source::Rule { rule, parameter }, _) => other.is_rule(rule, *parameter) && self.full == other.full,
            (Source::Table { label }, Source::Table { label: other_label }) => {
                label == other_label && self.full == other.full && self.forward == other.forward
            }
            (Source::Table { .. }, Source::Rule { .. }) => false,
        }
    }
}

impl Eq for Relation {}

impl Relation {
    fn new(rule: &'static PairRule, parameter: u32, size: usize) -> Relation {
        let mut pairs = Vec::new();
        for first in 1..=size as u32 {
            for second in 1..=size as u32 {
                if (rule.holds)(first, second, parameter) {
                    pairs.push((first as u8, second as u8));
                }
            }
        }
        let mut relation = Relation::of_pairs(&pairs, size, Source::Rule { rule, parameter });
        relation.increasing = rule.increasing;
        relation
    }

    /// The relation that allows exactly `pairs` (the first cell's digit, then the second's, each
    /// 1 to `size`) on a grid of `size`, named `label` in sentences when it has one.
    pub fn of_table(pairs: &[(u8, u8)], size: usize, label: Option<&str>) -> Relation {
        Relation::of_pairs(pairs, size, Source::Table { label: label.map(str::to_owned) })
    }

    fn of_pairs(pairs: &[(u8, u8)], size: usize, source: Source) -> Relation {
        let (mut forward, mut backward) = ([0; 32], [0; 32]);
        for &(first, second) in pairs {
            debug_assert!((1..=size as u8).contains(&first) && (1..=size as u8).contains(&second));
            forward[usize::from(first) - 1] |= 1 << (second - 1);
            backward[usize::from(second) - 1] |= 1 << (first - 1);
        }
        Relation { source, increasing: false, full: (1 << size) - 1, forward, backward }
    }

    /// Whether it is `rule`'s with `parameter`.
    fn is_rule(&self, rule: &PairRule, parameter: u32) -> bool {
        matches!(self.source, Source::Rule { rule: own, parameter: own_parameter }
            if std::ptr::eq(own, rule) && own_parameter == parameter)
    }

    /// The digits the second cell may hold when the first holds a digit of `first` (bit `d - 1`
    /// for digit `d`); reversed, the first's digits given the second's.
    #[inline]
    pub fn support(&self, first: u32, reversed: bool) -> u32 {
        let table = if reversed { &self.backward } else { &self.forward };
        if first == 0 {
            return 0;
        }
        if self.increasing {
            // Above the smallest digit, or below the largest when reversed.
            let digit = if reversed { 31 - first.leading_zeros() } else { first.trailing_zeros() };
            return table[digit as usize];
        }
        // The union of what each digit allows, stopping once every digit is allowed (after two
        // or three digits for a rule that forbids few).
        let (mut support, mut digits) = (0, first);
        while digits != 0 && support != self.full {
            support |= table[digits.trailing_zeros() as usize];
            digits &= digits - 1;
        }
        support
    }

    /// Whether `first` and `second`, both filled, keep the relation.
    pub fn holds(&self, first: u8, second: u8) -> bool {
        match self.source {
            Source::Rule { rule, parameter } => (rule.holds)(u32::from(first), u32::from(second), parameter),
            Source::Table { .. } => {
                (1..=32).contains(&first)
                    && (1..=32).contains(&second)
                    && self.forward[usize::from(first) - 1] >> (second - 1) & 1 == 1
            }
        }
    }

    /// Why cells named `first` and `second` limit each other (see [`PairRule::reason`]).
    pub fn reason(&self, first: &str, second: &str) -> String {
        match &self.source {
            Source::Rule { rule, parameter } => (rule.reason)(first, second, *parameter),
            Source::Table { label: Some(label) } => {
                format!("{first} and {second} keep the relation \"{label}\", which allows only some pairs of digits")
            }
            Source::Table { label: None } => {
                format!("{first} and {second} keep a custom relation, which allows only some pairs of digits")
            }
        }
    }

    /// The rule it stands for, in conflicts.
    pub fn unit(&self) -> Unit {
        match self.source {
            Source::Rule { rule, .. } => rule.unit,
            Source::Table { .. } => Unit::Relation,
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
    /// Its relation, read with [`Variant::relation`].
    pub relation: u8,
}

/// Every pair of orthogonal neighbours of a grid of `size`, each once, first the upper or left
/// one: cell by cell, the one to its right, then the one below.
fn neighbours(size: usize) -> impl Iterator<Item = (u16, u16)> {
    (0..size * size).flat_map(move |cell| {
        let (row, col) = (cell / size, cell % size);
        let right = (col + 1 < size).then(|| cell + 1);
        let below = (row + 1 < size).then(|| cell + size);
        [right, below].into_iter().flatten().map(move |other| (cell as u16, other as u16))
    })
}

/// The cells side by side with `cell` (above, below, left, right) in a grid of `size`.
fn side_by_side(size: usize, cell: usize) -> impl Iterator<Item = usize> {
    let (row, col) = (cell / size, cell % size);
    [
        (row > 0).then(|| cell - size),
        (row + 1 < size).then(|| cell + size),
        (col > 0).then(|| cell - 1),
        (col + 1 < size).then(|| cell + 1),
    ]
    .into_iter()
    .flatten()
}

/// Marks `unit` on every filled cell of `group` whose value another of its cells also has.
pub(crate) fn mark_repeats(cells: &[u8], group: &[u16], unit: Unit, broken: &mut [Units]) {
    let (mut once, mut twice) = (0u32, 0u32);
    for &cell in group {
        let bit = 1u32 << cells[usize::from(cell)] >> 1;
        twice |= once & bit;
        once |= bit;
    }
    if twice == 0 {
        return;
    }
    for &cell in group {
        let value = cells[usize::from(cell)];
        if value != 0 && twice >> (value - 1) & 1 == 1 {
            broken[usize::from(cell)].insert(unit.into());
        }
    }
}

/// The digits `first` and `second` are consecutive (a pair rule's test: no parameter).
fn consecutive(first: u32, second: u32, _: u32) -> bool {
    first.abs_diff(second) == 1
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The error of building `json`'s constraints on a grid of `shape`, or none.
    pub(crate) fn refused(shape: Shape, json: &str) -> Option<String> {
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        crate::variant::Variant::new(shape, None, &constraints).err().map(|error| error.to_string())
    }

    /// Visits every order of `line`'s digits from `from` on: the fillings of a row or column
    /// against which the clues beside it are checked.
    pub(crate) fn permutations(line: &mut Vec<u32>, from: usize, visit: &mut impl FnMut(&[u32])) {
        if from == line.len() {
            visit(line);
            return;
        }
        for index in from..line.len() {
            line.swap(from, index);
            permutations(line, from + 1, visit);
            line.swap(from, index);
        }
    }

    #[test]
    fn support_is_the_union_of_what_each_digit_allows() {
        let rules = [
            (&thermometers::RISING, 0),
            (&dots::WHITE, 0),
            (&dots::BLACK, 0),
            (&dots::NO_DOT, 0),
            (&non_consecutive::APART, 0),
            (&xv::X, 0),
            (&xv::V, 0),
            (&xv::NO_MARK, 0),
            (&greater_than::LESS, 0),
            (&whispers::APART, 1),
            (&whispers::APART, 3),
            (&palindromes::MIRRORED, 0),
            (&anti_taxicab::APART, 1),
            (&anti_taxicab::APART, 4),
        ];
        for size in [4, 9, 16] {
            let full = (1u32 << size) - 1;
            // Custom tables beside the rules: one-way, and sparse.
            let digits = 1..=size as u8;
            let one_way: Vec<(u8, u8)> =
                digits.clone().flat_map(|a| (a + 1..=size as u8).map(move |b| (a, b))).collect();
            let sparse: Vec<(u8, u8)> = digits.map(|a| (a, a % size as u8 + 1)).collect();
            let tables = [Relation::of_table(&one_way, size, None), Relation::of_table(&sparse, size, Some("next"))];
            let relations = rules.iter().map(|&(rule, parameter)| Relation::new(rule, parameter, size)).chain(tables);
            for relation in relations {
                let rule = relation.unit();
                let sets = (0..=full).step_by(if size > 9 { 97 } else { 1 });
                for first in sets {
                    for reversed in [false, true] {
                        let mut expected = 0;
                        for (a, b) in (1..=size as u8).flat_map(|a| (1..=size as u8).map(move |b| (a, b))) {
                            let (mine, other) = if reversed { (b, a) } else { (a, b) };
                            if first >> (mine - 1) & 1 == 1 && relation.holds(a, b) {
                                expected |= 1 << (other - 1);
                            }
                        }
                        assert_eq!(relation.support(first, reversed), expected, "{rule:?} {first:b} {reversed}");
                    }
                }
            }
        }
    }
}

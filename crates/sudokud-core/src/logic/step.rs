//! What a deduction looks like to callers ([`Step`], [`Technique`]), and the reusable
//! [`Deduction`] buffer the techniques fill, so `rate` finds and applies steps without
//! allocating or formatting anything.

use std::fmt;

use serde::{Serialize, Serializer};

use crate::member::Choice;

use super::cells::CellSet;
use super::geometry::Geometry;
use super::grid::{Grid, ones};
use super::techniques::{Literal, Nested};
use crate::position::{Candidate, Cell, Digit};

/// A solving technique, in order of difficulty (the order [`Technique::ALL`] lists and the
/// solver tries them in).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last empty cell of a row, column or box.
    FullHouse,
    /// The only place for a digit in a box.
    HiddenSingleBox,
    /// The only place for a digit in a row or column.
    HiddenSingleLine,
    /// A variant's cage: only the digit sets that make its sum fit its cells (killer).
    CageSum,
    /// A variant's rule between touching cells: a thermometer's rise, a Kropki dot, neighbours
    /// that may not be consecutive.
    NeighbourRule,
    /// A variant's renban line: only the runs of consecutive digits that fit its cells.
    Renban,
    /// A variant's arrow: only the digits that keep its bulb's number its shaft's sum.
    Arrow,
    /// A variant's little killer: only the digits that let its diagonal add up to its clue.
    LittleKiller,
    /// A variant's between line: only the digits strictly between some pair of circles that
    /// leaves every cell on it one.
    BetweenLine,
    /// A variant's quadruple: the digits in a circle on a corner go among the four cells there.
    Quadruple,
    /// A variant's lockout line: only the digits outside some pair of diamonds far enough apart
    /// that leaves every cell on it one.
    LockoutLine,
    /// A variant's window of digit classes (three cells in a row on a modular or entropic
    /// line, a 2x2 square under global entropy or global mod): every class appears in it, so
    /// each cell keeps the classes some way leaves it.
    DigitClasses,
    /// A variant's sandwich: only the digits of the places of its line's 1 and N that let the
    /// digits between add up to its clue.
    Sandwich,
    /// A variant's X-sum: only the digits of the ways its line's first X digits make its clue.
    XSum,
    /// The only digit left for a cell.
    NakedSingle,
    /// A box's candidates for a digit lie in one line, so the rest of the line loses it.
    Pointing,
    /// A line's candidates for a digit lie in one box, so the rest of the box loses it.
    Claiming,
    /// A variant's cells that add up to a known sum by the 45 rule: a house's total less the
    /// cages wholly inside it (innies), or the cages covering it less its total (outies).
    InniesOuties,
    /// Two cells of a unit with the same two candidates.
    NakedPair,
    /// A fish of two lines.
    XWing,
    /// Two digits confined to the same two cells of a unit.
    HiddenPair,
    /// Three cells of a unit holding only three digits between them.
    NakedTriple,
    /// A variant's cage whose sum, made in every way its cells' candidates allow, rules a
    /// candidate out of a cell, or uses digits its house's other cells then lose.
    CageCombination,
    /// A fish of three lines.
    Swordfish,
    /// Three digits confined to the same three cells of a unit.
    HiddenTriple,
    /// Two strong links of a digit joined end to end: skyscraper, 2-string kite, turbot fish,
    /// empty rectangle.
    TurbotFish,
    /// A two-candidate pivot and two pincers: one pincer holds the shared digit.
    XYWing,
    /// An XY-Wing whose pivot also holds the shared digit.
    XYZWing,
    /// Uniqueness rectangle type 1: the one corner that prevents a deadly pattern.
    UniqueRectangle1,
    /// Four cells of a unit holding only four digits between them.
    NakedQuad,
    /// A fish of four lines.
    Jellyfish,
    /// Four digits confined to the same four cells of a unit.
    HiddenQuad,
    /// Three strong links of a digit joined end to end.
    ThreeStrongLinks,
    /// Three cells of a house holding four digits, and a two-candidate cell seeing those of
    /// them that hold one of its digits.
    WxyzWing,
    /// Every open cell but one has two candidates, each in two cells of every house; the one
    /// with three must hold the candidate it adds, or the grid would not have one solution.
    BugPlusOne,
    /// Every open cell but a few has two candidates, each in two cells of every house; the few
    /// have three, all adding the same candidate, which one of them must hold.
    BugType2,
    /// Four strong links of a digit joined end to end.
    FourStrongLinks,
    /// A WXYZ-Wing of four cells holding five digits.
    VwxyzWing,
    /// A loop of one digit's alternating links that holds read either way round.
    XCycle,
    /// A loop of two-candidate cells that holds read either way round.
    YCycle,
    /// A WXYZ-Wing of five cells holding six digits.
    UvwxyzWing,
    /// A single-digit chain of alternating conjugate pairs and shared units.
    XChain,
    /// A chain of two-candidate cells.
    XYChain,
    /// A loop through cells and houses alike that holds read either way round.
    XYCycle,
    /// A chain of implications, through cells and houses alike, from a candidate back to its
    /// own opposite.
    ForcingChain,
    /// A WXYZ-Wing of six cells holding seven digits.
    TuvwxyzWing,
    /// A digit assumed in a cell, followed within the digit, rules itself out.
    Nishio,
    /// Chains from every candidate of a cell, every place of a digit in a house, or a candidate
    /// and its opposite, that agree; or from one candidate to a contradiction.
    MultipleForcingChains,
    /// Multiple forcing chains that also follow what each assumption has ruled out so far.
    DynamicForcingChains,
    /// Dynamic forcing chains that also apply locked candidates, subsets and fish inside.
    DynamicForcingChainsPlus,
    /// Dynamic forcing chains with single forcing chains nested inside.
    NestedForcingChains,
    /// Dynamic forcing chains with multiple forcing chains nested inside.
    NestedMultipleForcingChains,
    /// Dynamic forcing chains with dynamic forcing chains nested inside.
    NestedDynamicForcingChains,
    /// No technique applies: a digit taken from the solution.
    BruteForce,
}

/// Per technique: stable id, human name, rating. Indexed by `Technique as usize`.
///
/// Ratings are Sudoku Explainer's (SE, as its maintained fork Sukaku Explainer rates), its
/// techniques tried in its order, so a puzzle rates as SE rates it. A chain's step adds to its
/// technique's figure by its length ([`chain_rating`]), an ALS wing's by the shape of its set.
/// Where SE has no technique:
/// - Cage sum, neighbour rule, renban, arrow, little killer, between line, quadruple, lockout
///   line, digit classes, sandwich and X-sum 1.5, as a hidden single in a line: SE has no
///   variants, and these are the first things a player of killer, thermometer, Kropki, renban,
///   arrow, little killer, between line, quadruple, lockout, modular or entropic line, global
///   entropy or mod, sandwich or X-sum puzzles looks at.
/// - Innies and outies 2.8, as claiming: the killer player's next step once cage sums run out,
///   adding up a house and its cages rather than reading one cage.
/// - Cage combination 3.6, as a naked triple: each of a cage's digit sets tried against each
///   cell's candidates, a subset-sized piece of bookkeeping.
/// - Brute force 12.0: above anything logic here can do (the hardest known puzzles rate up to
///   about 12 with nested forcing chains), so any guess marks the puzzle extreme.
const INFO: [(&str, &str, f32); Technique::ALL.len()] = [
    ("full-house", "Full house", 1.0),
    ("hidden-single-box", "Hidden single (box)", 1.2),
    ("hidden-single-line", "Hidden single (row or column)", 1.5),
    ("cage-sum", "Cage sum", 1.5),
    ("neighbour-rule", "Neighbour rule", 1.5),
    ("renban", "Renban line", 1.5),
    ("arrow", "Arrow", 1.5),
    ("little-killer", "Little killer", 1.5),
    ("between-line", "Between line", 1.5),
    ("quadruple", "Quadruple", 1.5),
    ("lockout-line", "Lockout line", 1.5),
    ("digit-classes", "Digit classes", 1.5),
    ("sandwich", "Sandwich", 1.5),
    ("x-sum", "X-sum", 1.5),
    ("naked-single", "Naked single", 2.3),
    ("pointing", "Pointing", 2.6),
    ("claiming", "Claiming", 2.8),
    ("innies-outies", "Innies and outies", 2.8),
    ("naked-pair", "Naked pair", 3.0),
    ("x-wing", "X-Wing", 3.2),
    ("hidden-pair", "Hidden pair", 3.4),
    ("naked-triple", "Naked triple", 3.6),
    ("cage-combination", "Cage combination", 3.6),
    ("swordfish", "Swordfish", 3.8),
    ("hidden-triple", "Hidden triple", 4.0),
    ("turbot-fish", "Turbot fish", 4.0),
    ("xy-wing", "XY-Wing", 4.2),
    ("xyz-wing", "XYZ-Wing", 4.4),
    ("unique-rectangle-1", "Unique rectangle (type 1)", 4.5),
    ("naked-quad", "Naked quad", 5.0),
    ("jellyfish", "Jellyfish", 5.2),
    ("hidden-quad", "Hidden quad", 5.4),
    ("three-strong-links", "Three strong links", 5.4),
    ("wxyz-wing", "WXYZ-Wing", 5.5),
    ("bug-plus-one", "BUG+1", 5.6),
    ("bug-type-2", "BUG type 2", 5.7),
    ("four-strong-links", "Four strong links", 5.8),
    ("vwxyz-wing", "VWXYZ-Wing", 6.2),
    ("x-cycle", "X-cycle", 6.5),
    ("y-cycle", "Y-cycle", 6.5),
    ("uvwxyz-wing", "UVWXYZ-Wing", 6.6),
    ("x-chain", "X-chain", 6.6),
    ("xy-chain", "XY-chain", 7.0),
    ("xy-cycle", "XY-cycle", 7.0),
    ("forcing-chain", "Forcing chain", 7.0),
    ("tuvwxyz-wing", "TUVWXYZ-Wing", 7.5),
    ("nishio", "Nishio", 7.5),
    ("multiple-forcing-chains", "Multiple forcing chains", 8.0),
    ("dynamic-forcing-chains", "Dynamic forcing chains", 8.5),
    ("dynamic-forcing-chains-plus", "Dynamic forcing chains (+)", 9.0),
    ("nested-forcing-chains", "Dynamic forcing chains (+ forcing chains)", 9.5),
    ("nested-multiple-forcing-chains", "Dynamic forcing chains (+ multiple forcing chains)", 10.0),
    ("nested-dynamic-forcing-chains", "Dynamic forcing chains (+ dynamic forcing chains)", 10.5),
    ("brute-force", "Brute force", 12.0),
];

impl Technique {
    /// Every technique, easiest first; ratings never decrease along the list.
    pub const ALL: [Technique; 54] = [
        Technique::FullHouse,
        Technique::HiddenSingleBox,
        Technique::HiddenSingleLine,
        Technique::CageSum,
        Technique::NeighbourRule,
        Technique::Renban,
        Technique::Arrow,
        Technique::LittleKiller,
        Technique::BetweenLine,
        Technique::Quadruple,
        Technique::LockoutLine,
        Technique::DigitClasses,
        Technique::Sandwich,
        Technique::XSum,
        Technique::NakedSingle,
        Technique::Pointing,
        Technique::Claiming,
        Technique::InniesOuties,
        Technique::NakedPair,
        Technique::XWing,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::CageCombination,
        Technique::Swordfish,
        Technique::HiddenTriple,
        Technique::TurbotFish,
        Technique::XYWing,
        Technique::XYZWing,
        Technique::UniqueRectangle1,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::ThreeStrongLinks,
        Technique::WxyzWing,
        Technique::BugPlusOne,
        Technique::BugType2,
        Technique::FourStrongLinks,
        Technique::VwxyzWing,
        Technique::XCycle,
        Technique::YCycle,
        Technique::UvwxyzWing,
        Technique::XChain,
        Technique::XYChain,
        Technique::XYCycle,
        Technique::ForcingChain,
        Technique::TuvwxyzWing,
        Technique::Nishio,
        Technique::MultipleForcingChains,
        Technique::DynamicForcingChains,
        Technique::DynamicForcingChainsPlus,
        Technique::NestedForcingChains,
        Technique::NestedMultipleForcingChains,
        Technique::NestedDynamicForcingChains,
        Technique::BruteForce,
    ];

    /// Stable kebab-case id, as used in JSON: `"hidden-single-box"`, `"x-wing"`.
    pub fn id(self) -> &'static str {
        INFO[self as usize].0
    }

    /// Name for people: `"Hidden single (box)"`, `"X-Wing"`.
    pub fn name(self) -> &'static str {
        INFO[self as usize].1
    }

    /// Difficulty on the Sudoku Explainer scale (1.0 full house to 12.0 brute force).
    pub fn rating(self) -> f32 {
        INFO[self as usize].2
    }
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Named by its [`Technique::id`], in requests as in answers.
impl Choice for Technique {
    const KIND: &'static str = "technique";
    const ALL: &'static [Technique] = &Technique::ALL;

    fn name(self) -> &'static str {
        self.id()
    }
}

/// Serialized as its [`Technique::id`].
impl Serialize for Technique {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

/// One deduction: a technique applied to one pattern, with what it places or removes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// The cells the deduction rests on (the pattern), in the order the explanation uses.
    pub cells: Vec<Cell>,
    /// The digits it rests on.
    pub digits: Vec<Digit>,
    /// Digits placed, in row-major order.
    pub placements: Vec<Candidate>,
    /// Candidates removed, in row-major order (then by digit).
    pub eliminations: Vec<Candidate>,
    /// One sentence a person can follow, with 1-based names (`r5c6`, `row 5`, `box 5`).
    pub explanation: String,
}

/// A candidate as the techniques record it: a cell's row-major index and a digit (1 to the
/// grid's side). Ordered row-major, then by digit, the order steps list them in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct CellDigit {
    pub(crate) cell: usize,
    pub(crate) digit: u8,
}

impl CellDigit {
    /// The public 9x9 form.
    pub(crate) fn candidate(self) -> Candidate {
        Candidate { cell: Cell::at(self.cell), digit: Digit::of(self.digit) }
    }
}

/// A step as the techniques find it, before it becomes a [`Step`] (or, on other sizes, the
/// grid-size engine's step): reused from step to step so the rating path allocates only while
/// the buffers grow. Cells are row-major indexes and digits numbers, as the grid has them, so
/// one buffer serves every size. `houses` names the houses of the pattern (the grid's
/// [`super::geometry::Geometry`] indexes) and `split` where `cells` divides into two groups (the
/// cells of an ALS wing's set and its pivot), both for the explanation.
#[derive(Clone, Debug)]
pub(crate) struct Deduction {
    pub(crate) technique: Technique,
    /// The step's difficulty: its technique's rating, more for a long chain.
    pub(crate) rating: f32,
    pub(crate) cells: Vec<usize>,
    pub(crate) digits: Vec<u8>,
    pub(crate) houses: Vec<usize>,
    pub(crate) split: usize,
    pub(crate) placements: Vec<CellDigit>,
    pub(crate) eliminations: Vec<CellDigit>,
    /// A forcing chain's branches, each from its assumption to the conclusion.
    pub(crate) chains: Vec<Vec<Literal>>,
    /// The literals of `chains` a technique nested inside them found, by branch.
    pub(crate) nested: Vec<Nested>,
    /// How `cells` divides into groups, in order: the ends of strong links.
    pub(crate) groups: Vec<usize>,
    /// The variant's cage, related pair or sum group (its index in the rule set) a variant's
    /// step rests on.
    pub(crate) rule: usize,
}

impl Deduction {
    /// An empty buffer.
    pub(crate) fn new() -> Deduction {
        Deduction {
            technique: Technique::BruteForce,
            rating: Technique::BruteForce.rating(),
            cells: Vec::new(),
            digits: Vec::new(),
            houses: Vec::new(),
            split: 0,
            placements: Vec::new(),
            eliminations: Vec::new(),
            chains: Vec::new(),
            nested: Vec::new(),
            groups: Vec::new(),
            rule: 0,
        }
    }

    /// Empties the buffer for the patterns of `technique`.
    pub(crate) fn start(&mut self, technique: Technique) {
        self.technique = technique;
        self.reset();
    }

    /// Empties the buffer for another pattern of the same technique.
    pub(crate) fn reset(&mut self) {
        self.rating = self.technique.rating();
        self.cells.clear();
        self.digits.clear();
        self.houses.clear();
        self.split = 0;
        self.placements.clear();
        self.eliminations.clear();
        self.chains.clear();
        self.nested.clear();
        self.groups.clear();
        self.rule = 0;
    }

    /// Records the placement of `digit` in `cell` (a row-major index); always a finished step.
    pub(crate) fn place(&mut self, cell: usize, digit: u8) -> bool {
        self.placements.push(CellDigit { cell, digit });
        true
    }

    /// Records the removal of `digit` from every cell of `cells` (the caller passes only cells
    /// that hold it).
    pub(crate) fn eliminate<C: CellSet>(&mut self, cells: C, digit: u8) {
        self.eliminations.extend(cells.ones().map(|cell| CellDigit { cell, digit }));
    }

    /// Removes `digits` (a candidate mask) from `cell` (a row-major index) where the grid has
    /// them.
    pub(crate) fn eliminate_digits<C: CellSet>(&mut self, grid: &Grid<C>, cell: usize, digits: u32) {
        let present = grid.candidates(cell) & digits;
        self.eliminations.extend(super::grid::digits(present).map(|digit| CellDigit { cell, digit }));
    }

    /// Ends a pattern: sorts its eliminations row-major and tells whether it removes anything,
    /// i.e. whether it is a step at all.
    pub(crate) fn finish(&mut self) -> bool {
        self.eliminations.sort_unstable();
        self.eliminations.dedup();
        !self.eliminations.is_empty()
    }

    /// Records the pattern's cells (row-major indexes).
    pub(crate) fn add_cells(&mut self, cells: impl IntoIterator<Item = usize>) {
        self.cells.extend(cells);
    }

    /// Records the pattern's digits.
    pub(crate) fn add_digits(&mut self, digits: impl IntoIterator<Item = u8>) {
        self.digits.extend(digits);
    }

    /// Records the pattern's cells, taken from `house` by position mask (bit `i` for the
    /// house's `i`-th cell, as [`Grid::positions`] gives them).
    pub(crate) fn add_house_cells<C: CellSet>(&mut self, grid: &Grid<C>, house: usize, positions: u32) {
        let members = grid.geometry().members(house);
        self.cells.extend(ones(u128::from(positions)).map(|i| usize::from(members[i])));
    }
}

/// The rating of a chain step: its technique's `base`, plus 0.1 each time its `length` (the
/// literals its conclusion rests on, assumption and conclusion included) passes a step of
/// Sudoku Explainer's scale. Less the two ends, a chain up to 4 adds nothing, then the steps
/// grow by turns by half and by a third: 6, 8, 12, 16, 24, 32, 48 and so on.
pub(crate) fn chain_rating(base: f32, length: usize) -> f32 {
    let inner = length.saturating_sub(2);
    let (mut ceiling, mut added, mut by_half) = (4, 0, true);
    while inner > ceiling {
        added += 1;
        ceiling = if by_half { ceiling * 3 / 2 } else { ceiling * 4 / 3 };
        by_half = !by_half;
    }
    ((base * 10.0).round() + added as f32) / 10.0
}

/// Joins words as people do: `a`, `a and b`, `a, b and c`.
pub(crate) fn join(words: impl IntoIterator<Item = String>, last_joiner: &str) -> String {
    let words: Vec<String> = words.into_iter().collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} {last_joiner} {last}", rest.join(", ")),
    }
}

/// `r1c1, r1c2 and r3c3`.
pub(crate) fn cell_list<C: CellSet>(geometry: &Geometry<C>, cells: impl IntoIterator<Item = usize>) -> String {
    join(cells.into_iter().map(|cell| geometry.cell_name(cell)), "and")
}

/// The cells of a deduction's eliminations, each once, `r1c1 and r2c2`.
pub(crate) fn eliminated_cells<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let mut cells: Vec<usize> = deduction.eliminations.iter().map(|candidate| candidate.cell).collect();
    cells.dedup();
    cell_list(geometry, cells)
}

/// `4, 7 and 9` (`joiner` "and") or `4 or 7`, in the grid's symbols (`A` for 10).
pub(crate) fn digit_list(digits: impl IntoIterator<Item = u8>, joiner: &str) -> String {
    join(digits.into_iter().map(|digit| symbol(digit).to_string()), joiner)
}

/// A digit in the grid's symbols: `5`, `G`.
pub(crate) fn symbol(digit: u8) -> char {
    sudokud_model::shape::symbol(digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_ratings_never_decrease() {
        for pair in Technique::ALL.windows(2) {
            assert!(pair[0].rating() <= pair[1].rating(), "{:?} {:?}", pair[0], pair[1]);
            assert!(pair[0] < pair[1]);
        }
        let mut ids: Vec<&str> = Technique::ALL.iter().map(|technique| technique.id()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), Technique::ALL.len());
        assert_eq!(serde_json::to_string(&Technique::XWing).unwrap(), "\"x-wing\"");
    }

    #[test]
    fn names_are_one_based() {
        assert_eq!(cell_list(Geometry::classic(), [4 * 9 + 5, 80]), "r5c6 and r9c9");
        assert_eq!(CellDigit { cell: 80, digit: 3 }.candidate().to_string(), "r9c9=3");
        assert_eq!(digit_list([1, 4, 8], "and"), "1, 4 and 8");
        assert_eq!(digit_list([1, 4], "or"), "1 or 4");
        assert_eq!(digit_list([9, 10, 16, 25], "and"), "9, A, G and P");
        let json = serde_json::to_string(&CellDigit { cell: 10, digit: 7 }.candidate()).unwrap();
        assert_eq!(json, r#"{"row":1,"col":1,"digit":7}"#);
    }
}

//! Human-style rating of grids of every size: the techniques of the 9x9 logic engine
//! ([`crate::logic`]) that rest on houses and peers alone (full house, hidden and naked singles,
//! pointing and claiming, naked and hidden pairs, triples and quads, X-Wing, swordfish and
//! jellyfish, the XY-Wing, X-chains and XY-chains in `chains`), taken easiest first one step at a
//! time as there, with the same ratings and levels.
//!
//! The XYZ- and ALS wings, uniqueness and forcing chains are not applied here yet, so a grid that needs
//! one of them takes a harder technique or a brute-force step, where the 9x9 engine might rate it
//! lower. On a 9x9 grid the two engines agree whenever the 9x9 path uses none of those.
//!
//! Every technique here only ever removes candidates that cannot be the answer, and each stays
//! applicable as more candidates go, so whether a grid is solved within a level does not depend on
//! the order steps are found in: generation can ask it of every blanking.

use std::ops::ControlFlow;

use serde::Serialize;

pub use crate::position::{GridCandidate, GridCell};
use sudokud_model::grid::Grid;
use sudokud_model::layout::Layout;
use sudokud_model::marks::Marks;
mod chains;

use crate::interrupt::{Interrupt, Interrupted};
use crate::logic::step::join;
use crate::logic::{Cut, Level, Rating, Technique};
use crate::rules::Unit;
use sudokud_model::family::cages::{MAX_SUM_CELLS, sum_support};
use sudokud_model::shape::{Shape, symbol};
use sudokud_model::variant::Variant;

/// The techniques applied here, easiest first (the order of [`Technique::ALL`]); the cage sum,
/// the neighbour rule and innies and outies only find anything on a variant's grid.
pub const TECHNIQUES: [Technique; 23] = [
    Technique::FullHouse,
    Technique::HiddenSingleBox,
    Technique::HiddenSingleLine,
    Technique::CageSum,
    Technique::NeighbourRule,
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
    Technique::XYWing,
    Technique::NakedQuad,
    Technique::Jellyfish,
    Technique::HiddenQuad,
    Technique::XChain,
    Technique::XYChain,
    Technique::BruteForce,
];

/// How hard `puzzle` is for a person, by the hardest technique its easiest-first path takes.
/// `solution` must be its one solution (brute-force steps copy from it).
pub fn rate(puzzle: &Grid, solution: &Grid, interrupt: &mut impl Interrupt) -> Result<Rating, Interrupted> {
    rate_in(Book::of(puzzle), puzzle, None, solution, interrupt)
}

/// [`rate`] under `book`'s houses and rules, from a player's `marks` when given.
pub(crate) fn rate_in(
    book: Book<'_>,
    puzzle: &Grid,
    marks: Option<&Marks>,
    solution: &Grid,
    interrupt: &mut impl Interrupt,
) -> Result<Rating, Interrupted> {
    let path = run(book, puzzle, marks, solution, Level::Extreme, interrupt, |_, _, _| ControlFlow::Continue(()));
    Ok(path?.0)
}

/// [`rate_in`] until `interrupt` stops it: interrupted, the rating is the lower bound reached,
/// not [`Rating::exact`] (as [`crate::logic`]'s for 9x9).
pub(crate) fn rate_until_in(
    book: Book<'_>,
    puzzle: &Grid,
    marks: Option<&Marks>,
    solution: &Grid,
    interrupt: &mut impl Interrupt,
) -> Rating {
    match run(book, puzzle, marks, solution, Level::Extreme, interrupt, |_, _, _| ControlFlow::Continue(())) {
        Ok((rating, ..)) => rating,
        Err(Cut(bound)) => bound,
    }
}

/// [`rate`] for puzzles up to `level`: `None` as soon as the path needs a technique rated above
/// it, which is then never tried.
pub fn rate_within(
    puzzle: &Grid,
    solution: &Grid,
    level: Level,
    interrupt: &mut impl Interrupt,
) -> Result<Option<Rating>, Interrupted> {
    let (rating, within, _) =
        run(Book::of(puzzle), puzzle, None, solution, level, interrupt, |_, _, _| ControlFlow::Continue(()))?;
    Ok(within.then_some(rating))
}

/// The steps a person takes up to and including the next placement, as
/// [`crate::logic::steps_to_next_placement`] gives them for 9x9; empty for a complete grid.
pub fn steps_to_next_placement(
    puzzle: &Grid,
    solution: &Grid,
    interrupt: &mut impl Interrupt,
) -> Result<Vec<GridStep>, Interrupted> {
    steps_to_next_placement_in(Book::of(puzzle), puzzle, None, solution, interrupt)
}

/// [`steps_to_next_placement`] under `book`'s houses and rules, from a player's `marks` when
/// given.
pub(crate) fn steps_to_next_placement_in(
    book: Book<'_>,
    puzzle: &Grid,
    marks: Option<&Marks>,
    solution: &Grid,
    interrupt: &mut impl Interrupt,
) -> Result<Vec<GridStep>, Interrupted> {
    let mut steps = Vec::new();
    run(book, puzzle, marks, solution, Level::Extreme, interrupt, |pencil, technique, step| {
        steps.push(pencil.describe(technique, step));
        if step.placements.is_empty() { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
    })?;
    Ok(steps)
}

/// Every step from `puzzle` to `solution`, the rating of the path and the grid it ends on (the
/// solution, when logic and brute force complete it), as [`crate::logic::explain`] for 9x9.
pub fn explain(
    puzzle: &Grid,
    solution: &Grid,
    interrupt: &mut impl Interrupt,
) -> Result<(Vec<GridStep>, Rating, Grid), Interrupted> {
    explain_in(Book::of(puzzle), puzzle, None, solution, interrupt)
}

/// [`explain`] under `book`'s houses and rules, from a player's `marks` when given.
pub(crate) fn explain_in(
    book: Book<'_>,
    puzzle: &Grid,
    marks: Option<&Marks>,
    solution: &Grid,
    interrupt: &mut impl Interrupt,
) -> Result<(Vec<GridStep>, Rating, Grid), Interrupted> {
    let mut steps = Vec::new();
    let (rating, _, pencil) =
        run(book, puzzle, marks, solution, Level::Extreme, interrupt, |pencil, technique, step| {
            steps.push(pencil.describe(technique, step));
            ControlFlow::Continue(())
        })?;
    let end = Grid::new(puzzle.shape(), pencil.values).expect("the pencil holds values 0 to N");
    Ok((steps, rating, end))
}

/// The candidates a person pencils in before any technique: in each blank cell of `puzzle`
/// every value `book` allows there that no peer holds.
pub(crate) fn basic_marks(book: Book<'_>, puzzle: &Grid) -> Marks {
    let pencil = Pencil::new(puzzle, book);
    Marks::new(pencil.shape, pencil.candidates)
}

/// A 9x9 engine's step in the form of every size's: the same JSON.
impl From<crate::logic::Step> for GridStep {
    fn from(step: crate::logic::Step) -> GridStep {
        let cell = |cell: crate::position::Cell| GridCell { row: cell.row().into(), col: cell.col().into() };
        let candidate = |found: crate::position::Candidate| GridCandidate {
            row: found.cell.row().into(),
            col: found.cell.col().into(),
            digit: found.digit.get(),
        };
        GridStep {
            technique: step.technique,
            cells: step.cells.into_iter().map(cell).collect(),
            digits: step.digits.into_iter().map(|digit| digit.get()).collect(),
            placements: step.placements.into_iter().map(candidate).collect(),
            eliminations: step.eliminations.into_iter().map(candidate).collect(),
            explanation: step.explanation,
        }
    }
}

/// One deduction on a grid of any size, with the members and JSON of the 9x9 engine's
/// [`crate::logic::Step`]: values as numbers, names in the sentence 1-based and values there in
/// the grid's symbols (`r12c3 = G`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GridStep {
    /// The technique used.
    pub technique: Technique,
    /// The cells the deduction rests on (the pattern).
    pub cells: Vec<GridCell>,
    /// The values it rests on.
    pub digits: Vec<u8>,
    /// Values placed.
    pub placements: Vec<GridCandidate>,
    /// Candidates removed, in row-major order (then by value).
    pub eliminations: Vec<GridCandidate>,
    /// One sentence a person can follow.
    pub explanation: String,
}

/// Whether the techniques up to `level` solve `puzzle`, which then has exactly one solution: what
/// generation asks of every blanking. Singles are placed all at once per scan rather than one per
/// step, which gives the same answer (see the module), fast enough for 25x25 grids.
pub fn solves_within(puzzle: &Grid, level: Level, interrupt: &mut impl Interrupt) -> Result<bool, Interrupted> {
    solves_within_in(Book::of(puzzle), puzzle, level, &[], interrupt)
}

/// [`solves_within`] under `book`'s houses and rules, for a `puzzle` whose cells `just_blanked`
/// (when not empty) held the solution's values in a grid these techniques solve. It is solved
/// as soon as they are placed again: the grid then holds every value the one before did, with
/// at most its candidates, and the techniques stay applicable as candidates go (see the
/// module), so they finish it as they finished that one. Generation blanks a cell at a time, and
/// most of a blanking's check ends here, a few steps in.
pub(crate) fn solves_within_in(
    book: Book<'_>,
    puzzle: &Grid,
    level: Level,
    just_blanked: &[usize],
    interrupt: &mut impl Interrupt,
) -> Result<bool, Interrupted> {
    let mut pencil = Pencil::new(puzzle, book);
    let mut step = Step::default();
    let harder: Vec<Technique> = TECHNIQUES
        .into_iter()
        .skip_while(|&technique| technique <= Technique::NakedSingle)
        .take_while(|&technique| technique != Technique::BruteForce && technique.rating() <= level.range().1)
        .collect();
    while pencil.blanks > 0 {
        if interrupt.should_stop() {
            return Err(Interrupted);
        }
        step.clear();
        pencil.singles(&mut step);
        if step.placements.is_empty() && !harder.iter().any(|&technique| pencil.find(technique, &mut step)) {
            return Ok(false);
        }
        if !pencil.apply(&step) {
            // Two singles for one cell: a contradiction no proper puzzle leads to.
            return Ok(false);
        }
        if !just_blanked.is_empty() && just_blanked.iter().all(|&cell| pencil.values[cell] != 0) {
            return Ok(true);
        }
    }
    Ok(true)
}

/// The path up to `ceiling` from `puzzle`, or from a player's `marks` of it when given: its
/// rating, whether it stayed within the ceiling, and the grid it ended on. `on_step` sees each
/// step before it is applied, and may end the path there.
fn run<'a>(
    book: Book<'a>,
    puzzle: &Grid,
    marks: Option<&Marks>,
    solution: &Grid,
    ceiling: Level,
    interrupt: &mut impl Interrupt,
    mut on_step: impl FnMut(&Pencil<'a>, Technique, &Step) -> ControlFlow<()>,
) -> Result<(Rating, bool, Pencil<'a>), Cut> {
    let mut pencil = Pencil::new(puzzle, book);
    if let Some(marks) = marks {
        pencil.keep_only(marks);
    }
    let mut step = Step::default();
    let mut counts = [0u32; Technique::ALL.len()];
    let mut within = true;
    let allowed = TECHNIQUES.iter().copied().take_while(|technique| technique.rating() <= ceiling.range().1);
    let allowed: Vec<Technique> = allowed.collect();
    while pencil.blanks > 0 {
        if interrupt.should_stop() {
            // Polled between steps, the bound is the hardest step taken.
            return Err(Cut(Rating::at_least(&counts, Rating::of_path(&counts, false).rating, 0.0)));
        }
        step.clear();
        let found = |technique: Technique, step: &mut Step| match technique {
            Technique::BruteForce => pencil.brute_force(solution, step),
            _ => pencil.find(technique, step),
        };
        let Some(&technique) = allowed.iter().find(|&&technique| found(technique, &mut step)) else {
            within = false;
            break;
        };
        let stop = on_step(&pencil, technique, &step).is_break();
        if !pencil.apply(&step) {
            // Only a grid no proper puzzle leads to (a solution that contradicts it) gets here.
            within = false;
            break;
        }
        counts[technique as usize] += 1;
        if stop {
            break;
        }
    }
    Ok((Rating::of_path(&counts, pencil.blanks == 0), within, pencil))
}

/// What one step does, values placed and candidates removed as (cell, value), and the pattern
/// it rests on, for its explanation: its houses (the base houses first), cells and values.
#[derive(Debug, Default, PartialEq)]
struct Step {
    placements: Vec<(usize, u8)>,
    eliminations: Vec<(usize, u8)>,
    houses: Vec<usize>,
    cells: Vec<usize>,
    values: Vec<u8>,
    /// The variant's cage or pair (its index) a cage-sum or neighbour-rule step rests on.
    rule: usize,
}

impl Step {
    fn clear(&mut self) {
        self.placements.clear();
        self.eliminations.clear();
        self.houses.clear();
        self.cells.clear();
        self.values.clear();
        self.rule = 0;
    }

    /// Records a placement and its pattern: the house it was found in, if any.
    fn place(&mut self, house: Option<usize>, cell: usize, value: u8) -> bool {
        self.houses.extend(house);
        self.cells.push(cell);
        self.values.push(value);
        self.placements.push((cell, value));
        true
    }
}

/// The most open cells of innies or outies the logic adds up: more take a person too long, and
/// the ways of filling them grow as N to that power.
const MAX_OPEN_INNIES: usize = 4;

/// The most open cells whose ways of making a sum the logic lists (a cage's, or innies').
const MAX_OPEN_SUM: usize = MAX_SUM_CELLS;

/// The bit of value `value` (1 to N) in a candidate set.
const fn bit(value: u8) -> u32 {
    1 << (value - 1)
}

/// The indices of the bits of `set`, smallest first: positions in a house, lines of a grid.
fn bits(mut set: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let index = set.trailing_zeros() as usize;
            set &= set - 1;
            index
        })
    })
}

/// The values of a candidate set, smallest first.
fn values(set: u32) -> impl Iterator<Item = u8> {
    bits(set).map(|index| index as u8 + 1)
}

/// Which kind of line or box a classic grid's locked candidates start from: rows, columns and
/// boxes are houses `0..N`, `N..2N` and `2N..3N`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Row,
    Column,
    Box,
}

/// The houses, peers and other rules the logic reads: a shape's rows, columns and boxes, or a
/// variant's houses (its rows and columns first, then its boxes or regions, diagonals and extra
/// regions), peers, cages and pairs.
#[derive(Clone, Copy)]
pub(crate) enum Book<'a> {
    Classic(&'static Layout),
    Variant(&'a Variant),
}

impl<'a> Book<'a> {
    /// The classic rules of `puzzle`'s shape.
    pub(crate) fn of(puzzle: &Grid) -> Book<'static> {
        Book::Classic(Layout::of(puzzle.shape()))
    }

    fn house_count(self, size: usize) -> usize {
        match self {
            Book::Classic(_) => 3 * size,
            Book::Variant(variant) => variant.house_units.len(),
        }
    }

    fn house(self, house: usize) -> &'a [u16] {
        match self {
            Book::Classic(layout) => layout.house(house),
            Book::Variant(variant) => variant.house(house),
        }
    }

    fn peers(self, cell: usize) -> &'a [u16] {
        match self {
            Book::Classic(layout) => layout.peers(cell),
            Book::Variant(variant) => variant.peers(cell),
        }
    }

    /// What kind of house `house` is.
    fn unit(self, house: usize, size: usize) -> Unit {
        match self {
            Book::Classic(_) => [Unit::Row, Unit::Column, Unit::Box][house / size],
            Book::Variant(variant) => variant.house_units[house],
        }
    }

    /// Whether `cell` is in `house`.
    fn contains(self, house: usize, cell: usize) -> bool {
        match self {
            Book::Classic(layout) => layout.houses_of(cell) >> house & 1 == 1,
            // Not `<[u16]>::contains`: since the rule set lives in the model crate, the build
            // stopped inlining that generic here (29 % of a killer's generation under callgrind).
            Book::Variant(variant) => variant.houses_of(cell).iter().any(|&of| usize::from(of) == house),
        }
    }
}

/// A grid with its candidates: what a person pencils in.
struct Pencil<'a> {
    size: usize,
    shape: Shape,
    book: Book<'a>,
    values: Vec<u8>,
    /// Per cell, the values still possible (empty for a filled cell).
    candidates: Vec<u32>,
    blanks: usize,
}

impl<'a> Pencil<'a> {
    /// The puzzle's givens placed, every candidate left that the book allows (an even cell
    /// starts with the even values: a person reads that off the board).
    fn new(puzzle: &Grid, book: Book<'a>) -> Pencil<'a> {
        let size = puzzle.size();
        let all = (1u32 << size) - 1;
        let candidates = match book {
            Book::Classic(_) => vec![all; size * size],
            Book::Variant(variant) => variant.allowed.clone(),
        };
        let mut pencil =
            Pencil { size, shape: puzzle.shape(), book, values: vec![0; size * size], candidates, blanks: size * size };
        for (cell, &value) in puzzle.cells().iter().enumerate() {
            if value != 0 {
                pencil.place(cell, value);
            }
        }
        pencil
    }

    /// Leaves each blank cell only the candidates the player's `marks` keep too.
    fn keep_only(&mut self, marks: &Marks) {
        for (cell, candidates) in self.candidates.iter_mut().enumerate() {
            *candidates &= marks.set(cell);
        }
    }

    /// The houses, in order.
    fn houses(&self) -> std::ops::Range<usize> {
        0..self.book.house_count(self.size)
    }

    /// Whether `house` is a row or a column.
    fn is_line(&self, house: usize) -> bool {
        matches!(self.book.unit(house, self.size), Unit::Row | Unit::Column)
    }

    /// Places `value` in `cell` and removes it from the cell's peers; false if the cell was filled.
    fn place(&mut self, cell: usize, value: u8) -> bool {
        if self.values[cell] != 0 {
            return false;
        }
        self.values[cell] = value;
        self.candidates[cell] = 0;
        self.blanks -= 1;
        for &peer in self.book.peers(cell) {
            self.candidates[usize::from(peer)] &= !bit(value);
        }
        true
    }

    fn apply(&mut self, step: &Step) -> bool {
        let mut changed = false;
        for &(cell, value) in &step.placements {
            changed |= self.place(cell, value);
        }
        for &(cell, value) in &step.eliminations {
            changed |= self.candidates[cell] & bit(value) != 0;
            self.candidates[cell] &= !bit(value);
        }
        changed
    }

    /// Finds the first step of `technique` (any but brute force) into `step`; false when there
    /// is none.
    fn find(&self, technique: Technique, step: &mut Step) -> bool {
        match technique {
            Technique::FullHouse => self.full_house(step),
            Technique::HiddenSingleBox => self.hidden_single(false, step),
            Technique::HiddenSingleLine => self.hidden_single(true, step),
            Technique::CageSum => self.cage_sum(step),
            Technique::NeighbourRule => self.neighbour_rule(step),
            Technique::NakedSingle => self.naked_single(step),
            Technique::Pointing => match self.book {
                Book::Classic(_) => self.locked(Kind::Box, step),
                Book::Variant(_) => self.locked_in_any(false, step),
            },
            Technique::Claiming => match self.book {
                Book::Classic(_) => self.locked(Kind::Row, step) || self.locked(Kind::Column, step),
                Book::Variant(_) => self.locked_in_any(true, step),
            },
            Technique::InniesOuties => self.innies_outies(step),
            Technique::CageCombination => self.cage_combination(step),
            Technique::NakedPair => self.naked_subset(2, step),
            Technique::NakedTriple => self.naked_subset(3, step),
            Technique::NakedQuad => self.naked_subset(4, step),
            Technique::HiddenPair => self.hidden_subset(2, step),
            Technique::HiddenTriple => self.hidden_subset(3, step),
            Technique::HiddenQuad => self.hidden_subset(4, step),
            Technique::XWing => self.fish(2, step),
            Technique::Swordfish => self.fish(3, step),
            Technique::Jellyfish => self.fish(4, step),
            Technique::XYWing => self.xy_chain(3, step),
            Technique::XChain => self.x_chain(step),
            Technique::XYChain => self.xy_chain(usize::MAX, step),
            _ => false,
        }
    }

    /// The cells of `house` as indices.
    fn cells(&self, house: usize) -> impl Iterator<Item = usize> + 'a {
        self.book.house(house).iter().map(|&cell| usize::from(cell))
    }

    /// The values placed in `house`.
    fn placed(&self, house: usize) -> u32 {
        self.cells(house).filter(|&cell| self.values[cell] != 0).fold(0, |set, cell| set | bit(self.values[cell]))
    }

    /// Per value of `house` (bit `v - 1` of the index), the positions in the house that may hold it.
    fn positions(&self, house: usize) -> [u32; crate::sizes::MAX_SIZE] {
        let mut positions = [0u32; crate::sizes::MAX_SIZE];
        for (position, cell) in self.cells(house).enumerate() {
            for value in values(self.candidates[cell]) {
                positions[usize::from(value - 1)] |= 1 << position;
            }
        }
        positions
    }

    /// Every naked and hidden single of the grid at once (a full house is both).
    fn singles(&self, step: &mut Step) {
        for (cell, &set) in self.candidates.iter().enumerate() {
            if set.count_ones() == 1 {
                step.placements.push((cell, set.trailing_zeros() as u8 + 1));
            }
        }
        for house in self.houses() {
            let (mut once, mut twice) = (0u32, 0u32);
            for cell in self.cells(house) {
                twice |= once & self.candidates[cell];
                once |= self.candidates[cell];
            }
            for value in values(once & !twice) {
                let cell = self.cells(house).find(|&cell| self.candidates[cell] & bit(value) != 0);
                step.placements.push((cell.expect("a value seen once has a cell"), value));
            }
        }
    }

    fn full_house(&self, step: &mut Step) -> bool {
        let all = (1u32 << self.size) - 1;
        for house in self.houses() {
            let mut blanks = self.cells(house).filter(|&cell| self.values[cell] == 0);
            if let (Some(cell), None) = (blanks.next(), blanks.next()) {
                let missing = all & !self.placed(house);
                if missing.count_ones() == 1 {
                    return step.place(Some(house), cell, missing.trailing_zeros() as u8 + 1);
                }
            }
        }
        false
    }

    /// A value with one place left in a row or column (`lines`), or in a box or another house.
    fn hidden_single(&self, lines: bool, step: &mut Step) -> bool {
        for house in self.houses().filter(|&house| self.is_line(house) == lines) {
            // Values seen once and values seen twice or more, one pass over the house.
            let (mut once, mut twice) = (0u32, 0u32);
            for cell in self.cells(house) {
                twice |= once & self.candidates[cell];
                once |= self.candidates[cell];
            }
            let single = once & !twice;
            if single != 0 {
                let value = single.trailing_zeros() as u8 + 1;
                let cell = self.cells(house).find(|&cell| self.candidates[cell] & bit(value) != 0);
                return step.place(Some(house), cell.expect("a value seen once has a cell"), value);
            }
        }
        false
    }

    fn naked_single(&self, step: &mut Step) -> bool {
        let cell = self.candidates.iter().position(|set| set.count_ones() == 1);
        cell.is_some_and(|cell| step.place(None, cell, self.candidates[cell].trailing_zeros() as u8 + 1))
    }

    /// Pointing (`base` the boxes: a value's places in a box all in one line) or claiming (`base`
    /// rows or columns: a value's places in a line all in one box): the value leaves the other
    /// house's cells outside the base house. The first such step in the order of the base
    /// houses, their values, then the other houses.
    ///
    /// Every line's candidates are first gathered per box it crosses, in one pass over the grid,
    /// so a base house's values and where they lie are a few ORs: generating a large puzzle asks
    /// this question after every step of every trial blanking.
    fn locked(&self, base: Kind, step: &mut Step) -> bool {
        let (n, shape) = (self.size, self.shape);
        let (box_rows, box_cols) = (shape.box_rows(), shape.box_cols());
        // `rows[row][k]`: the row's candidates in the k-th box it crosses (box_rows of them);
        // `cols[col][k]` the same for a column (box_cols boxes).
        let mut rows = [[0u32; 5]; crate::sizes::MAX_SIZE];
        let mut cols = [[0u32; 5]; crate::sizes::MAX_SIZE];
        for row in 0..n {
            for col in 0..n {
                let candidates = self.candidates[row * n + col];
                rows[row][col / box_cols] |= candidates;
                cols[col][row / box_rows] |= candidates;
            }
        }
        // The values found in exactly one of `segments`.
        let confined = |segments: &[u32]| {
            let (once, twice) =
                segments.iter().fold((0u32, 0u32), |(once, twice), &segment| (once | segment, twice | once & segment));
            once & !twice
        };
        let others = |segments: &[u32], index: usize| {
            segments
                .iter()
                .enumerate()
                .filter(|&(other, _)| other != index)
                .fold(0, |union, (_, &segment)| union | segment)
        };
        let houses = match base {
            Kind::Row => 0..n,
            Kind::Column => n..2 * n,
            Kind::Box => 2 * n..3 * n,
        };
        for house in houses {
            // Per value, the crossing house its places lie in, if one, and whether that house
            // has it elsewhere; rows before columns, as the houses are numbered.
            let mut found = None;
            match base {
                Kind::Box => {
                    let number = house - 2 * n;
                    let (top, left) = (number / box_rows * box_rows, number % box_rows * box_cols);
                    let (stack, band) = (left / box_cols, top / box_rows);
                    let (mut in_rows, mut in_cols) = ([0u32; 5], [0u32; 5]);
                    (0..box_rows).for_each(|index| in_rows[index] = rows[top + index][stack]);
                    (0..box_cols).for_each(|index| in_cols[index] = cols[left + index][band]);
                    let (in_rows, in_cols) = (&in_rows[..box_rows], &in_cols[..box_cols]);
                    let (row_bound, col_bound) = (confined(in_rows), confined(in_cols));
                    'values: for value in values(row_bound | col_bound) {
                        let lines = [(row_bound, in_rows, top, 0), (col_bound, in_cols, left, n)];
                        for (bound, segments, first, offset) in lines {
                            if bound & bit(value) == 0 {
                                continue;
                            }
                            let index = segments.iter().position(|&segment| segment & bit(value) != 0).expect("bound");
                            let line = first + index;
                            let outside = if offset == 0 { &rows[line][..box_rows] } else { &cols[line][..box_cols] };
                            let along = if offset == 0 { stack } else { band };
                            if others(outside, along) & bit(value) != 0 {
                                found = Some((value, offset + line));
                                break 'values;
                            }
                        }
                    }
                }
                Kind::Row | Kind::Column => {
                    // A row crosses box_rows boxes and its band has box_rows rows; a column crosses
                    // box_cols boxes and its stack has box_cols columns.
                    let (line, segments, across) = if base == Kind::Row {
                        (house, &rows[house][..box_rows], box_rows)
                    } else {
                        (house - n, &cols[house - n][..box_cols], box_cols)
                    };
                    let bound = confined(segments);
                    for value in values(bound) {
                        let index = segments.iter().position(|&segment| segment & bit(value) != 0).expect("bound");
                        // The box's other lines of the same direction, in that box.
                        let first = line - line % across;
                        let box_lines = (first..first + across).filter(|&other| other != line);
                        let elsewhere = box_lines.fold(0, |union, other| {
                            union | if base == Kind::Row { rows[other][index] } else { cols[other][index] }
                        });
                        if elsewhere & bit(value) != 0 {
                            let (row, col) =
                                if base == Kind::Row { (line, index * box_cols) } else { (index * box_rows, line) };
                            found = Some((value, 2 * n + shape.box_of(row, col)));
                            break;
                        }
                    }
                }
            }
            let Some((value, other)) = found else { continue };
            for cell in self.cells(other) {
                if !self.book.contains(house, cell) && self.candidates[cell] & bit(value) != 0 {
                    step.eliminations.push((cell, value));
                }
            }
            step.houses.extend([house, other]);
            step.cells.extend(self.cells(house).filter(|&cell| self.candidates[cell] & bit(value) != 0));
            step.values.push(value);
            return true;
        }
        false
    }

    /// Locked candidates in any houses of a variant: a value's places in a base house (a row or
    /// column when `lines`, else a box, region, diagonal or extra region) all lie in another
    /// house, which loses the value outside the base. The first in the order of the base houses,
    /// their values, then the other houses.
    fn locked_in_any(&self, lines: bool, step: &mut Step) -> bool {
        for base in self.houses().filter(|&house| self.is_line(house) == lines) {
            for value in 1..=self.size as u8 {
                let mut places = self.cells(base).filter(|&cell| self.candidates[cell] & bit(value) != 0);
                let Some(first) = places.next() else { continue };
                let places: Vec<usize> = std::iter::once(first).chain(places).collect();
                for other in self.houses().filter(|&other| other != base && self.book.contains(other, first)) {
                    if !places.iter().all(|&cell| self.book.contains(other, cell)) {
                        continue;
                    }
                    let outside = self.cells(other).filter(|&cell| !self.book.contains(base, cell));
                    step.eliminations.extend(
                        outside.filter(|&cell| self.candidates[cell] & bit(value) != 0).map(|cell| (cell, value)),
                    );
                    if !step.eliminations.is_empty() {
                        step.houses.extend([base, other]);
                        step.cells.extend(places);
                        step.values.push(value);
                        return true;
                    }
                }
            }
        }
        false
    }

    /// A variant's cage whose open cells hold a candidate no digit set making its sum has.
    fn cage_sum(&self, step: &mut Step) -> bool {
        let Book::Variant(variant) = self.book else { return false };
        for (number, cage) in variant.cages.iter().enumerate() {
            let (mut placed, mut placed_sum, mut open, mut open_count) = (0u32, 0u32, 0u32, 0u32);
            for &cell in &cage.cells {
                let (value, candidates) = (self.values[usize::from(cell)], self.candidates[usize::from(cell)]);
                if value != 0 {
                    placed |= bit(value);
                    placed_sum += u32::from(value);
                } else {
                    open |= candidates;
                    open_count += 1;
                }
            }
            // A cage that can no longer make its sum: only a wrong grid gets here, and no
            // step of this technique explains it.
            let Some(allowed) = cage.open_digits(self.size as u32, placed, placed_sum, open, open_count) else {
                continue;
            };
            for &cell in &cage.cells {
                let cell = usize::from(cell);
                values(self.candidates[cell] & !allowed).for_each(|value| step.eliminations.push((cell, value)));
            }
            if !step.eliminations.is_empty() {
                step.cells.extend(cage.cells.iter().map(|&cell| usize::from(cell)));
                step.values.extend(values(allowed));
                step.rule = number;
                return true;
            }
        }
        false
    }

    /// A variant's pair of touching cells (a thermometer's step, a Kropki dot, non-consecutive
    /// neighbours) where one cell holds a candidate the other's candidates all rule out.
    fn neighbour_rule(&self, step: &mut Step) -> bool {
        let Book::Variant(variant) = self.book else { return false };
        for (number, pair) in variant.pairs.iter().enumerate() {
            let (first, second) = (usize::from(pair.first), usize::from(pair.second));
            let known =
                |cell: usize| if self.values[cell] != 0 { bit(self.values[cell]) } else { self.candidates[cell] };
            let relation = variant.relation(pair);
            let onto_second = relation.support(known(first), false);
            let onto_first = relation.support(known(second), true);
            for (cell, support) in [(second, onto_second), (first, onto_first)] {
                let lost = self.candidates[cell] & !support;
                if lost != 0 {
                    step.eliminations.extend(values(lost).map(|value| (cell, value)));
                    step.cells.extend([first, second]);
                    step.rule = number;
                    return true;
                }
            }
        }
        false
    }

    /// A variant's innies or outies ([`crate::variants`]' sum groups) with at most
    /// [`MAX_OPEN_INNIES`] open cells, one of which holds a candidate no way of making their sum
    /// uses; a placement when one cell is open.
    fn innies_outies(&self, step: &mut Step) -> bool {
        let Book::Variant(variant) = self.book else { return false };
        for (number, group) in variant.sum_groups.iter().enumerate() {
            let Some((open, count, left)) = self.open_sum(&group.cells, group.sum, MAX_OPEN_INNIES) else { continue };
            let open = &open[..count];
            let (support, _) = self.sum_support(open, left);
            // No way at all: only a wrong grid gets here.
            if open.is_empty() || support[..count].contains(&0) {
                continue;
            }
            if let [cell] = open {
                step.placements.push((*cell, left as u8));
                step.values.push(left as u8);
            } else {
                for (&cell, &support) in open.iter().zip(&support) {
                    values(self.candidates[cell] & !support).for_each(|value| step.eliminations.push((cell, value)));
                }
                if step.eliminations.is_empty() {
                    continue;
                }
            }
            step.houses.extend(group.houses.iter().map(|&house| usize::from(house)));
            step.cells.extend(group.cells.iter().map(|&cell| usize::from(cell)));
            step.rule = number;
            return true;
        }
        false
    }

    /// The open cells of `cells`, whose digits add up to `sum`, with how many there are and what
    /// they add up to; `None` past `most` open cells, or when the placed digits exceed the sum.
    fn open_sum(&self, cells: &[u16], sum: u32, most: usize) -> Option<([usize; MAX_OPEN_SUM], usize, u32)> {
        let (mut open, mut count, mut left) = ([0usize; MAX_OPEN_SUM], 0, sum);
        for &cell in cells {
            let cell = usize::from(cell);
            match self.values[cell] {
                0 if count == most => return None,
                0 => {
                    open[count] = cell;
                    count += 1;
                }
                value => left = left.checked_sub(u32::from(value))?,
            }
        }
        Some((open, count, left))
    }

    /// Per cell of `open` (at most [`MAX_OPEN_SUM`]), the candidates it takes in some way of
    /// filling them all with digits adding up to `sum`, digits differing between peers; and the
    /// digits every such way uses.
    fn sum_support(&self, open: &[usize], sum: u32) -> ([u32; MAX_OPEN_SUM], u32) {
        let mut sets = [0u32; MAX_OPEN_SUM];
        // `apart[i]`: the earlier open cells that are peers of the i-th.
        let mut apart = [0u32; MAX_OPEN_SUM];
        for (index, &cell) in open.iter().enumerate() {
            sets[index] = self.candidates[cell];
            let peers = self.book.peers(cell);
            apart[index] =
                (0..index).filter(|&earlier| peers.contains(&(open[earlier] as u16))).fold(0, |set, i| set | 1 << i);
        }
        let support = sum_support(&sets[..open.len()], &apart[..open.len()], sum);
        (support.cells, support.required)
    }

    /// A variant's cage with two to [`MAX_OPEN_SUM`] open cells, its sum made in every way its
    /// cells' candidates allow, digit by digit: a candidate no way puts in its cell goes; else
    /// the digits every way uses, when the open cells share a house, leave its other cells.
    fn cage_combination(&self, step: &mut Step) -> bool {
        let Book::Variant(variant) = self.book else { return false };
        for (number, cage) in variant.cages.iter().enumerate() {
            let Some(sum) = cage.sum else { continue };
            let Some((open, count, left)) = self.open_sum(&cage.cells, sum, MAX_OPEN_SUM) else { continue };
            let open = &open[..count];
            if count < 2 {
                continue;
            }
            let (support, required) = self.sum_support(open, left);
            if support[..count].contains(&0) {
                continue;
            }
            for (&cell, &support) in open.iter().zip(&support) {
                values(self.candidates[cell] & !support).for_each(|value| step.eliminations.push((cell, value)));
            }
            if step.eliminations.is_empty() {
                let shared = self.houses().find(|&house| open.iter().all(|&cell| self.book.contains(house, cell)));
                let Some(house) = shared else { continue };
                for cell in self.cells(house).filter(|cell| !open.contains(cell)) {
                    values(self.candidates[cell] & required).for_each(|value| step.eliminations.push((cell, value)));
                }
                if step.eliminations.is_empty() {
                    continue;
                }
                step.houses.push(house);
                step.values.extend(values(required));
            }
            step.cells.extend(cage.cells.iter().map(|&cell| usize::from(cell)));
            step.rule = number;
            return true;
        }
        false
    }

    /// `size` cells of a house holding `size` values between them: the values leave the
    /// house's other cells.
    fn naked_subset(&self, size: usize, step: &mut Step) -> bool {
        for house in self.houses() {
            let (cells, sets, count) =
                subset_members(self.cells(house).map(|cell| (cell, self.candidates[cell])), size);
            let found = subsets(
                &sets[..count],
                size,
                |union| union.count_ones() as usize == size,
                |members, union| {
                    for cell in self.cells(house) {
                        let inside = members.iter().any(|&member| cells[member] == cell);
                        if !inside {
                            values(self.candidates[cell] & union)
                                .for_each(|value| step.eliminations.push((cell, value)));
                        }
                    }
                    if step.eliminations.is_empty() {
                        return false;
                    }
                    step.houses.push(house);
                    step.cells.extend(members.iter().map(|&member| cells[member]));
                    step.values.extend(values(union));
                    true
                },
            );
            if found {
                return true;
            }
        }
        false
    }

    /// `size` values of a house confined to `size` of its cells: those cells lose every other
    /// value.
    fn hidden_subset(&self, size: usize, step: &mut Step) -> bool {
        for house in self.houses() {
            let positions = self.positions(house);
            let values_places = (1..=self.size as u8).map(|value| (value, positions[usize::from(value - 1)]));
            let (candidates, sets, count) = subset_members(values_places, size);
            let cells = self.book.house(house);
            let found = subsets(
                &sets[..count],
                size,
                |union| union.count_ones() as usize == size,
                |members, union| {
                    let kept = members.iter().fold(0u32, |kept, &member| kept | bit(candidates[member]));
                    for position in bits(union) {
                        let cell = usize::from(cells[position]);
                        values(self.candidates[cell] & !kept).for_each(|value| step.eliminations.push((cell, value)));
                    }
                    if step.eliminations.is_empty() {
                        return false;
                    }
                    step.houses.push(house);
                    step.cells.extend(bits(union).map(|position| usize::from(cells[position])));
                    step.values.extend(values(kept));
                    true
                },
            );
            if found {
                return true;
            }
        }
        false
    }

    /// A value's places in `size` rows confined to `size` columns (or the other way round): the
    /// value leaves those columns' other rows.
    fn fish(&self, size: usize, step: &mut Step) -> bool {
        let n = self.size;
        for (base, cover) in [(0, n), (n, 0)] {
            // Per base line, per value, the cross lines where the value may go, found once.
            let places: Vec<[u32; crate::sizes::MAX_SIZE]> = (0..n).map(|line| self.positions(base + line)).collect();
            for value in 1..=n as u8 {
                let lines: Vec<(usize, u32)> = (0..n)
                    .map(|line| (line, places[line][usize::from(value - 1)]))
                    .filter(|&(_, places)| (2..=size as u32).contains(&places.count_ones()))
                    .collect();
                let sets: Vec<u32> = lines.iter().map(|&(_, places)| places).collect();
                let found = subsets(
                    &sets,
                    size,
                    |union| union.count_ones() as usize == size,
                    |members, union| {
                        for cross in bits(union) {
                            for (line, cell) in self.cells(cover + cross).enumerate() {
                                let in_base = members.iter().any(|&member| lines[member].0 == line);
                                if !in_base && self.candidates[cell] & bit(value) != 0 {
                                    step.eliminations.push((cell, value));
                                }
                            }
                        }
                        if step.eliminations.is_empty() {
                            return false;
                        }
                        step.houses.extend(members.iter().map(|&member| base + lines[member].0));
                        step.houses.extend(bits(union).map(|cross| cover + cross));
                        for &member in members {
                            let line = self.cells(base + lines[member].0);
                            step.cells.extend(line.filter(|&cell| self.candidates[cell] & bit(value) != 0));
                        }
                        // Row-major, as the 9x9 engine lists a fish's cells.
                        step.cells.sort_unstable();
                        step.values.push(value);
                        true
                    },
                );
                if found {
                    return true;
                }
            }
        }
        false
    }

    /// `row`, `column`, `box`, `region`, `extra region`: what kind of house `house` is.
    fn kind_name(&self, house: usize) -> &'static str {
        match self.book.unit(house, self.size) {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
            Unit::Region => "region",
            Unit::Diagonal => "diagonal",
            Unit::AntiDiagonal => "anti-diagonal",
            _ => "extra region",
        }
    }

    /// `row 3`, `column 3`, `box 3`, `region 3`, `extra region 2`, `the diagonal`: a house by its
    /// 1-based number among its kind.
    fn house_name(&self, house: usize) -> String {
        let unit = self.book.unit(house, self.size);
        if matches!(unit, Unit::Diagonal | Unit::AntiDiagonal) {
            return format!("the {}", self.kind_name(house));
        }
        let number = (0..house).filter(|&other| self.book.unit(other, self.size) == unit).count() + 1;
        format!("{} {number}", self.kind_name(house))
    }

    /// `r3c12`: a cell by its 1-based row and column.
    fn cell_name(&self, cell: usize) -> String {
        format!("r{}c{}", cell / self.size + 1, cell % self.size + 1)
    }

    fn candidate(&self, (cell, value): (usize, u8)) -> GridCandidate {
        GridCandidate { row: cell / self.size, col: cell % self.size, digit: value }
    }

    /// The step a person reads: its pattern, what it does and one sentence, worded as the 9x9
    /// engine words each technique.
    fn describe(&self, technique: Technique, step: &Step) -> GridStep {
        let mut eliminations: Vec<GridCandidate> =
            step.eliminations.iter().map(|&found| self.candidate(found)).collect();
        eliminations.sort_unstable();
        eliminations.dedup();
        let mut eliminated: Vec<usize> = eliminations.iter().map(|mark| mark.row * self.size + mark.col).collect();
        eliminated.dedup();
        let cells = |cells: &[usize]| join(cells.iter().map(|&cell| self.cell_name(cell)), "and");
        let values = |values: &[u8]| join(values.iter().map(|&value| symbol(value).to_string()), "and");
        let houses = |houses: &[usize]| {
            let numbers = houses.iter().map(|&house| (house % self.size + 1).to_string());
            format!("{}s {}", self.kind_name(houses[0]), join(numbers, "and"))
        };
        let name = technique.name().to_lowercase();
        // The values the step removes, each once, smallest first: `3 or 4`.
        let lost_values = || {
            let lost: std::collections::BTreeSet<u8> = eliminations.iter().map(|mark| mark.digit).collect();
            join(lost.into_iter().map(|value| symbol(value).to_string()), "or")
        };
        let explanation = match (technique, step.placements.first()) {
            (Technique::FullHouse, Some(&(cell, value))) => {
                let house = self.house_name(step.houses[0]);
                let house = house[..1].to_uppercase() + &house[1..];
                let (cell, value) = (self.cell_name(cell), symbol(value));
                format!("{house} has one empty cell left, {cell}, so {cell} = {value}.")
            }
            (Technique::HiddenSingleBox | Technique::HiddenSingleLine, Some(&(cell, value))) => {
                let (house, cell, value) = (self.house_name(step.houses[0]), self.cell_name(cell), symbol(value));
                format!("In {house}, {value} fits only in {cell}, so {cell} = {value}.")
            }
            (Technique::InniesOuties, found) => self.describe_sum_group(step, found, &eliminated, &lost_values()),
            (Technique::CageCombination, None) => {
                let sum = match self.book {
                    Book::Variant(variant) => variant.cages[step.rule].sum.unwrap_or_default(),
                    Book::Classic(_) => unreachable!("a cage-combination step is found only on a variant"),
                };
                let (cage, lost) = (cells(&step.cells), lost_values());
                match step.houses.first() {
                    Some(&house) => format!(
                        "Every way the cage of {cage} can add up to {sum} with its candidates uses {}, all in {}, so {} can't be {lost}.",
                        join(step.values.iter().map(|&value| symbol(value).to_string()), "and"),
                        self.house_name(house),
                        cells(&eliminated)
                    ),
                    None => format!(
                        "Trying every way the cage of {cage} can add up to {sum} with its candidates, {} can't be {lost}.",
                        cells(&eliminated)
                    ),
                }
            }
            (Technique::NakedSingle, Some(&(cell, value))) => {
                let (cell, value) = (self.cell_name(cell), symbol(value));
                format!("Only {value} is left as a candidate for {cell}, so {cell} = {value}.")
            }
            (_, Some(&(cell, value))) => {
                let (cell, value) = (self.cell_name(cell), symbol(value));
                format!("No technique here applies, so {cell} = {value} is taken from the solution.")
            }
            (Technique::CageSum, None) => {
                let sum = match self.book {
                    Book::Variant(variant) => variant.cages[step.rule].sum.unwrap_or_default(),
                    Book::Classic(_) => unreachable!("a cage-sum step is found only on a variant"),
                };
                let allowed = join(step.values.iter().map(|&value| symbol(value).to_string()), "or");
                format!(
                    "The cage of {} adds up to {sum}, so its open cells can only hold {allowed}: {} can't be {}.",
                    cells(&step.cells),
                    cells(&eliminated),
                    lost_values()
                )
            }
            (Technique::NeighbourRule, None) => {
                let relation = match self.book {
                    Book::Variant(variant) => variant.relation(&variant.pairs[step.rule]),
                    Book::Classic(_) => unreachable!("a neighbour-rule step is found only on a variant"),
                };
                let (first, second) = (self.cell_name(step.cells[0]), self.cell_name(step.cells[1]));
                format!("{}, so {} can't be {}.", relation.reason(&first, &second), cells(&eliminated), lost_values())
            }
            (Technique::Pointing | Technique::Claiming, None) => {
                let (source, target) = (self.house_name(step.houses[0]), self.house_name(step.houses[1]));
                let value = symbol(step.values[0]);
                format!("In {source}, {value} fits only in {target}, so {} can't be {value}.", cells(&eliminated))
            }
            (Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad, None) => {
                let (house, values) = (self.house_name(step.houses[0]), values(&step.values));
                format!(
                    "In {house}, {} can only hold {values} ({name}), so {values} go from the other cells of {house}.",
                    cells(&step.cells)
                )
            }
            (Technique::XWing | Technique::Swordfish | Technique::Jellyfish, None) => {
                let (base, cover) = step.houses.split_at(step.houses.len() / 2);
                let value = symbol(step.values[0]);
                format!(
                    "In {}, {value} fits only in {} ({}), so {} can't be {value}.",
                    houses(base),
                    houses(cover),
                    technique.name(),
                    cells(&eliminated)
                )
            }
            (Technique::XYWing, None) => {
                let [pivot, a, b] = [0, 1, 2].map(|at| self.cell_name(step.cells[at]));
                let either = |first: u8, second: u8| {
                    let (low, high) = (first.min(second), first.max(second));
                    format!("{} or {}", symbol(low), symbol(high))
                };
                let [x, y, z] = [step.values[0], step.values[1], step.values[2]];
                format!(
                    "{pivot} is {}, and {a} ({}) and {b} ({}) see it, so one of {a} and {b} is {} and {}, seeing \
                     both, can't be {}.",
                    either(x, y),
                    either(x, z),
                    either(y, z),
                    symbol(z),
                    cells(&eliminated),
                    symbol(z)
                )
            }
            (Technique::XChain | Technique::XYChain, None) => self.describe_chain(technique, step, &eliminated),
            (_, None) => format!(
                "In {}, {} fit only in {} ({name}), so the other candidates there go.",
                self.house_name(step.houses[0]),
                values(&step.values),
                cells(&step.cells)
            ),
        };
        GridStep {
            technique,
            cells: step.cells.iter().map(|&cell| GridCell { row: cell / self.size, col: cell % self.size }).collect(),
            digits: step.values.clone(),
            placements: step.placements.iter().map(|&found| self.candidate(found)).collect(),
            eliminations,
            explanation,
        }
    }

    /// `Row 3 adds up to 45 and the cages wholly inside it to 38, so r3c4 = 7.`: an
    /// innies-or-outies step's sentence, with its `placement` or its `eliminated` cells and their
    /// `lost` values.
    fn describe_sum_group(
        &self,
        step: &Step,
        placement: Option<&(usize, u8)>,
        eliminated: &[usize],
        lost: &str,
    ) -> String {
        let Book::Variant(variant) = self.book else { unreachable!("innies and outies are found only on a variant") };
        let group = &variant.sum_groups[step.rule];
        let (area, one) = match group.houses[..] {
            [house] => (self.house_name(usize::from(house)), true),
            // A pair of boxes or regions, side by side but not always numbered one after the other.
            [first, second] if !self.is_line(usize::from(first)) => {
                let kinds =
                    if self.book.unit(usize::from(first), self.size) == Unit::Box { "boxes" } else { "regions" };
                let number = |house: u16| usize::from(house) % self.size + 1;
                (format!("{kinds} {} and {}", number(first), number(second)), false)
            }
            [first, .., last] => {
                let kind = self.kind_name(usize::from(first));
                let number = |house: u16| usize::from(house) % self.size + 1;
                (format!("{kind}s {} to {}", number(first), number(last)), false)
            }
            [] => unreachable!("a sum group has an area"),
        };
        let (adds, it) = if one { ("adds", "it") } else { ("add", "them") };
        let cells = join(group.cells.iter().map(|&cell| self.cell_name(usize::from(cell))), "and");
        let reason = if group.outies {
            let (cages, total) = (group.cages, group.total);
            format!("The cages that cover {area} add up to {cages} and {area} to {total}, so {cells} outside {it}")
        } else {
            let area = area[..1].to_uppercase() + &area[1..];
            format!(
                "{area} {adds} up to {} and the cages wholly inside {it} to {}, so {cells}",
                group.total, group.cages
            )
        };
        match (placement, group.cells.len()) {
            (Some(&(_, value)), 1) => format!("{reason} = {}.", symbol(value)),
            (Some(&(cell, value)), _) => {
                format!("{reason} add up to {}: {} = {}.", group.sum, self.cell_name(cell), symbol(value))
            }
            (None, _) => {
                let eliminated = join(eliminated.iter().map(|&cell| self.cell_name(cell)), "and");
                format!("{reason} add up to {}: {eliminated} can't be {lost}.", group.sum)
            }
        }
    }

    /// Places the solution's value in the blank cell with the fewest candidates.
    fn brute_force(&self, solution: &Grid, step: &mut Step) -> bool {
        let blanks = (0..self.values.len()).filter(|&cell| self.values[cell] == 0);
        let cell = blanks.min_by_key(|&cell| self.candidates[cell].count_ones());
        cell.is_some_and(|cell| step.place(None, cell, solution.cells()[cell]))
    }
}

/// The members of a house that can be part of a subset of `size`: those whose set (a cell's
/// candidates, a value's places) has two to `size` elements, gathered with their sets; and how
/// many there are.
fn subset_members<K: Copy + Default>(
    members: impl Iterator<Item = (K, u32)>,
    size: usize,
) -> ([K; crate::sizes::MAX_SIZE], [u32; crate::sizes::MAX_SIZE], usize) {
    let (mut keys, mut sets, mut count) = ([K::default(); crate::sizes::MAX_SIZE], [0u32; crate::sizes::MAX_SIZE], 0);
    for (key, set) in members {
        if (2..=size as u32).contains(&set.count_ones()) {
            (keys[count], sets[count]) = (key, set);
            count += 1;
        }
    }
    (keys, sets, count)
}

/// Tries every choice of `size` of `sets` (in index order) whose union `fits`, handing each to
/// `found` with the chosen indices and the union until it returns true; true if one did.
fn subsets(
    sets: &[u32],
    size: usize,
    fits: impl Fn(u32) -> bool,
    mut found: impl FnMut(&[usize], u32) -> bool,
) -> bool {
    fn extend(
        sets: &[u32],
        size: usize,
        start: usize,
        chosen: &mut Vec<usize>,
        union: u32,
        fits: &dyn Fn(u32) -> bool,
        found: &mut dyn FnMut(&[usize], u32) -> bool,
    ) -> bool {
        if chosen.len() == size {
            return fits(union) && found(chosen, union);
        }
        for index in start..sets.len() {
            let wider = union | sets[index];
            // A union already wider than the subset can only grow.
            if wider.count_ones() as usize > size {
                continue;
            }
            chosen.push(index);
            let done = extend(sets, size, index + 1, chosen, wider, fits, found);
            chosen.pop();
            if done {
                return true;
            }
        }
        false
    }
    sets.len() >= size && extend(sets, size, 0, &mut Vec::with_capacity(size), 0, &fits, &mut found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Symmetry;
    use crate::interrupt::{Never, PollBudget};
    use crate::logic::TechniqueCount;
    use crate::sizes::Shape;

    #[test]
    fn on_9x9_it_rates_as_the_9x9_engine_where_that_uses_only_these_techniques() {
        let mut compared = 0;
        for (level, seed) in [Level::Easy, Level::Medium, Level::Hard]
            .into_iter()
            .flat_map(|level| (0..4).map(move |seed| (level, seed)))
        {
            let generated = crate::generate::generate(level, Symmetry::None, seed, &mut Never).unwrap();
            let expected = generated.rating;
            let (grid, solution) = (Grid::from(&generated.puzzle), Grid::from(&generated.solution));
            let rating = rate(&grid, &solution, &mut Never).unwrap();
            if expected.techniques.iter().all(|used| TECHNIQUES.contains(&used.technique)) {
                assert_eq!((rating.rating, rating.level), (expected.rating, expected.level), "{}", generated.puzzle);
                compared += 1;
            } else {
                // A technique missing here is replaced by harder ones or a guess (or by ones no
                // harder than the path's hardest).
                assert!(rating.rating >= expected.rating, "{}: {rating:?} vs {expected:?}", generated.puzzle);
            }
        }
        assert!(compared >= 8, "only {compared} puzzles used these techniques alone");
    }

    /// An innie of two boxes side by side names them as a pair, not as a run of houses.
    #[test]
    fn an_innie_of_two_boxes_is_said_of_the_pair() {
        let constraints = crate::variants::sum_group_tests::cages_across_two_boxes();
        let variant = Variant::new(Shape::CLASSIC, None, &constraints).unwrap();
        let rule = variant.sum_groups.iter().position(|group| group.cells == [23]).expect("the pair's innie");
        let empty = Grid::empty(Shape::CLASSIC);
        let pencil = Pencil::new(&empty, Book::Variant(&variant));
        let step = Step { placements: vec![(23, 5)], cells: vec![23], values: vec![5], rule, ..Step::default() };
        assert_eq!(
            pencil.describe(Technique::InniesOuties, &step).explanation,
            "Boxes 1 and 2 add up to 90 and the cages wholly inside them to 85, so r3c6 = 5."
        );
    }

    /// The neighbour rule through an X and a V on an empty grid: what each mark rules out, in
    /// the sentence a player reads.
    #[test]
    fn x_and_v_marks_say_their_sums() {
        let json = r#"{"xv":{"x":[[[0,0],[0,1]]],"v":[[[1,0],[1,1]]]}}"#;
        let constraints: crate::variants::Constraints = serde_json::from_str(json).unwrap();
        let variant = Variant::new(Shape::CLASSIC, None, &constraints).unwrap();
        let mut pencil = Pencil::new(&Grid::empty(Shape::CLASSIC), Book::Variant(&variant));
        let (mut step, mut said) = (Step::default(), Vec::new());
        while pencil.find(Technique::NeighbourRule, &mut step) {
            said.push(pencil.describe(Technique::NeighbourRule, &step).explanation);
            assert!(pencil.apply(&step));
            step.clear();
        }
        let x = "r1c1 and r1c2 share an X, so they are two different digits summing to 10";
        let v = "r2c1 and r2c2 share a V, so they sum to 5";
        assert_eq!(
            said,
            [
                format!("{x}, so r1c2 can't be 5."),
                format!("{x}, so r1c1 can't be 5."),
                format!("{v}, so r2c2 can't be 5, 6, 7, 8 or 9."),
                format!("{v}, so r2c1 can't be 5, 6, 7, 8 or 9."),
            ]
        );
    }

    #[test]
    fn a_full_grid_rates_zero_and_a_grid_of_one_blank_is_a_full_house() {
        let solution = Grid::parse("1234341221434321", None).unwrap();
        let rating = rate(&solution, &solution, &mut Never).unwrap();
        assert_eq!((rating.rating, rating.level, rating.solved_by_logic), (0.0, Level::Easy, true));
        let one_blank = Grid::parse(".234341221434321", None).unwrap();
        let rating = rate(&one_blank, &solution, &mut Never).unwrap();
        assert_eq!(rating.techniques, [TechniqueCount { technique: Technique::FullHouse, count: 1 }]);
    }

    #[test]
    fn every_step_keeps_the_solution_possible() {
        // Every elimination and placement on the way agrees with the solution.
        for shape in Shape::all().filter(|shape| shape.size() <= 12) {
            let (puzzle, solution) = &crate::generate::sizes::unique(shape, Symmetry::None, 0, 3, &mut Never).unwrap();
            let mut pencil = Pencil::new(puzzle, Book::of(puzzle));
            let mut step = Step::default();
            while pencil.blanks > 0 {
                step.clear();
                let technique = TECHNIQUES.into_iter().find(|&technique| pencil.find(technique, &mut step));
                let technique =
                    technique.or_else(|| pencil.brute_force(solution, &mut step).then_some(Technique::BruteForce));
                assert!(technique.is_some(), "{shape}: brute force always finds a step");
                for &(cell, value) in &step.placements {
                    assert_eq!(solution.cells()[cell], value, "{shape} {technique:?}");
                }
                for &(cell, value) in &step.eliminations {
                    assert_ne!(solution.cells()[cell], value, "{shape} {technique:?}");
                }
                assert!(pencil.apply(&step));
            }
            assert_eq!(pencil.values, solution.cells());
        }
    }

    /// Locked candidates as the definition reads: for each base house and value, the houses
    /// every place of the value shares, and the value's places in them outside the base house.
    fn naive_locked(pencil: &Pencil, base: Kind, step: &mut Step) -> bool {
        let n = pencil.size;
        let kind = |house: usize| [Kind::Row, Kind::Column, Kind::Box][house / n];
        let houses = (0..3 * n).filter(|&house| kind(house) == base);
        for house in houses {
            for value in 1..=n as u8 {
                let places: Vec<usize> =
                    pencil.cells(house).filter(|&cell| pencil.candidates[cell] & bit(value) != 0).collect();
                for other in (0..3 * n).filter(|&other| other != house) {
                    if (base == Kind::Box) == (kind(other) == Kind::Box) {
                        continue;
                    }
                    if places.is_empty()
                        || !places.iter().all(|&cell| pencil.book.house(other).contains(&(cell as u16)))
                    {
                        continue;
                    }
                    let outside = pencil.cells(other).filter(|&cell| {
                        !pencil.book.house(house).contains(&(cell as u16)) && pencil.candidates[cell] & bit(value) != 0
                    });
                    step.eliminations.extend(outside.map(|cell| (cell, value)));
                    if !step.eliminations.is_empty() {
                        step.houses.extend([house, other]);
                        step.cells.extend(&places);
                        step.values.push(value);
                        return true;
                    }
                }
            }
        }
        false
    }

    #[test]
    fn locked_candidates_are_the_first_the_definition_finds_at_every_shape() {
        let (mut step, mut expected) = (Step::default(), Step::default());
        let mut found = 0;
        for shape in Shape::all() {
            // Large grids blanked down to about half: minimal ones take seconds to make.
            let floor = if shape.size() >= 20 { shape.cells() / 2 } else { 0 };
            for seed in 0..3 {
                let (puzzle, solution) =
                    &crate::generate::sizes::unique(shape, Symmetry::None, floor, seed, &mut Never).unwrap();
                let mut pencil = Pencil::new(puzzle, Book::of(puzzle));
                while pencil.blanks > 0 {
                    for base in [Kind::Box, Kind::Row, Kind::Column] {
                        step.clear();
                        expected.clear();
                        let locked = pencil.locked(base, &mut step);
                        assert_eq!(locked, naive_locked(&pencil, base, &mut expected), "{shape} {puzzle}");
                        assert_eq!(step, expected, "{shape} {puzzle}");
                        found += usize::from(locked);
                    }
                    step.clear();
                    let advanced = TECHNIQUES.into_iter().any(|technique| pencil.find(technique, &mut step))
                        || pencil.brute_force(solution, &mut step);
                    assert!(advanced && pencil.apply(&step));
                }
            }
        }
        assert!(found > 100, "only {found} locked candidates on the way");
    }

    #[test]
    fn rating_within_a_level_stops_at_its_first_harder_step() {
        let generated = crate::generate::generate(Level::Medium, Symmetry::None, 1, &mut Never).unwrap();
        let (grid, solution) = (Grid::from(&generated.puzzle), Grid::from(&generated.solution));
        let rating = rate(&grid, &solution, &mut Never).unwrap();
        assert!(rating.level > Level::Easy, "{rating:?}");
        assert_eq!(rate_within(&grid, &solution, Level::Easy, &mut Never).unwrap(), None);
        assert_eq!(rate_within(&grid, &solution, rating.level, &mut Never).unwrap(), Some(rating));
    }

    #[test]
    fn a_rating_cut_short_rates_the_steps_taken_so_far() {
        let generated = crate::generate::generate(Level::Hard, Symmetry::None, 1, &mut Never).unwrap();
        let (grid, solution) = (Grid::from(&generated.puzzle), Grid::from(&generated.solution));
        let full = rate(&grid, &solution, &mut Never).unwrap();
        let steps: u32 = full.techniques.iter().map(|used| used.count).sum();
        let mut last = 0.0;
        // The interrupt is polled once a step: a budget of n polls takes n - 1 steps.
        for budget in 1..=steps {
            let cut = rate_until_in(Book::of(&grid), &grid, None, &solution, &mut PollBudget(budget));
            assert!(!cut.exact && !cut.solved_by_logic, "{cut:?}");
            assert_eq!(cut.techniques.iter().map(|used| used.count).sum::<u32>(), budget - 1);
            assert!(last <= cut.rating && cut.rating <= full.rating && cut.level <= full.level, "{cut:?}");
            last = cut.rating;
        }
        assert_eq!(last, full.rating, "the last step but one already took the hardest");
        assert_eq!(rate_until_in(Book::of(&grid), &grid, None, &solution, &mut PollBudget(steps + 1)), full);
    }

    #[test]
    fn subsets_are_found_only_where_the_union_fits() {
        let sets = [0b0011, 0b0110, 0b0011, 0b1000];
        let mut seen = Vec::new();
        subsets(
            &sets,
            2,
            |union| union.count_ones() == 2,
            |members, _| {
                seen.push(members.to_vec());
                false
            },
        );
        assert_eq!(seen, [vec![0, 2]]);
    }
}

#[cfg(test)]
mod explanation_tests {
    use super::*;
    use crate::generate::{Symmetry, generate};
    use crate::interrupt::Never;

    /// On 9x9 grids the two engines take the same steps, in the same words and the same JSON,
    /// up to the first step of a technique this one lacks.
    #[test]
    fn on_9x9_the_steps_are_the_9x9_engines_up_to_a_technique_this_one_lacks() {
        let mut compared = 0;
        for seed in 0..9u64 {
            let level = [Level::Easy, Level::Medium, Level::Hard][seed as usize % 3];
            let generated = generate(level, Symmetry::None, seed, &mut Never).unwrap();
            let expected = crate::logic::explain(&generated.puzzle, &generated.solution, &mut Never).unwrap();
            let (puzzle, solution) = (Grid::from(&generated.puzzle), Grid::from(&generated.solution));
            let (steps, _, end) = explain(&puzzle, &solution, &mut Never).unwrap();
            assert_eq!(end, solution, "{puzzle}");
            let shared = expected.steps.iter().take_while(|step| TECHNIQUES.contains(&step.technique));
            for (theirs, ours) in shared.zip(&steps) {
                let (theirs, ours) = (serde_json::to_value(theirs).unwrap(), serde_json::to_value(ours).unwrap());
                assert_eq!(ours, theirs, "{puzzle}");
                compared += 1;
            }
            let hint = steps_to_next_placement(&puzzle, &solution, &mut Never).unwrap();
            let first_placement = steps.iter().position(|step| !step.placements.is_empty()).unwrap();
            assert_eq!(hint, steps[..=first_placement]);
        }
        assert!(compared > 300, "{compared} steps compared");
    }

    #[test]
    fn sentences_name_cells_one_based_and_values_by_their_symbols() {
        // 16x16: the last cell blank, a full house of G (16) in row 16.
        let solution =
            crate::generate::sizes::unique(crate::sizes::Shape::new(4, 4).unwrap(), Symmetry::None, 0, 2, &mut Never)
                .unwrap()
                .1;
        let mut cells = solution.cells().to_vec();
        let last = cells.len() - 1;
        cells[last] = 0;
        let puzzle = Grid::new(solution.shape(), cells).unwrap();
        let steps = steps_to_next_placement(&puzzle, &solution, &mut Never).unwrap();
        let value = symbol(solution.cells()[last]);
        assert_eq!(steps[0].explanation, format!("Row 16 has one empty cell left, r16c16, so r16c16 = {value}."));
        assert_eq!(steps[0].placements, [GridCandidate { row: 15, col: 15, digit: solution.cells()[last] }]);
        assert!(steps_to_next_placement(&solution, &solution, &mut Never).unwrap().is_empty());
    }
}

//! Typed positions: a [`Cell`] of the grid, the [`House`]s (rows, columns and boxes) a digit
//! must not repeat in, a [`Digit`], and a [`Candidate`] (a digit in a cell, the third coordinate
//! of the grid's 9x9x9 cube of possibilities).
//!
//! Rules, logic and board errors speak in these rather than in bare integers, so a row cannot be
//! mistaken for one of 27 houses or one of 81 cells, no caller re-derives a box from a row and a
//! column, and each position is written one way: 1-based for people (`r5c6`, `box 5`), 0-based
//! in JSON (`{"row":4,"col":5}`).
//!
//! The types hold their coordinates as small integers and assume no grid size; only the
//! constructors and iterators, which check ranges and list every cell or house, use the board's
//! size ([`SIZE`]), here in one place.
//!
//! ```
//! use sudokud_model::position::{Cell, Digit, House, HouseKind};
//!
//! let cell = Cell::new(4, 5).expect("on the board");
//! assert_eq!(cell.to_string(), "r5c6");
//! assert_eq!(cell.houses(), [House::Row(4), House::Column(5), House::Box(4)]);
//! assert_eq!(cell.house(HouseKind::Box).to_string(), "box 5");
//! assert_eq!(Cell::from_index(cell.index()), Some(cell));
//! assert!(Digit::new(0).is_none() && Digit::new(9).is_some());
//! ```

use std::fmt;
use std::num::NonZeroU8;

use serde::ser::{Serialize, SerializeStruct, Serializer};

use crate::board::{CELLS, SIZE};

/// Rows, columns, boxes and digits of the grid, as the `u8` the types store.
const N: u8 = SIZE as u8;

/// The side of a box (3 on a 9x9 grid): boxes are square.
const BOX: u8 = SIZE.isqrt() as u8;

/// A cell of the grid, by 0-based row and column. Always on the board: the constructors check,
/// so code that receives a `Cell` indexes with it without a second look.
///
/// Ordered row-major, as cells are read and as steps list them. Displayed 1-based, `r5c6`;
/// serialized 0-based, `{"row":4,"col":5}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    row: u8,
    col: u8,
}

impl Cell {
    /// The cell at 0-based `row` and `col`; `None` off the board.
    pub const fn new(row: u8, col: u8) -> Option<Cell> {
        if row < N && col < N { Some(Cell { row, col }) } else { None }
    }

    /// The cell at row-major `index` (0-80, as in [`crate::board::Board::cells`]); `None` off
    /// the board.
    pub const fn from_index(index: usize) -> Option<Cell> {
        if index < CELLS { Some(Cell { row: (index / SIZE) as u8, col: (index % SIZE) as u8 }) } else { None }
    }

    /// The cell at row-major `index`, for the crate's own indexes, which are on the board.
    ///
    /// # Panics
    ///
    /// If `index` is off the board (a bug in the caller).
    pub const fn at(index: usize) -> Cell {
        match Cell::from_index(index) {
            Some(cell) => cell,
            None => panic!("a cell index is below the number of cells"),
        }
    }

    /// Every cell, row-major.
    pub fn all() -> impl ExactSizeIterator<Item = Cell> + DoubleEndedIterator + Clone {
        (0..CELLS).map(Cell::at)
    }

    /// The 0-based row.
    pub const fn row(self) -> u8 {
        self.row
    }

    /// The 0-based column.
    pub const fn col(self) -> u8 {
        self.col
    }

    /// The row-major index (0-80), the cell's place in [`crate::board::Board::cells`].
    pub const fn index(self) -> usize {
        self.row as usize * SIZE + self.col as usize
    }

    /// The house of `kind` the cell is in.
    pub const fn house(self, kind: HouseKind) -> House {
        match kind {
            HouseKind::Row => House::Row(self.row),
            HouseKind::Column => House::Column(self.col),
            HouseKind::Box => House::Box(self.row / BOX * BOX + self.col / BOX),
        }
    }

    /// The cell's row, column and box, in that order.
    pub const fn houses(self) -> [House; 3] {
        [self.house(HouseKind::Row), self.house(HouseKind::Column), self.house(HouseKind::Box)]
    }

    /// Whether `other` is another cell sharing a house with this one (a peer): the two cannot
    /// hold the same digit.
    pub fn sees(self, other: Cell) -> bool {
        self != other && self.houses().iter().zip(other.houses()).any(|(&mine, theirs)| mine == theirs)
    }

    /// Writes the `row` and `col` members of a JSON object, the one place positions become
    /// JSON, for the types that flatten a cell into their own object (candidates, conflicts).
    pub fn serialize_fields<S: SerializeStruct>(self, object: &mut S) -> Result<(), S::Error> {
        object.serialize_field("row", &self.row)?;
        object.serialize_field("col", &self.col)
    }
}

/// `r5c6`: 1-based, as people name cells.
impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row + 1, self.col + 1)
    }
}

/// `{"row":4,"col":5}`: 0-based, as in every answer that names cells.
impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut object = serializer.serialize_struct("Cell", 2)?;
        self.serialize_fields(&mut object)?;
        object.end()
    }
}

/// The kinds of house: a digit appears once in each row, each column and each box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HouseKind {
    /// A row: the cells of one 0-based `row`.
    Row,
    /// A column: the cells of one 0-based `col`.
    Column,
    /// A box: a square block of cells, numbered in reading order.
    Box,
}

impl HouseKind {
    /// Every kind, in the order houses are listed: rows, columns, boxes.
    pub const ALL: [HouseKind; 3] = [HouseKind::Row, HouseKind::Column, HouseKind::Box];

    /// The kinds of line, rows and columns: what fish and locked candidates cross boxes with.
    pub const LINES: [HouseKind; 2] = [HouseKind::Row, HouseKind::Column];

    /// The name in messages and JSON: `row`, `column` or `box`.
    pub const fn name(self) -> &'static str {
        match self {
            HouseKind::Row => "row",
            HouseKind::Column => "column",
            HouseKind::Box => "box",
        }
    }

    /// The plural, for explanations that name several houses: `rows`, `columns`, `boxes`.
    pub const fn plural(self) -> &'static str {
        match self {
            HouseKind::Row => "rows",
            HouseKind::Column => "columns",
            HouseKind::Box => "boxes",
        }
    }

    /// The house of this kind with 0-based `index` (not checked, as [`House`]'s variants are
    /// not).
    pub const fn house(self, index: u8) -> House {
        match self {
            HouseKind::Row => House::Row(index),
            HouseKind::Column => House::Column(index),
            HouseKind::Box => House::Box(index),
        }
    }

    /// The houses of this kind, in order.
    pub fn houses(self) -> impl ExactSizeIterator<Item = House> + DoubleEndedIterator + Clone {
        (0..N).map(move |index| self.house(index))
    }
}

/// `row`, `column` or `box`.
impl fmt::Display for HouseKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A row, column or box: a set of cells in which each digit appears once. Each variant holds
/// the 0-based index among the houses of its kind; boxes are numbered in reading order.
///
/// The indexes are not checked: the houses this crate hands out are on the board, and methods
/// that reach cells panic on one that is not (a bug in the caller, as an index out of bounds).
/// Ordered as [`House::all`] lists them. Displayed 1-based: `row 5`, `column 6`, `box 5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum House {
    /// The row with this 0-based index.
    Row(u8),
    /// The column with this 0-based index.
    Column(u8),
    /// The box with this 0-based index, in reading order.
    Box(u8),
}

/// Every house, as [`House::all`] lists them: a table, so that loops over houses (the logic
/// runs several per step) cost no arithmetic.
const HOUSES: [House; HouseKind::ALL.len() * SIZE] = {
    let mut houses = [House::Row(0); HouseKind::ALL.len() * SIZE];
    let mut index = 0;
    while index < houses.len() {
        houses[index] = House::at(index);
        index += 1;
    }
    houses
};

impl House {
    /// Every house: rows, then columns, then boxes, each in order.
    pub fn all() -> impl ExactSizeIterator<Item = House> + DoubleEndedIterator + Clone {
        HOUSES.into_iter()
    }

    /// The house at `index` in [`House::all`]'s order (0-26); `None` past the last.
    pub const fn from_index(index: usize) -> Option<House> {
        if index < HouseKind::ALL.len() * SIZE {
            Some(HouseKind::ALL[index / SIZE].house((index % SIZE) as u8))
        } else {
            None
        }
    }

    /// The house at `index` in [`House::all`]'s order, for the crate's own indexes.
    ///
    /// # Panics
    ///
    /// If `index` is past the last house (a bug in the caller).
    pub const fn at(index: usize) -> House {
        match House::from_index(index) {
            Some(house) => house,
            None => panic!("a house index is below the number of houses"),
        }
    }

    /// The house's place in [`House::all`] (0-26), to index per-house tables.
    pub const fn index(self) -> usize {
        self.kind() as usize * SIZE + self.index_in_kind() as usize
    }

    /// Row, column or box.
    pub const fn kind(self) -> HouseKind {
        match self {
            House::Row(_) => HouseKind::Row,
            House::Column(_) => HouseKind::Column,
            House::Box(_) => HouseKind::Box,
        }
    }

    /// The 0-based index among the houses of its kind: the variant's value.
    pub const fn index_in_kind(self) -> u8 {
        match self {
            House::Row(index) | House::Column(index) | House::Box(index) => index,
        }
    }

    /// The house's cell at 0-based `position` in reading order: in a row the column, in a
    /// column the row, in a box left to right, then top to bottom.
    ///
    /// # Panics
    ///
    /// If the house or the position is off the board.
    pub const fn cell(self, position: u8) -> Cell {
        let (row, col) = match self {
            House::Row(row) => (row, position),
            House::Column(col) => (position, col),
            House::Box(index) => (index / BOX * BOX + position / BOX, index % BOX * BOX + position % BOX),
        };
        match Cell::new(row, col) {
            Some(cell) if position < N => cell,
            _ => panic!("the house and the position are on the board"),
        }
    }

    /// The house's cells in reading order (see [`House::cell`]).
    pub fn cells(self) -> impl ExactSizeIterator<Item = Cell> + DoubleEndedIterator + Clone {
        (0..N).map(move |position| self.cell(position))
    }

    /// Whether `cell` is in this house.
    pub const fn contains(self, cell: Cell) -> bool {
        let theirs = cell.house(self.kind());
        theirs.index_in_kind() == self.index_in_kind()
    }
}

/// `row 5`, `column 6`, `box 5`: 1-based, as people name houses.
impl fmt::Display for House {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind(), self.index_in_kind() + 1)
    }
}

/// A digit, 1-9: what a cell holds once solved. The constructor checks the range, so a blank
/// (0) is never a `Digit`, and `Option<Digit>` is one byte.
///
/// Displayed and serialized as its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digit(NonZeroU8);

impl Digit {
    /// The digit `value`; `None` unless it is 1-9.
    pub const fn new(value: u8) -> Option<Digit> {
        match NonZeroU8::new(value) {
            Some(value) if value.get() <= N => Some(Digit(value)),
            _ => None,
        }
    }

    /// The digit `value`, for the crate's own digits, which are in range.
    ///
    /// # Panics
    ///
    /// If `value` is not a digit (a bug in the caller).
    pub const fn of(value: u8) -> Digit {
        match Digit::new(value) {
            Some(digit) => digit,
            None => panic!("a digit is 1-9"),
        }
    }

    /// Every digit, ascending.
    pub fn all() -> impl ExactSizeIterator<Item = Digit> + DoubleEndedIterator + Clone {
        (1..=N).map(Digit::of)
    }

    /// The value, 1-9.
    pub const fn get(self) -> u8 {
        self.0.get()
    }
}

impl fmt::Display for Digit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl Serialize for Digit {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u8(self.get())
    }
}

/// A digit in a cell: a placement, or an elimination of a possibility.
///
/// Ordered by cell (row-major), then digit. Displayed `r5c6=7`; serialized as one object,
/// `{"row":4,"col":5,"digit":7}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidate {
    /// The cell.
    pub cell: Cell,
    /// The digit.
    pub digit: Digit,
}

/// `r5c6=7`.
impl fmt::Display for Candidate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.cell, self.digit)
    }
}

impl Serialize for Candidate {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut object = serializer.serialize_struct("Candidate", 3)?;
        self.cell.serialize_fields(&mut object)?;
        object.serialize_field("digit", &self.digit)?;
        object.end()
    }
}

// Positions on a grid of any size, 0-based, as the JSON of every size writes them (the 9x9 types
// above name 9x9 places only).

/// A cell of a grid, 0-based, as JSON writes cells: `{"row", "col"}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GridCell {
    /// The row, 0-based.
    pub row: usize,
    /// The column, 0-based.
    pub col: usize,
}

/// A value in a cell, 0-based: `{"row", "col", "digit"}`, the value a number 1 to N.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct GridCandidate {
    /// The row, 0-based.
    pub row: usize,
    /// The column, 0-based.
    pub col: usize,
    /// The value, 1 to N (10-25 are the letters A-P).
    pub digit: u8,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(row: u8, col: u8) -> Cell {
        Cell::new(row, col).unwrap()
    }

    #[test]
    fn cells_round_trip_through_indexes_in_row_major_order() {
        let all: Vec<Cell> = Cell::all().collect();
        assert_eq!(all.len(), CELLS);
        for (index, &cell) in all.iter().enumerate() {
            assert_eq!(cell.index(), index);
            assert_eq!(Cell::from_index(index), Some(cell));
            assert_eq!(Cell::new(cell.row(), cell.col()), Some(cell));
        }
        assert!(all.windows(2).all(|pair| pair[0] < pair[1]), "ordered as indexed");
        assert_eq!(cell(4, 5).index(), 41);
        assert_eq!(Cell::from_index(CELLS), None);
        assert_eq!(Cell::new(9, 0), None);
        assert_eq!(Cell::new(0, 9), None);
    }

    #[test]
    fn cells_display_one_based_and_serialize_zero_based() {
        assert_eq!(cell(4, 5).to_string(), "r5c6");
        assert_eq!(cell(0, 0).to_string(), "r1c1");
        assert_eq!(cell(8, 8).to_string(), "r9c9");
        assert_eq!(serde_json::to_string(&cell(4, 5)).unwrap(), r#"{"row":4,"col":5}"#);
    }

    #[test]
    fn a_cell_is_in_one_house_of_each_kind() {
        assert_eq!(cell(0, 0).houses(), [House::Row(0), House::Column(0), House::Box(0)]);
        assert_eq!(cell(4, 5).houses(), [House::Row(4), House::Column(5), House::Box(4)]);
        assert_eq!(cell(8, 2).houses(), [House::Row(8), House::Column(2), House::Box(6)]);
        assert_eq!(cell(3, 8).house(HouseKind::Box), House::Box(5));
        for cell in Cell::all() {
            let containing: Vec<House> = House::all().filter(|house| house.contains(cell)).collect();
            assert_eq!(containing, cell.houses());
            for house in cell.houses() {
                assert_eq!(house.cells().filter(|&other| other == cell).count(), 1);
            }
            let peers = Cell::all().filter(|&other| cell.sees(other)).count();
            assert_eq!(peers, 20);
        }
    }

    #[test]
    fn houses_round_trip_and_list_their_cells_in_reading_order() {
        let all: Vec<House> = House::all().collect();
        assert_eq!(all.len(), 27);
        for (index, &house) in all.iter().enumerate() {
            assert_eq!(house.index(), index);
            assert_eq!(House::from_index(index), Some(house));
            assert_eq!(house.kind().house(house.index_in_kind()), house);
            assert_eq!(house.cells().len(), 9);
            assert!(house.cells().all(|cell| house.contains(cell)));
        }
        assert_eq!(House::from_index(27), None);
        assert!(all.windows(2).all(|pair| pair[0] < pair[1]), "ordered as indexed");
        assert_eq!(&all[..3], [House::Row(0), House::Row(1), House::Row(2)]);
        assert_eq!(all[9], House::Column(0));
        assert_eq!(all[18], House::Box(0));
        let box_5: Vec<usize> = House::Box(4).cells().map(Cell::index).collect();
        assert_eq!(box_5, [30, 31, 32, 39, 40, 41, 48, 49, 50]);
        let column_2: Vec<Cell> = House::Column(1).cells().collect();
        assert_eq!(column_2, (0..9).map(|row| cell(row, 1)).collect::<Vec<_>>());
        assert_eq!(House::Row(3).cell(7), cell(3, 7));
    }

    #[test]
    #[should_panic(expected = "on the board")]
    fn a_house_off_the_board_has_no_cells() {
        House::Box(9).cell(0);
    }

    #[test]
    fn houses_and_kinds_display_their_names() {
        assert_eq!(House::Row(4).to_string(), "row 5");
        assert_eq!(House::Column(5).to_string(), "column 6");
        assert_eq!(House::Box(4).to_string(), "box 5");
        let names: Vec<String> = HouseKind::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(names, ["row", "column", "box"]);
        assert_eq!(HouseKind::Box.plural(), "boxes");
        let lines: Vec<House> = HouseKind::LINES.into_iter().flat_map(HouseKind::houses).collect();
        assert_eq!(lines, House::all().take(18).collect::<Vec<_>>());
    }

    #[test]
    fn digits_are_one_to_nine() {
        assert_eq!(Digit::new(0), None);
        assert_eq!(Digit::new(10), None);
        let all: Vec<u8> = Digit::all().map(Digit::get).collect();
        assert_eq!(all, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(Digit::new(7).map(|digit| digit.to_string()), Some("7".to_owned()));
        assert_eq!(serde_json::to_string(&Digit::of(7)).unwrap(), "7");
        assert_eq!(size_of::<Option<Digit>>(), 1);
    }

    #[test]
    fn candidates_order_by_cell_then_digit_and_serialize_flat() {
        let candidate = Candidate { cell: cell(1, 1), digit: Digit::of(7) };
        assert_eq!(candidate.to_string(), "r2c2=7");
        assert_eq!(serde_json::to_string(&candidate).unwrap(), r#"{"row":1,"col":1,"digit":7}"#);
        let mut candidates = [
            Candidate { cell: cell(1, 0), digit: Digit::of(1) },
            Candidate { cell: cell(0, 8), digit: Digit::of(2) },
            Candidate { cell: cell(0, 8), digit: Digit::of(1) },
        ];
        candidates.sort();
        let order: Vec<String> = candidates.iter().map(ToString::to_string).collect();
        assert_eq!(order, ["r1c9=1", "r1c9=2", "r2c1=1"]);
    }
}

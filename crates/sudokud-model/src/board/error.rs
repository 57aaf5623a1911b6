//! Why a board could not be read, and where.
//!
//! Every variant names the exact spot (row and column, or character position) and what was found
//! there, because the person reading a 422 or a CLI `error` line has to fix their input from the
//! message alone. Boards of every size share these errors; a message about a cell's value says
//! what that size allows.

use std::fmt;

use super::Format;
use crate::position::Cell;
use crate::shape::{SIZES, Shape};

/// Where in the input a problem was found. Rows and columns are 0-based, as in `conflicts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A cell of a grid (array) representation, or of a decoded board.
    Cell {
        /// Its row.
        row: usize,
        /// Its column.
        col: usize,
    },
    /// A character of the text representation.
    Offset {
        /// Its byte offset in the string.
        offset: usize,
        /// The cell it would have filled, counted in row-major order.
        index: usize,
        /// That cell's row.
        row: usize,
        /// That cell's column.
        col: usize,
    },
}

impl Location {
    /// The cell at `row`, `col` of a grid.
    pub const fn cell(row: usize, col: usize) -> Location {
        Location::Cell { row, col }
    }

    /// The character at byte `offset` of a text board of `size` x `size`, which would fill cell
    /// `index`.
    pub const fn offset(offset: usize, index: usize, size: usize) -> Location {
        Location::Offset { offset, index, row: index / size, col: index % size }
    }

    /// A JSON Pointer (RFC 6901) to the offending value inside the request's `board` member.
    pub fn json_pointer(&self) -> String {
        match *self {
            Location::Cell { row, col } => format!("/board/{row}/{col}"),
            Location::Offset { .. } => "/board".to_owned(),
        }
    }
}

/// A cell of the 9x9 board.
impl From<Cell> for Location {
    fn from(cell: Cell) -> Location {
        Location::cell(cell.row().into(), cell.col().into())
    }
}

/// `board[3][4]` (0-based, as the JSON array is indexed), or the character's byte offset and
/// the cell it would have filled.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Location::Cell { row, col } => write!(f, "board[{row}][{col}]"),
            Location::Offset { offset, index, row, col } => {
                write!(f, "board character at byte offset {offset} (cell {index}: row {row}, col {col})")
            }
        }
    }
}

/// `1 cell`, `2 cells`.
fn cells(count: usize) -> String {
    format!("{count} {}", if count == 1 { "cell" } else { "cells" })
}

/// `4, 6, 8, 9, 10, 12, 15, 16, 20, or 25`: the sizes, for messages.
struct Sizes;

impl fmt::Display for Sizes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (last, rest) = SIZES.split_last().expect("there are sizes");
        rest.iter().try_for_each(|size| write!(f, "{size}, "))?;
        write!(f, "or {last}")
    }
}

/// `16 (4x4), 36 (6x6), ..., or 625 (25x25)`: the cell counts of the sizes, for messages.
struct CellCounts;

impl fmt::Display for CellCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (last, rest) = SIZES.split_last().expect("there are sizes");
        rest.iter().try_for_each(|size| write!(f, "{} ({size}x{size}), ", size * size))?;
        write!(f, "or {} ({last}x{last})", last * last)
    }
}

/// A board that could not be read. Each variant is a distinct mistake with its position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// No board was given at all.
    #[error("the request has no `board` member")]
    Missing,
    /// The board is neither a string nor an array.
    #[error("`board` is {found}; expected a string of N x N cells or an array of N rows of N cells, for N = {}", Sizes)]
    WrongType {
        /// What it is instead, as JSON names it ("a number", "an object"...).
        found: &'static str,
    },
    /// A text board whose cell count is no size's square.
    #[error("the board has {}, which fits no grid: a board has {} cells", cells(*found), CellCounts)]
    CellCount {
        /// How many cells it has.
        found: usize,
    },
    /// A grid without rows.
    #[error("`board` is an empty array; expected N rows of N cells, for N = {}", Sizes)]
    NoRows,
    /// A grid whose first row's length is no size.
    #[error("board[0] has {}, which fits no grid: a row has {} cells", cells(*found), Sizes)]
    RowSize {
        /// How many cells the first row has.
        found: usize,
    },
    /// A grid with other than N rows, where its first row has N cells.
    #[error("`board` has {found} rows; expected {expected}, as many as board[0] has cells")]
    RowCount {
        /// How many rows it has.
        found: usize,
        /// How many it should have.
        expected: usize,
    },
    /// A row of a grid that is not an array.
    #[error("board[{row}] is {found}; expected an array of cells")]
    RowType {
        /// The row, 0-based.
        row: usize,
        /// What it is instead.
        found: &'static str,
    },
    /// A row of a grid with another number of cells than the first row.
    #[error("board[{row}] has {}; expected {expected}, as many as board[0]", cells(*found))]
    RowLength {
        /// The row, 0-based.
        row: usize,
        /// How many cells it has.
        found: usize,
        /// How many it should have.
        expected: usize,
    },
    /// A grid cell that is neither a string nor a number.
    #[error("{at} is {found}; expected a one-character string or an integer")]
    CellType {
        /// Where.
        at: Location,
        /// What it is instead.
        found: &'static str,
    },
    /// A character of a text board that is no symbol or blank of its size.
    #[error("{at}: found {found:?}; expected {}", Format::Text.cell(*size))]
    BadCharacter {
        /// Where.
        at: Location,
        /// The character.
        found: char,
        /// The board's size N.
        size: usize,
    },
    /// A string cell of a grid that is no symbol or blank of its size.
    #[error("{at}: found the string {found:?}; expected {}", Format::Strings.cell(*size))]
    BadString {
        /// Where.
        at: Location,
        /// The string.
        found: String,
        /// The board's size N.
        size: usize,
    },
    /// A number cell of a grid that is not an integer 0 to N.
    #[error("{at}: found {found}; expected {}", Format::Numbers.cell(*size))]
    BadNumber {
        /// Where.
        at: Location,
        /// The number, as written.
        found: String,
        /// The board's size N.
        size: usize,
    },
    #[error(
        "{at} is {found}, but earlier cells are {}, and one board uses one representation: expected {}",
        expected.cells(),
        expected.cell(*size)
    )]
    /// A grid whose cells mix strings and numbers.
    MixedRepresentation {
        /// The first cell of the other kind.
        at: Location,
        /// What that cell is.
        found: &'static str,
        /// The representation of the cells before it.
        expected: Format,
        /// The board's size N.
        size: usize,
    },
    #[error(
        "{at} is null, a blank only in a grid of numbers, but this grid's cells are strings: expected {}",
        Format::Strings.cell(*size)
    )]
    /// A `null` in a grid of strings (null is a blank only among numbers).
    NullAmongStrings {
        /// Where.
        at: Location,
        /// The board's size N.
        size: usize,
    },
    /// A box shape whose size is not the board's.
    #[error("box {shape} makes a {n}x{n} grid, but the board is {size}x{size}", n = shape.size())]
    BoxMismatch {
        /// The box given.
        shape: Shape,
        /// The board's size N.
        size: usize,
    },
}

impl BoardError {
    /// The error with the board's size `size` in its message, where it has one.
    pub fn set_size(&mut self, size: usize) {
        match self {
            BoardError::BadCharacter { size: at, .. }
            | BoardError::BadString { size: at, .. }
            | BoardError::BadNumber { size: at, .. }
            | BoardError::MixedRepresentation { size: at, .. }
            | BoardError::NullAmongStrings { size: at, .. } => *at = size,
            _ => {}
        }
    }

    /// A JSON Pointer (RFC 6901) to the part of the request the error is about.
    pub fn json_pointer(&self) -> String {
        match self {
            BoardError::Missing => String::new(),
            BoardError::WrongType { .. }
            | BoardError::CellCount { .. }
            | BoardError::NoRows
            | BoardError::RowCount { .. } => "/board".to_owned(),
            BoardError::RowSize { .. } => "/board/0".to_owned(),
            BoardError::RowType { row, .. } | BoardError::RowLength { row, .. } => {
                format!("/board/{row}")
            }
            BoardError::CellType { at, .. }
            | BoardError::BadCharacter { at, .. }
            | BoardError::BadString { at, .. }
            | BoardError::BadNumber { at, .. }
            | BoardError::MixedRepresentation { at, .. }
            | BoardError::NullAmongStrings { at, .. } => at.json_pointer(),
            BoardError::BoxMismatch { .. } => "/box".to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_place_and_the_value() {
        let error = BoardError::BadNumber { at: Location::cell(2, 7), found: "12".into(), size: 9 };
        assert_eq!(error.to_string(), "board[2][7]: found 12; expected an integer 0-9 (0 or null for blank)");
        assert_eq!(error.json_pointer(), "/board/2/7");

        let error = BoardError::BadCharacter { at: Location::offset(13, 12, 9), found: 'x', size: 9 };
        assert_eq!(
            error.to_string(),
            "board character at byte offset 13 (cell 12: row 1, col 3): found 'x'; expected a digit 1-9, or '.' or '0' for blank"
        );
        assert_eq!(error.json_pointer(), "/board");
        assert_eq!(BoardError::RowLength { row: 4, found: 8, expected: 9 }.json_pointer(), "/board/4");
        assert_eq!(BoardError::Missing.json_pointer(), "");
    }

    #[test]
    fn messages_about_sizes_list_them() {
        assert_eq!(
            BoardError::CellCount { found: 80 }.to_string(),
            "the board has 80 cells, which fits no grid: a board has 16 (4x4), 36 (6x6), 64 (8x8), 81 (9x9), 100 (10x10), 144 (12x12), \
             225 (15x15), 256 (16x16), 400 (20x20), or 625 (25x25) cells"
        );
        assert_eq!(
            BoardError::RowSize { found: 7 }.to_string(),
            "board[0] has 7 cells, which fits no grid: a row has 4, 6, 8, 9, 10, 12, 15, 16, 20, or 25 cells"
        );
        let error = BoardError::BadString { at: Location::cell(0, 1), found: "H".into(), size: 16 };
        assert_eq!(
            error.to_string(),
            "board[0][1]: found the string \"H\"; expected \"1\" to \"9\" or \"A\" to \"G\", or \".\" for blank"
        );
        let error = BoardError::BoxMismatch { shape: Shape::new(2, 3).unwrap(), size: 8 };
        assert_eq!(error.to_string(), "box 2x3 makes a 6x6 grid, but the board is 8x8");
        assert_eq!(error.json_pointer(), "/box");
    }
}

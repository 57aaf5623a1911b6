//! Why a board could not be read, and where.
//!
//! Every variant names the exact spot (row and column, or character position) and what was found
//! there, because the person reading a 422 or a CLI `error` line has to fix their input from the
//! message alone.

use std::fmt;

use super::Format;
use crate::position::Cell;

/// Where in the input a problem was found. Rows and columns are 0-based, as in `conflicts`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// A cell of a grid (array) representation, or of a decoded board.
    Cell(Cell),
    /// A character of the text representation.
    Offset {
        /// Its byte offset in the string.
        offset: usize,
        /// The cell it would have filled.
        cell: Cell,
    },
}

impl Location {
    /// A JSON Pointer (RFC 6901) to the offending value inside the request's `board` member.
    pub fn json_pointer(&self) -> String {
        match *self {
            Location::Cell(cell) => format!("/board/{}/{}", cell.row(), cell.col()),
            Location::Offset { .. } => "/board".to_owned(),
        }
    }
}

/// `board[3][4]` (0-based, as the JSON array is indexed), or the character's byte offset and
/// the cell it would have filled.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Location::Cell(cell) => write!(f, "board[{}][{}]", cell.row(), cell.col()),
            Location::Offset { offset, cell } => write!(
                f,
                "board character at byte offset {offset} (cell {}: row {}, col {})",
                cell.index(),
                cell.row(),
                cell.col()
            ),
        }
    }
}

/// A board that could not be read. Each variant is a distinct mistake with its position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// No board was given at all.
    #[error("the request has no `board` member")]
    Missing,
    /// The board is neither a string nor an array.
    #[error("`board` is {found}; expected a string of 81 cells or an array of 9 rows of 9 cells")]
    WrongType {
        /// What it is instead, as JSON names it ("a number", "an object"...).
        found: &'static str,
    },
    /// A text board with other than 81 cells.
    #[error("`board` has {found} cells; expected 81 (digits 1-9, and '.' or '0' for blank)")]
    CellCount {
        /// How many cells it has.
        found: usize,
    },
    /// A grid with other than 9 rows.
    #[error("`board` has {found} rows; expected 9")]
    RowCount {
        /// How many rows it has.
        found: usize,
    },
    /// A row of a grid that is not an array.
    #[error("board[{row}] is {found}; expected an array of 9 cells")]
    RowType {
        /// The row, 0-based.
        row: usize,
        /// What it is instead.
        found: &'static str,
    },
    /// A row of a grid with other than 9 cells.
    #[error("board[{row}] has {found} cells; expected 9")]
    RowLength {
        /// The row, 0-based.
        row: usize,
        /// How many cells it has.
        found: usize,
    },
    /// A grid cell that is neither a string nor a number.
    #[error("{at} is {found}; expected a one-character string or an integer 0-9")]
    CellType {
        /// Where.
        at: Location,
        /// What it is instead.
        found: &'static str,
    },
    /// A character of a text board that is no digit or blank.
    #[error("{at}: found {found:?}; expected {}", Format::Text.cell())]
    BadCharacter {
        /// Where.
        at: Location,
        /// The character.
        found: char,
    },
    /// A string cell of a grid that is no digit or blank.
    #[error("{at}: found the string {found:?}; expected {}", Format::Strings.cell())]
    BadString {
        /// Where.
        at: Location,
        /// The string.
        found: String,
    },
    /// A number cell of a grid that is not an integer 0-9.
    #[error("{at}: found {found}; expected {}", Format::Numbers.cell())]
    BadNumber {
        /// Where.
        at: Location,
        /// The number, as written.
        found: String,
    },
    #[error(
        "{at} is {found}, but earlier cells are {}, and one board uses one representation: expected {}",
        expected.cells(),
        expected.cell()
    )]
    /// A grid whose cells mix strings and numbers.
    MixedRepresentation {
        /// The first cell of the other kind.
        at: Location,
        /// What that cell is.
        found: &'static str,
        /// The representation of the cells before it.
        expected: Format,
    },
    #[error(
        "{at} is null, a blank only in a grid of numbers, but this grid's cells are strings: expected {}",
        Format::Strings.cell()
    )]
    /// A `null` in a grid of strings (null is a blank only among numbers).
    NullAmongStrings {
        /// Where.
        at: Location,
    },
}

impl BoardError {
    /// A JSON Pointer (RFC 6901) to the part of the request the error is about.
    pub fn json_pointer(&self) -> String {
        match self {
            BoardError::Missing => String::new(),
            BoardError::WrongType { .. } | BoardError::CellCount { .. } | BoardError::RowCount { .. } => {
                "/board".to_owned()
            }
            BoardError::RowType { row, .. } | BoardError::RowLength { row, .. } => {
                format!("/board/{row}")
            }
            BoardError::CellType { at, .. }
            | BoardError::BadCharacter { at, .. }
            | BoardError::BadString { at, .. }
            | BoardError::BadNumber { at, .. }
            | BoardError::MixedRepresentation { at, .. }
            | BoardError::NullAmongStrings { at } => at.json_pointer(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_place_and_the_value() {
        let error = BoardError::BadNumber { at: Location::Cell(Cell::new(2, 7).unwrap()), found: "12".into() };
        assert_eq!(error.to_string(), "board[2][7]: found 12; expected an integer 0-9 (0 or null for blank)");
        assert_eq!(error.json_pointer(), "/board/2/7");

        let error = BoardError::BadCharacter { at: Location::Offset { offset: 13, cell: Cell::at(12) }, found: 'x' };
        assert_eq!(
            error.to_string(),
            "board character at byte offset 13 (cell 12: row 1, col 3): found 'x'; expected a digit 1-9, or '.' or '0' for blank"
        );
        assert_eq!(error.json_pointer(), "/board");
        assert_eq!(BoardError::RowLength { row: 4, found: 8 }.json_pointer(), "/board/4");
        assert_eq!(BoardError::Missing.json_pointer(), "");
    }
}

//! The three JSON representations of a board, read and written without an intermediate tree.
//!
//! Reading goes straight from serde's events into a [`Board`]: no `serde_json::Value`, no
//! per-cell `String`. Shape mistakes (wrong type, wrong length, bad cell) are not serde errors but
//! a [`BoardError`] carried as the deserialized value, so the HTTP layer can tell a syntax error
//! (400) from an invalid board (422) and still say exactly which cell was wrong. After the first
//! mistake the rest of the board is skipped with [`IgnoredAny`], so one request yields one error.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use super::{Board, BoardError, CELLS, Location};
use crate::member::{Choice, choice_traits, whole_number};
use crate::position::Cell;

/// How a board was written in a request, so the answer can be written the same way. By name
/// (`strings`, `text`, `numbers`) where a request chooses the representation of boards it does
/// not send.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// LeetCode 37 style: 9 arrays of 9 one-character strings, `"1"`-`"9"` or `"."`.
    Strings,
    /// One string of 81 cells, `1`-`9` and `.` or `0`; whitespace between cells is ignored.
    #[default]
    Text,
    /// 9 arrays of 9 integers 0-9, `0` or `null` for blank.
    Numbers,
}

impl Format {
    /// Every representation, as the API lists them.
    pub const ALL: [Format; 3] = [Format::Text, Format::Strings, Format::Numbers];

    /// What the cells of a board in this representation are, for messages: `strings`.
    pub(super) fn cells(self) -> &'static str {
        match self {
            Format::Strings => "strings",
            Format::Text => "characters of one string",
            Format::Numbers => "numbers",
        }
    }

    /// What one cell of this representation may be, for messages.
    pub(super) fn cell(self) -> &'static str {
        match self {
            Format::Strings => "\"1\" to \"9\", or \".\" for blank",
            Format::Text => "a digit 1-9, or '.' or '0' for blank",
            Format::Numbers => "an integer 0-9 (0 or null for blank)",
        }
    }
}

impl Choice for Format {
    const KIND: &'static str = "format";
    const ALL: &'static [Format] = &Format::ALL;

    fn name(self) -> &'static str {
        match self {
            Format::Strings => "strings",
            Format::Text => "text",
            Format::Numbers => "numbers",
        }
    }
}

choice_traits!(Format);

/// A request's `board` member: the board and its representation, or why it is not a board.
///
/// Its `Default` is the "missing" error, so `#[serde(default)]` on a request field turns an
/// absent `board` into [`BoardError::Missing`] rather than a serde error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonBoard(Result<(Board, Format), BoardError>);

impl JsonBoard {
    /// The board and the representation it came in.
    pub fn into_result(self) -> Result<(Board, Format), BoardError> {
        self.0
    }
}

impl Default for JsonBoard {
    fn default() -> JsonBoard {
        JsonBoard(Err(BoardError::Missing))
    }
}

impl<'de> Deserialize<'de> for JsonBoard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<JsonBoard, D::Error> {
        deserializer.deserialize_any(BoardVisitor).map(JsonBoard)
    }
}

/// A board written in a chosen representation.
#[derive(Clone, Copy, Debug)]
pub struct FormattedBoard {
    /// The board.
    pub board: Board,
    /// How to write it.
    pub format: Format,
}

const CELL_STRINGS: [&str; 10] = [".", "1", "2", "3", "4", "5", "6", "7", "8", "9"];

impl Serialize for FormattedBoard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.format == Format::Text {
            let mut line = [0u8; CELLS];
            self.board.write_line(&mut line);
            // write_line only emits ASCII digits and '.'.
            return serializer.serialize_str(std::str::from_utf8(&line).expect("board line is ASCII"));
        }
        let mut rows = serializer.serialize_seq(Some(9))?;
        for cells in self.board.cells().chunks_exact(9) {
            rows.serialize_element(&FormattedRow { cells, format: self.format })?;
        }
        rows.end()
    }
}

struct FormattedRow<'a> {
    cells: &'a [u8],
    format: Format,
}

impl Serialize for FormattedRow<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut row = serializer.serialize_seq(Some(9))?;
        for &value in self.cells {
            match self.format {
                Format::Numbers => row.serialize_element(&value)?,
                _ => row.serialize_element(CELL_STRINGS[usize::from(value)])?,
            }
        }
        row.end()
    }
}

type Parsed = Result<(Board, Format), BoardError>;

/// Consumes the rest of a map so the JSON stream stays in step after a shape error.
fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

fn drain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

struct BoardVisitor;

impl<'de> Visitor<'de> for BoardVisitor {
    type Value = Parsed;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a board: a string of 81 cells or an array of 9 rows")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Parsed, E> {
        Ok(Board::parse_line(text).map(|board| (board, Format::Text)))
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<Parsed, E> {
        Ok(Err(BoardError::WrongType { found: "a boolean" }))
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<Parsed, E> {
        Ok(Err(BoardError::WrongType { found: "a number" }))
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<Parsed, E> {
        Ok(Err(BoardError::WrongType { found: "a number" }))
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<Parsed, E> {
        Ok(Err(BoardError::WrongType { found: "a number" }))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Parsed, E> {
        Ok(Err(BoardError::WrongType { found: "null" }))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Parsed, A::Error> {
        drain_map(map)?;
        Ok(Err(BoardError::WrongType { found: "an object" }))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Parsed, A::Error> {
        let mut grid = GridBuilder { cells: [0; CELLS], format: None, first_null: None, error: None };
        let mut rows = 0;
        while seq.next_element_seed(RowSeed { grid: &mut grid, row: rows })?.is_some() {
            rows += 1;
        }
        Ok(match grid.error {
            Some(error) => Err(error),
            // Nine full rows with no format yet are all nulls: blanks of a numbers grid.
            None if rows == 9 => Ok((Board { cells: grid.cells }, grid.format.unwrap_or(Format::Numbers))),
            None => Err(BoardError::RowCount { found: rows }),
        })
    }
}

/// Collects cells of a grid representation; keeps the first error and ignores what follows.
///
/// The first string or number fixes the representation. A null fixes none, since it is a blank
/// of a numbers grid: it stays a blank until a string shows the grid is of strings, and is then
/// the error (the first null is kept for that).
struct GridBuilder {
    cells: [u8; CELLS],
    format: Option<Format>,
    first_null: Option<Location>,
    error: Option<BoardError>,
}

impl GridBuilder {
    fn put(&mut self, cell: Cell, value: CellValue) {
        let at = Location::Cell(cell);
        let (format, value) = match value {
            CellValue::Text(value) => (Format::Strings, value.map_err(|found| BoardError::BadString { at, found })),
            CellValue::Number(value) => (Format::Numbers, value.map_err(|found| BoardError::BadNumber { at, found })),
            CellValue::Null => {
                if self.format == Some(Format::Strings) {
                    self.error = Some(BoardError::NullAmongStrings { at });
                }
                self.first_null.get_or_insert(at);
                return;
            }
            CellValue::Other(found) => {
                self.error = Some(BoardError::CellType { at, found });
                return;
            }
        };
        let expected = *self.format.get_or_insert(format);
        if expected != format {
            let found = if format == Format::Strings { "a string" } else { "a number" };
            self.error = Some(BoardError::MixedRepresentation { at, found, expected });
            return;
        }
        if let (Format::Strings, Some(null)) = (format, self.first_null) {
            self.error = Some(BoardError::NullAmongStrings { at: null });
            return;
        }
        match value {
            Ok(digit) => self.cells[cell.index()] = digit,
            Err(error) => self.error = Some(error),
        }
    }
}

struct RowSeed<'a> {
    grid: &'a mut GridBuilder,
    row: usize,
}

impl<'de> DeserializeSeed<'de> for RowSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        if self.row >= 9 || self.grid.error.is_some() {
            deserializer.deserialize_ignored_any(IgnoredAny)?;
            return Ok(());
        }
        deserializer.deserialize_any(self)
    }
}

impl RowSeed<'_> {
    fn wrong_type<E>(self, found: &'static str) -> Result<(), E> {
        self.grid.error = Some(BoardError::RowType { row: self.row, found });
        Ok(())
    }
}

impl<'de> Visitor<'de> for RowSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a row of 9 cells")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut col = 0;
        while let Some(read) = seq.next_element_seed(CellSeed { skip: col >= 9 || self.grid.error.is_some() })? {
            if let Some(value) = read {
                // Rows and columns past the ninth are skipped, so the cell is on the board.
                let cell = Cell::new(self.row as u8, col as u8).expect("a cell within the first nine rows and columns");
                self.grid.put(cell, value);
            }
            col += 1;
        }
        if self.grid.error.is_none() && col != 9 {
            self.grid.error = Some(BoardError::RowLength { row: self.row, found: col });
        }
        Ok(())
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<(), E> {
        self.wrong_type("a string")
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<(), E> {
        self.wrong_type("a boolean")
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<(), E> {
        self.wrong_type("a number")
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<(), E> {
        self.wrong_type("a number")
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<(), E> {
        self.wrong_type("a number")
    }

    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.wrong_type("null")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        drain_map(map)?;
        self.wrong_type("an object")
    }
}

/// One grid cell as found, before it is checked against the board's representation.
enum CellValue {
    /// A string cell: its digit (0 for "."), or the offending text.
    Text(Result<u8, String>),
    /// A number cell: its digit (0 for blank), or the offending number as written.
    Number(Result<u8, String>),
    /// `null`: a blank, in a grid of numbers only.
    Null,
    /// Neither: what it was instead.
    Other(&'static str),
}

/// Reads one cell; `skip` consumes it unread once the row is already too long or wrong.
struct CellSeed {
    skip: bool,
}

impl<'de> DeserializeSeed<'de> for CellSeed {
    type Value = Option<CellValue>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<CellValue>, D::Error> {
        if self.skip {
            deserializer.deserialize_ignored_any(IgnoredAny)?;
            return Ok(None);
        }
        deserializer.deserialize_any(CellVisitor).map(Some)
    }
}

struct CellVisitor;

/// Longest part of a bad string cell echoed back in an error message.
const ECHO_CHARS: usize = 16;

impl<'de> Visitor<'de> for CellVisitor {
    type Value = CellValue;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a cell: a one-character string or an integer 0-9")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<CellValue, E> {
        Ok(CellValue::Text(match text.as_bytes() {
            [b'.'] => Ok(0),
            [digit @ b'1'..=b'9'] => Ok(digit - b'0'),
            _ => Err(text.chars().take(ECHO_CHARS).collect()),
        }))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<CellValue, E> {
        Ok(CellValue::Number(match u8::try_from(value) {
            Ok(digit @ 0..=9) => Ok(digit),
            _ => Err(value.to_string()),
        }))
    }

    fn visit_i64<E: de::Error>(self, value: i64) -> Result<CellValue, E> {
        match u64::try_from(value) {
            Ok(value) => self.visit_u64(value),
            Err(_) => Ok(CellValue::Number(Err(value.to_string()))),
        }
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<CellValue, E> {
        match whole_number(value) {
            // `5.0`, `5e0` and `-0` are the integers 5 and 0, as the schema's `enum` has them.
            Some(value) => self.visit_u64(value),
            // Debug keeps the fraction ("2.5"), so the message shows why it is not an integer.
            None => Ok(CellValue::Number(Err(format!("{value:?}")))),
        }
    }

    fn visit_unit<E: de::Error>(self) -> Result<CellValue, E> {
        Ok(CellValue::Null)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<CellValue, E> {
        Ok(CellValue::Other("a boolean"))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<CellValue, A::Error> {
        drain_seq(seq)?;
        Ok(CellValue::Other("an array"))
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<CellValue, A::Error> {
        drain_map(map)?;
        Ok(CellValue::Other("an object"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    use crate::board::EXAMPLE_PUZZLE as LINE;

    fn cell(row: u8, col: u8) -> Cell {
        Cell::new(row, col).unwrap()
    }

    fn read(json: &str) -> Parsed {
        serde_json::from_str::<JsonBoard>(json).expect("valid JSON").into_result()
    }

    fn strings_json() -> String {
        let rows: Vec<Vec<String>> =
            LINE.as_bytes().chunks(9).map(|row| row.iter().map(|&c| (c as char).to_string()).collect()).collect();
        serde_json::to_string(&rows).unwrap()
    }

    fn numbers_json() -> String {
        let rows: Vec<Vec<u8>> = LINE
            .as_bytes()
            .chunks(9)
            .map(|row| row.iter().map(|&c| if c == b'.' { 0 } else { c - b'0' }).collect())
            .collect();
        serde_json::to_string(&rows).unwrap()
    }

    #[test]
    fn reads_all_three_representations() {
        let expected: Board = LINE.parse().unwrap();
        assert_eq!(read(&format!("{LINE:?}")), Ok((expected, Format::Text)));
        assert_eq!(read(&strings_json()), Ok((expected, Format::Strings)));
        assert_eq!(read(&numbers_json()), Ok((expected, Format::Numbers)));
    }

    #[test]
    fn whole_numbers_are_digits_however_written() {
        let expected: Board = LINE.parse().unwrap();
        let written = numbers_json().replacen("[5,3,0,0,7", "[5.0,3e0,-0,0.0,70e-1", 1);
        assert_eq!(read(&written), Ok((expected, Format::Numbers)));
    }

    #[test]
    fn null_is_a_blank_number() {
        let json = numbers_json().replacen("[5,3,0", "[5,3,null", 1);
        assert_eq!(read(&json).unwrap().1, Format::Numbers);
    }

    #[test]
    fn writes_back_in_the_same_representation() {
        for json in [format!("{LINE:?}"), strings_json(), numbers_json()] {
            let (board, format) = read(&json).unwrap();
            let written = serde_json::to_string(&FormattedBoard { board, format }).unwrap();
            assert_eq!(written, json);
        }
    }

    #[test]
    fn shape_errors_name_the_place() {
        assert_eq!(read("7"), Err(BoardError::WrongType { found: "a number" }));
        assert_eq!(read("null"), Err(BoardError::WrongType { found: "null" }));
        assert_eq!(read(r#"{"a":[1,2]}"#), Err(BoardError::WrongType { found: "an object" }));
        assert_eq!(read("[]"), Err(BoardError::RowCount { found: 0 }));
        let ten_rows = numbers_json().replacen('[', "[[0,0,0,0,0,0,0,0,0],", 1);
        assert_eq!(read(&ten_rows), Err(BoardError::RowCount { found: 10 }));
        let short_row = numbers_json().replacen("[5,3,0,", "[5,3,", 1);
        assert_eq!(read(&short_row), Err(BoardError::RowLength { row: 0, found: 8 }));
        let row_string = numbers_json().replacen("[5,3,0,0,7,0,0,0,0]", "\"530070000\"", 1);
        assert_eq!(read(&row_string), Err(BoardError::RowType { row: 0, found: "a string" }));
        let cell_bool = numbers_json().replacen("[5,3,0", "[5,true,0", 1);
        assert_eq!(read(&cell_bool), Err(BoardError::CellType { at: Location::Cell(cell(0, 1)), found: "a boolean" }));
    }

    #[test]
    fn cell_errors_name_the_cell_and_value() {
        let at = Location::Cell(cell(0, 1));
        let big = numbers_json().replacen("[5,3,", "[5,10,", 1);
        assert_eq!(read(&big), Err(BoardError::BadNumber { at, found: "10".into() }));
        let negative = numbers_json().replacen("[5,3,", "[5,-3,", 1);
        assert_eq!(read(&negative), Err(BoardError::BadNumber { at, found: "-3".into() }));
        let fraction = numbers_json().replacen("[5,3,", "[5,2.5,", 1);
        assert_eq!(read(&fraction), Err(BoardError::BadNumber { at, found: "2.5".into() }));
        let past_nine = numbers_json().replacen("[5,3,", "[5,1e1,", 1);
        assert_eq!(read(&past_nine), Err(BoardError::BadNumber { at, found: "10".into() }));
        let two_chars = strings_json().replacen(r#"["5","3""#, r#"["5","34""#, 1);
        assert_eq!(read(&two_chars), Err(BoardError::BadString { at, found: "34".into() }));
        let mixed = strings_json().replacen(r#"["5","3""#, r#"["5",3"#, 1);
        let error = BoardError::MixedRepresentation { at, found: "a number", expected: Format::Strings };
        assert_eq!(read(&mixed), Err(error.clone()));
        assert_eq!(
            error.to_string(),
            "board[0][1] is a number, but earlier cells are strings, and one board uses one representation: \
             expected \"1\" to \"9\", or \".\" for blank"
        );
    }

    #[test]
    fn a_null_is_a_blank_of_numbers_only() {
        let expected: Board = LINE.parse().unwrap();
        let all_null: Vec<Vec<Value>> = vec![vec![Value::Null; 9]; 9];
        assert_eq!(read(&serde_json::to_string(&all_null).unwrap()), Ok((Board::EMPTY, Format::Numbers)));
        let numbers_then_null = numbers_json().replacen("[5,3,0", "[5,3,null", 1);
        assert_eq!(read(&numbers_then_null), Ok((expected, Format::Numbers)));
        let null_then_numbers = numbers_json().replacen("[5,3,0,0,7,0,0,0,0],[6", "[5,3,0,0,7,0,0,0,null],[6", 1);
        assert_eq!(read(&null_then_numbers), Ok((expected, Format::Numbers)));

        // In a grid of strings a null is the mistake, after the strings or before them.
        let strings_then_null = strings_json().replacen(r#"["5","3",".","#, r#"["5","3",null,"#, 1);
        let at = Location::Cell(cell(0, 2));
        let error = BoardError::NullAmongStrings { at };
        assert_eq!(read(&strings_then_null), Err(error.clone()));
        assert_eq!(
            error.to_string(),
            "board[0][2] is null, a blank only in a grid of numbers, but this grid's cells are strings: \
             expected \"1\" to \"9\", or \".\" for blank"
        );
        assert_eq!(error.json_pointer(), "/board/0/2");
        let null_then_strings = strings_json().replacen(r#"[["5""#, "[[null", 1);
        let at = Location::Cell(cell(0, 0));
        assert_eq!(read(&null_then_strings), Err(BoardError::NullAmongStrings { at }));
    }

    #[test]
    fn reports_only_the_first_error_and_keeps_the_stream_in_step() {
        let json = r#"{"board":[[1,2,{"x":[1]}],[true]],"after":1}"#;
        #[derive(Deserialize)]
        struct Request {
            board: JsonBoard,
            after: u8,
        }
        let request: Request = serde_json::from_str(json).unwrap();
        assert_eq!(request.after, 1);
        assert_eq!(
            request.board.into_result(),
            Err(BoardError::CellType { at: Location::Cell(cell(0, 2)), found: "an object" })
        );
    }

    #[test]
    fn a_missing_member_defaults_to_the_missing_error() {
        #[derive(Deserialize)]
        struct Request {
            #[serde(default)]
            board: JsonBoard,
        }
        let request: Request = serde_json::from_str("{}").unwrap();
        assert_eq!(request.board.into_result(), Err(BoardError::Missing));
    }
}

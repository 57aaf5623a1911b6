//! The three JSON representations of a board of any size, read and written without an
//! intermediate tree.
//!
//! Reading goes straight from serde's events into cells: no `serde_json::Value`, no per-cell
//! `String`. Shape mistakes (wrong type, wrong length, bad cell) are not serde errors but a
//! [`BoardError`] carried as the deserialized value, so the HTTP layer can tell a syntax error
//! (400) from an invalid board (422) and still say exactly which cell was wrong. After the first
//! mistake the rest of the board is skipped with [`IgnoredAny`], so one request yields one error.
//!
//! The size of a grid of rows is its first row's length, so that row's cells are read against the
//! largest size and checked against the real one when the row ends.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::{SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use super::{Board, BoardError, Format, Location, SIZE};
use crate::member::whole_number;
use sudokud_model::any::{AnyGrid, ReadCells};
use sudokud_model::shape::{MAX_CELLS, MAX_SIZE, SIZES, Shape, symbol, symbol_byte, value_of};

/// A request's `board` member: the cells and their representation, or why it is not a board.
/// Its box shape comes from another member, so [`JsonBoard::with_box`] makes it a grid.
///
/// Its `Default` is the "missing" error, so `#[serde(default)]` on a request field turns an
/// absent `board` into [`BoardError::Missing`] rather than a serde error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonBoard(Result<(ReadCells, Format), BoardError>);

impl JsonBoard {
    /// The board a JSON string holds, as its text: what a `board` member that is a string reads
    /// as (the service's shortcut for the commonest body reads it here too).
    pub fn text(text: &str) -> JsonBoard {
        JsonBoard(ReadCells::parse(text).map(|cells| (cells, Format::Text)))
    }

    /// Whether the request had no `board` member at all (its `Default`).
    pub fn is_missing(&self) -> bool {
        self.0 == Err(BoardError::Missing)
    }

    /// The grid, with boxes of `shape` when given (it must fit the board's size) or else of the
    /// size's default ([`Shape::default_for`]), and the representation it came in.
    pub fn with_box(self, shape: Option<Shape>) -> Result<(AnyGrid, Format), BoardError> {
        let (cells, format) = self.0?;
        Ok((cells.with_box(shape)?, format))
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

/// A grid of any size written in a chosen representation.
#[derive(Clone, Debug)]
pub struct FormattedGrid {
    /// The grid.
    pub grid: AnyGrid,
    /// How to write it.
    pub format: Format,
}

impl Serialize for FormattedGrid {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serialize_cells(self.grid.cells(), self.grid.shape().size(), self.format, serializer)
    }
}

impl FormattedGrid {
    /// Appends the grid's JSON to `out`: the text `serde_json` writes for it (a test holds the two
    /// to the same bytes), without a serializer. Symbols need no escaping, so a grid is its
    /// symbols between quotes and brackets: for a solve's answer about a tenth of the
    /// serializer's instructions.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        let (cells, size) = (self.grid.cells(), self.grid.shape().size());
        if self.format == Format::Text {
            out.push(b'"');
            out.extend(cells.iter().map(|&value| symbol_byte(value)));
            out.push(b'"');
            return;
        }
        out.push(b'[');
        for (at, row) in cells.chunks_exact(size).enumerate() {
            out.extend_from_slice(if at == 0 { b"[" } else { b",[" });
            for (at, &value) in row.iter().enumerate() {
                if at > 0 {
                    out.push(b',');
                }
                match self.format {
                    // At most 25: one or two digits.
                    Format::Numbers if value >= 10 => out.extend_from_slice(&[b'0' + value / 10, b'0' + value % 10]),
                    Format::Numbers => out.push(b'0' + value),
                    _ => out.extend_from_slice(&[b'"', symbol_byte(value), b'"']),
                }
            }
            out.push(b']');
        }
        out.push(b']');
    }
}

/// One string per symbol, so that a grid of strings is written without allocating.
const SYMBOL_STRINGS: [&str; MAX_SIZE + 1] = [
    ".", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M",
    "N", "O", "P",
];

/// Writes `cells` (`size` x `size`, row-major) in `format`.
fn serialize_cells<S: Serializer>(cells: &[u8], size: usize, format: Format, serializer: S) -> Result<S::Ok, S::Error> {
    if format == Format::Text {
        let mut line = [0u8; MAX_CELLS];
        for (byte, &value) in line.iter_mut().zip(cells) {
            *byte = symbol_byte(value);
        }
        // Every symbol is ASCII.
        return serializer.serialize_str(std::str::from_utf8(&line[..cells.len()]).expect("symbols are ASCII"));
    }
    let mut rows = serializer.serialize_seq(Some(size))?;
    for cells in cells.chunks_exact(size) {
        rows.serialize_element(&FormattedRow { cells, format })?;
    }
    rows.end()
}

struct FormattedRow<'a> {
    cells: &'a [u8],
    format: Format,
}

impl Serialize for FormattedRow<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut row = serializer.serialize_seq(Some(self.cells.len()))?;
        for &value in self.cells {
            match self.format {
                Format::Numbers => row.serialize_element(&value)?,
                _ => row.serialize_element(SYMBOL_STRINGS[usize::from(value)])?,
            }
        }
        row.end()
    }
}

type Parsed = Result<(ReadCells, Format), BoardError>;

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
        f.write_str("a board: a string of N x N cells or an array of N rows")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Parsed, E> {
        Ok(JsonBoard::text(text).0)
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
        let mut grid = GridBuilder {
            cells: [0; MAX_CELLS],
            size: None,
            format: None,
            first_null: None,
            lower_case: 0,
            error: None,
        };
        let mut rows = 0;
        while seq.next_element_seed(RowSeed { grid: &mut grid, row: rows })?.is_some() {
            rows += 1;
        }
        Ok(grid.finish(rows))
    }
}

/// Collects cells of a grid representation; keeps the first error and ignores what follows.
///
/// The first string or number fixes the representation. A null fixes none, since it is a blank
/// of a numbers grid: it stays a blank until a string shows the grid is of strings, and is then
/// the error (the first null is kept for that).
///
/// The first row's cells are read against the largest size, with errors that name it, since the
/// size is that row's length; [`GridBuilder::end_first_row`] puts the real size in.
struct GridBuilder {
    cells: [u8; MAX_CELLS],
    /// N, known once the first row has ended.
    size: Option<usize>,
    format: Option<Format>,
    first_null: Option<Location>,
    /// Which string cells of the first row were lower-case letters, to echo them as written.
    lower_case: u32,
    /// The first error, and the column it is in while the first row is read.
    error: Option<(usize, BoardError)>,
}

impl GridBuilder {
    fn stride(&self) -> usize {
        self.size.unwrap_or(MAX_SIZE)
    }

    fn failed(&self) -> bool {
        self.error.is_some()
    }

    fn fail(&mut self, col: usize, error: BoardError) {
        self.error.get_or_insert((col, error));
    }

    fn put(&mut self, row: usize, col: usize, value: CellValue) {
        let at = Location::cell(row, col);
        let size = self.stride();
        let (format, value) = match value {
            CellValue::Text(Ok((value, lower_case))) => {
                if row == 0 && lower_case {
                    self.lower_case |= 1 << col;
                }
                let found = || as_written(value, lower_case);
                let value = (usize::from(value) <= size).then_some(value);
                (Format::Strings, value.ok_or_else(|| BoardError::BadString { at, found: found(), size }))
            }
            CellValue::Text(Err(found)) => (Format::Strings, Err(BoardError::BadString { at, found, size })),
            CellValue::Number(Ok(value)) if usize::from(value) <= size => (Format::Numbers, Ok(value)),
            CellValue::Number(Ok(value)) => {
                (Format::Numbers, Err(BoardError::BadNumber { at, found: value.to_string(), size }))
            }
            CellValue::Number(Err(found)) => (Format::Numbers, Err(BoardError::BadNumber { at, found, size })),
            CellValue::Null => {
                if self.format == Some(Format::Strings) {
                    self.fail(col, BoardError::NullAmongStrings { at, size });
                }
                self.first_null.get_or_insert(at);
                return;
            }
            CellValue::Other(found) => {
                self.fail(col, BoardError::CellType { at, found });
                return;
            }
        };
        let expected = *self.format.get_or_insert(format);
        if expected != format {
            let found = if format == Format::Strings { "a string" } else { "a number" };
            self.fail(col, BoardError::MixedRepresentation { at, found, expected, size });
            return;
        }
        if let (Format::Strings, Some(null)) = (format, self.first_null) {
            self.fail(col, BoardError::NullAmongStrings { at: null, size });
            return;
        }
        match value {
            Ok(value) => self.cells[row * size + col] = value,
            Err(error) => self.fail(col, error),
        }
    }

    /// The first row had `length` cells: that is the size, if it is one. Its cells, read against
    /// the largest size, are checked against this one, and its error (if any) now names it.
    fn end_first_row(&mut self, length: usize) {
        if !SIZES.contains(&length) {
            // The row's length is the first thing to fix: cells are judged against it.
            self.error = Some((0, BoardError::RowSize { found: length }));
            return;
        }
        self.size = Some(length);
        let first_too_big = (0..length).find(|&col| usize::from(self.cells[col]) > length);
        if let Some(col) = first_too_big.filter(|&col| self.error.as_ref().is_none_or(|&(at, _)| col < at)) {
            let value = self.cells[col];
            let at = Location::cell(0, col);
            let size = length;
            self.error = Some((
                col,
                match self.format {
                    Some(Format::Strings) => {
                        BoardError::BadString { at, found: as_written(value, self.lower_case & (1 << col) != 0), size }
                    }
                    _ => BoardError::BadNumber { at, found: value.to_string(), size },
                },
            ));
        }
        if let Some((_, error)) = &mut self.error {
            error.set_size(length);
        }
        // The row was laid out with the largest size's stride, which is its own.
    }

    /// The board, once `rows` rows have been read.
    fn finish(self, rows: usize) -> Parsed {
        if let Some((_, error)) = self.error {
            return Err(error);
        }
        let Some(size) = self.size else { return Err(BoardError::NoRows) };
        if rows != size {
            return Err(BoardError::RowCount { found: rows, expected: size });
        }
        // Full rows with no format yet are all nulls: blanks of a numbers grid.
        let format = self.format.unwrap_or(Format::Numbers);
        let cells = &self.cells[..size * size];
        let cells = match size {
            SIZE => ReadCells::Classic(Board::from_cells(cells.try_into().expect("81 cells")).expect("values 0-9")),
            _ => ReadCells::Sized { size, cells: cells.to_vec() },
        };
        Ok((cells, format))
    }
}

/// The symbol of `value` as a string cell wrote it.
fn as_written(value: u8, lower_case: bool) -> String {
    let symbol = symbol(value);
    if lower_case { symbol.to_ascii_lowercase() } else { symbol }.to_string()
}

struct RowSeed<'a> {
    grid: &'a mut GridBuilder,
    row: usize,
}

impl<'de> DeserializeSeed<'de> for RowSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        if self.row >= self.grid.stride() || self.grid.failed() {
            deserializer.deserialize_ignored_any(IgnoredAny)?;
            return Ok(());
        }
        deserializer.deserialize_any(self)
    }
}

impl RowSeed<'_> {
    fn wrong_type<E>(self, found: &'static str) -> Result<(), E> {
        self.grid.fail(0, BoardError::RowType { row: self.row, found });
        Ok(())
    }
}

impl<'de> Visitor<'de> for RowSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a row of cells")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let width = self.grid.stride();
        let mut col = 0;
        while let Some(read) = seq.next_element_seed(CellSeed { skip: col >= width || self.grid.failed() })? {
            if let Some(value) = read {
                self.grid.put(self.row, col, value);
            }
            col += 1;
        }
        if self.row == 0 {
            self.grid.end_first_row(col);
        } else if !self.grid.failed() && col != width {
            self.grid.fail(0, BoardError::RowLength { row: self.row, found: col, expected: width });
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

/// One grid cell as found, before it is checked against the board's representation and size.
enum CellValue {
    /// A string cell: the value of its symbol read against the largest size, and whether it was
    /// a lower-case letter; or the offending text.
    Text(Result<(u8, bool), String>),
    /// A number cell: its value if it is an integer 0-255, else the number as written.
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
        f.write_str("a cell: a one-character string or an integer")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<CellValue, E> {
        // A blank string cell is "." only; "0" is the blank of text boards and of numbers.
        let value = match text.as_bytes() {
            [byte] if *byte != b'0' => value_of(*byte, MAX_SIZE).map(|value| (value, byte.is_ascii_lowercase())),
            _ => None,
        };
        Ok(CellValue::Text(value.ok_or_else(|| text.chars().take(ECHO_CHARS).collect())))
    }

    fn visit_u64<E: de::Error>(self, value: u64) -> Result<CellValue, E> {
        Ok(CellValue::Number(u8::try_from(value).map_err(|_| value.to_string())))
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
    use crate::sizes::Grid;
    use serde_json::Value;

    use crate::board::EXAMPLE_PUZZLE as LINE;

    #[test]
    fn the_strings_of_symbols_are_the_symbols() {
        for (value, string) in (0..).zip(SYMBOL_STRINGS) {
            assert_eq!(string, symbol(value).to_string());
        }
    }

    type Read = Result<(AnyGrid, Format), BoardError>;

    fn read(json: &str) -> Read {
        read_with_box(json, None)
    }

    fn read_with_box(json: &str, shape: Option<Shape>) -> Read {
        serde_json::from_str::<JsonBoard>(json).expect("valid JSON").with_box(shape)
    }

    fn classic(line: &str) -> AnyGrid {
        AnyGrid::Classic(line.parse().unwrap())
    }

    /// `line` as a grid of one-character strings, `size` to a row.
    fn strings_of(line: &str, size: usize) -> String {
        let rows: Vec<Vec<String>> =
            line.as_bytes().chunks(size).map(|row| row.iter().map(|&c| (c as char).to_string()).collect()).collect();
        serde_json::to_string(&rows).unwrap()
    }

    /// `line` as a grid of numbers, `size` to a row.
    fn numbers_of(line: &str, size: usize) -> String {
        let shape = Shape::default_for(size).unwrap();
        let rows: Vec<Vec<u8>> =
            line.as_bytes().chunks(size).map(|row| row.iter().map(|&c| shape.value_of(c).unwrap()).collect()).collect();
        serde_json::to_string(&rows).unwrap()
    }

    /// `write_json` against serde_json on the same grids: every size, every representation,
    /// full and with blanks.
    #[test]
    fn a_grid_s_json_is_written_as_serde_json_writes_it() {
        for &size in SIZES.iter() {
            let shape = Shape::default_for(size).unwrap();
            let solved: Vec<u8> = (0..size * size).map(|cell| ((cell * 7 + cell / size) % size + 1) as u8).collect();
            let with_blanks: Vec<u8> =
                solved.iter().enumerate().map(|(cell, &value)| if cell % 3 == 0 { 0 } else { value }).collect();
            for cells in [solved, with_blanks] {
                let line: String = cells.iter().map(|&value| shape.symbol(value)).collect();
                let grid = AnyGrid::parse(&line, Some(shape)).unwrap();
                for format in Format::ALL {
                    let formatted = FormattedGrid { grid: grid.clone(), format };
                    let mut written = Vec::new();
                    formatted.write_json(&mut written);
                    assert_eq!(String::from_utf8(written).unwrap(), serde_json::to_string(&formatted).unwrap());
                }
            }
        }
    }

    fn strings_json() -> String {
        strings_of(LINE, 9)
    }

    fn numbers_json() -> String {
        numbers_of(LINE, 9)
    }

    #[test]
    fn reads_all_three_representations() {
        assert_eq!(read(&format!("{LINE:?}")), Ok((classic(LINE), Format::Text)));
        assert_eq!(read(&strings_json()), Ok((classic(LINE), Format::Strings)));
        assert_eq!(read(&numbers_json()), Ok((classic(LINE), Format::Numbers)));
    }

    #[test]
    fn whole_numbers_are_digits_however_written() {
        let written = numbers_json().replacen("[5,3,0,0,7", "[5.0,3e0,-0,0.0,70e-1", 1);
        assert_eq!(read(&written), Ok((classic(LINE), Format::Numbers)));
    }

    #[test]
    fn null_is_a_blank_number() {
        let json = numbers_json().replacen("[5,3,0", "[5,3,null", 1);
        assert_eq!(read(&json).unwrap().1, Format::Numbers);
    }

    #[test]
    fn writes_back_in_the_same_representation() {
        for json in [format!("{LINE:?}"), strings_json(), numbers_json()] {
            let (grid, format) = read(&json).unwrap();
            assert!(matches!(grid, AnyGrid::Classic(_)), "{grid:?}");
            let written = serde_json::to_string(&FormattedGrid { grid, format }).unwrap();
            assert_eq!(written, json);
        }
    }

    #[test]
    fn every_size_reads_and_writes_back_in_every_representation() {
        for shape in Shape::all() {
            let size = shape.size();
            let cells: Vec<u8> = (0..shape.cells()).map(|index| ((index * 7) % (size + 1)) as u8).collect();
            let grid = AnyGrid::from(Grid::new(shape, cells).unwrap());
            let line = grid.to_string();
            for (json, format) in [
                (format!("{line:?}"), Format::Text),
                (strings_of(&line, size), Format::Strings),
                (numbers_of(&line, size), Format::Numbers),
            ] {
                assert_eq!(read_with_box(&json, Some(shape)), Ok((grid.clone(), format)), "{shape} {json}");
                let written = serde_json::to_string(&FormattedGrid { grid: grid.clone(), format }).unwrap();
                assert_eq!(written, json);
            }
            // Letters are read in either case.
            let lower = strings_of(&line.to_ascii_lowercase(), size);
            assert_eq!(read_with_box(&lower, Some(shape)), Ok((grid.clone(), Format::Strings)));
        }
    }

    #[test]
    fn the_box_defaults_to_the_size_and_must_fit_it() {
        let six = "1.3...4.6..3.3.2...5.6.1..2.5.....1.";
        let (grid, _) = read(&format!("{six:?}")).unwrap();
        assert_eq!(grid.shape(), Shape::new(2, 3).unwrap());
        let (grid, _) = read_with_box(&strings_of(six, 6), Shape::new(3, 2)).unwrap();
        assert_eq!(grid.shape(), Shape::new(3, 2).unwrap());
        assert_eq!(
            read_with_box(&numbers_of(six, 6), Shape::new(2, 4)),
            Err(BoardError::BoxMismatch { shape: Shape::new(2, 4).unwrap(), size: 6 })
        );
        assert_eq!(
            read_with_box(&numbers_json(), Shape::new(2, 3)),
            Err(BoardError::BoxMismatch { shape: Shape::new(2, 3).unwrap(), size: 9 })
        );
        assert_eq!(read_with_box(&numbers_json(), Some(Shape::CLASSIC)), Ok((classic(LINE), Format::Numbers)));
    }

    #[test]
    fn shape_errors_name_the_place() {
        assert_eq!(read("7"), Err(BoardError::WrongType { found: "a number" }));
        assert_eq!(read("null"), Err(BoardError::WrongType { found: "null" }));
        assert_eq!(read(r#"{"a":[1,2]}"#), Err(BoardError::WrongType { found: "an object" }));
        assert_eq!(read("[]"), Err(BoardError::NoRows));
        assert_eq!(read("\"123\""), Err(BoardError::CellCount { found: 3 }));
        let ten_rows = numbers_json().replacen('[', "[[0,0,0,0,0,0,0,0,0],", 1);
        assert_eq!(read(&ten_rows), Err(BoardError::RowCount { found: 10, expected: 9 }));
        let short_first_row = numbers_json().replacen("[5,3,0,0,", "[5,3,", 1);
        assert_eq!(read(&short_first_row), Err(BoardError::RowSize { found: 7 }));
        let short_row = numbers_json().replacen("[6,0,0,1,", "[6,0,1,", 1);
        assert_eq!(read(&short_row), Err(BoardError::RowLength { row: 1, found: 8, expected: 9 }));
        let row_string = numbers_json().replacen("[5,3,0,0,7,0,0,0,0]", "\"530070000\"", 1);
        assert_eq!(read(&row_string), Err(BoardError::RowType { row: 0, found: "a string" }));
        let cell_bool = numbers_json().replacen("[5,3,0", "[5,true,0", 1);
        assert_eq!(read(&cell_bool), Err(BoardError::CellType { at: Location::cell(0, 1), found: "a boolean" }));
        let wide: Vec<Vec<u8>> = vec![vec![0; 30]; 30];
        assert_eq!(read(&serde_json::to_string(&wide).unwrap()), Err(BoardError::RowSize { found: 30 }));
    }

    #[test]
    fn cell_errors_name_the_cell_and_value() {
        let at = Location::cell(0, 1);
        let size = 9;
        let big = numbers_json().replacen("[5,3,", "[5,10,", 1);
        assert_eq!(read(&big), Err(BoardError::BadNumber { at, found: "10".into(), size }));
        let negative = numbers_json().replacen("[5,3,", "[5,-3,", 1);
        assert_eq!(read(&negative), Err(BoardError::BadNumber { at, found: "-3".into(), size }));
        let fraction = numbers_json().replacen("[5,3,", "[5,2.5,", 1);
        assert_eq!(read(&fraction), Err(BoardError::BadNumber { at, found: "2.5".into(), size }));
        let past_nine = numbers_json().replacen("[5,3,", "[5,1e1,", 1);
        assert_eq!(read(&past_nine), Err(BoardError::BadNumber { at, found: "10".into(), size }));
        let huge = numbers_json().replacen("[5,3,", "[5,300,", 1);
        assert_eq!(read(&huge), Err(BoardError::BadNumber { at, found: "300".into(), size }));
        let two_chars = strings_json().replacen(r#"["5","3""#, r#"["5","34""#, 1);
        assert_eq!(read(&two_chars), Err(BoardError::BadString { at, found: "34".into(), size }));
        let letter = strings_json().replacen(r#"["5","3""#, r#"["5","a""#, 1);
        assert_eq!(read(&letter), Err(BoardError::BadString { at, found: "a".into(), size }));
        let zero = strings_json().replacen(r#"["5","3""#, r#"["5","0""#, 1);
        assert_eq!(read(&zero), Err(BoardError::BadString { at, found: "0".into(), size }));
        let later = numbers_json().replacen("[6,0,0,1,", "[6,10,0,1,", 1);
        assert_eq!(read(&later), Err(BoardError::BadNumber { at: Location::cell(1, 1), found: "10".into(), size }));
        let mixed = strings_json().replacen(r#"["5","3""#, r#"["5",3"#, 1);
        let error = BoardError::MixedRepresentation { at, found: "a number", expected: Format::Strings, size };
        assert_eq!(read(&mixed), Err(error.clone()));
        assert_eq!(
            error.to_string(),
            "board[0][1] is a number, but earlier cells are strings, and one board uses one representation: \
             expected \"1\" to \"9\", or \".\" for blank"
        );
    }

    #[test]
    fn the_first_row_is_judged_by_its_own_length() {
        // A value past the size in the first row is the first error, ahead of a later one.
        let mixed_after_big = numbers_json().replacen("[5,3,0,0,7", "[5,12,0,\"1\",7", 1);
        let at = Location::cell(0, 1);
        assert_eq!(read(&mixed_after_big), Err(BoardError::BadNumber { at, found: "12".into(), size: 9 }));
        // A 4x4 grid's first row allows 1 to 4 only, said with its own size.
        let four = r#"[["1","b","3","4"],["3","4","1","2"],["2","1","4","3"],["4","3","2","1"]]"#;
        assert_eq!(read(four), Err(BoardError::BadString { at, found: "b".into(), size: 4 }));
        let error = read(four).unwrap_err().to_string();
        assert_eq!(error, "board[0][1]: found the string \"b\"; expected \"1\" to \"4\", or \".\" for blank");
        let four = "[[1,2,3,4],[3,4,1,2],[2,1,4,3],[4,3,2,5]]";
        assert_eq!(read(four), Err(BoardError::BadNumber { at: Location::cell(3, 3), found: "5".into(), size: 4 }));
        let null_among_strings = r#"[[null,"2","3","4"],["3","4","1","2"],["2","1","4","3"],["4","3","2","1"]]"#;
        let error = read(null_among_strings).unwrap_err();
        assert_eq!(error, BoardError::NullAmongStrings { at: Location::cell(0, 0), size: 4 });
    }

    #[test]
    fn a_null_is_a_blank_of_numbers_only() {
        let all_null: Vec<Vec<Value>> = vec![vec![Value::Null; 9]; 9];
        assert_eq!(
            read(&serde_json::to_string(&all_null).unwrap()),
            Ok((AnyGrid::Classic(Board::EMPTY), Format::Numbers))
        );
        let numbers_then_null = numbers_json().replacen("[5,3,0", "[5,3,null", 1);
        assert_eq!(read(&numbers_then_null), Ok((classic(LINE), Format::Numbers)));
        let null_then_numbers = numbers_json().replacen("[5,3,0,0,7,0,0,0,0],[6", "[5,3,0,0,7,0,0,0,null],[6", 1);
        assert_eq!(read(&null_then_numbers), Ok((classic(LINE), Format::Numbers)));

        // In a grid of strings a null is the mistake, after the strings or before them.
        let strings_then_null = strings_json().replacen(r#"["5","3",".","#, r#"["5","3",null,"#, 1);
        let error = BoardError::NullAmongStrings { at: Location::cell(0, 2), size: 9 };
        assert_eq!(read(&strings_then_null), Err(error.clone()));
        assert_eq!(
            error.to_string(),
            "board[0][2] is null, a blank only in a grid of numbers, but this grid's cells are strings: \
             expected \"1\" to \"9\", or \".\" for blank"
        );
        assert_eq!(error.json_pointer(), "/board/0/2");
        let null_then_strings = strings_json().replacen(r#"[["5""#, "[[null", 1);
        assert_eq!(read(&null_then_strings), Err(BoardError::NullAmongStrings { at: Location::cell(0, 0), size: 9 }));
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
        // The first row's three cells fit no size, which comes before the cell's type.
        assert_eq!(request.board.with_box(None), Err(BoardError::RowSize { found: 3 }));
        let json = r#"{"board":[[1,2,{"x":[1]},4],[true]],"after":1}"#;
        let request: Request = serde_json::from_str(json).unwrap();
        assert_eq!(
            request.board.with_box(None),
            Err(BoardError::CellType { at: Location::cell(0, 2), found: "an object" })
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
        assert_eq!(request.board.with_box(None), Err(BoardError::Missing));
    }
}

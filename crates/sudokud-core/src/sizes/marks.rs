//! Pencil marks: for each cell of a grid, the values still possible there.
//!
//! Players' tools exchange them in two forms, and [`Marks`] reads and writes both: N rows of N
//! arrays of values (JSON), and one line of N x N x N characters, cell after cell in row-major
//! order, each cell's N places holding its value's symbol where the value is possible and `.`
//! where it is not. For 9x9 that is the 729-character pencil-mark grid of Sukaku Explainer and
//! tdoku: `123......` is a cell that may hold 1, 2 or 3. A filled cell is written as its value
//! alone, as those tools do, so one line describes the whole position.

use serde::ser::{Serialize, SerializeSeq, Serializer};

use super::AnyGrid;
use super::shape::{Shape, symbol, value_of};

/// The pencil marks of a grid: per cell the set of possible values, bit `v - 1` for value `v`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marks {
    shape: Shape,
    cells: Vec<u32>,
}

/// Why a line is not a grid's pencil marks.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MarksError {
    /// The line is not N x N x N characters long for the board's size N.
    #[error("found {found} characters; the pencil marks of a {size}x{size} grid are {}", size * size * size)]
    Length {
        /// Characters found, whitespace not counted.
        found: usize,
        /// The board's size.
        size: usize,
    },
    /// A character that is neither `.` (or `0`) nor the symbol of its place.
    #[error("character {index} ('{found}', row {row}, col {col}): expected '{}' or '.'", symbol(*.value))]
    Character {
        /// Its index in the line, whitespace not counted, from 0.
        index: usize,
        /// The character.
        found: char,
        /// The row of its cell, from 0.
        row: usize,
        /// The column of its cell, from 0.
        col: usize,
        /// The value its place stands for.
        value: u8,
    },
}

impl Marks {
    /// The marks of `shape` with `cells` in row-major order, bit `v - 1` for value `v`.
    pub(crate) fn new(shape: Shape, cells: Vec<u32>) -> Marks {
        debug_assert_eq!(cells.len(), shape.cells());
        debug_assert!(cells.iter().all(|&set| set >> shape.size() == 0));
        Marks { shape, cells }
    }

    /// Reads the one-line form (see the module's documentation) for a grid of `shape`. ASCII
    /// whitespace is skipped; `0` is read as `.`.
    pub fn parse_line(text: &str, shape: Shape) -> Result<Marks, MarksError> {
        let size = shape.size();
        let found = text.bytes().filter(|byte| !byte.is_ascii_whitespace()).count();
        if found != size * shape.cells() {
            return Err(MarksError::Length { found, size });
        }
        let mut cells = vec![0u32; shape.cells()];
        for (index, found) in text.chars().filter(|ch| !ch.is_ascii_whitespace()).enumerate() {
            let (cell, place) = (index / size, index % size);
            let value = place as u8 + 1;
            match u8::try_from(found).ok().and_then(|byte| value_of(byte, size)) {
                Some(0) => {}
                Some(read) if read == value => cells[cell] |= 1 << place,
                _ => {
                    let (row, col) = (cell / size, cell % size);
                    return Err(MarksError::Character { index, found, row, col, value });
                }
            }
        }
        Ok(Marks { shape, cells })
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The possible values of the cell at row-major `index`, smallest first.
    pub fn values(&self, index: usize) -> impl Iterator<Item = u8> + '_ {
        let set = self.cells[index];
        (1..=self.shape.size() as u8).filter(move |&value| set >> (value - 1) & 1 == 1)
    }

    /// The one-line form of these marks over `grid` (filled cells written as their value
    /// alone; see the module's documentation).
    pub fn to_line(&self, grid: &AnyGrid) -> String {
        let size = self.shape.size();
        let mut line = String::with_capacity(size * self.shape.cells());
        for (&set, &value) in self.cells.iter().zip(grid.cells()) {
            for place in 0..size as u8 {
                let shown = if value != 0 { value == place + 1 } else { set >> place & 1 == 1 };
                line.push(if shown { symbol(place + 1) } else { '.' });
            }
        }
        line
    }
}

/// Written as N rows of N arrays of values, a filled cell's array empty.
impl Serialize for Marks {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let size = self.shape.size();
        let mut rows = serializer.serialize_seq(Some(size))?;
        for row in 0..size {
            rows.serialize_element(&Row { marks: self, row })?;
        }
        rows.end()
    }
}

struct Row<'a> {
    marks: &'a Marks,
    row: usize,
}

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let size = self.marks.shape.size();
        let mut cells = serializer.serialize_seq(Some(size))?;
        for index in self.row * size..(self.row + 1) * size {
            cells.serialize_element(&Cell(self.marks, index))?;
        }
        cells.end()
    }
}

struct Cell<'a>(&'a Marks, usize);

impl Serialize for Cell<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.values(self.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{EXAMPLE_PUZZLE, EXAMPLE_SOLUTION};
    use crate::variants::{Constraints, Preset, Puzzle};

    fn classic(line: &str) -> Puzzle {
        Puzzle::new(AnyGrid::parse(line, None).unwrap(), None, &Constraints::default()).unwrap()
    }

    /// The naive oracle: a blank cell's candidates are the values 1-9 missing from its row,
    /// column and box, by index arithmetic alone.
    fn naive_candidates(line: &str, cell: usize) -> Vec<u8> {
        let cells = line.as_bytes();
        let (row, col) = (cell / 9, cell % 9);
        let seen = |value: u8| {
            (0..81).any(|other: usize| {
                let (r, c) = (other / 9, other % 9);
                let peer = r == row || c == col || (r / 3 == row / 3 && c / 3 == col / 3);
                peer && cells[other] == b'0' + value
            })
        };
        (1..=9).filter(|&value| !seen(value)).collect()
    }

    #[test]
    fn basic_candidates_are_the_values_no_peer_holds() {
        let puzzle = classic(EXAMPLE_PUZZLE);
        let marks = puzzle.candidates();
        for cell in 0..81 {
            let listed: Vec<u8> = marks.values(cell).collect();
            if EXAMPLE_PUZZLE.as_bytes()[cell] == b'.' {
                assert_eq!(listed, naive_candidates(EXAMPLE_PUZZLE, cell), "cell {cell}");
            } else {
                assert!(listed.is_empty(), "cell {cell} is filled");
            }
        }
        // r1c3 (row 0, col 2) of the LeetCode example: 1, 2 and 4 are left.
        assert_eq!(marks.values(2).collect::<Vec<_>>(), [1, 2, 4]);
    }

    #[test]
    fn the_line_form_is_729_characters_with_filled_cells_as_their_value() {
        let grid = AnyGrid::parse(EXAMPLE_PUZZLE, None).unwrap();
        let line = classic(EXAMPLE_PUZZLE).candidates().to_line(&grid);
        assert_eq!(line.len(), 729);
        // r1c1 holds 5; r1c3 may be 1, 2 or 4.
        assert_eq!(&line[..9], "....5....");
        assert_eq!(&line[18..27], "12.4.....");
        // Read back, a filled cell is one mark: its value.
        let read = Marks::parse_line(&line, Shape::CLASSIC).unwrap();
        assert_eq!(read.values(0).collect::<Vec<_>>(), [5]);
        assert_eq!(read.values(2).collect::<Vec<_>>(), [1, 2, 4]);
    }

    #[test]
    fn a_solved_grid_reads_back_as_its_values() {
        let grid = AnyGrid::parse(EXAMPLE_SOLUTION, None).unwrap();
        let line = classic(EXAMPLE_SOLUTION).candidates().to_line(&grid);
        let read = Marks::parse_line(&line, Shape::CLASSIC).unwrap();
        let values: String =
            (0..81).map(|cell| read.values(cell).map(|v| (b'0' + v) as char).collect::<String>()).collect();
        assert_eq!(values, EXAMPLE_SOLUTION);
    }

    #[test]
    fn other_sizes_and_variants_use_their_own_symbols_and_peers() {
        // 16x16: each cell has 16 places, 'A' to 'G' past 9.
        let empty =
            Puzzle::new(AnyGrid::parse(&".".repeat(256), None).unwrap(), None, &Constraints::default()).unwrap();
        let line = empty.candidates().to_line(&empty.grid());
        assert_eq!(line.len(), 4096);
        assert_eq!(&line[..16], "123456789ABCDEFG");
        // The X variant: the centre's 5 leaves every cell of both diagonals without 5.
        let centre = format!("{}5{}", ".".repeat(40), ".".repeat(40));
        let x = Puzzle::new(AnyGrid::parse(&centre, None).unwrap(), Some(Preset::X), &Constraints::default()).unwrap();
        let marks = x.candidates();
        assert!(!marks.values(0).any(|value| value == 5), "r1c1 is on the centre's diagonal");
        assert!(marks.values(1).any(|value| value == 5), "r1c2 is not");
        assert!(classic(&centre).candidates().values(0).any(|value| value == 5));
    }

    #[test]
    fn lines_that_are_not_pencil_marks_are_refused_with_the_place() {
        assert_eq!(Marks::parse_line("123", Shape::CLASSIC), Err(MarksError::Length { found: 3, size: 9 }));
        let mut line = ".".repeat(729);
        line.replace_range(10..11, "5");
        let error = Marks::parse_line(&line, Shape::CLASSIC).unwrap_err();
        assert_eq!(error, MarksError::Character { index: 10, found: '5', row: 0, col: 1, value: 2 });
        assert_eq!(error.to_string(), "character 10 ('5', row 0, col 1): expected '2' or '.'");
        // Whitespace is skipped and 0 is a blank place.
        let spaced = format!("{} 0{}", "1".to_owned() + &".".repeat(8), &".".repeat(719));
        assert_eq!(Marks::parse_line(&spaced, Shape::CLASSIC).unwrap().values(0).collect::<Vec<_>>(), [1]);
    }
}

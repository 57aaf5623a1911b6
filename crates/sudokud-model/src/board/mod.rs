//! The 9x9 board model shared by every layer: parsing, rule checking, solving and formatting.
//!
//! A [`Board`] is 81 bytes in row-major order, `0` for a blank and `1..=9` for a digit. That
//! layout is what the solver copies around and what every wire format maps onto, so conversions
//! stay cheap and no layer needs its own grid type.

use std::fmt;
use std::str::FromStr;

use crate::position::Cell;

mod error;
mod format;

pub use error::{BoardError, Location};
pub use format::Format;

/// The example puzzle of LeetCode 37 (and 36), in the text representation: well known, with
/// one solution, [`EXAMPLE_SOLUTION`]. The one copy that documentation, tests and demos use.
pub const EXAMPLE_PUZZLE: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// The one solution of [`EXAMPLE_PUZZLE`].
pub const EXAMPLE_SOLUTION: &str = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

/// Rows on a board, and columns, boxes and digits: 9.
pub const SIZE: usize = 9;

/// Number of cells on a board.
pub const CELLS: usize = SIZE * SIZE;

/// A 9x9 Sudoku grid: givens and blanks, or a full solution.
///
/// Every cell holds `0` (blank) or a digit `1..=9`; the constructors enforce it, so code that
/// receives a `Board` never re-checks the range.
///
/// Aligned to 16 bytes (96 in all): the results that carry a board up from the search are copied
/// 16 bytes at a time, and aligned, each of those loads finds its bytes in one earlier store
/// instead of waiting for several to reach the cache (`sudokud solve`, alternating runs: easy
/// lines -2.7 %, clashing lines -2.1 %, serg -1.1 %, for the same instructions).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[repr(align(16))]
pub struct Board {
    cells: [u8; CELLS],
}

impl Board {
    /// The board with no givens (it has very many solutions).
    pub const EMPTY: Board = Board { cells: [0; CELLS] };

    /// Builds a board from 81 cells in row-major order, `0` for blank.
    pub fn from_cells(cells: [u8; CELLS]) -> Result<Board, BoardError> {
        if let Some(index) = cells.iter().position(|&value| value > 9) {
            let at = Location::from(Cell::at(index));
            return Err(BoardError::BadNumber { at, found: cells[index].to_string(), size: SIZE });
        }
        Ok(Board { cells })
    }

    /// A solver's complete grid, without [`Board::from_cells`]'s check: the solver only writes
    /// digits 1-9, and this runs once per solved puzzle.
    pub fn from_solved_cells(cells: [u8; CELLS]) -> Board {
        debug_assert!(cells.iter().all(|&value| (1..=9).contains(&value)), "a solved grid holds digits 1-9");
        Board { cells }
    }

    /// The cells in row-major order, `0` for blank.
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The value at `row`, `col` (0-based), `0` for blank.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * 9 + col]
    }

    /// Whether every cell holds a digit.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&value| value != 0)
    }

    /// Number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&value| value != 0).count()
    }

    /// Writes the board as 81 characters, `.` for blank, with no separators.
    pub fn write_line(&self, out: &mut [u8; CELLS]) {
        for (byte, &value) in out.iter_mut().zip(&self.cells) {
            *byte = if value == 0 { b'.' } else { b'0' + value };
        }
    }

    /// Parses 81 cells in row-major order: `1`-`9` for a digit, `.` or `0` for a blank.
    /// ASCII whitespace between cells is skipped, so nine lines of nine work too.
    pub fn parse_line(text: &str) -> Result<Board, BoardError> {
        if let Some(board) = Board::parse_compact(text.as_bytes()) {
            return Ok(board);
        }
        let mut cells = [0u8; CELLS];
        let mut count = 0;
        // Bytes, not chars: the batch CLI parses one line per puzzle, and UTF-8 decoding would
        // cost as much as an easy solve. A non-ASCII byte is an error anyway; every byte before
        // it was ASCII, so it starts a char and the error can decode it there.
        for (offset, &byte) in text.as_bytes().iter().enumerate() {
            if byte.is_ascii_whitespace() {
                continue;
            }
            // Past the last cell any character is one too many, whatever it is: there is no
            // cell 82 for it to be wrong in.
            if count == CELLS {
                return Err(BoardError::CellCount { found: count + count_cells(&text[offset..]) });
            }
            let value = match byte {
                b'1'..=b'9' => byte - b'0',
                b'.' | b'0' => 0,
                _ => {
                    let found = text[offset..].chars().next().expect("offset is on a char boundary");
                    return Err(BoardError::BadCharacter {
                        at: Location::offset(offset, count, SIZE),
                        found,
                        size: SIZE,
                    });
                }
            };
            cells[count] = value;
            count += 1;
        }
        if count != CELLS {
            return Err(BoardError::CellCount { found: count });
        }
        Ok(Board { cells })
    }
}

impl Board {
    /// The common case, 81 cells with no whitespace among them (trailing whitespace allowed),
    /// without a branch per cell, so the compiler can vectorise it. `None` means "take the slow
    /// path", which also finds the error if there is one.
    fn parse_compact(bytes: &[u8]) -> Option<Board> {
        let (head, tail) = bytes.split_at_checked(CELLS)?;
        let head: &[u8; CELLS] = head.try_into().ok()?;
        let mut cells = [0u8; CELLS];
        let mut bad = 0u8;
        for i in 0..CELLS {
            let digit = head[i].wrapping_sub(b'0');
            let is_digit = digit <= 9;
            // Bitwise, not short-circuit, operators keep the loop free of branches.
            bad |= u8::from(!(is_digit | (head[i] == b'.')));
            cells[i] = digit & 0u8.wrapping_sub(u8::from(is_digit));
        }
        (bad == 0 && tail.iter().all(u8::is_ascii_whitespace)).then_some(Board { cells })
    }
}

/// Counts the non-whitespace characters left in `text`, to report how long an overlong line was.
fn count_cells(text: &str) -> usize {
    text.chars().filter(|ch| !ch.is_ascii_whitespace()).count()
}

impl FromStr for Board {
    type Err = BoardError;

    fn from_str(text: &str) -> Result<Board, BoardError> {
        Board::parse_line(text)
    }
}

/// Formats as one 81-character line, `.` for blank.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = [0u8; CELLS];
        self.write_line(&mut line);
        // write_line only emits ASCII digits and '.'.
        f.write_str(std::str::from_utf8(&line).expect("board line is ASCII"))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str = EXAMPLE_PUZZLE;

    #[test]
    fn parses_and_prints_a_line() {
        let board: Board = PUZZLE.parse().unwrap();
        assert_eq!(board.get(0, 0), 5);
        assert_eq!(board.get(8, 8), 9);
        assert_eq!(board.givens(), 30);
        assert_eq!(board.to_string(), PUZZLE);
        assert!(!board.is_complete());
    }

    #[test]
    fn zero_is_blank_and_whitespace_is_skipped() {
        let rows: Vec<String> =
            PUZZLE.replace('.', "0").as_bytes().chunks(9).map(|row| String::from_utf8(row.to_vec()).unwrap()).collect();
        let board: Board = rows.join("\n").parse().unwrap();
        assert_eq!(board.to_string(), PUZZLE);
    }

    #[test]
    fn reports_the_bad_character_and_where() {
        let text = format!("{}x{}", &PUZZLE[..10], &PUZZLE[11..]);
        assert_eq!(
            Board::parse_line(&text),
            Err(BoardError::BadCharacter { at: Location::offset(10, 10, SIZE), found: 'x', size: SIZE })
        );
    }

    #[test]
    fn reports_the_cell_count() {
        assert_eq!(Board::parse_line(&PUZZLE[..80]), Err(BoardError::CellCount { found: 80 }));
        assert_eq!(Board::parse_line(&format!("{PUZZLE}12")), Err(BoardError::CellCount { found: 83 }));
        // A bad character after the 81st cell is an extra cell, not a bad one in a cell that
        // does not exist.
        assert_eq!(Board::parse_line(&format!("{PUZZLE}x")), Err(BoardError::CellCount { found: 82 }));
        assert_eq!(Board::parse_line(&format!("{PUZZLE} \u{e9}\n5")), Err(BoardError::CellCount { found: 83 }));
        assert_eq!(Board::parse_line(""), Err(BoardError::CellCount { found: 0 }));
    }

    #[test]
    fn from_cells_rejects_values_over_nine() {
        let mut cells = [0u8; CELLS];
        cells[40] = 10;
        assert_eq!(
            Board::from_cells(cells),
            Err(BoardError::BadNumber { at: Location::cell(4, 4), found: "10".into(), size: SIZE })
        );
    }
}

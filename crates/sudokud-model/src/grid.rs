//! A board of any shape, and its one-line text form.

use std::fmt;

use crate::board::{Board, BoardError, Location};
use crate::shape::{SIZES, Shape, value_of};

/// A board of any [`Shape`]: N x N cells in row-major order, 0 for a blank and 1 to N for a value.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    shape: Shape,
    cells: Vec<u8>,
}

impl Grid {
    /// The grid of `shape` with `cells` in row-major order, if there are N x N of them, each 0 to N.
    pub fn new(shape: Shape, cells: Vec<u8>) -> Result<Grid, BoardError> {
        let size = shape.size();
        if cells.len() != shape.cells() {
            let found = SIZES.iter().find(|&&side| side * side == cells.len());
            return Err(match found {
                Some(&found) => BoardError::BoxMismatch { shape, size: found },
                None => BoardError::CellCount { found: cells.len() },
            });
        }
        if let Some(at) = cells.iter().position(|&value| usize::from(value) > size) {
            let at_cell = Location::cell(at / size, at % size);
            return Err(BoardError::BadNumber { at: at_cell, found: cells[at].to_string(), size });
        }
        Ok(Grid { shape, cells })
    }

    /// An empty grid of `shape`.
    pub fn empty(shape: Shape) -> Grid {
        Grid { shape, cells: vec![0; shape.cells()] }
    }

    /// Reads cells in row-major order, ASCII whitespace between them ignored: `1`-`9` then `A`-`P`
    /// (either case) for values, `.` or `0` for blanks. The size follows from the number of
    /// cells; the box is `shape` when given (it must fit the size), else the size's default
    /// ([`Shape::default_for`]).
    pub fn parse(text: &str, shape: Option<Shape>) -> Result<Grid, BoardError> {
        let (size, cells) = Grid::read_cells(text)?;
        let shape = match shape {
            Some(shape) if shape.size() != size => return Err(BoardError::BoxMismatch { shape, size }),
            Some(shape) => shape,
            None => Shape::default_for(size).expect("every size has a default shape"),
        };
        Ok(Grid { shape, cells })
    }

    /// The size and cells of a text grid, as [`Grid::parse`] reads them.
    pub fn read_cells(text: &str) -> Result<(usize, Vec<u8>), BoardError> {
        let count = Grid::cell_count(text);
        let size =
            SIZES.iter().copied().find(|side| side * side == count).ok_or(BoardError::CellCount { found: count })?;
        let mut cells = Vec::with_capacity(count);
        for (index, (offset, found)) in text.char_indices().filter(|(_, ch)| !ch.is_ascii_whitespace()).enumerate() {
            let Some(value) = u8::try_from(found).ok().and_then(|byte| value_of(byte, size)) else {
                return Err(BoardError::BadCharacter { at: Location::offset(offset, index, size), found, size });
            };
            cells.push(value);
        }
        Ok((size, cells))
    }

    /// The number of cells `text` holds for [`Grid::parse`]: its characters other than ASCII
    /// whitespace (a non-ASCII one is a cell too, a bad one).
    pub fn cell_count(text: &str) -> usize {
        text.chars().filter(|ch| !ch.is_ascii_whitespace()).count()
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The number of cells of a row, column or box: N.
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// The cells in row-major order, 0 for blank.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value at `row`, `col` (0-based), 0 for blank.
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[row * self.size() + col]
    }

    /// The number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&value| value != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&value| value != 0)
    }

    /// The classic board, if this grid is 9x9 with 3x3 boxes.
    pub fn to_board(&self) -> Option<Board> {
        let cells = self.cells.as_slice().try_into().ok()?;
        (self.shape == Shape::CLASSIC).then(|| Board::from_cells(cells).expect("values were checked to be 0 to 9"))
    }
}

impl From<&Board> for Grid {
    fn from(board: &Board) -> Grid {
        Grid { shape: Shape::CLASSIC, cells: board.cells().to_vec() }
    }
}

/// One line of N x N symbols, `.` for blank: what [`Grid::parse`] reads.
impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.cells.iter().try_for_each(|&value| fmt::Write::write_char(f, self.shape.symbol(value)))
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({}, {self})", self.shape)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::EXAMPLE_PUZZLE;

    const SIX: &str = "1.3...4.6..3.3.2...5.6.1..2.5.....1.";

    #[test]
    fn the_size_comes_from_the_cell_count_and_the_box_from_the_size_unless_given() {
        let grid = Grid::parse(SIX, None).unwrap();
        assert_eq!((grid.size(), grid.shape().to_string()), (6, "2x3".to_owned()));
        assert_eq!(grid.get(0, 2), 3);
        assert_eq!(grid.givens(), 13);
        let tall = Grid::parse(SIX, Some(Shape::new(3, 2).unwrap())).unwrap();
        assert_eq!(tall.shape().to_string(), "3x2");
        assert_eq!(tall.to_string(), SIX);
    }

    #[test]
    fn text_round_trips_at_every_size_with_letters_in_upper_case() {
        for shape in Shape::all() {
            let cells: Vec<u8> = (0..shape.cells()).map(|index| (index % (shape.size() + 1)) as u8).collect();
            let grid = Grid::new(shape, cells).unwrap();
            let text = grid.to_string();
            assert_eq!(Grid::parse(&text, Some(shape)), Ok(grid.clone()));
            assert_eq!(Grid::parse(&text.to_ascii_lowercase(), Some(shape)), Ok(grid));
        }
    }

    #[test]
    fn whitespace_between_cells_is_ignored_and_zero_is_blank() {
        let lines = "1 0 . 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n";
        assert_eq!(Grid::parse(lines, None).unwrap().to_string(), "1..4341221434321");
    }

    #[test]
    fn classic_grids_and_boards_convert_both_ways() {
        let board: Board = EXAMPLE_PUZZLE.parse().unwrap();
        let grid = Grid::from(&board);
        assert_eq!(grid.to_string(), EXAMPLE_PUZZLE);
        assert_eq!(grid.to_board(), Some(board));
        assert_eq!(Grid::parse(SIX, None).unwrap().to_board(), None);
    }

    #[test]
    fn every_mistake_says_what_and_where() {
        let error = Grid::parse(&".".repeat(80), None).unwrap_err();
        assert_eq!(error, BoardError::CellCount { found: 80 });
        assert_eq!(Grid::parse(SIX, Shape::new(3, 3)), Err(BoardError::BoxMismatch { shape: Shape::CLASSIC, size: 6 }));
        let seven = format!("7{}", &SIX[1..]);
        let error = Grid::parse(&seven, None).unwrap_err();
        assert_eq!(error, BoardError::BadCharacter { at: Location::offset(0, 0, 6), found: '7', size: 6 });
        assert!(error.to_string().contains("a digit 1-6"), "{error}");
        assert_eq!(
            Grid::new(Shape::new(2, 2).unwrap(), vec![5; 16]),
            Err(BoardError::BadNumber { at: Location::cell(0, 0), found: "5".into(), size: 4 })
        );
    }
}

//! A grid of any size, the classic 9x9 one in its own fast form: what the service and the CLI
//! take and answer. Which solver and which rules a grid goes to is decided above this crate, by
//! sudokud-core's `Puzzle`.

use std::fmt;

use crate::board::{Board, BoardError, CELLS};
use crate::grid::Grid;
use crate::shape::Shape;

/// A board of any size: the 9x9 board with 3x3 boxes, which the core's 9x9 solver and logic are
/// specialised for, or a grid of another shape. Data only: what is done with one goes through
/// sudokud-core's `Puzzle`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnyGrid {
    /// 9x9 with 3x3 boxes.
    Classic(Board),
    /// Every other shape.
    Sized(Grid),
}

impl AnyGrid {
    /// Reads a text board of any size, as [`Grid::parse`] does, with boxes of `shape` when given;
    /// 81 cells make the classic board, read (and its mistakes worded) as [`Board::parse_line`]
    /// does.
    pub fn parse(text: &str, shape: Option<Shape>) -> Result<AnyGrid, BoardError> {
        ReadCells::parse(text)?.with_box(shape)
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        match self {
            AnyGrid::Classic(_) => Shape::CLASSIC,
            AnyGrid::Sized(grid) => grid.shape(),
        }
    }

    /// The cells in row-major order, 0 for blank.
    pub fn cells(&self) -> &[u8] {
        match self {
            AnyGrid::Classic(board) => board.cells(),
            AnyGrid::Sized(grid) => grid.cells(),
        }
    }

    /// Whether every cell is filled.
    pub fn is_complete(&self) -> bool {
        self.cells().iter().all(|&value| value != 0)
    }
}

/// The cells of a board of any size as read, before its box is known: a 9x9 board straight into
/// its fast form (9x9 has one box shape), any other size as N x N values 0 to N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadCells {
    /// 81 cells: the classic board.
    Classic(Board),
    /// N x N values 0 to N of another size N.
    Sized {
        /// The grid's size N.
        size: usize,
        /// The values, row-major, 0 for blank.
        cells: Vec<u8>,
    },
}

impl ReadCells {
    /// Reads a text board: 81 cells as [`Board::parse_line`] does, any other count of cells as
    /// [`Grid::parse`] does.
    pub fn parse(text: &str) -> Result<ReadCells, BoardError> {
        match Board::parse_line(text) {
            Ok(board) => Ok(ReadCells::Classic(board)),
            // 81 cells are a 9x9 board, whose reader words the mistake; another count is a grid
            // of another size perhaps (whose letters the 9x9 reader refuses before it counts).
            Err(error) if Grid::cell_count(text) == CELLS => Err(error),
            Err(_) => {
                let (size, cells) = Grid::read_cells(text)?;
                Ok(ReadCells::Sized { size, cells })
            }
        }
    }

    /// The grid, with boxes of `shape` when given (it must fit the board's size) or else of the
    /// size's default ([`Shape::default_for`]).
    pub fn with_box(self, shape: Option<Shape>) -> Result<AnyGrid, BoardError> {
        match (self, shape) {
            (ReadCells::Classic(_), Some(shape)) if shape != Shape::CLASSIC => {
                Err(BoardError::BoxMismatch { shape, size: Shape::CLASSIC.size() })
            }
            (ReadCells::Classic(board), _) => Ok(AnyGrid::Classic(board)),
            (ReadCells::Sized { size, cells }, shape) => {
                let shape = shape.unwrap_or_else(|| Shape::default_for(size).expect("the readers only accept sizes"));
                Grid::new(shape, cells).map(AnyGrid::Sized)
            }
        }
    }
}

/// A grid of the classic shape becomes the classic board.
impl From<Grid> for AnyGrid {
    fn from(grid: Grid) -> AnyGrid {
        match grid.to_board() {
            Some(board) => AnyGrid::Classic(board),
            None => AnyGrid::Sized(grid),
        }
    }
}

/// Any grid in the generic form, as the engines for every shape read it.
impl From<AnyGrid> for Grid {
    fn from(grid: AnyGrid) -> Grid {
        match grid {
            AnyGrid::Classic(board) => Grid::from(&board),
            AnyGrid::Sized(grid) => grid,
        }
    }
}

/// One line of N x N symbols, `.` for blank.
impl fmt::Display for AnyGrid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyGrid::Classic(board) => board.fmt(f),
            AnyGrid::Sized(grid) => grid.fmt(f),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::EXAMPLE_PUZZLE;

    const SIX: &str = "1.3...4.6..3.3.2...5.6.1..2.5.....1.";

    #[test]
    fn the_classic_shape_takes_the_classic_path_and_others_the_generic_one() {
        assert!(matches!(AnyGrid::parse(EXAMPLE_PUZZLE, None), Ok(AnyGrid::Classic(_))));
        assert!(matches!(AnyGrid::parse(EXAMPLE_PUZZLE, Some(Shape::CLASSIC)), Ok(AnyGrid::Classic(_))));
        assert!(matches!(AnyGrid::parse(SIX, None), Ok(AnyGrid::Sized(_))));
        let grid = Grid::parse(EXAMPLE_PUZZLE, None).unwrap();
        assert!(matches!(AnyGrid::from(grid), AnyGrid::Classic(_)));
        assert_eq!(
            AnyGrid::parse(EXAMPLE_PUZZLE, Shape::new(2, 3)),
            Err(BoardError::BoxMismatch { shape: Shape::new(2, 3).unwrap(), size: 9 })
        );
    }
}

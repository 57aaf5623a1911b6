//! Pencil marks: for each cell of a grid, the values still possible there.
//!
//! Players' tools exchange them in two forms, and [`Marks`] reads and writes both: N rows of N
//! arrays of values (JSON), and one line of N x N x N characters, cell after cell in row-major
//! order, each cell's N places holding its value's symbol where the value is possible and `.`
//! where it is not. For 9x9 that is the 729-character pencil-mark grid of Sukaku Explainer and
//! tdoku: `123......` is a cell that may hold 1, 2 or 3. A filled cell is written as its value
//! alone, as those tools do, so one line describes the whole position.

use serde::de::{Deserialize, Deserializer};
use serde::ser::{Serialize, SerializeSeq, Serializer};

use crate::any::AnyGrid;
use crate::grid::Grid;
use crate::position::GridCell;
use crate::shape::{SIZES, Shape, symbol, value_of};

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
    /// The rows of the array form are not N.
    #[error("found {found} rows of pencil marks; a {size}x{size} board has {size}")]
    Rows {
        /// Rows found.
        found: usize,
        /// The board's size.
        size: usize,
    },
    /// A row of the array form is not N cells.
    #[error("row {row}: found {found} cells of pencil marks; a {size}x{size} board has {size}")]
    RowLength {
        /// The row, from 0.
        row: usize,
        /// Cells found.
        found: usize,
        /// The board's size.
        size: usize,
    },
    /// A value of the array form out of 1 to N.
    #[error("row {row}, col {col}: found {found}; expected values 1 to {size}")]
    Value {
        /// The row, from 0.
        row: usize,
        /// The column, from 0.
        col: usize,
        /// The value found.
        found: u64,
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
    pub fn new(shape: Shape, cells: Vec<u32>) -> Marks {
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

    /// The shape whose one-line form has `count` characters: N x N x N for a size N, boxes of
    /// `shape` when given, else of the size's default. 64 characters are also an 8x8 board's
    /// cells, so they are 4x4 marks only when `shape` is 2x2.
    pub fn line_shape(count: usize, shape: Option<Shape>) -> Option<Shape> {
        let cube = |size: usize| size * size * size;
        match shape {
            Some(shape) => (cube(shape.size()) == count).then_some(shape),
            None => SIZES
                .iter()
                .find(|&&size| cube(size) == count && Shape::for_cells(count).is_none())
                .and_then(|&size| Shape::default_for(size)),
        }
    }

    /// The grid's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// The position these marks describe, as a player's tool writes it: a cell with one
    /// candidate holds that value, any other cell is blank (its candidates are the player's).
    pub fn placed(&self) -> AnyGrid {
        let cells =
            self.cells.iter().map(|&set| if set.count_ones() == 1 { set.trailing_zeros() as u8 + 1 } else { 0 });
        AnyGrid::from(Grid::new(self.shape, cells.collect()).expect("marks hold a value per cell of their shape"))
    }

    /// Leaves each cell only the values `marks` keep there too.
    ///
    /// # Panics
    /// If `marks` are of another shape.
    pub fn keep_only(&mut self, marks: &Marks) {
        assert_eq!(self.shape, marks.shape, "pencil marks of another shape");
        for (set, &kept) in self.cells.iter_mut().zip(&marks.cells) {
            *set &= kept;
        }
    }

    /// The possible values of the cell at row-major `index`, bit `v - 1` for value `v`.
    pub fn set(&self, index: usize) -> u32 {
        self.cells[index]
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

/// A request's pencil marks as JSON, read against the board once its shape is known: the
/// one-line form (a string) or N rows of N arrays of values. A filled cell's marks are not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonMarks(MarksForm);

#[derive(Clone, Debug, PartialEq, Eq, serde::Deserialize)]
#[serde(
    untagged,
    expecting = "expected pencil marks: a line of N x N x N characters, or N rows of N arrays of values 1 to N"
)]
enum MarksForm {
    Line(String),
    Rows(Vec<Vec<Vec<u64>>>),
}

impl<'de> Deserialize<'de> for JsonMarks {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<JsonMarks, D::Error> {
        MarksForm::deserialize(deserializer).map(JsonMarks)
    }
}

impl JsonMarks {
    /// The marks, if they fit `grid`'s shape.
    pub fn for_grid(self, grid: &AnyGrid) -> Result<Marks, MarksError> {
        let shape = grid.shape();
        let size = shape.size();
        let rows = match self.0 {
            MarksForm::Line(text) => return Marks::parse_line(&text, shape),
            MarksForm::Rows(rows) => rows,
        };
        if rows.len() != size {
            return Err(MarksError::Rows { found: rows.len(), size });
        }
        let mut cells = Vec::with_capacity(shape.cells());
        for (row, cells_of_row) in rows.iter().enumerate() {
            if cells_of_row.len() != size {
                return Err(MarksError::RowLength { row, found: cells_of_row.len(), size });
            }
            for (col, values) in cells_of_row.iter().enumerate() {
                let mut set = 0u32;
                for &found in values {
                    if !(1..=size as u64).contains(&found) {
                        return Err(MarksError::Value { row, col, found, size });
                    }
                    set |= 1 << (found - 1);
                }
                cells.push(set);
            }
        }
        Ok(Marks::new(shape, cells))
    }
}

/// What a player's marks came to: the path from them, or what in them contradicts the solution.
#[derive(Clone, Debug, PartialEq)]
pub enum Marked<T> {
    /// The marks keep every value of the solution, and this is what follows from them.
    Followed(T),
    /// The marks crossed out values of the solution; nothing sound follows until they are mended.
    Mistaken(Vec<Mistake>),
}

/// A player's mistake: a value entered that the solution does not have, or a value of the
/// solution crossed out of its cell's pencil marks.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Mistake {
    /// The cell, 0-based.
    #[serde(flatten)]
    pub cell: GridCell,
    /// What is wrong there.
    pub kind: MistakeKind,
    /// The value entered, or the solution's value crossed out.
    pub value: u8,
    /// One sentence for the player: `r3c4 = 5 is not part of the solution`, `r3c4: 5 was
    /// crossed out, but the solution has it there`.
    pub message: String,
}

/// The kinds of [`Mistake`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MistakeKind {
    /// A value entered in a cell that the solution does not have there.
    WrongEntry,
    /// The solution's value crossed out of the cell's pencil marks.
    RemovedCandidate,
}

/// Why a board is not a player's position in a puzzle: it lacks or changes one of the givens.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotFromGivens {
    /// The givens are of another size or box.
    #[error("the givens are a {givens} grid, the board a {board} one")]
    Shape {
        /// The givens' box.
        givens: Shape,
        /// The board's box.
        board: Shape,
    },
    /// A given missing from the board, or another value there.
    #[error("row {row}, col {col} holds {given} in the givens but {found} on the board")]
    Changed {
        /// The row, from 0.
        row: usize,
        /// The column, from 0.
        col: usize,
        /// The given.
        given: char,
        /// What the board holds (`.` for nothing).
        found: char,
    },
}

/// Checks that `board` holds every given of `givens`, unchanged: a player's position in that
/// puzzle.
pub fn check_givens(board: &AnyGrid, givens: &AnyGrid) -> Result<(), NotFromGivens> {
    if board.shape() != givens.shape() {
        return Err(NotFromGivens::Shape { givens: givens.shape(), board: board.shape() });
    }
    let size = board.shape().size();
    let mut cells = givens.cells().iter().zip(board.cells()).enumerate();
    match cells.find(|&(_, (&given, &found))| given != 0 && given != found) {
        Some((index, (&given, &found))) => {
            let (row, col) = (index / size, index % size);
            Err(NotFromGivens::Changed { row, col, given: symbol(given), found: symbol(found) })
        }
        None => Ok(()),
    }
}

/// The entries of `board` (its values that are not `givens`) that `solution` does not have, in
/// row-major order. `board` must hold the givens ([`check_givens`]).
pub fn wrong_entries(board: &AnyGrid, givens: &AnyGrid, solution: &AnyGrid) -> Vec<Mistake> {
    let size = board.shape().size();
    let cells = board.cells().iter().zip(givens.cells()).zip(solution.cells()).enumerate();
    cells
        .filter(|&(_, ((&entered, &given), &value))| given == 0 && entered != 0 && entered != value)
        .map(|(index, ((&entered, _), _))| {
            let (row, col) = (index / size, index % size);
            let message = format!("r{}c{} = {} is not part of the solution", row + 1, col + 1, symbol(entered));
            Mistake { cell: GridCell { row, col }, kind: MistakeKind::WrongEntry, value: entered, message }
        })
        .collect()
}

impl Marks {
    /// The cells, blank in `puzzle`, whose marks crossed out the value `solution` has there, in
    /// row-major order.
    ///
    /// # Panics
    /// If the marks, `puzzle` and `solution` are not of one shape.
    pub fn mistakes(&self, puzzle: &AnyGrid, solution: &AnyGrid) -> Vec<Mistake> {
        assert!(
            puzzle.shape() == self.shape && solution.shape() == self.shape,
            "pencil marks of another shape than the board"
        );
        let size = self.shape.size();
        let cells = puzzle.cells().iter().zip(solution.cells()).enumerate();
        cells
            .filter(|&(index, (&given, &value))| given == 0 && self.cells[index] >> (value - 1) & 1 == 0)
            .map(|(index, (_, &value))| {
                let (row, col) = (index / size, index % size);
                let message = format!(
                    "r{}c{}: {} was crossed out, but the solution has it there",
                    row + 1,
                    col + 1,
                    symbol(value)
                );
                Mistake { cell: GridCell { row, col }, kind: MistakeKind::RemovedCandidate, value, message }
            })
            .collect()
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

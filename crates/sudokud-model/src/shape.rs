//! A grid's shape: the box's height and width, from which its size follows, and the symbols its
//! digits are written with.

use std::fmt;
use std::str::FromStr;

/// The shape of a grid: boxes `box_rows` high and `box_cols` wide, each from 2 to 5, so a grid of
/// size N = `box_rows` x `box_cols` from 4x4 to 25x25 (rows, columns and boxes of N cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shape {
    box_rows: u8,
    box_cols: u8,
}

/// The smallest and largest box side.
const SIDES: std::ops::RangeInclusive<u8> = 2..=5;

/// The largest size: 25x25, boxes of 5x5.
pub const MAX_SIZE: usize = 25;

/// The most cells a grid has.
pub const MAX_CELLS: usize = MAX_SIZE * MAX_SIZE;

/// Every size a grid can have, smallest first.
pub const SIZES: [usize; 10] = [4, 6, 8, 9, 10, 12, 15, 16, 20, 25];

impl Shape {
    /// Classic Sudoku: 9x9 with 3x3 boxes.
    pub const CLASSIC: Shape = Shape { box_rows: 3, box_cols: 3 };

    /// The shape with boxes `box_rows` high and `box_cols` wide, if both are 2 to 5.
    pub const fn new(box_rows: usize, box_cols: usize) -> Option<Shape> {
        if box_rows >= 2 && box_rows <= 5 && box_cols >= 2 && box_cols <= 5 {
            Some(Shape { box_rows: box_rows as u8, box_cols: box_cols as u8 })
        } else {
            None
        }
    }

    /// The shape a grid of `size` has when no box is given: the square box, or the widest box no
    /// taller than it is wide (6 -> 2x3, 8 -> 2x4, 10 -> 2x5, 12 -> 3x4, 15 -> 3x5, 20 -> 4x5).
    /// `None` for a size no shape has.
    pub fn default_for(size: usize) -> Option<Shape> {
        Shape::all()
            .filter(|shape| shape.size() == size && shape.box_rows <= shape.box_cols)
            .max_by_key(|shape| shape.box_cols)
    }

    /// The default shape of a grid of `cells` cells ([`Shape::default_for`] its side).
    pub fn for_cells(cells: usize) -> Option<Shape> {
        SIZES.iter().find(|&&size| size * size == cells).and_then(|&size| Shape::default_for(size))
    }

    /// Every shape: 16 of them, in order of box height, then width.
    pub fn all() -> impl Iterator<Item = Shape> {
        SIDES.flat_map(|box_rows| SIDES.map(move |box_cols| Shape { box_rows, box_cols }))
    }

    /// How many shapes there are, for tables kept per shape.
    pub const COUNT: usize = 16;

    /// This shape's place in [`Shape::all`], below [`Shape::COUNT`]: a table's index.
    pub const fn ordinal(self) -> usize {
        (self.box_rows() - 2) * 4 + self.box_cols() - 2
    }

    /// The box's height in cells.
    pub const fn box_rows(self) -> usize {
        self.box_rows as usize
    }

    /// The box's width in cells.
    pub const fn box_cols(self) -> usize {
        self.box_cols as usize
    }

    /// The number of cells of a row, column or box, and of values: N.
    pub const fn size(self) -> usize {
        self.box_rows() * self.box_cols()
    }

    /// The number of cells of the grid: N x N.
    pub const fn cells(self) -> usize {
        self.size() * self.size()
    }

    /// The box of the cell at `row`, `col`, numbered row by row from 0.
    pub const fn box_of(self, row: usize, col: usize) -> usize {
        // A band of boxes (box_rows rows high) holds N / box_cols = box_rows boxes.
        (row / self.box_rows()) * self.box_rows() + col / self.box_cols()
    }

    /// The symbol of `value` (1 to N): `1`-`9`, then `A`-`P` for 10-25; `.` for 0, a blank.
    pub fn symbol(self, value: u8) -> char {
        symbol(value)
    }

    /// The value of `symbol` in this shape's grids: `Some(0)` for a blank (`.` or `0`), `Some(1..=N)`
    /// for a digit or letter (either case), `None` for anything else, including a letter past N.
    pub fn value_of(self, symbol: u8) -> Option<u8> {
        value_of(symbol, self.size())
    }
}

/// The symbol of `value` in a grid of any size: see [`Shape::symbol`].
pub fn symbol(value: u8) -> char {
    char::from(symbol_byte(value))
}

/// [`symbol`] as its byte, by arithmetic rather than a table, so that a loop writing a grid's
/// symbols is compiled to sixteen cells at a time (a solve's answer wrote byte by byte took as
/// many instructions as reading its request).
#[inline(always)]
pub fn symbol_byte(value: u8) -> u8 {
    let digit = b'0'.wrapping_add(value);
    let letter = (b'A' - 10).wrapping_add(value);
    if value == 0 {
        b'.'
    } else if value < 10 {
        digit
    } else {
        letter
    }
}

/// The value of `symbol` in a grid of `size`: see [`Shape::value_of`].
pub fn value_of(symbol: u8, size: usize) -> Option<u8> {
    let value = match symbol {
        b'.' | b'0' => 0,
        b'1'..=b'9' => symbol - b'0',
        b'A'..=b'P' => symbol - b'A' + 10,
        b'a'..=b'p' => symbol - b'a' + 10,
        _ => return None,
    };
    (usize::from(value) <= size).then_some(value)
}

/// `2x3`: the box's height, then its width.
impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.box_rows, self.box_cols)
    }
}

/// A size and a box that make no shape together.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShapeError {
    /// A size no grid has.
    #[error("size {found} is no grid size; the sizes are {}", SIZES.map(|size| size.to_string()).join(", "))]
    UnknownSize {
        /// The size given.
        found: u64,
    },
    /// A box of another size than the size given.
    #[error("box {shape} makes a {n}x{n} grid, but the size is {size}", n = shape.size())]
    Mismatch {
        /// The box given.
        shape: Shape,
        /// The size given.
        size: usize,
    },
}

impl Shape {
    /// The shape a request for a new grid asks for with an optional `size` and `box`: the box
    /// when given (it must be of the size, if that is given too), else the size's default, else
    /// 9x9.
    pub fn from_size_and_box(size: Option<u64>, shape: Option<Shape>) -> Result<Shape, ShapeError> {
        let Some(found) = size else { return Ok(shape.unwrap_or(Shape::CLASSIC)) };
        let size = usize::try_from(found).ok().filter(|size| SIZES.contains(size));
        let size = size.ok_or(ShapeError::UnknownSize { found })?;
        match shape {
            Some(shape) if shape.size() != size => Err(ShapeError::Mismatch { shape, size }),
            Some(shape) => Ok(shape),
            None => Ok(Shape::default_for(size).expect("every size has a default shape")),
        }
    }
}

/// A box that is not two numbers 2 to 5 written `RxC`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("box {found:?} is not a box shape: expected rows x columns, each 2 to 5, such as \"2x3\" or \"3x3\"")]
pub struct UnknownShape {
    /// What was given.
    pub found: String,
}

impl FromStr for Shape {
    type Err = UnknownShape;

    fn from_str(text: &str) -> Result<Shape, UnknownShape> {
        let unknown = || UnknownShape { found: text.to_owned() };
        let (rows, cols) = text.trim().split_once(['x', 'X']).ok_or_else(unknown)?;
        let side = |side: &str| side.trim().parse::<usize>().map_err(|_| unknown());
        Shape::new(side(rows)?, side(cols)?).ok_or_else(unknown)
    }
}

/// Read from its `RxC` text, as a request's `box` member gives it.
impl<'de> serde::Deserialize<'de> for Shape {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Shape, D::Error> {
        struct ShapeVisitor;
        impl serde::de::Visitor<'_> for ShapeVisitor {
            type Value = Shape;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a box shape such as \"2x3\"")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Shape, E> {
                text.parse().map_err(E::custom)
            }
        }
        deserializer.deserialize_str(ShapeVisitor)
    }
}

/// Written as its `RxC` text.
impl serde::Serialize for Shape {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinals_number_the_shapes_in_order() {
        let ordinals: Vec<usize> = Shape::all().map(Shape::ordinal).collect();
        assert_eq!(ordinals, (0..Shape::COUNT).collect::<Vec<_>>());
    }

    #[test]
    fn sixteen_shapes_make_the_ten_sizes() {
        assert_eq!(Shape::all().count(), 16);
        let mut sizes: Vec<usize> = Shape::all().map(Shape::size).collect();
        sizes.sort_unstable();
        sizes.dedup();
        assert_eq!(sizes, SIZES);
    }

    #[test]
    fn the_default_box_is_square_or_the_widest_no_taller_than_wide() {
        let defaults: Vec<String> = SIZES.iter().map(|&size| Shape::default_for(size).unwrap().to_string()).collect();
        assert_eq!(defaults, ["2x2", "2x3", "2x4", "3x3", "2x5", "3x4", "3x5", "4x4", "4x5", "5x5"]);
        assert_eq!(Shape::default_for(7), None);
        assert_eq!(Shape::for_cells(36), Shape::new(2, 3));
        assert_eq!(Shape::for_cells(80), None);
    }

    #[test]
    fn boxes_tile_the_grid_row_by_row() {
        for shape in Shape::all() {
            let n = shape.size();
            let mut cells_per_box = vec![0; n];
            for row in 0..n {
                for col in 0..n {
                    cells_per_box[shape.box_of(row, col)] += 1;
                }
            }
            assert!(cells_per_box.iter().all(|&count| count == n), "{shape}");
        }
        let two_by_three = Shape::new(2, 3).unwrap();
        assert_eq!(two_by_three.box_of(0, 3), 1);
        assert_eq!(two_by_three.box_of(2, 0), 2);
        assert_eq!(two_by_three.box_of(5, 5), 5);
    }

    #[test]
    fn symbols_are_digits_then_letters_read_in_either_case() {
        let big = Shape::new(5, 5).unwrap();
        assert_eq!((1..=25).map(|value| big.symbol(value)).collect::<String>(), "123456789ABCDEFGHIJKLMNOP");
        for value in 0..=25 {
            let symbol = big.symbol(value) as u8;
            assert_eq!(big.value_of(symbol), Some(value));
            assert_eq!(big.value_of(symbol.to_ascii_lowercase()), Some(value));
        }
        let sixteen = Shape::new(4, 4).unwrap();
        assert_eq!(sixteen.value_of(b'G'), Some(16));
        assert_eq!(sixteen.value_of(b'H'), None);
        assert_eq!(Shape::new(2, 2).unwrap().value_of(b'5'), None);
        assert_eq!(big.value_of(b'Q'), None);
        assert_eq!(big.value_of(b' '), None);
    }

    #[test]
    fn a_size_and_a_box_make_a_shape_when_they_agree() {
        let tall = Shape::new(3, 2).unwrap();
        assert_eq!(Shape::from_size_and_box(None, None), Ok(Shape::CLASSIC));
        assert_eq!(
            Shape::from_size_and_box(Some(6), None),
            Shape::new(2, 3).ok_or(ShapeError::UnknownSize { found: 0 })
        );
        assert_eq!(Shape::from_size_and_box(None, Some(tall)), Ok(tall));
        assert_eq!(Shape::from_size_and_box(Some(6), Some(tall)), Ok(tall));
        assert_eq!(Shape::from_size_and_box(Some(8), Some(tall)), Err(ShapeError::Mismatch { shape: tall, size: 8 }));
        let error = Shape::from_size_and_box(Some(7), None).unwrap_err();
        assert_eq!(error.to_string(), "size 7 is no grid size; the sizes are 4, 6, 8, 9, 10, 12, 15, 16, 20, 25");
    }

    #[test]
    fn shapes_read_and_write_as_rows_x_columns() {
        assert_eq!("2x3".parse::<Shape>(), Ok(Shape::new(2, 3).unwrap()));
        assert_eq!(" 5X4 ".parse::<Shape>().unwrap().to_string(), "5x4");
        for bad in ["", "3", "1x9", "6x2", "axb", "3x3x3"] {
            assert!(bad.parse::<Shape>().is_err(), "{bad:?}");
        }
    }
}

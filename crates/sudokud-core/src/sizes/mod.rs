//! Grids of every size people play, 4x4 to 25x25: their shapes, boards and solver.
//!
//! A grid of size N has boxes `r` rows high and `c` columns wide with N = r x c and 2 <= r, c <= 5
//! ([`Shape`]); its cells hold 1 to N, written `1`-`9` then `A`-`P` ([`Grid`]). The classic 9x9
//! grid is one of them, and [`Grid`] converts to and from [`Board`](crate::board::Board), whose
//! solver ([`crate::solver`]) is specialised for it; [`solver`] here serves every shape.
//! [`AnyGrid`] is either; [`Puzzle`](crate::puzzle::Puzzle) sends each to its solver.

mod cdcl;
mod lanes;
#[cfg(test)]
mod marks_tests;
mod small;
pub mod solver;

pub use sudokud_model::rules;
pub(crate) use sudokud_model::{any, grid, layout, marks, shape};

pub use any::AnyGrid;
pub use marks::{
    JsonMarks, Marked, Marks, MarksError, Mistake, MistakeKind, NotFromGivens, check_givens, wrong_entries,
};
pub use shape::{MAX_CELLS, MAX_SIZE, SIZES, Shape, ShapeError, UnknownShape};
pub use sudokud_model::grid::Grid;

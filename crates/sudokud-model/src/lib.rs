//! sudokud-model: the bottom layer of sudokud, what a Sudoku puzzle is before anything solves,
//! rates or draws it. Nothing here imports the engines above it; Cargo refuses the cycle, so the
//! direction of the layers is a fact the compiler keeps, not a convention.
//!
//! - [`shape`]: a grid's size and box (4x4 to 25x25), its symbols.
//! - [`layout`]: each shape's houses and peers, built once.
//! - [`member`]: how values other than boards (levels, symmetries, integers) are named and read.
//! - [`random`]: the seeded generator that generation and the solvers' restarts draw from.
//!
//! [`sudokud-core`](https://docs.rs/sudokud-core) re-exports every module under the same name.

pub mod layout;
pub mod member;
pub mod random;
pub mod shape;

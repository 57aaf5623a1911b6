//! sudokud-model: the bottom layer of sudokud, what a Sudoku puzzle is before anything solves,
//! rates or draws it. Nothing here imports the engines above it; Cargo refuses the cycle, so the
//! direction of the layers is a fact the compiler keeps, not a convention.
//!
//! - [`board`]: the 9x9 board, its text form and its mistakes, and the names of the JSON
//!   representations.
//! - [`position`]: typed cells, houses (rows, columns, boxes), digits and candidates.
//! - [`shape`]: a grid's size and box (4x4 to 25x25), its symbols.
//! - [`grid`]: a grid of any shape and its text form; [`any`]: a board of any size, the classic
//!   9x9 one in its own form.
//! - [`marks`]: pencil marks in their two forms, and a player's mistakes against a solution.
//! - [`layout`]: each shape's houses and peers, built once.
//! - [`unit`](mod@unit): the rules a filled cell can break, by name, and the cells that break
//!   them; [`rules`]: which cells break the classic rules on a grid of any shape.
//! - [`constraints`], [`family`] and [`variant`]: the rule set as data: the constraints a request
//!   gives and the named variants; each constraint family in a module of its own, with its
//!   members, checks, conflicts and relations; a variant checked against a shape and turned into
//!   houses, peers, pairs and cages (the classic rules are the empty set).
//! - [`exchange`]: puzzles as other tools write them (f-puzzles' data and links, SudokuPad's
//!   links of it, the Interactive Sudoku Solver's constraint strings), read and written.
//! - [`member`]: how values other than boards (levels, symmetries, integers) are named and read.
//! - [`random`]: the seeded generator that generation and the solvers' restarts draw from.
//!
//! [`sudokud-core`](https://docs.rs/sudokud-core) re-exports every module under the same name.

pub mod any;
pub mod board;
pub mod constraints;
pub mod exchange;
pub mod family;
pub mod grid;
pub mod layout;
pub mod marks;
pub mod member;
pub mod position;
pub mod random;
pub mod rules;
pub mod shape;
pub mod unit;
pub mod variant;

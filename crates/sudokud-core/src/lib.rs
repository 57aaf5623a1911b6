//! sudokud-core: Sudoku as a library, 9x9 and every size from 4x4 to 25x25, with no I/O, no
//! async and no allocation in the solvers' hot loops. It is the core of the sudokud service, which only translates between this
//! crate and HTTP or the command line.
//!
//! - [`puzzle`]: the front door, [`Puzzle`](puzzle::Puzzle): a board of any size and the rules it
//!   is played by, classified, counted, rated, hinted, explained, validated and generated.
//! - [`board`]: the grid and its text and JSON representations.
//! - [`position`]: typed cells, houses (rows, columns, boxes), digits and candidates.
//! - [`rules`]: which givens conflict, and whether a board is complete.
//! - [`solver`]: search with propagation; uniqueness, counts up to a limit, a cooperative deadline.
//! - [`sizes`]: grids of every size from 4x4 to 25x25, with a solver for all of them.
//! - [`variants`]: diagonal, windoku, jigsaw, killer, anti-knight, thermometer, Kropki and other
//!   constraints as data, on any size, with their solver and rules.
//! - [`logic`]: human-style techniques: step-by-step explanations, hints and difficulty ratings.
//! - [`generate`]: unique puzzles of a chosen level, the same for the same seed.
//! - [`exchange`]: puzzles as other tools share them (f-puzzles' data and links, SudokuPad's
//!   links of it, the Interactive Sudoku Solver's constraint strings), read and written.
//! - [`member`]: how values other than boards (levels, symmetries, integers) are named and read.
//! - [`random`]: the seeded generator behind [`generate`] and the solver's restarts.
//!
//! ```
//! use sudokud_core::puzzle::Puzzle;
//! use sudokud_core::sizes::AnyGrid;
//! use sudokud_core::solver::{Never, Verdict};
//! use sudokud_core::variants::Constraints;
//!
//! let board = AnyGrid::parse(
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79", None)?;
//! let puzzle = Puzzle::new(board, None, &Constraints::default())?;
//! let Verdict::Unique(solution) = puzzle.classify(&mut Never)? else { panic!("one solution expected") };
//! assert_eq!(solution.to_string(),
//!     "534678912672195348198342567859761423426853791713924856961537284287419635345286179");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod board;
pub mod generate;
pub mod interrupt;
pub mod logic;
pub mod order;
pub mod puzzle;
pub mod puzzle_id;
pub mod rules;
pub mod search;
pub mod sizes;
pub mod solver;
pub mod variants;
pub mod verdict;

// The bottom layer, under the names it has always had here.
pub use sudokud_model::{exchange, member, position, random};

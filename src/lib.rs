//! sudokud: solve and validate 9x9 Sudoku boards, as a library, an HTTP service and a batch CLI.
//!
//! The core is pure and synchronous: [`board`] (the grid and its text and JSON representations),
//! [`rules`] (which givens conflict), [`solver`] (search with propagation, uniqueness and a
//! cooperative deadline), [`logic`] (human-style techniques: step-by-step explanations, hints
//! and difficulty ratings), [`generate`] (puzzles of a chosen level) and [`member`] (how request
//! members other than boards are named and read). Around it: [`pool`] runs solver work for async callers on a bounded
//! blocking pool, [`batch`] solves files in parallel for the CLI, and the service modules
//! ([`http`], [`server`], [`config`], [`cli`], [`healthcheck`], [`telemetry`]) only translate
//! between that core and the outside world.
//!
//! ```
//! use sudokud::{board::Board, solver::{self, Outcome}};
//!
//! let puzzle: Board =
//!     "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79".parse()?;
//! let Outcome::Unique(solution) = solver::solve(&puzzle) else { panic!("one solution expected") };
//! assert_eq!(solution.to_string(),
//!     "534678912672195348198342567859761423426853791713924856961537284287419635345286179");
//! # Ok::<(), sudokud::board::BoardError>(())
//! ```

pub mod batch;
pub mod board;
pub mod cli;
pub mod config;
pub mod generate;
pub mod healthcheck;
pub mod http;
pub mod logic;
pub mod member;
pub mod metrics;
pub mod pool;
pub mod progress;
pub mod random;
pub mod rules;
pub mod server;
pub mod solver;
pub mod telemetry;

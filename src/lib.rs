//! sudokud: the Sudoku service and batch CLI around [`sudokud_core`], the library that holds
//! the board, rules, solver, logic and generator.
//!
//! Here: [`pool`] runs solver work for async callers on a bounded blocking pool, `batch`
//! solves files in parallel for the CLI, and the service modules ([`http`], [`server`],
//! [`config`], [`cli`], `healthcheck`, [`telemetry`]) only translate between that core and the
//! outside world. The core's modules are re-exported under their own names, so `sudokud::solver`
//! is `sudokud_core::solver`.

pub use sudokud_core::{
    board, exchange, generate, logic, member, order, position, puzzle, puzzle_id, random, rules, search, sizes, solver,
    variants,
};

// What the binary, the tests and the benches reach is public; the rest of the service is not.

mod batch;
pub mod cli;
pub mod config;
mod decimal;
mod healthcheck;
pub mod http;
pub mod metrics;
pub mod pool;
mod print;
mod progress;
pub mod render;
pub mod server;
pub mod telemetry;

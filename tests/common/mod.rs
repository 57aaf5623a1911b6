//! Helpers shared by the integration tests (and, through `#[path]`, by the solve benchmark).
//!
//! Each test crate compiles its own copy of this module and uses only part of it, so unused
//! items are expected here rather than dead.
#![allow(dead_code)]

pub mod http;
pub mod oracle;

use std::path::PathBuf;

use sudokud::board::Board;

/// The directory with the puzzle data sets, found from the manifest so tests and benches work
/// from any working directory.
pub fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("data")
}

/// Reads every puzzle of `tests/data/<name>`, skipping empty lines. Panics with the file and
/// line on anything unreadable, since a broken data file must fail the test, not shrink it.
pub fn load(name: &str) -> Vec<Board> {
    let path = data_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| line.parse().unwrap_or_else(|error| panic!("{}:{}: {error}", path.display(), index + 1)))
        .collect()
}

//! Helpers shared by the integration tests (`tests/integration/`, which uses all of them), and
//! through `#[path]` by `tests/http_metrics.rs` and the benchmarks, which use only part of them
//! and allow dead code where they include this module.

pub(crate) mod http;
pub(crate) mod oracle;

use std::path::PathBuf;

use sudokud::board::Board;

/// The directory with the puzzle data sets, found from the manifest so tests and benches work
/// from any working directory.
pub(crate) fn data_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("data")
}

/// Reads every puzzle of `tests/data/<name>`, skipping empty lines. Panics with the file and
/// line on anything unreadable, since a broken data file must fail the test, not shrink it.
pub(crate) fn load(name: &str) -> Vec<Board> {
    let path = data_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(index, line)| line.parse().unwrap_or_else(|error| panic!("{}:{}: {error}", path.display(), index + 1)))
        .collect()
}

//! The `sudokud` binary: parses the command line and runs it (serving the HTTP API by default).

use std::process::ExitCode;

fn main() -> ExitCode {
    sudokud::cli::run(sudokud::cli::Cli::from_env())
}

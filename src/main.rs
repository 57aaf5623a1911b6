use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    sudokud::cli::run(sudokud::cli::Cli::parse())
}

use std::process::ExitCode;

fn main() -> ExitCode {
    sudokud::cli::run(sudokud::cli::Cli::from_env())
}

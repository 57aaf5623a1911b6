//! The command line: serve (the default), solve in batch, or check a running server's health.

use std::fs::File;
use std::io::{self, BufReader};
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Arg, Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::config::{ServeConfig, available_cpus};
use crate::http::Readiness;
use crate::{batch, healthcheck, server, telemetry};

/// Solve and validate 9x9 Sudoku over HTTP, or in batch from files.
///
/// With no subcommand, sudokud serves the HTTP API (as `sudokud serve`).
#[derive(Debug, Parser)]
#[command(name = "sudokud", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub serve: ServeConfig,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the HTTP API (the default).
    Serve(ServeConfig),
    /// Solve puzzles in batch: one 81-cell puzzle per line in, one answer line out.
    ///
    /// Reads each FILE in turn, or stdin when none is given. Empty lines and lines starting
    /// with '#' are skipped. Each puzzle gets one line, in input order: the 81-digit solution;
    /// followed by a tab and `multiple` when the puzzle has more than one solution; or
    /// `error<TAB><reason>` when it is invalid, its givens conflict, or it has no solution.
    /// Exits 0 when every input was read, 1 when a file cannot be read.
    Solve(SolveArgs),
    /// Exit 0 if the server at --addr answers GET /healthz with 200, else 1 (for container
    /// HEALTHCHECKs on images without curl).
    Healthcheck(HealthcheckArgs),
}

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle files; stdin when none.
    pub files: Vec<PathBuf>,
    /// Worker threads [default: the number of CPUs].
    #[arg(long, value_name = "N")]
    pub threads: Option<NonZeroUsize>,
}

#[derive(Debug, Args)]
pub struct HealthcheckArgs {
    /// The server's address; an unspecified IP (0.0.0.0) means this host.
    #[arg(long, env = "SUDOKUD_ADDR", default_value = "0.0.0.0:8080")]
    pub addr: SocketAddr,
    /// Give up after this long.
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    pub timeout_ms: u64,
}

impl Cli {
    /// Parses the process's arguments and environment. An environment variable set to the empty
    /// string counts as unset (clap would take it as a missing value), so the common compose
    /// idiom `SUDOKUD_X: ${SUDOKUD_X:-}` falls back to the default.
    pub fn from_env() -> Cli {
        let command = Cli::command()
            .mut_args(ignore_empty_env)
            .mut_subcommands(|subcommand| subcommand.mut_args(ignore_empty_env));
        Cli::from_arg_matches(&command.get_matches()).unwrap_or_else(|error| error.exit())
    }
}

/// Drops `arg`'s environment variable when it is set to the empty string.
fn ignore_empty_env(arg: Arg) -> Arg {
    let empty = arg.get_env().and_then(std::env::var_os).is_some_and(|value| value.is_empty());
    if empty { arg.env(None::<&str>) } else { arg }
}

/// Runs the command line and returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    match cli.command.unwrap_or(Command::Serve(cli.serve)) {
        Command::Serve(config) => serve(config),
        Command::Solve(args) => solve(args),
        Command::Healthcheck(args) => match healthcheck::check(args.addr, Duration::from_millis(args.timeout_ms)) {
            Ok(()) => ExitCode::SUCCESS,
            Err(reason) => {
                eprintln!("sudokud healthcheck: {reason}");
                ExitCode::FAILURE
            }
        },
    }
}

fn serve(config: ServeConfig) -> ExitCode {
    telemetry::init(config.log_format);
    let result = tokio::runtime::Builder::new_multi_thread().enable_all().build().and_then(|runtime| {
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::bind(config.addr).await?;
            tracing::info!(addr = %listener.local_addr()?, version = env!("CARGO_PKG_VERSION"), "sudokud listening");
            server::serve(listener, &config, Readiness::default(), server::shutdown_signal()).await
        })
    });
    match result {
        Ok(()) => {
            tracing::info!("sudokud stopped");
            ExitCode::SUCCESS
        }
        Err(error) => {
            tracing::error!(%error, addr = %config.addr, "sudokud failed");
            ExitCode::FAILURE
        }
    }
}

fn solve(args: SolveArgs) -> ExitCode {
    let threads = args.threads.map_or_else(available_cpus, NonZeroUsize::get);
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let result = if args.files.is_empty() {
        batch::solve_stream(io::stdin().lock(), &mut out, threads).map_err(|error| format!("stdin: {error}"))
    } else {
        args.files.iter().try_for_each(|path| {
            File::open(path)
                .and_then(|file| batch::solve_stream(BufReader::new(file), &mut out, threads))
                .map_err(|error| format!("{}: {error}", path.display()))
        })
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (`sudokud solve big.txt | head`) is the reader's choice, not a failure.
        Err(reason) if reason.ends_with("Broken pipe (os error 32)") => ExitCode::SUCCESS,
        Err(reason) => {
            eprintln!("sudokud solve: {reason}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }

    #[test]
    fn no_subcommand_means_serve_with_flags() {
        let cli = Cli::try_parse_from(["sudokud", "--addr", "127.0.0.1:9000"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.serve.addr, "127.0.0.1:9000".parse().unwrap());
        let cli = Cli::try_parse_from(["sudokud", "solve", "--threads", "2", "a.txt"]).unwrap();
        let Some(Command::Solve(args)) = cli.command else { panic!("expected solve") };
        assert_eq!(args.threads.map(NonZeroUsize::get), Some(2));
        assert_eq!(args.files, [PathBuf::from("a.txt")]);
    }
}

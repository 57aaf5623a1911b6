//! The command line: serve (the default), solve in batch, or check a running server's health.

use std::fs::File;
use std::io::{self, BufReader};
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Arg, Args, CommandFactory, FromArgMatches, Parser, Subcommand};

use crate::batch::{self, InputFormat, LineJob};
use crate::config::{ServeConfig, available_cpus};
use crate::exchange::SharedFormat;
use crate::generate::{self, Symmetry};
use crate::http::Readiness;
use crate::logic::Level;
use crate::member::{self, Choice};
use crate::progress::{self, Progress};
use crate::puzzle::Puzzle;
use crate::puzzle_id::PuzzleId;
use crate::render::{self, ImageFormat, Paper, PerPage};
use crate::sizes::Shape;
use crate::variants::{Constraints, Preset};
use crate::{healthcheck, print, server, telemetry};

/// Solve, rate, explain and generate Sudoku of every size from 4x4 to 25x25 over HTTP, or in batch
/// from files.
///
/// With no subcommand, sudokud serves the HTTP API (as `sudokud serve`).
#[derive(Debug, Parser)]
#[command(name = "sudokud", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    #[command(flatten)]
    serve: ServeConfig,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Serve the HTTP API (the default).
    Serve(Deferred<ServeConfig>),
    /// Solve puzzles in batch: one answer line per puzzle, in input order.
    ///
    /// A puzzle is N x N cells for a grid of size N from 4x4 to 25x25 (16, 36, 64, 81, 100, 144,
    /// 225, 256, 400 or 625 cells): `1`-`9` then `A`-`P` (either case), and `.` or `0` for a
    /// blank. The box is the size's square one, or else the widest box no taller than it is wide
    /// (6x6: 2x3); --box gives another (3x2). Reads each FILE in turn, or stdin when none is
    /// given, in one of two formats, which each input's first puzzle line tells (--input-format
    /// says it instead).
    ///
    /// One puzzle per line (SadMan .sdm, HoDoKu's and most collections): a line's puzzle is its
    /// first field, up to whitespace, '#', ':', ',' or ';', so what follows it is not read (`#12
    /// hard (4.1)`, a rating, the tab-separated fields of `generate`'s lines: `sudokud generate
    /// --difficulty hard --count 5 | sudokud solve`); empty lines and lines starting with '#' are
    /// skipped. A line of N x N x N characters (729 for 9x9; 64 only with --box 2x2) is a
    /// player's position in pencil marks, as `candidates` writes them: a cell of one candidate
    /// holds that value, the others are blanks with the player's marks. Its values are solved,
    /// and marks that cross out the solution's value of a cell are a `wrong-candidates` error.
    ///
    /// Grids of N lines of N cells (SadMan .sdk, Simple Sudoku .ss): '|' and whitespace in a row,
    /// border lines ('---+---+---') and lines starting with '#' are ignored; a blank line or a
    /// header such as `[Puzzle]` ends a grid. Rows of 16 cells are whole 4x4 puzzles unless
    /// --input-format grid says they make a 16x16 grid.
    ///
    /// With --input-format shared, each whole line is a puzzle as another tool shares it (an
    /// f-puzzles or SudokuPad link, f-puzzles data or JSON, an Interactive Sudoku Solver
    /// constraint string or link), with its rules.
    ///
    /// Each puzzle gets one line: the solution, one line of the puzzle's size, followed by a tab
    /// and `multiple` when the puzzle has more than one solution; or
    /// `error<TAB><reason><TAB>line <n>`, with the line the puzzle starts on, when it is invalid,
    /// its givens conflict, or it has no solution. With --variant or --constraints every puzzle
    /// is played by a variant's rules (`sudokud solve --variant x`; docs/variants.md). With
    /// --timeout-ms a puzzle not answered in time gets `error<TAB>solve-timeout: the puzzle ran
    /// out of time: ...`, and the next ones follow. A line longer than 65,536 bytes, longer than
    /// any puzzle's, gets `error<TAB>invalid-board: ...` without being held in memory. Shows a
    /// progress bar on stderr when it is a terminal. Exits 0 when every input was read, 1 when a
    /// file cannot be read.
    Solve(Deferred<TimedBatchArgs>),
    /// Rate puzzles in batch: how hard each is for a person.
    ///
    /// Reads puzzles of every size and format like `solve`, with --box likewise, so `generate`'s
    /// lines pipe in; a line of pencil marks is rated from the player's marks. Each gets one
    /// line: `<rating>TAB<level>TAB<logic|search>TAB<technique>=<count>,...`, the rating on the
    /// Sudoku Explainer scale, the level (easy, medium, hard, expert, extreme), whether logic
    /// alone solved it, and the techniques used; or `error<TAB><reason><TAB>line <n>` (also for
    /// a puzzle with more than one solution). --variant, --constraints and --timeout-ms as for
    /// `solve`, but a rating --timeout-ms cuts short is written `>=<rating>TAB<level>TABpartial`
    /// and the steps taken by then: the least the rating and level can be.
    Rate(Deferred<TimedBatchArgs>),
    /// Explain puzzles in batch: every step a person would take.
    ///
    /// Reads puzzles of every size and format like `solve`, with --box likewise, so `generate`'s
    /// lines pipe in; a line of pencil marks is explained from the player's marks. Each gets a
    /// paragraph: one `<technique>TAB<explanation>` line per step, then
    /// `<solution>TAB<rating>TAB<level>TAB<logic|search>`, then an empty line; or
    /// `error<TAB><reason><TAB>line <n>` and an empty line. --variant, --constraints and
    /// --timeout-ms as for `solve`.
    Explain(Deferred<TimedBatchArgs>),
    /// Pencil marks of puzzles in batch: the candidates of every blank cell.
    ///
    /// Reads puzzles of every size and format like `solve`, with --box likewise. Each gets one
    /// line of N x N x N characters, the pencil-mark form Sukaku Explainer and tdoku read (729
    /// for 9x9): cell after cell, each cell's N places holding its value's symbol where the value
    /// is possible and `.` where not, a filled cell written as its value alone; or
    /// `error<TAB><reason><TAB>line <n>` when the puzzle is no board. Candidates are what no
    /// filled cell of the row, column or box (or of the variant's rules, with --variant or
    /// --constraints) rules out, as `POST /v1/candidates` answers; of a line of pencil marks,
    /// those the player's marks keep too.
    Candidates(Deferred<GridBatchArgs>),
    /// Write puzzles as other tools share them: one line per puzzle, as `POST /v1/export` does.
    ///
    /// Reads puzzles of every size and format like `solve`, with --box, --variant and
    /// --constraints likewise (or with --input-format shared, links and strings of other tools,
    /// each with its rules). Each gets one line: `<puzzle>TAB<link>`, the puzzle in --format
    /// (`f-puzzles`: f-puzzles' data and an f-puzzles link; `sudokupad`: the same data and a
    /// SudokuPad link; `iss`: the Interactive Sudoku Solver's constraint string and its link), which
    /// `--input-format shared` reads back; or `error<TAB><reason><TAB>line <n>` for a puzzle the
    /// format cannot hold (each reaches 16x16, with each size's default boxes) or a line of pencil
    /// marks, which no format here carries. `sudokud generate --variant x --difficulty hard | sudokud
    /// export --variant x --format sudokupad | cut -f2` makes links to share.
    Export(Deferred<ExportArgs>),
    /// Generate puzzles of a difficulty, one per line.
    ///
    /// Each line is `<puzzle>TAB<solution>TAB<rating>TAB<level>TAB<seed>`, which `solve`, `rate`
    /// and `explain` read as the puzzle (`sudokud generate --difficulty hard | sudokud explain`).
    /// Grids are 9x9 unless --size or --box says otherwise (`--size 16`, `--box 3x2`); each size
    /// offers the levels generated within a second (4x4: easy only; see docs/api.md).
    /// Puzzle i (from 0) is made from seed SEED + i, so any line can be made again alone with
    /// `--seed` and `--count 1`. Shows a progress bar on stderr when it is a terminal.
    Generate(Deferred<GenerateArgs>),
    /// Draw a puzzle as SVG, PNG or PDF, as `POST /v1/render` does.
    ///
    /// PUZZLE is a line as `solve` reads it (its first tab-separated field, so a `generate` line
    /// will do), of any size with --box, under --variant or --constraints. The givens are drawn
    /// black; --solution adds the solution's values in red (the puzzle must have exactly one),
    /// --candidates the basic pencil marks, --marks the player's (the one-line N x N x N form
    /// `candidates` writes). SVG and PNG are --width pixels wide, a PDF one page of --paper. The
    /// format is --format, else the extension of --output, else SVG. Writes to --output, or
    /// stdout. Exits 2 when the puzzle or an option cannot be drawn, saying why (and when
    /// --solution's solve outlasts --timeout-ms, that the puzzle ran out of time).
    Render(Deferred<RenderArgs>),
    /// Print a booklet: puzzles made at a level, or read from files, k to a page with answer
    /// pages, as one PDF, as `POST /v1/booklet` does.
    ///
    /// With --count, puzzles of --difficulty are made from --seed on (puzzle i from SEED + i,
    /// as `generate` makes them; the same seed makes the same booklet), each captioned with its
    /// id; else the puzzles are the lines of FILES (as `solve` reads them, with --box; each must have
    /// exactly one solution; all of one size and box). Up to 100 puzzles. With --variant or
    /// --constraints the puzzles are made for (or read under) a variant's rules and drawn with
    /// its marks, a made one captioned with its variant, level and seed. Writes to --output, or
    /// stdout.
    Booklet(Deferred<BookletArgs>),
    /// Exit 0 if the server at --addr answers GET /healthz with 200, else 1 (for container
    /// HEALTHCHECKs on images without curl).
    Healthcheck(Deferred<HealthcheckArgs>),
}

/// A subcommand's arguments, added to the command line only when that subcommand runs or shows
/// its help ([`clap::Command::defer`]), each with `ignore_empty_env`. Built for every
/// subcommand at every start, with their help texts, they took about 280,000 of the 550,000
/// instructions of parsing `sudokud solve FILE`'s command line (callgrind), and a batch run pays
/// its start once per file of puzzles.
#[derive(Debug)]
struct Deferred<T>(T);

impl<T: Args> Args for Deferred<T> {
    fn augment_args(command: clap::Command) -> clap::Command {
        command.defer(|command| with_own_help(command, T::augment_args))
    }

    fn augment_args_for_update(command: clap::Command) -> clap::Command {
        command.defer(|command| with_own_help(command, T::augment_args_for_update))
    }
}

/// `augment(command)` with [`ignore_empty_env`], keeping `command`'s help texts: the
/// subcommand's own (its variant's doc comment), which `augment` would replace by its
/// arguments' (their struct's doc comment), since deferred it runs after them.
fn with_own_help(command: clap::Command, augment: fn(clap::Command) -> clap::Command) -> clap::Command {
    let (about, long_about) = (command.get_about().cloned(), command.get_long_about().cloned());
    let augmented = augment(command).mut_args(ignore_empty_env);
    let augmented = match about {
        Some(about) => augmented.about(about),
        None => augmented.about(None::<&str>),
    };
    match long_about {
        Some(long_about) => augmented.long_about(long_about),
        None => augmented.long_about(None::<&str>),
    }
}

impl<T: FromArgMatches> FromArgMatches for Deferred<T> {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        T::from_arg_matches(matches).map(Deferred)
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }
}

#[derive(Debug, Args)]
struct BatchArgs {
    /// Puzzle files; stdin when none.
    files: Vec<PathBuf>,
    /// Worker threads [default: the number of CPUs].
    #[arg(long, value_name = "N")]
    threads: Option<NonZeroUsize>,
    /// How the inputs hold their puzzles [default: told by each input's first puzzle line: a
    /// grid when it is a row of N cells, a border or a header].
    #[arg(long, value_name = "FORMAT")]
    input_format: Option<InputFormat>,
}

/// The arguments of the batch commands that read every size and variant: [`BatchArgs`], the
/// box and a variant's rules.
#[derive(Debug, Args)]
struct GridBatchArgs {
    #[command(flatten)]
    batch: BatchArgs,
    #[command(flatten)]
    rules: RulesArgs,
}

/// How puzzles are read and played: the box and a variant's rules, for the batch commands and
/// `render`.
#[derive(Debug, Args)]
struct RulesArgs {
    /// The box of every puzzle, rows x columns (2 to 5 each), when not its size's default:
    /// `3x2` for 6x6 grids of boxes 3 rows high.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<Shape>,
    /// A variant by name, shorthand for its constraints.
    #[arg(long, value_name = "VARIANT", value_parser = choice::<Preset>())]
    variant: Option<Preset>,
    /// A variant's constraints as JSON, the `constraints` object of the HTTP API
    /// (`{"diagonals":"both","anti_knight":true}`), or `@FILE` to read it from a file.
    #[arg(long, value_name = "JSON|@FILE")]
    constraints: Option<String>,
}

impl RulesArgs {
    /// How every puzzle is read and played, or why the constraints cannot be read.
    fn rules(&self) -> Result<batch::Rules, String> {
        let variant = read_variant(self.variant, self.constraints.as_deref())?;
        Ok(batch::Rules { shape: self.shape, variant, shared: false })
    }
}

impl GridBatchArgs {
    /// [`RulesArgs::rules`], or with `--input-format shared` the rules each line carries.
    fn rules(&self) -> Result<batch::Rules, String> {
        if self.batch.input_format != Some(InputFormat::Shared) {
            return self.rules.rules();
        }
        let RulesArgs { shape, variant, constraints } = &self.rules;
        if shape.is_some() || variant.is_some() || constraints.is_some() {
            return Err("--input-format shared: each line carries its rules; leave out --box, --variant and \
                        --constraints"
                .to_owned());
        }
        Ok(batch::Rules { shared: true, ..batch::Rules::default() })
    }
}

/// How long one puzzle may take, for the commands that solve or rate.
#[derive(Debug, Args)]
struct TimeoutArgs {
    /// Give up on a puzzle after this long, saying it ran out of time [default: no limit].
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    timeout_ms: Option<u64>,
}

impl TimeoutArgs {
    fn timeout(&self) -> Option<Duration> {
        self.timeout_ms.map(Duration::from_millis)
    }
}

/// [`GridBatchArgs`], and how long one puzzle may take: `solve`, `rate` and `explain`.
#[derive(Debug, Args)]
struct TimedBatchArgs {
    #[command(flatten)]
    grid: GridBatchArgs,
    #[command(flatten)]
    timeout: TimeoutArgs,
}

/// The arguments of `sudokud export`.
#[derive(Debug, Args)]
struct ExportArgs {
    #[command(flatten)]
    grid: GridBatchArgs,
    /// The format to write: f-puzzles, sudokupad or iss.
    #[arg(long, value_name = "FORMAT", value_parser = choice::<SharedFormat>())]
    format: SharedFormat,
}

/// A variant's rules from `--variant` and `--constraints` (JSON, or `@FILE`), if any, or why the
/// constraints cannot be read.
fn read_variant(
    preset: Option<Preset>,
    constraints: Option<&str>,
) -> Result<Option<(Option<Preset>, Constraints)>, String> {
    let constraints = match constraints {
        None => Constraints::default(),
        Some(text) => {
            let json = match text.strip_prefix('@') {
                Some(path) => {
                    std::fs::read_to_string(path).map_err(|error| format!("--constraints: {path}: {error}"))?
                }
                None => text.to_owned(),
            };
            serde_json::from_str(&json).map_err(|error| format!("--constraints: {error}"))?
        }
    };
    Ok((preset.is_some() || !constraints.is_empty()).then_some((preset, constraints)))
}

/// What puzzles are made from besides their level, for `generate` and `booklet`.
#[derive(Debug, Args)]
struct MadeArgs {
    /// The seed of the first puzzle; puzzle i is made from SEED + i [default: a fresh one, printed
    /// on each line of `generate`].
    #[arg(long, value_name = "SEED")]
    seed: Option<u64>,
    /// The pattern the givens make.
    #[arg(long, default_value_t = Symmetry::None, value_name = "SYMMETRY", value_parser = choice::<Symmetry>())]
    symmetry: Symmetry,
    /// The grid's size: 4, 6, 8, 9, 10, 12, 15, 16, 20 or 25 [default: 9, or the size of --box].
    #[arg(long, value_name = "N")]
    size: Option<u64>,
    /// The box, rows x columns, when not the size's default: `3x2` for 6x6 grids of boxes 3
    /// rows high.
    #[arg(long = "box", value_name = "RxC")]
    shape: Option<Shape>,
}

impl MadeArgs {
    /// The grid's shape from --size and --box.
    fn grid_shape(&self) -> Result<Shape, crate::sizes::ShapeError> {
        Shape::from_size_and_box(self.size, self.shape)
    }

    /// The seed of the first puzzle: --seed, or a fresh one.
    fn first_seed(&self) -> u64 {
        self.seed.unwrap_or_else(generate::fresh_seed)
    }
}

#[derive(Debug, Args)]
struct GenerateArgs {
    /// How hard the puzzles are for a person.
    #[arg(long, value_name = "LEVEL", value_parser = choice::<Level>())]
    difficulty: Level,
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_name = "N")]
    count: u64,
    #[command(flatten)]
    made: MadeArgs,
    /// Worker threads [default: the number of CPUs].
    #[arg(long, value_name = "N")]
    threads: Option<NonZeroUsize>,
    /// Make puzzles of a variant, by name (jigsaw regions and killer cages are made too).
    #[arg(long, value_name = "VARIANT", value_parser = choice::<Preset>())]
    variant: Option<Preset>,
    /// Make puzzles for a variant's constraints, as JSON or `@FILE` (as for `solve`).
    #[arg(long, value_name = "JSON|@FILE")]
    constraints: Option<String>,
}

#[derive(Debug, Args)]
struct RenderArgs {
    /// The puzzle, one line.
    puzzle: String,
    /// svg, png or pdf [default: --output's extension, else svg].
    #[arg(long, value_name = "FORMAT", value_parser = choice::<ImageFormat>())]
    format: Option<ImageFormat>,
    /// Pixels, for SVG and PNG.
    #[arg(long, default_value_t = render::DEFAULT_WIDTH, value_name = "PIXELS",
          value_parser = clap::value_parser!(u32).range(i64::from(*render::WIDTHS.start())..=i64::from(*render::WIDTHS.end())))]
    width: u32,
    /// The sheet of a PDF.
    #[arg(long, default_value_t = Paper::A4, value_name = "PAPER", value_parser = choice::<Paper>())]
    paper: Paper,
    /// Draw the solution's values in red.
    #[arg(long)]
    solution: bool,
    /// Draw the basic candidates of every blank cell.
    #[arg(long, conflicts_with = "marks")]
    candidates: bool,
    /// Draw these pencil marks: one line of N x N x N characters, as `candidates` writes.
    #[arg(long, value_name = "LINE")]
    marks: Option<String>,
    /// A title above the grid.
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    #[command(flatten)]
    rules: RulesArgs,
    #[command(flatten)]
    timeout: TimeoutArgs,
    /// The file to write [default: stdout].
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct BookletArgs {
    /// Files of puzzles to print, one per line (instead of --count).
    #[arg(conflicts_with = "count", required_unless_present = "count")]
    files: Vec<PathBuf>,
    /// How many puzzles to make.
    #[arg(long, value_name = "N",
          value_parser = clap::value_parser!(u64).range(1..=render::booklet::MAX_PUZZLES as u64))]
    count: Option<u64>,
    /// How hard the made puzzles are.
    #[arg(long, default_value_t = Level::Medium, value_name = "LEVEL", value_parser = choice::<Level>())]
    difficulty: Level,
    #[command(flatten)]
    made: MadeArgs,
    /// Puzzles to a page.
    #[arg(long, default_value = "4", value_name = "K", value_parser = per_page)]
    per_page: PerPage,
    /// The sheet.
    #[arg(long, default_value_t = Paper::A4, value_name = "PAPER", value_parser = choice::<Paper>())]
    paper: Paper,
    /// A title at the top of every page.
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// Leave out the answer pages.
    #[arg(long)]
    no_answers: bool,
    /// Every puzzle's variant, by name.
    #[arg(long, value_name = "VARIANT", value_parser = choice::<Preset>())]
    variant: Option<Preset>,
    /// Every puzzle's constraints, as JSON or `@FILE` (as for `solve`).
    #[arg(long, value_name = "JSON|@FILE")]
    constraints: Option<String>,
    /// The file to write [default: stdout].
    #[arg(long, short, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct HealthcheckArgs {
    /// The server's address; an unspecified IP (0.0.0.0) means this host.
    #[arg(long, env = "SUDOKUD_ADDR", default_value = "0.0.0.0:8080")]
    addr: SocketAddr,
    /// Give up after this long.
    #[arg(long, default_value_t = 2000, value_name = "MS")]
    timeout_ms: u64,
}

/// Reads a [`Choice`] by name; its one list gives the possible values `--help` and errors show.
fn choice<T: Choice + Clone + Send + Sync>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::ALL.iter().map(|choice| choice.name()))
        .map(|name| member::parse(&name).expect("clap passes only the possible values"))
}

impl Cli {
    /// Parses the process's arguments and environment. An environment variable set to the empty
    /// string counts as unset (clap would take it as a missing value), so the common compose
    /// idiom `SUDOKUD_X: ${SUDOKUD_X:-}` falls back to the default.
    pub fn from_env() -> Cli {
        let command = Cli::command().mut_args(ignore_empty_env);
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
    match cli.command.unwrap_or(Command::Serve(Deferred(cli.serve))) {
        Command::Serve(Deferred(config)) => serve(config),
        Command::Solve(Deferred(TimedBatchArgs { grid, timeout })) => match grid.rules() {
            Ok(rules) => batch("solve", &batch::Solve { rules, timeout: timeout.timeout() }, grid.batch),
            Err(message) => usage_error("solve", &message),
        },
        Command::Rate(Deferred(TimedBatchArgs { grid, timeout })) => match grid.rules() {
            Ok(rules) => batch("rate", &batch::Rate { rules, timeout: timeout.timeout() }, grid.batch),
            Err(message) => usage_error("rate", &message),
        },
        Command::Explain(Deferred(TimedBatchArgs { grid, timeout })) => match grid.rules() {
            Ok(rules) => batch("explain", &batch::Explain { rules, timeout: timeout.timeout() }, grid.batch),
            Err(message) => usage_error("explain", &message),
        },
        Command::Candidates(Deferred(args)) => match args.rules() {
            Ok(rules) => batch("candidates", &batch::Candidates { rules }, args.batch),
            Err(message) => usage_error("candidates", &message),
        },
        Command::Export(Deferred(ExportArgs { grid, format })) => match grid.rules() {
            Ok(rules) => batch("export", &batch::Export { rules, format }, grid.batch),
            Err(message) => usage_error("export", &message),
        },
        Command::Generate(Deferred(args)) => generate(args),
        Command::Render(Deferred(args)) => render(args),
        Command::Booklet(Deferred(args)) => booklet(args),
        Command::Healthcheck(Deferred(args)) => {
            match healthcheck::check(args.addr, Duration::from_millis(args.timeout_ms)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(reason) => {
                    eprintln!("sudokud healthcheck: {reason}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

fn serve(config: ServeConfig) -> ExitCode {
    // First: the log writer is the first thread started.
    let kept_freed_memory = server::allocator::keep_freed_memory();
    let _log = match telemetry::init(config.log_format) {
        Ok(guard) => guard,
        Err(error) => {
            eprintln!("sudokud: cannot start the log writer: {error}");
            return ExitCode::FAILURE;
        }
    };
    if !kept_freed_memory {
        tracing::warn!("the allocator refused to keep freed memory: compressed answers cost more system time");
    }
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

/// Runs a batch command over the files, or stdin.
fn batch(name: &str, job: &impl LineJob, args: BatchArgs) -> ExitCode {
    let threads = args.threads.map_or_else(available_cpus, NonZeroUsize::get);
    let progress = Progress::on_stderr(|| progress::count_lines(&args.files));
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let result = if args.files.is_empty() {
        batch::run(job, io::stdin().lock(), &mut out, threads, &progress, args.input_format)
            .map_err(|error| Failed { input: "stdin".to_owned(), error })
    } else {
        args.files.iter().try_for_each(|path| {
            File::open(path)
                .and_then(|file| batch::run(job, BufReader::new(file), &mut out, threads, &progress, args.input_format))
                .map_err(|error| Failed { input: path.display().to_string(), error })
        })
    };
    progress.finish();
    exit_code(name, result)
}

fn generate(args: GenerateArgs) -> ExitCode {
    let shape = match args.made.grid_shape() {
        Ok(shape) => shape,
        Err(error) => return usage_error("generate", &error),
    };
    let variant = match read_variant(args.variant, args.constraints.as_deref()) {
        Ok(variant) => variant,
        Err(message) => return usage_error("generate", &message),
    };
    if let Err(message) = offered(shape, variant.as_ref(), args.difficulty) {
        return usage_error("generate", &message);
    }
    let threads = args.threads.map_or_else(available_cpus, NonZeroUsize::get);
    let seed = args.made.first_seed();
    let progress = Progress::on_stderr(|| Some(args.count));
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let job = batch::Generate { shape, level: args.difficulty, symmetry: args.made.symmetry, variant };
    let result = batch::generate(&job, seed, args.count, threads, &mut out, &progress);
    progress.finish();
    exit_code("generate", result.map_err(|error| Failed { input: "stdout".to_owned(), error }))
}

fn render(args: RenderArgs) -> ExitCode {
    let rules = match args.rules.rules() {
        Ok(rules) => rules,
        Err(message) => return usage_error("render", &message),
    };
    let by_extension = args.output.as_deref().and_then(|path| path.extension()?.to_str()?.parse().ok());
    let job = print::RenderJob {
        puzzle: args.puzzle,
        rules,
        format: args.format.or(by_extension).unwrap_or(ImageFormat::Svg),
        width: args.width,
        paper: args.paper,
        solution: args.solution,
        candidates: (args.candidates || args.marks.is_some()).then_some(args.marks),
        title: args.title,
        timeout: args.timeout.timeout(),
    };
    match print::render(&job) {
        Ok(bytes) => written("render", args.output.as_deref(), &bytes),
        Err(message) => usage_error("render", &message),
    }
}

/// `--per-page`: a count a page holds.
fn per_page(text: &str) -> Result<PerPage, String> {
    text.parse().ok().and_then(PerPage::new).ok_or_else(|| format!("expected one of {:?}", PerPage::ALL))
}

fn booklet(args: BookletArgs) -> ExitCode {
    let variant = match read_variant(args.variant, args.constraints.as_deref()) {
        Ok(variant) => variant,
        Err(message) => return usage_error("booklet", &message),
    };
    let source = match args.count {
        Some(count) => {
            let shape = match args.made.grid_shape() {
                Ok(shape) => shape,
                Err(error) => return usage_error("booklet", &error),
            };
            if let Err(message) = offered(shape, variant.as_ref(), args.difficulty) {
                return usage_error("booklet", &message);
            }
            let first =
                PuzzleId { shape, level: args.difficulty, symmetry: args.made.symmetry, seed: args.made.first_seed() };
            print::BookletSource::Made { first, count: count as usize, variant }
        }
        None => print::BookletSource::Files {
            files: &args.files,
            rules: batch::Rules { shape: args.made.shape, variant, shared: false },
        },
    };
    let layout = print::BookletLayout {
        title: args.title,
        paper: args.paper,
        per_page: args.per_page,
        answers: !args.no_answers,
    };
    match print::booklet(source, &layout) {
        Ok(bytes) => written("booklet", args.output.as_deref(), &bytes),
        Err(message) => usage_error("booklet", &message),
    }
}

/// Writes a drawing out: exit 0, or 1 when it cannot be written.
fn written(command: &str, output: Option<&std::path::Path>, bytes: &[u8]) -> ExitCode {
    let input = output.map_or_else(|| "stdout".to_owned(), |path| path.display().to_string());
    exit_code(command, print::write_out(output, bytes).map_err(|error| Failed { input, error }))
}

/// A request the arguments' parser could not see was wrong: said on stderr, exit code 2 as for
/// the parser's own errors.
/// Whether puzzles of `level` are made at `shape`, under a variant's rules when given (which some
/// solved grid must keep, as far as a short search can tell), or why not.
fn offered(shape: Shape, variant: Option<&(Option<Preset>, Constraints)>, level: Level) -> Result<(), String> {
    match variant {
        None => Puzzle::offers(shape, level).map_err(|error| error.to_string()),
        Some((preset, constraints)) => Puzzle::variant_offers(shape, *preset, constraints, level)
            .map_err(|error| error.to_string())
            .and_then(|()| Puzzle::variant_has_grid(shape, *preset, constraints).map_err(|error| error.to_string())),
    }
}

fn usage_error(command: &str, error: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("sudokud {command}: {error}");
    ExitCode::from(2)
}

/// Why a batch command stopped: reading or writing failed while working on `input`.
struct Failed {
    input: String,
    error: io::Error,
}

fn exit_code(command: &str, result: Result<(), Failed>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed stdout (`sudokud solve big.txt | head`) is the reader's choice, not a failure.
        Err(failed) if failed.error.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failed { input, error }) => {
            eprintln!("sudokud {command}: {input}: {error}");
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
        let Some(Command::Solve(Deferred(TimedBatchArgs { grid: args, timeout }))) = cli.command else {
            panic!("expected solve")
        };
        assert_eq!(args.batch.threads.map(NonZeroUsize::get), Some(2));
        assert_eq!(args.batch.files, [PathBuf::from("a.txt")]);
        assert_eq!(args.rules.shape, None);
        assert_eq!(timeout.timeout(), None);
        let cli = Cli::try_parse_from(["sudokud", "solve", "--box", "3x2", "--timeout-ms", "50"]).unwrap();
        let Some(Command::Solve(Deferred(TimedBatchArgs { grid: args, timeout }))) = cli.command else {
            panic!("expected solve")
        };
        assert_eq!(args.rules.shape, Shape::new(3, 2));
        assert_eq!(timeout.timeout(), Some(Duration::from_millis(50)));
        assert!(Cli::try_parse_from(["sudokud", "solve", "--timeout-ms", "0"]).is_err());
        assert!(Cli::try_parse_from(["sudokud", "solve", "--box", "6x6"]).is_err());
    }
}

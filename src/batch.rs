//! The batch commands: `sudokud solve`, `rate`, `explain` and `candidates` answer puzzles from
//! files or stdin, one answer per puzzle in input order; `sudokud generate` makes puzzles from
//! consecutive seeds.
//!
//! Puzzles come one per line (a board, or a line of pencil marks, followed by anything a
//! collection puts after it), or as grids of N lines (`.sdk`, `.ss`), told apart per input
//! ([`InputFormat`]). Input is read in blocks of bytes into one reused buffer and split into
//! lines in place (no copy or allocation per line, and no UTF-8 check on the common line of 81
//! cells); each block is answered in parallel by scoped threads that take chunks of work from a
//! shared cursor, and written out in order before the next block is read. Memory stays bounded
//! by the block size however long the input is, and output order never depends on thread timing.

use std::borrow::Cow;
use std::io::{self, BufRead, Read, Write};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::board::{Board, BoardError, CELLS};
use crate::decimal::Decimal;
use crate::exchange::{self, ShareError, SharedFormat, Written};
use crate::generate::{self, Symmetry};
use crate::http::Kind;
use crate::logic::{Level, Rating};
use crate::progress::Progress;
use crate::puzzle::{Explained, Puzzle};
use crate::rules::Conflict;
use crate::search::{self, Target};
use crate::sizes::{AnyGrid, Grid, Marked, Marks, MarksError, Mistake, SIZES, Shape};
use crate::solver::{Deadline, Interrupted, Never, Unanswerable};
use crate::variants::{ConstraintError, Constraints, Preset};

/// Puzzles read, answered and written per block when several threads share it: enough chunks
/// per thread that the wait at the block's end for the last chunk is a small part of the block.
const BLOCK_LINES: usize = 16 * 1024;

/// [`BLOCK_LINES`] for one thread, which waits for nobody: a block small enough that its bytes,
/// its lines and its answers stay in the core's caches and touch few fresh pages. A block of
/// 16,384 lines (1.3 MB of input, and its list of lines) cost a 20,000-line file about 550 page
/// faults, a tenth of the run on lines with clashing givens, 3 % on easy puzzles.
const ONE_THREAD_BLOCK_LINES: usize = 512;

/// Puzzles per block for `threads` threads.
fn block_lines(threads: usize) -> usize {
    if threads <= 1 { ONE_THREAD_BLOCK_LINES } else { BLOCK_LINES }
}

/// The longest line read, in bytes: four times the longest any puzzle needs (a 25x25 grid's
/// pencil marks, 15,625 characters, and what follows them). A longer line is answered with an
/// error as soon as it is known to be one, and the rest of it is dropped as it is read, so it
/// never fills memory.
const MAX_LINE_BYTES: usize = 64 * 1024;

/// Bytes read per block of `lines` lines: room for that many lines of 81 cells and a newline.
fn block_bytes(lines: usize) -> usize {
    lines * (CELLS + 1)
}

/// What a batch command does with each puzzle.
pub(crate) trait LineJob: Sync {
    type Output: Send;
    /// Puzzles a worker takes at a time: enough to make the shared cursor cheap, few enough that
    /// the threads finish a block together.
    const CHUNK: usize;
    /// The answer to a puzzle's text: the first field of its line, or a grid's cells.
    fn answer(&self, puzzle: &str) -> Result<Self::Output, LineError>;
    /// Writes the answer's lines; an error names `line`, where the puzzle starts in its input.
    fn write(&self, answer: &Result<Self::Output, LineError>, line: usize, out: &mut impl Write) -> io::Result<()>;
}

/// Why a puzzle line gets no answer. Errors keep what they need to be written, not a formatted
/// message: an answer is built for every line, and most never need a string at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LineError {
    Invalid(BoardError),
    Unanswerable(Unanswerable),
    /// A grid of another size, or under a variant's rules, without an answer; its shape writes
    /// the conflicts' values.
    UnanswerableGrid(Shape, Unanswerable),
    /// The variant's constraints do not fit the line's grid.
    Constraints(ConstraintError),
    /// A shared puzzle that cannot be read.
    Shared(ShareError),
    /// A line of pencil marks that cannot be read.
    Marks(MarksError),
    /// Pencil marks that cross out the one solution's value of their cell.
    Mistaken(Vec<Mistake>),
    /// Rows that make no grid, or a line too long to be a puzzle's.
    Grid(GridError),
    /// The puzzle was not answered within `--timeout-ms`.
    TimedOut(Duration),
}

impl LineError {
    /// Writes `error\t<kind>: <detail>\tline <line>`, in the words of the HTTP problem for the
    /// same outcome (its `type` and `detail`), without tabs or newlines; mistakes follow as their
    /// sentences. Conflicting givens, the commonest error of a batch, are named by their cells
    /// alone, 0-based `r<row>c<col>=<digit>`: the kind says what they are, and the problem's
    /// sentence around their count would more than double the line.
    fn write(&self, line: usize, out: &mut impl Write) -> io::Result<()> {
        match self {
            LineError::Invalid(error) => write!(out, "error\t{}: {error}", Kind::InvalidBoard.slug())?,
            LineError::Marks(error) => write!(out, "error\t{}: pencil marks: {error}", Kind::InvalidBoard.slug())?,
            LineError::Grid(error) => write!(out, "error\t{}: {error}", Kind::InvalidBoard.slug())?,
            LineError::Constraints(error) => write!(out, "error\t{}: {error}", Kind::InvalidRequest.slug())?,
            LineError::Shared(error) => write!(out, "error\t{}: {error}", Kind::InvalidRequest.slug())?,
            LineError::TimedOut(timeout) => write!(
                out,
                "error\t{}: the puzzle ran out of time: no answer within --timeout-ms {}",
                Kind::SolveTimeout.slug(),
                timeout.as_millis()
            )?,
            LineError::Mistaken(mistakes) => {
                write!(out, "error\t{}: the pencil marks contradict the solution:", Kind::WrongCandidates.slug())?;
                let mut separator = " ";
                for mistake in mistakes {
                    write!(out, "{separator}{}", mistake.message)?;
                    separator = "; ";
                }
            }
            LineError::Unanswerable(Unanswerable::Conflicting(conflicts)) => {
                // Writes of a constant size, which the compiler turns into a few stores into a
                // batch's buffer, not through `fmt`: a copy of pieces assembled elsewhere waited
                // for their stores to land before it could read them.
                out.write_all(CONFLICTING_KIND)?;
                for &Conflict { row, col, value, .. } in conflicts {
                    // Rows and columns are 0-8 and digits 1-9: one character each.
                    let (row, col) = (row as u8, col as u8);
                    out.write_all(&[b' ', b'r', b'0' + row, b'c', b'0' + col, b'=', b'0' + value])?;
                }
            }
            LineError::Unanswerable(unanswerable) => {
                write!(out, "error\t{}: {unanswerable}", Kind::from(unanswerable).slug())?;
            }
            LineError::UnanswerableGrid(shape, Unanswerable::Conflicting(conflicts)) => {
                out.write_all(CONFLICTING_KIND)?;
                for conflict in conflicts {
                    write!(out, " r{}c{}={}", conflict.row, conflict.col, shape.symbol(conflict.value))?;
                }
            }
            LineError::UnanswerableGrid(_, unanswerable) => {
                write!(out, "error\t{}: {unanswerable}", Kind::from(unanswerable).slug())?;
            }
        }
        out.write_all(b"\tline ")?;
        out.write_all(Decimal::of(line).as_str().as_bytes())?;
        out.write_all(b"\n")
    }
}

/// The start of a line of conflicting givens, up to its cells: the problem's `type`. A literal,
/// so that its writes are of a constant size (`a_conflict_line_names_every_cell` holds it to
/// `Kind::from`).
const CONFLICTING_KIND: &[u8] = b"error\tconflicting-givens:";

/// `$work` with `$interrupt` bound to no deadline (`None`), or to one `$timeout` from now: the
/// answer, or [`LineError::TimedOut`] when the deadline stopped the work. Without a timeout the
/// work takes [`Never`], which its search compiles away.
macro_rules! within {
    ($timeout:expr, |$interrupt:ident| $work:expr) => {
        match $timeout {
            None => {
                let $interrupt = &mut Never;
                Ok($work.expect("Never interrupts"))
            }
            Some(timeout) => {
                let $interrupt = &mut Deadline(Instant::now() + timeout);
                $work.map_err(|Interrupted| LineError::TimedOut(timeout))
            }
        }
    };
}

/// How every line of a batch is read and played: its box and its variant's rules.
///
/// A line of 81 cells is a classic board unless `shape` says otherwise; a line of another
/// size's cell count is a grid of that size, with the size's default box unless `shape` gives
/// one ([`Shape::default_for`]). With a variant's rules, every line is played by them.
#[derive(Clone, Debug, Default)]
pub(crate) struct Rules {
    /// The box shape every line has (`--box`), when not the size's default.
    pub shape: Option<Shape>,
    /// The variant every line is played by (`--variant`, `--constraints`), if any.
    pub variant: Option<(Option<Preset>, Constraints)>,
    /// Every line is a shared puzzle with rules of its own (`--input-format shared`).
    pub shared: bool,
}

impl Rules {
    /// The puzzle under these rules, and the player's pencil marks when it is a line of them
    /// (N x N x N characters, [`Marks::line_shape`]): its cells of one candidate are the board's
    /// values.
    fn puzzle(&self, text: &str) -> Result<(Puzzle, Option<Marks>), LineError> {
        if self.shared {
            let shared = exchange::read(text).map_err(LineError::Shared)?;
            return Ok((Puzzle::from_shared(shared).map_err(LineError::Constraints)?, None));
        }
        let count = if text.is_ascii() { text.len() } else { Grid::cell_count(text) };
        let (grid, marks) = match Marks::line_shape(count, self.shape) {
            Some(shape) => {
                let marks = Marks::parse_line(text, shape).map_err(LineError::Marks)?;
                (marks.placed(), Some(marks))
            }
            None => (AnyGrid::parse(text, self.shape).map_err(LineError::Invalid)?, None),
        };
        let puzzle = match &self.variant {
            None => Puzzle::Classic(grid),
            Some((preset, constraints)) => Puzzle::new(grid, *preset, constraints).map_err(LineError::Constraints)?,
        };
        Ok((puzzle, marks))
    }
}

/// What follows from a puzzle and its player's marks: the answer, or why there is none.
fn followed<T>(answer: Result<Marked<T>, Unanswerable>, shape: Shape) -> Result<T, LineError> {
    match answer.map_err(|unanswerable| LineError::UnanswerableGrid(shape, unanswerable))? {
        Marked::Followed(value) => Ok(value),
        Marked::Mistaken(mistakes) => Err(LineError::Mistaken(mistakes)),
    }
}

/// `sudokud solve`: the solution, and whether it is unique, for grids of every size and variant;
/// a classic 9x9 line takes the 9x9 solver's fast path.
///
/// A line of pencil marks is a player's position: its values are solved as a puzzle, and marks
/// that cross out the one solution's value of a cell are refused, as `rate` and `explain` refuse
/// them. Several solutions leave nothing to check the marks against.
#[derive(Clone, Debug, Default)]
pub(crate) struct Solve {
    pub rules: Rules,
    /// How long one puzzle may take (`--timeout-ms`); none, no limit.
    pub timeout: Option<Duration>,
}

impl LineJob for Solve {
    type Output = (AnyGrid, bool);
    const CHUNK: usize = 64;

    fn answer(&self, puzzle: &str) -> Result<(AnyGrid, bool), LineError> {
        // The common line, 81 cells of a classic board under no variant, read straight into a
        // board: what `Rules::puzzle` makes of it, without building a grid of any size and a
        // puzzle around it (a twentieth of an easy line's time). 81 is no size's line of marks.
        if puzzle.len() == CELLS
            && self.rules.shape.is_none()
            && self.rules.variant.is_none()
            && let Ok(board) = Board::parse_line(puzzle)
        {
            return solved_classic(&board, self.timeout);
        }
        let (puzzle, marks) = self.rules.puzzle(puzzle)?;
        if let (Puzzle::Classic(AnyGrid::Classic(board)), None) = (&puzzle, &marks) {
            return solved_classic(board, self.timeout);
        }
        let verdict = within!(self.timeout, |interrupt| puzzle.classify(interrupt))?;
        let (solution, unique) =
            verdict.solved().map_err(|error| LineError::UnanswerableGrid(puzzle.shape(), error))?;
        if let (true, Some(marks)) = (unique, &marks) {
            let mistakes = marks.mistakes(&puzzle.grid(), &solution);
            if !mistakes.is_empty() {
                return Err(LineError::Mistaken(mistakes));
            }
        }
        Ok((solution, unique))
    }

    /// The solution, plus `\tmultiple` when it is not unique.
    fn write(&self, answer: &Result<(AnyGrid, bool), LineError>, line: usize, out: &mut impl Write) -> io::Result<()> {
        let (solution, unique) = match answer {
            Ok(solved) => solved,
            Err(error) => return error.write(line, out),
        };
        match solution {
            AnyGrid::Classic(board) => {
                let mut line = [0u8; CELLS];
                board.write_line(&mut line);
                out.write_all(&line)?;
            }
            AnyGrid::Sized(grid) => write!(out, "{grid}")?,
        }
        out.write_all(if *unique { b"\n" } else { b"\tmultiple\n" })
    }
}

/// The solution of a classic board and whether it is unique: the fast path of a line already read
/// as a classic board, which needs no `Puzzle` (the 9x9 solver finds its conflicts itself).
fn solved_classic(board: &Board, timeout: Option<Duration>) -> Result<(AnyGrid, bool), LineError> {
    let target = Target::Classic(board);
    // The 9x9 solver finds a board's conflicts from its own state and never asks for them.
    let verdict =
        within!(timeout, |interrupt| search::classify_from(target, &mut Default::default(), interrupt, Vec::new))?;
    verdict.solved().map_err(LineError::Unanswerable)
}

/// `sudokud candidates`: the pencil marks of every blank cell, in the one-line form; from a line
/// of pencil marks, those the player's marks keep too.
#[derive(Clone, Debug, Default)]
pub(crate) struct Candidates {
    pub rules: Rules,
}

impl LineJob for Candidates {
    type Output = String;
    const CHUNK: usize = 64;

    fn answer(&self, puzzle: &str) -> Result<String, LineError> {
        let (puzzle, marks) = self.rules.puzzle(puzzle)?;
        let mut candidates = puzzle.candidates();
        if let Some(marks) = &marks {
            candidates.keep_only(marks);
        }
        Ok(candidates.to_line(&puzzle.grid()))
    }

    fn write(&self, answer: &Result<String, LineError>, line: usize, out: &mut impl Write) -> io::Result<()> {
        match answer {
            Ok(marks) => writeln!(out, "{marks}"),
            Err(error) => error.write(line, out),
        }
    }
}

/// `sudokud export`: each puzzle in another tool's format, with the link that opens it there.
#[derive(Clone, Debug)]
pub(crate) struct Export {
    pub rules: Rules,
    pub format: SharedFormat,
}

impl LineJob for Export {
    type Output = Written;
    const CHUNK: usize = 64;

    fn answer(&self, puzzle: &str) -> Result<Written, LineError> {
        let (puzzle, marks) = self.rules.puzzle(puzzle)?;
        if marks.is_some() {
            // Dropping the marks would write another position than the line's.
            return Err(LineError::Shared(ShareError::Inexpressible {
                format: "a shared puzzle",
                what: "a player's pencil marks: export the puzzle's line instead".to_owned(),
            }));
        }
        exchange::write(&puzzle.to_shared(), self.format).map_err(LineError::Shared)
    }

    fn write(&self, answer: &Result<Written, LineError>, line: usize, out: &mut impl Write) -> io::Result<()> {
        match answer {
            Ok(Written { text, link }) => writeln!(out, "{text}\t{link}"),
            Err(error) => error.write(line, out),
        }
    }
}

/// `sudokud rate`: how hard the puzzle is for a person, for grids of every size and variant
/// (read as [`Rules`] says).
#[derive(Clone, Debug, Default)]
pub(crate) struct Rate {
    pub rules: Rules,
    /// How long one puzzle may take (`--timeout-ms`); none, no limit.
    pub timeout: Option<Duration>,
}

impl LineJob for Rate {
    type Output = Rating;
    const CHUNK: usize = 8;

    /// From the player's pencil marks when the line is a line of them.
    fn answer(&self, puzzle: &str) -> Result<Rating, LineError> {
        let (puzzle, marks) = self.rules.puzzle(puzzle)?;
        let rating = within!(self.timeout, |interrupt| puzzle.rate_from(marks.as_ref(), None, interrupt))?;
        followed(rating, puzzle.shape())
    }

    /// `<rating>\t<level>\t<logic|search>\t<technique>=<count>,...`.
    fn write(&self, answer: &Result<Rating, LineError>, line: usize, out: &mut impl Write) -> io::Result<()> {
        let rating = match answer {
            Ok(rating) => rating,
            Err(error) => return error.write(line, out),
        };
        write_rating(rating, out)?;
        let mut separator = "\t";
        for used in &rating.techniques {
            write!(out, "{separator}{}={}", used.technique.id(), used.count)?;
            separator = ",";
        }
        out.write_all(b"\n")
    }
}

/// `<rating>\t<level>\t<logic|search>`, no newline; a rating the timeout cut short
/// `>=<rating>\t<level>\tpartial`, the least it can be.
fn write_rating(rating: &Rating, out: &mut impl Write) -> io::Result<()> {
    let (at_least, how) = match (rating.exact, rating.solved_by_logic) {
        (false, _) => (">=", "partial"),
        (true, true) => ("", "logic"),
        (true, false) => ("", "search"),
    };
    write!(out, "{at_least}{:.1}\t{}\t{how}", rating.rating, rating.level)
}

/// `sudokud explain`: every step to the solution, for grids of every size and variant (read as
/// [`Rules`] says).
#[derive(Clone, Debug, Default)]
pub(crate) struct Explain {
    pub rules: Rules,
    /// How long one puzzle may take (`--timeout-ms`); none, no limit.
    pub timeout: Option<Duration>,
}

impl LineJob for Explain {
    type Output = Explained;
    const CHUNK: usize = 8;

    /// From the player's pencil marks when the line is a line of them.
    fn answer(&self, puzzle: &str) -> Result<Explained, LineError> {
        let (puzzle, marks) = self.rules.puzzle(puzzle)?;
        let explained = within!(self.timeout, |interrupt| puzzle.explain_from(marks.as_ref(), None, interrupt))?;
        followed(explained, puzzle.shape())
    }

    /// A paragraph: `<technique>\t<explanation>` per step, then
    /// `<solution>\t<rating>\t<level>\t<logic|search>`, then an empty line.
    fn write(&self, answer: &Result<Explained, LineError>, line: usize, out: &mut impl Write) -> io::Result<()> {
        match answer {
            Ok(explanation) => {
                for step in &explanation.steps {
                    writeln!(out, "{}\t{}", step.technique.id(), step.explanation)?;
                }
                write!(out, "{}\t", explanation.solution)?;
                write_rating(&explanation.rating, out)?;
                out.write_all(b"\n")?;
            }
            Err(error) => error.write(line, out)?,
        }
        out.write_all(b"\n")
    }
}

/// How an input holds its puzzles (`--input-format`); without the flag, each input's first
/// puzzle line tells ([`detect`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum InputFormat {
    /// A puzzle per line, the line's first field: what follows whitespace, `#`, `:`, `,` or `;`
    /// is not read.
    Line,
    /// A puzzle as N lines of N cells (SadMan .sdk, Simple Sudoku .ss): `|`, border lines and
    /// `#` comments are ignored; blank lines and `[Puzzle]` headers end a grid.
    Grid,
    /// A puzzle per line as another tool shares it, the whole line: an f-puzzles or SudokuPad
    /// link, f-puzzles data or JSON, an Interactive Sudoku Solver constraint string or link. It
    /// carries its rules, so --box, --variant and --constraints are not given with it.
    Shared,
}

/// Answers every puzzle of `input` with `job` and writes the answers to `out` in input order,
/// using `threads` threads. Puzzles are read as `format` says, or as the input's first puzzle
/// line tells ([`detect`]); see [`Reader::split`]. A line that is not UTF-8 is read with its
/// invalid bytes replaced by U+FFFD (so it gets an `invalid board` error), instead of failing
/// the batch.
pub(crate) fn run<J: LineJob>(
    job: &J,
    mut input: impl BufRead,
    out: &mut impl Write,
    threads: usize,
    progress: &Progress,
    format: Option<InputFormat>,
) -> io::Result<()> {
    // Lines are split in place in this buffer: no copy, and no UTF-8 check on the common line.
    let block_lines = block_lines(threads);
    let mut data = vec![0u8; block_bytes(block_lines)];
    let mut filled = 0;
    let mut at_end = false;
    let mut reader = Reader { format, lines: 0, block_lines, skipping: false };
    let mut buffers = Vec::new();
    loop {
        if !at_end {
            filled += fill(&mut input, &mut data[filled..])?;
            at_end = filled < data.len();
        }
        let consumed = {
            let (puzzles, consumed) = reader.split(&data[..filled], at_end);
            write_in_parallel(puzzles.len(), J::CHUNK, threads, progress, &mut buffers, out, |index, buffer| {
                let puzzle = &puzzles[index];
                let answer = match &puzzle.text {
                    Ok(text) => job.answer(text),
                    Err(error) => Err(LineError::Grid(error.clone())),
                };
                job.write(&answer, puzzle.line, buffer).expect("a Vec takes every write");
            })?;
            consumed
        };
        data.copy_within(consumed..filled, 0);
        filled -= consumed;
        if at_end && filled == 0 {
            return out.flush();
        }
        if consumed == 0 {
            // A line, or a grid's rows, longer than the buffer.
            data.resize(2 * data.len(), 0);
        }
    }
}

/// Every puzzle of a whole input read as the batch commands read it (`format`, or told by the
/// input), for `sudokud booklet`: the line each starts on, and its text or why its rows make no
/// grid.
pub(crate) fn puzzles_of(data: &[u8], format: Option<InputFormat>) -> Vec<(usize, Result<String, GridError>)> {
    let mut reader = Reader { format, lines: 0, block_lines: BLOCK_LINES, skipping: false };
    let mut all = Vec::new();
    let mut rest = data;
    while !rest.is_empty() {
        let (puzzles, consumed) = reader.split(rest, true);
        all.extend(puzzles.into_iter().map(|puzzle| (puzzle.line, puzzle.text.map(Cow::into_owned))));
        if consumed == 0 {
            break;
        }
        rest = &rest[consumed..];
    }
    all
}

/// Reads into `buf` until it is full or the input ends; returns how many bytes were read.
fn fill(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match input.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(filled)
}

/// A puzzle as read: the line it starts on, and its text, or why its rows make no grid.
struct ReadPuzzle<'a> {
    line: usize,
    text: Result<Cow<'a, str>, GridError>,
}

/// Why the rows of a grid (`--input-format grid`) make none.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum GridError {
    /// The first row's length is no size.
    #[error("the grid's first row has {found} cells; a row has as many as the grid's size, {}", sizes_list())]
    Size {
        /// Cells of the first row.
        found: usize,
    },
    /// A row of another length than the first.
    #[error("row {row} (line {line}) has {found} cells, but the grid's first row has {size}")]
    Row {
        /// The row, from 1.
        row: usize,
        /// Its line in the input.
        line: usize,
        /// Its cells.
        found: usize,
        /// The first row's cells.
        size: usize,
    },
    /// A blank line, a header or the end of the input before the last row.
    #[error("the grid ends after {rows} of its {size} rows")]
    Short {
        /// The rows read.
        rows: usize,
        /// The rows a grid of its size has.
        size: usize,
    },
    /// A line longer than any puzzle's, not read.
    #[error("the line is longer than {MAX_LINE_BYTES} bytes, longer than any puzzle's; it is not read")]
    LineTooLong,
}

/// `4, 6, 8, 9, 10, 12, 15, 16, 20 or 25`.
fn sizes_list() -> String {
    let (last, rest) = SIZES.split_last().expect("there are sizes");
    let rest: Vec<String> = rest.iter().map(usize::to_string).collect();
    format!("{} or {last}", rest.join(", "))
}

/// Where the reading of one input stands between blocks.
struct Reader {
    /// The input's format, once given or told by its first puzzle line.
    format: Option<InputFormat>,
    /// Lines read so far.
    lines: usize,
    /// The most puzzles one [`Reader::split`] returns ([`block_lines`]).
    block_lines: usize,
    /// The rest of a line over [`MAX_LINE_BYTES`], already answered, is being dropped.
    skipping: bool,
}

impl Reader {
    /// The puzzles of `data`, up to `block_lines` of them, and how many bytes they took. A last
    /// line without a newline counts only `at_end`, and so do the rows of a grid that runs past
    /// `data`; otherwise they wait for more input.
    ///
    /// In the line format a puzzle is a line's first field ([`field`]); empty lines and lines
    /// starting with `#` are skipped. In the grid format a puzzle is N rows of N cells
    /// ([`GridRows`]).
    fn split<'a>(&mut self, data: &'a [u8], at_end: bool) -> (Vec<ReadPuzzle<'a>>, usize) {
        let mut puzzles = Vec::with_capacity(self.block_lines);
        let mut grid: Option<GridRows> = None;
        let mut pos = 0;
        if self.skipping {
            match memchr::memchr(b'\n', data) {
                Some(end) => {
                    pos = end + 1;
                    self.skipping = false;
                }
                None => return (puzzles, data.len()),
            }
        }
        while puzzles.len() < self.block_lines && pos < data.len() {
            // The common line: 81 cells and a newline, nothing to trim or cut.
            if matches!(self.format, None | Some(InputFormat::Line))
                && let Some(&[ref line @ .., b'\n']) = data.get(pos..pos + CELLS + 1)
                && line.iter().fold(true, |plain, &byte| plain & is_field_byte(byte))
            {
                pos += CELLS + 1;
                self.lines += 1;
                self.format = Some(InputFormat::Line);
                // Not `from_utf8`: on the path nearly every line takes it checked again what the
                // fold above has just checked, 10-15 ns more per line (about 1 % of an easy
                // puzzle's whole time in `sudokud solve`, 2 % of an error line's).
                // SAFETY: every byte of `line` passed `is_field_byte`, so it is printable ASCII,
                // and ASCII is UTF-8.
                #[allow(unsafe_code)]
                let text = Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(line) });
                puzzles.push(ReadPuzzle { line: self.lines, text: Ok(text) });
                continue;
            }
            let rest = &data[pos..];
            let (line, next) = match memchr::memchr(b'\n', rest) {
                Some(end) => (&rest[..end], pos + end + 1),
                None if at_end => (rest, data.len()),
                // Over the limit with more to come: answered now, the rest dropped as it comes.
                None if rest.len() > MAX_LINE_BYTES => {
                    self.skipping = true;
                    (rest, data.len())
                }
                None => break,
            };
            let start = pos;
            pos = next;
            self.lines += 1;
            if line.len() > MAX_LINE_BYTES {
                // A grid it interrupts ends there, short.
                puzzles.extend(grid.take().map(GridRows::end));
                puzzles.push(ReadPuzzle { line: self.lines, text: Err(GridError::LineTooLong) });
                continue;
            }
            let text = String::from_utf8_lossy(line);
            if self.format.is_none() {
                self.format = detect(&text);
            }
            match self.format {
                // Blank lines and comments before the first puzzle.
                None => {}
                Some(InputFormat::Line) => {
                    let text = match text {
                        Cow::Borrowed(text) => field(text).map(Cow::Borrowed),
                        Cow::Owned(text) => field(&text).map(|field| Cow::Owned(field.to_owned())),
                    };
                    if let Some(text) = text {
                        puzzles.push(ReadPuzzle { line: self.lines, text: Ok(text) });
                    }
                }
                Some(InputFormat::Shared) => {
                    let trimmed = text.trim();
                    if !trimmed.is_empty() && !trimmed.starts_with('#') {
                        let text = Cow::Owned(trimmed.to_owned());
                        puzzles.push(ReadPuzzle { line: self.lines, text: Ok(text) });
                    }
                }
                Some(InputFormat::Grid) => match grid_line(&text) {
                    GridLine::Skip => {}
                    GridLine::Break => puzzles.extend(grid.take().map(GridRows::end)),
                    GridLine::Row(cells) => {
                        let rows = grid.get_or_insert_with(|| GridRows::new(start, self.lines));
                        rows.push(&cells, self.lines);
                        if rows.is_complete() {
                            puzzles.extend(grid.take().map(GridRows::end));
                        }
                    }
                },
            }
        }
        if let Some(rows) = grid {
            if at_end && pos == data.len() {
                puzzles.push(rows.end());
            } else {
                // Read the grid again from its first row once more input is in.
                pos = rows.start;
                self.lines = rows.line - 1;
            }
        }
        (puzzles, pos)
    }
}

/// Whether `byte` may be part of a line's first field: printable ASCII, not a space and none of
/// the characters that end the field.
fn is_field_byte(byte: u8) -> bool {
    // Bitwise, not short-circuit, operators keep the fast path's loop free of branches.
    (b'!'..=b'~').contains(&byte) & (byte != b'#') & (byte != b':') & (byte != b',') & (byte != b';')
}

/// The puzzle of a line in the line format: its first field, after leading whitespace and up to
/// whitespace, `#`, `:`, `,` or `;`. So the lines the batch commands write feed the next one
/// (`generate`'s `<puzzle>\t<solution>\t...`, `solve`'s `<solution>\tmultiple`), and so do
/// collections whose puzzles have comments or ratings after them (`<puzzle> #12 hard`,
/// `<puzzle>:8.3`, CSV). `None` for a line without one: empty, or a `#` comment.
pub(crate) fn field(text: &str) -> Option<&str> {
    let text = text.trim_start();
    if text.is_empty() || text.starts_with('#') {
        return None;
    }
    let end = text.find(|c: char| c.is_whitespace() || matches!(c, '#' | ':' | ',' | ';'));
    Some(&text[..end.unwrap_or(text.len())])
}

/// The format of an input whose first line with anything but whitespace or a comment is `text`:
/// a grid when it is a `[Puzzle]` header, a border, or a row (N cells for a size N: 9 for 9x9;
/// 16 cells are also a whole 4x4 puzzle, read as one); else one puzzle per line. `None` for a
/// line that tells nothing.
fn detect(text: &str) -> Option<InputFormat> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return None;
    }
    let GridLine::Row(cells) = grid_line(text) else { return Some(InputFormat::Grid) };
    let found = cells.chars().count();
    let row = SIZES.contains(&found) && Shape::for_cells(found).is_none();
    Some(if row { InputFormat::Grid } else { InputFormat::Line })
}

/// A line of the grid format.
enum GridLine {
    /// A `#` comment, or a border (`-`, `+`, `*`, `=` and `|` alone): not read.
    Skip,
    /// A blank line or a `[Puzzle]` header: the end of a grid.
    Break,
    /// A row's cells, without `|` and whitespace.
    Row(String),
}

fn grid_line(text: &str) -> GridLine {
    let text = text.trim();
    if text.is_empty() || (text.starts_with('[') && text.ends_with(']')) {
        GridLine::Break
    } else if text.starts_with('#')
        || text.chars().all(|c| c.is_whitespace() || matches!(c, '-' | '+' | '*' | '=' | '|'))
    {
        GridLine::Skip
    } else {
        GridLine::Row(text.chars().filter(|&c| c != '|' && !c.is_whitespace()).collect())
    }
}

/// The rows of a grid being read: the first row's length is the grid's size N, and N rows make
/// the grid. A row of another length spoils the grid but is still one of its N rows, so the
/// grids after it are read as they are.
struct GridRows {
    /// The byte its first row starts at, in the block being split.
    start: usize,
    /// The line of its first row.
    line: usize,
    /// The first row's length, when it is a size.
    size: Option<usize>,
    rows: usize,
    cells: String,
    error: Option<GridError>,
}

impl GridRows {
    fn new(start: usize, line: usize) -> GridRows {
        GridRows { start, line, size: None, rows: 0, cells: String::new(), error: None }
    }

    /// Adds the row `cells`, read on `line`.
    fn push(&mut self, cells: &str, line: usize) {
        let found = cells.chars().count();
        match self.size {
            None if self.rows == 0 => {
                self.size = SIZES.contains(&found).then_some(found);
                if self.size.is_none() {
                    self.error = Some(GridError::Size { found });
                }
            }
            Some(size) if found != size && self.error.is_none() => {
                self.error = Some(GridError::Row { row: self.rows + 1, line, found, size });
            }
            _ => {}
        }
        self.cells.push_str(cells);
        self.rows += 1;
    }

    fn is_complete(&self) -> bool {
        self.size == Some(self.rows)
    }

    /// The grid read: its cells, or why they make no grid.
    fn end(self) -> ReadPuzzle<'static> {
        let text = match (self.error, self.size) {
            (Some(error), _) => Err(error),
            (None, Some(size)) if self.rows < size => Err(GridError::Short { rows: self.rows, size }),
            (None, _) => Ok(Cow::Owned(self.cells)),
        };
        ReadPuzzle { line: self.line, text }
    }
}

/// What `sudokud generate` makes: puzzles of a shape, level and symmetry.
#[derive(Clone, Debug)]
pub(crate) struct Generate {
    pub shape: Shape,
    pub level: Level,
    pub symmetry: Symmetry,
    /// The variant the puzzles are made for (`--variant`, `--constraints`), if any.
    pub variant: Option<(Option<Preset>, Constraints)>,
}

impl Generate {
    /// The line of the puzzle from `seed`: `<puzzle>\t<solution>\t<rating>\t<level>\t<seed>`, and
    /// for a variant `\t<constraints as JSON>`, or `error\t<kind>: <detail>` when no grid keeps
    /// the variant's rules (checked before, as far as [`Puzzle::variant_has_grid`] can tell).
    fn line(&self, seed: u64) -> String {
        let line = |puzzle: &dyn std::fmt::Display, solution: &dyn std::fmt::Display, rating: &Rating| {
            format!("{puzzle}\t{solution}\t{:.1}\t{}\t{seed}", rating.rating, rating.level)
        };
        let Some((preset, constraints)) = &self.variant else {
            let generated = Puzzle::generate(self.shape, self.level, self.symmetry, seed, &mut Never);
            let generated = generated.expect("Never interrupts");
            return line(&generated.puzzle, &generated.solution, &generated.rating);
        };
        let generated =
            Puzzle::generate_variant(self.shape, *preset, constraints, self.level, self.symmetry, seed, &mut Never)
                .expect("Never interrupts");
        // The rules are checked before, but only a short search looks for a grid that keeps them.
        let generated = match generated {
            Ok(generated) => generated,
            Err(error) => return format!("error\t{}: {error}", Kind::InvalidRequest.slug()),
        };
        let rules = serde_json::to_string(&generated.constraints.expect("a variant's constraints"))
            .expect("constraints write as JSON");
        format!("{}\t{rules}", line(&generated.puzzle, &generated.solution, &generated.rating))
    }
}

/// `sudokud generate`: `count` puzzles of `job` from seeds `first_seed`, `first_seed + 1`, ...,
/// one line each (see [`Generate::line`]).
pub(crate) fn generate(
    job: &Generate,
    first_seed: u64,
    count: u64,
    threads: usize,
    out: &mut impl Write,
    progress: &Progress,
) -> io::Result<()> {
    let mut buffers = Vec::new();
    let block_lines = block_lines(threads);
    for block_start in (0..count).step_by(block_lines) {
        let block_len = (count - block_start).min(block_lines as u64) as usize;
        let seed = |index: usize| generate::batch_seed(first_seed, block_start + index as u64);
        // One puzzle per grab: a puzzle takes milliseconds, so the cursor costs nothing.
        write_in_parallel(block_len, 1, threads, progress, &mut buffers, out, |index, buffer| {
            writeln!(buffer, "{}", job.line(seed(index))).expect("a Vec takes every write");
        })?;
    }
    out.flush()
}

/// Writes `write(i, buffer)` for every `i` in `0..count` to `out`, in order: chunks of `chunk`
/// indices spread over `threads` threads and counted on `progress`.
///
/// Each chunk is written into a buffer of its own (from `buffers`, kept for the next block) by
/// the thread that takes it, and the buffers go out in order. So answers are formatted in
/// parallel too, and each is dropped as soon as it is written: holding a block's answers until
/// all were found kept its clashing lines' conflict lists alive at once, so each of their
/// allocations went through malloc's slow path rather than its per-thread cache.
fn write_in_parallel(
    count: usize,
    chunk: usize,
    threads: usize,
    progress: &Progress,
    buffers: &mut Vec<Vec<u8>>,
    out: &mut impl Write,
    write: impl Fn(usize, &mut Vec<u8>) + Sync,
) -> io::Result<()> {
    let chunks = count.div_ceil(chunk);
    if buffers.len() < chunks {
        buffers.resize_with(chunks, Vec::new);
    }
    let fill = |index: usize, buffer: &mut Vec<u8>| {
        buffer.clear();
        let indices = index * chunk..count.min((index + 1) * chunk);
        let done = indices.len();
        for index in indices {
            write(index, buffer);
        }
        progress.advance(done);
    };
    let threads = threads.min(chunks);
    if threads <= 1 {
        // One buffer does: each chunk goes out before the next is written.
        for index in 0..chunks {
            fill(index, &mut buffers[0]);
            out.write_all(&buffers[0])?;
        }
        return Ok(());
    }
    let cursor = Mutex::new(buffers[..chunks].iter_mut().enumerate());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    // Hold the lock only to take the next chunk, not while answering it.
                    let next = cursor.lock().expect("no worker panics while holding the cursor").next();
                    let Some((index, buffer)) = next else { break };
                    fill(index, buffer);
                }
            });
        }
    });
    buffers[..chunks].iter().try_for_each(|buffer| out.write_all(buffer))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizes;
    use crate::solver::Verdict;

    /// What `puzzle` is, searched to the end.
    fn verdict(puzzle: &Board) -> Verdict {
        crate::solver::classify(puzzle, &mut Never).expect("Never interrupts")
    }

    use crate::board::{EXAMPLE_PUZZLE as PUZZLE, EXAMPLE_SOLUTION as SOLUTION};

    fn run_job(job: &impl LineJob, input: &str, threads: usize) -> String {
        let mut out = Vec::new();
        super::run(job, input.as_bytes(), &mut out, threads, &Progress::hidden(), None).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn run(input: &str, threads: usize) -> String {
        run_job(&Solve::default(), input, threads)
    }

    /// The error line for a line of `cells` cells, which fit no grid size.
    fn no_grid(cells: &str) -> String {
        format!(
            "error\tinvalid-board: the board has {cells}, which fits no grid: a board has 16 (4x4), 36 (6x6), \
             64 (8x8), 81 (9x9), 100 (10x10), 144 (12x12), 225 (15x15), 256 (16x16), 400 (20x20), or 625 \
             (25x25) cells"
        )
    }

    #[test]
    fn answers_each_line_and_skips_blanks_and_comments() {
        let input = format!("# a comment\n{PUZZLE}\n\n   \n{}\r\n123\n", ".".repeat(81));
        let output = run(&input, 1);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], SOLUTION);
        assert!(lines[1].ends_with("\tmultiple"), "{}", lines[1]);
        assert_eq!(lines[2], no_grid("3 cells") + "\tline 6");
    }

    #[test]
    fn the_puzzle_is_the_first_field() {
        let input = format!(
            "{PUZZLE}\t{SOLUTION}\t1.2\teasy\t7\n \t{PUZZLE} \t\tx\n{SOLUTION}\tmultiple\n#\t{PUZZLE}\n5\t{PUZZLE}\n"
        );
        let output = run(&input, 1);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines[..3], [SOLUTION, SOLUTION, SOLUTION]);
        assert_eq!(lines[3..], [no_grid("1 cell") + "\tline 5"]);
        // What collections put after a puzzle: a comment, a rating, more fields.
        for line in [
            format!("{PUZZLE} #12 Extreme (3382) X-Wing"),
            format!("{PUZZLE}#12"),
            format!("{PUZZLE}:8.3:hard"),
            format!("{PUZZLE},{SOLUTION}"),
            format!("{PUZZLE};1.2"),
            format!("{PUZZLE}  ED=1.2/1.2/1.2"),
        ] {
            assert_eq!(run(&format!("{line}\n"), 1), format!("{SOLUTION}\n"), "{line}");
        }
        assert_eq!(field("é5\t1"), Some("é5"));
        assert_eq!(field("\u{3000}é5 1"), Some("é5"));
        assert_eq!(field("\t\t"), None);
        assert_eq!(field("  # a comment"), None);
        // A line with nothing before its first separator has an empty puzzle, which is no board.
        assert_eq!(field(":0000:x"), Some(""));
        assert_eq!(run(":0000:x\n", 1), no_grid("0 cells") + "\tline 1\n");
    }

    #[test]
    fn trims_like_str_trim_and_answers_a_last_line_without_newline() {
        let input = format!("\u{3000}\x0b{PUZZLE}\t\r\n \u{a0}\n\x0b# comment\n  {PUZZLE}");
        assert_eq!(run(&input, 1), format!("{SOLUTION}\n{SOLUTION}\n"));
    }

    #[test]
    fn a_line_that_is_not_utf8_is_an_invalid_board() {
        let mut input = format!("{PUZZLE}\n").into_bytes();
        input.extend_from_slice(b"53\xff");
        input.extend_from_slice(format!("{}\n{PUZZLE}\n", &PUZZLE[3..]).as_bytes());
        let mut out = Vec::new();
        super::run(&Solve::default(), &input[..], &mut out, 1, &Progress::hidden(), None).unwrap();
        let expected = "error\tinvalid-board: board character at byte offset 2 (cell 2: row 0, col 2): found \
                        '\u{fffd}'; expected a digit 1-9, or '.' or '0' for blank\tline 2";
        assert_eq!(String::from_utf8(out).unwrap(), format!("{SOLUTION}\n{expected}\n{SOLUTION}\n"));
    }

    #[test]
    fn lines_span_blocks_and_may_be_longer_than_a_block() {
        // Lines of 81, 82 and 83 bytes, so that block ends fall inside lines, then one line
        // longer than the buffer: read whole up to the longest line read (one thread's block is
        // shorter), answered as too long past it (several threads' block is longer).
        let shapes = [format!("{PUZZLE}\n"), format!("{PUZZLE}\r\n"), format!(" {PUZZLE}\r\n")];
        for threads in [1, 2] {
            let block_lines = block_lines(threads);
            let count = 2 * block_lines + 7;
            let mut input: String = (0..count).map(|i| shapes[i % 3].as_str()).collect();
            let long = if threads == 1 { MAX_LINE_BYTES } else { 2 * block_bytes(block_lines) };
            assert!(long > block_bytes(block_lines));
            input.push_str(&"1".repeat(long));
            input.push('\n');
            let output = run(&input, threads);
            let lines: Vec<&str> = output.lines().collect();
            assert_eq!(lines.len(), count + 1);
            assert!(lines[..count].iter().all(|&line| line == SOLUTION));
            let error = if long <= MAX_LINE_BYTES {
                no_grid(&format!("{long} cells"))
            } else {
                format!("error\tinvalid-board: {}", GridError::LineTooLong)
            };
            assert_eq!(lines[count], error + &format!("\tline {}", count + 1));
        }
    }

    #[test]
    fn every_size_is_solved_in_its_own_symbols() {
        let four = "1... .... ..3. ...4".replace(' ', "");
        let sixteen_empty = ".".repeat(256);
        let input = format!("{four}\n{sixteen_empty}\n");
        let out = run(&input, 2);
        let lines: Vec<&str> = out.lines().collect();
        let (four_solution, multiple) = lines[0].split_once('\t').unwrap();
        assert_eq!(multiple, "multiple");
        let grid = Grid::parse(four_solution, None).unwrap();
        assert!(grid.is_complete() && sizes::rules::conflicts(&grid).is_empty());
        assert!(four_solution.starts_with('1'));
        let (sixteen, _) = lines[1].split_once('\t').unwrap();
        assert_eq!(sixteen.len(), 256);
        assert!(sixteen.contains('G') && !sixteen.contains('H'), "letters up to G: {sixteen}");
    }

    #[test]
    fn a_box_shape_applies_to_every_line_and_must_fit_it() {
        // 6x6 with boxes 3 rows high: the first three rows of column 0 and 1 share a box.
        let line = "12.... ...... ...... ...... ...... ......".replace(' ', "");
        let tall =
            Solve { rules: Rules { shape: Some(Shape::new(3, 2).unwrap()), ..Rules::default() }, ..Solve::default() };
        let out = run_job(&tall, &format!("{line}\n{}\n", ".".repeat(81)), 1);
        let lines: Vec<&str> = out.lines().collect();
        let solved = Grid::parse(lines[0].split('\t').next().unwrap(), Shape::new(3, 2)).unwrap();
        assert!(sizes::rules::conflicts(&solved).is_empty());
        assert_eq!(lines[1], "error\tinvalid-board: box 3x2 makes a 6x6 grid, but the board is 9x9\tline 2");
    }

    #[test]
    fn lines_that_fit_no_size_name_the_sizes_and_conflicts_use_the_symbols() {
        assert_eq!(run(&format!("{}\n", ".".repeat(80)), 1), no_grid("80 cells") + "\tline 1\n");
        let mut repeated = vec![b'.'; 256];
        repeated[0] = b'G';
        repeated[15] = b'g';
        let out = run(&format!("{}\n", String::from_utf8(repeated).unwrap()), 1);
        assert_eq!(out, "error\tconflicting-givens: r0c0=G r0c15=G\tline 1\n");
    }

    #[test]
    fn tells_conflicts_from_unsolvable() {
        let conflicting = format!("55{}", &PUZZLE[2..]);
        let unsolvable = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
        let output = run(&format!("{conflicting}\n{unsolvable}\n"), 1);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines[0], "error\tconflicting-givens: r0c0=5 r0c1=5\tline 1");
        assert_eq!(lines[1], "error\tunsolvable: the givens do not conflict, but the puzzle has no solution\tline 2");
    }

    /// The error line of repeated givens, put together without `fmt`, is the problem's kind and
    /// every cell as `fmt` writes it, for counts and line numbers of one digit and several, and
    /// for more cells than one write takes.
    #[test]
    fn a_conflict_line_names_every_cell() {
        let conflicts = |count: usize| {
            let board = format!("{}{}", "1".repeat(count), ".".repeat(CELLS - count));
            match verdict(&board.parse().unwrap()) {
                Verdict::Conflicting(conflicts) => conflicts,
                other => panic!("{other:?}"),
            }
        };
        // A row of ones and a column of them: 17 cells.
        let many = match verdict(&format!("111111111{}", "1........".repeat(8)).parse().unwrap()) {
            Verdict::Conflicting(conflicts) => conflicts,
            other => panic!("{other:?}"),
        };
        assert_eq!(many.len(), 17);
        for (conflicts, line) in [(conflicts(2), 1), (conflicts(9), 10), (conflicts(9), 12_345), (many, 7)] {
            let cells: String = conflicts.iter().map(|c| format!(" r{}c{}={}", c.row, c.col, c.value)).collect();
            let error = Unanswerable::Conflicting(conflicts);
            let mut written = Vec::new();
            LineError::Unanswerable(error.clone()).write(line, &mut written).unwrap();
            let expected = format!("error\t{}:{cells}\tline {line}\n", Kind::from(&error).slug());
            assert_eq!(String::from_utf8(written).unwrap(), expected);
        }
    }

    #[test]
    fn many_threads_keep_input_order() {
        // Rotate the digits so each line has a different solution.
        let puzzles: Vec<String> = (0..500)
            .map(|i| {
                PUZZLE
                    .bytes()
                    .map(|c| if c == b'.' { '.' } else { (b'1' + (c - b'1' + (i % 9) as u8) % 9) as char })
                    .collect()
            })
            .collect();
        let input = puzzles.join("\n");
        let sequential = run(&input, 1);
        assert_eq!(run(&input, 4), sequential);
        assert_eq!(sequential.lines().count(), 500);
    }

    #[test]
    fn rate_writes_rating_level_and_techniques() {
        let two = ".8.7..6..75..6..9...6..9...4..........8.9.5.....3...2..1...4.3...7.5.8.....2....1";
        let output = run_job(&Rate::default(), &format!("{PUZZLE}\n{two}\n"), 2);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines[0], "1.2\teasy\tlogic\tfull-house=21,hidden-single-box=30");
        assert_eq!(
            lines[1],
            "error\tmultiple-solutions: the puzzle has more than one solution, so no step of logic leads to one of them\tline 2"
        );
    }

    #[test]
    fn rate_and_explain_take_every_size() {
        assert!(run_job(&Rate::default(), "12345\n", 1).contains("fits no grid"));
        let explained = run_job(&Explain::default(), ".14.........2..3\n", 1);
        let lines: Vec<&str> = explained.lines().collect();
        assert!(lines[0].starts_with("full-house\t") || lines[0].starts_with("hidden-single"), "{}", lines[0]);
        assert_eq!(lines[lines.len() - 2], "3142423113242413\t1.2\teasy\tlogic", "{explained}");
        // A 4x4 puzzle of one solution, and the empty 4x4 grid of many.
        let rated = run_job(&Rate::default(), ".14.........2..3\n................\n", 1);
        let lines: Vec<&str> = rated.lines().collect();
        assert!(lines[0].starts_with("1.") && lines[0].contains("\teasy\tlogic\t"), "{}", lines[0]);
        assert!(lines[1].starts_with("error\tmultiple-solutions"), "{}", lines[1]);
        // The box applies as for solve: 1s at r0c0 and r1c2 share a 2x3 box but not a 3x2 one.
        let six = format!("1.......1{}", ".".repeat(27));
        assert!(run_job(&Rate::default(), &six, 1).starts_with("error\tconflicting-givens"));
        let tall = Rate { rules: Rules { shape: Shape::new(3, 2), ..Rules::default() }, ..Rate::default() };
        assert!(run_job(&tall, &six, 1).starts_with("error\tmultiple-solutions"));
    }

    #[test]
    fn explain_writes_a_paragraph_per_puzzle() {
        let nearly = format!("{}..", &SOLUTION[..79]);
        let output = run_job(&Explain::default(), &format!("{nearly}\n12\n"), 1);
        let paragraphs: Vec<&str> = output.split("\n\n").collect();
        assert_eq!(paragraphs.len(), 3, "{output:?}");
        let lines: Vec<&str> = paragraphs[0].lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].starts_with("full-house\t") && lines[1].starts_with("full-house\t"));
        assert_eq!(lines[2], format!("{SOLUTION}\t1.0\teasy\tlogic"));
        assert!(paragraphs[1].starts_with("error\tinvalid-board"));
    }

    /// The pencil-mark line `POST /v1/candidates` answers for `puzzle`.
    fn marks_of(puzzle: &str) -> String {
        run_job(&Candidates::default(), &format!("{puzzle}\n"), 1).trim_end().to_owned()
    }

    /// `line` with the place of `value` in the cell at row-major `cell` crossed out.
    fn cross_out(line: &str, cell: usize, value: usize) -> String {
        let mut bytes = line.as_bytes().to_vec();
        bytes[cell * 9 + value - 1] = b'.';
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_line_of_pencil_marks_is_a_position_with_the_player_s_marks() {
        let marks = marks_of(PUZZLE);
        assert_eq!(marks.len(), 729);
        // The basic candidates as marks: every command answers as for the board with the cells of
        // one candidate (naked singles) filled in.
        let singles: String = marks
            .as_bytes()
            .chunks(9)
            .map(|places| match places.iter().filter(|&&place| place != b'.').collect::<Vec<_>>()[..] {
                [&value] => value as char,
                _ => '.',
            })
            .collect();
        assert!(singles.len() == 81 && singles != PUZZLE, "{singles}");
        assert_eq!(run(&marks, 1), format!("{SOLUTION}\n"));
        assert_eq!(run_job(&Rate::default(), &marks, 1), run_job(&Rate::default(), &singles, 1));
        assert_eq!(run_job(&Explain::default(), &marks, 1), run_job(&Explain::default(), &singles, 1));
        assert_eq!(marks_of(&marks), marks_of(&singles));
        // r1c3 is 4 in the solution: marks without it contradict the solution.
        let wrong = cross_out(&marks, 2, 4);
        let refused = "error\twrong-candidates: the pencil marks contradict the solution: r1c3: 4 was crossed out, \
                       but the solution has it there\tline 1\n";
        assert_eq!(run(&wrong, 1), refused);
        assert_eq!(run_job(&Rate::default(), &wrong, 1), refused);
        assert_eq!(run_job(&Explain::default(), &wrong, 1), format!("{refused}\n"));
        // candidates keeps what the marks keep: r1c3 was 1, 2 or 4.
        assert_eq!(&marks_of(&wrong)[18..27], "12.......");
        // A cell of one candidate is a value: the position is the singles' with r1c3 filled in.
        let placed = cross_out(&cross_out(&marks, 2, 1), 2, 2);
        let mut board = singles.clone();
        board.replace_range(2..3, "4");
        assert_eq!(marks_of(&placed), marks_of(&board));
    }

    #[test]
    fn rate_and_explain_start_from_the_marks() {
        let marks = marks_of(PUZZLE);
        // Every blank cell keeps its solution's value and at most one other.
        let narrowed: String = marks
            .as_bytes()
            .chunks(9)
            .zip(SOLUTION.bytes())
            .map(|(places, value)| {
                let other = places.iter().find(|&&place| place != b'.' && place != value).copied();
                places
                    .iter()
                    .map(|&place| if place == value || Some(place) == other { place as char } else { '.' })
                    .collect::<String>()
            })
            .collect();
        let rules = Rules::default();
        let (puzzle, read) = rules.puzzle(&narrowed).unwrap();
        let expected = puzzle.rate_from(read.as_ref(), None, &mut Never).unwrap().unwrap();
        let Marked::Followed(expected) = expected else { panic!("the marks keep the solution") };
        let rated = run_job(&Rate::default(), &narrowed, 1);
        assert!(rated.starts_with(&format!("{:.1}\t{}\tlogic\t", expected.rating, expected.level)), "{rated}");
        assert_ne!(rated, run_job(&Rate::default(), PUZZLE, 1), "the marks change the path");
        let explained = run_job(&Explain::default(), &narrowed, 1);
        assert!(explained.contains(&format!("{SOLUTION}\t")), "{explained}");
    }

    #[test]
    fn sixty_four_characters_are_4x4_marks_only_with_a_2x2_box() {
        let line = format!("1...{}", "1234".repeat(15));
        // An 8x8 board whose first row repeats 1.
        assert!(run(&line, 1).starts_with("error\tconflicting-givens: "), "{}", run(&line, 1));
        let small = Solve { rules: Rules { shape: Shape::new(2, 2), ..Rules::default() }, ..Solve::default() };
        let (solution, multiple) =
            run_job(&small, &line, 1).trim_end().split_once('\t').map(|(a, b)| (a.to_owned(), b.to_owned())).unwrap();
        assert_eq!((solution.len(), &solution[..1], multiple.as_str()), (16, "1", "multiple"));
        let bad = format!("2...{}", "1234".repeat(15));
        assert_eq!(
            run_job(&small, &bad, 1),
            "error\tinvalid-board: pencil marks: character 0 ('2', row 0, col 0): expected '1' or '.'\tline 1\n"
        );
    }

    #[test]
    fn grids_of_n_lines_are_read_as_one_puzzle_each() {
        let rows: Vec<&str> = (0..9).map(|row| &PUZZLE[row * 9..row * 9 + 9]).collect();
        // SadMan .sdk: a header and comment lines; plain rows.
        let sdk = format!("[Puzzle]\n#AAn author\n#D{}\n{}\n", "A description", rows.join("\n"));
        // Simple Sudoku .ss: bars between boxes and a border line between bands, then another grid
        // straight after the first with spaces between cells.
        let banded = |rows: &[&str]| {
            rows.chunks(3)
                .map(|band| {
                    band.iter()
                        .map(|row| format!("{}|{}|{}", &row[..3], &row[3..6], &row[6..]))
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .collect::<Vec<_>>()
                .join("\n---+---+---\n")
        };
        let spaced: Vec<String> =
            rows.iter().map(|row| row.chars().map(String::from).collect::<Vec<_>>().join(" ")).collect();
        let ss = format!("*-----------*\n{}\n*-----------*\n{}\n", banded(&rows), spaced.join("\r\n"));
        for (input, answers) in [(sdk.as_str(), 1), (ss.as_str(), 2)] {
            assert_eq!(run(input, 1), format!("{SOLUTION}\n").repeat(answers), "{input}");
            let mut forced = Vec::new();
            super::run(
                &Solve::default(),
                input.as_bytes(),
                &mut forced,
                1,
                &Progress::hidden(),
                Some(InputFormat::Grid),
            )
            .unwrap();
            assert_eq!(String::from_utf8(forced).unwrap(), format!("{SOLUTION}\n").repeat(answers));
        }
        // 4x4 grids of four rows; rows of 16 cells are read as grids only when asked, since they
        // are whole 4x4 puzzles too.
        let four = ".14.\n....\n....\n2..3\n\n.14.\n....\n....\n2..3\n";
        assert_eq!(run(four, 1), "3142423113242413\n".repeat(2));
        let empty = format!("{}\n", ".".repeat(16)).repeat(16);
        assert_eq!(run(&empty, 1).lines().count(), 16);
        let mut out = Vec::new();
        super::run(&Solve::default(), empty.as_bytes(), &mut out, 1, &Progress::hidden(), Some(InputFormat::Grid))
            .unwrap();
        let out = String::from_utf8(out).unwrap();
        assert!(out.ends_with("\tmultiple\n") && out.lines().count() == 1 && out.len() == 256 + 10, "{out}");
    }

    #[test]
    fn rows_that_make_no_grid_are_one_error_each_naming_the_line() {
        let rows: Vec<&str> = (0..9).map(|row| &PUZZLE[row * 9..row * 9 + 9]).collect();
        let grid = rows.join("\n");
        // A short row still counts as one of the nine, so the next grid is read as it is.
        let short_row = format!("{}\n{}\n{}\n", rows[..4].join("\n"), "53..7...", rows[5..].join("\n"));
        let cut = rows[..7].join("\n");
        let input = format!("{grid}\n{short_row}{grid}\n\n{cut}\n\n{grid}\n1234567\n12\n\n{cut}");
        let output = run(&input, 2);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(
            lines,
            [
                SOLUTION,
                "error\tinvalid-board: row 5 (line 14) has 8 cells, but the grid's first row has 9\tline 10",
                SOLUTION,
                "error\tinvalid-board: the grid ends after 7 of its 9 rows\tline 29",
                SOLUTION,
                "error\tinvalid-board: the grid's first row has 7 cells; a row has as many as the grid's size, \
                 4, 6, 8, 9, 10, 12, 15, 16, 20 or 25\tline 46",
                "error\tinvalid-board: the grid ends after 7 of its 9 rows\tline 49",
            ]
        );
        // A bad character is the board's error, at its cell.
        let typo = format!("{}\n53..x....\n{}\n", rows[..3].join("\n"), rows[4..].join("\n"));
        assert!(
            run(&typo, 1)
                .starts_with("error\tinvalid-board: board character at byte offset 31 (cell 31: row 3, col 4)")
        );
    }

    #[test]
    fn a_grid_that_runs_past_a_block_is_read_again_with_more_input() {
        let rows: Vec<&str> = (0..9).map(|row| &PUZZLE[row * 9..row * 9 + 9]).collect();
        let text = format!("#x\n{}\n\n{}\n", rows.join("\n"), rows.join("\n"));
        let mut reader = Reader { format: None, lines: 0, block_lines: BLOCK_LINES, skipping: false };
        // The second grid is cut after its fifth row: the first is answered, the second waits.
        let cut = text.len() - 4 * 10;
        let (puzzles, consumed) = reader.split(&text.as_bytes()[..cut], false);
        assert_eq!(puzzles.len(), 1);
        assert_eq!((puzzles[0].line, puzzles[0].text.as_deref()), (2, Ok(PUZZLE)));
        assert_eq!(&text[consumed..], format!("{}\n", rows.join("\n")));
        assert_eq!(reader.lines, 11);
        let (puzzles, consumed) = reader.split(&text.as_bytes()[consumed..], true);
        assert_eq!((puzzles.len(), puzzles[0].line, consumed), (1, 12, 90));
    }

    /// A line over [`MAX_LINE_BYTES`] gets its error line, in its place, and is dropped as it is
    /// read: the buffer never grows to hold it, however long it is, and the lines after it are
    /// answered as usual, in either format, with one thread or several.
    #[test]
    fn an_overlong_line_is_answered_with_an_error_and_never_held() {
        /// Notes the largest read asked of it: the batch's buffer.
        struct Watched<R>(R, std::rc::Rc<std::cell::Cell<usize>>);
        impl<R: Read> Read for Watched<R> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                self.1.set(self.1.get().max(buf.len()));
                self.0.read(buf)
            }
        }
        let long = 20 << 20;
        for threads in [1, 2] {
            let largest = std::rc::Rc::new(std::cell::Cell::new(0));
            let input = io::Cursor::new(format!("{PUZZLE}\n"))
                .chain(io::repeat(b'1').take(long))
                .chain(io::Cursor::new(format!("\n{PUZZLE}\n")));
            let input = io::BufReader::with_capacity(1, Watched(input, largest.clone()));
            let mut out = Vec::new();
            super::run(&Solve::default(), input, &mut out, threads, &Progress::hidden(), None).unwrap();
            let too_long = "error\tinvalid-board: the line is longer than 65536 bytes, longer than any puzzle's; it \
                            is not read\tline 2";
            assert_eq!(String::from_utf8(out).unwrap(), format!("{SOLUTION}\n{too_long}\n{SOLUTION}\n"));
            assert!(largest.get() < 3 * MAX_LINE_BYTES.max(block_bytes(block_lines(threads))), "{}", largest.get());
        }
        // Within a block, and at the end of the input; in a grid, which it ends.
        let rows: Vec<&str> = (0..9).map(|row| &PUZZLE[row * 9..row * 9 + 9]).collect();
        let overlong = "1".repeat(MAX_LINE_BYTES + 1);
        let input = format!("{}\n{overlong}\n{}\n{overlong}", rows[..3].join("\n"), rows.join("\n"));
        let output = run(&input, 1);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 4, "{output}");
        assert_eq!(lines[0], "error\tinvalid-board: the grid ends after 3 of its 9 rows\tline 1");
        assert!(lines[1].starts_with("error\tinvalid-board: the line is longer") && lines[1].ends_with("\tline 4"));
        assert_eq!(lines[2], SOLUTION);
        assert!(lines[3].ends_with("\tline 14"), "{}", lines[3]);
    }

    #[test]
    fn the_first_puzzle_line_tells_the_format() {
        assert_eq!(detect("  "), None);
        assert_eq!(detect("# a comment"), None);
        assert_eq!(detect(PUZZLE), Some(InputFormat::Line));
        assert_eq!(detect(&format!("{PUZZLE} #1 hard")), Some(InputFormat::Line));
        assert_eq!(detect(&".".repeat(729)), Some(InputFormat::Line));
        assert_eq!(detect("[Puzzle]"), Some(InputFormat::Grid));
        assert_eq!(detect("*-----------*"), Some(InputFormat::Grid));
        assert_eq!(detect("53..7...."), Some(InputFormat::Grid));
        assert_eq!(detect(" 5 3 . | . 7 . | . . ."), Some(InputFormat::Grid));
        assert_eq!(detect("..6..2"), Some(InputFormat::Grid));
        // 16 cells are a whole 4x4 puzzle, not a 16x16 grid's row.
        assert_eq!(detect(".14.......2....3"), Some(InputFormat::Line));
    }

    #[test]
    fn generate_writes_one_reproducible_line_per_seed() {
        let job = Generate { shape: Shape::CLASSIC, level: Level::Medium, symmetry: Symmetry::None, variant: None };
        let make = |threads| {
            let mut out = Vec::new();
            generate(&job, 5, 6, threads, &mut out, &Progress::hidden()).unwrap();
            String::from_utf8(out).unwrap()
        };
        let output = make(2);
        assert_eq!(output, make(1));
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 6);
        for (index, line) in lines.iter().enumerate() {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields.len(), 5);
            assert_eq!((fields[3], fields[4]), ("medium", (5 + index).to_string().as_str()));
            let puzzle = AnyGrid::parse(fields[0], None).unwrap();
            let made = Puzzle::generate(Shape::CLASSIC, Level::Medium, Symmetry::None, 5 + index as u64, &mut Never);
            assert_eq!(puzzle, made.unwrap().puzzle);
        }
    }

    #[test]
    fn generate_makes_grids_of_other_sizes_in_their_symbols() {
        let job = Generate {
            shape: Shape::new(4, 4).unwrap(),
            level: Level::Hard,
            symmetry: Symmetry::Rotational,
            variant: None,
        };
        let mut out = Vec::new();
        generate(&job, 1, 2, 1, &mut out, &Progress::hidden()).unwrap();
        for line in String::from_utf8(out).unwrap().lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            assert_eq!(fields[3], "hard");
            let puzzle = Grid::parse(fields[0], None).unwrap();
            let solution = Grid::parse(fields[1], None).unwrap();
            assert_eq!(puzzle.shape(), job.shape);
            let count = crate::search::count_grid(&puzzle, 2, &mut Never).unwrap();
            assert_eq!((count.solutions, count.first), (1, Some(solution)));
        }
    }
}

//! `sudokud render` and `sudokud booklet`: the drawings of `POST /v1/render` and
//! `POST /v1/booklet` from the command line, written to a file or stdout. The layout and every
//! check are [`crate::render`]'s; here puzzles are read from arguments and files and made or
//! solved without a deadline (but `render --solution` with `--timeout-ms`).

use std::io::{self, Write};
use std::path::Path;

use crate::batch::{Rules, field, puzzles_of};
use crate::puzzle::Puzzle;
use crate::puzzle_id::PuzzleId;
use crate::render::{self, Booklet, BookletPuzzle, Figure, ImageFormat, Paper, PerPage};
use crate::sizes::{AnyGrid, Marks};
use crate::solver::{Deadline, Never, Unanswerable};
use crate::variants::{Constraints, Preset};

/// What `sudokud render` draws.
pub(crate) struct RenderJob {
    pub puzzle: String,
    /// Its box and variant.
    pub rules: Rules,
    pub format: ImageFormat,
    pub width: u32,
    pub paper: Paper,
    pub solution: bool,
    /// Draw the basic candidates, or these pencil marks (the one-line form).
    pub candidates: Option<Option<String>>,
    pub title: Option<String>,
    /// How long the solve of `solution` may take; none, no limit.
    pub timeout: Option<std::time::Duration>,
}

/// The puzzle of a line under `rules`; the message says what is wrong.
fn read_puzzle(line: &str, rules: &Rules) -> Result<Puzzle, String> {
    let grid = AnyGrid::parse(line, rules.shape).map_err(|error| error.to_string())?;
    match &rules.variant {
        None => Ok(Puzzle::Classic(grid)),
        Some((preset, constraints)) => Puzzle::new(grid, *preset, constraints).map_err(|error| error.to_string()),
    }
}

/// The drawing's bytes, or why there is none.
pub(crate) fn render(job: &RenderJob) -> Result<Vec<u8>, String> {
    if let Some(title) = &job.title {
        render::check_title(title).map_err(|error| format!("--title: {error}"))?;
    }
    let line = field(&job.puzzle).ok_or("the puzzle line is empty")?;
    let puzzle = read_puzzle(line, &job.rules)?;
    let solution = if job.solution {
        let verdict = match job.timeout {
            None => puzzle.classify(&mut Never).expect("Never interrupts"),
            Some(timeout) => puzzle.classify(&mut Deadline(std::time::Instant::now() + timeout)).map_err(|_| {
                format!(
                    "--solution: the puzzle ran out of time: no solution within --timeout-ms {}",
                    timeout.as_millis()
                )
            })?,
        };
        Some(verdict.unique().map_err(|error: Unanswerable<_>| format!("--solution: {error}"))?)
    } else {
        None
    };
    let marks: Option<Marks> = match &job.candidates {
        None => None,
        Some(None) => Some(puzzle.candidates()),
        Some(Some(line)) => {
            let marks = Marks::parse_line(line, puzzle.shape()).map_err(|error| format!("--marks: {error}"))?;
            Some(marks)
        }
    };
    let figure = Figure {
        puzzle: &puzzle,
        solution: solution.as_ref(),
        marks: marks.as_ref(),
        title: job.title.as_deref(),
        caption: None,
    };
    Ok(render::render(&figure, job.format, job.width, job.paper))
}

/// Where `sudokud booklet` takes its puzzles from.
pub(crate) enum BookletSource<'a> {
    /// `count` made from `first`'s seed on, for a variant's rules if any (checked as offered).
    Made { first: PuzzleId, count: usize, variant: Option<(Option<Preset>, Constraints)> },
    /// The puzzle lines of files (the first tab-separated field; `#` lines and empty ones
    /// skipped), with one box and one variant's rules for all.
    Files { files: &'a [std::path::PathBuf], rules: Rules },
}

/// What `sudokud booklet` prints besides its puzzles.
pub(crate) struct BookletLayout {
    pub title: Option<String>,
    pub paper: Paper,
    pub per_page: PerPage,
    pub answers: bool,
}

/// The booklet's PDF, or why there is none (naming the file and line at fault).
pub(crate) fn booklet(source: BookletSource, layout: &BookletLayout) -> Result<Vec<u8>, String> {
    if let Some(title) = &layout.title {
        render::check_title(title).map_err(|error| format!("--title: {error}"))?;
    }
    let puzzles = match source {
        BookletSource::Made { first, count, variant: None } => render::booklet::ids(first, count)
            .map(|id| BookletPuzzle::generated(id, &mut Never).expect("Never interrupts"))
            .collect(),
        BookletSource::Made { first, count, variant: Some((preset, constraints)) } => {
            render::booklet::ids(first, count)
                .map(|id| {
                    let made = BookletPuzzle::generated_variant(
                        id.shape,
                        preset,
                        &constraints,
                        id.level,
                        id.symmetry,
                        id.seed,
                        &mut Never,
                    );
                    made.expect("Never interrupts").map_err(|error| error.to_string())
                })
                .collect::<Result<Vec<_>, String>>()?
        }
        BookletSource::Files { files, rules } => given_puzzles(files, &rules)?,
    };
    let booklet = Booklet {
        puzzles: &puzzles,
        title: layout.title.as_deref(),
        paper: layout.paper,
        per_page: layout.per_page,
        answers: layout.answers,
    };
    Ok(booklet.pdf())
}

/// Every puzzle of the files, read as the batch commands read them (one per line, or grids),
/// each solved for its answer page; all of one size and box.
fn given_puzzles(files: &[std::path::PathBuf], rules: &Rules) -> Result<Vec<BookletPuzzle>, String> {
    let mut puzzles: Vec<BookletPuzzle> = Vec::new();
    for path in files {
        let data = std::fs::read(path).map_err(|error| format!("{}: {error}", path.display()))?;
        for (line, text) in puzzles_of(&data, None) {
            let at = |error: &dyn std::fmt::Display| format!("{}:{line}: {error}", path.display());
            if puzzles.len() == render::booklet::MAX_PUZZLES {
                return Err(at(&format!("a booklet holds at most {} puzzles", render::booklet::MAX_PUZZLES)));
            }
            let puzzle = read_puzzle(&text.map_err(|error| at(&error))?, rules).map_err(|error| at(&error))?;
            if let Some(first) = puzzles.first().map(|first| first.puzzle.shape())
                && puzzle.shape() != first
            {
                let (size, expected) = (puzzle.shape().size(), first.size());
                return Err(at(&format_args!(
                    "a {size}x{size} grid of {} boxes, but the first puzzle is a {expected}x{expected} grid of {first} \
                     boxes: a booklet's puzzles are of one size and box",
                    puzzle.shape()
                )));
            }
            let solved = BookletPuzzle::solved(puzzle, &mut Never).expect("Never interrupts");
            puzzles.push(solved.map_err(|error| at(&error))?);
        }
    }
    if puzzles.is_empty() {
        return Err("the files hold no puzzle".to_owned());
    }
    Ok(puzzles)
}

/// Writes `bytes` to `output`, or stdout when none.
pub(crate) fn write_out(output: Option<&Path>, bytes: &[u8]) -> io::Result<()> {
    match output {
        Some(path) => std::fs::write(path, bytes),
        None => {
            let mut out = io::stdout().lock();
            out.write_all(bytes)?;
            out.flush()
        }
    }
}

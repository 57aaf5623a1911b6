//! The batch commands: `sudokud solve`, `rate` and `explain` answer puzzles from files or stdin,
//! one answer per line in input order; `sudokud generate` makes puzzles from consecutive seeds.
//!
//! Input is read in blocks of bytes into one reused buffer and split into lines in place (no
//! copy or allocation per line, and no UTF-8 check on ASCII lines); each block is answered in parallel by scoped threads that take chunks of work from a shared
//! cursor, and written out in order before the next block is read. Memory stays bounded by
//! the block size however long the input is, and output order never depends on thread timing.

use std::borrow::Cow;
use std::io::{self, BufRead, Read, Write};
use std::sync::Mutex;

use crate::board::{Board, BoardError, CELLS};
use crate::generate::Symmetry;
use crate::http::Kind;
use crate::logic::{Level, Rating};
use crate::progress::Progress;
use crate::rules::Conflict;
use crate::sizes::{self, AnyGrid, Explained, Shape};
use crate::solver::{self, Never, Unanswerable, Verdict};
use crate::variants::generate as variant_generate;
use crate::variants::{ConstraintError, Constraints, Preset, Puzzle};

/// Puzzles read, answered and written per block.
const BLOCK_LINES: usize = 16 * 1024;

/// What a batch command does with each puzzle line.
pub trait LineJob: Sync {
    type Answer: Send;
    /// Lines a worker takes at a time: enough to make the shared cursor cheap, few enough that
    /// the threads finish a block together.
    const CHUNK: usize;
    fn answer(&self, line: &str) -> Self::Answer;
    /// Writes the answer's lines.
    fn write(&self, answer: &Self::Answer, out: &mut impl Write) -> io::Result<()>;
}

/// Why a puzzle line gets no answer. Errors keep what they need to be written, not a formatted
/// message: an answer is built for every line, and most never need a string at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    Invalid(BoardError),
    Unanswerable(Unanswerable),
    /// A grid of another size, or under a variant's rules, without an answer; its shape writes
    /// the conflicts' values.
    UnanswerableGrid(Shape, Unanswerable<sizes::rules::Conflict>),
    /// The variant's constraints do not fit the line's grid.
    Constraints(ConstraintError),
}

impl LineError {
    /// Writes `error\t<kind>: <detail>`, in the words of the HTTP problem for the same outcome
    /// (its `type` and `detail`), without tabs or newlines; conflicts follow as 0-based
    /// `r<row>c<col>=<digit>`.
    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        match self {
            LineError::Invalid(error) => writeln!(out, "error\t{}: {error}", Kind::InvalidBoard.slug()),
            LineError::Constraints(error) => writeln!(out, "error\t{}: {error}", Kind::InvalidRequest.slug()),
            LineError::Unanswerable(unanswerable) => {
                write!(out, "error\t{}: {unanswerable}", Kind::from(unanswerable).slug())?;
                if let Unanswerable::Conflicting(conflicts) = unanswerable {
                    out.write_all(b":")?;
                    for &Conflict { cell, digit, .. } in conflicts {
                        // Rows and columns are 0-8 and digits 1-9: one character each, so the
                        // bytes are put together here rather than through `fmt`, which costs
                        // more than finding the conflicts.
                        let (row, col, digit) = (cell.row(), cell.col(), digit.get());
                        out.write_all(&[b' ', b'r', b'0' + row, b'c', b'0' + col, b'=', b'0' + digit])?;
                    }
                }
                out.write_all(b"\n")
            }
            LineError::UnanswerableGrid(shape, unanswerable) => {
                write!(out, "error\t{}: {unanswerable}", Kind::from(unanswerable).slug())?;
                if let Unanswerable::Conflicting(conflicts) = unanswerable {
                    out.write_all(b":")?;
                    for conflict in conflicts {
                        write!(out, " r{}c{}={}", conflict.row, conflict.col, shape.symbol(conflict.value))?;
                    }
                }
                out.write_all(b"\n")
            }
        }
    }
}

/// How every line of a batch is read and played: its box and its variant's rules.
///
/// A line of 81 cells is a classic board unless `shape` says otherwise; a line of another
/// size's cell count is a grid of that size, with the size's default box unless `shape` gives
/// one ([`Shape::default_for`]). With a variant's rules, every line is played by them.
#[derive(Clone, Debug, Default)]
pub struct Rules {
    /// The box shape every line has (`--box`), when not the size's default.
    pub shape: Option<Shape>,
    /// The variant every line is played by (`--variant`, `--constraints`), if any.
    pub variant: Option<(Option<Preset>, Constraints)>,
}

impl Rules {
    /// The line's puzzle under these rules.
    fn puzzle(&self, line: &str) -> Result<Puzzle, LineError> {
        let grid = AnyGrid::parse(line, self.shape).map_err(LineError::Invalid)?;
        match &self.variant {
            None => Ok(Puzzle::Classic(grid)),
            Some((preset, constraints)) => Puzzle::new(grid, *preset, constraints).map_err(LineError::Constraints),
        }
    }
}

/// `sudokud solve`: the solution, and whether it is unique, for grids of every size and variant;
/// a classic 9x9 line takes the 9x9 solver's fast path.
#[derive(Clone, Debug, Default)]
pub struct Solve {
    pub rules: Rules,
}

impl LineJob for Solve {
    type Answer = Result<(AnyGrid, bool), LineError>;
    const CHUNK: usize = 64;

    fn answer(&self, line: &str) -> Self::Answer {
        let grid = match self.rules.puzzle(line)? {
            Puzzle::Classic(grid) => grid,
            puzzle => {
                let verdict = puzzle.classify(&mut Never).expect("Never interrupts");
                return verdict.solved().map_err(|error| LineError::UnanswerableGrid(puzzle.shape(), error));
            }
        };
        match grid {
            AnyGrid::Classic(puzzle) => {
                let (solution, unique) = verdict(&puzzle).solved().map_err(LineError::Unanswerable)?;
                Ok((AnyGrid::Classic(solution), unique))
            }
            AnyGrid::Sized(puzzle) => {
                let verdict = sizes::solver::classify(&puzzle, &mut Never).expect("Never interrupts");
                let (solution, unique) =
                    verdict.solved().map_err(|error| LineError::UnanswerableGrid(puzzle.shape(), error))?;
                Ok((AnyGrid::Sized(solution), unique))
            }
        }
    }

    /// The solution, plus `\tmultiple` when it is not unique.
    fn write(&self, answer: &Self::Answer, out: &mut impl Write) -> io::Result<()> {
        let (solution, unique) = match answer {
            Ok(solved) => solved,
            Err(error) => return error.write(out),
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

/// What `puzzle` is, searched to the end: a batch has no deadline.
fn verdict(puzzle: &Board) -> Verdict {
    solver::classify(puzzle, &mut Never).expect("Never interrupts")
}

/// `sudokud candidates`: the pencil marks of every blank cell, in the one-line form.
#[derive(Clone, Debug, Default)]
pub struct Candidates {
    pub rules: Rules,
}

impl LineJob for Candidates {
    type Answer = Result<String, LineError>;
    const CHUNK: usize = 64;

    fn answer(&self, line: &str) -> Self::Answer {
        let puzzle = self.rules.puzzle(line)?;
        Ok(puzzle.candidates().to_line(&puzzle.grid()))
    }

    fn write(&self, answer: &Self::Answer, out: &mut impl Write) -> io::Result<()> {
        match answer {
            Ok(line) => writeln!(out, "{line}"),
            Err(error) => error.write(out),
        }
    }
}

/// `sudokud rate`: how hard the puzzle is for a person, for grids of every size and variant
/// (read as [`Rules`] says).
#[derive(Clone, Debug, Default)]
pub struct Rate {
    pub rules: Rules,
}

impl LineJob for Rate {
    type Answer = Result<Rating, LineError>;
    const CHUNK: usize = 8;

    fn answer(&self, line: &str) -> Self::Answer {
        let puzzle = self.rules.puzzle(line)?;
        let rating = puzzle.rate(&mut Never).expect("Never interrupts");
        rating.map_err(|unanswerable| LineError::UnanswerableGrid(puzzle.shape(), unanswerable))
    }

    /// `<rating>\t<level>\t<logic|search>\t<technique>=<count>,...`.
    fn write(&self, answer: &Self::Answer, out: &mut impl Write) -> io::Result<()> {
        let rating = match answer {
            Ok(rating) => rating,
            Err(error) => return error.write(out),
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

/// `<rating>\t<level>\t<logic|search>`, no newline.
fn write_rating(rating: &Rating, out: &mut impl Write) -> io::Result<()> {
    let how = if rating.solved_by_logic { "logic" } else { "search" };
    write!(out, "{:.1}\t{}\t{how}", rating.rating, rating.level)
}

/// `sudokud explain`: every step to the solution, for grids of every size and variant (read as
/// [`Rules`] says).
#[derive(Clone, Debug, Default)]
pub struct Explain {
    pub rules: Rules,
}

impl LineJob for Explain {
    type Answer = Result<Explained, LineError>;
    const CHUNK: usize = 8;

    fn answer(&self, line: &str) -> Self::Answer {
        let puzzle = self.rules.puzzle(line)?;
        let explained = puzzle.explain(&mut Never).expect("Never interrupts");
        explained.map_err(|unanswerable| LineError::UnanswerableGrid(puzzle.shape(), unanswerable))
    }

    /// A paragraph: `<technique>\t<explanation>` per step, then
    /// `<solution>\t<rating>\t<level>\t<logic|search>`, then an empty line.
    fn write(&self, answer: &Self::Answer, out: &mut impl Write) -> io::Result<()> {
        match answer {
            Ok(explanation) => {
                for step in &explanation.steps {
                    writeln!(out, "{}\t{}", step.technique.id(), step.explanation)?;
                }
                write!(out, "{}\t", explanation.solution)?;
                write_rating(&explanation.rating, out)?;
                out.write_all(b"\n")?;
            }
            Err(error) => error.write(out)?,
        }
        out.write_all(b"\n")
    }
}

/// Answers every puzzle line of `input` with `job` and writes the answers to `out` in input
/// order, using `threads` threads. The puzzle is a line's first tab-separated field, trimmed of
/// whitespace; empty lines and lines starting with `#` are skipped. A line that is not UTF-8 is
/// answered with its invalid bytes replaced by U+FFFD (so it gets an `invalid board` error),
/// instead of failing the batch.
pub fn run<J: LineJob>(
    job: &J,
    mut input: impl BufRead,
    out: &mut impl Write,
    threads: usize,
    progress: &Progress,
) -> io::Result<()> {
    // Lines are split in place in this buffer: no copy, and UTF-8 is checked only on lines
    // that are not plain ASCII.
    let mut data = vec![0u8; BLOCK_BYTES];
    let mut filled = 0;
    let mut at_end = false;
    let mut answers: Vec<Option<J::Answer>> = Vec::with_capacity(BLOCK_LINES);
    loop {
        if !at_end {
            filled += fill(&mut input, &mut data[filled..])?;
            at_end = filled < data.len();
        }
        let consumed = {
            let (lines, consumed) = split_lines(&data[..filled], at_end);
            answers.clear();
            answers.resize_with(lines.len(), || None);
            fill_in_parallel(&mut answers, J::CHUNK, threads, progress, |index| job.answer(&lines[index]));
            for answer in &answers {
                job.write(answer.as_ref().expect("every line of the block was answered"), out)?;
            }
            consumed
        };
        data.copy_within(consumed..filled, 0);
        filled -= consumed;
        if at_end && filled == 0 {
            return out.flush();
        }
        if consumed == 0 {
            // A line longer than the buffer.
            data.resize(2 * data.len(), 0);
        }
    }
}

/// Bytes read per block: room for [`BLOCK_LINES`] lines of 81 cells and a newline.
const BLOCK_BYTES: usize = BLOCK_LINES * (CELLS + 1);

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

/// The puzzle lines of `data`, trimmed, up to [`BLOCK_LINES`] of them, and how many bytes they
/// took. A last line without a newline counts only `at_end`; otherwise it waits for more input.
fn split_lines(data: &[u8], at_end: bool) -> (Vec<Cow<'_, str>>, usize) {
    let mut lines = Vec::with_capacity(BLOCK_LINES);
    let mut pos = 0;
    while lines.len() < BLOCK_LINES && pos < data.len() {
        // The common line: 81 printable ASCII characters and a newline, nothing to trim.
        if let Some(&[ref line @ .., b'\n']) = data.get(pos..pos + CELLS + 1)
            && line.iter().fold(true, |plain, &byte| plain & (b'!'..=b'~').contains(&byte))
        {
            pos += CELLS + 1;
            if line[0] != b'#' {
                // SAFETY: every byte of `line` is ASCII, so it is UTF-8.
                lines.push(Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(line) }));
            }
            continue;
        }
        let rest = &data[pos..];
        let line = match rest.iter().position(|&byte| byte == b'\n') {
            Some(end) => {
                pos += end + 1;
                &rest[..end]
            }
            None if at_end => {
                pos = data.len();
                rest
            }
            None => break,
        };
        let puzzle = puzzle_field(line);
        if !puzzle.is_empty() && !puzzle.starts_with('#') {
            lines.push(puzzle);
        }
    }
    (lines, pos)
}

/// The puzzle of a line: its first tab-separated field, as text, trimmed like `str::trim`. So
/// the lines the batch commands write feed the next one: `generate`'s
/// `<puzzle>\t<solution>\t...` and `solve`'s `<solution>\tmultiple` start with a board. ASCII,
/// the usual case, needs no UTF-8 check; anything else is checked, and invalid bytes become
/// U+FFFD.
pub(crate) fn puzzle_field(line: &[u8]) -> Cow<'_, str> {
    // `str::trim`'s whitespace within ASCII: tab, newline, vertical tab, form feed, CR, space.
    let blank = |byte: &u8| matches!(byte, b'\t'..=b'\r' | b' ');
    let start = line.iter().position(|byte| !blank(byte)).unwrap_or(line.len());
    // A tab is one byte in UTF-8, never part of another character, so cutting there is safe.
    let field = line[start..].split(|&byte| byte == b'\t').next().unwrap_or_default();
    let field = &field[..field.iter().rposition(|byte| !blank(byte)).map_or(0, |last| last + 1)];
    if field.is_ascii() {
        // SAFETY: `field` is ASCII, so it is UTF-8.
        return Cow::Borrowed(unsafe { std::str::from_utf8_unchecked(field) });
    }
    match String::from_utf8_lossy(field) {
        Cow::Borrowed(text) => Cow::Borrowed(text.trim()),
        Cow::Owned(text) => Cow::Owned(text.trim().to_owned()),
    }
}

/// What `sudokud generate` makes: puzzles of a shape, level and symmetry.
#[derive(Clone, Debug)]
pub struct Generate {
    pub shape: Shape,
    pub level: Level,
    pub symmetry: Symmetry,
    /// The variant the puzzles are made for (`--variant`, `--constraints`), if any.
    pub variant: Option<(Option<Preset>, Constraints)>,
}

impl Generate {
    /// The line of the puzzle from `seed`: `<puzzle>\t<solution>\t<rating>\t<level>\t<seed>`, and
    /// for a variant `\t<constraints as JSON>`, or `error\t<kind>: <detail>` when no grid keeps
    /// the variant's rules (checked before, as far as [`variant_generate::has_grid`] can tell).
    fn line(&self, seed: u64) -> String {
        let line = |puzzle: &dyn std::fmt::Display, solution: &dyn std::fmt::Display, rating: &Rating| {
            format!("{puzzle}\t{solution}\t{:.1}\t{}\t{seed}", rating.rating, rating.level)
        };
        let Some((preset, constraints)) = &self.variant else {
            let generated = AnyGrid::generate(self.shape, self.level, self.symmetry, seed, &mut Never);
            let generated = generated.expect("Never interrupts");
            return line(&generated.puzzle, &generated.solution, &generated.rating);
        };
        let generated =
            variant_generate::generate(self.shape, *preset, constraints, self.level, self.symmetry, seed, &mut Never)
                .expect("Never interrupts");
        // The rules are checked before, but only a short search looks for a grid that keeps them.
        let generated = match generated {
            Ok(generated) => generated,
            Err(error) => return format!("error\t{}: {error}", Kind::InvalidRequest.slug()),
        };
        let rules = serde_json::to_string(&generated.constraints).expect("constraints write as JSON");
        format!("{}\t{rules}", line(&generated.puzzle, &generated.solution, &generated.rating))
    }
}

/// `sudokud generate`: `count` puzzles of `job` from seeds `first_seed`, `first_seed + 1`, ...,
/// one line each (see [`Generate::line`]).
pub fn generate(
    job: &Generate,
    first_seed: u64,
    count: u64,
    threads: usize,
    out: &mut impl Write,
    progress: &Progress,
) -> io::Result<()> {
    let mut puzzles: Vec<Option<String>> = Vec::new();
    for block_start in (0..count).step_by(BLOCK_LINES) {
        let block_len = (count - block_start).min(BLOCK_LINES as u64) as usize;
        let seed = |index: usize| first_seed.wrapping_add(block_start + index as u64);
        puzzles.clear();
        puzzles.resize_with(block_len, || None);
        // One puzzle per grab: a puzzle takes milliseconds, so the cursor costs nothing.
        fill_in_parallel(&mut puzzles, 1, threads, progress, |index| job.line(seed(index)));
        for line in &puzzles {
            writeln!(out, "{}", line.as_ref().expect("every seed of the block was generated"))?;
        }
    }
    out.flush()
}

/// Sets `slots[i] = answer(i)` for every slot, spreading chunks of `chunk` slots over `threads`
/// threads and counting them on `progress`.
fn fill_in_parallel<T: Send>(
    slots: &mut [Option<T>],
    chunk: usize,
    threads: usize,
    progress: &Progress,
    answer: impl Fn(usize) -> T + Sync,
) {
    let answer_chunk = |first: usize, chunk_slots: &mut [Option<T>]| {
        for (offset, slot) in chunk_slots.iter_mut().enumerate() {
            *slot = Some(answer(first + offset));
        }
        progress.advance(chunk_slots.len());
    };
    let threads = threads.clamp(1, slots.len().div_ceil(chunk).max(1));
    if threads == 1 {
        for (index, chunk_slots) in slots.chunks_mut(chunk).enumerate() {
            answer_chunk(index * chunk, chunk_slots);
        }
        return;
    }
    let cursor = Mutex::new(slots.chunks_mut(chunk).enumerate());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    // Hold the lock only to take the next chunk, not while answering it.
                    let next = cursor.lock().expect("no worker panics while holding the cursor").next();
                    let Some((index, chunk_slots)) = next else { break };
                    answer_chunk(index * chunk, chunk_slots);
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizes::Grid;

    use crate::board::{EXAMPLE_PUZZLE as PUZZLE, EXAMPLE_SOLUTION as SOLUTION};

    fn run_job(job: &impl LineJob, input: &str, threads: usize) -> String {
        let mut out = Vec::new();
        super::run(job, input.as_bytes(), &mut out, threads, &Progress::hidden()).unwrap();
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
        assert_eq!(lines[2], no_grid("3 cells"));
    }

    #[test]
    fn the_puzzle_is_the_first_tab_separated_field() {
        let input = format!(
            "{PUZZLE}\t{SOLUTION}\t1.2\teasy\t7\n \t{PUZZLE} \t\tx\n{SOLUTION}\tmultiple\n#\t{PUZZLE}\n5\t{PUZZLE}\n"
        );
        let output = run(&input, 1);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines[..3], [SOLUTION, SOLUTION, SOLUTION]);
        assert_eq!(lines[3..], [no_grid("1 cell")]);
        assert_eq!(puzzle_field("é5\t1".as_bytes()), "é5");
        assert_eq!(puzzle_field(b"\t\t"), "");
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
        super::run(&Solve::default(), &input[..], &mut out, 1, &Progress::hidden()).unwrap();
        let expected = "error\tinvalid-board: board character at byte offset 2 (cell 2: row 0, col 2): found \
                        '\u{fffd}'; expected a digit 1-9, or '.' or '0' for blank";
        assert_eq!(String::from_utf8(out).unwrap(), format!("{SOLUTION}\n{expected}\n{SOLUTION}\n"));
    }

    #[test]
    fn lines_span_blocks_and_may_be_longer_than_a_block() {
        // Lines of 81, 82 and 83 bytes, so that block ends fall inside lines, then one line
        // longer than the buffer.
        let shapes = [format!("{PUZZLE}\n"), format!("{PUZZLE}\r\n"), format!(" {PUZZLE}\r\n")];
        let count = 2 * BLOCK_LINES + 7;
        let mut input: String = (0..count).map(|i| shapes[i % 3].as_str()).collect();
        input.push_str(&"1".repeat(2 * BLOCK_BYTES));
        input.push('\n');
        let output = run(&input, 2);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), count + 1);
        assert!(lines[..count].iter().all(|&line| line == SOLUTION));
        assert_eq!(lines[count], no_grid(&format!("{} cells", 2 * BLOCK_BYTES)));
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
        let tall = Solve { rules: Rules { shape: Some(Shape::new(3, 2).unwrap()), variant: None } };
        let out = run_job(&tall, &format!("{line}\n{}\n", ".".repeat(81)), 1);
        let lines: Vec<&str> = out.lines().collect();
        let solved = Grid::parse(lines[0].split('\t').next().unwrap(), Shape::new(3, 2)).unwrap();
        assert!(sizes::rules::conflicts(&solved).is_empty());
        assert_eq!(lines[1], "error\tinvalid-board: box 3x2 makes a 6x6 grid, but the board is 9x9");
    }

    #[test]
    fn lines_that_fit_no_size_name_the_sizes_and_conflicts_use_the_symbols() {
        assert_eq!(run(&format!("{}\n", ".".repeat(80)), 1), no_grid("80 cells") + "\n");
        let mut repeated = vec![b'.'; 256];
        repeated[0] = b'G';
        repeated[15] = b'g';
        let out = run(&format!("{}\n", String::from_utf8(repeated).unwrap()), 1);
        assert_eq!(
            out,
            "error\tconflicting-givens: the givens repeat a digit in a row, column or box (2 conflicting cells): \
             r0c0=G r0c15=G\n"
        );
    }

    #[test]
    fn tells_conflicts_from_unsolvable() {
        let conflicting = format!("55{}", &PUZZLE[2..]);
        let unsolvable = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
        let output = run(&format!("{conflicting}\n{unsolvable}\n"), 1);
        let lines: Vec<&str> = output.lines().collect();
        assert!(
            lines[0].starts_with("error\tconflicting-givens: the givens repeat a digit in a row, column or box (2 conflicting cells): r0c0=5 r0c1=5"),
            "{}",
            lines[0]
        );
        assert_eq!(lines[1], "error\tunsolvable: the givens do not conflict, but the puzzle has no solution");
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
            "error\tmultiple-solutions: the puzzle has more than one solution, so no step of logic leads to one of them"
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
        let tall = Rate { rules: Rules { shape: Shape::new(3, 2), variant: None } };
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
            let puzzle: Board = fields[0].parse().unwrap();
            let solution = crate::generate::generate(Level::Medium, Symmetry::None, 5 + index as u64, &mut Never);
            assert_eq!(puzzle, solution.unwrap().puzzle);
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
            let count = sizes::solver::count_solutions(&puzzle, 2, &mut Never).unwrap();
            assert_eq!((count.solutions, count.first), (1, Some(solution)));
        }
    }
}

//! `sudokud solve`: many puzzles from files or stdin, one answer line each, in input order.
//!
//! Input is read in blocks; each block's lines are stored in one reused `String` (no allocation
//! per line), solved in parallel by scoped threads that take chunks of lines from a shared
//! cursor, and written out in order before the next block is read. Memory stays bounded by
//! the block size however long the input is, and output order never depends on thread timing.

use std::io::{self, BufRead, Write};
use std::ops::Range;
use std::sync::Mutex;

use crate::board::{Board, BoardError, CELLS};
use crate::rules::{self, Conflict};
use crate::solver::{self, Outcome};

/// Puzzles read, solved and written per block.
const BLOCK_LINES: usize = 16 * 1024;
/// Puzzles a worker takes from the shared cursor at a time: enough to make the lock cheap,
/// few enough that the threads finish a block together.
const CHUNK_LINES: usize = 64;

/// The answer for one input line. Errors keep what they need to be written, not a formatted
/// message: an answer is built for every line, and most never need a string at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Solved { solution: Board, unique: bool },
    Invalid(BoardError),
    Conflicting(Vec<Conflict>),
    Unsolvable,
}

impl Answer {
    /// Solves one puzzle line.
    pub fn for_line(line: &str) -> Answer {
        let puzzle = match Board::parse_line(line) {
            Ok(puzzle) => puzzle,
            Err(error) => return Answer::Invalid(error),
        };
        match solver::solve(&puzzle) {
            Outcome::Unique(solution) => Answer::Solved { solution, unique: true },
            Outcome::Multiple(solution) => Answer::Solved { solution, unique: false },
            // Repeated givens also make a puzzle unsolvable; tell the two apart only here, off
            // the path of the puzzles that do solve.
            Outcome::Unsolvable => {
                let conflicts = rules::conflicts(&puzzle);
                if conflicts.is_empty() { Answer::Unsolvable } else { Answer::Conflicting(conflicts) }
            }
        }
    }

    /// Writes the answer line: the solution, plus `\tmultiple` when it is not unique; or
    /// `error\t<reason>`, a reason without tabs or newlines.
    pub fn write_to(&self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Answer::Solved { solution, unique } => {
                let mut line = [0u8; CELLS];
                solution.write_line(&mut line);
                out.write_all(&line)?;
                out.write_all(if *unique { b"\n" } else { b"\tmultiple\n" })
            }
            Answer::Invalid(error) => writeln!(out, "error\tinvalid board: {error}"),
            Answer::Conflicting(conflicts) => {
                out.write_all(b"error\tconflicting givens (0-based row and column):")?;
                for &Conflict { row, col, digit, .. } in conflicts {
                    // Rows and columns are 0-8 and digits 1-9: one character each, so the bytes
                    // are put together here rather than through `fmt`, which costs more than
                    // finding the conflicts.
                    out.write_all(&[b' ', b'r', b'0' + row, b'c', b'0' + col, b'=', b'0' + digit])?;
                }
                out.write_all(b"\n")
            }
            Answer::Unsolvable => {
                out.write_all(b"error\tunsolvable: the givens do not conflict, but no solution exists\n")
            }
        }
    }
}

/// Solves every puzzle line of `input` and writes one answer line each to `out`, using
/// `threads` threads. Empty lines and lines starting with `#` are skipped.
pub fn solve_stream(mut input: impl BufRead, out: &mut impl Write, threads: usize) -> io::Result<()> {
    let mut text = String::new();
    let mut lines: Vec<Range<usize>> = Vec::with_capacity(BLOCK_LINES);
    let mut answers: Vec<Option<Answer>> = Vec::with_capacity(BLOCK_LINES);
    loop {
        text.clear();
        lines.clear();
        let mut at_end = false;
        while lines.len() < BLOCK_LINES {
            let start = text.len();
            if input.read_line(&mut text)? == 0 {
                at_end = true;
                break;
            }
            let line = text[start..].trim();
            if line.is_empty() || line.starts_with('#') {
                text.truncate(start);
            } else {
                lines.push(start..text.len());
            }
        }
        answers.clear();
        answers.resize(lines.len(), None);
        solve_block(&text, &lines, &mut answers, threads);
        for answer in &answers {
            answer.as_ref().expect("every line of the block was answered").write_to(out)?;
        }
        if at_end {
            return out.flush();
        }
    }
}

/// Fills `answers[i]` for `lines[i]`, spreading chunks of lines over `threads` threads.
fn solve_block(text: &str, lines: &[Range<usize>], answers: &mut [Option<Answer>], threads: usize) {
    let answer_chunk = |first: usize, slots: &mut [Option<Answer>]| {
        for (slot, range) in slots.iter_mut().zip(&lines[first..]) {
            *slot = Some(Answer::for_line(&text[range.clone()]));
        }
    };
    let threads = threads.clamp(1, lines.len().div_ceil(CHUNK_LINES).max(1));
    if threads == 1 {
        answer_chunk(0, answers);
        return;
    }
    let cursor = Mutex::new(answers.chunks_mut(CHUNK_LINES).enumerate());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    // Hold the lock only to take the next chunk, not while solving it.
                    let next = cursor.lock().expect("no worker panics while holding the cursor").next();
                    let Some((index, slots)) = next else { break };
                    answer_chunk(index * CHUNK_LINES, slots);
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
    const SOLUTION: &str = "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    fn run(input: &str, threads: usize) -> String {
        let mut out = Vec::new();
        solve_stream(input.as_bytes(), &mut out, threads).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn answers_each_line_and_skips_blanks_and_comments() {
        let input = format!("# a comment\n{PUZZLE}\n\n   \n{}\r\n123\n", ".".repeat(81));
        let output = run(&input, 1);
        let lines: Vec<&str> = output.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], SOLUTION);
        assert!(lines[1].ends_with("\tmultiple"), "{}", lines[1]);
        assert_eq!(
            lines[2],
            "error\tinvalid board: `board` has 3 cells; expected 81 (digits 1-9, and '.' or '0' for blank)"
        );
    }

    #[test]
    fn tells_conflicts_from_unsolvable() {
        let conflicting = format!("55{}", &PUZZLE[2..]);
        let unsolvable = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
        let output = run(&format!("{conflicting}\n{unsolvable}\n"), 1);
        let lines: Vec<&str> = output.lines().collect();
        assert!(
            lines[0].starts_with("error\tconflicting givens (0-based row and column): r0c0=5 r0c1=5"),
            "{}",
            lines[0]
        );
        assert_eq!(lines[1], "error\tunsolvable: the givens do not conflict, but no solution exists");
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
}

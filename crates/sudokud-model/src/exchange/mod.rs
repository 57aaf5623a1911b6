//! Puzzles as the tools the variant community shares them with write them: read into a puzzle
//! sudokud holds (its givens and rules), and written back. A rule the format has but sudokud
//! lacks is an error that names it, never dropped.
//!
//! - [`iss`]: the Interactive Sudoku Solver's constraint strings (its links and collections).
//!
//! [`read()`] tells the formats apart by their look, so a request or a command line takes any of
//! them in one place; [`write()`] writes one, with the link that opens it.

pub mod iss;

use crate::constraints::Constraints;
use crate::grid::Grid;
use crate::member::{Choice, choice_traits};

/// A puzzle as another tool's link or file carries it: its givens (and with them its shape) and
/// the rules it is played by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedPuzzle {
    /// The given digits, 0 for a blank.
    pub givens: Grid,
    /// The variant's rules; empty for classic Sudoku.
    pub constraints: Constraints,
}

/// A format puzzles are shared in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SharedFormat {
    /// The Interactive Sudoku Solver's constraint string; its link opens the solver's page.
    Iss,
}

impl Choice for SharedFormat {
    const KIND: &'static str = "format";
    const ALL: &'static [SharedFormat] = &[SharedFormat::Iss];

    fn name(self) -> &'static str {
        match self {
            SharedFormat::Iss => "iss",
        }
    }
}

choice_traits!(SharedFormat);

/// The page an ISS link opens, its constraint string the `q` parameter.
pub const ISS_PAGE: &str = "https://sigh.github.io/Interactive-Sudoku-Solver/";

/// Why a text is no puzzle sudokud can read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReadError {
    /// The text is in a format, but not a puzzle sudokud holds.
    #[error(transparent)]
    Iss(#[from] iss::IssError),
    /// No format the text looks like.
    #[error(
        "no shared puzzle format: expected an Interactive Sudoku Solver constraint string (`.~R1C1_5...`) or its link (`{ISS_PAGE}?q=...`)"
    )]
    Unknown,
}

/// The puzzle `text` holds, in whichever format it is: an ISS constraint string, or an ISS link.
pub fn read(text: &str) -> Result<SharedPuzzle, ReadError> {
    let text = text.trim();
    if text.starts_with('.') {
        return Ok(iss::read(text)?);
    }
    if let Some((_, query)) = text.strip_prefix(ISS_PAGE).and_then(|rest| rest.split_once('?'))
        && let Some(string) = query.split('&').find_map(|pair| pair.strip_prefix("q="))
    {
        return Ok(iss::read(&percent_decoded(string))?);
    }
    Err(ReadError::Unknown)
}

/// A puzzle written in a format: its text, and the link that opens it in the format's tool.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// The puzzle in the format.
    pub text: String,
    /// A link that opens it.
    pub link: String,
}

/// `puzzle` in `format`, or why the format cannot hold it.
pub fn write(puzzle: &SharedPuzzle, format: SharedFormat) -> Result<Written, iss::IssError> {
    match format {
        SharedFormat::Iss => {
            let text = iss::write(puzzle)?;
            // A constraint string is letters, digits and `.~_-`, all safe in a query.
            let link = format!("{ISS_PAGE}?q={text}");
            Ok(Written { text, link })
        }
    }
}

/// A query parameter's value decoded: `%7E` as `~`, `+` as a space; a `%` not followed by two hex
/// digits is kept as it is.
fn percent_decoded(value: &str) -> String {
    let bytes = value.as_bytes();
    let hex = |at: usize| bytes.get(at).and_then(|&byte| char::from(byte).to_digit(16));
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        match (bytes[at], hex(at + 1), hex(at + 2)) {
            (b'%', Some(high), Some(low)) => {
                out.push((high * 16 + low) as u8);
                at += 2;
            }
            (b'+', ..) => out.push(b' '),
            (byte, ..) => out.push(byte),
        }
        at += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_string_and_its_link_read_the_same_puzzle() {
        let string = ".~R1C1_5~R1C2_3.Cage~21~R1C3~R1C4";
        let puzzle = read(string).unwrap();
        let written = write(&puzzle, SharedFormat::Iss).unwrap();
        assert_eq!(written.text, string);
        assert_eq!(written.link, format!("{ISS_PAGE}?q={string}"));
        assert_eq!(read(&written.link), Ok(puzzle.clone()));
        let encoded = format!("  {ISS_PAGE}?v=2&q=.%7ER1C1_5%7ER1C2_3+.Cage~21~R1C3~R1C4&x=1 ");
        assert_eq!(read(&encoded), Ok(puzzle));
    }

    #[test]
    fn other_texts_are_no_format() {
        for text in ["", "53..7....", "https://example.com/?q=.~R1C1_5", "{\"size\":9}"] {
            assert_eq!(read(text), Err(ReadError::Unknown), "{text}");
        }
        assert_eq!(percent_decoded("%7e%zz%4"), "~%zz%4");
    }
}

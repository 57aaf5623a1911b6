//! The three representations a board may be written in, by name.

use crate::member::{Choice, choice_traits};
use crate::shape::symbol;

/// How a board was written in a request, so the answer can be written the same way. By name
/// (`strings`, `text`, `numbers`) where a request chooses the representation of boards it does
/// not send.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// LeetCode 37 style: N arrays of N one-character strings, `"1"`-`"9"`, then `"A"`-`"P"`
    /// past 9, or `"."`.
    Strings,
    /// One string of N x N cells, `1`-`9` then `A`-`P`, and `.` or `0`; whitespace between
    /// cells is ignored.
    #[default]
    Text,
    /// N arrays of N integers 0 to N, `0` or `null` for blank.
    Numbers,
}

impl Format {
    /// Every representation, as the API lists them.
    pub const ALL: [Format; 3] = [Format::Text, Format::Strings, Format::Numbers];

    /// What the cells of a board in this representation are, for messages: `strings`.
    pub fn cells(self) -> &'static str {
        match self {
            Format::Strings => "strings",
            Format::Text => "characters of one string",
            Format::Numbers => "numbers",
        }
    }

    /// What one cell of a board of `size` in this representation may be, for messages.
    pub fn cell(self, size: usize) -> String {
        let last = symbol(size as u8);
        match (self, size) {
            (Format::Strings, ..=9) => format!("\"1\" to \"{last}\", or \".\" for blank"),
            (Format::Strings, 10) => "\"1\" to \"9\" or \"A\", or \".\" for blank".to_owned(),
            (Format::Strings, _) => format!("\"1\" to \"9\" or \"A\" to \"{last}\", or \".\" for blank"),
            (Format::Text, ..=9) => format!("a digit 1-{last}, or '.' or '0' for blank"),
            (Format::Text, 10) => "a digit 1-9 or the letter A, or '.' or '0' for blank".to_owned(),
            (Format::Text, _) => format!("a digit 1-9 or a letter A-{last}, or '.' or '0' for blank"),
            (Format::Numbers, _) => format!("an integer 0-{size} (0 or null for blank)"),
        }
    }
}

impl Choice for Format {
    const KIND: &'static str = "format";
    const ALL: &'static [Format] = &Format::ALL;

    fn name(self) -> &'static str {
        match self {
            Format::Strings => "strings",
            Format::Text => "text",
            Format::Numbers => "numbers",
        }
    }
}

choice_traits!(Format);

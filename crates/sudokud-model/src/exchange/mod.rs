//! Puzzles as the tools the variant community shares them with write them: read into a puzzle
//! sudokud holds (its givens and rules), and written back. A rule the format has but sudokud
//! lacks is an error that names it, never dropped.
//!
//! - [`iss`]: the Interactive Sudoku Solver's constraint strings (its links and collections).
//! - [`fpuzzles`]: f-puzzles' data, which f-puzzles links and SudokuPad links carry.
//! - [`killer_line`]: the forums' one-line killers (cages and their sums, 81 characters), read only.
//!
//! [`read()`] tells the formats apart by their look, so a request or a command line takes any of
//! them in one place; [`write()`] writes one, with the link that opens it.

pub mod fpuzzles;
pub mod iss;
pub mod killer_line;

use crate::constraints::{Constraints, Place, Whispers};
use crate::grid::Grid;
use crate::member::{Choice, choice_traits};
use crate::shape::Shape;

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
    /// f-puzzles' data (compressed, in base64); its link opens f-puzzles.
    FPuzzles,
    /// The same data; its link opens SudokuPad.
    SudokuPad,
    /// The Interactive Sudoku Solver's constraint string; its link opens the solver's page.
    Iss,
}

impl Choice for SharedFormat {
    const KIND: &'static str = "format";
    const ALL: &'static [SharedFormat] = &[SharedFormat::FPuzzles, SharedFormat::SudokuPad, SharedFormat::Iss];

    fn name(self) -> &'static str {
        match self {
            SharedFormat::FPuzzles => "f-puzzles",
            SharedFormat::SudokuPad => "sudokupad",
            SharedFormat::Iss => "iss",
        }
    }
}

choice_traits!(SharedFormat);

/// The page an ISS link opens, its constraint string the `q` parameter.
pub const ISS_PAGE: &str = "https://sigh.github.io/Interactive-Sudoku-Solver/";

/// An f-puzzles link, before its data.
pub const FPUZZLES_LINK: &str = "https://www.f-puzzles.com/?load=";

/// A SudokuPad link of f-puzzles data, before the data.
pub const SUDOKUPAD_LINK: &str = "https://sudokupad.app/fpuzzles";

/// Why a text is no puzzle sudokud can read, or a puzzle cannot be written in a format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ShareError {
    /// The text does not follow its format.
    #[error("not {format}: {why}")]
    Malformed {
        /// The format, in words: "an ISS constraint string".
        format: &'static str,
        /// What is wrong.
        why: String,
    },
    /// A rule of the format that sudokud does not have.
    #[error("the {tool} rule `{rule}` ({what}) is not one sudokud has")]
    Unsupported {
        /// The tool whose rule it is: "ISS".
        tool: &'static str,
        /// The rule as the format names it (`Whisper`; `Given` for givens).
        rule: String,
        /// What it is, in words.
        what: String,
    },
    /// A puzzle the format cannot hold (a grid past 16x16, boxes of another shape than the
    /// format's).
    #[error("{format} cannot hold {what}")]
    Inexpressible {
        /// The format, in words.
        format: &'static str,
        /// What it cannot hold.
        what: String,
    },
    /// No format the text looks like.
    #[error(
        "no shared puzzle format: expected an f-puzzles link (`{FPUZZLES_LINK}...`), a SudokuPad link of f-puzzles data (`{SUDOKUPAD_LINK}...`), f-puzzles data (`N4Ig...`) or JSON (`{{\"size\":9,...}}`), an Interactive Sudoku Solver constraint string (`.~R1C1_5...`) or its link (`{ISS_PAGE}?q=...`), or a one-line killer (81 characters: cage sums and arrows, `S<J<<O<<K...`)"
    )]
    Unknown,
}

/// The puzzle `text` holds, in whichever format it is: an f-puzzles or SudokuPad link, f-puzzles
/// data (compressed, as the links carry it) or JSON, an ISS constraint string or its link, or a
/// one-line killer.
pub fn read(text: &str) -> Result<SharedPuzzle, ShareError> {
    let text = text.trim();
    // Before ISS's strings: a one-line killer may start with a `.` arrow.
    if killer_line::looks_like(text) {
        return killer_line::read(text);
    }
    if text.starts_with('.') {
        return iss::read(text);
    }
    if text.starts_with('{') {
        return fpuzzles::read_json(text);
    }
    // The data alone, as `write` gives it for f-puzzles and SudokuPad.
    if !text.is_empty() && text.bytes().all(|byte| byte.is_ascii_alphanumeric() || b"+/=".contains(&byte)) {
        return fpuzzles::decode(text);
    }
    if let Some((_, query)) = text.strip_prefix(ISS_PAGE).and_then(|rest| rest.split_once('?'))
        && let Some(string) = query.split('&').find_map(|pair| pair.strip_prefix("q="))
    {
        return iss::read(&percent_decoded(string, true));
    }
    let link = text.strip_prefix("https://").or_else(|| text.strip_prefix("http://")).unwrap_or(text);
    let link = link.strip_prefix("www.").unwrap_or(link);
    if let Some(query) = link.strip_prefix("f-puzzles.com/").and_then(|rest| rest.split_once('?')).map(|(_, q)| q)
        && let Some(data) = query.split('&').find_map(|pair| pair.strip_prefix("load="))
    {
        return fpuzzles::decode(&percent_decoded(data, false));
    }
    if let Some(rest) = link.strip_prefix("sudokupad.app/") {
        let rest = rest.strip_prefix("?puzzleid=").unwrap_or(rest);
        return match rest.strip_prefix("fpuzzles") {
            Some(data) => fpuzzles::decode(&percent_decoded(data.split(['&', '#']).next().unwrap_or(data), false)),
            None => Err(ShareError::Malformed {
                format: "a SudokuPad link of f-puzzles data",
                why: "its puzzle is in SudokuPad's own form or kept on its server (a short name); sudokud reads \
                      the links that carry f-puzzles data, `https://sudokupad.app/fpuzzles...` (SudokuPad's \
                      \"Open in f-puzzles\" makes one)"
                    .to_owned(),
            }),
        };
    }
    Err(ShareError::Unknown)
}

/// The largest grid the formats here hold: a coordinate is one base-17 digit in ISS's strings,
/// and f-puzzles draws up to 16x16.
const LARGEST: usize = 16;

/// Whether `format` can hold grids of `shape`: every format here reaches 16x16, each size with
/// its default boxes.
fn check_writable(shape: Shape, format: &'static str) -> Result<(), ShareError> {
    let size = shape.size();
    let what = if size > LARGEST {
        format!("a {size}x{size} grid: it reaches 16x16")
    } else if Shape::default_for(size) != Some(shape) {
        let (high, wide) = (shape.box_rows(), shape.box_cols());
        format!("boxes {high} high and {wide} wide: its {size}x{size} boxes are the other way round")
    } else {
        return Ok(());
    };
    Err(ShareError::Inexpressible { format, what })
}

/// The whispers lines of a shared line that may pass through a cell again (the tools draw
/// loops so): cut where a cell comes again, each piece starting at the cell before it, so that
/// every pair of neighbours along the line is a pair of one piece and no piece repeats a cell. A
/// cell written twice in a row is no step and no loop: it stays, for the rules to refuse, and
/// the pieces read back as they are.
fn whispers_lines(cells: &[Place], difference: Option<u64>) -> Vec<Whispers> {
    let mut lines: Vec<Whispers> = Vec::new();
    let mut line: Vec<Place> = Vec::new();
    for &cell in cells {
        if line.contains(&cell) && line.last() != Some(&cell) {
            let last = *line.last().expect("a cell that comes again follows another");
            lines.push(Whispers { line: std::mem::replace(&mut line, vec![last]), difference });
        }
        line.push(cell);
    }
    lines.push(Whispers { line, difference });
    lines
}

/// Each item's number, from 0, in the order the distinct items first appear: a jigsaw's cells'
/// region ids as the formats number regions.
fn numbered<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<usize> {
    let mut seen: Vec<T> = Vec::new();
    items
        .into_iter()
        .map(|item| {
            seen.iter().position(|known| *known == item).unwrap_or_else(|| {
                seen.push(item);
                seen.len() - 1
            })
        })
        .collect()
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
pub fn write(puzzle: &SharedPuzzle, format: SharedFormat) -> Result<Written, ShareError> {
    let (text, link) = match format {
        SharedFormat::Iss => (iss::write(puzzle)?, format!("{ISS_PAGE}?q=")),
        SharedFormat::FPuzzles => (fpuzzles::encode(puzzle)?, FPUZZLES_LINK.to_owned()),
        SharedFormat::SudokuPad => (fpuzzles::encode(puzzle)?, SUDOKUPAD_LINK.to_owned()),
    };
    Ok(Written { link: link + &percent_encoded(&text), text })
}

/// `text` safe in a link: every byte but ASCII letters, digits and `.~_-` as `%XX` (base64's `+`,
/// `/` and `=`, a jigsaw layout's other characters), so no reader takes it for the link's syntax.
fn percent_encoded(text: &str) -> String {
    percent_encoded_but(text, b".~_-")
}

/// `text` with every byte but ASCII letters, digits and those of `kept` as `%XX`.
pub(super) fn percent_encoded_but(text: &str, kept: &[u8]) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || kept.contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// A link's part decoded: `%7E` as `~`, and `+` as a space when `plus_is_space` (a query's form
/// encoding; base64's `+` stays); a `%` not followed by two hex digits is kept as it is.
fn percent_decoded(value: &str, plus_is_space: bool) -> String {
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
            (b'+', ..) if plus_is_space => out.push(b' '),
            (byte, ..) => out.push(byte),
        }
        at += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::{
        Between, Cage, Diagonals, DigitPair, Direction, End, LittleKiller, Place, Regions, Sandwich, Whispers, XSum,
    };
    use crate::random::SplitMix64;

    fn place(row: u64, col: u64) -> Place {
        Place(row, col)
    }

    /// Random puzzles of every rule the format and sudokud share, as plain data (the rules need
    /// not make a solvable puzzle to be written and read).
    pub(super) fn random_puzzle(shape: Shape, random: &mut SplitMix64) -> SharedPuzzle {
        let size = shape.size() as u64;
        let mut cell = || place(random.below(size as usize) as u64, random.below(size as usize) as u64);
        let cells = |cell: &mut dyn FnMut() -> Place, count: usize| (0..count).map(|_| cell()).collect::<Vec<_>>();
        let mut constraints = Constraints::default();
        let pairs = |cell: &mut dyn FnMut() -> Place| -> Vec<[Place; 2]> {
            (0..2).map(|_| cell()).filter(|at| at.1 + 1 < size).map(|at| [at, place(at.0, at.1 + 1)]).collect()
        };
        constraints.kropki.white = pairs(&mut cell);
        constraints.kropki.black = pairs(&mut cell);
        constraints.xv.x = pairs(&mut cell);
        constraints.xv.v = pairs(&mut cell);
        // Signs both ways: greater on the left in even rows, on the right in odd ones.
        constraints.greater_than = pairs(&mut cell)
            .into_iter()
            .map(|[left, right]| match left.0 % 2 {
                0 => crate::constraints::GreaterThan { greater: left, less: right },
                _ => crate::constraints::GreaterThan { greater: right, less: left },
            })
            .collect();
        constraints.cages =
            vec![Cage { cells: cells(&mut cell, 3), sum: Some(12) }, Cage { cells: cells(&mut cell, 2), sum: None }];
        constraints.thermometers = vec![cells(&mut cell, 4)];
        // A difference drawn as a cell is: its row, 0 to N - 1, plus one.
        let difference = cell().0 % (size - 1) + 1;
        // A clue at the end of its diagonal ISS names it by, which both formats write as it is
        // (ISS writes a clue at the other end at its own: iss.rs tests that).
        let Place(edge, way) = cell();
        let edge = edge % (size - 1);
        let (start, direction) = match way % 4 {
            0 => (place(edge, 0), Direction::DownRight),
            1 => (place(0, edge + 1), Direction::DownLeft),
            2 => (place(edge.max(1), size - 1), Direction::UpLeft),
            _ => (place(size - 1, edge.max(1)), Direction::UpRight),
        };
        let sum = cell().0 * size + cell().1;
        constraints.little_killers = vec![LittleKiller { sum, start, direction }];
        // A sandwich at the line's start, where ISS draws every one (iss.rs tests the end).
        let Place(line, kind) = cell();
        let (row, column) = if kind % 2 == 0 { (Some(line), None) } else { (None, Some(line)) };
        constraints.sandwiches = vec![Sandwich { sum: kind * 3, row, column, from: End::Start }];
        // An X-sum at either end.
        let Place(line, kind) = cell();
        let (row, column) = if kind % 2 == 0 { (Some(line), None) } else { (None, Some(line)) };
        let from = if kind % 4 < 2 { End::Start } else { End::End };
        constraints.x_sums = vec![XSum { sum: kind + 1, row, column, from }];
        // A shared line through a cell again is read as lines cut there: these pass each once.
        let mut line = |count: usize| {
            let mut line: Vec<Place> = Vec::new();
            for place in cells(&mut cell, count) {
                if !line.contains(&place) {
                    line.push(place);
                }
            }
            line
        };
        constraints.palindromes = vec![line(4)];
        constraints.renbans = vec![line(3), line(2)];
        constraints.between_lines = vec![line(4)];
        // A lockout line of the size's own difference is read back without one.
        let own = crate::family::lockout_lines::default_difference(size as usize);
        constraints.lockout_lines = vec![
            crate::constraints::LockoutLine { line: line(3), difference: None },
            crate::constraints::LockoutLine { line: line(2), difference: Some(own % (size - 1) + 1) },
        ];
        constraints.modular_lines = vec![line(3)];
        constraints.entropic_lines = vec![line(4)];
        // A shaft never passes its own bulb (f-puzzles draws it from there).
        let bulb = line(2);
        let shaft: Vec<Place> = line(3).into_iter().filter(|place| !bulb.contains(place)).collect();
        if !shaft.is_empty() {
            constraints.arrows = vec![crate::constraints::Arrow { bulb, line: shaft }];
        }
        constraints.whispers = vec![
            Whispers { line: line(3), difference: None },
            Whispers { line: line(2), difference: Some(difference) },
        ];
        // A circle on the corner below and right of a cell not on the last row or column.
        let Place(row, col) = cell();
        let digits = (0..1 + row % 4).map(|_| 1 + cell().1).collect();
        constraints.quadruples =
            vec![crate::constraints::Quadruple { top_left: place(row % (size - 1), col % (size - 1)), digits }];
        constraints.extra_regions = vec![cells(&mut cell, size as usize)];
        // Relations of any cells (none twice), their tables each pair once in order as keys read
        // back, named or not (ISS writes names URI-encoded, `.` and `~` too).
        for (between, name) in [(Between::Neighbours, None), (Between::EveryTwo, Some("1:3 .~%é"))] {
            let mut cells = cells(&mut cell, 3);
            cells.dedup_by(|later, earlier| later == earlier);
            cells.sort_by_key(|&Place(row, col)| (row, col));
            cells.dedup();
            let mut allowed: Vec<DigitPair> =
                (0..4).map(|_| cell()).map(|Place(first, second)| DigitPair(first + 1, second + 1)).collect();
            allowed.sort_by_key(|&DigitPair(first, second)| (first, second));
            allowed.dedup();
            let name = name.map(str::to_owned);
            constraints.relations.push(crate::constraints::CustomRelation { cells, between, allowed, name });
        }
        constraints.even = cells(&mut cell, 2);
        constraints.odd = cells(&mut cell, 1);
        constraints.diagonals =
            [None, Some(Diagonals::Main), Some(Diagonals::Anti), Some(Diagonals::Both)][random.below(4)];
        (constraints.anti_knight, constraints.anti_king) = (random.below(2) == 0, random.below(2) == 0);
        constraints.non_consecutive = random.below(2) == 0;
        (constraints.kropki.all_given, constraints.xv.all_given) = (random.below(2) == 0, random.below(2) == 0);
        if random.below(2) == 0 {
            let ids: String =
                (0..shape.cells()).map(|index| char::from_digit((index % size as usize) as u32, 17).unwrap()).collect();
            constraints.regions = Some(Regions::Line(ids));
        }
        // Disjoint groups need the boxes.
        constraints.disjoint_groups = constraints.regions.is_none() && random.below(2) == 0;
        (constraints.global_entropy, constraints.global_mod) = (random.below(3) == 0, random.below(3) == 0);
        constraints.anti_taxicab = random.below(2) == 0;
        let givens =
            (0..shape.cells()).map(|_| if random.below(3) == 0 { 1 + random.below(size as usize) as u8 } else { 0 });
        SharedPuzzle { givens: Grid::new(shape, givens.collect()).unwrap(), constraints }
    }

    #[test]
    fn a_line_through_a_cell_again_is_cut_into_lines_of_the_same_neighbours() {
        let cells = [place(0, 0), place(0, 1), place(1, 1), place(1, 0), place(0, 1), place(0, 2), place(0, 1)];
        let lines = whispers_lines(&cells, Some(4));
        let pieces: Vec<&[Place]> = lines.iter().map(|whispers| &whispers.line[..]).collect();
        assert_eq!(
            pieces,
            [&cells[..4], &cells[3..6], &cells[5..]],
            "each piece repeats no cell, and every step of the line is a step of one piece"
        );
        assert!(lines.iter().all(|whispers| whispers.difference == Some(4)));
        assert_eq!(whispers_lines(&cells[..3], None).len(), 1);
        // Written back and read again, the pieces stay as they are, a doubled cell too (the
        // fuzzer's `R7C1~R7C1~R7C2~R8C3`).
        let doubled = [place(6, 0), place(6, 0), place(6, 1), place(7, 2), place(6, 1)];
        let pieces = whispers_lines(&doubled, None);
        assert_eq!(pieces.len(), 2, "{pieces:?}");
        for piece in &pieces {
            assert_eq!(whispers_lines(&piece.line, None), std::slice::from_ref(piece));
        }
    }

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
    fn f_puzzles_data_its_links_and_sudokupad_links_read_the_same_puzzle() {
        let puzzle = read(".~R1C1_5~R1C2_3.Cage~21~R1C3~R1C4.Thermo~R2C1~R2C2").unwrap();
        let data = fpuzzles::encode(&puzzle).unwrap();
        for format in [SharedFormat::FPuzzles, SharedFormat::SudokuPad] {
            let written = write(&puzzle, format).unwrap();
            assert_eq!(written.text, data);
            let escaped = written.link.trim_start_matches(FPUZZLES_LINK).trim_start_matches(SUDOKUPAD_LINK);
            assert!(!escaped.contains(['+', '/', '=']), "{escaped}");
            assert_eq!(read(&written.link), Ok(puzzle.clone()), "{}", written.link);
        }
        assert_eq!(read(&format!("f-puzzles.com/?load={data}")), Ok(puzzle.clone()));
        assert_eq!(read(&format!("https://sudokupad.app/?puzzleid=fpuzzles{data}")), Ok(puzzle.clone()));
        assert_eq!(read(&data), Ok(puzzle.clone()));
        assert_eq!(read(&fpuzzles::write_json(&puzzle).unwrap().to_string()), Ok(puzzle));
        let short = read("https://sudokupad.app/abc123").unwrap_err().to_string();
        assert!(
            short.starts_with("not a SudokuPad link of f-puzzles data: its puzzle is in SudokuPad's own form"),
            "{short}"
        );
    }

    #[test]
    fn puzzles_no_format_can_hold_are_refused_on_writing() {
        let refused = |box_rows, box_cols, format| {
            let shape = Shape::new(box_rows, box_cols).unwrap();
            let puzzle = SharedPuzzle { givens: Grid::empty(shape), constraints: Constraints::default() };
            write(&puzzle, format).unwrap_err().to_string()
        };
        for format in SharedFormat::ALL.iter().copied() {
            let big = refused(4, 5, format);
            assert!(big.ends_with(" cannot hold a 20x20 grid: it reaches 16x16"), "{big}");
            let tall = refused(3, 2, format);
            assert!(
                tall.ends_with("cannot hold boxes 3 high and 2 wide: its 6x6 boxes are the other way round"),
                "{tall}"
            );
        }
        assert_eq!(
            refused(5, 5, SharedFormat::Iss),
            "an ISS constraint string cannot hold a 25x25 grid: it reaches 16x16"
        );
    }

    #[test]
    fn a_layout_of_any_characters_survives_its_link() {
        // Found by fuzzing: a `%` of the layout read back as an escape.
        let puzzle = read(".Shape~4x4.NoBoxes.Jigsaw~%%&&%%&&#+#+#+#+").unwrap();
        let written = write(&puzzle, SharedFormat::Iss).unwrap();
        assert_eq!(read(&written.link), Ok(puzzle), "{}", written.link);
    }

    #[test]
    fn other_texts_are_no_format() {
        for text in ["", "53..7....", "https://example.com/?q=.~R1C1_5", "f-puzzles.com", "R1C1 = 5"] {
            assert_eq!(read(text), Err(ShareError::Unknown), "{text}");
        }
        assert_eq!(percent_decoded("%7e%zz%4+", true), "~%zz%4 ");
        assert_eq!(percent_decoded("a+b%2B", false), "a+b+");
        let text = "a+b/c=d%e&f#g h.~_-é";
        assert_eq!(percent_encoded(text), "a%2Bb%2Fc%3Dd%25e%26f%23g%20h.~_-%C3%A9");
        assert_eq!(percent_decoded(&percent_encoded(text), false), text);
    }
}

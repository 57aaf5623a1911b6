//! Arbitrary text as a shared puzzle (an ISS string or link, f-puzzles data, JSON or links), read
//! as `puzzle` in a request is read: no panic, and a puzzle read from an ISS string or f-puzzles
//! JSON is written back in that format to text that reads back as the same puzzle.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sudokud::exchange::{self, SharedFormat, fpuzzles};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(puzzle) = exchange::read(text) else { return };
    let text = text.trim();
    if text.starts_with('.') {
        let written = exchange::write(&puzzle, SharedFormat::Iss).expect("what was read as ISS writes as ISS");
        assert_eq!(exchange::read(&written.link), Ok(puzzle), "{}", written.link);
    } else if text.starts_with('{') {
        let json = fpuzzles::write_json(&puzzle).expect("what was read as f-puzzles writes as f-puzzles");
        assert_eq!(fpuzzles::read_json(&json.to_string()), Ok(puzzle), "{json}");
    }
});

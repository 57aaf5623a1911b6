//! Arbitrary bytes as a `{"board": ...}` or `{"puzzle": ...}` request body, read as the server
//! reads it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde::de::IgnoredAny;
use serde_json::Value;
use sudokud::board::{Format, FormattedGrid};
use sudokud::exchange;
use sudokud::http::{ApiError, parse_board_request};
use sudokud::puzzle::Puzzle;
use sudokud::sizes::AnyGrid;

fuzz_target!(|body: &[u8]| {
    let parsed = parse_board_request(body);
    // JSON is UTF-8 text in the JSON grammar. serde_json skips ignored values without a depth
    // limit but without a UTF-8 check either, so both are asked.
    let is_json = std::str::from_utf8(body).is_ok() && serde_json::from_slice::<IgnoredAny>(body).is_ok();
    match &parsed {
        Ok((puzzle, format)) => {
            assert!(is_json, "accepted a body that is not JSON");
            accepted(&puzzle.grid(), *format, body);
        }
        Err(ApiError::InvalidBoard(error)) => {
            let pointer = error.json_pointer();
            assert!(
                pointer.is_empty() || pointer.starts_with("/board") || pointer == "/box",
                "pointer {pointer:?} for {error}"
            );
            assert!(is_json, "invalid-board for a body that is not JSON: {error}");
        }
        Err(ApiError::InvalidRequest(message)) => assert!(is_json, "invalid-request for non-JSON: {message}"),
        Err(ApiError::MalformedJson(message)) => assert!(!is_json, "malformed-json for JSON: {message}"),
        Err(other) => panic!("a body alone cannot cause {other:?}"),
    }
});

/// An accepted board is a JSON object whose `board` writes back, in its own format and with its
/// box, to itself.
fn accepted(grid: &AnyGrid, format: Format, body: &[u8]) {
    let shape = grid.shape();
    let size = shape.size();
    assert!(grid.cells().iter().all(|&cell| usize::from(cell) <= size));
    let written = serde_json::to_string(&FormattedGrid { grid: grid.clone(), format }).unwrap();
    let again = parse_board_request(format!("{{\"board\":{written},\"box\":\"{shape}\"}}").as_bytes());
    let again = again.ok().map(|(puzzle, format)| (puzzle.grid(), format));
    assert_eq!(again, Some((grid.clone(), format)), "{written} does not read back");
    // serde_json's tree stops at 128 levels, which an ignored member may pass.
    let Ok(tree) = serde_json::from_slice::<Value>(body) else { return };
    if let Some(shared) = tree["puzzle"].as_str() {
        // A shared puzzle is answered in text and holds the board itself.
        assert_eq!(format, Format::Text);
        let read = exchange::read(shared).expect("an accepted shared puzzle reads");
        let puzzle = Puzzle::from_shared(read).expect("an accepted shared puzzle holds");
        assert_eq!(&puzzle.grid(), grid, "the request and the exchange reader disagree");
        return;
    }
    let member = &tree["board"];
    match format {
        Format::Text => {
            let text = member.as_str().expect("a text board is a string");
            let line = AnyGrid::parse(text, Some(shape));
            assert_eq!(line.ok().as_ref(), Some(grid), "the JSON and line readers disagree");
        }
        Format::Strings | Format::Numbers => {
            let rows = member.as_array().expect("a grid board is an array");
            assert_eq!(rows.len(), size);
            assert!(rows.iter().all(|row| row.as_array().is_some_and(|cells| cells.len() == size)));
        }
    }
}

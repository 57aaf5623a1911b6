//! Arbitrary bytes as a `{"board": ...}` request body, read as the server reads it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use sudokud::board::{Board, Format, FormattedBoard};
use sudokud::http::{ApiError, parse_board_request};

fuzz_target!(|body: &[u8]| {
    let parsed = parse_board_request(body);
    // serde_json's own tree is the reference for what is JSON at all.
    let tree = serde_json::from_slice::<Value>(body);
    match &parsed {
        Ok((board, format)) => accepted(board, *format, tree.expect("an accepted body is JSON")),
        Err(ApiError::InvalidBoard(error)) => {
            let pointer = error.json_pointer();
            assert!(pointer.is_empty() || pointer.starts_with("/board"), "pointer {pointer:?} for {error}");
            assert!(tree.is_ok(), "invalid-board for a body that is not JSON: {error}");
        }
        Err(ApiError::InvalidRequest(message)) => assert!(tree.is_ok(), "invalid-request for non-JSON: {message}"),
        Err(ApiError::MalformedJson(message)) => assert!(tree.is_err(), "malformed-json for JSON: {message}"),
        Err(other) => panic!("a body alone cannot cause {other:?}"),
    }
});

/// An accepted board is a JSON object whose `board` writes back, in its own format, to itself.
fn accepted(board: &Board, format: Format, tree: Value) {
    assert!(board.cells().iter().all(|&cell| cell <= 9));
    let written = serde_json::to_string(&FormattedBoard { board: *board, format }).unwrap();
    let again = parse_board_request(format!("{{\"board\":{written}}}").as_bytes());
    assert_eq!(again.ok(), Some((*board, format)), "{written} does not read back");
    let member = &tree["board"];
    match format {
        Format::Text => {
            let text = member.as_str().expect("a text board is a string");
            assert_eq!(Board::parse_line(text).ok(), Some(*board), "the JSON and line readers disagree");
        }
        Format::Strings | Format::Numbers => {
            let rows = member.as_array().expect("a grid board is an array");
            assert_eq!(rows.len(), 9);
            assert!(rows.iter().all(|row| row.as_array().is_some_and(|cells| cells.len() == 9)));
        }
    }
}

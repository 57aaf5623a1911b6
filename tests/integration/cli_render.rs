//! `sudokud render` and `sudokud booklet` end to end: the files they write are the ones the HTTP
//! API answers for the same request, byte for byte, and every refusal exits 2 saying why.

use std::process::{Command, Output};

use axum::body::to_bytes;
use axum::http::StatusCode;
use serde_json::{Value, json};
use sudokud::board::EXAMPLE_PUZZLE as PUZZLE;
use tower::ServiceExt;

use crate::common::http::{config, post_json, router};

const BIN: &str = env!("CARGO_BIN_EXE_sudokud");

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

/// What the API answers `body` at `path`, which must succeed.
async fn api(path: &str, body: Value) -> Vec<u8> {
    let response = router(&config()).oneshot(post_json(path, body.to_string())).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    to_bytes(response.into_body(), 1 << 26).await.unwrap().to_vec()
}

fn temp_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("sudokud-cli-{}-{name}", std::process::id()))
}

#[tokio::test]
async fn render_writes_what_the_api_answers() {
    let output = run(&["render", PUZZLE, "--solution", "--title", "LeetCode 37", "--width", "400", "--format", "png"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let body = json!({ "board": PUZZLE, "solution": true, "title": "LeetCode 37", "width": 400, "format": "png" });
    assert!(output.stdout == api("/v1/render", body).await, "the CLI's PNG differs from the API's");
    // The format follows the output file's extension.
    let file = temp_file("drawing.pdf");
    let output = run(&["render", PUZZLE, "--candidates", "-o", file.to_str().unwrap()]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let pdf = std::fs::read(&file).unwrap();
    std::fs::remove_file(&file).unwrap();
    assert_eq!(pdf, api("/v1/render", json!({ "board": PUZZLE, "candidates": true, "format": "pdf" })).await);
    // A player's marks in the one-line form, r1c3's (cell 2, characters 18 to 26) crossed out
    // but for its first candidate.
    let answer: Value = serde_json::from_slice(&api("/v1/candidates", json!({ "board": PUZZLE })).await).unwrap();
    let mut marks = answer["pencil_marks"].as_str().unwrap().to_owned();
    let first = marks[18..27].find(|ch| ch != '.').unwrap();
    marks.replace_range(
        18..27,
        &format!("{}{}{}", ".".repeat(first), &marks[18 + first..19 + first], ".".repeat(8 - first)),
    );
    assert_ne!(marks, answer["pencil_marks"].as_str().unwrap());
    let output = run(&["render", PUZZLE, "--marks", &marks]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stdout == api("/v1/render", json!({ "board": PUZZLE, "candidates": marks })).await);
}

#[tokio::test]
async fn booklet_writes_what_the_api_answers() {
    let args = ["booklet", "--count", "6", "--difficulty", "easy", "--seed", "3", "--per-page", "6", "--title", "Easy"];
    let output = run(&args);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let body = json!({ "count": 6, "difficulty": "easy", "seed": 3, "per_page": 6, "title": "Easy" });
    assert!(output.stdout == api("/v1/booklet", body).await, "the CLI's booklet differs from the API's");
    // Puzzles from a file: comments and blank lines skipped.
    let file = temp_file("puzzles.txt");
    std::fs::write(&file, format!("# two puzzles\n{PUZZLE}\n\n{PUZZLE}\tfrom generate\n")).unwrap();
    let output = run(&["booklet", file.to_str().unwrap(), "--no-answers", "--paper", "letter"]);
    std::fs::remove_file(&file).unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let body = json!({ "puzzles": [PUZZLE, PUZZLE], "answers": false, "paper": "letter" });
    assert!(output.stdout == api("/v1/booklet", body).await);
}

/// Booklets of a variant, made or given, are the API's, byte for byte; a file's puzzles are of
/// one size, as the API's are.
#[tokio::test]
async fn a_variant_booklet_is_what_the_api_answers() {
    let output = run(&["booklet", "--count", "2", "--difficulty", "easy", "--variant", "killer", "--seed", "3"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let body = json!({ "count": 2, "difficulty": "easy", "variant": "killer", "seed": 3 });
    assert!(output.stdout == api("/v1/booklet", body).await, "the CLI's killer booklet differs from the API's");
    // A Sudoku X with one solution under its diagonals only.
    let x = ".....856.1.......2.23.....7...4......7..5..3......6...5.....78.8.......9.342.....";
    let file = temp_file("x.txt");
    std::fs::write(&file, format!("{x}\n")).unwrap();
    let output = run(&["booklet", file.to_str().unwrap(), "--variant", "x"]);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(output.stdout == api("/v1/booklet", json!({ "puzzles": [x], "variant": "x" })).await);
    std::fs::write(&file, format!("{x}\n.14.........2..3\n")).unwrap();
    let output = run(&["booklet", file.to_str().unwrap(), "--variant", "x"]);
    std::fs::remove_file(&file).unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(":2: a 4x4 grid of 2x2 boxes, but the first puzzle is a 9x9 grid"), "{stderr}");
}

#[test]
fn refusals_exit_2_and_say_why() {
    let file = temp_file("bad.txt");
    std::fs::write(&file, format!("{PUZZLE}\n{}\n", ".".repeat(81))).unwrap();
    let path = file.to_str().unwrap().to_owned();
    let empty = ".".repeat(81);
    let cases: [(Vec<&str>, &str); 7] = [
        (vec!["render", "12"], "sudokud render: the board has 2 cells"),
        (vec!["render", PUZZLE, "--title", "☺"], "sudokud render: --title: '☺' (U+263A) cannot be drawn"),
        (vec!["render", &empty, "--solution"], "sudokud render: --solution: "),
        (vec!["render", PUZZLE, "--width", "50"], "--width"),
        (vec!["booklet", "--count", "1", "--per-page", "3"], "expected one of [1, 2, 4, 6, 9]"),
        (vec!["booklet", "--count", "1", "--size", "4", "--difficulty", "hard"], "sudokud booklet: "),
        (vec!["booklet", &path], ":2: "),
    ];
    for (args, message) in cases {
        let output = run(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}");
    }
    std::fs::remove_file(&file).unwrap();
}

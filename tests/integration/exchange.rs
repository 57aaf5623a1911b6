//! Puzzles as other tools share them: the Interactive Sudoku Solver's example puzzles
//! (`tests/data/variants/iss_examples.jsonl`, MIT), each read from its constraint string (or
//! one-line killer) and either solved to its published solution, or refused naming a rule it
//! uses that sudokud lacks.

use serde::Deserialize;
use sudokud::exchange::{self, ShareError, iss};
use sudokud::puzzle::Puzzle;
use sudokud::sizes::AnyGrid;
use sudokud::solver::{Never, Verdict};

use crate::common::data_dir;

#[derive(Deserialize)]
struct Example {
    name: String,
    input: String,
    solution: String,
    types: Vec<String>,
}

fn examples() -> Vec<Example> {
    let path = data_dir().join("variants/iss_examples.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    text.lines().map(|line| serde_json::from_str(line).expect("an example line")).collect()
}

/// The published solution in our symbols: ISS writes 16x16 digits as the letters `A` to `P`.
fn published(solution: &str) -> String {
    if !solution.bytes().any(|byte| byte.is_ascii_uppercase()) {
        return solution.to_owned();
    }
    let values = solution.bytes().map(|letter| letter - b'A' + 1);
    values.map(|value| char::from(if value <= 9 { b'0' + value } else { b'A' + value - 10 })).collect()
}

#[test]
fn every_iss_example_is_solved_to_its_solution_or_refused_naming_a_rule_it_uses() {
    let (mut solved, mut refused, mut other_formats) = (Vec::new(), 0, 0);
    for example in examples() {
        let name = &example.name;
        match exchange::read(&example.input) {
            Ok(shared) => {
                let puzzle = Puzzle::new(AnyGrid::from(shared.givens.clone()), None, &shared.constraints)
                    .unwrap_or_else(|error| panic!("{name}: {error}"));
                let Ok(Verdict::Unique(solution)) = puzzle.classify(&mut Never) else { panic!("{name}: not unique") };
                assert_eq!(solution.to_string(), published(&example.solution), "{name}");
                assert_eq!(iss::read(&iss::write(&shared).unwrap()).as_ref(), Ok(&shared), "{name}");
                solved.push(name.clone());
            }
            Err(ShareError::Unsupported { rule, .. }) => {
                assert!(example.types.contains(&rule), "{name}: refused for `{rule}`, not among {:?}", example.types);
                refused += 1;
            }
            // ISS also reads plain grids (with a jigsaw layout): boards.
            Err(error @ (ShareError::Malformed { .. } | ShareError::Unknown)) => {
                assert!(!example.input.contains('~'), "{name}: {error}");
                other_formats += 1;
            }
            Err(error) => panic!("{name}: {error}"),
        }
    }
    // A one-line killer among them ("Killing with flowers") is read as well as the strings.
    assert_eq!((solved.len(), refused, other_formats), (34, 27, 1), "solved: {solved:?}");
    // Disjoint groups beside little killers, quadruples, sandwiches and X-sums.
    assert!(solved.iter().any(|name| name == "The Barbed Cross"), "{solved:?}");
    assert!(solved.iter().any(|name| name == "Quadruple X"), "{solved:?}");
    assert!(solved.iter().any(|name| name == "Between 1 and 9 Sudoku"), "{solved:?}");
    assert!(solved.iter().any(|name| name == "X-Sum"), "{solved:?}");
    assert!(solved.iter().any(|name| name == "Lockout Lines (DSM 23 Quali Training)"), "{solved:?}");
    // Modular lines beside cages.
    assert!(solved.iter().any(|name| name == "Modular Lines 1"), "{solved:?}");
    // Global entropy alone, global mod beside cages and X and V marks.
    assert!(solved.iter().any(|name| name == "[New Constraint] Entropy Sudoku"), "{solved:?}");
    assert!(solved.iter().any(|name| name == "Global mod 3"), "{solved:?}");
    // Anti-taxicab beside both diagonals.
    assert!(solved.iter().any(|name| name == "Anti-Taxi Sudoku X"), "{solved:?}");
    // Custom relations: between each cell and the next alone, beside cages, entropic lines and
    // whispers, and between every two cells beside thermometers and dots.
    for name in ["Odd/Even Thermo Sudoku", "Entropic connections", "Cold Sauerkraut"] {
        assert!(solved.iter().any(|solved| solved == name), "{name}: {solved:?}");
    }
}

/// A puzzle of the f-puzzles set: its data as links carry it, and its published solution.
#[derive(Deserialize)]
struct Published {
    title: String,
    puzzle: String,
    solution: String,
}

#[test]
fn every_published_f_puzzles_puzzle_is_solved_to_its_solution_or_refused_naming_a_rule() {
    let path = data_dir().join("variants/fpuzzles_ccby.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    let (mut solved, mut refused) = (Vec::new(), std::collections::BTreeMap::<String, usize>::new());
    for line in text.lines() {
        let published: Published = serde_json::from_str(line).expect("a puzzle line");
        let title = &published.title;
        // As a SudokuPad link carries it.
        match exchange::read(&format!("https://sudokupad.app/fpuzzles{}", published.puzzle)) {
            Ok(shared) => {
                let puzzle = Puzzle::from_shared(shared.clone()).unwrap_or_else(|error| panic!("{title}: {error}"));
                let Ok(Verdict::Unique(solution)) = puzzle.classify(&mut Never) else { panic!("{title}: not unique") };
                assert_eq!(solution.to_string(), published.solution, "{title}");
                let written = exchange::write(&shared, exchange::SharedFormat::FPuzzles).unwrap();
                assert_eq!(exchange::read(&written.link).as_ref(), Ok(&shared), "{title}");
                solved.push(title.clone());
            }
            Err(ShareError::Unsupported { rule, .. }) => *refused.entry(rule).or_default() += 1,
            Err(error) => panic!("{title}: {error}"),
        }
    }
    assert_eq!(solved.len(), 35, "solved: {solved:?}; refused: {refused:?}");
}

mod http {
    use axum::http::StatusCode;
    use serde_json::{Value, json};

    use super::{examples, published};
    use crate::common::http::*;

    async fn post(path: &str, body: Value) -> Reply {
        send(router(&config()), post_json(path, body.to_string())).await
    }

    #[tokio::test]
    async fn a_shared_puzzle_is_solved_and_exported_back_to_the_same_string() {
        for example in examples().into_iter().filter(|example| ["Killer", "Jigsaw", "6x6"].contains(&&*example.name)) {
            let reply = post("/v1/solve", json!({ "puzzle": example.input })).await;
            assert_eq!(reply.status, StatusCode::OK, "{}: {}", example.name, reply.body);
            assert_eq!(reply.body["solution"], published(&example.solution), "{}", example.name);
            for format in ["iss", "f-puzzles", "sudokupad"] {
                let exported = post("/v1/export", json!({ "puzzle": example.input, "format": format })).await;
                assert_eq!(exported.status, StatusCode::OK, "{} {format}: {}", example.name, exported.body);
                // What is written reads back as the same puzzle: solved again to the same solution.
                for written in [&exported.body["link"], &exported.body["puzzle"]] {
                    let again = post("/v1/solve", json!({ "puzzle": written })).await;
                    assert_eq!(again.body["solution"], reply.body["solution"], "{} {format}: {written}", example.name);
                }
            }
        }
    }

    /// What `/v1/import` answers is a body every board route takes as it is, exported to the
    /// same string as the shared puzzle is: the same givens under the same rules (which solve to
    /// the published solutions, `every_iss_example_is_solved_...`).
    #[tokio::test]
    async fn an_imported_puzzle_is_the_shared_one_in_sudokuds_members() {
        let mut imported = 0;
        for example in examples() {
            let reply = post("/v1/import", json!({ "puzzle": example.input })).await;
            if reply.status != StatusCode::OK {
                let solved = post("/v1/solve", json!({ "puzzle": example.input })).await;
                assert_eq!(solved.body["detail"], reply.body["detail"], "{}: refused alike", example.name);
                continue;
            }
            imported += 1;
            let mut export = reply.body;
            export["format"] = json!("iss");
            let from_members = post("/v1/export", export).await;
            let from_shared = post("/v1/export", json!({ "puzzle": example.input, "format": "iss" })).await;
            assert_eq!(from_members.body, from_shared.body, "{}", example.name);
        }
        // The examples sudokud can hold (the refusals are counted in
        // `every_iss_example_is_solved_to_its_solution_or_refused_naming_a_rule_it_uses`).
        assert!(imported >= 11, "{imported}");
    }

    #[tokio::test]
    async fn a_preset_is_exported_with_its_rules_written_out() {
        let exported = post("/v1/export", json!({ "board": ".".repeat(81), "variant": "x", "format": "iss" })).await;
        assert_eq!(exported.body["puzzle"], ".Diagonal~-1.Diagonal~1", "{}", exported.body);
        let link = exported.body["link"].as_str().unwrap();
        assert_eq!(link, "https://sigh.github.io/Interactive-Sudoku-Solver/?q=.Diagonal~-1.Diagonal~1");
    }

    #[tokio::test]
    async fn what_cannot_be_shared_is_refused_saying_why() {
        let detail = |reply: Reply| {
            assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", reply.body);
            reply.body["detail"].as_str().unwrap().to_owned()
        };
        let cases = [
            (
                "/v1/solve",
                json!({ "puzzle": ".~R1C1_5", "board": ".".repeat(81), "variant": "x" }),
                "`puzzle` holds the board and its rules: send it without `board` and `variant`",
            ),
            (
                "/v1/hint",
                json!({ "puzzle": ".~R1C1_5.Lunchbox~R1C1~R1C2" }),
                "`puzzle`: the ISS rule `Lunchbox` (lunchboxes) is not one sudokud has",
            ),
            (
                "/v1/count",
                json!({ "puzzle": "53..7...." }),
                "`puzzle`: no shared puzzle format: expected an f-puzzles link (`https://www.f-puzzles.com/?load=...`)",
            ),
            (
                "/v1/validate",
                json!({ "puzzle": ".Cage~50~R1C1~R1C2" }),
                "`puzzle`: `constraints.cages[0].sum`: no 2 different digits from 1 to 9 add up to 50",
            ),
            (
                "/v1/export",
                json!({ "board": ".".repeat(400), "format": "iss" }),
                "`format`: an ISS constraint string cannot hold a 20x20 grid: it reaches 16x16",
            ),
            (
                "/v1/export",
                json!({ "board": ".".repeat(81) }),
                "`format` is missing: one of \"f-puzzles\", \"sudokupad\", \"iss\"",
            ),
            ("/v1/import", json!({}), "`puzzle` is missing: a puzzle as another tool shares it"),
            ("/v1/import", json!({ "puzzle": ".~R1C1_5", "box": "3x3" }), "unknown member `box`; expected `puzzle`"),
        ];
        for (path, body, expected) in cases {
            let detail = detail(post(path, body.clone()).await);
            assert!(detail.starts_with(expected), "{path} {body}: {detail}");
        }
    }
}

mod batch {
    use axum::http::StatusCode;
    use serde_json::json;

    use crate::common::http::*;

    #[tokio::test]
    async fn a_batch_entry_may_be_a_shared_puzzle() {
        let body = json!({ "boards": [{ "puzzle": ".Shape~4x4.~R1C1_1~R4C1_3.Cage~5~R1C1~R1C2.Cage~6~R2C3~R3C3" }] });
        let reply = send(router(&config()), post_json("/v1/solve/batch", body.to_string())).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        assert_eq!(reply.body["results"][0]["solution"], "1432234141233214", "{}", reply.body);
    }
}

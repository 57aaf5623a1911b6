//! `POST /v1/rate`, `/v1/hint`, `/v1/explain` and `/v1/generate` through the real router.

mod common;

use axum::http::StatusCode;
use common::http::*;
use serde_json::{Value, json};
use sudokud::board::{Board, Format};
use sudokud::config::ServeConfig;
use sudokud::generate::Symmetry;
use sudokud::logic::Level;

/// `tests/data/multiple_solutions.txt` line 91: exactly two solutions.
const TWO_SOLUTIONS: &str = ".8.7..6..75..6..9...6..9...4..........8.9.5.....3...2..1...4.3...7.5.8.....2....1";
/// The first puzzle of `tests/data/forum_hardest_1106.txt`: beyond every technique.
const HARDEST: &str = "12.3....435....1....4........54..2..6...7.........8.9...31..5.......9.7.....6...8";

async fn post(path: &str, body: Value) -> Reply {
    send(router(&config()), post_json(path, body.to_string())).await
}

fn board(text: &str) -> Board {
    text.parse().unwrap()
}

#[tokio::test]
async fn rate_names_the_level_and_the_techniques() {
    let reply = post("/v1/rate", json!({ "board": PUZZLE })).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["level"], "easy");
    assert_eq!(reply.body["solved_by_logic"], true);
    assert!(reply.body["rating"].as_f64().unwrap() <= 2.3);
    let techniques = reply.body["techniques"].as_array().unwrap();
    let placed: u64 = techniques.iter().map(|used| used["count"].as_u64().unwrap()).sum();
    assert_eq!(placed as usize, 81 - board(PUZZLE).givens(), "singles place every blank");

    let reply = post("/v1/rate", json!({ "board": HARDEST })).await;
    assert_eq!(reply.body["level"], "extreme");
    assert_eq!(reply.body["solved_by_logic"], false);
    let techniques = reply.body["techniques"].as_array().unwrap();
    assert!(techniques.iter().any(|used| used["technique"] == "brute-force"), "{techniques:?}");
}

#[tokio::test]
async fn every_logic_endpoint_refuses_what_is_not_a_proper_puzzle() {
    for path in ["/v1/rate", "/v1/hint", "/v1/explain"] {
        let reply = post(path, json!({ "board": TWO_SOLUTIONS })).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "multiple-solutions");
        assert_eq!(problem["instance"], path);
        let reply = post(path, json!({ "board": format!("55{}", &PUZZLE[2..]) })).await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "conflicting-givens");
        let reply = post(path, json!({ "board": format!(".123456789{}", ".".repeat(71)) })).await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
        let reply = post(path, json!({ "board": [[1, 2]] })).await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-board");
        let reply = send(
            router(&ServeConfig { solve_timeout_ms: 0, ..config() }),
            post_json(path, json!({ "board": PUZZLE }).to_string()),
        )
        .await;
        assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "solve-timeout");
    }
}

#[tokio::test]
async fn a_hint_is_one_correct_step_and_a_solved_board_needs_none() {
    let reply = post("/v1/hint", json!({ "board": rows_of_numbers(PUZZLE) })).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["solved"], false);
    let step = &reply.body["step"];
    assert!(step["technique"].is_string() && step["explanation"].as_str().unwrap().ends_with('.'));
    let solution = board(SOLUTION);
    for placement in step["placements"].as_array().unwrap() {
        let (row, col) = (placement["row"].as_u64().unwrap() as usize, placement["col"].as_u64().unwrap() as usize);
        assert_eq!(u64::from(solution.get(row, col)), placement["digit"].as_u64().unwrap());
        assert_eq!(board(PUZZLE).get(row, col), 0, "a hint fills a blank");
    }
    assert!(!step["placements"].as_array().unwrap().is_empty() || !step["eliminations"].as_array().unwrap().is_empty());

    let reply = post("/v1/hint", json!({ "board": SOLUTION })).await;
    assert_eq!(reply.body["solved"], true);
    assert_eq!(reply.body["step"], Value::Null);
    assert!(reply.body["message"].as_str().unwrap().contains("nothing left"));
}

#[tokio::test]
async fn explain_walks_from_the_puzzle_to_its_solution() {
    let reply = post("/v1/explain", json!({ "board": rows_of_strings(PUZZLE) })).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["solution"], rows_of_strings(SOLUTION), "in the request's representation");
    let mut cells = *board(PUZZLE).cells();
    for step in reply.body["steps"].as_array().unwrap() {
        for placement in step["placements"].as_array().unwrap() {
            let cell = placement["row"].as_u64().unwrap() * 9 + placement["col"].as_u64().unwrap();
            cells[cell as usize] = placement["digit"].as_u64().unwrap() as u8;
        }
    }
    assert_eq!(Board::from_cells(cells).unwrap(), board(SOLUTION), "the placements fill the grid");
    assert_eq!(reply.body["rating"]["level"], "easy");
}

#[tokio::test]
async fn generate_makes_the_asked_level_reproducibly() {
    for (level, symmetry) in [("easy", "none"), ("medium", "rotational"), ("hard", "diagonal")] {
        let request = json!({ "difficulty": level, "seed": 42, "symmetry": symmetry });
        let reply = post("/v1/generate", request.clone()).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        assert_eq!(reply.body["rating"]["level"], level);
        assert_eq!((reply.body["seed"].clone(), reply.body["symmetry"].clone()), (json!(42), json!(symmetry)));
        let puzzle = board(reply.body["puzzle"].as_str().unwrap());
        let count = sudokud::solver::count_solutions(&puzzle, 2, &mut sudokud::solver::Never).unwrap();
        assert_eq!(count.solutions, 1);
        assert_eq!(json!(count.first.unwrap().to_string()), reply.body["solution"]);
        assert_eq!(post("/v1/generate", request).await.body, reply.body, "the same seed, the same puzzle");
    }
}

#[tokio::test]
async fn generate_picks_a_seed_and_writes_the_asked_representation() {
    let reply = post("/v1/generate", json!({ "difficulty": "easy", "format": "numbers" })).await;
    let seed = reply.body["seed"].as_u64().unwrap();
    assert!(seed < 1 << 53, "JavaScript can hold the seed exactly");
    assert_eq!(reply.body["puzzle"].as_array().unwrap().len(), 9);
    let again = post("/v1/generate", json!({ "difficulty": "easy", "format": "numbers", "seed": seed })).await;
    assert_eq!(again.body["puzzle"], reply.body["puzzle"]);
}

#[tokio::test]
async fn generate_takes_a_whole_seed_however_written() {
    let request = |seed: &str| format!(r#"{{"difficulty":"easy","seed":{seed}}}"#);
    let seven = send(router(&config()), post_json("/v1/generate", request("7"))).await;
    assert_eq!(seven.status, StatusCode::OK, "{}", seven.body);
    for seed in ["7.0", "7e0", "0.7e1"] {
        let reply = send(router(&config()), post_json("/v1/generate", request(seed))).await;
        assert_eq!(reply.body, seven.body, "{seed} is the seed 7");
    }
}

/// `one of "a", "b"`, from a choice's one list.
fn one_of<T: std::fmt::Display>(choices: &[T]) -> String {
    let names: Vec<String> = choices.iter().map(|choice| format!("\"{choice}\"")).collect();
    format!("one of {}", names.join(", "))
}

#[tokio::test]
async fn generate_refuses_unknown_choices_naming_the_member_and_gives_up_at_its_deadline() {
    let levels = one_of(&Level::ALL);
    let symmetries = one_of(&Symmetry::ALL);
    let formats = one_of(&Format::ALL);
    for (body, detail) in [
        (json!({}), "missing field `difficulty`".to_owned()),
        (json!({ "difficulty": "insane" }), format!(r#"`difficulty`: found "insane"; expected {levels}"#)),
        (json!({ "difficulty": null }), format!("`difficulty`: found null; expected {levels}")),
        (json!({ "difficulty": 1 }), format!("`difficulty`: found 1; expected {levels}")),
        (json!({ "difficulty": ["easy"] }), format!("`difficulty`: found an array; expected {levels}")),
        (json!({ "difficulty": "easy", "symmetry": null }), format!("`symmetry`: found null; expected {symmetries}")),
        (
            json!({ "difficulty": "easy", "symmetry": "spiral" }),
            format!(r#"`symmetry`: found "spiral"; expected {symmetries}"#),
        ),
        (json!({ "difficulty": "easy", "format": "emoji" }), format!(r#"`format`: found "emoji"; expected {formats}"#)),
        (
            json!({ "difficulty": "easy", "seed": -1 }),
            format!("`seed`: found -1; expected an integer from 0 to {}", u64::MAX),
        ),
        (
            json!({ "difficulty": "easy", "seed": 7.5 }),
            format!("`seed`: found 7.5; expected an integer from 0 to {}", u64::MAX),
        ),
    ] {
        let reply = post("/v1/generate", body.clone()).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
        assert_eq!(problem["detail"], detail, "{body}");
    }
    let config = ServeConfig { solve_timeout_ms: 0, ..config() };
    let reply = send(router(&config), post_json("/v1/generate", json!({ "difficulty": "extreme" }).to_string())).await;
    let problem = assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "solve-timeout");
    assert!(problem["detail"].as_str().unwrap().contains("extreme"), "{problem}");
}

//! `POST /v1/rate`, `/v1/hint`, `/v1/explain`, `/v1/generate` and `/v1/generate/batch` through the
//! real router (and a real server where a client must go away).

use std::num::NonZeroUsize;
use std::time::Duration;

use axum::http::StatusCode;
use serde_json::{Value, json};
use sudokud::board::{Board, Format};
use sudokud::config::ServeConfig;
use sudokud::generate::Symmetry;
use sudokud::logic::Level;

use crate::common;
use crate::common::http::*;

/// `tests/data/multiple_solutions.txt` line 91: exactly two solutions.
const TWO_SOLUTIONS: &str = ".8.7..6..75..6..9...6..9...4..........8.9.5.....3...2..1...4.3...7.5.8.....2....1";
/// The first puzzle of `tests/data/forum_hardest_1106.txt`: dynamic forcing chains with others
/// nested inside, a few seconds' rating.
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

    // Puzzles this hard may take longer than the default solve and request timeouts (5 s, which
    // a loaded machine passed once): give it time enough.
    let patient = router(&ServeConfig { solve_timeout_ms: 120_000, request_timeout_ms: 120_000, ..config() });
    let reply = send(patient, post_json("/v1/rate", json!({ "board": HARDEST }).to_string())).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!((&reply.body["level"], &reply.body["solved_by_logic"]), (&json!("extreme"), &json!(true)));
    assert!(reply.body["rating"].as_f64().unwrap() >= 10.0, "{}", reply.body);
    let techniques = reply.body["techniques"].as_array().unwrap();
    assert!(techniques.iter().any(|used| used["technique"].as_str().unwrap().starts_with("nested-")), "{techniques:?}");
    assert!(!techniques.iter().any(|used| used["technique"] == "brute-force"), "{techniques:?}");
    let exact = reply.body["rating"].as_f64().unwrap();

    // Cut short by the solve timeout, a rating is still answered: the least it can be.
    let hasty = router(&ServeConfig { solve_timeout_ms: 50, ..config() });
    let reply = send(hasty, post_json("/v1/rate", json!({ "board": HARDEST }).to_string())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!((&reply.body["exact"], &reply.body["solved_by_logic"]), (&json!(false), &json!(false)));
    let bound = reply.body["rating"].as_f64().unwrap();
    assert!(bound <= exact, "{bound} is a lower bound of {exact}");
    assert_eq!(reply.body["level"], json!(Level::of(bound as f32, true)), "{}", reply.body);
    assert!(reply.headers.get("retry-after").is_none(), "asking again gives the same bound");
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
        let problem = assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "solve-timeout");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains("within the solve timeout of 0 ms") && detail.contains("hardest puzzles"), "{detail}");
    }
}

/// `(row, col, digit)` of a placement or elimination in an answer.
fn candidate(value: &Value) -> (usize, usize, u8) {
    let number = |key: &str| value[key].as_u64().unwrap();
    (number("row") as usize, number("col") as usize, number("digit") as u8)
}

/// Asks `/v1/hint` on `puzzle` (text), checks the answer against `solution` and writes its
/// placements in, as the playground does; `None` once the board is solved. Also returns how many
/// steps came before the placement.
async fn hint_and_place(puzzle: &str, solution: &Board) -> Option<(String, usize)> {
    let reply = post("/v1/hint", json!({ "board": puzzle })).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let steps = reply.body["steps"].as_array().unwrap();
    if reply.body["solved"] == true {
        assert!(steps.is_empty() && reply.body["step"].is_null(), "{}", reply.body);
        assert!(reply.body["message"].as_str().unwrap().contains("nothing left"));
        return None;
    }
    let (placement, before) = steps.split_last().expect("an unsolved board has a hint");
    assert_eq!(&reply.body["step"], placement, "`step` is the placement, the last of `steps`");
    for step in steps {
        assert!(step["technique"].is_string() && step["explanation"].as_str().unwrap().ends_with('.'));
        for removed in step["eliminations"].as_array().unwrap() {
            let (row, col, digit) = candidate(removed);
            assert_ne!(solution.get(row, col), digit, "an elimination keeps the solution's digit: {step}");
        }
    }
    assert!(before.iter().all(|step| step["placements"].as_array().unwrap().is_empty()), "{}", reply.body);
    let placements = placement["placements"].as_array().unwrap();
    assert!(!placements.is_empty(), "a hint ends with a placement: {}", reply.body);
    let mut cells = puzzle.as_bytes().to_vec();
    for placed in placements {
        let (row, col, digit) = candidate(placed);
        assert_eq!(solution.get(row, col), digit, "{placed}");
        assert_eq!(cells[row * 9 + col], b'.', "a hint fills a blank");
        cells[row * 9 + col] = b'0' + digit;
    }
    Some((String::from_utf8(cells).unwrap(), before.len()))
}

#[tokio::test]
async fn a_hint_is_the_next_placement_and_a_solved_board_needs_none() {
    let reply = post("/v1/hint", json!({ "board": rows_of_numbers(PUZZLE) })).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["solved"], false);
    assert_eq!(reply.body["steps"].as_array().unwrap().len(), 1, "a placement at once: {}", reply.body);
    let (placed, eliminations_before) = hint_and_place(PUZZLE, &board(SOLUTION)).await.unwrap();
    assert_eq!((placed.matches('.').count(), eliminations_before), (PUZZLE.matches('.').count() - 1, 0));
    assert_eq!(hint_and_place(SOLUTION, &board(SOLUTION)).await, None);
}

/// Issue 11: on this board the next step is an elimination; the hint used to answer only that,
/// and since a board cannot record it, the same elimination again and again.
#[tokio::test]
async fn a_hint_carries_the_eliminations_its_placement_rests_on() {
    let puzzle = "..8......634.95....97.86.5...35......41863..28...7.3..4.6957.38.8.134...3..628..4";
    let solution = common::oracle::count(&board(puzzle), 1).first.unwrap();
    let (_, eliminations_before) = hint_and_place(puzzle, &solution).await.unwrap();
    assert!(eliminations_before > 0);
}

#[tokio::test]
async fn hint_after_hint_solves_generated_puzzles_of_every_level() {
    for level in Level::ALL {
        for seed in [7, 8, 9] {
            let reply = post("/v1/generate", json!({ "difficulty": level, "seed": seed })).await;
            let mut puzzle = reply.body["puzzle"].as_str().unwrap().to_owned();
            // The plain backtracking oracle, independent of the solver and the logic engine.
            let solution = common::oracle::count(&board(&puzzle), 1).first.unwrap();
            let mut hints = 0;
            while let Some((next, _)) = hint_and_place(&puzzle, &solution).await {
                (puzzle, hints) = (next, hints + 1);
                assert!(hints <= 81, "{level} seed {seed}: the hints do not end");
            }
            assert_eq!(board(&puzzle), solution, "{level} seed {seed}");
        }
    }
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
    // Generation has its own timeout: the solve timeout alone does not end it.
    let no_solve_time = ServeConfig { solve_timeout_ms: 0, ..config() };
    let reply =
        send(router(&no_solve_time), post_json("/v1/generate", json!({ "difficulty": "extreme" }).to_string())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let no_generate_time = ServeConfig { generate_timeout_ms: 0, ..config() };
    let reply =
        send(router(&no_generate_time), post_json("/v1/generate", json!({ "difficulty": "extreme" }).to_string()))
            .await;
    let problem = assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "solve-timeout");
    assert!(problem["detail"].as_str().unwrap().contains("extreme"), "{problem}");
}

/// The one-line pencil marks `/v1/candidates` gives for `body`.
async fn pencil_marks(body: &Value) -> String {
    let reply = post("/v1/candidates", body.clone()).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["pencil_marks"].as_str().unwrap().to_owned()
}

/// Crosses `digit` out of the cell at `row`, `col` in a 9x9 one-line form.
fn cross_out(marks: &mut String, (row, col, digit): (usize, usize, u8)) {
    let at = (row * 9 + col) * 9 + usize::from(digit) - 1;
    marks.replace_range(at..=at, ".");
}

#[tokio::test]
async fn the_basic_candidates_as_marks_change_nothing_in_either_form() {
    let six = json!({ "board": "..6....2..543....2452..3...3....4...", "box": "3x2" });
    let x = json!({ "board": "1...............", "variant": "x" });
    let hard = json!({ "board": "..8......634.95....97.86.5...35......41863..28...7.3..4.6957.38.8.134...3..628..4" });
    for body in [json!({ "board": PUZZLE }), six, hard] {
        let line = pencil_marks(&body).await;
        let rows = post("/v1/candidates", body.clone()).await.body["candidates"].clone();
        for path in ["/v1/rate", "/v1/hint", "/v1/explain"] {
            let plain = post(path, body.clone()).await;
            for marks in [json!(line), rows.clone()] {
                let mut marked = body.clone();
                marked["candidates"] = marks;
                let reply = post(path, marked).await;
                assert_eq!((reply.status, &reply.body), (plain.status, &plain.body), "{path} {body}");
            }
        }
    }
    // The X board has several solutions: the marks change nothing there either.
    let mut marked = x.clone();
    marked["candidates"] = json!(pencil_marks(&x).await);
    assert_problem(&post("/v1/hint", marked).await, StatusCode::UNPROCESSABLE_ENTITY, "multiple-solutions");
}

#[tokio::test]
async fn a_hint_starts_from_the_players_marks() {
    let puzzle = "..8......634.95....97.86.5...35......41863..28...7.3..4.6957.38.8.134...3..628..4";
    let solution = common::oracle::count(&board(puzzle), 1).first.unwrap();
    let plain = post("/v1/hint", json!({ "board": puzzle })).await;
    let steps = plain.body["steps"].as_array().unwrap();
    assert!(steps.len() > 1, "the hint rests on eliminations: {}", plain.body);
    // The player has already crossed out what the steps before the placement cross out.
    let mut marks = pencil_marks(&json!({ "board": puzzle })).await;
    for step in &steps[..steps.len() - 1] {
        for removed in step["eliminations"].as_array().unwrap() {
            cross_out(&mut marks, candidate(removed));
        }
    }
    let marked = post("/v1/hint", json!({ "board": puzzle, "candidates": marks })).await;
    assert_eq!(marked.status, StatusCode::OK);
    assert_eq!(marked.body["steps"], json!([steps.last().unwrap()]), "straight to the placement");
    let (row, col, digit) = candidate(&marked.body["step"]["placements"][0]);
    assert_eq!(solution.get(row, col), digit);
    // And the rest of the puzzle rates no harder from there.
    let plain = post("/v1/rate", json!({ "board": puzzle })).await;
    let from_marks = post("/v1/rate", json!({ "board": puzzle, "candidates": marks })).await;
    assert!(from_marks.body["rating"].as_f64() <= plain.body["rating"].as_f64(), "{}", from_marks.body);
}

#[tokio::test]
async fn marks_that_cross_out_the_solution_are_pointed_out() {
    let solution = board(SOLUTION);
    let mut marks = pencil_marks(&json!({ "board": PUZZLE })).await;
    // r1c3 is blank in the puzzle; its solution is 4.
    assert_eq!(solution.get(0, 2), 4);
    cross_out(&mut marks, (0, 2, 4));
    let expected = json!([{
        "row": 0, "col": 2, "kind": "removed-candidate", "value": 4,
        "message": "r1c3: 4 was crossed out, but the solution has it there",
    }]);
    let hint = post("/v1/hint", json!({ "board": PUZZLE, "candidates": marks })).await;
    assert_eq!(hint.status, StatusCode::OK);
    assert_eq!(hint.body["mistakes"], expected);
    assert_eq!(
        (hint.body["solved"].clone(), hint.body["steps"].clone(), hint.body["step"].clone()),
        (json!(false), json!([]), Value::Null)
    );
    assert!(hint.body["message"].as_str().unwrap().contains("mend them first"));
    for path in ["/v1/rate", "/v1/explain"] {
        let reply = post(path, json!({ "board": PUZZLE, "candidates": marks })).await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "wrong-candidates");
        assert_eq!(reply.body["mistakes"], expected, "{path}");
        assert!(reply.body["detail"].as_str().unwrap().contains("see `mistakes`"), "{}", reply.body);
    }
}

#[tokio::test]
async fn marks_that_do_not_fit_the_board_are_refused_naming_the_member() {
    let line = ".".repeat(729);
    let mut wrong_symbol = line.clone();
    wrong_symbol.replace_range(10..11, "5");
    let row = vec![json!([]); 9];
    let mut out_of_range = vec![row.clone(); 9];
    out_of_range[2][3] = json!([1, 10]);
    for (candidates, detail) in [
        (json!("123"), "`candidates`: found 3 characters; the pencil marks of a 9x9 grid are 729"),
        (json!(wrong_symbol), "`candidates`: character 10 ('5', row 0, col 1): expected '2' or '.'"),
        (json!(vec![row.clone(); 8]), "`candidates`: found 8 rows of pencil marks; a 9x9 board has 9"),
        (json!([row.clone(), vec![json!([]); 3]]), "`candidates`: found 2 rows of pencil marks; a 9x9 board has 9"),
        (json!(out_of_range), "`candidates`: row 2, col 3: found 10; expected values 1 to 9"),
    ] {
        for path in ["/v1/rate", "/v1/hint", "/v1/explain"] {
            let reply = post(path, json!({ "board": PUZZLE, "candidates": candidates })).await;
            assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
            assert_eq!(reply.body["detail"], detail, "{path}");
        }
    }
    let mut short_row = vec![row.clone(); 9];
    short_row[4] = vec![json!([1])];
    let reply = post("/v1/hint", json!({ "board": PUZZLE, "candidates": short_row })).await;
    assert_eq!(reply.body["detail"], "`candidates`: row 4: found 1 cells of pencil marks; a 9x9 board has 9");
    let reply = post("/v1/hint", json!({ "board": PUZZLE, "candidates": 5 })).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
    assert!(reply.body["detail"].as_str().unwrap().contains("expected pencil marks"), "{}", reply.body);
}

async fn get(uri: &str, if_none_match: Option<&str>) -> Reply {
    let mut request = axum::http::Request::get(uri);
    if let Some(tag) = if_none_match {
        request = request.header(axum::http::header::IF_NONE_MATCH, tag);
    }
    send(router(&config()), request.body(axum::body::Body::empty()).unwrap()).await
}

fn get_request(uri: &str) -> axum::http::Request<axum::body::Body> {
    axum::http::Request::get(uri).body(axum::body::Body::empty()).unwrap()
}

/// Checks a generated answer against the plain backtracking oracle: one solution, the one given.
fn check_generated(answer: &Value) -> Board {
    let puzzle = board(answer["puzzle"].as_str().unwrap());
    let count = common::oracle::count(&puzzle, 2);
    assert_eq!(count.solutions, 1, "{answer}");
    assert_eq!(count.first.unwrap(), board(answer["solution"].as_str().unwrap()));
    puzzle
}

#[tokio::test]
async fn the_daily_puzzle_is_one_for_a_date_and_level_and_cacheable() {
    let reply = get("/v1/daily?date=2026-12-02&difficulty=hard", None).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let id = reply.body["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("hard.rotational.3x3."), "{id}");
    assert_eq!(reply.body["date"], "2026-12-02");
    assert_eq!(reply.body["rating"]["level"], "hard");
    assert_eq!(reply.headers["etag"], format!("\"{id}\""));
    assert_eq!(reply.headers["cache-control"], "public, max-age=86400");
    // Givens in rotational symmetry, and a proper puzzle by the oracle.
    let puzzle = check_generated(&reply.body);
    assert!((0..81).all(|cell| (puzzle.cells()[cell] == 0) == (puzzle.cells()[80 - cell] == 0)));
    // The same for everybody; another date or level, another puzzle.
    assert_eq!(get("/v1/daily?difficulty=hard&date=2026-12-02", None).await.body, reply.body);
    let next = get("/v1/daily?date=2026-12-03&difficulty=hard", None).await;
    assert_ne!(next.body["puzzle"], reply.body["puzzle"]);
    let easy = get("/v1/daily?date=2026-12-02&difficulty=easy", None).await;
    assert_eq!(easy.body["rating"]["level"], "easy");
    check_generated(&easy.body);
    // A client holding it gets a 304, and the puzzle's id gives it again.
    let held = get("/v1/daily?date=2026-12-02&difficulty=hard", Some(&format!("W/\"x\", \"{id}\""))).await;
    assert_eq!((held.status, held.body.clone()), (StatusCode::NOT_MODIFIED, Value::Null));
    assert_eq!(held.headers["etag"], format!("\"{id}\""));
    let again = get(&format!("/v1/puzzles/{id}"), None).await;
    assert_eq!(again.status, StatusCode::OK);
    for member in ["puzzle", "solution", "rating", "seed", "symmetry", "id"] {
        assert_eq!(again.body[member], reply.body[member], "{member}");
    }
    assert!(again.body.get("date").is_none());
    assert_eq!(get(&format!("/v1/puzzles/{id}"), Some(&format!("\"{id}\""))).await.status, StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn today_is_the_default_date_and_medium_the_default_level() {
    let days = (std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() / 86_400) as i64;
    let today = sudokud::puzzle_id::Date::from_days(days).to_string();
    let reply = get("/v1/daily", None).await;
    assert_eq!(reply.status, StatusCode::OK);
    // A test running across midnight may see tomorrow.
    let tomorrow = sudokud::puzzle_id::Date::from_days(days + 1).to_string();
    assert!(reply.body["date"] == today || reply.body["date"] == tomorrow, "{}", reply.body);
    assert_eq!(reply.body["rating"]["level"], "medium");
    let max_age: u64 =
        reply.headers["cache-control"].to_str().unwrap().strip_prefix("public, max-age=").unwrap().parse().unwrap();
    assert!((1..=86_400).contains(&max_age));
}

#[tokio::test]
async fn generate_answers_an_id_that_makes_the_puzzle_again() {
    let made = post("/v1/generate", json!({ "difficulty": "medium", "seed": 5, "symmetry": "diagonal" })).await;
    assert_eq!(made.body["id"], "medium.diagonal.3x3.5");
    let again = get("/v1/puzzles/medium.diagonal.3x3.5", None).await;
    assert_eq!(
        (again.body["puzzle"].clone(), again.body["solution"].clone()),
        (made.body["puzzle"].clone(), made.body["solution"].clone())
    );
    let six = post("/v1/generate", json!({ "difficulty": "easy", "seed": 3, "size": 6 })).await;
    let id = six.body["id"].as_str().unwrap();
    assert_eq!(id, "easy.none.2x3.3.v2");
    assert_eq!(get(&format!("/v1/puzzles/{id}"), None).await.body["puzzle"], six.body["puzzle"]);
    // The first release's id of that size named another puzzle: refused, saying why.
    let old = get("/v1/puzzles/easy.none.2x3.3", None).await;
    assert_eq!(old.status, StatusCode::NOT_FOUND);
    assert!(old.body["detail"].as_str().unwrap().contains("sudokud 0.1.0's"), "{}", old.body);
    // A variant puzzle has no id: its constraints are part of it.
    let x = post("/v1/generate", json!({ "difficulty": "easy", "seed": 3, "variant": "x" })).await;
    assert_eq!(x.status, StatusCode::OK);
    assert!(x.body.get("id").is_none());
}

/// A puzzle made lately is answered from memory: fetching it again needs no solver slot.
#[tokio::test]
async fn a_puzzle_just_made_is_fetched_again_even_when_every_slot_is_busy() {
    // One solver slot and no queue: a single place in all.
    let config = ServeConfig { max_concurrent_solves: NonZeroUsize::new(1), max_queued_solves: 0, ..config() };
    let router = router(&config);
    let made =
        send(router.clone(), post_json("/v1/generate", json!({ "difficulty": "hard", "seed": 5 }).to_string())).await;
    let id = made.body["id"].as_str().unwrap().to_owned();
    // The hardest puzzles' rating holds the slot for the whole solve timeout.
    let busy = tokio::spawn(send(router.clone(), post_json("/v1/rate", json!({ "board": HARDEST }).to_string())));
    // Until the rating holds the slot, a probe could take it first and turn the rating away.
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut seed = 1000;
    loop {
        let other = send(router.clone(), get_request(&format!("/v1/puzzles/easy.none.3x3.{seed}"))).await;
        if other.status == StatusCode::SERVICE_UNAVAILABLE {
            assert_problem(&other, StatusCode::SERVICE_UNAVAILABLE, "overloaded");
            break;
        }
        assert!(!busy.is_finished(), "the rating ended before the pool was seen full");
        seed += 1;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let again = send(router.clone(), get_request(&format!("/v1/puzzles/{id}"))).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.body);
    assert_eq!((&again.body["puzzle"], &again.body["rating"]), (&made.body["puzzle"], &made.body["rating"]));
    assert_eq!(busy.await.unwrap().status, StatusCode::OK);
}

#[tokio::test]
async fn what_names_no_daily_puzzle_or_id_is_refused() {
    for (uri, detail) in [
        ("/v1/daily?date=2026-02-30", "`date`: \"2026-02-30\" is no date: expected YYYY-MM-DD"),
        ("/v1/daily?date=yesterday&difficulty=easy", "`date`: \"yesterday\" is no date: expected YYYY-MM-DD"),
    ] {
        let reply = get(uri, None).await;
        assert_eq!(assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request")["detail"], detail);
    }
    let reply = get("/v1/daily?difficulty=insane", None).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
    assert!(problem["detail"].as_str().unwrap().starts_with("`difficulty`: unknown level \"insane\""), "{problem}");
    let reply = get("/v1/daily?date=2026-12-02&date=2026-12-03", None).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
    for id in ["nonsense", "hard.none.3x3", "hard.none.3x3.x", "hard.none.7x7.1", "extreme.none.5x5.1.v2"] {
        let reply = get(&format!("/v1/puzzles/{id}"), None).await;
        let problem = assert_problem(&reply, StatusCode::NOT_FOUND, "not-found");
        assert!(problem["detail"].as_str().unwrap().contains(id), "{problem}");
    }
}

#[tokio::test]
async fn generate_makes_puzzles_to_order() {
    let order = json!({
        "difficulty": "hard", "seed": 11, "se_min": 3.5, "se_max": 4.2,
        "require": ["x-wing"], "min_givens": 20, "max_givens": 30,
    });
    let made = post("/v1/generate", order.clone()).await;
    assert_eq!(made.status, StatusCode::OK, "{}", made.body);
    let rating = made.body["rating"]["rating"].as_f64().unwrap();
    assert!((3.5..=4.2).contains(&rating), "{}", made.body);
    let used: Vec<&str> = made.body["rating"]["techniques"]
        .as_array()
        .unwrap()
        .iter()
        .map(|used| used["technique"].as_str().unwrap())
        .collect();
    assert!(used.contains(&"x-wing"), "{used:?}");
    let puzzle = check_generated(&made.body);
    assert!((20..=30).contains(&puzzle.givens()));
    assert_eq!(made.body["seed"], 11);
    assert!(made.body["attempts"].as_u64().unwrap() >= 1);
    // The id makes exactly this puzzle; the same order and seed, the same answer.
    let again = get(&format!("/v1/puzzles/{}", made.body["id"].as_str().unwrap()), None).await;
    assert_eq!(again.body["puzzle"], made.body["puzzle"]);
    assert_eq!(post("/v1/generate", order).await.body, made.body);
    // Easy puzzles with many givens: solution values given back, rated again, no id.
    let generous = post("/v1/generate", json!({ "difficulty": "easy", "seed": 2, "min_givens": 40 })).await;
    assert_eq!(generous.status, StatusCode::OK, "{}", generous.body);
    assert!(check_generated(&generous.body).givens() >= 40);
    assert_eq!(generous.body["rating"]["level"], "easy");
    assert!(generous.body.get("id").is_none(), "{}", generous.body);
    let without =
        post("/v1/generate", json!({ "difficulty": "medium", "seed": 4, "exclude": ["hidden-pair", "pointing"] }))
            .await;
    assert_eq!(without.status, StatusCode::OK);
    let used = without.body["rating"]["techniques"].to_string();
    assert!(!used.contains("hidden-pair") && !used.contains("\"pointing\""), "{used}");
}

#[tokio::test]
async fn a_variant_puzzle_is_made_to_order_under_its_rules() {
    let order = json!({ "difficulty": "easy", "variant": "x", "seed": 3, "min_givens": 30, "se_max": 1.5 });
    let reply = post("/v1/generate", order).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let answer = &reply.body;
    assert_eq!(answer["variant"], "x");
    assert_eq!(answer["constraints"], json!({ "diagonals": "both" }));
    assert!(answer.get("id").is_none(), "a variant puzzle has no id: {answer}");
    assert!(answer["attempts"].as_u64().unwrap() >= 1);
    let puzzle = answer["puzzle"].as_str().unwrap();
    assert!(puzzle.bytes().filter(|&cell| cell != b'.').count() >= 30, "{puzzle}");
    assert!(answer["rating"]["rating"].as_f64().unwrap() <= 1.5, "{answer}");
    // The answer's solution is the puzzle's only one under the diagonals, and its rating the one
    // /v1/rate gives it.
    let rules = json!({ "board": puzzle, "variant": "x" });
    let solved = post("/v1/solve", rules.clone()).await;
    assert_eq!((&solved.body["solution"], &solved.body["unique"]), (&answer["solution"], &json!(true)));
    let rated = post("/v1/rate", rules).await;
    assert_eq!(rated.body, answer["rating"]);
}

#[tokio::test]
async fn orders_no_puzzle_can_meet_are_refused_and_rare_ones_say_what_was_missing() {
    for (order, detail) in [
        (json!({ "difficulty": "hard", "require": ["x-wings"] }), "`require`: unknown technique \"x-wings\""),
        (
            json!({ "difficulty": "medium", "require": ["x-wing"], "se_max": 3.0 }),
            "no puzzle can meet the order: x-wing rates 3.2, above the highest rating asked, 3.0",
        ),
        (
            json!({ "difficulty": "hard", "se_min": 5.0 }),
            "no puzzle can meet the order: the rating range 5.0-4.6 is empty",
        ),
        (
            json!({ "difficulty": "extreme", "variant": "x", "require": ["forcing-chain"] }),
            "no puzzle can meet the order: forcing-chain is not applied to variant grids",
        ),
    ] {
        let reply = post("/v1/generate", order.clone()).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
        assert!(problem["detail"].as_str().unwrap().starts_with(detail), "{order}: {problem}");
    }
    // Hard puzzles of 18 givens are rare: a short generation timeout ends the search.
    let router = router(&ServeConfig { generate_timeout_ms: 150, ..config() });
    let rare = json!({ "difficulty": "hard", "seed": 1, "max_givens": 18 });
    let reply = send(router, post_json("/v1/generate", rare.to_string())).await;
    let problem = assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "solve-timeout");
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("no hard puzzle meeting the order was found within the generation timeout of 150 ms ("),
        "{detail}"
    );
    assert!(detail.contains("had a number of givens outside the range"), "{detail}");
}

/// Issue 51's fifth item: orders the rules or the level make impossible spent the whole solve
/// timeout and answered 503 (a batch of 1,000 of them about 500 CPU-seconds); each is a 422 before
/// any work, on `/v1/generate` and on its batch.
#[tokio::test]
async fn orders_the_rules_or_the_level_make_impossible_are_422s_before_any_work() {
    let refused = "no puzzle can meet the order: ";
    let mut cases = Vec::new();
    for technique in ["cage-sum", "neighbour-rule", "innies-outies"] {
        for variant in [None, Some("x")] {
            let mut order = json!({ "difficulty": "medium", "require": [technique] });
            if let Some(variant) = variant {
                order["variant"] = json!(variant);
            }
            cases.push((order, format!("{refused}{technique} needs ")));
        }
    }
    cases.extend([
        (
            json!({ "difficulty": "medium", "exclude": ["full-house"] }),
            format!("{refused}full-house cannot be excluded"),
        ),
        (
            json!({ "difficulty": "easy", "se_min": 1.0, "se_max": 1.0 }),
            format!("{refused}only full houses rate below 1.2"),
        ),
        (
            json!({ "difficulty": "easy", "se_min": 2.0, "se_max": 2.2 }),
            format!("{refused}no puzzle rates 2.0-2.2 at easy"),
        ),
        (
            json!({ "difficulty": "easy", "se_min": 1e308 }),
            "`se_min`: 1e308; expected a rating from 0.0 to 12.0".to_owned(),
        ),
        (
            json!({ "difficulty": "easy", "se_max": -1 }),
            "`se_max`: -1.0; expected a rating from 0.0 to 12.0".to_owned(),
        ),
        (
            json!({ "difficulty": "easy", "min_givens": 81 }),
            format!("{refused}81 givens fill the grid's 81 cells; a puzzle has a blank, so at most 80 givens"),
        ),
    ]);
    for (order, detail) in cases {
        for (path, order) in [("/v1/generate", order.clone()), ("/v1/generate/batch", with_count(&order, 1000))] {
            let reply = post(path, order.clone()).await;
            let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
            assert!(problem["detail"].as_str().unwrap().starts_with(&detail), "{path} {order}: {problem}");
        }
    }
    // Where the rules have what the technique rests on, or givens are given back far enough, the
    // same wishes are possible.
    let killer = json!({ "difficulty": "medium", "variant": "killer", "require": ["innies-outies"], "seed": 1 });
    assert_eq!(post("/v1/generate", killer).await.status, StatusCode::OK);
    let full = json!({ "difficulty": "easy", "se_max": 1.0, "min_givens": 75, "seed": 2 });
    let reply = post("/v1/generate", full).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["rating"]["rating"], 1.0);
}

/// `order` with `count` puzzles, for `/v1/generate/batch`.
fn with_count(order: &Value, count: u64) -> Value {
    let mut order = order.clone();
    order["count"] = json!(count);
    order
}

#[tokio::test]
async fn entries_the_solution_does_not_have_are_pointed_out_given_the_givens() {
    // The player has entered r1c3 = 4 (right) and r1c4 = 2 (the solution has 6).
    let mut board = PUZZLE.to_owned();
    board.replace_range(2..4, "42");
    let expected = json!([{
        "row": 0, "col": 3, "kind": "wrong-entry", "value": 2,
        "message": "r1c4 = 2 is not part of the solution",
    }]);
    let hint = post("/v1/hint", json!({ "board": board, "givens": PUZZLE })).await;
    assert_eq!(hint.status, StatusCode::OK, "{}", hint.body);
    assert_eq!(hint.body["mistakes"], expected);
    assert_eq!(hint.body["steps"], json!([]));
    for path in ["/v1/rate", "/v1/explain"] {
        let reply = post(path, json!({ "board": board, "givens": PUZZLE })).await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "wrong-candidates");
        assert_eq!(reply.body["mistakes"], expected, "{path}");
    }
    // Without the givens the wrong entry only makes a board with no solution.
    assert_problem(&post("/v1/hint", json!({ "board": board })).await, StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
    // Right entries: the hint goes on from the board, the givens' solution checked.
    let mut right = PUZZLE.to_owned();
    right.replace_range(2..4, "46");
    let hint = post("/v1/hint", json!({ "board": right, "givens": PUZZLE })).await;
    assert_eq!(hint.status, StatusCode::OK);
    assert!(hint.body.get("mistakes").is_none());
    assert_eq!(hint.body, post("/v1/hint", json!({ "board": right })).await.body);
    // The board must hold every given, unchanged, and be of the givens' shape.
    let mut changed = board.clone();
    changed.replace_range(0..1, "6");
    for (givens, detail) in [
        (json!(PUZZLE), "`givens`: row 0, col 0 holds 5 in the givens but 6 on the board"),
        (json!(".".repeat(16)), "`givens`: the givens are a 4x4 grid, the board a 9x9 one"),
        (json!("12"), "`givens`: the board has 2 cells, which fits no grid"),
    ] {
        let reply = post("/v1/hint", json!({ "board": changed, "givens": givens })).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
        assert!(problem["detail"].as_str().unwrap().starts_with(detail), "{problem}");
    }
}

/// The lines `/v1/generate/batch` answers `body` with, through `router`.
async fn generate_batch(router: sudokud::http::App, body: Value) -> Vec<Value> {
    let (status, lines) = ndjson_reply(router, post_json("/v1/generate/batch", body.to_string())).await;
    assert_eq!(status, StatusCode::OK, "{lines:?}");
    lines
}

#[tokio::test]
async fn a_generate_batch_streams_count_puzzles_from_consecutive_seeds() {
    let request = json!({ "difficulty": "medium", "seed": 11, "count": 6, "symmetry": "rotational" });
    let lines = generate_batch(router(&config()), request.clone()).await;
    assert_eq!(lines.len(), 6);
    let mut puzzles = std::collections::BTreeSet::new();
    for (index, line) in lines.iter().enumerate() {
        // Each line is what /v1/generate answers for its seed, a puzzle with one solution.
        let seed = 11 + index as u64;
        assert_eq!(line["seed"], seed, "{line}");
        assert_eq!(line["id"], format!("medium.rotational.3x3.{seed}"));
        let alone =
            post("/v1/generate", json!({ "difficulty": "medium", "seed": seed, "symmetry": "rotational" })).await;
        assert_eq!(&alone.body, line);
        assert!(puzzles.insert(check_generated(line).to_string()), "puzzle {index} is made twice");
    }
    // The same request, the same lines; the CLI's `generate --count --seed` makes the same puzzles.
    assert_eq!(generate_batch(router(&config()), request).await, lines);
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_sudokud"))
        .args(["generate", "--difficulty", "medium", "--symmetry", "rotational", "--seed", "11", "--count", "6"])
        .output()
        .unwrap();
    let cli = String::from_utf8(cli.stdout).unwrap();
    let cli: Vec<&str> = cli.lines().map(|line| line.split('\t').next().unwrap()).collect();
    let http: Vec<&str> = lines.iter().map(|line| line["puzzle"].as_str().unwrap()).collect();
    assert_eq!(cli, http);
}

/// A batch past `--batch-timeout-ms` starts no more items: each is a problem line of its own.
#[tokio::test]
async fn a_batch_past_its_bound_answers_every_item_left_with_a_problem_line() {
    let spent = || router(&ServeConfig { batch_timeout_ms: 0, ..config() });
    let lines = generate_batch(spent(), json!({ "difficulty": "easy", "seed": 1, "count": 3 })).await;
    let problems: Vec<&Value> = lines.iter().filter(|line| line["type"].is_string()).collect();
    assert_eq!(problems.len(), 3, "{lines:?}");
    for (index, problem) in problems.into_iter().enumerate() {
        assert_eq!((&problem["index"], &problem["status"]), (&json!(index), &json!(408)), "{problem}");
        assert!(problem["type"].as_str().unwrap().ends_with("/request-timeout"), "{problem}");
        assert!(problem["detail"].as_str().unwrap().contains("--batch-timeout-ms"), "{problem}");
    }
    let body = format!("{PUZZLE}\n{PUZZLE}\n");
    let request = axum::http::Request::post("/v1/solve/batch")
        .header("content-type", "application/x-ndjson")
        .body(axum::body::Body::from(body))
        .unwrap();
    let (status, lines) = ndjson_reply(spent(), request).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines.iter().all(|line| line["status"] == 408), "{lines:?}");
}

#[tokio::test]
async fn a_generate_batch_takes_what_generate_takes() {
    // Another size and representation, puzzles made to order, a variant: each line as /v1/generate's.
    for request in [
        json!({ "difficulty": "easy", "size": 6, "seed": 2, "format": "numbers" }),
        json!({ "difficulty": "easy", "seed": 2, "min_givens": 40 }),
        json!({ "difficulty": "easy", "seed": 3, "variant": "x" }),
    ] {
        let mut batch = request.clone();
        batch["count"] = json!(3);
        let lines = generate_batch(router(&config()), batch).await;
        assert_eq!(lines.len(), 3);
        for (index, line) in lines.iter().enumerate() {
            let mut alone = request.clone();
            alone["seed"] = json!(request["seed"].as_u64().unwrap() + index as u64);
            assert_eq!(&post("/v1/generate", alone).await.body, line, "{request}");
        }
    }
    // The most a batch makes, of the smallest grids; without a seed the server picks the first.
    let lines = generate_batch(router(&config()), json!({ "difficulty": "easy", "size": 4, "count": 1000 })).await;
    assert_eq!(lines.len(), 1000);
    let first = lines[0]["seed"].as_u64().unwrap();
    for (index, line) in lines.iter().enumerate() {
        assert_eq!(line["seed"], sudokud::generate::batch_seed(first, index as u64), "{line}");
        let puzzle = sudokud::sizes::Grid::parse(line["puzzle"].as_str().unwrap(), None).unwrap();
        let count = sudokud::search::count_grid(&puzzle, 2, &mut sudokud::solver::Never).unwrap();
        assert_eq!(count.solutions, 1, "{line}");
    }
}

#[tokio::test]
async fn a_bad_generate_batch_is_refused_before_any_puzzle() {
    for (body, detail) in [
        (json!({ "difficulty": "easy" }), "`count` is missing: how many puzzles to make, 1 to 1000"),
        (json!({ "difficulty": "easy", "count": 0 }), "`count`: found 0; expected 1 to 1000"),
        (json!({ "difficulty": "easy", "count": 1001 }), "`count`: found 1001; expected 1 to 1000"),
        (json!({ "difficulty": "easy", "count": "3" }), "`count`: found \"3\"; expected an integer"),
        (json!({ "difficulty": "insane", "count": 2 }), "`difficulty`: found \"insane\""),
        (json!({ "difficulty": "hard", "size": 4, "count": 2 }), "`difficulty`: "),
        (
            json!({ "difficulty": "medium", "require": ["x-wing"], "se_max": 3.0, "count": 2 }),
            "no puzzle can meet the order: x-wing rates 3.2, above the highest rating asked, 3.0",
        ),
        (
            json!({ "difficulty": "extreme", "variant": "x", "require": ["forcing-chain"], "count": 2 }),
            "no puzzle can meet the order: forcing-chain is not applied to variant grids",
        ),
    ] {
        let reply = post("/v1/generate/batch", body.clone()).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
        assert!(problem["detail"].as_str().unwrap().starts_with(detail), "{body}: {problem}");
        assert_eq!(problem["instance"], "/v1/generate/batch");
    }
    // A full server refuses the batch up front, and takes it once a slot is free.
    let full = full_pool().await;
    let request = || post_json("/v1/generate/batch", json!({ "difficulty": "easy", "count": 2 }).to_string());
    let reply = send(full.router.clone(), request()).await;
    assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "overloaded");
    assert!(reply.headers.contains_key(axum::http::header::RETRY_AFTER));
    let (status, lines) = ndjson_reply(full.release().await, request()).await;
    assert_eq!((status, lines.len()), (StatusCode::OK, 2));
}

#[tokio::test]
async fn a_puzzle_not_made_in_time_is_a_problem_line_and_the_next_ones_follow() {
    // Hard puzzles of 18 givens are rare: within 150 ms no order is met, each line says so.
    let short = router(&ServeConfig { generate_timeout_ms: 150, ..config() });
    let rare = json!({ "difficulty": "hard", "seed": 1, "max_givens": 18, "count": 3 });
    let lines = generate_batch(short, rare).await;
    assert_eq!(lines.len(), 3);
    for (index, line) in lines.iter().enumerate() {
        assert_item_problem(line, 503, "solve-timeout");
        assert_eq!(line["index"], index, "{line}");
        assert!(line["detail"].as_str().unwrap().starts_with("no hard puzzle meeting the order was found"), "{line}");
        assert!(line.get("instance").is_none() && line.get("request_id").is_none(), "{line}");
    }
    // A plain level past its deadline fails alike.
    let lines = generate_batch(
        router(&ServeConfig { generate_timeout_ms: 0, ..config() }),
        json!({ "difficulty": "easy", "count": 2 }),
    )
    .await;
    assert_eq!(lines.len(), 2);
    lines.iter().for_each(|line| assert_item_problem(line, 503, "solve-timeout"));
}

#[tokio::test]
async fn a_generate_batch_stops_when_its_client_goes_away() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    // One solver slot and no queue: while a batch runs, a solve finds no room (503).
    let config = ServeConfig {
        max_concurrent_solves: std::num::NonZeroUsize::new(1),
        max_queued_solves: 0,
        queue_timeout_ms: 10,
        ..config()
    };
    let running = start(config).await;
    let body = json!({ "difficulty": "medium", "seed": 1, "count": 1000 }).to_string();
    let mut stream = tokio::net::TcpStream::connect(running.addr).await.unwrap();
    let head = format!(
        "POST /v1/generate/batch HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    // The first line arrives while the rest are still being made.
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&answer).contains("\"seed\":1,") {
        let read = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buffer)).await.unwrap().unwrap();
        assert!(read > 0, "the server closed early");
        answer.extend_from_slice(&buffer[..read]);
    }
    let client = reqwest::Client::new();
    let solve = || post_solve(&client, running.addr, json!({ "board": PUZZLE }).to_string());
    let mut refused = 0;
    for _ in 0..20 {
        refused += u32::from(solve().await.status() == 503);
    }
    assert!(refused > 0, "the batch holds the one slot while its client reads");
    // Gone: the puzzle being made ends, and no other is started, so every solve finds the slot.
    drop(stream);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    for _ in 0..20 {
        assert_eq!(solve().await.status(), 200);
    }
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

//! Grids of every size through the HTTP API: each representation read and answered in kind, the
//! `box` member, validate, count and batch, and the errors. Solutions are checked by the rules
//! written out here over the JSON answer, not by the service's own checker.

use axum::http::StatusCode;
use serde_json::{Value, json};
use sudokud::generate::Symmetry;
use sudokud::generate::sizes as generate;
use sudokud::sizes::Shape;
use sudokud::solver::Never;

use crate::common::data_dir;
use crate::common::http::*;

/// The value of one symbol, 0 for a blank.
fn value_of(symbol: char) -> u8 {
    match symbol.to_ascii_uppercase() {
        '.' | '0' => 0,
        digit @ '1'..='9' => digit as u8 - b'0',
        letter @ 'A'..='P' => letter as u8 - b'A' + 10,
        other => panic!("not a symbol: {other:?}"),
    }
}

/// The cells of a board in any representation, row-major.
fn cells_of(board: &Value) -> Vec<u8> {
    match board {
        Value::String(text) => text.chars().filter(|ch| !ch.is_ascii_whitespace()).map(value_of).collect(),
        Value::Array(rows) => rows
            .iter()
            .flat_map(|row| row.as_array().expect("a row").iter())
            .map(|cell| match cell {
                Value::String(symbol) => value_of(symbol.chars().next().expect("a symbol")),
                Value::Number(number) => u8::try_from(number.as_u64().expect("an integer")).unwrap(),
                Value::Null => 0,
                other => panic!("not a cell: {other}"),
            })
            .collect(),
        other => panic!("not a board: {other}"),
    }
}

/// Whether `solution` fills `puzzle` by the rules of boxes `box_rows` x `box_cols`: every row,
/// column and box holds 1 to N once, and every given is kept.
fn solves(puzzle: &[u8], solution: &[u8], box_rows: usize, box_cols: usize) -> bool {
    let size = box_rows * box_cols;
    let all: u32 = ((1u64 << size) - 1) as u32;
    let set = |cells: &mut dyn Iterator<Item = usize>| cells.fold(0u32, |set, cell| set | 1 << (solution[cell] - 1));
    let rows = (0..size).all(|row| set(&mut (0..size).map(|col| row * size + col)) == all);
    let cols = (0..size).all(|col| set(&mut (0..size).map(|row| row * size + col)) == all);
    let boxes = (0..size).all(|index| {
        let (top, left) = (index / box_rows * box_rows, index % box_rows * box_cols);
        set(&mut (0..size).map(|k| (top + k / box_cols) * size + left + k % box_cols)) == all
    });
    let kept = puzzle.iter().zip(solution).all(|(&given, &value)| given == 0 || given == value);
    solution.iter().all(|&value| value != 0) && rows && cols && boxes && kept
}

/// `line` as rows of one-character strings, `size` to a row.
fn strings(line: &str, size: usize) -> Value {
    let chars: Vec<char> = line.chars().collect();
    chars.chunks(size).map(|row| row.iter().map(|ch| ch.to_string()).collect::<Vec<_>>()).collect()
}

/// `line` as rows of numbers, `size` to a row.
fn numbers(line: &str, size: usize) -> Value {
    let chars: Vec<char> = line.chars().collect();
    chars.chunks(size).map(|row| row.iter().map(|&ch| value_of(ch)).collect::<Vec<_>>()).collect()
}

/// A unique puzzle of `shape` from our generator; the tests check answers to it by the rules.
fn puzzle_of(shape: Shape, seed: u64) -> String {
    generate::unique(shape, Symmetry::None, 0, seed, &mut Never).unwrap().0.to_string()
}

async fn post(path: &str, body: Value) -> Reply {
    send(router(&config()), post_json(path, body.to_string())).await
}

#[tokio::test]
async fn every_shape_is_solved_in_each_representation_and_answered_in_kind() {
    for shape in Shape::all().filter(|shape| shape.size() <= 16) {
        let (size, line) = (shape.size(), puzzle_of(shape, 11));
        let box_member = json!(shape.to_string());
        for (board, kind) in
            [(json!(line), "text"), (strings(&line, size), "strings"), (numbers(&line, size), "numbers")]
        {
            let reply = post("/v1/solve", json!({ "board": board, "box": box_member })).await;
            assert_eq!(reply.status, StatusCode::OK, "{shape} {kind}: {}", reply.body);
            assert_eq!(reply.body["unique"], true, "{shape} {kind}");
            let solution = &reply.body["solution"];
            match kind {
                "text" => assert!(solution.as_str().is_some_and(|text| text.len() == size * size)),
                "strings" => assert!(solution[0][0].is_string() && solution.as_array().unwrap().len() == size),
                _ => assert!(solution[0][0].is_u64() && solution[size - 1].as_array().unwrap().len() == size),
            }
            let solved = cells_of(solution);
            assert!(
                solves(&cells_of(&board), &solved, shape.box_rows(), shape.box_cols()),
                "{shape} {kind}: {solution}"
            );
        }
    }
}

#[tokio::test]
async fn the_25x25_puzzles_solve_to_the_sat_solvers_solutions() {
    let text = std::fs::read_to_string(data_dir().join("sizes/25x25_sudoku_smt_solvers.tsv")).unwrap();
    for line in text.lines().take(3) {
        let (puzzle, solution) = line.split_once('\t').unwrap();
        let reply = post("/v1/solve", json!({ "board": strings(puzzle, 25) })).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
        assert_eq!(reply.body, json!({ "solution": strings(solution, 25), "unique": true }));
    }
}

#[tokio::test]
async fn letters_are_read_in_either_case_and_answered_in_upper_case() {
    let shape = Shape::new(4, 4).unwrap();
    let line = puzzle_of(shape, 3);
    let reply = post("/v1/solve", json!({ "board": line.to_ascii_lowercase() })).await;
    let solution = reply.body["solution"].as_str().unwrap();
    assert!(solution.chars().all(|ch| ch.is_ascii_digit() || ch.is_ascii_uppercase()), "{solution}");
    let lower = strings(&line.to_ascii_lowercase(), 16);
    let reply = post("/v1/solve", json!({ "board": lower })).await;
    assert_eq!(reply.body["solution"], strings(solution, 16));
}

#[tokio::test]
async fn the_box_defaults_to_the_widest_and_another_changes_the_rules() {
    // A 1 at r0c0 and r1c2: one box of 2x3 (two rows, three columns), two boxes of 3x2.
    let mut line = ".".repeat(36);
    line.replace_range(0..1, "1");
    line.replace_range(8..9, "1");
    let wide = post("/v1/validate", json!({ "board": line })).await;
    assert_eq!(wide.body["conflicts"][0], json!({ "row": 0, "col": 0, "digit": 1, "units": ["box"] }));
    let tall = post("/v1/validate", json!({ "board": line, "box": "3x2" })).await;
    assert_eq!(tall.body, json!({ "valid": true, "complete": false, "conflicts": [] }));
    let reply = post("/v1/solve", json!({ "board": line, "box": "3x2" })).await;
    assert_eq!(reply.body["unique"], false);
    assert!(solves(&cells_of(&json!(line)), &cells_of(&reply.body["solution"]), 3, 2));
}

#[tokio::test]
async fn an_empty_4x4_grid_has_its_288_solutions() {
    let reply = post("/v1/count", json!({ "board": ".".repeat(16) })).await;
    assert_eq!(reply.body, json!({ "solutions": 288, "limit": 1000, "limit_reached": false }));
    let reply = post("/v1/count", json!({ "board": numbers(&".".repeat(36), 6), "limit": 5 })).await;
    assert_eq!(reply.body, json!({ "solutions": 5, "limit": 5, "limit_reached": true }));
}

#[tokio::test]
async fn conflicts_of_any_size_name_cells_and_values() {
    // 16x16: G (16) twice in row 0, in different boxes.
    let mut line = ".".repeat(256);
    line.replace_range(0..1, "G");
    line.replace_range(15..16, "g");
    let reply = post("/v1/validate", json!({ "board": strings(&line, 16) })).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(
        reply.body,
        json!({
            "valid": false,
            "complete": false,
            "conflicts": [
                { "row": 0, "col": 0, "digit": 16, "units": ["row"] },
                { "row": 0, "col": 15, "digit": 16, "units": ["row"] },
            ]
        })
    );
    let reply = post("/v1/solve", json!({ "board": line })).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "conflicting-givens");
    assert_eq!(problem["conflicts"], reply.body["conflicts"]);
    assert_eq!(problem["conflicts"][1]["col"], 15);
    // A complete, valid grid.
    let reply = post("/v1/validate", json!({ "board": numbers("1234341221434321", 4) })).await;
    assert_eq!(reply.body, json!({ "valid": true, "complete": true, "conflicts": [] }));
}

#[tokio::test]
async fn boards_and_boxes_that_fit_no_grid_say_why() {
    let mut past_sixteen = strings(&".".repeat(256), 16);
    past_sixteen[3][4] = json!("H");
    let cases = [
        (
            json!({ "board": ".".repeat(50) }),
            "/board",
            "the board has 50 cells, which fits no grid: a board has 16 (4x4)",
        ),
        (json!({ "board": ([[0u8; 7]; 7]) }), "/board/0", "board[0] has 7 cells, which fits no grid"),
        (
            json!({ "board": (vec![vec![0u8; 6], vec![0; 6], vec![0; 5]]) }),
            "/board/2",
            "board[2] has 5 cells; expected 6",
        ),
        (json!({ "board": ([[0u8; 4]; 5]) }), "/board", "`board` has 5 rows; expected 4"),
        (
            json!({ "board": ([[0u8, 0, 0, 5], [0; 4], [0; 4], [0; 4]]) }),
            "/board/0/3",
            "found 5; expected an integer 0-4",
        ),
        (
            json!({ "board": past_sixteen }),
            "/board/3/4",
            "found the string \"H\"; expected \"1\" to \"9\" or \"A\" to \"G\"",
        ),
        (json!({ "board": "G".repeat(36) }), "/board", "found 'G'; expected a digit 1-6"),
        (json!({ "board": ".".repeat(36), "box": "2x4" }), "/box", "box 2x4 makes a 8x8 grid, but the board is 6x6"),
    ];
    for (body, pointer, detail) in cases {
        for path in ["/v1/solve", "/v1/validate", "/v1/count"] {
            let reply = post(path, body.clone()).await;
            let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-board");
            assert_eq!(problem["pointer"], pointer, "{path} {body}");
            assert!(problem["detail"].as_str().unwrap().contains(detail), "{path} {body}: {}", problem["detail"]);
        }
    }
    for shape in [json!("7x7"), json!("3"), json!(6)] {
        let reply = post("/v1/solve", json!({ "board": ".".repeat(36), "box": shape })).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
        assert!(problem["detail"].as_str().unwrap().starts_with("`box`:"), "{}", problem["detail"]);
    }
}

#[tokio::test]
async fn hints_and_explanations_take_every_size_and_their_steps_hold() {
    // A 16x16 puzzle: every step's placements and eliminations agree with the solution the
    // service itself found, and the steps end on it.
    let generated = post("/v1/generate", json!({ "difficulty": "hard", "size": 16, "seed": 5 })).await.body;
    let (puzzle, solution) = (cells_of(&generated["puzzle"]), cells_of(&generated["solution"]));
    let explained = post("/v1/explain", json!({ "board": generated["puzzle"] })).await;
    assert_eq!(explained.status, StatusCode::OK, "{}", explained.body);
    assert_eq!(explained.body["solution"], generated["solution"]);
    assert_eq!(explained.body["rating"], generated["rating"]);
    let mut grid = puzzle.clone();
    for step in explained.body["steps"].as_array().unwrap() {
        let at = |mark: &Value| mark["row"].as_u64().unwrap() as usize * 16 + mark["col"].as_u64().unwrap() as usize;
        for placement in step["placements"].as_array().unwrap() {
            assert_eq!(u64::from(solution[at(placement)]), placement["digit"].as_u64().unwrap(), "{step}");
            grid[at(placement)] = solution[at(placement)];
        }
        for elimination in step["eliminations"].as_array().unwrap() {
            assert_ne!(u64::from(solution[at(elimination)]), elimination["digit"].as_u64().unwrap(), "{step}");
        }
        assert!(step["explanation"].as_str().is_some_and(|sentence| sentence.ends_with('.')));
    }
    assert_eq!(grid, solution, "the steps place every value");
    let hint = post("/v1/hint", json!({ "board": generated["puzzle"] })).await.body;
    let steps = hint["steps"].as_array().unwrap();
    assert_eq!(steps[..], explained.body["steps"].as_array().unwrap()[..steps.len()]);
    assert_eq!(hint["step"], steps[steps.len() - 1]);
    // A 4x4 puzzle with its box said outright; the empty one has no single answer.
    let hint = post("/v1/hint", json!({ "board": ".14.........2..3", "box": "2x2" })).await;
    assert_eq!(hint.body["solved"], false, "{}", hint.body);
    let reply = post("/v1/explain", json!({ "board": ".".repeat(16) })).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "multiple-solutions");
}

#[tokio::test]
async fn ratings_take_every_size_and_agree_with_generation() {
    for (size, level, seed) in [(6, "medium", 4), (12, "hard", 2), (16, "easy", 1)] {
        let request = json!({ "difficulty": level, "size": size, "seed": seed });
        let generated = post("/v1/generate", request).await.body;
        let rated = post("/v1/rate", json!({ "board": generated["puzzle"], "box": generated["box"] })).await;
        assert_eq!(rated.status, StatusCode::OK, "{}", rated.body);
        assert_eq!(rated.body, generated["rating"], "{size}x{size} {level}");
    }
    let reply = post("/v1/rate", json!({ "board": ".14.........2..3" })).await;
    assert_eq!(reply.body["level"], "easy");
    assert_eq!(reply.body["solved_by_logic"], true);
    let reply = post("/v1/rate", json!({ "board": ".".repeat(16) })).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "multiple-solutions");
}

#[tokio::test]
async fn a_batch_mixes_sizes_and_boxes() {
    let six = puzzle_of(Shape::new(3, 2).unwrap(), 5);
    let twelve = puzzle_of(Shape::new(3, 4).unwrap(), 5);
    let body = json!({ "boards": [
        PUZZLE,
        { "board": six, "box": "3x2" },
        numbers(&twelve, 12),
        { "board": ".".repeat(36), "box": "2x4" },
        ".".repeat(50),
    ] });
    let reply = send(router(&config()), post_json("/v1/solve/batch", body.to_string())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let results = reply.body["results"].as_array().unwrap();
    assert_eq!(results[0], json!({ "solution": SOLUTION, "unique": true }));
    assert!(solves(&cells_of(&json!(six)), &cells_of(&results[1]["solution"]), 3, 2), "{}", results[1]);
    assert!(solves(&cells_of(&numbers(&twelve, 12)), &cells_of(&results[2]["solution"]), 3, 4));
    assert_item_problem(&results[3], 422, "invalid-board");
    assert_eq!(results[3]["pointer"], "/boards/3/box");
    assert_item_problem(&results[4], 422, "invalid-board");

    let lines = format!("{}\n{}\n", json!({ "board": six, "box": "3x2" }), json!({ "board": strings(&twelve, 12) }));
    let (status, items) = ndjson_reply(router(&config()), ndjson(lines)).await;
    assert_eq!(status, StatusCode::OK);
    assert!(solves(&cells_of(&json!(six)), &cells_of(&items[0]["solution"]), 3, 2), "{}", items[0]);
    assert!(items[1]["solution"][0][0].is_string());
    assert!(solves(&cells_of(&numbers(&twelve, 12)), &cells_of(&items[1]["solution"]), 3, 4));
}

#[tokio::test]
async fn generated_puzzles_of_other_sizes_have_one_solution_and_their_level() {
    for (request, box_rows, box_cols) in [
        (json!({ "difficulty": "medium", "size": 6, "box": "3x2", "seed": 4 }), 3, 2),
        (json!({ "difficulty": "hard", "size": 12, "seed": 2, "symmetry": "rotational", "format": "numbers" }), 3, 4),
        (json!({ "difficulty": "easy", "box": "4x4", "seed": 1, "format": "strings" }), 4, 4),
    ] {
        let reply = post("/v1/generate", request.clone()).await;
        assert_eq!(reply.status, StatusCode::OK, "{request}: {}", reply.body);
        let generated = &reply.body;
        assert_eq!(generated["rating"]["level"], request["difficulty"]);
        assert_eq!(generated["box"], format!("{box_rows}x{box_cols}"));
        let (puzzle, solution) = (cells_of(&generated["puzzle"]), cells_of(&generated["solution"]));
        assert!(solves(&puzzle, &solution, box_rows, box_cols), "{request}");
        // The service itself finds the one solution, given the box the answer names.
        let solved = post("/v1/solve", json!({ "board": generated["puzzle"], "box": generated["box"] })).await;
        assert_eq!(solved.body, json!({ "solution": generated["solution"], "unique": true }), "{request}");
        let again = post("/v1/generate", request.clone()).await;
        assert_eq!(again.body, reply.body, "the same seed makes the same puzzle");
    }
    let classic = post("/v1/generate", json!({ "difficulty": "easy", "seed": 1 })).await;
    assert!(classic.body.get("box").is_none(), "9x9 answers are as before");
}

#[tokio::test]
async fn generate_refuses_sizes_boxes_and_levels_that_do_not_fit() {
    for (request, member) in [
        (json!({ "difficulty": "easy", "size": 7 }), "`size`: size 7 is no grid size"),
        (
            json!({ "difficulty": "easy", "size": 8, "box": "2x3" }),
            "`box`: box 2x3 makes a 6x6 grid, but the size is 8",
        ),
        (
            json!({ "difficulty": "medium", "size": 4 }),
            "`difficulty`: medium puzzles are not offered at 4x4; its levels are easy",
        ),
    ] {
        let reply = post("/v1/generate", request.clone()).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
        assert!(problem["detail"].as_str().unwrap().starts_with(member), "{request}: {}", problem["detail"]);
    }
}

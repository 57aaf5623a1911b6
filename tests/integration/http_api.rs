//! The HTTP contract, driven through the real router with `tower::ServiceExt::oneshot`: every
//! endpoint, every board representation and every error kind.

use axum::body::{Body, to_bytes};
use axum::http::{HeaderValue, Request, StatusCode, header};
use serde_json::{Value, json};
use sudokud::config::ServeConfig;
use sudokud::http::{AppState, Readiness, app};
use tower::ServiceExt;

use crate::common::http::*;

#[tokio::test]
async fn solves_in_each_representation_and_answers_in_the_same_one() {
    for (board, solution) in [
        (json!(PUZZLE), json!(SOLUTION)),
        (rows_of_strings(PUZZLE), rows_of_strings(SOLUTION)),
        (rows_of_numbers(PUZZLE), rows_of_numbers(SOLUTION)),
    ] {
        let reply = solve(board).await;
        assert_eq!(reply.status, StatusCode::OK);
        assert_eq!(reply.headers[header::CONTENT_TYPE], "application/json");
        assert_eq!(reply.body, json!({ "solution": solution, "unique": true }));
    }
}

#[tokio::test]
async fn text_boards_may_use_zeros_and_lines() {
    let lines: Vec<String> =
        PUZZLE.replace('.', "0").as_bytes().chunks(9).map(|r| String::from_utf8_lossy(r).into()).collect();
    let reply = solve(json!(lines.join("\n"))).await;
    assert_eq!(reply.body, json!({ "solution": SOLUTION, "unique": true }));
}

#[tokio::test]
async fn null_cells_are_blanks() {
    let mut board = rows_of_numbers(PUZZLE);
    board[0][2] = Value::Null;
    let reply = solve(board).await;
    assert_eq!(reply.body["solution"], rows_of_numbers(SOLUTION));
}

#[tokio::test]
async fn several_solutions_still_get_one_marked_not_unique() {
    let reply = solve(json!(".".repeat(81))).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body["unique"], false);
    let solution = reply.body["solution"].as_str().unwrap().parse::<sudokud::board::Board>().unwrap();
    assert!(solution.is_complete() && sudokud::rules::conflicts(&solution).is_empty());
}

#[tokio::test]
async fn validate_reports_validity_completeness_and_conflicts() {
    let router = router(&config());
    let reply = send(router.clone(), post_json("/v1/validate", json!({ "board": PUZZLE }).to_string())).await;
    assert_eq!(reply.body, json!({ "valid": true, "complete": false, "conflicts": [] }));

    let reply = send(router.clone(), post_json("/v1/validate", json!({ "board": SOLUTION }).to_string())).await;
    assert_eq!(reply.body, json!({ "valid": true, "complete": true, "conflicts": [] }));

    // LeetCode 36 example 2: an 8 in the corner repeats the 8s of column 0 and box 0.
    let invalid = format!("8{}", &PUZZLE[1..]);
    let reply =
        send(router, post_json("/v1/validate", json!({ "board": rows_of_strings(&invalid) }).to_string())).await;
    assert_eq!(
        reply.body,
        json!({
            "valid": false,
            "complete": false,
            "conflicts": [
                { "row": 0, "col": 0, "digit": 8, "units": ["column", "box"] },
                { "row": 2, "col": 2, "digit": 8, "units": ["box"] },
                { "row": 3, "col": 0, "digit": 8, "units": ["column"] },
            ]
        })
    );
}

#[tokio::test]
async fn conflicting_givens_are_a_422_with_the_conflicts() {
    let reply = solve(json!(format!("55{}", &PUZZLE[2..]))).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "conflicting-givens");
    assert_eq!(
        problem["conflicts"],
        json!([
            { "row": 0, "col": 0, "digit": 5, "units": ["row", "box"] },
            { "row": 0, "col": 1, "digit": 5, "units": ["row", "box"] },
        ])
    );
}

#[tokio::test]
async fn an_unsolvable_puzzle_is_a_422() {
    // r0c8 cannot hold 1-8 (its row) nor 9 (r1c8, its column): no conflict, no solution.
    let line = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63));
    let reply = solve(json!(line)).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "unsolvable");
}

#[tokio::test]
async fn invalid_boards_say_where_and_what() {
    let mut bad_number = rows_of_numbers(PUZZLE);
    bad_number[2][5] = json!(12);
    let mut bad_string = rows_of_strings(PUZZLE);
    bad_string[8][0] = json!("x");
    let mut null_string = rows_of_strings(PUZZLE);
    null_string[4][1] = json!(null);
    let cases = [
        (json!({}), "", "the request has no `board` member"),
        (json!({ "board": null }), "/board", "`board` is null"),
        (json!({ "board": 5 }), "/board", "`board` is a number"),
        (json!({ "board": "123" }), "/board", "the board has 3 cells, which fits no grid: a board has 16 (4x4)"),
        (json!({ "board": format!("{}x", &PUZZLE[..80]) }), "/board", "found 'x'"),
        (json!({ "board": format!("{PUZZLE}x") }), "/board", "the board has 82 cells, which fits no grid"),
        (json!({ "board": [[1]] }), "/board/0", "board[0] has 1 cell, which fits no grid: a row has 4, 6, 8, 9"),
        (
            json!({ "board": ([[0u8; 9]; 10]) }),
            "/board",
            "`board` has 10 rows; expected 9, as many as board[0] has cells",
        ),
        (json!({ "board": [] }), "/board", "`board` is an empty array"),
        (
            json!({ "board": "1234341221434321", "box": "2x3" }),
            "/box",
            "box 2x3 makes a 6x6 grid, but the board is 4x4",
        ),
        (json!({ "board": bad_number }), "/board/2/5", "board[2][5]: found 12"),
        (json!({ "board": bad_string }), "/board/8/0", "board[8][0]: found the string \"x\""),
        (
            json!({ "board": null_string }),
            "/board/4/1",
            "board[4][1] is null, a blank only in a grid of numbers, but this grid's cells are strings: \
             expected \"1\" to \"9\", or \".\" for blank",
        ),
    ];
    for (body, pointer, detail) in cases {
        let reply = send(router(&config()), post_json("/v1/solve", body.to_string())).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-board");
        assert_eq!(problem["pointer"], pointer, "{body}");
        assert!(problem["detail"].as_str().unwrap().contains(detail), "{body}: {}", problem["detail"]);
        // /v1/validate reads boards the same way.
        let reply = send(router(&config()), post_json("/v1/validate", body.to_string())).await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-board");
    }
}

#[tokio::test]
async fn json_that_is_not_a_request_object_is_a_422() {
    for body in ["[1,2]", "\"board\"", r#"{"board":".","board":"."}"#] {
        let reply = send(router(&config()), post_json("/v1/solve", body)).await;
        assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
    }
}

#[tokio::test]
async fn malformed_json_is_a_400() {
    for body in ["", "{", r#"{"board": "#, "not json"] {
        let reply = send(router(&config()), post_json("/v1/solve", body)).await;
        assert_problem(&reply, StatusCode::BAD_REQUEST, "malformed-json");
    }
}

#[tokio::test]
async fn a_missing_or_wrong_content_type_is_a_415() {
    let body = json!({ "board": PUZZLE }).to_string();
    let missing = Request::post("/v1/solve").body(Body::from(body.clone())).unwrap();
    assert_problem(
        &send(router(&config()), missing).await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported-media-type",
    );
    let text = Request::post("/v1/validate")
        .header(header::CONTENT_TYPE, "text/plain")
        .body(Body::from(body.clone()))
        .unwrap();
    assert_problem(&send(router(&config()), text).await, StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported-media-type");
    // JSON with parameters or a +json subtype is fine.
    let charset = Request::post("/v1/solve")
        .header(header::CONTENT_TYPE, "application/json; charset=utf-8")
        .body(Body::from(body))
        .unwrap();
    assert_eq!(send(router(&config()), charset).await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_body_over_the_limit_is_a_413() {
    let config = ServeConfig { body_limit_bytes: 200, ..config() };
    let big = json!({ "board": PUZZLE, "padding": "x".repeat(300) }).to_string();
    let reply = send(router(&config), post_json("/v1/solve", big)).await;
    let problem = assert_problem(&reply, StatusCode::PAYLOAD_TOO_LARGE, "payload-too-large");
    assert!(problem["detail"].as_str().unwrap().contains("200 bytes"));
    // Just under the limit is fine.
    let fits = json!({ "board": PUZZLE }).to_string();
    assert!(fits.len() < 200);
    assert_eq!(send(router(&config), post_json("/v1/solve", fits)).await.status, StatusCode::OK);
}

#[tokio::test]
async fn unknown_routes_and_methods_are_problems() {
    let reply = send(router(&config()), Request::get("/v2/solve").body(Body::empty()).unwrap()).await;
    let problem = assert_problem(&reply, StatusCode::NOT_FOUND, "not-found");
    assert_eq!(problem["instance"], "/v2/solve");

    let reply = send(router(&config()), Request::get("/v1/solve").body(Body::empty()).unwrap()).await;
    assert_problem(&reply, StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed");
    assert_eq!(reply.headers[header::ALLOW], "POST");

    let reply = send(router(&config()), Request::delete("/healthz").body(Body::empty()).unwrap()).await;
    assert_problem(&reply, StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed");
}

#[tokio::test]
async fn a_solve_past_its_deadline_is_a_503_without_retry_after() {
    let config = ServeConfig { solve_timeout_ms: 0, ..config() };
    let reply = send(router(&config), post_json("/v1/solve", json!({ "board": PUZZLE }).to_string())).await;
    assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "solve-timeout");
    // The same work would reach its deadline again: nothing to wait for.
    assert!(!reply.headers.contains_key(header::RETRY_AFTER), "{:?}", reply.headers);
}

#[tokio::test]
async fn a_full_solver_pool_sheds_with_503_and_retry_after() {
    let full = full_pool().await;
    let reply = send(full.router.clone(), post_json("/v1/solve", json!({ "board": PUZZLE }).to_string())).await;
    assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "overloaded");
    assert_eq!(reply.headers[header::RETRY_AFTER], "1");

    let router = full.release().await;
    let reply = send(router, post_json("/v1/solve", json!({ "board": PUZZLE }).to_string())).await;
    assert_eq!(reply.status, StatusCode::OK);
}

#[tokio::test]
async fn health_and_readiness() {
    let readiness = Readiness::default();
    let router = app(&config(), AppState::new(&config(), readiness.clone()));
    let reply = send(router.clone(), Request::get("/healthz").body(Body::empty()).unwrap()).await;
    assert_eq!(reply.body, json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION") }));
    let reply = send(router.clone(), Request::get("/readyz").body(Body::empty()).unwrap()).await;
    assert_eq!(reply.body, json!({ "status": "ready" }));

    readiness.begin_shutdown();
    let reply = send(router.clone(), Request::get("/readyz").body(Body::empty()).unwrap()).await;
    assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "shutting-down");
    assert!(!reply.headers.contains_key(header::RETRY_AFTER));
    // Liveness does not depend on readiness.
    let reply = send(router, Request::get("/healthz").body(Body::empty()).unwrap()).await;
    assert_eq!(reply.status, StatusCode::OK);
}

#[tokio::test]
async fn serves_the_repository_openapi_document_byte_for_byte() {
    let response = router(&config()).oneshot(Request::get("/openapi.yaml").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "application/yaml");
    let body = to_bytes(response.into_body(), 1 << 20).await.unwrap();
    let file = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml")).unwrap();
    assert_eq!(body.as_ref(), file.as_slice());
}

#[tokio::test]
async fn request_ids_are_generated_or_propagated() {
    let reply = send(router(&config()), Request::get("/healthz").body(Body::empty()).unwrap()).await;
    assert_eq!(reply.headers["x-request-id"].len(), 36, "a UUID");

    let request = Request::get("/nowhere").header("x-request-id", "trace-me-42").body(Body::empty()).unwrap();
    let reply = send(router(&config()), request).await;
    assert_eq!(reply.headers["x-request-id"], "trace-me-42");
    assert_eq!(assert_problem(&reply, StatusCode::NOT_FOUND, "not-found")["request_id"], "trace-me-42");

    // Echoed and logged on every line, so a long or unprintable id is replaced, not carried.
    let longest = "x".repeat(128);
    let request = Request::get("/healthz").header("x-request-id", &longest).body(Body::empty()).unwrap();
    assert_eq!(send(router(&config()), request).await.headers["x-request-id"], longest.as_str());
    let unusable: [&[u8]; 4] = [&[b'x'; 129], b"two words", b"caf\xc3\xa9", b""];
    for id in unusable {
        let id = HeaderValue::from_bytes(id).unwrap();
        let request = Request::get("/nowhere").header("x-request-id", id.clone()).body(Body::empty()).unwrap();
        let reply = send(router(&config()), request).await;
        let given = &reply.headers["x-request-id"];
        assert!(given.len() == 36 && given != id, "{id:?} was kept as {given:?}");
        assert_eq!(assert_problem(&reply, StatusCode::NOT_FOUND, "not-found")["request_id"], given.to_str().unwrap());
    }
}

#[tokio::test]
async fn cors_allows_only_the_configured_origins() {
    let config = ServeConfig { cors_origins: vec!["https://app.example".into()], ..config() };
    let preflight = |origin: &str| {
        Request::options("/v1/solve")
            .header(header::ORIGIN, origin)
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .body(Body::empty())
            .unwrap()
    };
    let reply = send(router(&config), preflight("https://app.example")).await;
    assert_eq!(reply.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "https://app.example");
    let reply = send(router(&config), preflight("https://evil.example")).await;
    assert!(!reply.headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));
    // Without configured origins there are no CORS headers at all.
    let reply = send(router(&ServeConfig::default()), preflight("https://app.example")).await;
    assert!(!reply.headers.contains_key(header::ACCESS_CONTROL_ALLOW_ORIGIN));
}

/// Large answers are compressed for a client that asks; small ones (a solve's few hundred bytes)
/// go out as they are, since a new encoder per answer costs more than the bytes it saves.
#[tokio::test]
async fn large_answers_are_compressed_when_asked() {
    let gzip_post = |path: &str, body: Value| {
        Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT_ENCODING, "gzip")
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let batch = json!({ "boards": vec![PUZZLE; 20] });
    let response = router(&config()).oneshot(gzip_post("/v1/solve/batch", batch)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()[header::CONTENT_ENCODING], "gzip");

    let solve = json!({ "board": rows_of_strings(PUZZLE) });
    let response = router(&config()).oneshot(gzip_post("/v1/solve", solve)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(!response.headers().contains_key(header::CONTENT_ENCODING));
    let body = to_bytes(response.into_body(), 4096).await.unwrap();
    assert!(body.len() < sudokud::http::MIN_COMPRESSED_BYTES as usize);
    let answer: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(answer["solution"], json!(rows_of_strings(SOLUTION)));
}

#[tokio::test]
async fn only_a_real_preflight_on_a_route_gets_a_cors_answer() {
    let config = ServeConfig { cors_origins: vec!["https://app.example".into()], ..config() };
    let options = |path: &str, origin: bool, method: bool| {
        let mut request = Request::options(path);
        if origin {
            request = request.header(header::ORIGIN, "https://app.example");
        }
        if method {
            request = request.header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST");
        }
        request.body(Body::empty()).unwrap()
    };
    let reply = send(router(&config), options("/v1/solve", true, true)).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "https://app.example");
    // Anything else is routed as usual: a 405 with Allow on a route, a 404 elsewhere.
    for (origin, method) in [(false, false), (true, false), (false, true)] {
        let reply = send(router(&config), options("/v1/solve", origin, method)).await;
        assert_problem(&reply, StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed");
        assert_eq!(reply.headers[header::ALLOW], "POST");
    }
    for (origin, method) in [(true, true), (false, false)] {
        let reply = send(router(&config), options("/nope", origin, method)).await;
        assert_problem(&reply, StatusCode::NOT_FOUND, "not-found");
    }
    // Actual requests from an allowed origin still get their CORS headers, errors included.
    let request = Request::post("/v1/solve").header(header::ORIGIN, "https://app.example").body(Body::empty());
    let reply = send(router(&config), request.unwrap()).await;
    assert_eq!(reply.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    assert_eq!(reply.headers[header::ACCESS_CONTROL_ALLOW_ORIGIN], "https://app.example");
}

/// The naive oracle for `/v1/candidates`: the values 1 to N that no filled cell of a blank
/// cell's row, column or box holds, by index arithmetic over the text line alone.
fn naive_candidates(line: &str, box_rows: usize, box_cols: usize) -> Vec<Vec<u32>> {
    let size = box_rows * box_cols;
    let value = |symbol: u8| match symbol {
        b'.' | b'0' => 0,
        b'1'..=b'9' => u32::from(symbol - b'0'),
        _ => u32::from(symbol.to_ascii_uppercase() - b'A') + 10,
    };
    let cells: Vec<u32> = line.bytes().map(value).collect();
    (0..size * size)
        .map(|cell| {
            let (row, col) = (cell / size, cell % size);
            if cells[cell] != 0 {
                return Vec::new();
            }
            let seen = |v: u32| {
                (0..size * size).any(|other| {
                    let (r, c) = (other / size, other % size);
                    let same_box = r / box_rows == row / box_rows && c / box_cols == col / box_cols;
                    (r == row || c == col || same_box) && cells[other] == v
                })
            };
            (1..=size as u32).filter(|&v| !seen(v)).collect()
        })
        .collect()
}

#[tokio::test]
async fn candidates_are_what_no_peer_holds_in_both_forms() {
    let router = router(&config());
    let symbol = |v: u32| char::from_digit(v, 36).unwrap().to_ascii_uppercase();
    let hard =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/magictour_top1465.txt")).unwrap();
    let sixteen = format!("1.3{}", ".".repeat(253));
    let mut boards: Vec<(String, usize, usize)> = hard.lines().take(25).map(|line| (line.to_owned(), 3, 3)).collect();
    boards.extend([
        (PUZZLE.to_owned(), 3, 3),
        (sixteen, 4, 4),
        ("..6....2..543....2452..3...3....4...".to_owned(), 3, 2),
    ]);
    for (line, box_rows, box_cols) in boards {
        let body = json!({ "board": line, "box": format!("{box_rows}x{box_cols}") });
        let reply = send(router.clone(), post_json("/v1/candidates", body.to_string())).await;
        assert_eq!(reply.status, StatusCode::OK, "{line}: {}", reply.body);
        let size = box_rows * box_cols;
        let expected = naive_candidates(&line, box_rows, box_cols);
        let rows = reply.body["candidates"].as_array().unwrap();
        assert_eq!(rows.len(), size);
        let pencil_marks = reply.body["pencil_marks"].as_str().unwrap();
        assert_eq!(pencil_marks.len(), size * size * size);
        for (cell, (expected, places)) in expected.iter().zip(pencil_marks.as_bytes().chunks(size)).enumerate() {
            let listed: Vec<u32> = serde_json::from_value(rows[cell / size][cell % size].clone()).unwrap();
            assert_eq!(&listed, expected, "{line}: cell {cell}");
            // The line shows the same marks, and a filled cell as its value alone.
            let given = line.as_bytes()[cell];
            let shown: Vec<u32> = (1..=size as u32).filter(|&v| places[v as usize - 1] == symbol(v) as u8).collect();
            let dots = places.iter().filter(|&&place| place == b'.').count();
            if given == b'.' {
                assert_eq!(&shown, expected, "{line}: cell {cell}");
            } else {
                assert_eq!(shown.len(), 1, "{line}: filled cell {cell}");
                assert_eq!(symbol(shown[0]) as u8, given.to_ascii_uppercase(), "{line}: filled cell {cell}");
            }
            assert_eq!(dots + shown.len(), size, "{line}: cell {cell} has a stray character");
        }
    }
}

#[tokio::test]
async fn candidates_follow_the_variant_rules() {
    let router = router(&config());
    // Anti-knight: a 5 in the centre leaves no 5 a knight's move away, but one two columns over.
    let centre = format!("{}5{}", ".".repeat(40), ".".repeat(40));
    let has_five = |reply: &Reply, row: usize, col: usize| {
        reply.body["candidates"][row][col].as_array().unwrap().contains(&json!(5))
    };
    let knight = send(
        router.clone(),
        post_json("/v1/candidates", json!({ "board": centre, "variant": "anti-knight" }).to_string()),
    )
    .await;
    assert_eq!(knight.status, StatusCode::OK);
    assert!(!has_five(&knight, 2, 3) && !has_five(&knight, 6, 5));
    assert!(has_five(&knight, 2, 2));
    let classic = send(router.clone(), post_json("/v1/candidates", json!({ "board": centre }).to_string())).await;
    assert!(has_five(&classic, 2, 3) && has_five(&classic, 6, 5));
    // A board that is not a board is refused as everywhere.
    let bad = send(router, post_json("/v1/candidates", json!({ "board": "1234" }).to_string())).await;
    assert_eq!(bad.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(bad.body["type"], "https://sudokud.dev/problems/invalid-board");
}

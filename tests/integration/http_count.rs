//! `POST /v1/count` through the real router: counts, limits and every error path.

use std::num::NonZeroUsize;

use axum::http::StatusCode;
use serde_json::{Value, json};
use sudokud::config::ServeConfig;

use crate::common::http::*;

/// `tests/data/multiple_solutions.txt` line 91: exactly two solutions.
const TWO_SOLUTIONS: &str = ".8.7..6..75..6..9...6..9...4..........8.9.5.....3...2..1...4.3...7.5.8.....2....1";

async fn count_with(config: &ServeConfig, body: Value) -> Reply {
    send(router(config), post_json("/v1/count", body.to_string())).await
}

async fn count(body: Value) -> Reply {
    count_with(&config(), body).await
}

#[tokio::test]
async fn counts_solutions_up_to_the_limit() {
    let reply = count(json!({ "board": PUZZLE })).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body, json!({ "solutions": 1, "limit": 1000, "limit_reached": false }));

    let reply = count(json!({ "board": rows_of_numbers(TWO_SOLUTIONS), "limit": 10 })).await;
    assert_eq!(reply.body, json!({ "solutions": 2, "limit": 10, "limit_reached": false }));

    let reply = count(json!({ "board": TWO_SOLUTIONS, "limit": 2 })).await;
    assert_eq!(reply.body, json!({ "solutions": 2, "limit": 2, "limit_reached": true }));

    let reply = count(json!({ "board": ".".repeat(81), "limit": 5000 })).await;
    assert_eq!(reply.body, json!({ "solutions": 5000, "limit": 5000, "limit_reached": true }));
}

#[tokio::test]
async fn an_unsolvable_board_has_zero_solutions() {
    let reply = count(json!({ "board": ".123456789".to_owned() + &".".repeat(71) })).await;
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.body, json!({ "solutions": 0, "limit": 1000, "limit_reached": false }));
}

#[tokio::test]
async fn a_limit_above_the_configured_maximum_is_lowered_to_it() {
    let config = ServeConfig { max_count_limit: NonZeroUsize::new(7).unwrap(), ..config() };
    let reply = count_with(&config, json!({ "board": ".".repeat(81), "limit": 1_000_000 })).await;
    assert_eq!(reply.body, json!({ "solutions": 7, "limit": 7, "limit_reached": true }));
    let reply = count_with(&config, json!({ "board": ".".repeat(81) })).await;
    assert_eq!(reply.body["limit"], 7, "the default limit is capped too");
}

#[tokio::test]
async fn a_limit_is_any_whole_number_however_written() {
    // JSON Schema's `integer` is a number without a fraction: `1e3` and `1000.0` are 1000.
    for limit in ["1000", "1e3", "1000.0", "10e2", "null"] {
        let body = format!(r#"{{"board":"{TWO_SOLUTIONS}","limit":{limit}}}"#);
        let reply = send(router(&config()), post_json("/v1/count", body)).await;
        assert_eq!(reply.body, json!({ "solutions": 2, "limit": 1000, "limit_reached": false }), "{limit}");
    }
    let reply = count(json!({ "board": TWO_SOLUTIONS, "limit": u64::MAX })).await;
    assert_eq!(reply.body["limit"], 100_000, "the largest limit is lowered to the configured maximum");
}

#[tokio::test]
async fn bad_limits_are_422_naming_the_member() {
    let any_integer = format!("expected an integer from 0 to {}", u64::MAX);
    for (limit, detail) in [
        ("0", "`limit`: found 0; expected at least 1".to_owned()),
        ("-1", format!("`limit`: found -1; {any_integer}")),
        ("2.5", format!("`limit`: found 2.5; {any_integer}")),
        ("1e20", format!("`limit`: found 1e20; {any_integer}")),
        (r#""ten""#, format!(r#"`limit`: found "ten"; {any_integer}"#)),
        ("[5]", format!("`limit`: found an array; {any_integer}")),
    ] {
        let body = format!(r#"{{"board":"{PUZZLE}","limit":{limit}}}"#);
        let reply = send(router(&config()), post_json("/v1/count", body)).await;
        let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
        assert_eq!(problem["detail"], detail, "{limit}");
    }
}

#[tokio::test]
async fn boards_are_checked_like_solve_does() {
    let reply = count(json!({ "board": format!("55{}", &PUZZLE[2..]) })).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "conflicting-givens");
    assert_eq!(problem["conflicts"].as_array().unwrap().len(), 2);

    let reply = count(json!({ "board": "12" })).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-board");
    let reply = count(json!({ "limit": 3 })).await;
    assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-board");
}

#[tokio::test]
async fn a_count_past_its_deadline_is_a_503() {
    let config = ServeConfig { solve_timeout_ms: 0, ..config() };
    let reply = count_with(&config, json!({ "board": ".".repeat(81), "limit": 100_000 })).await;
    let problem = assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "solve-timeout");
    assert_eq!(problem["instance"], "/v1/count");
}

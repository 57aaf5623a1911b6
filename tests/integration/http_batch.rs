//! `POST /v1/solve/batch`: JSON arrays through the router, NDJSON streams through a real server.

use std::num::NonZeroUsize;
use std::time::Duration;

use axum::body::Body;
use axum::body::Bytes;
use axum::http::{Request, StatusCode, header};
use futures_util::StreamExt;
use serde_json::{Value, json};
use sudokud::board::Board;
use sudokud::config::ServeConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower::ServiceExt;

use crate::common;
use crate::common::http::*;

fn batch(body: Value) -> Request<Body> {
    post_json("/v1/solve/batch", body.to_string())
}

#[tokio::test]
async fn a_json_batch_answers_each_board_in_order_and_in_its_own_representation() {
    let boards = json!([
        PUZZLE,
        rows_of_numbers(PUZZLE),
        [[1, 2, 3, 4, 5, 6, 7, 8, 12]],
        format!("55{}", &PUZZLE[2..]),
        format!(".123456789{}", ".".repeat(71)),
        ".".repeat(81),
    ]);
    let reply = send(router(&config()), batch(json!({ "boards": boards }))).await;
    assert_eq!(reply.status, StatusCode::OK);
    let results = reply.body["results"].as_array().unwrap();
    assert_eq!(results.len(), 6);
    assert_eq!(results[0], json!({ "solution": SOLUTION, "unique": true }));
    assert_eq!(results[1], json!({ "solution": rows_of_numbers(SOLUTION), "unique": true }));
    assert_item_problem(&results[2], 422, "invalid-board");
    assert_eq!(results[2]["pointer"], "/boards/2/0/8", "pointers lead into the batch");
    assert_eq!(results[2]["index"], 2);
    assert_item_problem(&results[3], 422, "conflicting-givens");
    assert_eq!(results[3]["conflicts"].as_array().unwrap().len(), 2);
    assert_item_problem(&results[4], 422, "unsolvable");
    assert_eq!(results[4]["index"], 4);
    assert_eq!(results[5]["unique"], false);
}

/// Hard boards, which outlast the first chunk's try on the async worker and go on on the pool
/// from where it paused, among easy ones, over two chunks: every board gets a valid solution of
/// its own givens, in order, with the uniqueness `/v1/solve` answers.
#[tokio::test]
async fn a_batch_of_hard_and_easy_boards_is_answered_in_order_across_the_hand_off() {
    let hard = common::load("forum_hardest_1106.txt");
    let easy = common::load("kaggle_style_easy_10k.txt");
    let boards: Vec<Board> = (0..80).map(|index| if index % 3 == 0 { hard[index] } else { easy[index] }).collect();
    let lines: Vec<String> = boards.iter().map(|board| board.to_string()).collect();
    let app = router(&config());
    let reply = send(app.clone(), batch(json!({ "boards": lines }))).await;
    assert_eq!(reply.status, StatusCode::OK);
    let results = reply.body["results"].as_array().unwrap();
    assert_eq!(results.len(), boards.len());
    for ((board, line), result) in boards.iter().zip(&lines).zip(results) {
        let solution: Board = result["solution"].as_str().unwrap().parse().unwrap();
        assert!(solution.is_complete() && sudokud::rules::conflicts(&solution).is_empty(), "{line}");
        assert!(board.cells().iter().zip(solution.cells()).all(|(&given, &cell)| given == 0 || given == cell));
        let single = send(app.clone(), post_json("/v1/solve", json!({ "board": line }).to_string())).await;
        assert_eq!(result["unique"], single.body["unique"], "{line}");
    }
}

#[tokio::test]
async fn a_pointer_in_a_json_batch_names_the_board() {
    let mut numbers = rows_of_numbers(PUZZLE);
    numbers[4][7] = json!("x");
    let reply = send(router(&config()), batch(json!({ "boards": [PUZZLE, numbers, "12"] }))).await;
    assert_eq!(reply.body["results"][1]["pointer"], "/boards/1/4/7");
    assert_eq!(reply.body["results"][2]["pointer"], "/boards/2");
}

#[tokio::test]
async fn a_json_batch_is_bounded_in_boards_and_bytes() {
    let config = ServeConfig { max_batch_boards: NonZeroUsize::new(3).unwrap(), ..config() };
    let reply = send(router(&config), batch(json!({ "boards": [PUZZLE, PUZZLE, PUZZLE] }))).await;
    assert_eq!(reply.body["results"].as_array().unwrap().len(), 3);
    let reply = send(router(&config), batch(json!({ "boards": [PUZZLE, PUZZLE, PUZZLE, PUZZLE] }))).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
    assert!(problem["detail"].as_str().unwrap().contains("at most 3"), "{problem}");

    // 3 boards of at most 16384 bytes each: 49152 bytes.
    let reply = send(router(&config), batch(json!({ "boards": [PUZZLE], "padding": "x".repeat(50_000) }))).await;
    let problem = assert_problem(&reply, StatusCode::PAYLOAD_TOO_LARGE, "payload-too-large");
    assert!(problem["detail"].as_str().unwrap().contains("49152"), "{problem}");
}

#[tokio::test]
async fn a_json_batch_that_is_not_a_batch_is_refused_whole() {
    for (body, status, kind) in [
        ("{\"boards\": ", StatusCode::BAD_REQUEST, "malformed-json"),
        ("{}", StatusCode::UNPROCESSABLE_ENTITY, "invalid-request"),
        ("{\"boards\": 3}", StatusCode::UNPROCESSABLE_ENTITY, "invalid-request"),
        ("[]", StatusCode::UNPROCESSABLE_ENTITY, "invalid-request"),
    ] {
        let reply = send(router(&config()), post_json("/v1/solve/batch", body)).await;
        assert_problem(&reply, status, kind);
    }
    let reply = send(router(&config()), batch(json!({ "boards": [] }))).await;
    assert_eq!(reply.body, json!({ "results": [] }));
    let plain = Request::post("/v1/solve/batch").header(header::CONTENT_TYPE, "text/plain").body(Body::from(PUZZLE));
    let problem = assert_problem(
        &send(router(&config()), plain.unwrap()).await,
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "unsupported-media-type",
    );
    assert!(problem["detail"].as_str().unwrap().contains("application/x-ndjson"));
}

#[tokio::test]
async fn an_ndjson_batch_answers_line_by_line_and_a_bad_line_fails_alone() {
    let lines = [
        json!({ "board": PUZZLE }).to_string(),
        String::new(),
        "{\"board\": ".to_owned(),
        "[1, 2]".to_owned(),
        json!({ "board": "12" }).to_string(),
        json!({ "board": format!("55{}", &PUZZLE[2..]) }).to_string(),
        json!({ "board": ".".repeat(81) }).to_string(),
        format!("{{\"board\":\"{}\"}}", "1".repeat(17_000)),
        // The last line has no newline.
        json!({ "board": rows_of_strings(PUZZLE) }).to_string(),
    ];
    let (status, results) = ndjson_reply(router(&config()), ndjson(lines.join("\r\n"))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(results.len(), 8, "one result per non-blank line: {results:?}");
    assert_eq!(results[0], json!({ "solution": SOLUTION, "unique": true }));
    assert_item_problem(&results[1], 400, "malformed-json");
    assert_eq!(results[1]["line"], 3, "line numbers count blank lines");
    assert_item_problem(&results[2], 422, "invalid-request");
    assert_item_problem(&results[3], 422, "invalid-board");
    assert_eq!(results[3]["pointer"], "/board");
    assert_item_problem(&results[4], 422, "conflicting-givens");
    assert_eq!(results[5]["unique"], false);
    assert_item_problem(&results[6], 413, "payload-too-large");
    assert_eq!(results[6]["line"], 8);
    assert_eq!(results[7], json!({ "solution": rows_of_strings(SOLUTION), "unique": true }));
}

#[tokio::test]
async fn an_overlong_line_split_across_frames_is_answered_once() {
    let long = format!("{{\"board\":\"{}\"}}\n", "1".repeat(20_000));
    let frames: Vec<Result<String, std::io::Error>> = vec![
        Ok(json!({ "board": PUZZLE }).to_string() + "\n"),
        Ok(long[..3000].to_owned()),
        Ok(long[3000..6000].to_owned()),
        Ok(long[6000..].to_owned()),
        Ok(json!({ "board": PUZZLE }).to_string()),
    ];
    let body = Body::from_stream(futures_util::stream::iter(frames));
    let (_, results) = ndjson_reply(router(&config()), ndjson(body)).await;
    assert_eq!(results.len(), 3, "{results:?}");
    assert_item_problem(&results[1], 413, "payload-too-large");
    assert_eq!(results[2]["line"], Value::Null);
    assert_eq!(results[2]["unique"], true);
}

#[tokio::test]
async fn an_ndjson_batch_is_refused_up_front_when_the_server_is_full() {
    let full = full_pool().await;
    let reply = send(full.router.clone(), ndjson(json!({ "board": PUZZLE }).to_string())).await;
    let problem = assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "overloaded");
    assert_eq!(problem["instance"], "/v1/solve/batch");
    assert!(reply.headers.contains_key(header::RETRY_AFTER));
    let router = full.release().await;
    let (status, results) = ndjson_reply(router, ndjson(json!({ "board": PUZZLE }).to_string())).await;
    assert_eq!((status, results.len()), (StatusCode::OK, 1), "and it recovers");
}

/// A JSON batch is refused up front by a full server, whether its boards would be read on the
/// async worker (a body within `--body-limit-bytes`) or on the pool (a bigger one).
#[tokio::test]
async fn a_json_batch_is_refused_up_front_when_the_server_is_full() {
    let small = json!({ "boards": [PUZZLE] });
    let big = json!({ "boards": vec![PUZZLE; 250] });
    assert!(big.to_string().len() > ServeConfig::default().body_limit_bytes, "read on the pool");
    let full = full_pool().await;
    for body in [&small, &big] {
        let reply = send(full.router.clone(), batch(body.clone())).await;
        assert_problem(&reply, StatusCode::SERVICE_UNAVAILABLE, "overloaded");
        assert!(reply.headers.contains_key(header::RETRY_AFTER));
    }
    let router = full.release().await;
    for (body, boards) in [(small, 1), (big, 250)] {
        let reply = send(router.clone(), batch(body)).await;
        assert_eq!(reply.status, StatusCode::OK, "and it recovers");
        let results = reply.body["results"].as_array().unwrap();
        assert_eq!(results.len(), boards);
        assert!(results.iter().all(|result| result["solution"] == SOLUTION));
    }
}

#[tokio::test]
async fn ten_thousand_ndjson_lines_stream_through_a_real_server() {
    let puzzles = common::load("kaggle_style_easy_10k.txt");
    let body: String = puzzles.iter().map(|puzzle| format!("{{\"board\":\"{puzzle}\"}}\n")).collect();
    let running = start(config()).await;
    let response = reqwest::Client::new()
        .post(format!("http://{}/v1/solve/batch", running.addr))
        .header("content-type", NDJSON)
        .header("accept-encoding", "gzip")
        .body(body)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], NDJSON);
    assert!(!response.headers().contains_key("content-encoding"), "streams go out uncompressed");
    let text = response.text().await.unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), puzzles.len());
    for (puzzle, line) in puzzles.iter().zip(lines) {
        let result: Value = serde_json::from_str(line).unwrap();
        let solution: Board = result["solution"].as_str().unwrap().parse().unwrap();
        assert!(result["unique"].as_bool().unwrap());
        assert!(solution.is_complete() && sudokud::rules::conflicts(&solution).is_empty());
        assert!(puzzle.cells().iter().zip(solution.cells()).all(|(&given, &cell)| given == 0 || given == cell));
    }
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

#[tokio::test]
async fn results_go_out_before_the_stream_ends_and_a_stalled_stream_is_cut_off() {
    let running = start(ServeConfig { request_timeout_ms: 300, ..config() }).await;
    let mut stream = TcpStream::connect(running.addr).await.unwrap();
    let line = json!({ "board": PUZZLE }).to_string() + "\n";
    let head = format!(
        "POST /v1/solve/batch HTTP/1.1\r\nHost: localhost\r\nContent-Type: {NDJSON}\r\nTransfer-Encoding: chunked\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(format!("{:x}\r\n{line}\r\n", line.len()).as_bytes()).await.unwrap();
    // The first result arrives while the request is still open.
    let mut answer = Vec::new();
    let mut buffer = [0u8; 4096];
    while !String::from_utf8_lossy(&answer).contains(SOLUTION) {
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut buffer)).await.unwrap().unwrap();
        assert!(read > 0, "the server closed early");
        answer.extend_from_slice(&buffer[..read]);
    }
    // Half a line, then nothing: past the request timeout the batch ends with a problem line.
    stream.write_all(b"5\r\n{\"boa\r\n").await.unwrap();
    let _ = tokio::time::timeout(Duration::from_secs(5), stream.read_to_end(&mut answer)).await;
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("https://sudokud.dev/problems/request-timeout"), "{answer}");
    assert!(answer.contains("\"line\":2"), "{answer}");
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_board_that_is_not_one_fails_alone_in_a_json_batch_even_past_the_number_range() {
    let body = format!("{{\"boards\":[\"{PUZZLE}\", 1e400, [[1e400]], \"53..7...\"]}}");
    let reply = send(router(&config()), post_json("/v1/solve/batch", body)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let results = reply.body["results"].as_array().unwrap();
    assert_eq!(results[0], json!({ "solution": SOLUTION, "unique": true }));
    assert_item_problem(&results[1], 422, "invalid-request");
    assert_eq!(results[1]["index"], 1);
    assert_item_problem(&results[2], 422, "invalid-request");
    assert_item_problem(&results[3], 422, "invalid-board");
}

#[tokio::test]
async fn a_json_batch_stops_reading_boards_past_the_limit() {
    let config = ServeConfig { max_batch_boards: NonZeroUsize::new(3).unwrap(), ..config() };
    // Far more boards than allowed, then a syntax error the reader never reaches.
    let body = format!("{{\"boards\":[{}0,0,", "0,".repeat(5_000));
    let problem = assert_problem(
        &send(router(&config), post_json("/v1/solve/batch", body)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "invalid-request",
    );
    assert_eq!(
        problem["detail"],
        "`boards` has more than 3 boards; a JSON batch takes at most 3 (stream more as NDJSON)"
    );
}

/// A body that sends `first` and then nothing, without ending.
fn stalled_body(first: &'static str) -> Body {
    let frames = futures_util::stream::iter([Ok::<_, std::io::Error>(Bytes::from_static(first.as_bytes()))])
        .chain(futures_util::stream::pending());
    Body::from_stream(frames)
}

#[tokio::test]
async fn a_stalled_json_batch_body_holds_no_place_in_the_queue() {
    // One solver slot and no queue: a single place in all.
    let config = ServeConfig { max_concurrent_solves: NonZeroUsize::new(1), max_queued_solves: 0, ..config() };
    let router = router(&config);
    let stalled = Request::post("/v1/solve/batch")
        .header(header::CONTENT_TYPE, "application/json")
        .body(stalled_body("{\"boards\":["));
    let waiting = tokio::spawn(router.clone().oneshot(stalled.unwrap()));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let reply = send(router, post_json("/v1/solve", json!({ "board": PUZZLE }).to_string())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    waiting.abort();
}

#[tokio::test]
async fn an_idle_ndjson_stream_holds_no_place_in_the_queue() {
    let config = ServeConfig { max_concurrent_solves: NonZeroUsize::new(1), max_queued_solves: 0, ..config() };
    let router = router(&config);
    // A stream that sends one board, then blank lines now and then, and never ends.
    let (lines, receiver) = tokio::sync::mpsc::unbounded_channel::<Result<Bytes, std::io::Error>>();
    let body = Body::from_stream(futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|frame| (frame, receiver))
    }));
    lines.send(Ok(format!("{{\"board\":\"{PUZZLE}\"}}\n").into())).unwrap();
    let response = router.clone().oneshot(ndjson(body)).await.unwrap();
    let mut results = response.into_body().into_data_stream();
    let first = results.next().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&first).contains(SOLUTION));
    for _ in 0..3 {
        lines.send(Ok(Bytes::from_static(b"\n"))).unwrap();
        let reply = send(router.clone(), post_json("/v1/solve", json!({ "board": PUZZLE }).to_string())).await;
        assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    }
    // It still works when the stream has more to solve.
    lines.send(Ok(format!("{{\"board\":\"{PUZZLE}\"}}\n").into())).unwrap();
    assert!(String::from_utf8_lossy(&results.next().await.unwrap().unwrap()).contains(SOLUTION));
}

#[tokio::test]
async fn an_ndjson_stream_whose_answer_is_not_read_holds_no_place_in_the_queue() {
    let config = ServeConfig { max_concurrent_solves: NonZeroUsize::new(1), max_queued_solves: 0, ..config() };
    let router = router(&config);
    let lines = format!("{{\"board\":\"{PUZZLE}\"}}\n").repeat(1000);
    // The answer's head arrives; its body is never read.
    let unread = router.clone().oneshot(ndjson(lines)).await.unwrap();
    assert_eq!(unread.status(), StatusCode::OK);
    let reply = send(router, post_json("/v1/solve", json!({ "board": PUZZLE }).to_string())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    drop(unread);
}

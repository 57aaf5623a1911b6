//! Hostile input: every malformed request we could think of gets the right problem, and the
//! server keeps answering afterwards.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use sudokud::config::ServeConfig;

use crate::common::http::*;

/// A numbers board whose first cell is `cell`, written as raw JSON.
fn numbers_with_first_cell(cell: &str) -> Vec<u8> {
    let rows = rows_of_numbers(PUZZLE).to_string();
    format!("{{\"board\":[[{cell}{}}}", &rows[3..]).into_bytes()
}

/// The text board with its first cell replaced by `cell`.
fn text_with_first_cell(cell: &str) -> Vec<u8> {
    json!({ "board": format!("{cell}{}", &PUZZLE[1..]) }).to_string().into_bytes()
}

/// A strings board whose first cell is `cell`, written as raw JSON.
fn strings_with_first_cell(cell: &str) -> Vec<u8> {
    let rows = rows_of_strings(PUZZLE).to_string();
    format!("{{\"board\":[[{cell}{}}}", &rows[5..]).into_bytes()
}

/// Bodies that are refused, each with the status and problem kind it must get: the same on every
/// endpoint that reads a `{"board": ...}` body and on each line of an NDJSON batch. None contains
/// a newline, and each fits the default body limit.
fn refused_bodies() -> Vec<(&'static str, Vec<u8>, u16, &'static str)> {
    let deep = 2000;
    let mut cases = vec![
        ("deep array", "[".repeat(deep).into_bytes(), 400, "malformed-json"),
        (
            "deep balanced array",
            format!("{}{}", "[".repeat(deep), "]".repeat(deep)).into_bytes(),
            422,
            "invalid-request",
        ),
        ("deep board", format!("{{\"board\":{}", "[".repeat(deep)).into_bytes(), 400, "malformed-json"),
        (
            "deep balanced board",
            format!("{{\"board\":{}{}}}", "[".repeat(deep), "]".repeat(deep)).into_bytes(),
            422,
            "invalid-board",
        ),
        ("deep unknown member", format!("{{\"x\":{}}}", "{\"a\":".repeat(700)).into_bytes(), 400, "malformed-json"),
        // A member the route does not have is refused, whatever it holds, as JSON it is.
        (
            "duplicate unknown members",
            [&b"{\"x\":{\"a\":1,\"a\":[1e300]},\"x\":null,"[..], &text_with_first_cell("5")[1..]].concat(),
            422,
            "invalid-request",
        ),
        (
            "a deep unknown member",
            format!("{{\"x\":{}{},\"board\":\"{PUZZLE}\"}}", "[".repeat(1500), "]".repeat(1500)).into_bytes(),
            422,
            "invalid-request",
        ),
        (
            "a lone surrogate in an unknown member",
            [&b"{\"x\":\"\\udead\","[..], &text_with_first_cell("5")[1..]].concat(),
            422,
            "invalid-request",
        ),
        (
            "a number past f64 in an unknown member",
            [&b"{\"x\":-1e999,"[..], &text_with_first_cell("5")[1..]].concat(),
            422,
            "invalid-request",
        ),
        ("a number past f64", numbers_with_first_cell("1e400"), 422, "invalid-request"),
        ("2^64", numbers_with_first_cell("18446744073709551616"), 422, "invalid-board"),
        ("a fraction", numbers_with_first_cell("5.5"), 422, "invalid-board"),
        ("an exponent past nine", numbers_with_first_cell("5e1"), 422, "invalid-board"),
        ("a negative fraction", numbers_with_first_cell("-0.5"), 422, "invalid-board"),
        ("a negative cell", numbers_with_first_cell("-5"), 422, "invalid-board"),
        ("a huge negative cell", numbers_with_first_cell("-99999999999999999999"), 422, "invalid-board"),
        ("a number as board", b"{\"board\":1e308}".to_vec(), 422, "invalid-board"),
        ("a number past f64 as board", b"{\"board\":-1e999}".to_vec(), 422, "invalid-request"),
        ("a leading zero", numbers_with_first_cell("05"), 400, "malformed-json"),
        ("NaN", numbers_with_first_cell("NaN"), 400, "malformed-json"),
        ("a string cell in a numbers board", numbers_with_first_cell("\"5\""), 422, "invalid-board"),
        ("a number cell in a strings board", strings_with_first_cell("5"), 422, "invalid-board"),
        ("a two-digit string cell", strings_with_first_cell("\"55\""), 422, "invalid-board"),
        ("an empty string cell", strings_with_first_cell("\"\""), 422, "invalid-board"),
        ("an escaped NUL cell", strings_with_first_cell("\"\\u0000\""), 422, "invalid-board"),
        ("a lone surrogate", strings_with_first_cell("\"\\ud800\""), 422, "invalid-request"),
        (
            "a raw NUL in a string",
            [&b"{\"board\":\"\0"[..], &PUZZLE.as_bytes()[1..], b"\"}"].concat(),
            400,
            "malformed-json",
        ),
        ("an escaped NUL in a string", text_with_first_cell("\0"), 422, "invalid-board"),
        ("a NUL after the object", [&text_with_first_cell("5")[..], b"\0"].concat(), 400, "malformed-json"),
        ("a NUL before the object", [b"\0", &text_with_first_cell("5")[..]].concat(), 400, "malformed-json"),
        ("a byte order mark", [&b"\xef\xbb\xbf"[..], &text_with_first_cell("5")].concat(), 400, "malformed-json"),
        (
            "invalid UTF-8 in the board",
            [&b"{\"board\":\"\xff"[..], &PUZZLE.as_bytes()[1..], b"\"}"].concat(),
            400,
            "malformed-json",
        ),
        (
            "invalid UTF-8 in an unknown member",
            [&b"{\"note\":\"\xc3\x28\","[..], &text_with_first_cell("5")[1..]].concat(),
            400,
            "malformed-json",
        ),
        ("a truncated body", text_with_first_cell("5")[..40].to_vec(), 400, "malformed-json"),
        ("a truncated escape", b"{\"board\":\"\\u00".to_vec(), 400, "malformed-json"),
        ("trailing garbage", [&text_with_first_cell("5")[..], b"}"].concat(), 400, "malformed-json"),
        ("two objects", [text_with_first_cell("5"), text_with_first_cell("5")].concat(), 400, "malformed-json"),
        ("a single quote", b"{'board':'5'}".to_vec(), 400, "malformed-json"),
        ("a trailing comma", b"{\"board\":\"5\",}".to_vec(), 400, "malformed-json"),
        ("a comment", b"{/* */\"board\":\"5\"}".to_vec(), 400, "malformed-json"),
        ("the board twice", [&b"{\"board\":[],"[..], &text_with_first_cell("5")[1..]].concat(), 422, "invalid-request"),
        (
            "an escaped duplicate key",
            [&b"{\"bo\\u0061rd\":1,"[..], &text_with_first_cell("5")[1..]].concat(),
            422,
            "invalid-request",
        ),
        ("the board twice, then cut off", b"{\"board\":3,\"board\":3,".to_vec(), 400, "malformed-json"),
        ("null", b"null".to_vec(), 422, "invalid-request"),
        ("true", b"true".to_vec(), 422, "invalid-request"),
        ("a number", b"81".to_vec(), 422, "invalid-request"),
        ("a string", b"\"board\"".to_vec(), 422, "invalid-request"),
        ("an empty object", b"{}".to_vec(), 422, "invalid-board"),
        ("a boolean board", b"{\"board\":true}".to_vec(), 422, "invalid-board"),
        ("an object board", b"{\"board\":{\"a\":1,\"a\":2}}".to_vec(), 422, "invalid-board"),
        ("an array cell", numbers_with_first_cell("[5]"), 422, "invalid-board"),
        ("an object cell", numbers_with_first_cell("{\"5\":5}"), 422, "invalid-board"),
        ("a boolean cell", numbers_with_first_cell("true"), 422, "invalid-board"),
        ("a string row", b"{\"board\":[\"53..7....\"]}".to_vec(), 422, "invalid-board"),
        ("ten rows", format!("{{\"board\":{}}}", json!(vec![vec![0; 9]; 10])).into_bytes(), 422, "invalid-board"),
        ("a ten-cell row", format!("{{\"board\":{}}}", json!(vec![vec![0; 10]; 9])).into_bytes(), 422, "invalid-board"),
        ("an empty string board", b"{\"board\":\"\"}".to_vec(), 422, "invalid-board"),
        ("82 cells", text_with_first_cell("55"), 422, "invalid-board"),
    ];
    for digit in ["５", "٥", "۵", "५", "⁵", "₅", "⑤", "Ⅴ", "\u{200b}5", "\u{a0}5", "\u{2028}"] {
        cases.push(("a Unicode digit in a text board", text_with_first_cell(digit), 422, "invalid-board"));
        cases.push((
            "a Unicode digit in a strings board",
            strings_with_first_cell(&json!(digit).to_string()),
            422,
            "invalid-board",
        ));
    }
    cases
}

/// Bodies that look odd but are fine: a JSON escape is the character it stands for.
fn accepted_bodies() -> Vec<(&'static str, Vec<u8>)> {
    let escaped: String = PUZZLE.chars().map(|c| format!("\\u{:04x}", u32::from(c))).collect();
    vec![
        ("an escaped board", format!("{{\"board\":\"{escaped}\"}}").into_bytes()),
        ("an escaped strings cell", strings_with_first_cell("\"\\u0035\"")),
        ("an escaped key", [&b"{\"bo\\u0061rd\""[..], &text_with_first_cell("5")[8..]].concat()),
        ("whitespace around", [&b" \t\r\n"[..], &text_with_first_cell("5"), b" \t\r\n"].concat()),
        ("a null cell", numbers_with_first_cell("null")),
        ("a zero cell", numbers_with_first_cell("0")),
        // JSON Schema's integers (the spec's cells) are numbers without a fraction, however written.
        ("minus zero", numbers_with_first_cell("-0")),
        ("one point zero", numbers_with_first_cell("5.0")),
        ("an exponent", numbers_with_first_cell("5e0")),
        ("a negative exponent", numbers_with_first_cell("500e-2")),
    ]
}

/// `PUZZLE`'s first cell is a 5, so every accepted body is the README puzzle; bodies with `"0"`
/// or null there have more than one solution.
fn assert_solved(body: &Value, what: &str) {
    let solution = &body["solution"];
    let flat: String = match solution {
        Value::String(text) => text.clone(),
        Value::Array(rows) => rows.iter().flat_map(|row| row.as_array().unwrap()).map(cell_char).collect(),
        _ => panic!("{what}: no solution in {body}"),
    };
    assert_eq!(flat.len(), 81, "{what}: {body}");
    if body["unique"] == true {
        assert_eq!(flat, SOLUTION, "{what}");
    }
}

fn cell_char(cell: &Value) -> char {
    match cell {
        Value::String(text) => text.chars().next().unwrap(),
        Value::Number(number) => char::from_digit(number.as_u64().unwrap() as u32, 10).unwrap(),
        _ => panic!("a cell {cell}"),
    }
}

fn post_bytes(path: &str, body: Vec<u8>) -> Request<Body> {
    Request::post(path).header(header::CONTENT_TYPE, "application/json").body(Body::from(body)).unwrap()
}

#[tokio::test]
async fn every_malformed_body_gets_its_problem_on_the_single_board_endpoints() {
    let router = router(&config());
    for path in ["/v1/solve", "/v1/validate", "/v1/count", "/v1/rate"] {
        for (what, body, status, kind) in refused_bodies() {
            let reply = send(router.clone(), post_bytes(path, body)).await;
            let status = StatusCode::from_u16(status).unwrap();
            let problem = assert_problem(&reply, status, kind);
            assert_eq!(problem["instance"], path, "{path} {what}");
            if kind == "invalid-board" {
                let pointer = problem["pointer"].as_str().unwrap();
                assert!(pointer.is_empty() || pointer.starts_with("/board"), "{path} {what}: {problem}");
            }
        }
    }
    for (what, body) in accepted_bodies() {
        let reply = send(router.clone(), post_bytes("/v1/solve", body)).await;
        assert_eq!(reply.status, StatusCode::OK, "{what}: {}", reply.body);
        assert_solved(&reply.body, what);
    }
}

/// serde_json refuses nesting deeper than 128 where it builds values, but skips parts it does not read
/// without recursing: deep valid JSON is read (and refused for its shape), cut-off JSON is a 400.
#[tokio::test]
async fn nesting_a_hundred_thousand_deep_neither_overflows_nor_passes() {
    let config = ServeConfig { body_limit_bytes: 1 << 20, ..config() };
    let (open, close) = ("[".repeat(100_000), "]".repeat(100_000));
    let cases = [
        (open.clone(), StatusCode::BAD_REQUEST, "malformed-json"),
        (format!("{open}{close}"), StatusCode::UNPROCESSABLE_ENTITY, "invalid-request"),
        (format!("{{\"board\":{open}"), StatusCode::BAD_REQUEST, "malformed-json"),
        (format!("{{\"board\":{open}{close}}}"), StatusCode::UNPROCESSABLE_ENTITY, "invalid-board"),
        (format!("{{\"board\":[{}", "{\"a\":".repeat(100_000)), StatusCode::BAD_REQUEST, "malformed-json"),
    ];
    for (body, status, kind) in cases {
        assert_problem(&send(router(&config), post_json("/v1/solve", body)).await, status, kind);
    }
    // A member no route has is refused by name, however deep its value (`x` would be XV's).
    let unknown = format!("{{\"q\":{open}{close},\"board\":\"{PUZZLE}\"}}");
    let reply = send(router(&config), post_json("/v1/solve", unknown)).await;
    let problem = assert_problem(&reply, StatusCode::UNPROCESSABLE_ENTITY, "invalid-request");
    assert!(problem["detail"].as_str().unwrap().starts_with("unknown member `q`"), "{problem}");
}

#[tokio::test]
async fn every_malformed_line_of_an_ndjson_batch_fails_alone() {
    let cases = refused_bodies();
    let mut body = Vec::new();
    for (_, line, _, _) in &cases {
        body.extend_from_slice(line);
        body.push(b'\n');
        body.extend_from_slice(json!({ "board": PUZZLE }).to_string().as_bytes());
        body.push(b'\n');
    }
    let (status, results) = ndjson_reply(router(&config()), ndjson(body)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(results.len(), 2 * cases.len(), "one result per line");
    for (index, (what, _, status, kind)) in cases.iter().enumerate() {
        let item = &results[2 * index];
        assert_item_problem(item, *status, kind);
        assert_eq!(item["line"], 2 * index + 1, "{what}: {item}");
        assert_eq!(results[2 * index + 1], json!({ "solution": SOLUTION, "unique": true }), "after {what}");
    }
}

#[tokio::test]
async fn hostile_connections_leave_the_server_answering() {
    let running = start(ServeConfig { request_timeout_ms: 500, ..config() }).await;
    let addr = running.addr;
    let solve = |extra: &str, body: &str| {
        format!(
            "POST /v1/solve HTTP/1.1\r\nHost: t\r\nConnection: close\r\nContent-Type: application/json\r\n{extra}Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let good = json!({ "board": PUZZLE }).to_string();

    // The body stops short of its Content-Length and the client closes: the body is cut off.
    let answer = raw_exchange_half_closed(
        addr,
        b"POST /v1/solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"board\":",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 400") && answer.contains("malformed-json"), "{answer}");

    // A JSON batch may be larger, but not 100 MB (the single-board claim is in http_server.rs).
    let answer = raw_exchange(
        addr,
        b"POST /v1/solve/batch HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\nConnection: close\r\n\r\n{",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 413") && answer.contains("payload-too-large"), "{answer}");

    // Chunked, so no length up front, and over the limit: a 413 once the limit is passed.
    let chunk = format!("{{\"board\":\"{}\"}}", "1".repeat(17_000));
    let chunked = format!(
        "POST /v1/solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n{:x}\r\n{chunk}\r\n0\r\n\r\n",
        chunk.len()
    );
    let answer = raw_exchange(addr, chunked.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 413") && answer.contains("payload-too-large"), "{answer}");

    // Refused by the HTTP parser before any handler: a 4xx status line or a closed connection.
    let header_flood: String = (0..200).map(|i| format!("X-Flood-{i}: {i}\r\n")).collect();
    let garbage = [
        solve(&format!("X-Big: {}\r\n", "a".repeat(1 << 20)), &good),
        solve(&header_flood, &good),
        solve("Content-Length: 5\r\n", &good),
        solve("Transfer-Encoding: chunked\r\n", &good),
        "POST /v1/solve HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n".to_owned(),
        "POST /v1/solve HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\n".to_owned(),
        "\0\0\0\0\r\n\r\n".to_owned(),
        "GET\r\n\r\n".to_owned(),
        "GET / HTTP/1.1\r\nHost: t\r\nBad Header\r\n\r\n".to_owned(),
        "GET /\u{ff}\u{fe} HTTP/1.1\r\nConnection: close\r\n\r\n".to_owned(),
        "\u{16}\u{3}\u{1}\u{2}\u{0}\u{1}\u{0}\u{1}\u{fc}\u{3}\u{3}".to_owned(),
    ];
    for request in &garbage {
        let answer = raw_exchange(addr, request.as_bytes()).await;
        let head = answer.lines().next().unwrap_or_default();
        assert!(
            answer.is_empty() || head.starts_with("HTTP/1.1 4"),
            "{:?} -> {head}",
            &request[..request.len().min(60)]
        );
    }

    // The HTTP/2 preface is not garbage: the server speaks h2c to a client that knows it, and
    // answers with its SETTINGS frame (frame type 4 in the fourth byte of the frame header).
    let answer = raw_exchange(addr, b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n").await;
    assert_eq!(answer.as_bytes().get(3), Some(&4), "{answer:?}");

    // HTTP/1.0 is still served, and a good request pipelined before garbage is answered first.
    let answer = raw_exchange(addr, solve("", &good).replace("HTTP/1.1", "HTTP/1.0").as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.") && answer.contains(" 200 ") && answer.contains(SOLUTION), "{answer}");
    let pipelined = format!("{}GARBAGE\r\n\r\n", solve("", &good));
    let answer = raw_exchange(addr, pipelined.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 200") && answer.contains(SOLUTION), "{answer}");

    // After all of it, a plain solve.
    let response = post_solve(&reqwest::Client::new(), addr, good).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({ "solution": SOLUTION, "unique": true }));
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

#[tokio::test]
async fn requests_the_http_parser_refuses_still_get_a_problem_with_a_request_id() {
    let running = start(config()).await;
    let many_headers: String = (0..150).map(|index| format!("X-{index}: a\r\n")).collect();
    let cases: [(String, u16, &str); 6] = [
        (format!("GET /{} HTTP/1.1\r\nHost: t\r\n\r\n", "a".repeat(70_000)), 414, "uri-too-long"),
        (format!("GET / HTTP/1.1\r\nHost: t\r\nX-Big: {}\r\n\r\n", "a".repeat(500_000)), 431, "headers-too-large"),
        (format!("GET / HTTP/1.1\r\nHost: t\r\n{many_headers}\r\n"), 431, "headers-too-large"),
        ("GET / HTTP/1.2\r\nHost: t\r\n\r\n".to_owned(), 400, "malformed-request"),
        ("GET / HTTP/1.1\r\nHost: t\r\nX-A: a\r\n b\r\n\r\n".to_owned(), 400, "malformed-request"),
        (
            "POST /v1/solve HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello".to_owned(),
            400,
            "malformed-request",
        ),
    ];
    for (request, status, kind) in cases {
        let answer = raw_exchange(running.addr, request.as_bytes()).await;
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or_else(|| panic!("{kind}: {answer:?}"));
        assert!(head.starts_with(&format!("HTTP/1.1 {status} ")), "{head}");
        assert!(head.contains("\r\ncontent-type: application/problem+json\r\n"), "{head}");
        assert!(head.contains("\r\nconnection: close\r\n"), "{head}");
        let problem: Value = serde_json::from_str(body).unwrap_or_else(|error| panic!("{kind}: {error}: {body:?}"));
        assert_eq!(problem["type"], format!("{}{kind}", sudokud::http::PROBLEM_BASE));
        assert_eq!(problem["status"], status);
        let id = problem["request_id"].as_str().expect("a request id");
        assert!(head.contains(&format!("\r\nx-request-id: {id}\r\n")), "{head}");
    }
    // A request after a refused one, on a new connection, is served.
    let answer = raw_exchange(running.addr, b"GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n").await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

//! A real server on an ephemeral port: real sockets, slow and hostile clients, and shutdown.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sudokud::config::ServeConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::http::{PUZZLE, SOLUTION, post_solve, raw_exchange, start};

fn solve_body() -> String {
    json!({ "board": PUZZLE }).to_string()
}

/// [`post_solve`], read as status and JSON body (`Null` when the body is not JSON).
async fn solve_status(client: &reqwest::Client, addr: SocketAddr, body: String) -> (u16, Value) {
    let response = post_solve(client, addr, body).await;
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn solves_over_a_real_socket_and_keeps_working_after_bad_requests() {
    let running = start(ServeConfig::default()).await;
    let client = reqwest::Client::new();
    let (status, body) = solve_status(&client, running.addr, solve_body()).await;
    assert_eq!((status, body), (200, json!({ "solution": SOLUTION, "unique": true })));

    let garbage = ["{", "[]", r#"{"board":[[1,2,3]]}"#, r#"{"board":"x"}"#, "\u{0}\u{1}", &"[".repeat(3000)];
    for body in garbage {
        let (status, problem) = solve_status(&client, running.addr, body.to_owned()).await;
        assert!((400..500).contains(&status), "{body:?} -> {status}");
        assert!(problem["type"].as_str().unwrap().starts_with(sudokud::http::PROBLEM_BASE));
    }
    let raw = raw_exchange(running.addr, b"GARBAGE / HTTP/9.9\r\n\r\n").await;
    assert!(raw.is_empty() || raw.starts_with("HTTP/1.1 4"), "{raw}");

    let (status, _) = solve_status(&client, running.addr, solve_body()).await;
    assert_eq!(status, 200);
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_huge_content_length_claim_is_refused_before_reading() {
    let running = start(ServeConfig::default()).await;
    let answer = raw_exchange(
        running.addr,
        b"POST /v1/solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\nConnection: close\r\n\r\n{",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("application/problem+json") && answer.contains("payload-too-large"), "{answer}");
}

#[tokio::test]
async fn a_body_that_never_arrives_gets_a_408() {
    let running = start(ServeConfig { request_timeout_ms: 200, ..ServeConfig::default() }).await;
    let started = Instant::now();
    let answer = raw_exchange(
        running.addr,
        b"POST /v1/solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{\"bo",
    )
    .await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("request-timeout"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // Others are still served.
    let (status, _) = solve_status(&reqwest::Client::new(), running.addr, solve_body()).await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn shutdown_flips_readiness_and_lets_in_flight_requests_finish() {
    let running = start(ServeConfig::default()).await;
    // Start a request whose body is still uploading when shutdown begins.
    let body = solve_body();
    let mut slow = TcpStream::connect(running.addr).await.unwrap();
    let head = format!(
        "POST /v1/solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    slow.write_all(head.as_bytes()).await.unwrap();
    slow.write_all(&body.as_bytes()[..10]).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;

    running.stop.send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!running.readiness.is_ready());
    assert!(!running.served.is_finished(), "the server waits for the in-flight request");

    slow.write_all(&body.as_bytes()[10..]).await.unwrap();
    let mut answer = Vec::new();
    slow.read_to_end(&mut answer).await.unwrap();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(SOLUTION));
    tokio::time::timeout(Duration::from_secs(5), running.served).await.unwrap().unwrap().unwrap();
    // The listener is closed.
    assert!(TcpStream::connect(running.addr).await.is_err());
}

#[tokio::test]
async fn a_stuck_client_cannot_hold_shutdown_past_the_timeout() {
    let config = ServeConfig { shutdown_timeout_ms: 300, request_timeout_ms: 60_000, ..ServeConfig::default() };
    let running = start(config).await;
    let mut stuck = TcpStream::connect(running.addr).await.unwrap();
    stuck
        .write_all(
            b"POST /v1/solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{",
        )
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    running.stop.send(()).unwrap();
    tokio::time::timeout(Duration::from_secs(5), running.served).await.unwrap().unwrap().unwrap();
    assert!(started.elapsed() >= Duration::from_millis(300));
}

#[tokio::test]
async fn during_the_shutdown_delay_readyz_is_503_and_everything_else_is_served() {
    let running = start(ServeConfig { shutdown_delay_ms: 1500, ..ServeConfig::default() }).await;
    let client = reqwest::Client::new();
    let url = |path: &str| format!("http://{}{path}", running.addr);
    assert_eq!(client.get(url("/readyz")).send().await.unwrap().status(), 200);
    running.stop.send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    // On the kept-alive connection and on new ones alike.
    let fresh = reqwest::Client::new();
    for client in [&client, &fresh] {
        let ready = client.get(url("/readyz")).send().await.unwrap();
        assert_eq!(ready.status(), 503);
        assert_eq!(ready.json::<Value>().await.unwrap()["type"], "https://sudokud.dev/problems/shutting-down");
        assert_eq!(client.get(url("/healthz")).send().await.unwrap().status(), 200);
        let (status, body) = solve_status(client, running.addr, solve_body()).await;
        assert_eq!((status, body["solution"].as_str()), (200, Some(SOLUTION)));
    }
    // After the delay the listener closes and the server drains and returns.
    tokio::time::timeout(Duration::from_secs(10), running.served).await.unwrap().unwrap().unwrap();
    assert!(TcpStream::connect(running.addr).await.is_err());
}

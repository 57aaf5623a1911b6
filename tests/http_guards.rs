//! A real server under slow, idle, numerous and excessive clients: the connection guards and
//! load shedding. Assertions are about behaviour (who gets served, what status), never timing
//! figures, since the machine is shared.

mod common;

use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use common::http::{PUZZLE, SOLUTION, post_solve, start};
use serde_json::{Value, json};
use sudokud::config::ServeConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The first puzzle of `tests/data/forum_hardest_1106.txt`, about 0.1-1 ms to solve.
const HARD: &str = "12.3....435....1....4........54..2..6...7.........8.9...31..5.......9.7.....6...8";

async fn solve(client: &reqwest::Client, addr: std::net::SocketAddr, puzzle: &str) -> reqwest::Response {
    post_solve(client, addr, json!({ "board": puzzle }).to_string()).await
}

/// Reads until the server closes the connection, or `limit` passes (then `None`).
async fn read_until_closed(stream: &mut TcpStream, limit: Duration) -> Option<Vec<u8>> {
    let mut answer = Vec::new();
    tokio::time::timeout(limit, stream.read_to_end(&mut answer)).await.ok()?.ok()?;
    Some(answer)
}

#[tokio::test]
async fn a_slow_header_client_is_cut_off_and_blocks_no_one() {
    let running = start(ServeConfig { header_read_timeout_ms: 300, ..ServeConfig::default() }).await;
    let mut slow = TcpStream::connect(running.addr).await.unwrap();
    slow.write_all(b"POST /v1/solve HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    // Others are served meanwhile.
    let client = reqwest::Client::new();
    for _ in 0..3 {
        let response = solve(&client, running.addr, PUZZLE).await;
        assert_eq!(response.json::<Value>().await.unwrap()["solution"], SOLUTION);
    }
    // A byte now and then does not keep the slow one alive past the header timeout.
    let started = Instant::now();
    let trickle = async {
        for byte in b"X-Slow: 1" {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if slow.write_all(&[*byte]).await.is_err() {
                break;
            }
        }
    };
    trickle.await;
    let closed = read_until_closed(&mut slow, Duration::from_secs(5)).await;
    assert!(closed.is_some(), "the slow client was never cut off");
    assert!(started.elapsed() < Duration::from_secs(5));
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

#[tokio::test]
async fn an_idle_keep_alive_connection_is_closed() {
    let running = start(ServeConfig { header_read_timeout_ms: 200, ..ServeConfig::default() }).await;
    let mut stream = TcpStream::connect(running.addr).await.unwrap();
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let answer = read_until_closed(&mut stream, Duration::from_secs(5)).await.expect("closed once idle");
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"), "served first, then closed");
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

#[tokio::test]
async fn connections_past_the_limit_wait_for_a_free_one() {
    let config = ServeConfig { max_connections: NonZeroUsize::new(1).unwrap(), ..ServeConfig::default() };
    let running = start(config).await;
    let mut first = TcpStream::connect(running.addr).await.unwrap();
    first.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let mut buffer = [0u8; 1024];
    assert!(first.read(&mut buffer).await.unwrap() > 0, "the first is served");
    // The second connects (the kernel queues it) but is not served while the first is open.
    let mut second = TcpStream::connect(running.addr).await.unwrap();
    second.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
    let early = tokio::time::timeout(Duration::from_millis(300), second.read(&mut buffer)).await;
    assert!(early.is_err(), "served past the connection limit");
    drop(first);
    let answer = read_until_closed(&mut second, Duration::from_secs(5)).await.expect("served once the first left");
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

#[tokio::test]
async fn overload_is_shed_with_503s_and_the_server_recovers() {
    let config = ServeConfig {
        max_concurrent_solves: NonZeroUsize::new(1),
        max_queued_solves: 2,
        queue_timeout_ms: 5,
        ..ServeConfig::default()
    };
    let running = start(config).await;
    let client = reqwest::Client::new();
    // Many times the capacity: one slot, two queue places.
    let requests = (0..64).map(|_| {
        let client = client.clone();
        async move {
            let response = solve(&client, running.addr, HARD).await;
            let status = response.status().as_u16();
            let retry_after = response.headers().get("retry-after").map(|value| value.to_str().unwrap().to_owned());
            let body: Value = response.json().await.unwrap();
            (status, retry_after, body)
        }
    });
    let answers = futures_util::future::join_all(requests).await;
    let shed = answers.iter().filter(|(status, ..)| *status == 503).count();
    for (status, retry_after, body) in &answers {
        match status {
            200 => assert_eq!(body["unique"], true),
            503 => {
                assert_eq!(body["type"], "https://sudokud.dev/problems/overloaded", "{body}");
                assert_eq!(retry_after.as_deref(), Some("1"));
            }
            other => panic!("unexpected status {other}: {body}"),
        }
    }
    assert!(shed > 0, "64 concurrent solves on one slot and two queue places shed none");
    assert!(shed < answers.len(), "none was served");
    // Recovery: normal answers once the burst is over.
    let response = solve(&client, running.addr, PUZZLE).await;
    assert_eq!(response.json::<Value>().await.unwrap()["solution"], SOLUTION);
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

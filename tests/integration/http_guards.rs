//! A real server under slow, idle, numerous and excessive clients: the connection guards and
//! load shedding. Assertions are about behaviour (who gets served, what status), never timing
//! figures, since the machine is shared.

use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sudokud::config::ServeConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::common::http::{PUZZLE, SOLUTION, post_solve, start};

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

/// The HTTP/2 connection preface and an empty SETTINGS frame: all an h2c client must send
/// before its first request.
const H2C_PREFACE_AND_SETTINGS: &[u8] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00";

#[tokio::test]
async fn silent_connections_are_closed_whatever_protocol_they_claim() {
    for greeting in [&b""[..], b"GET", H2C_PREFACE_AND_SETTINGS] {
        let config = ServeConfig {
            max_connections: NonZeroUsize::new(3).unwrap(),
            header_read_timeout_ms: 500,
            ..ServeConfig::default()
        };
        let running = start(config).await;
        let mut silent = Vec::new();
        for _ in 0..3 {
            let mut stream = TcpStream::connect(running.addr).await.unwrap();
            stream.write_all(greeting).await.unwrap();
            silent.push(stream);
        }
        // Every connection the server allows is taken; the next one waits until a silent one
        // is closed, and is then served.
        let client = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
        let health = client.get(format!("http://{}/healthz", running.addr)).send().await;
        assert_eq!(health.map(|response| response.status()).ok(), Some(reqwest::StatusCode::OK), "{greeting:?}");
        for stream in &mut silent {
            assert!(read_until_closed(stream, Duration::from_secs(5)).await.is_some(), "{greeting:?} kept open");
        }
        running.stop.send(()).unwrap();
        running.served.await.unwrap().unwrap();
    }
}

#[tokio::test]
async fn an_idle_http2_connection_is_closed() {
    let running = start(ServeConfig { header_read_timeout_ms: 300, ..ServeConfig::default() }).await;
    let mut stream = TcpStream::connect(running.addr).await.unwrap();
    stream.write_all(H2C_PREFACE_AND_SETTINGS).await.unwrap();
    let answer = read_until_closed(&mut stream, Duration::from_secs(5)).await.expect("closed once idle");
    // The server's SETTINGS, then a GOAWAY frame (type 7) before the close.
    assert!(answer.windows(2).any(|frame| frame == [0, 7] || frame == [8, 7]), "{answer:?}");
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

/// Writes a request with a `body_length`-byte body whole, as Python's `http.client` and Node's
/// `fetch` do, and only then reads the answer.
async fn write_whole_then_read(addr: std::net::SocketAddr, path: &str, body_length: usize) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: {body_length}\r\n\r\n"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    stream.write_all(&vec![b' '; body_length]).await.expect("the server reads the whole body, even when refusing it");
    read_until_closed(&mut stream, Duration::from_secs(10))
        .await
        .map(|answer| String::from_utf8_lossy(&answer).into_owned())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_client_that_writes_an_oversized_body_whole_still_reads_its_413() {
    let running = start(ServeConfig::default()).await;
    for (path, length) in
        [("/v1/solve", 2 << 20), ("/v1/solve", 5_000_000), ("/v1/solve/batch", 20_000_000), ("/v1/generate", 1_000_000)]
    {
        for _ in 0..3 {
            let answer = write_whole_then_read(running.addr, path, length).await;
            assert!(answer.starts_with("HTTP/1.1 413"), "{path} {length}: {answer:?}");
            assert!(answer.to_ascii_lowercase().contains("\r\nconnection: close\r\n"), "{answer}");
            assert!(answer.contains("payload-too-large"), "{answer}");
        }
    }
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_slow_upload_gets_its_408_and_the_connection_closes() {
    let running = start(ServeConfig { request_timeout_ms: 300, ..ServeConfig::default() }).await;
    let mut stream = TcpStream::connect(running.addr).await.unwrap();
    stream
        .write_all(
            b"POST /v1/solve HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 2000\r\n\r\n",
        )
        .await
        .unwrap();
    // The body trickles in past the request timeout, and is written whole before reading.
    for _ in 0..10 {
        tokio::time::sleep(Duration::from_millis(60)).await;
        stream.write_all(&[b' '; 200]).await.expect("the server reads on after its 408");
    }
    let answer = read_until_closed(&mut stream, Duration::from_secs(10)).await.expect("closed after the 408");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.to_ascii_lowercase().contains("\r\nconnection: close\r\n"), "{answer}");
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_client_that_never_reads_its_answer_is_cut_off() {
    let running = start(ServeConfig { header_read_timeout_ms: 300, ..ServeConfig::default() }).await;
    // A small receive buffer, so the server's answers fill it at once.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut stream = socket.connect(running.addr).await.unwrap();
    // Pipelined requests for far more than the socket buffers hold, whose answers are not read.
    let _ = stream.write_all(&b"GET /openapi.yaml HTTP/1.1\r\nHost: t\r\n\r\n".repeat(200)).await;
    tokio::time::sleep(Duration::from_secs(2)).await;
    // The server gave up writing and closed: reading now reaches the end (or a reset) at once.
    let mut sink = Vec::new();
    let ended = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut sink)).await;
    assert!(ended.is_ok(), "the server still holds a connection whose client never reads");
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

#[tokio::test]
async fn a_streamed_batch_keeps_its_connection_alive() {
    let running = start(ServeConfig::default()).await;
    let mut stream = TcpStream::connect(running.addr).await.unwrap();
    let line = format!("{{\"board\":\"{PUZZLE}\"}}\n");
    let batch = format!(
        "POST /v1/solve/batch HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-ndjson\r\nContent-Length: {}\r\n\r\n{line}",
        line.len()
    );
    // The batch, then a request on the same connection.
    let health = "GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n";
    stream.write_all(format!("{batch}{health}").as_bytes()).await.unwrap();
    let answer = read_until_closed(&mut stream, Duration::from_secs(10)).await.expect("closed after the second");
    let answer = String::from_utf8_lossy(&answer);
    let (first, second) = answer.split_once("HTTP/1.1 200 OK\r\ncontent-type: application/json").expect("two answers");
    assert!(first.starts_with("HTTP/1.1 200") && first.contains(SOLUTION), "{first}");
    assert!(!first.to_ascii_lowercase().contains("connection: close"), "{first}");
    assert!(second.contains("\"status\":\"ok\""), "{second}");
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

/// A request's job ends with the request's own timeout: past its 408 nothing goes on for it.
/// A count of an empty 25x25 grid runs until stopped; the solve after it needs the one slot, and
/// within its own 300 ms gets it only if the count stopped with its request.
#[tokio::test]
async fn a_job_ends_with_its_requests_timeout() {
    let config = ServeConfig {
        max_concurrent_solves: NonZeroUsize::new(1),
        request_timeout_ms: 300,
        solve_timeout_ms: 60_000,
        queue_timeout_ms: 60_000,
        ..ServeConfig::default()
    };
    let running = start(config).await;
    let client = reqwest::Client::new();
    let url = format!("http://{}/v1/count", running.addr);
    let empty = ".".repeat(625);
    let counted = client.post(&url).json(&json!({ "board": empty, "limit": 100_000 })).send().await.unwrap();
    let status = counted.status().as_u16();
    let body: Value = counted.json().await.unwrap();
    assert!(status == 408 || status == 503, "{status} {body}");
    for _ in 0..3 {
        let response = solve(&client, running.addr, HARD).await;
        assert_eq!(response.status(), 200, "the slot is free again");
    }
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

/// Heavy requests (here NDJSON batches of hard 20x20 puzzles) do not shut single requests out:
/// batch pieces keep off one of the two slots, and a single request gets a freed slot before any
/// batch piece, instead of waiting behind the batches' line until its queue timeout (the default
/// 100 ms, shorter than one of these pieces).
#[tokio::test]
async fn single_requests_are_answered_beside_heavy_batches() {
    let config = ServeConfig { max_concurrent_solves: NonZeroUsize::new(2), ..ServeConfig::default() };
    let running = start(config).await;
    let client = reqwest::Client::new();
    let batches: Vec<_> = (0..2)
        .map(|seed| {
            let (client, url) = (client.clone(), format!("http://{}/v1/generate/batch", running.addr));
            tokio::spawn(async move {
                let body = json!({ "count": 10, "size": 20, "difficulty": "hard", "seed": seed });
                client.post(url).json(&body).send().await.unwrap().text().await.unwrap()
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut answered = 0;
    for _ in 0..20 {
        let response = solve(&client, running.addr, HARD).await;
        answered += usize::from(response.status() == 200);
    }
    assert_eq!(answered, 20, "every single solve was answered beside the batches");
    for batch in batches {
        let lines = batch.await.unwrap();
        assert_eq!(lines.lines().count(), 10);
    }
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

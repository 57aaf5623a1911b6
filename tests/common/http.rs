//! Driving the real router in-process with `tower::ServiceExt::oneshot`, for the HTTP tests.

use axum::body::{Body, to_bytes};
use axum::http::{Request, StatusCode, header};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use sudokud::config::ServeConfig;
use sudokud::http::{App, AppState, PROBLEM_BASE, Readiness, app};

use sudokud::server;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
use tower::ServiceExt;

pub(crate) const PUZZLE: &str = sudokud::board::EXAMPLE_PUZZLE;
pub(crate) const SOLUTION: &str = sudokud::board::EXAMPLE_SOLUTION;

pub(crate) fn config() -> ServeConfig {
    ServeConfig::default()
}

pub(crate) fn router(config: &ServeConfig) -> App {
    sudokud::metrics::install();
    app(config, AppState::new(config, Readiness::default()))
}

pub(crate) struct Reply {
    pub status: StatusCode,
    pub headers: axum::http::HeaderMap,
    pub body: Value,
}

pub(crate) async fn send(router: App, request: Request<Body>) -> Reply {
    let response = router.oneshot(request).await.expect("the router never fails");
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = to_bytes(response.into_body(), 1 << 20).await.unwrap();
    let body = if bytes.is_empty() { Value::Null } else { serde_json::from_slice(&bytes).unwrap_or(Value::Null) };
    Reply { status, headers, body }
}

pub(crate) fn post_json(path: &str, body: impl Into<String>) -> Request<Body> {
    Request::post(path).header(header::CONTENT_TYPE, "application/json").body(Body::from(body.into())).unwrap()
}

pub(crate) async fn solve(board: Value) -> Reply {
    send(router(&config()), post_json("/v1/solve", json!({ "board": board }).to_string())).await
}

/// Asserts `reply` is a problem of `kind` with `status`, and returns its body.
pub(crate) fn assert_problem(reply: &Reply, status: StatusCode, kind: &str) -> Value {
    assert_eq!(reply.status, status, "{}", reply.body);
    assert_eq!(reply.headers[header::CONTENT_TYPE], "application/problem+json");
    let problem = &reply.body;
    assert_eq!(problem["type"], format!("{PROBLEM_BASE}{kind}"), "{problem}");
    assert_eq!(problem["status"], status.as_u16());
    assert!(problem["title"].as_str().is_some_and(|title| !title.is_empty()));
    assert!(problem["detail"].as_str().is_some_and(|detail| !detail.is_empty()));
    assert!(problem["request_id"].is_string());
    problem.clone()
}

pub(crate) fn rows_of_strings(line: &str) -> Value {
    line.as_bytes().chunks(9).map(|row| row.iter().map(|&c| (c as char).to_string()).collect::<Vec<_>>()).collect()
}

pub(crate) fn rows_of_numbers(line: &str) -> Value {
    line.as_bytes()
        .chunks(9)
        .map(|row| row.iter().map(|&c| if c == b'.' { 0 } else { c - b'0' }).collect::<Vec<_>>())
        .collect()
}

/// A real server on an ephemeral port of 127.0.0.1.
pub(crate) struct Running {
    pub addr: SocketAddr,
    pub readiness: Readiness,
    pub stop: oneshot::Sender<()>,
    pub served: JoinHandle<std::io::Result<()>>,
}

pub(crate) async fn start(config: ServeConfig) -> Running {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let readiness = Readiness::default();
    let (stop, stopped) = oneshot::channel::<()>();
    let served = tokio::spawn({
        let readiness = readiness.clone();
        async move {
            server::serve(listener, &config, readiness, async {
                let _ = stopped.await;
            })
            .await
        }
    });
    Running { addr, readiness, stop, served }
}

/// `POST /v1/solve` with a JSON `body` to a real server.
pub(crate) async fn post_solve(client: &reqwest::Client, addr: SocketAddr, body: String) -> reqwest::Response {
    client
        .post(format!("http://{addr}/v1/solve"))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .unwrap()
}

/// Sends raw bytes and returns whatever the server answers before closing.
pub(crate) async fn raw_exchange(addr: SocketAddr, request: &[u8]) -> String {
    exchange(addr, request, false).await
}

/// [`raw_exchange`], but the client closes its sending side after the request.
pub(crate) async fn raw_exchange_half_closed(addr: SocketAddr, request: &[u8]) -> String {
    exchange(addr, request, true).await
}

async fn exchange(addr: SocketAddr, request: &[u8], close: bool) -> String {
    let mut stream = TcpStream::connect(addr).await.unwrap();
    // The server may refuse and close before it has read everything; its answer still counts.
    let _ = stream.write_all(request).await;
    if close {
        let _ = stream.shutdown().await;
    }
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut answer)).await;
    String::from_utf8_lossy(&answer).into_owned()
}

pub(crate) const NDJSON: &str = "application/x-ndjson";

pub(crate) fn ndjson(body: impl Into<Body>) -> Request<Body> {
    Request::post("/v1/solve/batch").header(header::CONTENT_TYPE, NDJSON).body(body.into()).unwrap()
}

/// The NDJSON answer, one value per line.
pub(crate) async fn ndjson_reply(router: App, request: Request<Body>) -> (StatusCode, Vec<Value>) {
    let response = router.oneshot(request).await.unwrap();
    let status = response.status();
    assert_eq!(response.headers()[header::CONTENT_TYPE], NDJSON);
    let bytes = to_bytes(response.into_body(), 1 << 24).await.unwrap();
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    assert!(text.is_empty() || text.ends_with('\n'), "every result line ends with a newline");
    (status, text.lines().map(|line| serde_json::from_str(line).unwrap()).collect())
}

/// Asserts `item` (a batch result) is a problem of `kind` with `status`.
pub(crate) fn assert_item_problem(item: &Value, status: u16, kind: &str) {
    assert_eq!(item["type"], format!("{}{kind}", sudokud::http::PROBLEM_BASE), "{item}");
    assert_eq!(item["status"], status, "{item}");
    assert!(item["title"].is_string() && item["detail"].is_string(), "{item}");
}

/// A router whose one solver slot is held by a job until [`FullPool::release`], and its state.
pub(crate) struct FullPool {
    pub router: App,
    /// Read by tests/http_metrics.rs only (the integration tests go through the router).
    #[allow(dead_code)]
    pub state: AppState,
    release: std::sync::mpsc::Sender<()>,
    busy: JoinHandle<Result<bool, sudokud::pool::PoolError>>,
}

/// One solver slot, no queue, and that slot held: the next solve is refused with 503 `overloaded`.
pub(crate) async fn full_pool() -> FullPool {
    slot_held(ServeConfig { max_queued_solves: 0, queue_timeout_ms: 10, ..ServeConfig::default() }).await
}

/// A router with `config` but one solver slot, held by a job until [`FullPool::release`].
pub(crate) async fn slot_held(config: ServeConfig) -> FullPool {
    let config = ServeConfig { max_concurrent_solves: std::num::NonZeroUsize::new(1), ..config };
    sudokud::metrics::install();
    let state = AppState::new(&config, Readiness::default());
    let router = app(&config, state.clone());
    let (release, wait) = std::sync::mpsc::channel::<()>();
    let (started, running) = tokio::sync::oneshot::channel::<()>();
    let pool = state.pool.clone();
    let busy = tokio::spawn(async move {
        pool.run(sudokud::metrics::Work::Solve, move |_| {
            let _ = started.send(());
            Ok(wait.recv().is_ok())
        })
        .await
    });
    // Once the job runs it holds the only slot.
    running.await.expect("the busy job starts");
    FullPool { router, state, release, busy }
}

impl FullPool {
    /// Lets the held job finish, and returns the router, now with a free slot.
    pub(crate) async fn release(self) -> App {
        self.release.send(()).expect("the busy job waits for the release");
        assert_eq!(self.busy.await.expect("the busy job ends"), Ok(true));
        self.router
    }
}

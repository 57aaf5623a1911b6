//! `GET /metrics`: what a Prometheus scrape sees after real traffic, and the separate metrics
//! port. The recorder is process-wide, so assertions look for series, not exact totals. And the
//! log lines an overloaded server writes.
//!
//! Its own test binary: its global tracing subscriber must precede every call site (see [`logs`]).

// Only the HTTP helpers are used here; the integration tests use the rest.
#[allow(dead_code)]
mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use common::http::*;
use serde_json::json;
use sudokud::config::ServeConfig;
use tower::ServiceExt;

/// Held by the tests of this file that run solver jobs, one at a time: `sudokud_solves_in_flight`
/// is process-wide, so a test that reads it must be alone.
static JOBS: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

async fn scrape(router: sudokud::http::App) -> String {
    let response = router.oneshot(Request::get("/metrics").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/plain; version=0.0.4"));
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 22).await.unwrap();
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The value of the first sample whose line starts with `series`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines().find(|line| line.starts_with(series))?.rsplit(' ').next()?.parse().ok()
}

/// Every histogram series in `text` as Prometheus reads one: its buckets' bounds rising to
/// `+Inf`, their counts never falling, `+Inf` the series' `_count`, and a `_sum`.
fn well_formed_histograms(text: &str) {
    // Per series (name and labels without `le`): the buckets' bounds and counts, in order.
    let mut buckets: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for line in text.lines().filter(|line| line.contains("_bucket{")) {
        let (series, rest) = line.split_once(",le=\"").or_else(|| line.split_once("le=\"")).unwrap();
        let (bound, count) = rest.split_once("\"} ").unwrap();
        let bound = if bound == "+Inf" { f64::INFINITY } else { bound.parse().unwrap() };
        let series = series.replacen("_bucket{", "{", 1);
        match buckets.iter_mut().find(|(known, _)| *known == series) {
            Some((_, bounds)) => bounds.push((bound, count.parse().unwrap())),
            None => buckets.push((series, vec![(bound, count.parse().unwrap())])),
        }
    }
    assert!(!buckets.is_empty(), "{text}");
    for (series, bounds) in buckets {
        assert!(bounds.windows(2).all(|pair| pair[0].0 < pair[1].0 && pair[0].1 <= pair[1].1), "{series}: {bounds:?}");
        let (last, total) = *bounds.last().unwrap();
        assert_eq!(last, f64::INFINITY, "{series}");
        let (name, labels) = series.split_once('{').unwrap();
        let labels = labels.trim_end_matches(',');
        let braced = if labels.is_empty() { String::new() } else { format!("{{{labels}}}") };
        assert_eq!(sample(text, &format!("{name}_count{braced} ")), Some(total), "{series}");
        assert!(sample(text, &format!("{name}_sum{braced} ")).is_some_and(|sum| sum >= 0.0), "{series}");
    }
}

#[tokio::test]
async fn requests_solves_sheds_and_deadlines_are_counted() {
    let _alone = JOBS.lock().await;
    logs();
    let router = router(&config());
    send(router.clone(), post_json("/v1/solve", json!({ "board": PUZZLE }).to_string())).await;
    send(router.clone(), post_json("/v1/rate", json!({ "board": PUZZLE }).to_string())).await;
    // Drawings and booklets are counted as what they are, a booklet's puzzles made included.
    send(router.clone(), post_json("/v1/render", json!({ "board": PUZZLE }).to_string())).await;
    send(router.clone(), post_json("/v1/booklet", json!({ "count": 1, "difficulty": "easy" }).to_string())).await;
    send(router.clone(), Request::get("/no/such/path").body(Body::empty()).unwrap()).await;
    // Any token is a method: made-up ones must not each become a series of their own.
    for method in ["BREW", "WHEN"] {
        send(router.clone(), Request::builder().method(method).uri("/v1/solve").body(Body::empty()).unwrap()).await;
    }
    let late = ServeConfig { solve_timeout_ms: 0, ..config() };
    send(self::router(&late), post_json("/v1/count", json!({ "board": ".".repeat(81) }).to_string())).await;
    // A batch answers 200 with its boards failed by the deadline: the deadline was reached all the same.
    let batch =
        send(self::router(&late), post_json("/v1/solve/batch", json!({ "boards": [PUZZLE] }).to_string())).await;
    assert_eq!(batch.body["results"][0]["type"], "https://sudokud.dev/problems/solve-timeout", "{}", batch.body);

    // One slot, no queue, and the slot taken: the next solve is shed.
    let full = full_pool().await;
    send(full.router.clone(), post_json("/v1/solve", json!({ "board": PUZZLE }).to_string())).await;
    let _ = full.release().await;

    let text = scrape(router).await;
    let solved = r#"sudokud_http_requests_total{method="POST",route="/v1/solve",status="200"}"#;
    assert!(sample(&text, solved).is_some_and(|count| count >= 1.0), "{text}");
    assert!(text.contains(r#"route="unmatched",status="404""#), "{text}");
    assert!(text.contains(r#"method="other",route="/v1/solve",status="405""#), "{text}");
    assert!(!text.contains("BREW") && !text.contains("WHEN"), "{text}");
    assert!(
        text.contains(
            r#"sudokud_http_request_duration_seconds_bucket{method="POST",route="/v1/rate",status="200",le="0.001"}"#
        ),
        "{text}"
    );
    assert!(text.contains(r#"sudokud_solve_duration_seconds_bucket{work="solve",le="#), "{text}");
    well_formed_histograms(&text);
    assert!(text.contains(r#"sudokud_solver_slot_wait_seconds_count{work="rate"}"#), "{text}");
    let booklet = sample(&text, r#"sudokud_solve_duration_seconds_count{work="booklet"}"#);
    assert!(booklet.is_some_and(|jobs| jobs >= 2.0), "the puzzle made and the drawing: {text}");
    assert!(sample(&text, r#"sudokud_solve_duration_seconds_count{work="render"}"#).is_some(), "{text}");
    assert!(!text.contains(r#"work="generate""#), "no puzzle was generated but the booklet's: {text}");
    assert!(sample(&text, r#"sudokud_deadline_exceeded_total{work="count"}"#).is_some_and(|n| n >= 1.0), "{text}");
    assert!(sample(&text, r#"sudokud_deadline_exceeded_total{work="batch"}"#).is_some_and(|n| n >= 1.0), "{text}");
    assert!(sample(&text, r#"sudokud_requests_shed_total{reason="queue_full"}"#).is_some_and(|n| n >= 1.0), "{text}");
    assert!(text.contains("sudokud_solves_in_flight"), "{text}");
    assert!(sample(&text, r#"sudokud_build_info{version=""#).is_some_and(|one| one == 1.0), "{text}");
}

/// A solve that outlasts its try on the async worker waits for a slot before it is in flight
/// again: with the only slot held, the gauge counts the holder alone, and nothing once all ends.
#[tokio::test]
async fn a_solve_waiting_for_a_slot_is_not_in_flight() {
    let _alone = JOBS.lock().await;
    logs();
    let held =
        slot_held(ServeConfig { max_queued_solves: 1, queue_timeout_ms: 60_000, solve_timeout_ms: 60_000, ..config() })
            .await;
    let router = held.router.clone();
    let in_flight = |text: String| sample(&text, "sudokud_solves_in_flight ");
    assert_eq!(in_flight(scrape(router.clone()).await), Some(1.0), "the job holding the slot");

    // The first of forum_hardest_1106: a search several times the try's 20 µs, so it is handed over.
    let hard = "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
    let solve = tokio::spawn(send(router.clone(), post_json("/v1/solve", json!({ "board": hard }).to_string())));
    // Admitted (its place taken) and, on this one-thread runtime, past its try: waiting for the slot.
    while held.state.pool.check_room().is_ok() {
        assert!(!solve.is_finished(), "the solve ended without waiting for the slot");
        tokio::task::yield_now().await;
    }
    assert_eq!(in_flight(scrape(router.clone()).await), Some(1.0), "a solve waiting for its slot is not in flight");
    let router = held.release().await;
    assert_eq!(solve.await.unwrap().status, StatusCode::OK);
    assert_eq!(in_flight(scrape(router).await), Some(0.0));
}

#[tokio::test]
async fn metrics_can_have_their_own_port() {
    logs();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let config = ServeConfig { metrics_addr: Some(format!("127.0.0.1:{port}").parse().unwrap()), ..config() };
    let running = start(config).await;
    let client = reqwest::Client::new();
    let on_api = client.get(format!("http://{}/metrics", running.addr)).send().await.unwrap();
    assert_eq!(on_api.status(), 404, "not on the API's port");
    let mut scraped = None;
    for _ in 0..50 {
        if let Ok(response) = client.get(format!("http://127.0.0.1:{port}/metrics")).send().await {
            scraped = Some(response.text().await.unwrap());
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(scraped.expect("the metrics port answers").contains("sudokud_build_info"));
    running.stop.send(()).unwrap();
    running.served.await.unwrap().unwrap();
}

/// Log lines written by the server's own subscriber, kept for the test to read.
#[derive(Clone, Default)]
struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn lines(&self) -> Vec<serde_json::Value> {
        let bytes = self.0.lock().unwrap();
        String::from_utf8_lossy(&bytes).lines().map(|line| serde_json::from_str(line).unwrap()).collect()
    }
}

/// The server's log at `RUST_LOG=warn`, as JSON lines, through the subscriber the binary
/// installs. It is the global one, installed by every test of this file before anything else:
/// tracing caches per call site whether anyone listens, and a scoped subscriber races with
/// call sites first reached on other test threads.
fn logs() -> &'static Captured {
    static LOGS: std::sync::OnceLock<Captured> = std::sync::OnceLock::new();
    LOGS.get_or_init(|| {
        let captured = Captured::default();
        let writer = captured.clone();
        let filter = tracing_subscriber::EnvFilter::new("warn");
        let subscriber =
            sudokud::telemetry::subscriber(sudokud::config::LogFormat::Json, filter, move || writer.clone());
        tracing::subscriber::set_global_default(subscriber).expect("no other test installs a subscriber");
        captured
    })
}

#[tokio::test]
async fn shed_requests_are_a_sampled_warning_with_a_request_id_never_an_error_per_request() {
    let _alone = JOBS.lock().await;
    let logs = logs();
    let full = full_pool().await;
    for index in 0..20 {
        let request = Request::post("/v1/solve")
            .header(header::CONTENT_TYPE, "application/json")
            .header("x-request-id", format!("shed-{index}"))
            .body(Body::from(json!({ "board": PUZZLE }).to_string()))
            .unwrap();
        assert_eq!(send(full.router.clone(), request).await.status, StatusCode::SERVICE_UNAVAILABLE);
    }
    let _ = full.release().await;

    // Other tests of this file log too; these lines are this test's requests'.
    let lines: Vec<_> = logs
        .lines()
        .into_iter()
        .filter(|line| line["span"]["request_id"].as_str().is_some_and(|id| id.starts_with("shed-")))
        .collect();
    assert!(lines.iter().all(|line| line["level"] != "ERROR"), "{lines:#?}");
    let warnings: Vec<_> = lines.iter().filter(|line| line["level"] == "WARN").collect();
    assert_eq!(warnings.len(), 1, "one line for the burst: {lines:#?}");
    assert_eq!(warnings[0]["fields"]["refused"], 1, "{lines:#?}");
    assert_eq!(warnings[0]["span"]["request_id"], "shed-0", "the request id, even at warn: {lines:#?}");
}

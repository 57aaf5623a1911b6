//! What the HTTP path adds to a solve: `cargo bench --bench http [-- --requests N]`.
//!
//! Starts the real server (release build, default configuration, logging off) on a loopback
//! port in this process and sends requests one at a time over one keep-alive connection, i.e.
//! light load: no queueing, so the latency is the service's own cost. For each case it prints
//! the median, 90th and 99th percentile latency, and for solves the in-process solver time of
//! the same puzzles, so the difference is what parsing, the blocking pool, formatting, the
//! middleware and the socket cost.

// The integration tests' helpers, of which this benchmark uses a part.
#[path = "../tests/common/mod.rs"]
#[allow(dead_code)]
mod common;

use std::time::{Duration, Instant};

use sudokud::board::Board;
use sudokud::config::ServeConfig;
use sudokud::http::Readiness;
use sudokud::{server, solver};

const DEFAULT_REQUESTS: usize = 2000;

fn percentile(sorted: &[Duration], fraction: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * fraction).round() as usize]
}

fn micros(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e6
}

/// Median in-process time of `solver::solve` over `puzzles`, one puzzle at a time.
fn solver_median(puzzles: &[Board]) -> Duration {
    let mut times: Vec<Duration> = puzzles
        .iter()
        .map(|puzzle| {
            let start = Instant::now();
            std::hint::black_box(solver::solve(std::hint::black_box(puzzle)));
            start.elapsed()
        })
        .collect();
    times.sort_unstable();
    percentile(&times, 0.5)
}

async fn measure(client: &reqwest::Client, label: &str, requests: Vec<reqwest::Request>, solver: Option<Duration>) {
    let mut latencies = Vec::with_capacity(requests.len());
    for request in requests {
        let start = Instant::now();
        let response = client.execute(request).await.expect("the server answers");
        assert!(response.status().is_success(), "{label}: {}", response.status());
        response.bytes().await.expect("a body");
        latencies.push(start.elapsed());
    }
    latencies.sort_unstable();
    let solver = solver.map_or_else(|| "-".to_owned(), |median| format!("{:.1}", micros(median)));
    println!(
        "| {label:<36} | {:>8} | {:>8.1} | {:>8.1} | {:>8.1} | {solver:>10} |",
        latencies.len(),
        micros(percentile(&latencies, 0.5)),
        micros(percentile(&latencies, 0.9)),
        micros(percentile(&latencies, 0.99)),
    );
}

fn solve_requests(client: &reqwest::Client, url: &str, puzzles: &[Board], count: usize) -> Vec<reqwest::Request> {
    puzzles
        .iter()
        .cycle()
        .take(count)
        .map(|puzzle| {
            client
                .post(url)
                .header("content-type", "application/json")
                .body(format!(r#"{{"board":"{puzzle}"}}"#))
                .build()
                .expect("a valid request")
        })
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|arg| arg != "--bench");
    let mut requests = DEFAULT_REQUESTS;
    while let Some(arg) = args.next() {
        if arg == "--requests" {
            requests = args.next().and_then(|n| n.parse().ok()).expect("--requests N");
        }
    }
    let easy = common::load("kaggle_style_easy_10k.txt");
    let hard = common::load("forum_hardest_1106.txt");
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a port");
        let addr = listener.local_addr().expect("an address");
        let config = ServeConfig::default();
        tokio::spawn(
            async move { server::serve(listener, &config, Readiness::default(), std::future::pending()).await },
        );
        let client = reqwest::Client::new();
        let solve_url = format!("http://{addr}/v1/solve");
        // Warm up the connection and the blocking pool.
        let warm_up = solve_requests(&client, &solve_url, &easy, 200);
        for request in warm_up {
            client.execute(request).await.expect("the server answers").bytes().await.expect("a body");
        }
        println!(
            "| {:<36} | {:>8} | {:>8} | {:>8} | {:>8} | {:>10} |",
            "request", "count", "p50 µs", "p90 µs", "p99 µs", "solver µs"
        );
        println!("|{:-<38}|{:->10}|{:->10}|{:->10}|{:->10}|{:->12}|", "", ":", ":", ":", ":", ":");
        let health =
            (0..requests).map(|_| client.get(format!("http://{addr}/healthz")).build().expect("a request")).collect();
        measure(&client, "GET /healthz (the HTTP floor)", health, None).await;
        let easy_requests = solve_requests(&client, &solve_url, &easy, requests);
        measure(&client, "POST /v1/solve, easy (kaggle-style)", easy_requests, Some(solver_median(&easy))).await;
        let hard_requests = solve_requests(&client, &solve_url, &hard, requests);
        measure(&client, "POST /v1/solve, hard (forum 1106)", hard_requests, Some(solver_median(&hard))).await;
    });
}

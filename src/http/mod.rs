//! The HTTP layer: routes, middleware and the translation between JSON and the core.
//!
//! [`app`] builds the complete service as a [`Router`], which the server binds and tests drive
//! with `tower::ServiceExt::oneshot`. Handlers stay thin: they read the request, call the core
//! (through the [`SolverPool`](crate::pool::SolverPool) when the work is CPU-bound) and write
//! the answer; every error goes through [`problem`].

mod batch;
mod cors;
mod extract;
mod handlers;
mod logic;
mod playground;
pub mod problem;
mod routes;
mod state;

use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{MatchedPath, Request};
use axum::http::StatusCode;
use axum::middleware;
use axum::response::IntoResponse;
use axum::routing::{MethodFilter, get};
use tower::ServiceBuilder;
use tower_http::LatencyUnit;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::classify::ServerErrorsFailureClass;
use tower_http::compression::predicate::{NotForContentType, Predicate};
use tower_http::compression::{CompressionLayer, DefaultPredicate};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

pub use problem::{ApiError, Kind, PROBLEM_BASE, REQUEST_ID};
pub use routes::{ROUTES, Route};
pub use state::{AppState, Readiness};

use crate::board::{Board, Format};
use crate::config::ServeConfig;
use cors::PreflightsLayer;
use problem::BodyLimit;

/// The whole service: the routes of [`ROUTES`] plus the middleware stack, configured by `config`.
pub fn app(config: &ServeConfig, state: AppState) -> Router {
    let body_limit = RequestBodyLimitLayer::new(config.body_limit_bytes);
    let routes = ROUTES
        .iter()
        // With a metrics address of its own, /metrics is served only there (see `metrics_app`).
        .filter(|route| !(route.metrics && config.metrics_addr.is_some()))
        .fold(Router::new(), |routes, route| {
            let filter = MethodFilter::try_from(route.method.clone()).expect("a method axum can route");
            let handler = (route.handler)(filter);
            let handler = if route.body_limit { handler.layer(body_limit) } else { handler };
            routes.route(route.path, handler)
        });
    with_middleware(routes.fallback(handlers::not_found).with_state(state), config)
}

/// The router of the separate metrics listener (`--metrics-addr`): `/metrics` alone.
pub fn metrics_app(config: &ServeConfig) -> Router {
    Router::new()
        .route("/metrics", get(handlers::metrics))
        .fallback(handlers::not_found)
        .layer(middleware::from_fn_with_state(BodyLimit(config.body_limit_bytes), problem::render_problems))
}

/// Reads a `{"board": ...}` body as `/v1/solve` does, without the HTTP around it: the entry point
/// of the `board_json` fuzz target.
#[doc(hidden)]
pub fn parse_board_request(body: &[u8]) -> Result<(Board, Format), ApiError> {
    Ok(extract::parse_object::<handlers::BoardRequest>(body)?.board.into_result()?)
}

/// Wraps `routes` in the middleware every response passes through, outermost first: request
/// id (a client's unusable one dropped first), metrics, tracing, CORS, compression, problem
/// rendering, panic catching and timeout.
fn with_middleware(routes: Router, config: &ServeConfig) -> Router {
    let cors = (!config.cors_origins.is_empty()).then(|| PreflightsLayer::new(&config.cors_origins));
    let trace = TraceLayer::new_for_http()
        .make_span_with(|request: &Request| {
            let request_id = request.headers().get(REQUEST_ID).and_then(|id| id.to_str().ok()).unwrap_or("");
            // At ERROR, the most severe level, the span is enabled whatever RUST_LOG says, so
            // every line of a request carries its id at every level (an INFO span vanishes
            // under RUST_LOG=warn, and with it the id of the warnings and errors).
            tracing::error_span!("request", method = %request.method(), path = %request.uri().path(), request_id)
        })
        .on_response(DefaultOnResponse::new().level(Level::INFO).latency_unit(LatencyUnit::Micros))
        .on_failure(log_failure);
    routes.layer(
        ServiceBuilder::new()
            .layer(middleware::map_request(drop_unusable_request_id))
            .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
            .layer(middleware::from_fn(record_metrics))
            .layer(trace)
            .layer(PropagateRequestIdLayer::new(REQUEST_ID))
            .option_layer(cors)
            // A compressor holds output back until it has enough to pack, which would stall an
            // NDJSON stream whose client reads results as they come.
            .layer(
                CompressionLayer::new()
                    .compress_when(DefaultPredicate::new().and(NotForContentType::const_new(batch::NDJSON))),
            )
            .layer(middleware::from_fn_with_state(BodyLimit(config.body_limit_bytes), problem::render_problems))
            .layer(CatchPanicLayer::custom(|_| {
                // The panic message stays in the server's log (the panic hook prints it); the
                // client learns only that something failed.
                tracing::error!("a request handler panicked");
                ApiError::Internal.into_response()
            }))
            .layer(TimeoutLayer::with_status_code(StatusCode::REQUEST_TIMEOUT, config.request_timeout())),
    )
}

/// Logs a response the server failed to give. A 503 is not such a failure: a full server
/// refusing work, a deadline or a shutdown are the service working as configured; each is in
/// the access log line, counted in the metrics, and overload is logged sampled where it is
/// decided ([`crate::pool`]). One ERROR line per shed request would bury the log under load.
fn log_failure(failure: ServerErrorsFailureClass, latency: Duration, _span: &tracing::Span) {
    let latency_us = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX);
    match failure {
        ServerErrorsFailureClass::StatusCode(StatusCode::SERVICE_UNAVAILABLE) => {}
        ServerErrorsFailureClass::StatusCode(status) => {
            tracing::error!(status = status.as_u16(), latency_us, "response failed");
        }
        ServerErrorsFailureClass::Error(error) => tracing::error!(%error, latency_us, "response failed"),
    }
}

/// The longest client-chosen request id kept: room for a UUID, a W3C trace id or a path of
/// several of them.
const MAX_REQUEST_ID_LEN: usize = 128;

/// Middleware: a client's `x-request-id` is echoed in the response, repeated in problems and
/// logged on every line of the request, so one that is long or not printable ASCII (header
/// values may carry any byte but control characters) is dropped, and the request gets a fresh
/// UUID like one that came without.
async fn drop_unusable_request_id(mut request: Request) -> Request {
    let usable = |id: &[u8]| id.len() <= MAX_REQUEST_ID_LEN && !id.is_empty() && id.iter().all(u8::is_ascii_graphic);
    if request.headers().get_all(REQUEST_ID).iter().any(|id| !usable(id.as_bytes())) {
        request.headers_mut().remove(REQUEST_ID);
    }
    request
}

/// Middleware: counts each request and times it to its response head (for a streamed NDJSON
/// batch, to the start of the stream), by matched route so the label set stays small.
async fn record_metrics(request: Request, next: middleware::Next) -> axum::response::Response {
    let started = Instant::now();
    let method = request.method().clone();
    let route = request.extensions().get::<MatchedPath>().map_or("unmatched", MatchedPath::as_str).to_owned();
    let response = next.run(request).await;
    crate::metrics::record_request(&method, &route, response.status().as_u16(), started.elapsed());
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{Body, to_bytes};
    use axum::http::header;
    use tower::ServiceExt;

    #[tokio::test]
    async fn a_panic_becomes_a_500_problem_without_the_panic_text() {
        async fn explode() -> &'static str {
            panic!("secret internals")
        }
        let routes = Router::new().route("/explode", get(explode));
        let response = with_middleware(routes, &ServeConfig::default())
            .oneshot(Request::get("/explode").body(Body::empty()).unwrap())
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
        assert_eq!(response.headers()[header::CONTENT_TYPE], "application/problem+json");
        assert!(response.headers().contains_key(REQUEST_ID));
        let body = to_bytes(response.into_body(), 4096).await.unwrap();
        let problem: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(problem["type"], format!("{PROBLEM_BASE}internal"));
        assert_eq!(problem["instance"], "/explode");
        assert!(!String::from_utf8_lossy(&body).contains("secret"));
    }
}

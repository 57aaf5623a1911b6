//! The HTTP layer: routes, middleware and the translation between JSON and the core.
//!
//! [`app`] builds the complete service as a [`Router`], which the server binds and tests drive
//! with `tower::ServiceExt::oneshot`. Handlers stay thin: they read the request, call the core
//! (through the [`SolverPool`](crate::pool::SolverPool) when the work is CPU-bound) and write
//! the answer; every error goes through [`problem`].

mod batch;
mod compress;
mod cors;
mod extract;
mod front;
mod guard;
mod handlers;
mod logic;
mod playground;
pub mod problem;
mod render;
mod routes;
mod state;

use axum::Router;
use axum::routing::{MethodFilter, get};
use tower::ServiceBuilder;
use tower_http::limit::RequestBodyLimitLayer;

pub use compress::MIN_COMPRESSED_BYTES;
pub use logic::MAX_GENERATE_BATCH;
pub use problem::{ApiError, Kind, PROBLEM_BASE, REQUEST_ID};
pub use routes::{ROUTES, Route};
pub use state::{AppState, Readiness};

use crate::board::Format;
use crate::config::ServeConfig;
use crate::variants::Puzzle;
use compress::WhenAskedLayer;
use cors::PreflightsLayer;
use front::FrontLayer;
pub(crate) use front::fresh_request_id;
use guard::GuardLayer;

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
        .layer(GuardLayer { timeout: config.request_timeout(), body_limit: config.body_limit_bytes })
}

/// Reads a `{"board": ...}` request body as `/v1/solve` does, with the same errors, without the
/// HTTP around it: for boards that arrive by other means, and the entry point of the
/// `board_json` fuzz target.
pub fn parse_board_request(body: &[u8]) -> Result<(Puzzle, Format), ApiError> {
    extract::parse_object::<handlers::BoardRequest>(body)?.puzzle()
}

/// Wraps `routes` in the middleware every response passes through, outermost first: the
/// request's id, logging context, metrics and access log ([`front`]), CORS, compression, and the timeout,
/// panic catching and problem rendering ([`guard`]).
fn with_middleware(routes: Router, config: &ServeConfig) -> Router {
    let cors = (!config.cors_origins.is_empty()).then(|| PreflightsLayer::new(&config.cors_origins));
    routes.layer(
        ServiceBuilder::new()
            .layer(FrontLayer)
            .option_layer(cors)
            .layer(WhenAskedLayer)
            .layer(GuardLayer { timeout: config.request_timeout(), body_limit: config.body_limit_bytes }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::{Body, to_bytes};
    use axum::extract::Request;
    use axum::http::{StatusCode, header};
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

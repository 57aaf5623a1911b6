//! The HTTP layer: routes, middleware and the translation between JSON and the core.
//!
//! [`app`] builds the complete service as a [`Router`], which the server binds and tests drive
//! with `tower::ServiceExt::oneshot`. Handlers stay thin: they read the request, call the core
//! (through the [`SolverPool`](crate::pool::SolverPool) when the work is CPU-bound) and write
//! the answer; every error is an [`ApiError`], which `problem.rs` renders as a problem document.

mod batch;
mod compress;
mod cors;
mod extract;
mod front;
mod guard;
mod handlers;
mod logic;
mod made;
mod playground;
pub(crate) mod problem;
mod render;
mod routes;
mod state;

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use axum::Router;
use axum::extract::Request;
use axum::response::Response;
use axum::routing::{MethodFilter, get};
use pin_project_lite::pin_project;
use tower::util::Either;
use tower::{Service, ServiceBuilder};

pub use compress::MIN_COMPRESSED_BYTES;
pub use logic::MAX_GENERATE_BATCH;
pub use problem::{ApiError, Kind, PROBLEM_BASE, REQUEST_ID};
pub use routes::{ROUTES, Route, Served};
pub use state::{AppState, Readiness};

use crate::board::Format;
use crate::config::ServeConfig;
use crate::puzzle::Puzzle;
use compress::{WhenAsked, WhenAskedLayer};
use cors::{Preflights, PreflightsLayer};
pub(crate) use front::fresh_request_id;
use front::{Front, FrontLayer};
use guard::{Guard, GuardLayer};

/// The whole service: the router of the served [`ROUTES`] behind the layers every request passes
/// through, configured by `config`. The server serves it; tests drive it with
/// `tower::ServiceExt::oneshot`.
pub fn app(config: &ServeConfig, state: AppState) -> App {
    let routes = Served::by(config).routes().fold(Router::new(), |routes, route| {
        let filter = MethodFilter::try_from(route.method.clone()).expect("a method axum can route");
        routes.route(route.path, (route.handler)(filter))
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

/// The members of each JSON request body, by the name of its schema in `openapi.yaml`: what each
/// route reads, and refuses any other member than (the contract test holds the spec to them).
pub fn request_members() -> [(&'static str, &'static [&'static str]); 7] {
    use crate::member::members;
    [
        ("BoardRequest", members::<handlers::BoardRequest>()),
        ("PlayerRequest", members::<handlers::PlayerRequest>()),
        ("CountRequest", members::<handlers::CountRequest>()),
        ("BatchRequest", batch::BATCH_MEMBERS),
        ("GenerateRequest", members::<logic::GenerateRequest>()),
        ("RenderRequest", members::<render::RenderRequest>()),
        ("BookletRequest", members::<render::BookletRequest>()),
    ]
}

/// The service [`app`] builds: a router behind its layers.
///
/// The layers wrap the router as a whole rather than each route (axum's `Router::layer`): a
/// route wrapped in layers is a boxed service that the router clones, with each boxed service
/// inside it, and whose future it boxes, for every request. Wrapped once, a `GET /healthz` took
/// about 2,200 fewer instructions (callgrind, 26,000 -> 23,900).
#[derive(Clone)]
pub struct App(Layered<Router>);

/// The layers in front of a router, outermost first.
type Layered<S> = Front<Either<Preflights<Inner<S>>, Inner<S>>>;
type Inner<S> = WhenAsked<Guard<S>>;

/// Wraps `routes` in the layers every response passes through, outermost first: the request's
/// id, logging context, metrics and access log ([`front`]), CORS, compression, and the timeout,
/// panic catching and problem rendering ([`guard`]).
fn with_middleware(routes: Router, config: &ServeConfig) -> App {
    let served = Served::by(config);
    let cors = (!config.cors_origins.is_empty()).then(|| PreflightsLayer::new(&config.cors_origins, served));
    let layers = ServiceBuilder::new()
        .layer(FrontLayer { served })
        .option_layer(cors)
        .layer(WhenAskedLayer)
        .layer(GuardLayer { timeout: config.request_timeout(), body_limit: config.body_limit_bytes });
    App(layers.service(routes))
}

impl Service<Request> for App {
    type Response = Response;
    type Error = Infallible;
    type Future = AppFuture;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> AppFuture {
        AppFuture { inner: self.0.call(request) }
    }
}

pin_project! {
    /// The future of [`App`]'s answer.
    pub struct AppFuture {
        #[pin]
        inner: <Layered<Router> as Service<Request>>::Future,
    }
}

impl Future for AppFuture {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.project().inner.poll(cx)
    }
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

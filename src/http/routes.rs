//! The service's routes, as one table.
//!
//! [`app`](super::app) builds its router from [`ROUTES`], and
//! `tests/integration/openapi_contract.rs` compares the same table with `openapi.yaml`: a route
//! cannot be served without being documented, nor documented without being served, and nothing
//! has to read this file's text to know.

use axum::http::Method;
use axum::routing::{MethodFilter, MethodRouter, on};

use super::{AppState, batch, handlers, logic, playground, render};

/// One route: a method on a path, and the handler that answers it.
pub struct Route {
    /// The method; a `GET` route answers `HEAD` too, as axum does for every `GET`.
    pub method: Method,
    /// The path, exactly as the router matches it.
    pub path: &'static str,
    /// Whether the body is held to `--body-limit-bytes` before the handler reads it: one board's
    /// JSON fits in a small body. The solve batch route reads its body itself, with a limit per board
    /// (JSON) or per line (NDJSON); a `GET` has no body to read.
    pub body_limit: bool,
    /// Whether the route moves to the listener of its own that `--metrics-addr` gives
    /// ([`metrics_app`](super::metrics_app)): the main router serves it only when there is none.
    pub metrics: bool,
    /// The handler, routed for the method's filter.
    pub(super) handler: fn(MethodFilter) -> MethodRouter<AppState>,
}

impl Route {
    const fn new(method: Method, path: &'static str, handler: fn(MethodFilter) -> MethodRouter<AppState>) -> Self {
        Route { method, path, body_limit: false, metrics: false, handler }
    }

    const fn body_limit(mut self) -> Self {
        self.body_limit = true;
        self
    }

    const fn metrics(mut self) -> Self {
        self.metrics = true;
        self
    }
}

/// Every route of the service.
pub static ROUTES: &[Route] = &[
    Route::new(Method::POST, "/v1/solve", |filter| on(filter, handlers::solve)).body_limit(),
    Route::new(Method::POST, "/v1/validate", |filter| on(filter, handlers::validate)).body_limit(),
    Route::new(Method::POST, "/v1/candidates", |filter| on(filter, handlers::candidates)).body_limit(),
    Route::new(Method::POST, "/v1/count", |filter| on(filter, handlers::count)).body_limit(),
    Route::new(Method::POST, "/v1/rate", |filter| on(filter, logic::rate)).body_limit(),
    Route::new(Method::POST, "/v1/hint", |filter| on(filter, logic::hint)).body_limit(),
    Route::new(Method::POST, "/v1/explain", |filter| on(filter, logic::explain)).body_limit(),
    Route::new(Method::POST, "/v1/generate", |filter| on(filter, logic::generate)).body_limit(),
    Route::new(Method::POST, "/v1/render", |filter| on(filter, render::render)).body_limit(),
    Route::new(Method::POST, "/v1/booklet", |filter| on(filter, render::booklet)).body_limit(),
    Route::new(Method::POST, "/v1/generate/batch", |filter| on(filter, logic::generate_batch)).body_limit(),
    Route::new(Method::POST, "/v1/solve/batch", |filter| on(filter, batch::solve_batch)),
    Route::new(Method::GET, "/v1/daily", |filter| on(filter, logic::daily)),
    Route::new(Method::GET, "/v1/puzzles/{id}", |filter| on(filter, logic::puzzle)),
    Route::new(Method::GET, "/healthz", |filter| on(filter, handlers::healthz)),
    Route::new(Method::GET, "/readyz", |filter| on(filter, handlers::readyz)),
    Route::new(Method::GET, "/openapi.yaml", |filter| on(filter, handlers::openapi)),
    Route::new(Method::GET, "/metrics", |filter| on(filter, handlers::metrics)).metrics(),
    Route::new(Method::GET, "/", |filter| on(filter, playground::index)),
    Route::new(Method::GET, "/playground.css", |filter| on(filter, playground::style)),
    Route::new(Method::GET, "/playground.js", |filter| on(filter, playground::script)),
    Route::new(Method::GET, "/favicon.svg", |filter| on(filter, playground::favicon)),
];

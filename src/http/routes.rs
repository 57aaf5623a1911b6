//! The service's routes, as one table.
//!
//! [`app`](super::app) builds its router from [`ROUTES`], and
//! `tests/integration/openapi_contract.rs` compares the same table with `openapi.yaml`: a route
//! cannot be served without being documented, nor documented without being served, and nothing
//! has to read this file's text to know.
//!
//! The layers in front of the router (metrics by route, CORS preflights on routed paths) learn a
//! request's route from [`Served::route_of`], which matches as the router does (a test holds the
//! two to the same answers), rather than from axum's `MatchedPath`: that needs the layers to wrap
//! each route, and a route wrapped in layers was cloned and boxed again for every request.

use axum::http::Method;
use axum::routing::{MethodFilter, MethodRouter, on};

use super::{AppState, batch, handlers, logic, playground, render};
use crate::config::ServeConfig;

/// One route: a method on a path, and the handler that answers it.
pub struct Route {
    /// The method; a `GET` route answers `HEAD` too, as axum does for every `GET`.
    pub method: Method,
    /// The path, exactly as the router matches it: `/`-separated segments, each literal or a
    /// parameter in braces that matches any one non-empty segment.
    pub path: &'static str,
    /// The length of the path's literal start, up to its first parameter (the whole path when it
    /// has none).
    literal_len: usize,
    /// Whether the route moves to the listener of its own that `--metrics-addr` gives
    /// ([`metrics_app`](super::metrics_app)): the main router serves it only when there is none.
    pub metrics: bool,
    /// The handler, routed for the method's filter.
    pub(super) handler: fn(MethodFilter) -> MethodRouter<AppState>,
}

impl Route {
    const fn new(method: Method, path: &'static str, handler: fn(MethodFilter) -> MethodRouter<AppState>) -> Self {
        Route { method, path, literal_len: literal_len(path), metrics: false, handler }
    }

    const fn metrics(mut self) -> Self {
        self.metrics = true;
        self
    }

    /// Whether `path` matches this route's path, segment by segment. Most routes have no
    /// parameter, and most paths differ in length from them: a request tries every route, so
    /// the common cases are the cheap ones.
    fn matches(&self, path: &str) -> bool {
        if self.literal_len == self.path.len() {
            return self.path == path;
        }
        if !path.as_bytes().starts_with(&self.path.as_bytes()[..self.literal_len]) {
            return false;
        }
        let mut segments = path.split('/');
        self.path.split('/').all(|pattern| {
            segments.next().is_some_and(
                |segment| {
                    if pattern.starts_with('{') { !segment.is_empty() } else { pattern == segment }
                },
            )
        }) && segments.next().is_none()
    }
}

/// The length of `path` up to its first `{`.
const fn literal_len(path: &str) -> usize {
    let bytes = path.as_bytes();
    let mut at = 0;
    while at < bytes.len() && bytes[at] != b'{' {
        at += 1;
    }
    at
}

/// Which of [`ROUTES`] an app serves: every one, or all but `/metrics` when `--metrics-addr`
/// gives it a listener of its own.
#[derive(Clone, Copy, Debug)]
pub struct Served {
    metrics: bool,
}

impl Served {
    /// The routes the main listener serves under `config`.
    pub fn by(config: &ServeConfig) -> Served {
        Served { metrics: config.metrics_addr.is_none() }
    }

    /// The served routes.
    pub fn routes(self) -> impl Iterator<Item = &'static Route> {
        ROUTES.iter().filter(move |route| self.serves(route))
    }

    fn serves(self, route: &Route) -> bool {
        self.metrics || !route.metrics
    }

    /// The index in [`ROUTES`] of the served route whose path matches `path` (a 404 has none).
    pub fn route_of(self, path: &str) -> Option<usize> {
        ROUTES.iter().position(|route| self.serves(route) && route.matches(path))
    }
}

/// Every route of the service.
pub static ROUTES: &[Route] = &[
    Route::new(Method::POST, "/v1/solve", |filter| on(filter, handlers::solve)),
    Route::new(Method::POST, "/v1/validate", |filter| on(filter, handlers::validate)),
    Route::new(Method::POST, "/v1/candidates", |filter| on(filter, handlers::candidates)),
    Route::new(Method::POST, "/v1/count", |filter| on(filter, handlers::count)),
    Route::new(Method::POST, "/v1/export", |filter| on(filter, handlers::export)),
    Route::new(Method::POST, "/v1/import", |filter| on(filter, handlers::import)),
    Route::new(Method::POST, "/v1/rate", |filter| on(filter, logic::rate)),
    Route::new(Method::POST, "/v1/hint", |filter| on(filter, logic::hint)),
    Route::new(Method::POST, "/v1/explain", |filter| on(filter, logic::explain)),
    Route::new(Method::POST, "/v1/generate", |filter| on(filter, logic::generate)),
    Route::new(Method::POST, "/v1/render", |filter| on(filter, render::render)),
    Route::new(Method::POST, "/v1/booklet", |filter| on(filter, render::booklet)),
    Route::new(Method::POST, "/v1/generate/batch", |filter| on(filter, logic::generate_batch)),
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

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::body::{Body, to_bytes};
    use axum::extract::Request;
    use axum::routing::any;
    use tower::ServiceExt;

    use super::*;

    /// The router's own answer: the index of the route it routes `path` to.
    async fn routed(router: &Router, path: &str) -> Option<usize> {
        let request = Request::get(path).body(Body::empty()).unwrap();
        let response = router.clone().oneshot(request).await.unwrap();
        let body = to_bytes(response.into_body(), 64).await.unwrap();
        std::str::from_utf8(&body).unwrap().parse().ok()
    }

    /// `route_of` against axum's router built from the same paths, on every route's path with its
    /// parameters filled in many ways and on near misses of each.
    #[tokio::test]
    async fn route_of_matches_as_the_router_does() {
        for served in [Served { metrics: true }, Served { metrics: false }] {
            let router = served.routes().fold(Router::new(), |router, route| {
                let at = ROUTES.iter().position(|other| other.path == route.path).unwrap();
                router.route(route.path, any(move || async move { at.to_string() }))
            });
            let router = router.fallback(|| async { "none" });
            let mut paths = vec!["/".to_owned(), "//".to_owned(), "/v1".to_owned(), "/v1/".to_owned()];
            for route in ROUTES {
                for filler in ["x", "2026-12-03", "9x9-abc", "a.b", "%2F", "%20", "-", "{id}"] {
                    let path = route.path.replace("{id}", filler);
                    let upper = path.to_uppercase();
                    paths.extend([
                        format!("{path}/"),
                        format!("{path}/x"),
                        format!("/v1{path}"),
                        format!("{path}x"),
                        path.replacen('/', "//", 1),
                        path[..path.len() - 1].to_owned(),
                        upper,
                        path,
                    ]);
                }
                paths.push(route.path.replace("{id}", ""));
            }
            for path in paths.iter().filter(|path| path.starts_with('/')) {
                assert_eq!(served.route_of(path), routed(&router, path).await, "{path}");
            }
            assert!(paths.iter().any(|path| served.route_of(path).is_some_and(|at| ROUTES[at].path.contains('{'))));
        }
    }
}

//! Cross-origin access for browsers (`--cors-origins`), answering preflights only when they are
//! preflights.
//!
//! tower-http's `CorsLayer` takes every `OPTIONS` request for a preflight and answers it 200,
//! on any path, with or without an `Origin`. A CORS preflight is an `OPTIONS` request with
//! both `Origin` and `Access-Control-Request-Method` (Fetch standard), so [`Preflights`] lets
//! the layer answer only those, and only on a path that has a route; any other `OPTIONS`
//! request is routed as usual (a 405 with `Allow` on a known path, a 404 elsewhere).

use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::Request;
use axum::http::{Method, header};
use futures_util::future::Either;
use tower::{Layer, Service};
use tower_http::cors::{AllowOrigin, Cors, CorsLayer};

use super::REQUEST_ID;
use super::routes::Served;

/// Wraps a service in CORS for `origins` (`*` for any).
#[derive(Clone)]
pub(super) struct PreflightsLayer {
    cors: CorsLayer,
    served: Served,
}

impl PreflightsLayer {
    /// CORS for `origins`, in front of the router of the routes `served`.
    pub(super) fn new(origins: &[String], served: Served) -> PreflightsLayer {
        let allow_origin = if origins.iter().any(|origin| origin == "*") {
            AllowOrigin::any()
        } else {
            // Origins were checked to be valid header values when the configuration was parsed.
            AllowOrigin::list(origins.iter().filter_map(|origin| origin.parse().ok()))
        };
        let cors = CorsLayer::new()
            .allow_origin(allow_origin)
            .allow_methods([Method::GET, Method::POST])
            .allow_headers([header::CONTENT_TYPE, REQUEST_ID])
            .expose_headers([REQUEST_ID, header::RETRY_AFTER])
            .max_age(Duration::from_secs(3600));
        PreflightsLayer { cors, served }
    }
}

impl<S: Clone> Layer<S> for PreflightsLayer {
    type Service = Preflights<S>;

    fn layer(&self, inner: S) -> Preflights<S> {
        Preflights { cors: self.cors.layer(inner.clone()), plain: inner, served: self.served }
    }
}

/// The service with CORS ([`Cors`]) and without, for `OPTIONS` requests that are not preflights.
#[derive(Clone)]
pub(super) struct Preflights<S> {
    cors: Cors<S>,
    plain: S,
    served: Served,
}

impl<S, B> Service<Request> for Preflights<S>
where
    S: Service<Request, Response = axum::http::Response<B>> + Clone,
    B: Default,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Either<<Cors<S> as Service<Request>>::Future, S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), S::Error>> {
        // Both are clones of one router, which is always ready.
        self.cors.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if request.method() == Method::OPTIONS && !is_preflight(&request, self.served) {
            Either::Right(self.plain.call(request))
        } else {
            Either::Left(self.cors.call(request))
        }
    }
}

/// An `OPTIONS` request that asks, from a page of some origin, whether a route may be called.
fn is_preflight(request: &Request, served: Served) -> bool {
    let headers = request.headers();
    headers.contains_key(header::ORIGIN)
        && headers.contains_key(header::ACCESS_CONTROL_REQUEST_METHOD)
        && served.route_of(request.uri().path()).is_some()
}

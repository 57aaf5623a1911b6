//! Compression (gzip, Brotli) for the requests that ask for it, and no cost for those that do
//! not.
//!
//! tower-http's `Compression` answers with its own body type, which holds every encoder's state
//! inline (about 5.8 KB): every layer above moved that value, a few memory copies per request
//! even when the client sent no `Accept-Encoding` and nothing was compressed (6 % of a
//! `GET /healthz` under load, by `perf`). [`WhenAsked`] sends only requests that accept an
//! encoding through the compressor and boxes its body at once, so every layer above moves a
//! 16-byte [`Body`].

use std::convert::Infallible;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Response, header};
use axum::response::Response as AxumResponse;
use futures_util::FutureExt;
use futures_util::future::{Either, Map};
use tower::{Layer, Service};
use tower_http::compression::predicate::{And, NotForContentType, Predicate};
use tower_http::compression::{Compression, CompressionBody, CompressionLayer, DefaultPredicate};

use super::batch::NDJSON;

/// What is compressed: tower-http's default (bodies over 32 bytes, not images, gRPC or event
/// streams) and never NDJSON, since a compressor holds output back until it has enough to pack,
/// which would stall a client reading batch results as they come.
type Policy = And<DefaultPredicate, NotForContentType>;

fn policy() -> Policy {
    DefaultPredicate::new().and(NotForContentType::const_new(NDJSON))
}

/// An answer that would have been compressed for a client that asked says so to caches
/// (`Vary: Accept-Encoding`), as the compressor itself does.
fn vary(response: Result<AxumResponse, Infallible>) -> Result<AxumResponse, Infallible> {
    let Ok(mut response) = response;
    let headers = response.headers();
    if !headers.contains_key(header::CONTENT_ENCODING)
        && !headers.contains_key(header::CONTENT_RANGE)
        && policy().should_compress(&response)
    {
        response.headers_mut().append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    Ok(response)
}

/// Wraps a service in [`WhenAsked`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct WhenAskedLayer;

impl<S: Clone> Layer<S> for WhenAskedLayer {
    type Service = WhenAsked<S>;

    fn layer(&self, inner: S) -> WhenAsked<S> {
        WhenAsked { compressing: CompressionLayer::new().compress_when(policy()).layer(inner.clone()), plain: inner }
    }
}

/// The service with compression, for requests with an `Accept-Encoding`, and without.
#[derive(Clone)]
pub(super) struct WhenAsked<S> {
    compressing: Compression<S, Policy>,
    plain: S,
}

/// Adds `Vary` to an answer that was not compressed (see [`vary`]).
type Vary = fn(Result<AxumResponse, Infallible>) -> Result<AxumResponse, Infallible>;

/// Turns the compressor's answer into one with a boxed body.
type Boxed<B> = fn(Result<Response<CompressionBody<B>>, Infallible>) -> Result<AxumResponse, Infallible>;

impl<S> Service<Request> for WhenAsked<S>
where
    S: Service<Request, Response = AxumResponse, Error = Infallible> + Clone,
{
    type Response = AxumResponse;
    type Error = Infallible;
    type Future = Either<Map<<Compression<S, Policy> as Service<Request>>::Future, Boxed<Body>>, Map<S::Future, Vary>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        // Both are clones of one route of the router, which is always ready.
        self.compressing.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if request.headers().contains_key(header::ACCEPT_ENCODING) {
            let boxed: Boxed<Body> = |response| response.map(|response| response.map(Body::new));
            Either::Left(self.compressing.call(request).map(boxed))
        } else {
            Either::Right(self.plain.call(request).map(vary as Vary))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::Router;
    use axum::routing::get;
    use tower::ServiceExt;

    fn app() -> Router {
        let long = "x".repeat(1000);
        Router::new()
            .route("/long", get(move || async move { long }))
            .route("/short", get(|| async { "ok" }))
            .layer(WhenAskedLayer)
    }

    async fn get_with(path: &str, accept: Option<&str>) -> AxumResponse {
        let mut request = Request::get(path);
        if let Some(accept) = accept {
            request = request.header(header::ACCEPT_ENCODING, accept);
        }
        app().oneshot(request.body(Body::empty()).unwrap()).await.unwrap()
    }

    #[tokio::test]
    async fn an_answer_is_compressed_only_for_a_client_that_asks() {
        let asked = get_with("/long", Some("br")).await;
        assert_eq!(asked.headers()[header::CONTENT_ENCODING], "br");
        let plain = get_with("/long", None).await;
        assert!(!plain.headers().contains_key(header::CONTENT_ENCODING));
        let body = axum::body::to_bytes(plain.into_body(), 2000).await.unwrap();
        assert_eq!(body.len(), 1000);
    }

    #[tokio::test]
    async fn caches_learn_the_answer_varies_by_encoding_whether_or_not_the_client_asked() {
        for accept in [Some("gzip"), None] {
            let response = get_with("/long", accept).await;
            let vary: Vec<_> = response.headers().get_all(header::VARY).iter().collect();
            assert_eq!(vary, ["accept-encoding"], "Accept-Encoding {accept:?}");
        }
        // Too short to be worth compressing, for any client.
        for accept in [Some("gzip"), None] {
            assert!(!get_with("/short", accept).await.headers().contains_key(header::VARY));
        }
    }
}

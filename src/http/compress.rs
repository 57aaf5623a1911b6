//! Compression (gzip, Brotli) for the requests that ask for it, and no cost for those that do
//! not.
//!
//! tower-http's `Compression` answers with its own body type, which holds every encoder's state
//! inline (about 5.8 KB): every layer above moved that value, a few memory copies per request
//! even when the client sent no `Accept-Encoding` and nothing was compressed (6 % of a
//! `GET /healthz` under load, by `perf`). [`WhenAsked`] sends only requests that accept an
//! encoding through the compressor and boxes its body at once, so every layer above moves a
//! 16-byte [`Body`].
//!
//! Most clients ask: browsers, Go's `net/http` and Python's `requests` send
//! `Accept-Encoding: gzip` on every request. Compressing a small answer costs far more than it
//! saves: a solve's answer of 110 bytes became 105, and under `wrk` with `Accept-Encoding: gzip`
//! the LeetCode solve served 13,000-17,000 requests a second against 23,000-28,000 without (a
//! new encoder per answer). So answers under [`MIN_COMPRESSED_BYTES`] go out as they are, as
//! they fit in one packet either way.

use std::convert::Infallible;
use std::sync::LazyLock;
use std::task::{Context, Poll};

use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, Response, header};
use axum::response::Response as AxumResponse;
use futures_util::FutureExt;
use futures_util::future::{Either, Map};
use tower::{Layer, Service};
use tower_http::compression::predicate::{And, NotForContentType, Predicate, SizeAbove};
use tower_http::compression::{Compression, CompressionBody, CompressionLayer};

use super::batch::NDJSON;
use crate::render::ImageFormat;

/// The smallest answer compressed: about one packet's payload. Solve, rating and hint answers
/// of a 9x9 puzzle are a few hundred bytes; batches, explanations, large grids and drawings are
/// larger and are compressed.
pub const MIN_COMPRESSED_BYTES: u64 = 1024;

/// What is compressed: answers of at least [`MIN_COMPRESSED_BYTES`] (or of unknown length), as
/// tower-http's default predicate has it never images (but SVG), gRPC or event streams, and
/// never PDF (its pages are deflated already) or NDJSON, since a compressor holds output back
/// until it has enough to pack, which would stall a client reading batch results as they come.
type Policy = And<
    And<And<And<And<SizeAbove, NotForContentType>, NotForContentType>, NotForContentType>, NotForContentType>,
    NotForContentType,
>;

fn policy() -> Policy {
    SizeAbove::new(MIN_COMPRESSED_BYTES)
        .and(NotForContentType::GRPC)
        .and(NotForContentType::IMAGES)
        .and(NotForContentType::SSE)
        .and(NotForContentType::const_new(ImageFormat::Pdf.media_type()))
        .and(NotForContentType::const_new(NDJSON))
}

/// An answer that would have been compressed for a client that asked says so to caches
/// (`Vary: Accept-Encoding`), as the compressor itself does.
fn vary(response: Result<AxumResponse, Infallible>) -> Result<AxumResponse, Infallible> {
    // Built once: the policy's parts are cloned and dropped with it.
    static POLICY: LazyLock<Policy> = LazyLock::new(policy);
    let Ok(mut response) = response;
    // The size first: most answers are small, and it needs no header lookup.
    if POLICY.should_compress(&response)
        && !response.headers().contains_key(header::CONTENT_ENCODING)
        && !response.headers().contains_key(header::CONTENT_RANGE)
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
        WhenAsked { inner }
    }
}

/// The service, behind a compressor for requests with an `Accept-Encoding`. The compressor is
/// put around a clone of it for each such request, so cloning this (once a request) clones the
/// service alone, not the compressor's policy.
#[derive(Clone)]
pub(super) struct WhenAsked<S> {
    inner: S,
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
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        if request.headers().contains_key(header::ACCEPT_ENCODING) {
            let boxed: Boxed<Body> = |response| response.map(|response| response.map(Body::new));
            static COMPRESSING: LazyLock<CompressionLayer<Policy>> =
                LazyLock::new(|| CompressionLayer::new().compress_when(policy()));
            // The clone is as ready as the service (a router, always ready).
            Either::Left(COMPRESSING.layer(self.inner.clone()).call(request).map(boxed))
        } else {
            Either::Right(self.inner.call(request).map(vary as Vary))
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
        let long = "x".repeat(MIN_COMPRESSED_BYTES as usize);
        let short = "x".repeat(MIN_COMPRESSED_BYTES as usize - 1);
        Router::new()
            .route("/long", get(move || async move { long }))
            .route("/short", get(move || async move { short }))
            .route(
                "/pdf",
                get(|| async { ([(header::CONTENT_TYPE, ImageFormat::Pdf.media_type())], "%".repeat(5000)) }),
            )
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
        assert_eq!(body.len(), MIN_COMPRESSED_BYTES as usize);
    }

    #[tokio::test]
    async fn small_answers_and_pdfs_go_out_as_they_are_even_when_asked() {
        for path in ["/short", "/pdf"] {
            let response = get_with(path, Some("gzip, br")).await;
            assert!(!response.headers().contains_key(header::CONTENT_ENCODING), "{path}");
            // Never compressed for any client, so caches need not tell clients apart.
            assert!(!response.headers().contains_key(header::VARY), "{path}");
        }
    }

    #[tokio::test]
    async fn caches_learn_the_answer_varies_by_encoding_whether_or_not_the_client_asked() {
        for accept in [Some("gzip"), None] {
            let response = get_with("/long", accept).await;
            let vary: Vec<_> = response.headers().get_all(header::VARY).iter().collect();
            assert_eq!(vary, ["accept-encoding"], "Accept-Encoding {accept:?}");
        }
    }
}

//! The innermost layer: the request's timeout, a caught panic, and every error response rendered
//! as a problem document.
//!
//! These were three layers (tower-http's timeout and catch-panic, and a `from_fn` middleware that
//! boxed the inner future). One hand-written layer does the same, and arms the timeout's timer
//! only when the request first has to wait: a `GET /healthz` or a solve tried inline completes on
//! its first poll, and a timer per request (an insertion into and removal from tokio's timer
//! wheel) was work for nothing.

use std::convert::Infallible;
use std::future::Future;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use pin_project_lite::pin_project;
use tokio::time::{Instant, Sleep};
use tower::{Layer, Service};

use super::{ApiError, REQUEST_ID, problem};
use crate::telemetry::RequestContext;

/// Puts [`Guard`] around a service.
#[derive(Clone, Copy, Debug)]
pub(super) struct GuardLayer {
    /// The request's deadline, counted from when the request reaches this layer.
    pub(super) timeout: Duration,
    /// The body limit a 413's detail names.
    pub(super) body_limit: usize,
}

impl<S> Layer<S> for GuardLayer {
    type Service = Guard<S>;

    fn layer(&self, inner: S) -> Guard<S> {
        Guard { inner, layer: *self }
    }
}

/// Answers 408 `request-timeout` when the request takes longer than its timeout, 500 `internal`
/// when the handler panics (the panic message stays in the server's log), and renders every error
/// response as `application/problem+json` with the request's path and id.
#[derive(Clone, Debug)]
pub(super) struct Guard<S> {
    inner: S,
    layer: GuardLayer,
}

impl<S> Service<Request> for Guard<S>
where
    S: Service<Request, Response = Response, Error = Infallible>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = GuardFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let named = Named::of(&request);
        let deadline = Instant::now() + self.layer.timeout;
        let head_too_large = head_len(&request) > MAX_HEAD_BYTES;
        let inner =
            if head_too_large { None } else { catch_unwind(AssertUnwindSafe(|| self.inner.call(request))).ok() };
        GuardFuture { inner, timer: None, deadline, named, body_limit: self.layer.body_limit, head_too_large }
    }
}

/// The path and request id a problem names: the request context's, with the id the front layer
/// chose, or on a listener without one (`--metrics-addr`) the request's own.
enum Named {
    Context(Arc<RequestContext>),
    Request { uri: Uri, request_id: Option<HeaderValue> },
}

impl Named {
    fn of(request: &Request) -> Named {
        match RequestContext::current() {
            Some(context) => Named::Context(context),
            None => {
                Named::Request { uri: request.uri().clone(), request_id: request.headers().get(REQUEST_ID).cloned() }
            }
        }
    }

    /// `response`, rendered as a problem document if it is an error.
    fn render(&self, response: Response, body_limit: usize) -> Response {
        match self {
            Named::Context(context) => problem::render(response, context.path(), Some(&context.request_id), body_limit),
            Named::Request { uri, request_id } => {
                problem::render(response, uri.path(), request_id.as_ref(), body_limit)
            }
        }
    }
}

/// The longest request head served, request line and headers: hyper's own limit (its read
/// buffer's 408 KB) is soft, since a read that overshoots it with the whole head in it parses, so
/// a head of 500 KB was refused or served by how its bytes arrived.
const MAX_HEAD_BYTES: usize = 400 * 1024;

/// The bytes of `request`'s head as HTTP/1.1 writes it: the request line, and each header's name,
/// `: `, value and line end.
fn head_len(request: &Request) -> usize {
    let target = request.uri().path_and_query().map_or(0, |target| target.as_str().len());
    let line = request.method().as_str().len() + 1 + target + " HTTP/1.1\r\n".len();
    let headers = request.headers().iter().map(|(name, value)| name.as_str().len() + value.len() + 4).sum::<usize>();
    line + headers
}

pin_project! {
    /// The future of [`Guard`].
    pub struct GuardFuture<F> {
        // `None` when the call itself panicked.
        #[pin]
        inner: Option<F>,
        // Armed on the first `Pending`.
        #[pin]
        timer: Option<Sleep>,
        deadline: Instant,
        named: Named,
        body_limit: usize,
        // The head was over the limit: refused without calling the handler.
        head_too_large: bool,
    }
}

impl<F: Future<Output = Result<Response, Infallible>>> Future for GuardFuture<F> {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let mut this = self.project();
        if *this.head_too_large {
            let mut response = ApiError::HeadTooLarge.into_response();
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            return Poll::Ready(Ok(this.named.render(response, *this.body_limit)));
        }
        let polled = match this.inner.as_mut().as_pin_mut() {
            Some(inner) => catch_unwind(AssertUnwindSafe(|| inner.poll(cx))),
            None => Err(Box::new("the handler's call panicked") as Box<dyn std::any::Any + Send>),
        };
        let response = match polled {
            Ok(Poll::Ready(Ok(response))) => response,
            Ok(Poll::Pending) => {
                if this.timer.is_none() {
                    this.timer.set(Some(tokio::time::sleep_until(*this.deadline)));
                }
                let timer = this.timer.as_pin_mut().expect("armed above");
                if timer.poll(cx).is_pending() {
                    return Poll::Pending;
                }
                // Dropping the handler's future cancels its work (a pool job keeps its slot until
                // its CPU work ends; see `crate::pool`).
                this.inner.set(None);
                StatusCode::REQUEST_TIMEOUT.into_response()
            }
            Err(_panic) => {
                // The panic hook has printed the message; the client learns only that
                // something failed.
                tracing::error!("a request handler panicked");
                this.inner.set(None);
                ApiError::Internal.into_response()
            }
        };
        Poll::Ready(Ok(this.named.render(response, *this.body_limit)))
    }
}

#[cfg(test)]
mod tests {
    use axum::Router;
    use axum::body::{Body, to_bytes};
    use axum::routing::get;
    use tower::ServiceExt;

    use super::*;

    fn guarded(routes: Router) -> Router {
        routes.layer(GuardLayer { timeout: Duration::from_secs(1), body_limit: 4096 })
    }

    async fn problem_of(router: Router, path: &str) -> (StatusCode, serde_json::Value) {
        let request = Request::get(path).header(REQUEST_ID, "guard-1").body(Body::empty()).unwrap();
        let response = router.oneshot(request).await.unwrap();
        let status = response.status();
        let body = to_bytes(response.into_body(), 4096).await.unwrap();
        (status, serde_json::from_slice(&body).unwrap())
    }

    #[tokio::test(start_paused = true)]
    async fn a_request_that_outlasts_its_timeout_is_a_408_problem_and_a_quick_one_is_untouched() {
        async fn slow() -> &'static str {
            tokio::time::sleep(Duration::from_secs(5)).await;
            "late"
        }
        let router = guarded(Router::new().route("/slow", get(slow)).route("/quick", get(|| async { "ok" })));
        let (status, problem) = problem_of(router.clone(), "/slow").await;
        assert_eq!(status, StatusCode::REQUEST_TIMEOUT);
        assert_eq!((problem["instance"].as_str(), problem["request_id"].as_str()), (Some("/slow"), Some("guard-1")));
        let response = router.oneshot(Request::get("/quick").body(Body::empty()).unwrap()).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(to_bytes(response.into_body(), 16).await.unwrap(), "ok");
    }

    #[tokio::test]
    async fn a_panic_in_the_handler_s_call_or_its_future_is_a_500_problem() {
        #[derive(Clone)]
        struct PanicsOnCall;
        impl Service<Request> for PanicsOnCall {
            type Response = Response;
            type Error = Infallible;
            type Future = std::future::Ready<Result<Response, Infallible>>;
            fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
                Poll::Ready(Ok(()))
            }
            fn call(&mut self, _: Request) -> Self::Future {
                panic!("in call")
            }
        }
        let router = guarded(Router::new().route_service("/call", PanicsOnCall).route(
            "/future",
            get(|| async {
                panic!("in the future");
                #[allow(unreachable_code)]
                ""
            }),
        ));
        for path in ["/call", "/future"] {
            let (status, problem) = problem_of(router.clone(), path).await;
            assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{path}");
            assert_eq!(problem["type"], format!("{}internal", super::super::PROBLEM_BASE));
            let text = problem.to_string();
            assert!(!text.contains("in call") && !text.contains("in the future"), "the panic stays in the log: {text}");
        }
    }

    #[tokio::test]
    async fn a_head_over_the_limit_is_refused_however_its_bytes_arrived() {
        let router = guarded(Router::new().route("/", get(|| async { "ok" })));
        let with_header =
            |bytes: usize| Request::get("/").header("x-big", "a".repeat(bytes)).body(Body::empty()).unwrap();
        let served = router.clone().oneshot(with_header(300 * 1024)).await.unwrap();
        assert_eq!(served.status(), StatusCode::OK);
        let refused = router.oneshot(with_header(500 * 1024)).await.unwrap();
        assert_eq!(refused.status(), StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
        assert_eq!(refused.headers()[header::CONNECTION], "close");
        let body = to_bytes(refused.into_body(), 4096).await.unwrap();
        let problem: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(problem["type"], "https://sudokud.dev/problems/headers-too-large");
    }
}

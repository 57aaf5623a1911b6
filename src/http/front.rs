//! The front of every request: its id, its logging context, its metrics and its access log line,
//! in one layer.
//!
//! These were five layers (tower-http's request-id pair and trace layer, and two `from_fn`
//! middlewares); each moved the inner future into its own, and the request id cost a `getrandom`
//! system call. One hand-written layer does the same work once per request: on a `GET /healthz`
//! that took the server's CPU time per request from about 26 to 20 microseconds.

use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Instant;

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use pin_project_lite::pin_project;
use tower::{Layer, Service};

use super::REQUEST_ID;
use super::routes::Served;
use crate::random::SplitMix64;
use crate::telemetry::RequestContext;

/// The longest client-chosen request id kept: room for a UUID, a W3C trace id or a path of
/// several of them.
const MAX_REQUEST_ID_LEN: usize = 128;

/// Puts [`Front`] around a service: the router of the routes `served`.
#[derive(Clone, Copy, Debug)]
pub(super) struct FrontLayer {
    pub(super) served: Served,
}

impl<S> Layer<S> for FrontLayer {
    type Service = Front<S>;

    fn layer(&self, inner: S) -> Front<S> {
        Front { inner, served: self.served }
    }
}

/// Gives each request an id (the client's `x-request-id` if usable, else a fresh UUID), runs it
/// in a context that carries the id to every log line of the request, echoes the id in the
/// response, counts and times the request by route, and writes the access log line when the
/// response head is ready (for a streamed NDJSON batch, at the start of the stream).
#[derive(Clone, Debug)]
pub(super) struct Front<S> {
    inner: S,
    served: Served,
}

impl<S, B> Service<Request> for Front<S>
where
    S: Service<Request, Response = Response<B>, Error = Infallible>,
{
    type Response = Response<B>;
    type Error = Infallible;
    type Future = FrontFuture<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        let started = Instant::now();
        // The id reaches the rest of the request through its context, not its headers: where the
        // client sent one, the request keeps it as sent.
        let request_id = usable_request_id(request.headers()).unwrap_or_else(fresh_request_id);
        // Every line logged while the request is handled carries its method, path and id,
        // whatever RUST_LOG says (see `telemetry::RequestContext`).
        let context = Arc::new(RequestContext {
            method: request.method().clone(),
            uri: request.uri().clone(),
            request_id,
            received: started,
        });
        let method = crate::metrics::method_label(request.method());
        let route = self.served.route_of(request.uri().path());
        let inner = RequestContext::scope(&context, || self.inner.call(request));
        FrontFuture { inner, context, started, method, route }
    }
}

pin_project! {
    /// The future of [`Front`]: the inner response, finished off.
    pub struct FrontFuture<F> {
        #[pin]
        inner: F,
        context: Arc<RequestContext>,
        started: Instant,
        method: &'static str,
        // The route's index in `ROUTES`.
        route: Option<usize>,
    }
}

impl<F, B> Future for FrontFuture<F>
where
    F: Future<Output = Result<Response<B>, Infallible>>,
{
    type Output = Result<Response<B>, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let (context, inner) = (&*this.context, this.inner);
        RequestContext::scope(context, || {
            let Ok(response) = ready!(inner.poll(cx));
            Poll::Ready(Ok(finish(context, *this.started, this.method, *this.route, response)))
        })
    }
}

/// Echoes the request id, counts and times the request, and writes its access log line.
fn finish<B>(
    context: &RequestContext,
    started: Instant,
    method: &'static str,
    route: Option<usize>,
    mut response: Response<B>,
) -> Response<B> {
    let elapsed = started.elapsed();
    let status = response.status();
    response.headers_mut().entry(REQUEST_ID).or_insert_with(|| context.request_id.clone());
    crate::metrics::record_request(method, route, status.as_u16(), elapsed);
    let latency_us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
    crate::telemetry::access_line(context, status.as_u16(), latency_us);
    // A 503 is not a failure of the server: a full server refusing work, a deadline or a
    // shutdown are the service working as configured; each is in the access log line,
    // counted in the metrics, and overload is logged sampled where it is decided
    // ([`crate::pool`]). One ERROR line per shed request would bury the log under load.
    if status.is_server_error() && status != StatusCode::SERVICE_UNAVAILABLE {
        tracing::error!(status = status.as_u16(), latency_us, "response failed");
    }
    response
}

/// The client's `x-request-id`, unless it is unusable: it is echoed in the response, repeated in
/// problems and logged on every line of the request, so one that is repeated, long or not
/// printable ASCII (header values may carry any byte but control characters) is ignored, and the
/// request gets a fresh id like one that came without.
fn usable_request_id(headers: &HeaderMap) -> Option<HeaderValue> {
    let mut ids = headers.get_all(REQUEST_ID).iter();
    let id = ids.next()?;
    let usable = ids.next().is_none()
        && !id.is_empty()
        && id.len() <= MAX_REQUEST_ID_LEN
        && id.as_bytes().iter().all(u8::is_ascii_graphic);
    usable.then(|| id.clone())
}

const HEX_DIGITS: &[u8; 16] = b"0123456789abcdef";

/// A random (version 4) UUID, from a generator of this thread: no system call and no lock per
/// request. Each thread's generator is seeded from the standard library's per-process random
/// hash keys, so ids differ between threads, processes and machines.
pub(crate) fn fresh_request_id() -> HeaderValue {
    thread_local! {
        static RANDOM: std::cell::RefCell<SplitMix64> = std::cell::RefCell::new(SplitMix64({
            use std::hash::BuildHasher;
            std::hash::RandomState::new().hash_one(std::thread::current().id())
        }));
    }
    let bits = RANDOM.with_borrow_mut(|random| (u128::from(random.next_u64()) << 64) | u128::from(random.next_u64()));
    // RFC 9562: version 4 in bits 48-51, variant 0b10 in bits 64-65.
    let bits = (bits & !(0xf << 76) & !(0b11 << 62)) | (0x4 << 76) | (0b10 << 62);
    // Two hex digits a byte, with the hyphens of the 8-4-4-4-12 groups before bytes 4, 6, 8 and 10.
    let mut text = [b'-'; 36];
    let mut at = 0;
    for (byte_at, byte) in bits.to_be_bytes().into_iter().enumerate() {
        at += usize::from(matches!(byte_at, 4 | 6 | 8 | 10));
        text[at] = HEX_DIGITS[usize::from(byte >> 4)];
        text[at + 1] = HEX_DIGITS[usize::from(byte & 0xf)];
        at += 2;
    }
    HeaderValue::from_bytes(&text).expect("hex digits and hyphens are a valid header value")
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn fresh_ids_are_distinct_version_4_uuids() {
        let ids: Vec<String> = (0..10_000).map(|_| fresh_request_id().to_str().unwrap().to_owned()).collect();
        assert_eq!(ids.iter().collect::<HashSet<_>>().len(), ids.len());
        for id in &ids {
            let groups: Vec<&str> = id.split('-').collect();
            assert_eq!(groups.iter().map(|g| g.len()).collect::<Vec<_>>(), [8, 4, 4, 4, 12], "{id}");
            assert!(id.chars().all(|c| c == '-' || c.is_ascii_hexdigit() && !c.is_ascii_uppercase()), "{id}");
            assert!(groups[2].starts_with('4'), "version 4: {id}");
            assert!("89ab".contains(&groups[3][..1]), "RFC variant: {id}");
        }
        let other_thread = std::thread::spawn(fresh_request_id).join().unwrap();
        assert!(!ids.contains(&other_thread.to_str().unwrap().to_owned()));
    }

    #[test]
    fn a_client_id_is_kept_only_when_usable() {
        let with = |values: &[&[u8]]| {
            let mut headers = HeaderMap::new();
            for value in values {
                headers.append(REQUEST_ID, HeaderValue::from_bytes(value).unwrap());
            }
            usable_request_id(&headers).map(|id| id.as_bytes().to_vec())
        };
        assert_eq!(with(&[b"trace-me-42"]), Some(b"trace-me-42".to_vec()));
        assert_eq!(with(&[]), None);
        assert_eq!(with(&[b"a", b"b"]), None, "two ids: which one would the log carry?");
        assert_eq!(with(&[b"has space"]), None);
        assert_eq!(with(&[&[0xc3, 0xa9]]), None);
        assert_eq!(with(&[&[b'x'; MAX_REQUEST_ID_LEN]]), Some(vec![b'x'; MAX_REQUEST_ID_LEN]));
        assert_eq!(with(&[&[b'x'; MAX_REQUEST_ID_LEN + 1]]), None);
    }

    /// The access log line, and a line logged by the handler, carry the request's method, path
    /// and id, at info as at warn.
    #[test]
    fn every_line_of_a_request_carries_its_context() {
        use axum::Router;
        use axum::body::Body;
        use tower::ServiceExt;

        let captured = crate::telemetry::Captured::default();
        let subscriber = crate::telemetry::subscriber(
            crate::config::LogFormat::Json,
            tracing_subscriber::EnvFilter::new("info"),
            captured.clone(),
        );
        let routes = Router::new().route(
            "/here",
            axum::routing::get(|| async {
                tracing::warn!("inside");
                "ok"
            }),
        );
        let app = FrontLayer { served: Served::by(&crate::config::ServeConfig::default()) }.layer(routes);
        tracing::subscriber::with_default(subscriber, || {
            let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
            let request = Request::get("/here?q=1").header(REQUEST_ID, "trace-7").body(Body::empty()).unwrap();
            let response = runtime.block_on(app.oneshot(request)).unwrap();
            assert_eq!(response.headers()[REQUEST_ID], "trace-7");
        });
        let lines: Vec<serde_json::Value> =
            captured.text().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert_eq!(lines[0]["fields"]["message"], "inside");
        assert_eq!((&lines[1]["target"], &lines[1]["fields"]["status"]), (&"sudokud::access".into(), &200.into()));
        assert!(lines[1]["fields"]["latency_us"].is_u64());
        for line in &lines {
            assert_eq!(
                line["span"],
                serde_json::json!({"method": "GET", "path": "/here", "request_id": "trace-7", "name": "request"})
            );
        }
    }
}

//! One connection's life: its requests are tracked so that a connection with nothing to do is
//! closed, whatever protocol it speaks, and so that an answer sent before its request body was
//! read says `Connection: close`.
//!
//! hyper's own HTTP/1 header timeout starts only once the protocol is known, and the automatic
//! HTTP/1-or-2 detection waits for the client's first bytes without any limit; HTTP/2 has no
//! idle timeout at all. So the timeout lives here, above the protocols: a connection is *idle*
//! while no request is in flight (from the request's head to the last byte of its answer), and
//! one idle for the idle timeout (`--header-read-timeout-ms`) is closed: one that never sends
//! a request, one that sends its head too slowly, an idle keep-alive, an HTTP/2 connection
//! with no open stream. HTTP/2 connections are told with GOAWAY; every close lingers
//! (`io.rs`).

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::body::Body;
use axum::http::{HeaderValue, Request, Response, Version, header};
use axum::response::Response as AxumResponse;
use hyper::body::{Body as HttpBody, Bytes, Frame, Incoming, SizeHint};
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use pin_project_lite::pin_project;
use tokio::net::TcpStream;
use tokio::sync::watch;
use tokio::time::Instant;
use tower::Service;

use super::io::GuardedIo;

/// How long an idle connection may take to close politely before it is dropped: long enough
/// for HTTP/2's GOAWAY to go out, short of the PING round trip hyper then waits for, which a
/// silent client never answers. Nothing is in flight, so nothing is lost either way; an
/// HTTP/1 client still sending its head slowly is not closed politely by hyper at all.
const IDLE_CLOSE_GRACE: Duration = Duration::from_millis(100);

/// What a connection serves: [`crate::http::App`], or the metrics listener's router.
pub(super) trait App:
    Service<Request<Body>, Response = AxumResponse, Error = Infallible, Future: Send> + Clone + Send + Sync + 'static
{
}

impl<S> App for S where
    S: Service<Request<Body>, Response = AxumResponse, Error = Infallible, Future: Send>
        + Clone
        + Send
        + Sync
        + 'static
{
}

/// Serves one accepted connection until it ends, idles out, or `stop` turns true (then it
/// finishes its in-flight requests and closes).
pub(super) async fn serve<S: App>(
    stream: TcpStream,
    app: S,
    builder: Arc<auto::Builder<TokioExecutor>>,
    idle_timeout: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(GuardedIo::new(stream, idle_timeout));
    let connection = builder.serve_connection(io, Tracked { app, activity: Arc::clone(&activity) });
    tokio::pin!(connection);
    let watchdog = tokio::time::sleep(idle_timeout);
    tokio::pin!(watchdog);
    let stopping = loop {
        tokio::select! {
            ended = connection.as_mut() => return log_end(ended),
            () = watchdog.as_mut() => match activity.idle_deadline(idle_timeout) {
                Some(deadline) if deadline <= Instant::now() => break false,
                Some(deadline) => watchdog.as_mut().reset(deadline),
                // Busy: look again one timeout from now.
                None => watchdog.as_mut().reset(Instant::now() + idle_timeout),
            },
            // An error means the server is gone, which also means stop.
            _ = stop.wait_for(|&stop| stop) => break true,
        }
    };
    connection.as_mut().graceful_shutdown();
    if stopping {
        // In-flight requests finish; the server bounds the drain as a whole.
        log_end(connection.await);
    } else if let Ok(ended) = tokio::time::timeout(IDLE_CLOSE_GRACE, connection).await {
        log_end(ended);
    }
}

fn log_end(ended: Result<(), Box<dyn std::error::Error + Send + Sync>>) {
    if let Err(error) = ended {
        tracing::debug!(%error, "connection ended with an error");
    }
}

/// What a connection's requests tell its watchdog.
#[derive(Debug)]
struct Activity {
    opened: Instant,
    /// Requests whose answer has not been sent to its end.
    in_flight: AtomicUsize,
    /// When the connection last fell idle, in milliseconds after `opened`.
    idle_since_ms: AtomicU64,
    /// HTTP/1 (one request at a time): the current request's body has not been read to its end.
    body_unread: AtomicBool,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            opened: Instant::now(),
            in_flight: AtomicUsize::new(0),
            idle_since_ms: AtomicU64::new(0),
            body_unread: AtomicBool::new(false),
        }
    }

    /// When the connection idles out, or `None` while a request is in flight.
    fn idle_deadline(&self, idle_timeout: Duration) -> Option<Instant> {
        (self.in_flight.load(Ordering::Acquire) == 0)
            .then(|| self.opened + Duration::from_millis(self.idle_since_ms.load(Ordering::Acquire)) + idle_timeout)
    }
}

/// One request in flight, from its head to the end of its answer's body.
struct InFlight(Arc<Activity>);

impl InFlight {
    fn enter(activity: &Arc<Activity>) -> InFlight {
        activity.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(Arc::clone(activity))
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        let activity = &self.0;
        if activity.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            let idle_since = u64::try_from(activity.opened.elapsed().as_millis()).unwrap_or(u64::MAX);
            // Concurrent HTTP/2 streams may end in any order; the latest end counts.
            activity.idle_since_ms.fetch_max(idle_since, Ordering::AcqRel);
        }
    }
}

/// The app, with each request tracked in its connection's [`Activity`].
#[derive(Clone)]
struct Tracked<S> {
    app: S,
    activity: Arc<Activity>,
}

impl<S: App> hyper::service::Service<Request<Incoming>> for Tracked<S> {
    type Response = Response<TrackedBody>;
    type Error = Infallible;
    type Future = TrackedFuture<S::Future>;

    fn call(&self, request: Request<Incoming>) -> TrackedFuture<S::Future> {
        let in_flight = InFlight::enter(&self.activity);
        let http1 = request.version() <= Version::HTTP_11;
        let watch_body = http1 && !request.body().is_end_stream();
        self.activity.body_unread.store(watch_body, Ordering::Release);
        let activity = Arc::clone(&self.activity);
        let request =
            request.map(|body| if watch_body { Body::new(WatchedBody { body, activity }) } else { Body::new(body) });
        TrackedFuture { inner: self.app.clone().call(request), in_flight: Some(in_flight), http1 }
    }
}

pin_project! {
    /// The app's answer, with `Connection: close` when the request body was left unread and
    /// the request counted in flight until the answer's body ends.
    struct TrackedFuture<F> {
        #[pin]
        inner: F,
        in_flight: Option<InFlight>,
        http1: bool,
    }
}

impl<F: std::future::Future<Output = Result<AxumResponse, Infallible>>> std::future::Future for TrackedFuture<F> {
    type Output = Result<Response<TrackedBody>, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let Ok(mut response): Result<AxumResponse, Infallible> = ready!(this.inner.poll(cx));
        let in_flight = this.in_flight.take().expect("polled after completion");
        // A complete answer (not a stream, which may go on reading the body) to a request whose
        // body is unread: hyper closes the connection after it (it cannot find the next request),
        // so the answer says so; the close lingers so the client can read it.
        let complete = response.body().size_hint().exact().is_some();
        if *this.http1 && complete && in_flight.0.body_unread.load(Ordering::Acquire) {
            response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
        }
        Poll::Ready(Ok(response.map(|body| TrackedBody { body, _in_flight: in_flight })))
    }
}

/// An answer's body, holding its request in flight until hyper drops it at the end.
struct TrackedBody {
    body: Body,
    _in_flight: InFlight,
}

impl HttpBody for TrackedBody {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

/// An HTTP/1 request body that notes in its connection's [`Activity`] when it has been read
/// to its end.
struct WatchedBody {
    body: Incoming,
    activity: Arc<Activity>,
}

impl HttpBody for WatchedBody {
    type Data = Bytes;
    type Error = hyper::Error;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, hyper::Error>>> {
        let frame = Pin::new(&mut self.body).poll_frame(cx);
        if matches!(frame, Poll::Ready(None)) || self.body.is_end_stream() {
            self.activity.body_unread.store(false, Ordering::Release);
        }
        frame
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

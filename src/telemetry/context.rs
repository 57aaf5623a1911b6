//! The request a log line belongs to: its method, path and id, on every line logged while the
//! request is handled, without a tracing span.
//!
//! A span per request (created, its fields formatted and stored, entered and left at every poll,
//! closed) cost about 2 of the 13 microseconds of server CPU a `GET /healthz` took, mostly in
//! `tracing-subscriber`'s registry and the level filter's per-span bookkeeping. The context is
//! only read when a line is written, so here it costs one allocation per request and a
//! thread-local swap per poll: [`RequestContext::scope`] makes it current on this thread while
//! the request's future runs (the front layer), and on a blocking pool thread while the
//! request's job runs (the pool), and the line formatters read it ([`RequestContext::current`]).

use std::cell::RefCell;
use std::sync::Arc;
use std::time::Instant;

use axum::http::{HeaderValue, Method, Uri};

/// What every log line of a request says about it, and when it came (the solver pool ends a
/// request's job with the request's own timeout).
#[derive(Debug)]
pub struct RequestContext {
    /// The request's method.
    pub method: Method,
    /// The request's target, of which lines show the path.
    pub uri: Uri,
    /// The client's usable `x-request-id`, else a fresh UUID; the response carries it back.
    pub request_id: HeaderValue,
    /// When the front layer took the request: the start of its request timeout for its pool job.
    pub received: Instant,
}

thread_local! {
    static CURRENT: RefCell<Option<Arc<RequestContext>>> = const { RefCell::new(None) };
}

impl RequestContext {
    /// Runs `work` with `context` current on this thread, then restores what was current before
    /// (also when `work` panics).
    pub fn scope<R>(context: &Arc<RequestContext>, work: impl FnOnce() -> R) -> R {
        /// Puts the previous context back when dropped.
        struct Restore(Option<Arc<RequestContext>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                // `try_with`: a thread being torn down has no context to restore.
                let _ = CURRENT.try_with(|current| *current.borrow_mut() = previous);
            }
        }
        let _restore = Restore(CURRENT.with(|current| current.borrow_mut().replace(Arc::clone(context))));
        work()
    }

    /// The context current on this thread: to carry to another thread, or for a log line.
    pub fn current() -> Option<Arc<RequestContext>> {
        // Lines logged while a thread is torn down have no context.
        CURRENT.try_with(|current| current.try_borrow().ok().and_then(|current| current.clone())).ok().flatten()
    }

    /// The request's path, as logged.
    pub fn path(&self) -> &str {
        self.uri.path()
    }

    /// The request id as text: the front layer keeps only printable ASCII ones.
    pub fn id(&self) -> &str {
        self.request_id.to_str().unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn context(id: &'static str) -> Arc<RequestContext> {
        Arc::new(RequestContext {
            method: Method::GET,
            uri: Uri::from_static("/healthz?x=1"),
            request_id: HeaderValue::from_static(id),
            received: Instant::now(),
        })
    }

    fn current_id() -> Option<String> {
        RequestContext::current().map(|context| context.id().to_owned())
    }

    #[test]
    fn a_scope_nests_and_restores_the_outer_context_even_on_panic() {
        assert_eq!(current_id(), None);
        RequestContext::scope(&context("outer"), || {
            assert_eq!(current_id().as_deref(), Some("outer"));
            RequestContext::scope(&context("inner"), || assert_eq!(current_id().as_deref(), Some("inner")));
            assert_eq!(current_id().as_deref(), Some("outer"));
            let panicked = std::panic::catch_unwind(|| RequestContext::scope(&context("boom"), || panic!("boom")));
            assert!(panicked.is_err());
            assert_eq!(current_id().as_deref(), Some("outer"));
        });
        assert_eq!(current_id(), None);
    }

    #[test]
    fn the_current_context_travels_to_another_thread() {
        let carried = RequestContext::scope(&context("carried"), RequestContext::current).unwrap();
        let seen = std::thread::spawn(move || RequestContext::scope(&carried, current_id)).join().unwrap();
        assert_eq!(seen.as_deref(), Some("carried"));
        assert_eq!(context("x").path(), "/healthz");
    }
}

//! Prometheus metrics: every name the service records, and the process-wide recorder that
//! renders them for `GET /metrics`.
//!
//! | metric | kind | labels |
//! |---|---|---|
//! | `sudokud_http_requests_total` | counter | `method` (the nine standard methods, else `other`), `route` (the matched route, or `unmatched`), `status` |
//! | `sudokud_http_request_duration_seconds` | histogram | `method`, `route`, `status` |
//! | `sudokud_solve_duration_seconds` | histogram | `work` ([`Work`]: `solve`, `count`, `rate`, ...): CPU time of one pool job |
//! | `sudokud_solves_in_flight` | gauge | - (jobs running: on the pool, or in their try on an async worker; not while waiting for a slot) |
//! | `sudokud_solver_slot_wait_seconds` | histogram | `work`: time from admission to a free slot (none for a job its inline try answered, which takes no slot) |
//! | `sudokud_requests_shed_total` | counter | `reason`: `queue_full`, `queue_timeout` or `queue_stayed_full` (a batch chunk that waited in vain; answered 503 `overloaded`) |
//! | `sudokud_deadline_exceeded_total` | counter | `work`: jobs that reached their deadline (a batch chunk counts once, however many of its boards it failed) |
//! | `sudokud_log_lines_dropped_total` | counter | - (log lines dropped because the log writer fell behind) |
//! | `sudokud_build_info` | gauge (1) | `version` |
//!
//! Metrics go through the `metrics` facade to one global recorder, installed on first use: a
//! process has one `/metrics`, however many routers it builds (tests build many).

use std::cell::RefCell;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use ::metrics::SharedString;
use axum::http::Method;

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};

use crate::http::ROUTES;

mod histogram;

use histogram::{Histograms, Recorder};

/// Requests answered, by method, route and status.
pub const HTTP_REQUESTS: &str = "sudokud_http_requests_total";
/// Time from a request's arrival to its response head, by method, route and status.
pub const HTTP_DURATION: &str = "sudokud_http_request_duration_seconds";
/// CPU time of one pool job, by [`Work`].
pub const SOLVE_DURATION: &str = "sudokud_solve_duration_seconds";
/// Jobs running now, on the pool or in their inline try; not those waiting for a slot.
pub const SOLVES_IN_FLIGHT: &str = "sudokud_solves_in_flight";
/// Time from a job's admission to a free slot, by [`Work`].
pub const SLOT_WAIT: &str = "sudokud_solver_slot_wait_seconds";
/// Callers the pool refused, by reason (the `label` of [`crate::pool::Shed`]).
pub const SHED: &str = "sudokud_requests_shed_total";
/// Jobs that reached their deadline, by [`Work`].
pub const DEADLINE_EXCEEDED: &str = "sudokud_deadline_exceeded_total";
/// Log lines dropped because the log writer fell behind.
pub const LOG_LINES_DROPPED: &str = "sudokud_log_lines_dropped_total";
/// Always 1, with the running version as its label.
pub const BUILD_INFO: &str = "sudokud_build_info";
/// Every metric above: the list docs/operations.md's table is checked against.
pub const ALL: [&str; 9] = [
    HTTP_REQUESTS,
    HTTP_DURATION,
    SOLVE_DURATION,
    SOLVES_IN_FLIGHT,
    SLOT_WAIT,
    SHED,
    DEADLINE_EXCEEDED,
    LOG_LINES_DROPPED,
    BUILD_INFO,
];

/// The kind of work a solver pool job does: the `work` label of the pool's metrics, one per
/// route's kind of job. docs/operations.md lists [`Work::ALL`]'s labels (a test holds it to them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// `/v1/solve`.
    Solve,
    /// `/v1/count`.
    Count,
    /// `/v1/rate`.
    Rate,
    /// `/v1/hint`.
    Hint,
    /// `/v1/explain`.
    Explain,
    /// A puzzle of `/v1/generate` (one of `/v1/generate/batch`), or the puzzle of the day or of an id.
    Generate,
    /// A chunk of `/v1/solve/batch`, or the reading of a JSON batch's boards.
    Batch,
    /// A drawing of `/v1/render`, its solve included.
    Render,
    /// `/v1/booklet`: a puzzle made or the given ones solved, and the drawing.
    Booklet,
}

impl Work {
    /// Every kind of work, in the order docs/operations.md lists them.
    pub const ALL: [Work; 9] = [
        Work::Solve,
        Work::Count,
        Work::Rate,
        Work::Hint,
        Work::Explain,
        Work::Generate,
        Work::Batch,
        Work::Render,
        Work::Booklet,
    ];

    /// The `work` label.
    pub fn label(self) -> &'static str {
        match self {
            Work::Solve => "solve",
            Work::Count => "count",
            Work::Rate => "rate",
            Work::Hint => "hint",
            Work::Explain => "explain",
            Work::Generate => "generate",
            Work::Batch => "batch",
            Work::Render => "render",
            Work::Booklet => "booklet",
        }
    }
}

/// Installs the process-wide recorder, once; later calls do nothing. The server calls it before
/// it serves; a program that builds the router itself calls it when it wants sudokud's metrics
/// (metrics recorded before there is a recorder are lost).
pub fn install() {
    rendered();
}

/// What `/metrics` renders: the exporter's counters and gauges, and the histograms.
struct Rendered {
    exporter: PrometheusHandle,
    histograms: Arc<Histograms>,
}

/// What `/metrics` renders, installing the recorder on the first call.
///
/// If the embedding program installed another global recorder first, ours stays local: its
/// `/metrics` is then empty of sudokud's figures, which go to the program's recorder instead.
fn rendered() -> &'static Rendered {
    static RENDERED: OnceLock<Rendered> = OnceLock::new();
    RENDERED.get_or_init(|| {
        let exporter = PrometheusBuilder::new().build_recorder();
        let rendered = Rendered { exporter: exporter.handle(), histograms: Arc::default() };
        let recorder = Recorder { exporter, histograms: Arc::clone(&rendered.histograms) };
        if ::metrics::set_global_recorder(recorder).is_ok() {
            ::metrics::gauge!(BUILD_INFO, "version" => env!("CARGO_PKG_VERSION")).set(1.0);
        }
        rendered
    })
}

/// The metrics in the Prometheus text format.
pub fn render() -> String {
    let rendered = rendered();
    let mut text = rendered.exporter.render();
    rendered.histograms.render(&mut text);
    text
}

/// One HTTP request, answered, with its `method` label ([`method_label`]) and the index in
/// [`ROUTES`] of its route (none for a 404, labelled `unmatched`).
///
/// The handles of each label set are kept by this thread, by route index, and registered once:
/// a lookup through the facade hashes and allocates the labels on every call. The label sets
/// are few (routes x methods x statuses), so the cache stays small.
pub fn record_request(method: &'static str, route: Option<usize>, status: u16, elapsed: Duration) {
    thread_local! {
        static HANDLES: RefCell<Vec<Vec<RequestHandles>>> = const { RefCell::new(Vec::new()) };
    }
    HANDLES.with_borrow_mut(|routes| {
        if routes.is_empty() {
            routes.resize_with(ROUTES.len() + 1, Vec::new);
        }
        let of_route = &mut routes[route.unwrap_or(ROUTES.len())];
        let at = match of_route.iter().position(|handles| handles.method == method && handles.status == status) {
            Some(at) => at,
            None => {
                let label = route.map_or("unmatched", |at| ROUTES[at].path);
                of_route.push(RequestHandles::register(method, label, status));
                of_route.len() - 1
            }
        };
        of_route[at].count.increment(1);
        of_route[at].duration.record(elapsed.as_secs_f64());
    });
}

/// The registered series of one label set of the request metrics.
struct RequestHandles {
    method: &'static str,
    status: u16,
    count: ::metrics::Counter,
    duration: ::metrics::Histogram,
}

impl RequestHandles {
    fn register(method: &'static str, route: &str, status: u16) -> RequestHandles {
        let labels: [(&str, SharedString); 3] =
            [("method", method.into()), ("route", route.to_owned().into()), ("status", status.to_string().into())];
        RequestHandles {
            method,
            status,
            count: ::metrics::counter!(HTTP_REQUESTS, &labels),
            duration: ::metrics::histogram!(HTTP_DURATION, &labels),
        }
    }
}

/// The `method` label: a client may send any token as a method, and every label value is a
/// series kept for the life of the process, so methods outside the standard nine share one.
pub fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::CONNECT => "CONNECT",
        Method::OPTIONS => "OPTIONS",
        Method::TRACE => "TRACE",
        Method::PATCH => "PATCH",
        _ => "other",
    }
}

/// A job's try on an async worker started, which takes no slot: one more in flight.
pub fn job_started(work: Work) {
    with_work_handles(work, |handles| handles.in_flight.increment(1.0));
}

/// A job's try on an async worker ended without its answer: it waits for a slot, no longer in
/// flight until it has one.
pub fn job_handed_over(work: Work) {
    with_work_handles(work, |handles| handles.in_flight.decrement(1.0));
}

/// A pool job got its slot after `waited` since its admission, and starts: one more in flight.
pub fn job_took_slot(work: Work, waited: Duration) {
    with_work_handles(work, |handles| {
        handles.slot_wait.record(waited.as_secs_f64());
        handles.in_flight.increment(1.0);
    });
}

/// A pool job ended after `ran`; `timed_out` when its deadline stopped it.
pub fn job_finished(work: Work, ran: Duration, timed_out: bool) {
    with_work_handles(work, |handles| {
        handles.in_flight.decrement(1.0);
        handles.duration.record(ran.as_secs_f64());
        if timed_out {
            handles.deadline_exceeded.increment(1);
        }
    });
}

/// The registered series of one `work` label, as [`record_request`] keeps its own: a solve
/// records four series, and each lookup through the facade would hash the name and labels.
struct WorkHandles {
    work: Work,
    slot_wait: ::metrics::Histogram,
    in_flight: ::metrics::Gauge,
    duration: ::metrics::Histogram,
    deadline_exceeded: ::metrics::Counter,
}

fn with_work_handles(work: Work, record: impl FnOnce(&WorkHandles)) {
    thread_local! {
        static HANDLES: RefCell<Vec<WorkHandles>> = const { RefCell::new(Vec::new()) };
    }
    HANDLES.with_borrow_mut(|known| {
        let at = match known.iter().position(|handles| handles.work == work) {
            Some(at) => at,
            None => {
                let label = work.label();
                known.push(WorkHandles {
                    work,
                    slot_wait: ::metrics::histogram!(SLOT_WAIT, "work" => label),
                    in_flight: ::metrics::gauge!(SOLVES_IN_FLIGHT),
                    duration: ::metrics::histogram!(SOLVE_DURATION, "work" => label),
                    deadline_exceeded: ::metrics::counter!(DEADLINE_EXCEEDED, "work" => label),
                });
                known.len() - 1
            }
        };
        record(&known[at]);
    });
}

/// A request refused with 503 `overloaded`.
pub fn shed(reason: &'static str) {
    ::metrics::counter!(SHED, "reason" => reason).increment(1);
}

/// Counts log lines the log writer dropped because it fell behind ([`crate::telemetry`]).
pub fn log_lines_dropped(lines: u64) {
    ::metrics::counter!(LOG_LINES_DROPPED).increment(lines);
}

//! Logging set-up for the server: JSON lines for collectors, pretty lines for people, written
//! off the request path by a thread of their own.

mod context;
mod json;
mod pretty;
mod writer;

use std::io::IsTerminal;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant, SystemTime};

use tracing::Subscriber;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::util::SubscriberInitExt;

use crate::config::LogFormat;
pub use context::RequestContext;
use json::{JsonFields, JsonLines};
use pretty::PrettyLines;
pub use writer::{BatchWriter, LogGuard};

/// Installs the global subscriber, writing to stdout through a [`BatchWriter`]; keep the guard
/// until the process ends, so the last lines are written. The level filter comes from `RUST_LOG`
/// (default `info`). Without an explicit format, JSON is used unless stdout is a terminal.
pub fn init(format: Option<LogFormat>) -> std::io::Result<LogGuard> {
    let format = format.unwrap_or(if std::io::stdout().is_terminal() { LogFormat::Pretty } else { LogFormat::Json });
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let (writer, guard) = BatchWriter::spawn(std::io::stdout())?;
    if format == LogFormat::Json {
        // `init` runs once; a second call would fail at `.init()` below anyway.
        let _ = STRAIGHT_ACCESS_LINES.set(writer.clone());
    }
    subscriber(format, filter, writer).init();
    Ok(guard)
}

/// The target of the access log's lines: `RUST_LOG=info,sudokud::access=off` drops them alone.
pub const ACCESS_TARGET: &str = "sudokud::access";
/// The message of every access log line.
pub const ACCESS_MESSAGE: &str = "finished processing request";

/// Where [`access_line`] writes JSON lines straight, once [`init`] has set up JSON lines.
static STRAIGHT_ACCESS_LINES: OnceLock<BatchWriter> = OnceLock::new();

/// Logs the access line of `request`, answered with `status` after `latency_us`: one line per
/// request at `info`, under [`ACCESS_TARGET`], filtered by `RUST_LOG` as any other.
///
/// It is the one line of every request, so with the JSON lines of [`init`] it is written
/// straight to the log's writer (see `json::with_access_line`); otherwise (pretty lines, or a
/// subscriber of a test or an embedding program) it is an event like any other.
pub fn access_line(request: &RequestContext, status: u16, latency_us: u64) {
    if !tracing::enabled!(target: ACCESS_TARGET, tracing::Level::INFO) {
        return;
    }
    match STRAIGHT_ACCESS_LINES.get() {
        Some(writer) => {
            json::with_access_line(request, status, latency_us, SystemTime::now(), |line| writer.push(line))
        }
        None => tracing::info!(target: ACCESS_TARGET, message = ACCESS_MESSAGE, status, latency_us),
    }
}

/// The subscriber [`init`] installs, writing to `writer` (tests read the lines back).
pub fn subscriber<W>(format: LogFormat, filter: EnvFilter, writer: W) -> Box<dyn Subscriber + Send + Sync>
where
    W: for<'writer> MakeWriter<'writer> + Send + Sync + 'static,
{
    let builder = tracing_subscriber::fmt().with_env_filter(filter).with_writer(writer);
    match format {
        // The request's method, path and id go on every line of the request (see `context`), so a
        // log query by request id finds all of them.
        LogFormat::Json => Box::new(builder.fmt_fields(JsonFields).event_format(JsonLines).finish()),
        LogFormat::Pretty => Box::new(builder.event_format(PrettyLines).finish()),
    }
}

/// Lets an event that may repeat thousands of times a second (a shed request, say) be logged
/// at most once per period, with the number of times it happened since the last line.
#[derive(Debug)]
pub struct Sampled {
    period: Duration,
    /// Milliseconds after `ORIGIN` of the last logged line, plus one (0: never logged).
    last_logged_ms: AtomicU64,
    /// Occurrences since the last logged line.
    unlogged: AtomicU64,
}

impl Sampled {
    /// Logs at most one line per `period`.
    pub const fn new(period: Duration) -> Sampled {
        Sampled { period, last_logged_ms: AtomicU64::new(0), unlogged: AtomicU64::new(0) }
    }

    /// Counts one occurrence; `Some(n)` when a line should be logged now, for the `n`
    /// occurrences since the last one (this one included).
    pub fn hit(&self) -> Option<u64> {
        self.unlogged.fetch_add(1, Ordering::Relaxed);
        let now = u64::try_from(origin().elapsed().as_millis()).unwrap_or(u64::MAX).saturating_add(1);
        let last = self.last_logged_ms.load(Ordering::Relaxed);
        let due = last == 0 || now.saturating_sub(last) >= u64::try_from(self.period.as_millis()).unwrap_or(u64::MAX);
        // One caller wins the line for this period.
        if due && self.last_logged_ms.compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
            Some(self.unlogged.swap(0, Ordering::Relaxed))
        } else {
            None
        }
    }
}

/// A fixed instant for [`Sampled`]'s clock, which must fit an atomic.
fn origin() -> Instant {
    static ORIGIN: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

/// What a test's subscriber writes, kept to be read back.
#[cfg(test)]
pub(crate) use captured::Captured;

#[cfg(test)]
mod captured {
    use std::sync::{Arc, Mutex};

    use tracing_subscriber::fmt::MakeWriter;

    #[derive(Clone, Default)]
    pub(crate) struct Captured(Arc<Mutex<Vec<u8>>>);

    impl Captured {
        pub(crate) fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Captured {
        type Writer = Captured;
        fn make_writer(&'a self) -> Captured {
            self.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sampled_event_is_logged_once_per_period_with_its_count() {
        let sampled = Sampled::new(Duration::from_millis(50));
        assert_eq!(sampled.hit(), Some(1));
        assert_eq!((0..9).filter_map(|_| sampled.hit()).count(), 0);
        std::thread::sleep(Duration::from_millis(60));
        assert_eq!(sampled.hit(), Some(10));
    }
}

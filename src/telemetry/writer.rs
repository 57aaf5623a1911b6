//! The log's writer: lines are appended to a buffer in memory and a thread of their own writes
//! them out in batches.
//!
//! Writing each line to stdout was a system call per request on the request path (and a request
//! waited whenever the pipe to the log collector was full). Here a line costs a short lock and a
//! copy; the writer thread wakes when the first line of a batch arrives, lets the batch gather for
//! [`GATHER`] (or until [`BATCH`] bytes wait) and writes it in one call. When the writer falls
//! behind and [`BACKLOG`] bytes are waiting, further lines are dropped, never waited for: they
//! are counted in `sudokud_log_lines_dropped_total` and reported by a warning line once the
//! writer catches up. [`LogGuard`] writes what is left when the process ends.

use std::io::{self, Write};
use std::mem;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{self, JoinHandle};
use std::time::{Duration, SystemTime};

use tracing_subscriber::fmt::MakeWriter;

/// How long the first line of a batch waits for others: a line reaches the log this late at most.
const GATHER: Duration = Duration::from_millis(10);
/// A batch this large is written without waiting for the rest of [`GATHER`].
const BATCH: usize = 256 * 1024;
/// The most bytes that wait to be written; a line that does not fit is dropped (about 30,000
/// access log lines).
const BACKLOG: usize = 8 * 1024 * 1024;

/// A `MakeWriter` for the subscriber: every line it is given goes to the writer thread.
#[derive(Clone, Debug)]
pub struct BatchWriter {
    shared: Arc<Shared>,
}

/// Stops the writer thread when dropped, after it has written every line it was given.
#[must_use = "dropping the guard stops the log writer"]
#[derive(Debug)]
pub struct LogGuard {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Debug, Default)]
struct Shared {
    state: Mutex<State>,
    /// Signalled when a batch starts, when it is full, and at the end.
    ready: Condvar,
}

#[derive(Debug, Default)]
struct State {
    waiting: Vec<u8>,
    /// Lines dropped since the last report.
    dropped: u64,
    /// A full batch was signalled and not yet taken.
    full_signalled: bool,
    closed: bool,
}

impl BatchWriter {
    /// Starts the writer thread, writing to `out`.
    pub fn spawn(out: impl Write + Send + 'static) -> io::Result<(BatchWriter, LogGuard)> {
        let shared = Arc::new(Shared::default());
        let thread = {
            let shared = Arc::clone(&shared);
            thread::Builder::new().name("sudokud-log".to_owned()).spawn(move || write_batches(&shared, out))?
        };
        Ok((BatchWriter { shared: Arc::clone(&shared) }, LogGuard { shared, thread: Some(thread) }))
    }

    /// Queues one line (the subscriber writes a whole line at a time), or drops it if the
    /// backlog is full.
    pub(super) fn push(&self, line: &[u8]) {
        let mut state = self.shared.lock();
        if state.closed || state.waiting.len() + line.len() > BACKLOG {
            state.dropped += 1;
            return;
        }
        let starts_batch = state.waiting.is_empty();
        state.waiting.extend_from_slice(line);
        // One wake-up per batch (and one more if it fills early): a notification is a system call.
        let fills_batch = state.waiting.len() >= BATCH && !mem::replace(&mut state.full_signalled, true);
        drop(state);
        if starts_batch || fills_batch {
            self.shared.ready.notify_one();
        }
    }
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while holding the lock leaves at worst a partial line; the log goes on.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// The writer thread: waits for a batch, lets it gather, writes it; until closed and empty.
fn write_batches(shared: &Shared, mut out: impl Write) {
    let mut batch = Vec::new();
    loop {
        let mut state = shared.lock();
        while state.waiting.is_empty() && state.dropped == 0 && !state.closed {
            state = shared.ready.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        if state.waiting.is_empty() && state.dropped == 0 {
            return; // closed, and everything written
        }
        let (gathered, _) = shared
            .ready
            .wait_timeout_while(state, GATHER, |state| state.waiting.len() < BATCH && !state.closed)
            .unwrap_or_else(PoisonError::into_inner);
        state = gathered;
        mem::swap(&mut batch, &mut state.waiting);
        state.full_signalled = false;
        let dropped = mem::take(&mut state.dropped);
        drop(state);
        if dropped > 0 {
            crate::metrics::log_lines_dropped(dropped);
            batch.extend_from_slice(&dropped_line(dropped, SystemTime::now()));
        }
        // A log that cannot be written has nowhere to report that; the lines are lost.
        let _ = out.write_all(&batch).and_then(|()| out.flush());
        batch.clear();
    }
}

/// The warning that stands in for dropped lines, in the JSON lines' shape.
fn dropped_line(dropped: u64, now: SystemTime) -> Vec<u8> {
    let mut line = String::from("{\"timestamp\":\"");
    super::json::write_timestamp(&mut line, now).expect("a String takes any text");
    line.push_str(&format!(
        "\",\"level\":\"WARN\",\"fields\":{{\"message\":\"log lines dropped: the log writer fell behind\",\
         \"dropped\":{dropped}}},\"target\":\"{}\"}}\n",
        module_path!()
    ));
    line.into_bytes()
}

impl Drop for LogGuard {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.ready.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the subscriber writes one line into.
#[derive(Debug)]
pub struct LineSink<'a>(&'a BatchWriter);

impl Write for LineSink<'_> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.push(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for BatchWriter {
    type Writer = LineSink<'a>;

    fn make_writer(&'a self) -> LineSink<'a> {
        LineSink(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output that records each write, and can be held shut to make the writer fall behind.
    #[derive(Clone, Default)]
    struct Output {
        writes: Arc<Mutex<Vec<Vec<u8>>>>,
        shut: Arc<Mutex<()>>,
    }

    impl Write for Output {
        fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
            let _open = self.shut.lock().unwrap();
            self.writes.lock().unwrap().push(bytes.to_vec());
            Ok(bytes.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_are_written_in_batches_and_all_of_them_by_the_end() {
        let output = Output::default();
        let (writer, guard) = BatchWriter::spawn(output.clone()).unwrap();
        for i in 0..1000 {
            writer.make_writer().write_all(format!("line {i}\n").as_bytes()).unwrap();
        }
        drop(guard);
        let writes = output.writes.lock().unwrap();
        let text = String::from_utf8(writes.concat()).unwrap();
        assert_eq!(text.lines().collect::<Vec<_>>(), (0..1000).map(|i| format!("line {i}")).collect::<Vec<_>>());
        assert!(writes.len() < 100, "{} writes for 1000 lines", writes.len());
    }

    #[test]
    fn a_writer_that_falls_behind_costs_lines_not_waiting_and_says_how_many() {
        let output = Output::default();
        let (writer, guard) = BatchWriter::spawn(output.clone()).unwrap();
        let line = [b'x'; 1023].iter().chain(b"\n").copied().collect::<Vec<u8>>();
        {
            let _shut = output.shut.lock().unwrap();
            // The first batch is taken and then stuck in `write`; the backlog fills and overflows.
            writer.make_writer().write_all(&line).unwrap();
            thread::sleep(GATHER * 5);
            for _ in 0..(BACKLOG / line.len() + 100) {
                writer.make_writer().write_all(&line).unwrap();
            }
        }
        drop(guard);
        let text = String::from_utf8(output.writes.lock().unwrap().concat()).unwrap();
        let written = text.lines().filter(|l| l.starts_with('x')).count();
        let report: serde_json::Value =
            serde_json::from_str(text.lines().find(|l| l.contains("dropped")).expect("a report")).unwrap();
        assert_eq!(report["level"], "WARN");
        let dropped = report["fields"]["dropped"].as_u64().unwrap();
        assert_eq!(written as u64 + dropped, (BACKLOG / line.len() + 101) as u64);
        assert!(dropped >= 100, "{dropped}");
    }
}

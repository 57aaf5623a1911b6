//! Runs CPU-bound solver work for async callers without starving the async workers.
//!
//! Work goes to tokio's blocking pool (`spawn_blocking`), never onto an async worker thread
//! for more than a few microseconds, so a hard puzzle cannot stall unrelated requests. A
//! semaphore bounds how many solves run at once (one per CPU by default: more only adds context
//! switches), and admission is bounded too: at most `max_queued` callers wait for a slot, each
//! for at most `queue_timeout`. Past either bound the caller is refused at once with
//! [`PoolError::Overloaded`], which the HTTP layer answers with 503 and `Retry-After`: a fast
//! "no" is better than an unbounded queue whose tail has long since timed out at the client.
//! The pieces of a batch wait in line instead, for a bounded time ([`SolverPool::run_patiently`]),
//! behind every single request's job and behind the pieces of batches that came before theirs,
//! and never in the last free slot (`pool/gate.rs`): a heavy request cannot shut cheap ones out, and
//! heavy requests finish one after another rather than all running out of time together.
//!
//! Jobs that can pause and go on (a 9x9 search keeps its progress) are first tried on the
//! caller's async worker for a few microseconds ([`SolverPool::run_inline_first`]): most are
//! answered there, without the hand-off's two thread wake-ups, and the rest take a slot then.
//!
//! Every job gets a [`Deadline`] that starts when the caller is admitted, so time spent waiting
//! for a slot counts against the solve timeout, and the solver polls it, so a job that overruns
//! frees its thread instead of pinning a CPU. A single request's job also ends with its request's
//! own timeout, when that comes first: no work goes on for an answer already given up (408).

mod gate;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use gate::{Gate, Priority, Slot};

use crate::metrics::{self, Work};
use crate::solver::{Deadline, Interrupt, Interrupted};
use crate::telemetry::{RequestContext, Sampled};

/// Sizes and limits of a [`SolverPool`].
#[derive(Clone, Copy, Debug)]
pub struct PoolLimits {
    /// Jobs that may run at once.
    pub slots: usize,
    /// Jobs that may wait for a slot.
    pub max_queued: usize,
    /// Longest wait for a slot.
    pub queue_timeout: Duration,
    /// Longest a job may take, waiting included.
    pub solve_timeout: Duration,
    /// The same for making a puzzle (a job of [`Work::Generate`] or [`Work::Booklet`]).
    pub generate_timeout: Duration,
    /// Longest a whole request may take (its answer is a 408 past it): a single request's job
    /// ends then too, if its solve timeout is later.
    pub request_timeout: Duration,
    /// Longest a batch goes on starting pieces, from when it took its place in line: the bound
    /// on a whole batch's work, which streams past its request timeout.
    pub batch_timeout: Duration,
}

/// Why a job did not produce its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// The caller was refused, for the reason given: a 503 `overloaded`.
    #[error("all solver slots are busy and {0}")]
    Overloaded(Shed),
    /// The job reached its deadline and stopped; the solve timeout, for the answer's detail.
    #[error("the job did not finish within {0:?}")]
    TimedOut(Duration),
    /// The job panicked; the panic hook has logged its message.
    #[error("the job panicked")]
    Panicked,
    /// The batch's time ran out before the piece started ([`PoolLimits::batch_timeout`]).
    #[error("the batch went past its bound of {0:?} before this piece started")]
    BatchSpent(Duration),
}

/// Why a caller was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Shed {
    /// Every place among the admitted callers was taken.
    #[error("the queue of waiting solves is full")]
    QueueFull,
    /// A batch's piece waited its whole patience for a place.
    #[error("the queue of waiting solves stayed full")]
    QueueStayedFull,
    /// Admitted, but no slot freed up in time.
    #[error("the wait for a free slot exceeded the queue timeout")]
    QueueTimeout,
}

impl Shed {
    /// The `reason` label of `sudokud_requests_shed_total`.
    pub fn label(self) -> &'static str {
        match self {
            Shed::QueueFull => "queue_full",
            Shed::QueueStayedFull => "queue_stayed_full",
            Shed::QueueTimeout => "queue_timeout",
        }
    }
}

/// A bounded gate in front of the blocking pool. Cheap to clone; clones share the limits.
#[derive(Clone, Debug)]
pub struct SolverPool {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    limits: PoolLimits,
    /// The slots of running jobs, handed out by priority (`gate.rs`).
    running: Gate,
    /// Permits for running or waiting jobs: refuses callers beyond `slots + max_queued`.
    admitted: Arc<Semaphore>,
    /// Refusals, logged at most once a second.
    shed_log: Sampled,
    /// Batches given a place in line so far ([`SolverPool::line`]).
    batches: AtomicU64,
}

/// A batch's place in line: how long each of its pieces may wait, and the order its request
/// came in, which decides whose pieces go first. Every piece of one request takes the same line.
#[derive(Clone, Copy, Debug)]
pub struct Line {
    patience: Duration,
    order: u64,
    /// When the batch starts no more pieces.
    until: Instant,
}

impl SolverPool {
    /// A pool with these limits; at least one slot, whatever `limits.slots` says.
    pub fn new(limits: PoolLimits) -> SolverPool {
        let slots = limits.slots.max(1);
        let limits = PoolLimits { slots, ..limits };
        SolverPool {
            shared: Arc::new(Shared {
                limits,
                running: Gate::new(slots),
                admitted: Arc::new(Semaphore::new(slots + limits.max_queued)),
                shed_log: Sampled::new(Duration::from_secs(1)),
                batches: AtomicU64::new(0),
            }),
        }
    }

    /// The limits the pool was made with (its slots at least one).
    pub fn limits(&self) -> PoolLimits {
        self.shared.limits
    }

    /// A place in line for a new batch (a solve batch, a generated batch, a booklet), whose
    /// pieces each wait at most `patience` and start only within the batch timeout from now;
    /// batches are served in the order they took theirs.
    pub fn line(&self, patience: Duration) -> Line {
        let order = self.shared.batches.fetch_add(1, Ordering::Relaxed);
        Line { patience, order, until: Instant::now() + self.shared.limits.batch_timeout }
    }

    /// Refuses a piece of a batch whose time has run out.
    fn within_bound(&self, line: Line) -> Result<(), PoolError> {
        if Instant::now() < line.until {
            return Ok(());
        }
        Err(PoolError::BatchSpent(self.shared.limits.batch_timeout))
    }

    /// Whether a caller would be admitted now; refuses as [`SolverPool::run`] would. A streamed
    /// batch asks first, so a full server answers 503 before the stream begins.
    pub fn check_room(&self) -> Result<(), PoolError> {
        self.admit().map(drop)
    }

    /// Takes a place among the admitted callers, or refuses at once when they are all taken.
    fn admit(&self) -> Result<OwnedSemaphorePermit, PoolError> {
        self.admit_now().ok_or_else(|| shed(&self.shared, Shed::QueueFull))
    }

    /// A place among the admitted callers, if one is free now.
    fn admit_now(&self) -> Option<OwnedSemaphorePermit> {
        Arc::clone(&self.shared.admitted).try_acquire_owned().ok()
    }

    /// Waits for a free slot while holding `admission`, at most `patience`.
    async fn slot(&self, priority: Priority, patience: Duration) -> Result<Slot, PoolError> {
        // A free slot is taken at once, without setting up the timeout. It takes no one's turn:
        // the gate hands a released slot to the best waiter, so none is free while one waits.
        if let Some(slot) = self.shared.running.try_acquire(priority) {
            return Ok(slot);
        }
        match tokio::time::timeout(patience, self.shared.running.acquire(priority)).await {
            Ok(slot) => Ok(slot),
            Err(_) => Err(shed(&self.shared, Shed::QueueTimeout)),
        }
    }

    /// How long a job of `work` may take: the generation timeout to make puzzles, else the
    /// solve timeout.
    pub fn timeout(&self, work: Work) -> Duration {
        let limits = self.shared.limits;
        match work {
            Work::Generate | Work::Booklet => limits.generate_timeout,
            _ => limits.solve_timeout,
        }
    }

    /// The deadline of a single request's job of `work` admitted at `admitted`: its timeout from
    /// then, or the request's own timeout from when it came, whichever is sooner.
    fn single_deadline(&self, work: Work, admitted: Instant) -> Deadline {
        let limits = self.shared.limits;
        let solve_by = admitted + self.timeout(work);
        let request_by = RequestContext::current().map(|context| context.received + limits.request_timeout);
        Deadline(request_by.map_or(solve_by, |request_by| request_by.min(solve_by)))
    }

    /// Runs `job` on the blocking pool with a deadline, once a slot is free. `work` names the
    /// kind of job in the metrics.
    ///
    /// For one request's work: refused at once when the queue is full, or after the queue
    /// timeout without a slot. The deadline starts at admission, so waiting counts. The job runs
    /// with the caller's request context, so its logs carry the request id.
    pub async fn run<T, F>(&self, work: Work, job: F) -> Result<T, PoolError>
    where
        F: FnOnce(&mut Deadline) -> Result<T, Interrupted> + Send + 'static,
        T: Send + 'static,
    {
        self.run_waiting(work, self.shared.limits.queue_timeout, job).await
    }

    /// [`SolverPool::run`] for a job whose cost is small and known, such as a drawing: it waits
    /// for a slot up to `patience` rather than the queue timeout, so that jobs of a tenth of a
    /// second each, a few at once, are answered in turn rather than refused.
    pub async fn run_waiting<T, F>(&self, work: Work, patience: Duration, job: F) -> Result<T, PoolError>
    where
        F: FnOnce(&mut Deadline) -> Result<T, Interrupted> + Send + 'static,
        T: Send + 'static,
    {
        let (permits, deadline, limit) = self.admit_and_wait(work, patience).await?;
        execute(work, permits, deadline, limit, job).await
    }

    /// What a request's job goes through before it runs: a place among the admitted callers
    /// (refused at once when there is none), then a slot within `patience`; its deadline counts
    /// from admission, cut short by the request's own timeout (the time it allows comes with
    /// it). The admission moves into the job too: a caller counts as admitted until its work
    /// ends.
    async fn admit_and_wait(&self, work: Work, patience: Duration) -> Result<(Permits, Deadline, Duration), PoolError> {
        let admitted = Instant::now();
        let admission = self.admit()?;
        let deadline = self.single_deadline(work, admitted);
        let running = self.slot(Priority::Single, patience).await?;
        metrics::job_took_slot(work, admitted.elapsed());
        let limit = deadline.0.saturating_duration_since(admitted);
        Ok(((admission, running), deadline, limit))
    }

    /// Like [`SolverPool::run`], for a job that can be called twice: it is tried first on the
    /// caller's async worker with a deadline [`INLINE_BUDGET`] away ([`Turn::Inline`]), and only
    /// if that stops it, called again on the blocking pool ([`Turn::Last`]), where a job that
    /// keeps its progress (the solver's [`Progress`](crate::solver::Progress)) goes on from where
    /// the try paused.
    ///
    /// Most puzzles people send are solved in a few microseconds, and handing a job to the
    /// blocking pool and its answer back costs two thread wake-ups, several times that (on
    /// `POST /v1/solve` of the LeetCode 37 example, 80 % of the server's CPU time went to the
    /// hand-off and 1 % to the search). Admission and the deadline are those of
    /// [`SolverPool::run`], so a full server still refuses with 503. The inline try takes no
    /// slot: the async workers bound it already (one try each at a time, for at most the budget
    /// plus one poll interval of the search, [`Deadline`]'s 64 guesses), and a slot taken on a
    /// worker that the OS switches out mid-try would hold up the next job for a time slice (on
    /// small batches, half their jobs waited 0.1-1 ms for a slot). The job waits for a slot,
    /// within the queue timeout of its admission, only when it is handed over.
    pub async fn run_inline_first<T, F>(&self, work: Work, job: F) -> Result<T, PoolError>
    where
        F: FnMut(&mut Deadline, Turn) -> Result<T, Interrupted> + Send + 'static,
        T: Send + 'static,
    {
        let admitted = Instant::now();
        let admission = self.admit()?;
        let line = InLine {
            admitted,
            started: admitted,
            slot_by: admitted + self.shared.limits.queue_timeout,
            priority: Priority::Single,
            deadline: self.single_deadline(work, admitted),
        };
        self.inline_first(work, admission, line, job).await
    }

    /// Runs one piece of a batch: waits in line, for a place among the admitted callers and
    /// then for a slot, at most `patience` in all, then runs `job` with a deadline that starts
    /// when it starts.
    ///
    /// A batch holds a place only while a piece of it has work to do, never while its client is
    /// slow to send or to read, so a batch cannot starve single requests by idling. Its pieces
    /// wait rather than fail at once, since a batch is throughput work; single requests still
    /// get places and slots in turn (the semaphores are fair).
    pub async fn run_patiently<T, F>(&self, work: Work, line: Line, job: F) -> Result<T, PoolError>
    where
        F: FnOnce(&mut Deadline) -> Result<T, Interrupted> + Send + 'static,
        T: Send + 'static,
    {
        self.within_bound(line)?;
        let waiting = Instant::now();
        let gave_up = waiting + line.patience;
        let admission = self.place_within(gave_up).await?;
        let running = self.slot(Priority::Batch(line.order), gave_up.saturating_duration_since(Instant::now())).await?;
        metrics::job_took_slot(work, waiting.elapsed());
        let timeout = self.timeout(work);
        execute(work, (admission, running), Deadline(Instant::now() + timeout), timeout, job).await
    }

    /// [`SolverPool::run_patiently`] for a job that can be called twice, tried inline first as
    /// [`SolverPool::run_inline_first`] tries it: for a batch's first piece, which for the small
    /// batches most clients send is the whole batch.
    pub async fn run_patiently_inline_first<T, F>(&self, work: Work, line: Line, job: F) -> Result<T, PoolError>
    where
        F: FnMut(&mut Deadline, Turn) -> Result<T, Interrupted> + Send + 'static,
        T: Send + 'static,
    {
        self.within_bound(line)?;
        let waiting = Instant::now();
        let gave_up = waiting + line.patience;
        let admission = self.place_within(gave_up).await?;
        let started = Instant::now();
        let deadline = Deadline(started + self.timeout(work));
        let priority = Priority::Batch(line.order);
        let line = InLine { admitted: waiting, started, slot_by: gave_up, priority, deadline };
        self.inline_first(work, admission, line, job).await
    }

    /// A place among the admitted callers, waited for until `gave_up`.
    async fn place_within(&self, gave_up: Instant) -> Result<OwnedSemaphorePermit, PoolError> {
        // A free place is taken at once, as a free slot is (see `slot`).
        if let Some(permit) = self.admit_now() {
            return Ok(permit);
        }
        let place = Arc::clone(&self.shared.admitted).acquire_owned();
        match tokio::time::timeout_at(gave_up.into(), place).await {
            Ok(permit) => Ok(permit.expect("the semaphore is never closed")),
            Err(_) => Err(shed(&self.shared, Shed::QueueStayedFull)),
        }
    }

    /// Calls `job` on the caller's worker with a deadline at most [`INLINE_BUDGET`] away, and,
    /// if the budget stopped it, again on the blocking pool once a slot is free. Its own
    /// deadline counts from `line.started`.
    async fn inline_first<T, F>(
        &self,
        work: Work,
        admission: OwnedSemaphorePermit,
        line: InLine,
        mut job: F,
    ) -> Result<T, PoolError>
    where
        F: FnMut(&mut Deadline, Turn) -> Result<T, Interrupted> + Send + 'static,
        T: Send + 'static,
    {
        let started = line.started;
        let mut deadline = line.deadline;
        // What a timed-out job says it had: the solve timeout, or less where the request's own
        // timeout cut it short.
        let solve_timeout = deadline.0.saturating_duration_since(line.admitted).min(self.timeout(work));
        metrics::job_started(work);
        let mut inline = Deadline(deadline.0.min(started + INLINE_BUDGET));
        let mut in_flight = InFlight { work, started, timed_out: false };
        match job(&mut inline, Turn::Inline) {
            Ok(value) => Ok(value),
            Err(Interrupted) if inline.0 < deadline.0 => {
                in_flight.hand_over();
                let running = self.slot(line.priority, line.slot_by.saturating_duration_since(Instant::now())).await?;
                metrics::job_took_slot(work, line.admitted.elapsed());
                let permits = (admission, running);
                execute(work, permits, deadline, solve_timeout, move |deadline| job(deadline, Turn::Last)).await
            }
            // The job's own deadline stopped the try: its last call, here, stops at once.
            Err(Interrupted) => {
                in_flight.timed_out = true;
                job(&mut deadline, Turn::Last).map_err(|Interrupted| PoolError::TimedOut(solve_timeout))
            }
        }
    }
}

/// Where a job tried inline first stands in line: when it was admitted (or began to wait for
/// a place), when it started, by when it must have a slot if it is handed over, its turn in line
/// for one, and its deadline.
struct InLine {
    admitted: Instant,
    started: Instant,
    slot_by: Instant,
    priority: Priority,
    deadline: Deadline,
}

/// Which call of a job tried inline first ([`SolverPool::run_inline_first`]) this is, so that a
/// job that answers for what its deadline stopped (a batch's boards fail with `solve-timeout`)
/// does so only on its last call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// On the caller's async worker, with the inline budget's deadline: an [`Interrupted`]
    /// hands the job over, to be called again where it paused.
    Inline,
    /// With the job's own deadline: an [`Interrupted`] ends the job as timed out.
    Last,
}

/// The place among the admitted callers and the slot a running job holds.
type Permits = (OwnedSemaphorePermit, Slot);

/// How long a job of [`SolverPool::run_inline_first`] may run on the caller's async worker:
/// enough for the search of a typical puzzle (2-5 us), short beside a request's own cost.
pub const INLINE_BUDGET: Duration = Duration::from_micros(20);

/// Refuses a caller for `reason` (a metrics label): counted always, logged as a warning at most
/// once a second with the count, since under overload a line per refusal would bury the log
/// (and a 503 of a full server is not an error of the server).
fn shed(shared: &Shared, reason: Shed) -> PoolError {
    metrics::shed(reason.label());
    if let Some(refused) = shared.shed_log.hit() {
        tracing::warn!(
            refused,
            reason = reason.label(),
            "overloaded: refusing work with 503 (count since the last such line)"
        );
    }
    PoolError::Overloaded(reason)
}

/// Runs `job` on the blocking pool, holding `permits` until it ends.
async fn execute<T, F, P>(
    work: Work,
    permits: P,
    mut deadline: Deadline,
    solve_timeout: Duration,
    job: F,
) -> Result<T, PoolError>
where
    F: FnOnce(&mut Deadline) -> Result<T, Interrupted> + Send + 'static,
    T: Send + 'static,
    P: Send + 'static,
{
    let context = RequestContext::current();
    let handle = tokio::task::spawn_blocking(move || {
        // The permits move into the job: if the caller goes away (client hung up, request
        // timeout), the slot stays taken until the CPU work really ends.
        let _permits = permits;
        let mut in_flight = InFlight { work, started: Instant::now(), timed_out: false };
        let result = match &context {
            Some(context) => RequestContext::scope(context, || job(&mut deadline)),
            None => job(&mut deadline),
        };
        // A job may also end normally after its deadline stopped part of it (a batch piece
        // whose later boards failed with `solve-timeout`): it reached its deadline all the same.
        in_flight.timed_out = result.is_err() || deadline.should_stop();
        result
    });
    match handle.await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(Interrupted)) => Err(PoolError::TimedOut(solve_timeout)),
        // A blocking task is never aborted, so a join error means the job panicked.
        Err(_) => Err(PoolError::Panicked),
    }
}

/// A running job, for the metrics; dropped when the job ends, even by panicking.
struct InFlight {
    work: Work,
    started: Instant,
    timed_out: bool,
}

impl InFlight {
    /// The job leaves its try to wait for a slot, and the pool's run counts it from there: one
    /// fewer in flight meanwhile, without a `job_finished` (whose duration is a pool run's).
    fn hand_over(self) {
        metrics::job_handed_over(self.work);
        std::mem::forget(self);
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        metrics::job_finished(self.work, self.started.elapsed(), self.timed_out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::Interrupt;

    fn pool(slots: usize, max_queued: usize) -> SolverPool {
        SolverPool::new(PoolLimits {
            slots,
            max_queued,
            queue_timeout: Duration::from_millis(50),
            solve_timeout: Duration::from_secs(5),
            generate_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(10),
            batch_timeout: Duration::from_secs(60),
        })
    }

    #[tokio::test]
    async fn runs_a_job_and_returns_its_value() {
        assert_eq!(pool(1, 0).run(Work::Solve, |_| Ok(42)).await, Ok(42));
    }

    /// A line logged by the job, on a thread of the blocking pool, carries the request's id.
    #[tokio::test]
    async fn a_job_runs_in_its_callers_request_context() {
        use axum::http::{HeaderValue, Method, Uri};
        let context = Arc::new(RequestContext {
            method: Method::POST,
            uri: Uri::from_static("/v1/solve"),
            request_id: HeaderValue::from_static("job-1"),
            received: Instant::now(),
        });
        let pool = pool(1, 0);
        let mut job =
            Box::pin(pool.run(Work::Solve, |_| Ok(RequestContext::current().map(|request| request.id().to_owned()))));
        // Polled in the context, as the front layer polls a request.
        let seen = std::future::poll_fn(|cx| RequestContext::scope(&context, || job.as_mut().poll(cx))).await;
        assert_eq!(seen, Ok(Some("job-1".to_owned())));
    }

    /// A quick job ends on the caller's thread on its inline turn; one that outlasts the inline
    /// budget is called again, on its last turn, on a thread of the blocking pool; one whose own
    /// deadline stops the inline try has its last turn at once on the caller's thread, and is a
    /// timeout. The slot is free again after each.
    #[tokio::test]
    async fn a_job_is_tried_inline_first_and_handed_over_when_it_needs_longer() {
        let pool = pool(1, 0);
        let caller = std::thread::current().id();
        let ran_on = |_: &mut Deadline, turn| Ok((turn, std::thread::current().id()));
        assert_eq!(pool.run_inline_first(Work::Solve, ran_on).await, Ok((Turn::Inline, caller)));

        let turns = Arc::new(std::sync::Mutex::new(Vec::new()));
        let slow = {
            let turns = Arc::clone(&turns);
            move |deadline: &mut Deadline, turn| {
                turns.lock().unwrap().push((turn, std::thread::current().id()));
                std::thread::sleep(INLINE_BUDGET * 2);
                if deadline.should_stop() { Err(Interrupted) } else { Ok(()) }
            }
        };
        assert_eq!(pool.run_inline_first(Work::Solve, slow).await, Ok(()));
        let turns = turns.lock().unwrap().clone();
        assert_eq!(turns.len(), 2, "tried inline, then handed over");
        assert_eq!(turns[0], (Turn::Inline, caller));
        assert_eq!(turns[1].0, Turn::Last);
        assert_ne!(turns[1].1, caller);
        assert_eq!(pool.shared.running.free(), 1);

        let pool = SolverPool::new(PoolLimits { solve_timeout: Duration::ZERO, ..pool.limits() });
        let turns = Arc::new(std::sync::Mutex::new(Vec::new()));
        let result = pool.run_inline_first(Work::Solve, {
            let turns = Arc::clone(&turns);
            move |deadline: &mut Deadline, turn| {
                turns.lock().unwrap().push((turn, std::thread::current().id()));
                if deadline.should_stop() { Err(Interrupted) } else { Ok(()) }
            }
        });
        assert_eq!(result.await, Err(PoolError::TimedOut(Duration::ZERO)));
        assert_eq!(*turns.lock().unwrap(), [(Turn::Inline, caller), (Turn::Last, caller)]);
        assert_eq!(pool.shared.running.free(), 1);
    }

    /// An inline try takes no slot: with every slot busy, a quick job is still answered on the
    /// caller's thread, and one that needs the pool waits for a slot within the queue timeout.
    #[tokio::test]
    async fn an_inline_try_needs_no_free_slot_but_its_hand_over_does() {
        let pool = pool(1, 1);
        let (release, busy) = occupy_a_slot(&pool).await;
        assert_eq!(pool.run_inline_first(Work::Solve, |_, turn| Ok(turn)).await, Ok(Turn::Inline));
        let slow = |deadline: &mut Deadline, _| {
            std::thread::sleep(INLINE_BUDGET * 2);
            if deadline.should_stop() { Err(Interrupted) } else { Ok(()) }
        };
        assert_eq!(pool.run_inline_first(Work::Solve, slow).await, Err(PoolError::Overloaded(Shed::QueueTimeout)));
        let patient = pool.run_patiently_inline_first(Work::Solve, pool.line(Duration::from_secs(5)), slow);
        let (patient, ()) = tokio::join!(patient, async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            release.send(()).unwrap();
        });
        assert_eq!(patient, Ok(()));
        assert_eq!(busy.await.unwrap(), Ok(true));
        assert_eq!(pool.shared.running.free(), 1);
        assert!(pool.check_room().is_ok(), "every place is given back");
    }

    /// A search the inline budget paused goes on, on the blocking pool, from where it paused.
    #[tokio::test]
    async fn a_search_handed_over_goes_on_from_its_progress() {
        use crate::solver::{self, Progress};
        // The first of tests/data/forum_hardest_1106.txt: about 60 us of search in a release
        // build, three times the inline budget.
        let hard: crate::board::Board =
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3".parse().unwrap();
        // Also asks the CPU's features once, which takes longer than the budget here.
        let expected = solver::classify(&hard, &mut solver::Never).unwrap();
        let pool = pool(1, 0);
        // A thread preempted before the search starts spends the budget without a pause: the
        // job is then called again from the start, so a few tries must see one pause.
        let mut gone_on = false;
        for _ in 0..5 {
            let mut progress = Progress::default();
            let mut calls = Vec::new();
            let job = move |deadline: &mut Deadline, _| {
                calls.push(progress.is_paused());
                solver::classify_from(&hard, &mut progress, deadline).map(|verdict| (verdict, calls.clone()))
            };
            let (verdict, calls) = pool.run_inline_first(Work::Solve, job).await.unwrap();
            assert_eq!(verdict, expected);
            assert_eq!(calls.len(), 2, "tried inline, then handed over");
            gone_on |= calls == [false, true];
        }
        assert!(gone_on, "the pool's call never went on from a pause");
    }

    /// Starts a job that holds a slot until `release` is used, and returns once it holds it.
    async fn occupy_a_slot(
        pool: &SolverPool,
    ) -> (std::sync::mpsc::Sender<()>, tokio::task::JoinHandle<Result<bool, PoolError>>) {
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let busy = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(Work::Solve, move |_| Ok(wait.recv().is_ok())).await }
        });
        while pool.shared.running.free() > 0 {
            tokio::task::yield_now().await;
        }
        (release, busy)
    }

    #[tokio::test]
    async fn an_inline_try_is_refused_like_any_job_when_the_pool_is_full() {
        let pool = pool(1, 0);
        let (release, busy) = occupy_a_slot(&pool).await;
        assert!(matches!(pool.run_inline_first(Work::Solve, |_, _| Ok(1)).await, Err(PoolError::Overloaded(_))));
        release.send(()).unwrap();
        assert_eq!(busy.await.unwrap(), Ok(true));
        assert_eq!(pool.run_inline_first(Work::Solve, |_, _| Ok(1)).await, Ok(1));
    }

    #[tokio::test]
    async fn a_job_that_hits_its_deadline_is_a_timeout() {
        let pool = SolverPool::new(PoolLimits { solve_timeout: Duration::ZERO, ..pool(1, 0).limits() });
        let result =
            pool.run(Work::Solve, |deadline| if deadline.should_stop() { Err(Interrupted) } else { Ok(()) }).await;
        assert_eq!(result, Err(PoolError::TimedOut(Duration::ZERO)));
    }

    #[tokio::test]
    async fn a_panicking_job_is_reported_and_frees_its_slot() {
        let pool = pool(1, 0);
        assert_eq!(
            pool.run(Work::Solve, |_| -> Result<(), Interrupted> { panic!("boom") }).await,
            Err(PoolError::Panicked)
        );
        assert_eq!(pool.run(Work::Solve, |_| Ok(1)).await, Ok(1));
    }

    #[tokio::test]
    async fn refuses_beyond_slots_and_queue() {
        let pool = pool(1, 1);
        let (release, busy) = occupy_a_slot(&pool).await;
        // The second waits in the queue past the queue timeout; a third is refused at once.
        let (queued, refused) = tokio::join!(pool.run(Work::Solve, |_| Ok(true)), async {
            tokio::task::yield_now().await;
            pool.run(Work::Solve, |_| Ok(true)).await
        });
        assert_eq!(refused, Err(PoolError::Overloaded(Shed::QueueFull)));
        assert_eq!(queued, Err(PoolError::Overloaded(Shed::QueueTimeout)));
        release.send(()).unwrap();
        assert_eq!(busy.await.unwrap(), Ok(true));
        assert_eq!(pool.run(Work::Solve, |_| Ok(7)).await, Ok(7));
    }

    #[tokio::test]
    async fn a_patient_job_waits_for_a_place_instead_of_being_refused() {
        let pool = pool(1, 0);
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let busy = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run(Work::Solve, move |_| Ok(wait.recv().is_ok())).await }
        });
        while pool.check_room().is_ok() {
            tokio::task::yield_now().await;
        }
        // No place: a single job is refused, a patient one gives up only after its patience...
        assert!(matches!(pool.run(Work::Solve, |_| Ok(0)).await, Err(PoolError::Overloaded(_))));
        let gave_up = pool.run_patiently(Work::Solve, pool.line(Duration::from_millis(20)), |_| Ok(0)).await;
        assert_eq!(gave_up, Err(PoolError::Overloaded(Shed::QueueStayedFull)));
        // ...and gets its turn when the place frees up within it.
        let patient = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run_patiently(Work::Solve, pool.line(Duration::from_secs(5)), |_| Ok(2)).await }
        });
        tokio::task::yield_now().await;
        release.send(()).unwrap();
        assert_eq!(busy.await.unwrap(), Ok(true));
        assert_eq!(patient.await.unwrap(), Ok(2));
    }

    #[tokio::test]
    async fn a_batch_starts_no_piece_past_its_bound() {
        let spent = SolverPool::new(PoolLimits { batch_timeout: Duration::ZERO, ..pool(1, 0).limits() });
        let line = spent.line(Duration::from_secs(5));
        assert_eq!(spent.run_patiently(Work::Batch, line, |_| Ok(1)).await, Err(PoolError::BatchSpent(Duration::ZERO)));
        let inline = spent.run_patiently_inline_first(Work::Batch, line, |_, _| Ok(1)).await;
        assert_eq!(inline, Err(PoolError::BatchSpent(Duration::ZERO)));
        // The bound is the batch's, not the server's: single requests go on.
        assert_eq!(spent.run(Work::Solve, |_| Ok(2)).await, Ok(2));
        let within = pool(1, 0);
        assert_eq!(within.run_patiently(Work::Batch, within.line(Duration::from_secs(5)), |_| Ok(3)).await, Ok(3));
    }

    #[tokio::test]
    async fn making_a_puzzle_has_the_generation_timeout_and_the_rest_the_solve_timeout() {
        let pool = SolverPool::new(PoolLimits { solve_timeout: Duration::ZERO, ..pool(1, 0).limits() });
        for work in Work::ALL {
            let made = matches!(work, Work::Generate | Work::Booklet);
            assert_eq!(pool.timeout(work), if made { Duration::from_secs(5) } else { Duration::ZERO }, "{work:?}");
            assert_eq!(pool.run(work, |deadline| Ok(deadline.should_stop())).await, Ok(!made), "{work:?}");
        }
    }

    #[tokio::test]
    async fn a_job_that_ends_normally_past_its_deadline_still_reached_it() {
        let pool = SolverPool::new(PoolLimits { generate_timeout: Duration::ZERO, ..pool(1, 0).limits() });
        metrics::install();
        // The job swallows its interruption, as a batch piece does for the boards it fails.
        assert_eq!(pool.run(Work::Booklet, |deadline| Ok(deadline.should_stop())).await, Ok(true));
        let text = metrics::render();
        assert!(text.contains(r#"sudokud_deadline_exceeded_total{work="booklet"} 1"#), "{text}");
    }
}

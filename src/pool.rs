//! Runs CPU-bound solver work for async callers without starving the async workers.
//!
//! Work goes to tokio's blocking pool (`spawn_blocking`), never onto an async worker thread,
//! so a hard puzzle cannot stall unrelated requests. A semaphore bounds how many solves run at
//! once (one per CPU by default: more only adds context switches), and admission is bounded
//! too: at most `max_queued` callers wait for a slot, each for at most `queue_timeout`. Past
//! either bound the caller is refused at once with [`PoolError::Overloaded`], which the HTTP
//! layer answers with 503 and `Retry-After`: a fast "no" is better than an unbounded queue
//! whose tail has long since timed out at the client.
//!
//! Every job gets a [`Deadline`] that starts when the caller is admitted, so time spent waiting
//! for a slot counts against the solve timeout, and the solver polls it, so a job that overruns
//! frees its thread instead of pinning a CPU.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tracing::Span;

use crate::metrics;
use crate::solver::{Deadline, Interrupted};

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
}

/// Why a job did not produce its result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    #[error("all solver slots are busy and {0}")]
    Overloaded(&'static str),
    #[error("the job did not finish within {0:?}")]
    TimedOut(Duration),
    #[error("the job panicked")]
    Panicked,
}

/// A bounded gate in front of the blocking pool. Cheap to clone; clones share the limits.
#[derive(Clone, Debug)]
pub struct SolverPool {
    shared: Arc<Shared>,
}

#[derive(Debug)]
struct Shared {
    limits: PoolLimits,
    /// Permits for running jobs. Owned permits (hence the `Arc`) can move into the job.
    running: Arc<Semaphore>,
    /// Permits for running or waiting jobs: refuses callers beyond `slots + max_queued`.
    admitted: Arc<Semaphore>,
}

impl SolverPool {
    pub fn new(limits: PoolLimits) -> SolverPool {
        let slots = limits.slots.max(1);
        let limits = PoolLimits { slots, ..limits };
        SolverPool {
            shared: Arc::new(Shared {
                limits,
                running: Arc::new(Semaphore::new(slots)),
                admitted: Arc::new(Semaphore::new(slots + limits.max_queued)),
            }),
        }
    }

    pub fn limits(&self) -> PoolLimits {
        self.shared.limits
    }

    /// Takes a place among the admitted callers, or refuses at once when they are all taken.
    pub fn admit(&self) -> Result<Admission, PoolError> {
        let permit = Arc::clone(&self.shared.admitted).try_acquire_owned().map_err(|_| {
            metrics::shed("queue_full");
            PoolError::Overloaded("the queue of waiting solves is full")
        })?;
        Ok(Admission { shared: Arc::clone(&self.shared), permit })
    }

    /// Runs `job` on the blocking pool with a deadline, once a slot is free. `work` names the
    /// kind of job in the metrics.
    ///
    /// The job runs inside the caller's tracing span, so its logs carry the request id.
    pub async fn run<T, F>(&self, work: &'static str, job: F) -> Result<T, PoolError>
    where
        F: FnOnce(&mut Deadline) -> Result<T, Interrupted> + Send + 'static,
        T: Send + 'static,
    {
        let limits = self.shared.limits;
        let admitted = Instant::now();
        let admission = self.admit()?;
        let deadline = Deadline(admitted + limits.solve_timeout);
        let running = tokio::time::timeout(limits.queue_timeout, admission.slot()).await.map_err(|_| {
            metrics::shed("queue_timeout");
            PoolError::Overloaded("the wait for a free slot exceeded the queue timeout")
        })?;
        metrics::job_started(work, admitted.elapsed());
        // The admission moves into the job too: a caller counts as admitted until its work ends.
        execute(work, (admission.permit, running), deadline, limits.solve_timeout, job).await
    }
}

/// A place among the admitted callers. A single solve holds one while it waits and runs; a batch
/// holds one for its whole length and runs its chunks through [`Admission::run`].
#[derive(Debug)]
pub struct Admission {
    shared: Arc<Shared>,
    permit: OwnedSemaphorePermit,
}

impl Admission {
    /// Runs one job of an admitted batch: waits for a slot as long as it takes, then runs `job`
    /// with a deadline that starts when it starts.
    ///
    /// No queue timeout here: a batch is throughput work that already holds its place, and a
    /// wait only slows the batch, while single solves still get slots in turn (the semaphore is
    /// fair), so they are not starved.
    pub async fn run<T, F>(&self, work: &'static str, job: F) -> Result<T, PoolError>
    where
        F: FnOnce(&mut Deadline) -> Result<T, Interrupted> + Send + 'static,
        T: Send + 'static,
    {
        let waiting = Instant::now();
        let running = self.slot().await;
        metrics::job_started(work, waiting.elapsed());
        let solve_timeout = self.solve_timeout();
        execute(work, running, Deadline(Instant::now() + solve_timeout), solve_timeout, job).await
    }

    /// How long each job may run.
    pub fn solve_timeout(&self) -> Duration {
        self.shared.limits.solve_timeout
    }

    async fn slot(&self) -> OwnedSemaphorePermit {
        Arc::clone(&self.shared.running).acquire_owned().await.expect("the semaphore is never closed")
    }
}

/// Runs `job` on the blocking pool, holding `permits` until it ends.
async fn execute<T, F, P>(
    work: &'static str,
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
    let span = Span::current();
    let handle = tokio::task::spawn_blocking(move || {
        // The permits move into the job: if the caller goes away (client hung up, request
        // timeout), the slot stays taken until the CPU work really ends.
        let _permits = permits;
        let mut in_flight = InFlight { work, started: Instant::now(), timed_out: false };
        let result = span.in_scope(|| job(&mut deadline));
        in_flight.timed_out = result.is_err();
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
    work: &'static str,
    started: Instant,
    timed_out: bool,
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
        })
    }

    #[tokio::test]
    async fn runs_a_job_and_returns_its_value() {
        assert_eq!(pool(1, 0).run("test", |_| Ok(42)).await, Ok(42));
    }

    #[tokio::test]
    async fn a_job_that_hits_its_deadline_is_a_timeout() {
        let pool = SolverPool::new(PoolLimits { solve_timeout: Duration::ZERO, ..pool(1, 0).limits() });
        let result = pool.run("test", |deadline| if deadline.should_stop() { Err(Interrupted) } else { Ok(()) }).await;
        assert_eq!(result, Err(PoolError::TimedOut(Duration::ZERO)));
    }

    #[tokio::test]
    async fn a_panicking_job_is_reported_and_frees_its_slot() {
        let pool = pool(1, 0);
        assert_eq!(pool.run("test", |_| -> Result<(), Interrupted> { panic!("boom") }).await, Err(PoolError::Panicked));
        assert_eq!(pool.run("test", |_| Ok(1)).await, Ok(1));
    }

    #[tokio::test]
    async fn refuses_beyond_slots_and_queue() {
        let pool = pool(1, 1);
        let (release, wait) = std::sync::mpsc::channel::<()>();
        let busy = tokio::spawn({
            let pool = pool.clone();
            async move { pool.run("test", move |_| Ok(wait.recv().is_ok())).await }
        });
        // Let the first job take the only slot.
        while pool.shared.running.available_permits() > 0 {
            tokio::task::yield_now().await;
        }
        // The second waits in the queue past the queue timeout; a third is refused at once.
        let (queued, refused) = tokio::join!(pool.run("test", |_| Ok(true)), async {
            tokio::task::yield_now().await;
            pool.run("test", |_| Ok(true)).await
        });
        assert_eq!(refused, Err(PoolError::Overloaded("the queue of waiting solves is full")));
        assert_eq!(queued, Err(PoolError::Overloaded("the wait for a free slot exceeded the queue timeout")));
        release.send(()).unwrap();
        assert_eq!(busy.await.unwrap(), Ok(true));
        assert_eq!(pool.run("test", |_| Ok(7)).await, Ok(7));
    }
}

//! What handlers share: the solver pool and the readiness flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::made::Made;
use crate::config::ServeConfig;
use crate::pool::{PoolLimits, SolverPool};

/// Shared by every handler; cheap to clone.
#[derive(Clone, Debug)]
pub struct AppState {
    /// Where solving, counting, the logic endpoints and generation run.
    pub pool: SolverPool,
    /// Whether `/readyz` says ready; shutdown turns it off.
    pub readiness: Readiness,
    /// Largest request body of a one-board request, in bytes.
    pub body_limit: usize,
    /// Longest an NDJSON batch body may send nothing before it is cut off.
    pub request_timeout: Duration,
    /// Highest solution count a `/v1/count` request may ask for.
    pub max_count_limit: usize,
    /// Most boards in one JSON `/v1/solve/batch` request.
    pub max_batch_boards: usize,
    /// The puzzles made lately, by id, for fetches by id and the daily puzzle.
    pub(crate) made: Made,
}

impl AppState {
    /// The state for `config`: a pool of its limits, and the request limits handlers check.
    pub fn new(config: &ServeConfig, readiness: Readiness) -> AppState {
        let pool = SolverPool::new(PoolLimits {
            slots: config.solver_slots(),
            max_queued: config.max_queued_solves,
            queue_timeout: config.queue_timeout(),
            solve_timeout: config.solve_timeout(),
            generate_timeout: config.generate_timeout(),
            request_timeout: config.request_timeout(),
            batch_timeout: config.batch_timeout(),
        });
        AppState {
            pool,
            readiness,
            body_limit: config.body_limit_bytes,
            request_timeout: config.request_timeout(),
            max_count_limit: config.max_count_limit.get(),
            max_batch_boards: config.max_batch_boards.get(),
            made: Made::default(),
        }
    }
}

/// Whether the server still takes new work. Flipped once, when shutdown begins, so load
/// balancers polling `/readyz` stop sending traffic while in-flight requests finish.
#[derive(Clone, Debug, Default)]
pub struct Readiness {
    shutting_down: Arc<AtomicBool>,
}

impl Readiness {
    /// False once shutdown has begun.
    pub fn is_ready(&self) -> bool {
        !self.shutting_down.load(Ordering::Acquire)
    }

    /// Marks the server as shutting down, for good: `/readyz` answers 503 from now on.
    pub fn begin_shutdown(&self) {
        self.shutting_down.store(true, Ordering::Release);
    }
}

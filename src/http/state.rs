//! What handlers share: the solver pool and the readiness flag.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::config::ServeConfig;
use crate::pool::{PoolLimits, SolverPool};

/// Shared by every handler; cheap to clone.
#[derive(Clone, Debug)]
pub struct AppState {
    pub pool: SolverPool,
    pub readiness: Readiness,
    /// Highest solution count a `/v1/count` request may ask for.
    pub max_count_limit: usize,
}

impl AppState {
    pub fn new(config: &ServeConfig, readiness: Readiness) -> AppState {
        let pool = SolverPool::new(PoolLimits {
            slots: config.solver_slots(),
            max_queued: config.max_queued_solves,
            queue_timeout: config.queue_timeout(),
            solve_timeout: config.solve_timeout(),
        });
        AppState { pool, readiness, max_count_limit: config.max_count_limit.get() }
    }
}

/// Whether the server still takes new work. Flipped once, when shutdown begins, so load
/// balancers polling `/readyz` stop sending traffic while in-flight requests finish.
#[derive(Clone, Debug, Default)]
pub struct Readiness {
    shutting_down: Arc<AtomicBool>,
}

impl Readiness {
    pub fn is_ready(&self) -> bool {
        !self.shutting_down.load(Ordering::Acquire)
    }

    pub fn begin_shutdown(&self) {
        self.shutting_down.store(true, Ordering::Release);
    }
}

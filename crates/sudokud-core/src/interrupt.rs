//! How a long search is stopped: the [`Interrupt`] every search polls (the 9x9 solver, the
//! searches of every size and variant, the logic, generation), and the interrupts the service,
//! the commands, the tests and fuzzing stop them with.

use std::time::Instant;

/// Guesses between two polls of an [`Interrupt`], unless it asks for another interval. A guess
/// costs well under a microsecond, so this bounds the overshoot past a deadline to about a
/// millisecond.
pub const POLL_INTERVAL: u32 = 1024;

/// Decides whether a running search should give up. Polled at the start and every
/// [`Interrupt::poll_interval`] guesses.
pub trait Interrupt {
    /// Guesses between two polls: a power of two that divides 4,096 (the restart allowance is
    /// checked at the polls). Constant for a type, so in the (generic) search the check compiles
    /// to a mask.
    #[inline]
    fn poll_interval(&self) -> u32 {
        POLL_INTERVAL
    }

    /// Whether to stop now; the search then returns [`Interrupted`].
    fn should_stop(&mut self) -> bool;
}

/// Never interrupts: the search runs to its answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Never;

impl Interrupt for Never {
    fn should_stop(&mut self) -> bool {
        false
    }
}

/// Interrupts once the clock passes an instant.
#[derive(Clone, Copy, Debug)]
pub struct Deadline(pub Instant);

/// [`Deadline`]'s poll interval.
pub(crate) const DEADLINE_POLL_INTERVAL: u32 = 64;

impl Interrupt for Deadline {
    /// A clock read every 64 guesses (tens of microseconds) costs well under 1 % of the search,
    /// and lets a deadline a few microseconds away stop a search about that soon: the service
    /// tries small puzzles on its async worker with such a deadline before it hands them to the
    /// blocking pool.
    #[inline]
    fn poll_interval(&self) -> u32 {
        DEADLINE_POLL_INTERVAL
    }

    fn should_stop(&mut self) -> bool {
        Instant::now() >= self.0
    }
}

/// Interrupts at the n-th poll (the first when n is 0): a budget of work that, unlike a
/// [`Deadline`], stops at the same point on every run and machine, so tests and fuzzing can
/// interrupt a search where they choose.
#[derive(Clone, Copy, Debug)]
pub struct PollBudget(pub u32);

impl Interrupt for PollBudget {
    fn should_stop(&mut self) -> bool {
        self.0 = self.0.saturating_sub(1);
        self.0 == 0
    }
}

/// Interrupts at every n-th poll, and polls at every guess: pauses a search again and again, at
/// the same points on every run, so that tests and fuzzing can check that a search resumed from
/// its [`Progress`](crate::solver::Progress) each time ends as one run straight through would.
#[derive(Clone, Copy, Debug)]
pub struct EveryNthPoll {
    n: u32,
    polls: u32,
}

impl EveryNthPoll {
    /// Every `n`-th poll, `n` at least 3: a resumed search polls twice (on entry, and again at
    /// the guess it paused at) before its first new guess.
    pub fn new(n: u32) -> EveryNthPoll {
        assert!(n >= 3, "a search interrupted at every {n}th poll would never get past its pause");
        EveryNthPoll { n, polls: 0 }
    }

    /// The polls so far.
    pub fn polls(&self) -> u32 {
        self.polls
    }
}

impl Interrupt for EveryNthPoll {
    fn poll_interval(&self) -> u32 {
        1
    }

    fn should_stop(&mut self) -> bool {
        self.polls += 1;
        self.polls.is_multiple_of(self.n)
    }
}

/// The search gave up because its [`Interrupt`] said so.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the search was interrupted before it finished")]
pub struct Interrupted;

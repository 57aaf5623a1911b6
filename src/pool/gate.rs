//! The solver slots, handed out by priority rather than in arrival order.
//!
//! tokio's semaphore serves waiters first come, first served. That let heavy requests shut
//! everyone else out: a booklet's or a batch's items wait in line for as long as their request
//! may take, so they always stood in line ahead of single requests, which wait only the queue
//! timeout (on 2 slots, three 25x25 booklets got 0 of 176 concurrent solves answered). Here a
//! freed slot goes to the waiter of the best [`Priority`]: a single request's job before any
//! piece of a batch, and among batch pieces, those of the request that came first, so that heavy
//! requests finish one after the other instead of all running out of time together. With two
//! slots or more, each kind keeps one for itself: batch pieces never hold the last one, so a
//! single request waits at most for another single request's job, never for a batch piece (a
//! 25x25 puzzle made for a batch takes tenths of a second, longer than the queue timeout); and a
//! batch piece waiting while no piece runs gets the next slot, so a stream of cheap requests
//! cannot starve the heavy ones either. The price: on two slots a batch alone runs on one.
//!
//! A waiter is a oneshot channel; the permit itself travels through it, so a waiter that gives
//! up (its timeout, its client gone) after being handed a slot drops the permit, which passes the
//! slot on.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::oneshot;

/// Who a job is for, which decides its turn: lower is served first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Priority {
    /// One request's own job: served before any batch piece.
    Single,
    /// A piece of a batch (a solve batch's chunk, a generated batch's or a booklet's puzzle),
    /// served in the order its request took its place in line (the number), and kept off the
    /// last free slot.
    Batch(u64),
}

/// A bounded set of slots handed out by [`Priority`]. Cheap to clone.
#[derive(Clone, Debug)]
pub(crate) struct Gate {
    shared: Arc<Mutex<State>>,
}

#[derive(Debug)]
struct State {
    slots: usize,
    free: usize,
    /// Slots batch pieces hold now, and the most they may: all but one, when there are two or
    /// more.
    batch_held: usize,
    batch_limit: usize,
    /// Single requests' jobs waiting, first come first served.
    singles: VecDeque<Waiter>,
    /// Batch pieces waiting, by their request's place in line.
    batches: BinaryHeap<Waiter>,
    /// Arrival numbers of waiters, so equal priorities are served in arrival order.
    arrivals: u64,
}

#[derive(Debug)]
struct Waiter {
    priority: Priority,
    arrival: u64,
    hand: oneshot::Sender<Slot>,
}

impl Ord for Waiter {
    /// The heap's greatest is served first: the lowest priority, then the earliest arrival.
    fn cmp(&self, other: &Self) -> Ordering {
        (other.priority, other.arrival).cmp(&(self.priority, self.arrival))
    }
}

impl PartialOrd for Waiter {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Waiter {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Waiter {}

/// A slot held; dropping it frees the slot for the best waiter.
#[derive(Debug)]
pub(crate) struct Slot {
    /// `None` once the slot is given back without a hand-off (see [`State::hand_out`]).
    gate: Option<Arc<Mutex<State>>>,
    batch: bool,
}

impl Gate {
    /// A gate of `slots` slots (at least one).
    pub(crate) fn new(slots: usize) -> Gate {
        let slots = slots.max(1);
        let state = State {
            slots,
            free: slots,
            batch_held: 0,
            batch_limit: (slots - 1).max(1),
            singles: VecDeque::new(),
            batches: BinaryHeap::new(),
            arrivals: 0,
        };
        Gate { shared: Arc::new(Mutex::new(state)) }
    }

    /// Slots free now.
    #[cfg(test)]
    pub(crate) fn free(&self) -> usize {
        lock(&self.shared).free
    }

    /// A slot now, if one is free for `priority` and nobody better is waiting.
    pub(crate) fn try_acquire(&self, priority: Priority) -> Option<Slot> {
        let mut state = lock(&self.shared);
        state.forget_gone();
        state.may_take(priority).then(|| state.take(&self.shared, priority))
    }

    /// Waits for a slot: the next one freed goes to the best waiter. Dropping the future gives up
    /// the place in line (and passes on a slot handed over meanwhile).
    pub(crate) async fn acquire(&self, priority: Priority) -> Slot {
        let receiver = {
            let mut state = lock(&self.shared);
            state.forget_gone();
            if state.may_take(priority) {
                return state.take(&self.shared, priority);
            }
            let (hand, receiver) = oneshot::channel();
            state.arrivals += 1;
            let waiter = Waiter { priority, arrival: state.arrivals, hand };
            match priority {
                Priority::Single => state.singles.push_back(waiter),
                Priority::Batch(_) => state.batches.push(waiter),
            }
            receiver
        };
        // The sender lives in a line until a slot is handed through it.
        receiver.await.expect("a waiter's sender is dropped only after a send")
    }
}

impl State {
    /// Drops the waiters at the head of each line that gave up. Deeper ones are dropped as the
    /// line reaches them; only the heads decide whether anyone waits ahead of a newcomer.
    fn forget_gone(&mut self) {
        while self.singles.front().is_some_and(|head| head.hand.is_closed()) {
            self.singles.pop_front();
        }
        while self.batches.peek().is_some_and(|head| head.hand.is_closed()) {
            self.batches.pop();
        }
    }

    /// Whether batch pieces may take another slot.
    fn batch_room(&self) -> bool {
        self.batch_held < self.batch_limit
    }

    /// Whether a batch piece waits while none runs, with a slot to keep for it (two or more).
    fn batch_starved(&self) -> bool {
        self.slots > 1 && self.batch_held == 0 && !self.batches.is_empty()
    }

    /// Whether a caller of `priority` may take a free slot now, after [`State::forget_gone`]:
    /// nobody of its kind waits ahead of it, and it leaves what the other kind keeps.
    fn may_take(&self, priority: Priority) -> bool {
        match priority {
            Priority::Single => self.singles.is_empty() && self.free > usize::from(self.batch_starved()),
            Priority::Batch(_) => {
                self.batches.is_empty() && self.singles.is_empty() && self.free > 0 && self.batch_room()
            }
        }
    }

    fn take(&mut self, shared: &Arc<Mutex<State>>, priority: Priority) -> Slot {
        self.free -= 1;
        let batch = matches!(priority, Priority::Batch(_));
        self.batch_held += usize::from(batch);
        Slot { gate: Some(Arc::clone(shared)), batch }
    }

    /// Gives back `slot`'s place without handing it on (the caller hands out after).
    fn give_back(&mut self, mut slot: Slot) {
        slot.gate = None;
        self.free += 1;
        self.batch_held -= usize::from(slot.batch);
    }

    /// Hands free slots to the waiters still waiting: a starved batch piece first (see
    /// [`State::batch_starved`]), then single requests' jobs, then batch pieces while they have
    /// room. A waiter that gave up is skipped.
    fn hand_out(&mut self, shared: &Arc<Mutex<State>>) {
        while self.free > 0 {
            self.forget_gone();
            let waiter = if self.batch_starved() || (self.singles.is_empty() && self.batch_room()) {
                self.batches.pop()
            } else {
                self.singles.pop_front()
            };
            let Some(waiter) = waiter else { return };
            let slot = self.take(shared, waiter.priority);
            // A receiver dropped since `forget_gone` hands the slot back: given back here, under
            // the lock, rather than by its drop, which takes the lock.
            if let Err(slot) = waiter.hand.send(slot) {
                self.give_back(slot);
            }
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let Some(gate) = self.gate.take() else { return };
        let mut state = lock(&gate);
        state.free += 1;
        state.batch_held -= usize::from(self.batch);
        state.hand_out(&gate);
    }
}

fn lock(shared: &Mutex<State>) -> MutexGuard<'_, State> {
    // No code under the lock panics; a poisoned lock's state is still consistent.
    shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether `future` is still pending after the runtime has had a chance to run it.
    async fn pending<T>(future: &mut (impl Future<Output = T> + Unpin)) -> bool {
        tokio::time::timeout(std::time::Duration::from_millis(20), future).await.is_err()
    }

    #[tokio::test]
    async fn a_freed_slot_goes_to_a_single_request_before_any_batch_piece() {
        let gate = Gate::new(1);
        let held = gate.try_acquire(Priority::Single).expect("a free slot");
        let mut batch = Box::pin(gate.acquire(Priority::Batch(0)));
        assert!(pending(&mut batch).await);
        let mut single = Box::pin(gate.acquire(Priority::Single));
        assert!(pending(&mut single).await);
        drop(held);
        let slot = single.await;
        assert!(pending(&mut batch).await, "the batch piece waits for the single request's slot");
        drop(slot);
        let slot = batch.await;
        assert!(slot.batch);
    }

    #[tokio::test]
    async fn batch_pieces_are_served_in_their_requests_order_not_their_arrival() {
        let gate = Gate::new(1);
        let held = gate.try_acquire(Priority::Batch(9)).expect("a free slot");
        let mut later_request = Box::pin(gate.acquire(Priority::Batch(5)));
        assert!(pending(&mut later_request).await);
        let mut earlier_request = Box::pin(gate.acquire(Priority::Batch(2)));
        assert!(pending(&mut earlier_request).await);
        drop(held);
        drop(earlier_request.await);
        drop(later_request.await);
        assert_eq!(gate.free(), 1);
    }

    #[tokio::test]
    async fn batch_pieces_keep_off_the_last_slot() {
        let gate = Gate::new(2);
        let first = gate.try_acquire(Priority::Batch(0)).expect("a slot for one batch piece");
        assert!(gate.try_acquire(Priority::Batch(0)).is_none(), "the last slot stays the single requests'");
        let single = gate.try_acquire(Priority::Single).expect("the slot kept free");
        drop((first, single));
    }

    #[tokio::test]
    async fn single_requests_cannot_starve_batch_pieces_of_every_slot() {
        let gate = Gate::new(2);
        let held = [Priority::Single, Priority::Single].map(|priority| gate.try_acquire(priority).expect("free"));
        let mut batch = Box::pin(gate.acquire(Priority::Batch(0)));
        assert!(pending(&mut batch).await);
        let mut single = Box::pin(gate.acquire(Priority::Single));
        assert!(pending(&mut single).await);
        let [first, second] = held;
        drop(first);
        let piece = batch.await;
        assert!(pending(&mut single).await, "the batch piece, running nothing, took the slot");
        drop(second);
        drop((single.await, piece));
        assert_eq!(gate.free(), 2);
    }

    #[tokio::test]
    async fn a_waiter_that_gives_up_passes_a_slot_handed_to_it_on() {
        let gate = Gate::new(1);
        let held = gate.try_acquire(Priority::Single).expect("a free slot");
        let mut gone = Box::pin(gate.acquire(Priority::Single));
        assert!(pending(&mut gone).await);
        let mut next = Box::pin(gate.acquire(Priority::Single));
        assert!(pending(&mut next).await);
        drop(gone);
        drop(held);
        drop(next.await);
        assert_eq!(gate.free(), 1);
        // A slot handed over through a channel whose receiver is gone comes back, not lost.
        let (hand, receiver) = oneshot::channel();
        drop(receiver);
        let mut state = lock(&gate.shared);
        state.singles.push_back(Waiter { priority: Priority::Single, arrival: 0, hand });
        state.hand_out(&gate.shared);
        assert_eq!((state.free, state.singles.len()), (1, 0));
    }
}

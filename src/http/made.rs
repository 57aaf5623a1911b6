//! The puzzles made lately, by id, so that fetching one again (`GET /v1/puzzles/{id}`, the daily
//! puzzle every player asks for) is answered without making it again.
//!
//! A puzzle's id makes it again, the same every time, so the service could answer every fetch
//! by generating. But a 25x25 expert puzzle takes about half a second of a solver slot, and a
//! fetch is a client coming back for a puzzle it was just handed: under load the second making
//! could miss the solve timeout the first one met. The daily puzzle is the same request from
//! every player. Keeping the last [`CAPACITY`] puzzles made answers both from memory.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use crate::puzzle::Generated;
use crate::puzzle_id::PuzzleId;

/// Puzzles kept: about 1.5 KB each at 25x25, so at most a few megabytes, and room for a day's
/// daily puzzles and every id a busy minute hands out.
pub(super) const CAPACITY: usize = 1024;

/// The puzzles made lately; cheap to clone (one map behind a lock, held only to look up or
/// insert).
#[derive(Clone, Debug, Default)]
pub(crate) struct Made {
    kept: Arc<Mutex<Kept>>,
}

/// The map and the order its entries came in, the oldest first, which goes first when full.
#[derive(Debug, Default)]
struct Kept {
    by_id: HashMap<PuzzleId, Arc<Generated>>,
    order: VecDeque<PuzzleId>,
}

impl Made {
    /// The puzzle of `id`, if it was made lately.
    pub(super) fn get(&self, id: &PuzzleId) -> Option<Arc<Generated>> {
        self.lock().by_id.get(id).cloned()
    }

    /// Keeps the puzzle of `id`, letting the oldest go when full.
    pub(super) fn keep(&self, id: PuzzleId, puzzle: Arc<Generated>) {
        let mut kept = self.lock();
        if kept.by_id.insert(id, puzzle).is_some() {
            return;
        }
        kept.order.push_back(id);
        if kept.order.len() > CAPACITY {
            let oldest = kept.order.pop_front().expect("more than CAPACITY");
            kept.by_id.remove(&oldest);
        }
    }

    /// The map; a panic while it was held left it whole (each change is one insert or remove),
    /// so a poisoned lock is taken as it is.
    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::Symmetry;
    use crate::logic::Level;
    use crate::puzzle::Puzzle;
    use crate::sizes::Shape;
    use crate::solver::Never;

    fn id(seed: u64) -> PuzzleId {
        PuzzleId { shape: Shape::CLASSIC, level: Level::Easy, symmetry: Symmetry::None, seed }
    }

    #[test]
    fn keeps_the_last_puzzles_made_and_lets_the_oldest_go() {
        let made = Made::default();
        let puzzle = Arc::new(Puzzle::generate(Shape::CLASSIC, Level::Easy, Symmetry::None, 1, &mut Never).unwrap());
        assert!(made.get(&id(0)).is_none());
        for seed in 0..CAPACITY as u64 {
            made.keep(id(seed), Arc::clone(&puzzle));
        }
        // Kept again, the first does not move up nor count twice.
        made.keep(id(0), Arc::clone(&puzzle));
        assert_eq!(made.get(&id(0)).as_deref(), Some(&*puzzle));
        made.keep(id(CAPACITY as u64), Arc::clone(&puzzle));
        assert!(made.get(&id(0)).is_none(), "the oldest went");
        assert!((1..=CAPACITY as u64).all(|seed| made.get(&id(seed)).is_some()));
        assert_eq!(made.lock().order.len(), CAPACITY);
    }
}

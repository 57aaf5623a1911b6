//! What a search says a puzzle is, and why a puzzle gets no answer of the kind asked for: the
//! one decision behind every answer, for every engine.

use crate::board::Board;
use crate::rules::Conflict;

/// What a puzzle is: the one decision behind every answer to "solve this" or "explain this",
/// over HTTP or on the command line.
///
/// The same for puzzles of every shape and variant ([`crate::search::classify_from`]), whose
/// solutions are [`crate::sizes::AnyGrid`]s.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict<B = Board, C = Conflict> {
    /// Givens repeat a digit in a row, column or box, so there is no solution.
    Conflicting(Vec<C>),
    /// The givens agree, but no solution exists.
    Unsolvable,
    /// Exactly one solution.
    Unique(B),
    /// More than one; this is the first found.
    Multiple(B),
}

/// Why a puzzle gets no answer of the kind asked for: what an HTTP problem and a CLI `error`
/// line both say. Its message is the sentence both say, but for conflicting givens, whose CLI
/// line names the cells instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unanswerable<C = Conflict> {
    /// Givens repeat a digit.
    #[error("the givens repeat a digit in a row, column or box ({} conflicting cells)", .0.len())]
    Conflicting(Vec<C>),
    /// No solution, though the givens agree.
    #[error("the givens do not conflict, but the puzzle has no solution")]
    Unsolvable,
    /// More than one solution, where exactly one is needed (a rating, a hint, an explanation).
    #[error("the puzzle has more than one solution, so no step of logic leads to one of them")]
    Multiple,
}

impl<B, C> Verdict<B, C> {
    /// The solution and whether it is unique: what solving answers.
    pub fn solved(self) -> Result<(B, bool), Unanswerable<C>> {
        match self {
            Verdict::Unique(solution) => Ok((solution, true)),
            Verdict::Multiple(solution) => Ok((solution, false)),
            Verdict::Conflicting(conflicts) => Err(Unanswerable::Conflicting(conflicts)),
            Verdict::Unsolvable => Err(Unanswerable::Unsolvable),
        }
    }

    /// The one solution: what a rating, a hint or an explanation needs, since a "next step" of a
    /// puzzle with several solutions is a guess, not a deduction.
    pub fn unique(self) -> Result<B, Unanswerable<C>> {
        match self.solved()? {
            (solution, true) => Ok(solution),
            (_, false) => Err(Unanswerable::Multiple),
        }
    }
}

//! Puzzles as the tools the variant community shares them with write them: read into a puzzle
//! sudokud holds (its givens and rules), and written back. A rule the format has but sudokud
//! lacks is an error that names it, never dropped.
//!
//! - [`iss`]: the Interactive Sudoku Solver's constraint strings (its links and collections).

pub mod iss;

use crate::constraints::Constraints;
use crate::grid::Grid;

/// A puzzle as another tool's link or file carries it: its givens (and with them its shape) and
/// the rules it is played by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedPuzzle {
    /// The given digits, 0 for a blank.
    pub givens: Grid,
    /// The variant's rules; empty for classic Sudoku.
    pub constraints: Constraints,
}

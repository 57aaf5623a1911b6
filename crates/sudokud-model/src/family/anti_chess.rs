//! Anti-knight and anti-king: no digit a knight's move, or a king's diagonal step, from the same
//! digit.

use super::{Builder, Family};
use crate::constraints::Constraints;
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// A knight's moves, rows down and columns right.
const KNIGHT: &[(isize, isize)] = &[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];

/// A king's diagonal steps (its others stay in a row or column).
const KING: &[(isize, isize)] = &[(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// The chess moves.
pub(crate) struct AntiChess;

impl Family for AntiChess {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        for (on, steps) in [(constraints.anti_knight, KNIGHT), (constraints.anti_king, KING)] {
            if on {
                rules.moves.extend_from_slice(steps);
            }
        }
        Ok(())
    }

    /// Same digits a knight's or king's move apart, where those rules are on (such a pair may
    /// also share a box, and then breaks both rules).
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        let size = variant.shape().size();
        let constraints = variant.constraints();
        for (cell, &value) in cells.iter().enumerate().filter(|&(_, &value)| value != 0) {
            for &peer in variant.peers(cell) {
                let peer = usize::from(peer);
                if cells[peer] != value {
                    continue;
                }
                let (rows, cols) = ((cell / size).abs_diff(peer / size), (cell % size).abs_diff(peer % size));
                match (rows.min(cols), rows.max(cols)) {
                    (1, 2) if constraints.anti_knight => broken[cell].insert(Unit::AntiKnight.into()),
                    (1, 1) if constraints.anti_king => broken[cell].insert(Unit::AntiKing.into()),
                    _ => {}
                }
            }
        }
    }
}

//! Non-consecutive: orthogonal neighbours never hold consecutive digits.

use super::{Builder, Family, PairRule, consecutive, side_by_side};
use crate::constraints::Constraints;
use crate::unit::Unit;
use crate::variant::ConstraintError;

/// Two orthogonal neighbours.
pub(crate) static APART: PairRule = PairRule {
    unit: Unit::NonConsecutive,
    holds: |first, second, _| !consecutive(first, second, 0),
    reason: |first, second, _| format!("{first} and {second} are side by side, so they are not consecutive"),
    increasing: false,
};

/// The non-consecutive rule.
pub(crate) struct NonConsecutive;

impl Family for NonConsecutive {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        if constraints.non_consecutive {
            for (first, second) in super::neighbours(rules.shape.size()) {
                rules.relate(first, second, &APART);
            }
        }
        Ok(())
    }
}

/// Locked candidates through the rule: a cell side by side with every place of a digit in a
/// house touches it wherever it goes, so it holds neither neighbouring digit. The cells beside
/// every one of `places` (in a grid of `size`), at most four, for the search to take the digits
/// around the digit away from.
pub fn beside_every(size: usize, places: &[u16]) -> impl Iterator<Item = u16> {
    let beside = move |a: usize, b: u16| side_by_side(size, a).any(|cell| cell == usize::from(b));
    let around = side_by_side(size, usize::from(places[0]));
    around.filter(move |&cell| places[1..].iter().all(|&place| beside(cell, place))).map(|cell| cell as u16)
}

//! Lockout lines: a line with a diamond at each end, the diamonds' digits differing by the line's
//! difference at least, and no digit on the cells between the diamonds lying between theirs,
//! either diamond's included. A line without a difference takes half the grid's digits rounded
//! down ([`default_difference`]: 4 on 9x9, as ISS's and f-puzzles' lockout lines).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::lines::{self, LineKind, LineRule};
use super::{Builder, Family};
use crate::constraints::{Constraints, Place};
use crate::member::{self, Object, object_traits};
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// One lockout line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct LockoutLine {
    /// The line's cells in order, each touching the next, the diamonds first and last.
    pub line: Vec<Place>,
    /// How much the diamonds' digits differ at least; absent, half the grid's digits rounded
    /// down ([`default_difference`]).
    #[serde(default, deserialize_with = "member::optional_integer", skip_serializing_if = "Option::is_none")]
    pub difference: Option<u64>,
}

impl Object for LockoutLine {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<LockoutLine, D::Error> {
        LockoutLine::deserialize(deserializer)
    }
}

object_traits!(LockoutLine);

impl Serialize for LockoutLine {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        LockoutLine::serialize(self, serializer)
    }
}

/// The difference of a lockout line that gives none on a grid of `size`: half its digits,
/// rounded down (4 on 9x9, the usual lockout line; 2 on 4x4, 3 on 6x6, 8 on 16x16).
pub fn default_difference(size: usize) -> u64 {
    (size / 2) as u64
}

/// The lockout lines.
pub(crate) struct LockoutLines;

impl Family for LockoutLines {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        lines::check_count(rules, constraints.lockout_lines.len(), "constraints.lockout_lines")?;
        let size = rules.shape.size();
        for (number, lockout) in constraints.lockout_lines.iter().enumerate() {
            let member = format!("constraints.lockout_lines[{number}]");
            let difference = lockout.difference.unwrap_or(default_difference(size));
            let largest = size as u64 - 1;
            if !(1..=largest).contains(&difference) {
                let message = format!(
                    "is {difference}; two digits of a {size}x{size} grid differ by 1 to {largest}, so a lockout line's difference is one of those"
                );
                return Err(ConstraintError::new(format!("{member}.difference"), message));
            }
            let cells = rules.line(&lockout.line, &format!("{member}.line"))?;
            rules.lines.push(LineRule { cells, kind: LineKind::Lockout(difference as u32) });
        }
        Ok(())
    }

    /// The filled digits of a line that no digits of its empty cells complete: a digit inside
    /// between the diamonds', diamonds too close.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        lines::conflicts(variant, cells, broken, Unit::LockoutLine);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests::refused;
    use crate::grid::Grid;
    use crate::shape::Shape;

    #[test]
    fn a_lockout_line_that_cannot_fit_is_refused_naming_it() {
        let nine = Shape::CLASSIC;
        for (json, expected) in [
            (
                r#"{"lockout_lines":[{"line":[[0,0],[0,1]],"difference":9}]}"#,
                "`constraints.lockout_lines[0].difference`: is 9; two digits of a 9x9 grid differ by 1 to 8, so a lockout line's difference is one of those",
            ),
            (
                r#"{"lockout_lines":[{"line":[[0,0],[0,1]],"difference":0}]}"#,
                "`constraints.lockout_lines[0].difference`: is 0; two digits of a 9x9 grid differ by 1 to 8, so a lockout line's difference is one of those",
            ),
            (
                r#"{"lockout_lines":[{"line":[[0,0]]}]}"#,
                "`constraints.lockout_lines[0].line`: has 1 cell; a line joins 2 cells at least",
            ),
            (
                r#"{"lockout_lines":[{"line":[[0,0],[0,2]]}]}"#,
                "`constraints.lockout_lines[0].line`: r1c1 and r1c3 do not touch",
            ),
        ] {
            assert_eq!(refused(nine, json).as_deref(), Some(expected), "{json}");
        }
        assert_eq!(refused(nine, r#"{"lockout_lines":[{"line":[[0,0],[1,1],[2,1],[3,2]]}]}"#), None);
        let four = Shape::new(2, 2).unwrap();
        assert_eq!(refused(four, r#"{"lockout_lines":[{"line":[[0,0],[1,1]],"difference":3}]}"#), None);
    }

    /// Conflicts against the rule read plainly: with both diamonds filled, a digit inside between
    /// them or diamonds closer than 2 (the difference on 4x4); with one, no digit left for the
    /// other that keeps the digits inside out.
    #[test]
    fn conflicts_are_digits_no_diamonds_can_lock_out() {
        let json = r#"{"lockout_lines":[{"line":[[0,0],[0,1],[0,2],[1,3]]}]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        for (board, broken) in [
            ("1..3 .... .... ....", vec![]),
            ("14.. ...3 .... ....", vec![]),
            ("12.. ...3 .... ....", vec![(0, 0), (0, 1), (1, 3)]),
            ("2... ...3 .... ....", vec![(0, 0), (1, 3)]),
            ("1.4. .... .... ....", vec![]),
            ("2.4. .... .... ....", vec![(0, 0), (0, 2)]),
            ("2.3. .... .... ....", vec![(0, 0), (0, 2)]),
            (".14. .... .... ....", vec![(0, 1), (0, 2)]),
        ] {
            let grid = Grid::parse(board, None).unwrap();
            let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
            let found: Vec<(usize, usize)> = variant
                .conflicts(&grid)
                .iter()
                .filter(|conflict| conflict.units.contains(Unit::LockoutLine.into()))
                .map(|conflict| (conflict.row, conflict.col))
                .collect();
            assert_eq!(found, broken, "{board}");
        }
    }
}

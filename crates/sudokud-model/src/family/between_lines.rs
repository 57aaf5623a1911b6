//! Between lines: a line with a circle at each end, every digit on the cells between the circles
//! lying strictly between the circles' two digits (either circle the smaller). Digits inside may
//! repeat unless a house forbids; the circles differ by two at least.

use super::lines::{self, LineKind, LineRule};
use super::{Builder, Family};
use crate::constraints::Constraints;
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// The between lines.
pub(crate) struct BetweenLines;

impl Family for BetweenLines {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        lines::check_count(rules, constraints.between_lines.len(), "constraints.between_lines")?;
        for (number, line) in constraints.between_lines.iter().enumerate() {
            let member = format!("constraints.between_lines[{number}]");
            let cells = rules.line(line, &member)?;
            if cells.len() < 3 {
                let message = "has 2 cells; a between line has a cell between its two circles at least";
                return Err(ConstraintError::new(member, message));
            }
            rules.lines.push(LineRule { cells, kind: LineKind::Between });
        }
        Ok(())
    }

    /// The filled digits of a line that no digits of its empty cells complete: a digit inside not
    /// between the circles', circles too close for anything between them.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        lines::conflicts(variant, cells, broken, Unit::BetweenLine);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests::refused;
    use crate::grid::Grid;
    use crate::shape::Shape;

    #[test]
    fn a_between_line_that_cannot_fit_is_refused_naming_it() {
        let nine = Shape::CLASSIC;
        for (json, expected) in [
            (
                r#"{"between_lines":[[[0,0],[0,1]]]}"#,
                "`constraints.between_lines[0]`: has 2 cells; a between line has a cell between its two circles at least",
            ),
            (
                r#"{"between_lines":[[[0,0]]]}"#,
                "`constraints.between_lines[0]`: has 1 cell; a line joins 2 cells at least",
            ),
            (
                r#"{"between_lines":[[[0,0],[0,2],[0,3]]]}"#,
                "`constraints.between_lines[0]`: r1c1 and r1c3 do not touch",
            ),
            (
                r#"{"between_lines":[[[0,0],[0,1],[9,0]]]}"#,
                "`constraints.between_lines[0]`: cell [9, 0] is outside the 9x9 grid (rows and columns 0 to 8)",
            ),
        ] {
            assert_eq!(refused(nine, json).as_deref(), Some(expected), "{json}");
        }
        assert_eq!(refused(nine, r#"{"between_lines":[[[0,0],[1,1],[2,1],[3,2]]]}"#), None);
    }

    /// Conflicts against the rule read plainly: with both circles filled, a digit inside not
    /// strictly between them; with one, digits inside on both sides of it or equal to it.
    #[test]
    fn conflicts_are_digits_no_circles_can_hold_between() {
        let json = r#"{"between_lines":[[[0,0],[0,1],[0,2],[1,3]]]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        for (board, broken) in [
            ("1..4 .... .... ....", vec![]),
            ("123. ...4 .... ....", vec![]),
            ("4.2. ...1 .... ....", vec![]),
            ("13.. ...2 .... ....", vec![(0, 0), (0, 1), (1, 3)]),
            ("2... ...3 .... ....", vec![(0, 0), (1, 3)]),
            (".3.. ...3 .... ....", vec![(0, 1), (1, 3)]),
            (".2.. ...3 .... ....", vec![]),
            (".14. ...3 .... ....", vec![(0, 1), (0, 2), (1, 3)]),
            (".14. .... .... ....", vec![(0, 1), (0, 2)]),
        ] {
            let grid = Grid::parse(board, None).unwrap();
            let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
            let found: Vec<(usize, usize)> = variant
                .conflicts(&grid)
                .iter()
                .filter(|conflict| conflict.units.contains(Unit::BetweenLine.into()))
                .map(|conflict| (conflict.row, conflict.col))
                .collect();
            assert_eq!(found, broken, "{board}");
        }
    }
}

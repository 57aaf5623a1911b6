//! Modular and entropic lines: every three cells in a row along the line hold one digit of each
//! class, the residues mod 3 on a modular line, a low, a middle and a high digit (the digits'
//! thirds) on an entropic one. Each three cells are a window of the digit classes
//! ([`super::classes`]); a line of two cells holds digits of different classes.

use super::classes::{self, WindowKind};
use super::{Builder, Family};
use crate::constraints::{Constraints, Place};
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// Checks each line of `lines`, the member `name`, and adds its windows of `kind`.
fn build(lines: &[Vec<Place>], name: &str, kind: WindowKind, rules: &mut Builder) -> Result<(), ConstraintError> {
    if lines.is_empty() {
        return Ok(());
    }
    let member = format!("constraints.{name}");
    classes::check_size(rules, &member)?;
    for (number, line) in lines.iter().enumerate() {
        let member = format!("{member}[{number}]");
        let cells = rules.line(line, &member)?;
        classes::add(rules, classes::line_windows(&cells), kind, &member)?;
    }
    Ok(())
}

/// The modular lines.
pub(crate) struct ModularLines;

impl Family for ModularLines {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        build(&constraints.modular_lines, "modular_lines", WindowKind::ModularLine, rules)
    }

    /// Three cells in a row with two digits of one residue mod 3.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        classes::conflicts(variant, cells, broken, Unit::ModularLine);
    }
}

/// The entropic lines.
pub(crate) struct EntropicLines;

impl Family for EntropicLines {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        build(&constraints.entropic_lines, "entropic_lines", WindowKind::EntropicLine, rules)
    }

    /// Three cells in a row with two low, two middle or two high digits.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        classes::conflicts(variant, cells, broken, Unit::EntropicLine);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests::refused;
    use crate::grid::Grid;
    use crate::shape::Shape;

    #[test]
    fn a_line_that_cannot_fit_is_refused_naming_it() {
        let nine = Shape::CLASSIC;
        for (json, expected) in [
            (
                r#"{"modular_lines":[[[0,0]]]}"#,
                "`constraints.modular_lines[0]`: has 1 cell; a line joins 2 cells at least",
            ),
            (
                r#"{"entropic_lines":[[[0,0],[0,1]],[[0,0],[0,2]]]}"#,
                "`constraints.entropic_lines[1]`: r1c1 and r1c3 do not touch",
            ),
            (
                r#"{"modular_lines":[[[0,0],[9,0]]]}"#,
                "`constraints.modular_lines[0]`: cell [9, 0] is outside the 9x9 grid (rows and columns 0 to 8)",
            ),
        ] {
            assert_eq!(refused(nine, json).as_deref(), Some(expected), "{json}");
        }
        assert_eq!(refused(nine, r#"{"modular_lines":[[[0,0],[1,1],[2,1],[3,2]]]}"#), None);
        assert_eq!(refused(Shape::new(2, 3).unwrap(), r#"{"entropic_lines":[[[0,0],[1,1],[2,1]]]}"#), None);
        assert_eq!(
            refused(Shape::new(2, 2).unwrap(), r#"{"entropic_lines":[[[0,0],[1,1],[2,1]]]}"#).as_deref(),
            Some(
                "`constraints.entropic_lines`: needs a grid whose size is a multiple of 3, for its digits to split \
                 into three classes; the 4x4 grid's do not"
            )
        );
    }

    /// Conflicts read plainly: two digits of one class among three cells in a row.
    #[test]
    fn conflicts_are_two_digits_of_a_class_among_three_in_a_row() {
        let json = r#"{"modular_lines":[[[0,0],[0,1],[0,2],[1,3]]],"entropic_lines":[[[5,0],[5,1]]]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        let empty = "...... ...... ...... ...... ...... ......";
        for (board, unit, broken) in [
            ("123... ...4.. ...... ...... ...... ......", Unit::ModularLine, vec![]),
            ("1.4... ...... ...... ...... ...... ......", Unit::ModularLine, vec![(0, 0), (0, 2)]),
            // Four cells apart along the line may share a class.
            ("1..... ...4.. ...... ...... ...... ......", Unit::ModularLine, vec![]),
            (".1.... ...4.. ...... ...... ...... ......", Unit::ModularLine, vec![(0, 1), (1, 3)]),
            ("...... ...... ...... ...... ...... 35....", Unit::EntropicLine, vec![]),
            ("...... ...... ...... ...... ...... 12....", Unit::EntropicLine, vec![(5, 0), (5, 1)]),
            (empty, Unit::EntropicLine, vec![]),
        ] {
            let grid = Grid::parse(board, None).unwrap();
            let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
            let found: Vec<(usize, usize)> = variant
                .conflicts(&grid)
                .iter()
                .filter(|conflict| conflict.units.contains(unit.into()))
                .map(|conflict| (conflict.row, conflict.col))
                .collect();
            assert_eq!(found, broken, "{board}");
        }
    }
}

//! Global entropy and global mod: every 2x2 square of cells in the grid holds a digit of each
//! class, a low, a middle and a high digit (the digits' thirds) under global entropy, a digit of
//! each residue mod 3 under global mod. Each square is a window of the digit classes
//! ([`super::classes`]), as three cells in a row along a modular or entropic line are.

use super::classes::{self, WindowKind};
use super::{Builder, Family};
use crate::constraints::Constraints;
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// Adds every 2x2 square of the grid as a window of `kind` when the member `name` is on.
fn build(on: bool, name: &str, kind: WindowKind, rules: &mut Builder) -> Result<(), ConstraintError> {
    if !on {
        return Ok(());
    }
    let member = format!("constraints.{name}");
    classes::check_size(rules, &member)?;
    classes::add(rules, classes::squares(rules.shape.size()), kind, &member)
}

/// Global entropy.
pub(crate) struct GlobalEntropy;

impl Family for GlobalEntropy {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        build(constraints.global_entropy, "global_entropy", WindowKind::GlobalEntropy, rules)
    }

    /// A 2x2 square whose filled digits leave it short of a low, a middle or a high digit.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        classes::conflicts(variant, cells, broken, Unit::GlobalEntropy);
    }
}

/// Global mod.
pub(crate) struct GlobalMod;

impl Family for GlobalMod {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        build(constraints.global_mod, "global_mod", WindowKind::GlobalMod, rules)
    }

    /// A 2x2 square whose filled digits leave it short of a residue mod 3.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        classes::conflicts(variant, cells, broken, Unit::GlobalMod);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests::refused;
    use crate::grid::Grid;
    use crate::shape::Shape;

    #[test]
    fn a_grid_whose_digits_do_not_split_in_three_is_refused_naming_the_rule() {
        for member in ["global_entropy", "global_mod"] {
            let json = format!(r#"{{"{member}":true}}"#);
            assert_eq!(refused(Shape::CLASSIC, &json), None, "{json}");
            assert_eq!(refused(Shape::new(2, 3).unwrap(), &json), None, "{json}");
            assert_eq!(
                refused(Shape::new(2, 2).unwrap(), &json),
                Some(format!(
                    "`constraints.{member}`: needs a grid whose size is a multiple of 3, for its digits to split \
                     into three classes; the 4x4 grid's do not"
                )),
            );
            assert_eq!(refused(Shape::new(2, 2).unwrap(), &format!(r#"{{"{member}":false}}"#)), None);
        }
    }

    #[test]
    fn every_square_of_the_grid_is_a_window() {
        let json = r#"{"global_entropy":true,"global_mod":true}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        let variant = Variant::new(Shape::CLASSIC, None, &constraints).unwrap();
        assert_eq!(variant.windows.len(), 2 * 64);
        let kinds = |kind| variant.windows.iter().filter(|window| window.kind == kind).count();
        assert_eq!((kinds(WindowKind::GlobalEntropy), kinds(WindowKind::GlobalMod)), (64, 64));
        // A corner cell is in one square, an edge cell in two, the others in four, per rule.
        assert_eq!([0, 1, 10].map(|cell| variant.windows_of(cell).len()), [2, 4, 8]);
    }

    /// Conflicts read plainly: a square whose filled digits and empty cells cannot reach three
    /// classes.
    #[test]
    fn conflicts_are_squares_short_of_a_class() {
        let empty = "...... ...... ...... ...... ...... ......";
        for (json, board, unit, broken) in [
            // On 6x6, 1 and 2 are low, 3 and 4 middle, 5 and 6 high.
            ("global_entropy", "12.... ...... ...... ...... ...... ......", Unit::GlobalEntropy, vec![]),
            ("global_entropy", "12.... 3..... ...... ...... ...... ......", Unit::GlobalEntropy, vec![]),
            (
                "global_entropy",
                "12.... 34.... ...... ...... ...... ......",
                Unit::GlobalEntropy,
                vec![(0, 0), (0, 1), (1, 0), (1, 1)],
            ),
            // The square right of it holds 2, 5 and 4: no conflict there, only in the first.
            ("global_entropy", ".25... .34... ...... ...... ...... ......", Unit::GlobalEntropy, vec![]),
            (
                "global_entropy",
                "125... 34.... ...... ...... ...... ......",
                Unit::GlobalEntropy,
                vec![(0, 0), (0, 1), (1, 0), (1, 1)],
            ),
            // 1 and 4 leave 1 mod 3, 2 and 5 leave 2: no room for 0 mod 3.
            ("global_mod", "14.... 2..... ...... ...... ...... ......", Unit::GlobalMod, vec![]),
            (
                "global_mod",
                "14.... 25.... ...... ...... ...... ......",
                Unit::GlobalMod,
                vec![(0, 0), (0, 1), (1, 0), (1, 1)],
            ),
            ("global_mod", empty, Unit::GlobalMod, vec![]),
        ] {
            let constraints: Constraints = serde_json::from_str(&format!(r#"{{"{json}":true}}"#)).unwrap();
            let grid = Grid::parse(board, None).unwrap();
            let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
            let found: Vec<(usize, usize)> = variant
                .conflicts(&grid)
                .iter()
                .filter(|conflict| conflict.units.contains(unit.into()))
                .map(|conflict| (conflict.row, conflict.col))
                .collect();
            assert_eq!(found, broken, "{json} {board}");
        }
    }
}

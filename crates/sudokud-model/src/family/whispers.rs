//! Whispers lines: neighbours along a line differ by at least the line's difference. German
//! whispers are 5 on 9x9, Dutch whispers 4; a line without a difference takes half the grid's
//! digits, rounded up (2 on 4x4, 3 on 6x6, 4 on 8x8, 5 on 9x9, 8 on 16x16), the German rule on
//! every size: the middle digit of an odd size has no partner on the line, as 5 on 9x9.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Builder, Family, PairRule};
use crate::constraints::{Constraints, Place};
use crate::member::{self, Object, object_traits};
use crate::unit::Unit;
use crate::variant::ConstraintError;

/// One whispers line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct Whispers {
    /// The line's cells in order, each touching the next (side by side or diagonally).
    pub line: Vec<Place>,
    /// How much neighbours along the line differ at least; absent, half the grid's digits
    /// rounded up ([`default_difference`]).
    #[serde(default, deserialize_with = "member::optional_integer", skip_serializing_if = "Option::is_none")]
    pub difference: Option<u64>,
}

impl Object for Whispers {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Whispers, D::Error> {
        Whispers::deserialize(deserializer)
    }
}

object_traits!(Whispers);

impl Serialize for Whispers {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Whispers::serialize(self, serializer)
    }
}

/// The difference of a whispers line that gives none on a grid of `size`: half its digits,
/// rounded up (5 on 9x9, German whispers).
pub fn default_difference(size: usize) -> u64 {
    size.div_ceil(2) as u64
}

/// Two neighbours on a whispers line, the parameter its difference.
pub(crate) static APART: PairRule = PairRule {
    unit: Unit::Whispers,
    holds: |first, second, difference| first.abs_diff(second) >= difference,
    reason: |first, second, difference| {
        format!("{first} and {second} are neighbours on a whispers line, so they differ by at least {difference}")
    },
    increasing: false,
};

/// The whispers lines.
pub(crate) struct WhispersLines;

impl Family for WhispersLines {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        for (number, whispers) in constraints.whispers.iter().enumerate() {
            let member = format!("constraints.whispers[{number}]");
            let difference = whispers.difference.unwrap_or(default_difference(size));
            let largest = size as u64 - 1;
            if !(1..=largest).contains(&difference) {
                let message = format!(
                    "is {difference}; two digits of a {size}x{size} grid differ by 1 to {largest}, so a whispers line's difference is one of those"
                );
                return Err(ConstraintError::new(format!("{member}.difference"), message));
            }
            let line = rules.line(&whispers.line, &format!("{member}.line"))?;
            for step in line.windows(2) {
                let (first, second) = (step[0], step[1]);
                let difference = difference as u32;
                if let Some(unit) = rules.clash(first, second, &APART, difference) {
                    let message = format!(
                        "no two digits of {} and {} differ by at least {difference} and keep the {} rule between them too",
                        rules.name(first),
                        rules.name(second),
                        unit.name()
                    );
                    return Err(ConstraintError::new(format!("{member}.line"), message));
                }
                rules.relate_by(first, second, &APART, difference);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests::refused;
    use crate::shape::Shape;

    #[test]
    fn each_line_that_cannot_fit_names_its_member_and_cells() {
        let nine = Shape::CLASSIC;
        let four = Shape::new(2, 2).unwrap();
        for (shape, json, expected) in [
            (
                nine,
                r#"{"whispers":[{"line":[[0,0],[0,2]]}]}"#,
                "`constraints.whispers[0].line`: r1c1 and r1c3 do not touch",
            ),
            (
                nine,
                r#"{"whispers":[{"line":[[0,0],[0,1],[0,0]]}]}"#,
                "`constraints.whispers[0].line`: r1c1 is listed twice",
            ),
            (
                nine,
                r#"{"whispers":[{"line":[[0,0]]}]}"#,
                "`constraints.whispers[0].line`: has 1 cell; a line joins 2 cells at least",
            ),
            (
                nine,
                r#"{"whispers":[{"line":[[0,0],[0,1]],"difference":9}]}"#,
                "`constraints.whispers[0].difference`: is 9; two digits of a 9x9 grid differ by 1 to 8, so a whispers line's difference is one of those",
            ),
            (
                four,
                r#"{"whispers":[{"line":[[0,0],[0,1]],"difference":0}]}"#,
                "`constraints.whispers[0].difference`: is 0; two digits of a 4x4 grid differ by 1 to 3, so a whispers line's difference is one of those",
            ),
            (
                nine,
                r#"{"kropki":{"white":[[[4,4],[4,5]]]},"whispers":[{"line":[[4,3],[4,4],[4,5]]}]}"#,
                "`constraints.whispers[0].line`: no two digits of r5c5 and r5c6 differ by at least 5 and keep the kropki rule between them too",
            ),
        ] {
            assert_eq!(refused(shape, json).as_deref(), Some(expected), "{json}");
        }
        for (shape, json) in [
            (nine, r#"{"whispers":[{"line":[[0,0],[1,1],[2,1]]},{"line":[[5,5],[5,6]],"difference":4}]}"#),
            (four, r#"{"whispers":[{"line":[[0,0],[1,1]],"difference":3}]}"#),
        ] {
            assert_eq!(refused(shape, json), None, "{json}");
        }
    }

    #[test]
    fn the_default_difference_is_half_the_digits_rounded_up() {
        let defaults: Vec<u64> = [4, 6, 8, 9, 10, 12, 16, 25].into_iter().map(default_difference).collect();
        assert_eq!(defaults, [2, 3, 4, 5, 5, 6, 8, 13]);
    }

    #[test]
    fn a_whispers_member_is_an_object_of_its_own_members() {
        let json = r#"{"whispers":[{"line":[[0,0],[0,1]],"difference":4},{"line":[[1,1],[2,2]]}]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        assert_eq!(constraints.whispers[0].difference, Some(4));
        assert_eq!(serde_json::to_string(&constraints).unwrap(), json);
        let error = serde_json::from_str::<Constraints>(r#"{"whispers":[{"cells":[]}]}"#).unwrap_err();
        assert!(error.to_string().starts_with("unknown member `cells`; expected `line`, `difference`"), "{error}");
    }
}

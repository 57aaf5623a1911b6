//! XV: an X between two orthogonal neighbours for digits that sum to 10, a V for digits that sum
//! to 5, and, with every mark given, neither sum between two cells without a mark. The sums stay
//! 10 and 5 on every size: a V fits grids of 4x4 and up (1 + 4, 2 + 3), an X grids of 6x6 and up
//! (4 + 6; two neighbours never hold the same digit, so 5 + 5 is no X).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Builder, Family, PairRule};
use crate::constraints::{Constraints, Place};
use crate::member::{Object, object_traits};
use crate::unit::Unit;
use crate::variant::ConstraintError;

/// X and V marks, each between two orthogonal neighbours.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct Xv {
    /// X marks: the two digits sum to 10.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub x: Vec<[Place; 2]>,
    /// V marks: the two digits sum to 5.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub v: Vec<[Place; 2]>,
    /// Every mark is given: two neighbours without a mark sum to neither 10 nor 5.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_given: bool,
}

impl Xv {
    /// Whether no mark is given and `all_given` is off: the grid has no XV rule.
    pub fn is_empty(&self) -> bool {
        *self == Xv::default()
    }

    /// Whether no X or V is given (`all_given` may be on).
    pub fn has_no_marks(&self) -> bool {
        self.x.is_empty() && self.v.is_empty()
    }

    /// Every X and V of a solved grid of `size` (`cells` row-major), every mark given: the marks
    /// a generated XV puzzle is played by, taken from its solution.
    pub fn of_solution(size: usize, cells: &[u8]) -> Xv {
        let mut xv = Xv { all_given: true, ..Xv::default() };
        let place = |cell: u16| Place((usize::from(cell) / size) as u64, (usize::from(cell) % size) as u64);
        for (first, second) in super::neighbours(size) {
            let pair = [place(first), place(second)];
            match u32::from(cells[usize::from(first)]) + u32::from(cells[usize::from(second)]) {
                X_SUM => xv.x.push(pair),
                V_SUM => xv.v.push(pair),
                _ => {}
            }
        }
        xv
    }
}

impl Object for Xv {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Xv, D::Error> {
        Xv::deserialize(deserializer)
    }
}

object_traits!(Xv);

impl Serialize for Xv {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Xv::serialize(self, serializer)
    }
}

/// The sum an X stands for.
const X_SUM: u32 = 10;
/// The sum a V stands for.
const V_SUM: u32 = 5;

/// An X. Its cells are neighbours, so never the same digit: the relation says so too, for the
/// engines to take 5 from them at once.
pub(crate) static X: PairRule = PairRule {
    unit: Unit::Xv,
    holds: |first, second, _| first + second == X_SUM && first != second,
    reason: |first, second, _| {
        format!("{first} and {second} share an X, so they are two different digits summing to 10")
    },
    increasing: false,
};

/// A V.
pub(crate) static V: PairRule = PairRule {
    unit: Unit::Xv,
    holds: |first, second, _| first + second == V_SUM,
    reason: |first, second, _| format!("{first} and {second} share a V, so they sum to 5"),
    increasing: false,
};

/// Two neighbours without a mark, every mark given.
pub(crate) static NO_MARK: PairRule = PairRule {
    unit: Unit::Xv,
    holds: |first, second, _| first + second != X_SUM && first + second != V_SUM,
    reason: |first, second, _| {
        format!(
            "{first} and {second} have no X or V between them and every X and V is given, so they sum to neither 10 nor 5"
        )
    },
    increasing: false,
};

/// The X and V marks.
pub(crate) struct XvMarks;

impl Family for XvMarks {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let xv = &constraints.xv;
        let size = rules.shape.size() as u32;
        // Each marked pair, smaller cell first, and the member that marks it.
        let (mut marked, mut members) = (Vec::new(), Vec::new());
        for (marks, rule, kind, sum) in [(&xv.x, &X, "x", X_SUM), (&xv.v, &V, "v", V_SUM)] {
            for (number, mark) in marks.iter().enumerate() {
                let member = format!("constraints.xv.{kind}[{number}]");
                let (first, second) = rules.mark_cells(mark, &member)?;
                let names = format!("{} and {}", rules.name(first), rules.name(second));
                // Two different digits of 1 to `size` sum to `sum` when the larger can be `size`
                // or less and the smaller is still 1 or more: `sum - size <= size - 1`, `sum >= 3`.
                if sum > 2 * size - 1 {
                    let message = format!(
                        "{names} cannot sum to {sum}: two different digits of a {size}x{size} grid sum to {} at most",
                        2 * size - 1
                    );
                    return Err(ConstraintError::new(member, message));
                }
                let pair = (first.min(second), first.max(second));
                if let Some(earlier) = marked.iter().position(|&other| other == pair) {
                    let message = format!("{names} are marked already by `{}`", members[earlier]);
                    return Err(ConstraintError::new(member, message));
                }
                if let Some(unit) = rules.clash(first, second, rule, 0) {
                    let message = format!(
                        "no two digits of {names} sum to {sum} and keep the {} rule between them too",
                        unit.name()
                    );
                    return Err(ConstraintError::new(member, message));
                }
                marked.push(pair);
                members.push(member);
                rules.relate(first, second, rule);
            }
        }
        if xv.all_given {
            rules.relate_unmarked(&marked, &NO_MARK);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::family::tests::refused;
    use crate::shape::Shape;

    #[test]
    fn each_mark_that_cannot_fit_names_its_member_and_cells() {
        let nine = Shape::CLASSIC;
        let four = Shape::new(2, 2).unwrap();
        for (shape, json, expected) in [
            (nine, r#"{"xv":{"x":[[[0,0],[1,1]]]}}"#, "`constraints.xv.x[0]`: r1c1 and r2c2 are not side by side"),
            (
                nine,
                r#"{"xv":{"v":[[[0,0],[0,9]]]}}"#,
                "`constraints.xv.v[0]`: cell [0, 9] is outside the 9x9 grid (rows and columns 0 to 8)",
            ),
            (
                nine,
                r#"{"xv":{"x":[[[0,0],[0,1]]],"v":[[[0,1],[0,0]]]}}"#,
                "`constraints.xv.v[0]`: r1c2 and r1c1 are marked already by `constraints.xv.x[0]`",
            ),
            (
                nine,
                r#"{"xv":{"v":[[[2,2],[3,2]],[[3,2],[2,2]]]}}"#,
                "`constraints.xv.v[1]`: r4c3 and r3c3 are marked already by `constraints.xv.v[0]`",
            ),
            (
                four,
                r#"{"xv":{"x":[[[0,0],[0,1]]]}}"#,
                "`constraints.xv.x[0]`: r1c1 and r1c2 cannot sum to 10: two different digits of a 4x4 grid sum to 7 at most",
            ),
            (
                nine,
                r#"{"kropki":{"black":[[[0,0],[0,1]]]},"xv":{"v":[[[0,1],[0,0]]]}}"#,
                "`constraints.xv.v[0]`: no two digits of r1c2 and r1c1 sum to 5 and keep the kropki rule between them too",
            ),
            (
                nine,
                r#"{"kropki":{"white":[[[4,4],[5,4]]]},"xv":{"x":[[[4,4],[5,4]]]}}"#,
                "`constraints.xv.x[0]`: no two digits of r5c5 and r6c5 sum to 10 and keep the kropki rule between them too",
            ),
        ] {
            assert_eq!(refused(shape, json).as_deref(), Some(expected), "{json}");
        }
        // What fits: a V on 4x4, an X on 6x6, a V beside a white dot (2 and 3), and an X with
        // every Kropki dot given (4 and 6 are neither consecutive nor double).
        for (shape, json) in [
            (four, r#"{"xv":{"v":[[[0,0],[0,1]]],"all_given":true}}"#),
            (Shape::new(2, 3).unwrap(), r#"{"xv":{"x":[[[0,0],[0,1]]]}}"#),
            (nine, r#"{"kropki":{"white":[[[0,0],[0,1]]]},"xv":{"v":[[[0,0],[0,1]]]}}"#),
            (nine, r#"{"kropki":{"all_given":true},"xv":{"x":[[[0,0],[0,1]]]}}"#),
        ] {
            assert_eq!(refused(shape, json), None, "{json}");
        }
    }
}

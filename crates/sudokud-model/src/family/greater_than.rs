//! Greater-than signs between orthogonal neighbours: the cell the sign opens towards holds the
//! greater digit. On every size; a chain of signs, each cell greater than the next, is as long as
//! the grid has digits at most, and never comes round to where it started.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Builder, Family, PairRule};
use crate::constraints::{Constraints, Place};
use crate::member::{Object, object_traits};
use crate::unit::Unit;
use crate::variant::ConstraintError;

/// A greater-than sign on the edge between two orthogonal neighbours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct GreaterThan {
    /// The cell with the greater digit, the side the sign opens towards.
    pub greater: Place,
    /// The cell with the smaller digit, the side the sign points at.
    pub less: Place,
}

impl Object for GreaterThan {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<GreaterThan, D::Error> {
        GreaterThan::deserialize(deserializer)
    }
}

object_traits!(GreaterThan);

impl Serialize for GreaterThan {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        GreaterThan::serialize(self, serializer)
    }
}

/// A sign, from the smaller cell to the greater: the first is smaller, an order as a
/// thermometer's step is.
pub(crate) static LESS: PairRule = PairRule {
    unit: Unit::GreaterThan,
    holds: |first, second, _| first < second,
    reason: |first, second, _| format!("{second} is greater than {first} by the sign between them"),
    increasing: true,
};

/// The greater-than signs.
pub(crate) struct Signs;

impl Family for Signs {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        // Per cell, the cells the signs so far make it greater than, and less than.
        let mut below: Vec<Vec<u16>> = vec![Vec::new(); rules.shape.cells()];
        let mut above: Vec<Vec<u16>> = vec![Vec::new(); rules.shape.cells()];
        // Each sign so far, greater cell first.
        let mut signs: Vec<(u16, u16)> = Vec::new();
        for (number, sign) in constraints.greater_than.iter().enumerate() {
            let member = format!("constraints.greater_than[{number}]");
            let (greater, less) = rules.mark_cells(&[sign.greater, sign.less], &member)?;
            let (greater_name, less_name) = (rules.name(greater), rules.name(less));
            let refused = |message: String| Err(ConstraintError::new(&member, message));
            if let Some(earlier) = signs.iter().position(|&pair| pair == (greater, less)) {
                return refused(format!(
                    "{greater_name} and {less_name} have this sign already in `constraints.greater_than[{earlier}]`"
                ));
            }
            if let Some(earlier) = signs.iter().position(|&pair| pair == (less, greater)) {
                return refused(format!(
                    "{less_name} is greater than {greater_name} already by `constraints.greater_than[{earlier}]`"
                ));
            }
            if leads(&below, less, greater) {
                return refused(format!(
                    "{less_name} is greater than {greater_name} already through other signs, which this one contradicts"
                ));
            }
            if let Some(unit) = rules.clash(less, greater, &LESS, 0) {
                return refused(format!(
                    "no two digits of {greater_name} and {less_name} keep the sign and the {} rule between them too",
                    unit.name()
                ));
            }
            // Every chain was short enough before: only one through the new sign can be too long.
            let ((up, top), (down, bottom)) = (longest_chain(&above, greater), longest_chain(&below, less));
            if up + down > size {
                return refused(format!(
                    "makes a chain of {} cells, each greater than the next, from {} down to {}; digits 1 to {size} fall along {size} at most",
                    up + down,
                    rules.name(top),
                    rules.name(bottom)
                ));
            }
            below[usize::from(greater)].push(less);
            above[usize::from(less)].push(greater);
            signs.push((greater, less));
            rules.relate(less, greater, &LESS);
        }
        Ok(())
    }
}

/// Whether the signs lead from `from` to `to` along `next` (the cells each cell is greater than).
fn leads(next: &[Vec<u16>], from: u16, to: u16) -> bool {
    let mut seen = vec![false; next.len()];
    let mut stack = vec![from];
    while let Some(cell) = stack.pop() {
        if cell == to {
            return true;
        }
        for &step in &next[usize::from(cell)] {
            if !std::mem::replace(&mut seen[usize::from(step)], true) {
                stack.push(step);
            }
        }
    }
    false
}

/// The longest chain of signs from `from` along `next` (the cells each cell is greater than, or
/// less than), which make no circle: how many cells it has, and its last.
fn longest_chain(next: &[Vec<u16>], from: u16) -> (usize, u16) {
    fn walk(next: &[Vec<u16>], cell: u16, known: &mut [Option<(usize, u16)>]) -> (usize, u16) {
        if let Some(chain) = known[usize::from(cell)] {
            return chain;
        }
        let mut chain = (1, cell);
        for &step in &next[usize::from(cell)] {
            let (length, last) = walk(next, step, known);
            if length + 1 > chain.0 {
                chain = (length + 1, last);
            }
        }
        known[usize::from(cell)] = Some(chain);
        chain
    }
    walk(next, from, &mut vec![None; next.len()])
}

#[cfg(test)]
mod tests {
    use crate::family::tests::refused;
    use crate::shape::Shape;

    /// A cell as `(row, col)`.
    type At = (u8, u8);

    /// `signs` as the member's JSON, each `(greater, less)`.
    fn signs(signs: &[(At, At)]) -> String {
        let sign = |((gr, gc), (lr, lc)): &(At, At)| format!(r#"{{"greater":[{gr},{gc}],"less":[{lr},{lc}]}}"#);
        format!(r#"{{"greater_than":[{}]}}"#, signs.iter().map(sign).collect::<Vec<_>>().join(","))
    }

    #[test]
    fn each_sign_that_cannot_fit_names_its_member_and_cells() {
        let nine = Shape::CLASSIC;
        let four = Shape::new(2, 2).unwrap();
        // Around a 2x2 square, each cell greater than the next.
        let circle = [((0, 0), (0, 1)), ((0, 1), (1, 1)), ((1, 1), (1, 0)), ((1, 0), (0, 0))];
        // Down a 4x4 grid's first column and along its last row: 6 cells.
        let chain = [((0, 0), (1, 0)), ((1, 0), (2, 0)), ((3, 1), (3, 2)), ((2, 0), (3, 0)), ((3, 0), (3, 1))];
        for (shape, json, expected) in [
            (nine, signs(&[((0, 0), (1, 1))]), "`constraints.greater_than[0]`: r1c1 and r2c2 are not side by side"),
            (nine, signs(&[((0, 0), (0, 0))]), "`constraints.greater_than[0]`: r1c1 is listed twice"),
            (
                four,
                signs(&[((0, 3), (0, 4))]),
                "`constraints.greater_than[0]`: cell [0, 4] is outside the 4x4 grid (rows and columns 0 to 3)",
            ),
            (
                nine,
                signs(&[((4, 4), (4, 5)), ((4, 4), (4, 5))]),
                "`constraints.greater_than[1]`: r5c5 and r5c6 have this sign already in `constraints.greater_than[0]`",
            ),
            (
                nine,
                signs(&[((4, 4), (5, 4)), ((5, 4), (4, 4))]),
                "`constraints.greater_than[1]`: r5c5 is greater than r6c5 already by `constraints.greater_than[0]`",
            ),
            (
                nine,
                signs(&circle),
                "`constraints.greater_than[3]`: r1c1 is greater than r2c1 already through other signs, which this one contradicts",
            ),
            (
                four,
                signs(&chain),
                "`constraints.greater_than[4]`: makes a chain of 6 cells, each greater than the next, from r1c1 down to r4c3; digits 1 to 4 fall along 4 at most",
            ),
            (
                nine,
                r#"{"thermometers":[[[0,0],[0,1]]],"greater_than":[{"greater":[0,0],"less":[0,1]}]}"#.to_owned(),
                "`constraints.greater_than[0]`: no two digits of r1c1 and r1c2 keep the sign and the thermometer rule between them too",
            ),
        ] {
            assert_eq!(refused(shape, &json).as_deref(), Some(expected), "{json}");
        }
        // What fits: a chain as long as the grid has digits, the open half of the circle, a sign
        // beside a V the right way round (4 > 1), and a thermometer's step the same way.
        for (shape, json) in [
            (four, signs(&chain[..4])),
            (nine, signs(&circle[..3])),
            (four, r#"{"xv":{"v":[[[0,0],[0,1]]]},"greater_than":[{"greater":[0,0],"less":[0,1]}]}"#.to_owned()),
            (nine, r#"{"thermometers":[[[0,1],[0,0]]],"greater_than":[{"greater":[0,0],"less":[0,1]}]}"#.to_owned()),
        ] {
            assert_eq!(refused(shape, &json), None, "{json}");
        }
    }
}

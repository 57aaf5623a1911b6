//! Quadruples: a circle on the corner four cells share, holding up to four digits, each of which
//! appears among those four cells; a digit written twice appears in two of them (which can only
//! be a diagonal pair that no house keeps apart).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Builder, Family};
use crate::constraints::{Constraints, Place};
use crate::member::{Object, object_traits};
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// Most quadruples a variant may have: one per corner inside a 25x25 grid (24 x 24), which the
/// solver keeps a bit for each of.
pub const MAX_QUADRUPLES: usize = 576;

/// A quadruple's circle.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct Quadruple {
    /// The top-left cell of the four around the circle's corner (the circle is on its
    /// bottom-right corner).
    pub top_left: Place,
    /// The digits written in the circle, one to four; a digit twice for two of the cells.
    pub digits: Vec<u64>,
}

impl Object for Quadruple {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Quadruple, D::Error> {
        Quadruple::deserialize(deserializer)
    }
}

object_traits!(Quadruple);

impl Serialize for Quadruple {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Quadruple::serialize(self, serializer)
    }
}

/// A quadruple, checked: its four cells (top left, top right, bottom left, bottom right) and the
/// digits they hold among them, smallest first, a digit twice for two cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuadrupleRule {
    /// The four cells around the corner, in reading order.
    pub cells: [u16; 4],
    /// The digits, 1 to N, sorted.
    pub digits: Vec<u8>,
}

impl QuadrupleRule {
    /// What each cell may still hold given `candidates` (bit `d - 1` for digit `d`, one set per
    /// cell of [`QuadrupleRule::cells`]) and whether two cells may share a digit (`may_repeat`,
    /// by their places 0 to 3): every way of giving each written digit a cell of its own that
    /// can hold it (a digit twice, two cells that may repeat it), each cell keeping its written
    /// digit and the cells left over anything. All empty when no way is left.
    pub fn support(&self, candidates: [u32; 4], may_repeat: impl Fn(usize, usize) -> bool) -> [u32; 4] {
        let mut support = [0u32; 4];
        let mut given = [usize::MAX; 4];
        assign(&self.digits, 0, &candidates, &may_repeat, &mut given, &mut support);
        support
    }
}

/// Gives the written digits from `next` on each a cell (`given[cell]` the digit's place in
/// `digits`), in every way, adding each complete way to `support`.
fn assign(
    digits: &[u8],
    next: usize,
    candidates: &[u32; 4],
    may_repeat: &impl Fn(usize, usize) -> bool,
    given: &mut [usize; 4],
    support: &mut [u32; 4],
) {
    if next == digits.len() {
        for cell in 0..4 {
            support[cell] |= match given[cell] {
                usize::MAX => candidates[cell],
                place => 1 << (digits[place] - 1),
            };
        }
        return;
    }
    let digit = digits[next];
    // The same digit again goes to a later cell than its first, so each way is met once.
    let from = match next {
        0 => 0,
        _ if digits[next - 1] == digit => given.iter().position(|&place| place == next - 1).map_or(0, |cell| cell + 1),
        _ => 0,
    };
    for cell in from..4 {
        if given[cell] != usize::MAX || candidates[cell] >> (digit - 1) & 1 == 0 {
            continue;
        }
        let clash =
            (0..4).any(|other| given[other] != usize::MAX && digits[given[other]] == digit && !may_repeat(cell, other));
        if clash {
            continue;
        }
        given[cell] = next;
        assign(digits, next + 1, candidates, may_repeat, given, support);
        given[cell] = usize::MAX;
    }
}

/// The quadruples.
pub(crate) struct Quadruples;

impl Family for Quadruples {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        let mut corners: Vec<u16> = Vec::new();
        for (number, quadruple) in constraints.quadruples.iter().enumerate() {
            let member = format!("constraints.quadruples[{number}]");
            let top_left = rules.cell(quadruple.top_left, &format!("{member}.top_left"))?;
            let Place(row, col) = quadruple.top_left;
            if row + 1 >= size as u64 || col + 1 >= size as u64 {
                let message = format!(
                    "{} is in the last row or column: a quadruple's circle sits on the corner it shares with the cells to its right and below",
                    rules.name(top_left)
                );
                return Err(ConstraintError::new(format!("{member}.top_left"), message));
            }
            if let Some(earlier) = corners.iter().position(|&corner| corner == top_left) {
                let message = format!(
                    "the corner below and right of {} has a quadruple already in `constraints.quadruples[{earlier}]`",
                    rules.name(top_left)
                );
                return Err(ConstraintError::new(member, message));
            }
            corners.push(top_left);
            let cells = [top_left, top_left + 1, top_left + size as u16, top_left + size as u16 + 1];
            let digits = digits(rules, quadruple, &cells, &format!("{member}.digits"))?;
            rules.quadruples.push(QuadrupleRule { cells, digits });
        }
        Ok(())
    }

    /// The filled cells of a quadruple whose empty cells are too few for the written digits not
    /// yet among them.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        for rule in &variant.quadruples {
            let values = rule.cells.map(|cell| cells[usize::from(cell)]);
            if missing(&rule.digits, &values) > values.iter().filter(|&&value| value == 0).count() {
                for &cell in rule.cells.iter().filter(|&&cell| cells[usize::from(cell)] != 0) {
                    broken[usize::from(cell)].insert(Unit::Quadruple.into());
                }
            }
        }
    }
}

/// How many of the written `digits` the filled `values` (0 for empty) do not hold yet: a digit
/// written twice and filled once misses once.
pub fn missing(digits: &[u8], values: &[u8]) -> usize {
    let mut left: Vec<u8> = values.iter().copied().filter(|&value| value != 0).collect();
    let mut missing = 0;
    for &digit in digits {
        match left.iter().position(|&value| value == digit) {
            Some(at) => {
                left.swap_remove(at);
            }
            None => missing += 1,
        }
    }
    missing
}

/// The written digits, checked: one to four, each a digit of the grid, a digit twice only where a
/// diagonal pair of `cells` may repeat it (no house, cage or chess move keeps them apart).
fn digits(rules: &Builder, quadruple: &Quadruple, cells: &[u16; 4], member: &str) -> Result<Vec<u8>, ConstraintError> {
    let size = rules.shape.size() as u64;
    let refused = |message: String| Err(ConstraintError::new(member, message));
    match quadruple.digits.len() {
        0 => return refused("has no digits; a quadruple writes 1 to 4".to_owned()),
        1..=4 => {}
        count => return refused(format!("has {count} digits; four cells hold 4 at most")),
    }
    if let Some(digit) = quadruple.digits.iter().find(|&&digit| !(1..=size).contains(&digit)) {
        return refused(format!("{digit} is no digit of the {size}x{size} grid"));
    }
    let mut digits: Vec<u8> = quadruple.digits.iter().map(|&digit| digit as u8).collect();
    digits.sort_unstable();
    let twice: Vec<u8> = digits.windows(2).filter(|pair| pair[0] == pair[1]).map(|pair| pair[0]).collect();
    let names = cells.map(|cell| rules.name(cell)).join(", ");
    if let Some(&digit) = twice.windows(2).find(|pair| pair[0] == pair[1]).map(|pair| &pair[0]) {
        return refused(format!(
            "writes {digit} three times or more; of four cells around a corner only two, a diagonal pair, can hold the same digit"
        ));
    }
    let free =
        [(cells[0], cells[3]), (cells[1], cells[2])].into_iter().filter(|&(a, b)| may_repeat(rules, a, b)).count();
    if twice.len() > free {
        let which = twice.iter().map(u8::to_string).collect::<Vec<_>>().join(" and ");
        let message = match free {
            0 => format!(
                "writes {which} twice, but neither diagonal pair of {names} may repeat a digit (a house, a cage or a chess move keeps them apart)"
            ),
            _ => format!("writes {which} twice, but only one diagonal pair of {names} may repeat a digit"),
        };
        return refused(message);
    }
    Ok(digits)
}

/// Whether cells `a` and `b` may hold the same digit as far as the rules built so far say: no
/// house or cage holds both, and no chess move joins them.
pub(crate) fn may_repeat(rules: &Builder, a: u16, b: u16) -> bool {
    let size = rules.shape.size();
    let together = |cells: &[u16]| cells.contains(&a) && cells.contains(&b);
    if rules.houses.chunks_exact(size).any(together) || rules.cages.iter().any(|cage| together(&cage.cells)) {
        return false;
    }
    let (a, b) = (usize::from(a), usize::from(b));
    let step = ((b / size) as isize - (a / size) as isize, (b % size) as isize - (a % size) as isize);
    !rules.moves.iter().any(|&(down, right)| (down, right) == step || (-down, -right) == step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests::refused;
    use crate::shape::Shape;

    #[test]
    fn every_way_of_placing_the_written_digits_is_kept() {
        let all = 0x1ff;
        let rule = QuadrupleRule { cells: [0, 1, 9, 10], digits: vec![1, 2, 3, 4] };
        // Four digits for four cells: each keeps only those.
        assert_eq!(rule.support([all; 4], |_, _| false), [0b1111; 4]);
        // 4 only in the last cell: it is 4.
        let candidates = [0b0111, 0b0111, 0b0111, all];
        assert_eq!(rule.support(candidates, |_, _| false), [0b0111, 0b0111, 0b0111, 0b1000]);
        // 1 and 2 in the first two cells alone, but 3 nowhere: no way.
        assert_eq!(rule.support([0b11, 0b11, 0b11, 0b1000], |_, _| false), [0; 4]);
        // A 5 written twice goes to a diagonal pair that may repeat it; the other cells are free.
        let twice = QuadrupleRule { cells: [0, 1, 9, 10], digits: vec![5, 5] };
        let diagonal = |a: usize, b: usize| a + b == 3;
        let five = 1 << 4;
        assert_eq!(twice.support([all; 4], diagonal), [all; 4]);
        assert_eq!(twice.support([all, all & !five, all, all], diagonal), [five, all & !five, all, five]);
        assert_eq!(twice.support([all; 4], |_, _| false), [0; 4]);
    }

    #[test]
    fn missing_counts_written_digits_not_yet_filled() {
        assert_eq!(missing(&[1, 4, 6, 7], &[1, 0, 6, 0]), 2);
        assert_eq!(missing(&[5, 5], &[5, 0, 0, 0]), 1);
        assert_eq!(missing(&[5, 5], &[5, 0, 0, 5]), 0);
        assert_eq!(missing(&[2], &[1, 3, 4, 0]), 1);
    }

    #[test]
    fn quadruples_that_cannot_fit_are_refused_naming_the_cells() {
        let nine = Shape::CLASSIC;
        let quad = |at: &str, digits: &str| format!(r#"{{"quadruples":[{{"top_left":{at},"digits":{digits}}}]}}"#);
        assert_eq!(refused(nine, &quad("[0,0]", "[1,4,6,7]")), None);
        assert_eq!(
            refused(nine, &quad("[8,0]", "[1]")).as_deref(),
            Some(
                "`constraints.quadruples[0].top_left`: r9c1 is in the last row or column: a quadruple's circle sits on the corner it shares with the cells to its right and below"
            )
        );
        assert_eq!(
            refused(nine, &quad("[0,0]", "[1,2,3,4,5]")).as_deref(),
            Some("`constraints.quadruples[0].digits`: has 5 digits; four cells hold 4 at most")
        );
        assert_eq!(
            refused(nine, &quad("[0,0]", "[10]")).as_deref(),
            Some("`constraints.quadruples[0].digits`: 10 is no digit of the 9x9 grid")
        );
        // Inside box 1 no digit repeats; across the corner of four boxes a diagonal pair may.
        assert_eq!(
            refused(nine, &quad("[0,0]", "[5,5]")).as_deref(),
            Some(
                "`constraints.quadruples[0].digits`: writes 5 twice, but neither diagonal pair of r1c1, r1c2, r2c1, r2c2 may repeat a digit (a house, a cage or a chess move keeps them apart)"
            )
        );
        assert_eq!(refused(nine, &quad("[2,2]", "[5,5,6,6]")), None);
        assert!(refused(nine, &quad("[2,2]", "[5,5,5]")).unwrap().contains("three times"));
        let king = r#"{"anti_king":true,"quadruples":[{"top_left":[2,2],"digits":[5,5]}]}"#;
        assert!(refused(nine, king).unwrap().contains("neither diagonal pair"));
        let twice = r#"{"quadruples":[{"top_left":[2,2],"digits":[1]},{"top_left":[2,2],"digits":[2]}]}"#;
        assert_eq!(
            refused(nine, twice).as_deref(),
            Some(
                "`constraints.quadruples[1]`: the corner below and right of r3c3 has a quadruple already in `constraints.quadruples[0]`"
            )
        );
    }
}

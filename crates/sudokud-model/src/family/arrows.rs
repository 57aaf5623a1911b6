//! Arrows: the digits along an arrow's shaft add up to its bulb, one cell or a "pill" of two or
//! three cells read as a number, left to right and top to bottom as the community reads them (the
//! Interactive Sudoku Solver and f-puzzles alike). Digits on a shaft may repeat unless a house or
//! cage forbids.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Builder, Family};
use crate::constraints::{Constraints, Place};
use crate::member::{Object, object_traits};
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// Most arrows a variant may have: the solver keeps one bit per arrow.
pub const MAX_ARROWS: usize = 640;

/// Most cells of a pill: three digits already make 999, more than any shaft adds up to.
pub const MAX_BULB: usize = 3;

/// One arrow.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct Arrow {
    /// The bulb: one cell, or a pill of two or three cells each touching the next, read as a
    /// number left to right and top to bottom, whatever order they are listed in.
    pub bulb: Vec<Place>,
    /// The shaft's cells in order from the bulb, each touching the next, the first touching a
    /// cell of the bulb.
    pub line: Vec<Place>,
}

impl Object for Arrow {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Arrow, D::Error> {
        Arrow::deserialize(deserializer)
    }
}

object_traits!(Arrow);

impl Serialize for Arrow {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Arrow::serialize(self, serializer)
    }
}

/// An arrow, checked: its bulb's cells with each one's weight in the number, and its shaft.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArrowRule {
    /// The bulb's cells, row-major: leading digit first.
    pub bulb: Vec<u16>,
    /// The shaft's cells.
    pub shaft: Vec<u16>,
    /// The shaft's cells, then the bulb's: a one-cell bulb's arrow is the sum difference of
    /// the shaft less the bulb, 0.
    pub shaft_then_bulb: Vec<u16>,
}

impl ArrowRule {
    /// What the bulb's `k`-th cell counts for: 1 for its last digit, 10 for the one before...
    pub fn weight(&self, k: usize) -> u32 {
        10u32.pow((self.bulb.len() - 1 - k) as u32)
    }

    /// The bulb's cells and the shaft's, each with what its digit counts for on its side.
    pub fn terms(&self) -> impl Iterator<Item = (u16, u32, bool)> + '_ {
        let bulb = self.bulb.iter().enumerate().map(|(k, &cell)| (cell, self.weight(k), true));
        bulb.chain(self.shaft.iter().map(|&cell| (cell, 1, false)))
    }
}

/// The least and most each side of an arrow can make, from each cell's least and most digit
/// (`digits(cell)`, none when the cell has no digit left): `[bulb, shaft]`, each `(least, most)`.
pub fn arrow_bounds(arrow: &ArrowRule, mut digits: impl FnMut(u16) -> Option<(u32, u32)>) -> Option<[(u32, u32); 2]> {
    let mut sides = [(0, 0); 2];
    for (cell, weight, bulb) in arrow.terms() {
        let (least, most) = digits(cell)?;
        let side = &mut sides[usize::from(!bulb)];
        side.0 += weight * least;
        side.1 += weight * most;
    }
    Some(sides)
}

/// The digits a cell of an arrow may hold given both sides' `bounds` ([`arrow_bounds`]) and its
/// own least and most digit: what keeps the bulb's number within the shaft's sum's reach and the
/// other way round. `(least, most)`, least above most when none fits.
pub fn arrow_range(bounds: [(u32, u32); 2], weight: u32, bulb: bool, own: (u32, u32)) -> (u32, u32) {
    let (mine, other) = if bulb { (bounds[0], bounds[1]) } else { (bounds[1], bounds[0]) };
    // This cell's term is what the other side makes less what this side's other cells make.
    let rest_least = mine.0 - weight * own.0;
    let rest_most = mine.1 - weight * own.1;
    let low = other.0.saturating_sub(rest_most).div_ceil(weight);
    let high = other.1.saturating_sub(rest_least) / weight;
    (low.max(own.0), high.min(own.1))
}

/// `1 cell`, `3 cells`.
fn cells(count: usize) -> String {
    if count == 1 { "1 cell".to_owned() } else { format!("{count} cells") }
}

/// The arrows.
pub(crate) struct Arrows;

impl Family for Arrows {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size() as u32;
        if constraints.arrows.len() > MAX_ARROWS {
            let message = format!("has {} arrows; at most {MAX_ARROWS} are taken", constraints.arrows.len());
            return Err(ConstraintError::new("constraints.arrows", message));
        }
        for (number, arrow) in constraints.arrows.iter().enumerate() {
            let member = format!("constraints.arrows[{number}]");
            let mut bulb = rules.path(&arrow.bulb, &format!("{member}.bulb"))?;
            // Read left to right, top to bottom.
            bulb.sort_unstable();
            if bulb.len() > MAX_BULB {
                let message = format!("has {} cells; a bulb is one cell, or a pill of 2 or 3", bulb.len());
                return Err(ConstraintError::new(format!("{member}.bulb"), message));
            }
            if bulb.len() > 1 && size > 9 {
                let message =
                    format!("is a pill, read as a number, which digits above 9 of a {size}x{size} grid do not write");
                return Err(ConstraintError::new(format!("{member}.bulb"), message));
            }
            let shaft = rules.path(&arrow.line, &format!("{member}.line"))?;
            if let Some(&cell) = shaft.iter().find(|cell| bulb.contains(cell)) {
                let message = format!("{} is in its bulb too", rules.name(cell));
                return Err(ConstraintError::new(format!("{member}.line"), message));
            }
            if !bulb.iter().any(|&cell| rules.touching(cell, shaft[0], true)) {
                let message = format!("starts at {}, which touches no cell of the bulb", rules.name(shaft[0]));
                return Err(ConstraintError::new(format!("{member}.line"), message));
            }
            let shaft_then_bulb = shaft.iter().chain(&bulb).copied().collect();
            let rule = ArrowRule { bulb, shaft, shaft_then_bulb };
            let bounds = arrow_bounds(&rule, |_| Some((1, size))).expect("every digit open");
            let [(bulb_least, bulb_most), (shaft_least, shaft_most)] = bounds;
            if shaft_least > bulb_most {
                let message = format!(
                    "has {}, adding up to {shaft_least} at least, more than its bulb's {bulb_most}",
                    cells(rule.shaft.len())
                );
                return Err(ConstraintError::new(format!("{member}.line"), message));
            }
            if shaft_most < bulb_least {
                let message = format!(
                    "has {}, adding up to {shaft_most} at most, less than its bulb's {bulb_least}",
                    cells(rule.shaft.len())
                );
                return Err(ConstraintError::new(format!("{member}.line"), message));
            }
            rules.arrows.push(rule);
        }
        Ok(())
    }

    /// An arrow whose filled cells already keep its bulb's number out of its shaft's reach (each
    /// empty cell counted as 1 to N).
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        let size = variant.shape().size() as u32;
        for arrow in &variant.arrows {
            let digits = |cell: u16| match u32::from(cells[usize::from(cell)]) {
                0 => Some((1, size)),
                digit => Some((digit, digit)),
            };
            let [(bulb_least, bulb_most), (shaft_least, shaft_most)] =
                arrow_bounds(arrow, digits).expect("every cell has digits");
            if shaft_least > bulb_most || shaft_most < bulb_least {
                for (cell, _, _) in arrow.terms() {
                    if cells[usize::from(cell)] != 0 {
                        broken[usize::from(cell)].insert(Unit::Arrow.into());
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests;
    use crate::grid::Grid;
    use crate::shape::Shape;

    #[test]
    fn an_arrow_that_cannot_fit_is_refused_naming_it() {
        for (json, expected) in [
            (
                r#"{"arrows":[{"bulb":[[0,0]],"line":[[0,2]]}]}"#,
                "`constraints.arrows[0].line`: starts at r1c3, which touches no cell of the bulb",
            ),
            (
                r#"{"arrows":[{"bulb":[[0,0]],"line":[[0,1],[0,3]]}]}"#,
                "`constraints.arrows[0].line`: r1c2 and r1c4 do not touch",
            ),
            (
                r#"{"arrows":[{"bulb":[[0,0]],"line":[[0,1],[0,0]]}]}"#,
                "`constraints.arrows[0].line`: r1c1 is in its bulb too",
            ),
            (r#"{"arrows":[{"bulb":[],"line":[[0,1]]}]}"#, "`constraints.arrows[0].bulb`: has no cells"),
            (
                r#"{"arrows":[{"bulb":[[0,0],[0,1],[0,2],[0,3]],"line":[[1,0]]}]}"#,
                "`constraints.arrows[0].bulb`: has 4 cells; a bulb is one cell, or a pill of 2 or 3",
            ),
            (
                r#"{"arrows":[{"bulb":[[0,0]],"line":[[1,0],[2,0],[3,0],[4,0],[5,0],[5,1],[5,2],[5,3],[5,4],[5,5]]}]}"#,
                "`constraints.arrows[0].line`: has 10 cells, adding up to 10 at least, more than its bulb's 9",
            ),
            (
                r#"{"arrows":[{"bulb":[[0,0],[0,1]],"line":[[1,1]]}]}"#,
                "`constraints.arrows[0].line`: has 1 cell, adding up to 9 at most, less than its bulb's 11",
            ),
        ] {
            assert_eq!(tests::refused(Shape::CLASSIC, json).as_deref(), Some(expected), "{json}");
        }
        let sixteen = Shape::new(4, 4).unwrap();
        let pill = r#"{"arrows":[{"bulb":[[0,0],[0,1]],"line":[[1,1],[2,1]]}]}"#;
        assert!(tests::refused(sixteen, pill).unwrap().contains("digits above 9 of a 16x16 grid do not write"));
        assert_eq!(tests::refused(Shape::CLASSIC, pill), None);
    }

    /// Conflicts against the rule read plainly: with every cell filled, the bulb's number is
    /// the shaft's sum; before, a shaft already over the largest bulb the filled digits allow,
    /// or a bulb already over the most its shaft can make.
    #[test]
    fn conflicts_are_a_bulb_out_of_its_shafts_reach() {
        let json = r#"{"arrows":[{"bulb":[[0,0]],"line":[[0,1],[1,2]]}]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        for (board, broken) in [
            ("3... ..1. .... ....", vec![]),
            ("321. .... .... ....", vec![]),
            ("3... ..3. .... ....", vec![(0, 0), (1, 2)]),
            (".3.. ..2. .... ....", vec![(0, 1), (1, 2)]),
            ("2... ..2. .... ....", vec![(0, 0), (1, 2)]),
            ("41.. ..2. .... ....", vec![(0, 0), (0, 1), (1, 2)]),
        ] {
            let grid = Grid::parse(board, None).unwrap();
            let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
            let found: Vec<(usize, usize)> = variant
                .conflicts(&grid)
                .iter()
                .filter(|conflict| conflict.units.contains(Unit::Arrow.into()))
                .map(|conflict| (conflict.row, conflict.col))
                .collect();
            assert_eq!(found, broken, "{board}");
        }
    }

    /// A cell's range against every filling of a small arrow: the digits some filling of the
    /// other cells within their ranges completes are all inside the range.
    #[test]
    fn a_cells_range_holds_every_digit_some_filling_completes() {
        let arrow = ArrowRule { bulb: vec![0, 1], shaft: vec![2, 3, 4], shaft_then_bulb: vec![2, 3, 4, 0, 1] };
        let mut state = 3u64;
        let mut next = move |below: u32| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as u32 % below
        };
        let mut narrowed = 0;
        for _ in 0..200 {
            let ranges: Vec<(u32, u32)> = (0..5)
                .map(|_| {
                    let (a, b) = (1 + next(9), 1 + next(9));
                    (a.min(b), a.max(b))
                })
                .collect();
            let bounds = arrow_bounds(&arrow, |cell| Some(ranges[usize::from(cell)])).unwrap();
            // Per cell, the digits some filling within the ranges completes.
            let mut completed = [0u32; 5];
            for code in 0..9u32.pow(5) {
                let digits: [u32; 5] = std::array::from_fn(|index| code / 9u32.pow(index as u32) % 9 + 1);
                let inside = digits.iter().zip(&ranges).all(|(&digit, &(a, b))| (a..=b).contains(&digit));
                if inside && 10 * digits[0] + digits[1] == digits[2] + digits[3] + digits[4] {
                    completed.iter_mut().zip(digits).for_each(|(set, digit)| *set |= 1 << digit);
                }
            }
            for (at, (_, weight, bulb)) in arrow.terms().enumerate() {
                let (low, high) = arrow_range(bounds, weight, bulb, ranges[at]);
                let kept = if low > high { 0 } else { (2u32 << high) - (1 << low) };
                assert_eq!(completed[at] & !kept, 0, "{ranges:?} {at}");
                narrowed += usize::from((low, high) != ranges[at]);
            }
        }
        assert!(narrowed > 100, "{narrowed}");
    }
}

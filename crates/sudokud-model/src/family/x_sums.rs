//! X-sums: a clue beside one end of a row or column gives the sum of the line's first X digits
//! from that end, X being the first of them (the digit beside the clue: a 3 there and a clue of
//! 12 say the 3 and the next two add up to 12). A clue is `{"sum", "row" or "column", "from"}`
//! ([`super::outside`]); unlike a sandwich's, it reads differently from each end.

use super::cages::digit_sets;
use super::outside::{OutsideClue, OutsideKind, OutsideSum, RowOrColumn};
use super::{Builder, Family};
use crate::constraints::Constraints;
use crate::variant::ConstraintError;

/// One X-sum clue: the clue shape every sum beside a row or column shares.
pub type XSum = OutsideSum;

/// Per first digit X (index X - 1), the sets of the X - 1 digits after it (as bits, bit `d - 1`
/// for digit `d`, X itself never among them) that make an X-sum's sum with it; `None` where there
/// are too many to list, and the search then keeps every digit but X after it.
pub type XSumWays = Vec<Option<Vec<u32>>>;

/// The X-sums.
pub(crate) struct XSums;

impl Family for XSums {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        for (number, clue) in constraints.x_sums.iter().enumerate() {
            let member = format!("constraints.x_sums[{number}]");
            let line = RowOrColumn::read(clue.row, clue.column, size, &member)?;
            let most = (size * (size + 1) / 2) as u64;
            if clue.sum > most {
                let message = format!("a line's first X digits add up to {most} at most, not {}", clue.sum);
                return Err(ConstraintError::new(format!("{member}.sum"), message));
            }
            let sum = clue.sum as u32;
            let ways = x_sum_ways(size, sum);
            if ways.iter().all(|sets| sets.as_ref().is_some_and(Vec::is_empty)) {
                let message = format!("no first digit X and X - 1 other different digits after it add up to {sum}");
                return Err(ConstraintError::new(format!("{member}.sum"), message));
            }
            let cells = line.cells(size, clue.from);
            rules.outside_clues.push(OutsideClue {
                line,
                from: clue.from,
                cells,
                kind: OutsideKind::XSum { sum, ways },
            });
        }
        Ok(())
    }
}

/// The sets of digits after a first digit X that make `sum` with it, on a grid of `size`, by X.
pub(crate) fn x_sum_ways(size: usize, sum: u32) -> XSumWays {
    (1..=size as u32)
        .map(|first| match sum.checked_sub(first) {
            Some(rest) => digit_sets(size, first as usize - 1, rest)
                .map(|sets| sets.into_iter().filter(|set| set >> (first - 1) & 1 == 0).collect()),
            None => Some(Vec::new()),
        })
        .collect()
}

/// Keeps in `kept` the candidates of a row's or column's cells, from the clue's end
/// (`candidates`, a filled cell's digit alone), that some way of meeting an X-sum of `sum` uses:
/// a first digit X the first cell allows, a set of `ways` for the next X - 1 cells that each of
/// them has a candidate in and that they cover, and the other digits for the cells past them,
/// which likewise each take one and cover them. Which first digits fit (bit X - 1 for X), none
/// when there is no way (and `kept` is all empty).
pub fn x_sum_firsts(ways: &XSumWays, candidates: &[u32], kept: &mut [u32]) -> u32 {
    let length = candidates.len();
    let full = (1u32 << length) - 1;
    kept.iter_mut().for_each(|digits| *digits = 0);
    let mut firsts = 0;
    let mut open = candidates[0] & full;
    while open != 0 {
        let first = open.trailing_zeros() as usize + 1;
        let first_bit = open & open.wrapping_neg();
        open &= open - 1;
        let (inner, outer) = candidates[1..].split_at(first - 1);
        let Some(sets) = &ways[first - 1] else {
            // Too many sets to list: every digit but X after it.
            if candidates[1..].iter().all(|&digits| digits & !first_bit != 0) {
                firsts |= first_bit;
                kept[0] |= first_bit;
                for (kept, &digits) in kept[1..].iter_mut().zip(&candidates[1..]) {
                    *kept |= digits & !first_bit;
                }
            }
            continue;
        };
        for &set in sets {
            let rest = full & !set & !first_bit;
            if !covers(inner, set) || !covers(outer, rest) {
                continue;
            }
            firsts |= first_bit;
            kept[0] |= first_bit;
            let (kept_inner, kept_outer) = kept[1..].split_at_mut(first - 1);
            for (kept, &digits) in kept_inner.iter_mut().zip(inner) {
                *kept |= digits & set;
            }
            for (kept, &digits) in kept_outer.iter_mut().zip(outer) {
                *kept |= digits & rest;
            }
        }
    }
    firsts
}

/// Whether every one of `cells` (their candidates) may hold a digit of `set` and together they
/// may hold each of its digits: as many cells as digits, each taking one.
fn covers(cells: &[u32], set: u32) -> bool {
    cells.iter().all(|&digits| digits & set != 0)
        && cells.iter().fold(0, |covered, &digits| covered | digits) & set == set
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests;
    use crate::grid::Grid;
    use crate::shape::Shape;
    use crate::unit::Unit;
    use crate::variant::Variant;

    #[test]
    fn a_clue_that_cannot_fit_is_refused_naming_it() {
        for (json, expected) in [
            (
                r#"{"x_sums":[{"sum":46,"column":3}]}"#,
                "`constraints.x_sums[0].sum`: a line's first X digits add up to 45 at most, not 46",
            ),
            (
                r#"{"x_sums":[{"sum":2,"row":3}]}"#,
                "`constraints.x_sums[0].sum`: no first digit X and X - 1 other different digits after it add up to 2",
            ),
            (
                r#"{"x_sums":[{"sum":3,"row":9,"from":"end"}]}"#,
                "`constraints.x_sums[0].row`: row 9 is outside the 9x9 grid (rows 0 to 8)",
            ),
            (r#"{"x_sums":[{"sum":3}]}"#, "`constraints.x_sums[0]`: names no line: give its `row` or its `column`"),
        ] {
            assert_eq!(tests::refused(Shape::CLASSIC, json).as_deref(), Some(expected), "{json}");
        }
        let json = r#"{"x_sums":[{"sum":1,"column":3},{"sum":45,"row":0,"from":"end"}]}"#;
        assert_eq!(tests::refused(Shape::CLASSIC, json), None);
        // 4x4: 1; 2 + 1 = 3, 2 + 3 = 5, 2 + 4 = 6; 3 + 1 + 2 = 6 up to 3 + 2 + 4 = 9; 10.
        let small = Shape::new(2, 2).unwrap();
        for (sum, refused) in [(1, false), (2, true), (3, false), (4, true), (5, false), (8, false), (10, false)] {
            let json = format!(r#"{{"x_sums":[{{"sum":{sum},"row":0}}]}}"#);
            assert_eq!(tests::refused(small, &json).is_some(), refused, "{json}");
        }
    }

    #[test]
    fn a_clue_is_an_object_of_its_members() {
        let refused = |json: &str| serde_json::from_str::<XSum>(json).unwrap_err().to_string();
        assert!(refused(r#"{"row":0}"#).contains("missing field `sum`"));
        assert!(refused(r#"{"sum":3,"x":0}"#).contains("unknown member `x`; expected `sum`, `row`, `column`, `from`"));
        for json in [r#"{"sum":3,"row":0}"#, r#"{"sum":3,"column":8,"from":"end"}"#] {
            let clue: XSum = serde_json::from_str(json).unwrap();
            assert_eq!(serde_json::to_string(&clue).unwrap(), json);
        }
    }

    /// The first digit of a filled line and the sum of that many digits from its start.
    fn x_sum_of(line: &[u32]) -> u32 {
        line[..line[0] as usize].iter().sum()
    }

    /// The support against every filling of the line on random candidates of 4x4 and 6x6 lines:
    /// it keeps every digit a filling puts in a cell (exactly for a filled line), and finds a
    /// way whenever a filling does.
    #[test]
    fn the_support_is_what_some_filling_of_the_line_uses() {
        let mut random = crate::random::SplitMix64(9);
        let mut narrowed = 0;
        for size in [4usize, 6] {
            let full = (1u32 << size) - 1;
            for _ in 0..400 {
                let sum = 1 + random.below(size * (size + 1) / 2) as u32;
                let candidates: Vec<u32> = (0..size).map(|_| random.below(full as usize) as u32 + 1).collect();
                let mut kept = vec![0; size];
                let firsts = x_sum_firsts(&x_sum_ways(size, sum), &candidates, &mut kept);
                let mut expected = vec![0u32; size];
                tests::permutations(&mut (1..=size as u32).collect(), 0, &mut |line| {
                    let fits = line.iter().zip(&candidates).all(|(&digit, &digits)| digits >> (digit - 1) & 1 == 1);
                    if fits && x_sum_of(line) == sum {
                        for (expected, &digit) in expected.iter_mut().zip(line) {
                            *expected |= 1 << (digit - 1);
                        }
                    }
                });
                for (kept, expected) in kept.iter().zip(&expected) {
                    assert_eq!(kept & expected, *expected, "{size} {sum} {candidates:?}: {kept:?} {expected:?}");
                }
                assert_eq!(firsts & !candidates[0], 0);
                assert_eq!(firsts != 0, kept.iter().all(|&digits| digits != 0), "{candidates:?}");
                if !expected.contains(&0) {
                    assert!(firsts != 0);
                }
                if candidates.iter().all(|digits| digits.count_ones() == 1) {
                    assert_eq!(kept, expected, "{candidates:?}");
                }
                narrowed += usize::from(firsts != 0 && kept != candidates);
            }
        }
        assert!(narrowed > 100, "{narrowed}");
    }

    /// Conflicts against the rule read plainly: the filled digits leave the clue no way.
    #[test]
    fn conflicts_are_a_line_kept_from_its_x_sum() {
        // Row 1 of a 4x4 grid read from the right: its first X digits add up to 5.
        let json = r#"{"x_sums":[{"sum":5,"row":0,"from":"end"}]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        for (board, broken) in [
            ("...2 .... .... ....", vec![]),
            ("..32 .... .... ....", vec![]),
            ("..42 .... .... ....", vec![(0, 2), (0, 3)]),
            ("...1 .... .... ....", vec![(0, 3)]),
            // 3 and two more different digits make 6 at least.
            ("...3 .... .... ....", vec![(0, 3)]),
            // The 2 the clue needs at r1c4 is r1c1's: no way is left.
            ("2... .... .... ....", vec![(0, 0)]),
            ("1... .... .... ....", vec![]),
        ] {
            let grid = Grid::parse(board, None).unwrap();
            let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
            let found: Vec<(usize, usize)> = variant
                .conflicts(&grid)
                .iter()
                .filter(|conflict| conflict.units.contains(Unit::XSum.into()))
                .map(|conflict| (conflict.row, conflict.col))
                .collect();
            assert_eq!(found, broken, "{board}");
        }
    }
}

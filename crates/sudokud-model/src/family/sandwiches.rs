//! Sandwich sums: a clue beside a row or column gives the sum of the digits strictly between the
//! line's 1 and its N (9 on a 9x9 grid), wherever they stand and whichever comes first; 0 when
//! they touch. A clue is `{"sum", "row" or "column", "from"}` ([`super::outside`]); the sum reads
//! the same from either end, so `from` (by default `start`) only says where the clue is drawn.

use super::cages::digit_sets;
use super::outside::{OutsideClue, OutsideKind, OutsideSum, RowOrColumn};
use super::{Builder, Family};
use crate::constraints::Constraints;
use crate::variant::ConstraintError;

/// One sandwich clue: the clue shape every sum beside a row or column shares.
pub type Sandwich = OutsideSum;

/// Per number of cells between the 1 and the N (0 to N - 2), the sets of digits from 2 to N - 1
/// (as bits, bit `d - 1` for digit `d`) that make a sandwich's sum; `None` where there are too
/// many to list, and the search then bounds each cell by the least and most the others make.
pub type SandwichWays = Vec<Option<Vec<u32>>>;

/// The sandwiches.
pub(crate) struct Sandwiches;

impl Family for Sandwiches {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        for (number, clue) in constraints.sandwiches.iter().enumerate() {
            let member = format!("constraints.sandwiches[{number}]");
            let line = RowOrColumn::read(clue.row, clue.column, size, &member)?;
            let most = (size * (size + 1) / 2 - 1 - size) as u64;
            if clue.sum > most {
                let message =
                    format!("the digits between the 1 and the {size} add up to {most} at most, not {}", clue.sum);
                return Err(ConstraintError::new(format!("{member}.sum"), message));
            }
            let sum = clue.sum as u32;
            let ways = sandwich_ways(size, sum);
            if ways.iter().all(|sets| sets.as_ref().is_some_and(Vec::is_empty)) {
                let message = format!("no different digits from 2 to {} add up to {sum}", size - 1);
                return Err(ConstraintError::new(format!("{member}.sum"), message));
            }
            let cells = line.cells(size, clue.from);
            rules.outside_clues.push(OutsideClue {
                line,
                from: clue.from,
                cells,
                kind: OutsideKind::Sandwich { sum, ways },
            });
        }
        Ok(())
    }
}

/// The sets of digits from 2 to `size` - 1 adding up to `sum`, by how many there are.
pub(crate) fn sandwich_ways(size: usize, sum: u32) -> SandwichWays {
    // Digits 2 to N - 1 are digits 1 to N - 2 each one more: k of them add up to k more.
    (0..=size.saturating_sub(2))
        .map(|count| match sum.checked_sub(count as u32) {
            Some(less) => digit_sets(size - 2, count, less).map(|sets| sets.into_iter().map(|set| set << 1).collect()),
            None => Some(Vec::new()),
        })
        .collect()
}

/// Keeps in `kept` the candidates of a row's or column's cells (`candidates`, a filled cell's
/// digit alone) that some way of placing its 1 and its N (the line's length, the grid's size)
/// with digits adding up to `sum` between them uses: the 1 and N where their cells allow them, a
/// set of `ways` that every cell between can take part in and that they cover, each cell outside
/// any digit but the two. Whether there is a way (else `kept` is all empty).
pub fn sandwich_support(sum: u32, ways: &SandwichWays, candidates: &[u32], kept: &mut [u32]) -> bool {
    sandwich_gaps(sum, ways, candidates, kept) != 0
}

/// [`sandwich_support`], saying how many cells may lie between the 1 and the N: bit `k` for `k`
/// cells, none when there is no way.
pub fn sandwich_gaps(sum: u32, ways: &SandwichWays, candidates: &[u32], kept: &mut [u32]) -> u32 {
    // A row or column holds every digit once: its length is the grid's size.
    let (length, size) = (candidates.len(), candidates.len());
    kept.iter_mut().for_each(|digits| *digits = 0);
    let (low, high) = (1u32, 1u32 << (size - 1));
    let ends = low | high;
    // Per cell, how many cells before it cannot hold a digit between: an outside cell must.
    let mut stuck = [0usize; 33];
    for (index, &digits) in candidates.iter().enumerate() {
        stuck[index + 1] = stuck[index] + usize::from(digits & !ends == 0);
    }
    let mut between = [0u32; 32];
    // The last cell before some way's first end, and the first after some way's last end.
    let (mut before, mut after) = (0usize, length);
    let mut gaps = 0u32;
    for first in 0..length {
        if stuck[first] > 0 {
            break;
        }
        for last in first + 1..length {
            if stuck[length] - stuck[last + 1] > 0 {
                continue;
            }
            let (at_first, at_last) = (candidates[first], candidates[last]);
            let low_first = at_first & low != 0 && at_last & high != 0;
            let high_first = at_first & high != 0 && at_last & low != 0;
            if !low_first && !high_first {
                continue;
            }
            let inner = &candidates[first + 1..last];
            let inner_kept = &mut between[..inner.len()];
            if !between_support(size, sum, ways[inner.len()].as_deref(), inner, inner_kept) {
                continue;
            }
            gaps |= 1 << inner.len();
            kept[first] |= if low_first { low } else { 0 } | if high_first { high } else { 0 };
            kept[last] |= if low_first { high } else { 0 } | if high_first { low } else { 0 };
            for (kept, &digits) in kept[first + 1..last].iter_mut().zip(inner_kept.iter()) {
                *kept |= digits;
            }
            before = before.max(first);
            after = after.min(last + 1);
        }
    }
    if gaps == 0 {
        return 0;
    }
    for index in (0..before).chain(after..length) {
        kept[index] |= candidates[index] & !ends;
    }
    gaps
}

/// Keeps in `kept` the candidates of the cells between a 1 and an N that some set of `sets`
/// (digits 2 to N - 1 adding up to `sum`) uses, each cell holding one of the set's digits and
/// the cells covering it; with no list (too many sets), the digits that leave the other cells a
/// sum between the least and most their count of different digits make. Whether any is kept in
/// every cell (and some set fits, with a list).
fn between_support(size: usize, sum: u32, sets: Option<&[u32]>, inner: &[u32], kept: &mut [u32]) -> bool {
    kept.iter_mut().for_each(|digits| *digits = 0);
    let Some(sets) = sets else {
        let middle = ((1u32 << size) - 1) & !1 & !(1 << (size - 1));
        for (kept, &digits) in kept.iter_mut().zip(inner) {
            let mut open = digits & middle;
            while open != 0 {
                let digit = open.trailing_zeros() + 1;
                open &= open - 1;
                let others = middle & !(1 << (digit - 1));
                let (least, most) = extremes(others, inner.len() - 1);
                if sum >= digit && (least..=most).contains(&(sum - digit)) {
                    *kept |= 1 << (digit - 1);
                }
            }
        }
        return kept.iter().all(|&digits| digits != 0);
    };
    let mut found = false;
    for &set in sets {
        if inner.iter().any(|&digits| digits & set == 0) {
            continue;
        }
        if inner.iter().fold(0, |covered, &digits| covered | digits & set) != set {
            continue;
        }
        found = true;
        for (kept, &digits) in kept.iter_mut().zip(inner) {
            *kept |= digits & set;
        }
    }
    found
}

/// The least and most `count` different digits of `digits` (as bits) add up to.
fn extremes(digits: u32, count: usize) -> (u32, u32) {
    let listed = || (0..32u32).filter(move |bit| digits >> bit & 1 == 1).map(|bit| bit + 1);
    if (digits.count_ones() as usize) < count {
        return (u32::MAX, 0);
    }
    (listed().take(count).sum(), listed().rev().take(count).sum())
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
                r#"{"sandwiches":[{"sum":36,"column":3}]}"#,
                "`constraints.sandwiches[0].sum`: the digits between the 1 and the 9 add up to 35 at most, not 36",
            ),
            (
                r#"{"sandwiches":[{"sum":1,"row":3}]}"#,
                "`constraints.sandwiches[0].sum`: no different digits from 2 to 8 add up to 1",
            ),
            (
                r#"{"sandwiches":[{"sum":34,"row":3}]}"#,
                "`constraints.sandwiches[0].sum`: no different digits from 2 to 8 add up to 34",
            ),
            (
                r#"{"sandwiches":[{"sum":3,"row":9}]}"#,
                "`constraints.sandwiches[0].row`: row 9 is outside the 9x9 grid (rows 0 to 8)",
            ),
            (
                r#"{"sandwiches":[{"sum":3}]}"#,
                "`constraints.sandwiches[0]`: names no line: give its `row` or its `column`",
            ),
        ] {
            assert_eq!(tests::refused(Shape::CLASSIC, json).as_deref(), Some(expected), "{json}");
        }
        for json in [
            r#"{"sandwiches":[{"sum":0,"column":3},{"sum":35,"row":0,"from":"end"}]}"#,
            r#"{"sandwiches":[{"sum":2,"column":8}]}"#,
        ] {
            assert_eq!(tests::refused(Shape::CLASSIC, json), None, "{json}");
        }
        // 4x4: the digits between are 2 and 3.
        let small = Shape::new(2, 2).unwrap();
        for (sum, refused) in [(0, false), (1, true), (2, false), (3, false), (4, true), (5, false), (6, true)] {
            let json = format!(r#"{{"sandwiches":[{{"sum":{sum},"row":0}}]}}"#);
            assert_eq!(tests::refused(small, &json).is_some(), refused, "{json}");
        }
        let many = vec![r#"{"sum":0,"row":0}"#; 321].join(",");
        assert_eq!(
            tests::refused(Shape::CLASSIC, &format!(r#"{{"sandwiches":[{many}]}}"#)).as_deref(),
            Some("`constraints`: 321 clues beside rows and columns; at most 320 are taken")
        );
    }

    #[test]
    fn a_clue_is_an_object_of_its_members() {
        let refused = |json: &str| serde_json::from_str::<Sandwich>(json).unwrap_err().to_string();
        assert!(
            refused(r#"{"sum":3,"row":0,"from":"top"}"#).contains(r#"found "top"; expected one of "start", "end""#)
        );
        assert!(refused(r#"{"row":0}"#).contains("missing field `sum`"));
        assert!(
            refused(r#"{"sum":3,"col":0}"#).contains("unknown member `col`; expected `sum`, `row`, `column`, `from`")
        );
        for json in [r#"{"sum":3,"row":0}"#, r#"{"sum":3,"column":8,"from":"end"}"#] {
            let clue: Sandwich = serde_json::from_str(json).unwrap();
            assert_eq!(serde_json::to_string(&clue).unwrap(), json);
        }
    }

    /// Every way the support keeps is one a brute force over the line's fillings keeps, on
    /// random candidates of 4x4 and 6x6 lines.
    #[test]
    fn the_support_is_what_some_filling_of_the_line_uses() {
        let mut random = crate::random::SplitMix64(7);
        for size in [4usize, 6] {
            let full = (1u32 << size) - 1;
            for _ in 0..400 {
                let sum = random.below(size * (size + 1) / 2 - size) as u32;
                let candidates: Vec<u32> = (0..size).map(|_| random.below(full as usize) as u32 + 1).collect();
                let mut kept = vec![0; size];
                let found = sandwich_support(sum, &sandwich_ways(size, sum), &candidates, &mut kept);
                // Brute force: every permutation of the digits that fits the candidates.
                let mut expected = vec![0u32; size];
                let mut line: Vec<u32> = (1..=size as u32).collect();
                tests::permutations(&mut line, 0, &mut |line| {
                    let fits = line.iter().zip(&candidates).all(|(&digit, &digits)| digits >> (digit - 1) & 1 == 1);
                    if fits && sandwich_of(line, size as u32) == sum {
                        for (expected, &digit) in expected.iter_mut().zip(line) {
                            *expected |= 1 << (digit - 1);
                        }
                    }
                });
                // The support is exact up to the line's digits differing across its parts.
                for (kept, expected) in kept.iter().zip(&expected) {
                    assert_eq!(kept & expected, *expected, "{size} {sum} {candidates:?}: {kept:?} {expected:?}");
                }
                assert_eq!(found, kept.iter().all(|&digits| digits != 0));
                if expected.contains(&0) {
                    continue;
                }
                assert!(found);
            }
        }
    }

    /// The sum between the 1 and the largest digit of a filled line.
    fn sandwich_of(line: &[u32], size: u32) -> u32 {
        let one = line.iter().position(|&digit| digit == 1).unwrap();
        let top = line.iter().position(|&digit| digit == size).unwrap();
        line[one.min(top) + 1..one.max(top)].iter().sum()
    }

    /// Conflicts against the rule read plainly: the filled digits leave no place for the 1 and
    /// the N with the sum between.
    #[test]
    fn conflicts_are_a_line_kept_from_its_sandwich() {
        // Row 1 of a 4x4 grid: 2 between the 1 and the 4.
        let json = r#"{"sandwiches":[{"sum":2,"row":0}]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        for (board, broken) in [
            ("1... .... .... ....", vec![]),
            ("12.. .... .... ....", vec![]),
            ("124. .... .... ....", vec![]),
            ("14.. .... .... ....", vec![(0, 0), (0, 1)]),
            ("13.. .... .... ....", vec![(0, 0), (0, 1)]),
            ("1.4. .... .... ....", vec![]),
            ("1..4 .... .... ....", vec![(0, 0), (0, 3)]),
            ("...4 .... .... ....", vec![]),
            (".3.. .... .... ....", vec![(0, 1)]),
            ("3... .... .... ....", vec![]),
        ] {
            let grid = Grid::parse(board, None).unwrap();
            let variant = Variant::new(grid.shape(), None, &constraints).unwrap();
            let found: Vec<(usize, usize)> = variant
                .conflicts(&grid)
                .iter()
                .filter(|conflict| conflict.units.contains(Unit::Sandwich.into()))
                .map(|conflict| (conflict.row, conflict.col))
                .collect();
            assert_eq!(found, broken, "{board}");
        }
    }
}

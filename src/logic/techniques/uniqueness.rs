//! Uniqueness rectangle type 1. Four blank cells in two rows, two columns and two boxes that
//! could all be x or y would let a solution swap x and y around the rectangle and stay valid: a
//! deadly pattern, impossible in a puzzle with one solution. So when three corners are exactly
//! {x,y}, the fourth corner must be something else and loses x and y. Valid only because the
//! callers guarantee a unique puzzle.

use crate::logic::grid::{Grid, digits};
use crate::logic::step::{Deduction, cell_list, cell_name, digit_list};

/// The first rectangle (rows, then columns, in order) with three corners equal to one pair.
pub(super) fn unique_rectangle_1(grid: &Grid, out: &mut Deduction) -> bool {
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    // Two boxes: the rows share a band or the columns a stack, not both.
                    if (r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3) {
                        continue;
                    }
                    let corners = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                    if rectangle(grid, out, corners) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

fn rectangle(grid: &Grid, out: &mut Deduction, corners: [usize; 4]) -> bool {
    let masks = corners.map(|cell| grid.candidates(cell));
    let pair = masks.iter().fold(0x1ff, |acc, &mask| acc & mask);
    let exact = masks.iter().filter(|&&mask| mask == pair).count();
    if pair.count_ones() != 2 || exact != 3 {
        return false;
    }
    let Some(&extra) = corners.iter().find(|&&cell| grid.candidates(cell) != pair) else { return false };
    out.reset();
    out.cells.extend(corners);
    out.digits.extend(digits(pair));
    out.eliminate_digits(grid, extra, pair);
    out.finish()
}

/// "r1c1, r1c4 and r2c1 can only be 3 or 8; if r2c4 were too, 3 and 8 could swap around the
/// rectangle and the puzzle would not be unique, so r2c4 can't be 3 or 8."
pub(super) fn describe(deduction: &Deduction) -> String {
    let extra = deduction.eliminations[0].index();
    let others = cell_list(deduction.cells.iter().copied().filter(|&cell| cell != extra));
    let (extra, pair) = (cell_name(extra), digit_list(deduction.digits.iter().copied(), "or"));
    let swap = digit_list(deduction.digits.iter().copied(), "and");
    format!(
        "{others} can only be {pair}; if {extra} were too, {swap} could swap around the rectangle and the puzzle would \
         not be unique, so {extra} can't be {pair}."
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::step::Technique;
    use crate::logic::techniques::testing::{cand, run, sparse};

    #[test]
    fn type_1_clears_the_pair_from_the_fourth_corner() {
        let grid = sparse(&[(1, 1, &[3, 8]), (1, 4, &[3, 8]), (2, 1, &[3, 8]), (2, 4, &[3, 8, 5, 6])]);
        let step = run(Technique::UniqueRectangle1, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(2, 4, 3), cand(2, 4, 8)]);
        assert_eq!(
            describe(&step),
            "r1c1, r1c4 and r2c1 can only be 3 or 8; if r2c4 were too, 3 and 8 could swap around the rectangle and \
             the puzzle would not be unique, so r2c4 can't be 3 or 8."
        );
    }

    #[test]
    fn no_rectangle_in_four_boxes_or_with_two_extra_corners() {
        // Rows 1 and 4, columns 1 and 4: four boxes, no deadly pattern.
        let grid = sparse(&[(1, 1, &[3, 8]), (1, 4, &[3, 8]), (4, 1, &[3, 8]), (4, 4, &[3, 8, 5])]);
        assert!(run(Technique::UniqueRectangle1, &grid).is_none());
        let grid = sparse(&[(1, 1, &[3, 8]), (1, 4, &[3, 8, 6]), (2, 1, &[3, 8]), (2, 4, &[3, 8, 5])]);
        assert!(run(Technique::UniqueRectangle1, &grid).is_none());
    }
}

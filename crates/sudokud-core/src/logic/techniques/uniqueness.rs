//! Uniqueness rectangle type 1. Four blank cells in two rows, two columns and two boxes that
//! could all be x or y would let a solution swap x and y around the rectangle and stay valid: a
//! deadly pattern, impossible in a puzzle with one solution. So when three corners are exactly
//! {x,y}, the fourth corner must be something else and loses x and y. Valid only because the
//! callers guarantee a unique puzzle.

use crate::logic::grid::{Grid, digits, house_cells, ones};
use crate::logic::step::{Deduction, cell_list, digit_list};
use crate::position::{Cell, HouseKind};

/// The first rectangle with three corners equal to one pair. Of those three, two share the row
/// the fourth is not in, so the search starts from two equal two-candidate cells in a row and
/// tries every other row for the remaining corners.
pub(super) fn unique_rectangle_1(grid: &Grid, out: &mut Deduction) -> bool {
    let bivalue = grid.cells_with_count(2);
    for a in ones(bivalue) {
        let (a, pair) = (Cell::at(a), grid.candidates(a));
        let row = a.house(HouseKind::Row);
        for b in ones(bivalue & house_cells(row)).filter(|&b| b > a.index() && grid.candidates(b) == pair) {
            let b = Cell::at(b);
            let (column_a, column_b) = (a.house(HouseKind::Column), b.house(HouseKind::Column));
            for other_row in (0..9).filter(|&other_row| other_row != a.row()) {
                let (c, d) = (column_a.cell(other_row), column_b.cell(other_row));
                // Two boxes: a shares its box with b (the columns share a stack) or with c (the
                // rows share a band), not both.
                let box_of = |cell: Cell| cell.house(HouseKind::Box);
                let two_boxes = (box_of(a) == box_of(b)) != (box_of(a) == box_of(c));
                if two_boxes && rectangle(grid, out, [a, b, c, d].map(Cell::index)) {
                    return true;
                }
            }
        }
    }
    false
}

/// Records the rectangle if, of the corners `c` and `d` opposite the pair cells `a` and `b`, one
/// is exactly the pair and the other holds it and more.
fn rectangle(grid: &Grid, out: &mut Deduction, [a, b, c, d]: [usize; 4]) -> bool {
    let pair = grid.candidates(a);
    let holds_more = |cell: usize| grid.candidates(cell) & pair == pair && grid.candidates(cell) != pair;
    let extra = match () {
        () if grid.candidates(c) == pair && holds_more(d) => d,
        () if grid.candidates(d) == pair && holds_more(c) => c,
        () => return false,
    };
    let mut corners = [a, b, c, d];
    corners.sort_unstable();
    out.reset();
    out.add_cells(corners);
    out.add_digits(digits(pair));
    out.eliminate_digits(grid, extra, pair);
    out.finish()
}

/// "r1c1, r1c4 and r2c1 can only be 3 or 8; if r2c4 were too, 3 and 8 could swap around the
/// rectangle and the puzzle would not be unique, so r2c4 can't be 3 or 8."
pub(super) fn describe(deduction: &Deduction) -> String {
    let extra = deduction.eliminations[0].cell;
    let others = cell_list(deduction.cells.iter().copied().filter(|&cell| cell != extra));
    let pair = digit_list(deduction.digits.iter().copied(), "or");
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

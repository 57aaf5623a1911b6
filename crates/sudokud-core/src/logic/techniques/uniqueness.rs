//! Uniqueness: the rectangle of type 1 and BUG+1.
//!
//! Uniqueness rectangle type 1. Four blank cells in two rows, two columns and two boxes that
//! could all be x or y would let a solution swap x and y around the rectangle and stay valid: a
//! deadly pattern, impossible in a puzzle with one solution. So when three corners are exactly
//! {x,y}, the fourth corner must be something else and loses x and y.
//!
//! BUG+1 (bivalue universal grave plus one). A grid whose open cells all have two candidates,
//! each candidate in exactly two cells of every house, has no solution or several: its
//! candidates split into two colourings that both fit. So when every open cell but one is
//! like that and the one has three candidates, its third (the one in three cells of each of its
//! houses) must be its value.
//!
//! Both are valid only because the callers guarantee a unique puzzle.

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, digits, seeing_all};
use crate::logic::step::{Deduction, cell_list, digit_list, eliminated_cells, join, symbol};
use crate::position::HouseKind;

/// The first rectangle with three corners equal to one pair. Of those three, two share the row
/// the fourth is not in, so the search starts from two equal two-candidate cells in a row and
/// tries every other row for the remaining corners.
pub(super) fn unique_rectangle_1<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let geometry = grid.geometry();
    let side = geometry.side();
    let bivalue = grid.cells_with_count(2);
    for a in bivalue.ones() {
        let pair = grid.candidates(a);
        let row = geometry.house_of(a, HouseKind::Row);
        for b in (bivalue & geometry.cells(row)).ones().filter(|&b| b > a && grid.candidates(b) == pair) {
            for other_row in (0..side).filter(|&other_row| other_row != a / side) {
                let (c, d) = (other_row * side + a % side, other_row * side + b % side);
                // Two boxes (or regions), each holding two corners: a shares its box with b and
                // c with d, or a with c and b with d.
                let box_of = |cell: usize| geometry.house_of(cell, HouseKind::Box);
                let two_boxes = (box_of(a) == box_of(b) && box_of(c) == box_of(d) && box_of(a) != box_of(c))
                    || (box_of(a) == box_of(c) && box_of(b) == box_of(d) && box_of(a) != box_of(b));
                if two_boxes && swap_keeps_extras(grid, [a, b, c, d]) && rectangle(grid, out, [a, b, c, d]) {
                    return true;
                }
            }
        }
    }
    false
}

/// Whether swapping the pair across the rectangle `a b / c d` keeps every house beyond rows,
/// columns and boxes (a diagonal, an extra region) free of repeats: each holds none of the
/// corners, or two in one row or column, which swap with each other.
fn swap_keeps_extras<C: CellSet>(grid: &Grid<C>, [a, b, c, d]: [usize; 4]) -> bool {
    let geometry = grid.geometry();
    let corners = [a, b, c, d].iter().fold(C::EMPTY, |acc, &cell| acc | C::cell(cell));
    let sides = [[a, b], [c, d], [a, c], [b, d]].map(|[x, y]| C::cell(x) | C::cell(y));
    geometry.extras().all(|house| {
        let held = geometry.cells(house) & corners;
        held.is_empty() || sides.contains(&held)
    })
}

/// BUG+1: the one open cell with three candidates, every other with two, and every candidate in
/// exactly two cells of each house but the added one, in three cells of the odd cell's houses.
pub(super) fn bug_plus_one<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let odd = grid.blanks() & !grid.cells_with_count(2);
    if !odd.is_single() || (odd & grid.cells_with_count(3)).is_empty() {
        return false;
    }
    let cell = odd.lowest();
    let Some(added) = digits(grid.candidates(cell)).find(|&digit| grave_without(grid, odd, digit)) else {
        return false;
    };
    out.add_cells([cell]);
    out.add_digits([added]);
    out.place(cell, added)
}

/// BUG type 2: two or more open cells with three candidates, every other with two, that all add
/// the same candidate to a grave: one of them holds it, so every cell seeing them all loses it.
pub(super) fn bug_type_2<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let odd = grid.blanks() & !grid.cells_with_count(2);
    if !odd.more_than(1) || !(odd & !grid.cells_with_count(3)).is_empty() {
        return false;
    }
    let shared = odd.ones().fold(u32::MAX, |shared, cell| shared & grid.candidates(cell));
    let Some(added) = digits(shared).find(|&digit| grave_without(grid, odd, digit)) else {
        return false;
    };
    let cells: Vec<usize> = odd.ones().collect();
    out.add_cells(cells.iter().copied());
    out.add_digits([added]);
    out.eliminate(seeing_all(grid, added, &cells), added);
    out.finish()
}

/// Whether, with `digit` taken out of the `odd` cells, every house holds each candidate in no
/// cell or in two: a bivalue universal grave (the other open cells have two candidates).
fn grave_without<C: CellSet>(grid: &Grid<C>, odd: C, digit: u8) -> bool {
    let geometry = grid.geometry();
    (0..geometry.house_count()).all(|house| {
        let odd_here = (odd & geometry.cells(house)).count() as u32;
        (1..=geometry.side() as u8).all(|candidate| {
            let count = grid.positions(house, candidate).count_ones() - if candidate == digit { odd_here } else { 0 };
            count == 0 || count == 2
        })
    })
}

/// Records the rectangle if, of the corners `c` and `d` opposite the pair cells `a` and `b`, one
/// is exactly the pair and the other holds it and more.
fn rectangle<C: CellSet>(grid: &Grid<C>, out: &mut Deduction, [a, b, c, d]: [usize; 4]) -> bool {
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
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let extra = deduction.eliminations[0].cell;
    let others = cell_list(geometry, deduction.cells.iter().copied().filter(|&cell| cell != extra));
    let extra = geometry.cell_name(extra);
    let pair = digit_list(deduction.digits.iter().copied(), "or");
    let swap = digit_list(deduction.digits.iter().copied(), "and");
    format!(
        "{others} can only be {pair}; if {extra} were too, {swap} could swap around the rectangle and the puzzle would \
         not be unique, so {extra} can't be {pair}."
    )
}

/// BUG+1: "Every open cell but r5c5 has two candidates, each in two cells of every row, column
/// and box; r5c5 adds 7, in three cells of its row, column and box, so if r5c5 weren't 7 the
/// puzzle would not have one solution: r5c5 = 7." Type 2 says the same of several cells and
/// removes the digit from the cells that see them all. The houses are the geometry's kinds:
/// "every row, column, region and diagonal" on a jigsaw X grid.
pub(super) fn describe_bug<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let digit = symbol(deduction.digits[0]);
    let cells = cell_list(geometry, deduction.cells.iter().copied());
    let grave = format!("two candidates, each in two cells of every {}", kinds(geometry, 0..geometry.house_count()));
    match &deduction.placements[..] {
        [placed] => {
            let cell = geometry.cell_name(placed.cell);
            let its = kinds(geometry, geometry.houses_of(placed.cell));
            format!(
                "Every open cell but {cell} has {grave}; {cell} adds {digit}, in three cells of its {its}, so if \
                 {cell} weren't {digit} the puzzle would not have one solution: {cell} = {digit}."
            )
        }
        _ => format!(
            "Every open cell but {cells} has {grave}; those each add {digit}, so one of them is {digit} or the \
             puzzle would not have one solution, and {} can't be {digit}.",
            eliminated_cells(geometry, deduction)
        ),
    }
}

/// "row, column and box": the kinds of `houses`, each once, in order.
fn kinds<C: CellSet>(geometry: &Geometry<C>, houses: impl Iterator<Item = usize>) -> String {
    let mut kinds: Vec<&str> = Vec::new();
    for kind in houses.map(|house| geometry.kind_name(house)) {
        if !kinds.contains(&kind) {
            kinds.push(kind);
        }
    }
    join(kinds.into_iter().map(String::from), "and")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::cells::Wide;
    use crate::logic::step::{CellDigit, Technique};
    use crate::logic::techniques::testing::{cand, run, sparse, sparse_over};
    use crate::rules::Unit;

    /// The one step of `technique` on the path of `puzzle` (from the public-domain SE-rated
    /// exchange set), the solution, and the path's rating.
    fn only_step(puzzle: &str, technique: Technique) -> (crate::logic::Step, crate::board::Board, f32) {
        use crate::interrupt::Never;
        use crate::solver::{Outcome, solve};
        let puzzle: crate::board::Board = puzzle.parse().unwrap();
        let Outcome::Unique(solution) = solve(&puzzle) else { panic!("a proper puzzle") };
        let explained = crate::logic::explain(&puzzle, &solution, &mut Never).unwrap();
        assert_eq!(explained.solution, solution);
        let mut steps = explained.steps.into_iter().filter(|step| step.technique == technique);
        let step = steps.next().expect("a step of the technique");
        assert!(steps.next().is_none(), "one step of {technique:?}");
        (step, solution, explained.rating.rating)
    }

    /// SE rates this puzzle 5.6 for its BUG+1: our one BUG+1 step places the solution's digit,
    /// and the path rates 5.6 too.
    #[test]
    fn bug_plus_one_places_the_added_candidate() {
        let puzzle = "324..9..5..1...2.3.5...2.894.8.3.......7.4.......9.4.181.4...5.5.6...8..7..8..614";
        let (step, solution, rating) = only_step(puzzle, Technique::BugPlusOne);
        let placed = step.placements[0];
        assert_eq!(solution.get(placed.cell.row().into(), placed.cell.col().into()), placed.digit.get());
        let (cell, digit) = (placed.cell, placed.digit);
        assert!(step.explanation.starts_with(&format!("Every open cell but {cell} has two candidates")));
        assert!(step.explanation.ends_with(&format!("{cell} = {digit}.")));
        assert_eq!(rating, 5.6);
    }

    /// SE rates this one 5.7: our one BUG type 2 step's eliminations are borne out by the
    /// solution, and the path rates 5.7.
    #[test]
    fn bug_type_2_clears_the_added_candidate_from_cells_seeing_the_odd_ones() {
        let puzzle = ".6.1..5......23..63.7...9...3.2.9..4.9..5..8.5..4.8.3...9...4.14..89......3..1.9.";
        let (step, solution, rating) = only_step(puzzle, Technique::BugType2);
        assert!(step.cells.len() >= 2 && !step.eliminations.is_empty());
        for lost in &step.eliminations {
            assert_ne!(solution.get(lost.cell.row().into(), lost.cell.col().into()), lost.digit.get());
        }
        assert!(step.explanation.contains("so one of them is"), "{}", step.explanation);
        assert_eq!(rating, 5.7);
    }

    /// Without the grave around it a three-candidate cell proves nothing.
    #[test]
    fn no_bug_without_a_grave() {
        let grid = sparse(&[(1, 1, &[1, 2, 3]), (1, 2, &[1, 2]), (2, 1, &[1, 3])]);
        assert!(run(Technique::BugPlusOne, &grid).is_none());
        assert!(run(Technique::BugType2, &grid).is_none());
    }

    #[test]
    fn type_1_clears_the_pair_from_the_fourth_corner() {
        let grid = sparse(&[(1, 1, &[3, 8]), (1, 4, &[3, 8]), (2, 1, &[3, 8]), (2, 4, &[3, 8, 5, 6])]);
        let step = run(Technique::UniqueRectangle1, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(2, 4, 3), cand(2, 4, 8)]);
        assert_eq!(
            describe(Geometry::classic(), &step),
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

    #[test]
    fn on_16x16_a_rectangle_spans_two_boxes() {
        let geometry: Geometry<Wide<4>> =
            Geometry::of_shape(crate::sizes::Shape::default_for(16).unwrap()).expect("16x16 fits");
        // Rows 1 and 2 share a band of 4x4 boxes, columns 1 and 5 lie in two of them.
        let corners = |row: usize, fourth: &'static [u8]| -> [(usize, usize, &'static [u8]); 4] {
            [(1, 1, &[3, 8]), (1, 5, &[3, 8]), (row, 1, &[3, 8]), (row, 5, fourth)]
        };
        let step = run(Technique::UniqueRectangle1, &sparse_over(&geometry, &corners(2, &[3, 8, 5, 6]))).unwrap();
        let r2c5 = 16 + 4;
        assert_eq!(step.eliminations, [CellDigit { cell: r2c5, digit: 3 }, CellDigit { cell: r2c5, digit: 8 }]);
        assert_eq!(
            describe(&geometry, &step),
            "r1c1, r1c5 and r2c1 can only be 3 or 8; if r2c5 were too, 3 and 8 could swap around the rectangle and \
             the puzzle would not be unique, so r2c5 can't be 3 or 8."
        );
        // Rows 1 and 5: four boxes, no deadly pattern.
        assert!(run(Technique::UniqueRectangle1, &sparse_over(&geometry, &corners(5, &[3, 8, 5]))).is_none());
    }

    #[test]
    fn a_bug_names_the_houses_of_its_grid() {
        // An X grid: rows, columns, boxes and both diagonals.
        let row = |r: u16| (0..9).map(move |c| 9 * r + c).collect();
        let column = |c: u16| (0..9).map(move |r| 9 * r + c).collect();
        let square = |b: u16| (0..9).map(move |i| b / 3 * 27 + b % 3 * 3 + i / 3 * 9 + i % 3).collect();
        let mut houses: Vec<(Unit, Vec<u16>)> = (0..9).map(|r| (Unit::Row, row(r))).collect();
        houses.extend((0..9).map(|c| (Unit::Column, column(c))));
        houses.extend((0..9).map(|b| (Unit::Box, square(b))));
        houses.push((Unit::Diagonal, (0..9).map(|i| 10 * i).collect()));
        houses.push((Unit::AntiDiagonal, (0..9).map(|i| 8 * i + 8).collect()));
        let geometry: Geometry = Geometry::of_houses(9, houses).expect("an X grid");
        let bug_at = |cell: usize| {
            let mut step = Deduction::new();
            step.start(Technique::BugPlusOne);
            step.add_cells([cell]);
            step.add_digits([7]);
            step.place(cell, 7);
            describe_bug(&geometry, &step)
        };
        assert_eq!(
            bug_at(40),
            "Every open cell but r5c5 has two candidates, each in two cells of every row, column, box, diagonal and \
             anti-diagonal; r5c5 adds 7, in three cells of its row, column, box, diagonal and anti-diagonal, so if \
             r5c5 weren't 7 the puzzle would not have one solution: r5c5 = 7."
        );
        assert!(bug_at(1).contains("in three cells of its row, column and box, so"), "{}", bug_at(1));
    }
}

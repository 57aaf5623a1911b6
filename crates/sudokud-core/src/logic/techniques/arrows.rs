//! A variant's arrows: a bulb's number is its shaft's sum, so each cell keeps only the digits
//! that leave the bulb within the least and most the shaft can add up to, and the other way
//! round (a pill's digits weighted as its number's).

use sudokud_model::family::arrows::{arrow_bounds, arrow_range};
use sudokud_model::variant::ArrowRule;

use crate::logic::cells::CellSet;
use crate::logic::grid::{Grid, bit};
use crate::logic::step::{Deduction, cell_list, eliminated_cells};

use super::sums::lost_digits;

/// The least and most digit of `cell` in `grid` (its digit, once placed).
fn range<C: CellSet>(grid: &Grid<C>, cell: u16) -> Option<(u32, u32)> {
    let digits = match grid.value(usize::from(cell)) {
        0 => grid.candidates(usize::from(cell)),
        value => bit(value),
    };
    (digits != 0).then(|| (digits.trailing_zeros() + 1, 32 - digits.leading_zeros()))
}

/// A cell of an arrow holding a candidate that puts its bulb out of its shaft's reach, or its
/// shaft out of its bulb's: one cell's eliminations per step.
pub(super) fn arrow<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    for (number, arrow) in rules.arrows.iter().enumerate() {
        let Some(bounds) = arrow_bounds(arrow, |cell| range(grid, cell)) else { continue };
        for (cell, weight, bulb) in arrow.terms() {
            let Some(own) = range(grid, cell) else { continue };
            let (low, high) = arrow_range(bounds, weight, bulb, own);
            let kept = if low > high { 0 } else { (2u32 << (high - 1)) - (1 << (low - 1)) };
            out.eliminate_digits(grid, usize::from(cell), !kept);
            if out.finish() {
                out.add_cells(arrow.terms().map(|(cell, _, _)| usize::from(cell)));
                out.rule = number;
                return true;
            }
        }
    }
    false
}

/// `r1c1 is the sum of r1c2 and r1c3 on its arrow: the shaft adds up to 2 to 18 and the bulb is 1
/// to 9, so r1c1 can't be 1.`, read off `grid` before the step.
pub(super) fn describe<C: CellSet>(grid: &Grid<C>, deduction: &Deduction) -> String {
    let geometry = grid.geometry();
    let rules = geometry.rules().expect("an arrow step is found only on a variant");
    let arrow: &ArrowRule = &rules.arrows[deduction.rule];
    let names = |cells: &[u16]| cell_list(geometry, cells.iter().map(|&cell| usize::from(cell)));
    let [(bulb_least, bulb_most), (shaft_least, shaft_most)] =
        arrow_bounds(arrow, |cell| range(grid, cell)).expect("a step is found where every cell has digits");
    let (bulb, is, its, makes) = match arrow.bulb.len() {
        1 => (names(&arrow.bulb), "is", "its", "the bulb is"),
        _ => (format!("{}, read as a number,", names(&arrow.bulb)), "are", "their", "the pill reads"),
    };
    format!(
        "{bulb} {is} the sum of {} on {its} arrow: the shaft adds up to {shaft_least} to {shaft_most} and {makes} \
         {bulb_least} to {bulb_most}, so {} can't be {}.",
        names(&arrow.shaft),
        eliminated_cells(geometry, deduction),
        lost_digits(deduction)
    )
}

#[cfg(test)]
mod tests {
    use crate::logic::step::Technique;
    use crate::logic::techniques::renban::tests::{iss_example_steps, sentences};

    /// On an empty grid a bulb over two shaft cells is 2 or more and each shaft cell at most 8,
    /// by bounds alone; a pill over three shaft cells reads at most 27, so its leading digit is
    /// 1 or 2.
    #[test]
    fn an_arrow_bounds_its_bulb_and_its_shaft() {
        let said = sentences(Technique::Arrow, r#"{"arrows":[{"bulb":[[0,0]],"line":[[0,1],[0,2]]}]}"#, &[0; 81]);
        assert_eq!(
            said,
            [
                "r1c1 is the sum of r1c2 and r1c3 on its arrow: the shaft adds up to 2 to 18 and the bulb is 1 to 9, so r1c1 can't be 1.",
                "r1c1 is the sum of r1c2 and r1c3 on its arrow: the shaft adds up to 2 to 18 and the bulb is 2 to 9, so r1c2 can't be 9.",
                "r1c1 is the sum of r1c2 and r1c3 on its arrow: the shaft adds up to 2 to 17 and the bulb is 2 to 9, so r1c3 can't be 9.",
            ]
        );
        let pill = r#"{"arrows":[{"bulb":[[4,5],[4,4]],"line":[[5,4],[6,4],[7,4]]}]}"#;
        let said = sentences(Technique::Arrow, pill, &[0; 81]);
        let first = "r5c5 and r5c6, read as a number, are the sum of r6c5, r7c5 and r8c5 on their arrow: the shaft adds up to 3 to 27 and the pill reads 11 to 99, so r5c5 can't be 3, 4, 5, 6, 7, 8 or 9.";
        assert_eq!(said[0], first);
    }

    /// ISS's arrow examples (MIT) explained through to their published solutions, every step
    /// checked against them, arrow steps among them.
    #[test]
    fn the_iss_arrow_examples_are_explained_to_their_solutions() {
        for name in ["Arrow", "Pill Arrow Sudoku"] {
            let arrows = iss_example_steps(name, Technique::Arrow);
            assert!(arrows.len() >= 3, "{name}: {arrows:?}");
        }
    }
}

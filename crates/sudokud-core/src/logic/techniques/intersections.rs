//! Locked candidates. When a digit's candidates in one house all lie where it crosses a second
//! house, the digit must go in that crossing, so the rest of the second house loses it. From a box
//! into a line that is pointing; from a line into a box, claiming. Where the rules add houses (a
//! diagonal, a window), any house may be the second, as in the grid-size engine.

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::Grid;
use crate::logic::step::{Deduction, eliminated_cells, symbol};
use crate::logic::techniques::Changed;
use crate::position::HouseKind;

/// Tries each house of the `sources` kinds, digit by digit, against the houses of the `targets`
/// kinds (any other house where the rules add houses) that could hold all its candidates: those
/// through its first candidate cell, in order. Only where the digit `changed` in the source or
/// a target crossing it.
pub(super) fn locked<C: CellSet>(
    grid: &Grid<C>,
    changed: &Changed<C>,
    out: &mut Deduction,
    sources: &[HouseKind],
    targets: &[HouseKind],
) -> bool {
    let geometry = grid.geometry();
    let any = !geometry.extras().is_empty();
    for source in sources.iter().flat_map(|&kind| geometry.houses(kind)) {
        let source_cells = geometry.cells(source);
        let is_target = move |house: usize| house != source && (any || targets.contains(&geometry.kind(house)));
        // The source and every target house that crosses it (no need to work out when
        // everything changed).
        let reach = if *changed == Changed::all() {
            source_cells
        } else {
            let crossing = (geometry.members(source).iter())
                .flat_map(|&cell| geometry.houses_of(usize::from(cell)).filter(|&house| is_target(house)))
                .map(|house| geometry.cells(house));
            crossing.fold(source_cells, |acc, cells| acc | cells)
        };
        for digit in (1..=geometry.side() as u8).filter(|&digit| changed.digit_in(digit, reach)) {
            let inside = grid.cells_with(digit) & source_cells;
            // Two or more cells: one would be a hidden single, which comes first.
            if !inside.more_than(1) {
                continue;
            }
            let first = inside.lowest();
            for target in geometry.houses_of(first).filter(|&house| is_target(house)) {
                let target_cells = geometry.cells(target);
                let elsewhere = grid.cells_with(digit) & target_cells & !source_cells;
                if (inside & !target_cells).is_empty() && !elsewhere.is_empty() {
                    out.add_cells(inside.ones());
                    out.add_digits([digit]);
                    out.houses.extend([source, target]);
                    out.eliminate(elsewhere, digit);
                    return out.finish();
                }
            }
        }
    }
    false
}

/// "In box 4, 3 fits only in row 5, so r5c7 and r5c8 can't be 3."
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let digit = symbol(deduction.digits[0]);
    let (source, target) = (geometry.name(deduction.houses[0]), geometry.name(deduction.houses[1]));
    let eliminated = eliminated_cells(geometry, deduction);
    format!("In {source}, {digit} fits only in {target}, so {eliminated} can't be {digit}.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::step::Technique;
    use crate::logic::techniques::testing::{cand, run, sparse};

    #[test]
    fn pointing_clears_the_rest_of_the_line() {
        // In box 1, 3 only in r2c1 and r2c3; r2c5 and r2c9 also hold 3; r5c1 (column) is untouched.
        let grid = sparse(&[(2, 1, &[3, 4]), (2, 3, &[3, 5]), (2, 5, &[3, 6]), (2, 9, &[3, 7]), (5, 1, &[3, 8])]);
        let step = run(Technique::Pointing, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(2, 5, 3), cand(2, 9, 3)]);
        assert_eq!(
            describe(Geometry::classic(), &step),
            "In box 1, 3 fits only in row 2, so r2c5 and r2c9 can't be 3."
        );
        // The same cells as a claiming: row 2's 3s are not all in box 1.
        assert!(run(Technique::Claiming, &grid).is_none());
    }

    #[test]
    fn claiming_clears_the_rest_of_the_box() {
        // In column 4, 6 only in r1c4 and r3c4 (box 2); r2c5 and r3c6 also hold 6, and rows 2
        // and 3 have a 6 outside the box, so they claim nothing.
        let grid = sparse(&[
            (1, 4, &[6, 1]),
            (3, 4, &[6, 2]),
            (2, 5, &[6, 3]),
            (3, 6, &[6, 4]),
            (2, 9, &[6, 8]),
            (3, 1, &[6, 9]),
        ]);
        let step = run(Technique::Claiming, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(2, 5, 6), cand(3, 6, 6)]);
        assert_eq!(
            describe(Geometry::classic(), &step),
            "In column 4, 6 fits only in box 2, so r2c5 and r3c6 can't be 6."
        );
        // No elimination without other 6s in the box.
        let grid = sparse(&[(1, 4, &[6, 1]), (3, 4, &[6, 2])]);
        assert!(run(Technique::Claiming, &grid).is_none());
        assert!(run(Technique::Pointing, &grid).is_none());
    }
}

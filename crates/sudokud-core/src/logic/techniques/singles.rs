//! Singles: the last empty cell of a unit (full house), the only place for a digit in a unit
//! (hidden single), the only digit for a cell (naked single). They place a digit; the brute-force
//! fallback, also one placement, is explained here too.

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, bit};
use crate::logic::step::{Deduction, Technique, symbol};
use crate::position::HouseKind;

/// A house with one empty cell gets the one digit it misses.
pub(super) fn full_house<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let geometry = grid.geometry();
    let all = (1 << geometry.side()) - 1;
    for house in 0..geometry.house_count() {
        let blanks = grid.blanks() & geometry.cells(house);
        if !blanks.is_single() {
            continue;
        }
        let cell = blanks.lowest();
        let values =
            geometry.members(house).iter().map(|&cell| grid.value(usize::from(cell))).filter(|&value| value != 0);
        let missing = all & !values.fold(0, |acc, value| acc | bit(value));
        if missing.count_ones() == 1 {
            return record(out, house, cell, missing.trailing_zeros() as u8 + 1);
        }
    }
    false
}

/// A digit that is a candidate in only one cell of a house goes there. Tries the houses of
/// `kinds` in order.
pub(super) fn hidden_single<C: CellSet>(grid: &Grid<C>, out: &mut Deduction, kinds: &[HouseKind]) -> bool {
    // Nested loops rather than a flat map: this runs every step, and a flat map's iterator
    // costs a third more here.
    let geometry = grid.geometry();
    for &kind in kinds {
        for house in geometry.houses(kind) {
            let cells = geometry.members(house);
            // A digit is in `once` if some cell has it, in `twice` if two or more do.
            let (once, twice) = cells.iter().fold((0u32, 0u32), |(once, twice), &cell| {
                let candidates = grid.candidates(usize::from(cell));
                (once | candidates, twice | once & candidates)
            });
            let singles = once & !twice;
            if singles != 0 {
                let digit = singles.trailing_zeros() as u8 + 1;
                let position = grid.positions(house, digit).trailing_zeros() as usize;
                return record(out, house, usize::from(cells[position]), digit);
            }
        }
    }
    false
}

/// A cell with one candidate gets it.
pub(super) fn naked_single<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    (0..grid.geometry().cell_count()).find(|&cell| grid.candidates(cell).count_ones() == 1).is_some_and(|cell| {
        let digit = grid.candidates(cell).trailing_zeros() as u8 + 1;
        out.add_cells([cell]);
        out.add_digits([digit]);
        out.place(cell, digit)
    })
}

/// Records a single: its house, cell and digit, and the placement.
fn record(out: &mut Deduction, house: usize, cell: usize, digit: u8) -> bool {
    out.houses.push(house);
    out.add_cells([cell]);
    out.add_digits([digit]);
    out.place(cell, digit)
}

/// Explains a single or a brute-force placement.
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let placed = deduction.placements[0];
    let (cell, digit) = (geometry.cell_name(placed.cell), symbol(placed.digit));
    match (deduction.technique, deduction.houses.first().map(|&house| geometry.name(house))) {
        (Technique::FullHouse, Some(house)) => {
            let house = house[..1].to_uppercase() + &house[1..];
            format!("{house} has one empty cell left, {cell}, so {cell} = {digit}.")
        }
        (Technique::HiddenSingleBox | Technique::HiddenSingleLine, Some(house)) => {
            format!("In {house}, {digit} fits only in {cell}, so {cell} = {digit}.")
        }
        (Technique::NakedSingle, _) => format!("Only {digit} is left as a candidate for {cell}, so {cell} = {digit}."),
        _ => format!("No technique here applies, so {cell} = {digit} is taken from the solution."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::techniques::testing::{cand, grid, run};

    use crate::board::EXAMPLE_PUZZLE as PUZZLE;

    #[test]
    fn full_house_fills_the_last_cell_of_a_unit() {
        let almost = "534678912672195348198342567859761423426853791713924856961537284287419635.45286179";
        let step = run(Technique::FullHouse, &grid(almost, &[])).unwrap();
        assert_eq!(step.placements, [cand(9, 1, 3)]);
        assert_eq!(describe(Geometry::classic(), &step), "Row 9 has one empty cell left, r9c1, so r9c1 = 3.");
        assert!(run(Technique::FullHouse, &grid(PUZZLE, &[])).is_none());
    }

    #[test]
    fn hidden_single_in_a_box_and_in_a_line() {
        let grid = grid(PUZZLE, &[]);
        // Box 2's blanks are r1c4, r1c6 and row 3; row 3 has an 8 (r3c3) and so has column 4 (r5c4).
        let step = run(Technique::HiddenSingleBox, &grid).unwrap();
        assert_eq!(step.placements, [cand(1, 6, 8)]);
        assert_eq!(describe(Geometry::classic(), &step), "In box 2, 8 fits only in r1c6, so r1c6 = 8.");
        let step = run(Technique::HiddenSingleLine, &grid).unwrap();
        assert_eq!(step.placements, [cand(3, 7, 5)]);
        assert_eq!(describe(Geometry::classic(), &step), "In row 3, 5 fits only in r3c7, so r3c7 = 5.");
    }

    #[test]
    fn naked_single_needs_one_candidate() {
        let mut grid = grid(PUZZLE, &[]);
        assert!(run(Technique::NakedSingle, &grid).is_some_and(|step| step.placements.len() == 1));
        // r5c5 of the example is 5: remove every other candidate by hand and it is the first.
        for digit in 1..=9 {
            for cell in 0..81 {
                if digit != 5 || cell != 40 {
                    grid.eliminate(cell, digit);
                }
            }
        }
        let step = run(Technique::NakedSingle, &grid).unwrap();
        assert_eq!(step.placements, [cand(5, 5, 5)]);
        assert_eq!(describe(Geometry::classic(), &step), "Only 5 is left as a candidate for r5c5, so r5c5 = 5.");
        grid.eliminate(40, 5);
        assert!(run(Technique::NakedSingle, &grid).is_none());
    }

    /// Disjoint groups are houses the singles name: eight of the boxes' top-left cells filled
    /// leave the ninth the last digit of disjoint group 1.
    #[test]
    fn a_disjoint_group_is_a_house_the_singles_name() {
        let constraints = crate::variants::Constraints { disjoint_groups: true, ..Default::default() };
        let variant = crate::variants::Variant::new(crate::sizes::Shape::CLASSIC, None, &constraints).unwrap();
        let geometry = Geometry::<crate::logic::grid::Cells>::of_variant(&variant).expect("9x9 with its 36 houses");
        let tops = [0, 3, 6, 27, 30, 33, 54, 57, 60];
        let mut cells = [0; 81];
        for (&cell, digit) in tops[..8].iter().zip([1, 2, 3, 4, 6, 7, 8, 9]) {
            cells[cell] = digit;
        }
        let grid = crate::logic::grid::Grid::of_values(&geometry, &cells);
        let step = run(Technique::FullHouse, &grid).expect("a full house");
        assert_eq!(
            crate::logic::techniques::describe(&grid, &step),
            "Disjoint group 1 has one empty cell left, r7c7, so r7c7 = 5."
        );
    }
}

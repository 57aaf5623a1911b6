//! Naked and hidden subsets of two to four. Naked: n cells of a house hold only n digits between
//! them, so those digits leave the house's other cells. Hidden: n digits of a house fit only in
//! n cells, so those cells lose their other candidates.

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, bit, digits, ones};
use crate::logic::step::{Deduction, Technique, cell_list, digit_list};

use super::{Changed, Items, find_set};

/// The first naked subset of `size` cells, rows then columns then boxes, among the houses whose
/// candidates `changed`.
pub(super) fn naked<C: CellSet>(grid: &Grid<C>, changed: &Changed<C>, out: &mut Deduction, size: usize) -> bool {
    let geometry = grid.geometry();
    let houses = 0..geometry.house_count();
    houses.filter(|&house| room_for(grid, house, size) && changed.any_in(geometry.cells(house))).any(|house| {
        let cells = geometry.members(house);
        let items = Items::<C>::new(size, 0..cells.len(), |i| grid.candidates(usize::from(cells[i])));
        find_set(&items, size, &mut |chosen, union| {
            out.reset();
            for (i, &cell) in cells.iter().enumerate() {
                if !chosen.contains(&i) {
                    out.eliminate_digits(grid, usize::from(cell), union);
                }
            }
            record(grid, out, house, chosen.iter().fold(0, |acc, &i| acc | 1 << i), digits(union))
        })
    })
}

/// The first hidden subset of `size` digits, rows then columns then boxes, among the houses
/// whose candidates `changed`.
pub(super) fn hidden<C: CellSet>(grid: &Grid<C>, changed: &Changed<C>, out: &mut Deduction, size: usize) -> bool {
    let geometry = grid.geometry();
    let houses = 0..geometry.house_count();
    houses.filter(|&house| room_for(grid, house, size) && changed.any_in(geometry.cells(house))).any(|house| {
        let items = Items::<C>::new(size, 0..geometry.side(), |i| grid.positions(house, i as u8 + 1));
        find_set(&items, size, &mut |chosen, positions| {
            out.reset();
            let kept = chosen.iter().fold(0, |acc, &i| acc | bit(i as u8 + 1));
            for i in ones(u128::from(positions)) {
                out.eliminate_digits(grid, usize::from(geometry.members(house)[i]), !kept);
            }
            record(grid, out, house, positions, chosen.iter().map(|&i| i as u8 + 1))
        })
    })
}

/// Whether `house` has more blank cells than the subset: with no more, a naked subset has no
/// other cells to clear and a hidden one holds every digit left, so no other candidates.
fn room_for<C: CellSet>(grid: &Grid<C>, house: usize, size: usize) -> bool {
    (grid.blanks() & grid.geometry().cells(house)).more_than(size)
}

/// Records the subset's house, cells (by position in the house) and digits, and ends the
/// pattern.
fn record<C: CellSet>(
    grid: &Grid<C>,
    out: &mut Deduction,
    house: usize,
    positions: u32,
    subset_digits: impl Iterator<Item = u8>,
) -> bool {
    out.houses.push(house);
    out.add_house_cells(grid, house, positions);
    out.add_digits(subset_digits);
    out.finish()
}

/// "In row 3, r3c2 and r3c7 can only hold 4 and 8 (naked pair), so 4 and 8 go from the other
/// cells of row 3." / "In row 3, 4 and 8 fit only in r3c2 and r3c7 (hidden pair), so the other
/// candidates there go."
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let house = geometry.name(deduction.houses[0]);
    let cells = cell_list(geometry, deduction.cells.iter().copied());
    let digits = digit_list(deduction.digits.iter().copied(), "and");
    let name = deduction.technique.name().to_lowercase();
    match deduction.technique {
        Technique::NakedPair | Technique::NakedTriple | Technique::NakedQuad => {
            format!(
                "In {house}, {cells} can only hold {digits} ({name}), so {digits} go from the other cells of {house}."
            )
        }
        _ => format!("In {house}, {digits} fit only in {cells} ({name}), so the other candidates there go."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::techniques::testing::{cand, run, sparse};

    #[test]
    fn naked_pair_and_triple() {
        let grid = sparse(&[(3, 2, &[4, 8]), (3, 7, &[4, 8]), (3, 1, &[1, 4, 9]), (3, 9, &[8, 2]), (4, 2, &[4, 5])]);
        let step = run(Technique::NakedPair, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(3, 1, 4), cand(3, 9, 8)]);
        assert_eq!(
            describe(Geometry::classic(), &step),
            "In row 3, r3c2 and r3c7 can only hold 4 and 8 (naked pair), so 4 and 8 go from the other cells of row 3."
        );
        // Three cells with 1, 2, 3 between them (none has all three) in column 5.
        let grid = sparse(&[(1, 5, &[1, 2]), (4, 5, &[2, 3]), (9, 5, &[1, 3]), (6, 5, &[1, 6]), (7, 5, &[6, 7])]);
        assert!(run(Technique::NakedPair, &grid).is_none());
        let step = run(Technique::NakedTriple, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(6, 5, 1)]);
        assert_eq!(step.digits, [1, 2, 3]);
    }

    #[test]
    fn naked_quad_only_when_four_cells_hold_four_digits() {
        let quad: &[(usize, usize, &[u8])] =
            &[(1, 1, &[1, 2]), (1, 2, &[2, 3]), (1, 3, &[3, 4]), (1, 4, &[4, 1]), (1, 5, &[1, 5]), (1, 6, &[5, 6])];
        let step = run(Technique::NakedQuad, &sparse(quad)).unwrap();
        assert_eq!(step.eliminations, [cand(1, 5, 1)]);
        let mut five = quad.to_vec();
        five[3] = (1, 4, &[4, 7]);
        assert!(run(Technique::NakedQuad, &sparse(&five)).is_none());
    }

    #[test]
    fn hidden_pair_strips_the_other_candidates() {
        // In box 9, 2 and 7 fit only in r7c7 and r9c9.
        let grid = sparse(&[(7, 7, &[2, 7, 1, 5]), (9, 9, &[2, 7, 3]), (8, 8, &[1, 5]), (7, 8, &[1, 3])]);
        let step = run(Technique::HiddenPair, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(7, 7, 1), cand(7, 7, 5), cand(9, 9, 3)]);
        assert_eq!(
            describe(Geometry::classic(), &step),
            "In box 9, 2 and 7 fit only in r7c7 and r9c9 (hidden pair), so the other candidates there go."
        );
        // Once stripped, nothing is left to do.
        let grid = sparse(&[(7, 7, &[2, 7]), (9, 9, &[2, 7]), (8, 8, &[1, 5]), (7, 8, &[1, 3])]);
        assert!(run(Technique::HiddenPair, &grid).is_none());
    }

    #[test]
    fn hidden_triple() {
        let grid = sparse(&[(5, 1, &[1, 2, 9]), (5, 4, &[2, 3, 8]), (5, 8, &[1, 3]), (5, 2, &[8, 9]), (5, 3, &[8, 9])]);
        let step = run(Technique::HiddenTriple, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(5, 1, 9), cand(5, 4, 8)]);
    }
}

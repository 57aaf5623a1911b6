//! Basic fish: when a digit's candidates in n rows (the base) lie in only n columns (the cover),
//! each cover column gets the digit in one of the base rows, so the cover's other cells lose it;
//! the same with rows and columns swapped. Two lines: X-Wing, three: Swordfish, four: Jellyfish.

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, ones};
use crate::logic::step::{Deduction, eliminated_cells, join, symbol};
use crate::position::HouseKind;

use super::{Changed, Items, find_set};

/// The first fish of `size` lines: digit by digit, row bases before column bases, among the
/// digits whose candidates `changed`.
pub(super) fn fish<C: CellSet>(grid: &Grid<C>, changed: &Changed<C>, out: &mut Deduction, size: usize) -> bool {
    // A row's positions are columns and a column's are rows: the cover is the other kind.
    const KINDS: [(HouseKind, HouseKind); 2] =
        [(HouseKind::Row, HouseKind::Column), (HouseKind::Column, HouseKind::Row)];
    let geometry = grid.geometry();
    for digit in (1..=geometry.side() as u8).filter(|&digit| changed.digit_in(digit, !C::EMPTY)) {
        for (base_kind, cover_kind) in KINDS {
            // The items are the base kind's lines by index; a line's positions, the cover kind's.
            let line = |kind: HouseKind, index: usize| geometry.houses(kind).start + index;
            let items =
                Items::<C>::new(size, 0..geometry.side(), |index| grid.positions(line(base_kind, index), digit));
            let found = find_set(&items, size, &mut |base_indexes, cover_indexes| {
                out.reset();
                let base = || base_indexes.iter().map(|&index| line(base_kind, index));
                let cover = || ones(u128::from(cover_indexes)).map(|index| line(cover_kind, index));
                let base_cells = base().fold(C::EMPTY, |acc, line| acc | geometry.cells(line));
                let cover_cells = cover().fold(C::EMPTY, |acc, line| acc | geometry.cells(line));
                out.add_cells((grid.cells_with(digit) & base_cells).ones());
                out.add_digits([digit]);
                out.houses.extend(base().chain(cover()));
                out.eliminate(grid.cells_with(digit) & cover_cells & !base_cells, digit);
                out.finish()
            });
            if found {
                return true;
            }
        }
    }
    false
}

/// "In rows 2 and 7, 5 fits only in columns 3 and 8 (X-Wing), so r4c3 and r9c8 can't be 5."
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let (base, cover) = deduction.houses.split_at(deduction.houses.len() / 2);
    let digit = symbol(deduction.digits[0]);
    format!(
        "In {}, {digit} fits only in {} ({}), so {} can't be {digit}.",
        lines(geometry, base),
        lines(geometry, cover),
        deduction.technique.name(),
        eliminated_cells(geometry, deduction)
    )
}

/// "rows 2 and 7", "columns 1, 4 and 8": houses of one kind.
fn lines<C: CellSet>(geometry: &Geometry<C>, houses: &[usize]) -> String {
    let numbers = houses.iter().map(|&house| geometry.number(house).to_string());
    format!("{} {}", geometry.plural(houses[0]), join(numbers, "and"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::step::Technique;
    use crate::logic::techniques::testing::{cand, run, sparse};

    #[test]
    fn x_wing_in_rows_clears_the_columns() {
        let grid = sparse(&[
            (2, 3, &[5, 1]),
            (2, 8, &[5, 2]),
            (7, 3, &[5, 3]),
            (7, 8, &[5, 4]),
            (4, 3, &[5, 6]),
            (9, 8, &[5, 7]),
        ]);
        let step = run(Technique::XWing, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(4, 3, 5), cand(9, 8, 5)]);
        assert_eq!(step.cells.len(), 4);
        assert_eq!(
            describe(Geometry::classic(), &step),
            "In rows 2 and 7, 5 fits only in columns 3 and 8 (X-Wing), so r4c3 and r9c8 can't be 5."
        );
        // Without r7c8 the rows cover three columns and no two columns share two rows.
        let grid = sparse(&[(2, 3, &[5, 1]), (2, 8, &[5, 2]), (7, 3, &[5, 3]), (7, 5, &[5, 9])]);
        assert!(run(Technique::XWing, &grid).is_none());
    }

    #[test]
    fn swordfish_in_columns_and_jellyfish() {
        // Columns 1, 5, 9 hold 8 only in rows 1, 4, 7 (two each); r4c3 also has 8.
        let grid = sparse(&[
            (1, 1, &[8, 1]),
            (4, 1, &[8, 2]),
            (4, 5, &[8, 3]),
            (7, 5, &[8, 4]),
            (7, 9, &[8, 5]),
            (1, 9, &[8, 6]),
            (4, 3, &[8, 7]),
        ]);
        assert!(run(Technique::XWing, &grid).is_none());
        let step = run(Technique::Swordfish, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(4, 3, 8)]);
        assert_eq!(
            describe(Geometry::classic(), &step),
            "In columns 1, 5 and 9, 8 fits only in rows 1, 4 and 7 (Swordfish), so r4c3 can't be 8."
        );
        // A four-line cycle: rows 1, 3, 6, 8 over columns 2, 4, 6, 9.
        let grid = sparse(&[
            (1, 2, &[4, 1]),
            (1, 4, &[4, 1]),
            (3, 4, &[4, 1]),
            (3, 6, &[4, 1]),
            (6, 6, &[4, 1]),
            (6, 9, &[4, 1]),
            (8, 9, &[4, 1]),
            (8, 2, &[4, 1]),
            (5, 9, &[4, 2]),
        ]);
        assert!(run(Technique::Swordfish, &grid).is_none());
        let step = run(Technique::Jellyfish, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(5, 9, 4)]);
    }
}

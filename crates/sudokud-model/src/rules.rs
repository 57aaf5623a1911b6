//! The classic rules on grids of any shape (LeetCode 36 semantics): no value may repeat among the
//! filled cells of a row, a column or a box. (The core has a faster finder for the 9x9 board.)

use crate::grid::Grid;
use crate::layout::Layout;
use crate::position::HouseKind;
use crate::shape::MAX_SIZE;
use crate::unit::{Conflict, Units};

/// Every filled cell whose value also appears elsewhere in its row, column or box, in row-major
/// order. Empty (and not allocated) exactly when the grid is valid.
pub fn conflicts(grid: &Grid) -> Vec<Conflict> {
    let layout = Layout::of(grid.shape());
    let size = grid.size();
    let cells = grid.cells();
    // Per house, the values filled at least twice; almost always none, and then nothing more
    // is done.
    let mut repeated = [0u32; 3 * MAX_SIZE];
    for (index, house) in layout.houses().enumerate() {
        let (mut once, mut twice) = (0u32, 0u32);
        for &cell in house {
            let bit = 1u32 << cells[usize::from(cell)] >> 1;
            twice |= once & bit;
            once |= bit;
        }
        repeated[index] = twice;
    }
    if repeated.iter().all(|&values| values == 0) {
        return Vec::new();
    }
    let kinds = [HouseKind::Row, HouseKind::Column, HouseKind::Box];
    let mut conflicts = Vec::new();
    for (cell, &value) in cells.iter().enumerate().filter(|&(_, &value)| value != 0) {
        let mut units = Units::default();
        let houses = layout.houses_of(cell);
        for (kind_index, kind) in kinds.into_iter().enumerate() {
            let kind_houses = houses >> (kind_index * size) & ((1u128 << size) - 1);
            let house = kind_index * size + kind_houses.trailing_zeros() as usize;
            if repeated[house] >> (value - 1) & 1 == 1 {
                units.insert(kind.into());
            }
        }
        if units != Units::default() {
            conflicts.push(Conflict { row: cell / size, col: cell % size, value, units });
        }
    }
    conflicts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    #[test]
    fn a_valid_grid_has_no_conflicts_at_any_size() {
        for shape in Shape::all() {
            assert!(conflicts(&Grid::empty(shape)).is_empty());
        }
        assert!(conflicts(&Grid::parse("1... .2.. ..3. ...4", None).unwrap()).is_empty());
    }

    #[test]
    fn each_repeat_names_its_cells_and_units() {
        // 6x6 with 2x3 boxes: a 1 at r0c0 and r0c2 (row and box), a 2 at r1c5 and r5c5 (column).
        let grid = Grid::parse("1.1... .....2 ...... ...... ...... .....2", None).unwrap();
        let found: Vec<(usize, usize, u8, String)> = conflicts(&grid)
            .iter()
            .map(|conflict| {
                (conflict.row, conflict.col, conflict.value, serde_json::to_string(&conflict.units).unwrap())
            })
            .collect();
        let row_box = r#"["row","box"]"#.to_owned();
        let column = r#"["column"]"#.to_owned();
        assert_eq!(
            found,
            [(0, 0, 1, row_box.clone()), (0, 2, 1, row_box), (1, 5, 2, column.clone()), (5, 5, 2, column)]
        );
    }
}

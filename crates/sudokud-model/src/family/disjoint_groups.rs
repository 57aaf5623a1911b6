//! Disjoint groups: the cells at the same place in every box (every box's top-left cell, every
//! box's centre...) form a house too, so no digit repeats among them. They are N more houses, so
//! every engine that reads houses takes them as it takes rows and boxes.

use super::{Builder, Family};
use crate::constraints::Constraints;
use crate::shape::Shape;
use crate::unit::Unit;
use crate::variant::ConstraintError;

/// The member, in messages.
const MEMBER: &str = "constraints.disjoint_groups";

/// The disjoint groups.
pub(crate) struct DisjointGroups;

impl Family for DisjointGroups {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        if !constraints.disjoint_groups {
            return Ok(());
        }
        if constraints.regions.is_some() {
            let message = "needs the boxes: a jigsaw's regions have no same place in each to group";
            return Err(ConstraintError::new(MEMBER, message));
        }
        for group in groups(rules.shape) {
            rules.add_house(group, Unit::DisjointGroup);
        }
        Ok(())
    }
}

/// The disjoint groups of `shape`'s grid, as cell indices: group `k` is the cell `k` places into
/// each box in reading order (group 1, for people, the boxes' top-left cells), its cells in
/// reading order.
pub fn groups(shape: Shape) -> Vec<Vec<u16>> {
    let (size, high, wide) = (shape.size(), shape.box_rows(), shape.box_cols());
    (0..size)
        .map(|place| {
            let (down, right) = (place / wide, place % wide);
            let rows = (0..size / high).map(move |band| band * high + down);
            rows.flat_map(|row| (0..size / wide).map(move |stack| (row * size + stack * wide + right) as u16)).collect()
        })
        .collect()
}

/// Which disjoint group the cell at `row`, `col` is in: its place in its box, in reading order.
pub fn group_of(shape: Shape, row: usize, col: usize) -> usize {
    (row % shape.box_rows()) * shape.box_cols() + col % shape.box_cols()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests::refused;

    #[test]
    fn each_group_holds_one_cell_of_every_box_at_the_same_place() {
        for shape in Shape::all() {
            let size = shape.size();
            let groups = groups(shape);
            assert_eq!(groups.len(), size);
            let mut seen = vec![0; shape.cells()];
            for (number, group) in groups.iter().enumerate() {
                let cells = group.iter().map(|&cell| (usize::from(cell) / size, usize::from(cell) % size));
                let mut boxes: Vec<usize> = cells.clone().map(|(row, col)| shape.box_of(row, col)).collect();
                boxes.sort_unstable();
                assert_eq!(boxes, (0..size).collect::<Vec<_>>(), "{shape} group {number}");
                assert!(cells.clone().all(|(row, col)| group_of(shape, row, col) == number), "{shape}");
                group.iter().for_each(|&cell| seen[usize::from(cell)] += 1);
            }
            assert!(seen.iter().all(|&times| times == 1), "{shape}: the groups tile the grid");
        }
        // On 6x6 (boxes of 2 rows by 3 columns) group 5 is the boxes' bottom-middle cells.
        let six = Shape::new(2, 3).unwrap();
        assert_eq!(groups(six)[4], [7, 10, 19, 22, 31, 34]);
    }

    #[test]
    fn a_jigsaw_has_no_disjoint_groups() {
        let json = r#"{"disjoint_groups":true,"regions":"0011001122332233"}"#;
        assert_eq!(
            refused(Shape::new(2, 2).unwrap(), json).as_deref(),
            Some(
                "`constraints.disjoint_groups`: needs the boxes: a jigsaw's regions have no same place in each to group"
            )
        );
        assert_eq!(refused(Shape::new(2, 2).unwrap(), r#"{"disjoint_groups":true}"#), None);
    }
}

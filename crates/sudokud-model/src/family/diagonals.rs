//! Houses of N cells across the grid: the diagonals (Sudoku X) and extra regions (a windoku's
//! windows, or any the request lists).

use super::{Builder, Family};
use crate::constraints::{Constraints, Place};
use crate::member::{Choice, choice_traits};
use crate::shape::Shape;
use crate::unit::Unit;
use crate::variant::{ConstraintError, MAX_HOUSES};

/// Which diagonals are houses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Diagonals {
    /// Top left to bottom right.
    Main,
    /// Top right to bottom left.
    Anti,
    /// Both (Sudoku X).
    Both,
}

impl Choice for Diagonals {
    const KIND: &'static str = "diagonals";
    const ALL: &'static [Diagonals] = &[Diagonals::Main, Diagonals::Anti, Diagonals::Both];

    fn name(self) -> &'static str {
        match self {
            Diagonals::Main => "main",
            Diagonals::Anti => "anti",
            Diagonals::Both => "both",
        }
    }
}

choice_traits!(Diagonals);

/// The diagonals and the extra regions.
pub(crate) struct ExtraHouses;

impl Family for ExtraHouses {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        let index = |row: usize, col: usize| (row * size + col) as u16;
        if matches!(constraints.diagonals, Some(Diagonals::Main | Diagonals::Both)) {
            rules.add_house((0..size).map(|step| index(step, step)), Unit::Diagonal);
        }
        if matches!(constraints.diagonals, Some(Diagonals::Anti | Diagonals::Both)) {
            rules.add_house((0..size).map(|step| index(step, size - 1 - step)), Unit::AntiDiagonal);
        }
        for (number, region) in constraints.extra_regions.iter().enumerate() {
            let member = format!("constraints.extra_regions[{number}]");
            let region = rules.cells(region, &member)?;
            if region.len() != size {
                let found = region.len();
                return Err(ConstraintError::new(member, format!("has {found} cells; an extra region has {size}")));
            }
            rules.add_house(region, Unit::ExtraRegion);
        }
        if rules.house_units.len() > MAX_HOUSES {
            let extra = MAX_HOUSES - (rules.house_units.len() - constraints.extra_regions.len());
            let message = format!("at most {extra} extra regions fit a {size}x{size} grid with these rules");
            return Err(ConstraintError::new("constraints.extra_regions", message));
        }
        Ok(())
    }
}

/// A windoku's windows: boxes' shapes starting one cell in from the top left, one cell apart,
/// as many as fit (four at 9x9, nine at 16x16).
pub fn windows(shape: Shape) -> Vec<Vec<Place>> {
    let (size, high, wide) = (shape.size(), shape.box_rows(), shape.box_cols());
    let tops: Vec<usize> = (1..).step_by(high + 1).take_while(|top| top + high < size + 1).collect();
    let lefts: Vec<usize> = (1..).step_by(wide + 1).take_while(|left| left + wide < size + 1).collect();
    let mut windows = Vec::new();
    for &top in &tops {
        for &left in &lefts {
            let cells =
                (top..top + high).flat_map(|row| (left..left + wide).map(move |col| Place(row as u64, col as u64)));
            windows.push(cells.collect());
        }
    }
    windows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_sit_one_cell_in_and_one_apart() {
        let corners = |shape: Shape| -> Vec<(u64, u64)> {
            windows(shape).iter().map(|window| (window[0].0, window[0].1)).collect()
        };
        assert_eq!(corners(Shape::CLASSIC), [(1, 1), (1, 5), (5, 1), (5, 5)]);
        assert_eq!(corners(Shape::new(4, 4).unwrap()).len(), 9);
        assert_eq!(corners(Shape::new(2, 3).unwrap()), [(1, 1), (4, 1)]);
        assert_eq!(corners(Shape::new(2, 2).unwrap()), [(1, 1)]);
        assert!(windows(Shape::CLASSIC).iter().all(|window| window.len() == 9));
    }
}

//! Wings: small patterns of two-candidate cells that force one of two cells to hold a digit z,
//! so any cell seeing both (for XYZ, all three) loses z.
//!
//! - XY-Wing: a pivot {x,y} sees pincers {x,z} and {y,z}; whatever the pivot is, one pincer is z.
//! - XYZ-Wing: the pivot is {x,y,z}; then one of pivot and pincers is z.

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, bit, seeing_all};
use crate::logic::step::{Deduction, Technique, digit_list, eliminated_cells, symbol};

/// XY-Wing: pivot and pincers all have two candidates.
pub(super) fn xy_wing<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    wing(grid, out, 2)
}

/// XYZ-Wing: the pivot has three candidates, the pincers two each.
pub(super) fn xyz_wing<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    wing(grid, out, 3)
}

/// Both wings: a pivot with `pivot_size` candidates, two two-candidate pincers seeing it that
/// share exactly one digit z, together covering the pivot's candidates and, for XY-Wing, with
/// z outside the pivot. The eliminations must see the pincers (and the pivot when it holds z).
fn wing<C: CellSet>(grid: &Grid<C>, out: &mut Deduction, pivot_size: u32) -> bool {
    let bivalue = grid.cells_with_count(2);
    for pivot in grid.cells_with_count(pivot_size).ones() {
        let pivot_digits = grid.candidates(pivot);
        let pincers = bivalue & grid.geometry().peers(pivot);
        for a in pincers.ones() {
            for b in (pincers & after::<C>(a)).ones() {
                let (da, db) = (grid.candidates(a), grid.candidates(b));
                let z = da & db;
                let union = da | db;
                let fits = match pivot_size {
                    2 => z.count_ones() == 1 && union & !z == pivot_digits && pivot_digits & z == 0,
                    _ => z.count_ones() == 1 && union == pivot_digits,
                };
                if !fits {
                    continue;
                }
                let z = z.trailing_zeros() as u8 + 1;
                let pattern = if pivot_size == 2 { [a, b, a] } else { [a, b, pivot] };
                out.reset();
                out.eliminate(seeing_all(grid, z, &pattern), z);
                if out.finish() {
                    // Pivot digits: the one shared with a, then the one shared with b, then z.
                    let (x, y) = (first(da & pivot_digits & !bit(z)), first(db & pivot_digits & !bit(z)));
                    out.add_cells([pivot, a, b]);
                    out.add_digits([x, y, z]);
                    return true;
                }
            }
        }
    }
    false
}

/// The cells after `cell` in row-major order, so each pair of cells is tried once.
fn after<C: CellSet>(cell: usize) -> C {
    !C::first(cell + 1)
}

/// The lowest digit of a non-empty mask.
fn first(mask: u32) -> u8 {
    mask.trailing_zeros() as u8 + 1
}

/// Explains a wing from its cells and digits (each cell's digits listed in ascending order).
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let names: Vec<String> = deduction.cells.iter().map(|&cell| geometry.cell_name(cell)).collect();
    let eliminated = eliminated_cells(geometry, deduction);
    let either = |digits: &[u8]| {
        let mut digits = digits.to_vec();
        digits.sort_unstable();
        digit_list(digits, "or")
    };
    match (deduction.technique, &names[..], &deduction.digits[..]) {
        (Technique::XYZWing, [pivot, a, b], &[x, y, z]) => format!(
            "{pivot} is {}, and {a} ({}) and {b} ({}) see it, so one of the three is {} and {eliminated}, seeing \
             all three, can't be {}.",
            either(&[x, y, z]),
            either(&[x, z]),
            either(&[y, z]),
            symbol(z),
            symbol(z)
        ),
        (_, [pivot, a, b], &[x, y, z]) => format!(
            "{pivot} is {}, and {a} ({}) and {b} ({}) see it, so one of {a} and {b} is {} and {eliminated}, seeing \
             both, can't be {}.",
            either(&[x, y]),
            either(&[x, z]),
            either(&[y, z]),
            symbol(z),
            symbol(z)
        ),
        _ => unreachable!("wings record three or four cells and their digits"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::techniques::testing::{cand, run, sparse};

    #[test]
    fn xy_wing_removes_z_from_cells_seeing_both_pincers() {
        // Pivot r1c1 {4,7}; pincers r1c5 {4,9} (row) and r3c2 {7,9} (box); r3c5 sees both.
        let grid = sparse(&[(1, 1, &[4, 7]), (1, 5, &[4, 9]), (3, 2, &[7, 9]), (3, 5, &[9, 1]), (3, 8, &[9, 2])]);
        let step = run(Technique::XYWing, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(3, 5, 9)]);
        assert_eq!(step.digits, [4, 7, 9]);
        assert_eq!(
            describe(Geometry::classic(), &step),
            "r1c1 is 4 or 7, and r1c5 (4 or 9) and r3c2 (7 or 9) see it, so one of r1c5 and r3c2 is 9 and r3c5, \
             seeing both, can't be 9."
        );
        // With the pivot {4,9} the pincers no longer cover it.
        let grid = sparse(&[(1, 1, &[4, 8]), (1, 5, &[4, 9]), (3, 2, &[7, 9]), (3, 5, &[9, 1])]);
        assert!(run(Technique::XYWing, &grid).is_none());
    }

    #[test]
    fn xyz_wing_needs_cells_seeing_all_three() {
        // Pivot r2c2 {1,2,3}; pincers r2c7 {1,3} (row) and r1c3 {2,3} (box). r2c3 sees all three;
        // r1c7 sees only the pincers.
        let grid = sparse(&[(2, 2, &[1, 2, 3]), (2, 7, &[1, 3]), (1, 3, &[2, 3]), (2, 3, &[3, 5]), (1, 7, &[3, 6])]);
        assert!(run(Technique::XYWing, &grid).is_none());
        let step = run(Technique::XYZWing, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(2, 3, 3)]);
    }
}

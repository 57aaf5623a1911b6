//! Anti-taxicab: no digit d is a taxicab distance of exactly d from the same digit, the distance
//! counted in steps between side-by-side cells (rows apart plus columns apart). A related pair
//! for each two cells no house keeps apart whose distance is a digit of the grid, the parameter
//! that distance: such a pair may hold any two digits but not that one twice.

use super::{Builder, Family, PairRule};
use crate::constraints::Constraints;
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, MAX_PAIRS, Variant};

/// Two cells a taxicab distance apart, the parameter the distance.
pub(crate) static APART: PairRule = PairRule {
    unit: Unit::AntiTaxicab,
    holds: |first, second, distance| first != distance || second != distance,
    reason: |first, second, distance| {
        format!("{first} and {second} are a taxicab distance of {distance} apart, so they can't both be {distance}")
    },
    increasing: false,
};

/// The anti-taxicab rule.
pub(crate) struct AntiTaxicab;

impl Family for AntiTaxicab {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        if !constraints.anti_taxicab {
            return Ok(());
        }
        let size = rules.shape.size();
        let mut houses_of = vec![Vec::new(); rules.shape.cells()];
        for (house, cells) in rules.houses.chunks_exact(size).enumerate() {
            cells.iter().for_each(|&cell| houses_of[usize::from(cell)].push(house));
        }
        // Cells that share a house never hold one digit: the pair would add nothing.
        let apart =
            |first: usize, second: usize| !houses_of[first].iter().any(|house| houses_of[second].contains(house));
        let pairs: Vec<(u16, u16, u32)> = (0..rules.shape.cells())
            .flat_map(|first| (first + 1..rules.shape.cells()).map(move |second| (first, second)))
            .filter_map(|(first, second)| {
                let distance = taxicab(size, first, second);
                (distance <= size && apart(first, second)).then_some((first as u16, second as u16, distance as u32))
            })
            .collect();
        if rules.pairs.len() + pairs.len() > MAX_PAIRS {
            let message = format!(
                "relates {} pairs of cells on a {size}x{size} grid, beside {} others; at most {MAX_PAIRS} related pairs are taken",
                pairs.len(),
                rules.pairs.len()
            );
            return Err(ConstraintError::new("constraints.anti_taxicab", message));
        }
        for (first, second, distance) in pairs {
            rules.relate_by(first, second, &APART, distance);
        }
        Ok(())
    }

    /// Every two cells of one digit d a distance d apart, those in one house too (which the
    /// pairs leave to the house), as a knight's move within a box breaks anti-knight and the box.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        if !variant.constraints().anti_taxicab {
            return;
        }
        let size = variant.shape().size();
        for (first, &value) in cells.iter().enumerate().filter(|&(_, &value)| value != 0) {
            let far = |&second: &usize| cells[second] == value && taxicab(size, first, second) == usize::from(value);
            if (0..cells.len()).any(|second| far(&second)) {
                broken[first].insert(Unit::AntiTaxicab.into());
            }
        }
    }
}

/// The taxicab distance between cells `first` and `second` of a grid of `size`.
fn taxicab(size: usize, first: usize, second: usize) -> usize {
    (first / size).abs_diff(second / size) + (first % size).abs_diff(second % size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    fn variant(shape: Shape) -> Variant {
        Variant::new(shape, None, &Constraints { anti_taxicab: true, ..Constraints::default() }).unwrap()
    }

    /// On 9x9, r5c5 is related to every cell outside its row, column and box at most 9 steps
    /// away (the 64 around it, less the 4 of its box), each pair with its distance.
    #[test]
    fn a_pair_for_each_two_cells_no_house_keeps_apart_at_most_n_steps_away() {
        let nine = variant(Shape::CLASSIC);
        let centre = 40;
        let pairs: Vec<_> = nine.pairs_of(centre).iter().map(|&pair| nine.pairs[usize::from(pair)]).collect();
        assert_eq!(pairs.len(), 60);
        for pair in &pairs {
            let (first, second) = (usize::from(pair.first), usize::from(pair.second));
            let distance = taxicab(9, first, second) as u8;
            let relation = nine.relation(pair);
            assert!(!relation.holds(distance, distance), "{pair:?}");
            assert!((1..=9).filter(|&digit| digit != distance).all(|digit| relation.holds(digit, digit)));
            assert!(relation.holds(distance, distance % 9 + 1));
        }
        // The corner r1c1 reaches r9c2 (9 steps) but not r9c3 (10).
        let corner: Vec<_> = nine.pairs_of(0).iter().map(|&pair| nine.pairs[usize::from(pair)].second).collect();
        assert!(corner.contains(&73) && !corner.contains(&74), "{corner:?}");
        assert_eq!(variant(Shape::new(2, 2).unwrap()).pairs.len(), 54);
        assert_eq!(variant(Shape::new(4, 4).unwrap()).pairs.len(), 22_888);
    }

    #[test]
    fn a_grid_with_more_pairs_than_are_taken_is_refused_naming_the_rule() {
        let constraints = Constraints { anti_taxicab: true, ..Constraints::default() };
        let error = Variant::new(Shape::new(5, 5).unwrap(), None, &constraints).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`constraints.anti_taxicab`: relates 145100 pairs of cells on a 25x25 grid, beside 0 others; at most 65536 related pairs are taken"
        );
    }

    /// A 2 two steps from a 2 breaks the rule, in a row (beside the row) or across; a 2 three
    /// steps away or a 3 two steps away does not.
    #[test]
    fn a_digit_its_own_distance_from_itself_is_a_conflict() {
        let nine = variant(Shape::CLASSIC);
        let conflicts = |places: &[(usize, u8)]| {
            let mut cells = [0u8; 81];
            places.iter().for_each(|&(cell, value)| cells[cell] = value);
            let broken = nine.broken(&cells);
            let named = |cell: usize| broken[cell].contains(Unit::AntiTaxicab.into());
            places.iter().map(|&(cell, _)| named(cell)).collect::<Vec<_>>()
        };
        assert_eq!(conflicts(&[(0, 2), (10, 2)]), [true, true]);
        assert_eq!(conflicts(&[(0, 2), (2, 2)]), [true, true]);
        assert_eq!(conflicts(&[(0, 2), (40, 2), (50, 3), (69, 3)]), [false, false, true, true]);
        assert_eq!(conflicts(&[(0, 2), (3, 2), (36, 3), (37, 3)]), [false, false, false, false]);
    }
}

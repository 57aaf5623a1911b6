//! Killer cages: no digit repeats in a cage, and its digits add up to its sum when it has one;
//! and the innies and outies the cages make with the houses ([`sum_groups`]).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Builder, Family, mark_repeats};
use crate::constraints::{Constraints, Place};
use crate::member::{self, Object, object_traits};
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

pub mod sum_groups;

/// Most cages a variant may have: the solver keeps one bit per cage.
pub const MAX_CAGES: usize = 640;

/// Most cells a cage's sum is worked out for by listing its digit sets; beyond, a cage's sum
/// bounds its digits by the smallest and largest sums instead (see [`CageRule::combinations`]).
const MAX_COMBINATIONS: usize = 4096;

/// A killer cage.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct Cage {
    /// Its cells, 1 to N of them.
    pub cells: Vec<Place>,
    /// The sum of its digits; absent, only that they differ.
    #[serde(default, deserialize_with = "member::optional_integer", skip_serializing_if = "Option::is_none")]
    pub sum: Option<u64>,
}

impl Object for Cage {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Cage, D::Error> {
        Cage::deserialize(deserializer)
    }
}

object_traits!(Cage);

impl Serialize for Cage {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Cage::serialize(self, serializer)
    }
}

/// A cage, checked: its cells and, for a sum, the digit sets that make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CageRule {
    /// The cage's cells, row-major.
    pub cells: Vec<u16>,
    /// What its digits add up to, when the cage has a sum.
    pub sum: Option<u32>,
    /// Every set of distinct digits of the cage's size that adds up to its sum, as bit sets;
    /// empty for a cage without a sum, or with more sets than are worth listing.
    pub combinations: Vec<u32>,
}

impl CageRule {
    /// The digits the cage's open cells may still hold: those of the digit sets that make its
    /// sum, hold its `placed` digits (adding up to `placed_sum`) and fit the union of its
    /// `open_count` open cells' candidates, `open`; for a cage with too many sets to list, those
    /// the remaining sum allows. `None` when the sum can no longer be made; every digit for a
    /// cage without a sum.
    pub fn open_digits(&self, size: u32, placed: u32, placed_sum: u32, open: u32, open_count: u32) -> Option<u32> {
        let full = (1u32 << size) - 1;
        let Some(sum) = self.sum else { return Some(full & !placed) };
        if open_count == 0 {
            return (placed_sum == sum).then_some(0);
        }
        let allowed = if self.combinations.is_empty() {
            // Digits d that leave the other open cells a sum of different digits they can make.
            let rest = sum.checked_sub(placed_sum)?;
            let others = open_count - 1;
            let smallest = others * (others + 1) / 2;
            let largest = others * (2 * size + 1 - others) / 2;
            let low = rest.saturating_sub(largest).max(1);
            let high = rest.checked_sub(smallest)?.min(size);
            if low > high {
                return None;
            }
            ((1u32 << high) - 1) & !((1u32 << (low - 1)) - 1)
        } else {
            let sets = self.combinations.iter().filter(|&&set| set & placed == placed && set & !placed & !open == 0);
            sets.fold(0, |allowed, set| allowed | set)
        };
        let allowed = allowed & !placed;
        (allowed != 0).then_some(allowed)
    }
}

/// The cages.
pub(crate) struct Cages;

impl Family for Cages {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        if constraints.cages.len() > MAX_CAGES {
            let message = format!("has {} cages; at most {MAX_CAGES} are taken", constraints.cages.len());
            return Err(ConstraintError::new("constraints.cages", message));
        }
        for (number, cage) in constraints.cages.iter().enumerate() {
            let cage = read(rules, cage, &format!("constraints.cages[{number}]"))?;
            rules.cages.push(cage);
        }
        Ok(())
    }

    /// A digit repeated in a cage; a cage over its sum, or full and short of it.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        for cage in &variant.cages {
            mark_repeats(cells, &cage.cells, Unit::Cage, broken);
            let Some(sum) = cage.sum else { continue };
            let filled: Vec<u16> = cage.cells.iter().copied().filter(|&cell| cells[usize::from(cell)] != 0).collect();
            let total: u32 = filled.iter().map(|&cell| u32::from(cells[usize::from(cell)])).sum();
            // Each empty cell adds at least 1.
            let empty = (cage.cells.len() - filled.len()) as u32;
            if total + empty > sum || (empty == 0 && total != sum) {
                filled.iter().for_each(|&cell| broken[usize::from(cell)].insert(Unit::CageSum.into()));
            }
        }
    }
}

/// A cage checked: cells inside the grid, none twice, at most N of them, and a sum its digits
/// can make.
fn read(rules: &Builder, cage: &Cage, member: &str) -> Result<CageRule, ConstraintError> {
    let size = rules.shape.size();
    let cells = rules.cells(&cage.cells, &format!("{member}.cells"))?;
    let count = cells.len();
    if count > size {
        let message = format!("has {count} cells; a cage's digits differ, so it has at most {size}");
        return Err(ConstraintError::new(member, message));
    }
    let Some(sum) = cage.sum else {
        return Ok(CageRule { cells, sum: None, combinations: Vec::new() });
    };
    // The smallest sum of `count` different digits is 1 + ... + count, the largest
    // N + ... + (N - count + 1); every sum between is made by some set.
    let smallest = (count * (count + 1) / 2) as u64;
    let largest = (count * (2 * size + 1 - count) / 2) as u64;
    if !(smallest..=largest).contains(&sum) {
        let message = format!(
            "no {count} different digits from 1 to {size} add up to {sum} (their sums run from {smallest} to {largest})"
        );
        return Err(ConstraintError::new(format!("{member}.sum"), message));
    }
    let sum = sum as u32;
    Ok(CageRule { cells, sum: Some(sum), combinations: combinations(size, count, sum) })
}

/// Every set of `count` different digits from 1 to `size` adding up to `sum`, as bit sets; empty
/// when there are more than [`MAX_COMBINATIONS`].
fn combinations(size: usize, count: usize, sum: u32) -> Vec<u32> {
    fn extend(next: u32, size: u32, left: usize, sum: u32, set: u32, found: &mut Vec<u32>) -> bool {
        if left == 0 {
            if sum == 0 {
                found.push(set);
            }
            return found.len() <= MAX_COMBINATIONS;
        }
        // The largest the rest can add up to: the `left` largest digits.
        let left_u32 = left as u32;
        if left_u32 * size - left_u32 * (left_u32 - 1) / 2 < sum {
            return true;
        }
        for digit in next..=size {
            // The smallest the rest can add up to from here on.
            if digit * left as u32 + (left as u32 - 1) * left as u32 / 2 > sum {
                break;
            }
            if !extend(digit + 1, size, left - 1, sum - digit, set | 1 << (digit - 1), found) {
                return false;
            }
        }
        true
    }
    let mut found = Vec::new();
    if extend(1, size as u32, count, sum, 0, &mut found) { found } else { Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cage_lists_every_digit_set_that_makes_its_sum() {
        for count in 1..=9 {
            for sum in 1..=45 {
                let mut expected: Vec<u32> = (0u32..512)
                    .filter(|set| {
                        set.count_ones() as usize == count
                            && (0..9).filter(|d| set >> d & 1 == 1).map(|d| d + 1).sum::<u32>() == sum
                    })
                    .collect();
                let mut found = combinations(9, count, sum);
                found.sort_unstable();
                expected.sort_unstable();
                assert_eq!(found, expected, "{count} cells, {sum}");
            }
        }
        // Too many sets to list: 12 of 25 digits adding up to 156.
        assert!(combinations(25, 12, 156).is_empty());
    }
}

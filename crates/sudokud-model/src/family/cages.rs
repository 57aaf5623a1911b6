//! Killer cages: no digit repeats in a cage, and its digits add up to its sum when it has one;
//! and the innies and outies the cages make with the houses ([`sum_groups`]).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use std::ops::RangeInclusive;

use super::{Builder, Family, mark_repeats, side_by_side};
use crate::constraints::{Constraints, Place};
use crate::member::{self, Object, object_traits};
use crate::random::SplitMix64;
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

impl Cage {
    /// Cages that cover a grid of `size`, cut from its solution `cells` (row-major): each grown
    /// from a random free cell through free neighbours side by side whose digits it does not hold
    /// yet, to a number of cells drawn from `sizes` when it can; its sum is its digits'.
    pub fn cut_from(size: usize, cells: &[u8], sizes: RangeInclusive<usize>, random: &mut SplitMix64) -> Vec<Cage> {
        let mut cage_of = vec![usize::MAX; cells.len()];
        let mut cages: Vec<Vec<usize>> = Vec::new();
        let mut order: Vec<usize> = (0..cells.len()).collect();
        random.shuffle(&mut order);
        for start in order {
            if cage_of[start] != usize::MAX {
                continue;
            }
            let target = sizes.start() + random.below(sizes.end() - sizes.start() + 1);
            let mut cage = vec![start];
            cage_of[start] = cages.len();
            while cage.len() < target {
                let free: Vec<usize> = cage
                    .iter()
                    .flat_map(|&cell| side_by_side(size, cell))
                    .filter(|&other| {
                        cage_of[other] == usize::MAX && !cage.iter().any(|&cell| cells[cell] == cells[other])
                    })
                    .collect();
                if free.is_empty() {
                    break;
                }
                let next = free[random.below(free.len())];
                cage_of[next] = cages.len();
                cage.push(next);
            }
            cages.push(cage);
        }
        cages
            .into_iter()
            .map(|cage| {
                let sum = cage.iter().map(|&cell| u64::from(cells[cell])).sum();
                let mut cage: Vec<Place> =
                    cage.into_iter().map(|cell| Place((cell / size) as u64, (cell % size) as u64)).collect();
                cage.sort_unstable_by_key(|place| (place.0, place.1));
                Cage { cells: cage, sum: Some(sum) }
            })
            .collect()
    }
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

    /// The digits every listed set that makes the sum, holds the `placed` digits and fits the
    /// open cells' candidates `open` has beyond `placed`: digits the open cells must take (three
    /// cells making 8 are {1,2,5} or {1,3,4}: 1 is required). None for a cage without a list, or
    /// when no set fits.
    pub fn required_digits(&self, placed: u32, open: u32) -> u32 {
        let sets = self.combinations.iter().filter(|&&set| set & placed == placed && set & !placed & !open == 0);
        let common = sets.fold(u32::MAX, |common, set| common & set);
        if self.combinations.is_empty() || common == u32::MAX { 0 } else { common & !placed }
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

/// The most cells whose ways of making a sum [`sum_support`] lists: five distinct digits make a
/// sum in at most 126 x 120 orders.
pub const MAX_SUM_CELLS: usize = 5;

/// What the ways of filling cells with digits of their candidate `sets` (at most
/// [`MAX_SUM_CELLS`]) that add up to a sum have in common.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SumSupport {
    /// Per cell, the candidates it takes in some way; empty for all when there is none.
    pub cells: [u32; MAX_SUM_CELLS],
    /// The digits every way uses (every digit when there is none).
    pub required: u32,
}

/// Every way of filling cells with digits of their candidate `sets` adding up to `sum`, a cell's
/// digit differing from those of the earlier cells `apart[i]` names (a bit per earlier cell: its
/// peers), walked depth first with the least and most the cells left can make as bounds: a cage's
/// or innies' sum, digit by digit, as a person lists them.
pub fn sum_support(sets: &[u32], apart: &[u32], sum: u32) -> SumSupport {
    assert!(sets.len() <= MAX_SUM_CELLS && apart.len() == sets.len(), "at most five cells, each with its peers");
    // The least and most the cells from the i-th on can add up to.
    let (mut least, mut most) = ([0u32; MAX_SUM_CELLS + 1], [0u32; MAX_SUM_CELLS + 1]);
    for index in (0..sets.len()).rev() {
        let set = sets[index];
        least[index] = least[index + 1] + set.trailing_zeros() + 1;
        most[index] = most[index + 1] + 32 - set.leading_zeros();
    }
    struct Walk<'w> {
        sets: &'w [u32],
        apart: &'w [u32],
        least: &'w [u32],
        most: &'w [u32],
        chosen: [u32; MAX_SUM_CELLS],
        support: SumSupport,
    }
    impl Walk<'_> {
        fn from(&mut self, index: usize, left: u32) {
            if index == self.sets.len() {
                if left != 0 {
                    return;
                }
                let mut used = 0;
                for (support, &digit) in self.support.cells.iter_mut().zip(&self.chosen[..index]) {
                    *support |= 1 << (digit - 1);
                    used |= 1 << (digit - 1);
                }
                self.support.required &= used;
                return;
            }
            if left < self.least[index] || left > self.most[index] {
                return;
            }
            let mut taken = 0;
            let mut earlier = self.apart[index];
            while earlier != 0 {
                taken |= 1 << (self.chosen[earlier.trailing_zeros() as usize] - 1);
                earlier &= earlier - 1;
            }
            let mut digits = self.sets[index] & !taken;
            while digits != 0 {
                let digit = digits.trailing_zeros() + 1;
                digits &= digits - 1;
                if digit > left {
                    break;
                }
                self.chosen[index] = digit;
                self.from(index + 1, left - digit);
            }
        }
    }
    let mut walk = Walk {
        sets,
        apart,
        least: &least,
        most: &most,
        chosen: [0; MAX_SUM_CELLS],
        support: SumSupport { cells: [0; MAX_SUM_CELLS], required: u32::MAX },
    };
    walk.from(0, sum);
    walk.support
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

impl CageRule {
    /// A cage no clue draws: `cells`, all of one house, whose digits the 45 rule says add up to
    /// `sum` (a house's innies). Its digits differ as a drawn cage's do.
    pub fn hidden(size: usize, cells: Vec<u16>, sum: u32) -> CageRule {
        let combinations = combinations(size, cells.len(), sum);
        CageRule { cells, sum: Some(sum), combinations }
    }
}

/// Every set of `count` different digits from 1 to `size` adding up to `sum`, as bit sets; empty
/// when there are more than [`MAX_COMBINATIONS`].
fn combinations(size: usize, count: usize, sum: u32) -> Vec<u32> {
    digit_sets(size, count, sum).unwrap_or_default()
}

/// Every set of `count` different digits from 1 to `size` adding up to `sum`, as bit sets; `None`
/// when there are more than [`MAX_COMBINATIONS`].
pub(crate) fn digit_sets(size: usize, count: usize, sum: u32) -> Option<Vec<u32>> {
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
    extend(1, size as u32, count, sum, 0, &mut found).then_some(found)
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

    #[test]
    fn required_digits_are_in_every_digit_set_that_still_fits() {
        // Random cages, placed digits and open candidates, against the sets of 1-9 counted afresh.
        let mut state = 5u64;
        let mut next = |bound: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % bound
        };
        for _ in 0..2_000 {
            let count = 2 + next(6) as usize;
            let sum = count as u32 * (count as u32 + 1) / 2 + next(20) as u32;
            let cage = CageRule {
                cells: (0..count as u16).collect(),
                sum: Some(sum),
                combinations: combinations(9, count, sum),
            };
            let placed =
                (0..9).filter(|_| next(6) == 0).take(count - 1).fold(0u32, |placed, digit| placed | 1 << digit);
            let open = next(512) as u32;
            let fitting = (0u32..512).filter(|set| {
                let total: u32 = (0..9).filter(|d| set >> d & 1 == 1).map(|d| d + 1).sum();
                set.count_ones() as usize == count
                    && total == sum
                    && set & placed == placed
                    && set & !placed & !open == 0
            });
            let common = fitting.fold(None, |common: Option<u32>, set| Some(common.map_or(set, |common| common & set)));
            assert_eq!(
                cage.required_digits(placed, open),
                common.map_or(0, |common| common & !placed),
                "{count} cells, {sum}"
            );
        }
    }

    #[test]
    fn sum_support_is_what_every_way_of_making_the_sum_has() {
        // Cells of random candidates (digits 1-9) and random peer links, against every filling.
        let mut state = 11u64;
        let mut next = |bound: u64| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) % bound
        };
        for _ in 0..500 {
            let count = 1 + next(MAX_SUM_CELLS as u64) as usize;
            let sets: Vec<u32> = (0..count).map(|_| 1 + next(511) as u32).collect();
            let apart: Vec<u32> = (0..count).map(|index| next(1 << index) as u32).collect();
            let sum = 1 + next(40) as u32;
            let mut expected = SumSupport { cells: [0; MAX_SUM_CELLS], required: u32::MAX };
            let mut digits = vec![1u32; count];
            loop {
                let fits = (0..count).all(|i| sets[i] >> (digits[i] - 1) & 1 == 1)
                    && (0..count).all(|i| (0..i).all(|j| apart[i] >> j & 1 == 0 || digits[i] != digits[j]))
                    && digits.iter().sum::<u32>() == sum;
                if fits {
                    let used = digits.iter().fold(0, |used, digit| used | 1 << (digit - 1));
                    (0..count).for_each(|i| expected.cells[i] |= 1 << (digits[i] - 1));
                    expected.required &= used;
                }
                let Some(position) = digits.iter().position(|&digit| digit < 9) else { break };
                digits[position] += 1;
                digits[..position].iter_mut().for_each(|digit| *digit = 1);
            }
            assert_eq!(sum_support(&sets, &apart, sum), expected, "{sets:?} {apart:?} {sum}");
        }
    }
}

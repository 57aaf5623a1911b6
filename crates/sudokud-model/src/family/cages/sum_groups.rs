//! Innies and outies, the killer player's "45 rule": cells whose digits add up to a known sum
//! though no cage says so.
//!
//! A house holds 1 to N once each, so its cells add up to N(N+1)/2, and k consecutive rows or
//! columns to k times that. Take away the cages wholly inside such an area, and the cells left
//! (the innies) add up to the rest; when the cages that touch the area cover it, the cells of
//! those cages outside it (the outies) add up to what the cages exceed the area by. Both depend
//! only on where the cages lie, so they are found once per variant, and the logic engine reads
//! each as one more cage with a sum.

use super::{CageRule, MAX_CAGES};
use crate::unit::Unit;

/// Cells of a variant whose digits add up to `sum` by the 45 rule over `houses`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumGroup {
    /// The innies or outies, in row-major order.
    pub cells: Vec<u16>,
    /// What their digits add up to.
    pub sum: u32,
    /// The area: one house, or consecutive rows or columns (houses `0..N`, `N..2N`).
    pub houses: Vec<u16>,
    /// What the area's digits add up to.
    pub total: u32,
    /// The sums of the cages wholly inside the area (innies), or of every cage that covers it
    /// (outies).
    pub cages: u32,
    /// Whether the cells lie outside the area (outies) rather than inside it (innies).
    pub outies: bool,
}

/// The innie and outie groups of a variant with `houses` (N cells each, of kinds `units`) and
/// `cages`, each set of cells once, areas in house order, then wider line unions, then pairs of
/// boxes or regions side by side, at most [`MAX_CAGES`] (the solver keeps them beside the cages). Groups of more than N cells are left
/// out: no one adds those up. None when cages with sums overlap, where cells would count twice.
pub fn sum_groups(size: usize, houses: &[u16], units: &[Unit], cages: &[CageRule]) -> Vec<SumGroup> {
    let cells = size * size;
    let Some(cage_of) = summed_cage_of(cells, cages) else { return Vec::new() };
    if cage_of.iter().all(Option::is_none) {
        return Vec::new();
    }
    let house = |number: usize| &houses[number * size..(number + 1) * size];
    let mut areas: Vec<Vec<u16>> = (0..units.len()).map(|number| vec![number as u16]).collect();
    areas.extend(line_runs(size, units));
    // Two boxes or regions side by side, the killer player's 45 rule on a pair of boxes.
    let blocks: Vec<usize> =
        (0..units.len()).filter(|&number| matches!(units[number], Unit::Box | Unit::Region)).collect();
    let mut in_second = vec![false; cells];
    for (at, &first) in blocks.iter().enumerate() {
        for &second in &blocks[at + 1..] {
            house(second).iter().for_each(|&cell| in_second[usize::from(cell)] = true);
            let touches = house(first).iter().map(|&cell| usize::from(cell)).any(|cell| {
                let (row, col) = (cell / size, cell % size);
                (col + 1 < size && in_second[cell + 1])
                    || (col > 0 && in_second[cell - 1])
                    || (row + 1 < size && in_second[cell + size])
                    || (row > 0 && in_second[cell - size])
            });
            house(second).iter().for_each(|&cell| in_second[usize::from(cell)] = false);
            if touches {
                areas.push(vec![first as u16, second as u16]);
            }
        }
    }
    let house_total = (size * (size + 1) / 2) as u32;
    let mut groups: Vec<SumGroup> = Vec::new();
    let mut inside = vec![false; cells];
    for area in areas {
        let area_cells = || area.iter().flat_map(|&number| house(usize::from(number)).iter().copied());
        area_cells().for_each(|cell| inside[usize::from(cell)] = true);
        let total = house_total * area.len() as u32;
        let (mut inside_sum, mut innies, mut touching, mut covered) = (0u32, Vec::new(), Vec::new(), true);
        for cell in area_cells() {
            match cage_of[usize::from(cell)] {
                Some(number) if cages[number].cells.iter().all(|&mate| inside[usize::from(mate)]) => {
                    // Counted once, at the cage's first cell.
                    if cages[number].cells.iter().min() == Some(&cell) {
                        inside_sum += cages[number].sum.unwrap_or_default();
                    }
                }
                Some(number) => {
                    innies.push(cell);
                    if !touching.contains(&number) {
                        touching.push(number);
                    }
                }
                None => {
                    innies.push(cell);
                    covered = false;
                }
            }
        }
        let mut found = Vec::new();
        if let Some(sum) = total.checked_sub(inside_sum).filter(|_| inside_sum > 0) {
            found.push(SumGroup { cells: innies, sum, houses: area.clone(), total, cages: inside_sum, outies: false });
        }
        if covered && !touching.is_empty() {
            let cover = inside_sum + touching.iter().map(|&number| cages[number].sum.unwrap_or_default()).sum::<u32>();
            let outies = touching.iter().flat_map(|&number| cages[number].cells.iter().copied());
            let outies: Vec<u16> = outies.filter(|&cell| !inside[usize::from(cell)]).collect();
            if let Some(sum) = cover.checked_sub(total) {
                found.push(SumGroup { cells: outies, sum, houses: area.clone(), total, cages: cover, outies: true });
            }
        }
        for mut group in found {
            group.cells.sort_unstable();
            let fresh = !groups.iter().any(|seen| seen.cells == group.cells);
            if fresh && (1..=size).contains(&group.cells.len()) && groups.len() < MAX_CAGES {
                groups.push(group);
            }
        }
        area_cells().for_each(|cell| inside[usize::from(cell)] = false);
    }
    groups
}

/// The cage with a sum each of `cells` cells is in, if any; `None` when such cages overlap, where
/// cells would count twice.
fn summed_cage_of(cells: usize, cages: &[CageRule]) -> Option<Vec<Option<usize>>> {
    let mut cage_of = vec![None; cells];
    for (number, cage) in cages.iter().enumerate().filter(|(_, cage)| cage.sum.is_some()) {
        for &cell in &cage.cells {
            if cage_of[usize::from(cell)].replace(number).is_some() {
                return None;
            }
        }
    }
    Some(cage_of)
}

/// Every run of 2 to N - 1 consecutive rows, then of columns, as house numbers, when the rows and
/// columns are houses 0..N and N..2N.
fn line_runs(size: usize, units: &[Unit]) -> Vec<Vec<u16>> {
    let lines_first = units.len() >= 2 * size
        && units[..2 * size]
            .iter()
            .enumerate()
            .all(|(number, &unit)| unit == if number < size { Unit::Row } else { Unit::Column });
    if !lines_first {
        return Vec::new();
    }
    let mut runs = Vec::new();
    for first_line in [0, size] {
        for width in 2..size {
            for start in first_line..=first_line + size - width {
                runs.push((start..start + width).map(|number| number as u16).collect());
            }
        }
    }
    runs
}

/// Cells whose digits add up to `difference` more than other cells' digits do, by the 45 rule
/// over an area: the innies of the area less the outies of the cages mostly inside it. A
/// killer's meandering cages rarely leave innies alone or outies alone, but taking in each cage
/// most of whose cells are inside leaves few cells sticking out either way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SumDifference {
    /// The cells added (the innies), then the cells taken away (the outies), each in row-major
    /// order.
    pub cells: Vec<u16>,
    /// How many of `cells` are added.
    pub added: usize,
    /// What the added digits add up to less the taken ones.
    pub difference: i32,
}

/// Most cells a difference may have: more are too loose to narrow anything (on hard killers, 5
/// left more guesses and 9 no fewer).
const MOST_DIFFERENCE_CELLS: usize = 6;

/// The sum differences of a variant with `houses` (N cells each, of kinds `units`) and `cages`
/// with sums: over every run of 2 to N - 1 consecutive rows, and of columns, the cages with more
/// than half their cells inside taken in. Kept where the innies or the outies are at most two
/// cells and all at most six, each once, at most [`MAX_CAGES`]. Runs of
/// boxes measured no better. None where cages with sums overlap.
pub fn sum_differences(size: usize, houses: &[u16], units: &[Unit], cages: &[CageRule]) -> Vec<SumDifference> {
    let cells = size * size;
    if summed_cage_of(cells, cages).is_none() {
        return Vec::new();
    }
    let summed: Vec<&CageRule> = cages.iter().filter(|cage| cage.sum.is_some()).collect();
    let house = |number: usize| &houses[number * size..(number + 1) * size];
    let total = (size * (size + 1) / 2) as i32;
    let mut found: Vec<SumDifference> = Vec::new();
    for area in line_runs(size, units) {
        let mut inside = vec![false; cells];
        area.iter().flat_map(|&number| house(usize::from(number))).for_each(|&cell| inside[usize::from(cell)] = true);
        let mut taken = vec![false; cells];
        let mut pieces_sum = 0i32;
        for cage in &summed {
            let within = cage.cells.iter().filter(|&&cell| inside[usize::from(cell)]).count();
            if 2 * within > cage.cells.len() {
                pieces_sum += cage.sum.unwrap_or_default() as i32;
                cage.cells.iter().for_each(|&cell| taken[usize::from(cell)] = true);
            }
        }
        let innies: Vec<u16> =
            (0..cells).filter(|&cell| inside[cell] && !taken[cell]).map(|cell| cell as u16).collect();
        let outies: Vec<u16> =
            (0..cells).filter(|&cell| taken[cell] && !inside[cell]).map(|cell| cell as u16).collect();
        let length = innies.len() + outies.len();
        if length == 0 || length > MOST_DIFFERENCE_CELLS.min(size) || innies.len().min(outies.len()) > 2 {
            continue;
        }
        let difference = total * area.len() as i32 - pieces_sum;
        let added = innies.len();
        let cells = [innies, outies].concat();
        if !found.iter().any(|seen| seen.cells == cells && seen.added == added) && found.len() < MAX_CAGES {
            found.push(SumDifference { cells, added, difference });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constraints::Constraints;
    use crate::shape::Shape;
    use crate::variant::Variant;

    #[test]
    fn one_cage_sticking_out_of_a_row_gives_one_innie_and_one_outie() {
        // Row 1 of a 4x4 grid: a cage of r1c1-r1c3 (sum 6) inside, and r1c4 caged with r2c4
        // (sum 7): the innie r1c4 adds up to 10 - 6 = 4, the outie r2c4 to 6 + 7 - 10 = 3.
        let constraints: Constraints = serde_json::from_value(serde_json::json!({
            "cages": [{"cells": [[0, 0], [0, 1], [0, 2]], "sum": 6}, {"cells": [[0, 3], [1, 3]], "sum": 7}]
        }))
        .unwrap();
        let variant = Variant::new(Shape::new(2, 2).unwrap(), None, &constraints).unwrap();
        let row = |group: &&SumGroup| group.houses == [0];
        let found: Vec<(Vec<u16>, u32, bool)> =
            variant.sum_groups.iter().filter(row).map(|group| (group.cells.clone(), group.sum, group.outies)).collect();
        assert_eq!(found, [(vec![3], 4, false), (vec![7], 3, true)]);
    }

    #[test]
    fn overlapping_cages_give_no_groups() {
        let constraints: Constraints = serde_json::from_value(serde_json::json!({
            "cages": [{"cells": [[0, 0], [0, 1]], "sum": 3}, {"cells": [[0, 1], [1, 1]], "sum": 5}]
        }))
        .unwrap();
        let variant = Variant::new(Shape::new(2, 2).unwrap(), None, &constraints).unwrap();
        assert!(variant.sum_groups.is_empty());
    }
}

//! The houses beside rows and columns: the shape's boxes, or a jigsaw's regions in their place.

use serde::{Deserialize, Serialize};

use super::{Builder, Family, side_by_side};
use crate::constraints::Constraints;
use crate::layout::Layout;
use crate::member;
use crate::random::SplitMix64;
use crate::shape::Shape;
use crate::unit::Unit;
use crate::variant::ConstraintError;

/// A jigsaw's regions: N rows of N region ids, or one string of N x N characters, each
/// character a cell's region. Any ids will do, as long as there are N of them, N cells each.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(untagged, expecting = "N rows of N region ids, or a string of N x N characters")]
pub enum Regions {
    /// One string, a character per cell, row-major.
    Line(String),
    /// A row of region ids per row of the grid.
    Rows(Vec<Vec<RegionId>>),
}

/// A region's id in [`Regions::Rows`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(transparent)]
pub struct RegionId(#[serde(deserialize_with = "member::integer")] pub u64);

impl Regions {
    /// N connected regions of N cells for a jigsaw of `shape` made to order: the boxes,
    /// reshaped by swapping cells across region borders at random, each swap kept only when both
    /// regions stay connected.
    pub fn random(shape: Shape, random: &mut SplitMix64) -> Regions {
        let size = shape.size();
        let cells = shape.cells();
        let mut region: Vec<usize> = (0..cells).map(|cell| shape.box_of(cell / size, cell % size)).collect();
        let neighbours = |cell: usize| side_by_side(size, cell);
        let connected = |region: &[usize], id: usize| {
            let members: Vec<usize> = (0..cells).filter(|&cell| region[cell] == id).collect();
            let mut reached = vec![members[0]];
            let mut next = 0;
            while next < reached.len() {
                let cell = reached[next];
                next += 1;
                for other in neighbours(cell) {
                    if region[other] == id && !reached.contains(&other) {
                        reached.push(other);
                    }
                }
            }
            reached.len() == members.len()
        };
        for _ in 0..cells * 8 {
            let first = random.below(cells);
            let across: Vec<usize> = neighbours(first).filter(|&other| region[other] != region[first]).collect();
            if across.is_empty() {
                continue;
            }
            let second = across[random.below(across.len())];
            let (a, b) = (region[first], region[second]);
            // A cell of b next to `first`'s region moves to a, and `first` moves to b: sizes stay.
            let movers: Vec<usize> = (0..cells)
                .filter(|&cell| region[cell] == b && cell != second && neighbours(cell).any(|n| region[n] == a))
                .collect();
            let candidates: Vec<usize> = std::iter::once(second).chain(movers).collect();
            let taken = candidates[random.below(candidates.len())];
            region[first] = b;
            region[taken] = a;
            if !(connected(&region, a) && connected(&region, b)) {
                region[first] = a;
                region[taken] = b;
            }
        }
        Regions::Rows(region.chunks(size).map(|row| row.iter().map(|&id| RegionId(id as u64)).collect()).collect())
    }
}

impl Family for Regions {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        match &constraints.regions {
            None => {
                let boxes = Layout::of(rules.shape).houses().skip(2 * size).take(size);
                boxes.for_each(|house| rules.add_house(house.iter().copied(), Unit::Box));
            }
            Some(regions) => {
                for region in read(rules, regions)? {
                    rules.add_house(region, Unit::Region);
                }
            }
        }
        Ok(())
    }
}

/// The regions' cells, each region's in row-major order, regions in the order their first cells
/// come.
fn read(rules: &Builder, regions: &Regions) -> Result<Vec<Vec<u16>>, ConstraintError> {
    const MEMBER: &str = "constraints.regions";
    let shape = rules.shape;
    let size = shape.size();
    let ids: Vec<u64> = match regions {
        Regions::Line(line) => line.chars().filter(|c| !c.is_whitespace()).map(u64::from).collect(),
        Regions::Rows(rows) => {
            if rows.len() != size || rows.iter().any(|row| row.len() != size) {
                let message = format!("expected {size} rows of {size} region ids, one per cell");
                return Err(ConstraintError::new(MEMBER, message));
            }
            rows.iter().flatten().map(|id| id.0).collect()
        }
    };
    if ids.len() != shape.cells() {
        let message = format!("has {} cells; the {size}x{size} grid has {}", ids.len(), shape.cells());
        return Err(ConstraintError::new(MEMBER, message));
    }
    let mut order: Vec<u64> = Vec::new();
    let mut regions: Vec<Vec<u16>> = Vec::new();
    for (cell, id) in ids.into_iter().enumerate() {
        let number = match order.iter().position(|&known| known == id) {
            Some(number) => number,
            None => {
                order.push(id);
                regions.push(Vec::new());
                order.len() - 1
            }
        };
        regions[number].push(cell as u16);
    }
    if regions.len() != size {
        let message = format!("has {} regions; a {size}x{size} grid has {size} of {size} cells each", regions.len());
        return Err(ConstraintError::new(MEMBER, message));
    }
    if let Some(region) = regions.iter().find(|region| region.len() != size) {
        let message =
            format!("the region of {} has {} cells; every region has {size}", rules.name(region[0]), region.len());
        return Err(ConstraintError::new(MEMBER, message));
    }
    Ok(regions)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_regions_are_connected_and_of_n_cells() {
        let mut random = SplitMix64(9);
        for shape in [Shape::CLASSIC, Shape::new(3, 4).unwrap()] {
            let Regions::Rows(rows) = Regions::random(shape, &mut random) else { unreachable!("rows are made") };
            let size = shape.size();
            let ids: Vec<u64> = rows.iter().flatten().map(|id| id.0).collect();
            for id in 0..size as u64 {
                let members: Vec<usize> = (0..shape.cells()).filter(|&cell| ids[cell] == id).collect();
                assert_eq!(members.len(), size, "{shape}: region {id}");
                // Flood from the first cell through side-by-side cells of the region.
                let mut reached = vec![members[0]];
                let mut next = 0;
                while let Some(&cell) = reached.get(next) {
                    next += 1;
                    for &other in &members {
                        let near = (cell / size).abs_diff(other / size) + (cell % size).abs_diff(other % size) == 1;
                        if near && !reached.contains(&other) {
                            reached.push(other);
                        }
                    }
                }
                assert_eq!(reached.len(), size, "{shape}: region {id} is not connected");
            }
            // The boxes were reshaped.
            assert!((0..shape.cells()).any(|cell| ids[cell] as usize != shape.box_of(cell / size, cell % size)));
        }
    }
}

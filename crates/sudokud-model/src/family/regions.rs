//! The houses beside rows and columns: the shape's boxes, or a jigsaw's regions in their place.

use serde::{Deserialize, Serialize};

use super::{Builder, Family};
use crate::constraints::Constraints;
use crate::layout::Layout;
use crate::member;
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

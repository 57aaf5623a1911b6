//! Thermometers: digits strictly increase from the bulb along each.

use super::{Builder, Family, PairRule};
use crate::constraints::Constraints;
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// A thermometer's step, from the cell nearer the bulb: the first is smaller.
pub(crate) static RISING: PairRule = PairRule {
    unit: Unit::Thermometer,
    holds: |first, second, _| first < second,
    reason: |first, second, _| {
        format!("{first} and {second} are steps of a thermometer, {first} nearer the bulb, so {first} is smaller")
    },
    increasing: true,
};

/// The thermometers.
pub(crate) struct Thermometers;

impl Family for Thermometers {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        for (number, thermometer) in constraints.thermometers.iter().enumerate() {
            let member = format!("constraints.thermometers[{number}]");
            let path = rules.path(thermometer, &member)?;
            if path.len() > size {
                let found = path.len();
                return Err(ConstraintError::new(
                    member,
                    format!("has {found} cells; digits 1 to {size} rise along {size} at most"),
                ));
            }
            for step in path.windows(2) {
                rules.relate(step[0], step[1], &RISING);
            }
        }
        Ok(())
    }

    /// Two cells too close in value for the steps between them: 2 . 3 breaks it, though each
    /// step alone may yet rise.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        let size = variant.shape().size();
        for path in &variant.constraints().thermometers {
            let path: Vec<usize> = path.iter().map(|place| (place.0 as usize) * size + place.1 as usize).collect();
            for (step, &cell) in path.iter().enumerate() {
                for (later, &other) in path.iter().enumerate().skip(step + 2) {
                    let (a, b) = (cells[cell], cells[other]);
                    if a != 0 && b != 0 && usize::from(b) < usize::from(a) + (later - step) {
                        broken[cell].insert(Unit::Thermometer.into());
                        broken[other].insert(Unit::Thermometer.into());
                    }
                }
            }
        }
    }
}

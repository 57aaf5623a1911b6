//! Even and odd cells.

use super::{Builder, Family};
use crate::constraints::Constraints;
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

/// The even and odd cells.
pub(crate) struct Parity;

impl Family for Parity {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        // Digit d is bit d - 1: the even digits are the odd bits.
        for (places, digits, kind) in [(&constraints.even, 0xAAAA_AAAA, "even"), (&constraints.odd, 0x5555_5555, "odd")]
        {
            for (number, place) in places.iter().enumerate() {
                let cell = rules.cell(*place, &format!("constraints.{kind}[{number}]"))?;
                rules.allowed[usize::from(cell)] &= digits;
            }
        }
        if let Some(cell) = rules.allowed.iter().position(|&digits| digits == 0) {
            let message = format!("{} is marked both even and odd", rules.name(cell as u16));
            return Err(ConstraintError::new("constraints.even", message));
        }
        Ok(())
    }

    /// A digit of the wrong parity.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        for (cell, &value) in cells.iter().enumerate().filter(|&(_, &value)| value != 0) {
            if variant.allowed[cell] >> (value - 1) & 1 == 0 {
                broken[cell].insert(if value % 2 == 0 { Unit::Odd } else { Unit::Even }.into());
            }
        }
    }
}

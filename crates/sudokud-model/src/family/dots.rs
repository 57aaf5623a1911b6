//! Kropki dots between orthogonal neighbours: white for consecutive digits, black for one twice
//! the other, and, with every dot given, neither between two cells without a dot.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Builder, Family, PairRule, consecutive};
use crate::constraints::{Constraints, Place};
use crate::member::{Object, object_traits};
use crate::unit::Unit;
use crate::variant::ConstraintError;

/// Kropki dots, each between two orthogonal neighbours.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct Kropki {
    /// White dots: the two digits are consecutive.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub white: Vec<[Place; 2]>,
    /// Black dots: one digit is twice the other.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub black: Vec<[Place; 2]>,
    /// Every dot is given: two neighbours without a dot are neither consecutive nor in ratio 2.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub all_given: bool,
}

impl Kropki {
    /// Whether no dot is given and `all_given` is off: the grid has no Kropki rule.
    pub fn is_empty(&self) -> bool {
        *self == Kropki::default()
    }
}

impl Object for Kropki {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Kropki, D::Error> {
        Kropki::deserialize(deserializer)
    }
}

object_traits!(Kropki);

impl Serialize for Kropki {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Kropki::serialize(self, serializer)
    }
}

/// Whether one of two digits is twice the other (a pair rule's test: no parameter).
fn double(first: u32, second: u32, _: u32) -> bool {
    first == 2 * second || second == 2 * first
}

/// A white dot.
pub(crate) static WHITE: PairRule = PairRule {
    unit: Unit::Kropki,
    holds: consecutive,
    reason: |first, second, _| format!("{first} and {second} share a white dot, so they are consecutive"),
    increasing: false,
};

/// A black dot.
pub(crate) static BLACK: PairRule = PairRule {
    unit: Unit::Kropki,
    holds: double,
    reason: |first, second, _| format!("{first} and {second} share a black dot, so one is twice the other"),
    increasing: false,
};

/// Two neighbours without a dot, every dot given.
pub(crate) static NO_DOT: PairRule = PairRule {
    unit: Unit::Kropki,
    holds: |first, second, _| !consecutive(first, second, 0) && !double(first, second, 0),
    reason: |first, second, _| {
        format!(
            "{first} and {second} have no dot between them and every dot is given, so they are neither consecutive nor one twice the other"
        )
    },
    increasing: false,
};

/// The dots.
pub(crate) struct Dots;

impl Family for Dots {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let kropki = &constraints.kropki;
        let mut dotted = Vec::new();
        for (dots, rule, kind) in [(&kropki.white, &WHITE, "white"), (&kropki.black, &BLACK, "black")] {
            for (number, dot) in dots.iter().enumerate() {
                let member = format!("constraints.kropki.{kind}[{number}]");
                let (first, second) = rules.mark_cells(dot, &member)?;
                dotted.push((first.min(second), first.max(second)));
                rules.relate(first, second, rule);
            }
        }
        if kropki.all_given {
            rules.relate_unmarked(&dotted, &NO_DOT);
        }
        Ok(())
    }
}

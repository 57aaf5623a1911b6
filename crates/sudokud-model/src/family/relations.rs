//! Custom relations: a table of the digit pairs two cells may hold, the first cell's digit then
//! the second's, kept by each two cells in a row of a list (`neighbours`, ISS's `Pair`) or by
//! every two cells of a group (`every_two`, the earlier cell first, ISS's `PairX`). The cells
//! need not touch. Each distinct table (with its name) is one [`Relation`] of the rule set, read
//! by the engines as every other family's related pairs are.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::{Builder, Family, MAX_RELATIONS, Relation};
use crate::constraints::{Constraints, Place};
use crate::member::{self, Choice, Object, choice_traits, object_traits};
use crate::variant::ConstraintError;

/// The longest name a relation may have, in characters: it is drawn beside the cells and said
/// in sentences.
pub const MAX_NAME_CHARS: usize = 60;

/// Which two cells of a relation's list keep it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Between {
    /// Each cell and the next in the list (a line): ISS's `Pair`.
    #[default]
    Neighbours,
    /// Every two cells of the list, the earlier one first (a group): ISS's `PairX`.
    EveryTwo,
}

impl Choice for Between {
    const KIND: &'static str = "between";
    const ALL: &'static [Between] = &[Between::Neighbours, Between::EveryTwo];

    fn name(self) -> &'static str {
        match self {
            Between::Neighbours => "neighbours",
            Between::EveryTwo => "every_two",
        }
    }
}

choice_traits!(Between);

/// A pair of digits, the first cell's then the second's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub struct DigitPair(
    #[serde(deserialize_with = "member::integer")] pub u64,
    #[serde(deserialize_with = "member::integer")] pub u64,
);

/// One custom relation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct CustomRelation {
    /// The cells, in order (the order says which cell of each pair is first).
    pub cells: Vec<Place>,
    /// Which two cells keep the relation: each cell and the next, or every two.
    pub between: Between,
    /// The digit pairs the two cells may hold, the first cell's digit then the second's.
    pub allowed: Vec<DigitPair>,
    /// A label, drawn beside the cells and named in the technique's sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl Object for CustomRelation {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<CustomRelation, D::Error> {
        CustomRelation::deserialize(deserializer)
    }
}

object_traits!(CustomRelation);

impl Serialize for CustomRelation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        CustomRelation::serialize(self, serializer)
    }
}

impl CustomRelation {
    /// The pairs of its cells' indices (in `cells`) that keep it, first cell first.
    pub fn pairs(&self) -> Vec<(usize, usize)> {
        let count = self.cells.len();
        match self.between {
            Between::Neighbours => (1..count).map(|index| (index - 1, index)).collect(),
            Between::EveryTwo => {
                (0..count).flat_map(|first| (first + 1..count).map(move |second| (first, second))).collect()
            }
        }
    }
}

/// The custom relations.
pub(crate) struct Relations;

impl Family for Relations {
    fn build(constraints: &Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let size = rules.shape.size();
        for (number, custom) in constraints.relations.iter().enumerate() {
            let member = format!("constraints.relations[{number}]");
            let cells = rules.cells(&custom.cells, &format!("{member}.cells"))?;
            if cells.len() < 2 {
                return Err(ConstraintError::new(
                    format!("{member}.cells"),
                    "has 1 cell; a relation is between 2 cells at least",
                ));
            }
            if custom.allowed.is_empty() {
                return Err(ConstraintError::new(
                    format!("{member}.allowed"),
                    "lists no pair of digits; a relation allows one pair at least",
                ));
            }
            let mut pairs = Vec::with_capacity(custom.allowed.len());
            for (index, &DigitPair(first, second)) in custom.allowed.iter().enumerate() {
                if let Some(digit) = [first, second].into_iter().find(|digit| !(1..=size as u64).contains(digit)) {
                    let message =
                        format!("is [{first}, {second}]; {digit} is no digit of a {size}x{size} grid (1 to {size})");
                    return Err(ConstraintError::new(format!("{member}.allowed[{index}]"), message));
                }
                pairs.push((first as u8, second as u8));
            }
            let label = match custom.name.as_deref() {
                Some("") => {
                    let message = "is empty; a relation without a name leaves `name` out";
                    return Err(ConstraintError::new(format!("{member}.name"), message));
                }
                Some(name) if name.chars().count() > MAX_NAME_CHARS => {
                    let message = format!(
                        "has {} characters; a relation's name has {MAX_NAME_CHARS} at most",
                        name.chars().count()
                    );
                    return Err(ConstraintError::new(format!("{member}.name"), message));
                }
                name => name,
            };
            let relation = Relation::of_table(&pairs, size, label);
            for (first, second) in custom.pairs() {
                let (first, second) = (cells[first], cells[second]);
                if let Some(unit) = rules.clash_with(first, second, |a, b| relation.holds(a, b)) {
                    let message = format!(
                        "no pair of digits it allows for {} and {} keeps the {} rule between them too",
                        rules.name(first),
                        rules.name(second),
                        unit.name()
                    );
                    return Err(ConstraintError::new(format!("{member}.cells"), message));
                }
                if rules.relate_by_table(first, second, &relation).is_none() {
                    let message = format!(
                        "makes more than {MAX_RELATIONS} kinds of relation between two cells (the rules' and the distinct custom tables together); sudokud holds {MAX_RELATIONS} at most"
                    );
                    return Err(ConstraintError::new(member, message));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::family::tests::refused;
    use crate::shape::Shape;
    use crate::variant::Variant;

    #[test]
    fn each_relation_that_cannot_fit_names_its_member() {
        let nine = Shape::CLASSIC;
        let four = Shape::new(2, 2).unwrap();
        for (shape, json, expected) in [
            (
                nine,
                r#"{"relations":[{"cells":[[0,0]],"between":"neighbours","allowed":[[1,2]]}]}"#,
                "`constraints.relations[0].cells`: has 1 cell; a relation is between 2 cells at least",
            ),
            (
                nine,
                r#"{"relations":[{"cells":[[0,0],[0,0]],"between":"neighbours","allowed":[[1,2]]}]}"#,
                "`constraints.relations[0].cells`: r1c1 is listed twice",
            ),
            (
                nine,
                r#"{"relations":[{"cells":[[0,0],[4,4]],"between":"every_two","allowed":[]}]}"#,
                "`constraints.relations[0].allowed`: lists no pair of digits; a relation allows one pair at least",
            ),
            (
                four,
                r#"{"relations":[{"cells":[[0,0],[3,3]],"between":"neighbours","allowed":[[1,2],[5,1]]}]}"#,
                "`constraints.relations[0].allowed[1]`: is [5, 1]; 5 is no digit of a 4x4 grid (1 to 4)",
            ),
            (
                nine,
                r#"{"relations":[{"cells":[[0,0],[1,0]],"between":"neighbours","allowed":[[0,2]]}]}"#,
                "`constraints.relations[0].allowed[0]`: is [0, 2]; 0 is no digit of a 9x9 grid (1 to 9)",
            ),
            (
                nine,
                r#"{"relations":[{"cells":[[0,0],[1,0]],"between":"neighbours","allowed":[[1,2]],"name":""}]}"#,
                "`constraints.relations[0].name`: is empty; a relation without a name leaves `name` out",
            ),
            (
                nine,
                r#"{"thermometers":[[[0,0],[0,1]]],"relations":[{"cells":[[0,1],[0,0]],"between":"neighbours","allowed":[[1,2],[3,4]]}]}"#,
                "`constraints.relations[0].cells`: no pair of digits it allows for r1c2 and r1c1 keeps the thermometer rule between them too",
            ),
            (
                nine,
                r#"{"relations":[{"cells":[[0,0],[5,5]],"between":"neighbours","allowed":[[1,2]]},{"cells":[[5,5],[0,0]],"between":"every_two","allowed":[[1,2]]}]}"#,
                "`constraints.relations[1].cells`: no pair of digits it allows for r6c6 and r1c1 keeps the relation rule between them too",
            ),
        ] {
            assert_eq!(refused(shape, json).as_deref(), Some(expected), "{json}");
        }
        let long = "n".repeat(MAX_NAME_CHARS + 1);
        let json = format!(
            r#"{{"relations":[{{"cells":[[0,0],[1,0]],"between":"neighbours","allowed":[[1,2]],"name":"{long}"}}]}}"#
        );
        let expected = format!(
            "`constraints.relations[0].name`: has 61 characters; a relation's name has {MAX_NAME_CHARS} at most"
        );
        assert_eq!(refused(nine, &json), Some(expected));
        // The same pair both ways round, the second relation the first's reversed: it fits.
        let json = r#"{"thermometers":[[[0,0],[0,1]]],"relations":[{"cells":[[0,1],[0,0]],"between":"neighbours","allowed":[[4,3]],"name":"down"},{"cells":[[0,0],[0,1]],"between":"every_two","allowed":[[3,4]]}]}"#;
        assert_eq!(refused(nine, json), None);
    }

    #[test]
    fn the_pairs_are_each_cell_and_the_next_or_every_two_earlier_first() {
        let custom = |between| CustomRelation {
            cells: vec![Place(0, 0), Place(4, 4), Place(8, 8), Place(0, 8)],
            between,
            allowed: vec![DigitPair(1, 2)],
            name: None,
        };
        assert_eq!(custom(Between::Neighbours).pairs(), [(0, 1), (1, 2), (2, 3)]);
        assert_eq!(custom(Between::EveryTwo).pairs(), [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]);
    }

    #[test]
    fn one_relation_per_distinct_table_and_name() {
        let json = r#"{"relations":[
            {"cells":[[0,0],[0,1],[0,2]],"between":"neighbours","allowed":[[1,2],[2,1]]},
            {"cells":[[5,0],[5,1]],"between":"neighbours","allowed":[[2,1],[1,2],[1,2]]},
            {"cells":[[6,0],[6,1]],"between":"neighbours","allowed":[[1,2]]},
            {"cells":[[7,0],[7,1],[8,8]],"between":"every_two","allowed":[[1,2],[2,1]],"name":"swap"}
        ]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        let variant = Variant::new(Shape::CLASSIC, None, &constraints).unwrap();
        let relations: Vec<u8> = variant.pairs.iter().map(|pair| pair.relation).collect();
        assert_eq!(relations, [0, 0, 0, 1, 2, 2, 2]);
        let reason = variant.relation(&variant.pairs[4]).reason("r8c1", "r8c2");
        assert_eq!(reason, "r8c1 and r8c2 keep the relation \"swap\", which allows only some pairs of digits");
        let second = variant.relation(&variant.pairs[3]);
        assert!(second.holds(1, 2) && !second.holds(2, 1));
        assert_eq!((second.support(0b11, false), second.support(0b11, true)), (0b10, 0b1));
    }

    #[test]
    fn a_relation_member_is_an_object_of_its_own_members() {
        let json =
            r#"{"relations":[{"cells":[[0,0],[0,1]],"between":"every_two","allowed":[[1,3],[3,1]],"name":"odd"}]}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        assert_eq!(constraints.relations[0].between, Between::EveryTwo);
        assert_eq!(serde_json::to_string(&constraints).unwrap(), json);
        let error = serde_json::from_str::<Constraints>(r#"{"relations":[{"line":[]}]}"#).unwrap_err();
        assert!(
            error.to_string().starts_with("unknown member `line`; expected `cells`, `between`, `allowed`, `name`"),
            "{error}"
        );
        let error = serde_json::from_str::<Constraints>(r#"{"relations":[{"cells":[],"between":"all","allowed":[]}]}"#)
            .unwrap_err();
        assert!(error.to_string().contains("neighbours"), "{error}");
    }
}

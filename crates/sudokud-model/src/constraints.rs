//! Variant constraints as a request gives them: plain data, read from JSON, before they are
//! checked against a grid ([`crate::variant::Variant::new`] does that). Each member's type and
//! checks live with its family ([`crate::family`]); this is their list.
//!
//! The constraints, a cage and the Kropki dots are JSON objects read strictly
//! ([`member::Object`]): an unknown member (`diagonal` for `diagonals` would change nothing
//! silently) or an array in place of the object is refused, naming it.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::member::{self, Choice, Object, choice_traits, object_traits};

pub use crate::family::arrows::Arrow;
pub use crate::family::cages::Cage;
pub use crate::family::diagonals::Diagonals;
pub use crate::family::dots::Kropki;
pub use crate::family::greater_than::GreaterThan;
pub use crate::family::little_killers::{Direction, LittleKiller};
pub use crate::family::lockout_lines::LockoutLine;
pub use crate::family::outside::{End, OutsideSum};
pub use crate::family::quadruples::Quadruple;
pub use crate::family::regions::{RegionId, Regions};
pub use crate::family::relations::{Between, CustomRelation, DigitPair};
pub use crate::family::sandwiches::Sandwich;
pub use crate::family::whispers::Whispers;
pub use crate::family::x_sums::XSum;
pub use crate::family::xv::Xv;

/// A cell as `[row, col]`, both 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
pub struct Place(
    #[serde(deserialize_with = "member::integer")] pub u64,
    #[serde(deserialize_with = "member::integer")] pub u64,
);

/// The constraints of a variant, combinable with each other and with every grid size. Every
/// member is optional; absent, it adds nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct Constraints {
    /// The diagonals on which no digit repeats (Sudoku X).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagonals: Option<Diagonals>,
    /// Extra houses of N cells each in which no digit repeats (a windoku's windows, say).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extra_regions: Vec<Vec<Place>>,
    /// Regions that replace the boxes (jigsaw): a region id per cell, N regions of N cells.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub regions: Option<Regions>,
    /// The cells at the same place in every box form a house too (disjoint groups).
    #[serde(default, skip_serializing_if = "is_false")]
    pub disjoint_groups: bool,
    /// Killer cages: no digit repeats in a cage, and its digits add up to its sum when it has one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cages: Vec<Cage>,
    /// No digit is a knight's move from the same digit.
    #[serde(default, skip_serializing_if = "is_false")]
    pub anti_knight: bool,
    /// No digit touches the same digit diagonally (a king's move).
    #[serde(default, skip_serializing_if = "is_false")]
    pub anti_king: bool,
    /// Orthogonal neighbours never hold consecutive digits.
    #[serde(default, skip_serializing_if = "is_false")]
    pub non_consecutive: bool,
    /// Thermometers, bulb first: digits strictly increase along each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub thermometers: Vec<Vec<Place>>,
    /// Kropki dots between orthogonal neighbours.
    #[serde(default, skip_serializing_if = "Kropki::is_empty")]
    pub kropki: Kropki,
    /// X and V marks between orthogonal neighbours.
    #[serde(default, skip_serializing_if = "Xv::is_empty")]
    pub xv: Xv,
    /// Greater-than signs between orthogonal neighbours: one cell's digit is greater than the
    /// other's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub greater_than: Vec<GreaterThan>,
    /// Whispers lines: neighbours along each differ by at least its difference.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub whispers: Vec<Whispers>,
    /// Palindromes: each line reads the same both ways.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub palindromes: Vec<Vec<Place>>,
    /// Renban lines: each line's digits are a set of consecutive digits, in any order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub renbans: Vec<Vec<Place>>,
    /// Arrows: the digits along each shaft add up to its bulb (a pill's digits read as a number).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub arrows: Vec<Arrow>,
    /// Little killers: clues outside the grid, each the sum of the digits along its diagonal.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub little_killers: Vec<LittleKiller>,
    /// Between lines, a circle at each end: the digits between lie strictly between the
    /// circles'.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub between_lines: Vec<Vec<Place>>,
    /// Quadruples: circles on the corner of four cells, each of whose digits appears among them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub quadruples: Vec<Quadruple>,
    /// Sandwiches: clues beside rows and columns, each the sum of the digits between the line's
    /// 1 and N.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sandwiches: Vec<Sandwich>,
    /// X-sums: clues beside rows and columns, each the sum of the line's first X digits from its
    /// end, X the first of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub x_sums: Vec<XSum>,
    /// Cells that hold an even digit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub even: Vec<Place>,
    /// Cells that hold an odd digit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub odd: Vec<Place>,
    /// Lockout lines, a diamond at each end: the diamonds differ by the line's difference at
    /// least, and no digit between them lies between theirs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lockout_lines: Vec<LockoutLine>,
    /// Modular lines: every three cells in a row along each hold one digit of each residue mod 3.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub modular_lines: Vec<Vec<Place>>,
    /// Entropic lines: every three cells in a row along each hold a low, a middle and a high
    /// digit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entropic_lines: Vec<Vec<Place>>,
    /// Global entropy: every 2x2 square of cells holds a low, a middle and a high digit.
    #[serde(default, skip_serializing_if = "is_false")]
    pub global_entropy: bool,
    /// Global mod: every 2x2 square of cells holds a digit of each residue mod 3.
    #[serde(default, skip_serializing_if = "is_false")]
    pub global_mod: bool,
    /// No digit d is a taxicab distance of exactly d (d steps through side-by-side cells) from
    /// the same digit (anti-taxicab).
    #[serde(default, skip_serializing_if = "is_false")]
    pub anti_taxicab: bool,
    /// Custom relations: a table of the digit pairs each two cells in a row of a list, or every
    /// two cells of a group, may hold.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub relations: Vec<CustomRelation>,
}

fn is_false(flag: &bool) -> bool {
    !flag
}

impl Constraints {
    /// Whether no constraint is given: the grid follows the classic rules alone.
    pub fn is_empty(&self) -> bool {
        *self == Constraints::default()
    }

    /// Where `member` goes in a request whose `constraints` hold the rules, when it is a member
    /// of the constraints, of a cage or of the marks between cells: "inside `constraints`".
    pub fn home_of(member: &str) -> Option<String> {
        if member::members::<Constraints>().contains(&member) {
            return Some("inside `constraints`".to_owned());
        }
        nested_home(member, "constraints.")
    }
}

/// Where `member` goes when it is a member of an object inside the constraints (a cage, the
/// Kropki dots, the X and V marks, a whispers line), its path starting with `prefix`: "inside
/// `kropki`", or each place that has a member of the name.
fn nested_home(member: &str, prefix: &str) -> Option<String> {
    let mut places = Vec::new();
    for (members, place) in [(member::members::<Kropki>(), "kropki"), (member::members::<Xv>(), "xv")] {
        if members.contains(&member) {
            places.push(format!("`{prefix}{place}`"));
        }
    }
    if member::members::<Cage>().contains(&member) {
        places.push(format!("each cage of `{prefix}cages`"));
    }
    if member::members::<Whispers>().contains(&member) {
        places.push(format!("each line of `{prefix}whispers`"));
    }
    if member::members::<Arrow>().contains(&member) {
        places.push(format!("each arrow of `{prefix}arrows`"));
    }
    if member::members::<GreaterThan>().contains(&member) {
        places.push(format!("each sign of `{prefix}greater_than`"));
    }
    if member::members::<LittleKiller>().contains(&member) {
        places.push(format!("each clue of `{prefix}little_killers`"));
    }
    if member::members::<Quadruple>().contains(&member) {
        places.push(format!("each circle of `{prefix}quadruples`"));
    }
    // Sandwiches and X-sums share their clues' shape.
    if member::members::<OutsideSum>().contains(&member) {
        places.push(format!("each clue of `{prefix}sandwiches`"));
        places.push(format!("each clue of `{prefix}x_sums`"));
    }
    if member::members::<LockoutLine>().contains(&member) {
        places.push(format!("each line of `{prefix}lockout_lines`"));
    }
    if member::members::<CustomRelation>().contains(&member) {
        places.push(format!("each relation of `{prefix}relations`"));
    }
    (!places.is_empty()).then(|| format!("inside {}", places.join(" or ")))
}

/// The members of a request beside `constraints` that a request may put inside them by mistake.
const REQUEST_MEMBERS: [&str; 3] = ["variant", "board", "box"];

impl Object for Constraints {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Constraints, D::Error> {
        Constraints::deserialize(deserializer)
    }

    fn belongs(member: &str) -> Option<String> {
        if REQUEST_MEMBERS.contains(&member) {
            return Some("beside `constraints`, at the top level of the request".to_owned());
        }
        nested_home(member, "")
    }
}

object_traits!(Constraints);

impl Serialize for Constraints {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Constraints::serialize(self, serializer)
    }
}

/// A variant by name: shorthand for its constraints, which [`crate::variant::Variant::new`] adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// Sudoku X: both diagonals are houses.
    X,
    /// Windoku (hyper): windows of a box's shape, one cell in from the edges and apart, are houses.
    Windoku,
    /// Jigsaw: the regions replace the boxes (and must be given as `regions`).
    Jigsaw,
    /// Killer: cages with sums (which must be given as `cages`).
    Killer,
    /// No digit a knight's move from the same digit.
    AntiKnight,
    /// No digit a king's move from the same digit.
    AntiKing,
    /// No consecutive digits side by side.
    NonConsecutive,
    /// XV with every mark given (`xv.all_given`); a generated puzzle without marks gets every X
    /// and V of its solution.
    Xv,
}

impl Choice for Preset {
    const KIND: &'static str = "variant";
    const ALL: &'static [Preset] = &[
        Preset::X,
        Preset::Windoku,
        Preset::Jigsaw,
        Preset::Killer,
        Preset::AntiKnight,
        Preset::AntiKing,
        Preset::NonConsecutive,
        Preset::Xv,
    ];

    fn name(self) -> &'static str {
        match self {
            Preset::X => "x",
            Preset::Windoku => "windoku",
            Preset::Jigsaw => "jigsaw",
            Preset::Killer => "killer",
            Preset::AntiKnight => "anti-knight",
            Preset::AntiKing => "anti-king",
            Preset::NonConsecutive => "non-consecutive",
            Preset::Xv => "xv",
        }
    }
}

choice_traits!(Preset);

#[cfg(test)]
mod tests {
    use super::*;

    /// The message of reading `json` as constraints, without serde_json's position.
    fn refused(json: &str) -> String {
        let error = serde_json::from_str::<Constraints>(json).unwrap_err().to_string();
        error.split(" at line").next().unwrap().to_owned()
    }

    #[test]
    fn constraints_are_an_object_of_known_members_only() {
        assert_eq!(refused(r#"["both"]"#), "found an array; expected an object");
        assert_eq!(refused(r#""x""#), "found \"x\"; expected an object");
        assert!(refused(r#"{"diagonal":"both"}"#).starts_with("unknown member `diagonal`; expected `diagonals`, "));
        assert_eq!(
            refused(r#"{"variant":"x"}"#),
            "`variant` belongs beside `constraints`, at the top level of the request, not here"
        );
        assert_eq!(refused(r#"{"white":[]}"#), "`white` belongs inside `kropki`, not here");
        assert_eq!(refused(r#"{"v":[]}"#), "`v` belongs inside `xv`, not here");
        assert_eq!(refused(r#"{"all_given":true}"#), "`all_given` belongs inside `kropki` or `xv`, not here");
        assert_eq!(
            refused(r#"{"sum":3}"#),
            "`sum` belongs inside each cage of `cages` or each clue of `little_killers` or each clue of `sandwiches` or each clue of `x_sums`, not here"
        );
        assert_eq!(
            refused(r#"{"direction":"up_left"}"#),
            "`direction` belongs inside each clue of `little_killers`, not here"
        );
        assert_eq!(refused(r#"{"less":[0,0]}"#), "`less` belongs inside each sign of `greater_than`, not here");
        // A cage and the dots are objects of their own members too.
        assert_eq!(refused(r#"{"cages":[[[[0,0],[0,1]],3]]}"#), "found an array; expected an object");
        assert_eq!(
            refused(r#"{"cages":[{"cells":[[0,0]],"total":3}]}"#),
            "unknown member `total`; expected `cells`, `sum`"
        );
        assert_eq!(refused(r#"{"kropki":[[]]}"#), "found an array; expected an object");
        assert_eq!(
            refused(r#"{"kropki":{"grey":[]}}"#),
            "unknown member `grey`; expected `white`, `black`, `all_given`"
        );
        // What is read is written back the same.
        let json =
            r#"{"diagonals":"both","cages":[{"cells":[[0,0],[0,1]],"sum":3}],"kropki":{"white":[[[1,1],[1,2]]]}}"#;
        let constraints: Constraints = serde_json::from_str(json).unwrap();
        assert_eq!(serde_json::to_string(&constraints).unwrap(), json);
    }

    #[test]
    fn a_member_of_the_constraints_is_named_where_it_belongs() {
        assert_eq!(Constraints::home_of("cages").as_deref(), Some("inside `constraints`"));
        assert_eq!(
            Constraints::home_of("all_given").as_deref(),
            Some("inside `constraints.kropki` or `constraints.xv`")
        );
        assert_eq!(Constraints::home_of("x").as_deref(), Some("inside `constraints.xv`"));
        assert_eq!(
            Constraints::home_of("cells").as_deref(),
            Some("inside each cage of `constraints.cages` or each relation of `constraints.relations`")
        );
        assert_eq!(Constraints::home_of("varient"), None);
        assert_eq!(member::members::<Constraints>().len(), 30);
        assert_eq!(
            Constraints::home_of("column").as_deref(),
            Some("inside each clue of `constraints.sandwiches` or each clue of `constraints.x_sums`")
        );
    }
}

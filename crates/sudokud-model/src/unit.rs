//! The rules a filled cell can break, by name: the houses of the classic rules and each variant
//! constraint; and the cells that break them ([`Conflict`], [`Validation`]). Conflicts,
//! validation and the logic's sentences all name rules by these.

use serde::ser::{Serialize, SerializeSeq, SerializeStruct, Serializer};

use crate::position::HouseKind;

/// A rule a filled cell can break: a house its digit repeats in (a row, a column, a box), or on a
/// grid with constraints ([`crate::variant`]) the constraint it breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// The digit repeats in its row.
    Row,
    /// The digit repeats in its column.
    Column,
    /// The digit repeats in its box.
    Box,
    /// The digit repeats in its region (a jigsaw grid's regions replace the boxes).
    Region,
    /// The digit repeats on the main diagonal (top left to bottom right).
    Diagonal,
    /// The digit repeats on the anti-diagonal (top right to bottom left).
    AntiDiagonal,
    /// The digit repeats in an extra region (a windoku window, say).
    ExtraRegion,
    /// The digit repeats among the cells at the same place in every box.
    DisjointGroup,
    /// The digit repeats in a killer cage.
    Cage,
    /// The cage's digits cannot make its sum: over it, or all filled and short of it.
    CageSum,
    /// The digit is a knight's move from the same digit.
    AntiKnight,
    /// The digit is a king's move (diagonally touching) from the same digit.
    AntiKing,
    /// An orthogonal neighbour holds a consecutive digit.
    NonConsecutive,
    /// The digits on a thermometer do not increase from its bulb.
    Thermometer,
    /// A Kropki dot's pair is not consecutive (white) or in ratio 2 (black), or, with every dot
    /// given, a pair without a dot is.
    Kropki,
    /// An X's pair does not sum to 10 or a V's to 5, or, with every mark given, a pair without a
    /// mark does.
    Xv,
    /// A greater-than sign's cells hold digits the other way round.
    GreaterThan,
    /// Neighbours on a whispers line differ by less than its difference.
    Whispers,
    /// Cells mirrored on a palindrome differ.
    Palindrome,
    /// A renban line's digits repeat, or lie further apart than the line is long.
    Renban,
    /// An arrow's bulb is out of reach of its shaft's sum.
    Arrow,
    /// A little killer's diagonal is out of reach of its sum.
    LittleKiller,
    /// A digit on a between line does not lie strictly between its circles'.
    BetweenLine,
    /// A quadruple's empty cells are too few for its digits not yet among its cells.
    Quadruple,
    /// A row's or column's digits between its 1 and N cannot add up to its sandwich clue.
    Sandwich,
    /// A row's or column's first X digits from an X-sum's end cannot add up to its clue.
    XSum,
    /// The cell must be even.
    Even,
    /// The cell must be odd.
    Odd,
    /// A lockout line's diamonds are too close, or a digit on it lies between theirs.
    LockoutLine,
    /// Three cells in a row on a modular line repeat a residue mod 3.
    ModularLine,
    /// Three cells in a row on an entropic line repeat a class of low, middle or high digits.
    EntropicLine,
    /// A 2x2 square under global entropy repeats a class of low, middle or high digits where it
    /// needs all three.
    GlobalEntropy,
    /// A 2x2 square under global mod repeats a residue mod 3 where it needs all three.
    GlobalMod,
    /// A digit d is a taxicab distance of d from the same digit.
    AntiTaxicab,
    /// Two cells of a custom relation hold a pair of digits its table does not allow.
    Relation,
}

impl Unit {
    /// Every unit, in the order their names are listed.
    pub const ALL: [Unit; 35] = [
        Unit::Row,
        Unit::Column,
        Unit::Box,
        Unit::Region,
        Unit::Diagonal,
        Unit::AntiDiagonal,
        Unit::ExtraRegion,
        Unit::DisjointGroup,
        Unit::Cage,
        Unit::CageSum,
        Unit::AntiKnight,
        Unit::AntiKing,
        Unit::NonConsecutive,
        Unit::Thermometer,
        Unit::Kropki,
        Unit::Xv,
        Unit::GreaterThan,
        Unit::Whispers,
        Unit::Palindrome,
        Unit::Renban,
        Unit::Arrow,
        Unit::LittleKiller,
        Unit::BetweenLine,
        Unit::Quadruple,
        Unit::Sandwich,
        Unit::XSum,
        Unit::Even,
        Unit::Odd,
        Unit::LockoutLine,
        Unit::ModularLine,
        Unit::EntropicLine,
        Unit::GlobalEntropy,
        Unit::GlobalMod,
        Unit::AntiTaxicab,
        Unit::Relation,
    ];

    /// The name in JSON: `row`, `column`, `box`, `region`, `diagonal`, `anti_diagonal`, ...
    pub const fn name(self) -> &'static str {
        match self {
            Unit::Row => "row",
            Unit::Column => "column",
            Unit::Box => "box",
            Unit::Region => "region",
            Unit::Diagonal => "diagonal",
            Unit::AntiDiagonal => "anti_diagonal",
            Unit::ExtraRegion => "extra_region",
            Unit::DisjointGroup => "disjoint_group",
            Unit::Cage => "cage",
            Unit::CageSum => "cage_sum",
            Unit::AntiKnight => "anti_knight",
            Unit::AntiKing => "anti_king",
            Unit::NonConsecutive => "non_consecutive",
            Unit::Thermometer => "thermometer",
            Unit::Kropki => "kropki",
            Unit::Xv => "xv",
            Unit::GreaterThan => "greater_than",
            Unit::Whispers => "whispers",
            Unit::Palindrome => "palindrome",
            Unit::Renban => "renban",
            Unit::Arrow => "arrow",
            Unit::LittleKiller => "little_killer",
            Unit::BetweenLine => "between_line",
            Unit::Quadruple => "quadruple",
            Unit::Sandwich => "sandwich",
            Unit::XSum => "x_sum",
            Unit::Even => "even",
            Unit::Odd => "odd",
            Unit::LockoutLine => "lockout_line",
            Unit::ModularLine => "modular_line",
            Unit::EntropicLine => "entropic_line",
            Unit::GlobalEntropy => "global_entropy",
            Unit::GlobalMod => "global_mod",
            Unit::AntiTaxicab => "anti_taxicab",
            Unit::Relation => "relation",
        }
    }

    /// What a digit that breaks the unit does, for people: `repeats in its row`, `breaks its
    /// cage's sum`.
    pub const fn broken(self) -> &'static str {
        match self {
            Unit::Row => "repeats in its row",
            Unit::Column => "repeats in its column",
            Unit::Box => "repeats in its box",
            Unit::Region => "repeats in its region",
            Unit::Diagonal => "repeats on the main diagonal",
            Unit::AntiDiagonal => "repeats on the anti-diagonal",
            Unit::ExtraRegion => "repeats in an extra region",
            Unit::DisjointGroup => "repeats in its disjoint group",
            Unit::Cage => "repeats in its cage",
            Unit::CageSum => "breaks its cage's sum",
            Unit::AntiKnight => "is a knight's move from the same digit",
            Unit::AntiKing => "touches the same digit diagonally",
            Unit::NonConsecutive => "is beside a consecutive digit",
            Unit::Thermometer => "does not rise along its thermometer",
            Unit::Kropki => "breaks a Kropki dot",
            Unit::Xv => "breaks an X or V",
            Unit::GreaterThan => "is on the wrong side of a greater-than sign",
            Unit::Whispers => "is too close to its neighbour on a whispers line",
            Unit::Palindrome => "differs from its mirror cell on a palindrome",
            Unit::Renban => "breaks the run of consecutive digits on its renban line",
            Unit::Arrow => "keeps its arrow's bulb from the sum of its shaft",
            Unit::LittleKiller => "keeps its diagonal from its little killer's sum",
            Unit::BetweenLine => "does not lie between the circles of its between line",
            Unit::Quadruple => "leaves its quadruple too few cells for the digits in its circle",
            Unit::Sandwich => "keeps its line's 1 and largest digit from its sandwich's sum",
            Unit::XSum => "keeps its line's first digits from its X-sum",
            Unit::Even => "is odd in an even cell",
            Unit::Odd => "is even in an odd cell",
            Unit::LockoutLine => "lies between the diamonds of its lockout line, or they are too close",
            Unit::ModularLine => "shares its residue mod 3 with a cell near it on its modular line",
            Unit::EntropicLine => "is as low, middle or high as a cell near it on its entropic line",
            Unit::GlobalEntropy => "leaves a 2x2 square around it without a low, a middle or a high digit",
            Unit::GlobalMod => "leaves a 2x2 square around it without a digit of some residue mod 3",
            Unit::AntiTaxicab => "is its own value's taxicab distance from the same digit",
            Unit::Relation => "makes a pair of digits its custom relation does not allow",
        }
    }
}

/// The units a cell breaks, as a small bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Units(u64);

// One bit per unit, with room for the one past the last in `from_bits`'s mask.
const _: () = assert!(Unit::ALL.len() < 64, "Units holds fewer than 64 units");

impl Units {
    /// The row.
    pub const ROW: Units = Units::of(Unit::Row);
    /// The column.
    pub const COLUMN: Units = Units::of(Unit::Column);
    /// The box.
    pub const BOX: Units = Units::of(Unit::Box);

    /// The set of `unit` alone.
    pub const fn of(unit: Unit) -> Units {
        Units(1 << unit as u64)
    }

    /// Whether every unit in `other` is also in `self`.
    pub fn contains(self, other: Units) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The units in the set, in [`Unit::ALL`]'s order.
    pub fn units(self) -> impl Iterator<Item = Unit> {
        Unit::ALL.into_iter().filter(move |&unit| self.contains(Units::of(unit)))
    }

    /// The set as bits, bit `unit as u64` for each unit in it: for building sets without
    /// branches, as the classic conflict finder does.
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The set of the units whose bits are set in `bits`; bits past the last unit are dropped.
    pub const fn from_bits(bits: u64) -> Units {
        Units(bits & ((1 << Unit::ALL.len()) - 1))
    }

    /// Adds every unit of `other` to the set.
    pub fn insert(&mut self, other: Units) {
        self.0 |= other.0;
    }
}

/// The set of one kind of house.
impl From<HouseKind> for Units {
    fn from(kind: HouseKind) -> Units {
        Units::of(match kind {
            HouseKind::Row => Unit::Row,
            HouseKind::Column => Unit::Column,
            HouseKind::Box => Unit::Box,
        })
    }
}

/// The set of one unit.
impl From<Unit> for Units {
    fn from(unit: Unit) -> Units {
        Units::of(unit)
    }
}

/// Serialized as the list of unit names, in [`Unit::ALL`] order, e.g. `["row", "box"]`.
impl Serialize for Units {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut names = serializer.serialize_seq(None)?;
        for unit in Unit::ALL {
            if self.contains(unit.into()) {
                names.serialize_element(unit.name())?;
            }
        }
        names.end()
    }
}

/// A given that shares its value with another given in one or more units (a variant's
/// constraints among them), on a grid of any size.
///
/// Serialized as one object, `{"row":0,"col":0,"digit":8,"units":["column","box"]}`, with the
/// cell's row and column 0-based and the value as a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The given's row, 0-based.
    pub row: usize,
    /// The given's column, 0-based.
    pub col: usize,
    /// The repeated value, 1 to N.
    pub value: u8,
    /// The units in which the value repeats.
    pub units: Units,
}

impl Serialize for Conflict {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut object = serializer.serialize_struct("Conflict", 4)?;
        object.serialize_field("row", &self.row)?;
        object.serialize_field("col", &self.col)?;
        object.serialize_field("digit", &self.value)?;
        object.serialize_field("units", &self.units)?;
        object.end()
    }
}

/// The result of checking a board against the rules.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Validation {
    /// No digit repeats in any row, column or box.
    pub valid: bool,
    /// No cell is blank.
    pub complete: bool,
    /// Every conflicting cell, in row-major order.
    pub conflicts: Vec<Conflict>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_serialize_as_names() {
        let units = Units::from_bits(Units::ROW.bits() | Units::BOX.bits());
        assert_eq!(serde_json::to_string(&units).unwrap(), r#"["row","box"]"#);
        assert!(units.contains(HouseKind::Box.into()) && !units.contains(Units::COLUMN));
    }

    #[test]
    fn bits_past_the_last_unit_are_no_unit() {
        assert_eq!(Units::from_bits(u64::MAX).units().count(), Unit::ALL.len());
        assert!(Units::from_bits(1 << Unit::ALL.len()).is_empty());
    }
}

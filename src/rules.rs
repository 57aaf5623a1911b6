//! Rule checking (LeetCode 36 semantics): no digit may repeat among the filled cells of a row,
//! a column or a box. Blanks are ignored, so a partly filled board can be valid.

use serde::ser::{Serialize, SerializeSeq, Serializer};

use crate::board::Board;

/// The kinds of unit a digit must not repeat in, as a small bit set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Units(u8);

impl Units {
    pub const ROW: Units = Units(1);
    pub const COLUMN: Units = Units(2);
    pub const BOX: Units = Units(4);

    const NAMES: [(Units, &'static str); 3] = [(Units::ROW, "row"), (Units::COLUMN, "column"), (Units::BOX, "box")];

    /// Whether every unit in `other` is also in `self`.
    pub fn contains(self, other: Units) -> bool {
        self.0 & other.0 == other.0
    }

    fn insert(&mut self, other: Units) {
        self.0 |= other.0;
    }
}

/// Serialized as the list of unit names, e.g. `["row", "box"]`.
impl Serialize for Units {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut names = serializer.serialize_seq(None)?;
        for (unit, name) in Units::NAMES {
            if self.contains(unit) {
                names.serialize_element(name)?;
            }
        }
        names.end()
    }
}

/// A given that shares its digit with another given in one or more units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Conflict {
    /// 0-based row.
    pub row: u8,
    /// 0-based column.
    pub col: u8,
    pub digit: u8,
    /// The units in which the digit repeats.
    pub units: Units,
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

/// Checks `board` against the rules.
pub fn validate(board: &Board) -> Validation {
    let conflicts = conflicts(board);
    Validation { valid: conflicts.is_empty(), complete: board.is_complete(), conflicts }
}

/// Every filled cell whose digit also appears elsewhere in its row, column or box, in row-major
/// order. Empty (and not allocated) exactly when the board is valid.
pub fn conflicts(board: &Board) -> Vec<Conflict> {
    // One pass marks, per unit, the digits seen (bit d for digit d) and those seen again; a
    // second pass, only when something repeats, reports the cells whose digit is marked repeated
    // in one of their units.
    let (mut rows, mut cols, mut boxes) =
        ([UnitMarks::default(); 9], [UnitMarks::default(); 9], [UnitMarks::default(); 9]);
    let mut any_repeat = 0u16;
    for (index, &digit) in board.cells().iter().enumerate() {
        if digit != 0 {
            let (row, col, bx) = units_of(index);
            let bit = 1u16 << digit;
            any_repeat |= rows[row].mark(bit) | cols[col].mark(bit) | boxes[bx].mark(bit);
        }
    }
    let mut conflicts = Vec::new();
    if any_repeat == 0 {
        return conflicts;
    }
    for (index, &digit) in board.cells().iter().enumerate() {
        if digit == 0 {
            continue;
        }
        let (row, col, bx) = units_of(index);
        let bit = 1u16 << digit;
        if (rows[row].repeated | cols[col].repeated | boxes[bx].repeated) & bit == 0 {
            continue;
        }
        let mut units = Units::default();
        for (marks, unit) in [(rows[row], Units::ROW), (cols[col], Units::COLUMN), (boxes[bx], Units::BOX)] {
            if marks.repeated & bit != 0 {
                units.insert(unit);
            }
        }
        if units != Units::default() {
            conflicts.push(Conflict { row: row as u8, col: col as u8, digit, units });
        }
    }
    conflicts
}

/// The digits seen in one unit, and those seen more than once.
#[derive(Clone, Copy, Default)]
struct UnitMarks {
    seen: u16,
    repeated: u16,
}

impl UnitMarks {
    /// Marks the digit `bit`; returns it if it was already there.
    fn mark(&mut self, bit: u16) -> u16 {
        let again = self.seen & bit;
        self.repeated |= again;
        self.seen |= bit;
        again
    }
}

/// The row, column and box of cell `index`.
fn units_of(index: usize) -> (usize, usize, usize) {
    let (row, col) = (index / 9, index % 9);
    (row, col, row / 3 * 3 + col / 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEETCODE_36: &str = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

    fn with(line: &str, index: usize, digit: u8) -> Board {
        let mut bytes = line.as_bytes().to_vec();
        bytes[index] = b'0' + digit;
        String::from_utf8(bytes).unwrap().parse().unwrap()
    }

    #[test]
    fn leetcode_example_is_valid_and_incomplete() {
        let report = validate(&LEETCODE_36.parse().unwrap());
        assert_eq!(report, Validation { valid: true, complete: false, conflicts: vec![] });
        assert!(validate(&Board::EMPTY).valid);
    }

    #[test]
    fn leetcode_invalid_example_reports_every_repeated_eight() {
        // LeetCode 36 example 2: the 5 in the top-left corner becomes an 8, which repeats the 8
        // at r2c2 in box 0 and the 8 at r3c0 in column 0.
        let report = validate(&with(LEETCODE_36, 0, 8));
        assert!(!report.valid);
        let both = Units(Units::COLUMN.0 | Units::BOX.0);
        assert_eq!(
            report.conflicts,
            vec![
                Conflict { row: 0, col: 0, digit: 8, units: both },
                Conflict { row: 2, col: 2, digit: 8, units: Units::BOX },
                Conflict { row: 3, col: 0, digit: 8, units: Units::COLUMN },
            ]
        );
    }

    #[test]
    fn a_repeat_in_a_row_only() {
        // Row 0 has 5 at col 0; put another 5 at col 7 (box 2 and column 7 have no 5).
        let report = validate(&with(LEETCODE_36, 7, 5));
        assert_eq!(
            report.conflicts,
            vec![
                Conflict { row: 0, col: 0, digit: 5, units: Units::ROW },
                Conflict { row: 0, col: 7, digit: 5, units: Units::ROW },
            ]
        );
    }

    #[test]
    fn units_serialize_as_names() {
        let units = Units(Units::ROW.0 | Units::BOX.0);
        assert_eq!(serde_json::to_string(&units).unwrap(), r#"["row","box"]"#);
    }
}

//! Clues outside the grid beside one end of a row or a column, read from that end: sandwiches
//! ([`super::sandwiches`]), X-sums ([`super::x_sums`]) and whatever else a clue says of the line
//! it faces. They share how a
//! clue names its row or column (`row` or `column`, 0-based, one of the two, and `from`, the end
//! it sits beyond: `start`, left of a row or above a column, or `end`, right or below), the rule
//! set's primitive ([`OutsideClue`]: the row's or column's cells from the clue's end and what the
//! clue says of them, a [`WholeRule`] as the drawn lines of [`super::lines`] are), and their
//! conflicts: a row or column whose filled digits leave its clue no way.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::member::{self, Choice, Object, choice_traits, object_traits};
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

use super::sandwiches::{SandwichWays, sandwich_support};
use super::whole::{self, WholeRule};
use super::x_sums::{XSumWays, x_sum_firsts};
use super::{Builder, Family};

/// Most clues beside rows and columns a variant may have: the solver keeps one bit per clue.
pub const MAX_OUTSIDE_CLUES: usize = 320;

/// The end of a row or column a clue sits beyond.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum End {
    /// Left of a row, above a column.
    #[default]
    Start,
    /// Right of a row, below a column.
    End,
}

impl End {
    /// Whether this is the start: sandwiches leave it out when written.
    pub fn is_start(&self) -> bool {
        *self == End::Start
    }
}

impl Choice for End {
    const KIND: &'static str = "end";
    const ALL: &'static [End] = &[End::Start, End::End];

    fn name(self) -> &'static str {
        match self {
            End::Start => "start",
            End::End => "end",
        }
    }
}

choice_traits!(End);

/// A clue of a sum beside one end of a row or column: a sandwich's, an X-sum's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(remote = "Self")]
pub struct OutsideSum {
    /// What the clue says the line's digits add up to, by its family's rule.
    #[serde(deserialize_with = "member::integer")]
    pub sum: u64,
    /// The row the clue is beside (0-based), when it is beside a row.
    #[serde(default, deserialize_with = "member::optional_integer", skip_serializing_if = "Option::is_none")]
    pub row: Option<u64>,
    /// The column the clue is beside (0-based), when it is beside a column.
    #[serde(default, deserialize_with = "member::optional_integer", skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
    /// The end the clue sits beyond: where it is drawn, and the end an X-sum is read from (a
    /// sandwich's sum is the same read from either).
    #[serde(default, skip_serializing_if = "End::is_start")]
    pub from: End,
}

impl Object for OutsideSum {
    fn read_members<'de, D: Deserializer<'de>>(deserializer: D) -> Result<OutsideSum, D::Error> {
        OutsideSum::deserialize(deserializer)
    }
}

object_traits!(OutsideSum);

impl Serialize for OutsideSum {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        OutsideSum::serialize(self, serializer)
    }
}

/// A row or a column, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RowOrColumn {
    /// A row, counted from the top.
    Row(u16),
    /// A column, counted from the left.
    Column(u16),
}

impl RowOrColumn {
    /// The line a clue's `row` or `column` (one of the two) names, checked against a grid of
    /// `size`; the error names `member`'s `row` or `column`.
    pub(crate) fn read(
        row: Option<u64>,
        column: Option<u64>,
        size: usize,
        member: &str,
    ) -> Result<RowOrColumn, ConstraintError> {
        let (line, index, kind) = match (row, column) {
            (Some(row), None) => (RowOrColumn::Row(0), row, "row"),
            (None, Some(column)) => (RowOrColumn::Column(0), column, "column"),
            (None, None) => return Err(ConstraintError::new(member, "names no line: give its `row` or its `column`")),
            (Some(_), Some(_)) => {
                let message = "names a row and a column: a clue sits beside one line, give `row` or `column`";
                return Err(ConstraintError::new(member, message));
            }
        };
        if index >= size as u64 {
            let message = format!("{kind} {index} is outside the {size}x{size} grid ({kind}s 0 to {})", size - 1);
            return Err(ConstraintError::new(format!("{member}.{kind}"), message));
        }
        Ok(match line {
            RowOrColumn::Row(_) => RowOrColumn::Row(index as u16),
            RowOrColumn::Column(_) => RowOrColumn::Column(index as u16),
        })
    }

    /// The line's cells on a grid of `size`, from the `from` end.
    pub fn cells(self, size: usize, from: End) -> Vec<u16> {
        let size = size as u16;
        let mut cells: Vec<u16> = match self {
            RowOrColumn::Row(row) => (0..size).map(|col| row * size + col).collect(),
            RowOrColumn::Column(col) => (0..size).map(|row| row * size + col).collect(),
        };
        if from == End::End {
            cells.reverse();
        }
        cells
    }

    /// `above column 4`: where a clue at `from` sits, as players count lines.
    pub fn beside(self, from: End) -> String {
        let side = match (self, from) {
            (RowOrColumn::Row(_), End::Start) => "left of",
            (RowOrColumn::Row(_), End::End) => "right of",
            (RowOrColumn::Column(_), End::Start) => "above",
            (RowOrColumn::Column(_), End::End) => "below",
        };
        format!("{side} {}", self.name())
    }

    /// `column 4`, as players count lines.
    pub fn name(self) -> String {
        match self {
            RowOrColumn::Row(row) => format!("row {}", row + 1),
            RowOrColumn::Column(col) => format!("column {}", col + 1),
        }
    }
}

/// What a clue beside a line says of the line's digits, read from the clue's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutsideKind {
    /// The digits strictly between the line's 1 and N add up to `sum`.
    Sandwich {
        /// What they add up to.
        sum: u32,
        /// The sets of digits that make it, by how many cells lie between.
        ways: SandwichWays,
    },
    /// The line's first X digits from the clue's end add up to `sum`, X the first of them.
    XSum {
        /// What they add up to.
        sum: u32,
        /// The sets of digits after the first that make it, by the first.
        ways: XSumWays,
    },
}

impl OutsideKind {
    /// The rule a line its clue cannot fit breaks, in conflicts.
    pub fn unit(&self) -> Unit {
        match self {
            OutsideKind::Sandwich { .. } => Unit::Sandwich,
            OutsideKind::XSum { .. } => Unit::XSum,
        }
    }
}

/// A clue beside a row or column, checked: the line's cells from the clue's end and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutsideClue {
    /// The row or column.
    pub line: RowOrColumn,
    /// The end the clue sits beyond.
    pub from: End,
    /// The line's cells, from the clue's end.
    pub cells: Vec<u16>,
    /// What the clue says.
    pub kind: OutsideKind,
}

impl WholeRule for OutsideClue {
    fn cells(&self) -> &[u16] {
        &self.cells
    }

    fn unit(&self) -> Unit {
        self.kind.unit()
    }

    /// The line's digits differ, so each way kept is one the line's other rules may still allow.
    fn keep(&self, candidates: &[u32], kept: &mut [u32]) -> bool {
        match &self.kind {
            OutsideKind::Sandwich { sum, ways } => sandwich_support(*sum, ways, candidates, kept),
            OutsideKind::XSum { ways, .. } => x_sum_firsts(ways, candidates, kept) != 0,
        }
    }
}

/// The clues beside rows and columns: their count, and their conflicts (each family reads its
/// own member and adds to [`Builder::outside_clues`]).
pub(crate) struct OutsideClues;

impl Family for OutsideClues {
    fn build(_constraints: &crate::constraints::Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let count = rules.outside_clues.len();
        if count > MAX_OUTSIDE_CLUES {
            let message = format!("{count} clues beside rows and columns; at most {MAX_OUTSIDE_CLUES} are taken");
            return Err(ConstraintError::new("constraints", message));
        }
        Ok(())
    }

    /// A line whose filled digits leave its clue no way, its open cells taking any digit.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        whole::conflicts(&variant.outside_clues, variant.shape().size(), cells, broken);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_read_from_the_clue_s_end() {
        assert_eq!(RowOrColumn::Row(1).cells(4, End::Start), [4, 5, 6, 7]);
        assert_eq!(RowOrColumn::Row(1).cells(4, End::End), [7, 6, 5, 4]);
        assert_eq!(RowOrColumn::Column(2).cells(4, End::Start), [2, 6, 10, 14]);
        assert_eq!(RowOrColumn::Column(2).cells(4, End::End), [14, 10, 6, 2]);
        assert_eq!(RowOrColumn::Column(2).name(), "column 3");
        assert_eq!(RowOrColumn::Column(2).beside(End::End), "below column 3");
        assert_eq!(RowOrColumn::Row(0).beside(End::Start), "left of row 1");
        let refused =
            |row, column| RowOrColumn::read(row, column, 9, "constraints.sandwiches[0]").unwrap_err().to_string();
        assert_eq!(refused(None, None), "`constraints.sandwiches[0]`: names no line: give its `row` or its `column`");
        assert_eq!(
            refused(Some(1), Some(2)),
            "`constraints.sandwiches[0]`: names a row and a column: a clue sits beside one line, give `row` or `column`"
        );
        assert_eq!(
            refused(None, Some(9)),
            "`constraints.sandwiches[0].column`: column 9 is outside the 9x9 grid (columns 0 to 8)"
        );
    }
}

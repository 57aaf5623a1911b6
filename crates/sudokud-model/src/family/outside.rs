//! Clues outside the grid beside one end of a row or a column, read from that end: sandwiches
//! ([`super::sandwiches`]) and whatever else a clue says of the line it faces. They share how a
//! clue names its line (`row` or `column`, 0-based, one of the two, and `from`, the end it sits
//! beyond: `start`, left of a row or above a column, or `end`, right or below), the rule set's
//! primitive ([`LineRule`]: the line's cells from the clue's end and what the clue says of
//! them), and their conflicts: a line whose filled digits leave its clue no way.

use crate::member::{Choice, choice_traits};
use crate::unit::{Unit, Units};
use crate::variant::{ConstraintError, Variant};

use super::sandwiches::{SandwichWays, sandwich_support};
use super::{Builder, Family};

/// Most clues beside rows and columns a variant may have: the solver keeps one bit per clue.
pub const MAX_LINE_CLUES: usize = 320;

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

/// A row or a column, 0-based.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Line {
    /// A row, counted from the top.
    Row(u16),
    /// A column, counted from the left.
    Column(u16),
}

impl Line {
    /// The line a clue's `row` or `column` (one of the two) names, checked against a grid of
    /// `size`; the error names `member`'s `row` or `column`.
    pub(crate) fn read(
        row: Option<u64>,
        column: Option<u64>,
        size: usize,
        member: &str,
    ) -> Result<Line, ConstraintError> {
        let (line, index, kind) = match (row, column) {
            (Some(row), None) => (Line::Row(0), row, "row"),
            (None, Some(column)) => (Line::Column(0), column, "column"),
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
            Line::Row(_) => Line::Row(index as u16),
            Line::Column(_) => Line::Column(index as u16),
        })
    }

    /// The line's cells on a grid of `size`, from the `from` end.
    pub fn cells(self, size: usize, from: End) -> Vec<u16> {
        let size = size as u16;
        let mut cells: Vec<u16> = match self {
            Line::Row(row) => (0..size).map(|col| row * size + col).collect(),
            Line::Column(col) => (0..size).map(|row| row * size + col).collect(),
        };
        if from == End::End {
            cells.reverse();
        }
        cells
    }

    /// `column 4`, as players count lines.
    pub fn name(self) -> String {
        match self {
            Line::Row(row) => format!("row {}", row + 1),
            Line::Column(col) => format!("column {}", col + 1),
        }
    }
}

/// What a clue beside a line says of the line's digits, read from the clue's end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineClue {
    /// The digits strictly between the line's 1 and N add up to `sum`.
    Sandwich {
        /// What they add up to.
        sum: u32,
        /// The sets of digits that make it, by how many cells lie between.
        ways: SandwichWays,
    },
}

impl LineClue {
    /// The rule a line its clue cannot fit breaks, in conflicts.
    pub fn unit(&self) -> Unit {
        match self {
            LineClue::Sandwich { .. } => Unit::Sandwich,
        }
    }
}

/// A clue beside a row or column, checked: the line's cells from the clue's end and what it says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineRule {
    /// The row or column.
    pub line: Line,
    /// The end the clue sits beyond.
    pub from: End,
    /// The line's cells, from the clue's end.
    pub cells: Vec<u16>,
    /// What the clue says.
    pub clue: LineClue,
}

impl LineRule {
    /// Keeps in `kept` each cell's candidates (`candidates`, the line's from the clue's end, a
    /// filled cell's digit alone) that some way of meeting the clue uses, on a grid of `size`:
    /// the line's digits differ, so each way is one the line's other rules may still allow.
    /// Whether there is a way at all (else `kept` is all empty).
    pub fn support(&self, size: usize, candidates: &[u32], kept: &mut [u32]) -> bool {
        match &self.clue {
            LineClue::Sandwich { sum, ways } => sandwich_support(size, *sum, ways, candidates, kept),
        }
    }
}

/// The clues beside rows and columns: their count, and their conflicts (each family reads its
/// own member and adds to [`Builder::line_clues`]).
pub(crate) struct LineClues;

impl Family for LineClues {
    fn build(_constraints: &crate::constraints::Constraints, rules: &mut Builder) -> Result<(), ConstraintError> {
        let count = rules.line_clues.len();
        if count > MAX_LINE_CLUES {
            let message = format!("{count} clues beside rows and columns; at most {MAX_LINE_CLUES} are taken");
            return Err(ConstraintError::new("constraints", message));
        }
        Ok(())
    }

    /// A line whose filled digits leave its clue no way, its open cells taking any digit.
    fn conflicts(variant: &Variant, cells: &[u8], broken: &mut [Units]) {
        let size = variant.shape().size();
        let full = (1u32 << size) - 1;
        let mut kept = vec![0u32; size];
        for rule in &variant.line_clues {
            let candidates: Vec<u32> = rule
                .cells
                .iter()
                .map(|&cell| match cells[usize::from(cell)] {
                    0 => full,
                    digit => 1 << (digit - 1),
                })
                .collect();
            if rule.support(size, &candidates, &mut kept) {
                continue;
            }
            for &cell in &rule.cells {
                if cells[usize::from(cell)] != 0 {
                    broken[usize::from(cell)].insert(rule.clue.unit().into());
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_read_from_the_clue_s_end() {
        assert_eq!(Line::Row(1).cells(4, End::Start), [4, 5, 6, 7]);
        assert_eq!(Line::Row(1).cells(4, End::End), [7, 6, 5, 4]);
        assert_eq!(Line::Column(2).cells(4, End::Start), [2, 6, 10, 14]);
        assert_eq!(Line::Column(2).cells(4, End::End), [14, 10, 6, 2]);
        assert_eq!(Line::Column(2).name(), "column 3");
        let refused = |row, column| Line::read(row, column, 9, "constraints.sandwiches[0]").unwrap_err().to_string();
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

//! Rule checking (LeetCode 36 semantics): no digit may repeat among the filled cells of a row,
//! a column or a box. Blanks are ignored, so a partly filled board can be valid.

use crate::board::Board;
use crate::board::bitboards::{BOX_CELLS, Bitboards, COLUMN_SPREAD};
use crate::position::Cell;
pub use sudokud_model::unit::{Conflict, Unit, Units, Validation};

/// Checks `board` against the rules.
pub fn validate(board: &Board) -> Validation {
    let conflicts = conflicts(board);
    Validation { valid: conflicts.is_empty(), complete: board.is_complete(), conflicts }
}

/// Every filled cell whose digit also appears elsewhere in its row, column or box, in row-major
/// order. Empty (and not allocated) exactly when the board is valid.
pub fn conflicts(board: &Board) -> Vec<Conflict> {
    conflicts_among(board, &Bitboards::of(board), ALL_DIGITS)
}

/// Digits 1-9, bit `d` for digit `d`.
const ALL_DIGITS: u16 = 0x3fe;

/// [`conflicts`] of the digits in `digits` (bit `d` for digit `d`), from the board's bitboards
/// (`placed`): the solver, having found which digits clash while placing the givens from the
/// same bitboards, looks only at those. Inlined, though only boards that break the rules get
/// here, so that in the solver's fast search its counts are single instructions (a call counted
/// them in software).
#[inline(always)]
pub(crate) fn conflicts_among(board: &Board, placed: &Bitboards, digits: u16) -> Vec<Conflict> {
    // Bitboards, as the solver keeps them: a few operations per digit instead of per-cell
    // bookkeeping in every unit; the batch CLI reports the conflicts of every such line it reads.
    // Per band, the cells whose digit repeats in their row, column and box. A cell holds one
    // digit, so the digits' cells can share one mask per unit kind.
    let mut repeats = [[0u32; 3]; 3];
    let mut remaining = digits;
    while remaining != 0 {
        let digit = remaining.trailing_zeros() as usize;
        remaining &= remaining - 1;
        let bands = [0, 1, 2].map(|band| placed.given(band, digit));
        // Per column, "at least one" and "at least two" givens of the digit.
        let (mut once, mut twice) = (0u32, 0u32);
        for cells in bands {
            for row in 0..3 {
                let row = cells >> (9 * row) & 0x1ff;
                twice |= once & row;
                once |= row;
            }
        }
        for (cells, repeats) in bands.into_iter().zip(&mut repeats) {
            for row in 0..3 {
                let row = cells & 0x1ff << (9 * row);
                // More than one bit: clearing the lowest leaves some.
                if row & row.wrapping_sub(1) != 0 {
                    repeats[0] |= row;
                }
            }
            repeats[1] |= cells & (twice * COLUMN_SPREAD);
            for column in [0, 3, 6] {
                let in_box = cells & BOX_CELLS << column;
                if in_box & in_box.wrapping_sub(1) != 0 {
                    repeats[2] |= in_box;
                }
            }
        }
    }
    // Sized at once, not grown conflict by conflict.
    let count = repeats.iter().map(|[rows, columns, boxes]| (rows | columns | boxes).count_ones()).sum::<u32>();
    let mut conflicts = Vec::with_capacity(count as usize);
    for (band, [rows, columns, boxes]) in repeats.into_iter().enumerate() {
        let mut cells = rows | columns | boxes;
        while cells != 0 {
            let pos = cells.trailing_zeros();
            cells &= cells - 1;
            let bit = |repeats: u32, kind: Units| u64::from(repeats >> pos & 1) * kind.bits();
            let units = Units::from_bits(bit(rows, Units::ROW) | bit(columns, Units::COLUMN) | bit(boxes, Units::BOX));
            // A band is 27 cells, row-major like the board.
            let cell = Cell::at(27 * band + pos as usize);
            let (row, col) = (cell.row().into(), cell.col().into());
            conflicts.push(Conflict { row, col, value: board.cells()[cell.index()], units });
        }
    }
    conflicts
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEETCODE_36: &str = crate::board::EXAMPLE_PUZZLE;

    fn conflict(row: u8, col: u8, digit: u8, units: Units) -> Conflict {
        Conflict { row: row.into(), col: col.into(), value: digit, units }
    }

    fn with(line: &str, index: usize, digit: u8) -> Board {
        let mut bytes = line.as_bytes().to_vec();
        bytes[index] = b'0' + digit;
        String::from_utf8(bytes).unwrap().parse().unwrap()
    }

    /// Conflicts cell by cell, the way a person checks: a given conflicts in each unit where
    /// another cell holds its digit.
    fn naive_conflicts(board: &Board) -> Vec<Conflict> {
        let value = |row: usize, col: usize| board.get(row, col);
        let mut found = Vec::new();
        for (row, col) in (0..9).flat_map(|row| (0..9).map(move |col| (row, col))) {
            let digit = value(row, col);
            if digit == 0 {
                continue;
            }
            let others = |cells: &mut dyn Iterator<Item = (usize, usize)>| {
                cells.filter(|&other| other != (row, col)).any(|(r, c)| value(r, c) == digit)
            };
            let (top, left) = (row / 3 * 3, col / 3 * 3);
            let mut units = Units::default();
            if others(&mut (0..9).map(|c| (row, c))) {
                units.insert(Units::ROW);
            }
            if others(&mut (0..9).map(|r| (r, col))) {
                units.insert(Units::COLUMN);
            }
            if others(&mut (0..9).map(|i| (top + i / 3, left + i % 3))) {
                units.insert(Units::BOX);
            }
            if units != Units::default() {
                found.push(conflict(row as u8, col as u8, digit, units));
            }
        }
        found
    }

    /// Random boards from empty to crowded (most with repeats), against the naive check.
    #[test]
    fn conflicts_agree_with_a_cell_by_cell_check() {
        let mut random = crate::random::SplitMix64(36);
        for _ in 0..2000 {
            let mut cells = [0u8; 81];
            for _ in 0..random.below(40) {
                cells[random.below(81)] = 1 + random.below(9) as u8;
            }
            let board = Board::from_cells(cells).unwrap();
            assert_eq!(conflicts(&board), naive_conflicts(&board), "{board}");
        }
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
        let both = Units::from_bits(Units::COLUMN.bits() | Units::BOX.bits());
        assert_eq!(
            report.conflicts,
            vec![conflict(0, 0, 8, both), conflict(2, 2, 8, Units::BOX), conflict(3, 0, 8, Units::COLUMN),]
        );
    }

    #[test]
    fn a_repeat_in_a_row_only() {
        // Row 0 has 5 at col 0; put another 5 at col 7 (box 2 and column 7 have no 5).
        let report = validate(&with(LEETCODE_36, 7, 5));
        assert_eq!(report.conflicts, vec![conflict(0, 0, 5, Units::ROW), conflict(0, 7, 5, Units::ROW),]);
    }

    #[test]
    fn conflicts_serialize_flat_and_zero_based() {
        let json = serde_json::to_string(&conflict(0, 2, 8, Units::COLUMN)).unwrap();
        assert_eq!(json, r#"{"row":0,"col":2,"digit":8,"units":["column"]}"#);
    }

    #[test]
    fn on_a_classic_grid_the_conflicts_are_those_of_the_9x9_rules() {
        use crate::board::EXAMPLE_PUZZLE;
        use sudokud_model::grid::Grid;
        let mut line = EXAMPLE_PUZZLE.as_bytes().to_vec();
        line[0] = b'8';
        let text = String::from_utf8(line).unwrap();
        let board: Board = text.parse().unwrap();
        let classic = serde_json::to_value(conflicts(&board)).unwrap();
        let sized = serde_json::to_value(sudokud_model::rules::conflicts(&Grid::from(&board))).unwrap();
        assert_eq!(sized, classic);
        assert_eq!(sized.as_array().unwrap().len(), 3);
    }
}

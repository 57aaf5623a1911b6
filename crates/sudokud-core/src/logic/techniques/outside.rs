//! A variant's clues beside rows and columns: a sandwich keeps in each of its line's cells only
//! the digits some place of the line's 1 and N, with different digits between them adding up to
//! its sum, uses ([`LineRule::support`]).

use sudokud_model::family::sandwiches::sandwich_gaps;
use sudokud_model::variant::{LineClue, LineRule};

use crate::logic::cells::CellSet;
use crate::logic::grid::{Grid, bit};
use crate::logic::step::{Deduction, eliminated_cells, join, symbol};

use super::sums::lost_digits;

/// The longest line the finder reads: a grid's side.
const LONGEST: usize = 32;

/// The candidates of `rule`'s line in `grid` from the clue's end, a placed cell's digit alone.
fn candidates<C: CellSet>(grid: &Grid<C>, rule: &LineRule) -> [u32; LONGEST] {
    let mut candidates = [0u32; LONGEST];
    for (digits, &cell) in candidates.iter_mut().zip(&rule.cells) {
        let cell = usize::from(cell);
        *digits = match grid.value(cell) {
            0 => grid.candidates(cell),
            value => bit(value),
        };
    }
    candidates
}

/// A cell of a clue's line, the clue one `of` picks out (a sandwich), holding a candidate no way
/// of meeting the clue uses: one cell's eliminations per step.
fn line_clue<C: CellSet>(grid: &Grid<C>, out: &mut Deduction, of: fn(&LineClue) -> bool) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    let size = grid.geometry().side();
    let mut kept = [0u32; LONGEST];
    for (number, rule) in rules.line_clues.iter().enumerate().filter(|(_, rule)| of(&rule.clue)) {
        let length = rule.cells.len();
        // No way at all: only a wrong grid gets here.
        if !rule.support(size, &candidates(grid, rule)[..length], &mut kept[..length]) {
            continue;
        }
        for (&cell, &digits) in rule.cells.iter().zip(&kept) {
            out.eliminate_digits(grid, usize::from(cell), !digits);
            if out.finish() {
                out.add_cells(rule.cells.iter().map(|&cell| usize::from(cell)));
                out.rule = number;
                return true;
            }
        }
    }
    false
}

/// A sandwich's line cell holding a candidate no place of the 1 and N with the sum between uses.
pub(super) fn sandwich<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    line_clue(grid, out, |clue| matches!(clue, LineClue::Sandwich { .. }))
}

/// `The sandwich of 35 in column 4 needs 5, 6 or 7 cells between its 1 and 9 adding up to 35:
/// trying every place its candidates leave them, r1c4 can't be 2 or 3.`, read off `grid` before
/// the step.
pub(super) fn describe_sandwich<C: CellSet>(grid: &Grid<C>, deduction: &Deduction) -> String {
    let geometry = grid.geometry();
    let rules = geometry.rules().expect("a sandwich is found only on a variant");
    let rule = &rules.line_clues[deduction.rule];
    let LineClue::Sandwich { sum, ways } = &rule.clue;
    let size = geometry.side();
    let length = rule.cells.len();
    let mut kept = [0u32; LONGEST];
    let gaps = sandwich_gaps(size, *sum, ways, &candidates(grid, rule)[..length], &mut kept[..length]);
    let top = symbol(size as u8);
    let needs = if gaps == 1 {
        format!("its 1 and {top} side by side")
    } else {
        let counts: Vec<String> =
            (0..32).filter(|count| gaps >> count & 1 == 1).map(|count| count.to_string()).collect();
        let cells = if gaps == 2 { "cell" } else { "cells" };
        format!("{} {cells} between its 1 and {top} adding up to {sum}", join(counts, "or"))
    };
    format!(
        "The sandwich of {sum} in {} needs {needs}: trying every place its candidates leave them, {} can't be {}.",
        rule.line.name(),
        eliminated_cells(geometry, deduction),
        lost_digits(deduction)
    )
}

#[cfg(test)]
mod tests {
    use crate::logic::step::Technique;
    use crate::logic::techniques::renban::tests::{iss_example_steps, sentences};

    /// A sandwich of 35 in a column needs seven cells between its 1 and 9 (2 to 8, all of them):
    /// the 1 and 9 go to its ends; a sum of 0 puts them side by side.
    #[test]
    fn a_sandwich_keeps_the_places_of_its_1_and_9_that_make_its_sum() {
        let said = sentences(Technique::Sandwich, r#"{"sandwiches":[{"sum":35,"column":3}]}"#, &[0; 81]);
        let needs = "The sandwich of 35 in column 4 needs 7 cells between its 1 and 9 adding up to 35: trying every place its candidates leave them";
        assert_eq!(said[0], format!("{needs}, r1c4 can't be 2, 3, 4, 5, 6, 7 or 8."));
        assert_eq!(said[1], format!("{needs}, r2c4 can't be 1 or 9."));
        assert_eq!(said.len(), 9, "{said:?}");
        let mut cells = [0; 81];
        cells[9 * 4] = 1;
        let said = sentences(Technique::Sandwich, r#"{"sandwiches":[{"sum":0,"row":4,"from":"end"}]}"#, &cells);
        let needs =
            "The sandwich of 0 in row 5 needs its 1 and 9 side by side: trying every place its candidates leave them";
        // Read from the clue's end, right of the row: the 9 goes beside the 1, nowhere else.
        assert_eq!(said[0], format!("{needs}, r5c9 can't be 9."));
        assert!(said.contains(&format!("{needs}, r5c2 can't be 2, 3, 4, 5, 6, 7 or 8.")), "{said:?}");
        let mut cells = [0; 81];
        (cells[0], cells[3]) = (1, 9);
        let said = sentences(Technique::Sandwich, r#"{"sandwiches":[{"sum":5,"row":0}]}"#, &cells);
        let needs = "The sandwich of 5 in row 1 needs 2 cells between its 1 and 9 adding up to 5";
        assert_eq!(
            said[0],
            format!("{needs}: trying every place its candidates leave them, r1c2 can't be 4, 5, 6, 7 or 8.")
        );
    }

    /// ISS's Between 1 and 9 Sudoku (MIT) explained through to its published solution, every
    /// step checked against it, sandwich steps among them.
    #[test]
    fn the_iss_sandwich_example_is_explained_to_its_solution() {
        let steps = iss_example_steps("Between 1 and 9 Sudoku", Technique::Sandwich);
        assert!(steps.len() >= 3, "{steps:?}");
        assert!(steps.iter().all(|said| said.starts_with("The sandwich of ")), "{steps:?}");
    }
}

//! A variant's clues beside rows and columns: a sandwich keeps in each of its line's cells only
//! the digits some place of the line's 1 and N, with different digits between them adding up to
//! its sum, uses, an X-sum those of some first digit X with X - 1 different digits after it
//! making its clue ([`sudokud_model::family::whole::WholeRule::keep`]).

use sudokud_model::family::sandwiches::sandwich_gaps;
use sudokud_model::family::x_sums::x_sum_firsts;
use sudokud_model::unit::Unit;
use sudokud_model::variant::OutsideKind;

use crate::logic::cells::CellSet;
use crate::logic::grid::{Grid, digits};
use crate::logic::step::{Deduction, digit_list, eliminated_cells, join, symbol};

use super::sums::lost_digits;
use super::whole::{candidates, whole};

/// A cell of a clue's line, the clue of `unit`'s rule (a sandwich), holding a candidate no way of
/// meeting the clue uses: one cell's eliminations per step.
pub(super) fn outside_clue<C: CellSet>(grid: &Grid<C>, out: &mut Deduction, unit: Unit) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    whole(grid, out, &rules.outside_clues, |of| of == unit)
}

/// `The sandwich of 35 in column 4 needs 5, 6 or 7 cells between its 1 and 9 adding up to 35:
/// trying every place its candidates leave them, r1c4 can't be 2 or 3.`, read off `grid` before
/// the step.
pub(super) fn describe<C: CellSet>(grid: &Grid<C>, deduction: &Deduction) -> String {
    let geometry = grid.geometry();
    let rules = geometry.rules().expect("a clue beside a line is found only on a variant");
    let rule = &rules.outside_clues[deduction.rule];
    let candidates = candidates(grid, &rule.cells);
    let mut kept = vec![0; candidates.len()];
    let line = rule.line.name();
    let because = match &rule.kind {
        OutsideKind::Sandwich { sum, ways } => {
            let gaps = sandwich_gaps(*sum, ways, &candidates, &mut kept);
            let top = symbol(geometry.side() as u8);
            let needs = if gaps == 1 {
                format!("its 1 and {top} side by side")
            } else {
                let counts: Vec<String> =
                    (0..32).filter(|count| gaps >> count & 1 == 1).map(|count| count.to_string()).collect();
                let cells = if gaps == 2 { "cell" } else { "cells" };
                format!("{} {cells} between its 1 and {top} adding up to {sum}", join(counts, "or"))
            };
            format!("The sandwich of {sum} in {line} needs {needs}: trying every place its candidates leave them")
        }
        OutsideKind::XSum { sum, ways } => {
            let firsts = x_sum_firsts(ways, &candidates, &mut kept);
            format!(
                "The X-sum of {sum} {} adds up its line's first X digits, X being {}'s {}: trying every way its candidates leave",
                rule.line.beside(rule.from),
                geometry.cell_name(usize::from(rule.cells[0])),
                digit_list(digits(firsts), "or"),
            )
        }
    };
    format!("{because}, {} can't be {}.", eliminated_cells(geometry, deduction), lost_digits(deduction))
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

    /// An X-sum of 1 puts a 1 beside its clue; one of 45 on 9x9 a 9 there. A 3 beside a clue of 6
    /// leaves the next two 1 and 2.
    #[test]
    fn an_x_sum_keeps_the_first_digits_that_make_its_clue() {
        let said = sentences(Technique::XSum, r#"{"x_sums":[{"sum":1,"column":3}]}"#, &[0; 81]);
        assert_eq!(
            said[0],
            "The X-sum of 1 above column 4 adds up its line's first X digits, X being r1c4's 1: trying every way its candidates leave, r1c4 can't be 2, 3, 4, 5, 6, 7, 8 or 9."
        );
        let said = sentences(Technique::XSum, r#"{"x_sums":[{"sum":45,"row":2,"from":"end"}]}"#, &[0; 81]);
        assert_eq!(
            said[0],
            "The X-sum of 45 right of row 3 adds up its line's first X digits, X being r3c9's 9: trying every way its candidates leave, r3c9 can't be 1, 2, 3, 4, 5, 6, 7 or 8."
        );
        let mut cells = [0; 81];
        cells[9 * 8] = 3;
        let said = sentences(Technique::XSum, r#"{"x_sums":[{"sum":6,"column":0,"from":"end"}]}"#, &cells);
        let takes = "The X-sum of 6 below column 1 adds up its line's first X digits, X being r9c1's 3: trying every way its candidates leave";
        assert_eq!(said[0], format!("{takes}, r8c1 can't be 4, 5, 6, 7, 8 or 9."));
    }

    /// ISS's X-Sum (MIT) explained through to its published solution, every step checked against
    /// it, X-sum steps among them.
    #[test]
    fn the_iss_x_sum_example_is_explained_to_its_solution() {
        let steps = iss_example_steps("X-Sum", Technique::XSum);
        assert!(steps.len() >= 3, "{steps:?}");
        assert!(steps.iter().all(|said| said.starts_with("The X-sum of ")), "{steps:?}");
    }
}

//! A variant's related pairs of cells (a thermometer's step, a Kropki dot, an X or a V, a
//! greater-than sign, neighbours that may not be consecutive): the neighbour rule. Each pair's [`Relation`] says which digits
//! of one cell the other's candidates leave.
//!
//! [`Relation`]: sudokud_model::variant::Relation

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, bit};
use crate::logic::step::{Deduction, eliminated_cells};

use super::sums::lost_digits;

/// A pair where one cell holds a candidate the other's candidates (or digit) all rule out.
pub(super) fn neighbour_rule<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    let known = |cell: usize| match grid.value(cell) {
        0 => grid.candidates(cell),
        value => bit(value),
    };
    for (number, pair) in rules.pairs.iter().enumerate() {
        let (first, second) = (usize::from(pair.first), usize::from(pair.second));
        let relation = rules.relation(pair);
        let onto_second = relation.support(known(first), false);
        let onto_first = relation.support(known(second), true);
        for (cell, support) in [(second, onto_second), (first, onto_first)] {
            out.eliminate_digits(grid, cell, !support);
            if out.finish() {
                out.add_cells([first, second]);
                out.rule = number;
                return true;
            }
        }
    }
    false
}

/// The sentence of a neighbour-rule step, in the grid-size engine's words.
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let rules = geometry.rules().expect("a neighbour rule is found only on a variant");
    let relation = rules.relation(&rules.pairs[deduction.rule]);
    let (first, second) = (geometry.cell_name(deduction.cells[0]), geometry.cell_name(deduction.cells[1]));
    let reason = relation.reason(&first, &second);
    format!("{reason}, so {} can't be {}.", eliminated_cells(geometry, deduction), lost_digits(deduction))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::cells::Wide;
    use crate::logic::geometry::tests::{on_variant, variant_puzzles};
    use crate::logic::grid::Cells;
    use crate::logic::step::Technique;
    use crate::sizes::Shape;
    use sudokud_model::variant::Variant;

    #[test]
    fn on_thermometers_dots_xv_and_non_consecutive_every_step_keeps_the_solution_and_is_the_grid_size_engines() {
        let (mut used, mut compared, mut six) = (0, 0, 0);
        let puzzles = variant_puzzles(|variant| !variant.pairs.is_empty());
        for (id, variant, puzzle, solution) in &puzzles {
            let (path, agreed) = match variant.shape().size() {
                9 => on_variant::<Cells>(variant, puzzle, solution, id),
                _ => on_variant::<Wide<2>>(variant, puzzle, solution, id),
            };
            six += usize::from(variant.shape().size() == 6);
            used += usize::from(path.contains(&Technique::NeighbourRule));
            compared += agreed;
        }
        // All but the easy non-consecutive one, which falls to singles.
        assert_eq!(used, puzzles.len() - 1, "the neighbour rule is taken");
        assert!(puzzles.len() >= 10 && six > 0 && compared > 400, "{} puzzles, {compared} steps", puzzles.len());
    }

    /// Every neighbour-rule step in a row on a 9x9 grid of `cells` under `json`'s constraints,
    /// each applied before the next is looked for: the sentences a player reads.
    fn sentences(json: &str, cells: &[u8; 81]) -> Vec<String> {
        let constraints: crate::variants::Constraints = serde_json::from_str(json).unwrap();
        let variant = Variant::new(Shape::CLASSIC, None, &constraints).unwrap();
        let geometry = Geometry::<Cells>::of_variant(&variant).expect("9x9");
        let mut grid = Grid::of_values(&geometry, cells);
        let (mut out, mut said) = (Deduction::new(), Vec::new());
        out.start(Technique::NeighbourRule);
        while neighbour_rule(&grid, &mut out) {
            said.push(describe(&geometry, &out));
            out.eliminations.iter().for_each(|removed| _ = grid.eliminate(removed.cell, removed.digit));
            out.reset();
        }
        said
    }

    /// The neighbour rule through an X and a V on an empty grid: what each mark rules out, in
    /// the sentence a player reads.
    #[test]
    fn x_and_v_marks_say_their_sums() {
        let said = sentences(r#"{"xv":{"x":[[[0,0],[0,1]]],"v":[[[1,0],[1,1]]]}}"#, &[0; 81]);
        let x = "r1c1 and r1c2 share an X, so they are two different digits summing to 10";
        let v = "r2c1 and r2c2 share a V, so they sum to 5";
        assert_eq!(
            said,
            [
                format!("{x}, so r1c2 can't be 5."),
                format!("{x}, so r1c1 can't be 5."),
                format!("{v}, so r2c2 can't be 5, 6, 7, 8 or 9."),
                format!("{v}, so r2c1 can't be 5, 6, 7, 8 or 9."),
            ]
        );
    }

    /// The neighbour rule along whispers lines: the German default leaves 5 no neighbour on 9x9,
    /// and a Dutch line's 4 rules nothing out while every digit is open (each has a neighbour 4
    /// away), but leaves a 5's neighbour 1 or 9.
    #[test]
    fn whispers_lines_say_their_difference() {
        let json = r#"{"whispers":[{"line":[[4,4],[4,5]],"difference":4},{"line":[[0,0],[1,1]]}]}"#;
        let german = "r1c1 and r2c2 are neighbours on a whispers line, so they differ by at least 5";
        let both = [format!("{german}, so r2c2 can't be 5."), format!("{german}, so r1c1 can't be 5.")];
        assert_eq!(sentences(json, &[0; 81]), both);
        let mut five = [0; 81];
        five[4 * 9 + 4] = 5;
        let dutch = "r5c5 and r5c6 are neighbours on a whispers line, so they differ by at least 4";
        assert_eq!(sentences(json, &five)[0], format!("{dutch}, so r5c6 can't be 2, 3, 4, 6, 7 or 8."));
    }

    /// The neighbour rule across a greater-than sign: the greater cell can't be 1, the smaller
    /// can't be 9, and a digit placed narrows the other side.
    #[test]
    fn a_greater_than_sign_says_which_cell_is_greater() {
        let json = r#"{"greater_than":[{"greater":[0,1],"less":[0,0]}]}"#;
        let sign = "r1c2 is greater than r1c1 by the sign between them";
        assert_eq!(
            sentences(json, &[0; 81]),
            [format!("{sign}, so r1c2 can't be 1."), format!("{sign}, so r1c1 can't be 9.")]
        );
        let mut cells = [0; 81];
        cells[1] = 4;
        assert_eq!(sentences(json, &cells), [format!("{sign}, so r1c1 can't be 5, 6, 7, 8 or 9.")]);
    }

    /// ISS's Fortress (greater-than signs and givens) explained through to its published
    /// solution, the signs' steps among its steps.
    #[test]
    fn the_iss_greater_than_example_is_explained_to_its_solution() {
        let steps = super::super::renban::tests::iss_example_steps("Fortress", Technique::NeighbourRule);
        assert!(steps.len() >= 10, "{steps:?}");
        assert!(steps.iter().all(|said| said.contains(" by the sign between them, so ")), "{steps:?}");
    }

    /// The neighbour rule under anti-taxicab: a 4 placed in r1c1 leaves no 4 four steps away
    /// outside its row, column and box (which keep it apart already): r2c4 and r4c2.
    #[test]
    fn anti_taxicab_says_the_distance_and_the_digit() {
        let mut cells = [0; 81];
        cells[0] = 4;
        let apart = |other: &str| {
            format!(
                "r1c1 and {other} are a taxicab distance of 4 apart, so they can't both be 4, so {other} can't be 4."
            )
        };
        assert_eq!(sentences(r#"{"anti_taxicab":true}"#, &cells), [apart("r2c4"), apart("r4c2")]);
    }

    /// ISS's Anti-Taxi Sudoku X explained through to its published solution, the rule's steps
    /// among its steps.
    #[test]
    fn the_iss_anti_taxicab_example_is_explained_to_its_solution() {
        let steps = super::super::renban::tests::iss_example_steps("Anti-Taxi Sudoku X", Technique::NeighbourRule);
        assert!(steps.len() >= 10, "{steps:?}");
        assert!(steps.iter().all(|said| said.contains(" are a taxicab distance of ")), "{steps:?}");
    }

    /// ISS's Odd/Even Thermo Sudoku (custom relations alone, MIT) explained through to its
    /// published solution, the relation's steps naming it.
    #[test]
    fn the_iss_custom_relation_example_is_explained_to_its_solution() {
        let steps = super::super::renban::tests::iss_example_steps("Odd/Even Thermo Sudoku", Technique::NeighbourRule);
        assert!(steps.len() >= 10, "{steps:?}");
        let named = " keep the relation \"Odd-Even Thermo\", which allows only some pairs of digits, so ";
        assert!(steps.iter().all(|said| said.contains(named)), "{steps:?}");
    }

    /// The neighbour rule across a palindrome: a digit placed at one end is the other end's
    /// only candidate.
    #[test]
    fn a_palindrome_says_its_mirrored_cells_are_the_same_digit() {
        let mut cells = [0; 81];
        cells[2 * 9 + 2] = 7;
        let said = sentences(r#"{"palindromes":[[[2,2],[3,3],[4,4]]]}"#, &cells);
        let mirror = "r3c3 and r5c5 mirror each other on a palindrome, so they are the same digit";
        assert_eq!(said, [format!("{mirror}, so r5c5 can't be 1, 2, 3, 4, 5, 6, 8 or 9.")]);
    }
}

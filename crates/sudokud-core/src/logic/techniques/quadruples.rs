//! A variant's quadruples: the digits in a circle on a corner all appear among the four cells
//! around it, so where some cells cannot hold them the others must, and a cell keeps only what
//! some way of placing them leaves it.

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, bit};
use crate::logic::step::{Deduction, cell_list, digit_list, eliminated_cells};

use super::sums::lost_digits;

/// What each of the quadruple `number`'s cells may hold in `grid`, a placed cell its digit alone.
fn support<C: CellSet>(grid: &Grid<C>, number: usize) -> [u32; 4] {
    let geometry = grid.geometry();
    let rules = geometry.rules().expect("a quadruple is read only on a variant");
    let rule = &rules.quadruples[number];
    let cells = rule.cells.map(usize::from);
    let candidates = cells.map(|cell| match grid.value(cell) {
        0 => grid.candidates(cell),
        value => bit(value),
    });
    rule.support(candidates, |a, b| !geometry.peers(cells[a]).has(cells[b]))
}

/// A cell around a quadruple's corner holding a candidate no way of placing the circle's digits
/// leaves it: one cell's eliminations per step.
pub(super) fn quadruple<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    for (number, rule) in rules.quadruples.iter().enumerate() {
        let kept = support(grid, number);
        // No way at all: only a wrong grid gets here.
        if kept.contains(&0) {
            continue;
        }
        for (&cell, &digits) in rule.cells.iter().zip(&kept) {
            out.eliminate_digits(grid, usize::from(cell), !digits);
            if out.finish() {
                out.add_cells(rule.cells.iter().map(|&cell| usize::from(cell)));
                out.add_digits(rule.digits.iter().copied());
                out.rule = number;
                return true;
            }
        }
    }
    false
}

/// `r1c1, r1c2, r2c1 and r2c2 share a circle with 1, 4, 6 and 7 on their corner, so each of
/// those digits goes in one of them; only r2c2 can still hold 7, so r2c2 can't be 2, 3 or 5.`,
/// read off `grid` before the step.
pub(super) fn describe<C: CellSet>(grid: &Grid<C>, deduction: &Deduction) -> String {
    let geometry: &Geometry<C> = grid.geometry();
    let rules = geometry.rules().expect("a quadruple step is found only on a variant");
    let rule = &rules.quadruples[deduction.rule];
    let cells = rule.cells.map(usize::from);
    let holds = |cell: usize, digit: u8| grid.value(cell) == digit || grid.candidates(cell) & bit(digit) != 0;
    let at = deduction.eliminations[0].cell;
    let lost = deduction.eliminations.iter().fold(0u32, |set, removed| set | bit(removed.digit));
    let written = rule.digits.iter().fold(0u32, |set, &digit| set | bit(digit));
    // A digit written once whose one place left is the cell that loses candidates.
    let once = |digit: &u8| rule.digits.iter().filter(|&other| other == digit).count() == 1;
    let only: Vec<u8> = rule
        .digits
        .iter()
        .copied()
        .filter(once)
        .filter(|&digit| holds(at, digit) && cells.iter().filter(|&&cell| holds(cell, digit)).count() == 1)
        .collect();
    let why = if !only.is_empty() {
        format!("only {} can still hold {}", geometry.cell_name(at), digit_list(only, "and"))
    } else if rule.digits.len() == 4 && lost & written == 0 {
        "four digits for four cells, each holds one of them".to_owned()
    } else {
        "trying every way of placing them in cells that can hold them".to_owned()
    };
    let each = match rule.digits.len() {
        1 => "so it goes in one of them",
        _ => "so each of those digits goes in one of them",
    };
    format!(
        "{} share a circle with {} on their corner, {each}; {why}, so {} can't be {}.",
        cell_list(geometry, cells),
        digit_list(rule.digits.iter().copied(), "and"),
        eliminated_cells(geometry, deduction),
        lost_digits(deduction)
    )
}

#[cfg(test)]
mod tests {
    use crate::logic::step::Technique;
    use crate::logic::techniques::renban::tests::sentences;

    #[test]
    fn a_circles_digits_go_where_they_still_fit() {
        let json = r#"{"quadruples":[{"top_left":[0,0],"digits":[1,4,6,7]}]}"#;
        let corner = "r1c1, r1c2, r2c1 and r2c2 share a circle with 1, 4, 6 and 7 on their corner, so each of those digits goes in one of them";
        let said = sentences(Technique::Quadruple, json, &[0; 81]);
        assert_eq!(
            said[0],
            format!("{corner}; four digits for four cells, each holds one of them, so r1c1 can't be 2, 3, 5, 8 or 9.")
        );
        // A 7 in row 1 and another in column 1, both outside box 1, leave only r2c2 for 7 around
        // the corner.
        let mut cells = [0; 81];
        cells[5] = 7;
        cells[9 * 5] = 7;
        let said = sentences(Technique::Quadruple, json, &cells);
        assert!(
            said.contains(&format!("{corner}; only r2c2 can still hold 7, so r2c2 can't be 1, 2, 3, 4, 5, 6, 8 or 9.")),
            "{said:?}"
        );
    }

    /// ISS's Quadruple X (MIT) explained through to its published solution, every step checked
    /// against it, quadruple steps among them.
    #[test]
    fn the_iss_quadruple_example_is_explained_to_its_solution() {
        use crate::logic::techniques::renban::tests::iss_example_steps;
        let steps = iss_example_steps("Quadruple X", Technique::Quadruple);
        assert!(!steps.is_empty());
        assert!(steps.iter().all(|said| said.contains(" on their corner, so ")), "{steps:?}");
    }
}

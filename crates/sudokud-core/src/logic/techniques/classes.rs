//! A variant's windows of digit classes (three cells in a row along a modular or entropic line,
//! a 2x2 square under global entropy or global mod): every class appears in a window, so a class
//! with one place left goes there and a cell of one class keeps it from the others of three;
//! each cell keeps the candidates of the classes some way of giving every cell a class leaves it
//! ([`ClassWindow::support`]).

use sudokud_model::variant::{ClassWindow, Classes, WindowKind};

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, digits};
use crate::logic::step::{Deduction, cell_list, digit_list, eliminated_cells};

use super::lines::span;
use super::sums::lost_digits;
use super::whole::{candidates, whole};

/// A cell of a window (of any kind) holding a candidate of a class no way of keeping the window's
/// rule gives it: one cell's eliminations per step.
pub(super) fn window<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    whole(grid, out, &rules.windows, |_| true)
}

/// `r1c1, r1c2 and r1c3 are three cells in a row on an entropic line, so one holds a low (1 to 3)
/// digit, one a middle (4 to 6) and one a high (7 to 9); only r1c2 can still be high (7 to 9), so
/// r1c2 can't be 1, 2, 3, 4, 5 or 6.`, read off `grid` before the step.
pub(super) fn describe<C: CellSet>(grid: &Grid<C>, deduction: &Deduction) -> String {
    let geometry: &Geometry<C> = grid.geometry();
    let rules = geometry.rules().expect("a window step is found only on a variant");
    let window = &rules.windows[deduction.rule];
    let candidates = candidates(grid, &window.cells);
    let open = window.classes_of(&candidates);
    let kept = window.class_support(&open);
    let at = window.cells.iter().position(|&cell| usize::from(cell) == deduction.eliminations[0].cell);
    let at = at.expect("a window step takes candidates from a cell of its window");
    let name = |place: usize| geometry.cell_name(usize::from(window.cells[place]));
    let only_here = kept[at].count_ones() == 1 && open.iter().filter(|&&classes| classes & kept[at] != 0).count() == 1;
    let every = (1u8 << window.classes.len()) - 1;
    let narrowed: Vec<String> = (0..window.cells.len())
        .filter(|&place| place != at && open[place] != every)
        .map(|place| format!("{} only {}", name(place), classes_text(window, open[place])))
        .collect();
    let why = if only_here {
        format!("only {} can still be {}", name(at), classes_text(window, kept[at]))
    } else if !narrowed.is_empty() {
        let narrowed = narrowed.join(" and ");
        format!("with {narrowed}, {} can only be {}", name(at), classes_text(window, kept[at]))
    } else {
        format!("{} can only be {}", name(at), classes_text(window, kept[at]))
    };
    format!(
        "{}; {why}, so {} can't be {}.",
        rule(geometry, window),
        eliminated_cells(geometry, deduction),
        lost_digits(deduction)
    )
}

/// What the window says, from its cells to what they hold.
fn rule<C: CellSet>(geometry: &Geometry<C>, window: &ClassWindow) -> String {
    let cells = cell_list(geometry, window.cells.iter().map(|&cell| usize::from(cell)));
    let names: Vec<String> = (0..window.classes.len()).map(|class| classes_text(window, 1 << class)).collect();
    let (of_each, among, differ) = match window.kind.classes() {
        Classes::Thirds => (
            format!("one holds a {} digit, one a {} and one a {}", names[0], names[1], names[2]),
            format!("they hold a {} digit, a {} and a {} among them", names[0], names[1], names[2]),
            "they are not both low, both middle or both high",
        ),
        Classes::Residues => (
            format!("one holds {}, one {} and one {}", names[0], names[1], names[2]),
            format!("they hold one of {}, one of {} and one of {} among them", names[0], names[1], names[2]),
            "their digits leave different remainders mod 3",
        ),
    };
    let line = match window.kind {
        WindowKind::ModularLine => "a modular line",
        WindowKind::EntropicLine => "an entropic line",
        // A square holds a class twice: it says what the four hold between them.
        WindowKind::GlobalEntropy => return format!("{cells} are a 2x2 square under global entropy, so {among}"),
        WindowKind::GlobalMod => return format!("{cells} are a 2x2 square under global mod, so {among}"),
    };
    match window.cells.len() {
        2 => format!("{cells} are the two cells of {line}, so {differ}"),
        _ => format!("{cells} are three cells in a row on {line}, so {of_each}"),
    }
}

/// The classes of `classes` for people: `low (1 to 3)`, `low or middle (1 to 6)`; residues by
/// their digits, `1, 4 or 7`.
fn classes_text(window: &ClassWindow, classes: u8) -> String {
    let digits_of = window.digits_of(classes);
    match window.kind.classes() {
        Classes::Thirds => {
            let names = Classes::Thirds.names();
            let named: Vec<&str> =
                (0..names.len()).filter(|class| classes >> class & 1 == 1).map(|c| names[c]).collect();
            format!("{} ({})", named.join(" or "), span(digits_of))
        }
        Classes::Residues => digit_list(digits(digits_of), "or"),
    }
}

#[cfg(test)]
mod tests {
    use crate::logic::step::Technique;
    use crate::logic::techniques::renban::tests::{iss_example_steps, sentences};

    /// A class with one place left among three cells goes there; a cell of one class keeps it
    /// from the other two.
    #[test]
    fn a_class_goes_where_it_still_fits() {
        let json = r#"{"entropic_lines":[[[0,0],[0,1],[0,2]]]}"#;
        // r1c1 and r1c3 see a 7, an 8 and a 9 down their columns.
        let mut cells = [0; 81];
        (cells[9 * 3], cells[9 * 4], cells[9 * 5]) = (7, 8, 9);
        (cells[9 * 6 + 2], cells[9 * 7 + 2], cells[9 * 8 + 2]) = (7, 8, 9);
        let said = sentences(Technique::DigitClasses, json, &cells);
        let rule = "r1c1, r1c2 and r1c3 are three cells in a row on an entropic line, so one holds a low (1 to 3) digit, one a middle (4 to 6) and one a high (7 to 9)";
        assert_eq!(
            said[0],
            format!("{rule}; only r1c2 can still be high (7 to 9), so r1c2 can't be 1, 2, 3, 4, 5 or 6.")
        );
        let json = r#"{"modular_lines":[[[0,0],[0,1]]]}"#;
        let mut cells = [0; 81];
        cells[0] = 4;
        let said = sentences(Technique::DigitClasses, json, &cells);
        assert_eq!(
            said,
            [
                "r1c1 and r1c2 are the two cells of a modular line, so their digits leave different remainders mod 3; with r1c1 only 1, 4 or 7, r1c2 can only be 2, 3, 5, 6, 8 or 9, so r1c2 can't be 1 or 7."
            ]
        );
    }

    /// A square's only place left for a class takes it; two cells of one class leave the other
    /// two the other classes.
    #[test]
    fn a_square_holds_every_class() {
        let json = r#"{"global_entropy":true}"#;
        // r1c1, r2c1 and r2c2 see a 7, an 8 and a 9 down their columns or along row 2.
        let mut cells = [0; 81];
        (cells[9 * 3], cells[9 * 4], cells[9 * 5]) = (7, 8, 9);
        (cells[9 + 4], cells[9 + 5], cells[9 + 6]) = (7, 8, 9);
        let said = sentences(Technique::DigitClasses, json, &cells);
        let rule = "r1c1, r1c2, r2c1 and r2c2 are a 2x2 square under global entropy, so they hold a low (1 to 3) digit, a middle (4 to 6) and a high (7 to 9) among them";
        assert!(
            said.contains(&format!(
                "{rule}; only r1c2 can still be high (7 to 9), so r1c2 can't be 1, 2, 3, 4, 5 or 6."
            )),
            "{said:?}"
        );
        let json = r#"{"global_mod":true}"#;
        let mut cells = [0; 81];
        (cells[0], cells[10]) = (1, 4);
        let said = sentences(Technique::DigitClasses, json, &cells);
        assert!(
            said.contains(
                &"r1c1, r1c2, r2c1 and r2c2 are a 2x2 square under global mod, so they hold one of 1, 4 or 7, one of 2, 5 or 8 and one of 3, 6 or 9 among them; with r1c1 only 1, 4 or 7 and r2c2 only 1, 4 or 7, r1c2 can only be 2, 3, 5, 6, 8 or 9, so r1c2 can't be 7.".to_owned()
            ),
            "{said:?}"
        );
    }

    /// ISS's Modular Lines 1 (MIT) explained through to its published solution, every step
    /// checked against it, window steps among them.
    #[test]
    fn the_iss_modular_line_example_is_explained_to_its_solution() {
        let steps = iss_example_steps("Modular Lines 1", Technique::DigitClasses);
        assert!(steps.len() >= 3, "{steps:?}");
        assert!(
            steps
                .iter()
                .all(|said| said.contains(" on a modular line, so ") || said.contains(" of a modular line, so ")),
            "{steps:?}"
        );
    }

    /// ISS's Entropy Sudoku (MIT) explained through to its published solution, every step
    /// checked against it, square steps among them.
    #[test]
    fn the_iss_global_entropy_example_is_explained_to_its_solution() {
        let steps = iss_example_steps("[New Constraint] Entropy Sudoku", Technique::DigitClasses);
        assert!(steps.len() >= 3, "{steps:?}");
        assert!(steps.iter().all(|said| said.contains(" are a 2x2 square under global entropy, so ")), "{steps:?}");
    }
}

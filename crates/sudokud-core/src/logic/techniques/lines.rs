//! A variant's lines read whole: a between line's circles and a lockout line's diamonds bound
//! the digits along it, so each cell keeps only the digits some pair of ends allows
//! ([`LineRule::support`]).

use sudokud_model::family::lines::{Ends, LineKind, LineRule};
use sudokud_model::unit::Unit;

use crate::logic::cells::CellSet;
use crate::logic::grid::{Grid, digits};
use crate::logic::step::{Deduction, cell_list, digit_list, eliminated_cells, symbol};

use super::sums::lost_digits;
use super::whole::{candidates, whole};

/// What each cell of `line` keeps in `grid` (a placed cell its digit alone), and the digits its
/// ends may hold.
fn support<C: CellSet>(grid: &Grid<C>, line: &LineRule) -> (Vec<u32>, Ends) {
    let candidates = candidates(grid, &line.cells);
    let mut kept = vec![0; candidates.len()];
    let ends = line.support(&candidates, &mut kept);
    (kept, ends)
}

/// A cell of a line of `unit`'s rule holding a candidate no way of keeping the rule puts there:
/// one cell's eliminations per step.
pub(super) fn line<C: CellSet>(grid: &Grid<C>, out: &mut Deduction, unit: Unit) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    whole(grid, out, &rules.lines, |of| of == unit)
}

/// `r1c1 and r3c3 are the circles of a between line, so r2c2 holds a digit strictly between
/// theirs; only a smaller circle of 1 or 2 and a larger of 8 or 9 leave it one, so r2c2 can't be
/// 1 or 9.`, read off `grid` before the step.
pub(super) fn describe<C: CellSet>(grid: &Grid<C>, deduction: &Deduction) -> String {
    let geometry = grid.geometry();
    let rules = geometry.rules().expect("a line step is found only on a variant");
    let line = &rules.lines[deduction.rule];
    let (_, ends) = support(grid, line);
    let name = |cell: u16| geometry.cell_name(usize::from(cell));
    let (first, last) = (name(line.cells[0]), name(line.cells[line.cells.len() - 1]));
    let inside = &line.cells[1..line.cells.len() - 1];
    let (hold, them) = match inside.len() {
        0 => ("", "are that far apart"),
        1 => ("holds a digit", "leave it one"),
        _ => ("hold digits", "leave each of them one"),
    };
    let inside_cells = cell_list(geometry, inside.iter().map(|&cell| usize::from(cell)));
    let (rule, end) = match line.kind {
        LineKind::Between => (
            format!(
                "{first} and {last} are the circles of a between line, so {inside_cells} {hold} strictly between theirs"
            ),
            "circle",
        ),
        LineKind::Lockout(difference) if inside.is_empty() => (
            format!("{first} and {last} are the diamonds of a lockout line, so they differ by {difference} at least"),
            "diamond",
        ),
        LineKind::Lockout(difference) => (
            format!(
                "{first} and {last} are the diamonds of a lockout line, so they differ by {difference} at least and {inside_cells} {hold} outside theirs"
            ),
            "diamond",
        ),
    };
    format!(
        "{rule}; only a smaller {end} of {} and a larger of {} {them}, so {} can't be {}.",
        span(ends.low),
        span(ends.high),
        eliminated_cells(geometry, deduction),
        lost_digits(deduction)
    )
}

/// Digits for people: `1 to 7` for a run of three or more, else `2 or 4`.
pub(super) fn span(set: u32) -> String {
    let (low, high) = (set.trailing_zeros() + 1, 32 - set.leading_zeros());
    let run = (2u32 << (high - 1)) - (1 << (low - 1));
    if set == run && high >= low + 2 {
        return format!("{} to {}", symbol(low as u8), symbol(high as u8));
    }
    digit_list(digits(set), "or")
}

#[cfg(test)]
mod tests {
    use crate::logic::step::Technique;
    use crate::logic::techniques::renban::tests::{iss_example_steps, sentences};

    /// A 2 in one circle of a short line leaves the other 4 to 9 and the cell between 3 to 8; a
    /// line whose circles are open keeps room between them.
    #[test]
    fn a_between_line_keeps_the_digits_between_its_circles() {
        let json = r#"{"between_lines":[[[0,0],[1,1],[2,2]]]}"#;
        let mut cells = [0; 81];
        cells[0] = 2;
        let said = sentences(Technique::BetweenLine, json, &cells);
        let rule = "r1c1 and r3c3 are the circles of a between line, so r2c2 holds a digit strictly between theirs";
        // r2c2 and r3c3, in r1c1's box, have lost its 2 already.
        let fit = "only a smaller circle of 2 and a larger of 4 to 9 leave it one";
        assert_eq!(
            said,
            [format!("{rule}; {fit}, so r2c2 can't be 1 or 9."), format!("{rule}; {fit}, so r3c3 can't be 1 or 3.")]
        );
        let json = r#"{"between_lines":[[[0,0],[0,1],[1,2],[2,2]]]}"#;
        let said = sentences(Technique::BetweenLine, json, &[0; 81]);
        assert_eq!(
            said[0],
            "r1c1 and r3c3 are the circles of a between line, so r1c2 and r2c3 hold digits strictly between theirs; only a smaller circle of 1 to 7 and a larger of 3 to 9 leave each of them one, so r1c2 can't be 1 or 9."
        );
    }

    /// ISS's Between Lines Sudoku (MIT) explained through to its published solution, between
    /// line steps among its steps.
    #[test]
    fn the_iss_between_line_example_is_explained_to_its_solution() {
        let steps = iss_example_steps("Sudoku Variants Series (173) - Between Lines Sudoku", Technique::BetweenLine);
        assert!(steps.len() >= 5, "{steps:?}");
        assert!(steps.iter().all(|said| said.contains(" are the circles of a between line, so ")), "{steps:?}");
    }

    /// A 3 in one diamond of a short line on 9x9 leaves the other 7 to 9 and the cell between 1,
    /// 2, 8 or 9; a line of two cells keeps its diamonds apart.
    #[test]
    fn a_lockout_line_keeps_the_digits_outside_its_diamonds() {
        let json = r#"{"lockout_lines":[{"line":[[0,0],[1,1],[2,2]]}]}"#;
        let mut cells = [0; 81];
        cells[0] = 3;
        let said = sentences(Technique::LockoutLine, json, &cells);
        let rule = "r1c1 and r3c3 are the diamonds of a lockout line, so they differ by 4 at least and r2c2 holds a digit outside theirs";
        // r2c2 and r3c3, in r1c1's box, have lost its 3 already; r2c2 is 1 or 2 beside a 7 or 8.
        let fit = "only a smaller diamond of 3 and a larger of 7 to 9 leave it one";
        assert_eq!(
            said,
            [
                format!("{rule}; {fit}, so r2c2 can't be 4, 5, 6 or 7."),
                format!("{rule}; {fit}, so r3c3 can't be 1, 2, 4, 5 or 6."),
            ]
        );
        let json = r#"{"lockout_lines":[{"line":[[0,0],[0,1]],"difference":7}]}"#;
        let said = sentences(Technique::LockoutLine, json, &[0; 81]);
        assert_eq!(
            said[0],
            "r1c1 and r1c2 are the diamonds of a lockout line, so they differ by 7 at least; only a smaller diamond of 1 or 2 and a larger of 8 or 9 are that far apart, so r1c1 can't be 3, 4, 5, 6 or 7."
        );
    }

    /// ISS's Lockout Lines (DSM 23 Quali Training, MIT) explained through to its published
    /// solution, lockout line steps among its steps.
    #[test]
    fn the_iss_lockout_line_example_is_explained_to_its_solution() {
        let steps = iss_example_steps("Lockout Lines (DSM 23 Quali Training)", Technique::LockoutLine);
        assert!(steps.len() >= 5, "{steps:?}");
        assert!(steps.iter().all(|said| said.contains(" are the diamonds of a lockout line, so ")), "{steps:?}");
    }
}

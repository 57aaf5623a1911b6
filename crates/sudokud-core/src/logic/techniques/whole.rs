//! A variant's rules read whole ([`WholeRule`]): drawn lines (a between or lockout line), windows
//! of digit classes (along a modular or entropic line) and clues beside rows and columns (a
//! sandwich). Each cell keeps only the digits some way of keeping the rule
//! puts there.

use sudokud_model::family::whole::WholeRule;
use sudokud_model::unit::Unit;

use crate::logic::cells::CellSet;
use crate::logic::grid::{Grid, bit};
use crate::logic::step::Deduction;

/// The candidates of `cells` in `grid`, in order, a placed cell's digit alone.
pub(super) fn candidates<C: CellSet>(grid: &Grid<C>, cells: &[u16]) -> Vec<u32> {
    cells
        .iter()
        .map(|&cell| match grid.value(usize::from(cell)) {
            0 => grid.candidates(usize::from(cell)),
            value => bit(value),
        })
        .collect()
}

/// A cell of one of `rules` whose unit is `wanted` holding a candidate no way of keeping the rule
/// puts there: one cell's eliminations per step, the rule's number in `out.rule`.
pub(super) fn whole<C: CellSet, R: WholeRule>(
    grid: &Grid<C>,
    out: &mut Deduction,
    rules: &[R],
    wanted: impl Fn(Unit) -> bool,
) -> bool {
    for (number, rule) in rules.iter().enumerate().filter(|(_, rule)| wanted(rule.unit())) {
        let candidates = candidates(grid, rule.cells());
        let mut kept = vec![0; candidates.len()];
        // Nothing fits: only a wrong grid gets here.
        if !rule.keep(&candidates, &mut kept) {
            continue;
        }
        for (&cell, &digits) in rule.cells().iter().zip(&kept) {
            out.eliminate_digits(grid, usize::from(cell), !digits);
            if out.finish() {
                out.add_cells(rule.cells().iter().map(|&cell| usize::from(cell)));
                out.rule = number;
                return true;
            }
        }
    }
    false
}

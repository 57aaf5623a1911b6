//! Rules read over a run of cells at once, from every cell's candidates: the drawn lines of
//! [`super::lines`] (between and lockout lines), the windows of digit classes of
//! [`super::classes`] (modular and entropic lines) and the clues beside rows and columns of
//! [`super::outside`] (sandwiches, X-sums). Each says which digits of each cell some way of
//! keeping it still uses ([`WholeRule::keep`]); the search, the logic and the conflicts all read
//! that, so they are written once for every such rule here and in the engines.

use crate::unit::{Unit, Units};

/// A rule over an ordered run of cells, read whole.
pub trait WholeRule {
    /// The run's cells, in the order [`WholeRule::keep`] reads their candidates.
    fn cells(&self) -> &[u16];

    /// The rule a run breaks, in conflicts.
    fn unit(&self) -> Unit;

    /// Writes into `kept` each cell's digits (`candidates` bit `d - 1` for digit `d`, in the
    /// run's order, a filled cell's digit alone) that some way of keeping the rule uses; whether
    /// there is a way at all (else `kept` is all empty).
    fn keep(&self, candidates: &[u32], kept: &mut [u32]) -> bool;
}

/// Marks the filled cells of each of `rules` whose filled digits (of `cells`, on a grid of
/// `size`) no digits of the empty cells complete, each empty cell counted as any digit.
pub(crate) fn conflicts<'r, R: WholeRule + 'r>(
    rules: impl IntoIterator<Item = &'r R>,
    size: usize,
    cells: &[u8],
    broken: &mut [Units],
) {
    let full = (1u32 << size) - 1;
    let (mut candidates, mut kept) = (Vec::new(), Vec::new());
    for rule in rules {
        candidates.clear();
        candidates.extend(rule.cells().iter().map(|&cell| match cells[usize::from(cell)] {
            0 => full,
            digit => 1 << (digit - 1),
        }));
        kept.resize(candidates.len(), 0);
        if rule.keep(&candidates, &mut kept) {
            continue;
        }
        for &cell in rule.cells() {
            if cells[usize::from(cell)] != 0 {
                broken[usize::from(cell)].insert(rule.unit().into());
            }
        }
    }
}

//! Chains: implications that alternate "is not" and "is" from one cell to another, so that
//! either the first cell or the last holds a digit; any cell seeing both ends loses it.
//!
//! - X-chain, one digit: from a cell that is not d, a conjugate pair makes its partner d, which
//!   makes every cell sharing a unit with it not d, and so on.
//! - XY-chain, two-candidate cells: a cell that is not x is its other digit v, so a cell seeing
//!   it with v is its own other digit, and so on, until a cell would be x.
//!
//! Both are searched breadth first from every start, so the chain found from a start is one of
//! the shortest; across starts the shortest wins. Each cell joins a search once, which keeps
//! chains simple (no cell twice) at the price of missing some longer ones.

use crate::interrupt::{Interrupt, Interrupted};
use crate::logic::cells::CellSet;
use crate::logic::grid::{Grid, bit, digits, seeing_all};
use crate::logic::step::{Deduction, chain_rating, eliminated_cells, symbol};

/// The shortest X-chain of three or more links that eliminates something.
pub(super) fn x_chain<C: CellSet>(
    grid: &Grid<C>,
    out: &mut Deduction,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, Interrupted> {
    let mut best = Best::default();
    for digit in 1..=grid.geometry().side() as u8 {
        let strong = conjugates(grid, digit);
        let strong = strong.as_ref();
        let candidates = grid.cells_with(digit);
        for start in candidates.ones().filter(|&cell| !strong[cell].is_empty()) {
            if interrupt.should_stop() {
                return Err(Interrupted);
            }
            // Layers alternate: cells that are d if `start` is not (after a conjugate pair),
            // then cells that are not d (after a shared unit).
            let mut parent = C::per_cell(usize::MAX);
            let (mut visited, mut frontier, mut links) = (C::cell(start), C::cell(start), 0);
            while !frontier.is_empty() && links + 1 < best.length {
                let on = spread(&mut parent, &mut visited, frontier, |cell| strong[cell]);
                links += 1;
                if links >= 3 {
                    for end in on.ones() {
                        best.offer(seeing_all(grid, digit, &[start, end]), parent.as_ref(), end, links, digit);
                    }
                }
                frontier = spread(&mut parent, &mut visited, on, |cell| grid.geometry().peers(cell) & candidates);
                links += 1;
            }
        }
    }
    Ok(best.record(out))
}

/// The shortest XY-chain of three or more cells that eliminates something.
pub(super) fn xy_chain<C: CellSet>(
    grid: &Grid<C>,
    out: &mut Deduction,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, Interrupted> {
    let bivalue = grid.cells_with_count(2);
    let mut best = Best::default();
    for start in bivalue.ones() {
        if interrupt.should_stop() {
            return Err(Interrupted);
        }
        for x in digits(grid.candidates(start)) {
            // `is[cell]`: the digit the cell must hold if `start` is not x.
            let mut is = C::per_cell(0u8);
            let is = is.as_mut();
            is[start] = other(grid, start, x);
            let mut parent = C::per_cell(usize::MAX);
            let (mut visited, mut frontier, mut length) = (C::cell(start), C::cell(start), 1);
            while !frontier.is_empty() && length + 1 < best.length {
                let links = |cell: usize| grid.geometry().peers(cell) & bivalue & grid.cells_with(is[cell]);
                let next = spread(&mut parent, &mut visited, frontier, links);
                let parent = parent.as_ref();
                for link in next.ones() {
                    is[link] = other(grid, link, is[parent[link]]);
                }
                length += 1;
                if length >= 3 {
                    for end in next.ones().filter(|&end| is[end] == x) {
                        best.offer(seeing_all(grid, x, &[start, end]), parent, end, length, x);
                    }
                }
                frontier = next;
            }
        }
    }
    Ok(best.record(out))
}

/// For each cell, the cells it forms a conjugate pair of `digit` with (a house where `digit`
/// fits in exactly those two cells).
fn conjugates<C: CellSet>(grid: &Grid<C>, digit: u8) -> C::PerCell<C> {
    let mut links = C::per_cell(C::EMPTY);
    let table = links.as_mut();
    for &house_cells in grid.geometry().all_cells() {
        let pair = grid.cells_with(digit) & house_cells;
        if pair.is_pair() {
            for cell in pair.ones() {
                table[cell] |= pair & !C::cell(cell);
            }
        }
    }
    links
}

/// The other digit of a two-candidate cell.
fn other<C: CellSet>(grid: &Grid<C>, cell: usize, digit: u8) -> u8 {
    (grid.candidates(cell) & !bit(digit)).trailing_zeros() as u8 + 1
}

/// One breadth-first layer: every unvisited cell `links` reaches from `frontier`.
fn spread<C: CellSet>(parent: &mut C::PerCell<usize>, visited: &mut C, frontier: C, links: impl Fn(usize) -> C) -> C {
    let parent = parent.as_mut();
    let mut next = C::EMPTY;
    for cell in frontier.ones() {
        for link in (links(cell) & !*visited).ones() {
            *visited |= C::cell(link);
            next |= C::cell(link);
            parent[link] = cell;
        }
    }
    next
}

/// Writes into `path` the chain a breadth-first search reached `end` by, start first: `parent`
/// holds each reached cell's predecessor, `usize::MAX` for the start. Shared with the grid-size
/// engine's chains.
pub(crate) fn trace_chain(parent: &[usize], end: usize, path: &mut Vec<usize>) {
    path.clear();
    let mut cell = end;
    while cell != usize::MAX {
        path.push(cell);
        cell = parent[cell];
    }
    path.reverse();
}

/// The shortest chain found so far: its cells from start to end, its digit and eliminations.
struct Best<C> {
    length: usize,
    path: Vec<usize>,
    digit: u8,
    eliminated: C,
}

impl<C: CellSet> Default for Best<C> {
    fn default() -> Best<C> {
        Best { length: usize::MAX, path: Vec::new(), digit: 0, eliminated: C::EMPTY }
    }
}

impl<C: CellSet> Best<C> {
    /// Keeps the chain ending at `end` if it eliminates something and is shorter than the best.
    fn offer(&mut self, eliminated: C, parent: &[usize], end: usize, length: usize, digit: u8) {
        if eliminated.is_empty() || length >= self.length {
            return;
        }
        trace_chain(parent, end, &mut self.path);
        (self.length, self.digit, self.eliminated) = (length, digit, eliminated);
    }

    /// Records the best chain as the step, if one was found.
    fn record(&self, out: &mut Deduction) -> bool {
        if self.eliminated.is_empty() {
            return false;
        }
        // Sudoku Explainer rates a chain by its literals, counting the eliminated candidate as
        // the start and the end: an X-chain has one per cell, an XY-chain two (both digits).
        let per_cell = if out.technique == super::Technique::XChain { 1 } else { 2 };
        out.rating = chain_rating(out.technique.rating(), self.path.len() * per_cell + 2);
        out.add_cells(self.path.iter().copied());
        out.add_digits([self.digit]);
        out.eliminate(self.eliminated, self.digit);
        out.finish()
    }
}

/// X-chain: "If r1c1 isn't 5, r1c5 is, so r4c5 isn't, so r4c9 is; either way r1c1 or r4c9 is
/// 5, so r1c9 can't be 5." XY-chain: "If r1c1 isn't 4 it is 7, so r1c5 is 2, so r3c5 is 4; ..."
pub(super) fn describe<C: CellSet>(grid: &Grid<C>, deduction: &Deduction) -> String {
    let geometry = grid.geometry();
    let digit = symbol(deduction.digits[0]);
    let names: Vec<String> = deduction.cells.iter().map(|&cell| geometry.cell_name(cell)).collect();
    let (first, last) = (&names[0], &names[names.len() - 1]);
    let implications = if deduction.technique == super::Technique::XChain {
        let steps: Vec<String> = (names[1..].iter().enumerate())
            .map(|(i, name)| match i {
                0 => format!("{name} is"),
                _ if i % 2 == 1 => format!("so {name} isn't"),
                _ => format!("so {name} is"),
            })
            .collect();
        format!("If {first} isn't {digit}, {}", steps.join(", "))
    } else {
        let mut value = other(grid, deduction.cells[0], deduction.digits[0]);
        let mut steps = vec![format!("If {first} isn't {digit} it is {}", symbol(value))];
        for (&cell, name) in deduction.cells[1..].iter().zip(&names[1..]) {
            value = other(grid, cell, value);
            steps.push(format!("so {name} is {}", symbol(value)));
        }
        steps.join(", ")
    };
    format!(
        "{implications}; either way {first} or {last} is {digit}, so {} can't be {digit}.",
        eliminated_cells(geometry, deduction)
    )
}

#[cfg(test)]
mod tests {
    use crate::logic::step::Technique;
    use crate::logic::techniques::describe;
    use crate::logic::techniques::testing::{cand, run_alone as run, sparse};

    #[test]
    fn x_chain_finds_a_skyscraper() {
        // 1: conjugate pairs in column 1 (r1c1, r7c1) and column 5 (r7c5, r2c5), joined by row 7.
        // r2c2 sees both ends. The other cells keep row 2, row 7 and box 1 from being pairs.
        let grid = sparse(&[
            (1, 1, &[1, 2]),
            (7, 1, &[1, 3]),
            (7, 5, &[1, 4]),
            (2, 5, &[1, 5]),
            (7, 9, &[1, 6]),
            (2, 2, &[1, 7]),
            (2, 8, &[1, 8]),
            (3, 3, &[1, 9]),
        ]);
        let step = run(Technique::XChain, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(2, 2, 1)]);
        assert_eq!(
            describe(&grid, &step),
            "If r1c1 isn't 1, r7c1 is, so r7c5 isn't, so r2c5 is; either way r1c1 or r2c5 is 1, so r2c2 can't be 1."
        );
        // Without the second pair there is no chain.
        let grid = sparse(&[(1, 1, &[1, 2]), (7, 1, &[1, 3]), (7, 5, &[1, 4]), (7, 9, &[1, 6]), (2, 2, &[1, 7])]);
        assert!(run(Technique::XChain, &grid).is_none());
    }

    #[test]
    fn xy_chain_of_four_cells() {
        let cells: &[(usize, usize, &[u8])] =
            &[(1, 1, &[1, 2]), (1, 5, &[2, 3]), (5, 5, &[3, 4]), (5, 9, &[4, 1]), (1, 9, &[1, 5]), (5, 1, &[1, 6])];
        let grid = sparse(cells);
        assert!(run(Technique::XYWing, &grid).is_none());
        let step = run(Technique::XYChain, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(1, 9, 1), cand(5, 1, 1)]);
        assert_eq!(
            describe(&grid, &step),
            "If r1c1 isn't 1 it is 2, so r1c5 is 3, so r5c5 is 4, so r5c9 is 1; either way r1c1 or r5c9 is 1, so r1c9 \
             and r5c1 can't be 1."
        );
        let broken: Vec<_> = cells.iter().copied().filter(|&(row, col, _)| (row, col) != (5, 9)).collect();
        assert!(run(Technique::XYChain, &sparse(&broken)).is_none());
    }
}

//! Simple colouring. Cells of a digit linked by conjugate pairs (a unit where the digit fits in
//! exactly two cells) alternate: one of each pair holds it. Colouring such a cluster in two
//! colours, one colour holds the digit in every cell and the other in none. So a cell seeing
//! both colours cannot hold it (a trap), and a colour with two cells that see each other is the
//! false one (a wrap).

use crate::logic::grid::{Cells, Grid, PEERS, all_house_cells, ones};
use crate::logic::step::{Deduction, cell_list, eliminated_cells};
use crate::position::Cell;

/// The first cluster, digit by digit, that traps or wraps.
pub(super) fn simple_colouring(grid: &Grid, out: &mut Deduction) -> bool {
    (1..=9).any(|digit| {
        let links = conjugates(grid, digit);
        let mut seen: Cells = 0;
        ones(grid.cells_with(digit)).any(|start| {
            if links[start] == 0 || seen >> start & 1 == 1 {
                return false;
            }
            let Some((on, off)) = colour(&links, start) else { return false };
            seen |= on | off;
            cluster(grid, out, digit, on, off)
        })
    })
}

/// For each cell, the cells it forms a conjugate pair of `digit` with.
pub(super) fn conjugates(grid: &Grid, digit: u8) -> [Cells; 81] {
    let mut links = [0; 81];
    for &house_cells in all_house_cells() {
        let pair = grid.cells_with(digit) & house_cells;
        if pair.count_ones() == 2 {
            for cell in ones(pair) {
                links[cell] |= pair & !(1 << cell);
            }
        }
    }
    links
}

/// Two-colours the cluster of `start` (which gets the first colour). `None` if a link joins
/// two cells of one colour, which only happens on a grid with no solution.
fn colour(links: &[Cells; 81], start: usize) -> Option<(Cells, Cells)> {
    let (mut colours, mut frontier) = ([1u128 << start, 0], 1u128 << start);
    let mut side = 0;
    while frontier != 0 {
        let next = ones(frontier).fold(0, |acc, cell| acc | links[cell]);
        if next & colours[side] != 0 {
            return None;
        }
        frontier = next & !colours[1 - side];
        colours[1 - side] |= next;
        side = 1 - side;
    }
    Some((colours[0], colours[1]))
}

/// Records the cluster's step, if it has one: first a wrap (a colour that sees itself), then a
/// trap (cells outside seeing both colours).
fn cluster(grid: &Grid, out: &mut Deduction, digit: u8, on: Cells, off: Cells) -> bool {
    out.reset();
    out.add_digits([digit]);
    out.add_cells(ones(on));
    out.split = out.cells.len();
    out.add_cells(ones(off));
    let sees_itself = |side: Cells| ones(side).any(|cell| PEERS[cell] & side != 0);
    if let Some(wrong) = [on, off].into_iter().find(|&side| sees_itself(side)) {
        out.eliminate(wrong, digit);
    } else {
        let outside = grid.cells_with(digit) & !(on | off);
        let trapped = ones(outside).filter(|&cell| PEERS[cell] & on != 0 && PEERS[cell] & off != 0);
        out.eliminate(trapped.fold(0, |acc, cell| acc | 1 << cell), digit);
    }
    out.finish()
}

/// "Colouring the conjugate pairs of 5 puts r1c1 and r3c4 on one side and r1c4 and r3c1 on the
/// other; one side is all 5, so r4c4, seeing both sides, can't be 5." A wrap (its eliminations
/// are pattern cells) names two cells of the false side that see each other instead.
pub(super) fn describe(deduction: &Deduction) -> String {
    let digit = deduction.digits[0];
    let (on, off) = deduction.cells.split_at(deduction.split);
    let (on, off) = (cell_list(on.iter().copied()), cell_list(off.iter().copied()));
    let sides = format!("Colouring the conjugate pairs of {digit} puts {on} on one side and {off} on the other");
    let eliminated: Vec<Cell> = deduction.eliminations.iter().map(|candidate| candidate.cell).collect();
    let clash = eliminated.iter().find_map(|&a| eliminated.iter().find(|&&b| a.sees(b)).map(|&b| (a, b)));
    let list = eliminated_cells(deduction);
    match clash {
        Some((a, b)) if deduction.cells.contains(&a) => format!(
            "{sides}; {a} and {b} share a side and see each other, so that side holds no {digit} and {list} can't be \
             {digit}."
        ),
        _ => format!("{sides}; one side is all {digit}, so {list}, seeing both sides, can't be {digit}."),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::step::Technique;
    use crate::logic::techniques::testing::{cand, run, sparse};

    #[test]
    fn trap_removes_the_digit_from_cells_seeing_both_colours() {
        // 5 is a conjugate pair in column 1 (r1c1, r7c1), row 7 (r7c1, r7c6) and column 6
        // (r7c6, r3c6): colours r1c1/r7c6 against r7c1/r3c6. r3c2 sees r1c1 (box 1) and r3c6
        // (row 3); r2c3 and r3c8 keep box 1 and row 3 from being conjugate pairs.
        let grid = sparse(&[
            (1, 1, &[5, 1]),
            (7, 1, &[5, 2]),
            (7, 6, &[5, 3]),
            (3, 6, &[5, 4]),
            (3, 2, &[5, 6]),
            (3, 8, &[5, 7]),
            (2, 3, &[5, 8]),
        ]);
        let step = run(Technique::SimpleColouring, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(3, 2, 5)]);
        assert_eq!(
            describe(&step),
            "Colouring the conjugate pairs of 5 puts r1c1 and r7c6 on one side and r3c6 and r7c1 on the other; one \
             side is all 5, so r3c2, seeing both sides, can't be 5."
        );
    }

    #[test]
    fn wrap_removes_the_colour_that_sees_itself() {
        // Chain r1c1 = r1c5 = r4c5 = r4c2 alternates; a fifth link r4c2 = r2c2 (column 2) puts
        // r2c2 on r1c1's side, and they share box 1 (r3c3 keeps box 1 from being a pair).
        let grid = sparse(&[
            (1, 1, &[7, 1]),
            (1, 5, &[7, 2]),
            (4, 5, &[7, 3]),
            (4, 2, &[7, 4]),
            (2, 2, &[7, 6]),
            (2, 8, &[7, 8]),
            (9, 1, &[7, 9]),
            (3, 3, &[7, 5]),
        ]);
        let step = run(Technique::SimpleColouring, &grid).unwrap();
        assert_eq!(step.eliminations, [cand(1, 1, 7), cand(2, 2, 7), cand(4, 5, 7)]);
        assert!(describe(&step).contains("share a side and see each other"), "{}", describe(&step));
    }

    #[test]
    fn no_step_without_a_clash_or_a_trapped_cell() {
        let grid = sparse(&[(1, 1, &[5, 1]), (7, 1, &[5, 2]), (7, 6, &[5, 3]), (3, 6, &[5, 4])]);
        assert!(run(Technique::SimpleColouring, &grid).is_none());
    }
}

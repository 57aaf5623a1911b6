//! Wings of an almost locked set: WXYZ-, VWXYZ-, UVWXYZ- and TUVWXYZ-Wings, Sudoku Explainer's
//! generalisation of the XYZ-Wing.
//!
//! n cells of one house holding n + 1 digits between them (an almost locked set) lose only one
//! digit's worth of freedom: take out any one of their digits and the rest are locked in. A
//! two-candidate cell {x, z} outside them that sees every one of them that could be x (x is a
//! "restricted common" digit) settles it: if the cell is x, none of them is, so they are locked
//! onto their other n digits and one of them is z; if it is not x, it is z. Either way z is in the
//! cell or in one of the set's cells holding z, and every cell seeing all of those loses z.
//!
//! SE rates the wing by its size and by the most candidates one of its set's cells has (a set of
//! evenly spread candidates is easier to see), see [`wing_rating`].

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, bit, digits};
use crate::logic::step::{Deduction, cell_list, digit_list, eliminated_cells, symbol};

/// The wing of an almost locked set of `size` cells (3 to 6): the easiest SE would take (lowest
/// rating, then the most eliminations).
pub(super) fn wing<C: CellSet>(grid: &Grid<C>, out: &mut Deduction, size: usize) -> bool {
    let bivalue = grid.cells_with_count(2);
    let mut best: Option<Best<C>> = None;
    let geometry = grid.geometry();
    for house in 0..geometry.house_count() {
        let open = geometry.cells(house) & grid.blanks();
        let cells: Vec<usize> = open.ones().filter(|&cell| grid.candidates(cell).count_ones() >= 2).collect();
        let mut chosen = Vec::with_capacity(size);
        subsets(grid, &cells, size, &mut chosen, 0, &mut |set, union| {
            // The pivot sees the set's cells holding x, so it sees one of the set at least.
            let near = set.iter().fold(C::EMPTY, |acc, &cell| acc | geometry.peers(cell));
            for pivot in (bivalue & near & !set_cells::<C>(set)).ones() {
                let pair = grid.candidates(pivot);
                if pair & union != pair {
                    continue;
                }
                for x in digits(pair) {
                    let z = (pair & !bit(x)).trailing_zeros() as u8 + 1;
                    // x restricted: each of the set's cells that could be x sees the pivot.
                    if set.iter().any(|&cell| grid.has(cell, x) && !geometry.sees(cell, pivot)) {
                        continue;
                    }
                    let holding_z = set.iter().filter(|&&cell| grid.has(cell, z));
                    let seen = grid.cells_with(z) & geometry.peers(pivot);
                    let eliminated = holding_z.fold(seen, |acc, &cell| acc & geometry.peers(cell));
                    if eliminated.is_empty() {
                        continue;
                    }
                    let widest = set.iter().map(|&cell| grid.candidates(cell).count_ones()).max().unwrap_or(0);
                    let found = Best {
                        rating: wing_rating(size, widest),
                        eliminated,
                        union,
                        house,
                        set: set.to_vec(),
                        pivot,
                        x,
                        z,
                    };
                    if best.as_ref().is_none_or(|best| found.beats(best)) {
                        best = Some(found);
                    }
                }
            }
        });
    }
    best.is_some_and(|best| {
        out.rating = best.rating;
        out.houses.push(best.house);
        out.add_cells(best.set.iter().copied());
        out.split = best.set.len();
        out.add_cells([best.pivot]);
        // x and z first, then the set's other digits.
        out.add_digits([best.x, best.z]);
        out.add_digits(digits(best.union & !bit(best.x) & !bit(best.z)));
        out.eliminate(best.eliminated, best.z);
        out.finish()
    })
}

/// SE's rating of a wing whose set has `size` cells and whose widest cell has `widest`
/// candidates: WXYZ 5.5 and VWXYZ 6.2, plus 0.1 for each step `widest` is nearer the middle
/// of the set's range, UVWXYZ 6.6 and TUVWXYZ 7.5 flat.
fn wing_rating(size: usize, widest: u32) -> f32 {
    let near_middle = |base: i32| base + (size as i32 - 2) - (3 - widest as i32).abs();
    let tenths = match size {
        3 => near_middle(55),
        4 => near_middle(62),
        5 => 66,
        _ => 75,
    };
    tenths as f32 / 10.0
}

/// A wing found, and what makes it the one to take.
struct Best<C> {
    rating: f32,
    eliminated: C,
    union: u32,
    house: usize,
    set: Vec<usize>,
    pivot: usize,
    x: u8,
    z: u8,
}

impl<C: CellSet> Best<C> {
    fn beats(&self, other: &Best<C>) -> bool {
        self.rating < other.rating
            || (self.rating == other.rating && self.eliminated.count() > other.eliminated.count())
    }
}

fn set_cells<C: CellSet>(set: &[usize]) -> C {
    set.iter().fold(C::EMPTY, |acc, &cell| acc | C::cell(cell))
}

/// Calls `found` with every `size` cells of `cells` (from `start`) whose candidates together are
/// `size + 1` digits, and that union.
fn subsets<C: CellSet>(
    grid: &Grid<C>,
    cells: &[usize],
    size: usize,
    chosen: &mut Vec<usize>,
    union: u32,
    found: &mut dyn FnMut(&[usize], u32),
) {
    if chosen.len() == size {
        if union.count_ones() as usize == size + 1 {
            found(chosen, union);
        }
        return;
    }
    for (i, &cell) in cells.iter().enumerate() {
        let union = union | grid.candidates(cell);
        if union.count_ones() as usize > size + 1 || cells.len() - i < size - chosen.len() {
            continue;
        }
        chosen.push(cell);
        subsets(grid, &cells[i + 1..], size, chosen, union, found);
        chosen.pop();
    }
}

/// "r1c1, r1c2 and r1c3 hold 1, 2, 5 and 7 between them, one digit more than cells, and r5c1
/// (1 or 7) sees each of them that could be 1: if r5c1 is 1 they hold 2, 5 and 7, so either
/// way one of r5c1 and those that could be 7 is 7, and r4c1, seeing them all, can't be 7."
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let set = &deduction.cells[..deduction.split];
    let pivot = geometry.cell_name(deduction.cells[deduction.split]);
    let (x, z) = (deduction.digits[0], deduction.digits[1]);
    let mut union: Vec<u8> = deduction.digits.clone();
    union.sort_unstable();
    let rest: Vec<u8> = union.iter().copied().filter(|&digit| digit != x).collect();
    let (x, z) = (symbol(x), symbol(z));
    format!(
        "In {}, {} hold {} between them, one digit more than cells, and {pivot} ({}) sees each of them that \
         could be {x}: if {pivot} is {x} they hold {}, so either way {pivot} or one of them is {z}, and {}, seeing \
         all that could be {z}, can't be {z}.",
        geometry.name(deduction.houses[0]),
        cell_list(geometry, set.iter().copied()),
        digit_list(union.iter().copied(), "and"),
        digit_list([deduction.digits[0], deduction.digits[1]], "or"),
        digit_list(rest, "and"),
        eliminated_cells(geometry, deduction)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::step::Technique;
    use crate::logic::techniques::testing::{cand, run, sparse};

    #[test]
    fn wxyz_wing_clears_z_from_cells_seeing_the_pivot_and_the_set_s_z_cells() {
        // Row 1: r1c1, r1c2 and r1c3 hold 1, 2, 5 and 7; r1c5 is 1 or 7 and sees the two that
        // could be 1. 7 is in r1c5 or r1c3, so r1c8 loses it.
        let cells: &[(usize, usize, &[u8])] =
            &[(1, 1, &[1, 2]), (1, 2, &[2, 5]), (1, 3, &[1, 5, 7]), (1, 5, &[1, 7]), (1, 8, &[7, 8])];
        let step = run(Technique::WxyzWing, &sparse(cells)).unwrap();
        assert_eq!(step.eliminations, [cand(1, 8, 7)], "{}", describe(Geometry::classic(), &step));
        assert_eq!(step.rating, 5.6, "the widest cell of the set has three candidates");
        assert_eq!(
            describe(Geometry::classic(), &step),
            "In row 1, r1c1, r1c2 and r1c3 hold 1, 2, 5 and 7 between them, one digit more than cells, and r1c5 (1 \
             or 7) sees each of them that could be 1: if r1c5 is 1 they hold 2, 5 and 7, so either way r1c5 or one \
             of them is 7, and r1c8, seeing all that could be 7, can't be 7."
        );
        // Moved out of row 1, the pivot no longer sees r1c1: 1 is not restricted, no wing.
        let moved: Vec<_> = cells
            .iter()
            .map(|&(row, col, digits)| if col == 5 { (2, 3, digits) } else { (row, col, digits) })
            .collect();
        assert!(run(Technique::WxyzWing, &sparse(&moved)).is_none());
    }

    #[test]
    fn ratings_follow_the_set_s_size_and_widest_cell() {
        assert_eq!([2, 3, 4].map(|widest| wing_rating(3, widest)), [5.5, 5.6, 5.5]);
        assert_eq!([2, 3, 4, 5].map(|widest| wing_rating(4, widest)), [6.3, 6.4, 6.3, 6.2]);
        assert_eq!((wing_rating(5, 3), wing_rating(6, 2)), (6.6, 7.5));
    }
}

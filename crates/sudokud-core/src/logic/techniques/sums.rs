//! A variant's sums: a cage's digit sets ruling out candidates (cage sum), the cells a house's
//! total and its cages' sums leave adding up to a known sum (innies and outies, the 45 rule),
//! a cage's sum made in every way its cells' candidates allow (cage combination), and a little
//! killer's diagonal adding up to its clue (little killer).
//!
//! The cages, sum groups and little killers are the rule set's ([`Geometry::rules`]); cells
//! whose digits may not repeat are the geometry's peers, so a cage's cells (cage mates) and
//! innies or a diagonal's cells sharing a house are told apart from cells that may repeat.

use sudokud_model::family::cages::{MAX_SUM_CELLS, sum_support};
use sudokud_model::variant::SumGroup;

use crate::logic::cells::CellSet;
use crate::logic::geometry::Geometry;
use crate::logic::grid::{Grid, bit, digits};
use crate::logic::step::{Deduction, Technique, cell_list, digit_list, eliminated_cells, symbol};
use crate::position::HouseKind;

/// The most open cells of innies or outies the logic adds up: more take a person too long, and
/// the ways of filling them grow as N to that power.
const MAX_OPEN_INNIES: usize = 4;

/// A cage whose open cells hold a candidate no digit set making its sum has.
pub(super) fn cage_sum<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    let side = grid.geometry().side() as u32;
    for (number, cage) in rules.cages.iter().enumerate() {
        let (mut placed, mut placed_sum, mut open, mut open_count) = (0u32, 0u32, 0u32, 0u32);
        for &cell in &cage.cells {
            match grid.value(usize::from(cell)) {
                0 => {
                    open |= grid.candidates(usize::from(cell));
                    open_count += 1;
                }
                value => {
                    placed |= bit(value);
                    placed_sum += u32::from(value);
                }
            }
        }
        // A cage that can no longer make its sum: only a wrong grid gets here, and no step of
        // this technique explains it.
        let Some(allowed) = cage.open_digits(side, placed, placed_sum, open, open_count) else { continue };
        for &cell in &cage.cells {
            out.eliminate_digits(grid, usize::from(cell), !allowed);
        }
        if out.finish() {
            out.add_cells(cage.cells.iter().map(|&cell| usize::from(cell)));
            out.add_digits(digits(allowed));
            out.rule = number;
            return true;
        }
    }
    false
}

/// Innies or outies (the rule set's sum groups) with at most [`MAX_OPEN_INNIES`] open cells, one
/// of which holds a candidate no way of making their sum uses; a placement when one cell is open.
pub(super) fn innies_outies<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    for (number, group) in rules.sum_groups.iter().enumerate() {
        if !every_way(grid, &group.cells, group.sum, out) {
            continue;
        }
        out.houses.extend(group.houses.iter().map(|&house| usize::from(house)));
        out.add_cells(group.cells.iter().map(|&cell| usize::from(cell)));
        out.rule = number;
        return true;
    }
    false
}

/// A little killer's diagonal, whose digits add up to its clue: with at most
/// [`MAX_OPEN_INNIES`] open cells, its sum made in every way their candidates allow, as innies
/// are; with more, one cell's digits the least and most of the other open cells leave.
pub(super) fn little_killer<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    for (number, clue) in rules.little_killers.iter().enumerate() {
        if !every_way(grid, &clue.cells, clue.sum, out) && !within_bounds(grid, &clue.cells, clue.sum, out) {
            continue;
        }
        out.add_cells(clue.cells.iter().map(|&cell| usize::from(cell)));
        out.rule = number;
        return true;
    }
    false
}

/// Cells whose digits add up to `sum` (repeats allowed but between peers), with at most
/// [`MAX_OPEN_INNIES`] open, their sum made in every way their candidates allow: the open cell's
/// digit when one is open, else each candidate no way uses leaves its cell. Whether `out` has a
/// placement or an elimination.
fn every_way<C: CellSet>(grid: &Grid<C>, cells: &[u16], sum: u32, out: &mut Deduction) -> bool {
    let Some((open, count, left)) = open_sum(grid, cells, sum, MAX_OPEN_INNIES) else { return false };
    let open = &open[..count];
    let (support, _) = support(grid, open, left);
    // No way at all: only a wrong grid gets here.
    if open.is_empty() || support[..count].contains(&0) {
        return false;
    }
    if let [cell] = open {
        out.place(*cell, left as u8);
        out.add_digits([left as u8]);
        return true;
    }
    for (&cell, &support) in open.iter().zip(&support) {
        out.eliminate_digits(grid, cell, !support);
    }
    out.finish()
}

/// Cells whose digits add up to `sum` (repeats allowed), more than [`MAX_OPEN_INNIES`] of them
/// open: the first open cell holding a candidate the other open cells' least and most put out
/// of reach loses it ([`open_bounds`]). Whether `out` has an elimination.
fn within_bounds<C: CellSet>(grid: &Grid<C>, cells: &[u16], sum: u32, out: &mut Deduction) -> bool {
    let Some((open, left)) = open_cells(grid, cells, sum) else { return false };
    if open.len() <= MAX_OPEN_INNIES {
        return false;
    }
    for &cell in &open {
        let (least, most) = open_bounds(grid, &open, cell);
        // The digit is the sum less the others', between left - most and left - least.
        let Some(high) = left.checked_sub(least) else { return false };
        let low = left.saturating_sub(most).max(1);
        let kept = below(high) & !below(low - 1);
        // None kept: only a wrong grid gets here.
        if grid.candidates(cell) & kept == 0 {
            return false;
        }
        out.eliminate_digits(grid, cell, !kept);
        if out.finish() {
            return true;
        }
    }
    false
}

/// The digits 1 to `most` as bits.
fn below(most: u32) -> u32 {
    if most >= 32 { u32::MAX } else { (1u32 << most) - 1 }
}

/// The open cells of `cells`, whose digits add up to `sum`, and what they add up to; `None` when
/// the placed digits exceed the sum.
fn open_cells<C: CellSet>(grid: &Grid<C>, cells: &[u16], sum: u32) -> Option<(Vec<usize>, u32)> {
    let (mut open, mut left) = (Vec::with_capacity(cells.len()), sum);
    for &cell in cells {
        match grid.value(usize::from(cell)) {
            0 => open.push(usize::from(cell)),
            value => left = left.checked_sub(u32::from(value))?,
        }
    }
    Some((open, left))
}

/// The least and most the cells of `open` other than `cell` make together, each its smallest
/// and largest candidate.
fn open_bounds<C: CellSet>(grid: &Grid<C>, open: &[usize], cell: usize) -> (u32, u32) {
    let others = open.iter().filter(|&&other| other != cell).map(|&other| grid.candidates(other));
    others
        .fold((0, 0), |(least, most), digits| (least + digits.trailing_zeros() + 1, most + 32 - digits.leading_zeros()))
}

/// A cage with two to [`MAX_SUM_CELLS`] open cells, its sum made in every way its cells'
/// candidates allow, digit by digit: a candidate no way puts in its cell goes; else the digits
/// every way uses, when the open cells share a house, leave its other cells.
pub(super) fn cage_combination<C: CellSet>(grid: &Grid<C>, out: &mut Deduction) -> bool {
    let Some(rules) = grid.geometry().rules() else { return false };
    let geometry = grid.geometry();
    for (number, cage) in rules.cages.iter().enumerate() {
        let Some(sum) = cage.sum else { continue };
        let Some((open, count, left)) = open_sum(grid, &cage.cells, sum, MAX_SUM_CELLS) else { continue };
        let open = &open[..count];
        if count < 2 {
            continue;
        }
        let (support, required) = support(grid, open, left);
        if support[..count].contains(&0) {
            continue;
        }
        for (&cell, &support) in open.iter().zip(&support) {
            out.eliminate_digits(grid, cell, !support);
        }
        if !out.finish() {
            let open_cells = open.iter().fold(C::EMPTY, |acc, &cell| acc | C::cell(cell));
            let shared = (0..geometry.house_count()).find(|&house| (open_cells & !geometry.cells(house)).is_empty());
            let Some(house) = shared else { continue };
            for cell in (geometry.cells(house) & !open_cells).ones() {
                out.eliminate_digits(grid, cell, required);
            }
            if !out.finish() {
                continue;
            }
            out.houses.push(house);
            out.add_digits(digits(required));
        }
        out.add_cells(cage.cells.iter().map(|&cell| usize::from(cell)));
        out.rule = number;
        return true;
    }
    false
}

/// The open cells of `cells`, whose digits add up to `sum`, with how many there are and what
/// they add up to; `None` past `most` open cells, or when the placed digits exceed the sum.
fn open_sum<C: CellSet>(
    grid: &Grid<C>,
    cells: &[u16],
    sum: u32,
    most: usize,
) -> Option<([usize; MAX_SUM_CELLS], usize, u32)> {
    let (mut open, mut count, mut left) = ([0usize; MAX_SUM_CELLS], 0, sum);
    for &cell in cells {
        let cell = usize::from(cell);
        match grid.value(cell) {
            0 if count == most => return None,
            0 => {
                open[count] = cell;
                count += 1;
            }
            value => left = left.checked_sub(u32::from(value))?,
        }
    }
    Some((open, count, left))
}

/// Per cell of `open` (at most [`MAX_SUM_CELLS`]), the candidates it takes in some way of
/// filling them all with digits adding up to `sum`, digits differing between peers; and the
/// digits every such way uses.
fn support<C: CellSet>(grid: &Grid<C>, open: &[usize], sum: u32) -> ([u32; MAX_SUM_CELLS], u32) {
    let (mut sets, mut apart) = ([0u32; MAX_SUM_CELLS], [0u32; MAX_SUM_CELLS]);
    for (index, &cell) in open.iter().enumerate() {
        sets[index] = grid.candidates(cell);
        // The earlier open cells that are peers of this one.
        let earlier = open[..index].iter().enumerate().filter(|&(_, &other)| grid.geometry().sees(cell, other));
        apart[index] = earlier.fold(0, |set, (at, _)| set | 1 << at);
    }
    let support = sum_support(&sets[..open.len()], &apart[..open.len()], sum);
    (support.cells, support.required)
}

/// The sentence of a cage-sum, innies-and-outies or cage-combination step, in the grid-size
/// engine's words.
pub(super) fn describe<C: CellSet>(geometry: &Geometry<C>, deduction: &Deduction) -> String {
    let rules = geometry.rules().expect("a sum is found only on a variant");
    let lost = lost_digits(deduction);
    let (cage, eliminated) =
        (cell_list(geometry, deduction.cells.iter().copied()), eliminated_cells(geometry, deduction));
    match deduction.technique {
        Technique::InniesOuties => describe_sum_group(geometry, &rules.sum_groups[deduction.rule], deduction, &lost),
        Technique::CageSum => {
            let sum = rules.cages[deduction.rule].sum.unwrap_or_default();
            let allowed = digit_list(deduction.digits.iter().copied(), "or");
            format!(
                "The cage of {cage} adds up to {sum}, so its open cells can only hold {allowed}: {eliminated} can't be {lost}."
            )
        }
        _ => {
            let sum = rules.cages[deduction.rule].sum.unwrap_or_default();
            match deduction.houses.first() {
                Some(&house) => format!(
                    "Every way the cage of {cage} can add up to {sum} with its candidates uses {}, all in {}, so {eliminated} can't be {lost}.",
                    digit_list(deduction.digits.iter().copied(), "and"),
                    geometry.name(house),
                ),
                None => format!(
                    "Trying every way the cage of {cage} can add up to {sum} with its candidates, {eliminated} can't be {lost}."
                ),
            }
        }
    }
}

/// `r1c3, r2c2 and r3c1 add up to 11 by their little killer, so r1c3 and r3c1 add up to 6: trying
/// every way their candidates can, r1c3 can't be 6.`, read off `grid` before the step.
pub(super) fn describe_little_killer<C: CellSet>(grid: &Grid<C>, deduction: &Deduction) -> String {
    let geometry = grid.geometry();
    let rules = geometry.rules().expect("a little killer is found only on a variant");
    let clue = &rules.little_killers[deduction.rule];
    let names = |cells: &[usize]| cell_list(geometry, cells.iter().copied());
    let diagonal = names(&deduction.cells);
    let said = format!("{diagonal} add up to {} by their little killer", clue.sum);
    let (open, left) = open_cells(grid, &clue.cells, clue.sum).expect("a step is found where the sum is in reach");
    // What the open cells add up to, when some cells are placed.
    let rest =
        if open.len() == clue.cells.len() { String::new() } else { format!(", so {} add up to {left}", names(&open)) };
    if let Some(placed) = deduction.placements.first() {
        let others: Vec<usize> = deduction.cells.iter().copied().filter(|&cell| cell != placed.cell).collect();
        let hold = if others.len() == 1 { "holds" } else { "hold" };
        let (cell, digit) = (geometry.cell_name(placed.cell), symbol(placed.digit));
        return format!("{said} and {} {hold} {}, so {cell} = {digit}.", names(&others), clue.sum - left);
    }
    let (eliminated, lost) = (eliminated_cells(geometry, deduction), lost_digits(deduction));
    if open.len() <= MAX_OPEN_INNIES {
        return format!("{said}{rest}: trying every way their candidates can, {eliminated} can't be {lost}.");
    }
    let cell = deduction.eliminations[0].cell;
    let (least, most) = open_bounds(grid, &open, cell);
    let others = if rest.is_empty() { "the other cells" } else { "the others of them" };
    format!("{said}{rest}; {others} make {least} to {most}, so {eliminated} can't be {lost}.")
}

/// The digits a step removes, each once, smallest first: `3 or 4`.
pub(super) fn lost_digits(deduction: &Deduction) -> String {
    let lost = deduction.eliminations.iter().fold(0u32, |set, removed| set | bit(removed.digit));
    digit_list(digits(lost), "or")
}

/// `Row 3 adds up to 45 and the cages wholly inside it to 38, so r3c4 = 7.`: the sentence of
/// innies or outies of `group`, with the step's placement or its eliminations (their digits
/// `lost`).
fn describe_sum_group<C: CellSet>(
    geometry: &Geometry<C>,
    group: &SumGroup,
    deduction: &Deduction,
    lost: &str,
) -> String {
    let number = |house: u16| geometry.number(usize::from(house));
    let (area, one) = match group.houses[..] {
        [house] => (geometry.name(usize::from(house)), true),
        // A pair of boxes or regions, side by side but not always numbered one after the other.
        [first, second] if geometry.kind(usize::from(first)) == HouseKind::Box => {
            (format!("{} {} and {}", geometry.plural(usize::from(first)), number(first), number(second)), false)
        }
        [first, .., last] => {
            (format!("{} {} to {}", geometry.plural(usize::from(first)), number(first), number(last)), false)
        }
        [] => unreachable!("a sum group has an area"),
    };
    let (adds, it) = if one { ("adds", "it") } else { ("add", "them") };
    let cells = cell_list(geometry, group.cells.iter().map(|&cell| usize::from(cell)));
    let reason = if group.outies {
        let (cages, total) = (group.cages, group.total);
        format!("The cages that cover {area} add up to {cages} and {area} to {total}, so {cells} outside {it}")
    } else {
        let area = area[..1].to_uppercase() + &area[1..];
        format!("{area} {adds} up to {} and the cages wholly inside {it} to {}, so {cells}", group.total, group.cages)
    };
    match (deduction.placements.first(), group.cells.len()) {
        (Some(placed), 1) => format!("{reason} = {}.", symbol(placed.digit)),
        (Some(placed), _) => {
            format!("{reason} add up to {}: {} = {}.", group.sum, geometry.cell_name(placed.cell), symbol(placed.digit))
        }
        (None, _) => {
            format!("{reason} add up to {}: {} can't be {lost}.", group.sum, eliminated_cells(geometry, deduction))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::cells::Wide;
    use crate::logic::geometry::tests::{on_variant, variant_puzzles};
    use crate::logic::grid::Cells;
    use crate::sizes::Shape;
    use sudokud_model::variant::Variant;

    #[test]
    fn on_killers_every_step_keeps_the_solution_and_the_steps_are_the_grid_size_engines() {
        let (mut used, mut compared, mut six) = (Vec::new(), 0, 0);
        for (id, variant, puzzle, solution) in variant_puzzles(|variant| !variant.cages.is_empty()) {
            let (path, agreed) = match variant.shape().size() {
                9 => on_variant::<Cells>(&variant, &puzzle, &solution, &id),
                _ => on_variant::<Wide<2>>(&variant, &puzzle, &solution, &id),
            };
            six += usize::from(variant.shape().size() == 6);
            used.extend(path);
            compared += agreed;
        }
        for technique in [Technique::CageSum, Technique::InniesOuties, Technique::CageCombination] {
            assert!(used.contains(&technique), "{technique:?}: {used:?}");
        }
        assert!(six > 0 && compared > 150, "{six} 6x6, {compared} steps compared");
    }

    /// A little killer's short diagonal made in every way (three cells of one box: 1, 2 and 3), a
    /// long one bounded by the least its other cells make, and a last open cell placed.
    #[test]
    fn a_little_killer_keeps_the_digits_that_make_its_sum() {
        use crate::logic::techniques::renban::tests::sentences;
        let clue = |sum: u32, start: [u8; 2], direction: &str| {
            format!(
                r#"{{"little_killers":[{{"sum":{sum},"start":[{},{}],"direction":"{direction}"}}]}}"#,
                start[0], start[1]
            )
        };
        let said = sentences(Technique::LittleKiller, &clue(6, [0, 2], "down_left"), &[0; 81]);
        assert_eq!(
            said,
            [
                "r1c3, r2c2 and r3c1 add up to 6 by their little killer: trying every way their candidates can, r1c3, r2c2 and r3c1 can't be 4, 5, 6, 7, 8 or 9."
            ]
        );
        let main = clue(12, [0, 0], "down_right");
        let diagonal = "r1c1, r2c2, r3c3, r4c4, r5c5, r6c6, r7c7, r8c8 and r9c9 add up to 12 by their little killer";
        let said = sentences(Technique::LittleKiller, &main, &[0; 81]);
        assert_eq!(said[0], format!("{diagonal}; the other cells make 8 to 72, so r1c1 can't be 5, 6, 7, 8 or 9."));
        let mut cells = [0; 81];
        cells[0] = 1;
        let said = sentences(Technique::LittleKiller, &main, &cells);
        // r3c3, in r1c1's box, is 2 at least.
        assert_eq!(
            said[0],
            format!(
                "{diagonal}, so r2c2, r3c3, r4c4, r5c5, r6c6, r7c7, r8c8 and r9c9 add up to 11; the others of them make 8 to 63, so r2c2 can't be 4, 5, 6, 7, 8 or 9."
            )
        );
        let constraints: crate::variants::Constraints = serde_json::from_str(&clue(9, [1, 0], "up_right")).unwrap();
        let variant = Variant::new(Shape::CLASSIC, None, &constraints).unwrap();
        let geometry = Geometry::<Cells>::of_variant(&variant).expect("9x9");
        let mut cells = [0; 81];
        cells[9] = 4;
        let grid = crate::logic::grid::Grid::of_values(&geometry, &cells);
        let step = crate::logic::techniques::testing::run(Technique::LittleKiller, &grid).expect("a placement");
        assert_eq!(
            super::super::describe(&grid, &step),
            "r2c1 and r1c2 add up to 9 by their little killer and r2c1 holds 4, so r1c2 = 5."
        );
    }

    /// ISS's Little Killer Sudoku (MIT) explained through to its published solution, every step
    /// checked against it, little killer steps among them; and a last open cell placed.
    #[test]
    fn the_iss_little_killer_example_is_explained_to_its_solution() {
        use crate::logic::techniques::renban::tests::iss_example_steps;
        let steps = iss_example_steps("Little Killer Sudoku", Technique::LittleKiller);
        assert!(steps.len() >= 3, "{steps:?}");
        assert!(steps.iter().all(|said| said.contains(" by their little killer")), "{steps:?}");
    }

    /// An innie of two boxes side by side names them as a pair, not as a run of houses.
    #[test]
    fn an_innie_of_two_boxes_is_said_of_the_pair() {
        let constraints = crate::variants::sum_group_tests::cages_across_two_boxes();
        let variant = Variant::new(Shape::CLASSIC, None, &constraints).unwrap();
        let geometry = Geometry::<Cells>::of_variant(&variant).expect("9x9");
        let mut out = Deduction::new();
        out.start(Technique::InniesOuties);
        out.rule = variant.sum_groups.iter().position(|group| group.cells == [23]).expect("the pair's innie");
        out.place(23, 5);
        assert_eq!(
            describe(&geometry, &out),
            "Boxes 1 and 2 add up to 90 and the cages wholly inside them to 85, so r3c6 = 5."
        );
    }
}

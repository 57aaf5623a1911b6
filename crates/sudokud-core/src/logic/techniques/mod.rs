//! The techniques, one file per family. Each finder looks for the first pattern of its technique
//! that changes the grid, records it in a [`Deduction`] and says whether it found one; each
//! family also writes the one-sentence explanation of its own patterns.

use crate::interrupt::{Interrupt, Interrupted};
use crate::position::HouseKind;

use super::cells::CellSet;
use super::grid::{Grid, count9};
use super::step::{Deduction, Technique};
use forcing::Nesting;

mod chains;
pub(crate) use chains::trace_chain;
mod als;
mod arrows;
mod classes;
mod fish;
mod forcing;
pub(crate) use forcing::{Literal, Nested};
mod intersections;
mod lines;
mod outside;
mod pairs;
mod quadruples;
mod renban;
mod singles;
mod strong_links;
mod subsets;
mod sums;
mod uniqueness;
mod whole;
mod wings;

/// Looks for a step of `technique` in `grid`, leaving it in `out`. Brute force needs the
/// solution, so the caller handles it; here it never fires. Only the chain searches are long
/// enough to poll `interrupt`.
pub(crate) fn find<C: CellSet>(
    technique: Technique,
    grid: &Grid<C>,
    out: &mut Deduction,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, Interrupted> {
    find_changed(technique, grid, &Changed::all(), out, interrupt)
}

/// [`find`] where the grid is known to have no step of `technique` but for the candidates
/// `changed` removed since: locked candidates, subsets and fish look only at the houses and
/// digits whose candidates changed (the first step of what is left is the first of all, the
/// others having none); the other techniques everywhere.
pub(super) fn find_changed<C: CellSet>(
    technique: Technique,
    grid: &Grid<C>,
    changed: &Changed<C>,
    out: &mut Deduction,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, Interrupted> {
    use Technique::*;
    const BOXES: &[HouseKind] = &[HouseKind::Box];
    const LINES: &[HouseKind] = &HouseKind::LINES;
    out.start(technique);
    let found = match technique {
        FullHouse => singles::full_house(grid, out),
        HiddenSingleBox => singles::hidden_single(grid, out, BOXES),
        HiddenSingleLine => singles::hidden_single(grid, out, LINES),
        CageSum => sums::cage_sum(grid, out),
        NeighbourRule => pairs::neighbour_rule(grid, out),
        Renban => renban::renban(grid, out),
        Arrow => arrows::arrow(grid, out),
        LittleKiller => sums::little_killer(grid, out),
        BetweenLine => lines::line(grid, out, sudokud_model::unit::Unit::BetweenLine),
        Quadruple => quadruples::quadruple(grid, out),
        LockoutLine => lines::line(grid, out, sudokud_model::unit::Unit::LockoutLine),
        DigitClasses => classes::window(grid, out),
        Sandwich => outside::outside_clue(grid, out, sudokud_model::unit::Unit::Sandwich),
        XSum => outside::outside_clue(grid, out, sudokud_model::unit::Unit::XSum),
        NakedSingle => singles::naked_single(grid, out),
        InniesOuties => sums::innies_outies(grid, out),
        CageCombination => sums::cage_combination(grid, out),
        // A swap that keeps every house valid may break a variant's other rules.
        UniqueRectangle1 | BugPlusOne | BugType2 if grid.geometry().rules().is_some() => false,
        Pointing => intersections::locked(grid, changed, out, BOXES, LINES),
        Claiming => intersections::locked(grid, changed, out, LINES, BOXES),
        NakedPair => subsets::naked(grid, changed, out, 2),
        NakedTriple => subsets::naked(grid, changed, out, 3),
        NakedQuad => subsets::naked(grid, changed, out, 4),
        HiddenPair => subsets::hidden(grid, changed, out, 2),
        HiddenTriple => subsets::hidden(grid, changed, out, 3),
        HiddenQuad => subsets::hidden(grid, changed, out, 4),
        XWing => fish::fish(grid, changed, out, 2),
        Swordfish => fish::fish(grid, changed, out, 3),
        Jellyfish => fish::fish(grid, changed, out, 4),
        TurbotFish => strong_links::strong_links(grid, out, 2),
        ThreeStrongLinks => strong_links::strong_links(grid, out, 3),
        FourStrongLinks => strong_links::strong_links(grid, out, 4),
        XYWing => wings::xy_wing(grid, out),
        XYZWing => wings::xyz_wing(grid, out),
        WxyzWing => als::wing(grid, out, 3),
        VwxyzWing => als::wing(grid, out, 4),
        UvwxyzWing => als::wing(grid, out, 5),
        TuvwxyzWing => als::wing(grid, out, 6),
        XChain => single_chain(grid, out, interrupt)?,
        // Found with X-chains, which take the easiest of them all.
        XCycle | YCycle | XYChain | XYCycle | ForcingChain => false,
        UniqueRectangle1 => uniqueness::unique_rectangle_1(grid, out),
        BugPlusOne => uniqueness::bug_plus_one(grid, out),
        BugType2 => uniqueness::bug_type_2(grid, out),
        Nishio => forcing::multiple(grid, out, forcing::Multiple::Nishio, interrupt)?,
        MultipleForcingChains => forcing::multiple(grid, out, forcing::Multiple::Static, interrupt)?,
        DynamicForcingChains
        | DynamicForcingChainsPlus
        | NestedForcingChains
        | NestedMultipleForcingChains
        | NestedDynamicForcingChains => {
            let nesting = Nesting::of(technique).expect("each is a level of dynamic forcing chains");
            forcing::multiple(grid, out, forcing::Multiple::Dynamic(nesting), interrupt)?
        }
        // Brute force needs the solution.
        _ => false,
    };
    Ok(found)
}

/// The candidates removed from a grid since a finder last found nothing there: per digit, the
/// cells that lost it. A pattern of locked candidates, a subset or a fish depends only on the
/// candidates of its houses (its digit's, for a fish), and where none of those changed there is
/// still none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Changed<C: CellSet = super::grid::Cells>(C::PerDigit<C>);

impl<C: CellSet> Changed<C> {
    /// Everything, for a grid never searched.
    pub(super) fn all() -> Changed<C> {
        Changed(C::per_digit(!C::EMPTY))
    }

    /// Nothing.
    pub(super) fn none() -> Changed<C> {
        Changed(C::per_digit(C::EMPTY))
    }

    /// What went from `before` to make `after` (a grid with fewer candidates).
    pub(super) fn between(before: &Grid<C>, after: &Grid<C>) -> Changed<C> {
        let mut changed: Changed<C> = Changed::none();
        for (index, lost) in changed.0.as_mut().iter_mut().enumerate().take(before.geometry().side()) {
            let digit = index as u8 + 1;
            *lost = before.cells_with(digit) & !after.cells_with(digit);
        }
        changed
    }

    /// Adds what `other` removed.
    pub(super) fn add(&mut self, other: &Changed<C>) {
        for (mine, &theirs) in self.0.as_mut().iter_mut().zip(other.0.as_ref()) {
            *mine |= theirs;
        }
    }

    /// Whether any candidate of `cells` changed.
    pub(super) fn any_in(&self, cells: C) -> bool {
        self.0.as_ref().iter().any(|&changed| !(changed & cells).is_empty())
    }

    /// Whether `digit` changed in any of `cells`.
    pub(super) fn digit_in(&self, digit: u8, cells: C) -> bool {
        !(self.0.as_ref()[usize::from(digit - 1)] & cells).is_empty()
    }
}

/// The easiest single chain: an X-chain, an XY-chain, a cycle or a forcing chain through cells
/// and houses alike, whichever rates lowest (the first of them on a tie), as SE's one search for
/// them all takes its easiest.
fn single_chain<C: CellSet>(
    grid: &Grid<C>,
    out: &mut Deduction,
    interrupt: &mut dyn Interrupt,
) -> Result<bool, Interrupted> {
    let mut best: Option<Deduction> = None;
    type Finder<C> = fn(&Grid<C>, &mut Deduction, &mut dyn Interrupt) -> Result<bool, Interrupted>;
    let finders: [(Technique, Finder<C>); 2] =
        [(Technique::XChain, chains::x_chain), (Technique::XYChain, chains::xy_chain)];
    for (technique, finder) in finders {
        out.start(technique);
        if finder(grid, out, interrupt)? && best.as_ref().is_none_or(|best| out.rating < best.rating) {
            best = Some(out.clone());
        }
    }
    // Cycles and forcing chains only matter where they beat those.
    let below = best.as_ref().map_or(f32::INFINITY, |best| best.rating);
    if forcing::cycle(grid, out, below, interrupt)? {
        best = Some(out.clone());
    }
    let below = best.as_ref().map_or(f32::INFINITY, |best| best.rating);
    out.start(Technique::ForcingChain);
    if forcing::forcing_chain(grid, out, below, false, interrupt)? {
        best = Some(out.clone());
    }
    Ok(best.is_some_and(|best| {
        *out = best;
        true
    }))
}

/// The explanation of a deduction found in `grid` (the grid before the step is applied).
pub(crate) fn describe<C: CellSet>(grid: &Grid<C>, deduction: &Deduction) -> String {
    use Technique::*;
    let geometry = grid.geometry();
    match deduction.technique {
        FullHouse | HiddenSingleBox | HiddenSingleLine | NakedSingle | BruteForce => {
            singles::describe(geometry, deduction)
        }
        Pointing | Claiming => intersections::describe(geometry, deduction),
        NakedPair | NakedTriple | NakedQuad | HiddenPair | HiddenTriple | HiddenQuad => {
            subsets::describe(geometry, deduction)
        }
        XWing | Swordfish | Jellyfish => fish::describe(geometry, deduction),
        XYWing | XYZWing => wings::describe(geometry, deduction),
        TurbotFish | ThreeStrongLinks | FourStrongLinks => strong_links::describe(geometry, deduction),
        UniqueRectangle1 => uniqueness::describe(geometry, deduction),
        BugPlusOne | BugType2 => uniqueness::describe_bug(geometry, deduction),
        WxyzWing | VwxyzWing | UvwxyzWing | TuvwxyzWing => als::describe(geometry, deduction),
        XChain | XYChain => chains::describe(grid, deduction),
        ForcingChain
        | Nishio
        | MultipleForcingChains
        | DynamicForcingChains
        | DynamicForcingChainsPlus
        | NestedForcingChains
        | NestedMultipleForcingChains
        | NestedDynamicForcingChains => forcing::describe(geometry, deduction),
        XCycle | YCycle | XYCycle => forcing::describe_cycle(geometry, deduction),
        CageSum | InniesOuties | CageCombination => sums::describe(geometry, deduction),
        NeighbourRule => pairs::describe(geometry, deduction),
        Renban => renban::describe(grid, deduction),
        Arrow => arrows::describe(grid, deduction),
        LittleKiller => sums::describe_little_killer(grid, deduction),
        BetweenLine | LockoutLine => lines::describe(grid, deduction),
        Quadruple => quadruples::describe(grid, deduction),
        DigitClasses => classes::describe(grid, deduction),
        Sandwich | XSum => outside::describe(grid, deduction),
    }
}

/// The items [`find_set`] can combine into a set of `size`: `(id, mask)` for each id whose mask
/// has two to `size` bits (one bit would be a single, which comes first). On the stack, since
/// subsets and fish build these for every unit and digit each time they are tried.
pub(super) struct Items<C: CellSet> {
    items: C::PerDigit<(usize, u32)>,
    len: usize,
}

impl<C: CellSet> Items<C> {
    /// The items among `ids` (at most the grid's side) whose `mask` fits a set of `size`.
    pub(super) fn new(size: usize, ids: impl Iterator<Item = usize>, mask: impl Fn(usize) -> u32) -> Items<C> {
        let mut items: Items<C> = Items { items: C::per_digit((0, 0)), len: 0 };
        for id in ids {
            let mask = mask(id);
            if (2..=size).contains(&count9(mask)) {
                items.items.as_mut()[items.len] = (id, mask);
                items.len += 1;
            }
        }
        items
    }

    /// The items, in the order of `ids`.
    pub(super) fn as_slice(&self) -> &[(usize, u32)] {
        &self.items.as_ref()[..self.len]
    }
}

/// Looks for `size` items whose masks together have exactly `size` bits (n cells holding n
/// digits, n digits confined to n cells, n lines covered by n lines) and calls `test` with their
/// ids and the union, until `test` accepts one.
pub(super) fn find_set<C: CellSet>(items: &Items<C>, size: usize, test: &mut dyn FnMut(&[usize], u32) -> bool) -> bool {
    /// Adds the items from `items` on to the `depth` chosen so far, whose masks make `union`.
    fn extend(
        items: &[(usize, u32)],
        size: usize,
        chosen: &mut [usize; 4],
        depth: usize,
        union: u32,
        test: &mut dyn FnMut(&[usize], u32) -> bool,
    ) -> bool {
        if depth == size {
            return count9(union) == size && test(&chosen[..size], union);
        }
        for (i, &(id, mask)) in items.iter().enumerate() {
            let union = union | mask;
            if count9(union) > size {
                continue;
            }
            chosen[depth] = id;
            if extend(&items[i + 1..], size, chosen, depth + 1, union, test) {
                return true;
            }
        }
        false
    }
    extend(items.as_slice(), size, &mut [0; 4], 0, 0, test)
}

/// Test helpers: grids from a board plus eliminations, and a finder run on them.
#[cfg(test)]
pub(crate) mod testing {
    use super::*;
    use crate::board::Board;
    use crate::interrupt::Never;
    use crate::logic::step::CellDigit;

    /// The grid of `board` (81 chars) with extra candidates removed: `(row, col, digits)`,
    /// 1-based as a person would read them off a diagram.
    pub(crate) fn grid(board: &str, removed: &[(usize, usize, &[u8])]) -> Grid<'static> {
        let mut grid = Grid::new(&board.parse::<Board>().expect("test board parses"));
        for &(row, col, digits) in removed {
            for &digit in digits {
                grid.eliminate((row - 1) * 9 + col - 1, digit);
            }
        }
        grid
    }

    /// A grid of blank cells with only the given candidates: `(row, col, digits)`, 1-based.
    /// Cells not listed have no candidates (as if filled), so a test states exactly the
    /// pattern it means.
    pub(crate) fn sparse(cells: &[(usize, usize, &[u8])]) -> Grid<'static> {
        sparse_over(crate::logic::geometry::Geometry::classic(), cells)
    }

    /// [`sparse`] over `geometry`, of any size.
    pub(crate) fn sparse_over<'g, C: CellSet>(
        geometry: &'g crate::logic::geometry::Geometry<C>,
        cells: &[(usize, usize, &[u8])],
    ) -> Grid<'g, C> {
        let side = geometry.side();
        let mut grid = Grid::of_values(geometry, &vec![0; side * side]);
        for cell in 0..side * side {
            let listed = cells.iter().find(|&&(row, col, _)| (row - 1) * side + col - 1 == cell);
            for digit in 1..=side as u8 {
                if !listed.is_some_and(|(_, _, digits)| digits.contains(&digit)) {
                    grid.eliminate(cell, digit);
                }
            }
        }
        grid
    }

    /// Runs one finder; `None` if it finds nothing.
    pub(crate) fn run<C: CellSet>(technique: Technique, grid: &Grid<C>) -> Option<Deduction> {
        let mut out = Deduction::new();
        find(technique, grid, &mut out, &mut Never).expect("Never interrupts").then_some(out)
    }

    /// [`run`], but an X-chain or an XY-chain by its own finder, not with the other single
    /// chains: the oracle the grid-size engine's chains are checked against.
    pub(crate) fn run_alone<C: CellSet>(technique: Technique, grid: &Grid<C>) -> Option<Deduction> {
        let mut out = Deduction::new();
        out.start(technique);
        let found = match technique {
            Technique::XChain => chains::x_chain(grid, &mut out, &mut Never),
            Technique::XYChain => chains::xy_chain(grid, &mut out, &mut Never),
            _ => return run(technique, grid),
        };
        found.expect("Never interrupts").then_some(out)
    }

    /// 1-based `(row, col, digit)` of a 9x9 grid as a candidate.
    pub(crate) fn cand(row: u8, col: u8, digit: u8) -> CellDigit {
        CellDigit { cell: usize::from(row - 1) * 9 + usize::from(col - 1), digit }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interrupt::Never;

    /// The techniques [`find_changed`] narrows to where the grid changed: those nested in a
    /// chain at its first level.
    fn nested_first() -> &'static [Technique] {
        Nesting::Basic.techniques()
    }

    #[test]
    fn a_search_where_the_grid_changed_finds_what_a_full_one_does() {
        use std::ops::ControlFlow;
        // Grids along the paths of two hard puzzles (tests/data/se_rated_hardest.tsv), each less
        // some of its candidates chosen by a fixed pseudo-random sequence.
        let mut grids = Vec::new();
        for puzzle in [
            "........1.....2.....1345.....36....7.2.....8.9.....5....6.7...3.8.....2.5.....9..",
            ".......39.....1..5..3.5.8....8.9...6.7...2...1..4.......9.8..5..2....6..4..7.....",
        ] {
            let puzzle: crate::board::Board = puzzle.parse().unwrap();
            let crate::solver::Outcome::Unique(solution) = crate::solver::solve(&puzzle) else {
                panic!("one solution")
            };
            crate::logic::run(&puzzle, None, &solution, crate::logic::Level::Extreme, &mut Never, |grid, _| {
                grids.push(grid.clone());
                ControlFlow::Continue(())
            })
            .unwrap();
        }
        let mut state = 12345u64;
        let mut random = move |below: usize| {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize % below
        };
        let (mut before, mut full, mut narrowed) = (Deduction::new(), Deduction::new(), Deduction::new());
        let mut compared = [0usize; 2];
        for grid in &grids {
            for removals in [1, 2, 4, 8] {
                let mut after = grid.clone();
                for _ in 0..removals {
                    let cell = random(81);
                    let left = after.candidates(cell);
                    if left.count_ones() > 1 {
                        let digits: Vec<u8> = crate::logic::grid::digits(left).collect();
                        after.eliminate(cell, digits[random(digits.len())]);
                    }
                }
                let changed = Changed::between(grid, &after);
                for &technique in nested_first() {
                    if find(technique, grid, &mut before, &mut Never).unwrap() {
                        continue;
                    }
                    let expected = find(technique, &after, &mut full, &mut Never).unwrap();
                    let got = find_changed(technique, &after, &changed, &mut narrowed, &mut Never).unwrap();
                    assert_eq!(got, expected, "{technique:?}");
                    // (A finder that finds nothing leaves what it last tried in the buffer.)
                    if expected {
                        assert_eq!(format!("{narrowed:?}"), format!("{full:?}"), "{technique:?}");
                    }
                    compared[usize::from(expected)] += 1;
                }
            }
        }
        assert!(compared[1] > 10 && compared[0] > 100, "{compared:?}");
    }
}

//! Unique puzzles of every shape, the same for the same seed.
//!
//! A solved grid comes from the solver on a first row drawn at random, shuffled by moves that
//! keep a grid solved (rows within a band of boxes, bands, columns within a stack, stacks,
//! relabeled values); then cells are blanked in a random order, with their symmetric partner,
//! as long as the puzzle keeps one solution and has more givens than asked for.

use super::grid::Grid;
use super::shape::Shape;
use super::solver::count_solutions;
use crate::generate::Symmetry;
use crate::random::SplitMix64;
use crate::solver::{Interrupt, Interrupted, Never};

/// A generated puzzle and its solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: one solution, its givens in the asked symmetry.
    pub puzzle: Grid,
    /// Its solution.
    pub solution: Grid,
}

/// A puzzle of `shape` from `seed`, blanked down to `min_givens` givens or until no further cell
/// can go without a second solution (`min_givens` 0: a minimal puzzle for its blanking order).
/// Each blanking is checked by a search for two solutions, which `interrupt` may stop.
pub fn generate(
    shape: Shape,
    symmetry: Symmetry,
    min_givens: usize,
    seed: u64,
    interrupt: &mut impl Interrupt,
) -> Result<Generated, Interrupted> {
    let mut random = SplitMix64(seed);
    let solution = solved_grid(shape, &mut random);
    let size = shape.size();
    let mut cells = solution.cells().to_vec();
    let mut givens = cells.len();
    let mut order: Vec<usize> = (0..cells.len()).filter(|&cell| symmetry.partner(size, cell) >= cell).collect();
    random.shuffle(&mut order);
    for cell in order {
        let partner = symmetry.partner(size, cell);
        let blanked = if partner == cell { 1 } else { 2 };
        if givens < min_givens + blanked {
            continue;
        }
        let kept = (cells[cell], cells[partner]);
        (cells[cell], cells[partner]) = (0, 0);
        let puzzle = Grid::new(shape, cells.clone()).expect("blanking keeps a grid a grid");
        if count_solutions(&puzzle, 2, interrupt)?.solutions == 1 {
            givens -= blanked;
        } else {
            (cells[cell], cells[partner]) = kept;
        }
    }
    let puzzle = Grid::new(shape, cells).expect("blanking keeps a grid a grid");
    Ok(Generated { puzzle, solution })
}

/// A solved grid of `shape` drawn with `random`.
fn solved_grid(shape: Shape, random: &mut SplitMix64) -> Grid {
    let size = shape.size();
    // Any first row extends to a solved grid (relabel any solved grid to it).
    let mut first_row: Vec<u8> = (1..=size as u8).collect();
    random.shuffle(&mut first_row);
    let mut cells = vec![0u8; shape.cells()];
    cells[..size].copy_from_slice(&first_row);
    let seeded = Grid::new(shape, cells).expect("values 1 to N");
    let base =
        count_solutions(&seeded, 1, &mut Never).expect("Never interrupts").first.expect("a first row always extends");
    let rows = shuffled_lines(size, shape.box_rows(), random);
    let cols = shuffled_lines(size, shape.box_cols(), random);
    let mut labels: Vec<u8> = (0..=size as u8).collect();
    random.shuffle(&mut labels[1..]);
    let cells = rows
        .iter()
        .flat_map(|&row| cols.iter().map(move |&col| (row, col)))
        .map(|(row, col)| labels[usize::from(base.get(row, col))])
        .collect();
    Grid::new(shape, cells).expect("the moves keep a grid solved")
}

/// The lines (rows or columns) of a grid of side `size` in a random order that keeps each box's
/// lines together: the groups of `group` lines shuffled, and the lines within each group.
fn shuffled_lines(size: usize, group: usize, random: &mut SplitMix64) -> Vec<usize> {
    let mut groups: Vec<usize> = (0..size / group).collect();
    random.shuffle(&mut groups);
    let mut lines = Vec::with_capacity(size);
    for first in groups {
        let mut within: Vec<usize> = (first * group..(first + 1) * group).collect();
        random.shuffle(&mut within);
        lines.extend(within);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sizes::rules::conflicts;
    use crate::solver::PollBudget;

    #[test]
    fn every_shape_gets_a_unique_puzzle_of_its_solution() {
        for shape in Shape::all().filter(|shape| shape.size() <= 16) {
            let generated = generate(shape, Symmetry::None, 0, 7, &mut Never).unwrap();
            let (puzzle, solution) = (&generated.puzzle, &generated.solution);
            assert!(solution.is_complete() && conflicts(solution).is_empty(), "{shape}: {solution:?}");
            let count = count_solutions(puzzle, 2, &mut Never).unwrap();
            assert_eq!((count.solutions, count.first.as_ref()), (1, Some(solution)), "{shape}: {puzzle:?}");
            assert!(puzzle.cells().iter().zip(solution.cells()).all(|(&given, &value)| given == 0 || given == value));
            assert!(puzzle.givens() < shape.cells() / 2, "{shape}: {} givens", puzzle.givens());
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_puzzle_and_others_differ() {
        let shape = Shape::new(2, 3).unwrap();
        let first = generate(shape, Symmetry::None, 0, 1, &mut Never).unwrap();
        assert_eq!(generate(shape, Symmetry::None, 0, 1, &mut Never).unwrap(), first);
        let others: Vec<Grid> =
            (2..6).map(|seed| generate(shape, Symmetry::None, 0, seed, &mut Never).unwrap().solution).collect();
        assert!(others.iter().all(|other| *other != first.solution));
    }

    #[test]
    fn givens_follow_the_symmetry_and_stop_at_the_floor() {
        let shape = Shape::new(3, 4).unwrap();
        for symmetry in Symmetry::ALL {
            let puzzle = generate(shape, symmetry, 0, 3, &mut Never).unwrap().puzzle;
            for cell in 0..shape.cells() {
                let partner = symmetry.partner(12, cell);
                assert_eq!(puzzle.cells()[cell] == 0, puzzle.cells()[partner] == 0, "{symmetry}: cell {cell}");
            }
        }
        let big = Shape::new(5, 5).unwrap();
        let easy = generate(big, Symmetry::Rotational, 450, 5, &mut Never).unwrap();
        assert!((450..452).contains(&easy.puzzle.givens()), "{}", easy.puzzle.givens());
        assert_eq!(count_solutions(&easy.puzzle, 2, &mut Never).unwrap().solutions, 1);
    }

    #[test]
    fn an_interrupt_stops_generation() {
        assert_eq!(generate(Shape::new(4, 4).unwrap(), Symmetry::None, 0, 1, &mut PollBudget(1)), Err(Interrupted));
    }
}

//! The solver for every grid size on public puzzles of other sizes (`tests/data/sizes`), each
//! answer checked against the solution an independent SAT solver found.

use sudokud::sizes::{Grid, solver};
use sudokud::solver::Never;

use crate::common::data_dir;

/// `(puzzle, solution)` for every line of `tests/data/sizes/<name>`.
fn load_pairs(name: &str) -> Vec<(Grid, Grid)> {
    let path = data_dir().join("sizes").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    text.lines()
        .enumerate()
        .map(|(index, line)| {
            let at = || format!("{}:{}", path.display(), index + 1);
            let (puzzle, solution) = line.split_once('\t').unwrap_or_else(|| panic!("{}: no tab", at()));
            let read = |text| Grid::parse(text, None).unwrap_or_else(|error| panic!("{}: {error}", at()));
            (read(puzzle), read(solution))
        })
        .collect()
}

#[test]
fn every_25x25_puzzle_has_the_one_solution_the_sat_solver_found() {
    let pairs = load_pairs("25x25_sudoku_smt_solvers.tsv");
    assert_eq!(pairs.len(), 42);
    for (puzzle, solution) in pairs {
        assert_eq!(puzzle.size(), 25);
        let count = solver::count_solutions(&puzzle, 2, &mut Never).unwrap();
        assert_eq!(count.solutions, 1, "{puzzle}");
        assert_eq!(count.first.as_ref(), Some(&solution), "{puzzle}");
    }
}

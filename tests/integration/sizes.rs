//! The solver for every grid size: on public puzzles of other sizes (`tests/data/sizes`), each
//! answer checked against the solution an independent SAT solver found, and property tests at
//! every shape up to 12x12.

use sudokud::search::count_grid;
use sudokud::sizes::{Grid, rules};
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
        let count = count_grid(&puzzle, 2, &mut Never).unwrap();
        assert_eq!(count.solutions, 1, "{puzzle}");
        assert_eq!(count.first.as_ref(), Some(&solution), "{puzzle}");
    }
}

/// Three of Gecode's minimal 25x25 puzzles (`tests/data/sizes/25x25_gecode.tsv`), the hardest
/// public set at this size, that the look-ahead search settles in well under a second (release
/// build): each has the one solution the SAT solver found. The others take seconds to minutes
/// (docs/benchmarks.md).
#[test]
fn minimal_25x25_puzzles_have_the_one_solution_the_sat_solver_found() {
    let pairs = load_pairs("25x25_gecode.tsv");
    assert_eq!(pairs.len(), 18);
    for index in [2, 16, 17] {
        let (puzzle, solution) = &pairs[index];
        let count = count_grid(puzzle, 2, &mut Never).unwrap();
        assert_eq!(count.solutions, 1, "#{index} {puzzle}");
        assert_eq!(count.first.as_ref(), Some(solution), "#{index} {puzzle}");
    }
}

/// The benchmark's puzzles of every size (`generated_NxN.txt`, ours): each has one solution,
/// which keeps its givens and breaks no rule (checked by the rules, not the search).
#[test]
fn every_generated_benchmark_puzzle_has_one_solution() {
    for size in sudokud::sizes::SIZES {
        let path = data_dir().join("sizes").join(format!("generated_{size}x{size}.txt"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
        let puzzles: Vec<Grid> = text.lines().map(|line| Grid::parse(line, None).expect("a puzzle")).collect();
        assert_eq!(puzzles.len(), 50, "{}", path.display());
        for puzzle in puzzles {
            assert_eq!(puzzle.size(), size, "{puzzle}");
            let count = count_grid(&puzzle, 2, &mut Never).unwrap();
            assert_eq!(count.solutions, 1, "{puzzle}");
            let solution = count.first.expect("a solution");
            assert!(solution.is_complete() && rules::conflicts(&solution).is_empty(), "{puzzle}");
            let kept = puzzle.cells().iter().zip(solution.cells()).all(|(&given, &value)| given == 0 || given == value);
            assert!(kept, "{puzzle}");
        }
    }
}

mod properties {
    //! Property tests at every shape: puzzles are made by our generator from a random seed and
    //! then blanked further or given a wrong value at random, so they cover unique, multiple,
    //! unsolvable and conflicting grids; answers are checked by the rules alone.

    use proptest::prelude::*;
    use sudokud::generate::Symmetry;
    use sudokud::generate::sizes as generate;
    use sudokud::search::{classify_grid, count_grid};
    use sudokud::sizes::{Grid, Shape, rules};
    use sudokud::solver::{Never, Verdict};

    /// One of the shapes up to 12x12, where every search here stays short.
    fn shape() -> impl Strategy<Value = Shape> {
        let shapes: Vec<Shape> = Shape::all().filter(|shape| shape.size() <= 12).collect();
        proptest::sample::select(shapes)
    }

    /// A generated puzzle and its solution, then `blank` more cells blanked and, when `wrong` is
    /// set, one cell overwritten with another value.
    fn puzzle() -> impl Strategy<Value = (Grid, Grid)> {
        (
            shape(),
            any::<u64>(),
            proptest::collection::vec(any::<prop::sample::Index>(), 0..6),
            any::<Option<(prop::sample::Index, u8)>>(),
        )
            .prop_map(|(shape, seed, blank, wrong)| {
                let (puzzle, solution) = generate::unique(shape, Symmetry::None, 0, seed, &mut Never).unwrap();
                let mut cells = puzzle.cells().to_vec();
                let count = cells.len();
                for index in blank {
                    cells[index.index(count)] = 0;
                }
                if let Some((index, value)) = wrong {
                    cells[index.index(count)] = 1 + value % shape.size() as u8;
                }
                (Grid::new(shape, cells).unwrap(), solution)
            })
    }

    /// Whether `solution` is complete, keeps `puzzle`'s givens and breaks no rule.
    fn solves(puzzle: &Grid, solution: &Grid) -> bool {
        solution.is_complete()
            && rules::conflicts(solution).is_empty()
            && puzzle.cells().iter().zip(solution.cells()).all(|(&given, &value)| given == 0 || given == value)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        #[test]
        fn every_verdict_agrees_with_the_rules((puzzle, original) in puzzle()) {
            match classify_grid(&puzzle, &mut Never).unwrap() {
                Verdict::Unique(solution) => {
                    prop_assert!(solves(&puzzle, &solution));
                    // A puzzle the generated solution still solves has no other.
                    if solves(&puzzle, &original) {
                        prop_assert_eq!(solution, original);
                    }
                }
                Verdict::Multiple(solution) => prop_assert!(solves(&puzzle, &solution)),
                Verdict::Conflicting(conflicts) => {
                    prop_assert!(!conflicts.is_empty());
                    prop_assert_eq!(conflicts, rules::conflicts(&puzzle));
                }
                Verdict::Unsolvable => {
                    prop_assert!(rules::conflicts(&puzzle).is_empty());
                    prop_assert!(!solves(&puzzle, &original));
                }
            }
        }

        #[test]
        fn text_round_trips_in_either_case((puzzle, _) in puzzle()) {
            let text = puzzle.to_string();
            prop_assert_eq!(Grid::parse(&text, Some(puzzle.shape())), Ok(puzzle.clone()));
            prop_assert_eq!(Grid::parse(&text.to_ascii_lowercase(), Some(puzzle.shape())), Ok(puzzle));
        }

        #[test]
        fn a_count_is_capped_by_its_limit_and_only_grows_with_it((puzzle, _) in puzzle(), limit in 1usize..4) {
            let smaller = count_grid(&puzzle, limit, &mut Never).unwrap();
            let larger = count_grid(&puzzle, limit + 1, &mut Never).unwrap();
            prop_assert!(smaller.solutions <= limit);
            prop_assert!(smaller.solutions <= larger.solutions);
            prop_assert_eq!(smaller.first, larger.first, "the first solution does not depend on the limit");
        }
    }
}

//! The solver has a search per [`SearchPath`] (the portable one, and twins compiled for more of
//! the CPU's instructions), and runs the fastest the CPU has, so the data-set tests only reach
//! that one. This runs every data set through every path the CPU runs and checks they give the
//! same answers.

use sudokud::board::Board;
use sudokud::solver::{self, Never, Progress, SearchPath};

use crate::common::{data_dir, load};

/// The paths this CPU runs, other than the one `count_solutions` takes: the portable one always.
fn other_paths() -> impl Iterator<Item = SearchPath> {
    SearchPath::ALL.into_iter().filter(|path| path.is_supported() && *path != SearchPath::fastest())
}

/// Every path counts up to `limit` solutions of `puzzle` alike, first solution included; the
/// first that does not, if any.
fn differing_path(puzzle: &Board, limit: usize) -> Option<SearchPath> {
    let fastest = solver::count_solutions(puzzle, limit, &mut Never).unwrap();
    other_paths().find(|&path| {
        solver::count_solutions_on(path, puzzle, limit, &mut Progress::default(), &mut Never) != Some(Ok(fastest))
    })
}

#[test]
fn every_data_set_gets_the_same_answers_on_every_path() {
    assert!(other_paths().any(|path| path == SearchPath::Portable));
    let mut names: Vec<String> = std::fs::read_dir(data_dir())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".txt"))
        .collect();
    names.sort();
    // Listed, not named, so a new set is covered too; the nine known ones must be there.
    assert!(names.len() >= 9, "only {names:?} in tests/data");
    for name in &names {
        let puzzles = load(name);
        let differing: Vec<(usize, SearchPath)> = puzzles
            .iter()
            .enumerate()
            .filter_map(|(index, puzzle)| Some((index + 1, differing_path(puzzle, 2)?)))
            .collect();
        assert!(differing.is_empty(), "{name}: lines differ from the fastest path: {differing:?}");
    }
}

#[test]
fn every_path_counts_up_to_the_limit() {
    assert_eq!(differing_path(&Board::EMPTY, 5), None);
    assert_eq!(differing_path(&Board::EMPTY, 0), None);
}

#[test]
fn a_path_the_cpu_cannot_run_is_refused() {
    for path in SearchPath::ALL {
        let count = solver::count_solutions_on(path, &Board::EMPTY, 1, &mut Progress::default(), &mut Never);
        assert_eq!(count.is_some(), path.is_supported(), "{path:?}");
    }
    assert!(SearchPath::Portable.is_supported());
    assert!(SearchPath::fastest().is_supported());
}

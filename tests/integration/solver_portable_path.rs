//! The solver runs a search compiled for POPCNT, BMI1/2 and AVX2 where the CPU has them, else the
//! portable one. On such a CPU the data-set tests only reach the fast search, so this runs every
//! data set through the portable one too and checks both give the same answers.

use sudokud::board::Board;
use sudokud::solver::{self, Never};

use crate::common::{data_dir, load};

/// Both searches count up to `limit` solutions of `puzzle` alike, first solution included.
fn same_count(puzzle: &Board, limit: usize) -> bool {
    let fast = solver::count_solutions(puzzle, limit, &mut Never).unwrap();
    let portable = solver::count_solutions_portable(puzzle, limit, &mut Never).unwrap();
    fast == portable
}

#[test]
fn every_data_set_gets_the_same_answers_on_the_portable_path() {
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
        let differing: Vec<usize> = puzzles
            .iter()
            .enumerate()
            .filter(|(_, puzzle)| !same_count(puzzle, 2))
            .map(|(index, _)| index + 1)
            .collect();
        assert!(differing.is_empty(), "{name}: lines {differing:?} differ between the fast and portable paths");
    }
}

#[test]
fn the_portable_path_counts_up_to_the_limit() {
    assert!(same_count(&Board::EMPTY, 5));
    assert!(same_count(&Board::EMPTY, 0));
}

//! Runs the solver over every puzzle of every data set in `tests/data` and checks each answer
//! against what the set is known to contain (see `tests/data/README.md`), and, where plain
//! backtracking is fast enough, against the independent oracle in `tests/common/oracle.rs`.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use sudokud::board::Board;
use sudokud::rules;
use sudokud::solver::{self, Outcome};

use crate::common::{self, load, oracle};

/// Every data set and the answer each of its puzzles must get.
const DATA_SETS: [(&str, Expect); 9] = [
    ("kaggle_style_easy_10k.txt", Expect::Unique),
    ("17_clue_10k.txt", Expect::Unique),
    ("magictour_top1465.txt", Expect::Unique),
    ("forum_hardest_1905_11plus_10k.txt", Expect::Unique),
    ("forum_hardest_1106.txt", Expect::Unique),
    ("serg_benchmark_multi_solution.txt", Expect::Multiple),
    ("multiple_solutions.txt", Expect::Multiple),
    ("unsolvable.txt", Expect::Unsolvable),
    ("invalid_duplicate_givens.txt", Expect::Invalid),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Expect {
    Unique,
    Multiple,
    /// Valid givens, no solution.
    Unsolvable,
    /// Repeated givens, hence also no solution.
    Invalid,
}

/// Why `solution` is not a completion of `puzzle`, if it is not one.
fn completion_error(puzzle: &Board, solution: &Board) -> Option<String> {
    if !solution.is_complete() {
        return Some("the solution has blanks".into());
    }
    if let Some(conflict) = rules::conflicts(solution).first() {
        return Some(format!("the solution breaks the rules: {conflict:?}"));
    }
    let changed = puzzle.cells().iter().zip(solution.cells()).position(|(&given, &value)| given != 0 && given != value);
    changed.map(|index| format!("the solution changes the given at cell {index}"))
}

/// Checks one puzzle against `expect`; returns a description of what is wrong.
fn check(puzzle: &Board, expect: Expect) -> Option<String> {
    let outcome = solver::solve(puzzle);
    let valid_input = rules::conflicts(puzzle).is_empty();
    match (expect, outcome) {
        (Expect::Unique, Outcome::Unique(solution)) | (Expect::Multiple, Outcome::Multiple(solution)) => {
            completion_error(puzzle, &solution)
        }
        (Expect::Unsolvable, Outcome::Unsolvable) if !valid_input => {
            Some("the set promises no repeated givens, but rules::conflicts found some".into())
        }
        (Expect::Invalid, Outcome::Unsolvable) if valid_input => Some("rules::conflicts found no repeat".into()),
        (Expect::Unsolvable | Expect::Invalid, Outcome::Unsolvable) => None,
        (_, outcome) => Some(format!("expected {expect:?}, got {outcome:?}")),
    }
}

/// Checks every puzzle of a set and fails once with all bad lines (up to a few), so one run
/// shows the extent of a regression instead of only its first case.
fn check_set(name: &str) {
    let expect = DATA_SETS.iter().find(|(file, _)| *file == name).map(|&(_, expect)| expect).expect("a known set");
    let puzzles = load(name);
    assert!(!puzzles.is_empty(), "{name} is empty");
    let failures: Vec<(usize, &Board, String)> = puzzles
        .iter()
        .enumerate()
        .filter_map(|(index, puzzle)| check(puzzle, expect).map(|why| (index + 1, puzzle, why)))
        .collect();
    if !failures.is_empty() {
        let mut report = format!("{} of {} puzzles in {name} failed:\n", failures.len(), puzzles.len());
        for (line, puzzle, why) in failures.iter().take(10) {
            writeln!(report, "  line {line}: {puzzle}: {why}").unwrap();
        }
        panic!("{report}");
    }
}

/// Compares the oracle with the solver on every `step`-th puzzle of a set: the same count up to
/// two, and the same solution when it is unique.
fn cross_check(name: &str, step: usize) {
    let puzzles = load(name);
    let mut checked = 0;
    for (index, puzzle) in puzzles.iter().enumerate().step_by(step) {
        let reference = oracle::count(puzzle, 2);
        let count = solver::count_solutions(puzzle, 2, &mut solver::Never).expect("Never does not interrupt");
        assert_eq!(count.solutions, reference.solutions, "{name} line {}: {puzzle}", index + 1);
        if reference.solutions == 1 {
            assert_eq!(count.first, reference.first, "{name} line {}: {puzzle}", index + 1);
        }
        checked += 1;
    }
    assert!(checked > 0, "{name}: nothing cross-checked");
}

#[test]
fn every_data_file_is_covered() {
    let on_disk: BTreeSet<String> = std::fs::read_dir(common::data_dir())
        .expect("tests/data is readable")
        .map(|entry| entry.expect("a directory entry").file_name().into_string().expect("a UTF-8 file name"))
        .filter(|name| name.ends_with(".txt"))
        .collect();
    let covered: BTreeSet<String> = DATA_SETS.iter().map(|(name, _)| (*name).to_owned()).collect();
    assert_eq!(on_disk, covered, "add new data files to DATA_SETS");
}

#[test]
fn kaggle_style_easy_is_unique() {
    check_set("kaggle_style_easy_10k.txt");
}

#[test]
fn seventeen_clue_is_unique() {
    check_set("17_clue_10k.txt");
}

#[test]
fn magictour_top1465_is_unique() {
    check_set("magictour_top1465.txt");
}

#[test]
fn forum_hardest_1905_is_unique() {
    check_set("forum_hardest_1905_11plus_10k.txt");
}

#[test]
fn forum_hardest_1106_is_unique() {
    check_set("forum_hardest_1106.txt");
}

#[test]
fn serg_benchmark_has_several_solutions() {
    check_set("serg_benchmark_multi_solution.txt");
}

#[test]
fn multiple_solutions_has_several_solutions() {
    check_set("multiple_solutions.txt");
}

#[test]
fn unsolvable_has_no_solution() {
    check_set("unsolvable.txt");
}

#[test]
fn invalid_duplicate_givens_conflict_and_have_no_solution() {
    check_set("invalid_duplicate_givens.txt");
    for puzzle in load("invalid_duplicate_givens.txt") {
        assert_eq!(oracle::count(&puzzle, 2).solutions, 0, "{puzzle}");
    }
}

// The oracle is plain backtracking: fine on puzzles with many givens, about a second each on
// 17-clue, hardest and unsolvable puzzles, so only these sets are cross-checked.

#[test]
fn oracle_agrees_on_easy_sample() {
    cross_check("kaggle_style_easy_10k.txt", 10);
}

#[test]
fn oracle_agrees_on_serg_sample() {
    cross_check("serg_benchmark_multi_solution.txt", 10);
}

#[test]
fn oracle_agrees_on_invalid() {
    cross_check("invalid_duplicate_givens.txt", 1);
}

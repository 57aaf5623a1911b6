//! The logic engine on the data sets: every explained path ends in the solution, never places
//! a wrong digit and never removes a solution digit; ratings land in sane levels.

mod common;

use std::time::Instant;

use sudokud::board::Board;
use sudokud::logic::{self, Level, Technique};
use sudokud::solver::{self, Never, Outcome};

fn solution(puzzle: &Board) -> Board {
    match solver::solve(puzzle) {
        Outcome::Unique(solution) => solution,
        other => panic!("{puzzle}: expected one solution, got {other:?}"),
    }
}

/// Explains the first `count` puzzles of `name`, checking every step against the solution.
fn check_paths(name: &str, count: usize) -> Vec<logic::Rating> {
    common::load(name)
        .iter()
        .take(count)
        .map(|puzzle| {
            let solution = solution(puzzle);
            let explanation = logic::explain(puzzle, &solution, &mut Never).expect("Never interrupts");
            assert_eq!(explanation.solution, solution, "{puzzle}");
            for step in &explanation.steps {
                for placed in &step.placements {
                    assert_eq!(solution.get(placed.row.into(), placed.col.into()), placed.digit, "{puzzle}: {step:?}");
                }
                for removed in &step.eliminations {
                    assert_ne!(
                        solution.get(removed.row.into(), removed.col.into()),
                        removed.digit,
                        "{puzzle}: {step:?}"
                    );
                }
                assert!(!step.placements.is_empty() || !step.eliminations.is_empty(), "{puzzle}: {step:?}");
                assert!(!step.explanation.is_empty() && step.explanation.ends_with('.'), "{step:?}");
            }
            let rating = logic::rate(puzzle, &solution, &mut Never).expect("Never interrupts");
            assert_eq!(rating, explanation.rating, "{puzzle}: rate and explain take the same path");
            rating
        })
        .collect()
}

#[test]
fn easy_set_paths_are_sound_and_rate_easy() {
    for rating in check_paths("kaggle_style_easy_10k.txt", 200) {
        assert_eq!(rating.level, Level::Easy, "{rating:?}");
        assert!(rating.solved_by_logic);
    }
}

#[test]
fn seventeen_clue_paths_are_sound() {
    let ratings = check_paths("17_clue_10k.txt", 200);
    assert!(ratings.iter().filter(|rating| rating.solved_by_logic).count() > 100);
}

#[test]
fn magictour_paths_are_sound() {
    check_paths("magictour_top1465.txt", 200);
}

#[test]
fn hardest_set_needs_chains_or_brute_force() {
    for rating in check_paths("forum_hardest_1106.txt", 40) {
        assert!(rating.rating >= Technique::XChain.rating(), "{rating:?}");
        assert!(rating.level >= Level::Expert);
    }
}

#[test]
fn next_step_follows_the_path_and_ends_on_a_full_board() {
    let puzzle: Board = common::load("17_clue_10k.txt")[0];
    let solution = solution(&puzzle);
    assert!(logic::next_step(&solution, &solution).is_none());
    let step = logic::next_step(&puzzle, &solution).expect("a blank board has a step");
    let path = logic::explain(&puzzle, &solution, &mut Never).unwrap();
    assert_eq!(step, path.steps[0]);
}

#[test]
fn an_interrupt_stops_a_long_rating() {
    let puzzle = common::load("forum_hardest_1106.txt")[0];
    let solution = solution(&puzzle);
    let mut polls = 0;
    struct After<'a>(&'a mut u32);
    impl solver::Interrupt for After<'_> {
        fn should_stop(&mut self) -> bool {
            *self.0 += 1;
            *self.0 > 3
        }
    }
    assert!(logic::rate(&puzzle, &solution, &mut After(&mut polls)).is_err());
    assert!(logic::explain(&puzzle, &solution, &mut solver::Deadline(Instant::now())).is_err());
}

#[test]
fn bad_solutions_and_boards_end_without_panicking() {
    let puzzle = common::load("magictour_top1465.txt")[0];
    for solution in [Board::EMPTY, puzzle, common::load("kaggle_style_easy_10k.txt")[0]] {
        let _ = logic::explain(&puzzle, &solution, &mut Never).unwrap();
    }
    for puzzle in common::load("invalid_duplicate_givens.txt").iter().chain(&common::load("unsolvable.txt")[..20]) {
        let _ = logic::explain(puzzle, &Board::EMPTY, &mut Never).unwrap();
        let _ = logic::next_step(puzzle, &Board::EMPTY);
    }
    let empty = logic::explain(&Board::EMPTY, &Board::EMPTY, &mut Never).unwrap();
    assert!(!empty.rating.solved_by_logic);
}

//! Solve throughput per data set: `cargo bench --bench solve [-- [--passes N] [FILTER]]`.
//!
//! Each puzzle is solved the way `/v1/solve` solves it: first solution plus the uniqueness check
//! (`solver::solve`, which stops at the second solution). A pass solves every puzzle of a set once,
//! in file order; the median of several passes is reported because this 2-core VM is noisy and a
//! single slow pass says more about the machine than about the solver. Beside the time, the
//! guesses per puzzle, counted in an untimed pass: every candidate the search tries in a cell it
//! branches on, the cell's last one included, which is forced once the others failed. tdoku
//! counts a branch point once, so for the same tree of two-candidate branch points its figure is
//! between half of ours (every first branch refuted) and ours (every first branch succeeding).
//! Plain LeetCode 37
//! backtracking (the test oracle) runs on the easy set only, as the baseline the solver replaced:
//! on the other sets it takes up to a second per puzzle.

// The integration tests' helpers, of which this benchmark uses a part.
#[path = "../tests/common/mod.rs"]
#[allow(dead_code)]
mod common;

#[path = "support/args.rs"]
mod args;

use std::hint::black_box;
use std::time::{Duration, Instant};

use common::oracle;
use sudokud::board::Board;
use sudokud::solver;

/// Every data set, in rough order of difficulty.
const DATA_SETS: [&str; 9] = [
    "kaggle_style_easy_10k.txt",
    "17_clue_10k.txt",
    "magictour_top1465.txt",
    "forum_hardest_1905_11plus_10k.txt",
    "forum_hardest_1106.txt",
    "serg_benchmark_multi_solution.txt",
    "multiple_solutions.txt",
    "unsolvable.txt",
    "invalid_duplicate_givens.txt",
];

/// The only set plain backtracking is fast enough to time.
const ORACLE_SET: &str = "kaggle_style_easy_10k.txt";

const DEFAULT_PASSES: usize = 5;

/// Solves every puzzle once, returning the wall time. The outcome goes through `black_box` so
/// the work cannot be optimised away.
fn pass(puzzles: &[Board], solve: impl Fn(&Board)) -> Duration {
    let start = Instant::now();
    for puzzle in puzzles {
        solve(black_box(puzzle));
    }
    start.elapsed()
}

/// One warm-up pass (page faults, caches, CPU frequency), then the median of `passes` passes.
fn median_pass(puzzles: &[Board], passes: usize, solve: impl Fn(&Board)) -> Duration {
    pass(puzzles, &solve);
    let mut times: Vec<Duration> = (0..passes).map(|_| pass(puzzles, &solve)).collect();
    times.sort_unstable();
    times[times.len() / 2]
}

/// Counts a search's guesses: polled at every candidate tried, and once as the search begins.
struct GuessCount(u64);

impl solver::Interrupt for GuessCount {
    fn poll_interval(&self) -> u32 {
        1
    }

    fn should_stop(&mut self) -> bool {
        self.0 += 1;
        false
    }
}

/// The mean guesses of `/v1/solve`'s search (first solution and the uniqueness check) per puzzle.
fn guesses_per_puzzle(puzzles: &[Board]) -> f64 {
    let total: u64 = puzzles
        .iter()
        .map(|puzzle| {
            let mut count = GuessCount(0);
            solver::count_solutions(puzzle, 2, &mut count).expect("counting never stops the search");
            count.0 - 1
        })
        .sum();
    total as f64 / puzzles.len() as f64
}

fn row(label: &str, puzzles: usize, median: Duration, guesses: Option<f64>) {
    let seconds = median.as_secs_f64();
    let micros = seconds * 1e6 / puzzles as f64;
    let rate = puzzles as f64 / seconds;
    let guesses = guesses.map_or_else(|| "-".to_owned(), |guesses| format!("{guesses:.1}"));
    println!("| {label:<52} | {puzzles:>7} | {micros:>12.2} | {rate:>12.0} | {guesses:>9} |");
}

fn main() {
    let args = args::Args::from_env(DEFAULT_PASSES);
    let (passes, selected) = (args.passes, |name: &str| args.selected(name));

    println!("median of {passes} passes, first solution plus uniqueness check");
    println!(
        "| {:<52} | {:>7} | {:>12} | {:>12} | {:>9} |",
        "data set", "puzzles", "µs/puzzle", "puzzles/s", "guesses"
    );
    println!("|{:-<54}|{:->9}|{:->14}|{:->14}|{:->11}|", "", ":", ":", ":", ":");
    for name in DATA_SETS.into_iter().filter(|name| selected(name)) {
        let puzzles = common::load(name);
        let median = median_pass(&puzzles, passes, |puzzle| {
            black_box(solver::solve(puzzle));
        });
        row(name, puzzles.len(), median, Some(guesses_per_puzzle(&puzzles)));
        if name == ORACLE_SET {
            let median = median_pass(&puzzles, passes, |puzzle| {
                black_box(oracle::count(puzzle, 2));
            });
            row(&format!("{name} (LeetCode 37 backtracking)"), puzzles.len(), median, None);
        }
    }
}

//! Temporary: the old cell-based solver against the new one, same process, same data.
//! `cargo run --release --example compare_old [-- PASSES [FILTER]]`

#[allow(dead_code)]
#[path = "old/solver.rs"]
mod old;

/// The old solver names `crate::board`; point it at the library's.
mod board {
    pub use sudokud::board::*;
}

use std::hint::black_box;
use std::time::{Duration, Instant};

use sudokud::board::Board;
use sudokud::solver;

const SETS: [&str; 9] = [
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

fn load(name: &str) -> Vec<Board> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.parse().unwrap())
        .collect()
}

fn time(puzzles: &[Board], f: impl Fn(&Board)) -> Duration {
    let start = Instant::now();
    for p in puzzles {
        f(black_box(p));
    }
    start.elapsed()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let passes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let filter = args.next();
    let skip_old = std::env::var_os("SKIP_OLD").is_some();
    println!("| {:<36} | {:>6} | {:>10} | {:>10} | {:>7} |", "set", "n", "old µs", "new µs", "ratio");
    for name in SETS.iter().filter(|n| filter.as_deref().is_none_or(|f| n.contains(f))) {
        let puzzles = load(name);
        if !skip_old {
            for (i, p) in puzzles.iter().enumerate() {
                let (a, b) = (old::solve(p), solver::solve(p));
                let same = match (a, b) {
                    (old::Outcome::Unique(x), solver::Outcome::Unique(y)) => x == y,
                    (old::Outcome::Multiple(_), solver::Outcome::Multiple(_)) => true,
                    (old::Outcome::Unsolvable, solver::Outcome::Unsolvable) => true,
                    _ => false,
                };
                assert!(same, "{name} line {}: old {a:?} new {b:?}", i + 1);
            }
        }
        let (mut olds, mut news) = (Vec::new(), Vec::new());
        for _ in 0..passes {
            if !skip_old {
                olds.push(time(&puzzles, |p| {
                    black_box(old::solve(p));
                }));
            }
            news.push(time(&puzzles, |p| {
                black_box(solver::solve(p));
            }));
        }
        let med = |v: &mut Vec<Duration>| {
            v.sort();
            v.get(v.len() / 2).map_or(f64::NAN, |d| d.as_secs_f64() * 1e6 / puzzles.len() as f64)
        };
        let (o, n) = (med(&mut olds), med(&mut news));
        println!("| {name:<36} | {:>6} | {o:>10.2} | {n:>10.2} | {:>7.1} |", puzzles.len(), o / n);
    }
}

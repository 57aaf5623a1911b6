//! Logic rating throughput and what the ratings look like: `cargo bench --bench logic [-- FILTER]`.
//!
//! Rating is what the generator calls per candidate puzzle, so the figure that matters is µs per
//! `logic::rate` (the solution comes from `solver::solve` beforehand and is not timed), and per
//! `logic::rate_within` a level, which gives up at the first harder step. Per set it also prints
//! the levels and how often each technique was needed, to judge the ratings.

// The integration tests' helpers, of which this benchmark uses a part.
#[path = "../tests/common/mod.rs"]
#[allow(dead_code)]
mod common;

use std::hint::black_box;
use std::time::Instant;

use sudokud::board::Board;
use sudokud::logic::{self, Level, Technique};
use sudokud::solver::{self, Never, Outcome};

/// The sets with one solution each, and how many puzzles of each to rate: of the hardest sets
/// only 20, since their nested forcing chains take about two seconds a puzzle.
const DATA_SETS: [(&str, usize); 5] = [
    ("kaggle_style_easy_10k.txt", 1000),
    ("17_clue_10k.txt", 1000),
    ("magictour_top1465.txt", 1465),
    ("forum_hardest_1106.txt", 20),
    ("forum_hardest_1905_11plus_10k.txt", 20),
];

fn main() {
    let filter = std::env::args().skip(1).find(|arg| !arg.starts_with("--"));
    for (name, count) in DATA_SETS.into_iter().filter(|(name, _)| filter.as_deref().is_none_or(|f| name.contains(f))) {
        let pairs: Vec<(Board, Board)> = common::load(name)
            .into_iter()
            .take(count)
            .map(|puzzle| match solver::solve(&puzzle) {
                Outcome::Unique(solution) => (puzzle, solution),
                _ => panic!("{name}: {puzzle} has no unique solution"),
            })
            .collect();
        let ratings: Vec<logic::Rating> =
            pairs.iter().map(|(puzzle, solution)| logic::rate(puzzle, solution, &mut Never).unwrap()).collect();
        let micros = |rate: &dyn Fn(&Board, &Board)| {
            // One warm-up pass, then the best of three (the 2-core VM is noisy).
            let best = (0..4)
                .map(|_| {
                    let start = Instant::now();
                    pairs.iter().for_each(|(puzzle, solution)| rate(black_box(puzzle), solution));
                    start.elapsed().as_secs_f64()
                })
                .fold(f64::MAX, f64::min);
            best * 1e6 / pairs.len() as f64
        };
        let rate = micros(&|puzzle, solution| {
            black_box(logic::rate(puzzle, solution, &mut Never).ok());
        });
        let within = |level| {
            move |puzzle: &Board, solution: &Board| {
                black_box(logic::rate_within(puzzle, solution, level, &mut Never).ok());
            }
        };
        println!(
            "{name}: {} puzzles, µs per rate {rate:.1}, per rate_within easy {:.1}, medium {:.1}, hard {:.1}",
            pairs.len(),
            micros(&within(Level::Easy)),
            micros(&within(Level::Medium)),
            micros(&within(Level::Hard)),
        );
        let levels: Vec<String> = Level::ALL
            .iter()
            .map(|&level| format!("{level} {}", ratings.iter().filter(|rating| rating.level == level).count()))
            .collect();
        println!("  levels: {}", levels.join(", "));
        let used: Vec<String> = Technique::ALL
            .iter()
            .filter_map(|&technique| {
                let puzzles = ratings
                    .iter()
                    .filter(|rating| rating.techniques.iter().any(|used| used.technique == technique))
                    .count();
                (puzzles > 0).then(|| format!("{} {puzzles}", technique.id()))
            })
            .collect();
        println!("  puzzles using: {}", used.join(", "));
    }
}

//! Solve time per variant, then generation time per variant and level:
//! `cargo bench --bench variants [-- [--passes N] [FILTER]]` (`generate` as the filter for the
//! generation table alone).
//!
//! For each preset, 50 puzzles of our generator (9x9, seeds 0-49, extreme: blanked while they keep
//! one solution, so the hardest the generator makes), and the CC BY set of `tests/data/variants`.
//! Each puzzle is solved as `/v1/solve` does (first solution plus the uniqueness check); its time is
//! the median of its passes, and the table gives the median, 99th percentile and maximum over the
//! puzzles. The public X, windoku and jigsaw sets of `../shared/puzzles/variants` are GPL-licensed
//! and stay out of the repository; docs/variants.md gives their figures from a side program.

#[path = "support/args.rs"]
mod args;
#[path = "support/timing.rs"]
mod timing;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use sudokud::generate::Symmetry;
use sudokud::logic::Level;
use sudokud::member::Choice;
use sudokud::puzzle::Puzzle;
use sudokud::sizes::{AnyGrid, Shape};
use sudokud::solver::{Deadline, Never};
use sudokud::variants::{Constraints, Preset};

const PUZZLES_PER_VARIANT: u64 = 50;
const DEFAULT_PASSES: usize = 3;

/// Seeds per variant and level in the generation table.
const GENERATE_SEEDS: u64 = 10;

/// How long one generation may take before it counts as not found.
const GENERATE_BUDGET: Duration = Duration::from_secs(3);

fn row(label: &str, puzzles: &[Puzzle], passes: usize) {
    let solve = |puzzle: &Puzzle| {
        black_box(black_box(puzzle).classify(&mut Never).expect("Never interrupts"));
    };
    let (median, p99, max) = timing::spread(timing::median_times(puzzles, passes, solve));
    let n = puzzles.len();
    println!("| {label:<36} | {n:>7} | {median:>10.1} | {p99:>10.1} | {max:>10.1} |");
}

fn main() {
    let args = args::Args::from_env(DEFAULT_PASSES);
    let (passes, selected) = (args.passes, |name: &str| args.selected(name));

    println!("median of {passes} passes per puzzle, first solution plus uniqueness check, µs");
    println!("| {:<36} | {:>7} | {:>10} | {:>10} | {:>10} |", "puzzles", "puzzles", "median", "p99", "max");
    println!("|{:-<38}|{:->9}|{:->12}|{:->12}|{:->12}|", "", ":", ":", ":", ":");
    for &preset in Preset::ALL {
        let label = format!("9x9 {preset}, generated extreme");
        if !selected(&label) {
            continue;
        }
        let puzzles: Vec<Puzzle> = (0..PUZZLES_PER_VARIANT)
            .map(|seed| {
                let made = Puzzle::generate_variant(
                    Shape::CLASSIC,
                    Some(preset),
                    &Constraints::default(),
                    Level::Extreme,
                    Symmetry::None,
                    seed,
                    &mut Never,
                );
                let made = made.expect("Never interrupts").expect("a preset fits 9x9");
                made.to_puzzle().expect("its own constraints fit")
            })
            .collect();
        row(&label, &puzzles, passes);
    }
    let name = "mixed_ccby.jsonl";
    if selected(name) {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/variants").join(name);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
        let puzzles: Vec<Puzzle> = text
            .lines()
            .map(|line| {
                let line: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
                let constraints: Constraints =
                    serde_json::from_value(line["constraints"].clone()).expect("constraints");
                let board = AnyGrid::parse(line["board"].as_str().expect("a board"), None).expect("a 9x9 board");
                Puzzle::new(board, None, &constraints).expect("the set's constraints fit")
            })
            .collect();
        row(name, &puzzles, passes);
    }
    if selected("generate") {
        generation_table();
    }
}

/// Per variant and level: how many of the seeds gave a puzzle within the budget, and the median
/// and longest time of those that did, ms. At 9x9 every level; at the larger sizes the levels
/// [`Puzzle::variant_levels`] offers there, to check each stays within the one-second timeout.
fn generation_table() {
    println!();
    println!("generation per variant and level, seeds 0-{}, at most {GENERATE_BUDGET:?} each, ms", GENERATE_SEEDS - 1);
    println!(
        "| {:<7} | {:<16} | {:<8} | {:>5} | {:>9} | {:>9} |",
        "size", "variant", "level", "found", "median", "max"
    );
    println!("|{:-<9}|{:-<18}|{:-<10}|{:->7}|{:->11}|{:->11}|", "", "", "", ":", ":", ":");
    for size in [9, 10, 12, 15, 16, 20, 25] {
        let shape = Shape::default_for(size).expect("every size has a shape");
        for &preset in Preset::ALL {
            let levels = match size {
                9 => Level::ALL.to_vec(),
                _ => Puzzle::variant_levels(shape, Some(preset), &Constraints::default()),
            };
            for level in levels {
                generation_row(shape, preset, level);
            }
        }
    }
}

/// One row of [`generation_table`].
fn generation_row(shape: Shape, preset: Preset, level: Level) {
    let mut times = Vec::new();
    for seed in 0..GENERATE_SEEDS {
        let start = Instant::now();
        let mut deadline = Deadline(start + GENERATE_BUDGET);
        let made = Puzzle::generate_variant(
            shape,
            Some(preset),
            &Constraints::default(),
            level,
            Symmetry::None,
            seed,
            &mut deadline,
        );
        if let Ok(Ok(_)) = made {
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    times.sort_by(f64::total_cmp);
    let (median, max) = match times.as_slice() {
        [] => ("-".to_owned(), "-".to_owned()),
        found => (format!("{:.1}", found[found.len() / 2]), format!("{:.1}", found[found.len() - 1])),
    };
    let found = format!("{}/{GENERATE_SEEDS}", times.len());
    let size = format!("{0}x{0}", shape.size());
    println!(
        "| {size:<7} | {:<16} | {:<8} | {found:>5} | {median:>9} | {max:>9} |",
        preset.to_string(),
        level.to_string()
    );
}

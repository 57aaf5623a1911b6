//! Solve time per grid size, then generation time per size and level:
//! `cargo bench --bench sizes [-- [--passes N] [FILTER]]` (`generate` as the filter for the
//! generation table alone).
//!
//! For each size, the 50 puzzles of our generator in `tests/data/sizes/generated_NxN.txt` (seeds
//! 0-49, the size's default box): minimal puzzles up to 16x16, and for 20x20 and 25x25 puzzles
//! blanked down to 45 % and 51 % of the cells (generating minimal ones takes seconds to minutes
//! there, see docs/benchmarks.md); kept in files, since the generator's puzzles follow the
//! solver's first solutions and a change to the search would otherwise change the sample. Then
//! the public 25x25 sets of `tests/data/sizes`, and 20 puzzles of every level offered at 20x20 and
//! 25x25, made by the generator (seeds 0-19; a few seconds to make). Each puzzle is solved as `sudokud solve` does (first
//! solution plus the uniqueness check); its time is the median of its passes, and the table
//! gives the median, 99th percentile and maximum over the puzzles, since at these sizes a few
//! puzzles take far longer than the rest.

#[path = "support/args.rs"]
mod args;
#[path = "support/timing.rs"]
mod timing;

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use sudokud::generate::Symmetry;
use sudokud::logic::Level;
use sudokud::puzzle::Puzzle;
use sudokud::search::count_grid;
use sudokud::sizes::{Grid, SIZES, Shape};
use sudokud::solver::{Deadline, Never};

/// Seeds per size and level in the generation table.
const GENERATE_SEEDS: u64 = 5;

/// Seeds per offered level of 20x20 and 25x25 in the generation table: those levels come
/// nearest the service's one-second solve timeout, and every seed must be made within it.
const LARGEST_OFFERED_SEEDS: u64 = 100;

/// How long one generation may take before it counts as not found.
const GENERATE_BUDGET: Duration = Duration::from_secs(5);

const DEFAULT_PASSES: usize = 3;

/// Seeds per offered level of the largest sizes in the solve table: what `/v1/generate` hands
/// out, which the service must then solve, rate and hint within its deadline.
const OFFERED_SEEDS: u64 = 20;

/// The lines of `tests/data/sizes/<name>`.
fn read_data(name: &str) -> impl Iterator<Item = &'static str> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/sizes").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
    text.leak().lines()
}

fn row(label: &str, puzzles: &[Grid], passes: usize) {
    let solve = |puzzle: &Grid| {
        black_box(count_grid(black_box(puzzle), 2, &mut Never).expect("Never interrupts"));
    };
    let (median, p99, max) = timing::spread(timing::median_times(puzzles, passes, solve));
    let n = puzzles.len();
    let givens = puzzles.iter().map(Grid::givens).sum::<usize>() as f64 / n as f64;
    println!("| {label:<40} | {n:>7} | {givens:>6.0} | {median:>10.1} | {p99:>10.1} | {max:>10.1} |");
}

fn main() {
    let args = args::Args::from_env(DEFAULT_PASSES);
    let (passes, selected) = (args.passes, |name: &str| args.selected(name));

    println!("median of {passes} passes per puzzle, first solution plus uniqueness check, µs");
    println!(
        "| {:<40} | {:>7} | {:>6} | {:>10} | {:>10} | {:>10} |",
        "puzzles", "puzzles", "givens", "median", "p99", "max"
    );
    println!("|{:-<42}|{:->9}|{:->8}|{:->12}|{:->12}|{:->12}|", "", ":", ":", ":", ":", ":");
    for size in SIZES {
        let shape = Shape::default_for(size).expect("every size has a shape");
        let label = format!("{size}x{size} ({shape} boxes), generated");
        if !selected(&label) {
            continue;
        }
        let puzzles: Vec<Grid> = read_data(&format!("generated_{size}x{size}.txt"))
            .map(|line| Grid::parse(line, None).expect("a puzzle"))
            .collect();
        row(&label, &puzzles, passes);
    }
    for name in ["25x25_sudoku_smt_solvers.tsv", "25x25_gecode.tsv"] {
        if !selected(name) {
            continue;
        }
        let puzzles: Vec<Grid> = read_data(name)
            .map(|line| Grid::parse(line.split('\t').next().unwrap_or_default(), None).expect("a 25x25 puzzle"))
            .collect();
        row(name, &puzzles, passes);
    }
    for size in [20, 25] {
        let shape = Shape::default_for(size).expect("every size has a shape");
        for &level in Puzzle::levels(shape) {
            let label = format!("{size}x{size} {level}, seeds 0-{}", OFFERED_SEEDS - 1);
            if !selected(&label) {
                continue;
            }
            let puzzles: Vec<Grid> = (0..OFFERED_SEEDS)
                .map(|seed| {
                    Grid::from(Puzzle::generate(shape, level, Symmetry::None, seed, &mut Never).expect("made").puzzle)
                })
                .collect();
            row(&label, &puzzles, passes);
        }
    }
    if selected("generate") {
        generation_table();
    }
}

/// Per size (its default box) and level: how many of the seeds gave a puzzle within the budget,
/// and the median and longest time of those that did, ms.
fn generation_table() {
    println!();
    println!(
        "generation per size and level, seeds 0-{} (0-{} for the levels 20x20 and 25x25 offer), at most {GENERATE_BUDGET:?} each, ms",
        GENERATE_SEEDS - 1,
        LARGEST_OFFERED_SEEDS - 1
    );
    println!("| {:<7} | {:<8} | {:>5} | {:>9} | {:>9} | {:>6} |", "size", "level", "found", "median", "max", "givens");
    println!("|{:-<9}|{:-<10}|{:->7}|{:->11}|{:->11}|{:->8}|", "", "", ":", ":", ":", ":");
    for size in SIZES {
        let shape = Shape::default_for(size).expect("every size has a shape");
        for level in Level::ALL {
            let mut times = Vec::new();
            let mut givens = Vec::new();
            let largest_offered = size >= 20 && Puzzle::levels(shape).contains(&level);
            let seeds = if largest_offered { LARGEST_OFFERED_SEEDS } else { GENERATE_SEEDS };
            for seed in 0..seeds {
                let start = Instant::now();
                let mut deadline = Deadline(start + GENERATE_BUDGET);
                if let Ok(generated) = Puzzle::generate(shape, level, Symmetry::None, seed, &mut deadline) {
                    times.push(start.elapsed().as_secs_f64() * 1e3);
                    givens.push(Grid::from(generated.puzzle).givens());
                }
            }
            times.sort_by(f64::total_cmp);
            givens.sort_unstable();
            let (median, max) = match times.as_slice() {
                [] => ("-".to_owned(), "-".to_owned()),
                found => (format!("{:.1}", found[found.len() / 2]), format!("{:.1}", found[found.len() - 1])),
            };
            let givens = givens.get(givens.len() / 2).map_or("-".to_owned(), usize::to_string);
            println!(
                "| {:<7} | {:<8} | {:>5} | {:>9} | {:>9} | {:>6} |",
                format!("{size}x{size}"),
                level.to_string(),
                format!("{}/{seeds}", times.len()),
                median,
                max,
                givens
            );
        }
    }
}

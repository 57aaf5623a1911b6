//! Generation time per level: `cargo bench --bench generate [-- --puzzles N]`.
//!
//! Generates N puzzles per level (seeds 0..N, no symmetry, then rotational) and prints the median,
//! 90th percentile and maximum time per puzzle, the mean number of solved grids tried, and the
//! mean number of givens. Times are of the library call alone, as the HTTP handler makes it.

use std::time::Instant;

use sudokud::generate::{Symmetry, generate};
use sudokud::logic::Level;
use sudokud::solver::Never;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut puzzles = 50;
    while let Some(arg) = args.next() {
        if arg == "--puzzles" {
            puzzles = args.next().and_then(|n| n.parse().ok()).expect("--puzzles N");
        }
    }
    println!("{puzzles} puzzles per level and symmetry; ms per puzzle");
    println!(
        "{:<10} {:<11} {:>8} {:>8} {:>8} {:>9} {:>7}",
        "level", "symmetry", "median", "p90", "max", "attempts", "givens"
    );
    for symmetry in [Symmetry::None, Symmetry::Rotational] {
        for level in Level::ALL {
            let mut times = Vec::with_capacity(puzzles);
            let (mut attempts, mut givens) = (0u64, 0usize);
            for seed in 0..puzzles as u64 {
                let start = Instant::now();
                let generated = generate(level, symmetry, seed, &mut Never).expect("Never interrupts");
                times.push(start.elapsed().as_secs_f64() * 1e3);
                attempts += u64::from(generated.attempts);
                givens += generated.puzzle.givens();
            }
            times.sort_by(f64::total_cmp);
            let at = |fraction: f64| times[((times.len() - 1) as f64 * fraction).round() as usize];
            println!(
                "{:<10} {:<11} {:>8.2} {:>8.2} {:>8.2} {:>9.1} {:>7.1}",
                level,
                symmetry,
                at(0.5),
                at(0.9),
                at(1.0),
                attempts as f64 / puzzles as f64,
                givens as f64 / puzzles as f64
            );
        }
    }
}

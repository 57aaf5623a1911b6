//! Generation time per level: `cargo bench --bench generate [-- --puzzles N] [--orders]`.
//!
//! Generates N puzzles per level (seeds 0..N, no symmetry, then rotational) and prints the median,
//! 90th percentile and maximum time per puzzle, the mean number of solved grids tried, and the
//! mean number of givens. Times are of the library call alone, as the HTTP handler makes it.
//!
//! With `--orders`, puzzles made to order instead: for each order of a fixed table, N seeds, each
//! with the service's default solve timeout (1 s), and prints how many were met in time, the
//! median and 90th percentile time of those met, and the mean puzzles made per order met.

use std::time::{Duration, Instant};

use sudokud::generate::Symmetry;
use sudokud::logic::{Level, Technique};
use sudokud::order::Order;
use sudokud::puzzle::Puzzle;
use sudokud::sizes::{Grid, Shape};
use sudokud::solver::{Deadline, Never};
use sudokud::variants::{Constraints, Preset};

/// The default `--solve-timeout-ms`, the time an order gets over HTTP.
const SOLVE_TIMEOUT: Duration = Duration::from_millis(1000);

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut puzzles, mut orders) = (50, false);
    while let Some(arg) = args.next() {
        if arg == "--puzzles" {
            puzzles = args.next().and_then(|n| n.parse().ok()).expect("--puzzles N");
        }
        orders |= arg == "--orders";
    }
    if orders {
        return made_to_order(puzzles as u64);
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
                let generated =
                    Puzzle::generate(Shape::CLASSIC, level, symmetry, seed, &mut Never).expect("Never interrupts");
                times.push(start.elapsed().as_secs_f64() * 1e3);
                attempts += u64::from(generated.attempts);
                givens += Grid::from(generated.puzzle).givens();
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

/// Success rates and times of puzzles made to order, classic and of variants.
fn made_to_order(seeds: u64) {
    let variant = |preset: Preset| Some((Some(preset), Constraints::default()));
    let order = |level: Level,
                 rating: Option<(f32, f32)>,
                 require: &[Technique],
                 exclude: &[Technique],
                 givens: (usize, usize)| Order {
        shape: Shape::CLASSIC,
        symmetry: Symmetry::None,
        level,
        rating: rating.unwrap_or(level.range()),
        require: require.to_vec(),
        exclude: exclude.to_vec(),
        givens,
        variant: None,
    };
    let table = [
        ("hard, x-wing", order(Level::Hard, None, &[Technique::XWing], &[], (0, 81))),
        ("hard, xy-wing", order(Level::Hard, None, &[Technique::XYWing], &[], (0, 81))),
        ("hard, rated 4.4-4.6", order(Level::Hard, Some((4.4, 4.6)), &[], &[], (0, 81))),
        ("hard, at most 22 givens", order(Level::Hard, None, &[], &[], (0, 22))),
        ("medium, no pointing", order(Level::Medium, None, &[], &[Technique::Pointing], (0, 81))),
        ("easy, at least 34 givens", order(Level::Easy, None, &[], &[], (34, 81))),
        ("medium, 30-32 givens", order(Level::Medium, None, &[], &[], (30, 32))),
        ("expert, rated 6.0-6.6", order(Level::Expert, Some((6.0, 6.6)), &[], &[], (0, 81))),
        ("expert, wxyz-wing", order(Level::Expert, None, &[Technique::WxyzWing], &[], (0, 81))),
        ("extreme, forcing-chain", order(Level::Extreme, None, &[Technique::ForcingChain], &[], (0, 81))),
        (
            "X, medium, 30-34 givens",
            Order { variant: variant(Preset::X), ..order(Level::Medium, None, &[], &[], (30, 34)) },
        ),
        (
            "killer, hard, x-wing",
            Order { variant: variant(Preset::Killer), ..order(Level::Hard, None, &[Technique::XWing], &[], (0, 81)) },
        ),
        (
            "killer, medium, at most 20 givens",
            Order { variant: variant(Preset::Killer), ..order(Level::Medium, None, &[], &[], (0, 20)) },
        ),
        (
            "jigsaw, easy, at most 30 givens",
            Order { variant: variant(Preset::Jigsaw), ..order(Level::Easy, None, &[], &[], (0, 30)) },
        ),
    ];
    println!("{seeds} seeds per order, {} ms each; ms per order met", SOLVE_TIMEOUT.as_millis());
    println!("{:<32} {:>6} {:>8} {:>8} {:>9}", "order", "met", "median", "p90", "attempts");
    for (name, order) in table {
        order.check().expect("the table's orders can be met");
        let (mut times, mut attempts) = (Vec::new(), 0u64);
        for seed in 0..seeds {
            let start = Instant::now();
            if let Ok(made) = order.make(seed, &mut Deadline(start + SOLVE_TIMEOUT)) {
                times.push(start.elapsed().as_secs_f64() * 1e3);
                attempts += u64::from(made.attempts);
            }
        }
        times.sort_by(f64::total_cmp);
        let at = |fraction: f64| times.get(((times.len().max(1) - 1) as f64 * fraction).round() as usize).copied();
        let shown = |value: Option<f64>| value.map_or("-".to_owned(), |ms| format!("{ms:.1}"));
        println!(
            "{:<32} {:>6} {:>8} {:>8} {:>9.1}",
            name,
            format!("{}/{seeds}", times.len()),
            shown(at(0.5)),
            shown(at(0.9)),
            attempts as f64 / times.len().max(1) as f64
        );
    }
}

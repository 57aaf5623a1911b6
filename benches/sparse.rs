//! The solver's heavy tail on sparse grids:
//! `cargo bench --bench sparse [-- [--grids N] [--seed S] | --file FILE]`.
//!
//! Real collections solve in microseconds, but any depth-first solver meets grids where an early
//! guess opens a large subtree with no solution that takes long to refute. They live among
//! artificial sparse grids, so this bench makes N of them (default 100,000): 12 to 24 givens
//! drawn from a random five to nine digits, each placed where it conflicts with nothing, most
//! with no solution or many. It solves each as `/v1/solve` does (first solution plus the
//! uniqueness check) and prints the time distribution and the slowest grids, which can be fed to
//! other solvers to compare. Grids depend only on the seed; `--file` times the grids of a file
//! (one 81-character board a line) instead.

use std::time::Instant;

use sudokud::board::Board;
use sudokud::random::SplitMix64;
use sudokud::solver::{self, Outcome};

/// Found by `cargo fuzz run solver`: 70 ms here, under 1 ms for the `sudoku` crate, whose guess
/// order happens to avoid the dead subtree our first guess opens.
const FUZZ_FINDING: &str = "....7....6..195.............86............7...7.............28....419..........7.";

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut grids, mut seed, mut file) = (100_000, 1, None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--grids" => grids = args.next().and_then(|n| n.parse().ok()).expect("--grids N"),
            "--seed" => seed = args.next().and_then(|n| n.parse().ok()).expect("--seed S"),
            "--file" => file = Some(args.next().expect("--file FILE")),
            _ => {}
        }
    }
    let (boards, source): (Vec<Board>, String) = match file {
        Some(path) => {
            let text = std::fs::read_to_string(&path).expect("a readable file");
            (text.lines().filter_map(|line| line.trim().parse().ok()).collect(), path)
        }
        None => {
            let mut random = SplitMix64(seed);
            ((0..grids).map(|_| sparse_grid(&mut random)).collect(), format!("sparse grids (seed {seed})"))
        }
    };
    let mut timed: Vec<(f64, Board)> = Vec::with_capacity(boards.len());
    let (mut unique, mut multiple, mut unsolvable) = (0, 0, 0);
    for board in boards {
        let start = Instant::now();
        let outcome = solver::solve(&board);
        timed.push((start.elapsed().as_secs_f64() * 1e6, board));
        match outcome {
            Outcome::Unique(_) => unique += 1,
            Outcome::Multiple(_) => multiple += 1,
            Outcome::Unsolvable => unsolvable += 1,
        }
    }
    timed.sort_by(|a, b| a.0.total_cmp(&b.0));
    let at = |fraction: f64| timed[((timed.len() - 1) as f64 * fraction).round() as usize].0;
    println!("{} {source}: {unsolvable} unsolvable, {multiple} multiple, {unique} unique", timed.len());
    println!(
        "µs per grid: mean {:.1}, median {:.1}, p99 {:.1}, p99.9 {:.1}, p99.99 {:.1}, max {:.1}",
        timed.iter().map(|(micros, _)| micros).sum::<f64>() / timed.len() as f64,
        at(0.5),
        at(0.99),
        at(0.999),
        at(0.9999),
        at(1.0)
    );
    println!("slowest:");
    for (micros, board) in timed.iter().rev().take(5) {
        println!("{micros:>12.1} µs  {board}");
    }
    let finding: Board = FUZZ_FINDING.parse().expect("a valid board");
    let start = Instant::now();
    solver::solve(&finding);
    println!("fuzzing's finding: {:.1} µs  {FUZZ_FINDING}", start.elapsed().as_secs_f64() * 1e6);
}

/// 12 to 24 givens from a random five to nine digits, each where it conflicts with no earlier
/// one (so the grid is never rejected for repeated givens, and whether it has a solution is up
/// to the search).
fn sparse_grid(random: &mut SplitMix64) -> Board {
    let givens = 12 + random.below(13);
    let digit_count = 5 + random.below(5);
    let mut cells = [b'.'; 81];
    let mut placed = 0;
    // Bounded, because a few digits can run out of conflict-free places.
    for _ in 0..2000 {
        if placed == givens {
            break;
        }
        let cell = random.below(81);
        let digit = b'1' + random.below(digit_count) as u8;
        if cells[cell] == b'.' && !conflicts(&cells, cell, digit) {
            cells[cell] = digit;
            placed += 1;
        }
    }
    std::str::from_utf8(&cells).expect("ASCII").parse().expect("a valid board")
}

fn conflicts(cells: &[u8; 81], cell: usize, digit: u8) -> bool {
    let (row, column) = (cell / 9, cell % 9);
    (0..81).any(|other| {
        let (other_row, other_column) = (other / 9, other % 9);
        let peer =
            other_row == row || other_column == column || (other_row / 3 == row / 3 && other_column / 3 == column / 3);
        peer && cells[other] == digit
    })
}

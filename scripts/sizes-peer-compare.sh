#!/usr/bin/env bash
# Grid sizes beside the nearest peer that solves them: the library of the bare axum service of
# ../shared/bench/http-compare.sh (RumenDamyanov/rust-sudoku, MIT, plain backtracking that stops
# at its first solution). The peer is a yardstick, never a dependency: this script writes a side
# program into a scratch directory that links both libraries, and runs it there.
#
# Usage: scripts/sizes-peer-compare.sh [PEER_DIR] [PUZZLES]
#   PEER_DIR  the peer's crate (default: ../shared/bench/peer-service beside the repository)
#   PUZZLES   puzzles per size (default 50, at most 50): the first of our generator's minimal
#             puzzles in tests/data/sizes/generated_NxN.txt, as `cargo bench --bench sizes` reads
#
# Per size (its default box), both solve the same puzzles in one process, ours first solution plus
# the uniqueness check, each puzzle timed alone (all of ours, then all of the peer's); the median, p99 and maximum in µs, and the ratio
# of the medians. Sizes from 12x12 up are left out: the peer takes minutes per puzzle there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peer=$(cd "${1:-$root/../shared/bench/peer-service}" && pwd)
puzzles=${2:-50}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cat >"$work/Cargo.toml" <<TOML
[package]
name = "sizes-peer-compare"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
sudokud-core = { path = "$root/crates/sudokud-core" }
peer = { package = "rumenx-sudoku", path = "$peer" }
[profile.release]
debug = false
TOML
cat >"$work/src/main.rs" <<'RUST'
use std::time::Instant;

use sudokud_core::interrupt::Never;
use sudokud_core::search::count_grid;
use sudokud_core::sizes::{Grid, Shape};

/// Median, 99th percentile and maximum of `times`, µs.
fn stats(mut times: Vec<f64>) -> (f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    let n = times.len();
    (times[n / 2], times[(n * 99 / 100).min(n - 1)], times[n - 1])
}

fn main() {
    let count: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(50);
    let data = std::path::PathBuf::from(std::env::args().nth(2).expect("the data directory"));
    println!("| size | givens | ours median / p99 / max | peer median / p99 / max | peer / ours |");
    println!("|---|--:|--:|--:|--:|");
    for size in [4, 6, 8, 9, 10] {
        let shape = Shape::default_for(size).expect("a size");
        let path = data.join(format!("generated_{size}x{size}.txt"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("reading {}: {error}", path.display()));
        let puzzles: Vec<Grid> =
            text.lines().take(count).map(|line| Grid::parse(line, Some(shape)).expect("a puzzle")).collect();
        // Each side solves every puzzle in turn, so neither runs on caches the other left.
        let mut ours = Vec::new();
        let mut answers = Vec::new();
        for puzzle in &puzzles {
            let start = Instant::now();
            let answer = count_grid(puzzle, 2, &mut Never).expect("Never interrupts");
            ours.push(start.elapsed().as_secs_f64() * 1e6);
            assert_eq!(answer.solutions, 1, "{puzzle}");
            answers.push(answer.first.expect("a solution"));
        }
        let mut theirs = Vec::new();
        for (puzzle, answer) in puzzles.iter().zip(&answers) {
            let start = Instant::now();
            let mut grid = peer::Grid::new(size, shape.box_rows(), shape.box_cols()).expect("a peer grid");
            for row in 0..size {
                for col in 0..size {
                    grid.cells[row][col] = puzzle.get(row, col);
                }
            }
            let solved = grid.solve().expect("the peer finds a solution");
            theirs.push(start.elapsed().as_secs_f64() * 1e6);
            let solved: Vec<u8> = solved.cells.iter().flatten().copied().collect();
            assert_eq!(answer.cells(), &solved[..], "the two disagree on {puzzle}");
        }
        let givens = puzzles.iter().map(Grid::givens).sum::<usize>() / puzzles.len();
        let ((om, op, ox), (tm, tp, tx)) = (stats(ours), stats(theirs));
        println!("| {size}x{size} | {givens} | {om:.2} / {op:.2} / {ox:.2} | {tm:.2} / {tp:.2} / {tx:.2} | {:.1}x |", tm / om);
    }
}
RUST
cargo build --quiet --release --manifest-path "$work/Cargo.toml" --target-dir "${CARGO_TARGET_DIR:-$work/target}"
"${CARGO_TARGET_DIR:-$work/target}/release/sizes-peer-compare" "$puzzles" "$root/tests/data/sizes"

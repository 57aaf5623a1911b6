#!/usr/bin/env bash
# Variant puzzles beside the Interactive Sudoku Solver (ISS, MIT, ../shared/bench/iss, run under
# node): the yardstick for variant search. ISS is never a dependency: its own timing script
# (time.mjs, parse + build + search for two solutions, after a warm-up) times it, and a side
# program written into a scratch directory times sudokud's core the same way: each puzzle read
# from its shared form and solved with the uniqueness check (`Puzzle::classify`), in one process,
# after a warm-up pass over the whole set.
#
# Usage: scripts/iss-compare.sh [ISS_DIR]
#   ISS_DIR  ISS's copy with time.mjs (default: ../shared/bench/iss beside the repository)
#
# Sets: ISS's example puzzles whose rules sudokud has (tests/data/variants/iss_examples.jsonl)
# and the hard killers without givens (tests/data/variants/hard_killers.txt). Per set: puzzles,
# each side's median and maximum in ms, the median of the per-puzzle ratio ISS / sudokud, and
# how many puzzles sudokud solved in at most ISS's time (issue 53's target is all of them); on
# stderr, each puzzle's number in its set (from 1) and both times. Both sides must find the same
# unique solution. Needs node 18 or later and cargo.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
iss=$(cd "${1:-$root/../shared/bench/iss}" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cat >"$work/Cargo.toml" <<TOML
[package]
name = "iss-compare"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
sudokud-core = { path = "$root/crates/sudokud-core" }
serde_json = "1"
[profile.release]
debug = false
TOML
cat >"$work/src/main.rs" <<'RUST'
//! Times sudokud on each puzzle of a set and writes the set as ISS reads it.
//! Usage: iss-compare SET OUT.jsonl, SET a `.txt` of shared puzzles or a `.jsonl` with `input`.
use std::io::Write;
use std::time::Instant;

use sudokud_core::exchange::{self, SharedFormat};
use sudokud_core::interrupt::Never;
use sudokud_core::puzzle::Puzzle;
use sudokud_core::solver::Verdict;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("the set");
    let inputs: Vec<String> = if args[1].ends_with(".jsonl") {
        let lines = text.lines().map(|line| serde_json::from_str::<serde_json::Value>(line).expect("a JSON line"));
        lines.map(|line| line["input"].as_str().expect("an input").to_owned()).collect()
    } else {
        text.lines().filter(|line| !line.is_empty() && !line.starts_with('#')).map(str::to_owned).collect()
    };
    // The puzzles sudokud can read, each with the string ISS reads.
    let puzzles: Vec<(usize, Puzzle, String)> = inputs
        .iter()
        .enumerate()
        .filter_map(|(number, input)| {
            let puzzle = Puzzle::from_shared(exchange::read(input).ok()?).ok()?;
            let iss = exchange::write(&puzzle.to_shared(), SharedFormat::Iss).ok()?.text;
            Some((number, puzzle, iss))
        })
        .collect();
    let solve = |puzzle: &Puzzle| match puzzle.classify(&mut Never).expect("Never interrupts") {
        Verdict::Unique(solution) => solution.to_string(),
        _ => panic!("not unique: {}", puzzle.grid()),
    };
    puzzles.iter().for_each(|(_, puzzle, _)| drop(solve(puzzle)));
    let mut out = std::fs::File::create(&args[2]).expect("the ISS set");
    for (number, puzzle, iss) in &puzzles {
        let start = Instant::now();
        let solution = solve(puzzle);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        println!("p{number}\t{ms:.3}\t{solution}");
        writeln!(out, "{}", serde_json::json!({ "name": format!("p{number}"), "input": iss })).unwrap();
    }
}
RUST
cargo build --quiet --release --manifest-path "$work/Cargo.toml" --target-dir "${CARGO_TARGET_DIR:-$work/target}"
program="${CARGO_TARGET_DIR:-$work/target}/release/iss-compare"
echo "| set | puzzles | sudokud median / max ms | ISS median / max ms | ISS / sudokud, median per puzzle | at most ISS's time |"
echo "|---|--:|--:|--:|--:|--:|"
for set in iss_examples.jsonl hard_killers.txt; do
    "$program" "$root/tests/data/variants/$set" "$work/$set.iss.jsonl" >"$work/ours.tsv"
    node "$iss/time.mjs" "$work/$set.iss.jsonl" | grep -v '^puzzles ' >"$work/theirs.tsv"
    python3 - "$set" "$work/ours.tsv" "$work/theirs.tsv" <<'PY'
import statistics, sys
name, ours_path, theirs_path = sys.argv[1:]
ours = {line.split('\t')[0]: line.rstrip('\n').split('\t') for line in open(ours_path)}
theirs = {line.split('\t')[0]: line.rstrip('\n').split('\t') for line in open(theirs_path)}
for key, (_, _, solution) in ours.items():
    _, ms, found, first = theirs[key]
    # time.mjs writes the solutions of 9x9 and smaller grids only in our symbols.
    same = first == solution or len(solution) > 81
    assert found == '1' and same, f'{name} {key}: ISS found {found}, {first} against {solution}'
ours_ms = [float(ours[key][1]) for key in ours]
theirs_ms = [float(theirs[key][1]) for key in ours]
ratios = [float(theirs[key][1]) / max(float(ours[key][1]), 1e-3) for key in ours]
for key, ours_one, theirs_one in zip(ours, ours_ms, theirs_ms):
    print(f'{name} puzzle {int(key[1:]) + 1}: sudokud {ours_one:.2f} ms, ISS {theirs_one:.2f} ms', file=sys.stderr)
within = sum(ours_one <= theirs_one for ours_one, theirs_one in zip(ours_ms, theirs_ms))
print(f'| {name} | {len(ours)} | {statistics.median(ours_ms):.2f} / {max(ours_ms):.1f} '
      f'| {statistics.median(theirs_ms):.2f} / {max(theirs_ms):.1f} | {statistics.median(ratios):.0f}x '
      f'| {within} of {len(ours)} |')
PY
done

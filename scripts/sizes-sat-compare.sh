#!/usr/bin/env bash
# Large grids beside a SAT solver: each puzzle solved by our search (first solution plus the
# uniqueness check, in one process, as `sudokud solve` does) and by CaDiCaL (Debian's `cadical`
# package) on the extended CNF encoding of Lynce and Ouaknine (every cell one value at least and
# at most, every row, column and box each value at least and at most once, the givens as unit
# clauses), timed from the CNF's parse to its first model. Both answers are checked against the
# published solution. CaDiCaL is a yardstick, never a dependency.
#
# Usage: scripts/sizes-sat-compare.sh [TSV...]
#   TSV  `puzzle<TAB>solution` files (default: the public 16x16 and 25x25 sets of
#        ../shared/puzzles/sizes beside the repository)
# Environment: BUDGET_S, the longest either side may take on one puzzle (default 60); a side out
# of time counts as the budget, marked with `>`.
#
# Prints one line per puzzle and a table per file: medians, the slowest, and how many puzzles our
# time is at most 0.5x CaDiCaL's on (the target of issue 51).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
budget=${BUDGET_S:-60}
if [ $# -eq 0 ]; then
    shared=$root/../shared/puzzles/sizes
    set -- "$shared/16x16_sudoq.tsv" "$shared/25x25_sudoku_smt_solvers.tsv" "$shared/25x25_gecode.tsv"
fi
command -v cadical >/dev/null || { apt-get update -qq && apt-get install -y -qq cadical >/dev/null; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src"
cat >"$work/Cargo.toml" <<TOML
[package]
name = "sizes-sat-compare"
version = "0.0.0"
edition = "2024"
publish = false
[dependencies]
sudokud-core = { path = "$root/crates/sudokud-core" }
[workspace]
TOML
cat >"$work/src/main.rs" <<'RUST'
//! Times our search on each `puzzle<TAB>solution` line of the files named: one line out per
//! puzzle, `<file>\t<index>\t<ms>` (`inf` when out of the budget), the median of three passes
//! for a puzzle solved within 50 ms.
use std::time::{Duration, Instant};

use sudokud_core::interrupt::Deadline;
use sudokud_core::search::count_grid;
use sudokud_core::sizes::Grid;

fn main() {
    let mut args = std::env::args().skip(1);
    let budget = Duration::from_secs_f64(args.next().and_then(|s| s.parse().ok()).expect("a budget in seconds"));
    for file in args {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|error| panic!("reading {file}: {error}"));
        for (index, line) in text.lines().filter(|line| !line.trim().is_empty()).enumerate() {
            let (puzzle, published) = line.split_once('\t').expect("puzzle<TAB>solution");
            let puzzle = Grid::parse(puzzle, None).expect("a puzzle");
            let mut times = Vec::new();
            while times.len() < 3 {
                let start = Instant::now();
                let count = count_grid(&puzzle, 2, &mut Deadline(start + budget));
                let elapsed = start.elapsed().as_secs_f64() * 1e3;
                let Ok(count) = count else {
                    times = vec![f64::INFINITY];
                    break;
                };
                assert_eq!(count.solutions, 1, "{file} #{index}: one solution");
                let solution = count.first.expect("a solution").to_string();
                assert!(solution.eq_ignore_ascii_case(published.trim()), "{file} #{index}: the published solution");
                times.push(elapsed);
                if elapsed > 50.0 {
                    break;
                }
            }
            times.sort_by(f64::total_cmp);
            println!("{file}\t{index}\t{}", times[times.len() / 2]);
        }
    }
}
RUST
cargo build --quiet --release --manifest-path "$work/Cargo.toml" --target-dir "${CARGO_TARGET_DIR:-$work/target}"
"${CARGO_TARGET_DIR:-$work/target}/release/sizes-sat-compare" "$budget" "$@" >"$work/ours.tsv"

python3 - "$work" "$budget" "$@" <<'PY'
import itertools, math, os, statistics, subprocess, sys, time

work, budget, files = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
SYMBOLS = "123456789ABCDEFGHIJKLMNOP"
ours = {}
for line in open(os.path.join(work, "ours.tsv")):
    file, index, ms = line.rstrip("\n").split("\t")
    ours[(file, int(index))] = float(ms)

def box_of(n):
    side = math.isqrt(n)
    return side, side  # the public sets are square-boxed

def cnf(puzzle, n):
    rows, cols = box_of(n)
    var = lambda r, c, v: (r * n + c) * n + v + 1
    clauses = []
    houses = [[(r, c) for c in range(n)] for r in range(n)]
    houses += [[(r, c) for r in range(n)] for c in range(n)]
    houses += [[(top + r, left + c) for r in range(rows) for c in range(cols)]
               for top in range(0, n, rows) for left in range(0, n, cols)]
    for r in range(n):
        for c in range(n):
            clauses.append([var(r, c, v) for v in range(n)])
            clauses += [[-var(r, c, a), -var(r, c, b)] for a, b in itertools.combinations(range(n), 2)]
    for house in houses:
        for v in range(n):
            clauses.append([var(r, c, v) for r, c in house])
            clauses += [[-var(*a, v), -var(*b, v)] for a, b in itertools.combinations(house, 2)]
    for i, ch in enumerate(puzzle):
        if ch not in ".0":
            clauses.append([var(i // n, i % n, SYMBOLS.index(ch.upper()))])
    return f"p cnf {n ** 3} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)

def cadical(puzzle, solution, n):
    path = os.path.join(work, "puzzle.cnf")
    with open(path, "w") as out:
        out.write(cnf(puzzle, n))
    start = time.perf_counter()
    try:
        run = subprocess.run(["cadical", "-q", path], capture_output=True, text=True, timeout=budget)
    except subprocess.TimeoutExpired:
        return math.inf
    elapsed = (time.perf_counter() - start) * 1e3
    assert run.returncode == 10, f"cadical: exit {run.returncode}"
    true = {int(x) for line in run.stdout.splitlines() if line.startswith("v") for x in line[1:].split() if int(x) > 0}
    got = "".join(SYMBOLS[next(v for v in range(n) if (i * n + v + 1) in true)] for i in range(n * n))
    assert got == solution.upper(), "cadical's model is not the published solution"
    return elapsed

show = lambda ms: f">{budget * 1e3:.0f}" if math.isinf(ms) else f"{ms:.1f}"
print("| set | puzzles | ours median ms | ours slowest | CaDiCaL median ms | CaDiCaL slowest | ours / CaDiCaL median | worst ratio | at most 0.5x |")
print("|---|--:|--:|--:|--:|--:|--:|--:|--:|")
for file in files:
    lines = [l for l in open(file) if l.strip()]
    rows = []
    for index, line in enumerate(lines):
        puzzle, solution = line.rstrip("\n").split("\t")
        n = math.isqrt(len(puzzle))
        theirs = cadical(puzzle, solution.strip(), n)
        mine = ours[(file, index)]
        ratio = min(mine, budget * 1e3) / min(theirs, budget * 1e3)
        rows.append((mine, theirs, ratio))
        print(f"# {os.path.basename(file)} #{index}: ours {show(mine)} ms, cadical {show(theirs)} ms, ratio {ratio:.3f}", file=sys.stderr)
    mine, theirs, ratios = zip(*rows)
    print(f"| {os.path.basename(file)} | {len(rows)} | {show(statistics.median(mine))} | {show(max(mine))} | "
          f"{show(statistics.median(theirs))} | {show(max(theirs))} | {statistics.median(ratios):.3f} | "
          f"{max(ratios):.3f} | {sum(r <= 0.5 for r in ratios)} of {len(rows)} |")
PY

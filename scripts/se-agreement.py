#!/usr/bin/env python3
"""How our ratings agree with Sudoku Explainer's, on a file of SE-rated 9x9 puzzles.

usage: python3 scripts/se-agreement.py RATED_FILE [SUDOKUD_BINARY]

RATED_FILE has one puzzle per line, its 81 characters, then a tab (or spaces) and SE's rating;
lines whose rating is not a number (a header) are skipped. The puzzles are rated by
`sudokud rate --threads 1` (the release binary by default) and compared with SE: Spearman's rank
correlation, the share within 0.2 and within 1.0 of SE's rating, the mean difference (ours minus
SE's), how many we rate 10.0 or more (dynamic forcing chains nesting multiple or dynamic ones,
or a guess) and how many needed a guess (brute force), per band of SE's rating and over SE 2.0-9.9 and
4.0-9.9 (the bands issue 16 sets targets for), and our time per puzzle.
"""

import subprocess
import sys
import time
from pathlib import Path

BANDS = [(1.0, 2.0), (2.0, 3.0), (3.0, 4.0), (4.0, 5.0), (5.0, 6.0), (6.0, 7.0), (7.0, 8.0), (8.0, 9.0),
         (9.0, 10.0), (10.0, 13.0)]


def read_rated(path):
    """(puzzle, SE rating) for each line whose second field is a number."""
    rated = []
    for line in Path(path).read_text().splitlines():
        fields = line.split()
        if len(fields) < 2:
            continue
        try:
            rated.append((fields[0], float(fields[1])))
        except ValueError:
            continue
    return rated


def rate(binary, puzzles):
    """Our rating of each puzzle and whether it needed a guess (None for an error line), and the
    seconds it took."""
    started = time.perf_counter()
    done = subprocess.run([binary, "rate", "--threads", "1"], input="\n".join(puzzles) + "\n",
                          capture_output=True, text=True, check=True)
    elapsed = time.perf_counter() - started
    ours = []
    for line in done.stdout.splitlines():
        fields = line.split("\t")
        ours.append(None if fields[0] == "error" else (float(fields[0]), fields[2] == "search"))
    if len(ours) != len(puzzles):
        sys.exit(f"expected {len(puzzles)} answers, got {len(ours)}")
    return ours, elapsed


def ranks(values):
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda at: values[at])
    result = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for at in order[start:end + 1]:
            result[at] = (start + end) / 2 + 1
        start = end + 1
    return result


def spearman(xs, ys):
    if len(xs) < 2:
        return float("nan")
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx) ** 0.5
    vy = sum((b - my) ** 2 for b in ry) ** 0.5
    return cov / (vx * vy) if vx and vy else float("nan")


def summary(label, pairs):
    if not pairs:
        return
    se = [s for s, _ in pairs]
    us = [u for _, (u, _) in pairs]
    guessed = sum(g for _, (_, g) in pairs)
    pairs = [(s, u) for s, (u, _) in pairs]
    n = len(pairs)
    near = sum(abs(u - s) <= 0.2 + 1e-9 for s, u in pairs) / n
    within = sum(abs(u - s) <= 1.0 + 1e-9 for s, u in pairs) / n
    bias = sum(u - s for s, u in pairs) / n
    brute = sum(u >= 10.0 for u in us)
    print(f"| {label:<11} | {n:>6} | {spearman(se, us):>8.3f} | {100 * near:>6.1f} % | {100 * within:>6.1f} % "
          f"| {bias:>+6.2f} | {brute:>6} | {guessed:>7} |")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = Path(__file__).resolve().parent.parent
    binary = sys.argv[2] if len(sys.argv) > 2 else str(root / "target/release/sudokud")
    rated = read_rated(sys.argv[1])
    ours, elapsed = rate(binary, [puzzle for puzzle, _ in rated])
    pairs = [(se, us) for (_, se), us in zip(rated, ours) if us is not None]
    errors = len(rated) - len(pairs)
    print(f"{len(rated)} puzzles ({errors} refused), {1e3 * elapsed / len(rated):.3f} ms each on one thread")
    print("| SE band     | puzzles | Spearman | within 0.2 | within 1.0 | bias | 10.0+ | guessed |")
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for low, high in BANDS:
        summary(f"{low:.1f}-{high - 0.1:.1f}", [(s, u) for s, u in pairs if low <= s < high])
    summary("2.0-9.9", [(s, u) for s, u in pairs if 2.0 <= s < 10.0])
    summary("4.0-9.9", [(s, u) for s, u in pairs if 4.0 <= s < 10.0])
    summary("all", pairs)
    under_9 = sum(1 for s, (u, _) in pairs if s < 9.0 and u >= 10.0)
    print(f"rated 10.0 or more by us while SE rates them under 9.0: {under_9}")


if __name__ == "__main__":
    main()

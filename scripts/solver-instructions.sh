#!/usr/bin/env bash
# The 9x9 solver's instructions per puzzle under callgrind, per data set of tests/data: its cost
# measured the same way every time, whatever else the machine is doing. Whole-process times of one
# build swing by a tenth or more between runs on a shared VM, and the ratios to the peers with the
# host's processor; these counts repeat exactly, so they decide a change of a few per cent.
#
#   bash scripts/solver-instructions.sh                 # the release build, about three minutes
#   bash scripts/solver-instructions.sh OTHER_BINARY    # and OTHER_BINARY beside it (say, a build
#                                                       # of the commit before), with the change
#
# Each set's first 400 lines (a smaller set repeated up to 400, as compare.sh repeats them up to
# its length) go through `sudokud solve --threads 1` (first solution and the uniqueness check),
# and the instructions of the same command on an empty file, the process's start, are taken off. The build measured is the one
# that ships: the search is one function of the whole LTO build, and a harness around the core
# crate alone compiles it differently (a change counted -0.85 % there came out +1 % here).
# Needs valgrind (apt-get install -y valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."

other=${1:-}
command -v valgrind >/dev/null || { echo "solver-instructions: valgrind is missing" >&2; exit 1; }
if [[ -n $other && ! -x $other ]]; then
    echo "solver-instructions: $other is not an executable" >&2
    exit 1
fi

step() { :; }
# shellcheck source=scripts/release-server.sh
source scripts/release-server.sh # `work` (removed on exit), build_release
build_release >&2

sets=(kaggle_style_easy_10k 17_clue_10k magictour_top1465 forum_hardest_1905_11plus_10k forum_hardest_1106
    serg_benchmark_multi_solution unsolvable multiple_solutions invalid_duplicate_givens)

# instructions BINARY FILE: what `BINARY solve --threads 1 FILE` runs, in all.
instructions() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" solve --threads 1 "$2" 2>&1 >/dev/null |
        awk '/Collected :/ { print $4 }'
}

: >"$work/empty.txt"
start=$(instructions "$binary" "$work/empty.txt")
if [[ -n $other ]]; then
    other_start=$(instructions "$other" "$work/empty.txt")
    echo "| data set | lines | $other | this build | change |"
    echo "|---|--:|--:|--:|--:|"
else
    echo "| data set | lines | instructions per line |"
    echo "|---|--:|--:|"
fi
for set in "${sets[@]}"; do
    awk '{ line[NR] = $0 } END { for (i = 0; i < 400; i++) print line[i % NR + 1] }' \
        "tests/data/$set.txt" >"$work/$set.txt"
    puzzles=$(wc -l <"$work/$set.txt")
    per_puzzle=$((($(instructions "$binary" "$work/$set.txt") - start) / puzzles))
    if [[ -n $other ]]; then
        other_per_puzzle=$((($(instructions "$other" "$work/$set.txt") - other_start) / puzzles))
        change=$(python3 -c "print(f'{100 * ($per_puzzle - $other_per_puzzle) / $other_per_puzzle:+.2f} %')")
        echo "| $set | $puzzles | $other_per_puzzle | $per_puzzle | $change |"
    else
        echo "| $set | $puzzles | $per_puzzle |"
    fi
done

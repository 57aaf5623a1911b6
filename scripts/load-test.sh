#!/usr/bin/env bash
# Load test: the release server under wrk, at fixed concurrency for a fixed time.
#
#   bash scripts/load-test.sh            # prints a Markdown table; about a minute
#
# Scenarios, each against a fresh server with the default configuration (logs included, as users
# run it; the last two rows again with RUST_LOG=warn, without the access log):
#   floor      GET /healthz: the HTTP floor (no solver work)
#   easy       POST /v1/solve, kaggle-style easy puzzles in turn
#   hard       POST /v1/solve, forum_hardest_1106 puzzles in turn
#   mix        POST /v1/solve, 9 easy to 1 hard
#   batch      POST /v1/solve/batch, 20 easy puzzles a request (a JSON array), as a backend that
#              gathers its users' boards sends them
#   overload   the hard puzzles at OVERLOAD_CONNECTIONS: far more concurrent solves than the solver
#              slots plus the queue admit, so the excess must be shed with fast 503s
#   easy, gzip the easy solves with `Accept-Encoding: gzip`, as browsers and most HTTP clients
#              send it (the answers are small, so they must go out uncompressed and cost the same)
# For each: requests/s, latency p50/p99/max as wrk sees it, answers by status (200, 503 and
# whether every 503 `overloaded` carried Retry-After, anything else), the server's peak RSS, and for solves
# the p99 of the accepted (200) requests from the server's own /metrics histogram. Then a check
# that the server still answers normally, and the ratio of each solve scenario to the floor.
#
# Environment: DURATION (default 10s), CONNECTIONS (32), OVERLOAD_CONNECTIONS (512), THREADS (2),
# CARGO_TARGET_DIR as usual. Installs wrk from Debian's apt when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
DURATION=${DURATION:-10s}
CONNECTIONS=${CONNECTIONS:-32}
OVERLOAD_CONNECTIONS=${OVERLOAD_CONNECTIONS:-512}
THREADS=${THREADS:-2}

if ! command -v wrk >/dev/null; then
    apt-get install -y -qq wrk >/dev/null
fi
# wrk opens one descriptor per connection.
ulimit -n 65536 2>/dev/null || true

cargo build --release --locked --quiet
target_dir=$(cargo metadata --format-version 1 --no-deps --locked |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
binary=$target_dir/release/sudokud

work=$(mktemp -d)
server_pid=""
cleanup() {
    if [[ -n $server_pid ]]; then kill -TERM "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

python3 - "$root/tests/data" "$work" <<'PY'
import json, sys
data, work = sys.argv[1], sys.argv[2]
def bodies(name, count):
    lines = [l.strip() for l in open(f"{data}/{name}") if l.strip()][:count]
    return [json.dumps({"board": l}) for l in lines]
easy, hard = bodies("kaggle_style_easy_10k.txt", 1000), bodies("forum_hardest_1106.txt", 375)
open(f"{work}/easy", "w").write("\n".join(easy) + "\n")
open(f"{work}/hard", "w").write("\n".join(hard) + "\n")
mix = [hard[i // 10] if i % 10 == 9 else easy[i] for i in range(1000)]
open(f"{work}/mix", "w").write("\n".join(mix) + "\n")
batches = [json.dumps({"boards": [json.loads(b)["board"] for b in easy[i:i + 20]]}) for i in range(0, 1000, 20)]
open(f"{work}/batch", "w").write("\n".join(batches) + "\n")
PY

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base=http://127.0.0.1:$port

# The server runs as users run it, with its default log filter (an access log line per request),
# unless a scenario names another filter: $1, e.g. `warn`.
start_server() {
    env -u RUST_LOG ${1:+RUST_LOG=$1} "$binary" --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 100); do
        curl -sf "$base/healthz" >/dev/null && return
        sleep 0.05
    done
    echo "the server did not start" >&2
    exit 1
}

stop_server() {
    kill -TERM "$server_pid"
    wait "$server_pid"
    server_pid=""
}

# p99 of the 200 answers of route $1, from the server's histogram: the upper bound of the bucket
# where the 99th percentile falls.
accepted_p99_us() {
    curl -s "$base/metrics" | python3 -c '
import re, sys
series = "sudokud_http_request_duration_seconds_bucket{method=\"POST\",route=\"" + sys.argv[1] + "\",status=\"200\",le=\""
buckets = []
for line in sys.stdin:
    if line.startswith(series):
        le, count = re.match(r".*le=\"([^\"]+)\"\} (\S+)", line).groups()
        buckets.append((float("inf") if le == "+Inf" else float(le), float(count)))
total = max((count for _, count in buckets), default=0)
print(next((f"{le * 1e6:.0f}" for le, count in sorted(buckets) if count >= 0.99 * total), "-") if total else "-")
' "$1"
}

rows=()
declare -A floor_rps
run() {
    local name=$1 connections=$2 bodies=${3:-} log_filter=${4:-} accept_encoding=${5:-}
    local path=/v1/solve
    [[ -z $bodies ]] && path=/healthz
    [[ $bodies == batch ]] && path=/v1/solve/batch
    start_server "$log_filter"
    local out
    out=$(BODIES=${bodies:+$work/$bodies} ACCEPT_ENCODING=$accept_encoding wrk -t "$THREADS" -c "$connections" -d "$DURATION" \
        -s "$root/scripts/load/requests.lua" "$base$path" | grep '^RESULT')
    local rss accepted="-"
    rss=$(awk '/VmHWM/ { printf "%.1f", $2 / 1024 }' "/proc/$server_pid/status")
    [[ -n $bodies ]] && accepted=$(accepted_p99_us "$path")
    # The server must still answer normally after the run.
    curl -sf "$base/v1/solve" -H 'content-type: application/json' -d "$(head -n 1 "$work/easy")" | grep -q '"unique":true'
    stop_server
    # A 503 of a full server is no error of the server: overload is at most a sampled warning
    # (a line a second), which carries the id of the request it was logged for.
    if grep -q '"level":"ERROR"' "$work/server.log"; then
        echo "$name: the server logged errors:" >&2
        grep '"level":"ERROR"' "$work/server.log" | head -n 5 >&2
        exit 1
    fi
    if grep '"level":"WARN"' "$work/server.log" | grep overloaded | grep -v '"request_id"' | grep -q .; then
        echo "$name: an overload warning without a request id:" >&2
        grep overloaded "$work/server.log" | head -n 5 >&2
        exit 1
    fi
    eval "local $(echo "${out#RESULT }")"
    local ratio="-"
    if [[ -z $bodies ]]; then
        floor_rps[${log_filter:-info}]=$rps
    else
        ratio=$(python3 -c "print(f'{$rps / ${floor_rps[${log_filter:-info}]}:.2f}')")
    fi
    [[ -n $log_filter ]] && name="$name, RUST_LOG=$log_filter"
    rows+=("| $name | $connections | $rps | $p50_us | $p99_us | $max_us | $accepted | $ok | $shed | $shed_without_retry_after | $((other + socket_errors)) | $rss | $ratio |")
    if (( other + socket_errors + shed_without_retry_after > 0 )); then
        echo "$name: unexpected answers: $out" >&2
        exit 1
    fi
}

run floor "$CONNECTIONS"
run easy "$CONNECTIONS" easy
run hard "$CONNECTIONS" hard
run mix "$CONNECTIONS" mix
run "batch of 20 easy" "$CONNECTIONS" batch
run overload "$OVERLOAD_CONNECTIONS" hard
run "easy, gzip" "$CONNECTIONS" easy "" gzip
# What the access log costs: the floor and the easy solves without it.
run floor "$CONNECTIONS" "" warn
run easy "$CONNECTIONS" easy warn

echo "wrk $THREADS threads, $DURATION per scenario, $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| scenario | connections | req/s | p50 µs | p99 µs | max µs | accepted p99 µs | 200 | 503 | overloaded without Retry-After | errors | peak RSS MB | req/s vs floor |"
echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|"
printf '%s\n' "${rows[@]}"

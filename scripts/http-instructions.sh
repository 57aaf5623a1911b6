#!/usr/bin/env bash
# The server's instructions per request under callgrind: the HTTP path's cost measured the same
# way every time, whatever else the machine is doing (wall-clock figures on a shared VM swing by
# a fifth between runs; these repeat to a few tenths of a per cent).
#
#   bash scripts/http-instructions.sh                # sudokud's scenarios, about two minutes
#   bash scripts/http-instructions.sh PEER_BINARY    # and PEER_BINARY's GET /healthz beside them
#
# The release server runs under valgrind's callgrind on one core (so one async worker), is warmed
# up with wrk, its counters are zeroed, one scenario is driven for DURATION (default 5s) with
# `wrk -t1 -c8`, and the counters are dumped: instructions over requests. Userspace only: the
# kernel's share (one recvfrom and one writev a request) is not counted. Scenarios:
#   floor          GET /healthz, with the defaults (access log on)
#   floor, warn    GET /healthz with RUST_LOG=warn: the difference is the access line
#   solve          POST /v1/solve of the LeetCode 37 example
# PEER_BINARY (e.g. the bare axum service of the workspace's http-compare.sh) must serve
# GET /healthz on the port in $PORT.
# Needs valgrind, wrk and curl (apt-get install -y valgrind wrk curl).
set -euo pipefail
cd "$(dirname "$0")/.."

peer=${1:-}
duration=${DURATION:-5s}
for tool in valgrind callgrind_control wrk curl; do
    command -v "$tool" >/dev/null || { echo "http-instructions: $tool is missing" >&2; exit 1; }
done

step() { :; }
# shellcheck source=scripts/release-server.sh
source scripts/release-server.sh # `work`, `server_pid` (stopped on exit), build_release
build_release >&2

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'wrk.method = "POST"\nwrk.body = %s\nwrk.headers["Content-Type"] = "application/json"\n' \
    "'{\"board\":\"53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79\"}'" \
    >"$work/solve.lua"

# measure NAME PATH LUA VARIABLE... -- COMMAND...: starts COMMAND under callgrind with the
# environment changed by `env VARIABLE...`, and prints its instructions per request on PATH.
measure() {
    local name=$1 path=$2 lua=$3
    shift 3
    local variables=()
    while [[ $1 != -- ]]; do variables+=("$1"); shift; done
    shift
    env "${variables[@]}" taskset -c 0 valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.%p" "$@" \
        >"$work/server.log" 2>&1 &
    server_pid=$!
    for _ in $(seq 200); do
        curl -sf -o /dev/null "http://127.0.0.1:$port/healthz" && break
        sleep 0.2
    done
    local url=http://127.0.0.1:$port$path
    wrk -t1 -c8 -d2s ${lua:+-s "$lua"} "$url" >/dev/null
    callgrind_control -z "$server_pid" >/dev/null 2>&1
    local requests
    requests=$(wrk -t1 -c8 -d"$duration" ${lua:+-s "$lua"} "$url" | awk '/requests in/ { print $1 }')
    callgrind_control -d "$server_pid" >/dev/null 2>&1
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
    local instructions
    instructions=$(awk '/^summary:/ { print $2 }' "$work"/callgrind.*.1)
    rm -f "$work"/callgrind.*
    printf '| %s | %s | %s |\n' "$name" "$requests" "$((instructions / requests))"
}

echo "| scenario | requests | instructions per request |"
echo "|---|--:|--:|"
measure "floor" /healthz "" -u RUST_LOG -- "$binary" --addr "127.0.0.1:$port"
measure "floor, warn" /healthz "" RUST_LOG=warn -- "$binary" --addr "127.0.0.1:$port"
measure "solve" /v1/solve "$work/solve.lua" -u RUST_LOG -- "$binary" --addr "127.0.0.1:$port"
if [[ -n $peer ]]; then
    measure "peer floor" /healthz "" PORT="$port" -- "$peer"
fi

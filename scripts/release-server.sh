# Sourced (not run) by the suites that drive the release server over HTTP (contract-test.sh,
# browser-test.sh): a scratch directory `work`, and a trap that always stops the server and shows
# the end of its log when the suite fails.
#
#   build_release                 cargo build --release; sets `binary`, wherever cargo put it
#   start_release_server [PORT]   serves on 127.0.0.1:PORT (default: a free port) with the default
#                                 configuration and JSON logs; waits for /healthz; sets
#                                 `server_pid` and `base_url`
#   fail_on_server_errors         fails if the server died or logged an ERROR line
#
# The caller defines `step` and runs from the repository root.

work=$(mktemp -d)
server_pid=""

stop_release_server_on_exit() {
    local status=$?
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        # Graceful shutdown drains for at most the shutdown timeout (5 s by default).
        for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [[ $status -ne 0 && -s $work/server.log ]]; then
        echo "--- last lines of the server log ($work/server.log):" >&2
        tail -n 40 "$work/server.log" >&2 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap stop_release_server_on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

build_release() {
    step "build"
    cargo build --release --locked
    local target_dir
    target_dir=$(cargo metadata --format-version 1 --no-deps --locked |
        python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
    binary=$target_dir/release/sudokud
}

start_release_server() {
    step "start the server"
    local free_port='import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
    local port=${1:-$(python3 -c "$free_port")}
    base_url=http://127.0.0.1:$port
    SUDOKUD_ADDR=127.0.0.1:$port SUDOKUD_LOG_FORMAT=json RUST_LOG=${RUST_LOG:-info} \
        "$binary" serve >"$work/server.log" 2>&1 &
    server_pid=$!
    for attempt in $(seq 100); do
        if ! kill -0 "$server_pid" 2>/dev/null; then
            echo "the server exited before it answered /healthz" >&2
            exit 1
        fi
        # The binary's own probe: GET /healthz must answer 200.
        if "$binary" healthcheck --addr "127.0.0.1:$port" --timeout-ms 1000 >/dev/null 2>&1; then
            break
        fi
        if [[ $attempt -eq 100 ]]; then
            echo "the server did not answer $base_url/healthz within 10 s" >&2
            exit 1
        fi
        sleep 0.1
    done
    echo "serving on $base_url (pid $server_pid)"
}

fail_on_server_errors() {
    if ! kill -0 "$server_pid" 2>/dev/null; then
        echo "the server died during the run" >&2
        exit 1
    fi
    if grep -q '"level":"ERROR"' "$work/server.log"; then
        echo "the server logged errors during the run:" >&2
        grep '"level":"ERROR"' "$work/server.log" | head -n 20 >&2
        exit 1
    fi
}

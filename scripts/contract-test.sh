#!/usr/bin/env bash
# Contract test: does the running server do what openapi.yaml says?
#
# Builds the release binary, starts it on a free loopback port, and runs Schemathesis (every
# check) against it with the settings in scripts/schemathesis.toml, whose comments justify each
# departure from Schemathesis' defaults. Fails on any finding. The server is always stopped.
#
# Run from anywhere, on a fresh machine (as CI does): it installs Schemathesis itself, into a
# virtualenv outside the repository. Environment knobs, all optional:
#   CONTRACT_TEST_PORT   port to serve on (default: a free one picked at start)
#   SCHEMATHESIS_VENV    where the virtualenv lives (default: /tmp/sudokud-schemathesis-venv)
#   CARGO_TARGET_DIR     honoured as usual by cargo (the binary is looked up where cargo put it)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The exact version this configuration was verified with; bump deliberately, re-running this.
schemathesis_version=4.32.5
venv=${SCHEMATHESIS_VENV:-/tmp/sudokud-schemathesis-venv}

step() { printf '\n=== contract-test: %s (%ds)\n' "$*" "$SECONDS"; }

work=$(mktemp -d)
server_pid=""
cleanup() {
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
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

step "build"
cargo build --release --locked
# Wherever CARGO_TARGET_DIR or a cargo config puts it.
target_dir=$(cargo metadata --format-version 1 --no-deps --locked |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')
binary=$target_dir/release/sudokud

step "install schemathesis $schemathesis_version"
installed=$("$venv/bin/schemathesis" --version 2>/dev/null || true)
if [[ $installed != *" $schemathesis_version" ]]; then
    rm -rf "$venv"
    if ! python3 -m venv "$venv"; then
        # Debian's python3 needs its venv module from a separate package.
        apt-get update -qq && apt-get install -y -qq python3-venv
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$schemathesis_version"
fi
"$venv/bin/schemathesis" --version

step "start the server"
free_port='import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
port=${CONTRACT_TEST_PORT:-$(python3 -c "$free_port")}
base_url=http://127.0.0.1:$port
# Default limits and timeouts: the ones the spec documents.
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

step "schemathesis"
# From a scratch directory, so Hypothesis and Schemathesis leave no state in the repository.
(
    cd "$work"
    PYTHONPATH="$root/scripts" SCHEMATHESIS_HOOKS=schemathesis_hooks \
        "$venv/bin/schemathesis" --config-file "$root/scripts/schemathesis.toml" \
        run "$root/openapi.yaml" --url "$base_url" --checks all
)

# A finding is a non-zero exit above; also make sure the server survived the run.
if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "the server died during the run" >&2
    exit 1
fi
if grep -q '"level":"ERROR"' "$work/server.log"; then
    echo "the server logged errors during the run:" >&2
    grep '"level":"ERROR"' "$work/server.log" | head -n 20 >&2
    exit 1
fi

step "passed"

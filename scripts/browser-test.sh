#!/usr/bin/env bash
# Browser test: the playground page (GET /) in a real browser.
#
# Builds the release binary, starts it on a free loopback port, and runs tests/browser/ against
# it: node's test runner, with playwright-core driving Debian's Chromium headless. The suite types,
# pastes, solves, validates and asks for hints and new puzzles as a person would, and saves a
# screenshot of the solved example to docs/playground.png (the README shows it; rendering depends
# on the machine's fonts, so a run may leave that file changed). Fails on any failed check. The
# server is always stopped.
#
# Run from anywhere, on a fresh machine (as CI does): it installs Chromium with apt-get when it is
# missing, and the pinned npm packages with `npm ci`. Needs Node.js 20 or later (playwright-core's
# minimum). Environment knobs, all optional:
#   BROWSER_TEST_PORT  port to serve on (default: a free one picked at start)
#   CHROMIUM           the browser to drive (default: /usr/bin/chromium)
#   SCREENSHOT         where to save the screenshot (default: docs/playground.png)
#   CARGO_TARGET_DIR   honoured as usual by cargo (the binary is looked up where cargo put it)
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
chromium=${CHROMIUM:-/usr/bin/chromium}

step() { printf '\n=== browser-test: %s (%ds)\n' "$*" "$SECONDS"; }

work=$(mktemp -d)
server_pid=""
cleanup() {
    local status=$?
    if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        for _ in $(seq 100); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    if [[ $status -ne 0 && -s $work/server.log ]]; then
        echo "--- last lines of the server log:" >&2
        tail -n 40 "$work/server.log" >&2 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

step "install chromium and the npm packages"
missing=()
[[ -x $chromium ]] || missing+=(chromium fonts-dejavu-core)
command -v npm >/dev/null || missing+=(nodejs npm)
if [[ ${#missing[@]} -gt 0 ]]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [[ $node_major -lt 20 ]]; then
    echo "Node.js $(node --version) is too old: playwright-core needs 20 or later" >&2
    exit 1
fi
"$chromium" --version
(cd tests/browser && npm ci --no-audit --no-fund --loglevel=error)

step "build"
cargo build --release --locked
target_dir=$(cargo metadata --format-version 1 --no-deps --locked |
    node -e 'let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => console.log(JSON.parse(s).target_directory))')
binary=$target_dir/release/sudokud

step "start the server"
free_port='const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'
port=${BROWSER_TEST_PORT:-$(node -e "$free_port")}
base_url=http://127.0.0.1:$port
SUDOKUD_ADDR=127.0.0.1:$port SUDOKUD_LOG_FORMAT=json "$binary" serve >"$work/server.log" 2>&1 &
server_pid=$!
for attempt in $(seq 100); do
    kill -0 "$server_pid" 2>/dev/null || { echo "the server exited before it answered /healthz" >&2; exit 1; }
    "$binary" healthcheck --addr "127.0.0.1:$port" --timeout-ms 1000 >/dev/null 2>&1 && break
    [[ $attempt -lt 100 ]] || { echo "the server did not answer $base_url/healthz within 10 s" >&2; exit 1; }
    sleep 0.1
done
echo "serving on $base_url (pid $server_pid)"

step "the suite, in headless Chromium"
(
    cd tests/browser
    SUDOKUD_URL=$base_url CHROMIUM=$chromium SCREENSHOT=${SCREENSHOT:-$root/docs/playground.png} \
        node --test playground.test.mjs
)

if grep -q '"level":"ERROR"' "$work/server.log"; then
    echo "the server logged errors during the run:" >&2
    grep '"level":"ERROR"' "$work/server.log" | head -n 20 >&2
    exit 1
fi

step "passed"

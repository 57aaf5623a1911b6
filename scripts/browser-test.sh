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

# shellcheck source=scripts/release-server.sh
source scripts/release-server.sh

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

build_release
start_release_server "${BROWSER_TEST_PORT:-}"

step "the suite, in headless Chromium"
(
    cd tests/browser
    SUDOKUD_URL=$base_url CHROMIUM=$chromium SCREENSHOT=${SCREENSHOT:-$root/docs/playground.png} \
        node --test playground.test.mjs
)

fail_on_server_errors

step "passed"

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

# shellcheck source=scripts/release-server.sh
source scripts/release-server.sh

build_release

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

# Default limits and timeouts, the ones the spec documents, but for the solve timeout: a
# generation that takes longer than the default second is the documented 503 `solve-timeout`,
# which Schemathesis counts as a server error. The slowest levels offered (16x16 extreme, a few
# hundred milliseconds, up to a second on an unlucky seed) would make the run depend on the
# machine's speed; the deadline itself is tested in tests/integration (http_count, http_logic).
SUDOKUD_SOLVE_TIMEOUT_MS=4000 start_release_server "${CONTRACT_TEST_PORT:-}"

step "schemathesis"
# From a scratch directory, so Hypothesis and Schemathesis leave no state in the repository.
(
    cd "$work"
    PYTHONPATH="$root/scripts" SCHEMATHESIS_HOOKS=schemathesis_hooks \
        "$venv/bin/schemathesis" --config-file "$root/scripts/schemathesis.toml" \
        run "$root/openapi.yaml" --url "$base_url"
)

# A finding is a non-zero exit above; also make sure the server survived the run.
fail_on_server_errors

step "passed"

#!/usr/bin/env bash
# Checks the fuzz crate's format and lints, builds every cargo-fuzz target and runs each for a short
# while from the committed corpus; fails on any crash, timeout or leak. Needs the nightly toolchain;
# installs cargo-fuzz itself.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_PER_TARGET=${FUZZ_SECONDS:-20}

if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "fuzz-smoke: \`cargo +nightly\` is missing; install it with \`rustup toolchain install nightly\`" >&2
    exit 1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi

# The fuzz crate is its own workspace, outside the top-level fmt and clippy steps.
cargo fmt --check --manifest-path fuzz/Cargo.toml
if cargo +nightly clippy --version >/dev/null 2>&1; then
    (cd fuzz && cargo +nightly clippy --all-targets --locked -- -D warnings)
else
    echo "fuzz-smoke: no clippy for nightly here; the fuzz targets are not linted" >&2
fi

# One build for all targets, so each run below starts at once.
# No sanitizer in the smoke run: it builds and runs faster, and the long runs (docs/testing.md) keep
# AddressSanitizer for the solver's few `unsafe` calls.
cargo +nightly fuzz build -O -s none
for target in $(cargo +nightly fuzz list); do
    # A scratch copy: the seeds stay as committed, and what the run adds is thrown away.
    corpus=$(mktemp -d)
    cp fuzz/corpus/"$target"/* "$corpus"/
    echo "fuzz-smoke: $target for ${SECONDS_PER_TARGET}s"
    cargo +nightly fuzz run -O -s none "$target" "$corpus" -- \
        -max_total_time="$SECONDS_PER_TARGET" -timeout=30 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1
    rm -rf "$corpus"
done

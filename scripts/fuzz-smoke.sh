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
    # A debug build compiles in half the time; it only drives cargo and the fuzzers.
    cargo install cargo-fuzz --locked --debug
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
# AddressSanitizer for the solver's few `unsafe` calls. At opt-level 1, too: the build of the whole
# service, instrumented, is most of this step, and a smoke run needs coverage, not speed.
export CARGO_PROFILE_RELEASE_OPT_LEVEL=${CARGO_PROFILE_RELEASE_OPT_LEVEL:-1}
cargo +nightly fuzz build -O -s none
# Each fuzzer runs on one thread, so as many run at once as there are CPUs (FUZZ_JOBS). Each one's output goes
# to a log, shown when it ends (its final stats, or all of it when it failed), so that the runs'
# lines do not interleave.
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
run_target() {
    local target=$1 corpus status=0
    # A scratch copy: the seeds stay as committed, and what the run adds is thrown away.
    corpus=$(mktemp -d)
    cp fuzz/corpus/"$target"/* "$corpus"/
    cargo +nightly fuzz run -O -s none "$target" "$corpus" -- \
        -max_total_time="$SECONDS_PER_TARGET" -timeout=30 -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 \
        >"$logs/$target" 2>&1 || status=$?
    rm -rf "$corpus"
    if [[ $status == 0 ]]; then
        echo "fuzz-smoke: $target passed ${SECONDS_PER_TARGET}s; its final stats:"
        tail -n 12 "$logs/$target"
    else
        echo "fuzz-smoke: $target FAILED (exit $status); its whole output:"
        cat "$logs/$target"
    fi
    return "$status"
}
# In rounds of as many as run at once, each waited for by its pid, which keeps its exit status.
at_once=${FUZZ_JOBS:-$(nproc)}
failed=0
running=()
for target in $(cargo +nightly fuzz list); do
    echo "fuzz-smoke: $target for ${SECONDS_PER_TARGET}s"
    run_target "$target" &
    running+=("$!")
    if ((${#running[@]} >= at_once)); then
        for pid in "${running[@]}"; do wait "$pid" || failed=1; done
        running=()
    fi
done
for pid in "${running[@]}"; do wait "$pid" || failed=1; done
exit "$failed"

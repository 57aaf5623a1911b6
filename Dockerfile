# sudokud container image: the release binary on distroless, run as a non-root user.
#
#   podman build --format docker -t sudokud .   # --format docker keeps HEALTHCHECK (podman drops it from OCI images)
#   docker build -t sudokud .
#   podman run --rm -p 8080:8080 --read-only sudokud
#
# No `# syntax=` line on purpose: it would make BuildKit pull a frontend image from a registry.
# The cache mounts below need BuildKit (Docker 23+) or buildah/podman 4.x.

# ---------------------------------------------------------------------------------- builder
FROM docker.io/library/rust:1.95-slim-bookworm AS builder
WORKDIR /build
# Cargo.toml's release profile (fat LTO, one codegen unit) unless a build overrides it: CI's
# container suites pass `--build-arg CARGO_PROFILE_RELEASE_LTO=off` and 16 units, the same image
# built in half the time (scripts/podman-common.sh). The defaults repeat Cargo.toml's, since an
# argument left unset makes every build warn.
ARG CARGO_PROFILE_RELEASE_LTO=fat
ARG CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1

# 1. Dependencies only, so they stay in a cached layer until Cargo.toml or Cargo.lock changes.
#    Cargo refuses a manifest whose targets are missing, so stub src/ and every declared
#    [[bench]], [[test]] and [[example]] (at its `path`, or where cargo looks by default).
#    `cargo build --release` compiles none of these stubs; only lib and bin are built.
#    The registry is a cache mount: downloaded crates survive a Cargo.lock change. One mount
#    only: podman 4.3 (buildah 1.28) never releases the second of two `sharing=locked` cache
#    mounts, so the next RUN using them hangs. (There are no git dependencies to cache.)
#    `cargo clean --package sudokud --package sudokud-core --package sudokud-model` forgets the stub crates themselves, so the real build cannot
#    mistake them for up to date (COPY keeps the real sources' older mtimes).
#    The library crates (crates/sudokud-core, crates/sudokud-model) are workspace members: their
#    manifests come too. Every package denies missing docs, so every stub crate root carries a crate doc comment.
COPY Cargo.toml Cargo.lock ./
COPY crates/sudokud-core/Cargo.toml crates/sudokud-core/
COPY crates/sudokud-model/Cargo.toml crates/sudokud-model/
RUN --mount=type=cache,target=/usr/local/cargo/registry,sharing=locked \
    set -eu; \
    mkdir -p src crates/sudokud-core/src crates/sudokud-model/src; doc='//! A stub for the dependency layer.'; \
    printf '%s\nfn main() {}\n' "$doc" > src/main.rs; echo "$doc" > src/lib.rs; \
    echo "$doc" > crates/sudokud-core/src/lib.rs; echo "$doc" > crates/sudokud-model/src/lib.rs; \
    awk 'BEGIN { dir["bench"] = "benches"; dir["test"] = "tests"; dir["example"] = "examples" } \
         function flush() { if (kind != "" && (path != "" || name != "")) print (path != "" ? path : dir[kind] "/" name ".rs"); kind = name = path = "" } \
         function value(line) { sub(/^[^=]*=[ \t]*"/, "", line); sub(/".*/, "", line); return line } \
         /^[ \t]*\[/ { flush(); if (match($0, /^[ \t]*\[\[(bench|test|example)\]\]/)) { kind = substr($0, RSTART, RLENGTH); gsub(/[][ \t]/, "", kind) } next } \
         kind != "" && /^[ \t]*name[ \t]*=/ { name = value($0) } \
         kind != "" && /^[ \t]*path[ \t]*=/ { path = value($0) } \
         END { flush() }' Cargo.toml > /tmp/stubs; \
    while IFS= read -r stub; do mkdir -p "$(dirname "$stub")"; echo 'fn main() {}' > "$stub"; done < /tmp/stubs; \
    cargo build --release --locked; \
    cargo clean --release --package sudokud --package sudokud-core --package sudokud-model; \
    rm -rf src crates/sudokud-core/src crates/sudokud-model/src

# 2. The real sources. openapi.yaml is embedded with include_str! by src/http/handlers.rs, the
#    drawings' font with include_bytes! by src/render/font.rs.
COPY openapi.yaml ./
COPY assets ./assets
COPY crates ./crates
COPY src ./src
RUN --mount=type=cache,target=/usr/local/cargo/registry,sharing=locked \
    cargo build --release --locked \
    && install -D -m 0755 target/release/sudokud /out/sudokud

# ---------------------------------------------------------------------------------- runtime
# glibc + libgcc (the binary's only shared libraries), no shell, no package manager.
FROM gcr.io/distroless/cc-debian12:nonroot

COPY --from=builder /out/sudokud /usr/local/bin/sudokud
# The binary embeds Noto Sans (subset) to draw puzzles; its licence travels with it.
COPY assets/fonts/OFL.txt /usr/share/doc/sudokud/fonts/OFL.txt

# `sudokud healthcheck` reads SUDOKUD_ADDR too, so overriding the port keeps the check right.
ENV SUDOKUD_ADDR=0.0.0.0:8080 \
    SUDOKUD_LOG_FORMAT=json

# distroless's "nonroot" user; numeric so runtimes can verify it is not root without /etc/passwd.
USER 65532:65532
EXPOSE 8080
# sudokud drains in-flight requests on SIGTERM (up to SUDOKUD_SHUTDOWN_TIMEOUT_MS) and exits 0.
STOPSIGNAL SIGTERM
# Exec form: there is no shell in the image. The command gives up after 2 s by itself.
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
    CMD ["/usr/local/bin/sudokud", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/sudokud"]

# Last, so changing them never invalidates a compiled layer. Pass the real values when publishing:
#   --build-arg SOURCE_URL=https://... --build-arg REVISION=$(git rev-parse HEAD)
ARG SOURCE_URL=unknown
ARG REVISION=unknown
LABEL org.opencontainers.image.title="sudokud" \
      org.opencontainers.image.description="A fast Sudoku solving and validation HTTP service" \
      org.opencontainers.image.licenses="MIT OR Apache-2.0" \
      org.opencontainers.image.source="${SOURCE_URL}" \
      org.opencontainers.image.revision="${REVISION}"

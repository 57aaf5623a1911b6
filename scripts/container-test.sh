#!/usr/bin/env bash
# container-test.sh: build the sudokud image with podman and prove it works as shipped.
#
# Run as root from anywhere (CI runs it from the repo root): bash scripts/container-test.sh
#
#   1. setup-podman.sh (shared): podman, podman-compose and local stand-ins for the base images
#   2. podman build (docker format, so the HEALTHCHECK survives), image size
#   3. plain run: /healthz, `podman healthcheck run`, a real solve, non-root process,
#      SIGTERM stop under STOP_MAX_MS with exit code 0
#   4. hardened run: --read-only, --cap-drop ALL, no-new-privileges
#   5. docker-compose.yml through podman-compose: build (cached), up, health, solve, down
#
# Environment: SHARED_DIR (default <repo>/../shared), IMAGE (default sudokud:test),
# PORT (first host port to try, default 18080), STOP_MAX_MS (default 2000),
# SKIP_SETUP=1 (skip setup-podman.sh when the machine is known to be ready).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"   # podman build context and podman-compose project dir

SHARED_DIR=${SHARED_DIR:-$repo/../shared}
IMAGE=${IMAGE:-sudokud:test}
PORT=${PORT:-18080}
STOP_MAX_MS=${STOP_MAX_MS:-2000}

# Unique per run, so a concurrent or crashed run never collides with this one.
run_id=$$
ctr=sudokud-ct-$run_id
ctr_ro=sudokud-ct-ro-$run_id
project=sudokudct$run_id   # podman-compose names: ${project}_sudokud_1, ${project}_default
compose_up=0
compose_port=8080   # set for real before the compose step

board='53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
want='{"solution":"534678912672195348198342567859761423426853791713924856961537284287419635345286179","unique":true}'

# What `die` shows: the app's own view of what went wrong.
show_container_logs() {
  for c in "$ctr" "$ctr_ro" $(project_ctr 2>/dev/null); do
    podman container exists "$c" 2>/dev/null || continue
    printf -- '--- podman logs %s (last 30 lines)\n' "$c"
    podman logs --tail 30 "$c" 2>&1 || true
  done
}
# shellcheck source=scripts/podman-common.sh
source "$repo/scripts/podman-common.sh"

compose() { SUDOKUD_IMAGE=$IMAGE SUDOKUD_HOST_PORT=$compose_port podman-compose -p "$project" -f docker-compose.yml "$@"; }

cleanup() {
  local rc=$?
  set +e
  # One at a time, --ignore: podman rm gives up on all names when one does not exist.
  for c in "$ctr" "$ctr_ro"; do podman rm -f -i -t 0 "$c" >/dev/null 2>&1; done
  remove_compose_project
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM   # through the EXIT trap

# wait_http PORT CTR: until GET /healthz answers 200 (30 s), failing early if CTR stopped.
wait_http() {
  local port=$1 c=$2 t0 i
  t0=$(now_ms)
  for i in $(seq 1 150); do
    if curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$port/healthz" 2>/dev/null; then
      echo $(( $(now_ms) - t0 ))
      return 0
    fi
    [ "$(podman inspect --format '{{.State.Running}}' "$c" 2>/dev/null)" = true ] \
      || die "container $c is not running (status: $(podman inspect --format '{{.State.Status}} exit {{.State.ExitCode}}' "$c" 2>&1))"
    sleep 0.2
  done
  die "GET http://127.0.0.1:$port/healthz did not answer 200 within 30 s"
}

# check_health CTR: one `podman healthcheck run` (health checks never run on their own here).
check_health() {
  local out
  out=$(podman healthcheck run "$1" 2>&1) || die "podman healthcheck run $1: ${out:-unhealthy}"
  [ "$(podman inspect --format '{{.State.Health.Status}}' "$1")" = healthy ] \
    || die "$1 health status is '$(podman inspect --format '{{.State.Health.Status}}' "$1")', not healthy"
}

# check_solve PORT: a real solve, compared byte for byte with the known answer.
check_solve() {
  local out code body
  out=$(curl -sS --max-time 5 -w '\n%{http_code}' -H 'Content-Type: application/json' \
        --data "{\"board\":\"$board\"}" "http://127.0.0.1:$1/v1/solve") || die "POST /v1/solve failed"
  code=${out##*$'\n'}
  body=${out%$'\n'*}
  [ "$code" = 200 ] || die "POST /v1/solve answered $code: $body"
  [ "$body" = "$want" ] || die "POST /v1/solve answered an unexpected body: $body"
}

# stop_ms CTR: `podman stop -t 10` (SIGTERM, SIGKILL after 10 s); prints how long it took.
stop_ms() {
  local t0
  t0=$(now_ms)
  quiet "stop-$1" podman stop -t 10 "$1"
  echo $(( $(now_ms) - t0 ))
}

check_stopped() { # check_stopped CTR MS
  local code
  code=$(podman inspect --format '{{.State.ExitCode}}' "$1")
  [ "$code" = 0 ] || die "$1 exited with code $code after SIGTERM, not 0"
  [ "$2" -le "$STOP_MAX_MS" ] || die "$1 took ${2} ms to stop (limit ${STOP_MAX_MS} ms): is SIGTERM handled?"
}

# ------------------------------------------------------------------------------ 0. prerequisites
[ -f Dockerfile ] && [ -f docker-compose.yml ] || die "Dockerfile or docker-compose.yml missing in $repo"
prepare_podman

# ------------------------------------------------------------------------------------- 1. build
log "building $IMAGE"
t0=$(now_ms)
# --format docker: OCI images lose HEALTHCHECK in podman 4.3. No --pull=always: no registry.
mapfile -t build_args < <(profile_build_args)
podman build --format docker "${build_args[@]}" -t "$IMAGE" -f Dockerfile . || die "podman build failed"
build_ms=$(( $(now_ms) - t0 ))
image_id=$(podman image inspect --format '{{.Id}}' "$IMAGE")
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
size_h=$(podman images --format '{{.Size}}' "$IMAGE" | head -1)
printf '    image %s: %s (%s bytes), id %.12s\n' "$IMAGE" "$size_h" "$size" "$image_id"
hc=$(podman image inspect --format '{{.HealthCheck}}' "$IMAGE" 2>/dev/null || true)
case "$hc" in *sudokud*healthcheck*) ok "HEALTHCHECK kept in the image: $hc" ;;
  *) die "the image has no HEALTHCHECK ($hc): was it built with --format docker?" ;; esac
user=$(podman image inspect --format '{{.Config.User}}' "$IMAGE")
case "$user" in 0|0:*|root|root:*|"") die "image user is '${user}': must not be root" ;; esac
ok "image user $user"
record "build" "$build_ms ms"
record "image size" "$size_h ($size bytes)"

# ------------------------------------------------------------------------------- 2. plain run
port=$(free_port "$PORT")
log "running $ctr on host port $port"
t0=$(now_ms)
quiet run podman run -d --name "$ctr" -p "127.0.0.1:$port:8080" "$IMAGE"
ready_ms=$(wait_http "$port" "$ctr")
ok "GET /healthz 200 after $ready_ms ms"
record "podman run until /healthz 200" "$(( $(now_ms) - t0 )) ms"

check_health "$ctr"
ok "podman healthcheck run: healthy"

check_solve "$port"
ok "POST /v1/solve: exact solution"

# podman top reads /proc of the container's processes: no shell needed in the image.
# Only its own descriptors: any other (uid, say) makes podman exec ps(1) in the container.
users=$(podman top "$ctr" user huser | tail -n +2 | awk '{print $1 ":" $2}' | sort -u | tr '\n' ' ')
[ -n "$users" ] || die "podman top $ctr listed no process"
case " $users" in *" root:"*|*" 0:"*|*":root "*|*":0 "*) die "a process runs as root: $users" ;; esac
ok "processes run as user:host-user $users"

stop=$(stop_ms "$ctr")
check_stopped "$ctr" "$stop"
ok "podman stop -t 10: exited 0 after $stop ms"
record "stop (SIGTERM -> exit 0)" "$stop ms"
quiet "rm-$ctr" podman rm "$ctr"   # (podman logs systemd timer errors here: no systemd)

# ---------------------------------------------------------------------------- 3. hardened run
log "running $ctr_ro read-only, without capabilities, no-new-privileges"
quiet run-ro podman run -d --name "$ctr_ro" -p "127.0.0.1:$port:8080" \
  --read-only --cap-drop ALL --security-opt no-new-privileges:true "$IMAGE"
[ "$(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$ctr_ro")" = true ] \
  || die "$ctr_ro does not have a read-only root filesystem"
ready=$(wait_http "$port" "$ctr_ro")
check_health "$ctr_ro"
check_solve "$port"
ok "ready after $ready ms, healthy, solves"
stop=$(stop_ms "$ctr_ro")
check_stopped "$ctr_ro" "$stop"
ok "stopped with exit 0 after $stop ms"
record "read-only run stop" "$stop ms"
quiet "rm-$ctr_ro" podman rm "$ctr_ro"

# ------------------------------------------------------------------------------ 4. compose
compose_port=$(free_port "$((port + 1))")
log "podman-compose project $project on host port $compose_port"
t0=$(now_ms)
# The compose file's build: section, on $IMAGE so nothing else is retagged. Same Dockerfile and
# format as above, so every layer comes from the cache (BUILDAH_FORMAT: podman-compose 1.0.3
# has no --format). `up` then finds the image and does not build again.
t1=$(now_ms)
BUILDAH_FORMAT=docker quiet compose-build compose build "${build_args[@]}"
record "compose build" "$(( $(now_ms) - t1 )) ms"
if [ "$(podman image inspect --format '{{.Id}}' "$IMAGE")" = "$image_id" ]; then
  ok "compose build: the same image as above"
else   # e.g. Cargo.toml changed meanwhile; the compose run below checks the new image
  note "compose build produced a new $IMAGE"
fi
compose_up=1
t1=$(now_ms)
quiet compose-up compose up -d
c=$(project_ctr | head -1)
[ -n "$c" ] || die "podman-compose up started no container"
name=$(podman inspect --format '{{.Name}}' "$c")

# The hardening in docker-compose.yml must reach the container.
[ "$(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$c")" = true ] || die "$name is not read-only"
caps=$(podman inspect --format '{{.EffectiveCaps}}' "$c")
[ "$caps" = "[]" ] || die "$name keeps capabilities: $caps"
case "$(podman inspect --format '{{.HostConfig.SecurityOpt}}' "$c")" in *no-new-privileges*) ;;
  *) die "$name lacks no-new-privileges" ;; esac
policy=$(podman inspect --format '{{.HostConfig.RestartPolicy.Name}}' "$c")
[ "$policy" = unless-stopped ] || die "$name restart policy is '$policy', not unless-stopped"
ok "$name: read-only, no capabilities, no-new-privileges, restart $policy"
# podman-compose 1.0.3 runs even a ["CMD", ...] healthcheck through /bin/sh: fine with the local
# distroless stand-in (it has a shell), "unhealthy" with the real, shell-less image.
hc_test=$(podman inspect --format '{{json .Config.Healthcheck.Test}}' "$c")
case "$hc_test" in *CMD-SHELL*) note "podman-compose made the healthcheck $hc_test (needs /bin/sh in the image)" ;; esac

ready=$(wait_http "$compose_port" "$c")
record "compose up until ready" "$(( $(now_ms) - t1 )) ms"
check_health "$c"
check_solve "$compose_port"
ok "ready after $ready ms, healthy, solves"

# Stop it ourselves first to see the exit code, which `down` removes along with the container.
stop=$(stop_ms "$c")
check_stopped "$c" "$stop"
ok "stopped with exit 0 after $stop ms"
record "compose container stop" "$stop ms"
t1=$(now_ms)
quiet compose-down compose down -t 10   # podman-compose ignores stop_grace_period
record "compose down" "$(( $(now_ms) - t1 )) ms"
compose_up=0
if podman network exists "${project}_default"; then   # podman-compose 1.0.3 leaves it behind
  podman network rm -f "${project}_default" >/dev/null
  ok "removed the leftover network ${project}_default"
fi
[ -z "$(project_ctr)" ] || die "podman-compose down left containers behind"
ok "podman-compose down: nothing left"
record "compose total" "$(( $(now_ms) - t0 )) ms"

# ------------------------------------------------------------------------------------ summary
print_summary "container test"

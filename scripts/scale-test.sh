#!/usr/bin/env bash
# scale-test.sh: run docker-compose.scale.yml (N sudokud replicas behind nginx) with podman-compose
# and prove that the load balancer spreads the work and survives a replica going away.
#
# Run as root from anywhere (CI runs it after container-test.sh): bash scripts/scale-test.sh
#
#   1. build the sudokud image (all cached after container-test.sh) and the nginx lb image
#   2. up: N replicas (one core, read-only, no capabilities) and the lb on one host port
#   3. sequential solves through the lb: exact answers, every replica answered (the lb's
#      X-Upstream-Addr header, matched to the replicas' addresses and to their request logs)
#   4. concurrent solves: all 200 and exact
#   5. SIGTERM one replica under traffic: every request still 200, the replica exits 0
#   6. down, network removed, nothing left
#
# Environment: SHARED_DIR (default <repo>/../shared), IMAGE (default sudokud:test, as
# container-test.sh), LB_IMAGE (default sudokud-lb:test), REPLICAS (default 3), PORT (first host
# port to try, default 18480), SKIP_SETUP=1 (skip setup-podman.sh when the machine is ready).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"   # podman build context and podman-compose project dir

SHARED_DIR=${SHARED_DIR:-$repo/../shared}
IMAGE=${IMAGE:-sudokud:test}
LB_IMAGE=${LB_IMAGE:-sudokud-lb:test}
REPLICAS=${REPLICAS:-3}
PORT=${PORT:-18480}

project=sudokudscale$$   # unique per run: containers ${project}_sudokud_1.., ${project}_lb_1
net=${project}_default
compose_up=0
host_port=0

board='53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79'
want='{"solution":"534678912672195348198342567859761423426853791713924856961537284287419635345286179","unique":true}'

show_container_logs() {
  for c in $(project_ctr 2>/dev/null); do
    printf -- '--- podman logs %s (last 20 lines)\n' "$(podman inspect --format '{{.Name}}' "$c" 2>/dev/null)"
    podman logs --tail 20 "$c" 2>&1 || true
  done
}
# shellcheck source=scripts/podman-common.sh
source "$repo/scripts/podman-common.sh"

compose() {
  SUDOKUD_IMAGE=$IMAGE SUDOKUD_LB_IMAGE=$LB_IMAGE SUDOKUD_REPLICAS=$REPLICAS SUDOKUD_HOST_PORT=$host_port \
    podman-compose -p "$project" -f docker-compose.scale.yml "$@"
}
replica_names() { podman ps -a --format '{{.Names}}' --filter "label=io.podman.compose.project=$project" \
                    --filter "label=com.docker.compose.service=sudokud" | sort; }

cleanup() {
  local rc=$?
  set +e
  remove_compose_project
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# solve ID: POST /v1/solve through the lb; prints "<status> <replica that answered> <replicas tried>"
# (X-Upstream-Addr lists every replica nginx tried), or "bad-body <body>" for a wrong answer.
solve() {
  local out code addr body
  out=$(curl -sS --max-time 5 -H 'Content-Type: application/json' -H "x-request-id: scale-$1" \
        -w '\n%{http_code} %header{x-upstream-addr}' --data "{\"board\":\"$board\"}" \
        "http://127.0.0.1:$host_port/v1/solve" 2>&1) || { echo "curl-failed $out"; return 0; }
  body=${out%$'\n'*}
  code=${out##*$'\n'}
  addr=${code#* }
  code=${code%% *}
  if [ "$code" = 200 ] && [ "$body" != "$want" ]; then echo "bad-body $body"; return 0; fi
  local tried=${addr//[^,]/}
  echo "$code ${addr##*, } $(( ${#tried} + 1 ))"
}

# ------------------------------------------------------------------------------ 0. prerequisites
[ "$REPLICAS" -ge 2 ] || die "REPLICAS must be 2 or more to test scaling out"
prepare_podman

# ------------------------------------------------------------------------------------- 1. build
log "building $IMAGE (cached after container-test.sh) and $LB_IMAGE"
t0=$(now_ms)
# Plain podman build, once per image: podman-compose 1.0.3 would build sudokud once per replica.
mapfile -t build_args < <(profile_build_args)
quiet build-sudokud podman build --format docker "${build_args[@]}" -t "$IMAGE" -f Dockerfile .
record "build sudokud (cached)" "$(( $(now_ms) - t0 )) ms"
t0=$(now_ms)
quiet build-lb podman build --format docker -t "$LB_IMAGE" deploy/loadbalancer
record "build lb" "$(( $(now_ms) - t0 )) ms"
ok "images built"

# ---------------------------------------------------------------------------------------- 2. up
host_port=$(free_port "$PORT")
log "podman-compose project $project: $REPLICAS replicas behind the lb on host port $host_port"
t0=$(now_ms)
compose_up=1
quiet compose-up compose up -d   # the images exist, so nothing is built here
mapfile -t replicas < <(replica_names)
[ "${#replicas[@]}" = "$REPLICAS" ] || die "expected $REPLICAS replicas, podman-compose started: ${replicas[*]}"
lb=${project}_lb_1
podman container exists "$lb" || die "podman-compose started no $lb"

declare -A name_of   # replica address -> container name
for c in "${replicas[@]}" "$lb"; do
  [ "$(podman inspect --format '{{.State.Running}}' "$c")" = true ] || die "$c is not running"
  [ "$(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$c")" = true ] || die "$c is not read-only"
  [ "$(podman inspect --format '{{.EffectiveCaps}}' "$c")" = "[]" ] || die "$c keeps capabilities"
done
for c in "${replicas[@]}"; do
  cpus=$(podman inspect --format '{{.HostConfig.NanoCpus}}' "$c")
  [ "$cpus" = 1000000000 ] || die "$c CPU limit is $cpus nano-CPUs, not one core"
  ip=$(podman inspect --format "{{(index .NetworkSettings.Networks \"$net\").IPAddress}}" "$c")
  [ -n "$ip" ] || die "$c has no address on $net"
  name_of["$ip:8080"]=$c
done
ok "${replicas[*]}: running, read-only, no capabilities, one CPU each; $lb running"

# Ready when the lb answers through a replica. The replicas start in milliseconds, but on a
# fresh machine the host port's forwarding can take longer to come up: allow 60 s, and say
# what curl last saw (and the lb's port mapping) if it never answers.
ready=0
last=""
for _ in $(seq 1 300); do
  if last=$(curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$host_port/readyz" 2>&1); then ready=1; break; fi
  sleep 0.2
done
[ "$ready" = 1 ] || die "GET /readyz through the lb did not answer 200 within 60 s (last: ${last:-no output}; lb ports: $(podman port "$lb" 2>&1 | tr '\n' ' '))"
for c in "${replicas[@]}"; do
  quiet "health-$c" podman healthcheck run "$c"   # the image's exec-form HEALTHCHECK
done
ok "GET /readyz through the lb: 200; podman healthcheck run: every replica healthy"
record "compose up until ready" "$(( $(now_ms) - t0 )) ms"

# ------------------------------------------------------------------- 3. round-robin, exact answers
n=$((REPLICAS * 10))
log "$n sequential solves through the lb"
t0=$(now_ms)
declare -A hits
for i in $(seq 1 "$n"); do
  read -r code addr _ <<<"$(solve "seq-$i")"
  [ "$code" = 200 ] || die "solve $i through the lb: $code $addr"
  [ -n "${name_of[$addr]:-}" ] || die "solve $i answered by '$addr', not a replica (${!name_of[*]})"
  hits[${name_of[$addr]}]=$(( ${hits[${name_of[$addr]}]:-0} + 1 ))
done
for c in "${replicas[@]}"; do
  [ "${hits[$c]:-0}" -gt 0 ] || die "replica $c answered none of $n requests: ${!hits[*]} did"
  # The replica's own log agrees: one request line per x-request-id we sent it.
  logged=$(podman logs "$c" 2>&1 | grep -o '"request_id":"scale-seq-[0-9]*"' | sort -u | wc -l)
  [ "$logged" = "${hits[$c]}" ] || die "$c logged $logged of our requests, the lb says it sent ${hits[$c]}"
  printf '    %s answered %d (its log: %d)\n' "$c" "${hits[$c]}" "$logged"
done
ok "$n exact solutions; all $REPLICAS replicas answered"
record "$n sequential solves" "$(( $(now_ms) - t0 )) ms"

# ------------------------------------------------------------------------------- 4. concurrency
n=$((REPLICAS * 20))
log "$n solves, 6 at a time"
t0=$(now_ms)
export -f solve
export board want host_port
seq 1 "$n" | xargs -P 6 -I{} bash -c 'solve "par-{}"' >"$logs/parallel.txt"
bad=$(grep -vc '^200 ' "$logs/parallel.txt" || true)
[ "$bad" = 0 ] || die "$bad of $n concurrent solves failed: $(grep -v '^200 ' "$logs/parallel.txt" | sort | uniq -c | head -5)"
used=$(awk '{print $2}' "$logs/parallel.txt" | sort -u | wc -l)
ok "$n exact solutions from $used replicas"
record "$n concurrent solves" "$(( $(now_ms) - t0 )) ms"

# ------------------------------------------------------------------ 5. a replica leaves under load
victim=${replicas[1]}
log "SIGTERM $victim while solves keep coming"
t0=$(now_ms)
# Requests before, during and after the drain: the lb retries a refused or timed-out connection on
# another replica, so no client sees the replica go.
( for i in $(seq 1 60); do solve "drain-$i"; sleep 0.05; done ) >"$logs/drain.txt" &
load=$!
sleep 0.5
quiet "stop-$victim" podman stop -t 10 "$victim"
wait "$load"
code=$(podman inspect --format '{{.State.ExitCode}}' "$victim")
[ "$code" = 0 ] || die "$victim exited with code $code after SIGTERM, not 0"
bad=$(grep -vc '^200 ' "$logs/drain.txt" || true)
[ "$bad" = 0 ] || die "$bad of 60 requests failed while $victim stopped: $(grep -v '^200 ' "$logs/drain.txt" | sort | uniq -c | head -5)"
victim_addr=
for a in "${!name_of[@]}"; do [ "${name_of[$a]}" = "$victim" ] && victim_addr=$a; done
after=$(tail -20 "$logs/drain.txt" | grep -c " $victim_addr " || true)
[ "$after" = 0 ] || die "$victim still answered after it stopped"
retried=$(awk '$3 > 1' "$logs/drain.txt" | wc -l)
ok "60 of 60 solves answered 200 across the stop ($retried retried on another replica); $victim exited 0"
record "replica stop under load" "$(( $(now_ms) - t0 )) ms"

# -------------------------------------------------------------------------------------- 6. down
log "tearing down"
t0=$(now_ms)
quiet compose-down compose down -t 10   # podman-compose ignores stop_grace_period
compose_up=0
if podman network exists "$net"; then   # podman-compose 1.0.3 leaves it behind
  podman network rm -f "$net" >/dev/null
fi
[ -z "$(project_ctr)" ] || die "podman-compose down left containers behind"
! podman network exists "$net" || die "network $net is still there"
ok "no container or network left"
record "compose down" "$(( $(now_ms) - t0 )) ms"

print_summary "scale test"

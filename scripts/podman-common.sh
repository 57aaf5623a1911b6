# Sourced (not run) by the podman suites (container-test.sh, scale-test.sh): output helpers, a
# summary of timings, free host ports and the podman set-up. The caller sets `SHARED_DIR` and
# defines `show_container_logs` (what `die` prints of the containers' own view) before sourcing.
#
#   log/ok/note MSG            progress lines;  die MSG: fail, with the containers' logs
#   quiet NAME CMD...          run CMD with its output kept in $logs/NAME.log, shown if it fails
#   record LABEL VALUE         a line of the final summary;  print_summary NAME: the summary
#   free_port FROM             the first host port >= FROM that accepts no connection
#   profile_build_args         `--build-arg`s for the release profile's overrides set in the
#                              environment (CI's quicker build; the Dockerfile's ARGs)
#   prepare_podman             root check, setup-podman.sh (unless SKIP_SETUP=1), curl, tools
#   project_ctr                the containers of the compose project `$project`
#   remove_compose_project     down (when `compose_up` is 1, through the caller's `compose`), then
#                              whatever is left of the project: containers, network, $logs

logs=$(mktemp -d "/tmp/$(basename "$0" .sh).XXXXXX")   # noisy command output
t_script=$(date +%s%N)
summary=()

log() { printf '\n==> %s\n' "$*"; }
ok() { printf '    ok: %s\n' "$*"; }
note() { printf '    note: %s\n' "$*"; }
die() {
  printf '\nFAILED: %s\n' "$*" >&2
  show_container_logs >&2 2>&1 || true
  exit 1
}
profile_build_args() {
  local name
  for name in CARGO_PROFILE_RELEASE_LTO CARGO_PROFILE_RELEASE_CODEGEN_UNITS; do
    if [ -n "${!name:-}" ]; then printf -- '--build-arg\n%s=%s\n' "$name" "${!name}"; fi
  done
}
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
record() { summary+=("$(printf '%-34s %s' "$1" "$2")"); }
quiet() {
  local name=$1; shift
  "$@" >"$logs/$name.log" 2>&1 || { tail -40 "$logs/$name.log" >&2; die "$name: $*"; }
}

print_summary() {
  record "total" "$(( ($(date +%s%N) - t_script) / 1000000 )) ms"
  log "$1 passed"
  printf '    %s\n' "${summary[@]}"
}

# A port a container publishes may refuse connections (its forwarding left behind by a run that
# was killed) and still be taken: podman would publish it twice, to the old container.
free_port() {
  local p=$1 published
  published=$(podman ps -a --format '{{.Ports}}' 2>/dev/null | grep -o ':[0-9]*->' | sed 's/[^0-9]//g' || true)
  while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || grep -qx "$p" <<<"$published"; do
    p=$((p + 1))
    [ "$p" -lt $(($1 + 200)) ] || die "no free port in $1..$p"
  done
  echo "$p"
}

prepare_podman() {
  [ "$(id -u)" = 0 ] || die "run as root: rootful podman is what works on the CI machines"
  local t0 setup
  t0=$(now_ms)
  if [ "${SKIP_SETUP:-0}" != 1 ]; then
    setup=$SHARED_DIR/container/setup-podman.sh
    [ -f "$setup" ] || die "setup-podman.sh not found at $setup (set SHARED_DIR)"
    log "setting up podman ($setup)"
    quiet setup-podman bash "$setup"
  fi
  if ! command -v curl >/dev/null; then   # fresh CI machines may lack it
    DEBIAN_FRONTEND=noninteractive quiet apt-curl sh -c \
      'apt-get -q -o DPkg::Lock::Timeout=600 update && apt-get -q -y -o DPkg::Lock::Timeout=600 install --no-install-recommends curl'
  fi
  local tool
  for tool in podman podman-compose curl; do command -v "$tool" >/dev/null || die "$tool is not installed"; done
  record "setup" "$(( $(now_ms) - t0 )) ms"
}

project_ctr() { podman ps -a -q --filter "label=io.podman.compose.project=$project"; }

remove_compose_project() {
  if [ "$compose_up" = 1 ]; then compose down -t 1 >/dev/null 2>&1; fi
  local c
  for c in $(project_ctr 2>/dev/null); do podman rm -f -t 0 "$c" >/dev/null 2>&1; done
  # podman-compose 1.0.3 leaves the project network behind on `down`.
  podman network exists "${project}_default" 2>/dev/null && podman network rm -f "${project}_default" >/dev/null 2>&1
  rm -rf "$logs"
}

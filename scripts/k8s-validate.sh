#!/usr/bin/env bash
# k8s-validate.sh: check deploy/kubernetes/*.yaml without a cluster.
#
#   bash scripts/k8s-validate.sh
#
#   1. kubernetes-validate (PyPI) in a venv under /tmp, reused while its pins are unchanged
#   2. every manifest, strict (an unknown field is an error), against the schemas of Kubernetes
#      K8S_MIN (the oldest we support: lifecycle.preStop.sleep needs 1.30) and K8S_MAX
#   3. kustomization.yaml lists every manifest; the values that must agree do
#
# Environment: VENV (default /tmp/sudokud-k8s-validate-<pin hash>).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=$repo/deploy/kubernetes
K8S_MIN=1.30.0
K8S_MAX=1.37.0   # the newest schemas kubernetes-validate 1.37.0 ships
# kubernetes-validate and everything it pulls in, as verified; the schemas ship inside it.
PINS=(
  kubernetes-validate==1.37.0 attrs==26.1.0 importlib_resources==7.1.0 jsonschema==4.26.0
  jsonschema-specifications==2025.9.1 packaging==26.4 PyYAML==6.0.4 referencing==0.37.0
  rpds-py==2026.9.1 typing_extensions==4.16.0
)
VENV=${VENV:-/tmp/sudokud-k8s-validate-$(printf '%s\n' "${PINS[@]}" | sha256sum | cut -c1-12)}

die() { printf 'k8s-validate: FAILED: %s\n' "$*" >&2; exit 1; }

if [ ! -x "$VENV/bin/kubernetes-validate" ]; then
  echo "k8s-validate: installing ${PINS[0]} into $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  "$VENV/bin/pip" install -q --disable-pip-version-check --no-deps "${PINS[@]}" \
    || { rm -rf "$VENV"; die "pip install failed"; }
fi

cd "$dir"
manifests=()
for f in *.yaml; do [ "$f" = kustomization.yaml ] || manifests+=("$f"); done
[ ${#manifests[@]} -ge 4 ] || die "expected at least 4 manifests in $dir, found: ${manifests[*]}"

for v in "$K8S_MIN" "$K8S_MAX"; do
  # A kind without a schema is only a warning there (exit 0): treat any output as failure.
  out=$("$VENV/bin/kubernetes-validate" --strict --quiet -k "$v" "${manifests[@]}" 2>&1) \
    && [ -z "$out" ] || { printf '%s\n' "$out" >&2; die "schema check against Kubernetes $v"; }
  echo "k8s-validate: ${manifests[*]}: valid (strict) for Kubernetes $v"
done

# Cross-file and cross-field rules no schema can express.
"$VENV/bin/python" - "${manifests[@]}" <<'PY' || die "consistency checks"
import sys, yaml

docs = {}
for name in sys.argv[1:]:
    for d in yaml.safe_load_all(open(name)):
        if d:
            docs[d["kind"]] = d
errors = []
def check(ok, msg):
    if not ok:
        errors.append(msg)

kust = yaml.safe_load(open("kustomization.yaml"))
check(sorted(kust.get("resources", [])) == sorted(sys.argv[1:]),
      f"kustomization.yaml resources {kust.get('resources')} != manifests {sys.argv[1:]}")
for kind in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"):
    check(kind in docs, f"no {kind}")
if errors:
    sys.exit("\n".join(errors))

dep, svc, hpa, pdb = (docs[k] for k in ("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget"))
pod = dep["spec"]["template"]["spec"]
labels = dep["spec"]["template"]["metadata"]["labels"]
(c,) = pod["containers"]
env = {e["name"]: e.get("value") for e in c.get("env", [])}

def cores(q):
    q = str(q)
    return int(q[:-1]) / 1000 if q.endswith("m") else float(q)

# Selectors must pick the Deployment's pods.
for what, sel in (("Service", svc["spec"]["selector"]), ("PDB", pdb["spec"]["selector"]["matchLabels"]),
                  ("Deployment", dep["spec"]["selector"]["matchLabels"])):
    check(sel.items() <= labels.items(), f"{what} selector {sel} does not match pod labels {labels}")
check(hpa["spec"]["scaleTargetRef"]["name"] == dep["metadata"]["name"], "HPA targets another Deployment")
check("replicas" not in dep["spec"], "Deployment sets replicas: the HPA owns that")
check(hpa["spec"]["minReplicas"] >= 2, "HPA minReplicas < 2: the PDB would block every drain")
check(dep["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0, "rollout maxUnavailable is not 0")
port = next(p for p in c["ports"] if p["name"] == "http")
check(env.get("SUDOKUD_ADDR", "0.0.0.0:8080").rsplit(":", 1)[1] == str(port["containerPort"]),
      "SUDOKUD_ADDR port != containerPort")
check(svc["spec"]["ports"][0]["targetPort"] in ("http", port["containerPort"]), "Service targetPort")

# CPU: one solver slot per core of the limit; HPA needs a request.
lim = cores(c["resources"]["limits"]["cpu"])
check("cpu" in c["resources"].get("requests", {}), "no CPU request: the HPA cannot compute utilisation")
check(int(env.get("SUDOKUD_MAX_CONCURRENT_SOLVES", 0)) == max(1, int(lim)),
      f"SUDOKUD_MAX_CONCURRENT_SOLVES={env.get('SUDOKUD_MAX_CONCURRENT_SOLVES')} != CPU limit {lim}")
check("memory" in c["resources"]["limits"], "no memory limit")

# Shutdown: preStop sleep + drain must fit in the grace period, with a margin.
pre = c.get("lifecycle", {}).get("preStop", {}).get("sleep", {}).get("seconds", 0)
drain = int(env.get("SUDOKUD_SHUTDOWN_TIMEOUT_MS", 5000)) / 1000
grace = pod.get("terminationGracePeriodSeconds", 30)
check(grace >= pre + drain + 2, f"terminationGracePeriodSeconds {grace} < preStop {pre} + drain {drain} + 2")

# Probes and hardening.
check(c["livenessProbe"]["httpGet"]["path"] == "/healthz", "liveness is not /healthz")
check(c["readinessProbe"]["httpGet"]["path"] == "/readyz", "readiness is not /readyz")
psc, csc = pod.get("securityContext", {}), c.get("securityContext", {})
check(psc.get("runAsNonRoot") is True and psc.get("runAsUser") == 65532, "pod must run as 65532, non-root")
check(psc.get("seccompProfile", {}).get("type") == "RuntimeDefault", "seccomp is not RuntimeDefault")
check(csc.get("readOnlyRootFilesystem") is True, "root filesystem is writable")
check(csc.get("allowPrivilegeEscalation") is False, "privilege escalation allowed")
check(csc.get("capabilities", {}).get("drop") == ["ALL"], "capabilities not all dropped")

if errors:
    sys.exit("\n".join(errors))
print("k8s-validate: consistency checks passed")
PY

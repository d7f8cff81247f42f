#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# helm.sh - what kvet adds on top of the render when it lints a chart
# itself: for each chart of ../shared/corpus/charts, the CPU time (user +
# system) of `kvet lint --no-values-matrix CHART` less that of the
# `helm template` it ran, both from the same run: kvet runs helm through
# a wrapper that records its own and helm's times (getrusage: times(2)
# counts in ticks of 10 ms), and kvet's own time is the run's (kvet and
# its children) less the wrapper's. A difference of separate medians drowned kvet's few
# milliseconds in helm's noise on a busy machine. The `helm template`
# column is helm alone, replayed with the very arguments kvet gave it,
# "helm in the lint" the same helm run by kvet; the figure is kvet's own
# time against the first (issue 24: under 10%).
# Medians of RUNS runs taken in turns. Prints a Markdown table.
#
# Usage: bench/helm.sh [CHARTS]   Environment: BUILD (default build),
#                                 RUNS (default 7)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
RUNS=${RUNS:-7}
CHARTS=${1:-$ROOT/../shared/corpus/charts}
[ -d "$CHARTS" ] || { echo "helm.sh: no charts at $CHARTS" >&2; exit 2; }
command -v helm >/dev/null || { echo "helm.sh: no helm on PATH" >&2; exit 2; }
KVET=$(cd "$BUILD" && pwd)/kvet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/helm" <<SH
#!/usr/bin/env python3
import os, resource, subprocess, sys
open("$tmp/args", "w").write("".join(a + "\\n" for a in sys.argv[1:]))
rc = subprocess.run(["$(command -v helm)"] + sys.argv[1:]).returncode
t = [resource.getrusage(who) for who in
     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
open("$tmp/times", "w").write(" ".join(repr(u.ru_utime + u.ru_stime)
                                       for u in t))
os._exit(rc)        # what exiting would cost after this is kvet's
SH
chmod +x "$tmp/helm"
python3 - "$KVET" "$CHARTS" "$RUNS" "$tmp" <<'PY'
import os, resource, statistics, subprocess, sys
kvet, charts, runs, tmp = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def cpu(argv, cwd):
    r = resource.RUSAGE_CHILDREN
    b = resource.getrusage(r)
    subprocess.run(argv, cwd=cwd, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    a = resource.getrusage(r)
    return a.ru_utime - b.ru_utime + a.ru_stime - b.ru_stime

def wrapper_cpu():
    """The wrapper's last run: its own time and helm's, in seconds."""
    return [float(t) for t in open(os.path.join(tmp, "times")).read().split()]

print("| chart | helm template (s) | helm in the lint (s) | kvet's own (s) | kvet / helm |")
print("| --- | ---: | ---: | ---: | ---: |")
own_sum = helm_sum = inner_sum = 0.0
for name in sorted(os.listdir(charts)):
    chart = os.path.join(charts, name)
    if not os.path.isfile(os.path.join(chart, "Chart.yaml")):
        continue
    lint = [kvet, "lint", "--no-config", "--no-values-matrix", "--format",
            "json", "--helm", os.path.join(tmp, "helm"), name]
    cpu(lint, charts)                      # records helm's arguments
    args = open(os.path.join(tmp, "args")).read().split("\n")[:-1]
    helm = ["helm"] + args
    h, i, o = [], [], []
    for _ in range(runs):
        h.append(cpu(helm, charts))
        k = cpu(lint, charts)
        wrapper, inner = wrapper_cpu()
        i.append(inner)
        o.append(k - wrapper - inner)
    hm, im, om = (statistics.median(v) for v in (h, i, o))
    own_sum += om
    helm_sum += hm
    inner_sum += im
    print(f"| {name} | {hm:.3f} | {im:.3f} | {om:.3f} | {om / hm:.1%} |")
print(f"| all | {helm_sum:.3f} | {inner_sum:.3f} | {own_sum:.3f} | {own_sum / helm_sum:.1%} |")
PY

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# helm.sh - what kvet adds on top of the render when it lints a chart
# itself: for each chart of ../shared/corpus/charts, the CPU time (user +
# system, kvet and its children) of `kvet lint --no-values-matrix CHART`
# against that of the `helm template` it runs, replayed with the very
# arguments kvet gave it (recorded through a wrapper). kvet's own time is
# the difference; the figure is its ratio to helm's (issue 24: under 10%).
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
#!/bin/sh
printf '%s\n' "\$@" > "$tmp/args"
exec "$(command -v helm)" "\$@"
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

print("| chart | helm template (s) | kvet lint, all (s) | kvet's own (s) | kvet / helm |")
print("| --- | ---: | ---: | ---: | ---: |")
own_sum = helm_sum = 0.0
for name in sorted(os.listdir(charts)):
    chart = os.path.join(charts, name)
    if not os.path.isfile(os.path.join(chart, "Chart.yaml")):
        continue
    lint = [kvet, "lint", "--no-config", "--no-values-matrix", "--format",
            "json", "--helm", os.path.join(tmp, "helm"), name]
    cpu(lint, charts)                      # records helm's arguments
    args = open(os.path.join(tmp, "args")).read().split("\n")[:-1]
    lint[lint.index("--helm") + 1] = "helm"
    helm = ["helm"] + args
    h, k = [], []
    for _ in range(runs):
        h.append(cpu(helm, charts))
        k.append(cpu(lint, charts))
    hm, km = statistics.median(h), statistics.median(k)
    own = max(km - hm, 0.0)
    own_sum += own
    helm_sum += hm
    print(f"| {name} | {hm:.3f} | {km:.3f} | {own:.3f} | {own / hm:.1%} |")
print(f"| all | {helm_sum:.3f} | {helm_sum + own_sum:.3f} | {own_sum:.3f} | {own_sum / helm_sum:.1%} |")
PY

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# corpus.sh - what the rolling-upgrade-stalls check costs kvet lint on real
# manifests. In the same run, each manifest of the shared corpus is linted
# alone (as tests/corpus/test_findings.sh lints it, and as a pre-commit
# hook or CI gate would) with every built-in rule, and again with
# --disable rolling-upgrade-stalls; then all of them at once, both ways.
#
# Usage: bench/corpus.sh [CORPUS]     (default: ../shared/corpus beside
#                                      the repository)
#
# Two measures: the instructions each run executes (valgrind's callgrind,
# the same on any machine however loaded: the figure to compare), and the
# median CPU time (user + system) of RUNS runs taken in turns, with and
# without, so that a change of load hits both. Builds nothing: build
# first. Environment: BUILD (default build), RUNS (default 11), INSTR=0
# to skip callgrind. Progress goes to stderr; a Markdown table for
# docs/performance.md goes to stdout.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
RUNS=${RUNS:-11}
INSTR=${INSTR:-1}
CORPUS=${1:-$ROOT/../shared/corpus}
# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"

[ -d "$BUILD" ] || die "no build directory '$BUILD'"
BUILD=$(cd "$BUILD" && pwd)
MEASURE=$BUILD/bench/measure
KVET=$BUILD/kvet
[ -x "$MEASURE" ] && [ -x "$KVET" ] || die "run ninja -C $BUILD first"
[ -d "$CORPUS" ] || die "no corpus at $CORPUS"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number"
if [ "$INSTR" = 1 ] && ! command -v valgrind >/dev/null; then
	note "valgrind is not installed: no instruction counts"
	INSTR=0
fi
cd "$CORPUS"
shopt -s nullglob
files=(*.yaml *.json)
[ ${#files[@]} -gt 0 ] || die "no manifest in $CORPUS"
OFF=(--disable rolling-upgrade-stalls)

# The corpus test's options: no configuration, the text report.
run() {
	"$MEASURE" "$1" -- "$KVET" lint --no-config --color never "${@:2}" ||
		die "measure could not run kvet"
}

# cpu_times ARGS... -> "median_with median_without" (seconds)
cpu_times() {
	local on="" off="" i res
	res=$(mktemp)
	for ((i = 0; i < RUNS; i++)); do
		run "$res" "$@"
		on="$on $(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' "$res")"
		run "$res" "${OFF[@]}" "$@"
		off="$off $(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' "$res")"
	done
	rm -f "$res"
	echo "$(median $on) $(median $off)"
}

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) print v[(NR + 1) / 2];
		else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# instructions ARGS... -> the instructions callgrind counts
instructions() {
	[ "$INSTR" = 1 ] || { echo 0; return; }
	# kvet exits 1 on findings: that is no failure here
	{ valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"$KVET" lint --no-config --color never "$@" 2>&1 >/dev/null ||
		true; } | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

row() {
	awk -v f="$1" -v a="$2" -v b="$3" -v c="$4" -v d="$5" 'BEGIN {
		printf("| %s | %.1f | %.1f | %s | %.1f | %.1f | %.2fx |\n", f,
			a / 1e6, b / 1e6, b ? sprintf("%.3fx", a / b) : "n/a",
			c * 1000, d * 1000, d ? c / d : 0) }'
}

echo "Instructions (millions) by callgrind; CPU time in ms, median of" \
	"$RUNS runs taken in turns."
echo
echo "| file | Minstr with the check | without | ratio | CPU ms with | without | ratio |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
si_on=0 si_off=0 sc_on=0 sc_off=0
for f in "${files[@]}"; do
	note "$f"
	i_on=$(instructions "$f")
	i_off=$(instructions "${OFF[@]}" "$f")
	read -r c_on c_off < <(cpu_times "$f")
	row "$f" "$i_on" "$i_off" "$c_on" "$c_off"
	read -r si_on si_off sc_on sc_off < <(awk -v a="$si_on" -v b="$si_off" \
		-v c="$sc_on" -v d="$sc_off" -v e="$i_on" -v g="$i_off" \
		-v h="$c_on" -v k="$c_off" \
		'BEGIN { print a + e, b + g, c + h, d + k }')
done
row "**every file alone, summed**" "$si_on" "$si_off" "$sc_on" "$sc_off"
note "all files at once"
i_on=$(instructions "${files[@]}")
i_off=$(instructions "${OFF[@]}" "${files[@]}")
read -r c_on c_off < <(cpu_times "${files[@]}")
row "**the ${#files[@]} files in one run**" "$i_on" "$i_off" "$c_on" "$c_off"

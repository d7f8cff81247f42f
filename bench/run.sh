#!/usr/bin/env bash
# run.sh - time kvet against the libfyaml event scan on synthetic dumps.
#
# Usage: bench/run.sh [N] [NODESxPODS...]   (default: 100000 objects)
#
# A size NODESxPODS (1000x30000) measures kvet drain too (see "Drain"
# below); given only those, run.sh measures kvet drain alone.
#
# Builds nothing: build first (meson setup build && ninja -C build). One
# run prints every figure of issues 17 and 28 (docs/performance.md):
#
#   targets  four dumps of N objects as kubectl prints them today (no
#            managedFields), generated once into bench/out/ (again only
#            when gen_dump is newer): `gen_dump N` (few findings) and
#            `gen_dump --overlap N` (about 2 findings per object), each as
#            YAML and as JSON (`--json`). On each, in the same run:
#              scan   $BUILD/bench/event_scan FILE: libfyaml's event scan,
#                     single-threaded, the floor for a loader built on it
#              kvet   $BUILD/kvet lint --format json FILE: the whole lint
#              load   the same with --no-builtin-rules: loading, the object
#                     graph and an empty report
#            and once, before the timed runs, kvet again to count findings
#            (it also brings the file into the page cache).
#   managed  the same four with `gen_dump --managed-fields` (one
#            managedFields entry an object, as kubectl printed before
#            v1.21 and prints with --show-managed-fields), a second table.
#   instr    the two findings-heavy dumps of INSTR_N objects under
#            callgrind: instructions of the event scan, of kvet lint -j 1
#            and of its load alone, and the ratios; counts do not depend
#            on what else the machine runs, where wall times on a shared
#            machine do.
#   scale    `gen_dump M` for each M of $SCALE: scan and kvet, and kvet's
#            time per 100,000 objects, which stays flat when time grows
#            linearly. Dumps of more than 500,000 objects are deleted after
#            their row unless KEEP_DUMPS=1 (the 1,000,000-object one is
#            1.5 GB), and skipped when the disk has not three times their
#            size free. kvet gets --max-input-size FILE-SIZE for a dump over
#            its default input limit (512 MiB, docs/input.md), here and in
#            the targets.
#
# Each timed command runs RUNS times; tables show the median wall time and
# the largest peak RSS (bench/measure, from wait4()). Progress goes to
# stderr, the Markdown for docs/performance.md to stdout:
# `bench/run.sh > table.md` keeps just the tables.
#
# Environment:
#   BUILD            build directory (default: build)
#   RUNS             runs per measurement (default: 3)
#   SCALE            object counts of the scale table (default:
#                    "10000 100000 1000000"; empty: no scale table)
#   KVET_EXTRA_ARGS  extra options for every kvet run (e.g. -j 1)
#   KEEP_DUMPS       1: keep the scale dumps over 500,000 objects
#   MANAGED          0: no managedFields table (default: 1)
#   INSTR_N          objects of the callgrind dumps (default: 10000;
#                    empty: no instruction table)
#
# Drain: for each NODESxPODS, bench/out/cluster-NODESxPODS.yaml comes from
# `gen_cluster NODES PODS` (a cluster with budgets that block some nodes,
# emptyDir caches, zonal StatefulSets and a fail-closed webhook) and
# bench/out/cluster-NODESxPODS-clean.yaml from `gen_cluster --clean`, whose
# rolling plan goes through every node. Measured in the same run: kvet lint
# and kvet drain (each node alone) on the first, kvet lint and kvet drain
# --rolling on the second; the table gives the ratios to lint, of time
# and of peak RSS. A second row does the same on a nearly full pool,
# `gen_cluster --full` (and `--clean --full`): bench/out/cluster-NxP-full.yaml
# and cluster-NxP-clean-full.yaml.
#
# kvet's exit status 0, 1 (findings) and 2 (some input unusable) all count
# as a run; 2 is reported because it means the dump did not fully load.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
RUNS=${RUNS:-3}
SCALE=${SCALE-10000 100000 1000000}
KVET_EXTRA_ARGS=${KVET_EXTRA_ARGS:-}
KEEP_DUMPS=${KEEP_DUMPS:-0}
MANAGED=${MANAGED:-1}
INSTR_N=${INSTR_N-10000}
OUT=$ROOT/bench/out
# kvet's default input limit (docs/input.md): a larger dump needs
# --max-input-size, which size_args gives
KVET_MAX_INPUT=536870912

# shellcheck source=bench/lib.sh
. "$ROOT/bench/lib.sh"

[ -d "$BUILD" ] || die "no build directory '$BUILD' (meson setup $BUILD && ninja -C $BUILD, or set BUILD)"
BUILD=$(cd "$BUILD" && pwd)
GEN=$BUILD/bench/gen_dump
SCAN=$BUILD/bench/event_scan
MEASURE=$BUILD/bench/measure
KVET=$BUILD/kvet
for t in "$GEN" "$SCAN" "$MEASURE" "$KVET"; do
	[ -x "$t" ] || die "$t is missing: run ninja -C $BUILD"
done
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number"
sizes=()
clusters=()
for n in "$@"; do
	if [[ "$n" =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]]; then
		clusters+=("$n")
	elif [[ "$n" =~ ^[1-9][0-9]*$ ]]; then
		sizes+=("$n")
	else
		die "'$n' is not a number of objects nor NODESxPODS"
	fi
done
[ ${#sizes[@]} -le 1 ] || die "one number of objects at most (SCALE sets the scale table)"
[ $# -gt 0 ] || sizes=(100000)
N=${sizes[0]-}
for m in $SCALE; do
	[[ "$m" =~ ^[1-9][0-9]*$ ]] || die "SCALE: '$m' is not a number of objects"
done

# dump_name N ARGS... -> bench/out/dump-N[-overlap].{yaml,json}
dump_name() {
	local n=$1 ext=yaml tag="" a
	shift
	for a in "$@"; do
		case $a in
		--json) ext=json ;;
		--*) tag="$tag-${a#--}" ;;
		esac
	done
	echo "$OUT/dump-$n$tag.$ext"
}

# Generate into a temporary name first so that an interrupted run never
# leaves a truncated dump to be reused. Returns 1 when the disk is short.
make_dump() {
	local n=$1 f avail need
	shift
	f=$(dump_name "$n" "$@")
	if [ -s "$f" ] && [ ! "$GEN" -nt "$f" ]; then
		note "reusing $f"
		return 0
	fi
	# about 2 KB an object in YAML, 4 KB in JSON; three times that free
	need=$((n * 12))
	avail=$(df -Pk "$OUT" | awk 'NR == 2 { print $4 }')
	if [ "$avail" -lt "$need" ]; then
		note "not generating $f: $((avail / 1024)) MiB free, want $((need / 1024)) MiB"
		return 1
	fi
	note "generating $f"
	"$GEN" "$@" "$n" >"$f.tmp"
	mv "$f.tmp" "$f"
}

# size_args FILE: the options kvet needs to read FILE, one a line
size_args() {
	local bytes
	bytes=$(stat -c %s "$1")
	[ "$bytes" -le "$KVET_MAX_INPUT" ] || printf '%s\n' --max-input-size "$bytes"
}

# The findings of a whole lint, from the summary at the end of the JSON
# report; the report is read as it streams, never stored.
count_findings() {
	local report
	# kvet exits 1 when it finds something: not a failure here
	# shellcheck disable=SC2046,SC2086
	report=$( ("$KVET" lint --format json $(size_args "$1") $KVET_EXTRA_ARGS "$1" 2>/dev/null || true) |
		tail -c 4096)
	printf '%s' "$report" |
		tr -d ' \n' |
		sed -n 's/.*"findings":{"error":\([0-9]*\),"warning":\([0-9]*\),"info":\([0-9]*\)}.*/\1 \2 \3/p' |
		awk '{ print $1 + $2 + $3 }'
}

# make_cluster NxP [FLAG...] -> the dump's path, generated once:
# bench/out/cluster-NxP[-clean][-full].yaml for --clean and --full.
make_cluster() {
	local spec=$1 f a tag=""
	shift
	for a in "$@"; do
		tag="$tag-${a#--}"
	done
	f=$OUT/cluster-$spec$tag.yaml
	if [ ! -s "$f" ] || [ "$BUILD/bench/gen_cluster" -nt "$f" ]; then
		note "generating $f"
		"$BUILD/bench/gen_cluster" "$@" "${spec%x*}" "${spec#*x}" > "$f.tmp"
		mv "$f.tmp" "$f"
	fi
	echo "$f"
}

# drain_row POOL NxP FLAGS: one row of the drain table, lint and each
# node alone on `gen_cluster FLAGS`, lint and --rolling on the same
# with --clean: wall and CPU times, peak RSS, and their ratios to lint
# (CPU times say more than wall times on a machine shared with others).
drain_row() {
	local pool=$1 spec=$2 f fc l e l2 r
	# shellcheck disable=SC2086
	f=$(make_cluster "$spec" $3)
	# shellcheck disable=SC2086
	fc=$(make_cluster "$spec" --clean $3)
	l=$(measure_both "lint $pool" '0|1' "$KVET" lint --format json "$f")
	e=$(measure_both "drain $pool" '0|1' "$KVET" drain --format json "$f")
	l2=$(measure_both "lint $pool clean" '0|1' "$KVET" lint --format json "$fc")
	r=$(measure_both "rolling $pool" '0|1' "$KVET" drain --rolling --format json "$fc")
	echo "$pool ${spec%x*} ${spec#*x} $l $e $l2 $r" | awk '{
		printf("| %s | %d | %d", $1, $2, $3)
		# wall cpu kib status, four times: lint, each, lint clean, rolling
		for (i = 0; i < 2; i++) {
			b = 4 + 8 * i
			printf(" | %.2f | %.2f | %.0f | %.2f | %.2f | %.0f | %.2fx | %.2fx | %.2fx",
				$b, $(b + 1), $(b + 2) / 1024,
				$(b + 4), $(b + 5), $(b + 6) / 1024,
				$(b + 4) / $b, $(b + 5) / $(b + 1),
				$(b + 6) / $(b + 2))
		}
		print " |" }'
}

# Issue 13's targets are each node alone within 2x lint's time and
# memory and a full roll within 10x its time; issue 26 asks them of a
# nearly full pool too (`gen_cluster --full`), where almost no
# replacement fits anywhere and each one costs a pass over every node.
drain_bench() {
	local spec
	[ ${#clusters[@]} -gt 0 ] || return 0
	[ -x "$BUILD/bench/gen_cluster" ] || die "$BUILD/bench/gen_cluster is missing"
	mkdir -p "$OUT"
	echo
	echo "Drain: \`gen_cluster [--full] NODES PODS\` for lint and each node alone," \
		"\`gen_cluster --clean [--full] NODES PODS\` for lint and --rolling;" \
		"median wall and CPU times of $RUNS runs, largest peak RSS; ratios to lint on the same dump."
	echo
	echo "| pool | nodes | pods | lint s | CPU s | MiB | each node s | CPU s | MiB | wall | CPU | RSS | lint (clean) s | CPU s | MiB | --rolling s | CPU s | MiB | wall | CPU | RSS |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	for spec in "${clusters[@]}"; do
		drain_row room "$spec" ""
		drain_row full "$spec" --full
	done
}

mkdir -p "$OUT"
[ -n "$N" ] || { drain_bench; exit 0; }
loadavg() {
	cut -d ' ' -f 1-3 /proc/loadavg
}
load_start=$(loadavg)

# ---------------------------------------------------------------- targets
# target_rows ARRAY EXTRA: measure the four dumps of N objects made with
# gen_dump's EXTRA options, rows appended to the array named ARRAY
target_rows() {
	local -n rows=$1
	local extra=$2 i f bytes findings
	local scan_s scan_c kvet_s kvet_c kvet_kib kvet_rc load_s load_c load_kib
	for i in "${!variants[@]}"; do
		# shellcheck disable=SC2086
		make_dump "$N" $extra ${variants[$i]} || die "no room for the $N-object dumps"
	done
	for i in "${!variants[@]}"; do
		# shellcheck disable=SC2086
		f=$(dump_name "$N" $extra ${variants[$i]})
		bytes=$(stat -c %s "$f")
		note "${labels[$i]}${extra:+ ($extra)}: $f ($bytes bytes)"
		findings=$(count_findings "$f")
		read -r scan_s scan_c _ _ < <(measure_both scan '0' "$SCAN" "$f")
		mapfile -t limit < <(size_args "$f")
		# shellcheck disable=SC2086
		read -r kvet_s kvet_c kvet_kib kvet_rc < <(measure_both kvet '0|1|2' \
			"$KVET" lint --format json "${limit[@]}" $KVET_EXTRA_ARGS "$f")
		[ "$kvet_rc" = 2 ] && note "kvet exited 2 on $f: part of the dump was not usable"
		# shellcheck disable=SC2086
		read -r load_s load_c load_kib _ < <(measure_both load '0|1|2' \
			"$KVET" lint --format json --no-builtin-rules "${limit[@]}" \
			$KVET_EXTRA_ARGS "$f")
		rows+=("${labels[$i]}|$N|$bytes|${findings:-?}|$scan_s|$scan_c|$kvet_s|$kvet_c|$kvet_kib|$load_s|$load_c|$load_kib")
	done
}

# instr CMD...: the instructions CMD executes (callgrind; kvet's exit
# status 1, findings, is not a failure)
instr() {
	local out
	out=$(mktemp)
	valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" \
		>/dev/null 2>"$out" || true
	sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out"
	rm -f "$out"
}

variants=("" "--overlap" "--json" "--overlap --json")
labels=("YAML" "YAML, findings-heavy" "JSON" "JSON, findings-heavy")
trows=()
target_rows trows ""
mrows=()
[ "$MANAGED" = 1 ] && target_rows mrows --managed-fields

# Instruction counts: what the machine's load does not change. kvet runs
# with -j 1 so that every instruction is counted once, on one thread.
irows=()
if [ -n "$INSTR_N" ] && command -v valgrind >/dev/null; then
	for i in 1 3; do
		# shellcheck disable=SC2086
		make_dump "$INSTR_N" ${variants[$i]} || die "no room for the $INSTR_N-object dumps"
		# shellcheck disable=SC2086
		f=$(dump_name "$INSTR_N" ${variants[$i]})
		note "instructions: ${labels[$i]}: $f"
		findings=$(count_findings "$f")
		scan_i=$(instr "$SCAN" "$f")
		# shellcheck disable=SC2086
		kvet_i=$(instr "$KVET" lint -j 1 --format json $KVET_EXTRA_ARGS "$f")
		# shellcheck disable=SC2086
		load_i=$(instr "$KVET" lint -j 1 --format json --no-builtin-rules \
			$KVET_EXTRA_ARGS "$f")
		irows+=("${labels[$i]}|$INSTR_N|$(stat -c %s "$f")|${findings:-?}|$scan_i|$kvet_i|$load_i")
	done
fi

# ------------------------------------------------------------------ scale
srows=()
for m in $SCALE; do
	make_dump "$m" || {
		srows+=("$m|skipped: not enough disk")
		continue
	}
	f=$(dump_name "$m")
	bytes=$(stat -c %s "$f")
	mapfile -t limit < <(size_args "$f")
	note "scale: $f ($bytes bytes)${limit[*]:+, kvet ${limit[*]}}"
	read -r scan_s scan_c scan_kib _ < <(measure_both scan '0' "$SCAN" "$f")
	# shellcheck disable=SC2086
	read -r kvet_s kvet_c kvet_kib _ < <(measure_both kvet '0|1|2' \
		"$KVET" lint --format json "${limit[@]}" $KVET_EXTRA_ARGS "$f")
	srows+=("$m|$bytes|$scan_s|$kvet_s|$kvet_c|$kvet_kib")
	if [ "$m" -gt 500000 ] && [ "$KEEP_DUMPS" != 1 ]; then
		note "deleting $f (KEEP_DUMPS=1 keeps it)"
		rm -f "$f"
	fi
done

# ----------------------------------------------------------------- report
# Units: input in MB (10^6 bytes, as file sizes are quoted), memory in MiB
# (ru_maxrss is KiB); memory ratios are peak RSS over input bytes.
fyv=$(pkg-config --modversion libfyaml 2>/dev/null || echo "?")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
kv=$("$KVET" version 2>/dev/null | head -n 1 || echo "kvet ?")
echo "Measured $(date -u +%Y-%m-%d) on ${cpu:-unknown CPU} ($(nproc) CPUs)," \
	"$(uname -sr), libfyaml $fyv, $kv; median of $RUNS runs, largest" \
	"peak RSS; load average $load_start at the start, $(loadavg) at the end." \
	"kvet options: --format json${KVET_EXTRA_ARGS:+ $KVET_EXTRA_ARGS}."
echo
time_table() {
	local r
	echo "| dump | objects | input MB | findings | event scan s (cpu s) | kvet s (cpu s) | kvet / scan | load-only s (cpu s) | scan / load | rules+reports / load | kvet MiB | kvet peak / input |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	for r in "$@"; do
		awk -F'|' '{
			b = $3; ss = $5; ks = $7; kc = $8; kk = $9; ls = $10; lc = $11
			printf "| %s | %d | %.1f | %s | %.2f (%.2f) | %.2f (%.2f) | %.2fx | %.2f (%.2f) | %.1fx | %.2fx | %.0f | %.2fx |\n",
				$1, $2, b / 1e6, $4, ss, $6, ks, kc, ks / ss, ls, lc,
				ss / ls, (ks - ls) / ls, kk / 1024, kk * 1024 / b
		}' <<<"$r"
	done
}
echo "As kubectl prints them today (no managedFields):"
echo
time_table "${trows[@]}"
if [ ${#irows[@]} -gt 0 ]; then
	echo
	echo "Instructions (callgrind, kvet -j 1) on \`gen_dump\` dumps of $INSTR_N objects:"
	echo
	echo "| dump | objects | input MB | findings | event scan Minstr | kvet Minstr | kvet / scan | load-only Minstr | load / scan | rules+reports Minstr | rules+reports instr per finding |"
	echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	for r in "${irows[@]}"; do
		awk -F'|' '{
			s = $5; k = $6; l = $7
			printf "| %s | %d | %.1f | %s | %.1f | %.1f | %.2fx | %.1f | %.2fx | %.1f | %.0f |\n",
				$1, $2, $3 / 1e6, $4, s / 1e6, k / 1e6, k / s, l / 1e6,
				l / s, (k - l) / 1e6, ($4 > 0) ? (k - l) / $4 : 0
		}' <<<"$r"
	done
fi
if [ ${#mrows[@]} -gt 0 ]; then
	echo
	echo "With managedFields (\`gen_dump --managed-fields\`, as kubectl printed before v1.21):"
	echo
	time_table "${mrows[@]}"
fi
echo
echo "| target | dump | measured | goal | met |"
echo "| --- | --- | ---: | ---: | --- |"
for r in "${trows[@]}"; do
	awk -F'|' '
	function row(t, d, v, goal, le) {
		printf "| %s | %s | %.2fx | %s%.2fx | %s |\n", t, d, v,
			le ? "<= " : ">= ", goal,
			(le ? v <= goal : v >= goal) ? "yes" : "no"
	}
	{
		d = $1; b = $3; ss = $5; ks = $7; kk = $9; ls = $10
		heavy = d ~ /heavy/
		if (d ~ /^YAML/)
			row("1 lint / event scan", d, ks / ss, 1.0, 1)
		else {
			row("2 event scan / load", d, ss / ls, 5.0, 0)
			row("2 lint / event scan", d, ks / ss, heavy ? 0.3 : 0.2, 1)
		}
		row("3 peak RSS / input", d, kk * 1024 / b, 1.5, 1)
		if (heavy)
			row("4 rules+reports / load (" $4 " findings)", d,
			    (ks - ls) / ls, 0.5, 1)
	}' <<<"$r"
done
if [ ${#srows[@]} -gt 0 ]; then
	echo
	echo "Scale: \`gen_dump M\`, kvet with every rule (and \`--max-input-size\` over 512 MiB)."
	echo
	echo "| objects | input MB | event scan s | kvet s | kvet cpu s | kvet s per 100k objects | kvet cpu s per 100k objects | kvet MiB | kvet peak / input |"
	echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	first="" cfirst="" last="" clast=""
	measured=0
	for r in "${srows[@]}"; do
		case $r in
		*skipped*)
			echo "| ${r%%|*} | ${r#*|} | | | | | | | |"
			continue
			;;
		esac
		line=$(awk -F'|' '{
			printf "| %d | %.1f | %.2f | %.2f | %.2f | %.2f | %.1f | %.0f | %.2fx |\n",
				$1, $2 / 1e6, $3, $4, $5, $4 / $1 * 100000,
				$5 / $1 * 100000, $6 / 1024, $6 * 1024 / $2
		}' <<<"$r")
		echo "$line"
		per=$(awk -F'|' '{ printf "%.6f", $4 / $1 * 100000 }' <<<"$r")
		cper=$(awk -F'|' '{ printf "%.6f", $5 / $1 * 100000 }' <<<"$r")
		[ -n "$first" ] || { first=$per; cfirst=$cper; }
		last=$per
		clast=$cper
		measured=$((measured + 1))
	done
	# linear growth needs two sizes to compare
	if [ "$measured" -ge 2 ]; then
		echo
		awk -v a="$first" -v b="$last" -v ca="$cfirst" -v cb="$clast" 'BEGIN {
			printf "5 scale: time per object at the largest size measured over the smallest: %.2fx (linear: about 1; goal <= 1.25x): %s; in CPU time %.2fx\n",
				b / a, b / a <= 1.25 ? "met" : "not met", cb / ca
		}'
	fi
fi
drain_bench

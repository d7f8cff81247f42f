#!/usr/bin/env bash
# run.sh - time kvet against the libfyaml event scan on synthetic dumps.
#
# Usage: bench/run.sh [N...] [NODESxPODS...]
#                                        (default sizes: 10000 100000)
#
# A size NODESxPODS (1000x30000) measures kvet drain instead (see "Drain"
# below).
#
# Builds nothing: build first (meson setup build && ninja -C build). For each
# size N it generates bench/out/dump-N.yaml once (again only when gen_dump is
# newer than the dump), then runs, in the same run and on the same file:
#   scan   $BUILD/bench/event_scan FILE         the loader's lower bound
#   kvet   $BUILD/kvet lint --format json FILE  the whole lint
#   load   the same with $KVET_NORULES_ARGS, when set
# each RUNS times, and reports the median wall time and the largest peak RSS.
# Progress goes to stderr; a Markdown table for docs/performance.md goes to
# stdout, so `bench/run.sh > table.md` keeps just the table.
#
# Environment:
#   BUILD              build directory (default: build), relative to the
#                      current directory
#   RUNS               runs per measurement (default: 3)
#   GEN_ARGS           extra gen_dump options, e.g. --full or --json; they
#                      become part of the dump's file name
#   KVET_EXTRA_ARGS    extra options for every kvet run
#   KVET_NORULES_ARGS  options that make kvet load and index without running
#                      rules (e.g. "--disable all", once kvet has such a flag);
#                      when set, a "load" variant is measured too
#
# Drain: for each NODESxPODS, bench/out/cluster-NODESxPODS.yaml comes from
# `gen_cluster NODES PODS` (a cluster with budgets that block some nodes,
# emptyDir caches, zonal StatefulSets and a fail-closed webhook) and
# bench/out/cluster-NODESxPODS-clean.yaml from `gen_cluster --clean`, whose
# rolling plan goes through every node. Measured in the same run: kvet lint
# and kvet drain (each node alone) on the first, kvet lint and kvet drain
# --rolling on the second; the table gives the ratios to lint.
#
# kvet's exit status 0, 1 (findings) and 2 (some input unusable) all count
# as a run; 2 is reported because it means the dump did not fully load.
# If $BUILD/kvet does not exist the kvet columns say "n/a".
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-build}
RUNS=${RUNS:-3}
GEN_ARGS=${GEN_ARGS:-}
KVET_EXTRA_ARGS=${KVET_EXTRA_ARGS:-}
KVET_NORULES_ARGS=${KVET_NORULES_ARGS:-}
OUT=$ROOT/bench/out

die() {
	echo "run.sh: $*" >&2
	exit 1
}

note() {
	echo "run.sh: $*" >&2
}

[ -d "$BUILD" ] || die "no build directory '$BUILD' (meson setup $BUILD && ninja -C $BUILD, or set BUILD)"
BUILD=$(cd "$BUILD" && pwd)
GEN=$BUILD/bench/gen_dump
SCAN=$BUILD/bench/event_scan
MEASURE=$BUILD/bench/measure
KVET=$BUILD/kvet
for t in "$GEN" "$SCAN" "$MEASURE"; do
	[ -x "$t" ] || die "$t is missing: run ninja -C $BUILD"
done
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number"

have_kvet=1
if [ ! -x "$KVET" ]; then
	have_kvet=0
	note "$KVET not found: measuring the event scan only (kvet columns are n/a)"
fi

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
[ $# -gt 0 ] || sizes=(10000 100000)

# dump-N.yaml, or dump-N-full.json for GEN_ARGS="--full --json".
dump_name() {
	local n=$1 ext=yaml tag="" a
	for a in $GEN_ARGS; do
		case $a in
		--json) ext=json ;;
		--*) tag="$tag-${a#--}" ;;
		*) tag="$tag-$a" ;;
		esac
	done
	echo "$OUT/dump-$n$tag.$ext"
}

# Generate into a temporary name first so that an interrupted run never
# leaves a truncated dump to be reused.
make_dump() {
	local n=$1 f
	f=$(dump_name "$n")
	if [ -s "$f" ] && [ ! "$GEN" -nt "$f" ]; then
		note "reusing $f"
		return
	fi
	note "generating $f"
	# shellcheck disable=SC2086
	"$GEN" $GEN_ARGS "$n" > "$f.tmp"
	mv "$f.tmp" "$f"
}

# measure_cmd NAME OKCODES CMD... -> "median_s max_kib last_status"
# OKCODES is a regex of acceptable exit statuses.
measure_cmd() {
	local name=$1 ok=$2 i line wall rss status times="" maxrss=0
	local res
	shift 2
	res=$(mktemp)
	for ((i = 1; i <= RUNS; i++)); do
		"$MEASURE" "$res" -- "$@" || die "$name: measure could not run $1"
		line=$(cat "$res")
		wall=$(sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' <<<"$line")
		rss=$(sed -n 's/.*maxrss_kib=\([0-9]*\).*/\1/p' <<<"$line")
		status=$(sed -n 's/.*status=\([0-9]*\).*/\1/p' <<<"$line")
		note "  $name run $i: ${wall}s, $((rss / 1024)) MiB, exit $status"
		if ! [[ "$status" =~ ^($ok)$ ]]; then
			rm -f "$res"
			die "$name failed with exit status $status: $*"
		fi
		times="$times $wall"
		((rss > maxrss)) && maxrss=$rss
	done
	rm -f "$res"
	echo "$(tr ' ' '\n' <<<"$times" | sed '/^$/d' | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
			else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }') $maxrss $status"
}

# make_cluster NxP [--clean] -> the dump's path, generated once.
make_cluster() {
	local spec=$1 flag=${2-} f
	f=$OUT/cluster-$spec${flag:+-clean}.yaml
	if [ ! -s "$f" ] || [ "$BUILD/bench/gen_cluster" -nt "$f" ]; then
		note "generating $f"
		"$BUILD/bench/gen_cluster" $flag "${spec%x*}" "${spec#*x}" > "$f.tmp"
		mv "$f.tmp" "$f"
	fi
	echo "$f"
}

drain_bench() {
	local spec f fc lint_s each_s lint2_s roll_s
	[ ${#clusters[@]} -gt 0 ] || return 0
	[ $have_kvet = 1 ] || die "kvet drain needs $KVET"
	[ -x "$BUILD/bench/gen_cluster" ] || die "$BUILD/bench/gen_cluster is missing"
	mkdir -p "$OUT"
	echo
	echo "Drain: \`gen_cluster NODES PODS\` for lint and each node alone," \
		"\`gen_cluster --clean NODES PODS\` for lint and --rolling; median of $RUNS runs."
	echo
	echo "| nodes | pods | lint s | drain s | drain/lint | lint (clean) s | drain --rolling s | rolling/lint |"
	echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	for spec in "${clusters[@]}"; do
		f=$(make_cluster "$spec")
		fc=$(make_cluster "$spec" --clean)
		read -r lint_s _ _ < <(measure_cmd lint '0|1' "$KVET" lint --format json "$f")
		read -r each_s _ _ < <(measure_cmd drain '0|1' "$KVET" drain --format json "$f")
		read -r lint2_s _ _ < <(measure_cmd lint-clean '0|1' "$KVET" lint --format json "$fc")
		read -r roll_s _ _ < <(measure_cmd rolling '0|1' "$KVET" drain --rolling --format json "$fc")
		awk -v n="${spec%x*}" -v p="${spec#*x}" -v l="$lint_s" -v e="$each_s" \
			-v l2="$lint2_s" -v r="$roll_s" 'BEGIN {
			printf("| %d | %d | %.2f | %.2f | %.2fx | %.2f | %.2f | %.2fx |\n",
				n, p, l, e, e / l, l2, r, r / l2) }'
	done
}

mkdir -p "$OUT"
for n in "${sizes[@]}"; do
	make_dump "$n"
done
[ ${#sizes[@]} -gt 0 ] || { drain_bench; exit 0; }

rows=()
for n in "${sizes[@]}"; do
	f=$(dump_name "$n")
	bytes=$(stat -c %s "$f")
	note "$n objects: $f ($bytes bytes)"

	read -r scan_s scan_kib _ < <(measure_cmd scan '0' "$SCAN" "$f")
	kvet_s=n/a kvet_kib=n/a load_s=n/a load_kib=n/a
	if [ $have_kvet = 1 ]; then
		# shellcheck disable=SC2086
		read -r kvet_s kvet_kib kvet_rc < <(measure_cmd kvet '0|1|2' \
			"$KVET" lint --format json $KVET_EXTRA_ARGS "$f")
		[ "$kvet_rc" = 2 ] && note "kvet exited 2 on $f: part of the dump was not usable"
		if [ -n "$KVET_NORULES_ARGS" ]; then
			# shellcheck disable=SC2086
			read -r load_s load_kib load_rc < <(measure_cmd load '0|1|2' \
				"$KVET" lint --format json $KVET_EXTRA_ARGS $KVET_NORULES_ARGS "$f")
			[ "$load_rc" = 2 ] && note "kvet (load) exited 2 on $f"
		fi
	fi
	rows+=("$n $bytes $scan_s $scan_kib $kvet_s $kvet_kib $load_s $load_kib")
done

# Units: input in MB (10^6 bytes, as file sizes are quoted), memory in MiB
# (ru_maxrss is KiB); the memory ratio is peak RSS over input bytes.
fyv=$(pkg-config --modversion libfyaml 2>/dev/null || echo "?")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
kv="kvet n/a"
[ $have_kvet = 1 ] && kv=$("$KVET" version 2>/dev/null | head -n 1 || echo "kvet ?")
echo "Measured $(date -u +%Y-%m-%d) on ${cpu:-unknown CPU} ($(nproc) CPUs), $(uname -sr)," \
	"libfyaml $fyv, $kv; median of $RUNS runs, largest peak RSS." \
	"Dumps from \`gen_dump${GEN_ARGS:+ $GEN_ARGS} N\`."
echo
hdr="| objects | input MB | event scan s | scan MiB | kvet s | kvet MiB | kvet/scan time | kvet peak/input |"
sep="| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
if [ -n "$KVET_NORULES_ARGS" ]; then
	hdr="$hdr kvet load-only s | load-only MiB |"
	sep="$sep ---: | ---: |"
fi
echo "$hdr"
echo "$sep"
for r in "${rows[@]}"; do
	awk -v norules="$KVET_NORULES_ARGS" '
	function mib(k) { return k == "n/a" ? k : sprintf("%.0f", k / 1024) }
	{
		n = $1; b = $2; ss = $3; sk = $4; ks = $5; kk = $6; ls = $7; lk = $8
		tr = ks == "n/a" ? "n/a" : sprintf("%.2fx", ks / ss)
		mr = kk == "n/a" ? "n/a" : sprintf("%.2fx", kk * 1024 / b)
		line = sprintf("| %d | %.1f | %.2f | %s | %s | %s | %s | %s |",
			n, b / 1e6, ss, mib(sk),
			ks == "n/a" ? ks : sprintf("%.2f", ks), mib(kk), tr, mr)
		if (norules != "")
			line = line sprintf(" %s | %s |",
				ls == "n/a" ? ls : sprintf("%.2f", ls), mib(lk))
		print line
	}' <<<"$r"
done
drain_bench

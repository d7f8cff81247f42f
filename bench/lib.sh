# SPDX-License-Identifier: Apache-2.0
# lib.sh - what bench/run.sh and bench/corpus.sh share: messages, and
# measuring a command RUNS times with $MEASURE (bench/measure).

die() {
	echo "${0##*/}: $*" >&2
	exit 1
}

note() {
	echo "${0##*/}: $*" >&2
}

# measure_both NAME OKCODES CMD... -> "median_wall median_cpu max_kib status":
# OKCODES is a regex of acceptable exit statuses.
measure_both() {
	local name=$1 ok=$2 i line wall cpu rss status walls="" cpus="" maxrss=0
	local res
	shift 2
	res=$(mktemp)
	for ((i = 1; i <= RUNS; i++)); do
		"$MEASURE" "$res" -- "$@" || die "$name: measure could not run $1"
		line=$(cat "$res")
		wall=$(sed -n 's/.*wall_s=\([0-9.]*\).*/\1/p' <<<"$line")
		cpu=$(sed -n 's/.*cpu_s=\([0-9.]*\).*/\1/p' <<<"$line")
		rss=$(sed -n 's/.*maxrss_kib=\([0-9]*\).*/\1/p' <<<"$line")
		status=$(sed -n 's/.*status=\([0-9]*\).*/\1/p' <<<"$line")
		note "  $name run $i: ${wall}s (cpu ${cpu}s), $((rss / 1024)) MiB, exit $status"
		if ! [[ "$status" =~ ^($ok)$ ]]; then
			rm -f "$res"
			die "$name failed with exit status $status: $*"
		fi
		walls="$walls $wall"
		cpus="$cpus $cpu"
		((rss > maxrss)) && maxrss=$rss
	done
	rm -f "$res"
	echo "$(median $walls) $(median $cpus) $maxrss $status"
}

median() {
	tr ' ' '\n' <<<"$*" | sed '/^$/d' | sort -g |
		awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
			else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure_cmd NAME OKCODES CMD... -> "median_s max_kib last_status":
# measure_both without the CPU time.
measure_cmd() {
	local wall kib status
	read -r wall _ kib status < <(measure_both "$@")
	echo "$wall $kib $status"
}


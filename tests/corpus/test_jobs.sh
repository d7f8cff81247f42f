#!/usr/bin/env bash
# The output of kvet does not depend on -j: the text and JSON reports are
# byte-identical with -j 1, 2 and 8
#   - for every corpus unit of test_findings.sh (every manifest alone,
#     every dumps/ file alone and dumps/ together, every cluster dataset);
#   - for both generated dumps (bench/gen_dump: few findings, and
#     --overlap: findings-heavy), YAML and JSON, large enough (3000
#     objects, 4 to 10 MB) to be parsed in pieces on several threads, and
#     the few-findings YAML with --managed-fields, which the loader drops
#     in every piece;
#   - for kvet drain on a generated cluster (bench/gen_cluster, 2.7 MB, so
#     also loaded in pieces): each node alone, and --rolling on the
#     --clean one, whose plan goes through every node; and --rolling on a
#     synthetic pool of 30 nodes for the findings-heavy dump, which holds
#     controllers only, as rendered manifests do.
# Without ../shared the corpus part is skipped, saying so; the generated
# part always runs.
# Usage: test_jobs.sh KVET GEN_DUMP GEN_CLUSTER CORPUS
set -u
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
gen=$2
gen_cluster=$3
corpus=$4
export LC_ALL=C
shopt -s nullglob
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

n=0 fail=0

# same_for_jobs NAME PATH...: one lint per -j, reports compared;
# $cmd is the subcommand and its options (lint by default)
cmd=lint
same_for_jobs() {
	local name=$1 j
	shift
	n=$((n + 1))
	for j in 1 2 8; do
		# shellcheck disable=SC2086 # the options are words
		NO_COLOR=1 "$kvet" $cmd --no-config --color never -j "$j" \
			--format text --format "json=$tmp/$j.json" "$@" \
			>"$tmp/$j.txt" 2>&1
		echo "exit $?" >>"$tmp/$j.txt"
	done
	for j in 2 8; do
		if ! cmp -s "$tmp/1.txt" "$tmp/$j.txt" ||
		   ! cmp -s "$tmp/1.json" "$tmp/$j.json"; then
			echo "FAIL: $name: the report with -j $j differs from -j 1"
			diff "$tmp/1.txt" "$tmp/$j.txt" | head -n 10
			fail=$((fail + 1))
			return
		fi
	done
}

i=0
for args in "" "--overlap" "--json" "--overlap --json" "--managed-fields"; do
	i=$((i + 1))
	case $args in
	*json*) f=$tmp/dump$i.json ;;
	*) f=$tmp/dump$i.yaml ;;
	esac
	# shellcheck disable=SC2086 # the options are words
	"$gen" $args 3000 >"$f" || { echo "FAIL: gen_dump $args"; exit 1; }
	same_for_jobs "gen_dump $args 3000" "$f"
	# controllers only, as rendered manifests are: kvet drain installs
	# them on a synthetic pool and rolls it
	[ "$args" = --overlap ] &&
		cmd="drain --rolling --pool 30x3" same_for_jobs \
			"drain --pool on gen_dump $args 3000" "$f"
	rm -f "$f"
done

# more than 8192 findings: the JSON report's findings are written on
# several threads, in batches
"$gen" --overlap 6000 >"$tmp/many.yaml" || { echo "FAIL: gen_dump"; exit 1; }
same_for_jobs "gen_dump --overlap 6000" "$tmp/many.yaml"
rm -f "$tmp/many.yaml"

# the field-type check runs on several threads from 4096 objects on; a
# StatefulSet whose spec is an alias of a Deployment's shares its
# "replicas: -1", which on one thread the StatefulSet reads invalidated
{
	printf 'apiVersion: v1\nkind: List\nitems:\n'
	for ((k = 0; k < 2100; k++)); do
		printf -- '- {apiVersion: apps/v1, kind: Deployment, metadata: {name: d%d},\n' "$k"
		printf '   spec: &s%d {replicas: -1, selector: {matchLabels: {app: a%d}}}}\n' "$k" "$k"
		printf -- '- {apiVersion: apps/v1, kind: StatefulSet, metadata: {name: s%d}, spec: *s%d}\n' "$k" "$k"
	done
} >"$tmp/alias.yaml"
same_for_jobs "aliased invalid fields" "$tmp/alias.yaml"
rm -f "$tmp/alias.yaml"

# kvet drain reads the whole graph; 60 nodes, 2600 pods
"$gen_cluster" 60 2600 >"$tmp/cluster.yaml" &&
	"$gen_cluster" --clean 60 2600 >"$tmp/clean.yaml" ||
	{ echo "FAIL: gen_cluster"; exit 1; }
cmd=drain same_for_jobs "drain, each node" "$tmp/cluster.yaml"
cmd="drain --rolling" same_for_jobs "drain --rolling" "$tmp/clean.yaml"
rm -f "$tmp/cluster.yaml" "$tmp/clean.yaml"

if [ ! -d "$corpus" ]; then
	echo "# SKIP: corpus part: corpus not found at $corpus (it sits beside the repository as ../shared/corpus; a standalone clone has none)"
else
	cd "$corpus" || exit 1
	for f in *.yaml *.json dumps/*.yaml dumps/*.json; do
		same_for_jobs "$f" "$f"
	done
	same_for_jobs dumps dumps
	for d in cluster-dumps/*/; do
		same_for_jobs "${d%/}" "${d%/}"
	done
	f=(cluster-dumps/kubevious-parser-data-*.yaml)
	[ ${#f[@]} -gt 0 ] && same_for_jobs cluster-dumps/kubevious-parser-data "${f[@]}"
fi

echo "$n units, $fail with reports that depend on -j"
[ "$fail" = 0 ]

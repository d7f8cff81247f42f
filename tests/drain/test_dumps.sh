#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# kvet drain over every dataset of the shared corpus's cluster-dumps/
# (five live clusters; a folder, or the kubevious-parser-data files, which
# are one cluster), each node alone and rolled, compared byte for byte
# with testdata/drain-dumps/UNIT.PLAN.txt (the text report, run from the
# corpus folder so paths are short). docs/drain.md reviews these verdicts.
# Every run must end in 0 or 1: an input error or a crash is a failure.
# Without ../shared the test is skipped, saying so. --update rewrites the
# expected files (never in CI).
# Usage: test_dumps.sh [--update] KVET CORPUS EXPECTED_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
update=0
[ "${1-}" = --update ] && { update=1; shift; }
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$2
expected=$(mkdir -p "$3" && cd "$3" && pwd)
if [ ! -d "$corpus/cluster-dumps" ]; then
	skip_all "corpus not found at $corpus (it sits beside the repository as ../shared/corpus; a standalone clone has none)"
fi
export LC_ALL=C NO_COLOR=1
shopt -s nullglob
cd "$corpus" || exit 1

units() {
	local d f
	for d in cluster-dumps/*/; do
		echo "${d%/} ${d%/}"
	done
	f=(cluster-dumps/kubevious-parser-data-*.yaml)
	[ ${#f[@]} -gt 0 ] && echo "cluster-dumps/kubevious-parser-data ${f[*]}"
}

tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
while read -r unit paths; do
	for plan in each rolling; do
		name=${unit//\//_}.$plan.txt
		args=()
		[ $plan = rolling ] && args=(--rolling)
		# shellcheck disable=SC2086
		"$kvet" drain "${args[@]}" $paths >"$tmp" 2>&1
		rc=$?
		if [ $rc -gt 1 ]; then
			notok "$unit ($plan): exit $rc"
			sed 's/^/# /' "$tmp" | tail -n 5
			continue
		fi
		if [ $update = 1 ]; then
			cp "$tmp" "$expected/$name" && chmod 644 "$expected/$name"
			ok "$unit ($plan) # updated"
		elif cmp -s "$tmp" "$expected/$name"; then
			ok "$unit ($plan)"
		else
			notok "$unit ($plan): the report differs from $name"
			diff -u "$expected/$name" "$tmp" | head -n 20 | sed 's/^/# /'
		fi
	done
done < <(units)
done_testing

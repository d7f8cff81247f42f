#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# kvet drain --rolling over every manifest at the top of the shared
# corpus, each installed alone on the default synthetic pool (3 nodes in
# 3 zones), compared byte for byte with testdata/drain-pool-corpus/FILE.txt
# (the text report, run from the corpus folder so paths are short). Then
# the table of docs/drain.md, "The corpus on the synthetic pool", which
# reviews these rolls by hand, must list every file with the pods placed
# and the verdict its report gives. Every run must end in 0 or 1: an input
# error or a crash is a failure. Without ../shared the test is skipped,
# saying so. --update rewrites the expected files (never in CI).
# Usage: test_pool_corpus.sh [--update] KVET CORPUS EXPECTED_DIR DRAIN_MD
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
update=0
[ "${1-}" = --update ] && { update=1; shift; }
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$2
expected=$(mkdir -p "$3" && cd "$3" && pwd)
doc=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
if [ ! -d "$corpus" ]; then
	skip_all "corpus not found at $corpus (it sits beside the repository as ../shared/corpus; a standalone clone has none)"
fi
export LC_ALL=C NO_COLOR=1
shopt -s nullglob
cd "$corpus" || exit 1

# The row of FILE in the review table: "| FILE | PODS | VERDICT | ...";
# a row may name two files that roll alike ("a.yaml, b.yaml").
row() {
	awk -F' [|] ' -v f="$1" '/^## The corpus on the synthetic pool/ { on = 1; next }
		on && /^## / { exit }
		on && /^[|] / { sub(/^[|] /, ""); n = split($1, names, ", ")
			for (i = 1; i <= n; i++) if (names[i] == f) { print $2 "|" $3; exit } }' "$doc"
}

tmp=$(mktemp) || exit 2
trap 'rm -f "$tmp"' EXIT
for f in *.yaml *.json; do
	"$kvet" drain --rolling --pool 3x3 "$f" >"$tmp" 2>&1
	rc=$?
	if [ $rc -gt 1 ]; then
		notok "$f: exit $rc"
		sed 's/^/# /' "$tmp" | tail -n 5
		continue
	fi
	if [ $update = 1 ]; then
		cp "$tmp" "$expected/$f.txt" && chmod 644 "$expected/$f.txt"
		ok "$f # updated"
	elif cmp -s "$tmp" "$expected/$f.txt"; then
		ok "$f"
	else
		notok "$f: the report differs from $f.txt"
		diff -u "$expected/$f.txt" "$tmp" | head -n 20 | sed 's/^/# /'
	fi

	pods=$(sed -n 's/^  synthetic pool: .*; \([0-9]*\) pods\{0,1\} placed.*/\1/p' "$tmp")
	verdict=$(sed -n 's/^drain, rolling: [0-9]* steps\{0,1\}: //p' "$tmp")
	reviewed=$(row "$f")
	want_pods=${reviewed%%|*}
	want_verdict=${reviewed#*|}
	want_verdict=${want_verdict//\*/}
	if [ -z "$reviewed" ]; then
		notok "$f: docs/drain.md does not review it"
	elif [ "$want_pods" = "$pods" ] && [ "$want_verdict" = "$verdict" ]; then
		ok "$f: docs/drain.md reviews it as it rolls ($pods pods, $verdict)"
	else
		notok "$f: docs/drain.md says $want_pods pods, $want_verdict; the roll gives $pods pods, $verdict"
	fi
done
# a golden file whose manifest is gone is an error, not a silent leftover
for g in "$expected"/*.txt; do
	g=$(basename "$g" .txt)
	[ -e "$g" ] && continue
	notok "$g.txt has no manifest in the corpus"
done
done_testing

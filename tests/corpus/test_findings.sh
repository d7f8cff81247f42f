#!/usr/bin/env bash
# kvet over every file of the shared corpus of real manifests (and over
# dumps/ as one cluster dump), compared
# byte for byte with testdata/corpus/FILE.txt (the text report, run from
# the corpus folder so paths are short). Without ../shared the test is
# skipped, saying so. --update rewrites the expected files (never in CI);
# docs/corpus-findings.md is written from them by scripts/gen-corpus-findings.
# Usage: test_findings.sh [--update] KVET CORPUS EXPECTED_DIR
set -u
update=0
[ "${1-}" = --update ] && { update=1; shift; }
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$2
expected=$(mkdir -p "$3" && cd "$3" && pwd)
if [ ! -d "$corpus" ]; then
	echo "# SKIP: corpus not found at $corpus (it sits beside the repository as ../shared/corpus; a standalone clone has none)"
	exit 77
fi
n=0 fail=0
cd "$corpus" || exit 1
# every file alone, then the cluster dump's files together, as one dump
for f in $(find . -name '*.yaml' -o -name '*.json' | sed 's|^\./||' | LC_ALL=C sort) dumps; do
	n=$((n + 1))
	want=$expected/$(printf '%s' "$f" | tr / _).txt
	got=$(NO_COLOR=1 LC_ALL=C "$kvet" lint --no-config --color never "$f" 2>&1)
	got="$got
exit $?"
	if [ $update = 1 ]; then
		printf '%s\n' "$got" > "$want"
		echo "ok $n - $f # updated"
	elif [ -f "$want" ] && [ "$(cat "$want")" = "$got" ]; then
		echo "ok $n - $f"
	else
		fail=$((fail + 1))
		echo "not ok $n - $f differs from $want:"
		diff <(cat "$want" 2>/dev/null) <(printf '%s\n' "$got") | head -20 | sed 's/^/#   /'
	fi
done
echo "1..$n"
echo "$((n - fail)) passed, $fail failed"
[ $fail = 0 ]

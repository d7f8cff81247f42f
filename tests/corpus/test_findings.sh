#!/usr/bin/env bash
# kvet over the shared corpus of real manifests, compared byte for byte
# with testdata/corpus/UNIT.txt (the text report, run from the corpus
# folder so paths are short). A unit is what a user would lint at once:
#   - every manifest at the top of the corpus, alone;
#   - every file of dumps/ alone, and dumps/ as one cluster dump;
#   - every dataset of cluster-dumps/ (a folder, or the kubevious-parser-data
#     files, which are one cluster) as one dump.
# UNIT is the unit's path with "/" made "_". Without ../shared the test is
# skipped, saying so. --update rewrites the expected files (never in CI);
# docs/corpus-findings.md is written from them by scripts/gen-corpus-findings.
# Usage: test_findings.sh [--update] KVET CORPUS EXPECTED_DIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
update=0
[ "${1-}" = --update ] && { update=1; shift; }
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$2
expected=$(mkdir -p "$3" && cd "$3" && pwd)
if [ ! -d "$corpus" ]; then
	echo "# SKIP: corpus not found at $corpus (it sits beside the repository as ../shared/corpus; a standalone clone has none)"
	exit 77
fi
export LC_ALL=C
shopt -s nullglob
cd "$corpus" || exit 1

# One line per unit: its name, then the paths kvet lints.
units() {
	local f d
	for f in *.yaml *.json dumps/*.yaml dumps/*.json; do
		echo "$f $f"
	done
	echo "dumps dumps"
	for d in cluster-dumps/*/; do
		echo "${d%/} ${d%/}"
	done
	f=(cluster-dumps/kubevious-parser-data-*.yaml)
	[ ${#f[@]} -gt 0 ] && echo "cluster-dumps/kubevious-parser-data ${f[*]}"
}

while read -r name paths; do
	want=$expected/$(printf '%s' "$name" | tr / _).txt
	# shellcheck disable=SC2086 # paths are corpus names without spaces
	got=$(NO_COLOR=1 "$kvet" lint --no-config --color never $paths 2>&1)
	got="$got
exit $?"
	if [ $update = 1 ]; then
		printf '%s\n' "$got" > "$want"
		ok "$name # updated"
	elif [ -f "$want" ] && [ "$(cat "$want")" = "$got" ]; then
		ok "$name"
	else
		notok "$name differs from $want:"
		diff <(cat "$want" 2>/dev/null) <(printf '%s\n' "$got") | head -20 | sed 's/^/#   /'
	fi
done < <(units)
# a golden file whose unit is gone is an error, not a silent leftover
for want in "$expected"/*.txt; do
	found=0
	while read -r name paths; do
		[ "$want" = "$expected/$(printf '%s' "$name" | tr / _).txt" ] && found=1
	done < <(units)
	if [ $found = 0 ]; then
		if [ $update = 1 ]; then
			rm -f "$want"
			ok "$(basename "$want") # removed: no such unit"
		else
			notok "$(basename "$want") matches no corpus unit"
		fi
	fi
done
# docs/corpus-findings.md is written from these files and from the
# review: a page that no longer says what they say is stale
root=$(cd "$expected/../.." && pwd)
if [ $update = 0 ]; then
	page=$(mktemp)
	"$root/scripts/gen-corpus-findings" "$page" 2>/dev/null
	if cmp -s "$page" "$root/docs/corpus-findings.md"; then
		ok "docs/corpus-findings.md is what scripts/gen-corpus-findings writes"
	else
		notok "docs/corpus-findings.md is stale: run scripts/gen-corpus-findings"
		diff "$root/docs/corpus-findings.md" "$page" |
			head -n 10 | sed 's/^/#   /' | diag
	fi
	rm -f "$page"
fi
done_testing

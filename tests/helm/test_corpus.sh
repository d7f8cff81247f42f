#!/usr/bin/env bash
# The real charts of ../shared/corpus/charts and the kustomize trees of
# ../shared/corpus/kustomize, linted as a new user would: `kvet lint .`
# from each chart's directory (its ci/*-values.yaml matrix included) and
# from each tree's top. Checks that every render ran (no input error but
# the one root stored broken upstream), that the matrix gave one unit per
# values file plus the defaults, that only the kustomize roots were built
# (SOURCES.md lists them), that every finding names its unit, and that
# the errors and warnings are as many as docs/corpus-review.md reviewed.
# Usage: test_corpus.sh KVET CORPUS
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
corpus=$2
if [ ! -d "$corpus/charts" ] || [ ! -d "$corpus/kustomize" ]; then
	skip_all "corpus not found at $corpus (it sits beside the repository as ../shared/corpus)"
fi
for prog in helm kubectl; do
	if ! command -v "$prog" >/dev/null; then
		skip_all "$prog is not on PATH (scripts/test installs it)"
	fi
done
export NO_COLOR=1 LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# units FILE: the distinct "unit" values of a JSON report, one a line
units() {
	python3 -c 'import json,sys
r=json.load(open(sys.argv[1]))
fs=r["findings"]
print("\n".join(sorted({f.get("unit") or "(none)" for f in fs})))' "$1"
}
# counts FILE: the errors and warnings found (not input problems)
counts() {
	python3 -c 'import json,sys
f=json.load(open(sys.argv[1]))["summary"]["findings"]
print(f["error"], "errors,", f["warning"], "warnings")' "$1"
}
# reviewed NAME: the same, as docs/corpus-review.md ("Charts and kustomize
# trees") read them one by one; a change of these counts needs a review
reviewed() {
	case $1 in
	argo-cd) echo "0 errors, 44 warnings" ;;
	cert-manager) echo "2 errors, 3 warnings" ;;
	jenkins) echo "0 errors, 4 warnings" ;;
	opentelemetry-collector) echo "0 errors, 5 warnings" ;;
	prometheus-adapter) echo "0 errors, 7 warnings" ;;
	kustomize-examples) echo "3 errors, 4 warnings" ;;
	*) echo "0 errors, 0 warnings" ;;
	esac
}
# errors FILE: the number of input errors of a JSON report
errors() {
	python3 -c 'import json,sys
r=json.load(open(sys.argv[1]))
print(sum(1 for e in r.get("errors", []) if not e.get("rule")))' "$1"
}

# a failing point shows the input errors of the report it read: a
# failure seen once under load must say what helm or kubectl said
cur=
tap_explain() {
	[ -n "$cur" ] && [ -f "$cur" ] && python3 -c 'import json,sys
r=json.load(open(sys.argv[1]))
for e in r.get("errors", []):
    if not e.get("rule"):
        print("#   input error: %s: %s" % (e.get("file"), e.get("message")))' "$cur"
	return 0
}

for chart in "$corpus"/charts/*/; do
	chart=${chart%/}
	name=${chart##*/}
	[ -f "$chart/Chart.yaml" ] || continue
	(cd "$chart" && "$kvet" lint --no-config --format json .) > "$tmp/$name.json"
	rc=$?
	cur=$tmp/$name.json
	ci=$(find "$chart/ci" -maxdepth 1 -name '*-values.yaml' 2>/dev/null | wc -l)
	# SOURCES.md: its defaults fail upstream (a `fail` in NOTES.txt
	# wants image.repository set); its ci/ values render
	want=0
	[ "$name" = opentelemetry-collector ] && want=1
	if [ "$(errors "$tmp/$name.json")" = $want ] &&
		{ [ $want = 1 ] || [ $rc -le 1 ]; }; then
		ok "$name renders and lints from its directory (exit $rc, $want input errors)"
	else
		notok "$name: exit $rc, $(errors "$tmp/$name.json") input errors"
	fi
	if [ "$(counts "$tmp/$name.json")" = "$(reviewed "$name")" ]; then
		ok "$name: $(reviewed "$name"), as reviewed"
	else
		notok "$name: $(counts "$tmp/$name.json"), reviewed $(reviewed "$name"): review the change in docs/corpus-review.md"
	fi
	got=$(units "$tmp/$name.json" | grep -c .)
	nofind=$(units "$tmp/$name.json" | grep -c '^(none)$')
	if [ "$nofind" = 0 ] && [ "$got" -le $((ci + 1)) ]; then
		ok "$name: every finding names its unit ($got of $((ci + 1)) renders have findings)"
	else
		notok "$name: $nofind findings without a unit, $got units for $((ci + 1)) renders"
		units "$tmp/$name.json" | sed 's/^/#   /'
	fi
done

# kustomize: only the roots are built (SOURCES.md, "Roots")
check_tree() {
	local tree=$1 want_roots=$2 want_errors=$3
	local dir=$corpus/kustomize/$tree
	(cd "$dir" && "$kvet" lint --no-config --format text -q . 2>&1) > "$tmp/$tree.txt"
	(cd "$dir" && "$kvet" lint --no-config --format json .) > "$tmp/$tree.json"
	cur=$tmp/$tree.json
	local built
	built=$(cd "$dir" && "$kvet" lint --no-config --format json . |
		python3 -c 'import json,sys
r=json.load(sys.stdin)
print(r["summary"]["files"])')
	if [ "$(errors "$tmp/$tree.json")" = "$want_errors" ]; then
		ok "$tree: $want_errors input errors, as SOURCES.md says"
	else
		notok "$tree: $(errors "$tmp/$tree.json") input errors, not $want_errors"
		sed 's/^/#   /' "$tmp/$tree.txt" | head -5
	fi
	if [ "$(counts "$tmp/$tree.json")" = "$(reviewed "$tree")" ]; then
		ok "$tree: $(reviewed "$tree"), as reviewed"
	else
		notok "$tree: $(counts "$tmp/$tree.json"), reviewed $(reviewed "$tree"): review the change in docs/corpus-review.md"
	fi
	if grep -q "base" <(units "$tmp/$tree.json" | grep -E '/base$'); then
		notok "$tree: a base was built as a root"
	else
		ok "$tree: no base is built alone ($built inputs)"
	fi
	: "$want_roots"
}
check_tree flux2-kustomize-helm-example 6 0
check_tree kustomize-examples 9 1
grep -q "examples/transformerconfigs/images: error: .*kustomize.* failed" \
	"$tmp/kustomize-examples.txt" &&
	ok "the root stored broken upstream is an input error naming it" ||
	notok "the broken root is not reported"
# findings of a kustomize build are at the source files, which exist
python3 -c 'import json,os,sys
r=json.load(open(sys.argv[1]))
bad=[f["file"] for f in r["findings"] if f.get("unit") and not os.path.isfile(os.path.join(sys.argv[2], f["file"]))]
sys.exit(1 if bad or not r["findings"] else 0)' \
	"$tmp/kustomize-examples.json" "$corpus/kustomize/kustomize-examples" &&
	ok "every kustomize finding is at a file that exists" ||
	notok "a kustomize finding points at no file"
done_testing

#!/usr/bin/env bash
# Every rule file, .kvet.yaml and baseline of the tree through the kvet
# that reads it (issue 22): the rule files of rules/, testdata/ and
# fuzz/corpus/rule_file/ and the ```yaml blocks of docs/ that hold a rule
# (`kvet rules test` and `kvet rules`), the configurations of testdata/,
# examples/, fuzz/corpus/config/ and docs/configuration.md (`kvet lint
# --config`), the baselines of testdata/ and fuzz/corpus/baseline/
# (`kvet lint --baseline`). Whether each loads is other tests' business:
# this one fails on a sanitizer report or a crash. Meaningful in the
# ASan+UBSan build (scripts/test), skipped in others.
# Usage: every_file.sh KVET SOURCE-ROOT SANITIZE
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$1
root=$2
case ${3:-none} in
*address* | *undefined*) ;;
*)
	skip_all "not a sanitizer build (b_sanitize=${3:-none})"
	;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
manifest=$root/examples/drain-blocking.yaml

# run WHAT COMMAND...: a crash (a signal) or a sanitizer report fails
run() {
	local what=$1 rc
	shift
	"$@" >/dev/null 2>"$tmp/err"
	rc=$?
	if [ "$rc" -ge 128 ] ||
		grep -qE 'runtime error|Sanitizer|SUMMARY:' "$tmp/err"; then
		notok "$what (exit $rc)"
		sed 's/^/#   /' "$tmp/err" | head -20
	else
		ok "$what"
	fi
}

# the ```yaml blocks of markdown file $1 that match $2, one file each
blocks() {
	awk -v out="$tmp/$3" -v pat="$2" '
		/^```yaml/ { inb = 1; text = ""; next }
		/^```/ && inb { inb = 0; if (text ~ pat) { k++; f = out "-" k ".yaml"; printf "%s", text > f; close(f) } next }
		inb { text = text $0 "\n" }' "$1"
}

mkdir -p "$tmp/docs"
blocks "$root/docs/rule-language.md" '(^|\n)id: ' docs/rule
blocks "$root/docs/configuration.md" '.' docs/config
cd "$root" || exit 1
while IFS= read -r -d '' f; do
	rm -rf "$tmp/r"
	mkdir "$tmp/r"
	cp "$f" "$tmp/r/rule.yaml"
	run "kvet rules test: ${f#"$tmp"/}" "$kvet" rules test --no-config "$tmp/r"
	run "kvet rules: ${f#"$tmp"/}" "$kvet" rules --no-config --rules "$tmp/r"
done < <({
	find rules fuzz/corpus/rule_file -type f -print0
	find testdata -path '*/rules/*' -type f -name '*.y*ml' -print0
	find "$tmp/docs" -name 'rule-*' -print0
} | LC_ALL=C sort -z)
while IFS= read -r -d '' f; do
	run "kvet lint --config: ${f#"$tmp"/}" "$kvet" lint -q --config "$f" \
		"$manifest"
done < <({
	find testdata examples -type f -name '*kvet.yaml' -print0
	find fuzz/corpus/config -type f -print0
	find "$tmp/docs" -name 'config-*' -print0
} | LC_ALL=C sort -z)
while IFS= read -r -d '' f; do
	run "kvet lint --baseline: $f" "$kvet" lint -q --no-config \
		--baseline "$f" "$manifest"
done < <({
	find testdata -type f -name '*baseline*.yaml' -print0
	find fuzz/corpus/baseline -type f -print0
} | LC_ALL=C sort -z)

done_testing

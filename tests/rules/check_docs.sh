#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fail when docs/rules/ID.md is not what `kvet explain ID` prints (with,
# for a check of kvet drain, the golden cases scripts/drain-examples
# lists: a check without a case that fires and one that does not fails), or a
# function table of docs/rule-language.md is not what the rows of the
# kvet.* libraries say: the checked-in copies are generated
# (scripts/gen-rule-docs) and must be regenerated when a rule file or a
# row of src/rules/bind_*.c changes.
#
# usage: check_docs.sh KVET SOURCE_ROOT [TABLES]
#        TABLES: tests/rules/test-rules-bind_examples of the build
set -u
kvet=$1 root=$2 tables=${3-} status=0
if [ -n "$tables" ]; then
	if ! "$root/scripts/function-tables" "$tables" \
		"$root/docs/rule-language.md" |
		cmp -s - "$root/docs/rule-language.md"; then
		echo "the function tables of docs/rule-language.md are stale: run scripts/gen-rule-docs" >&2
		"$root/scripts/function-tables" "$tables" \
			"$root/docs/rule-language.md" |
			diff -u "$root/docs/rule-language.md" - | head -20 >&2
		status=1
	fi
fi
ids=$("$kvet" rules | awk '{print $1}')
drain_ids=" $("$kvet" rules --format json | python3 -c 'import json, sys
print(" ".join(r["id"] for r in json.load(sys.stdin)["rules"] if r["commands"] == ["drain"]))') "
# the page of rule $1: kvet explain, and a drain check's golden cases
page() {
	"$kvet" explain "$1" || return 1
	case $drain_ids in
	*" $1 "*) "$root/scripts/drain-examples" "$root/testdata" "$1" ;;
	esac
}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for id in $ids; do
	want=$root/docs/rules/$id.md
	if [ ! -f "$want" ]; then
		echo "docs/rules/$id.md is missing: run scripts/gen-rule-docs" >&2
		status=1
		continue
	fi
	if ! page "$id" > "$tmp"; then
		echo "$id: its page cannot be made (a check of kvet drain needs golden cases that fire and that do not)" >&2
		status=1
	elif ! cmp -s "$tmp" "$want"; then
		echo "docs/rules/$id.md is stale: run scripts/gen-rule-docs" >&2
		diff -u "$want" "$tmp" | head -20 >&2
		status=1
	fi
done
for f in "$root"/docs/rules/*.md; do
	id=$(basename "$f" .md)
	if ! grep -qx "$id" <<<"$ids"; then
		echo "docs/rules/$id.md has no rule" >&2
		status=1
	fi
done
exit $status

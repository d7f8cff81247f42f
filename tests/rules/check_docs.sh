#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fail when docs/rules/ID.md is not what `kvet explain ID` prints, or a
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
for id in $ids; do
	want=$root/docs/rules/$id.md
	if [ ! -f "$want" ]; then
		echo "docs/rules/$id.md is missing: run scripts/gen-rule-docs" >&2
		status=1
		continue
	fi
	if ! "$kvet" explain "$id" | cmp -s - "$want"; then
		echo "docs/rules/$id.md is stale: run scripts/gen-rule-docs" >&2
		"$kvet" explain "$id" | diff -u "$want" - | head -20 >&2
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

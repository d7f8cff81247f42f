#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fail when docs/rules/ID.md is not what `kvet explain ID` prints: the
# checked-in copy is generated from rules/ (scripts/gen-rule-docs) and
# must be regenerated when a rule file changes.
#
# usage: check_docs.sh KVET SOURCE_ROOT
set -u
kvet=$1 root=$2 status=0
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

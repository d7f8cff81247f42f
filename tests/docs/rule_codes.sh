#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# No code of the requirements catalogue kvet was built from may stand in
# what its users and contributors read: they do not have the catalogue,
# so "C3" or "catalogue 5.1" tells them nothing (issues 23 and 25). Checked
# in the text files of src/, include/, rules/, docs/, examples/, data/,
# scripts/, tools/, bench/, debian/ and fuzz/ (not its corpus of inputs),
# README.md, CONTRIBUTING.md, meson.build and the testdata READMEs, and in
# what kvet prints: `kvet rules`, `kvet explain` of every rule, `kvet help`
# of every command.
#
# - A rule code, a capital A to G and one digit 1 to 9 as a word ("C3",
#   "E1-E9"), except Unicode's "C1 control(s)". The rule's name says it.
# - The catalogue itself, by name or by section.
# - A docs/model.md section that docs/model.md does not have
#   ("docs/model.md 5.1").
# - A manager criterion M<n> that docs/model.md 1.12 does not define as
#   **M<n>**; in rules/ and in kvet's output only quoted, as in the
#   expression `"M1" in managerCriteria(object)`, never in prose.
# Prints each problem as file:line: text and exits 1 if there is one.
# Usage: rule_codes.sh ROOT [KVET]
#        rule_codes.sh --self-test: check that a tree and a kvet
#        with each kind of code fail, and the allowed words pass.
set -u
if [ "${1-}" = --self-test ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/src" "$tmp/include" "$tmp/rules" "$tmp/docs"
	printf '## 1.1 Input\n## 1.12 Managers\n* **M1**, a server\n' \
		> "$tmp/docs/model.md"
	printf '/* the C0 and C1 controls, C11, C99, E0 and M1 */\n' \
		> "$tmp/include/ok.h"
	printf '/* as rule C3 asks (docs/model.md 1.12) */\n' > "$tmp/src/a.c"
	printf '/* rules E1-E9; a C1 control and D5 */\n' > "$tmp/src/b.c"
	printf 'see the catalogue, docs/model.md 5.1\n' > "$tmp/docs/c.md"
	printf 'why: ("M1" in managerCriteria(object))\n' > "$tmp/rules/d.yaml"
	printf 'description: a backend (M1) or M7\n' > "$tmp/rules/e.yaml"
	cat > "$tmp/kvet" <<-'EOF'
	#!/bin/sh
	case $1 in
	rules) echo 'x  warning  availability  selectors overlap (B4)' ;;
	explain) echo 'a manager by its name (M5)' ;;
	--help) printf 'commands:\n  lint      lint manifests\n\n' ;;
	help) echo 'usage: kvet lint [FILE...]; C1 controls become U+FFFD' ;;
	esac
	EOF
	chmod +x "$tmp/kvet"
	out=$(bash "$0" "$tmp" "$tmp/kvet") && {
		echo "passed a tree with codes"
		exit 1
	}
	for want in 'src/a.c:1: rule code C3' \
		    'src/b.c:1: rule code E1' \
		    'src/b.c:1: rule code E9' \
		    'src/b.c:1: rule code D5' \
		    'docs/c.md:1: the catalogue' \
		    'docs/c.md:1: docs/model.md has no section 5.1' \
		    'rules/e.yaml:1: manager criterion M1 in prose' \
		    'rules/e.yaml:1: M7 is not defined in docs/model.md 1.12' \
		    'kvet rules:1: rule code B4' \
		    'kvet explain x:1: manager criterion M5 in prose'; do
		case $out in
		*"$want"*) ;;
		*) printf 'missing "%s" in:\n%s\n' "$want" "$out"; exit 1 ;;
		esac
	done
	for unwanted in ok.h d.yaml 'rule code C1' 'kvet help'; do
		case $out in
		*"$unwanted"*)
			printf 'allowed words reported ("%s"):\n%s\n' \
				"$unwanted" "$out"
			exit 1 ;;
		esac
	done
	echo "a tree and a kvet with codes fail as they should"
	exit 0
fi
root=$1
kvet=${2-}
[ -z "$kvet" ] || kvet=$(realpath "$kvet") || exit 1
cd "$root" || exit 1
bad=0
code='\b[A-G][1-9]\b'
allowed='\bC1 controls?\b'	# Unicode's C1 control characters
catalogue='RULES-CATALOGUE|\b[Cc]atalogue'
sections=$(sed -nE 's/^## ([0-9]+\.[0-9]+) .*/\1/p' docs/model.md)
defined=$(grep -oE '^\* \*\*M[0-9]+\*\*' docs/model.md | grep -oE 'M[0-9]+')

# check WHERE FILE PROSE_ONLY: the lines of FILE, WHERE naming it; with
# PROSE_ONLY, a manager criterion may stand only in quotes (an expression).
# Only the lines grep picks are read one by one.
check() {
	local where=$1 file=$2 prose_only=$3 n line s c m
	while IFS=: read -r n line; do
		s=$(sed -E "s/$allowed//g" <<<"$line")
		for c in $(grep -oE "$code" <<<"$s"); do
			echo "$where:$n: rule code $c: $line"
			bad=1
		done
		if grep -qE "$catalogue" <<<"$line"; then
			echo "$where:$n: the catalogue: $line"
			bad=1
		fi
		for c in $(grep -oE 'model\.md [0-9]+\.[0-9]+' <<<"$line" |
			   sed 's/^model\.md //'); do
			grep -qxF "$c" <<<"$sections" && continue
			echo "$where:$n: docs/model.md has no section $c: $line"
			bad=1
		done
		for m in $(grep -oE '\bM[0-9]+\b' <<<"$line"); do
			grep -qxF "$m" <<<"$defined" && continue
			echo "$where:$n: $m is not defined in docs/model.md 1.12: $line"
			bad=1
		done
		[ "$prose_only" = prose ] || continue
		s=$(sed -E "s/([\"'])M[0-9]+[\"']/\1\1/g" <<<"$line")
		for m in $(grep -oE '\bM[0-9]+\b' <<<"$s"); do
			echo "$where:$n: manager criterion $m in prose: $line"
			bad=1
		done
	done < <(grep -nIE "$code|$catalogue|model\.md [0-9]|\bM[0-9]+\b" "$file")
}

files=$(find src include rules docs examples data scripts tools bench debian \
	fuzz -path fuzz/corpus -prune -o -type f -print 2>/dev/null
	ls README.md CONTRIBUTING.md meson.build testdata/*/README 2>/dev/null)
for f in $(LC_ALL=C sort <<<"$files"); do
	case $f in
	rules/*) mode=prose ;;
	*) mode=any ;;
	esac
	check "$f" "$f" "$mode"
done
if [ -n "$kvet" ]; then
	out=$(mktemp)
	trap 'rm -f "$out"' EXIT
	ids=$("$kvet" rules | awk '{print $1}')
	[ -n "$ids" ] || { echo "kvet rules listed no rule"; exit 1; }
	"$kvet" rules > "$out"
	check "kvet rules" "$out" prose
	for id in $ids; do
		"$kvet" explain "$id" > "$out" || {
			echo "kvet explain $id failed"
			bad=1
		}
		check "kvet explain $id" "$out" prose
	done
	for cmd in $("$kvet" --help | sed -n '/^commands:/,/^$/p' |
		     sed -nE 's/^  ([a-z]+) .*/\1/p'); do
		"$kvet" help "$cmd" > "$out" 2>&1
		check "kvet help $cmd" "$out" prose
	done
fi
exit $bad

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The layout of the C sources, as the kernel style kvet follows wants it
# (CONTRIBUTING.md, "Code style"), checked by a tool rather than by
# review: indentation by tabs (then at most 7 spaces of alignment), no
# trailing whitespace or carriage return, no line over 100 columns (tabs
# of 8) unless it holds a string literal, which the kernel keeps whole so
# that it can be grepped, and one line break at the end of each file.
# Prints each problem as FILE:LINE: WHAT, a TAP point per rule.
# Usage: layout.sh SOURCE_ROOT
#        layout.sh --self-test SOURCE_ROOT: a file that breaks each rule
#        fails each point.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"

# The problems of the files "$@", one per line, for rule $rule.
problems() {
	case $rule in
	indent) grep -HnvP '^\t* {0,7}(\S|$)' -- "$@" |
		sed 's/^\([^:]*:[0-9]*\):.*/\1: indented with spaces/' ;;
	trailing) grep -HnP '[ \t]$' -- "$@" |
		sed 's/^\([^:]*:[0-9]*\):.*/\1: trailing whitespace/' ;;
	cr) grep -HnP '\r' -- "$@" |
		sed 's/^\([^:]*:[0-9]*\):.*/\1: a carriage return/' ;;
	width) for f in "$@"; do
			expand -t8 -- "$f" | awk -v f="$f" \
				'length > 100 && !/"/ { print f ":" NR ": " length " columns" }'
		done ;;
	end) for f in "$@"; do
			if [ -s "$f" ] && [ -n "$(tail -c1 -- "$f")" ]; then
				echo "$f: no line break at the end"
			elif [ -z "$(tail -n1 -- "$f")" ]; then
				echo "$f: a blank line at the end"
			fi
		done ;;
	esac
}

rules="indent trailing cr width end"
if [ "${1-}" = --self-test ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	printf 'int a;\n        int b;\n' > "$tmp/indent.c"
	printf 'int a; \n' > "$tmp/trailing.c"
	printf 'int a;\r\n' > "$tmp/cr.c"
	printf 'int %0101d;\n' 0 > "$tmp/width.c"
	printf 'int a;\n\n' > "$tmp/end.c"
	printf '\tint a;   /* aligned */\nchar *s = "%0120d";\n' 0 > "$tmp/good.c"
	for rule in $rules; do
		out=$(problems "$tmp/$rule.c" "$tmp/good.c")
		case $out in
		*good.c*) notok "$rule: a file that keeps it is named ($out)" ;;
		"$tmp/$rule.c"*) ok "$rule: a file that breaks it is named" ;;
		*) notok "$rule: a file that breaks it passed ($out)" ;;
		esac
	done
	done_testing
	exit
fi
cd "$1" || exit 1
if git rev-parse --git-dir >/dev/null 2>&1; then
	mapfile -t files < <(git ls-files '*.c' '*.h')
else
	mapfile -t files < <(find src include tests fuzz bench tools \
		-name '*.[ch]' | LC_ALL=C sort)
fi
for rule in $rules; do
	out=$(problems "${files[@]}")
	if [ -z "$out" ]; then
		ok "$rule: ${#files[@]} files"
	else
		notok "$rule: $(echo "$out" | wc -l) problems"
		echo "$out" | head -20 | sed 's/^/# /'
		echo "$out" | head -20 >&2
	fi
done
done_testing

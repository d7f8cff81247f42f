#!/usr/bin/env bash
# The man page renders without warnings, and documents every option and
# command that the built-in help lists, so the two cannot drift apart.
# Usage: test_man.sh KVET MANPAGE
set -u
kvet=$1 page=$2
fail=0

if ! command -v man >/dev/null; then
	echo "# SKIP: man is not installed (Debian package man-db)"
	exit 77
fi
warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
if [ -n "$warnings" ]; then
	echo "not ok - man -l $page warns:"
	printf '%s\n' "$warnings" | sed 's/^/#   /'
	fail=1
else
	echo "ok - man -l renders $page without warnings"
fi

# The page as plain text, with roff's hyphen escapes resolved.
text=$(MANWIDTH=200 man -l "$page" 2>/dev/null | sed "s/.\x08//g")
help=$("$kvet" --help; "$kvet" lint --help; "$kvet" drain --help)
for opt in $(printf '%s\n' "$help" | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-z-]*' |
	sed 's/^[ ,]*//' | sort -u); do
	if printf '%s\n' "$text" | grep -qF -- "$opt"; then
		echo "ok - man page documents $opt"
	else
		echo "not ok - man page lacks $opt, which kvet --help lists"
		fail=1
	fi
done
for cmd in $("$kvet" --help | awk '/^commands:/ {on = 1; next} on && NF {print $1} on && !NF {on = 0}'); do
	if printf '%s\n' "$text" | grep -qE "kvet $cmd|^ +$cmd"; then
		echo "ok - man page documents the command $cmd"
	else
		echo "not ok - man page lacks the command $cmd"
		fail=1
	fi
done
exit $fail

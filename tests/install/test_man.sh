#!/usr/bin/env bash
# The man page renders without warnings, and documents every option and
# command that the built-in help lists, so the two cannot drift apart.
# Usage: test_man.sh KVET MANPAGE
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$1 page=$2

if ! command -v man >/dev/null; then
	echo "# SKIP: man is not installed (Debian package man-db)"
	exit 77
fi
warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
if [ -n "$warnings" ]; then
	notok "man -l $page warns:"
	printf '%s\n' "$warnings" | sed 's/^/#   /'
else
	ok "man -l renders $page without warnings"
fi

# The page as plain text, with roff's hyphen escapes resolved.
text=$(MANWIDTH=200 man -l "$page" 2>/dev/null | sed "s/.\x08//g")
help=$("$kvet" --help; "$kvet" lint --help; "$kvet" drain --help)
for opt in $(printf '%s\n' "$help" | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-z-]*' |
	sed 's/^[ ,]*//' | sort -u); do
	if printf '%s\n' "$text" | grep -qF -- "$opt"; then
		ok "man page documents $opt"
	else
		notok "man page lacks $opt, which kvet --help lists"
	fi
done
for cmd in $("$kvet" --help | awk '/^commands:/ {on = 1; next} on && NF {print $1} on && !NF {on = 0}'); do
	if printf '%s\n' "$text" | grep -qE "kvet $cmd|^ +$cmd"; then
		ok "man page documents the command $cmd"
	else
		notok "man page lacks the command $cmd"
	fi
done
done_testing

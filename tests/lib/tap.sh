# SPDX-License-Identifier: Apache-2.0
#
# The TAP helpers of kvet's shell tests, sourced by each one:
#     . "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
# Meson reads the output (protocol: 'tap'): one "ok N - NAME" or
# "not ok N - NAME" a test point, "#" lines as diagnostics, and the plan
# "1..N" last (done_testing), so a script need not count its points ahead.
# $n counts the points and $fail the failed ones; scripts may read both.

n=0 fail=0

# ok NAME: a passing point
ok() {
	n=$((n + 1))
	echo "ok $n - $1"
}

# notok NAME: a failing point. It is said on stderr too: meson's log of a
# TAP test keeps stderr, so a failure seen once (on a fresh root, say)
# still says what it was. A script that defines tap_explain has it run
# then, its output on stderr, to show what the failing run printed.
notok() {
	n=$((n + 1)) fail=$((fail + 1))
	echo "not ok $n - $1"
	echo "not ok $n - $1" >&2
	if declare -F tap_explain >/dev/null; then
		tap_explain >&2
	fi
	return 0
}

# ok_if STATUS NAME: a point that passes when STATUS is 0
ok_if() {
	if [ "$1" = 0 ]; then ok "$2"; else notok "$2"; fi
}

# check NAME COMMAND...: a point that passes when COMMAND succeeds
check() {
	local name=$1
	shift
	if "$@"; then ok "$name"; else notok "$name"; fi
}

# is NAME GOT WANT: a point that passes when the two strings are equal,
# else shows both
is() {
	if [ "$2" = "$3" ]; then
		ok "$1"
		return 0
	fi
	notok "$1"
	{
		printf '%s\n' "$2" | head -n 10 | sed 's/^/#   got:  /'
		printf '%s\n' "$3" | head -n 10 | sed 's/^/#   want: /'
	} | diag
}

# diag: standard input as TAP comments on stdout and on stderr, which
# meson's log keeps
diag() {
	local line

	while IFS= read -r line; do
		printf '%s\n' "$line"
		printf '%s\n' "$line" >&2
	done
}

# tail_diag FILE: the end of FILE (a log) as diagnostics
tail_diag() {
	tail -n 30 "$1" | sed 's/^/#   /' | diag
}

# skip REASON, or skip NAME REASON: a point not tried, saying why
skip() {
	n=$((n + 1))
	if [ $# -ge 2 ]; then
		echo "ok $n - $1 # SKIP $2"
	else
		echo "ok $n - # SKIP $1"
	fi
}

# skip_all REASON: the whole script is not tried (the plan 1..0)
skip_all() {
	echo "1..0 # SKIP $1"
	exit 0
}

# has FILE TEXT: FILE holds TEXT, else its head is shown as diagnostics
has() {
	grep -qF -- "$2" "$1" && return 0
	sed 's/^/#   /' "$1" | head -n 20 | diag
	return 1
}

# hasnt FILE TEXT: FILE does not hold TEXT
hasnt() {
	! grep -qF -- "$2" "$1"
}

# done_testing: the plan and a count; its status is the script's (0 when
# all passed)
done_testing() {
	echo "1..$n"
	echo "# $((n - fail)) passed, $fail failed"
	[ "$fail" = 0 ]
}

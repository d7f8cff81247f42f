#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Golden end-to-end tests: run kvet on every case under testdata/ and
# compare its output byte for byte with the expected files.
#
# usage: run.sh [--update] KVET TESTDATA [CASE...]
#
# A case is a directory that holds a file named "args" (see
# testdata/README.md):
#   README           one line: what the case checks
#   args             kvet's arguments after "kvet", one per line; blank
#                    lines and lines starting with '#' are ignored; paths
#                    are relative to the case directory, where kvet runs
#   stdin            optional: fed to kvet's standard input (else /dev/null)
#   env              optional: NAME=VALUE lines set in kvet's environment
#                    (a test knob such as KVET_TEST_MARKDOWN_MAX)
#   expected.txt     expected standard output of --format text
#   expected.json    expected standard output of --format json
#   expected.xml     expected standard output of --format junit
#   expected.sarif   expected standard output of --format sarif
#   expected.github  expected standard output of --format github
#   expected.codequality  expected standard output of --format codequality
#   expected.md      expected standard output of --format markdown
#   expected.stderr  optional: expected standard error
#   exit-code        the expected exit status, a number
#   requires         optional: programs the case runs (helm, kubectl), one
#                    a line; the case is skipped, saying so, without them
#
# For "lint" and "drain" cases whose args hold no --format, the runner runs kvet once
# per expected file, inserting "--format FMT" after "lint". Other cases
# run once and compare with expected.txt.
#
# --update rewrites the expected files from what kvet does now, for review
# with git diff; it is never used in CI. The output is TAP.

set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"

update=0
if [ "${1-}" = "--update" ]; then
	update=1
	shift
fi
if [ $# -lt 2 ]; then
	echo "usage: run.sh [--update] KVET TESTDATA [CASE...]" >&2
	exit 2
fi

kvet=$1
testdata=$2
shift 2
case $kvet in
/*) ;;
*) kvet=$PWD/$kvet ;;
esac
if [ ! -x "$kvet" ]; then
	echo "run.sh: not an executable: $kvet" >&2
	exit 2
fi
testdata=$(cd "$testdata" && pwd) || exit 2

export NO_COLOR=1 LC_ALL=C
unset KVET_COLOR TERM

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

if [ $# -gt 0 ]; then
	cases=("$@")
else
	cases=()
	while IFS= read -r f; do
		d=${f%/args}
		cases+=("${d#"$testdata"/}")
	done < <(find "$testdata" -name args -type f | LC_ALL=C sort)
fi


# Why a point failed, as TAP comments on stdout, kept in $tmp/why too:
# tap_explain (tests/lib/tap.sh) repeats it on stderr, the stream that
# meson's log keeps, so that a failure seen once on CI says what it was.
why() {
	printf '# %s\n' "$1" | tee -a "$tmp/why"
}

# The first lines of a diff, as why() says them.
show_diff() {
	diff -u "$1" "$2" | head -n 40 | sed 's/^/# /' | tee -a "$tmp/why"
}

tap_explain() {
	[ -f "$tmp/why" ] && cat "$tmp/why"
	[ -s "$err" ] && sed 's/^/# stderr: /' "$err" | head -n 20
	return 0
}

# run_case DIR FORMAT: run kvet for one expected file; FORMAT is a format
# name or "" (run the args as they are). Sets out, err and rc.
run_case() {
	local dir=$1 format=$2 stdin=/dev/null
	local -a argv=() envs=()
	local line

	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		'' | '#'*) continue ;;
		esac
		argv+=("$line")
	done < "$dir/args"
	if [ -n "$format" ]; then
		argv=("${argv[0]}" --format "$format" "${argv[@]:1}")
	fi
	[ -f "$dir/stdin" ] && stdin=$dir/stdin
	if [ -f "$dir/env" ]; then
		while IFS= read -r line || [ -n "$line" ]; do
			case $line in
			'' | '#'*) continue ;;
			esac
			envs+=("$line")
		done < "$dir/env"
	fi
	out=$tmp/stdout
	err=$tmp/stderr
	(cd "$dir" && exec env "${envs[@]}" "$kvet" "${argv[@]}") \
		<"$stdin" >"$out" 2>"$err"
	rc=$?
}

# The expected file of a format; "" is a case that passes its own args.
expected_file() {
	case $1 in
	json) echo expected.json ;;
	junit) echo expected.xml ;;
	sarif) echo expected.sarif ;;
	github) echo expected.github ;;
	codequality) echo expected.codequality ;;
	markdown) echo expected.md ;;
	*) echo expected.txt ;;
	esac
}

# Does this case get --format added?
adds_format() {
	local first
	first=$(grep -v -e '^$' -e '^#' "$1/args" | head -n 1)
	{ [ "$first" = lint ] || [ "$first" = drain ]; } && ! grep -q -e '^--format' "$1/args"
}

for name in "${cases[@]}"; do
	dir=$testdata/$name
	if [ ! -f "$dir/args" ]; then
		echo "run.sh: no args file in $dir" >&2
		exit 2
	fi
	missing=
	if [ -f "$dir/requires" ]; then
		while IFS= read -r prog; do
			[ -n "$prog" ] && ! command -v "$prog" >/dev/null &&
				missing="$missing $prog"
		done < "$dir/requires"
	fi
	if [ -n "$missing" ]; then
		skip "$name" "not on PATH:$missing (scripts/test installs them)"
		continue
	fi
	formats=()
	if adds_format "$dir"; then
		for format in text json junit sarif github codequality markdown; do
			[ -f "$dir/$(expected_file "$format")" ] &&
				formats+=("$format")
		done
		if [ ${#formats[@]} -eq 0 ] && [ $update = 1 ]; then
			formats=(text json)
		fi
	else
		formats=("")
	fi

	for format in "${formats[@]}"; do
		expected=$dir/$(expected_file "$format")
		run_case "$dir" "$format"
		label="$name${format:+ ($format)}"

		if [ $update = 1 ] && [ "$rc" -gt 125 ]; then
			# a crash is no expected output: keep the files
			notok "$label: kvet exited $rc, nothing updated"
			continue
		fi
		if [ $update = 1 ]; then
			cp "$out" "$expected"
			echo "$rc" > "$dir/exit-code"
			if [ -f "$dir/expected.stderr" ] || [ -s "$err" ]; then
				cp "$err" "$dir/expected.stderr"
			fi
			ok "$label # updated"
			continue
		fi

		same=1
		rm -f "$tmp/why"
		if [ ! -f "$expected" ]; then
			why "$name: missing ${expected##*/}"
			same=0
		elif ! cmp -s "$expected" "$out"; then
			why "$name: standard output differs"
			show_diff "$expected" "$out"
			same=0
		fi
		want_rc=$(cat "$dir/exit-code" 2>/dev/null)
		if [ "$want_rc" != "$rc" ]; then
			why "$name: exit code $rc, expected ${want_rc:-(no exit-code file)}"
			same=0
		fi
		if [ -f "$dir/expected.stderr" ] &&
		   ! cmp -s "$dir/expected.stderr" "$err"; then
			why "$name: standard error differs"
			show_diff "$dir/expected.stderr" "$err"
			same=0
		fi
		if [ $same = 1 ]; then
			ok "$label"
		else
			notok "$label"
		fi
	done
done

done_testing

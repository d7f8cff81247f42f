#!/usr/bin/env bash
# The progress line: shown on a terminal for a large input, erased at the
# end; never in a pipe, in CI (CI=true) or for a small input.
# Usage: test_progress.sh KVET GEN_DUMP
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
gen=$2
command -v script >/dev/null || { echo "# SKIP: script (util-linux) is not installed"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gen" 5000 > "$tmp/big.yaml"
printf 'apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n' > "$tmp/small.yaml"

# on_tty ENV INPUT: script(1) gives kvet a pseudo-terminal, as an
# interactive shell has
runs=0
on_tty() {
	runs=$((runs + 1))
	out=$tmp/tty$runs.out
	script -qc "env -i PATH=/usr/bin:/bin TERM=xterm $1 $kvet lint --format json=$tmp/report.json $tmp/$2.yaml" \
		"$out" >/dev/null 2>&1
}
# The cases without progress run first: a pseudo-terminal can hand
# leftover output of an earlier session to the next one.
on_tty CI=true big
if grep -q 'kvet: loading' "$out"; then
	notok "progress shown with CI=true:"
	cat -v "$out" | cut -c1-200 | sed 's/^/#   /'
else
	ok "no progress in CI"
fi
on_tty "" small
grep -q 'kvet: loading' "$out" && notok "progress shown for a small input" ||
	ok "no progress for a small input"
on_tty "" big
if grep -q 'kvet: loading 1/1 files' "$out" &&
	grep -q 'kvet: linting 5000/5000 objects' "$out"; then
	ok "a large input shows loading and linting progress on a terminal"
else
	notok "no progress line on a terminal"
fi
if grep -q $'linting 5000/5000 objects\033\[K\r\033\[K' "$out"; then
	ok "the progress line is erased at the end"
else
	notok "the progress line is left on the terminal"
fi
"$kvet" lint --format json=$tmp/report.json "$tmp/big.yaml" 2>"$tmp/err" >/dev/null
grep -q 'kvet: loading' "$tmp/err" && notok "progress written to a pipe" ||
	ok "no progress when stderr is not a terminal"

done_testing

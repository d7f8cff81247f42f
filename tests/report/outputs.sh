#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Reports written by one run: several formats at once, byte-identical
# whatever -j is, written atomically, and write errors that exit 3 and
# leave no half-written file.
#
# usage: outputs.sh KVET TESTDATA        (TAP output)

set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$1
testdata=$(cd "$2" && pwd) || exit 2
case $kvet in /*) ;; *) kvet=$PWD/$kvet ;; esac
export NO_COLOR=1 LC_ALL=C

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

formats=(text json junit sarif github)

# Many files, some broken, some hostile, so that threads finish out of order.
in=$tmp/in
mkdir -p "$in/sub"
for i in $(seq 1 12); do
	cp "$testdata/report-ci-formats/charts.yaml" "$in/charts-$i.yaml"
	cp "$testdata/report-ci-formats/cluster.yaml" "$in/sub/cluster-$i.yaml"
	cp "$testdata/report-hostile-strings/odd %,:#.yaml" "$in/odd $i.yaml"
done
cp "$testdata/report-ci-formats/broken.yaml" "$in/sub/broken.yaml"
cp "$testdata/input-invalid-utf8/bad-utf8.yaml" "$in/bad-utf8.yaml"

# run_all DIR JOBS ARGS...: every format in one run of kvet ARGS, each to
# its own file.
run_all() {
	local out=$1 jobs=$2 f
	local -a argv=("$3" -j "$jobs" "${@:4}")

	mkdir -p "$out"
	for f in "${formats[@]}"; do
		argv+=(--format "$f=$out/report.$f")
	done
	(cd "$tmp" && "$kvet" "${argv[@]}") >"$out/stdout" 2>"$out/stderr"
	echo $? >"$out/rc"
}

# same_reports PREFIX WHAT ARGS...: -j 1, 8 and 0 give identical reports.
same_reports() {
	local prefix=$1 what=$2 f rc
	shift 2
	run_all "$tmp/${prefix}1" 1 "$@"
	run_all "$tmp/${prefix}8" 8 "$@"
	run_all "$tmp/${prefix}0" 0 "$@"
	for f in "${formats[@]}"; do
		rc=0
		[ -s "$tmp/${prefix}1/report.$f" ] || rc=1
		cmp -s "$tmp/${prefix}1/report.$f" "$tmp/${prefix}8/report.$f" || rc=1
		cmp -s "$tmp/${prefix}1/report.$f" "$tmp/${prefix}0/report.$f" || rc=1
		ok_if $rc "$what$f report is the same with -j 1, -j 8 and -j 0"
	done
}

same_reports j "" lint in
rc=0
[ "$(cat "$tmp/j1/rc")" = 2 ] && [ ! -s "$tmp/j1/stdout" ] || rc=1
ok_if $rc "five reports in one run: exit 2 for the input errors, nothing on stdout"
rc=0
ls "$tmp/j1" | grep -q '\.tmp\.' && rc=1
ok_if $rc "no temporary file is left behind"

# kvet drain too: a dump split into one file per object, loaded by many
# threads, gives the same reports.
drain_in=$tmp/drain-in
mkdir -p "$drain_in"
for c in drain-webhook-deadlock drain-sts-zonal-pv; do
	awk -v dir="$drain_in" -v c="$c" \
		'/^---$/ { i++; next } { print > (dir "/" c "-" sprintf("%03d", i) ".yaml") }' \
		"$testdata/$c/dump.yaml"
done
same_reports d "kvet drain: " drain --rolling --order name drain-in
rc=0
[ "$(cat "$tmp/d1/rc")" = 1 ] && [ ! -s "$tmp/d1/stdout" ] || rc=1
ok_if $rc "kvet drain: five reports in one run, exit 1 for the stalled roll"

# The same report on standard output and in a file.
(cd "$tmp" && "$kvet" lint -j 3 --format sarif --format junit=j3.xml in) \
	>"$tmp/stdout.sarif" 2>/dev/null
rc=0
cmp -s "$tmp/stdout.sarif" "$tmp/j1/report.sarif" || rc=1
cmp -s "$tmp/j3.xml" "$tmp/j1/report.junit" || rc=1
ok_if $rc "a report on standard output equals the same report in a file"

# Write errors: exit 3, a message naming the file, and no file at all.
ok1=$tmp/ok.yaml
cp "$testdata/report-ci-formats/cluster.yaml" "$ok1"
(cd "$tmp" && "$kvet" lint --format junit=ok.yaml/r.xml ok.yaml) \
	>/dev/null 2>"$tmp/err"
rc=$?
grep -q "cannot write 'ok.yaml/r.xml'" "$tmp/err" && [ $rc = 3 ]
ok_if $? "a report under a file that is not a directory: exit 3"

(cd "$tmp" && "$kvet" lint --format sarif ok.yaml) >/dev/full 2>"$tmp/err"
rc=$?
grep -q "cannot write to standard output" "$tmp/err" && [ $rc = 3 ]
ok_if $? "standard output on a full disk (/dev/full): exit 3"

# A file size limit makes write() fail with EFBIG halfway through, as a
# full disk would; the old report must survive and no temporary remain.
mkdir -p "$tmp/full"
echo "old report" >"$tmp/full/kvet.sarif"
(cd "$tmp/full" && trap '' XFSZ && ulimit -f 4 &&
	exec "$kvet" lint --format text=text.txt --format sarif=kvet.sarif ../in) \
	>/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 3 ] && grep -q "cannot write 'kvet.sarif'" "$tmp/err" &&
	[ "$(cat "$tmp/full/kvet.sarif")" = "old report" ] &&
	! ls "$tmp/full" | grep -q '\.tmp\.'
ok_if $? "a write that fails halfway: exit 3, old report kept, no temporary file"

# SARIF fingerprints follow a finding when lines above it move.
mkdir -p "$tmp/shift"
cp "$testdata/report-ci-formats/charts.yaml" "$tmp/shift/a.yaml"
(cd "$tmp/shift" && "$kvet" lint --format sarif a.yaml) >"$tmp/before.sarif"
{ printf '# a comment\n\n\n'; cat "$testdata/report-ci-formats/charts.yaml"; } \
	>"$tmp/shift/a.yaml"
(cd "$tmp/shift" && "$kvet" lint --format sarif a.yaml) >"$tmp/after.sarif"
rc=0
grep kvetFindingHash "$tmp/before.sarif" >"$tmp/fp.before"
grep kvetFindingHash "$tmp/after.sarif" >"$tmp/fp.after"
[ -s "$tmp/fp.before" ] && cmp -s "$tmp/fp.before" "$tmp/fp.after" || rc=1
grep startLine "$tmp/before.sarif" >"$tmp/l.before"
grep startLine "$tmp/after.sarif" >"$tmp/l.after"
cmp -s "$tmp/l.before" "$tmp/l.after" && rc=1
ok_if $rc "SARIF fingerprints stay the same when lines shift"

done_testing

#!/usr/bin/env bash
# Where `--format FMT=FILE` and `--write-baseline FILE` may write: a regular
# file, wherever it is (/dev/shm too), is replaced atomically (keeping its
# mode), a symbolic link keeps pointing at the file it names, and only a
# character device, a FIFO (waited for, in bounded time) and kvet's own
# descriptors (a process substitution, /dev/stderr) are written in place,
# never renamed over. A failed write names the path, exits 3 and leaves the
# old file; two reports to one file are refused (docs/formats.md).
# No case writes to the machine's own devices: the devices here are made by
# mknod in a temporary directory (/dev/stderr is this test's own stream).
# Usage: test_output_files.sh KVET TESTDATA
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
input=$2/report-write-error/in.yaml
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
lint() { "$kvet" lint -q --no-config "$@" "$input"; }
is_report() { grep -q '"summary"' "$1"; }
leftovers() { ! ls -a "$1" | grep -q '\.tmp\.'; }

# A character device made here: mknod needs root (CAP_MKNOD)
if mknod null c 1 3 2>/dev/null; then
	lint --format json=null
	rc=$?
	check "json=DEVICE exits 0 ($rc)" test "$rc" = 0
	check "the device is still a character device" test -c null
else
	skip "mknod needs root"
	skip "mknod needs root"
fi

mkfifo fifo
cat fifo > fifo.out &
reader=$!
lint --format json=fifo
rc=$?
wait "$reader"
check "json=FIFO exits 0 ($rc)" test "$rc" = 0
check "the FIFO is still a FIFO" test -p fifo
check "the FIFO's reader got the whole report" is_report fifo.out

printf 'old\n' > real.json
chmod 640 real.json
ln -s real.json link.json
lint --format json=link.json
check "json=SYMLINK exits 0" test $? = 0
check "the symlink is still a symlink" test -L link.json
check "the file it names holds the report" is_report real.json
check "the file keeps its mode (640)" test "$(stat -c %a real.json)" = 640

mkdir sub
ln -s sub/new.json dangling.json
lint --format json=dangling.json
check "a dangling symlink: the file it names is created" is_report sub/new.json
check "and the link stays" test -L dangling.json

printf 'old\n' > plain.json
chmod 604 plain.json
lint --format json=plain.json
check "a regular file is replaced" is_report plain.json
check "and keeps its mode (604)" test "$(stat -c %a plain.json)" = 604
check "no temporary file is left" leftovers .

lint --format json=>(wc -c >psub.out)
rc=$?
sleep 0.2
check "a process substitution exits 0 ($rc)" test "$rc" = 0
check "the process substitution got the report" test "$(cat psub.out)" -gt 100

out=$("$kvet" lint --no-config --format text=/dev/stderr "$input" 2>&1 >/dev/null)
check "text=/dev/stderr writes to standard error" \
	grep -q '^kvet: 1 file, 1 object' <<<"$out"

mkdir dir
out=$(lint --format json=dir 2>&1)
rc=$?
check "json=DIRECTORY exits 3 ($rc)" test "$rc" = 3
check "and says so" grep -q "cannot write 'dir': Is a directory" <<<"$out"

# A read-only directory: root may write anywhere, so drop to nobody
mkdir ro
printf 'old\n' > ro/r.json
chmod 555 ro
chmod 755 "$tmp"
as_nobody=()
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null &&
		setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
		as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	fi
fi
if [ "$(id -u)" != 0 ] || [ ${#as_nobody[@]} -gt 0 ]; then
	out=$("${as_nobody[@]}" "$kvet" lint -q --no-config \
		--format json=ro/r.json "$input" 2>&1)
	rc=$?
	check "a read-only directory exits 3 ($rc)" test "$rc" = 3
	check "and names the path" grep -q "cannot write 'ro/r.json'" <<<"$out"
	check "and leaves the old file" test "$(cat ro/r.json)" = old
else
	skip "cannot drop root privileges (setpriv)"
	skip "cannot drop root privileges (setpriv)"
	skip "cannot drop root privileges (setpriv)"
fi

# A full disk: a full device (1,7, what /dev/full is) made here answers
# ENOSPC to every write; the machine's own /dev/full is never named
if mknod full c 1 7 2>/dev/null; then
	out=$(lint --format json=full 2>&1)
	rc=$?
	check "a full device exits 3 ($rc)" test "$rc" = 3
	check "and says why" grep -q "No space left on device" <<<"$out"
	check "and is still a device" test -c full
else
	skip "mknod needs root"
	skip "mknod needs root"
	skip "mknod needs root"
fi
# A short write to a regular file: the file size limit stands in for a
# full disk (EFBIG instead of ENOSPC, the same path through the code)
printf 'old\n' > full.json
out=$(trap '' XFSZ; ulimit -f 1; lint --format sarif=full.json 2>&1)
rc=$?
check "a short write exits 3 ($rc)" test "$rc" = 3
check "and names the path" grep -q "cannot write 'full.json'" <<<"$out"
check "and leaves the old file" test "$(cat full.json)" = old
check "and no temporary file" leftovers .

# A reader that went away before kvet writes: EPIPE, not death by SIGPIPE,
# and the file reports are still written
(sleep 0.3; "$kvet" lint --no-config --format text --format json=piped.json \
	--write-baseline base.yaml "$input"; echo $? >piped.rc) | true
sleep 0.1
wait
rc=$(cat piped.rc)
check "a closed standard output is not a failure ($rc)" test "$rc" = 0
check "the file report is written anyway" is_report piped.json
check "the baseline too" test -s base.yaml

# A FIFO nobody reads: an error after the wait (made short here, so that
# nothing depends on timing), and the other reports are still written
mkfifo lonely
out=$(KVET_FIFO_WAIT_MS=30 lint --format json=lonely --format sarif=after.sarif \
	--write-baseline after.yaml 2>&1)
rc=$?
check "a FIFO without a reader exits 3 ($rc)" test "$rc" = 3
check "and says so" grep -q "cannot write 'lonely': no process opened the FIFO for reading within 30 ms" <<<"$out"
check "the report after it is written" test -s after.sarif
check "the baseline too" test -s after.yaml

# Two reports to one file, however named: a usage error naming both,
# before anything is written
rm -f same.json
ln -s same.json same-link.json
for pair in "json=same.json sarif=same.json" "json=./same.json sarif=same-link.json"; do
	set -- $pair
	out=$(lint --format "$1" --format "$2" 2>&1)
	rc=$?
	check "--format $1 --format $2 exits 3 ($rc)" test "$rc" = 3
	check "and names both" grep -qF "two reports to one file: '--format $1' and '--format $2'" <<<"$out"
	check "and writes neither" test ! -e same.json
done
out=$(lint --format json=same.json --write-baseline same-link.json 2>&1)
check "a report and the baseline to one file exit 3 ($?)" grep -qF "'--format json=same.json' and '--write-baseline same-link.json'" <<<"$out"

# /dev/shm holds regular files: replaced atomically, never appended to
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	shm=/dev/shm/kvet-test-$$.json
	rm -f "$shm"
	lint --format "json=$shm"
	check "a new file under /dev/shm is created ($?)" is_report "$shm"
	lint --format "json=$shm"
	check "and replaced, not appended to" python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$shm"
	rm -f "$shm"
else
	skip "no writable /dev/shm"
	skip "no writable /dev/shm"
fi

# =/dev/stdout whose reader went away: as for the report to standard output
(sleep 0.3; "$kvet" lint -q --no-config --format json=/dev/stdout "$input" \
	2>stdout-gone.err; echo $? >stdout-gone.rc) | true
wait
rc=$(cat stdout-gone.rc)
check "json=/dev/stdout with its reader gone exits 0 ($rc)" test "$rc" = 0
check "and says nothing" test ! -s stdout-gone.err

done_testing

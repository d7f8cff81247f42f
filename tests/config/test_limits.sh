#!/usr/bin/env bash
# kvet's own files are bounded in memory and time (docs/reliability.md,
# "Configuration limits"): long lists in .kvet.yaml cost linear time and
# memory, configuration, baseline and rule files stop at their size limit
# with an error at the byte past it (exit 3), and a FIFO nobody writes to
# is an error at once, never a wait. Bounds are the test's timeout,
# `timeout` around each run and `ulimit -v` (left out under ASan, whose
# shadow memory needs terabytes of address space); nothing is timed.
# Usage: test_limits.sh KVET
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
writer=
trap '[ -n "$writer" ] && kill "$writer" 2>/dev/null; rm -rf "$tmp"' EXIT
case ${KVET_SANITIZE:-none} in
none | '') vmem=262144 ;;	# KiB: 256 MiB
*) vmem=unlimited ;;
esac

# run EXPECTED-EXIT GREP-PATTERN DESCRIPTION -- KVET-ARGS...
run() {
	local want=$1 pattern=$2 what=$3 rc out
	shift 4
	out=$(ulimit -v "$vmem"; timeout 60 "$kvet" "$@" 2>&1)
	rc=$?
	if [ "$rc" = "$want" ] && printf '%s\n' "$out" | grep -q -- "$pattern"; then
		ok "$what"
	else
		notok "$what: exit $rc, expected $want and /$pattern/:"
		printf '%s\n' "$out" | head -5 | sed 's/^/#   /'
	fi
}

cat > "$tmp/in.yaml" <<'YAML'
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: ops}
YAML

# 11.4: every list key appended by copying the whole list took 1.6 GB
# for 250 KB; every rule setting replayed all settings before it
awk 'BEGIN {
	printf "spreadingTopologyKeys: ["
	for (i = 0; i < 12000; i++) printf "%sexample.com/k%05d", i ? ", " : "", i
	printf "]\nmanagerComponents: ["
	for (i = 0; i < 12000; i++) printf "%sc%05d", i ? ", " : "", i
	printf "]\nsharedLabelKeys: ["
	for (i = 0; i < 12000; i++) printf "%sexample.com/s%05d", i ? ", " : "", i
	printf "]\nexclude: ["
	for (i = 0; i < 12000; i++) printf "%s\"x%05d/*\"", i ? ", " : "", i
	print "]"
}' > "$tmp/lists.yaml"
run 0 'kvet: 1 file, 1 object' "36,000 list entries (700 KB) in bounded memory" -- \
	lint --config "$tmp/lists.yaml" "$tmp/in.yaml"
awk 'BEGIN {
	printf "rules:\n  disable: ["
	for (i = 0; i < 50000; i++) printf "%spdb-no-policy", i ? ", " : ""
	printf "]\n  enable: ["
	for (i = 0; i < 2000; i++) printf "%s\"*\"", i ? ", " : ""
	print "]"
}' > "$tmp/settings.yaml"
run 0 'kvet: 1 file, 1 object' "50,000 rule settings in linear time" -- \
	lint --config "$tmp/settings.yaml" "$tmp/in.yaml"

# a baseline may be large (64 MiB): matching a finding and listing the
# stale entries are lookups, not a scan of every entry per finding or
# per stale entry (250,000 entries took minutes)
awk 'BEGIN { print "version: 1"; print "findings:"
	for (i = 0; i < 250000; i++)
		printf "- {rule: pdb-no-policy, kind: Deployment, name: w%d, fingerprint: \"%016x\"}\n", i, i
}' > "$tmp/baseline.yaml"
run 0 '' "a baseline of 250,000 stale entries in linear time" -- \
	lint -q --format "json=$tmp/report.json" --baseline "$tmp/baseline.yaml" \
	"$tmp/in.yaml"
stale=$(grep -c '"name": "w[0-9]' "$tmp/report.json" 2>/dev/null)
[ "$stale" = 250000 ] && ok "each of them is reported stale" ||
	notok "${stale:-no} stale entries reported, expected 250000"
rm -f "$tmp/baseline.yaml" "$tmp/report.json"

# 11.8: no file of kvet's own is read past its limit
run 3 '^/dev/zero:1:4194305: error: configuration file larger than its limit of 4 MiB: reading stopped here$' \
	"--config /dev/zero stops at 4 MiB with an error at the byte past it" -- \
	lint --config /dev/zero "$tmp/in.yaml"
run 3 '^/dev/zero:1:67108865: error: baseline file larger than its limit of 64 MiB' \
	"--baseline /dev/zero stops at 64 MiB" -- \
	lint --baseline /dev/zero "$tmp/in.yaml"
mkdir "$tmp/rules"
ln -s /dev/zero "$tmp/rules/zero.yaml"
run 3 'rules/zero.yaml:1:4194305: error: rule file larger than its limit of 4 MiB' \
	"a rule file that never ends stops at 4 MiB" -- \
	lint --rules "$tmp/rules" "$tmp/in.yaml"
rm "$tmp/rules/zero.yaml"
# 65,536 lines of 64 bytes are exactly the limit: the byte past it starts
# line 65,537
awk 'BEGIN { for (i = 0; i < 65536; i++) printf "# %061d\n", i; print "namespace: ops" }' \
	> "$tmp/big.kvet.yaml"
run 3 'big.kvet.yaml:65537:1: error: configuration file larger than its limit' \
	"a configuration file one line over the limit: error at that line" -- \
	lint --config "$tmp/big.kvet.yaml" "$tmp/in.yaml"
head -c 4194304 "$tmp/big.kvet.yaml" > "$tmp/max.kvet.yaml"
run 0 'kvet: 1 file, 1 object' "a configuration file of exactly the limit is read" -- \
	lint --config "$tmp/max.kvet.yaml" "$tmp/in.yaml"

# 11.15: a FIFO with no writer hung forever in open()
mkfifo "$tmp/fifo.yaml"
run 3 'fifo.yaml: error: nothing to read: no process has this FIFO open for writing' \
	"--config naming a FIFO that nobody writes to is an error at once" -- \
	lint --config "$tmp/fifo.yaml" "$tmp/in.yaml"
run 3 'fifo.yaml: error: nothing to read: no process has this FIFO open for writing' \
	"so is --baseline" -- \
	lint --baseline "$tmp/fifo.yaml" "$tmp/in.yaml"
mkfifo "$tmp/rules/fifo.yaml"
run 3 'rules/fifo.yaml: error: nothing to read: no process has this FIFO open for writing' \
	"and a FIFO in a --rules directory" -- \
	lint --rules "$tmp/rules" "$tmp/in.yaml"
rm "$tmp/rules/fifo.yaml"
# a writer waiting in open() counts: kvet reads what it writes
printf 'namespace: [not a string]\n' > "$tmp/fifo.yaml" &
writer=$!
run 3 'fifo.yaml:1:12: error: namespace must be a string' \
	"a FIFO with a writer is read to its end" -- \
	lint --config "$tmp/fifo.yaml" "$tmp/in.yaml"
wait "$writer" 2>/dev/null
writer=
run 3 'error: namespace must be a string' \
	"so is a process substitution" -- \
	lint --config <(sleep 0.2; echo 'namespace: [x]') "$tmp/in.yaml"

done_testing

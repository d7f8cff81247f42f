#!/usr/bin/env bash
# What `kvet lint` reads, as a shell gives it: standard input when no PATH
# is given and it is no terminal (a pipe, a file, /dev/null), even empty;
# the working directory when it is a terminal; a Helm chart without helm
# is an input error that says how to install it;
# --require-objects; a FIFO; "-" twice; a tree of symlinks.
# Usage: test_cli.sh KVET
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# check NAME COMMAND...: one test point

export NO_COLOR=1 LC_ALL=C
unset CI
cm() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\n' "$1"; }
# a manifest with a finding, so that reports name its file
bad() {
	printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s}\nspec:\n  replicas: two\n' "$1"
}
# the working directory of the runs: one manifest
work=$tmp/work
mkdir -p "$work"
bad in-dir > "$work/dir.yaml"
cd "$work" || exit 1
lint() { "$kvet" lint --no-config "$@"; }
out=$tmp/out

# --- no PATH: standard input or "."
bad from-stdin | lint > "$out"
check "a pipe with data is read" has "$out" "<stdin>:5:13: error:"
check "...not the directory" hasnt "$out" dir.yaml
: | lint > "$out" 2>&1
check "an empty pipe is read, not the directory" hasnt "$out" dir.yaml
check "...and is an input error, as an empty file is" has "$out" "<stdin>: error: empty input"
: | lint --require-objects > "$tmp/err" 2>&1
rc=$?
check "an empty render fails --require-objects" test "$rc" = 2
check "...saying the render was empty" has "$tmp/err" "the render was empty"
lint < /dev/null > "$out" 2> "$tmp/err"
check "/dev/null is read, not the directory" hasnt "$out" dir.yaml
lint <&- > "$tmp/err" 2>&1
rc=$?
check "no standard input is an input error" test "$rc" = 2
check "...that says to name a path" has "$tmp/err" "standard input is closed"
: > "$tmp/empty"
lint < "$tmp/empty" > "$out" 2>&1
check "an empty file is read, not the directory" hasnt "$out" dir.yaml
bad from-file > "$tmp/bad.yaml"
lint < "$tmp/bad.yaml" > "$out"
check "a file with data is read" has "$out" "<stdin>:5:13: error:"
if command -v script >/dev/null; then
	# script(1) gives kvet a pseudo-terminal as its standard input
	script -qc "cd '$work' && '$kvet' lint --no-config --format text=$tmp/tty.txt" \
		/dev/null < /dev/null > /dev/null 2>&1
	check "a terminal lints the directory, never waits" \
		has "$tmp/tty.txt" "./dir.yaml:5:13: error:"
else
	skip "script (util-linux) is not installed"
fi

# --- charts and kustomize directories
repo=$tmp/repo
mkdir -p "$repo/chart/templates" "$repo/deploy/base" "$repo/rendered"
printf 'apiVersion: v2\nname: web\nversion: 0.1.0\n' > "$repo/chart/Chart.yaml"
printf 'replicaCount: 2\n' > "$repo/chart/values.yaml"
printf 'kind: {{ .Values.kind }}\n' > "$repo/chart/templates/cm.yaml"
printf 'resources: [cm.yaml]\n' > "$repo/deploy/base/kustomization.yaml"
cm base > "$repo/deploy/base/cm.yaml"
cm rendered > "$repo/rendered/all.yaml"
# charts are rendered (tests/helm runs a real helm); without one, each
# chart is an input error that says how to install it, and the rest is
# still linted
(cd "$repo" && PATH=/nonexistent "$kvet" lint --no-config .) > "$out"
rc=$?
check "a chart without helm is an input error ($rc)" test $rc = 2
check "...saying how to install helm" has "$out" \
	"./chart: error: cannot render the chart: no helm on PATH; install helm (https://helm.sh/docs/intro/install/) or name it with --helm PATH or KVET_HELM"
check "...and the rendered manifest is still linted" has "$out" "1 object"
(cd "$repo" && lint --helm "$tmp/no-helm" chart) > "$out"
check "--helm names a program that is not there" has "$out" \
	"chart: error: cannot render the chart: helm '$tmp/no-helm' is not an executable file"
lint "$repo/chart/values.yaml" "$repo/rendered/all.yaml" > "$out"
check "a chart's file named on the command line is read" \
	has "$out" "2 files"

# --- --require-objects
(cd "$repo/chart" && printf '\n' | lint) > "$out"
rc=$?
check "a blank render in a chart directory exits 0 without --require-objects ($rc)" \
	test $rc = 0
(cd "$repo/chart" && printf '\n' | lint --require-objects) > "$out"
rc=$?
check "...and 2 with it ($rc)" test $rc = 2
check "...saying why" has "$out" \
	"<stdin>: error: standard input is empty: the render was empty"
lint --require-objects "$repo/chart/values.yaml" > "$out"
check "no object in any input is said so" has "$out" \
	"kvet: error: no Kubernetes object in any input, and objects are required"
mkdir "$tmp/nothing"
lint "$tmp/nothing" "$repo/rendered" > "$out"
rc=$?
check "an empty directory is a warning, exit 0 ($rc)" test $rc = 0
check "...naming it" has "$out" \
	"$tmp/nothing: warning: no file to lint: the directory holds no *.yaml, *.yml or *.json file"
lint --require-objects "$tmp/nothing" "$repo/rendered" > "$out"
rc=$?
check "...and an error with --require-objects, exit 2 ($rc)" test $rc = 2
lint "$tmp/nothing/*.yaml" > "$out"
check "a pattern that matched nothing says so" has "$out" \
	"cannot open: no file matches this pattern"

# --- FIFOs, standard input twice, symlinks
mkfifo "$tmp/fifo"
cm from-fifo > "$tmp/fifo" &
timeout 60 "$kvet" lint --no-config "$tmp/fifo" > "$out"
rc=$?
wait
check "a FIFO with a writer is read ($rc)" has "$out" "1 file, 1 object"
cm from-file > "$tmp/render.yaml"
for j in 1 4; do
	lint -j $j - - < "$tmp/render.yaml" > "$out"
	check "'-' twice with -j $j is read once" has "$out" "1 file, 1 object"
	check "...saying so" has "$out" \
		"<stdin>: note: standard input is named more than once: read once"
done
# 36 levels of two symlinks each: 2^36 paths to one file
tree=$tmp/tree
mkdir -p "$tree/d0"
cm deep > "$tree/d0/cm.yaml"
for i in $(seq 1 36); do
	mkdir "$tree/d$i"
	ln -s "../d$((i - 1))" "$tree/d$i/a"
	ln -s "../d$((i - 1))" "$tree/d$i/b"
done
timeout 60 "$kvet" lint --no-config "$tree/d36" > "$out"
rc=$?
check "36 levels of symlinks: one file, linted once ($rc)" \
	has "$out" "1 file, 1 object"
check "...each second path noted" \
	test "$(grep -c 'note: same directory as' "$out")" = 36

# --- --max-input-size: the size limit of each input (512Mi by default)
cm sized > "$tmp/sized.yaml"
size=$(wc -c < "$tmp/sized.yaml")
for cmd in lint drain; do
	"$kvet" $cmd --no-config --max-input-size $((size - 1)) "$tmp/sized.yaml" > "$out" 2>&1
	rc=$?
	check "$cmd: a file one byte over --max-input-size is refused, exit 2 ($rc)" \
		test $rc = 2
	check "...with the usual error" has "$out" \
		"$tmp/sized.yaml: error: input larger than the limit of $((size - 1)) bytes"
	"$kvet" $cmd --no-config --max-input-size $size "$tmp/sized.yaml" > "$out" 2>&1
	rc=$?
	check "$cmd: the same file with a limit of its size is read ($rc)" \
		test $rc = 0
	check "...as an object" has "$out" "1 file, 1 object"
done
"$kvet" lint --no-config --max-input-size=$((size - 1)) < "$tmp/sized.yaml" > "$out" 2>&1
rc=$?
check "standard input one byte over the limit is refused, exit 2 ($rc)" test $rc = 2
check "...with the usual error" has "$out" \
	"<stdin>: error: input larger than the limit of $((size - 1)) bytes"
lint --max-input-size 1Ki - < "$tmp/sized.yaml" > "$out" 2>&1
check "a quantity (1Ki) raises it" has "$out" "1 file, 1 object"
# /dev/zero is read to one byte past the limit given, and no further
timeout 60 "$kvet" lint --no-config --max-input-size 1Mi /dev/zero > "$out" 2>&1
rc=$?
check "/dev/zero stops one byte past a limit of 1Mi, exit 2 ($rc)" \
	test $rc = 2
check "...saying so" has "$out" \
	"/dev/zero: error: input larger than the limit of 1048576 bytes"
for v in 0 -1 0.5 100m 2Ti 1.5 abc 512MiB ""; do
	"$kvet" lint --no-config --max-input-size "$v" "$tmp/sized.yaml" > "$out" 2>&1
	rc=$?
	check "--max-input-size '$v' is a usage error, exit 3 ($rc)" test $rc = 3
	check "...naming the option" has "$out" \
		"kvet: error: invalid value '$v' for '--max-input-size' (expected a size in bytes from 1 to 1Ti, such as 512Mi, 4Gi or 1000000)"
done
"$kvet" lint --no-config "$tmp/sized.yaml" --max-input-size > "$out" 2>&1
rc=$?
check "--max-input-size without a value: exit 3 ($rc)" test $rc = 3
for v in 1 1000000 1.5Gi 4Gi 2G 1e3 1Ti; do
	"$kvet" lint --no-config --max-input-size "$v" - < "$tmp/sized.yaml" > "$out" 2>&1
	rc=$?
	check "--max-input-size '$v' is accepted ($rc)" test $rc = 0 -o $rc = 2
done

done_testing

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# The static kvet of scripts/build-static, run inside an empty root that
# holds nothing but that binary and the test inputs (no libc, no loader,
# no /etc, no /proc), prints byte for byte what the normal build prints
# for the same commands, with the same exit status.
# usage: test_static.sh KVET SOURCE_ROOT     (TAP output)
# The static binary: $KVET_STATIC, or SOURCE_ROOT/build-static/kvet
# (scripts/build-static builds it; scripts/test does first). chroot needs
# root: without it, or without the binary, the test skips, saying so.
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$1 src=$2
static=${KVET_STATIC:-$src/build-static/kvet}
if [ ! -x "$static" ]; then
	skip_all "no static kvet at $static (run scripts/build-static)"
fi
if [ "$(id -u)" != 0 ]; then
	skip_all "chroot into an empty root needs root"
fi
chroot=$(command -v chroot) || skip_all "no chroot command (coreutils)"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
root=$tmp/root
mkdir -p "$root/examples" "$root/rules-dir"
cp "$static" "$root/kvet"
cp "$src/examples/drain-blocking.yaml" "$root/examples/"
cp "$src/rules/pdb-blocks-single-replica.yaml" "$root/rules-dir/"
# same ARGS...: the static kvet in the root (cwd /) and the normal one in
# $root (the same relative paths) print the same, exit the same
same() {
	local rs rd
	(cd "$root" && env -i NO_COLOR=1 LC_ALL=C "$kvet" "$@") \
		>"$tmp/dyn.out" 2>"$tmp/dyn.err"
	rd=$?
	env -i NO_COLOR=1 LC_ALL=C "$chroot" "$root" /kvet "$@" \
		>"$tmp/st.out" 2>"$tmp/st.err"
	rs=$?
	if [ $rs = $rd ] && cmp -s "$tmp/dyn.out" "$tmp/st.out" &&
	   cmp -s "$tmp/dyn.err" "$tmp/st.err"; then
		ok "kvet $* (exit $rs, $(wc -c <"$tmp/st.out") bytes)"
	else
		notok "kvet $*: static exit $rs, dynamic exit $rd"
		diff "$tmp/dyn.out" "$tmp/st.out" | head -n 20 | sed 's/^/#   /'
		diff "$tmp/dyn.err" "$tmp/st.err" | head -n 20 | sed 's/^/#   /'
	fi
}
# the root holds only these: nothing else could have been used
found=$(cd "$root" && find . -type f | sort | tr '\n' ' ')
ok "the root holds only $found"
# the root is empty enough: the normal build, dynamically linked, cannot
# even start in it (no loader)
mkdir "$tmp/dynroot" && cp "$kvet" "$tmp/dynroot/kvet"
if env -i "$chroot" "$tmp/dynroot" /kvet --version >/dev/null 2>&1; then
	notok "the dynamic kvet cannot run in such a root, yet it did"
else
	ok "the dynamic kvet cannot run in such a root"
fi
same --version
same rules
same explain pdb-blocks-single-replica
same lint examples/drain-blocking.yaml
same lint --format json examples/drain-blocking.yaml
same lint --format sarif examples/drain-blocking.yaml
same lint --format markdown examples/drain-blocking.yaml
same lint --no-builtin-rules --rules rules-dir examples/drain-blocking.yaml
same drain --rolling examples/drain-blocking.yaml
same lint -j 2 examples rules-dir
same lint examples/missing.yaml
done_testing

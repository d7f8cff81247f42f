#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# kvet version and --version print meson's project version (the one place
# it is written), and the git commit when built from a checkout.
# usage: test_version.sh KVET VERSION SOURCE_ROOT     (TAP output)
set -u
kvet=$1 version=$2 src=$3
n=0 failed=0
check() {
	n=$((n + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $n - $1"
	else
		failed=$((failed + 1))
		echo "not ok $n - $1"
		echo "#   got:  $2"
		echo "#   want: $3"
	fi
}
out=$("$kvet" version)
check "kvet --version is kvet version" "$("$kvet" --version)" "$out"
check "the version is meson's" "$(echo "$out" | awk '{print $2}')" "$version"
if commit=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null); then
	# the tree may have changed since the build: compare the commit
	got=$(echo "$out" | sed -n 's/^kvet [^ ]* (commit \([0-9a-f]*\).*)$/\1/p')
	check "built from a checkout: the commit is HEAD's" "$got" "$commit"
else
	check "not built from a checkout: no commit" "$out" "kvet $version"
fi
echo "1..$n"
[ $failed = 0 ]

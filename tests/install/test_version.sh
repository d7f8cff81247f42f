#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# kvet version and --version print meson's project version (the one place
# it is written), and the git commit when built from a checkout. Then
# scripts/version-commit, which says that commit, on trees without git:
# a git archive export says none (kvet prints "kvet VERSION" alone), a
# meson dist tree says the commit scripts/dist-commit recorded in it, and
# an export unpacked inside another git repository does not take that
# repository's commit.
# usage: test_version.sh KVET VERSION SOURCE_ROOT     (TAP output)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$1 version=$2 src=$3
out=$("$kvet" version)
# meson's vcs_tag() once put the version where the commit goes when
# scripts/version-commit failed (a tree without .git on a fresh root)
check "the commit is never the version" test "$out" != "kvet $version (commit $version)"
is "kvet --version is kvet version" "$("$kvet" --version)" "$out"
is "the version is meson's" "$(echo "$out" | awk '{print $2}')" "$version"
if commit=$(git -C "$src" rev-parse --short=12 HEAD 2>/dev/null); then
	# the tree may have changed since the build: compare the commit
	got=$(echo "$out" | sed -n 's/^kvet [^ ]* (commit \([0-9a-f]*\).*)$/\1/p')
	is "built from a checkout: the commit is HEAD's" "$got" "$commit"
else
	is "not built from a checkout: no commit" "$out" "kvet $version"
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
vc=$src/scripts/version-commit
if git -C "$src" rev-parse HEAD >/dev/null 2>&1; then
	mkdir "$tmp/export"
	git -C "$src" archive HEAD meson.build | tar -x -C "$tmp/export"
	is "a git archive export: no commit" "$(sh "$vc" "$tmp/export")" ""
	MESON_SOURCE_ROOT=$src MESON_DIST_ROOT=$tmp/export sh "$src/scripts/dist-commit"
	is "a meson dist tree: the commit recorded by scripts/dist-commit" \
		"$(sh "$vc" "$tmp/export")" "$(git -C "$src" rev-parse --short=12 HEAD)"
	rm "$tmp/export/.kvet-commit"
	git -C "$tmp" init -q outer && mkdir "$tmp/outer/kvet" &&
		cp "$tmp/export/meson.build" "$tmp/outer/kvet/" &&
		git -C "$tmp/outer" add kvet &&
		git -C "$tmp/outer" -c user.name=t -c user.email=t@t commit -qm outer
	is "an export inside another git repository: no commit" \
		"$(sh "$vc" "$tmp/outer/kvet")" ""
	is "the checkout: git describe" "$(sh "$vc" "$src")" \
		"$(git -C "$src" describe --always --dirty --abbrev=12 --exclude='*')"
else
	skip "the source is not a git checkout: no export to make"
fi
done_testing

# shellcheck shell=bash
# Shared by scripts/bootstrap and scripts/test: install what is missing
# and configure a build directory. Sourced, never run.

KVET_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian 12 names, in two sets. KVET_BUILD_PACKAGES: what building and
# running kvet need (scripts/bootstrap; about 75 packages on a minimal
# Debian 12 root, measured with apt-get install --simulate).
# shellcheck disable=SC2034 # used by scripts/bootstrap and scripts/test
KVET_BUILD_PACKAGES=(
	gcc libc6-dev pkg-config meson ninja-build
	libfyaml-dev libpcre2-dev libxml2-dev
)
# KVET_TEST_PACKAGES: what the whole test suite adds (scripts/test;
# about 310 packages with the build set, LLVM most of them). clang and
# libclang-rt-14-dev (only recommended by clang-14, and recommends are
# not installed: it holds libFuzzer and clang's sanitizer runtimes)
# build the fuzz harnesses; build-essential to lintian build and check
# the Debian package.
# shellcheck disable=SC2034
KVET_TEST_PACKAGES=(
	libcmocka-dev libtsan2
	libxml2-utils python3 python3-jsonschema python3-junitparser
	man-db pre-commit git zsh fish cmark-gfm
	build-essential dpkg-dev debhelper lintian
	clang libclang-rt-14-dev
)
# KVET_STATIC_PACKAGES: what scripts/build-static adds to the build set
# (libxml2.a calls ICU, which is C++: the static C++ runtime).
# shellcheck disable=SC2034
KVET_STATIC_PACKAGES=(libstdc++-12-dev)

say() { printf 'kvet: %s\n' "$*" >&2; }

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1; then
		sudo "$@"
	else
		say "need root to run: $* (run as root or install sudo)"
		return 1
	fi
}

# ensure_packages PACKAGE...: install only the packages that are
# missing, so a second run costs a dpkg query and nothing else.
ensure_packages() {
	local missing=() p status
	for p in "$@"; do
		status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) || status=
		case "$status" in
		*" installed") ;;
		*) missing+=("$p") ;;
		esac
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	say "installing ${missing[*]}"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
		as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			--no-install-recommends "${missing[@]}" >/dev/null
}

# configure_build DIR [meson options...]: set up DIR once, then reuse it.
configure_build() {
	local dir=$1
	shift
	if [ -f "$KVET_ROOT/$dir/build.ninja" ]; then
		return 0
	fi
	meson setup "$KVET_ROOT/$dir" "$KVET_ROOT" "$@" >/dev/null
}

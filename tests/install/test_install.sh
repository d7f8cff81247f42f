#!/usr/bin/env bash
# `meson install` puts kvet, the kubectl-kvet plugin link, the man page and
# the bash completion in place, and the installed binary runs.
# Usage: test_install.sh BUILDDIR
set -u
build=$1
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT
fail=0

if ! meson install -C "$build" --destdir "$dest" --quiet >"$dest.log" 2>&1; then
	echo "not ok - meson install failed:"
	sed 's/^/#   /' "$dest.log"
	rm -f "$dest.log"
	exit 1
fi
rm -f "$dest.log"
prefix=$(meson introspect "$build" --buildoptions |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
root=$dest$prefix
check() {
	if [ -e "$root/$1" ]; then echo "ok - installs $1"; else echo "not ok - $1 missing"; fail=1; fi
}
check bin/kvet
check bin/kubectl-kvet
check share/man/man1/kvet.1
check share/bash-completion/completions/kvet
check share/zsh/site-functions/_kvet
check share/fish/vendor_completions.d/kvet.fish
check share/doc/kvet/rules/pdb-blocks-single-replica.md
check share/doc/kvet/examples/drain-blocking.yaml
check share/kvet/pre-commit-hooks.yaml
if [ "$(readlink "$root/bin/kubectl-kvet")" = kvet ]; then
	echo "ok - kubectl-kvet is a link to kvet"
else
	echo "not ok - kubectl-kvet does not point at kvet"
	fail=1
fi
if "$root/bin/kubectl-kvet" version | grep -q '^kvet '; then
	echo "ok - the installed plugin runs"
else
	echo "not ok - the installed plugin does not run"
	fail=1
fi
# kubectl finds plugins on PATH; a machine without kubectl cannot show it
if command -v kubectl >/dev/null; then
	if PATH="$root/bin:$PATH" kubectl kvet version | grep -q '^kvet '; then
		echo "ok - kubectl kvet version runs the plugin"
	else
		echo "not ok - kubectl does not run the plugin"
		fail=1
	fi
else
	echo "ok - # SKIP kubectl is not installed: kubectl kvet not tried"
fi
exit $fail

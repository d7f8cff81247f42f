#!/usr/bin/env bash
# `meson install` puts kvet, the kubectl-kvet plugin link, the man page and
# the bash completion in place, and the installed binary runs.
# Usage: test_install.sh BUILDDIR
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
build=$1
dest=$(mktemp -d)
trap 'rm -rf "$dest"' EXIT

if ! meson install -C "$build" --destdir "$dest" --quiet >"$dest.log" 2>&1; then
	notok "meson install failed:"
	sed 's/^/#   /' "$dest.log"
	rm -f "$dest.log"
	exit 1
fi
rm -f "$dest.log"
prefix=$(meson introspect "$build" --buildoptions |
	python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
root=$dest$prefix
# installs PATH: meson install put PATH under the prefix
installs() { check "installs $1" test -e "$root/$1"; }
installs bin/kvet
installs bin/kubectl-kvet
installs share/man/man1/kvet.1
installs share/bash-completion/completions/kvet
installs share/zsh/site-functions/_kvet
installs share/fish/vendor_completions.d/kvet.fish
installs share/doc/kvet/rules/pdb-blocks-single-replica.md
installs share/doc/kvet/examples/drain-blocking.yaml
installs share/kvet/pre-commit-hooks.yaml
if [ "$(readlink "$root/bin/kubectl-kvet")" = kvet ]; then
	ok "kubectl-kvet is a link to kvet"
else
	notok "kubectl-kvet does not point at kvet"
fi
if "$root/bin/kubectl-kvet" version | grep -q '^kvet '; then
	ok "the installed plugin runs"
else
	notok "the installed plugin does not run"
fi
# kubectl finds plugins on PATH; a machine without kubectl cannot show it
if command -v kubectl >/dev/null; then
	if PATH="$root/bin:$PATH" kubectl kvet version | grep -q '^kvet '; then
		ok "kubectl kvet version runs the plugin"
	else
		notok "kubectl does not run the plugin"
	fi
else
	skip "kubectl is not installed: kubectl kvet not tried"
fi
done_testing

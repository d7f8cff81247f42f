#!/usr/bin/env bash
# The pre-commit hook of this repository, run by Debian's pre-commit the
# way a user sets it up: a fresh git repository whose
# .pre-commit-config.yaml points at this repository's path and commit.
# A manifest whose PodDisruptionBudget blocks every drain is rejected
# with kvet's message; the fixed manifest passes.
# Usage: test_hook.sh KVET SOURCE_ROOT
set -u
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$2
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $1"; }
skip() { echo "# SKIP: $1"; exit 77; }

command -v pre-commit >/dev/null || skip "pre-commit is not installed (Debian package pre-commit)"
command -v git >/dev/null || skip "git is not installed"
rev=$(git -C "$src" rev-parse HEAD 2>/dev/null) ||
	skip "$src is not a git checkout: the hook is configured by commit"
git -C "$src" cat-file -e "$rev:.pre-commit-hooks.yaml" 2>/dev/null ||
	skip "commit $rev has no .pre-commit-hooks.yaml yet (commit it first)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home PRE_COMMIT_HOME=$tmp/cache
mkdir -p "$HOME"
# kvet is found on PATH: the hook's language is "system"
export PATH="$(dirname "$kvet"):$PATH"
repo=$tmp/repo
git init -q "$repo" && cd "$repo" || exit 1
git config user.email test@example.invalid
git config user.name test
git config commit.gpgsign false
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $src
    rev: $rev
    hooks:
      - id: kvet
YAML
cat > app.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: manager, namespace: ops}
spec:
  selector: {matchLabels: {app: manager}}
  template: {metadata: {labels: {app: manager}}}
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: manager, namespace: ops}
spec:
  minAvailable: 1
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector: {matchLabels: {app: manager}}
YAML
git add .pre-commit-config.yaml app.yaml
out=$(pre-commit run --files app.yaml 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'pdb-blocks-single-replica'; then
	ok "a drain-blocking PodDisruptionBudget is rejected with kvet's message"
else
	notok "the drain-blocking manifest was not rejected (exit $rc):"
	printf '%s\n' "$out" | sed 's/^/#   /'
fi
if printf '%s\n' "$out" | grep -q 'app.yaml:12:3: error: minAvailable 1 of 1 replica'; then
	ok "the message points at minAvailable"
else
	notok "the message does not point at app.yaml:12:3"
fi
sed -i 's/minAvailable: 1/maxUnavailable: 1/' app.yaml
git add app.yaml
out=$(pre-commit run --files app.yaml 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	ok "the fixed manifest passes"
else
	notok "the fixed manifest was rejected (exit $rc):"
	printf '%s\n' "$out" | sed 's/^/#   /'
fi

echo "1..$n"
echo "$((n - fail)) passed, $fail failed"
[ $fail = 0 ]

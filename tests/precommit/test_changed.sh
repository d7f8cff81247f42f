#!/usr/bin/env bash
# kvet lint --changed on its own (the hook's entry, and CI's on a pull
# request): the repository around the change as one graph, only what
# touches a changed file reported, named from the repository's root; a
# deleted file left out; a changed template re-lints its chart (with helm
# and kubectl on PATH).
# Usage: test_changed.sh KVET
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fixtures=$(cd "$(dirname "${BASH_SOURCE[0]}")/fixtures" && pwd)
command -v git >/dev/null || skip_all "git is not installed"
export NO_COLOR=1 LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_explain() {
	[ -f "$tmp/out" ] && sed 's/^/#   out: /' "$tmp/out" | head -n 30
	return 0
}
repo=$tmp/repo
mkdir -p "$repo/apps/web" "$repo/legacy" "$repo/chart/templates"
git init -q "$repo"
cd "$repo" || exit 1
cp "$fixtures/web-deployment.yaml" apps/web/deployment.yaml
sed 's/maxUnavailable: 1/maxUnavailable: 0/' "$fixtures/web-pdb.yaml" \
	> apps/web/pdb.yaml
cp "$fixtures/batch.yaml" legacy/batch.yaml
printf 'apiVersion: v2\nname: shop\nversion: 1.0.0\n' > chart/Chart.yaml
printf 'replicas: 5\n' > chart/values.yaml
cat > chart/templates/deployment.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: shop}
spec:
  replicas: {{ .Values.replicas }}
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec:
      containers: [{name: shop, image: "example.com/shop:1.0"}]
YAML

"$kvet" lint --no-config --changed apps/web/pdb.yaml > "$tmp/out" 2>&1
rc=$?
check "the changed budget is joined to its Deployment in another file (exit $rc)" \
	has "$tmp/out" 'apps/web/pdb.yaml:5:3: error: PodDisruptionBudget "web" allows 0 disruptions of its 2 pods'
check "...the Deployment's own finding, which does not involve the budget, is left out" \
	hasnt "$tmp/out" 'apps/web/deployment.yaml:5:3: warning'
check "...old findings of files the change did not touch are not" \
	hasnt "$tmp/out" 'legacy/batch.yaml'
check "...nor are the chart's: only a changed file of it renders it" \
	hasnt "$tmp/out" 'chart/'
check "...the whole repository is the context" \
	has "$tmp/out" 'kvet: 3 files, 3 objects'
is "...and the exit status is the findings' (1)" "$rc" 1

"$kvet" lint --no-config --changed legacy/batch.yaml > "$tmp/out" 2>&1
rc=$?
check "a change to the old file reports its findings" \
	has "$tmp/out" 'legacy/batch.yaml:5:3: warning: Deployment "batch" runs 3 replicas'
check "...and not the budget's" hasnt "$tmp/out" 'apps/web/pdb.yaml'

(cd apps && "$kvet" lint --no-config --changed web/pdb.yaml) > "$tmp/out" 2>&1
check "from a subdirectory the repository is still the context" \
	has "$tmp/out" '../apps/web/pdb.yaml:5:3: error: PodDisruptionBudget "web" allows 0 disruptions of its 2 pods'

"$kvet" lint --no-config --changed gone.yaml > "$tmp/out" 2>&1
rc=$?
is "a deleted file is left out: nothing to report (exit $rc)" "$rc" 0
check "...and no error for it" hasnt "$tmp/out" 'gone.yaml'

printf 'kind: [\n' > legacy/broken.yaml
"$kvet" lint --no-config --changed apps/web/pdb.yaml > "$tmp/out" 2>&1
check "an unchanged file's input error is not the change's" \
	hasnt "$tmp/out" 'legacy/broken.yaml'
"$kvet" lint --no-config --changed legacy/broken.yaml > "$tmp/out" 2>&1
rc=$?
check "a changed file's input error is reported (exit $rc)" \
	has "$tmp/out" 'legacy/broken.yaml:'
is "...with the input-error exit status" "$rc" 2
rm legacy/broken.yaml

"$kvet" lint --changed --cluster x > "$tmp/out" 2>&1
rc=$?
is "--changed with --cluster is a usage error" "$rc" 3

if command -v helm >/dev/null; then
	"$kvet" lint --no-config --changed chart/values.yaml > "$tmp/out" 2>&1
	check "a changed values.yaml re-lints its chart, rendered" \
		has "$tmp/out" 'chart/templates/deployment.yaml:5:3: warning: Deployment "shop" runs 5 replicas'
	check "...and the budget's findings are not the chart's change" \
		hasnt "$tmp/out" 'apps/web/pdb.yaml'
else
	skip "a changed values.yaml re-lints its chart" "helm is not on PATH (scripts/test installs it)"
fi
done_testing

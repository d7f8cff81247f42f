#!/usr/bin/env bash
# The pre-commit hook of this repository, run by Debian's pre-commit the
# way a user sets it up: a fresh git repository whose
# .pre-commit-config.yaml points at this repository's path and commit.
# The repository holds what real ones do beside rendered manifests: a
# Helm chart (Chart.yaml, values, templates/ with {{ }}), a kustomize base
# and overlay, CI YAML (.github/workflows, .gitlab-ci.yml, a top-level
# azure-pipelines.yml), mkdocs.yml, .kvet.yaml and .kvet-baseline.yaml.
# Only the rendered manifests are linted: the commit fails or passes on
# them alone.
# azure-pipelines.yml and mkdocs.yml reach kvet (the hook's patterns keep
# every other file away from it): the loader skips them as documents with
# neither apiVersion nor kind.
# Usage: test_hook.sh KVET SOURCE_ROOT
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
src=$(cd "$2" && pwd)
fixtures=$(cd "$(dirname "${BASH_SOURCE[0]}")/fixtures" && pwd)
# skip_script REASON: 77, the status meson takes for a skipped test
skip_script() { echo "# SKIP: $1"; exit 77; }
show() { printf '%s\n' "$1" | sed 's/^/#   /'; }

command -v pre-commit >/dev/null || skip_script "pre-commit is not installed (Debian package pre-commit)"
command -v git >/dev/null || skip_script "git is not installed"
rev=$(git -C "$src" rev-parse HEAD 2>/dev/null) ||
	skip_script "$src is not a git checkout: the hook is configured by commit"
git -C "$src" cat-file -e "$rev:.pre-commit-hooks.yaml" 2>/dev/null ||
	skip_script "commit $rev has no .pre-commit-hooks.yaml yet (commit it first)"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HOME=$tmp/home PRE_COMMIT_HOME=$tmp/cache
mkdir -p "$HOME"
# kvet is found on PATH: the hook's language is "system"
export PATH="$(dirname "$kvet"):$PATH"

# The hook's own patterns, as pre-commit applies them (Python's re.search
# on paths relative to the repository), against the layouts it must fit.
git -C "$src" show "$rev:.pre-commit-hooks.yaml" > "$tmp/hooks.yaml"
out=$(python3 - "$tmp/hooks.yaml" <<'PY' 2>&1
import re, sys, yaml
hook = [h for h in yaml.safe_load(open(sys.argv[1])) if h["id"] == "kvet"][0]
files, exclude = re.compile(hook["files"]), re.compile(hook["exclude"])
linted = ["rendered/app.yaml", "app.yml", "deploy/prod/all.json",
          "manifests/templated.yaml", "k8s/values-app/deploy.yaml",
          "config/manager/manager.yaml", "chart-output/base-image.yaml"]
skipped = ["chart/Chart.yaml", "chart/values.yaml", "chart/values-prod.yaml",
           "chart/values.schema.json", "chart/requirements.yaml",
           "chart/templates/deployment.yaml", "charts/sub/templates/a.yml",
           "base/kustomization.yaml", "base/deployment.yaml",
           "overlays/prod/replicas-patch.yaml", "apps/x/Kustomization",
           "deploy/bases/web.yaml", ".kvet.yaml", ".kvet-baseline.yaml",
           ".gitlab-ci.yml", ".github/workflows/ci.yml",
           ".pre-commit-config.yaml", "sub/.kvet.yaml", "README.md",
           "chart/templates/_helpers.tpl"]
bad = [p for p in linted if not files.search(p) or exclude.search(p)]
bad += [p for p in skipped if files.search(p) and not exclude.search(p)]
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
)
if [ $? -eq 0 ]; then
	ok "files/exclude pass manifests and keep chart sources, kustomize, CI and kvet's own files out"
else
	notok "the hook's patterns misclassify:"
	show "$out"
fi

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
        args: [--baseline, .kvet-baseline.yaml]
YAML

# A Helm chart: templates are not YAML until rendered.
mkdir -p chart/templates
cat > chart/Chart.yaml <<'YAML'
apiVersion: v2
name: shop
version: 1.2.0
YAML
cat > chart/values.yaml <<'YAML'
replicaCount: 1
image: {repository: example.com/shop, tag: "1.2"}
YAML
printf '{"$schema": "https://json-schema.org/draft-07/schema#", "type": "object"}\n' \
	> chart/values.schema.json
cat > chart/templates/deployment.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "shop.fullname" . }}
spec:
  replicas: {{ .Values.replicaCount }}
  {{- with .Values.selector }}
  selector: {{ toYaml . | nindent 4 }}
  {{- end }}
YAML
printf '{{- define "shop.fullname" -}}{{ .Release.Name }}{{- end }}\n' \
	> chart/templates/_helpers.tpl
# A kustomize base whose PodDisruptionBudget blocks drains at one
# replica, and an overlay that patches replicas: linted alone they would
# fail, rendered (kustomize build overlays/prod) they do not.
mkdir -p base overlays/prod
cat > base/kustomization.yaml <<'YAML'
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [deployment.yaml, pdb.yaml]
YAML
cat > base/deployment.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: api}}
  template: {metadata: {labels: {app: api}}}
YAML
cat > base/pdb.yaml <<'YAML'
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: api, namespace: shop}
spec:
  minAvailable: 1
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector: {matchLabels: {app: api}}
YAML
cat > overlays/prod/kustomization.yaml <<'YAML'
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources: [../../base]
patches: [{path: replicas-patch.yaml}]
YAML
cat > overlays/prod/replicas-patch.yaml <<'YAML'
apiVersion: apps/v1
kind: Deployment
metadata: {name: api, namespace: shop}
spec:
  replicas: 3
YAML
# CI and documentation YAML, and kvet's own files.
mkdir -p .github/workflows docs
cat > .github/workflows/ci.yml <<'YAML'
name: ci
on: [push]
jobs:
  lint: {runs-on: ubuntu-latest, steps: [{run: kvet lint rendered/}]}
YAML
cat > .gitlab-ci.yml <<'YAML'
stages: [lint]
lint: {stage: lint, script: [kvet lint rendered/]}
YAML
cat > azure-pipelines.yml <<'YAML'
trigger: [main]
pool: {vmImage: ubuntu-latest}
steps:
  - script: kvet lint rendered/
YAML
cat > mkdocs.yml <<'YAML'
site_name: shop
nav: [{Home: index.md}]
YAML
printf -- '---\ntitle: Shop\n---\n# Shop\n' > docs/index.md
cat > .kvet.yaml <<'YAML'
rules:
  disable: [pdb-unhealthy-eviction-policy-unset]
YAML
printf 'version: 2\nfindings: []\n' > .kvet-baseline.yaml
# The rendered manifests, as `helm template` writes them: a
# PodDisruptionBudget that blocks every drain.
mkdir rendered
cat > rendered/app.yaml <<'YAML'
---
# Source: shop/templates/deployment.yaml
apiVersion: apps/v1
kind: Deployment
metadata: {name: manager, namespace: ops}
spec:
  selector: {matchLabels: {app: manager}}
  template: {metadata: {labels: {app: manager}}}
---
# Source: shop/templates/pdb.yaml
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: manager, namespace: ops}
spec:
  minAvailable: 1
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector: {matchLabels: {app: manager}}
YAML
git add -A

# kvet's own lines in pre-commit's output: locations "path:line..." that
# are not rendered/ are files the hook should never have linted
foreign() { printf '%s\n' "$1" | grep -E '^[^ ]+:[0-9]+(:[0-9]+)?: ' | grep -v '^rendered/'; }

out=$(pre-commit run 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'rendered/app.yaml:15:3: error: PodDisruptionBudget "manager" allows 0 disruptions.*\[pdb-blocks-single-replica\]'; then
	ok "the whole commit is rejected for the rendered manifest alone, with kvet's message"
else
	notok "the drain-blocking rendered manifest was not rejected at rendered/app.yaml:15:3 (exit $rc):"
	show "$out"
fi
if [ -z "$(foreign "$out")" ]; then
	ok "nothing but rendered/ is reported: chart, kustomize, CI and kvet's files stay out"
else
	notok "files other than the rendered manifests were linted:"
	show "$(foreign "$out")"
fi

sed -i 's/minAvailable: 1/maxUnavailable: 1/' rendered/app.yaml
git add rendered/app.yaml
out=$(pre-commit run 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	ok "with the rendered manifest fixed the whole commit passes"
else
	notok "the commit with a fixed rendered manifest was rejected (exit $rc):"
	show "$out"
fi
git commit -q --no-verify -m "a chart, a kustomize base, CI files and rendered manifests"

# Commits that touch no manifest at all: the hook has nothing to check.
printf 'replicaCount: 2\n' > chart/values.yaml
printf 'apiVersion: v2\nname: shop\nversion: 1.3.0\n' > chart/Chart.yaml
printf '  {{- /* a comment */ -}}\n' >> chart/templates/deployment.yaml
printf '  replicas: 1\n' >> overlays/prod/replicas-patch.yaml
printf 'namespace: shop\n' >> .kvet.yaml
printf 'version: 2\nfindings:\n' > .kvet-baseline.yaml
printf '# edited\n' >> .github/workflows/ci.yml
printf '# edited\n' >> .gitlab-ci.yml
git add -A
out=$(pre-commit run 2>&1)
rc=$?
if [ $rc -eq 0 ] && printf '%s\n' "$out" | grep -q 'no files to check'; then
	ok "a commit of chart sources, kustomize files, CI files, .kvet.yaml and a baseline never runs kvet"
else
	notok "a commit without manifests was checked or rejected (exit $rc):"
	show "$out"
fi
git commit -q --no-verify -m "sources only"

printf '# edited\n' >> azure-pipelines.yml
printf 'theme: {name: material}\n' >> mkdocs.yml
git add -A
out=$(pre-commit run 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	ok "CI and documentation YAML that reach kvet are skipped, not errors"
else
	notok "azure-pipelines.yml or mkdocs.yml failed the commit (exit $rc):"
	show "$out"
fi

git commit -q --no-verify -m "CI and docs"

# A Deployment and its budget in two files, committed; then a
# commit that changes the budget alone. The hook is given that one file:
# kvet joins it to the Deployment it selects in the repository.
mkdir -p apps/web legacy
cp "$fixtures/web-deployment.yaml" apps/web/deployment.yaml
cp "$fixtures/web-pdb.yaml" apps/web/pdb.yaml
# and an old finding elsewhere, committed past the hook
cp "$fixtures/batch.yaml" legacy/batch.yaml
git add -A
git commit -q --no-verify -m "web and its budget; an old batch job"
sed -i 's/maxUnavailable: 1/maxUnavailable: 0/' apps/web/pdb.yaml
git add apps/web/pdb.yaml
out=$(pre-commit run 2>&1)
rc=$?
if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -q 'apps/web/pdb.yaml:5:3: error: PodDisruptionBudget "web" allows 0 disruptions of its 2 pods'; then
	ok "a budget changed alone is joined to its Deployment in another file: the commit fails"
else
	notok "the one-file change to a budget was not joined to its Deployment (exit $rc):"
	show "$out"
fi
if printf '%s\n' "$out" | grep -q 'legacy/batch.yaml'; then
	notok "the change reported an old finding of a file it did not touch:"
	show "$out"
else
	ok "...and the old finding of a file it did not touch is not reported"
fi
sed -i 's/maxUnavailable: 0/maxUnavailable: 1/' apps/web/pdb.yaml
printf '  # reviewed\n' >> apps/web/pdb.yaml
git add apps/web/pdb.yaml
out=$(pre-commit run 2>&1)
rc=$?
if [ $rc -eq 0 ]; then
	ok "an unrelated change passes though an old file has findings"
else
	notok "an unrelated change failed on findings it did not make (exit $rc):"
	show "$out"
fi
git commit -q --no-verify -m "budget fixed"

# The hook kvet-charts: changed files of a chart or kustomization re-lint
# it, rendered with the helm and kubectl on PATH.
if command -v helm >/dev/null && command -v kubectl >/dev/null &&
	grep -q 'id: kvet-charts' "$tmp/hooks.yaml"; then
	cat >> .pre-commit-config.yaml <<YAML
      - id: kvet-charts
YAML
	git add -A
	git commit -q --no-verify -m "the charts hook"
	printf 'replicaCount: 3\n' > chart/values.yaml
	git add -A
	out=$(pre-commit run kvet-charts 2>&1)
	if printf '%s\n' "$out" | grep -q 'chart/templates/deployment.yaml:.*Deployment "release-name" runs 3 replicas'; then
		ok "kvet-charts: a changed values.yaml re-lints its chart, rendered"
	else
		notok "kvet-charts did not render the chart of a changed values.yaml:"
		show "$out"
	fi
	printf '  replicas: 4\n' >> overlays/prod/replicas-patch.yaml
	git add -A
	out=$(pre-commit run kvet-charts --files overlays/prod/replicas-patch.yaml 2>&1)
	if printf '%s\n' "$out" | grep -q 'base/deployment.yaml:.*Deployment "api"'; then
		ok "kvet-charts: a changed patch builds its kustomization, findings at the base's file"
	else
		notok "kvet-charts did not build the kustomization of a changed patch:"
		show "$out"
	fi
else
	echo "# SKIP kvet-charts: helm or kubectl not on PATH, or no such hook at $rev"
fi

done_testing

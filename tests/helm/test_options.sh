#!/usr/bin/env bash
# Chart options beyond the command line, with the real helm: .kvet.yaml's
# charts: entries (values from the chart's directory, set, namespace,
# valuesMatrix), and --lint-owners, which turns changed files inside a
# chart or kustomization into one render of it (the pre-commit hook
# kvet-charts).
# Usage: test_options.sh KVET CHARTS
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
charts=$2
# a failure seen once on a fresh root must say what kvet printed
tap_explain() {
	[ -f "$tmp/out" ] && sed 's/^/#   out: /' "$tmp/out" | head -n 40
	[ -f "$tmp/a" ] && diff "$tmp/a" "$tmp/b" 2>/dev/null | head -n 40
	return 0
}
for prog in helm kubectl; do
	if ! command -v "$prog" >/dev/null; then
		skip_all "$prog is not on PATH (scripts/test installs it)"
	fi
done
export NO_COLOR=1 LC_ALL=C
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$charts" "$tmp/repo"
cd "$tmp/repo" || exit 1
cat > .kvet.yaml <<'YAML'
charts:
  matrix:
    values: [ci/two-values.yaml]
    set: [replicas=6]
    namespace: shop
YAML
"$kvet" lint --format json matrix > "$tmp/out"
check ".kvet.yaml gives the chart its values file, from the chart" \
	has "$tmp/out" '"unit": "matrix with ci/two-values.yaml"'
check "...and no matrix then" hasnt "$tmp/out" 'ha-values.yaml'
check "...its --set" has "$tmp/out" 'runs 6 replicas'
check "...and its release namespace" has "$tmp/out" '"namespace": "shop"'
"$kvet" lint --format json -f matrix/ci/ha-values.yaml matrix > "$tmp/out"
check "the command line's -f comes first, the entry's after it" \
	has "$tmp/out" '"unit": "matrix with ci/ha-values.yaml and ci/two-values.yaml"'
rm .kvet.yaml
"$kvet" lint --no-config --lint-owners matrix/values.yaml \
	matrix/templates/deployment.yaml kz/base/deployment.yaml > "$tmp/out" 2>&1
# the findings are on the template's lines; the note keeps the render's
check "--lint-owners renders the chart of changed files" \
	has "$tmp/out" "rendered at <helm template matrix -f matrix/ci/two-values.yaml>:8:3"
check "...once for all of them" test "$(grep -c 'info: Deployment "release-name-web" runs 2 replicas' "$tmp/out")" = 1
"$kvet" lint --no-config --lint-owners matrix/values.yaml \
	kz/base/deployment.yaml > "$tmp/out" 2>&1
# three renders of the chart (defaults and two ci/ files) and the base
check "...and the kustomization a changed file is in" \
	has "$tmp/out" "kvet: 4 files, 5 objects"
"$kvet" lint --no-config matrix/values.yaml > "$tmp/out" 2>&1
check "without it a values file named is its chart, never an object" \
	has "$tmp/out" "kvet: 3 files, 4 objects"
"$kvet" lint --no-config matrix/Chart.yaml > "$tmp/out" 2>&1
check "...and so is a Chart.yaml" has "$tmp/out" "kvet: 3 files, 4 objects"
"$kvet" lint --no-config kz/base/kustomization.yaml > "$tmp/out" 2>&1
check "...and a kustomization file its build (the base's one Deployment)" \
	has "$tmp/out" "kvet: 1 file, 1 object"
"$kvet" lint --no-config --format json matrix/ci/ha-values.yaml > "$tmp/out" 2>&1
check "...and a ci/ values file its chart" \
	has "$tmp/out" '"unit": "matrix with ci/ha-values.yaml"'
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: values}\n' > values.yaml
"$kvet" lint --no-config values.yaml > "$tmp/out" 2>&1
check "a values.yaml in no chart is a manifest as any other" \
	has "$tmp/out" "kvet: 1 file, 1 object"
rm values.yaml
"$kvet" lint --no-config matrix kz empty > "$tmp/a" 2>&1
"$kvet" lint --no-config empty kz matrix > "$tmp/b" 2>&1
check "the report does not depend on the order of the charts named" \
	cmp -s "$tmp/a" "$tmp/b"
done_testing

#!/usr/bin/env bash
# The Helm plugin (data/helm-plugin), installed into a throwaway helm home
# with `helm plugin install` and run through the real helm: helm kvet lint
# and drain render the chart with the calling helm, pass helm template's
# flags through and kvet's after --, and keep kvet's exit status.
# Usage: test_plugin.sh KVET PLUGIN_DIR CHARTS
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
plugin=$2
charts=$3
if ! command -v helm >/dev/null; then
	skip_all "helm is not on PATH (scripts/test installs it)"
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HELM_PLUGINS=$tmp/plugins HELM_CONFIG_HOME=$tmp/config \
	HELM_CACHE_HOME=$tmp/cache HELM_DATA_HOME=$tmp/data
export KVET=$kvet NO_COLOR=1 LC_ALL=C
mkdir -p "$HELM_PLUGINS"
helm plugin install "$plugin" > "$tmp/out" 2>&1
check "helm plugin install takes the plugin directory" has "$tmp/out" "Installed plugin: kvet"
cd "$charts" || exit 1
helm kvet lint matrix -f matrix/ci/two-values.yaml -n shop -- --no-config \
	--format json > "$tmp/out" 2>&1
rc=$?
check "helm kvet lint keeps kvet's exit status ($rc)" test $rc = 1
check "...renders with -f as given" has "$tmp/out" '"unit": "matrix with ci/two-values.yaml"'
check "...in the namespace of -n" has "$tmp/out" '"namespace": "shop"'
helm -n other kvet lint matrix --set replicas=3 --no-values-matrix -- \
	--no-config --format json > "$tmp/out" 2>&1
check "helm's own -n is the release namespace" has "$tmp/out" '"namespace": "other"'
helm kvet lint broken -- --no-config > "$tmp/out" 2>&1
rc=$?
check "a template error fails through the plugin ($rc)" test $rc = 2
check "...quoting helm" has "$tmp/out" "name is required"
helm kvet drain matrix -f matrix/ci/ha-values.yaml -- --no-config --rolling \
	> "$tmp/out" 2>&1
check "helm kvet drain rolls the render on the pool" has "$tmp/out" "step 1"
done_testing

#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# kubectl kvet lint --cluster and kubectl kvet drain --cluster: the
# plumbing to kubectl. No API server can run on the test machines, so
# KUBECTL names a stand-in kubectl, a script that records the arguments
# it was given and prints dumps of ../shared/corpus/cluster-dumps (the
# kubevious one of a GKE cluster: its Nodes, then its workloads and
# Pods, as two YAML documents), as `kubectl get ... -o json` would print
# the cluster (JSON or YAML: kvet reads both alike). Checked: the
# arguments kubectl gets (get, the resources, -A or --namespace, -o json,
# --context and --kubeconfig passed on); that the report equals linting
# the same dump as a file with --complete-input (the input named
# "cluster" instead of the file); kubectl's failure quoted as an input
# error (exit 2); a missing kubectl; the plugin's help naming it.
# usage: test_cluster.sh KVET CORPUS     (TAP output; skips without CORPUS)
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$1 corpus=$2
src=$corpus/cluster-dumps/kubevious-parser-data
if [ ! -f "$src-node.yaml" ] || [ ! -f "$src-all.yaml" ]; then
	skip_all "no $src-node.yaml or -all.yaml (../shared is absent)"
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
dump=$tmp/dump.yaml
{ cat "$src-node.yaml"; echo ---; cat "$src-all.yaml"; } >"$dump"
ln -s "$(cd "$(dirname "$kvet")" && pwd)/$(basename "$kvet")" "$tmp/kubectl-kvet"
cat >"$tmp/kubectl" <<STANDIN
#!/bin/sh
# a stand-in for kubectl: records its arguments, one a line
printf '%s\n' "\$@" >"$tmp/argv"
if [ -n "\${STANDIN_FAIL-}" ]; then
	echo "The connection to the server localhost:8080 was refused - did you specify the right host or port?" >&2
	exit 1
fi
cat "$dump"
STANDIN
chmod +x "$tmp/kubectl"
export KUBECTL=$tmp/kubectl NO_COLOR=1 LC_ALL=C
resources=$("$kvet" lint --cluster >/dev/null 2>&1; sed -n 2p "$tmp/argv")

"$tmp/kubectl-kvet" lint --cluster >"$tmp/out" 2>"$tmp/err"
rc=$?
is "lint --cluster: kubectl get RESOURCES -A -o json" \
	"$(tr '\n' ' ' <"$tmp/argv")" "get $resources -A -o json "
for kind in nodes pods poddisruptionbudgets deployments statefulsets \
	daemonsets validatingwebhookconfigurations; do
	case ",$resources," in
	*",$kind,"*) is "the resources include $kind" yes yes ;;
	*) is "the resources include $kind" no yes ;;
	esac
done
"$kvet" lint --complete-input "$dump" >"$tmp/want" 2>"$tmp/want.err"
want_rc=$?
is "lint --cluster exits as lint --complete-input of the dump" "$rc" "$want_rc"
is "lint --cluster reports as lint --complete-input of the dump" \
	"$(sed -E "s#(^|  )cluster:([0-9])#\\1$dump:\\2#" "$tmp/out")" "$(cat "$tmp/want")"
is "lint --cluster: the input is named cluster" \
	"$(grep -c '^cluster:' "$tmp/out")" "$(grep -c "^$dump:" "$tmp/want")"

"$tmp/kubectl-kvet" drain --cluster --context prod --kubeconfig /k/config \
	-n team-a >"$tmp/out" 2>"$tmp/err"
rc=$?
is "drain --cluster passes --context, --kubeconfig and -n on" \
	"$(tr '\n' ' ' <"$tmp/argv")" \
	"--context prod --kubeconfig /k/config get $resources --namespace team-a -o json "
"$kvet" drain -n team-a "$dump" >"$tmp/want" 2>"$tmp/want.err"
want_rc=$?
is "drain --cluster exits as drain of the dump" "$rc" "$want_rc"
is "drain --cluster drains the dump's nodes" \
	"$(grep -c '^  node "gke-kubevious-samples-pool-2-[0-9a-z-]*": drains' "$tmp/out")" 2
is "drain --cluster reports as drain of the dump" \
	"$(sed -E "s#(^|  )cluster:([0-9])#\\1$dump:\\2#" "$tmp/out")" "$(cat "$tmp/want")"

STANDIN_FAIL=1 "$tmp/kubectl-kvet" lint --cluster >"$tmp/out" 2>"$tmp/err"
rc=$?
is "kubectl failing is an input error (exit 2)" "$rc" 2
is "kubectl's own error is quoted" \
	"$(grep -c 'kubectl: The connection to the server localhost:8080 was refused' "$tmp/err")" 1
is "nothing is reported when kubectl failed" "$(wc -c <"$tmp/out")" 0

KUBECTL=$tmp/missing "$kvet" lint --cluster >"$tmp/out" 2>"$tmp/err"
rc=$?
is "a kubectl that cannot be run is an input error (exit 2)" "$rc" 2
is "it says which program" "$(grep -c "cannot run $tmp/missing" "$tmp/err")" 1

is "the plugin's help says kubectl kvet" \
	"$("$tmp/kubectl-kvet" lint --help | head -n 1)" \
	"usage: kubectl kvet lint [OPTIONS] [PATH...]"
is "kvet's help says kvet" \
	"$("$kvet" lint --help | head -n 1)" "usage: kvet lint [OPTIONS] [PATH...]"
"$tmp/kubectl-kvet" lint --context x 2>"$tmp/err"
is "--context without --cluster is a usage error (exit 3)" "$?" 3
is "its hint names the plugin" "$(sed -n 2p "$tmp/err")" \
	"kvet: hint: see 'kubectl kvet lint --help'"
done_testing

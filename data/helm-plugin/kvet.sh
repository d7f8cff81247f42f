#!/bin/sh
# helm kvet lint|drain CHART [helm template flags] [-- kvet flags]: kvet
# renders the chart itself, with the calling helm ($HELM_BIN), so that
# its findings name the chart and its values files. helm template's flags
# that kvet knows (-f/--values, --set, --set-string, --set-file,
# --kube-version, --api-versions, -n/--namespace, --release-name) pass
# through; anything after -- goes to kvet as it is.
set -eu
kvet=${KVET:-kvet}
usage() {
	echo "usage: helm kvet lint|drain CHART [helm template flags] [-- kvet flags]" >&2
	exit 64
}
[ $# -ge 1 ] || usage
cmd=$1
shift
case $cmd in
lint | drain) ;;
-h | --help | help)
	echo "usage: helm kvet lint|drain CHART [helm template flags] [-- kvet flags]"
	exit 0 ;;
*) usage ;;
esac
ns_given=
for a in "$@"; do
	case $a in
	-n | --namespace | --namespace=*) ns_given=1 ;;
	esac
done
# one pass over the arguments, each put back at the end: -n becomes
# --namespace, and the -- before kvet's own flags goes (kvet takes both
# kinds on one command line)
n=$#
i=0
while [ "$i" -lt "$n" ]; do
	a=$1
	shift
	i=$((i + 1))
	case $a in
	--) ;;
	-n)
		[ "$i" -lt "$n" ] || usage
		set -- "$@" --namespace "$1"
		shift
		i=$((i + 1)) ;;
	*) set -- "$@" "$a" ;;
	esac
done
# helm's own -n (or its context's namespace) when none was given here
if [ -z "$ns_given" ] && [ -n "${HELM_NAMESPACE:-}" ]; then
	set -- --namespace "$HELM_NAMESPACE" "$@"
fi
exec "$kvet" "$cmd" --helm "${HELM_BIN:-helm}" "$@"

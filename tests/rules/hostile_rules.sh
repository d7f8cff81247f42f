#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Hostile rule files through the whole command (issue 11, items 1, 2, 6
# and 9): each is generated here, run with a memory bound (ulimit -v,
# except under AddressSanitizer, which reserves terabytes of address
# space) and meson's timeout; no timing is asserted.
#
# usage: hostile_rules.sh KVET        (TAP output)

set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$1
case $kvet in /*) ;; *) kvet=$PWD/$kvet ;; esac
export NO_COLOR=1 LC_ALL=C

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# 1 GiB of address space is ten times what any of these needs now.
limit=
if ! ldd "$kvet" 2>/dev/null | grep -q libasan; then
	limit=1048576
fi

# kvet ARGS... with the bound; output in $tmp/out and $tmp/err.
run() {
	(
		[ -n "$limit" ] && ulimit -v "$limit"
		cd "$tmp" && "$kvet" "$@" >out 2>err
	)
}

# A rule file in $tmp/r/rule.yaml whose condition is $1.
rule() {
	rm -rf "$tmp/r" && mkdir -p "$tmp/r"
	{
		printf 'id: hostile\nseverity: warning\ncategory: t\nsummary: s\n'
		printf 'description: d\nremediation: r\n'
		printf 'match: {kinds: [ConfigMap]}\ncondition: >-\n  '
		cat
		printf '\nmessage: m\n'
	} >"$tmp/r/rule.yaml"
}

# $2 copies of $1, on one line.
times() {
	awk -v s="$1" -v n="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", s }'
}

cat >"$tmp/in.yaml" <<'EOF'
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {mode: fast}
EOF

# Item 1: chains of 40,000 operators, selections, indexes and calls were
# trees 40,000 deep; the checker overflowed the stack (exit 139) in lint,
# rules and explain.
for link in ' + 1' '.a' '["a"]' '.f()'; do
	{ printf 'object'; times "$link" 40000; } | rule
	for cmd in "lint --rules r in.yaml" "rules --rules r" \
		   "explain --rules r hostile"; do
		# shellcheck disable=SC2086
		run $cmd
		rc=$?
		[ $rc = 3 ] && grep -q '^r/rule.yaml:9:[0-9]*: error: expression nested more than 64 deep' "$tmp/err"
		ok_if $? "a chain of 40000 '$link': kvet ${cmd%% *} refuses the rule (exit $rc)"
	done
done

# Item 2: 2.7 MB of string comparisons, a || of 140,000 terms: quadratic
# lexing took 15 GB; the || is balanced, 18 deep.
{ printf 'object.data.mode == "slow"'; times ' || object.data.mode == "x"' 100000
  printf ' || object.data.mode == "fast"'; } | rule
[ "$(wc -c <"$tmp/r/rule.yaml")" -gt 2700000 ]
ok_if $? "the generated condition is over 2.7 MB"
run lint --no-builtin-rules --rules r in.yaml
rc=$?
[ $rc = 1 ] && grep -q '^in.yaml:1:1: warning: m \[hostile\]' "$tmp/out"
ok_if $? "a 2.7 MB condition loads and fires (exit $rc)"

# Item 9: a 300-term || reached the evaluator's depth limit of 256 and
# never fired.
{ printf 'object.data.mode == "n0"'; times ' || object.data.mode == "n"' 298
  printf ' || object.data.mode == "fast"'; } | rule
run lint --no-builtin-rules --rules r in.yaml
rc=$?
[ $rc = 1 ] && grep -q 'warning: m \[hostile\]' "$tmp/out"
ok_if $? "a 300-term || fires (exit $rc)"

# Item 6: nested macros over a list in the input ran for 36 s in 3.2 GB;
# the budget stops them, and the run says so and exits 2.
{ printf 'object.data.xs.all(a, object.data.xs.all(b, object.data.xs.all(c,'
  printf ' a + b + c >= 0)))'; } | rule
{
	printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\n'
	printf 'data:\n  xs: [0'
	for i in $(seq 1 3000); do printf ', %d' "$i"; done
	printf ']\n'
} >"$tmp/big.yaml"
run lint --no-builtin-rules --rules r big.yaml
rc=$?
[ $rc = 2 ] && grep -q '^big.yaml:1:1: error: cannot evaluate the condition on ConfigMap default/big: evaluation cost over the limit of 1000000 steps for one object \[hostile\]' "$tmp/out"
ok_if $? "nested macros stop at the cost limit with an evaluation error (exit $rc)"
run lint --no-builtin-rules --rules r --format json big.yaml
grep -q '"rule": "hostile"' "$tmp/out"
ok_if $? "the JSON report names the rule of the evaluation error"

# Item 6: macros nested four deep are refused when the rule is loaded.
{ printf 'object.a.all(w, object.b.all(x, object.c.all(y,'
  printf ' object.d.all(z, w == z))))'; } | rule
run lint --no-builtin-rules --rules r in.yaml
rc=$?
[ $rc = 3 ] && grep -q '^r/rule.yaml:9:12: error: rule "hostile" may cost .* over the limit of 10000000' "$tmp/err"
ok_if $? "a rule whose estimate is over the limit is refused at its first macro (exit $rc)"

# Memory: lists doubled in a macro stop at the memory budget.
printf 'size(object.data.xs.map(x, object.data.xs + object.data.xs)) > 0' | rule
run lint --no-builtin-rules --rules r big.yaml
rc=$?
[ $rc = 2 ] && grep -q 'evaluation memory over the limit of 65536 KiB' "$tmp/out"
ok_if $? "a list doubled in a macro stops at the memory limit (exit $rc)"

# variables: $1 of them, the first "1", each next one the previous one
# in the expression $2 (its "V"), the condition $3 over "variables.vLAST".
var_rule() {
	rm -rf "$tmp/r" && mkdir -p "$tmp/r"
	awk -v n="$1" -v e="$2" -v c="$3" 'BEGIN {
		printf "id: hostile\nseverity: warning\ncategory: t\nsummary: s\n"
		printf "description: d\nremediation: r\n"
		printf "match: {kinds: [ConfigMap]}\nvariables:\n"
		printf "  - {name: v0, expression: \"1\"}\n"
		for (i = 1; i < n; i++) {
			x = e
			gsub(/V/, "variables.v" (i - 1), x)
			printf "  - {name: v%d, expression: \"%s\"}\n", i, x
		}
		x = c
		gsub(/V/, "variables.v" (n - 1), x)
		printf "condition: \"%s\"\nmessage: \"{{ variables.v%d }}\"\n", x, n - 1
	}' >"$tmp/r/rule.yaml"
}

# A variable is evaluated below the node that reads it: a chain of
# variables, each 64 deep over the one before, is as deep as their sum,
# and the evaluator's recursion with it. Up to 256 levels are fine; 64
# variables of 64 levels would need megabytes of stack, and are refused.
var_rule 5 "V$(times ' + 1' 62)" 'V > 0'
run lint --no-builtin-rules --rules r in.yaml
rc=$?
[ $rc = 1 ] && grep -q '^in.yaml:1:1: warning: 249 \[hostile\]' "$tmp/out"
ok_if $? "5 variables, each 64 deep over the one before, evaluate (exit $rc)"
var_rule 64 "V$(times ' + 1' 62)" 'V > 0'
run lint --no-builtin-rules --rules r in.yaml
rc=$?
[ $rc = 3 ] && grep -q '^r/rule.yaml:14:29: error: expression nested more than 256 deep with the variables it reads' "$tmp/err"
ok_if $? "64 variables, each 64 deep over the one before, are refused (exit $rc)"

# Each variable read twice by the next: 2^63 evaluations without the
# memo, 64 with it.
var_rule 64 'V == V' 'V'
run lint --no-builtin-rules --rules r in.yaml
rc=$?
[ $rc = 1 ] && grep -q 'warning: true \[hostile\]' "$tmp/out"
ok_if $? "variables read twice by the next are evaluated once each (exit $rc)"

var_rule 65 'V' 'V == 1'
run lint --no-builtin-rules --rules r in.yaml
rc=$?
[ $rc = 3 ] && grep -q '^r/rule.yaml:9:3: error: a rule may have at most 64 variables' "$tmp/err"
ok_if $? "a rule with 65 variables is refused (exit $rc)"

done_testing

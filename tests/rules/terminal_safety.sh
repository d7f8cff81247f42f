#!/usr/bin/env bash
# Control characters from rule files, .kvet.yaml and file names reach
# the terminal as U+FFFD (issue 22): `kvet rules`, `kvet explain`,
# `kvet rules test` and the errors on stderr, compared byte for byte.
# ESC (CSI and OSC), BEL, CR, a C1 control (U+009B) and a line feed in
# a one-line field each become one U+FFFD.
# Usage: terminal_safety.sh KVET
set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# compare the output of a command (file $2) with what is wanted ($3)
same() {
	if cmp -s "$2" "$3"; then
		ok "$1"
	else
		notok "$1"
		diff <(od -c "$3") <(od -c "$2") | sed 's/^/#   /' | head -20
	fi
}
R=$(printf '\357\277\275')

mkdir -p "$tmp/r" "$tmp/bad"
cat >"$tmp/r/tty.yaml" <<'RULE'
id: tty-rule
severity: warning
category: "cat\e[31m"
summary: "sum\e]0;title\a"
description: "line one\nline two\e[2J\r"
match: {kinds: [Deployment]}
condition: "true"
message: "msg\u009b31m"
examples:
- name: "ex\e[1m\nnext"
  expect: pass
  manifest: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n# \e[5m\n"
RULE
cd "$tmp" || exit 1

"$kvet" rules --no-config --rules r | grep '^tty-rule' >out
printf 'tty-rule%35swarning  cat%s[31m      sum%s]0;title%s\n' '' "$R" "$R" "$R" >want
same "kvet rules: the category and summary escaped" out want

"$kvet" explain --no-config --rules r tty-rule >out
{
	printf '# tty-rule\n\nSeverity: **warning** \302\267 Category: cat%s[31m\n\n' "$R"
	printf 'sum%s]0;title%s\n\n## Why it matters\n\n' "$R" "$R"
	printf 'line one\nline two%s[2J%s\n\n' "$R" "$R"
	printf '## Condition\n\nApplies to: `Deployment`\n\n```cel\ntrue\n```\n\n'
	printf '## Examples\n\nDoes not fire \342\200\224 ex%s[1m%snext:\n\n' "$R" "$R"
	printf '```yaml\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n# %s[5m\n```\n' "$R"
} >want
same "kvet explain: every field escaped, line feeds kept in the description and the manifest" out want

"$kvet" rules test --no-config r >out 2>&1
{
	printf 'r/tty.yaml:10: FAIL: tty-rule: ex%s[1m%snext: expected no finding, got 1: msg%s31m\n' "$R" "$R" "$R"
	printf 'kvet: 1 example: 0 passed, 1 failed\n'
} >want
same "kvet rules test: the example's name and the finding escaped" out want

printf 'id: b\nseverity: info\nmatch: {kinds: ["foo\\e[31m"]}\ncondition: "true"\nmessage: m\n' \
	>"bad/b"$'\e'"[7m.yaml"
"$kvet" rules test --no-config bad >out 2>&1
printf 'bad/b%s[7m.yaml:3:17: error: unknown kind "foo%s[31m" in "match.kinds" (a kind starts with an upper-case letter; "workload" and "scalable-workload" select workload kinds)\n' \
	"$R" "$R" >want
same "a rule file's error: its file name and message escaped" out want

printf 'rules: {enable: ["\\e]0;x\\a"]}\n' >cfg.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n' >cm.yaml
"$kvet" lint -q --config cfg.yaml cm.yaml >out 2>&1
printf 'cfg.yaml:1:18: error: unknown rule "%s]0;x%s" (kvet rules lists them)\n' \
	"$R" "$R" >want
same ".kvet.yaml's error: the rule id escaped" out want

"$kvet" explain --no-config $'x\e[1m' >out 2>&1
printf "kvet: error: unknown rule 'x%s[1m'\nkvet: hint: 'kvet rules' lists the rules\n" \
	"$R" >want
same "kvet explain of an unknown id: escaped" out want

done_testing

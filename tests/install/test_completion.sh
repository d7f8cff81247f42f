#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
#
# Shell completion in bash (without the bash-completion package), zsh and
# fish: commands, `config init`, every rule id for explain, --enable,
# --disable and --param, every option `kvet lint --help` and `kvet drain
# --help` list, option values, and files to lint. A shell that is not installed is skipped,
# saying so (scripts/common.sh installs zsh and fish for ./scripts/test).
#
# usage: test_completion.sh KVET DATADIR      (TAP output)

set -u
. "$(dirname "${BASH_SOURCE[0]}")/../lib/tap.sh"
kvet=$1
data=$(cd "$2" && pwd) || exit 2
case $kvet in /*) ;; *) kvet=$PWD/$kvet ;; esac
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# completion runs "kvet" from PATH, as a user's shell does
mkdir "$tmp/bin" "$tmp/work"
ln -s "$kvet" "$tmp/bin/kvet"
export PATH="$tmp/bin:$PATH" NO_COLOR=1
cd "$tmp/work" || exit 2
mkdir -p deploy/base
touch deploy/app.yaml deploy/notes.txt values.json

ids=$(kvet rules --no-config | awk '{print $1}' | sort)
n_ids=$(printf '%s\n' "$ids" | wc -l)
options=$(kvet lint --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
# kvet drain's, from its options list (its description names others)
drain_options=$(kvet drain --help | sed -n '/^options:/,$p' |
	grep -oE -- '--[a-z][a-z-]*' | sort -u)

# not_ok NAME GOT: a failing point, showing what the shell offered
not_ok() {
	notok "$1"
	printf '%s\n' "$2" | head -n 10 | sed 's/^/# got: /'
}

# expect SHELL WHAT GOT WANT...: every WANT is a line of GOT
expect() {
	local shell=$1 what=$2 got=$3 w
	shift 3
	for w in "$@"; do
		if ! printf '%s\n' "$got" | grep -qxF -- "$w"; then
			not_ok "$shell: $what offers '$w'" "$got"
			return
		fi
	done
	ok "$shell: $what"
}

# expect_ids SHELL WHAT GOT [SUFFIX]: exactly the rule ids
expect_ids() {
	local want
	want=$(printf '%s\n' "$ids" | sed "s/\$/${4-}/")
	if [ "$(printf '%s\n' "$3" | sort)" = "$want" ]; then
		ok "$1: $2 offers the $n_ids rule ids"
	else
		not_ok "$1: $2 offers the $n_ids rule ids" "$3"
	fi
}

# ---- bash, started without any rc file: no bash-completion package
bash_complete() {
	bash --norc --noprofile -c '
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_kvet
		printf "%s\n" "${COMPREPLY[@]}"' bash "$data/kvet.bash" "$@" 2>&1
}

# the plain bash of these runs has none of bash-completion's helpers
if bash --norc --noprofile -c 'type _init_completion' >/dev/null 2>&1; then
	not_ok "bash: runs without bash-completion" "_init_completion exists"
else
	ok "bash: runs without bash-completion's helpers"
fi
expect bash "commands" "$(bash_complete kvet '')" lint rules explain config \
	version help
expect bash "config" "$(bash_complete kvet config '')" init
expect_ids bash "explain" "$(bash_complete kvet explain '')"
expect_ids bash "--enable" "$(bash_complete kvet lint --enable '')"
expect_ids bash "--disable" "$(bash_complete kvet lint --disable '')"
expect_ids bash "--param" "$(bash_complete kvet lint --param '')" .
expect bash "--disable pdb-o" "$(bash_complete kvet lint --disable pdb-o)" \
	pdb-overlapping
# shellcheck disable=SC2086
expect bash "every lint option" "$(bash_complete kvet lint --)" $options
expect bash "drain" "$(bash_complete kvet dr)" drain
# shellcheck disable=SC2086
expect bash "every drain option" "$(bash_complete kvet drain --)" $drain_options
expect bash "--order" "$(bash_complete kvet drain --rolling --order '')" zone \
	name given
expect bash "--fail-on=" "$(bash_complete kvet lint --fail-on = '')" error \
	warning info never
expect bash "--format" "$(bash_complete kvet lint --format '')" codequality \
	markdown github
expect bash "rules --format" "$(bash_complete kvet rules --format '')" json
expect bash "rules test" "$(bash_complete kvet rules '')" test
expect bash "manifests" "$(bash_complete kvet lint deploy/)" deploy/app.yaml \
	deploy/base/
if bash_complete kvet lint deploy/ | grep -q notes.txt; then
	not_ok "bash: leaves out files kvet does not lint" "deploy/notes.txt"
else
	ok "bash: leaves out files kvet does not lint"
fi
expect bash "kubectl-kvet" "$(bash --norc -c "source '$data/kvet.bash'; complete -p kubectl-kvet")" \
	"complete -F _kvet kubectl-kvet"

# ---- zsh: the completion function with compadd and _files stubbed, so
# it runs outside the line editor
zsh_complete() {
	zsh -f -c '
		compadd() {
			local suffix=
			while [[ $1 != -- ]]; do
				[[ $1 == -S ]] && { suffix=$2; shift; }
				shift
			done
			shift
			print -rl -- ${^@}$suffix
		}
		_files() { print -r -- "_files $*" }
		compset() { return 0 }
		file=$1; shift
		words=("$@"); CURRENT=$#words
		source $file' zsh "$data/_kvet" "$@" 2>&1
}

if command -v zsh >/dev/null; then
	expect zsh "commands" "$(zsh_complete kvet '')" lint rules explain config \
		version help
	expect zsh "config" "$(zsh_complete kvet config '')" init
	expect_ids zsh "explain" "$(zsh_complete kvet explain '')"
	expect_ids zsh "--enable" "$(zsh_complete kvet lint --enable '')"
	expect_ids zsh "--disable" "$(zsh_complete kvet lint --disable '')"
	expect_ids zsh "--param" "$(zsh_complete kvet lint --param '')" .
	# shellcheck disable=SC2086
	expect zsh "every lint option" "$(zsh_complete kvet lint --)" $options
	# shellcheck disable=SC2086
	expect zsh "every drain option" "$(zsh_complete kvet drain --)" \
		$drain_options
	expect zsh "--order" "$(zsh_complete kvet drain --order '')" zone given
	expect zsh "--fail-on=" "$(zsh_complete kvet lint --fail-on=)" error never
	expect zsh "--format" "$(zsh_complete kvet lint --format '')" codequality \
		markdown
	expect zsh "manifests" "$(zsh_complete kvet lint '')" \
		"_files -g *.(yaml|yml|json)(-.)"
	if grep -q '^#compdef kvet kubectl-kvet$' "$data/_kvet"; then
		ok "zsh: _kvet is for kvet and kubectl-kvet"
	else
		not_ok "zsh: _kvet is for kvet and kubectl-kvet" "$(head -1 "$data/_kvet")"
	fi
else
	skip "zsh is not installed (Debian package zsh)"
fi

# ---- fish: complete -C asks fish what it would offer for a line
fish_complete() {
	fish --no-config -c "source '$data/kvet.fish'; complete -C '$*'" 2>&1 |
		cut -f1
}

if command -v fish >/dev/null; then
	expect fish "commands" "$(fish_complete 'kvet ')" lint drain rules \
		explain config version help
	expect fish "config" "$(fish_complete 'kvet config ')" init
	expect_ids fish "explain" "$(fish_complete 'kvet explain ')"
	expect_ids fish "--enable" "$(fish_complete 'kvet lint --enable ')"
	expect_ids fish "--disable" "$(fish_complete 'kvet lint --disable ')"
	expect_ids fish "--param" "$(fish_complete 'kvet lint --param ')" .
	# shellcheck disable=SC2086
	expect fish "every lint option" "$(fish_complete 'kvet lint --')" $options
	# shellcheck disable=SC2086
	expect fish "every drain option" "$(fish_complete 'kvet drain --')" \
		$drain_options
	expect fish "--order" "$(fish_complete 'kvet drain --order ')" zone given
	expect fish "--fail-on=" "$(fish_complete 'kvet lint --fail-on=')" \
		--fail-on=error --fail-on=never
	expect fish "--format" "$(fish_complete 'kvet lint --format ')" \
		codequality markdown
	expect fish "manifests" "$(fish_complete 'kvet lint deploy/')" \
		deploy/app.yaml
	expect fish "kubectl-kvet" "$(fish_complete 'kubectl-kvet ')" lint
else
	skip "fish is not installed (Debian package fish)"
fi

done_testing

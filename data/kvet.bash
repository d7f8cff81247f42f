# bash completion for kvet                                  -*- shell-script -*-
# SPDX-License-Identifier: Apache-2.0
#
# Works in a plain bash too: it uses no helper of the bash-completion
# package (_init_completion, _filedir), so `source` this file from
# ~/.bashrc where that package is not installed. kvet's own options and
# rule ids come from kvet itself (`kvet CMD --help`, `kvet rules`), so the
# completion follows the installed version.

# The rule ids, built-in and from any --rules DIR already on the line.
_kvet_rule_ids()
{
	local kvet=$1 i
	local -a dirs=()

	for ((i = 1; i < ${#COMP_WORDS[@]} - 1; i++)); do
		[[ ${COMP_WORDS[i]} == --rules ]] &&
			dirs+=(--rules "${COMP_WORDS[i + 1]}")
	done
	"$kvet" rules --no-config "${dirs[@]}" 2>/dev/null | awk '{print $1}'
}

# Files kvet lints, and directories to descend into.
_kvet_paths()
{
	local cur=$1 f
	local IFS=$'\n'

	for f in $(compgen -d -- "$cur"); do
		COMPREPLY+=("$f/")
	done
	for f in $(compgen -f -- "$cur"); do
		case $f in
		*.yaml | *.yml | *.json) [[ -d $f ]] || COMPREPLY+=("$f") ;;
		esac
	done
	compopt -o nospace 2>/dev/null
}

_kvet_files()
{
	local IFS=$'\n'

	COMPREPLY=($(compgen -f -- "$1"))
}

_kvet_dirs()
{
	local IFS=$'\n'

	COMPREPLY=($(compgen -d -- "$1"))
}

_kvet()
{
	local kvet=${COMP_WORDS[0]} cur=${COMP_WORDS[COMP_CWORD]}
	local prev= cmd=${COMP_WORDS[1]-} i
	local commands="lint drain rules explain config version help"

	# "--opt=val": bash splits at '=' (COMP_WORDBREAKS), so put it back
	if ((COMP_CWORD >= 2)) && [[ ${COMP_WORDS[COMP_CWORD - 1]} == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	elif [[ $cur == = ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 1]}
		cur=
	elif ((COMP_CWORD >= 1)); then
		prev=${COMP_WORDS[COMP_CWORD - 1]}
	fi
	COMPREPLY=()

	# "--format json=FILE": a file after the '='
	if ((COMP_CWORD >= 3)) && [[ ${COMP_WORDS[COMP_CWORD - 1]} == = &&
		${COMP_WORDS[COMP_CWORD - 3]} == --format ]]; then
		_kvet_files "$cur"
		return
	fi
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
		return
	fi

	case $cmd in
	help)
		((COMP_CWORD == 2)) &&
			COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		return
		;;
	config)
		((COMP_CWORD == 2)) &&
			COMPREPLY=($(compgen -W "init" -- "$cur"))
		((COMP_CWORD == 3)) && _kvet_files "$cur"
		return
		;;
	version)
		return
		;;
	esac

	case $prev in
	--format)
		if [[ $cmd == rules ]]; then
			COMPREPLY=($(compgen -W "text json" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$("$kvet" lint --help 2>/dev/null |
				sed -n 's/^formats: //p' | tr -d ,)" -- "$cur"))
		fi
		return
		;;
	--fail-on)
		COMPREPLY=($(compgen -W "error warning info never" -- "$cur"))
		return
		;;
	--color)
		COMPREPLY=($(compgen -W "auto always never" -- "$cur"))
		return
		;;
	--order)
		COMPREPLY=($(compgen -W "zone name given" -- "$cur"))
		return
		;;
	--enable | --disable)
		COMPREPLY=($(compgen -W "$(_kvet_rule_ids "$kvet")" -- "$cur"))
		return
		;;
	--param)
		# RULE.NAME=VALUE: the rule id, then the user writes the rest
		COMPREPLY=($(compgen -S . -W "$(_kvet_rule_ids "$kvet")" -- "$cur"))
		compopt -o nospace 2>/dev/null
		return
		;;
	--rules | --chart-dir)
		_kvet_dirs "$cur"
		return
		;;
	--config | --baseline | --write-baseline | -f | --values | --helm | --kustomize | --kubeconfig)
		_kvet_files "$cur"
		return
		;;
	--namespace | -n | --context | --docs-url | -j | --jobs | --max-input-size | --pool | \
		--node-cpu | --node-memory | --node-pods | --node-label | --node-taint | \
		--max-unavailable | --surge | --nodes | --skip-wait-for-delete-timeout | \
		--set | --set-string | --set-file | \
		--release-name | --kube-version | --api-versions)
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$("$kvet" "$cmd" --help 2>/dev/null |
			grep -oE -- '--[a-z][a-z-]*' | sort -u)" -- "$cur"))
		return
	fi

	case $cmd in
	explain)
		# the one operand, after any options
		for ((i = 2; i < COMP_CWORD; i++)); do
			[[ ${COMP_WORDS[i]} != -* && ${COMP_WORDS[i - 1]} != --rules &&
				${COMP_WORDS[i - 1]} != --config ]] && return
		done
		COMPREPLY=($(compgen -W "$(_kvet_rule_ids "$kvet")" -- "$cur"))
		;;
	rules)
		if [[ $prev == test ]]; then
			_kvet_dirs "$cur"
		elif ((COMP_CWORD == 2)); then
			COMPREPLY=($(compgen -W "test" -- "$cur"))
		fi
		;;
	lint | drain)
		_kvet_paths "$cur"
		;;
	esac
}
complete -F _kvet kvet kubectl-kvet

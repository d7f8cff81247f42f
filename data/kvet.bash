# bash completion for kvet                                  -*- shell-script -*-
# SPDX-License-Identifier: Apache-2.0

_kvet()
{
	local cur prev words cword
	_init_completion -s || return

	local commands="lint rules explain version help"
	local cmd=${words[1]}

	if [[ $cword -eq 1 ]]; then
		COMPREPLY=($(compgen -W "$commands --help --version" -- "$cur"))
		return
	fi

	case $cmd in
	explain)
		if [[ $cword -eq 2 ]]; then
			COMPREPLY=($(compgen -W "$("${words[0]}" rules 2>/dev/null | awk 'NR > 1 {print $1}')" -- "$cur"))
		fi
		return
		;;
	help)
		COMPREPLY=($(compgen -W "$commands" -- "$cur"))
		return
		;;
	lint) ;;
	*)
		return
		;;
	esac

	case $prev in
	--format)
		COMPREPLY=($(compgen -W "text json junit sarif github" -- "$cur"))
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
	--rules)
		_filedir -d
		return
		;;
	--namespace | --param | -j | --jobs)
		return
		;;
	esac

	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$("${words[0]}" lint --help 2>/dev/null | grep -oE -- '--[a-z-]+' | sort -u)" -- "$cur"))
		[[ ${COMPREPLY-} == *= ]] && compopt -o nospace
		return
	fi
	_filedir '@(yaml|yml|json)'
}
complete -F _kvet kvet kubectl-kvet

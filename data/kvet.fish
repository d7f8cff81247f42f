# fish completion for kvet
# SPDX-License-Identifier: Apache-2.0
#
# Rule ids and report formats come from kvet itself (`kvet rules`,
# `kvet lint --help`), so they follow the installed version.

# The rule ids, built-in and from any --rules DIR already on the line.
function __kvet_rule_ids
    set -l line (commandline -opc)
    set -l dirs
    for i in (seq 2 (math (count $line) - 1))
        if test "$line[$i]" = --rules
            set -a dirs --rules $line[(math $i + 1)]
        end
    end
    $line[1] rules --no-config $dirs 2>/dev/null | string replace -r '\s.*' ''
end

function __kvet_formats
    set -l line (commandline -opc)
    $line[1] lint --help 2>/dev/null | string replace -rf '^formats: ' '' | string split ', '
end

set -l commands lint drain rules explain config version help
set -l rule_commands lint rules explain

complete -c kvet -f
complete -c kvet -n "not __fish_seen_subcommand_from $commands" -a "$commands"
complete -c kvet -n "not __fish_seen_subcommand_from $commands" -l help
complete -c kvet -n "not __fish_seen_subcommand_from $commands" -l version
complete -c kvet -n "__fish_seen_subcommand_from help" -a "$commands"
complete -c kvet -n "__fish_seen_subcommand_from config; and not __fish_seen_subcommand_from init" -a init
complete -c kvet -n "__fish_seen_subcommand_from explain" -a "(__kvet_rule_ids)"
complete -c kvet -n "__fish_seen_subcommand_from rules; and not __fish_seen_subcommand_from test" -a test
complete -c kvet -n "__fish_seen_subcommand_from rules; and __fish_seen_subcommand_from test" -x -a "(__fish_complete_directories)"
complete -c kvet -n "__fish_seen_subcommand_from lint drain" -F

# options of lint, which drain shares
set -l lint "__fish_seen_subcommand_from lint drain"
complete -c kvet -n $lint -l format -x -a "(__kvet_formats)"
complete -c kvet -n $lint -s n -l namespace -x
complete -c kvet -n $lint -l cluster
complete -c kvet -n $lint -l context -x
complete -c kvet -n $lint -l kubeconfig -r -F
complete -c kvet -n "__fish_seen_subcommand_from lint" -l chart-dir -x -a "(__fish_complete_directories)"
complete -c kvet -n $lint -l fail-on -x -a "error warning info never"
complete -c kvet -n "__fish_seen_subcommand_from lint" -l complete-input
complete -c kvet -n $lint -l require-objects
complete -c kvet -n $lint -l baseline -r -F
complete -c kvet -n $lint -l write-baseline -r -F
complete -c kvet -n $lint -s j -l jobs -x
complete -c kvet -n $lint -l max-input-size -x -a "512Mi 1Gi 2Gi 4Gi"
complete -c kvet -n $lint -l color -x -a "auto always never"
complete -c kvet -n $lint -s q -l quiet
complete -c kvet -n $lint -s v -l verbose
complete -c kvet -n $lint -l show-suppressed
complete -c kvet -n $lint -l pool -x -a "3x3 2x1 6x2"
complete -c kvet -n $lint -l node-cpu -x
complete -c kvet -n $lint -l node-memory -x
complete -c kvet -n $lint -l node-pods -x
complete -c kvet -n $lint -l node-label -x
complete -c kvet -n $lint -l node-taint -x
# charts and kustomizations, in helm template's spelling
complete -c kvet -n $lint -s f -l values -r -F
complete -c kvet -n $lint -l set -x
complete -c kvet -n $lint -l set-string -x
complete -c kvet -n $lint -l set-file -x
complete -c kvet -n $lint -l release-name -x
complete -c kvet -n $lint -l kube-version -x
complete -c kvet -n $lint -l api-versions -x
complete -c kvet -n $lint -l helm -r -F
complete -c kvet -n $lint -l kustomize -r -F
complete -c kvet -n $lint -l no-values-matrix
complete -c kvet -n $lint -l no-default-values
complete -c kvet -n $lint -l lint-owners
complete -c kvet -n $lint -l changed

# options of drain alone
set -l drain "__fish_seen_subcommand_from drain"
complete -c kvet -n $drain -l rolling
complete -c kvet -n $drain -l max-unavailable -x
complete -c kvet -n $drain -l surge -x
complete -c kvet -n $drain -l order -x -a "zone name given"
complete -c kvet -n $drain -l nodes -x
complete -c kvet -n $drain -l force
complete -c kvet -n $drain -l delete-emptydir-data
complete -c kvet -n $drain -l ignore-daemonsets
complete -c kvet -n $drain -l skip-wait-for-delete-timeout -x

# options of the commands that load rules
set -l rules "__fish_seen_subcommand_from $rule_commands"
# and of those that read settings, drain too
set -l settings "__fish_seen_subcommand_from $rule_commands drain"
complete -c kvet -n "__fish_seen_subcommand_from rules" -l format -x -a "text json"
complete -c kvet -n $rules -l rules -x -a "(__fish_complete_directories)"
complete -c kvet -n $rules -l param -x -a "(__kvet_rule_ids | string replace -r '\$' .)"
complete -c kvet -n $rules -l no-builtin-rules
complete -c kvet -n $settings -l enable -x -a "(__kvet_rule_ids)"
complete -c kvet -n $settings -l disable -x -a "(__kvet_rule_ids)"
complete -c kvet -n $settings -l config -r -F
complete -c kvet -n $settings -l no-config
complete -c kvet -n $settings -l docs-url -x
complete -c kvet -n "__fish_seen_subcommand_from $commands" -s h -l help

complete -c kubectl-kvet -w kvet

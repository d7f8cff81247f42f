/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_ARGS_SETTERS_H
#define KVET_CLI_ARGS_SETTERS_H

/* The setters of the options: args_lint.c for those of kvet lint, rules
 * and explain, args_drain.c for kvet drain's and the pool's. */
#include "cli/args.h"

/* "kvet: error: ...", then a hint to the command's --help; returns -1. */
__attribute__((format(printf, 3, 4)))
int kvet_args_error(const struct kvet_args *args, FILE *err,
		    const char *fmt, ...);

/* @val as a count from @min to @max, decimal digits only (no sign, no
 * blank), into @out; false when it is none. */
bool kvet_arg_count(const char *val, unsigned long min, unsigned long max,
		    unsigned int *out);

#define KVET_ARG_SETTER(name) \
	int kvet_arg_##name(struct kvet_args *args, const char *val, FILE *err)

/* "text, json, ...": the formats the library knows. */
void kvet_args_format_names(char *buf, size_t size);

KVET_ARG_SETTER(set_format);
KVET_ARG_SETTER(add_values);
KVET_ARG_SETTER(add_set);
KVET_ARG_SETTER(add_set_string);
KVET_ARG_SETTER(add_set_file);
KVET_ARG_SETTER(set_release_name);
KVET_ARG_SETTER(set_kube_version);
KVET_ARG_SETTER(add_api_versions);
KVET_ARG_SETTER(set_helm);
KVET_ARG_SETTER(set_kustomize);
KVET_ARG_SETTER(set_no_values_matrix);
KVET_ARG_SETTER(set_no_default_values);
KVET_ARG_SETTER(set_lint_owners);
KVET_ARG_SETTER(set_changed);
KVET_ARG_SETTER(set_rules_format);
KVET_ARG_SETTER(set_namespace);
KVET_ARG_SETTER(set_fail_on);
KVET_ARG_SETTER(set_color);
KVET_ARG_SETTER(set_jobs);
KVET_ARG_SETTER(set_max_input_size);
KVET_ARG_SETTER(set_complete_input);
KVET_ARG_SETTER(set_require_objects);
KVET_ARG_SETTER(add_rules_dir);
KVET_ARG_SETTER(add_param);
KVET_ARG_SETTER(set_enable);
KVET_ARG_SETTER(set_disable);
KVET_ARG_SETTER(set_config);
KVET_ARG_SETTER(set_no_config);
KVET_ARG_SETTER(set_baseline);
KVET_ARG_SETTER(set_write_baseline);
KVET_ARG_SETTER(set_docs_url);
KVET_ARG_SETTER(set_chart_dir);
KVET_ARG_SETTER(set_no_builtin);
KVET_ARG_SETTER(set_quiet);
KVET_ARG_SETTER(set_verbose);
KVET_ARG_SETTER(set_show_suppressed);
KVET_ARG_SETTER(set_help);

KVET_ARG_SETTER(set_rolling);
KVET_ARG_SETTER(set_max_unavailable);
KVET_ARG_SETTER(set_surge);
KVET_ARG_SETTER(set_order);
KVET_ARG_SETTER(set_nodes);
KVET_ARG_SETTER(set_force);
KVET_ARG_SETTER(set_delete_emptydir);
KVET_ARG_SETTER(set_ignore_daemonsets);
KVET_ARG_SETTER(set_skip_wait_for_delete);
KVET_ARG_SETTER(set_pool);
KVET_ARG_SETTER(set_node_cpu);
KVET_ARG_SETTER(set_node_memory);
KVET_ARG_SETTER(set_node_pods);
KVET_ARG_SETTER(add_node_label);
KVET_ARG_SETTER(add_node_taint);

KVET_ARG_SETTER(set_cluster);
KVET_ARG_SETTER(set_kube_context);
KVET_ARG_SETTER(set_kubeconfig);

#endif

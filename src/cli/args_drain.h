/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_ARGS_DRAIN_H
#define KVET_CLI_ARGS_DRAIN_H

/* The setters of kvet drain's and the pool's options (args_drain.c). */
#include "cli/args.h"

/* "kvet: error: ...", then a hint to the command's --help; returns -1. */
__attribute__((format(printf, 3, 4)))
int kvet_args_error(const struct kvet_args *args, FILE *err,
		    const char *fmt, ...);

#define KVET_ARG_SETTER(name) \
	int kvet_arg_##name(struct kvet_args *args, const char *val, FILE *err)

KVET_ARG_SETTER(set_rolling);
KVET_ARG_SETTER(set_max_unavailable);
KVET_ARG_SETTER(set_surge);
KVET_ARG_SETTER(set_order);
KVET_ARG_SETTER(set_nodes);
KVET_ARG_SETTER(set_force);
KVET_ARG_SETTER(set_delete_emptydir);
KVET_ARG_SETTER(set_ignore_daemonsets);
KVET_ARG_SETTER(set_pool);
KVET_ARG_SETTER(set_node_cpu);
KVET_ARG_SETTER(set_node_memory);
KVET_ARG_SETTER(set_node_pods);
KVET_ARG_SETTER(add_node_label);
KVET_ARG_SETTER(add_node_taint);

#endif

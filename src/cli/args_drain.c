/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The options of kvet drain's plan and of the synthetic pool (kvet drain
 * and kvet lint): their setters, which the option table of args.c names.
 */
#include "cli/args_setters.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int kvet_arg_set_rolling(struct kvet_args *args, const char *val, FILE *err)
{
	args->drain.plan = KVET_DRAIN_ROLLING;
	return 0;
}

/* A count from @min to 10,000 nodes. */
static int read_count(struct kvet_args *args, const char *opt,
		      const char *val, unsigned int min, unsigned int *out,
		      FILE *err)
{
	if (!kvet_arg_count(val, min, 10000, out))
		return kvet_args_error(args, err,
				   "invalid value '%s' for '--%s' (expected %u to 10000)",
				   val, opt, min);
	return 0;
}

/* A dump's plan and a pool's upgrade settings alike. */
int kvet_arg_set_max_unavailable(struct kvet_args *args, const char *val,
				 FILE *err)
{
	if (read_count(args, "max-unavailable", val, 1,
		       &args->drain.max_unavailable, err))
		return -1;
	args->pool.max_unavailable = args->drain.max_unavailable;
	return 0;
}

int kvet_arg_set_surge(struct kvet_args *args, const char *val, FILE *err)
{
	if (read_count(args, "surge", val, 0, &args->drain.surge, err))
		return -1;
	args->pool.surge = args->drain.surge;
	args->pool.flags |= KVET_POOL_SURGE;
	return 0;
}

int kvet_arg_set_order(struct kvet_args *args, const char *val, FILE *err)
{
	static const char *const names[] = {
		[KVET_DRAIN_ORDER_ZONE] = "zone",
		[KVET_DRAIN_ORDER_NAME] = "name",
		[KVET_DRAIN_ORDER_GIVEN] = "given",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(val, names[i])) {
			args->drain.order = (enum kvet_drain_order)i;
			return 0;
		}
	return kvet_args_error(args, err,
			   "invalid value '%s' for '--order' (expected zone, name or given)",
			   val);
}

int kvet_arg_set_nodes(struct kvet_args *args, const char *val, FILE *err)
{
	args->drain.nodes = val;
	return 0;
}

/* kubectl's boolean flags: --flag, --flag=true, --flag=false. */
static int drain_switch(struct kvet_args *args, const char *opt,
			const char *val, unsigned int flag, bool flag_means,
			FILE *err)
{
	bool on;

	if (!val || !strcmp(val, "true"))
		on = true;
	else if (!strcmp(val, "false"))
		on = false;
	else
		return kvet_args_error(args, err,
				   "invalid value '%s' for '--%s' (expected true or false)",
				   val, opt);
	if (on == flag_means)
		args->drain.flags |= flag;
	else
		args->drain.flags &= ~flag;
	return 0;
}

int kvet_arg_set_force(struct kvet_args *args, const char *val, FILE *err)
{
	return drain_switch(args, "force", val, KVET_DRAIN_FORCE, true, err);
}

int kvet_arg_set_delete_emptydir(struct kvet_args *args, const char *val,
				 FILE *err)
{
	return drain_switch(args, "delete-emptydir-data", val,
			    KVET_DRAIN_KEEP_EMPTYDIR, false, err);
}

int kvet_arg_set_ignore_daemonsets(struct kvet_args *args, const char *val,
				   FILE *err)
{
	return drain_switch(args, "ignore-daemonsets", val,
			    KVET_DRAIN_NO_IGNORE_DAEMONSETS, false, err);
}

/* kubectl's int flag: seconds, where 0 (its default) never skips. */
int kvet_arg_set_skip_wait_for_delete(struct kvet_args *args, const char *val,
				      FILE *err)
{
	if (!kvet_arg_count(val, 0, INT32_MAX,
			    &args->drain.skip_wait_for_delete_timeout))
		return kvet_args_error(args, err,
				       "invalid value '%s' for '--skip-wait-for-delete-timeout' (expected seconds, from 0 to 2147483647)",
				       val);
	return 0;
}

int kvet_arg_set_pool(struct kvet_args *args, const char *val, FILE *err)
{
	if (kvet_pool_parse_size(val, &args->pool.nodes, &args->pool.zones))
		return kvet_args_error(args, err,
				       "invalid value '%s' for '--pool' (expected NODESxZONES such as 3x3: 1 to 1000 nodes in 1 to 26 zones, no more zones than nodes)",
				       val);
	return 0;
}

/* Quantities are checked by the library, which says what it expects. */
int kvet_arg_set_node_cpu(struct kvet_args *args, const char *val, FILE *err)
{
	args->pool.cpu = val;
	return 0;
}

int kvet_arg_set_node_memory(struct kvet_args *args, const char *val,
			     FILE *err)
{
	args->pool.memory = val;
	return 0;
}

int kvet_arg_set_node_pods(struct kvet_args *args, const char *val, FILE *err)
{
	return read_count(args, "node-pods", val, 1, &args->pool.pods, err);
}

int kvet_arg_add_node_label(struct kvet_args *args, const char *val,
			    FILE *err)
{
	if (args->pool.n_labels == KVET_MAX_RULE_ARGS)
		return kvet_args_error(args, err,
				       "more than %d --node-label options",
				       KVET_MAX_RULE_ARGS);
	args->pool_labels[args->pool.n_labels++] = val;
	args->pool.labels = args->pool_labels;
	return 0;
}

int kvet_arg_add_node_taint(struct kvet_args *args, const char *val,
			    FILE *err)
{
	if (args->pool.n_taints == KVET_MAX_RULE_ARGS)
		return kvet_args_error(args, err,
				       "more than %d --node-taint options",
				       KVET_MAX_RULE_ARGS);
	args->pool_taints[args->pool.n_taints++] = val;
	args->pool.taints = args->pool_taints;
	return 0;
}

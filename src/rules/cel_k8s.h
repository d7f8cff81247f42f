/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_CEL_K8S_H
#define KVET_RULES_CEL_K8S_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "model/graph.h"
#include "model/run.h"
#include "rules/env.h"

/* The binding files' libraries (rules/env.c lists them for the rules):
 * kvet.core (1.1-1.7, 1.9), kvet.pdb (A and B rules), kvet.spread (1.8),
 * kvet.webhook (1.10, 1.11) and kvet.roles (1.12-1.14). */
extern const struct cel_lib cel_k8s_roles_lib;

/* The index of @slot of the evaluation's run (model/run.h), built on
 * first use; NULL outside a run or when out of memory. */
void *cel_k8s_cache(struct cel_eval *ev, enum kvet_run_slot slot,
		    kvet_run_build_fn build, kvet_run_free_fn free);

/* Defines one binding with the signature of cel_fn. */
#define K8S_FN(fn)							\
	static struct cel_value fn(struct cel_eval *ev,			\
				   const struct cel_ast *call,		\
				   const struct cel_value *args, size_t n)

/* The error of a function called outside a run. */
struct cel_value cel_k8s_no_graph(struct cel_eval *ev, const char *name);

/* The workload of @v (1.2), or NULL with an error value in @err. */
const struct kvet_workload *cel_k8s_workload_arg(struct cel_eval *ev,
						 const struct cel_value *v,
						 const char *name,
						 struct cel_value *err);

/* CEL lists of objects, in the scratch arena. */
struct cel_value cel_k8s_object_list(struct cel_eval *ev,
				     const struct kvet_object *const *objs,
				     size_t n);
struct cel_value cel_k8s_workload_list(struct cel_eval *ev,
				       const struct kvet_workload *const *wls,
				       size_t n);

bool cel_k8s_is_kind(const struct kvet_object *obj, const char *group,
		     const char *kind);

/* The run's webhook entries and backends (1.10), shared by the webhook,
 * Service and manager functions; NULL outside a run or out of memory. */
struct kvet_webhooks;
const struct kvet_webhooks *cel_k8s_webhooks(struct cel_eval *ev);

#endif

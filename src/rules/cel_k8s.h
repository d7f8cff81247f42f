/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_CEL_K8S_H
#define KVET_RULES_CEL_K8S_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "model/graph.h"
#include "rules/env.h"

/*
 * The relations the Kubernetes functions of CEL read, computed once per
 * run from the graph's indexes: which workloads each PDB selects, their
 * budget at N_min (RULES-CATALOGUE 1.9), and the reverse, which PDBs
 * cover each workload. Built on first use, so a run whose rules never
 * ask pays nothing.
 */
struct cel_k8s;

/**
 * cel_k8s_create() - relation caches for one run.
 * @arena: the run's arena; the relations live there.
 * @g: the graph; borrowed.
 *
 * Returns: the caches, freed with cel_k8s_destroy(), or NULL when out of
 * memory.
 */
struct cel_k8s *cel_k8s_create(struct kvet_arena *arena,
			       const struct kvet_graph *g);
void cel_k8s_destroy(struct cel_k8s *k);

/*
 * For the binding files (cel_k8s_*.c). Each topic keeps its per-run
 * relations (webhook backends, priorities, ...) in one slot, built on
 * first use by @create from the run's arena and graph, and released with
 * @destroy (may be NULL) when the run ends.
 */
enum cel_k8s_slot {
	CEL_K8S_SLOT_PDB,
	CEL_K8S_SLOT_SPREAD,
	CEL_K8S_SLOT_WEBHOOK,
	CEL_K8S_SLOT_WEBHOOK_RBAC,	/* who may rewrite webhook configurations */
	CEL_K8S_SLOT_ROLES,
	CEL_K8S_N_SLOTS,
};

/* The binding files' libraries (rules/env.c lists them for the rules):
 * kvet.core (1.1-1.7, 1.9), kvet.pdb (A and B rules), kvet.spread (1.8),
 * kvet.webhook (1.10, 1.11) and kvet.roles (1.12-1.14). */
extern const struct cel_lib cel_k8s_lib;
extern const struct cel_lib cel_k8s_pdb_lib;
extern const struct cel_lib cel_k8s_spread_lib;
extern const struct cel_lib cel_k8s_webhook_lib;
extern const struct cel_lib cel_k8s_roles_lib;

typedef void *(*cel_k8s_create_fn)(struct kvet_arena *arena,
				   const struct kvet_graph *g);
typedef void (*cel_k8s_destroy_fn)(void *cache);

/* The cache of @slot, created on first use; NULL without a graph or when
 * out of memory. */
void *cel_k8s_cache(struct cel_eval *ev, enum cel_k8s_slot slot,
		    cel_k8s_create_fn create, cel_k8s_destroy_fn destroy);

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

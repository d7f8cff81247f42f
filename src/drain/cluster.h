/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_CLUSTER_H
#define KVET_DRAIN_CLUSTER_H

/* Building the simulated cluster, and the moves of pods between nodes. */
#include "drain/state.h"

/**
 * drain_cluster_from_dump() - nodes and pods from the Node and Pod
 * objects of @g, then budgets, Services, webhooks, StatefulSets and
 * scheduling terms (drain_cluster_relate()).
 *
 * Returns: 0, 1 when the dump lacks Nodes or Pods (said in @diag), -1
 * when out of memory.
 */
int drain_cluster_from_dump(struct drain_cluster *c, struct kvet_arena *arena,
			    struct kvet_diag *diag, const struct kvet_graph *g,
			    const struct drain_options *opts);

/*
 * Another source of nodes and pods (the synthetic pool, pool.c) fills
 * c->nodes and c->pods (bound with drain_pod_bind(), Ready or not), then
 * calls drain_cluster_relate() and drain_run().
 */

/**
 * drain_run() - run c->opts's plan on cluster @c, results in @out
 * (released with drain_result_release()).
 * Returns: 0, or -1 when out of memory.
 */
int drain_run(struct drain_cluster *c, struct kvet_diag *diag,
	      struct drain_result *out);

/*
 * drain_run() in two halves, for a source that has more to do between
 * them (a pool places its pods once the results can take issues):
 * drain_run_prepare() selects the nodes of the plan into *@sel (malloc'd)
 * and returns how many, or -1 when out of memory; drain_run_plan() runs
 * the plan on them.
 */
long drain_run_prepare(struct drain_cluster *c, struct kvet_diag *diag,
		       struct drain_result *out, uint32_t **sel);
int drain_run_plan(struct drain_cluster *c, const uint32_t *sel, size_t k);

/* Everything that relates pods: call once the nodes and pods are in. */
int drain_cluster_relate(struct drain_cluster *c);

void drain_cluster_release(struct drain_cluster *c);

/* What kubectl drain does with a pod whose object says @st. */
enum drain_pod_kind drain_pod_kind_of(const struct kvet_pod_state *st);

/* The node named @name, or DRAIN_NONE. */
uint32_t drain_node_find(const struct drain_cluster *c, struct kvet_slice name);

/**
 * drain_cluster_reserve() - make room for @more pods, so that no pointer
 * into the pods moves while a journal records changes.
 * Returns: 0, or -1 when out of memory.
 */
int drain_cluster_reserve(struct drain_cluster *c, uint32_t more);

/* Put pod @p on node @n (running, Ready), or take it off its node. */
void drain_pod_bind(struct drain_cluster *c, uint32_t p, uint32_t n);
void drain_pod_unbind(struct drain_cluster *c, uint32_t p);

/* Set @p's state (enum drain_pod_state), keeping its workload's counts. */
void drain_pod_set_state(struct drain_cluster *c, uint32_t p, uint32_t state);

/* Does @p count among its workload's pods on its node: running there
 * and not yet replaced (a pod being evicted leaves the count as soon as
 * its replacement is created)? */
static inline bool drain_pod_counted(const struct drain_pod *pod)
{
	return pod->state == DRAIN_POD_RUNNING && pod->node != DRAIN_NONE &&
	       pod->replaced_by == DRAIN_NONE;
}

/* Set whether @p counts as Ready, keeping budgets, Services, webhooks
 * and StatefulSets counted. */
void drain_pod_set_ready(struct drain_cluster *c, uint32_t p, bool ready);

/**
 * drain_pod_replace() - a new pod for pod @p from its controller: same
 * spec, labels and relations, not yet on a node.
 * Returns: its index, or DRAIN_NONE when out of memory.
 */
uint32_t drain_pod_replace(struct drain_cluster *c, uint32_t p);

/* Preference order: least requested CPU share first, then name. */
void drain_order_sort(struct drain_cluster *c);
void drain_order_update(struct drain_cluster *c, uint32_t n);

/* "ns/name" of a pod, for messages (arena). */
const char *drain_pod_label(const struct drain_cluster *c, uint32_t p);

#endif

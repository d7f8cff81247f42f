/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_PRIORITY_H
#define KVET_MODEL_PRIORITY_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/graph.h"
#include "model/object.h"
#include "model/workload.h"

/*
 * Effective priority of a pod template (docs/model.md 1.14), as the
 * Priority admission plugin resolves it
 * (https://kubernetes.io/docs/concepts/scheduling-eviction/pod-priority-preemption/).
 */
enum kvet_priority_source {
	KVET_PRIORITY_SYSTEM,		/* system-node/cluster-critical */
	KVET_PRIORITY_CLASS,		/* a PriorityClass of the input */
	KVET_PRIORITY_GLOBAL_DEFAULT,	/* no name: the globalDefault class */
	KVET_PRIORITY_ZERO,		/* no name and no globalDefault: 0 */
	KVET_PRIORITY_MISSING,		/* a name the input lacks: unknown */
	KVET_PRIORITY_LIVE_POD,		/* dump mode: a Pod's spec.priority */
};

/* System class values (pkg/apis/scheduling). */
#define KVET_SYSTEM_NODE_CRITICAL 2000001000LL
#define KVET_SYSTEM_CLUSTER_CRITICAL 2000000000LL

struct kvet_priority {
	bool known;			/* false: value is meaningless */
	long long value;
	enum kvet_priority_source source;
	const struct kvet_object *priority_class;	/* CLASS, GLOBAL_... */
	const struct kvet_node *name_node;	/* priorityClassName, or NULL */
	const struct kvet_node *value_node;	/* the class's value or the
						 * live Pod's spec.priority */
};

/* Per-run facts: the globalDefault class and live Pod priorities. */
struct kvet_priorities;

/**
 * kvet_priorities_create() - find the globalDefault PriorityClass and, in
 * dump mode, the spec.priority of a live Pod of every workload, in one
 * pass over the PriorityClass and Pod objects.
 * @arena: the run's arena.
 * @g: the graph; borrowed for the result's lifetime.
 *
 * Returns: a result freed with kvet_priorities_destroy(), or NULL when
 * out of memory.
 */
struct kvet_priorities *kvet_priorities_create(struct kvet_arena *arena,
					       const struct kvet_graph *g);

void kvet_priorities_destroy(struct kvet_priorities *p);

/**
 * kvet_priorities_global_default() - the globalDefault: true class with
 * the lowest value, or NULL.
 * @count: set to how many classes claim globalDefault (may be NULL).
 */
const struct kvet_object *
kvet_priorities_global_default(const struct kvet_priorities *p,
			       size_t *count);

/* Every PriorityClass with globalDefault: true, in input order. */
const struct kvet_object *const *
kvet_priorities_defaults(const struct kvet_priorities *p, size_t *n);

/**
 * kvet_effective_priority() - the priority @wl's pods get.
 * @p: the run's priorities.
 * @wl: the workload.
 * @out: the priority and where it comes from.
 */
void kvet_effective_priority(const struct kvet_priorities *p,
			     const struct kvet_workload *wl,
			     struct kvet_priority *out);

/**
 * kvet_priority_class_value() - the value field of a PriorityClass.
 * Returns: true and sets @out when it is an integer.
 */
bool kvet_priority_class_value(const struct kvet_object *pc, long long *out);

struct kvet_run;

/* The run's priorities, built on first use; NULL when out of memory. */
const struct kvet_priorities *kvet_run_priorities(struct kvet_run *run);

#endif

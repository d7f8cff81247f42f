/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_ORPHAN_H
#define KVET_MODEL_ORPHAN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "model/labels.h"
#include "model/workload.h"

/*
 * Orphans (docs/model.md 1.2): a Pod or ReplicaSet of a cluster dump
 * whose controller is not in the input, so the graph cannot fold it into
 * that controller and models each one as a workload of its own. Where
 * rules count workloads, the orphans of one controller reference are the
 * one workload that absent controller is: three Pods of a DaemonSet the
 * dump did not collect are one DaemonSet, not three Pods.
 */

/* The ownerReference with controller: true (metav1.GetControllerOf). */
struct kvet_controller_ref {
	struct kvet_slice api_version, kind, name, uid;
	const struct kvet_node *node;	/* the ownerReferences item */
};

/**
 * kvet_workload_controller_ref() - the controller reference of orphan @wl.
 * @out: set when @wl is an orphan; empty parts for absent fields.
 * Returns: true when @wl is an orphan, false for any other workload.
 */
bool kvet_workload_controller_ref(const struct kvet_workload *wl,
				  struct kvet_controller_ref *out);

/**
 * kvet_workloads_distinct() - @v with the orphans of one controller
 * reference (kind, name and uid) kept once, by the first of them; the
 * others and the order are kept.
 * @arena: where the array goes.
 * @out: the workloads, borrowed from @arena (or @v when nothing is left
 *       out).
 * Returns: 0, or -1 when out of memory.
 */
int kvet_workloads_distinct(struct kvet_arena *arena,
			    const struct kvet_workload *const *v, size_t n,
			    const struct kvet_workload *const **out,
			    size_t *n_out);

#endif

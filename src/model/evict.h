/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_EVICT_H
#define KVET_MODEL_EVICT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/labels.h"
#include "model/workload.h"

/*
 * What cluster-autoscaler reads from a pod to decide whether it may evict
 * it on scale-down (rule autoscaler-scale-down-blocker;
 * cluster-autoscaler/FAQ.md#what-types-of-pods-can-prevent-ca-from-removing-a-node).
 */
#define KVET_SAFE_TO_EVICT "cluster-autoscaler.kubernetes.io/safe-to-evict"
#define KVET_SAFE_TO_EVICT_LOCAL_VOLUMES \
	"cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes"

enum kvet_safe_to_evict {
	KVET_EVICT_UNSET,	/* absent, or neither "true" nor "false" */
	KVET_EVICT_TRUE,	/* "true": lifts every blocker but a PDB */
	KVET_EVICT_FALSE,	/* "false": never evicted */
};

/**
 * kvet_workload_safe_to_evict() - the safe-to-evict annotation of @wl's
 * pod template.
 * @node: set to the annotation's value node, or NULL when absent.
 */
enum kvet_safe_to_evict
kvet_workload_safe_to_evict(const struct kvet_workload *wl,
			    const struct kvet_node **node);

struct kvet_local_volume {
	struct kvet_slice name;
	const struct kvet_node *node;	/* the volumes[] item */
	bool host_path;			/* hostPath; else emptyDir */
};

struct kvet_local_volumes {
	const struct kvet_local_volume *v;
	size_t n;
};

/**
 * kvet_workload_blocking_volumes() - the hostPath volumes and emptyDir
 * volumes not backed by memory that the template's
 * safe-to-evict-local-volumes annotation (comma-separated volume names)
 * does not list.
 * @arena: where the array goes.
 * @wl: the workload.
 * @out: the volumes, in template order; empty when none.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_workload_blocking_volumes(struct kvet_arena *arena,
				   const struct kvet_workload *wl,
				   struct kvet_local_volumes *out);

#endif

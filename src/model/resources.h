/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_RESOURCES_H
#define KVET_MODEL_RESOURCES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/labels.h"

/*
 * Resource lists as the kube-scheduler's NodeResourcesFit filter reads
 * them: a pod's requests against a node's allocatable. CPU is in
 * millicores, memory and ephemeral storage in bytes, pods a count, and
 * every other name (extended resources such as nvidia.com/gpu, hugepages)
 * in its unit, all rounded up as Quantity.MilliValue() and Value() do.
 */
enum kvet_resource {
	KVET_RES_CPU,
	KVET_RES_MEMORY,
	KVET_RES_EPHEMERAL,	/* ephemeral-storage */
	KVET_RES_PODS,
	KVET_RES_BUILTIN,	/* how many of the above */
};

/* An extended (or hugepages) resource: any other name. */
struct kvet_scalar_resource {
	struct kvet_slice name;
	int64_t value;
};

/* Plain data; @ext lives in the arena that built it. */
struct kvet_resources {
	int64_t v[KVET_RES_BUILTIN];
	const struct kvet_scalar_resource *ext;	/* sorted by name */
	size_t n_ext;
};

/* "cpu", "memory", "ephemeral-storage", "pods". */
const char *kvet_resource_name(enum kvet_resource r);

/**
 * kvet_pod_requests() - what one pod asks for, as the scheduler sums it
 * (k8s.io/component-helpers/resource PodRequests): the sum over its
 * containers; each init container alone on top of the restartable ones
 * (sidecars, restartPolicy Always) before it, and the pod takes the
 * larger of the two; then spec.overhead. A container's request falls
 * back to its limit, as API defaulting does. KVET_RES_PODS is 1.
 * @arena: where extended resources go.
 * @pod_spec: a Pod's spec or a pod template's.
 * @out: the requests.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_pod_requests(struct kvet_arena *arena,
		      const struct kvet_node *pod_spec,
		      struct kvet_resources *out);

/**
 * kvet_cluster_node_allocatable() - status.allocatable of a Node
 * (status.capacity when allocatable is absent).
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_cluster_node_allocatable(struct kvet_arena *arena,
				  const struct kvet_node *node_root,
				  struct kvet_resources *out);

/* The value of extended resource @name in @r (0 when absent). */
int64_t kvet_resources_ext(const struct kvet_resources *r,
			   struct kvet_slice name);

/* Read one resource list mapping (requests, limits, allocatable). */
int kvet_resources_read(struct kvet_arena *arena,
			const struct kvet_node *list,
			struct kvet_resources *out);

#endif

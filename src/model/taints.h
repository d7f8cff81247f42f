/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_TAINTS_H
#define KVET_MODEL_TAINTS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/labels.h"

/*
 * Node taints and pod tolerations (k8s.io/api/core/v1 toleration.go,
 * ToleratesTaint; the kube-scheduler's TaintToleration filter).
 */
enum kvet_taint_effect {
	KVET_TAINT_NO_SCHEDULE,
	KVET_TAINT_PREFER_NO_SCHEDULE,
	KVET_TAINT_NO_EXECUTE,
	KVET_TAINT_OTHER,		/* an effect the API server rejects */
};

struct kvet_taint {
	struct kvet_slice key;
	struct kvet_slice value;
	enum kvet_taint_effect effect;
	struct kvet_slice effect_name;
	const struct kvet_node *node;	/* the spec.taints item; NULL when
					 * kvet added it (not-ready) */
};

struct kvet_taints {
	const struct kvet_taint *v;
	size_t n;
};

/* The taint the node lifecycle controller puts on a node whose Ready
 * condition is not True (TaintNodesByCondition). */
#define KVET_TAINT_NOT_READY "node.kubernetes.io/not-ready"
/* ... and on one whose Ready condition is Unknown. */
#define KVET_TAINT_UNREACHABLE "node.kubernetes.io/unreachable"
/* The toleration key that lets a pod onto a cordoned node. */
#define KVET_TAINT_UNSCHEDULABLE "node.kubernetes.io/unschedulable"

/**
 * kvet_cluster_node_ready() - is the Node's Ready condition True? A node
 * without status.conditions (a hand-written one) counts as ready.
 */
bool kvet_cluster_node_ready(const struct kvet_node *node_root);

/**
 * kvet_cluster_node_ready_status() - the status field of the Node's Ready
 * condition ("True", "False" or "Unknown"), or NULL when it has none.
 * Borrowed from @node_root.
 */
const struct kvet_node *
kvet_cluster_node_ready_status(const struct kvet_node *node_root);

/* What a Node's Ready condition says (NodeCondition.status). */
enum kvet_ready_condition {
	KVET_READY_ABSENT,	/* no Ready condition, or another status */
	KVET_READY_TRUE,
	KVET_READY_FALSE,	/* the kubelet reports the node not Ready */
	KVET_READY_UNKNOWN,	/* the node controller lost the kubelet */
};

enum kvet_ready_condition
kvet_cluster_node_ready_condition(const struct kvet_node *node_root);

/**
 * kvet_cluster_node_taints() - spec.taints of a Node, plus the not-ready taint
 * (NoSchedule) when the node is not Ready and spec.taints lacks it, as
 * the node lifecycle controller adds it.
 * @arena: where the array goes.
 * @node_root: the Node object.
 * @out: the taints, in spec order.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_cluster_node_taints(struct kvet_arena *arena,
			     const struct kvet_node *node_root,
			     struct kvet_taints *out);

/**
 * kvet_pod_tolerates() - does some item of @pod_spec's tolerations (a
 * pod's or a template's spec, or NULL) tolerate @taint? An empty effect
 * matches every effect; an empty key with operator Exists every key;
 * Exists ignores the value, Equal (or no operator) compares it.
 */
bool kvet_pod_tolerates(const struct kvet_node *pod_spec,
			const struct kvet_taint *taint);

/**
 * kvet_pod_untolerated_taint() - the first NoSchedule or NoExecute taint
 * of @taints that @pod_spec's tolerations do not tolerate, as the
 * TaintToleration filter finds it; NULL when the pod tolerates them all.
 */
const struct kvet_taint *
kvet_pod_untolerated_taint(const struct kvet_taints *taints,
			   const struct kvet_node *pod_spec);

/* Does @pod_spec tolerate a cordoned node (the NodeUnschedulable
 * filter's check for node.kubernetes.io/unschedulable:NoSchedule)? */
bool kvet_pod_tolerates_unschedulable(const struct kvet_node *pod_spec);

#endif

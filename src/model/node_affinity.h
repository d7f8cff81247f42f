/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_NODE_AFFINITY_H
#define KVET_MODEL_NODE_AFFINITY_H

#include <stdbool.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/graph.h"
#include "model/labels.h"

/*
 * Which nodes a pod may run on by its own spec: nodeSelector and
 * requiredDuringSchedulingIgnoredDuringExecution node affinity, with the
 * semantics of k8s.io/component-helpers/scheduling/corev1/nodeaffinity
 * (the kube-scheduler's NodeAffinity filter). The same NodeSelector
 * matching serves a PersistentVolume's spec.nodeAffinity.required.
 */

/**
 * kvet_node_requirement_matches() - one NodeSelectorRequirement (a
 * matchExpressions item on a label, or a matchFields item on
 * metadata.name) against a node's value.
 * @req: the requirement mapping (key, operator, values).
 * @present: whether the node has the key.
 * @value: its value when @present.
 *
 * In, NotIn, Exists, DoesNotExist; Gt and Lt compare integers, and fail
 * when either side is not one. An unknown operator matches nothing.
 */
bool kvet_node_requirement_matches(const struct kvet_node *req, bool present,
				   struct kvet_slice value);

/**
 * kvet_node_term_matches() - one NodeSelectorTerm: every matchExpressions
 * item against @labels and every matchFields item (metadata.name only)
 * against @name. An empty term matches no node.
 */
bool kvet_node_term_matches(const struct kvet_node *term,
			    const struct kvet_labels *labels,
			    struct kvet_slice name);

/**
 * kvet_node_selector_matches() - a NodeSelector (nodeSelectorTerms, ORed):
 * required node affinity, or a PersistentVolume's nodeAffinity.required.
 * @selector: the mapping with nodeSelectorTerms; NULL matches every node.
 */
bool kvet_node_selector_matches(const struct kvet_node *selector,
				const struct kvet_labels *labels,
				struct kvet_slice name);

/**
 * kvet_pod_node_affinity_matches() - the scheduler's NodeAffinity filter
 * for one pod spec (or pod template spec): every nodeSelector pair, and
 * one of the required node affinity terms when there are any.
 */
bool kvet_pod_node_affinity_matches(const struct kvet_node *pod_spec,
				    const struct kvet_labels *labels,
				    struct kvet_slice name);

/* Has the pod spec a nodeSelector or required node affinity at all? */
bool kvet_pod_has_node_affinity(const struct kvet_node *pod_spec);

/* spec.unschedulable of a Node object: cordoned. */
bool kvet_cluster_node_unschedulable(const struct kvet_node *node_root);

/* The metadata.labels and metadata.name of a Node object. */
int kvet_cluster_node_labels(struct kvet_arena *arena,
			     const struct kvet_node *node_root,
			     struct kvet_labels *labels,
			     struct kvet_slice *name);

/**
 * kvet_topology_domains() - how many values of @key the nodes of the
 * input that a pod spec may run on carry (not cordoned, nodeSelector and
 * required node affinity; taints are not read).
 * @scratch: temporary arrays.
 * @g: the graph, for its Node objects.
 * @pod_spec: the pod template's spec.
 * @key: the topology key.
 *
 * Returns: the number of domains; KVET_DOMAINS_UNBOUNDED when an eligible
 * node lacks the key (the scheduler places any number of pods there);
 * KVET_DOMAINS_NO_NODES when the input has no Node; -1 when out of memory.
 */
#define KVET_DOMAINS_UNBOUNDED (-2)
#define KVET_DOMAINS_NO_NODES (-3)
long kvet_topology_domains(struct kvet_arena *scratch,
			   const struct kvet_graph *g,
			   const struct kvet_node *pod_spec,
			   struct kvet_slice key);

#endif

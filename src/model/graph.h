/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_GRAPH_H
#define KVET_MODEL_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "model/index.h"
#include "model/labels.h"
#include "model/object.h"
#include "model/replicas.h"
#include "model/selector.h"
#include "model/workload.h"

/*
 * The object graph of one run: every object indexed by identity and kind,
 * the namespaces, the workloads with their replica counts, the HPA and
 * label indexes. Built once from the loaded objects (docs/model.md 1.1
 * to 1.6); read-only afterwards, so rules may share it across threads.
 */
struct kvet_graph;

enum kvet_graph_flags {
	/* the user says the input is a cluster dump (1.1) */
	KVET_GRAPH_DUMP = 1u << 0,
	/* the user says the input is the whole cluster (1.3) */
	KVET_GRAPH_COMPLETE = 1u << 1,
};

/* Plain data, copied by kvet_graph_create(); zero means the defaults. */
/*
 * A list of names from the configuration: added to the built-in values
 * of its definition, or, with @replace, used instead of them (an empty
 * list with @replace switches the built-in values off).
 */
struct kvet_name_list {
	const char *const *v;
	size_t n;
	bool replace;
};

struct kvet_graph_config {
	unsigned int flags;			/* enum kvet_graph_flags */
	struct kvet_name_list spread_keys;	/* spreading keys (1.8) */
	struct kvet_name_list manager_components;	/* M3 values (1.12) */
	/* sharedLabelKeys, for rule spread-selector-matches-foreign-pods */
	struct kvet_name_list shared_keys;
	/* custom resource kinds that are workloads (1.2) */
	const struct kvet_custom_workload *custom_workloads;
	size_t n_custom_workloads;
};

/* A namespace the input covers (1.3). Plain data owned by the graph. */
struct kvet_namespace {
	const char *name;
	const struct kvet_object *obj;	/* the Namespace object, or NULL */
	struct kvet_labels labels;	/* its metadata.labels */
	size_t n_objects;		/* namespaced objects in it */
	uint32_t live_pods;		/* Pod objects in it, in dump mode */
	bool operator_populated;	/* has a custom resource instance */
};

/**
 * kvet_graph_create() - build the graph of a run.
 * @arena: the run's arena: workloads, namespaces and postings go here and
 *         must outlive the graph.
 * @objs: the loaded objects; borrowed for the graph's lifetime. Objects
 *        flagged KVET_OBJ_HELM_TEST are left out. Of objects with one
 *        (group, kind, namespace, name), the one whose place sorts first
 *        (kvet_object_before()) is kept and the others are recorded as
 *        duplicates: the result does not depend on the order of @objs.
 * @n: how many.
 * @cfg: configuration, copied (its string arrays are borrowed); NULL for
 *       defaults.
 *
 * Returns: a graph freed with kvet_graph_destroy(), or NULL when out of
 * memory.
 */
struct kvet_graph *kvet_graph_create(struct kvet_arena *arena,
				     struct kvet_object *const *objs, size_t n,
				     const struct kvet_graph_config *cfg);

/* Free the graph's indexes; the arena keeps the rest. NULL is fine. */
void kvet_graph_destroy(struct kvet_graph *g);

/* The configuration the graph was created with (zero for defaults). */
const struct kvet_graph_config *kvet_graph_config(const struct kvet_graph *g);

/* Dump mode (1.1): Node objects, Pods bound to a node, objects
 * whose status carries observed state, or the flag. */
bool kvet_graph_dump_mode(const struct kvet_graph *g);

/* The object that put the input in dump mode (the one whose place sorts
 * first), or NULL when it is not in dump mode or only the flag says so. */
const struct kvet_object *kvet_graph_dump_cause(const struct kvet_graph *g);

/* Two objects of one identity (1.1): the rules see @kept only. */
struct kvet_duplicate {
	const struct kvet_object *kept, *dropped;
};

/* Every duplicate, in input order of the dropped copies' first meeting. */
const struct kvet_duplicate *kvet_graph_duplicates(const struct kvet_graph *g,
						   size_t *n);

/*
 * Does @a's place (file, document, line, column) sort before @b's? The
 * order that decides between duplicates, whatever the arguments' order.
 */
bool kvet_object_before(const struct kvet_object *a,
			const struct kvet_object *b);

/* A complete input (1.3): dump mode or KVET_GRAPH_COMPLETE. */
bool kvet_graph_complete(const struct kvet_graph *g);

/*
 * Does the input show which objects of (@group, @kind) the cluster has
 * (1.3)? A manifest does: what it lacks is not applied. A cluster dump
 * holds the kinds its collector exported (a file of Deployments, a
 * support bundle without budgets), so it shows a kind only when it holds
 * an object of it, or when the user says the input is the whole cluster
 * (KVET_GRAPH_COMPLETE).
 */
bool kvet_graph_kind_known(const struct kvet_graph *g, const char *group,
			   const char *kind);

/* The objects of the graph in input order, duplicates and Helm tests out. */
struct kvet_object *const *kvet_graph_objects(const struct kvet_graph *g,
					      size_t *n);

/* The object (@group, @kind, @ns, @name); @ns is "" when cluster-scoped. */
const struct kvet_object *kvet_graph_find(const struct kvet_graph *g,
					  const char *group, const char *kind,
					  const char *ns, const char *name);

/* The objects of one kind in input order; *@n is 0 when there are none. */
struct kvet_object *const *kvet_graph_kind(const struct kvet_graph *g,
					   const char *group, const char *kind,
					   size_t *n);

/* The namespace @name when the input covers it, else NULL. */
const struct kvet_namespace *kvet_graph_namespace(const struct kvet_graph *g,
						  const char *name);

/* Every covered namespace, sorted by name. */
const struct kvet_namespace *const *
kvet_graph_namespaces(const struct kvet_graph *g, size_t *n);

/* 1.3: a namespace whose missing references are reported. */
bool kvet_graph_ns_covered(const struct kvet_graph *g, const char *ns);

/* 1.3: custom resource instances live in @ns, so operators may run pods
 * there that no workload of the input shows. */
bool kvet_graph_ns_operator_populated(const struct kvet_graph *g,
				      const char *ns);

/* 1.3 for a consumer: a Namespace object, or another namespaced object
 * than @obj, covers @obj's namespace (a PDB or HPA alone in a partial
 * input does not make its own references "missing"). */
bool kvet_graph_ns_covered_besides(const struct kvet_graph *g,
				   const struct kvet_object *obj);

/* True for the API groups Kubernetes itself serves ("" is core). */
bool kvet_group_is_builtin(const char *group);

/* The workloads, in input order; wls[i]->index == i. */
struct kvet_workload *const *kvet_graph_workloads(const struct kvet_graph *g,
						  size_t *n);

/**
 * kvet_graph_workload_of() - the workload an object is, or is folded into
 * (a Pod or ReplicaSet of a cluster dump whose controller is in the
 * input belongs to its top-level owner, 1.2).
 * Returns: the workload, or NULL for objects that are none.
 */
const struct kvet_workload *kvet_graph_workload_of(const struct kvet_graph *g,
						   const struct kvet_object *obj);

/* Every HPA of the input, in input order. */
const struct kvet_hpa *kvet_graph_hpas(const struct kvet_graph *g, size_t *n);

/**
 * kvet_graph_hpa_for() - the HPA targeting (@group, @kind, @ns, @name)
 * (1.4): same namespace, and scaleTargetRef's kind, name and API group.
 * @count: set to how many HPAs target it (may be NULL).
 * Returns: the first in input order, or NULL.
 */
const struct kvet_hpa *kvet_graph_hpa_for(const struct kvet_graph *g,
					  const char *group, const char *kind,
					  const char *ns, const char *name,
					  unsigned int *count);

/**
 * kvet_graph_rival_scaler() - the first autoscaler of the other sort (a
 * KEDA ScaledObject for an HPA, an HPA for a ScaledObject) whose target is
 * @hpa's (1.4: the two fight over its replicas), or NULL.
 */
const struct kvet_hpa *kvet_graph_rival_scaler(const struct kvet_graph *g,
					       const struct kvet_hpa *hpa);

/* The object an HPA's scaleTargetRef names in its namespace (kind, name
 * and API group, 1.4), or NULL. */
const struct kvet_object *kvet_graph_hpa_target(const struct kvet_graph *g,
						const struct kvet_hpa *hpa);

/**
 * kvet_graph_select_workloads() - the workloads in namespace @ns whose
 * pods @sel selects, through the label index; see
 * kvet_label_index_select().
 * @ns: the namespace; NULL for every namespace (to tell a user "this PDB
 *      would select workloads in another namespace").
 *
 * Returns: 0, the first non-zero value of @fn, or -1 when out of memory.
 */
int kvet_graph_select_workloads(const struct kvet_graph *g, const char *ns,
				const struct kvet_selector *sel,
				kvet_workload_fn fn, void *data);

/**
 * kvet_graph_match_namespace() - a namespaceSelector against namespace
 * @ns, with its Namespace object's labels when the input has it, and an
 * ASSUMED result when it has not (1.5).
 */
enum kvet_match kvet_graph_match_namespace(const struct kvet_graph *g,
					   const struct kvet_selector *sel,
					   const char *ns);

#endif

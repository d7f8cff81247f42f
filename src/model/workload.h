/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_WORKLOAD_H
#define KVET_MODEL_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/labels.h"
#include "model/object.h"
#include "model/pdb.h"
#include "model/replicas.h"
#include "model/selector.h"

/*
 * Workloads: objects that own a pod template (docs/model.md 1.2).
 * The graph builds them; rules read them. Plain data, read-only after
 * kvet_graph_create(); everything lives in the run's arena.
 */
enum kvet_workload_kind {
	KVET_WL_DEPLOYMENT,
	KVET_WL_REPLICASET,
	KVET_WL_STATEFULSET,
	KVET_WL_DAEMONSET,
	KVET_WL_JOB,
	KVET_WL_CRONJOB,
	KVET_WL_REPLICATION_CONTROLLER,
	KVET_WL_POD,			/* a bare Pod */
	KVET_WL_CUSTOM,			/* a configured custom resource */
};

/* A custom resource kind that is a workload (configuration `workloads`). */
struct kvet_custom_workload {
	const char *group;
	const char *kind;
	const char *const *template_path;	/* keys: "spec", "template" */
	size_t n_template_path;
	const char *const *replicas_path;	/* NULL: not scalable */
	size_t n_replicas_path;
};

struct kvet_workload {
	const struct kvet_object *obj;	/* the top-level owner: its identity */
	enum kvet_workload_kind kind;
	uint32_t index;			/* in the graph's workload list */
	const struct kvet_node *template;	/* pod template; a Pod's root */
	const struct kvet_node *pod_spec;	/* the template's spec */
	struct kvet_labels labels;	/* L(W): template metadata.labels */
	struct kvet_selector selector;	/* spec.selector (NOTHING for a Pod) */
	struct kvet_replicas replicas;
	const struct kvet_custom_workload *custom;	/* KVET_WL_CUSTOM */
	uint32_t n_folded;		/* objects folded into it (dump mode) */
	uint32_t live_pods;		/* Pods among them */
	bool orphan;			/* a Pod or ReplicaSet with a controller
					 * it was not folded into */
};

/**
 * kvet_workload_kind_of() - is (@group, @kind) a workload kind?
 * Returns: true and sets @out when it is.
 */
bool kvet_workload_kind_of(const char *group, const char *kind,
			   enum kvet_workload_kind *out);

const char *kvet_workload_kind_name(enum kvet_workload_kind kind);

/* Deployment, ReplicaSet, StatefulSet, ReplicationController: a scale
 * subresource the disruption controller and HPAs can use. */
bool kvet_workload_kind_scalable(enum kvet_workload_kind kind);

/* An HPA's scaleTargetRef is a built-in kind without a scale
 * subresource (DaemonSet, Job, CronJob, Pod). */
bool kvet_hpa_target_unscalable(const struct kvet_hpa *hpa);

/**
 * kvet_workload_init() - read the pod template, labels and selector.
 * @arena: the run's arena.
 * @obj: the object.
 * @kind: its workload kind.
 * @index: its place in the graph, also its runtime uid.
 * @out: the workload; replicas are filled by kvet_workload_set_replicas().
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_workload_init(struct kvet_arena *arena, const struct kvet_object *obj,
		       enum kvet_workload_kind kind, uint32_t index,
		       struct kvet_workload *out);

/* Like kvet_workload_init() for a configured custom resource kind. */
int kvet_workload_init_custom(struct kvet_arena *arena,
			      const struct kvet_object *obj,
			      const struct kvet_custom_workload *custom,
			      uint32_t index, struct kvet_workload *out);

/* The declared custom workload kind (@group, @kind) among @v, or NULL. */
const struct kvet_custom_workload *
kvet_custom_workload_find(const struct kvet_custom_workload *v, size_t n,
			  const char *group, const char *kind);

/* What an object's kind makes it, before the graph folds anything
 * (rule files' `match.kinds: [workload]`, docs/rule-language.md). */
enum kvet_kind_class {
	KVET_KIND_OTHER,
	KVET_KIND_WORKLOAD,		/* a workload kind without a scale */
	KVET_KIND_SCALABLE_WORKLOAD,	/* with a scale subresource (1.9) */
};

/**
 * kvet_workload_kind_class() - is (@group, @kind) a workload kind (1.2),
 * built in or declared in @custom (the configuration's `workloads`), and
 * has it a scale subresource: the four scalable built-in kinds, and a
 * declared kind with a replicas path?
 */
enum kvet_kind_class
kvet_workload_kind_class(const struct kvet_custom_workload *custom, size_t n,
			 const char *group, const char *kind);

/* Why the API server refuses a workload's selector for its template
 * (rule selector-mismatches-template). */
enum kvet_template_flaw {
	KVET_TEMPLATE_SELECTED,		/* accepted, or not checked */
	KVET_TEMPLATE_NO_SELECTOR,	/* absent or null: required */
	KVET_TEMPLATE_EMPTY_SELECTOR,	/* {}: "empty selector is invalid" */
	KVET_TEMPLATE_INVALID_SELECTOR,	/* selector.error says why */
	KVET_TEMPLATE_MISMATCH,		/* a requirement the labels fail */
};

/**
 * kvet_workload_template_flaw() - does the API server refuse @wl because
 * its spec.selector does not select its own pod template? Checked as
 * ValidateDeploymentSpec and its siblings do, on the template's labels
 * alone: Deployment, ReplicaSet, StatefulSet, DaemonSet, and a Job with
 * manualSelector: true (other Jobs get a generated selector, a
 * ReplicationController's empty one is defaulted from the labels).
 * @req: the first requirement the labels fail (MISMATCH), else NULL.
 */
enum kvet_template_flaw
kvet_workload_template_flaw(const struct kvet_workload *wl,
			    const struct kvet_requirement **req);

/* Has @wl a scale subresource: the four built-in scalable kinds, and
 * custom kinds configured with a replicas path (1.9 "scalable"). */
bool kvet_workload_scalable(const struct kvet_workload *wl);

/* A Pod without a controller (a Pod whose controller is missing from the
 * input is an orphan, not a bare Pod). */
static inline bool kvet_workload_is_bare_pod(const struct kvet_workload *wl)
{
	return wl->kind == KVET_WL_POD && !wl->orphan;
}

/* A StatefulSet's spec.podManagementPolicy is OrderedReady, its default
 * (anything but Parallel): the controller creates pod N+1 only once pod
 * N is Running and Ready. */
bool kvet_statefulset_ordered_ready(const struct kvet_workload *wl);

/**
 * kvet_workload_declares_port() - does a container of @wl's pods declare
 * a port named @name, as the endpoints controller resolves a Service's
 * named targetPort (podutil.FindPort): a container's, or a sidecar's (an
 * init container with restartPolicy Always, Kubernetes 1.29)?
 * @protocol: the port's protocol must be this one (absent is TCP); an
 *            empty slice takes any.
 */
bool kvet_workload_declares_port(const struct kvet_workload *wl,
				 struct kvet_slice name,
				 struct kvet_slice protocol);

/**
 * kvet_workload_set_replicas() - compute N_spec, N_min and N_max.
 * @wl: the workload.
 * @hpa: the first HPA targeting @wl, or NULL.
 * @n_hpas: how many target it.
 * @dump_mode: the input is a cluster dump, so status counts are real.
 */
void kvet_workload_set_replicas(struct kvet_workload *wl,
				const struct kvet_hpa *hpa,
				unsigned int n_hpas, bool dump_mode);

/**
 * kvet_workload_runtime() - the runtime labels of one pod of @wl (1.6).
 * @wl: the workload.
 * @revision: 0 for the current revision; other values model pods of
 *            another revision during a rollout.
 * @ordinal: which sibling.
 * @out: the runtime labels.
 */
void kvet_workload_runtime(const struct kvet_workload *wl, uint32_t revision,
			   uint32_t ordinal, struct kvet_pod_runtime *out);

/**
 * kvet_workload_selected_by() - does @sel select the pods of @wl? Evaluated
 * on L(@wl) plus the runtime labels of its first pod of the current
 * revision. The caller checks the namespace scope.
 */
bool kvet_workload_selected_by(const struct kvet_workload *wl,
			       const struct kvet_selector *sel);

/**
 * kvet_workload_pdb_member() - @wl as the disruption controller counts it,
 * with N = N_min (1.9).
 */
struct kvet_pdb_member kvet_workload_pdb_member(const struct kvet_workload *wl);

/**
 * kvet_workload_install_pods() - how many pods @wl runs right after it
 * is installed, at its smallest: N_min (1.4, with an HPA's minReplicas)
 * for a scalable workload, 1 for a bare Pod, a Job's parallelism (at
 * most its completions; 0 when suspended), 0 for a CronJob.
 * Returns: the count, or -1 when it depends on the nodes (a DaemonSet:
 * one per eligible node) or nothing tells it (a custom kind with no
 * replicas path).
 */
long long kvet_workload_install_pods(const struct kvet_workload *wl);

#endif

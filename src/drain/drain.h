/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_DRAIN_H
#define KVET_DRAIN_DRAIN_H

/*
 * The drain simulation (docs/drain.md): what the API server's eviction
 * subresource, kubectl drain and the kube-scheduler would do to the pods
 * of a cluster while some of its nodes drain, one node alone or a whole
 * pool rolled. src/api runs it on the object graph of a run; the results
 * are plain data that src/api turns into findings and report records.
 *
 * The engine works on a cluster: nodes and pods with their state. Today
 * that cluster comes from a dump (cluster.c, drain_cluster_from_dump);
 * a synthetic pool of nodes with pods made from workloads plugs in by
 * building the same struct drain_cluster another way.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kvet/kvet.h"
#include "base/arena.h"
#include "base/diag.h"
#include "load/node.h"
#include "model/graph.h"
#include "model/object.h"
#include "model/selector.h"

/* The checks a drain reports, each a rule id of its findings. */
enum drain_rule {
	DRAIN_RULE_EVICTION_BLOCKED,	/* the API server refuses an eviction */
	DRAIN_RULE_KUBECTL_REFUSES,	/* kubectl drain's filters refuse */
	DRAIN_RULE_WEBHOOK_DEADLOCK,	/* a webhook blocks its own backends */
	DRAIN_RULE_POD_UNSCHEDULABLE,	/* a replacement fits no node */
	DRAIN_RULE_POD_DELETED,		/* a pod that never comes back */
	DRAIN_RULE_EMPTYDIR_LOST,	/* emptyDir data deleted */
	DRAIN_RULE_WEBHOOK_OUTAGE,	/* a fail-closed webhook has no backend */
	DRAIN_RULE_SERVICE_OUTAGE,	/* a Service has no ready endpoint */
	DRAIN_RULE_QUORUM_LOSS,		/* a StatefulSet loses its majority */
	DRAIN_RULE_COUNT,
};

/* The rule's id, default severity and documentation. */
const struct kvet_rule_info *drain_rule_info(enum drain_rule rule);

/* kvet_drain_options flags, with kubectl drain's and SIMULATION.md's
 * defaults: --ignore-daemonsets --delete-emptydir-data, no --force. */
struct drain_options {
	enum kvet_drain_plan plan;
	bool force;
	bool delete_emptydir;
	bool ignore_daemonsets;
	unsigned int max_unavailable;	/* >= 1 */
	unsigned int surge;
	enum kvet_drain_order order;
	/* the nodes to drain: names (in order), or a selector; neither
	 * selects every node */
	const char *const *names;
	size_t n_names;
	const struct kvet_selector *selector;
};

/* An object a finding relates to; @obj NULL for a node kvet added. */
struct drain_ref {
	const struct kvet_object *obj;
	const char *kind;
	const char *ns;
	const char *name;
};

enum { DRAIN_MAX_RELATED = 4 };

/* One thing the drain of a node runs into: a finding to be. */
struct drain_issue {
	enum drain_rule rule;
	enum kvet_severity sev;
	const struct kvet_object *obj;	/* the object it is about */
	const struct kvet_node *at;	/* its field; NULL: the object */
	const char *message;
	uint32_t node;			/* index into drain_result.nodes */
	struct drain_ref related[DRAIN_MAX_RELATED];
	size_t n_related;
};

struct drain_node_result {
	const struct kvet_object *obj;	/* NULL for a surge node */
	const char *name;
	unsigned int step;		/* rolling: 1-based; 0: each node */
	bool reached;			/* rolling: drained or attempted */
	size_t evicted, deleted, left;
};

struct drain_step_result {
	unsigned int index;		/* 1-based */
	const char **nodes;
	size_t n_nodes;
	bool stalled;
	const char **causes;		/* outermost first */
	size_t n_causes;
};

struct drain_result {
	enum kvet_drain_plan plan;
	struct drain_node_result *nodes;	/* in plan order */
	size_t n_nodes;
	struct drain_step_result *steps;
	size_t n_steps;
	struct drain_issue *issues;		/* malloc'd vector */
	size_t n_issues, cap_issues;
};

void drain_result_release(struct drain_result *res);

/**
 * drain_run_dump() - simulate the plan of @opts on the cluster dump in
 * @g.
 * @arena: the run's arena: messages and results go here.
 * @diag: input errors (a dump without Nodes or Pods says what to add).
 * @g: the object graph.
 * @opts: the plan.
 * @out: the results; release with drain_result_release().
 *
 * Returns: 0, 1 when the input cannot be simulated (an error is in
 * @diag), or -1 when out of memory.
 */
int drain_run_dump(struct kvet_arena *arena, struct kvet_diag *diag,
		   const struct kvet_graph *g, const struct drain_options *opts,
		   struct drain_result *out);

#endif

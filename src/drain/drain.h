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
 * The engine works on a cluster: nodes and pods with their state. That
 * cluster comes from a dump (cluster.c, drain_cluster_from_dump), or,
 * for rendered manifests, from a synthetic pool of identical nodes whose
 * pods are made from the workloads and placed by the same filters
 * (pool.c, install.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kvet/common.h"
#include "kvet/drain.h"
#include "base/arena.h"
#include "base/diag.h"
#include "load/node.h"
#include "model/graph.h"
#include "model/object.h"
#include "model/selector.h"
#include "model/taints.h"

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
	DRAIN_RULE_INSTALL_UNSCHEDULABLE, /* a pool pod fits no node at all */
	DRAIN_RULE_NODE_NOT_READY,	/* deletions on a node that is not
					 * Ready never complete */
	DRAIN_RULE_COUNT,
};

/* The checks' ids, default severities and documentation, indexed by
 * enum drain_rule (api/checks.c lists them with kvet's other checks). */
extern const struct kvet_rule_info drain_checks[DRAIN_RULE_COUNT];
const struct kvet_rule_info *drain_rule_info(enum drain_rule rule);

struct drain_issue;

/*
 * drain_issue_help() - what to do about @is, in a finding's "help:" line:
 * by its rule and, where the rule has several causes, by which one the
 * issue records. @pool: found rolling a synthetic pool (kvet lint's
 * rolling-upgrade-stalls), where the pool's description is one remedy.
 */
const char *drain_issue_help(const struct drain_issue *is, bool pool);

/* The length of the headline of a drain sentence @msg, the part before
 * its first ": " outside quotes; 0 when it has none. */
size_t drain_headline_len(const char *msg);

/* kvet_drain_options flags, with kubectl drain's and SIMULATION.md's
 * defaults: --ignore-daemonsets --delete-emptydir-data, no --force. */
struct drain_options {
	enum kvet_drain_plan plan;
	bool force;
	bool delete_emptydir;
	bool ignore_daemonsets;
	/* kubectl drain --skip-wait-for-delete-timeout, in seconds; 0:
	 * wait for every deletion (unreachable.c) */
	unsigned int skip_wait_for_delete;
	unsigned int max_unavailable;	/* >= 1 */
	unsigned int surge;
	enum kvet_drain_order order;
	/* rolling: go on after a step stalls, deleting the pods that would
	 * not leave, as GKE does when its drain timeout expires, as long as
	 * their replacements all run again: the independent stalls are then
	 * all reported (kvet lint's rolling-upgrade-stalls) */
	bool press_on;
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

/* What about a budget refuses an eviction, when the help depends on it. */
enum drain_budget_cause {
	DRAIN_BUDGET_ROOM,		/* it allows no disruption now */
	DRAIN_BUDGET_OVERLAP,		/* two budgets select the pod */
	DRAIN_BUDGET_STALE,		/* observedGeneration behind */
	DRAIN_BUDGET_SYNC_FAILS,	/* pods without a scalable controller,
					 * under a percentage or maxUnavailable */
};

/* One thing the drain of a node runs into: a finding to be. */
struct drain_issue {
	enum drain_rule rule;
	enum kvet_severity sev;
	const struct kvet_object *obj;	/* the object it is about */
	const struct kvet_node *at;	/* its field; NULL: the object */
	const char *message;		/* the sentence, "what happens: why" */
	/* its two parts, as lint's findings have them: @headline a copy of
	 * the part before the first ": " outside quotes and @reason the rest
	 * of @message; @headline NULL when it has no such colon */
	const char *headline, *reason;
	uint32_t node;			/* index into drain_result.nodes */
	bool no_room;			/* install: only resources lack */
	const char *webhook;		/* the webhook it is about, by name:
					 * a configuration holds several */
	bool refused;			/* a replacement a webhook refuses */
	bool ring;			/* a deadlock around webhooks that
					 * reject each other's backends */
	bool held;			/* a StatefulSet waits for a lower
					 * ordinal before it creates it */
	enum drain_budget_cause budget;	/* why a budget refuses, for help */
	bool skip_wait;			/* not Ready: kubectl was told to stop
					 * waiting for its pods */
	bool not_ready;			/* a StatefulSet waits for its pod on a
					 * node that is not Ready to be gone */
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

/*
 * A synthetic pool (SIMULATION.md, "Inputs"): @nodes identical nodes,
 * round-robin over @zones zones, each with the allocatable resources
 * drain_pool_allocatable() leaves of its capacity, the usual labels
 * plus @labels, and @taints.
 */
struct drain_pool {
	unsigned int nodes, zones;
	int64_t cpu;			/* capacity, millicores */
	int64_t memory;			/* capacity, bytes */
	int64_t pods;			/* the kubelet's maxPods */
	const struct kvet_label *labels;	/* added; a key given twice:
						 * the last */
	size_t n_labels;
	const struct kvet_taint *taints;
	size_t n_taints;
};

/* Capacity minus what the kubelet and the system reserve (pool.c). */
void drain_pool_allocatable(const struct drain_pool *pool, int64_t *cpu,
			    int64_t *memory, int64_t *ephemeral);

struct drain_result {
	enum kvet_drain_plan plan;
	bool pool;			/* on a synthetic pool */
	size_t pods_placed;		/* pool: pods installed */
	size_t pods_unplaced;		/* pool: pods no node takes */
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

/**
 * drain_run_pool() - install the workloads of @g on the synthetic @pool
 * and simulate the plan of @opts on it.
 * @arena: the run's arena: messages and results go here.
 * @diag: input errors (names of --nodes the pool lacks).
 * @g: the object graph: rendered manifests (no Nodes, no live Pods).
 * @opts: the plan.
 * @pool: the pool; its arrays are borrowed.
 * @out: the results, pods no node takes among its issues; release with
 *       drain_result_release().
 *
 * Returns: 0, or -1 when out of memory.
 */
int drain_run_pool(struct kvet_arena *arena, struct kvet_diag *diag,
		   const struct kvet_graph *g, const struct drain_options *opts,
		   const struct drain_pool *pool, struct drain_result *out);

#endif

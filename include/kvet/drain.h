/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_H
#define KVET_DRAIN_H

/*
 * kvet drain: plans, synthetic pools, and the nodes and steps of a
 * simulated drain.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Drain simulation (docs/drain.md): a context created with KVET_CTX_DRAIN
 * does not lint; kvet_ctx_run() loads a cluster dump (or rendered
 * manifests, installed on a synthetic pool: kvet_ctx_set_pool()) and
 * simulates draining its nodes, and the findings of the run are what the
 * drains run into, under the drain checks' rule ids (kvet_ctx_rule()).
 */
enum kvet_drain_plan {
	KVET_DRAIN_EACH_NODE,	/* every node alone, from the dump's state */
	KVET_DRAIN_ROLLING,	/* one node (or K) after another */
};

enum kvet_drain_order {
	KVET_DRAIN_ORDER_ZONE,	/* by zone label, then name */
	KVET_DRAIN_ORDER_NAME,	/* by name */
	KVET_DRAIN_ORDER_GIVEN,	/* as the node names were given */
};

enum kvet_drain_flags {
	KVET_DRAIN_FORCE = 1u << 0,		/* kubectl drain --force */
	KVET_DRAIN_KEEP_EMPTYDIR = 1u << 1,	/* --delete-emptydir-data=false */
	KVET_DRAIN_NO_IGNORE_DAEMONSETS = 1u << 2, /* --ignore-daemonsets=false */
};

/* Plain data: what to simulate. Zero is the default plan. */
struct kvet_drain_options {
	enum kvet_drain_plan plan;
	unsigned int flags;		/* enum kvet_drain_flags */
	unsigned int max_unavailable;	/* rolling: nodes per step; 0: 1 */
	unsigned int surge;		/* rolling: new empty nodes; 0: none,
					 * drained nodes come back empty */
	enum kvet_drain_order order;	/* rolling */
	const char *nodes;		/* a label selector (kubectl syntax:
					 * "pool=a,zone in (x,y)") or node
					 * names separated by commas; NULL:
					 * every node */
	/* kubectl drain --skip-wait-for-delete-timeout: on a node that is
	 * not Ready, stop waiting for an evicted pod's deletion after this
	 * many seconds, and skip the pods already terminating there; 0,
	 * kubectl's default: wait forever */
	unsigned int skip_wait_for_delete_timeout;
};

/**
 * kvet_ctx_set_drain() - what kvet_ctx_run() simulates, for a context
 * created with KVET_CTX_DRAIN; call before kvet_ctx_run().
 * @ctx: the context.
 * @opts: copied (its strings too).
 *
 * Returns: 0, or -1 when the context is no drain context, @opts->nodes
 * is no valid selector (a rule error says why) or memory ran out.
 */
KVET_API int kvet_ctx_set_drain(struct kvet_ctx *ctx,
				const struct kvet_drain_options *opts);

/*
 * A synthetic node pool (docs/drain.md, "Rendered manifests"): what
 * kvet_ctx_run() drains when the input has no Node and no Pod objects,
 * and what the rolling-upgrade-stalls check of kvet lint rolls.
 * Identical nodes named node-1, node-2, ... round-robin over zones
 * zone-a, zone-b, ...; --node-cpu and --node-memory are each node's
 * capacity, of which the kubelet's reservations leave the allocatable
 * (GKE's formula: 4 CPU and 16Gi leave 3920m and about 13.3Gi).
 */
enum kvet_pool_flags {
	KVET_POOL_SURGE = 1u << 0,	/* @surge is given, even 0 */
};

/*
 * Plain data. A zero field keeps what was set before (the
 * configuration's pool:, else the default: 3 nodes in 3 zones, 4 CPU,
 * 16Gi, 110 pods); labels and taints add to those set before.
 */
struct kvet_pool_options {
	unsigned int nodes;		/* 1 to 1000 */
	unsigned int zones;		/* 1 to 26, at most @nodes */
	const char *cpu;		/* a node's CPU: "4", "3500m" */
	const char *memory;		/* a node's memory: "16Gi" */
	unsigned int pods;		/* its pod limit (maxPods) */
	const char *const *labels;	/* "KEY=VALUE" */
	size_t n_labels;
	const char *const *taints;	/* "KEY[=VALUE]:EFFECT" */
	size_t n_taints;
	unsigned int max_unavailable;	/* rolling: nodes per step */
	unsigned int surge;		/* rolling: with KVET_POOL_SURGE */
	unsigned int flags;		/* enum kvet_pool_flags */
};

/**
 * kvet_ctx_set_pool() - describe the synthetic pool; call before
 * kvet_ctx_run(). A pool given here (nodes, zones, resources, labels or
 * taints) for an input that turns out to be a cluster dump is an input
 * error: a dump is drained on its own nodes.
 * @ctx: the context.
 * @opts: copied (its strings too).
 *
 * Returns: 0, or -1 when a value is invalid (a rule error says which)
 * or memory ran out.
 */
KVET_API int kvet_ctx_set_pool(struct kvet_ctx *ctx,
			       const struct kvet_pool_options *opts);

/**
 * kvet_pool_parse_size() - read "NODESxZONES" ("3x3", "6x2").
 * Returns: 0, or -1 when @s is no such size within the limits above.
 */
KVET_API int kvet_pool_parse_size(const char *s, unsigned int *nodes,
				  unsigned int *zones);

/* The pool a drain ran on. Plain data, borrowed from the context. */
struct kvet_drain_pool {
	unsigned int nodes, zones;
	long long cpu;			/* allocatable per node, millicores */
	long long memory;		/* bytes */
	long long pods;
	size_t pods_placed;		/* pods the workloads run */
	size_t pods_unplaced;		/* pods no node takes */
};

/* The pool of the run, or NULL when it drained a cluster dump. */
KVET_API const struct kvet_drain_pool *
kvet_ctx_drain_pool(const struct kvet_ctx *ctx);

enum kvet_drain_verdict {
	KVET_DRAIN_DRAINS,		/* no finding */
	KVET_DRAIN_WARNINGS,		/* findings, none an error */
	KVET_DRAIN_BLOCKED,		/* an error: the drain never completes */
	KVET_DRAIN_NOT_REACHED,		/* rolling: after the stall */
};

/* "drains", "drains-with-warnings", "blocked" or "not-reached". */
KVET_API const char *kvet_drain_verdict_name(enum kvet_drain_verdict v);

/* One node of the plan. Plain data, borrowed from the context. */
struct kvet_drain_node {
	struct kvet_object_ref node;	/* pos.line 0: a node kvet added */
	enum kvet_drain_verdict verdict;
	unsigned int step;		/* rolling: 1-based; 0: each node */
	size_t evicted;			/* pods evicted */
	size_t deleted;			/* deleted without eviction (done,
					 * pending, --force) */
	size_t left;			/* left on the node (DaemonSet,
					 * mirror pods) */
	const size_t *findings;		/* its findings, as indexes for
					 * kvet_ctx_finding() */
	size_t n_findings;
};

/* One step of a rolling plan. */
struct kvet_drain_step {
	unsigned int index;		/* 1-based */
	const char *const *nodes;	/* the nodes it drains */
	size_t n_nodes;
	bool stalled;			/* the roll stops here */
	const char *const *causes;	/* the chain of causes, outermost
					 * first; empty unless stalled */
	size_t n_causes;
};

/* Whether the run was a drain simulation that ran. */
KVET_API bool kvet_ctx_drain_ran(const struct kvet_ctx *ctx);
KVET_API enum kvet_drain_plan kvet_ctx_drain_plan(const struct kvet_ctx *ctx);
/* The nodes, in plan order (each node: by name). */
KVET_API size_t kvet_ctx_drain_node_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_drain_node *
kvet_ctx_drain_node(const struct kvet_ctx *ctx, size_t i);
/* The steps of a rolling plan, up to the one that stalls. */
KVET_API size_t kvet_ctx_drain_step_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_drain_step *
kvet_ctx_drain_step(const struct kvet_ctx *ctx, size_t i);

#ifdef __cplusplus
}
#endif

#endif

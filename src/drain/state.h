/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_STATE_H
#define KVET_DRAIN_STATE_H

/*
 * The simulated cluster, shared by the files of src/drain: nodes, pods,
 * budgets, Services, fail-closed webhooks and the scheduling terms, with
 * the indexes that keep placement near-linear. Everything that changes
 * while nodes drain goes through journal.c, so that "each node alone"
 * rolls the cluster back to the dump's state after every node.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drain/drain.h"
#include "model/hash.h"
#include "model/labels.h"
#include "model/pdb.h"
#include "model/pod.h"
#include "model/resources.h"
#include "model/service.h"
#include "model/taints.h"
#include "model/term.h"
#include "model/webhook.h"

#define DRAIN_NONE UINT32_MAX

struct drain_node {
	const struct kvet_object *obj;	/* NULL: a node kvet added */
	const char *name;
	const struct kvet_node *root;	/* the Node; NULL when added */
	struct kvet_labels labels;
	struct kvet_taints taints;
	struct kvet_resources alloc;
	int64_t *ext_used;		/* per alloc.ext entry */
	int64_t used[KVET_RES_BUILTIN];	/* requests of the pods on it */
	uint32_t first_pod;		/* list of its pods, DRAIN_NONE */
	uint32_t zone;			/* value id of its zone label */
	bool cordoned;			/* spec.unschedulable, or draining */
	bool gone;			/* removed (surge upgrade) */
	/* its Ready condition is not True: the kubelet completes no
	 * deletion (unreachable.c); dynamic, a node back is Ready */
	bool not_ready;
	uint32_t order_pos;		/* place in the preference order */
};

/* What happens to a pod of a draining node, by kubectl drain's filters. */
enum drain_pod_kind {
	DRAIN_POD_REPLICATED,	/* a controller makes a replacement */
	DRAIN_POD_DAEMONSET,	/* stays: its node loses it */
	DRAIN_POD_MIRROR,	/* a static pod's mirror: skipped */
	DRAIN_POD_BARE,		/* no controller: never comes back */
};

enum drain_pod_state {
	DRAIN_POD_RUNNING,	/* on a node (Ready or not) */
	DRAIN_POD_GONE,		/* evicted or deleted, not replaced */
	DRAIN_POD_PENDING,	/* created, no node fits */
	DRAIN_POD_REFUSED,	/* its creation is refused by a webhook */
	DRAIN_POD_HELD,		/* not created: its StatefulSet waits for
				 * a lower ordinal (OrderedReady) */
	DRAIN_POD_LOST,		/* its node went down (DaemonSet, mirror) */
};

struct drain_pod {
	const struct kvet_object *obj;	/* the Pod; for a replacement, the
					 * Pod it replaces */
	uint32_t origin;		/* replacement of; DRAIN_NONE */
	const char *ns;
	const char *name;
	const struct kvet_node *spec;
	struct kvet_labels labels;
	const struct kvet_workload *wl;	/* the top-level owner, or NULL */
	struct kvet_slice owner_kind;	/* its controller's, when any */
	struct kvet_slice owner_name;
	enum drain_pod_kind kind;
	enum kvet_pod_phase phase;
	bool terminating;
	struct kvet_pod_needs needs;	/* model/pod.h */
	uint32_t sched_class;
	/* what selects it: budgets, Services; terms it matches or owns */
	const uint32_t *budgets;
	uint32_t n_budgets;
	const uint32_t *services;
	uint32_t n_services;
	const uint32_t *match_terms;
	uint32_t n_match_terms;
	const uint32_t *own_terms;
	uint32_t n_own_terms;
	uint32_t sts;			/* index into cluster.sts, or NONE */
	/* a pool's: its workload's counts, c->siblings[group] (its
	 * replacements inherit it); DRAIN_NONE for a dump's pod, a
	 * DaemonSet's and a workload of one pod */
	uint32_t group;
	/* dynamic */
	uint32_t node;			/* DRAIN_NONE when not on a node */
	uint32_t next, prev;		/* its node's list */
	uint32_t state;			/* enum drain_pod_state */
	bool ready;
	uint32_t replaced_by;		/* DRAIN_NONE */
	uint32_t from_node;		/* a replacement: where the pod it
					 * replaces was evicted from */
	const char *why;		/* why it is pending, refused or held */
	uint32_t held_by;		/* the pod it is held for; NONE */
	bool no_room;			/* every node lacks only resources */
};

struct drain_budget {
	const struct kvet_object *obj;
	struct kvet_pdb pdb;
	const struct kvet_node *field;	/* minAvailable/maxUnavailable */
	bool always_allow;		/* unhealthyPodEvictionPolicy */
	bool stale;			/* observedGeneration < generation */
	const struct kvet_node *observed_generation;	/* where stale is */
	int64_t expected, desired;
	/* what the disruption controller computes from the spec once it
	 * catches up with a stale budget (docs/model.md 1.9) */
	int64_t spec_expected, spec_desired;
	bool spec_invalid;
	bool sync_fails;		/* the controller cannot compute it:
					 * pods without a scalable owner */
	uint32_t *pods;			/* the dump's pods it selects */
	uint32_t n_pods;
	/* dynamic */
	int64_t healthy, allowed;
};

struct drain_service {
	const struct kvet_object *obj;
	struct kvet_service svc;	/* model/service.h: selector, type */
	const uint32_t *webhooks;	/* the fail-closed webhooks it backs */
	uint32_t n_webhooks;
	int64_t total;			/* pods selected in the dump */
	int64_t ready;			/* dynamic */
	bool reported;			/* dynamic: outage said */
	/* scratch of one deadlock check (deadlock.c): its index there
	 * while ring_stamp is the check's epoch */
	uint32_t ring_stamp, ring_local;
};

struct drain_webhook {
	const struct kvet_webhook *wh;
	uint32_t service;		/* index into cluster.services */
	const char *error;		/* the API server's words, once */
	bool reported;			/* dynamic: outage said */
	bool deadlock;			/* dynamic: deadlock said */
};

/* The fail-closed webhooks that intercept a pod's creation and its
 * eviction, in index order: found on first use, never changed (they
 * depend on the pod's namespace and labels, which its replacements
 * share). */
struct drain_pod_hooks {
	const uint32_t *create, *evict;
	uint32_t n_create, n_evict;
	bool create_known, evict_known;
};

/* A webhook whose objectSelector requires label @key to be one of its
 * values, once per value: the pods without it are never asked about. */
struct drain_hook_key {
	struct kvet_slice key, value;
	uint32_t webhook;
};

/* A StatefulSet, for quorum and for the order it creates its pods in. */
struct drain_sts {
	const struct kvet_workload *wl;
	int64_t replicas;
	bool ordered;			/* podManagementPolicy OrderedReady */
	uint32_t *members;		/* its pods in the cluster's start */
	uint32_t n_members;
	const char *quorum_why;		/* why it needs a majority; NULL */
	int64_t ready;			/* dynamic */
	bool reported;			/* dynamic */
	bool low_set;			/* dynamic: the step's lowest ready */
	int64_t lowest;
	uint32_t low_node;
};

/*
 * A required pod (anti-)affinity term or a DoNotSchedule spread
 * constraint (model/term.h reads it: merged selector, scope, maxSkew,
 * minDomains, node policies), shared by the pods of one workload and by
 * equal terms (terms.c). Counts are per node: running pods its selector
 * matches (NULL when none does), and, for anti-affinity only, running
 * pods that carry it (NULL otherwise).
 */
struct drain_term {
	struct kvet_term t;
	const char *ns;			/* the owners' namespace */
	uint32_t key;			/* topology key id */
	int32_t *match;			/* per node, dynamic */
	int32_t *own;			/* per node, dynamic */
	int64_t match_total;		/* dynamic */
};

/* The most per-node term counts a drain keeps: 2^25 (128 MiB), such as
 * 6,700 distinct anti-affinity terms over Kubernetes' 5,000 nodes. */
#define DRAIN_MAX_TERM_CELLS (1u << 25)

/* A topology key: each node's value as an id, NONE when it lacks it. */
struct drain_key {
	struct kvet_slice name;
	uint32_t *value;		/* per node */
	uint32_t n_values;
};

/* The emptyDir data one workload's pods lose (wave.c): one finding per
 * workload (issue 26, item 12), for a node alone or for a whole roll. */
struct drain_emptydir {
	size_t issue;			/* its finding in c->res->issues, + 1;
					 * 0: none yet */
	uint32_t pods;			/* deletions */
	uint32_t n_nodes;
	const char *node[2];		/* the first nodes */
	const char *last_node;
	const char *pod[3];		/* the first pods, */
	const char *pod_node[3];	/* and where */
};

struct drain_journal;

struct drain_cluster {
	struct kvet_arena *arena;
	struct kvet_arena scratch;	/* one placement's counts */
	/* the scheduler's messages of the replacements no node takes, one
	 * copy of each text however many pods and passes give it
	 * (place.c); set up on first use */
	struct kvet_hash messages;
	const struct kvet_graph *g;
	struct drain_options opts;
	struct drain_node *nodes;	/* sorted by name; surge ones after */
	uint32_t n_nodes, cap_nodes;
	struct drain_pod *pods;		/* malloc'd vector; grows */
	uint32_t n_pods, cap_pods;
	struct drain_budget *budgets;
	uint32_t n_budgets;
	struct drain_service *services;
	uint32_t n_services;
	struct drain_webhook *webhooks;	/* fail-closed, with a Service */
	uint32_t n_webhooks;
	struct kvet_webhooks *whs;
	struct drain_pod_hooks *hooks;	/* per pod of the dump (not its
					 * replacements: their origin's) */
	uint32_t n_hooks;
	struct drain_hook_key *hook_keys;	/* by key, value, webhook */
	uint32_t n_hook_keys;
	uint32_t *hook_any;		/* webhooks asked about every pod */
	uint32_t n_hook_any;
	struct drain_sts *sts;
	uint32_t n_sts;
	struct drain_emptydir *emptydir;	/* per graph workload; set up
						 * on first use */
	size_t n_emptydir;
	struct drain_term *terms;
	uint32_t n_terms;
	struct drain_key *keys;
	uint32_t n_keys;
	uint32_t zone_key;		/* DRAIN_NONE when no node has one */
	/* a pool's: per workload of more than one pod, how many of its
	 * pods run on each node (drain_pod_counted()), dynamic, kept by
	 * moves.c so that placing a replica does not recount them */
	int32_t **siblings;
	uint32_t n_siblings;
	uint32_t *order;		/* node indexes by preference */
	struct drain_journal *journal;
	uint32_t *result_of;		/* per node: its drain_result node */
	uint32_t *waiting;		/* replacements not yet running */
	size_t n_waiting, cap_waiting;
	struct drain_result *res;
	uint32_t cur_node;		/* result index of the node draining */
	bool synthetic;			/* a pool: pods from workloads */
	const char *refused;		/* why it cannot be simulated */
	/* a replacement was refused since the last deadlock check, and the
	 * check's epoch (deadlock.c) */
	bool refusal_new;
	uint32_t ring_epoch;
	bool oom;
};

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_MANAGER_H
#define KVET_MODEL_MANAGER_H

#include <stdbool.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/graph.h"
#include "model/leader.h"
#include "model/webhook.h"
#include "model/workload.h"

/*
 * Managers (docs/model.md 1.12): controllers, operators and webhook
 * servers, whose outage stalls the cluster rather than one application.
 * The criteria that matched are kept so that a message can say why.
 */
enum kvet_manager_criteria {
	/* M1: backs a webhook entry, a CRD conversion webhook or an
	 * APIService */
	KVET_MANAGER_BACKEND = 1u << 0,
	/* M2: leader-election evidence (1.13 ON or OFF) */
	KVET_MANAGER_LEADER_ELECTION = 1u << 1,
	/* M3: app.kubernetes.io/component or control-plane label */
	KVET_MANAGER_COMPONENT = 1u << 2,
	/* M4: a container named manager or running .../manager */
	KVET_MANAGER_CONTAINER = 1u << 3,
};

/* Plain data; nodes point into the input. */
struct kvet_manager {
	unsigned int criteria;		/* enum kvet_manager_criteria */
	const struct kvet_webhook *entry;	/* M1: first entry it backs */
	const struct kvet_apiservice *apiservice;	/* M1: the first */
	struct kvet_leader leader;	/* 1.13, computed for every workload */
	const struct kvet_node *label;	/* M3: the matching label's value */
	const struct kvet_node *container;	/* M4: the container */
	const struct kvet_node *container_evidence;	/* M4: its name or
							 * command[0] */
};

/**
 * kvet_manager_of() - evaluate M1 to M4 for @wl.
 * @arena: the run's arena (leader election copies its namespace here).
 * @g: the graph; its configuration's manager_components are added to
 *     the default component values of M3, or replace them.
 * @whs: the run's webhook index, for M1.
 * @wl: the workload.
 * @out: the criteria that matched and their evidence.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_manager_of(struct kvet_arena *arena, const struct kvet_graph *g,
		    const struct kvet_webhooks *whs,
		    const struct kvet_workload *wl, struct kvet_manager *out);

/* True when any criterion matched. */
static inline bool kvet_manager_is(const struct kvet_manager *m)
{
	return m->criteria != 0;
}

/* "webhook backend", "leader election", ... for one criterion bit. */
const char *kvet_manager_criterion_name(enum kvet_manager_criteria c);

struct kvet_run;

/* The verdict of @wl, computed once per run; NULL when out of memory. */
const struct kvet_manager *kvet_run_manager(struct kvet_run *run,
					    const struct kvet_workload *wl);

/*
 * Where the evidence of criterion @c is in the workload: the leader
 * election evidence (kvet_leader_at()), the label, the container's name
 * or command; NULL for M1, whose evidence is in the webhook
 * configuration.
 */
const struct kvet_node *kvet_manager_evidence(const struct kvet_workload *wl,
					      const struct kvet_manager *m,
					      enum kvet_manager_criteria c);

/* The key of M3's label: "control-plane" or
 * "app.kubernetes.io/component". */
const char *kvet_manager_label_key(const struct kvet_workload *wl,
				   const struct kvet_manager *m);

#endif

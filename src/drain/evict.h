/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_EVICT_H
#define KVET_DRAIN_EVICT_H

/*
 * One eviction, as kube-apiserver's eviction subresource decides it
 * (pkg/registry/core/pod/storage/eviction.go: canIgnorePDB,
 * getPodDisruptionBudgets, checkAndDecrement), with the budget accounting
 * that follows it.
 */
#include "drain/state.h"

enum drain_evict_outcome {
	DRAIN_EVICT_DELETED,	/* 1: Succeeded, Failed, Pending or terminating */
	DRAIN_EVICT_NO_BUDGET,	/* 3: no budget selects the pod */
	DRAIN_EVICT_UNHEALTHY,	/* 4: not Ready, budget left alone */
	DRAIN_EVICT_BUDGET,	/* 6: allowed, disruptionsAllowed - 1 */
	DRAIN_EVICT_MULTIPLE,	/* 2: more than one budget: 500 */
	DRAIN_EVICT_STALE,	/* 5: observedGeneration behind: 429 */
	DRAIN_EVICT_NO_DISRUPTION,	/* 6: disruptionsAllowed 0: 429 */
};

static inline bool drain_evict_refused(enum drain_evict_outcome o)
{
	return o >= DRAIN_EVICT_MULTIPLE;
}

struct drain_eviction {
	enum drain_evict_outcome outcome;
	uint32_t budget;		/* the budget it used or that refused */
	uint32_t other;			/* MULTIPLE: the second budget */
	int64_t desired, healthy;	/* the budget at that moment */
	const char *message;		/* the API server's words, refused */
};

/* A stale budget's status, computed from its spec once the disruption
 * controller has caught up (a roll's second step on). */
void drain_budgets_resync(struct drain_cluster *c);

/**
 * drain_evict() - ask for the eviction of pod @p, and account for it: a
 * budget's disruptionsAllowed drops by one when step 6 allows it. The
 * pod itself is not moved (the caller unbinds it).
 */
void drain_evict(struct drain_cluster *c, uint32_t p,
		 struct drain_eviction *out);

#endif

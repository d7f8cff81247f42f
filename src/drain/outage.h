/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_OUTAGE_H
#define KVET_DRAIN_OUTAGE_H

/*
 * What breaks while pods are gone (SIMULATION.md): fail-closed webhooks
 * without a ready backend (docs/model.md 1.10, 1.11), Services without
 * a ready endpoint, StatefulSets below a majority.
 */
#include "drain/state.h"

/* A fail-closed webhook whose every backend pod is gone right now. */
static inline bool drain_webhook_down(const struct drain_cluster *c,
				      const struct drain_webhook *w)
{
	const struct drain_service *s = &c->services[w->service];

	return s->total > 0 && s->ready <= 0;
}

/**
 * drain_webhook_refusing() - the first fail-closed webhook that is down
 * and intercepts the request of @verb on pods (@sub: "" for a pod's
 * creation, "eviction" for an eviction) of pod @p; DRAIN_NONE when none.
 */
uint32_t drain_webhook_refusing(struct drain_cluster *c, uint32_t p,
				const char *sub);

/**
 * drain_webhooks_creating() - the fail-closed webhooks that intercept the
 * creation of pod @p (those of its origin, found on first use), down or
 * not, in index order, into *@v (borrowed from the cluster) and *@n.
 * Returns: false when the pod has no room in the index (or out of
 * memory, c->oom set): the caller does without.
 */
bool drain_webhooks_creating(struct drain_cluster *c, uint32_t p,
			     const uint32_t **v, uint32_t *n);

/* The API server's words when webhook @w cannot be called. */
const char *drain_webhook_error(struct drain_cluster *c, uint32_t w);

/* What the webhook intercepts, for messages: "CREATE UPDATE pods". */
const char *drain_webhook_operations(struct drain_cluster *c, uint32_t w);

#endif

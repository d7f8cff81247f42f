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

/* The API server's words when webhook @w cannot be called. */
const char *drain_webhook_error(struct drain_cluster *c, uint32_t w);

/* What the webhook intercepts, for messages: "CREATE UPDATE pods". */
const char *drain_webhook_operations(struct drain_cluster *c, uint32_t w);

/* Is pod @p a backend of webhook @w (its Service selects it)? */
bool drain_pod_backs(const struct drain_cluster *c, uint32_t p, uint32_t w);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_DEADLOCK_H
#define KVET_DRAIN_DEADLOCK_H

/*
 * Fail-closed webhooks that never get a backend back (docs/drain.md,
 * "What breaks while pods are gone"): a webhook whose every backend is
 * gone rejects what it intercepts (the API server, failurePolicy: Fail,
 * "no endpoints available for service"), and when every replacement
 * that would bring a backend back must pass such a webhook, directly
 * (the webhook intercepts its own backend) or around a ring (A rejects
 * B's replacement, B rejects A's), none is ever created.
 */
#include "drain/state.h"

/**
 * drain_deadlock_check() - once the replacements that wait have been
 * retried until none more can be created, report every fail-closed
 * webhook on a ring of webhooks that reject each other's replacements
 * (a ring of one: the webhook rejects its own) as drain-webhook-deadlock,
 * once per drain. Does nothing unless a replacement was refused since
 * the last check (c->refusal_new): a ring needs a new refusal to form.
 */
void drain_deadlock_check(struct drain_cluster *c);

#endif

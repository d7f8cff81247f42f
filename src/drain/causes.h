/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_CAUSES_H
#define KVET_DRAIN_CAUSES_H

/*
 * Why an eviction stays refused: the chain from the refusal to what keeps
 * the budget down (a replacement no node fits, one a webhook rejects, a
 * pod not Ready in the dump, a budget that allows nothing at all).
 */
#include "drain/evict.h"
#include "drain/wave.h"

void drain_causes_add(struct drain_cluster *c, struct drain_causes *why,
		      const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/**
 * drain_report_blocked() - the issue of pod @p on node @n whose last
 * eviction @ev was refused (or refused by webhook @webhook), with its
 * causes appended to @why (may be NULL).
 */
void drain_report_blocked(struct drain_cluster *c, uint32_t p, uint32_t n,
			  const struct drain_eviction *ev, uint32_t webhook,
			  struct drain_causes *why);

#endif

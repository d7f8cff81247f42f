/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_GROUPED_H
#define KVET_DRAIN_GROUPED_H

/* The warnings of a drain, one finding per cause (grouped.c). */
#include "drain/state.h"

/* Service @s may have lost its last ready endpoint as node @n drains:
 * its outage, and that of the fail-closed webhooks it backs, once each
 * per drain (once per roll). */
void drain_warn_outage(struct drain_cluster *c, uint32_t s, uint32_t n);

/* kubectl deletes pod @p, and its emptyDir data, as node @n drains. */
void drain_warn_emptydir(struct drain_cluster *c, uint32_t p, uint32_t n);

/* The replacements still waiting once a drain ends. */
void drain_warn_pending(struct drain_cluster *c);

#endif

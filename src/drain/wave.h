/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_WAVE_H
#define KVET_DRAIN_WAVE_H

/*
 * Draining a set of nodes at once: cordon them, apply kubectl drain's
 * filters, then evict in waves. kubectl evicts every pod of a node at
 * once and retries a refused eviction every 5 s; each wave is one such
 * round, and between waves the controllers create the replacements,
 * which the scheduler places and which are Ready at once (no image pull,
 * no probe), so that budgets recover. The drain ends when every pod is
 * gone, or stalls when a whole round changes nothing.
 */
#include "drain/state.h"

/* The chain of causes of a stall, outermost first (strings in the arena):
 * what is refused, then what keeps it refused, each "because ...". */
struct drain_causes {
	const char **v;
	size_t n, cap;
};

/**
 * drain_nodes() - drain @set.
 * @why: the causes when it stalls; may be NULL.
 *
 * Returns: true when every node of @set drained.
 */
bool drain_nodes(struct drain_cluster *c, const uint32_t *set, size_t n,
		 struct drain_causes *why);

/* The drained nodes go down (upgrade): their DaemonSet and mirror pods
 * are lost until they come back, which may break what they serve. */
void drain_nodes_down(struct drain_cluster *c, const uint32_t *set, size_t n);

/* The nodes come back empty and schedulable, their DaemonSet and mirror
 * pods running again; pods still Pending get another chance. */
void drain_nodes_up(struct drain_cluster *c, const uint32_t *set, size_t n);

/* Try to create and place every replacement that waits. Returns whether
 * any was placed. */
bool drain_retry_pending(struct drain_cluster *c, uint32_t blame);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_QUORUM_H
#define KVET_DRAIN_QUORUM_H

#include "drain/state.h"

/* Why kvet takes StatefulSet @wl of @replicas for a quorum-based system
 * (arena), or NULL when it does not: then no quorum loss is reported. */
const char *drain_quorum_why(struct kvet_arena *arena,
			     const struct kvet_workload *wl, int64_t replicas);

/* StatefulSet @s lost a ready pod while node @n drains: keep the lowest
 * ready count of the step. */
void drain_quorum_note(struct drain_cluster *c, uint32_t s, uint32_t n);

/* At the end of a step: a quorum loss for each StatefulSet whose lowest
 * ready count fell below a majority, once per StatefulSet. */
void drain_quorum_report(struct drain_cluster *c);

#endif

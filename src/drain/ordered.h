/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_ORDERED_H
#define KVET_DRAIN_ORDERED_H

#include "drain/state.h"

/**
 * drain_sts_holds() - does the StatefulSet controller hold back the
 * creation of replacement @r? With podManagementPolicy OrderedReady (the
 * default) it creates a missing member only once every lower ordinal is
 * Running and Ready.
 *
 * Returns: the pod it waits for (the lowest ordinal that is not Running
 * and Ready), or DRAIN_NONE when it creates @r now.
 */
uint32_t drain_sts_holds(const struct drain_cluster *c, uint32_t r);

/* "StatefulSet ... waits for pod ..." for replacement @r held for pod
 * @q, in the arena; NULL when out of memory. */
const char *drain_sts_hold_reason(struct drain_cluster *c, uint32_t r,
				  uint32_t q);

#endif

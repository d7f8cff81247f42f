/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_DAEMONS_H
#define KVET_DRAIN_DAEMONS_H

#include "drain/state.h"

/**
 * drain_daemons_start() - the DaemonSet controller on node @n, which kvet
 * just added: a running, Ready pod of every DaemonSet of the cluster that
 * should run there (its taints tolerated, its node affinity and selector
 * met), copied from the DaemonSet's first pod.
 *
 * Returns: 0, or -1 when out of memory.
 */
int drain_daemons_start(struct drain_cluster *c, uint32_t n);

#endif

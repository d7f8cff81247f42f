/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_POOL_H
#define KVET_DRAIN_POOL_H

/*
 * Installing rendered manifests on a synthetic pool (install.c): the
 * pods of every workload, made from its template, then placed one by one
 * in a fixed order by the scheduler's filters.
 */
#include "drain/state.h"

struct drain_install {
	uint32_t *order;	/* pods in placement order */
	uint32_t *target;	/* per pod: a DaemonSet pod's node, or NONE */
	uint32_t n;
};

/**
 * drain_install_pods() - add the pods of the workloads of c->g to @c,
 * on no node yet (c->nodes must be in).
 * Returns: 0, or -1 when out of memory.
 */
int drain_install_pods(struct drain_cluster *c, struct drain_install *inst);

/**
 * drain_install_place() - place the pods in @inst's order, once the
 * cluster is related and c->res set (drain_run_prepare()): each runs,
 * Ready, where the filters let it; a workload some of whose pods no node
 * takes is an issue of no node. Counts go to @out.
 * Returns: 0, or -1 when out of memory.
 */
int drain_install_place(struct drain_cluster *c,
			const struct drain_install *inst,
			struct drain_result *out);

void drain_install_release(struct drain_install *inst);

#endif

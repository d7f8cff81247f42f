/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NodeResourcesFit: the pod's requests against the node's allocatable
 * minus what the pods already there request; the pod count first, then
 * CPU, memory, ephemeral storage and extended resources, each reason the
 * plugin's own words ("Too many pods", "Insufficient cpu").
 */
#include "drain/fit.h"

#include <stdio.h>

static bool fits(int64_t want, int64_t alloc, int64_t used)
{
	return want <= 0 || (alloc - used >= want);
}

bool drain_fit_resources(struct drain_cluster *c, uint32_t p, uint32_t n,
			 struct drain_reasons *r)
{
	const struct drain_node *node = &c->nodes[n];
	const struct kvet_resources *req = &c->pods[p].needs.req;
	static const enum kvet_resource order[] = {
		KVET_RES_CPU, KVET_RES_MEMORY, KVET_RES_EPHEMERAL,
	};
	/* constant words, not one copy per node and attempt: a pod no node
	 * takes is explained over every node, again on every retry */
	static const char *const insufficient[] = {
		"Insufficient cpu", "Insufficient memory",
		"Insufficient ephemeral-storage",
	};
	bool ok = true;
	size_t i, j;
	const char *s;

	if (node->used[KVET_RES_PODS] + 1 > node->alloc.v[KVET_RES_PODS]) {
		drain_reason(r, "Too many pods");
		ok = false;
	}
	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		enum kvet_resource res = order[i];

		if (fits(req->v[res], node->alloc.v[res], node->used[res]))
			continue;
		ok = false;
		drain_reason(r, insufficient[i]);
	}
	for (i = 0; i < req->n_ext; i++) {
		int64_t alloc = 0, used = 0;

		for (j = 0; j < node->alloc.n_ext; j++)
			if (kvet_slice_eq(node->alloc.ext[j].name,
					  req->ext[i].name)) {
				alloc = node->alloc.ext[j].value;
				used = node->ext_used[j];
			}
		if (fits(req->ext[i].value, alloc, used))
			continue;
		ok = false;
		if (r) {
			/* the placement's scratch: place.c keeps only
			 * the counts per reason */
			s = kvet_arena_printf(&c->scratch, "Insufficient %.*s",
					      (int)req->ext[i].name.len,
					      req->ext[i].name.s);
			drain_reason(r, s ? s : "Insufficient resources");
		}
	}
	return ok;
}

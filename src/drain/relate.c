/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/relate.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "drain/cluster.h"
#include "drain/keys.h"

void drain_pairs_add(struct drain_pairs *pr, uint32_t pod, uint32_t item)
{
	if (!kvet_vec_grow((void **)&pr->v, &pr->cap, pr->n + 1,
			   sizeof(*pr->v))) {
		pr->oom = true;
		return;
	}
	pr->v[pr->n++] = (uint64_t)pod << 32 | item;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int drain_pairs_finish(struct drain_cluster *c, struct drain_pairs *pr,
		       size_t list, size_t count)
{
	uint32_t *items;
	size_t i, j;
	int ret = -1;

	if (pr->oom)
		goto out;
	if (pr->n)
		qsort(pr->v, pr->n, sizeof(*pr->v), cmp_u64);
	/* a pair made twice (a pod carrying one term twice) counts once */
	for (i = j = 0; i < pr->n; i++)
		if (!j || pr->v[i] != pr->v[j - 1])
			pr->v[j++] = pr->v[i];
	pr->n = j;
	items = kvet_arena_array(c->arena, pr->n + 1, sizeof(*items));
	if (!items)
		goto out;
	for (i = 0; i < pr->n; i = j) {
		uint32_t pod = (uint32_t)(pr->v[i] >> 32);
		char *p = (char *)&c->pods[pod];

		for (j = i; j < pr->n && (uint32_t)(pr->v[j] >> 32) == pod; j++)
			items[j] = (uint32_t)pr->v[j];
		*(const uint32_t **)(p + list) = &items[i];
		*(uint32_t *)(p + count) = (uint32_t)(j - i);
	}
	ret = 0;
out:
	free(pr->v);
	memset(pr, 0, sizeof(*pr));
	return ret;
}

int drain_cluster_relate(struct drain_cluster *c)
{
	struct drain_pod_index idx;
	int ret = -1;

	if (drain_pod_index_build(&idx, c) < 0)
		goto out;
	c->zone_key = drain_key_intern(c, kvet_slice_of(
					  "topology.kubernetes.io/zone"));
	if (c->zone_key == DRAIN_NONE)
		goto out;
	if (drain_budgets_build(c, &idx) < 0 ||
	    drain_services_build(c, &idx) < 0 ||
	    drain_webhooks_build(c) < 0 || drain_sts_build(c) < 0 ||
	    drain_terms_build(c, &idx) < 0)
		goto out;
	drain_order_sort(c);
	ret = c->oom ? -1 : 0;
out:
	drain_pod_index_release(&idx);
	return ret;
}

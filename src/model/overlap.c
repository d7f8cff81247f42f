/* SPDX-License-Identifier: Apache-2.0 */
#include "model/overlap.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "model/graph.h"
#include "model/run.h"

struct overlaps {
	uint32_t *off;		/* n_wls + 1 offsets into partners */
	const struct kvet_workload **partners;
};

struct pair {
	uint32_t a, b;
};

struct pair_vec {
	struct pair *v;		/* malloc'd */
	size_t n, cap;
	const struct kvet_workload *from;
};

static int add_pair(void *data, const struct kvet_workload *wl)
{
	struct pair_vec *pv = data;

	if (wl == pv->from)
		return 0;
	if (!kvet_vec_grow((void **)&pv->v, &pv->cap, pv->n + 2,
			   sizeof(*pv->v)))
		return -1;
	pv->v[pv->n].a = pv->from->index;
	pv->v[pv->n++].b = wl->index;
	pv->v[pv->n].a = wl->index;
	pv->v[pv->n++].b = pv->from->index;
	return 0;
}

static int cmp_pair(const void *x, const void *y)
{
	const struct pair *p = x, *q = y;

	if (p->a != q->a)
		return (p->a > q->a) - (p->a < q->a);
	return (p->b > q->b) - (p->b < q->b);
}

/*
 * A Job or CronJob without spec.selector gets one generated from its UID
 * (1.2), which only its own pods carry: it overlaps nothing.
 */
static bool generated_selector(const struct kvet_workload *wl)
{
	return (wl->kind == KVET_WL_JOB || wl->kind == KVET_WL_CRONJOB) &&
	       !wl->selector.node;
}

/* Each workload's spec.selector through the label index, once; the
 * pairs both ways, sorted and unique, become per-workload lists. */
static void *overlaps_build(struct kvet_run *run)
{
	struct kvet_arena *arena = kvet_run_arena(run);
	const struct kvet_graph *g = kvet_run_graph(run);
	struct kvet_workload *const *wls;
	struct pair_vec pv = { 0 };
	struct overlaps *o;
	size_t i, k, n_wls;

	wls = kvet_graph_workloads(g, &n_wls);
	o = kvet_arena_alloc(arena, sizeof(*o));
	if (!o || !(o->off = kvet_arena_array(arena, n_wls + 1,
					      sizeof(*o->off))))
		return NULL;
	for (i = 0; i < n_wls; i++) {
		if (wls[i]->kind == KVET_WL_POD || generated_selector(wls[i]))
			continue;
		pv.from = wls[i];
		if (kvet_graph_select_workloads(g, wls[i]->obj->namespace,
						&wls[i]->selector, add_pair,
						&pv))
			goto fail;
	}
	if (pv.n > 1)
		qsort(pv.v, pv.n, sizeof(*pv.v), cmp_pair);
	for (i = k = 0; i < pv.n; i++)
		if (!k || cmp_pair(&pv.v[k - 1], &pv.v[i]))
			pv.v[k++] = pv.v[i];
	o->partners = kvet_arena_array(arena, k + 1, sizeof(*o->partners));
	if (!o->partners)
		goto fail;
	for (i = 0; i < k; i++) {
		o->off[pv.v[i].a + 1]++;
		o->partners[i] = wls[pv.v[i].b];
	}
	for (i = 0; i < n_wls; i++)
		o->off[i + 1] += o->off[i];
	free(pv.v);
	return o;
fail:
	free(pv.v);
	return NULL;
}

int kvet_run_overlapping(struct kvet_run *run, const struct kvet_workload *wl,
			 const struct kvet_workload *const **out, size_t *n)
{
	const struct overlaps *o = kvet_run_index(run, KVET_RUN_OVERLAPS,
						  overlaps_build, NULL);

	*out = NULL;
	*n = 0;
	if (!o)
		return -1;
	*out = o->partners + o->off[wl->index];
	*n = o->off[wl->index + 1] - o->off[wl->index];
	return 0;
}

bool kvet_workload_selects_pods_of(const struct kvet_workload *a,
				   const struct kvet_workload *b)
{
	return a != b && !strcmp(a->obj->namespace, b->obj->namespace) &&
	       !generated_selector(a) &&
	       kvet_workload_selected_by(b, &a->selector);
}

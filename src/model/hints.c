/* SPDX-License-Identifier: Apache-2.0 */
#include "model/hints.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

struct hint_walk {
	const struct kvet_workload **v;	/* malloc'd */
	size_t n, cap;
	const char *skip_ns;		/* leave out this namespace */
	const struct kvet_selector *unless;	/* leave out what it selects */
	const struct kvet_requirement *like;	/* keep values close to its */
	size_t budget;			/* stop after this many candidates */
	size_t seen;
};

/* Levenshtein distance of two label values (at most 63 bytes, so the
 * row fits on the stack); larger values count as far apart. */
static size_t distance(struct kvet_slice a, struct kvet_slice b)
{
	size_t row[64], i, j, diag, up;

	if (a.len >= 64 || b.len >= 64)
		return 64;
	for (j = 0; j <= b.len; j++)
		row[j] = j;
	for (i = 1; i <= a.len; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= b.len; j++) {
			up = row[j];
			row[j] = diag + (a.s[i - 1] != b.s[j - 1]);
			if (up + 1 < row[j])
				row[j] = up + 1;
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			diag = up;
		}
	}
	return row[b.len];
}

static bool contains(struct kvet_slice hay, struct kvet_slice needle)
{
	size_t i;

	for (i = 0; needle.len && i + needle.len <= hay.len; i++)
		if (!memcmp(hay.s + i, needle.s, needle.len))
			return true;
	return false;
}

/* A value that looks like a typo of one the requirement wants. */
static bool value_like(const struct kvet_requirement *r, struct kvet_slice v)
{
	size_t i;

	for (i = 0; i < r->n_values; i++) {
		struct kvet_slice w = r->values[i];

		if (distance(v, w) <= 2 ||
		    (w.len >= 3 && v.len >= 3 &&
		     (contains(v, w) || contains(w, v))))
			return true;
	}
	return false;
}

static int collect(void *data, const struct kvet_workload *wl)
{
	struct hint_walk *h = data;
	struct kvet_slice v;

	if (h->budget && h->seen++ >= h->budget)
		return 1;
	if (h->skip_ns && !strcmp(wl->obj->namespace, h->skip_ns))
		return 0;
	if (h->unless && kvet_workload_selected_by(wl, h->unless))
		return 0;
	if (h->like && (!kvet_labels_get(&wl->labels, h->like->key, &v) ||
			!value_like(h->like, v)))
		return 0;
	if (!kvet_vec_grow((void **)&h->v, &h->cap, h->n + 1, sizeof(*h->v)))
		return -1;
	h->v[h->n++] = wl;
	return h->n >= KVET_HINT_MAX ? 1 : 0;
}

static int cmp_wl(const void *a, const void *b)
{
	uint32_t x = (*(const struct kvet_workload *const *)a)->index;
	uint32_t y = (*(const struct kvet_workload *const *)b)->index;

	return (x > y) - (x < y);
}

/* The walk's workloads sorted by workload order, each once, into
 * @arena; frees the walk's vector. */
static int finish(struct kvet_arena *arena, struct hint_walk *h, int status,
		  const struct kvet_workload ***out, size_t *n)
{
	size_t i, k = 0;

	*out = NULL;
	*n = 0;
	if (status < 0) {
		free(h->v);
		return -1;
	}
	if (h->n > 1)
		qsort(h->v, h->n, sizeof(*h->v), cmp_wl);
	for (i = 0; i < h->n; i++)
		if (!k || h->v[k - 1] != h->v[i])
			h->v[k++] = h->v[i];
	*out = kvet_arena_array(arena, k + 1, sizeof(**out));
	if (*out && k)
		memcpy(*out, h->v, k * sizeof(**out));
	free(h->v);
	if (!*out)
		return -1;
	*n = k;
	return 0;
}

int kvet_pdb_selected_elsewhere(struct kvet_arena *arena,
				const struct kvet_graph *g,
				const struct kvet_pdb *pdb,
				const struct kvet_workload ***out, size_t *n)
{
	struct hint_walk h = { .skip_ns = pdb->obj->namespace };
	int r = 0;

	if (pdb->selector.meaning == KVET_SEL_MATCH)
		r = kvet_graph_select_workloads(g, NULL, &pdb->selector,
						collect, &h);
	return finish(arena, &h, r, out, n);
}

int kvet_pdb_near_misses(struct kvet_arena *arena, const struct kvet_graph *g,
			 const struct kvet_pdb *pdb,
			 const struct kvet_workload ***out, size_t *n)
{
	const struct kvet_selector *sel = &pdb->selector;
	const char *ns = pdb->obj->namespace;
	struct hint_walk h = { .unless = sel };
	struct kvet_requirement exists, *reqs;
	struct kvet_selector sub = *sel;
	size_t i, j, k;
	int r = 0;

	if (sel->meaning != KVET_SEL_MATCH || !sel->n_reqs)
		return finish(arena, &h, 0, out, n);
	if (sel->n_reqs == 1) {
		if (sel->reqs[0].op != KVET_SEL_IN)
			return finish(arena, &h, 0, out, n);
		memset(&exists, 0, sizeof(exists));
		exists.key = sel->reqs[0].key;
		exists.op = KVET_SEL_EXISTS;
		sub.reqs = &exists;
		h.like = &sel->reqs[0];
		h.budget = KVET_HINT_BUDGET;
		r = kvet_graph_select_workloads(g, ns, &sub, collect, &h);
		return finish(arena, &h, r, out, n);
	}
	reqs = kvet_arena_array(arena, sel->n_reqs, sizeof(*reqs));
	if (!reqs)
		return finish(arena, &h, -1, out, n);
	for (i = 0; i < sel->n_reqs && h.n < KVET_HINT_MAX && r >= 0; i++) {
		for (j = k = 0; j < sel->n_reqs; j++)
			if (j != i)
				reqs[k++] = sel->reqs[j];
		sub.reqs = reqs;
		sub.n_reqs = k;
		r = kvet_graph_select_workloads(g, ns, &sub, collect, &h);
	}
	return finish(arena, &h, r, out, n);
}

const struct kvet_requirement *
kvet_pdb_unmet_requirement(const struct kvet_pdb *pdb,
			   const struct kvet_workload *wl)
{
	struct kvet_pod_runtime rt;
	size_t i;

	kvet_workload_runtime(wl, 0, 0, &rt);
	for (i = 0; i < pdb->selector.n_reqs; i++)
		if (!kvet_requirement_matches(&pdb->selector.reqs[i],
					      &wl->labels, &rt))
			return &pdb->selector.reqs[i];
	return NULL;
}

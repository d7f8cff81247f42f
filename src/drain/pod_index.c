/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/pod_index.h"

#include <string.h>

/* A posting list: the pods under one key, in pod order. */
struct posting {
	uint32_t *v;
	uint32_t n, cap;
};

static struct posting *posting_at(struct drain_pod_index *idx,
				  const struct kvet_slice *parts, size_t n)
{
	void **slot = kvet_hash_put(&idx->h, parts, n, NULL);

	if (!slot)
		return NULL;
	if (!*slot)
		*slot = kvet_arena_alloc(idx->h.arena, sizeof(struct posting));
	return *slot;
}

static int post(struct drain_pod_index *idx, const struct kvet_slice *parts,
		size_t n, uint32_t pod, bool fill)
{
	struct posting *p = posting_at(idx, parts, n);

	if (!p)
		return -1;
	if (!fill) {
		p->cap++;
		return 0;
	}
	if (!p->v) {
		p->v = kvet_arena_array(idx->h.arena, p->cap, sizeof(*p->v));
		if (!p->v)
			return -1;
	}
	p->v[p->n++] = pod;
	return 0;
}

/*
 * Two passes over the pods: count per key, then fill arrays of that size
 * in the arena, so that no posting list is ever reallocated. Keys are
 * (ns), (ns, key) and (ns, key, value).
 */
static int visit(struct drain_pod_index *idx, const struct drain_cluster *c,
		 bool fill)
{
	struct kvet_slice parts[3];
	uint32_t i;
	size_t k;

	for (i = 0; i < c->n_pods; i++) {
		const struct drain_pod *pod = &c->pods[i];

		parts[0] = kvet_slice_of(pod->ns);
		if (post(idx, parts, 1, i, fill) < 0)
			return -1;
		for (k = 0; k < pod->labels.n; k++) {
			parts[1] = pod->labels.v[k].key;
			parts[2] = pod->labels.v[k].value;
			if (post(idx, parts, 2, i, fill) < 0 ||
			    post(idx, parts, 3, i, fill) < 0)
				return -1;
		}
	}
	return 0;
}

int drain_pod_index_build(struct drain_pod_index *idx,
			  const struct drain_cluster *c)
{
	kvet_hash_init(&idx->h, c->arena);
	if (visit(idx, c, false) < 0 || visit(idx, c, true) < 0)
		return -1;
	return 0;
}

void drain_pod_index_release(struct drain_pod_index *idx)
{
	kvet_hash_release(&idx->h);
}

static const struct posting *get(const struct drain_pod_index *idx,
				 const struct kvet_slice *parts, size_t n)
{
	return kvet_hash_get(&idx->h, parts, n);
}

/* The pods a requirement can match at most, or NULL for "scan". */
static size_t candidates(const struct drain_pod_index *idx, const char *ns,
			 const struct kvet_requirement *r,
			 const struct posting **lists, size_t max)
{
	struct kvet_slice parts[3] = { kvet_slice_of(ns), r->key, { 0, 0 } };
	size_t i, n = 0;

	if (r->op == KVET_SEL_EXISTS) {
		lists[0] = get(idx, parts, 2);
		return 1;
	}
	if (r->op != KVET_SEL_IN || r->n_values > max)
		return SIZE_MAX;
	for (i = 0; i < r->n_values; i++) {
		parts[2] = r->values[i];
		lists[n] = get(idx, parts, 3);
		n++;
	}
	return n;
}

static size_t total(const struct posting *const *lists, size_t n)
{
	size_t i, t = 0;

	for (i = 0; i < n; i++)
		t += lists[i] ? lists[i]->n : 0;
	return t;
}

enum { MAX_VALUES = 16 };

int drain_pod_index_select(const struct drain_pod_index *idx,
			   const struct drain_cluster *c, const char *ns,
			   const struct kvet_selector *sel, drain_pod_fn fn,
			   void *data)
{
	const struct posting *best[MAX_VALUES], *cand[MAX_VALUES];
	struct kvet_slice part = kvet_slice_of(ns);
	size_t i, j, nbest = 0, n, best_total = SIZE_MAX;
	int rc;

	if (sel->meaning == KVET_SEL_NOTHING || sel->meaning == KVET_SEL_INVALID)
		return 0;
	for (i = 0; sel->meaning == KVET_SEL_MATCH && i < sel->n_reqs; i++) {
		n = candidates(idx, ns, &sel->reqs[i], cand, MAX_VALUES);
		if (n == SIZE_MAX || total(cand, n) >= best_total)
			continue;
		best_total = total(cand, n);
		memcpy(best, cand, n * sizeof(*cand));
		nbest = n;
	}
	if (best_total == SIZE_MAX) {
		/* NotIn and DoesNotExist only, or everything: the namespace */
		best[0] = get(idx, &part, 1);
		nbest = 1;
	}
	for (i = 0; i < nbest; i++) {
		for (j = 0; best[i] && j < best[i]->n; j++) {
			const struct drain_pod *p = &c->pods[best[i]->v[j]];

			if (!kvet_selector_matches(sel, &p->labels, NULL))
				continue;
			rc = fn(data, best[i]->v[j]);
			if (rc)
				return rc;
		}
	}
	return 0;
}

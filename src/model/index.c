/* SPDX-License-Identifier: Apache-2.0 */
#include "model/index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/hash.h"

/* A sorted list of workload indexes. */
struct posting {
	uint32_t n;
	uint32_t fill;
	uint32_t *ids;
};

struct kvet_label_index {
	struct kvet_arena *arena;
	struct kvet_workload *const *wls;
	size_t n;
	struct kvet_hash postings;
};

/*
 * Key tags: the first part of every key says what the rest is, so that a
 * namespace called like a label key cannot collide with it.
 */
#define TAG_NS "n"		/* ns */
#define TAG_NS_KEY "k"		/* ns, key */
#define TAG_NS_KV "v"		/* ns, key, value */
#define TAG_KEY "K"		/* key, in any namespace */
#define TAG_KV "V"		/* key, value, in any namespace */

/*
 * Pass 1 counts and notes, for each entry of a workload, its posting
 * (one lookup each); pass 2 fills the postings from those notes, in the
 * same order, without hashing the keys again: the arrays are sized
 * exactly.
 */
struct entry {
	struct posting *p;
	uint32_t id;
};

struct entries {
	struct entry *v;
	size_t n, cap;
};

static int add(struct kvet_label_index *idx, struct entries *es,
	       const struct kvet_slice *parts, size_t nparts, uint32_t id)
{
	struct posting *p;
	void **slot;

	if (es->n == es->cap) {
		size_t cap = es->cap ? es->cap * 2 : 1024;
		struct entry *v = realloc(es->v, cap * sizeof(*v));

		if (!v)
			return -1;
		es->v = v;
		es->cap = cap;
	}
	slot = kvet_hash_put(&idx->postings, parts, nparts, NULL);
	if (!slot)
		return -1;
	if (!*slot) {
		*slot = kvet_arena_alloc(idx->arena, sizeof(struct posting));
		if (!*slot)
			return -1;
	}
	p = *slot;
	p->n++;
	es->v[es->n++] = (struct entry){ .p = p, .id = id };
	return 0;
}

static int add_workload(struct kvet_label_index *idx, struct entries *es,
			const struct kvet_workload *wl)
{
	struct kvet_slice parts[4];
	size_t i;

	/* a hook's pods exist only around a release operation: no Service,
	 * webhook, budget or spreading term selects them (1.1) */
	if (!kvet_object_runs(wl->obj))
		return 0;
	parts[0] = kvet_slice_of(TAG_NS);
	parts[1] = kvet_slice_of(wl->obj->namespace);
	if (add(idx, es, parts, 2, wl->index))
		return -1;
	for (i = 0; i < wl->labels.n; i++) {
		const struct kvet_label *l = &wl->labels.v[i];

		parts[0] = kvet_slice_of(TAG_NS_KEY);
		parts[2] = l->key;
		parts[3] = l->value;
		if (add(idx, es, parts, 3, wl->index))
			return -1;
		parts[0] = kvet_slice_of(TAG_NS_KV);
		if (add(idx, es, parts, 4, wl->index))
			return -1;
		parts[1] = kvet_slice_of(TAG_KEY);
		if (add(idx, es, parts + 1, 2, wl->index))
			return -1;
		parts[1] = kvet_slice_of(TAG_KV);
		if (add(idx, es, parts + 1, 3, wl->index))
			return -1;
		parts[1] = kvet_slice_of(wl->obj->namespace);
	}
	return 0;
}

struct kvet_label_index *kvet_label_index_create(struct kvet_arena *arena,
						 struct kvet_workload *const *wls,
						 size_t n)
{
	struct kvet_label_index *idx = calloc(1, sizeof(*idx));
	struct entries es = { 0 };
	struct kvet_hash_slot *slot;
	size_t i, pos = 0;

	if (!idx)
		return NULL;
	idx->arena = arena;
	idx->wls = wls;
	idx->n = n;
	kvet_hash_init(&idx->postings, arena);
	for (i = 0; i < n; i++)
		if (add_workload(idx, &es, wls[i]))
			goto fail;
	while ((slot = kvet_hash_next(&idx->postings, &pos)) != NULL) {
		struct posting *p = slot->value;

		p->ids = kvet_arena_array(arena, p->n, sizeof(*p->ids));
		if (!p->ids)
			goto fail;
	}
	for (i = 0; i < es.n; i++)
		es.v[i].p->ids[es.v[i].p->fill++] = es.v[i].id;
	free(es.v);
	return idx;
fail:
	free(es.v);
	kvet_label_index_destroy(idx);
	return NULL;
}

void kvet_label_index_destroy(struct kvet_label_index *idx)
{
	if (!idx)
		return;
	kvet_hash_release(&idx->postings);
	free(idx);
}

static const struct posting *find(const struct kvet_label_index *idx,
				  const char *ns, const char *tag_ns,
				  const char *tag_all, const struct kvet_slice *kv,
				  size_t nkv)
{
	struct kvet_slice parts[4];
	size_t i, np = 0;

	parts[np++] = kvet_slice_of(ns ? tag_ns : tag_all);
	if (ns)
		parts[np++] = kvet_slice_of(ns);
	for (i = 0; i < nkv; i++)
		parts[np++] = kv[i];
	return kvet_hash_get(&idx->postings, parts, np);
}

/* How many workloads in scope carry a value @r accepts; (size_t)-1 when
 * the index cannot narrow @r down. */
static size_t req_cost(const struct kvet_label_index *idx, const char *ns,
		       const struct kvet_requirement *r)
{
	struct kvet_slice kv[2];
	const struct posting *p;
	size_t i, cost = 0;

	/* controllers set runtime labels whatever the template says */
	if (kvet_runtime_key(r->key))
		return (size_t)-1;
	kv[0] = r->key;
	switch (r->op) {
	case KVET_SEL_EXISTS:
		p = find(idx, ns, TAG_NS_KEY, TAG_KEY, kv, 1);
		return p ? p->n : 0;
	case KVET_SEL_IN:
		for (i = 0; i < r->n_values; i++) {
			if (i && kvet_slice_eq(r->values[i], r->values[i - 1]))
				continue;
			kv[1] = r->values[i];
			p = find(idx, ns, TAG_NS_KV, TAG_KV, kv, 2);
			cost += p ? p->n : 0;
		}
		return cost;
	default:
		return (size_t)-1;
	}
}

static int id_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* Check each id against @sel and report the selected ones. */
static int visit(const struct kvet_label_index *idx, const uint32_t *ids,
		 size_t n, const struct kvet_selector *sel,
		 kvet_workload_fn fn, void *data, size_t *examined)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		const struct kvet_workload *wl = idx->wls[ids[i]];

		(*examined)++;
		if (!kvet_workload_selected_by(wl, sel))
			continue;
		ret = fn(data, wl);
		if (ret)
			return ret;
	}
	return 0;
}

/* Every workload in scope, for EVERYTHING and unindexable selectors. */
static int scan(const struct kvet_label_index *idx, const char *ns,
		const struct kvet_selector *sel, kvet_workload_fn fn,
		void *data, size_t *examined)
{
	const struct posting *p;
	size_t i;
	int ret;

	if (ns) {
		p = find(idx, ns, TAG_NS, TAG_NS, NULL, 0);
		return p ? visit(idx, p->ids, p->n, sel, fn, data, examined) : 0;
	}
	for (i = 0; i < idx->n; i++) {
		uint32_t id = (uint32_t)i;

		ret = visit(idx, &id, 1, sel, fn, data, examined);
		if (ret)
			return ret;
	}
	return 0;
}

/* An In requirement on several values: merge their postings in order. */
static int visit_in(const struct kvet_label_index *idx, const char *ns,
		    const struct kvet_requirement *r, size_t total,
		    const struct kvet_selector *sel, kvet_workload_fn fn,
		    void *data, size_t *examined)
{
	struct kvet_slice kv[2] = { r->key, { NULL, 0 } };
	const struct posting *p;
	uint32_t *ids;
	size_t i, k = 0;
	int ret;

	if (!total)
		return 0;
	ids = malloc(total * sizeof(*ids));
	if (!ids)
		return -1;
	for (i = 0; i < r->n_values; i++) {
		if (i && kvet_slice_eq(r->values[i], r->values[i - 1]))
			continue;
		kv[1] = r->values[i];
		p = find(idx, ns, TAG_NS_KV, TAG_KV, kv, 2);
		if (p && p->n) {
			memcpy(ids + k, p->ids, p->n * sizeof(*ids));
			k += p->n;
		}
	}
	/* one value per key and workload: the lists are disjoint */
	qsort(ids, k, sizeof(*ids), id_cmp);
	ret = visit(idx, ids, k, sel, fn, data, examined);
	free(ids);
	return ret;
}

int kvet_label_index_select(const struct kvet_label_index *idx,
			    const char *ns, const struct kvet_selector *sel,
			    kvet_workload_fn fn, void *data, size_t *examined)
{
	const struct kvet_requirement *best = NULL;
	size_t best_cost = (size_t)-1, i, count = 0;
	struct kvet_slice kv[2];
	const struct posting *p;
	int ret;

	if (!examined)
		examined = &count;
	*examined = 0;
	if (sel->meaning == KVET_SEL_EVERYTHING)
		return scan(idx, ns, sel, fn, data, examined);
	if (sel->meaning != KVET_SEL_MATCH)
		return 0;
	for (i = 0; i < sel->n_reqs; i++) {
		size_t cost = req_cost(idx, ns, &sel->reqs[i]);

		if (cost < best_cost) {
			best = &sel->reqs[i];
			best_cost = cost;
		}
	}
	if (!best)
		return scan(idx, ns, sel, fn, data, examined);
	kv[0] = best->key;
	if (best->op == KVET_SEL_EXISTS) {
		p = find(idx, ns, TAG_NS_KEY, TAG_KEY, kv, 1);
		return p ? visit(idx, p->ids, p->n, sel, fn, data, examined) : 0;
	}
	if (best->n_values == 1) {
		kv[1] = best->values[0];
		p = find(idx, ns, TAG_NS_KV, TAG_KV, kv, 2);
		return p ? visit(idx, p->ids, p->n, sel, fn, data, examined) : 0;
	}
	ret = visit_in(idx, ns, best, best_cost, sel, fn, data, examined);
	return ret;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scheduling terms of the pods: required pod affinity and
 * anti-affinity terms and DoNotSchedule topology spread constraints. The
 * pods of one workload share each term, and equal terms are one: those a
 * workload or a pod repeats (100,000 aliases of one anchor are one term),
 * and those of pods without a controller in one namespace. Per node, a
 * term counts the running pods its selector matches (when any does) and,
 * for anti-affinity, the ones that carry it, so that the filters read
 * counts instead of comparing pods. Those counts are bounded
 * (DRAIN_MAX_TERM_CELLS): beyond, the drain is refused, with the numbers.
 */
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "drain/keys.h"
#include "drain/relate.h"
#include "model/hash.h"

struct build {
	struct drain_cluster *c;
	const struct drain_pod_index *idx;
	struct kvet_hash groups;	/* (workload, kind, index) -> id + 1 */
	struct kvet_hash equal;		/* (owner, kind, identity) -> id + 1 */
	struct drain_term *v;
	size_t n, cap;
	struct drain_pairs own, match;
	struct kvet_strbuf text;	/* a term's identity, for equal */
};

static struct kvet_slice bytes_of(const void *p, size_t len)
{
	struct kvet_slice s = { p, len };

	return s;
}

/* The incoming pod whose labels matchLabelKeys and mismatchLabelKeys
 * read: a pod of the dump or of the pool, labels as it carries them. */
static struct kvet_term_pod incoming(const struct drain_pod *pod)
{
	struct kvet_term_pod in = { &pod->labels, NULL, pod->wl };

	return in;
}

/* A new term, read from pod @p: its id, or DRAIN_NONE. */
static uint32_t new_term(struct build *b, uint32_t p,
			 const struct kvet_term_ref *ref)
{
	struct drain_cluster *c = b->c;
	struct kvet_term_pod in = incoming(&c->pods[p]);
	struct drain_term *t;

	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct drain_term *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return DRAIN_NONE;
		b->v = v;
		b->cap = cap;
	}
	if (b->n >= DRAIN_NONE - 1)
		return DRAIN_NONE;
	t = &b->v[b->n];
	memset(t, 0, sizeof(*t));
	t->ns = c->pods[p].ns;
	if (kvet_term_parse(c->arena, ref, &in, &t->t) < 0)
		return DRAIN_NONE;
	t->key = drain_key_intern(c, t->t.topology_key);
	if (t->key == DRAIN_NONE)
		return DRAIN_NONE;
	return (uint32_t)b->n++;
}

/*
 * The term @ref of pod @p. A workload's pods share its terms by index
 * (the first pod's are the workload's); among the terms of one workload,
 * or of the pods without a controller of one namespace, equal ones are
 * one.
 */
static int add_term(struct build *b, uint32_t p,
		    const struct kvet_term_ref *ref)
{
	const struct drain_pod *pod = &b->c->pods[p];
	const void *wl = pod->wl;
	struct kvet_term_pod in = incoming(pod);
	struct kvet_slice group[3] = {
		bytes_of(&wl, sizeof(wl)),
		bytes_of(&ref->kind, sizeof(ref->kind)),
		bytes_of(&ref->index, sizeof(ref->index)),
	};
	struct kvet_slice equal[4] = {
		bytes_of(&wl, sizeof(wl)),
		kvet_slice_of(wl ? "" : pod->ns),
		bytes_of(&ref->kind, sizeof(ref->kind)),
	};
	void **slot = NULL, **same;
	uint32_t id;
	bool created;

	if (wl) {
		slot = kvet_hash_put(&b->groups, group, 3, &created);
		if (!slot)
			return -1;
		if (!created) {
			id = (uint32_t)((uintptr_t)*slot - 1);
			drain_pairs_add(&b->own, p, id);
			return 0;
		}
	}
	b->text.len = 0;
	if (kvet_term_identity(&b->text, b->c->arena, ref, &in) < 0)
		return -1;
	equal[3] = bytes_of(b->text.buf, b->text.len);
	same = kvet_hash_put(&b->equal, equal, 4, &created);
	if (!same)
		return -1;
	if (created) {
		id = new_term(b, p, ref);
		if (id == DRAIN_NONE)
			return -1;
		*same = (void *)(uintptr_t)(id + 1);
	}
	id = (uint32_t)((uintptr_t)*same - 1);
	if (slot)
		*slot = (void *)(uintptr_t)(id + 1);
	drain_pairs_add(&b->own, p, id);
	return 0;
}

/* The terms the scheduler's filters enforce: ScheduleAnyway constraints
 * and preferred terms only score. */
static int pod_terms(struct build *b, uint32_t p)
{
	struct kvet_term_iter it;
	struct kvet_term_ref ref;

	kvet_term_iter_init(&it, b->c->pods[p].spec, KVET_TERMS_SCHEDULING);
	while (kvet_term_iter_next(&it, &ref))
		if (ref.filters && add_term(b, p, &ref) < 0)
			return -1;
	return 0;
}

struct match_ctx {
	struct build *b;
	uint32_t term;
	bool any;
};

static int add_match(void *data, uint32_t pod)
{
	struct match_ctx *m = data;

	drain_pairs_add(&m->b->match, pod, m->term);
	m->any = true;
	return 0;
}

/* Every pod the term's merged selector matches, in the term's
 * namespaces; whether there is any. */
static bool term_matches(struct build *b, uint32_t t)
{
	const struct drain_term *term = &b->v[t];
	const struct kvet_term *kt = &term->t;
	const struct kvet_namespace *const *nss;
	struct match_ctx m = { b, t, false };
	size_t i, n;
	char *ns;
	enum kvet_match r;

	if (kt->scope_own) {
		drain_pod_index_select(b->idx, b->c, term->ns, &kt->merged,
				       add_match, &m);
		return m.any;
	}
	for (i = 0; i < kt->n_namespaces; i++) {
		ns = kvet_arena_strndup(b->c->arena, kt->namespaces[i].s,
					kt->namespaces[i].len);
		if (ns)
			drain_pod_index_select(b->idx, b->c, ns, &kt->merged,
					       add_match, &m);
	}
	if (kt->ns_selector.meaning == KVET_SEL_NOTHING)
		return m.any;
	nss = kvet_graph_namespaces(b->c->g, &n);
	for (i = 0; i < n; i++) {
		r = kvet_graph_match_namespace(b->c->g, &kt->ns_selector,
					       nss[i]->name);
		if (r != KVET_MATCH_TRUE && r != KVET_MATCH_ASSUMED_TRUE)
			continue;
		/* listed and selected: once */
		if (kvet_sorted_find(kt->namespaces, kt->n_namespaces,
				     sizeof(*kt->namespaces),
				     kvet_slice_of(nss[i]->name)) <
		    kt->n_namespaces)
			continue;
		drain_pod_index_select(b->idx, b->c, nss[i]->name,
				       &kt->merged, add_match, &m);
	}
	return m.any;
}

/*
 * The per-node counts of the terms: a term no pod matches needs no
 * match counts, and only anti-affinity reads its carriers (the symmetry
 * of existing pods' terms). Beyond DRAIN_MAX_TERM_CELLS the drain is
 * refused (c->refused), not simulated with some terms left out.
 */
static int size_counts(struct build *b, const bool *matched)
{
	struct drain_cluster *c = b->c;
	uint64_t cells = 0, per = (uint64_t)c->cap_nodes + 1;
	size_t t;

	for (t = 0; t < b->n; t++)
		cells += per * ((matched[t] ? 1 : 0) +
				(b->v[t].t.kind ==
				 KVET_TERM_REQUIRED_ANTI_AFFINITY));
	if (cells > DRAIN_MAX_TERM_CELLS) {
		c->refused = kvet_arena_printf(c->arena,
			"the pods' required pod (anti-)affinity terms and DoNotSchedule topology spread constraints need %llu counts (%zu distinct terms over %u nodes), more than the limit of %u: the drain is not simulated",
			(unsigned long long)cells, b->n, c->n_nodes,
			(unsigned)DRAIN_MAX_TERM_CELLS);
		return c->refused ? 0 : -1;
	}
	for (t = 0; t < b->n; t++) {
		struct drain_term *term = &b->v[t];

		if (matched[t]) {
			term->match = kvet_arena_array(c->arena, per,
						       sizeof(*term->match));
			if (!term->match)
				return -1;
		}
		if (term->t.kind == KVET_TERM_REQUIRED_ANTI_AFFINITY) {
			term->own = kvet_arena_array(c->arena, per,
						     sizeof(*term->own));
			if (!term->own)
				return -1;
		}
	}
	return 0;
}

/* The counts of the dump's pods on their nodes. */
static void count(struct drain_cluster *c)
{
	uint32_t p, i, n;

	for (p = 0; p < c->n_pods; p++) {
		const struct drain_pod *pod = &c->pods[p];

		n = pod->node;
		if (n == DRAIN_NONE || kvet_pod_phase_terminal(pod->phase))
			continue;
		for (i = 0; i < pod->n_match_terms; i++) {
			c->terms[pod->match_terms[i]].match[n]++;
			c->terms[pod->match_terms[i]].match_total++;
		}
		for (i = 0; i < pod->n_own_terms; i++)
			if (c->terms[pod->own_terms[i]].own)
				c->terms[pod->own_terms[i]].own[n]++;
	}
}

int drain_terms_build(struct drain_cluster *c,
		      const struct drain_pod_index *idx)
{
	struct build b;
	bool *matched = NULL;
	uint32_t p, t;
	int ret = -1;

	memset(&b, 0, sizeof(b));
	b.c = c;
	b.idx = idx;
	kvet_hash_init(&b.groups, c->arena);
	kvet_hash_init(&b.equal, c->arena);
	for (p = 0; p < c->n_pods; p++)
		if (pod_terms(&b, p) < 0)
			goto out;
	matched = calloc(b.n + 1, sizeof(*matched));
	if (!matched)
		goto out;
	for (t = 0; t < b.n; t++)
		matched[t] = term_matches(&b, (uint32_t)t);
	if (size_counts(&b, matched) < 0)
		goto out;
	if (c->refused) {
		ret = 0;
		goto out;
	}
	c->terms = kvet_arena_array(c->arena, b.n + 1, sizeof(*c->terms));
	if (!c->terms)
		goto out;
	if (b.n)
		memcpy(c->terms, b.v, b.n * sizeof(*c->terms));
	c->n_terms = (uint32_t)b.n;
	if (drain_pairs_finish(c, &b.own, offsetof(struct drain_pod, own_terms),
			       offsetof(struct drain_pod, n_own_terms)) < 0 ||
	    drain_pairs_finish(c, &b.match,
			       offsetof(struct drain_pod, match_terms),
			       offsetof(struct drain_pod, n_match_terms)) < 0)
		goto out;
	count(c);
	ret = 0;
out:
	free(matched);
	free(b.own.v);
	free(b.match.v);
	free(b.v);
	kvet_strbuf_release(&b.text);
	kvet_hash_release(&b.groups);
	kvet_hash_release(&b.equal);
	return ret;
}

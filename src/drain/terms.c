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
	struct kvet_hash equal;		/* (owner, kind, text) -> id + 1 */
	struct drain_term *v;
	size_t n, cap;
	struct drain_pairs own, match;
	unsigned char *text;		/* a term's text, for equal */
	size_t n_text, cap_text;
	bool oom;
};

static struct kvet_slice bytes_of(const void *p, size_t len)
{
	struct kvet_slice s = { p, len };

	return s;
}

/*
 * labelSelector AND key In [the owner's value] for every matchLabelKeys
 * key the owner carries (the API server merges them at pod creation).
 */
static int merge_keys(struct kvet_arena *arena, struct kvet_selector *sel,
		      const struct kvet_node *keys,
		      const struct kvet_labels *labels)
{
	struct kvet_requirement *reqs;
	struct kvet_slice k, *val;
	size_t n = 0;
	uint32_t i;

	if (!kvet_node_is_seq(keys) || !keys->len ||
	    (sel->meaning != KVET_SEL_MATCH &&
	     sel->meaning != KVET_SEL_EVERYTHING))
		return 0;
	reqs = kvet_arena_array(arena, sel->n_reqs + keys->len, sizeof(*reqs));
	if (!reqs)
		return -1;
	memcpy(reqs, sel->reqs, sel->n_reqs * sizeof(*reqs));
	n = sel->n_reqs;
	for (i = 0; i < keys->len; i++) {
		val = kvet_arena_alloc(arena, sizeof(*val));
		if (!val)
			return -1;
		if (!kvet_node_slice(&keys->u.items[i], &k) ||
		    !kvet_labels_get(labels, k, val))
			continue;
		reqs[n].key = k;
		reqs[n].op = KVET_SEL_IN;
		reqs[n].values = val;
		reqs[n].n_values = 1;
		reqs[n].node = &keys->u.items[i];
		n++;
	}
	if (n > sel->n_reqs) {
		sel->reqs = reqs;
		sel->n_reqs = n;
		sel->meaning = KVET_SEL_MATCH;
		sel->form = KVET_SEL_FORM_REQUIREMENTS;
	}
	return 0;
}

static int read_namespaces(struct kvet_arena *arena, struct drain_term *t,
			   const struct kvet_node *term)
{
	const struct kvet_node *nss = kvet_node_get(term, "namespaces");
	const struct kvet_node *nsel = kvet_node_get(term, "namespaceSelector");
	struct kvet_slice *v;
	uint32_t i;

	if (kvet_selector_parse(arena, nsel, KVET_SEL_FIELD_AFFINITY_NS,
				&t->ns_sel) < 0)
		return -1;
	if (kvet_node_is_seq(nss) && nss->len) {
		v = kvet_arena_array(arena, nss->len, sizeof(*v));
		if (!v)
			return -1;
		for (i = 0; i < nss->len; i++)
			if (kvet_node_slice(&nss->u.items[i], &v[t->n_namespaces]))
				t->n_namespaces++;
		t->namespaces = v;
	}
	t->own_ns = !t->n_namespaces && kvet_node_is_null(nsel);
	return 0;
}

static int read_term(struct build *b, struct drain_term *t,
		     enum drain_term_kind kind, const struct kvet_node *term,
		     const struct drain_pod *owner)
{
	struct drain_cluster *c = b->c;
	struct kvet_slice key = { "", 0 };
	long long v;

	memset(t, 0, sizeof(*t));
	t->kind = kind;
	t->node = term;
	t->ns = owner->ns;
	if (kvet_selector_parse(c->arena, kvet_node_get(term, "labelSelector"),
				kind == DRAIN_TERM_SPREAD
					? KVET_SEL_FIELD_SPREAD
					: KVET_SEL_FIELD_AFFINITY_TERM,
				&t->sel) < 0 ||
	    merge_keys(c->arena, &t->sel, kvet_node_get(term, "matchLabelKeys"),
		       &owner->labels) < 0)
		return -1;
	if (kind == DRAIN_TERM_SPREAD) {
		t->own_ns = true;
		t->max_skew = kvet_node_int(kvet_node_get(term, "maxSkew"), &v)
				      ? v : 1;
		t->min_domains = kvet_node_int(kvet_node_get(term, "minDomains"),
					       &v) ? v : 1;
		t->honor_affinity = !kvet_node_eq(
			kvet_node_get(term, "nodeAffinityPolicy"), "Ignore");
		t->honor_taints = kvet_node_eq(
			kvet_node_get(term, "nodeTaintsPolicy"), "Honor");
	} else if (read_namespaces(c->arena, t, term) < 0) {
		return -1;
	}
	kvet_node_slice(kvet_node_get(term, "topologyKey"), &key);
	t->key = drain_key_intern(c, key);
	return t->key == DRAIN_NONE ? -1 : 0;
}

static void put_bytes(struct build *b, const void *p, size_t len)
{
	if (!kvet_vec_grow((void **)&b->text, &b->cap_text, b->n_text + len,
			   1)) {
		b->oom = true;
		return;
	}
	if (len)
		memcpy(b->text + b->n_text, p, len);
	b->n_text += len;
}

/* @n's shape, types and text, positions aside: equal terms are equal
 * bytes. Depth is the loader's (at most 256). */
static void put_node(struct build *b, const struct kvet_node *n)
{
	unsigned char type = n ? n->type : KVET_NODE_NULL;
	uint32_t len = n ? n->len : 0, i;

	if (n && (n->flags & KVET_NODE_INVALID))
		type |= 0x80;
	put_bytes(b, &type, 1);
	put_bytes(b, &len, sizeof(len));
	if (!n || !len)
		return;
	if (n->type == KVET_NODE_SEQ) {
		for (i = 0; i < len; i++)
			put_node(b, &n->u.items[i]);
	} else if (n->type == KVET_NODE_MAP) {
		for (i = 0; i < len; i++) {
			put_node(b, &n->u.pairs[i].key);
			put_node(b, &n->u.pairs[i].value);
		}
	} else {
		put_bytes(b, n->u.str, len);
	}
}

/* The text of @term for pod @pod: the term, then the pod's values of its
 * matchLabelKeys, which the API server merges into its selector. */
static struct kvet_slice term_text(struct build *b,
				   const struct kvet_node *term,
				   const struct drain_pod *pod)
{
	const struct kvet_node *keys = kvet_node_get(term, "matchLabelKeys");
	struct kvet_slice k, val, none = { "", 0 };
	unsigned char has;
	uint32_t i;

	b->n_text = 0;
	put_node(b, term);
	for (i = 0; kvet_node_is_seq(keys) && i < keys->len; i++) {
		val = none;
		has = kvet_node_slice(&keys->u.items[i], &k) &&
		      kvet_labels_get(&pod->labels, k, &val);
		put_bytes(b, &has, 1);
		put_bytes(b, &val.len, sizeof(val.len));
		put_bytes(b, val.s, val.len);
	}
	return bytes_of(b->text, b->n_text);
}

/* A new term, read from pod @p: its id, or DRAIN_NONE. */
static uint32_t new_term(struct build *b, uint32_t p, enum drain_term_kind kind,
			 const struct kvet_node *term)
{
	if (b->n == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 16;
		struct drain_term *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return DRAIN_NONE;
		b->v = v;
		b->cap = cap;
	}
	if (b->n >= DRAIN_NONE - 1 ||
	    read_term(b, &b->v[b->n], kind, term, &b->c->pods[p]) < 0)
		return DRAIN_NONE;
	return (uint32_t)b->n++;
}

/*
 * The term @index of @kind of pod @p. A workload's pods share its terms
 * by index (the first pod's are the workload's); among the terms of one
 * workload, or of the pods without a controller of one namespace, equal
 * ones are one.
 */
static int add_term(struct build *b, uint32_t p, enum drain_term_kind kind,
		    uint32_t index, const struct kvet_node *term)
{
	const struct drain_pod *pod = &b->c->pods[p];
	const void *wl = pod->wl;
	struct kvet_slice group[3] = {
		bytes_of(&wl, sizeof(wl)),
		bytes_of(&kind, sizeof(kind)),
		bytes_of(&index, sizeof(index)),
	};
	struct kvet_slice equal[4] = {
		bytes_of(&wl, sizeof(wl)),
		kvet_slice_of(wl ? "" : pod->ns),
		bytes_of(&kind, sizeof(kind)),
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
	equal[3] = term_text(b, term, pod);
	if (b->oom)
		return -1;
	same = kvet_hash_put(&b->equal, equal, 4, &created);
	if (!same)
		return -1;
	if (created) {
		id = new_term(b, p, kind, term);
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

static int add_list(struct build *b, uint32_t p, enum drain_term_kind kind,
		    const struct kvet_node *list, bool spread)
{
	uint32_t i;

	for (i = 0; kvet_node_is_seq(list) && i < list->len; i++) {
		const struct kvet_node *t = &list->u.items[i];

		if (!kvet_node_is_map(t))
			continue;
		/* ScheduleAnyway constraints only score */
		if (spread && kvet_node_eq(kvet_node_get(t, "whenUnsatisfiable"),
					   "ScheduleAnyway"))
			continue;
		if (add_term(b, p, kind, i, t) < 0)
			return -1;
	}
	return 0;
}

static int pod_terms(struct build *b, uint32_t p)
{
	const struct kvet_node *spec = b->c->pods[p].spec;
	const struct kvet_node *aff = kvet_node_get(spec, "affinity");
	const char *req = "requiredDuringSchedulingIgnoredDuringExecution";

	return add_list(b, p, DRAIN_TERM_AFFINITY,
			kvet_node_path(aff, "podAffinity", req, NULL), false) ||
	       add_list(b, p, DRAIN_TERM_ANTI_AFFINITY,
			kvet_node_path(aff, "podAntiAffinity", req, NULL),
			false) ||
	       add_list(b, p, DRAIN_TERM_SPREAD,
			kvet_node_get(spec, "topologySpreadConstraints"), true)
		       ? -1 : 0;
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

/* Every pod the term's selector matches, in the term's namespaces;
 * whether there is any. */
static bool term_matches(struct build *b, uint32_t t)
{
	const struct drain_term *term = &b->v[t];
	const struct kvet_namespace *const *nss;
	struct match_ctx m = { b, t, false };
	size_t i, n;
	char *ns;
	enum kvet_match r;

	if (term->own_ns) {
		drain_pod_index_select(b->idx, b->c, term->ns, &term->sel,
				       add_match, &m);
		return m.any;
	}
	for (i = 0; i < term->n_namespaces; i++) {
		ns = kvet_arena_strndup(b->c->arena, term->namespaces[i].s,
					term->namespaces[i].len);
		if (ns)
			drain_pod_index_select(b->idx, b->c, ns, &term->sel,
					       add_match, &m);
	}
	if (term->ns_sel.meaning == KVET_SEL_NOTHING)
		return m.any;
	nss = kvet_graph_namespaces(b->c->g, &n);
	for (i = 0; i < n; i++) {
		r = kvet_graph_match_namespace(b->c->g, &term->ns_sel,
					       nss[i]->name);
		if (r != KVET_MATCH_TRUE && r != KVET_MATCH_ASSUMED_TRUE)
			continue;
		/* listed and selected: once */
		if (term->n_namespaces) {
			size_t j;
			bool listed = false;

			for (j = 0; j < term->n_namespaces; j++)
				listed |= kvet_slice_eq0(term->namespaces[j],
							 nss[i]->name);
			if (listed)
				continue;
		}
		drain_pod_index_select(b->idx, b->c, nss[i]->name, &term->sel,
				       add_match, &m);
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
				(b->v[t].kind == DRAIN_TERM_ANTI_AFFINITY));
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
		if (term->kind == DRAIN_TERM_ANTI_AFFINITY) {
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
	free(b.text);
	kvet_hash_release(&b.groups);
	kvet_hash_release(&b.equal);
	return ret;
}

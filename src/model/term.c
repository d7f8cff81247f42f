/* SPDX-License-Identifier: Apache-2.0 */
#include "model/term.h"

#include <stdlib.h>
#include <string.h>

const char *kvet_term_kind_name(enum kvet_term_kind kind)
{
	switch (kind) {
	case KVET_TERM_REQUIRED_ANTI_AFFINITY:
		return "required pod anti-affinity term";
	case KVET_TERM_PREFERRED_ANTI_AFFINITY:
		return "preferred pod anti-affinity term";
	case KVET_TERM_SPREAD_CONSTRAINT:
		return "topology spread constraint";
	case KVET_TERM_REQUIRED_AFFINITY:
		return "required pod affinity term";
	}
	return "?";
}

bool kvet_term_is_anti_affinity(const struct kvet_term *t)
{
	return t->kind == KVET_TERM_REQUIRED_ANTI_AFFINITY ||
	       t->kind == KVET_TERM_PREFERRED_ANTI_AFFINITY;
}

/* ---- the lists of a pod spec ---- */

static const char *const required =
	"requiredDuringSchedulingIgnoredDuringExecution";

void kvet_term_iter_init(struct kvet_term_iter *it,
			 const struct kvet_node *pod_spec, unsigned kinds)
{
	const struct kvet_node *aff = kvet_node_get(pod_spec, "affinity");
	const struct kvet_node *anti = kvet_node_get(aff, "podAntiAffinity");
	const struct {
		enum kvet_term_kind kind;
		const struct kvet_node *list;
	} lists[] = {
		{ KVET_TERM_REQUIRED_AFFINITY,
		  kvet_node_path(aff, "podAffinity", required, NULL) },
		{ KVET_TERM_REQUIRED_ANTI_AFFINITY,
		  kvet_node_get(anti, required) },
		{ KVET_TERM_PREFERRED_ANTI_AFFINITY,
		  kvet_node_get(anti,
				"preferredDuringSchedulingIgnoredDuringExecution") },
		{ KVET_TERM_SPREAD_CONSTRAINT,
		  kvet_node_get(pod_spec, "topologySpreadConstraints") },
	};
	size_t i;

	memset(it, 0, sizeof(*it));
	_Static_assert(sizeof(lists) / sizeof(lists[0]) == KVET_TERM_LISTS,
		       "one list per term kind");
	for (i = 0; i < KVET_TERM_LISTS; i++) {
		it->kind[i] = lists[i].kind;
		if ((kinds & (1u << lists[i].kind)) &&
		    kvet_node_is_seq(lists[i].list))
			it->list[i] = lists[i].list;
	}
}

size_t kvet_term_iter_bound(const struct kvet_term_iter *it)
{
	size_t i, n = 0;

	for (i = 0; i < KVET_TERM_LISTS; i++)
		n += it->list[i] ? it->list[i]->len : 0;
	return n;
}

bool kvet_term_iter_next(struct kvet_term_iter *it, struct kvet_term_ref *out)
{
	for (; it->at < KVET_TERM_LISTS; it->at++, it->i = 0) {
		const struct kvet_node *list = it->list[it->at];

		while (list && it->i < list->len) {
			const struct kvet_node *e = &list->u.items[it->i++];
			const struct kvet_node *term = e;

			out->kind = it->kind[it->at];
			out->index = it->i - 1;
			out->entry = e;
			out->filters = true;
			if (out->kind == KVET_TERM_PREFERRED_ANTI_AFFINITY) {
				term = kvet_node_get(e, "podAffinityTerm");
				out->filters = false;
			} else if (out->kind == KVET_TERM_SPREAD_CONSTRAINT) {
				/* ScheduleAnyway constraints only score */
				out->filters = !kvet_node_eq(
					kvet_node_get(e, "whenUnsatisfiable"),
					"ScheduleAnyway");
			}
			if (!kvet_node_is_map(term))
				continue;
			out->node = term;
			return true;
		}
	}
	return false;
}

/* ---- one term ---- */

static int slice_qcmp(const void *a, const void *b)
{
	return kvet_slice_cmp(*(const struct kvet_slice *)a,
			      *(const struct kvet_slice *)b);
}

/* The incoming pod's value of @key: 1 when it carries @key, 0 when not,
 * -1 when out of memory. */
static int incoming_value(struct kvet_arena *arena,
			  const struct kvet_term_pod *pod, struct kvet_slice key,
			  struct kvet_slice *out)
{
	int ret;

	if (pod->rt) {
		ret = kvet_runtime_value(arena, pod->rt, key, out);
		if (ret)
			return ret;
	}
	return kvet_labels_get(pod->labels, key, out) ? 1 : 0;
}

static int add_key_reqs(struct kvet_arena *arena,
			const struct kvet_term_pod *pod,
			const struct kvet_node *keys, enum kvet_sel_op op,
			struct kvet_requirement *reqs, size_t *n)
{
	uint32_t i;

	for (i = 0; kvet_node_is_seq(keys) && i < keys->len; i++) {
		const struct kvet_node *k = &keys->u.items[i];
		struct kvet_requirement *r = &reqs[*n];
		struct kvet_slice *v;
		int ret;

		if (!kvet_node_is_string(k))
			continue;
		v = kvet_arena_alloc(arena, sizeof(*v));
		if (!v)
			return -1;
		ret = incoming_value(arena, pod, kvet_string_of(k), v);
		if (ret < 0)
			return -1;
		/* "keys that don't exist in the incoming pod labels will be
		 * ignored" (PodAffinityTerm.matchLabelKeys) */
		if (!ret)
			continue;
		r->key = kvet_string_of(k);
		r->op = op;
		r->values = v;
		r->n_values = 1;
		r->node = k;
		(*n)++;
	}
	return 0;
}

/*
 * docs/model.md 1.8: the API server appends one requirement per key to the term's
 * labelSelector when it creates the pod, so this is what the scheduler
 * evaluates. A null or invalid labelSelector stays as it is: the keys
 * are only allowed together with a selector.
 */
static int build_merged(struct kvet_arena *arena,
			const struct kvet_term_pod *pod, struct kvet_term *t)
{
	const struct kvet_selector *sel = &t->selector;
	struct kvet_requirement *reqs;
	size_t cap, n;

	t->merged = *sel;
	if (sel->meaning != KVET_SEL_MATCH &&
	    sel->meaning != KVET_SEL_EVERYTHING)
		return 0;
	cap = sel->n_reqs +
	      (kvet_node_is_seq(t->match_label_keys) ?
	       t->match_label_keys->len : 0) +
	      (kvet_node_is_seq(t->mismatch_label_keys) ?
	       t->mismatch_label_keys->len : 0);
	if (cap == sel->n_reqs)
		return 0;
	reqs = kvet_arena_array(arena, cap, sizeof(*reqs));
	if (!reqs)
		return -1;
	if (sel->n_reqs)
		memcpy(reqs, sel->reqs, sel->n_reqs * sizeof(*reqs));
	n = sel->n_reqs;
	if (add_key_reqs(arena, pod, t->match_label_keys, KVET_SEL_IN, reqs,
			 &n) ||
	    add_key_reqs(arena, pod, t->mismatch_label_keys, KVET_SEL_NOT_IN,
			 reqs, &n))
		return -1;
	if (n == sel->n_reqs)
		return 0;
	t->merged.reqs = reqs;
	t->merged.n_reqs = n;
	t->merged.meaning = KVET_SEL_MATCH;
	t->merged.form = KVET_SEL_FORM_REQUIREMENTS;
	return 0;
}

static int parse_namespaces(struct kvet_arena *arena, struct kvet_term *t,
			    const struct kvet_node *list)
{
	struct kvet_slice *v;
	size_t i, n = 0, k = 0;

	if (!kvet_node_is_seq(list) || !list->len)
		return 0;
	v = kvet_arena_array(arena, list->len, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < list->len; i++)
		if (kvet_node_is_string(&list->u.items[i]))
			v[n++] = kvet_string_of(&list->u.items[i]);
	qsort(v, n, sizeof(*v), slice_qcmp);
	for (i = 0; i < n; i++)
		if (!k || !kvet_slice_eq(v[i], v[k - 1]))
			v[k++] = v[i];
	t->namespaces = v;
	t->n_namespaces = k;
	return 0;
}

/* maxSkew and minDomains: 1 when absent or not an integer, as the
 * scheduler would not run a pod whose API validation failed anyway */
static int64_t count_or_one(const struct kvet_node *n)
{
	long long v;

	return kvet_node_int(n, &v) ? v : 1;
}

static void read_spread(struct kvet_term *t)
{
	const struct kvet_node *n = t->node;

	t->max_skew = count_or_one(kvet_node_get(n, "maxSkew"));
	t->min_domains = count_or_one(kvet_node_get(n, "minDomains"));
	/* PodTopologySpread: nodeAffinityPolicy defaults to Honor,
	 * nodeTaintsPolicy to Ignore */
	t->honor_affinity = !kvet_node_eq(kvet_node_get(n, "nodeAffinityPolicy"),
					  "Ignore");
	t->honor_taints = kvet_node_eq(kvet_node_get(n, "nodeTaintsPolicy"),
				       "Honor");
}

int kvet_term_parse(struct kvet_arena *arena, const struct kvet_term_ref *ref,
		    const struct kvet_term_pod *pod, struct kvet_term *t)
{
	const struct kvet_node *n = ref->node;
	bool spread = ref->kind == KVET_TERM_SPREAD_CONSTRAINT;

	memset(t, 0, sizeof(*t));
	t->kind = ref->kind;
	t->wl = pod->wl;
	t->index = ref->index;
	t->entry = ref->entry;
	t->node = n;
	t->filters = ref->filters;
	t->max_skew = t->min_domains = 1;
	t->topology_key_node = kvet_node_get(n, "topologyKey");
	t->topology_key = kvet_string_of(t->topology_key_node);
	t->match_label_keys = kvet_node_get(n, "matchLabelKeys");
	if (!spread)
		t->mismatch_label_keys = kvet_node_get(n, "mismatchLabelKeys");
	if (kvet_selector_parse(arena, kvet_node_get(n, "labelSelector"),
				spread ? KVET_SEL_FIELD_SPREAD :
					 KVET_SEL_FIELD_AFFINITY_TERM,
				&t->selector) ||
	    build_merged(arena, pod, t))
		return -1;
	if (spread) {
		read_spread(t);
		t->scope_own = true;
		t->ns_selector.meaning = KVET_SEL_NOTHING;
		return 0;
	}
	if (parse_namespaces(arena, t, kvet_node_get(n, "namespaces")) ||
	    kvet_selector_parse(arena, kvet_node_get(n, "namespaceSelector"),
				KVET_SEL_FIELD_AFFINITY_NS, &t->ns_selector))
		return -1;
	t->scope_own = !t->n_namespaces &&
		       t->ns_selector.form == KVET_SEL_FORM_ABSENT;
	return 0;
}

/* ---- the identity of a term ---- */

/* @n's shape, types and text, positions aside: equal terms are equal
 * bytes. Depth is the loader's (at most 256). */
static void put_node(struct kvet_strbuf *sb, const struct kvet_node *n)
{
	unsigned char type = n ? n->type : KVET_NODE_NULL;
	uint32_t len = n ? n->len : 0, i;

	if (n && (n->flags & KVET_NODE_INVALID))
		type |= 0x80;
	kvet_strbuf_add(sb, (const char *)&type, 1);
	kvet_strbuf_add(sb, (const char *)&len, sizeof(len));
	if (!n || !len)
		return;
	if (n->type == KVET_NODE_SEQ) {
		for (i = 0; i < len; i++)
			put_node(sb, &n->u.items[i]);
	} else if (n->type == KVET_NODE_MAP) {
		for (i = 0; i < len; i++) {
			put_node(sb, &n->u.pairs[i].key);
			put_node(sb, &n->u.pairs[i].value);
		}
	} else {
		kvet_strbuf_add(sb, n->u.str, len);
	}
}

static int put_values(struct kvet_strbuf *sb, struct kvet_arena *arena,
		      const struct kvet_term_pod *pod,
		      const struct kvet_node *keys)
{
	struct kvet_slice val;
	unsigned char has;
	uint32_t i;
	int ret;

	for (i = 0; kvet_node_is_seq(keys) && i < keys->len; i++) {
		val.s = "";
		val.len = 0;
		ret = kvet_node_is_string(&keys->u.items[i])
			      ? incoming_value(arena, pod,
					       kvet_string_of(&keys->u.items[i]),
					       &val)
			      : 0;
		if (ret < 0)
			return -1;
		has = (unsigned char)ret;
		kvet_strbuf_add(sb, (const char *)&has, 1);
		kvet_strbuf_add(sb, (const char *)&val.len, sizeof(val.len));
		kvet_strbuf_add(sb, val.s, val.len);
	}
	return 0;
}

int kvet_term_identity(struct kvet_strbuf *sb, struct kvet_arena *arena,
		       const struct kvet_term_ref *ref,
		       const struct kvet_term_pod *pod)
{
	put_node(sb, ref->node);
	if (put_values(sb, arena, pod,
		       kvet_node_get(ref->node, "matchLabelKeys")) < 0 ||
	    (ref->kind != KVET_TERM_SPREAD_CONSTRAINT &&
	     put_values(sb, arena, pod,
			kvet_node_get(ref->node, "mismatchLabelKeys")) < 0))
		return -1;
	return sb->oom ? -1 : 0;
}

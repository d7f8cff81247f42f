/* SPDX-License-Identifier: Apache-2.0 */
#include "model/spread.h"

#include <stdlib.h>
#include <string.h>

/* https://kubernetes.io/docs/reference/labels-annotations-taints/ */
static const char *const spreading_keys[] = {
	"kubernetes.io/hostname",
	"topology.kubernetes.io/zone",
	"topology.kubernetes.io/region",
	"failure-domain.beta.kubernetes.io/zone",
	"failure-domain.beta.kubernetes.io/region",
};

/* Keys that several installations share (rule
 * spread-selector-matches-foreign-pods). */
static const char *const shared_keys[] = {
	"app.kubernetes.io/part-of",
	"app.kubernetes.io/component",
	"app.kubernetes.io/managed-by",
	"app.kubernetes.io/version",
	"helm.sh/chart",
	"control-plane",
	"tier",
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* Is @key one of the @n @keys? Built-in and configured lists alike. */
static bool key_listed(struct kvet_slice key, const char *const *keys,
		       size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (kvet_slice_eq0(key, keys[i]))
			return true;
	return false;
}

static bool sorted_contains(const struct kvet_slice *v, size_t n,
			    struct kvet_slice s)
{
	return kvet_sorted_find(v, n, sizeof(*v), s) < n;
}

int kvet_workload_terms(struct kvet_arena *arena,
			const struct kvet_workload *wl, struct kvet_terms *out)
{
	struct kvet_pod_runtime rt;
	struct kvet_term_pod pod = { &wl->labels, &rt, wl };
	struct kvet_term_iter it;
	struct kvet_term_ref ref;
	struct kvet_term *v;
	size_t cap, n = 0;

	out->v = NULL;
	out->n = 0;
	/* the incoming pod: the first of the current revision */
	kvet_workload_runtime(wl, 0, 0, &rt);
	kvet_term_iter_init(&it, wl->pod_spec, KVET_TERMS_SPREADING);
	cap = kvet_term_iter_bound(&it);
	if (!cap)
		return 0;
	v = kvet_arena_array(arena, cap, sizeof(*v));
	if (!v)
		return -1;
	while (kvet_term_iter_next(&it, &ref))
		if (kvet_term_parse(arena, &ref, &pod, &v[n++]))
			return -1;
	out->v = v;
	out->n = n;
	return 0;
}

/*
 * Does the merged selector match a sibling of revision @rev (0: the same
 * as the incoming pod's)? Labels only; the scope is the callers'.
 */
static bool labels_match_sibling(const struct kvet_term *t, uint32_t rev)
{
	struct kvet_pod_runtime rt;

	/* the incoming pod is ordinal 0; the sibling it meets is 1 */
	kvet_workload_runtime(t->wl, rev, 1, &rt);
	return kvet_selector_matches(&t->merged, &t->wl->labels, &rt);
}

/*
 * 1.8: a term whose scope leaves out its own namespace (namespaces: [bar]
 * on a workload in foo) never counts or repels its own replicas, however
 * its labels read. An ASSUMED-TRUE scope counts, as for effective terms.
 */
static bool scope_has_own(const struct kvet_graph *g, const struct kvet_term *t)
{
	return kvet_match_is_true(
		kvet_term_scope_includes(g, t, t->wl->obj->namespace));
}

bool kvet_term_selector_matches_siblings(const struct kvet_term *t)
{
	return labels_match_sibling(t, 0);
}

bool kvet_term_matches_siblings(const struct kvet_graph *g,
				const struct kvet_term *t)
{
	return labels_match_sibling(t, 0) && scope_has_own(g, t);
}

bool kvet_term_matches_siblings_across_revisions(const struct kvet_graph *g,
						 const struct kvet_term *t)
{
	return labels_match_sibling(t, 1) && scope_has_own(g, t);
}

bool kvet_spreading_topology_key(const struct kvet_graph *g,
				 struct kvet_slice key)
{
	const struct kvet_name_list *cfg = &kvet_graph_config(g)->spread_keys;

	return (!cfg->replace &&
		key_listed(key, spreading_keys, N_OF(spreading_keys))) ||
	       key_listed(key, cfg->v, cfg->n);
}

enum kvet_match kvet_term_scope_includes(const struct kvet_graph *g,
					 const struct kvet_term *t,
					 const char *ns)
{
	if (t->scope_own)
		return strcmp(ns, t->wl->obj->namespace) == 0 ?
		       KVET_MATCH_TRUE : KVET_MATCH_FALSE;
	if (sorted_contains(t->namespaces, t->n_namespaces, kvet_slice_of(ns)))
		return KVET_MATCH_TRUE;
	/* a null namespaceSelector next to a namespaces list adds nothing */
	if (t->ns_selector.form == KVET_SEL_FORM_ABSENT)
		return KVET_MATCH_FALSE;
	return kvet_graph_match_namespace(g, &t->ns_selector, ns);
}

enum kvet_match kvet_term_effective(const struct kvet_graph *g,
				    const struct kvet_term *t)
{
	if (!labels_match_sibling(t, 0) ||
	    !kvet_spreading_topology_key(g, t->topology_key))
		return KVET_MATCH_FALSE;
	return kvet_term_scope_includes(g, t, t->wl->obj->namespace);
}

struct foreign_walk {
	const struct kvet_graph *g;
	const struct kvet_term *t;
	kvet_term_fn fn;
	void *data;
	bool by_selector;	/* the namespaceSelector pass */
	bool with_own;		/* report the term's own workload too */
};

static int foreign_one(void *data, const struct kvet_workload *wl)
{
	struct foreign_walk *w = data;
	enum kvet_match m = KVET_MATCH_TRUE;

	if (wl == w->t->wl && !w->with_own)
		return 0;
	if (w->by_selector) {
		/* listed namespaces were reported by the first pass */
		if (sorted_contains(w->t->namespaces, w->t->n_namespaces,
				    kvet_slice_of(wl->obj->namespace)))
			return 0;
		m = kvet_graph_match_namespace(w->g, &w->t->ns_selector,
					       wl->obj->namespace);
		if (m == KVET_MATCH_FALSE || m == KVET_MATCH_ASSUMED_FALSE)
			return 0;
	}
	return w->fn(w->data, wl, m);
}

static int term_walk(const struct kvet_graph *g, const struct kvet_term *t,
		     kvet_term_fn fn, void *data, bool with_own)
{
	struct foreign_walk w = { g, t, fn, data, false, with_own };
	char *ns;
	size_t i;
	int ret;

	if (t->scope_own)
		return kvet_graph_select_workloads(g, t->wl->obj->namespace,
						   &t->merged, foreign_one, &w);
	for (i = 0; i < t->n_namespaces; i++) {
		/* the index takes NUL-terminated names */
		ns = malloc(t->namespaces[i].len + 1);
		if (!ns)
			return -1;
		memcpy(ns, t->namespaces[i].s, t->namespaces[i].len);
		ns[t->namespaces[i].len] = '\0';
		ret = kvet_graph_select_workloads(g, ns, &t->merged,
						  foreign_one, &w);
		free(ns);
		if (ret)
			return ret;
	}
	if (t->ns_selector.form == KVET_SEL_FORM_ABSENT)
		return 0;
	/*
	 * One walk over every namespace through the label index, filtered
	 * by the namespaceSelector, rather than one walk per namespace.
	 */
	w.by_selector = true;
	return kvet_graph_select_workloads(g, NULL, &t->merged, foreign_one,
					   &w);
}

int kvet_term_foreign_workloads(const struct kvet_graph *g,
				const struct kvet_term *t, kvet_term_fn fn,
				void *data)
{
	return term_walk(g, t, fn, data, false);
}

int kvet_term_selected_workloads(const struct kvet_graph *g,
				 const struct kvet_term *t, kvet_term_fn fn,
				 void *data)
{
	return term_walk(g, t, fn, data, true);
}

struct hit_list {
	struct kvet_arena *arena;
	struct kvet_term_hit *v;
	size_t n, cap;
};

static int collect(void *data, const struct kvet_workload *wl,
		   enum kvet_match scope)
{
	struct hit_list *l = data;

	if (!kvet_arena_grow(l->arena, &l->v, &l->cap, l->n, sizeof(*l->v)))
		return -1;
	l->v[l->n].wl = wl;
	l->v[l->n].scope = scope;
	l->n++;
	return 0;
}

int kvet_term_foreign_list(struct kvet_arena *arena, const struct kvet_graph *g,
			   const struct kvet_term *t,
			   const struct kvet_term_hit **out, size_t *n)
{
	struct hit_list l = { arena, NULL, 0, 0 };
	int ret = kvet_term_foreign_workloads(g, t, collect, &l);

	*out = l.v;
	*n = l.n;
	return ret ? -1 : 0;
}

bool kvet_shared_label_key(const struct kvet_graph *g, struct kvet_slice key)
{
	const struct kvet_name_list *cfg = &kvet_graph_config(g)->shared_keys;

	return (!cfg->replace &&
		key_listed(key, shared_keys, N_OF(shared_keys))) ||
	       key_listed(key, cfg->v, cfg->n);
}

bool kvet_term_shared_keys_only(const struct kvet_graph *g,
				const struct kvet_term *t)
{
	size_t i;

	if (t->merged.meaning == KVET_SEL_EVERYTHING)
		return true;
	if (t->merged.meaning != KVET_SEL_MATCH)
		return false;
	for (i = 0; i < t->merged.n_reqs; i++)
		if (!kvet_shared_label_key(g, t->merged.reqs[i].key))
			return false;
	return true;
}

bool kvet_term_scope_assumed(const struct kvet_graph *g,
			     const struct kvet_term *t)
{
	enum kvet_match m = kvet_term_scope_includes(g, t,
						     t->wl->obj->namespace);

	return m == KVET_MATCH_ASSUMED_TRUE || m == KVET_MATCH_ASSUMED_FALSE;
}

static int find_other(void *data, const struct kvet_workload *wl)
{
	const struct kvet_workload *self = data;

	return wl != self;	/* one other is enough */
}

int kvet_term_matches_elsewhere(const struct kvet_graph *g,
				const struct kvet_term *t)
{
	return kvet_graph_select_workloads(g, NULL, &t->merged, find_other,
					   (void *)t->wl);
}

int kvet_workload_lacks_spreading(struct kvet_arena *arena,
				  const struct kvet_graph *g,
				  const struct kvet_workload *wl, bool *out)
{
	struct kvet_terms terms;
	size_t i;

	*out = false;
	if (!kvet_workload_scalable(wl) ||
	    wl->replicas.state != KVET_REPLICAS_KNOWN || wl->replicas.max < 2)
		return 0;
	if (kvet_workload_terms(arena, wl, &terms))
		return -1;
	for (i = 0; i < terms.n; i++)
		if (kvet_match_is_true(kvet_term_effective(g, &terms.v[i])))
			return 0;
	*out = true;
	return 0;
}

/* ---- why a term is not effective ---- */

static const struct kvet_node *key_node(const struct kvet_term *t,
					const char *field)
{
	const struct kvet_pair *p = kvet_node_get_pair(t->node, field);

	return p ? &p->key : NULL;
}

/*
 * Why a sibling does not match: the labelSelector itself, or the first
 * matchLabelKeys/mismatchLabelKeys requirement the API server adds that
 * a sibling fails.
 */
static void sibling_miss(const struct kvet_term *t, struct kvet_term_why *out)
{
	struct kvet_pod_runtime rt;
	size_t i;

	kvet_workload_runtime(t->wl, 0, 1, &rt);
	if (!kvet_selector_matches(&t->selector, &t->wl->labels, &rt))
		return;
	for (i = t->selector.n_reqs; i < t->merged.n_reqs; i++)
		if (!kvet_requirement_matches(&t->merged.reqs[i],
					      &t->wl->labels, &rt)) {
			out->req = &t->merged.reqs[i];
			out->at = t->merged.reqs[i].node;
			return;
		}
}

static void siblings_flaw(const struct kvet_term *t, struct kvet_term_why *out)
{
	sibling_miss(t, out);
	if (t->selector.meaning == KVET_SEL_NOTHING) {
		out->flaw = KVET_TERM_NO_SELECTOR;
		out->req = NULL;
		out->at = t->node;
	} else if (t->selector.meaning == KVET_SEL_INVALID) {
		out->flaw = KVET_TERM_INVALID_SELECTOR;
		out->req = NULL;
		out->at = key_node(t, "labelSelector");
	} else if (out->req) {
		out->flaw = out->req->op == KVET_SEL_NOT_IN ?
			    KVET_TERM_EXCLUDES_OWN_PODS :
			    KVET_TERM_KEY_UNIQUE_PER_POD;
	} else {
		out->flaw = KVET_TERM_MISSES_OWN_PODS;
		out->at = key_node(t, "labelSelector");
	}
}

void kvet_term_why_not(const struct kvet_graph *g, const struct kvet_term *t,
		       struct kvet_term_why *out)
{
	memset(out, 0, sizeof(*out));
	if (!labels_match_sibling(t, 0)) {
		siblings_flaw(t, out);
		return;
	}
	if (!kvet_spreading_topology_key(g, t->topology_key)) {
		out->flaw = t->topology_key.len ? KVET_TERM_NOT_SPREADING_KEY :
			    KVET_TERM_NO_TOPOLOGY_KEY;
		out->at = t->topology_key_node ? key_node(t, "topologyKey")
					       : t->node;
		return;
	}
	out->scope = kvet_term_scope_includes(g, t, t->wl->obj->namespace);
	if (kvet_match_is_true(out->scope))
		return;
	out->flaw = KVET_TERM_SCOPE_EXCLUDES_OWN;
	out->at = key_node(t, "namespaceSelector");
	if (!out->at)
		out->at = key_node(t, "namespaces");
}

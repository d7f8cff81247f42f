/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes functions of CEL for RULES-CATALOGUE 1.8: spreading terms
 * and merged selectors (rules C1-C6).
 *
 * A term is a CEL value that is the term's own mapping in the input (a
 * required anti-affinity term, a preferred entry's podAffinityTerm, a
 * topology spread constraint), so `term.topologyKey` reads and points at
 * the field. The functions find the model's kvet_term behind it through
 * the run's cache (CEL_K8S_SLOT_SPREAD): each workload's terms are built
 * once, and each term's foreign workloads are found once, through the
 * label index.
 */
#include "rules/cel_k8s.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "model/node_affinity.h"
#include "model/spread.h"

/* ---- the per-run cache ---- */

/* foreignWorkloadsOf() lists this many; the counts cover them all */
enum { FOREIGN_KEEP = 50 };

/*
 * The workloads one merged selector selects in one scope, own workload
 * included: terms with equal selectors and scopes (every release of a
 * chart in a namespace, say) share one walk of the label index.
 */
struct sel_memo {
	const char *key;
	size_t key_len;
	size_t n, n_true;		/* selected; in scope for certain */
	long long pods;			/* their N_min, where known */
	struct kvet_term_hit keep[FOREIGN_KEEP + 1];
	size_t n_keep;
};

struct term_info {
	struct kvet_term t;
	bool foreign_done;
	size_t n_foreign, n_true;
	long long foreign_pods;
	struct kvet_term_hit *keep;	/* the first FOREIGN_KEEP */
	size_t n_keep;
};

struct wl_terms {
	struct term_info *v;
	size_t n;
	bool done;
};

struct spread_cache {
	struct kvet_arena *arena;
	const struct kvet_graph *g;
	struct wl_terms *wls;		/* per workload index */
	size_t n_wls;
	bool all_done;			/* every workload's terms are built */
	/* term node -> term, open addressing; a power of two */
	struct term_info **slots;
	size_t n_slots, n_used;
	/* selector and scope key -> walk result, the same way */
	struct sel_memo **memo;
	size_t n_memo, n_memo_used;
};

static void *cache_create(struct kvet_arena *arena, const struct kvet_graph *g)
{
	struct spread_cache *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->arena = arena;
	c->g = g;
	kvet_graph_workloads(g, &c->n_wls);
	c->wls = calloc(c->n_wls + 1, sizeof(*c->wls));
	if (!c->wls) {
		free(c);
		return NULL;
	}
	return c;
}

static void cache_destroy(void *p)
{
	struct spread_cache *c = p;

	if (!c)
		return;
	free(c->wls);
	free(c->slots);
	free(c->memo);
	free(c);
}

static struct spread_cache *cache(struct cel_eval *ev)
{
	return cel_k8s_cache(ev, CEL_K8S_SLOT_SPREAD, cache_create,
			     cache_destroy);
}

static size_t hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x;
}

static int index_put(struct spread_cache *c, struct term_info *ti)
{
	size_t i, mask;

	if (2 * (c->n_used + 1) > c->n_slots) {
		size_t n = c->n_slots ? 2 * c->n_slots : 64;
		struct term_info **s = calloc(n, sizeof(*s));

		if (!s)
			return -1;
		for (i = 0; i < c->n_slots; i++) {
			size_t j;

			if (!c->slots[i])
				continue;
			for (j = hash_ptr(c->slots[i]->t.node) & (n - 1); s[j];
			     j = (j + 1) & (n - 1))
				;
			s[j] = c->slots[i];
		}
		free(c->slots);
		c->slots = s;
		c->n_slots = n;
	}
	mask = c->n_slots - 1;
	for (i = hash_ptr(ti->t.node) & mask; c->slots[i]; i = (i + 1) & mask)
		if (c->slots[i]->t.node == ti->t.node)
			return 0;
	c->slots[i] = ti;
	c->n_used++;
	return 0;
}

static struct term_info *index_get(const struct spread_cache *c,
				   const struct kvet_node *node)
{
	size_t i, mask;

	if (!c->n_slots)
		return NULL;
	mask = c->n_slots - 1;
	for (i = hash_ptr(node) & mask; c->slots[i]; i = (i + 1) & mask)
		if (c->slots[i]->t.node == node)
			return c->slots[i];
	return NULL;
}

/* The terms of @wl, built on first use. NULL when out of memory. */
static struct wl_terms *terms_of(struct spread_cache *c,
				 const struct kvet_workload *wl)
{
	struct wl_terms *wt = &c->wls[wl->index];
	struct kvet_terms tm;
	size_t i;

	if (wt->done)
		return wt;
	if (kvet_workload_terms(c->arena, wl, &tm))
		return NULL;
	wt->v = kvet_arena_array(c->arena, tm.n + 1, sizeof(*wt->v));
	if (!wt->v)
		return NULL;
	for (i = 0; i < tm.n; i++) {
		wt->v[i].t = tm.v[i];
		if (index_put(c, &wt->v[i]))
			return NULL;
	}
	wt->n = tm.n;
	wt->done = true;
	return wt;
}

/* ---- arguments ---- */

static struct cel_value no_term(struct cel_eval *ev, const char *name)
{
	return cel_eval_errorf(ev, "%s() needs a term from spreadingTerms()",
			       name);
}

/*
 * The term behind a value. A term's mapping read from the object itself
 * (object.spec.template.spec.topologySpreadConstraints[0]) is found too:
 * a miss builds every workload's terms once.
 */
static struct term_info *term_arg(struct cel_eval *ev,
				  const struct cel_value *v, const char *name,
				  struct cel_value *err)
{
	struct spread_cache *c;
	struct term_info *ti;
	size_t i, n;

	if (!kvet_cel_graph(ev)) {
		*err = cel_k8s_no_graph(ev, name);
		return NULL;
	}
	if (v->type != CEL_MAP || !(v->flags & CEL_V_NODE)) {
		*err = no_term(ev, name);
		return NULL;
	}
	c = cache(ev);
	if (!c) {
		*err = cel_eval_errorf(ev, "out of memory");
		return NULL;
	}
	ti = index_get(c, v->u.node);
	if (!ti && !c->all_done) {
		struct kvet_workload *const *wls = kvet_graph_workloads(c->g, &n);

		for (i = 0; i < n; i++)
			if (!terms_of(c, wls[i])) {
				*err = cel_eval_errorf(ev, "out of memory");
				return NULL;
			}
		c->all_done = true;
		ti = index_get(c, v->u.node);
	}
	if (!ti)
		*err = no_term(ev, name);
	return ti;
}

#define TERM_ARG(ti, name)						\
	struct cel_value err_;						\
	struct term_info *ti = term_arg(ev, &args[0], name, &err_);	\
	if (!ti)							\
		return err_

static struct wl_terms *workload_terms_arg(struct cel_eval *ev,
					   const struct cel_value *v,
					   const char *name,
					   struct cel_value *err)
{
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, v, name, err);
	struct spread_cache *c;
	struct wl_terms *wt;

	if (!wl)
		return NULL;
	c = cache(ev);
	wt = c ? terms_of(c, wl) : NULL;
	if (!wt)
		*err = cel_eval_errorf(ev, "out of memory");
	return wt;
}

#define TERMS_ARG(wt, name)						\
	struct cel_value err_;						\
	struct wl_terms *wt = workload_terms_arg(ev, &args[0], name, &err_); \
	if (!wt)							\
		return err_

static struct cel_value term_value(const struct kvet_term *t)
{
	return cel_from_node(t->node, t->node);
}

/* ---- text ---- */

static struct cel_value text_value(struct cel_eval *ev, struct kvet_strbuf *b)
{
	if (b->oom)
		return cel_eval_errorf(ev, "out of memory");
	if (!b->buf)
		return cel_string("", 0);
	return cel_string(b->buf, b->len);
}

#define SL(x) (int)(x).len, (x).s

/* A value as the selector shows it; runtime hashes have no real value. */
static void add_value(struct kvet_strbuf *b, struct kvet_slice key,
		      struct kvet_slice v)
{
	if (kvet_runtime_key(key))
		kvet_strbuf_addf(b, "<%.*s of this pod>", SL(key));
	else
		kvet_strbuf_addf(b, "%.*s", SL(v));
}

/* A selector in kubectl's syntax: k=v, k in (a,b), k notin (a), k, !k. */
static void add_selector(struct kvet_strbuf *b,
			 const struct kvet_selector *sel)
{
	size_t i, j;

	switch (sel->meaning) {
	case KVET_SEL_NOTHING:
		kvet_strbuf_addf(b, "(no selector: nothing)");
		return;
	case KVET_SEL_INVALID:
		kvet_strbuf_addf(b, "(invalid selector: nothing)");
		return;
	case KVET_SEL_EVERYTHING:
		kvet_strbuf_addf(b, "{} (every pod)");
		return;
	case KVET_SEL_MATCH:
		break;
	}
	for (i = 0; i < sel->n_reqs; i++) {
		const struct kvet_requirement *r = &sel->reqs[i];

		if (i)
			kvet_strbuf_addf(b, ",");
		switch (r->op) {
		case KVET_SEL_IN:
		case KVET_SEL_NOT_IN:
			if (r->op == KVET_SEL_IN && r->n_values == 1) {
				kvet_strbuf_addf(b, "%.*s=", SL(r->key));
				add_value(b, r->key, r->values[0]);
				break;
			}
			kvet_strbuf_addf(b, "%.*s %s (", SL(r->key),
					 r->op == KVET_SEL_IN ? "in" : "notin");
			for (j = 0; j < r->n_values; j++) {
				if (j)
					kvet_strbuf_addf(b, ",");
				add_value(b, r->key, r->values[j]);
			}
			kvet_strbuf_addf(b, ")");
			break;
		case KVET_SEL_EXISTS:
			kvet_strbuf_addf(b, "%.*s", SL(r->key));
			break;
		case KVET_SEL_DOES_NOT_EXIST:
			kvet_strbuf_addf(b, "!%.*s", SL(r->key));
			break;
		}
	}
}

static void add_term_name(struct kvet_strbuf *b, const struct kvet_term *t)
{
	kvet_strbuf_addf(b, "%s #%u", kvet_term_kind_name(t->kind), t->index + 1);
}

static void add_scope(struct kvet_strbuf *b, const struct kvet_term *t)
{
	size_t i;

	if (t->scope_own) {
		kvet_strbuf_addf(b, "namespace %s", t->wl->obj->namespace);
		return;
	}
	if (t->ns_selector.meaning == KVET_SEL_EVERYTHING) {
		kvet_strbuf_addf(b, "every namespace");
		return;
	}
	if (t->n_namespaces) {
		kvet_strbuf_addf(b, "namespace%s ", t->n_namespaces > 1 ? "s" : "");
		for (i = 0; i < t->n_namespaces; i++)
			kvet_strbuf_addf(b, "%s%.*s", i ? ", " : "", SL(t->namespaces[i]));
	}
	if (t->ns_selector.form != KVET_SEL_FORM_ABSENT) {
		kvet_strbuf_addf(b, "%snamespaces matching ", t->n_namespaces ? " and " : "");
		add_selector(b, &t->ns_selector);
	}
}

/* ---- term analysis ---- */

static bool match_is_true(enum kvet_match m)
{
	return m == KVET_MATCH_TRUE || m == KVET_MATCH_ASSUMED_TRUE;
}

/*
 * Why a sibling does not match: the labelSelector itself, or the first
 * matchLabelKeys/mismatchLabelKeys requirement the API server adds that
 * a sibling fails. Returns the node to point at (NULL: the term).
 */
static const struct kvet_node *sibling_miss(const struct kvet_term *t,
					    const struct kvet_requirement **req)
{
	struct kvet_pod_runtime rt;
	size_t i;

	*req = NULL;
	kvet_workload_runtime(t->wl, 0, 1, &rt);
	if (!kvet_selector_matches(&t->selector, &t->wl->labels, &rt))
		return t->selector.node;
	for (i = t->selector.n_reqs; i < t->merged.n_reqs; i++)
		if (!kvet_requirement_matches(&t->merged.reqs[i],
					      &t->wl->labels, &rt)) {
			*req = &t->merged.reqs[i];
			return t->merged.reqs[i].node;
		}
	return t->selector.node;
}

static const struct kvet_node *key_node(const struct kvet_term *t,
					const char *field)
{
	const struct kvet_pair *p = kvet_node_get_pair(t->node, field);

	return p ? &p->key : NULL;
}

/* The reason and field that keep @t from being an effective term. */
static const struct kvet_node *why_not(const struct kvet_graph *g,
				       const struct kvet_term *t,
				       struct kvet_strbuf *b)
{
	const struct kvet_requirement *req;
	const struct kvet_node *at;
	enum kvet_match m;

	if (!kvet_term_matches_siblings(t)) {
		at = sibling_miss(t, &req);
		if (t->selector.meaning == KVET_SEL_NOTHING) {
			kvet_strbuf_addf(b, "has no labelSelector and counts no pod");
			return t->node;
		}
		if (t->selector.meaning == KVET_SEL_INVALID) {
			kvet_strbuf_addf(b, "has an invalid labelSelector (%s)",
					 t->selector.error ? t->selector.error : "invalid");
			return key_node(t, "labelSelector");
		}
		if (req && req->op == KVET_SEL_NOT_IN) {
			kvet_strbuf_addf(b, "excludes the workload's own pods through mismatchLabelKeys %.*s",
					 SL(req->key));
			return at;
		}
		if (req) {
			kvet_strbuf_addf(b, "matches only the incoming pod through matchLabelKeys %.*s, a label unique to each pod",
					 SL(req->key));
			return at;
		}
		kvet_strbuf_addf(b, "selects ");
		add_selector(b, &t->selector);
		kvet_strbuf_addf(b, ", which the workload's own pods do not match");
		return key_node(t, "labelSelector");
	}
	if (!kvet_spreading_topology_key(g, t->topology_key)) {
		if (!t->topology_key.len)
			kvet_strbuf_addf(b, "has no topologyKey");
		else
			kvet_strbuf_addf(b, "uses topologyKey %.*s, which is not a node, zone or region key",
					 SL(t->topology_key));
		return t->topology_key_node ? key_node(t, "topologyKey")
					    : t->node;
	}
	m = kvet_term_scope_includes(g, t, t->wl->obj->namespace);
	if (!match_is_true(m)) {
		kvet_strbuf_addf(b, "looks in ");
		add_scope(b, t);
		kvet_strbuf_addf(b, ", which %s namespace %s",
				 m == KVET_MATCH_ASSUMED_FALSE ?
				 "presumably does not include (the Namespace object is not in the input)" :
				 "does not include", t->wl->obj->namespace);
		at = key_node(t, "namespaceSelector");
		return at ? at : key_node(t, "namespaces");
	}
	return NULL;
}

/* An exact key of a selector: values as they are, runtime ones too. */
static void add_selector_key(struct kvet_strbuf *b,
			     const struct kvet_selector *sel)
{
	size_t i, j;

	kvet_strbuf_addf(b, "%d:%d", (int)sel->meaning, (int)sel->form);
	for (i = 0; sel->meaning == KVET_SEL_MATCH && i < sel->n_reqs; i++) {
		const struct kvet_requirement *r = &sel->reqs[i];

		kvet_strbuf_addf(b, "\x1e%.*s\x1f%d", SL(r->key), (int)r->op);
		for (j = 0; j < r->n_values; j++)
			kvet_strbuf_addf(b, "\x1f%.*s", SL(r->values[j]));
	}
}

static void add_walk_key(struct kvet_strbuf *b, const struct kvet_term *t)
{
	size_t i;

	add_selector_key(b, &t->merged);
	if (t->scope_own) {
		kvet_strbuf_addf(b, "\x1dO%s", t->wl->obj->namespace);
		return;
	}
	kvet_strbuf_addf(b, "\x1dL");
	for (i = 0; i < t->n_namespaces; i++)
		kvet_strbuf_addf(b, "\x1f%.*s", SL(t->namespaces[i]));
	kvet_strbuf_addf(b, "\x1dS");
	add_selector_key(b, &t->ns_selector);
}

static size_t hash_str(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return (size_t)h;
}

static int memo_walk(void *data, const struct kvet_workload *wl,
		     enum kvet_match scope)
{
	struct sel_memo *m = data;

	m->n++;
	m->n_true += scope == KVET_MATCH_TRUE;
	if (wl->replicas.state == KVET_REPLICAS_KNOWN)
		m->pods += wl->replicas.min;
	if (m->n_keep < FOREIGN_KEEP + 1) {
		m->keep[m->n_keep].wl = wl;
		m->keep[m->n_keep++].scope = scope;
	}
	return 0;
}

/* The walk result for @t's selector and scope, shared by equal terms. */
static const struct sel_memo *memo_of(struct cel_eval *ev,
				      struct spread_cache *c,
				      const struct kvet_term *t)
{
	struct kvet_strbuf b = KVET_STRBUF_ARENA(ev->env->scratch);
	struct sel_memo *m;
	size_t i, mask;

	add_walk_key(&b, t);
	if (b.oom)
		return NULL;
	if (2 * (c->n_memo_used + 1) > c->n_memo) {
		size_t n = c->n_memo ? 2 * c->n_memo : 64, j;
		struct sel_memo **v = calloc(n, sizeof(*v));

		if (!v)
			return NULL;
		for (i = 0; i < c->n_memo; i++) {
			if (!c->memo[i])
				continue;
			for (j = hash_str(c->memo[i]->key, c->memo[i]->key_len) &
				 (n - 1);
			     v[j]; j = (j + 1) & (n - 1))
				;
			v[j] = c->memo[i];
		}
		free(c->memo);
		c->memo = v;
		c->n_memo = n;
	}
	mask = c->n_memo - 1;
	for (i = hash_str(b.buf, b.len) & mask; c->memo[i]; i = (i + 1) & mask)
		if (c->memo[i]->key_len == b.len &&
		    !memcmp(c->memo[i]->key, b.buf, b.len))
			return c->memo[i];
	m = kvet_arena_alloc(c->arena, sizeof(*m));
	if (!m)
		return NULL;
	m->key = kvet_arena_strndup(c->arena, b.buf, b.len);
	m->key_len = b.len;
	if (!m->key || kvet_term_selected_workloads(c->g, t, memo_walk, m))
		return NULL;
	c->memo[i] = m;
	c->n_memo_used++;
	return m;
}

/*
 * The foreign workloads of @ti, found once: the shared walk's result
 * less the term's own workload, which it holds when the merged selector
 * selects its pods in its scope (the label index evaluates selectors the
 * same way, kvet_workload_selected_by()).
 */
static int foreign_of(struct cel_eval *ev, struct term_info *ti)
{
	struct spread_cache *c = cache(ev);
	const struct kvet_workload *own = ti->t.wl;
	const struct sel_memo *m;
	enum kvet_match scope;
	bool in;
	size_t i;

	if (ti->foreign_done)
		return 0;
	m = c ? memo_of(ev, c, &ti->t) : NULL;
	if (!m)
		return -1;
	scope = kvet_term_scope_includes(c->g, &ti->t, own->obj->namespace);
	in = match_is_true(scope) &&
	     kvet_workload_selected_by(own, &ti->t.merged);
	ti->n_foreign = m->n - in;
	ti->n_true = m->n_true - (in && scope == KVET_MATCH_TRUE);
	ti->foreign_pods = m->pods;
	if (in && own->replicas.state == KVET_REPLICAS_KNOWN)
		ti->foreign_pods -= own->replicas.min;
	ti->keep = kvet_arena_array(c->arena, FOREIGN_KEEP + 1,
				    sizeof(*ti->keep));
	if (!ti->keep)
		return -1;
	for (i = 0; i < m->n_keep && ti->n_keep < FOREIGN_KEEP; i++)
		if (m->keep[i].wl != own)
			ti->keep[ti->n_keep++] = m->keep[i];
	ti->foreign_done = true;
	return 0;
}

/* ---- functions on workloads ---- */

K8S_FN(fn_spreading_terms)
{
	struct cel_value v = { .type = CEL_LIST }, *items;
	size_t i;
	TERMS_ARG(wt, "spreadingTerms");

	items = kvet_arena_array(ev->env->scratch, wt->n + 1, sizeof(*items));
	if (!items)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < wt->n; i++)
		items[i] = term_value(&wt->v[i].t);
	v.u.items = items;
	v.len = (uint32_t)wt->n;
	(void)call;
	(void)n;
	return v;
}

K8S_FN(fn_effective_terms)
{
	struct cel_value v = { .type = CEL_LIST }, *items;
	size_t i;
	TERMS_ARG(wt, "effectiveSpreadingTerms");

	items = kvet_arena_array(ev->env->scratch, wt->n + 1, sizeof(*items));
	if (!items)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < wt->n; i++)
		if (match_is_true(kvet_term_effective(kvet_cel_graph(ev),
						      &wt->v[i].t)))
			items[v.len++] = term_value(&wt->v[i].t);
	v.u.items = items;
	(void)call;
	(void)n;
	return v;
}

K8S_FN(fn_has_effective)
{
	size_t i;
	TERMS_ARG(wt, "hasEffectiveSpreadingTerm");

	(void)call;
	(void)n;
	for (i = 0; i < wt->n; i++)
		if (match_is_true(kvet_term_effective(kvet_cel_graph(ev),
						      &wt->v[i].t)))
			return cel_bool(true);
	return cel_bool(false);
}

K8S_FN(fn_why_no_effective)
{
	struct kvet_strbuf b = KVET_STRBUF_ARENA(ev->env->scratch);
	size_t i;
	TERMS_ARG(wt, "whyNoEffectiveSpreadingTerm");

	(void)call;
	(void)n;
	if (!wt->n)
		kvet_strbuf_addf(&b, "it has no pod anti-affinity term and no topology spread constraint");
	for (i = 0; i < wt->n; i++) {
		size_t before = b.len;

		if (i)
			kvet_strbuf_addf(&b, "; ");
		add_term_name(&b, &wt->v[i].t);
		kvet_strbuf_addf(&b, " ");
		if (!why_not(kvet_cel_graph(ev), &wt->v[i].t, &b)) {
			/* effective: nothing to say about it */
			b.len = before;
			if (b.buf)
				b.buf[b.len] = '\0';
		}
	}
	return text_value(ev, &b);
}

/* ---- functions on terms ---- */

static struct cel_value term_kind_is(struct cel_eval *ev,
				     const struct cel_value *args,
				     const char *name, int kind)
{
	struct cel_value err;
	struct term_info *ti = term_arg(ev, &args[0], name, &err);

	if (!ti)
		return err;
	if (kind < 0)
		return cel_bool(kvet_term_is_anti_affinity(&ti->t));
	return cel_bool(ti->t.kind == (enum kvet_term_kind)kind);
}

K8S_FN(fn_is_required)
{
	(void)call;
	(void)n;
	return term_kind_is(ev, args, "isRequiredAntiAffinity",
			    KVET_TERM_REQUIRED_ANTI_AFFINITY);
}

K8S_FN(fn_is_preferred)
{
	(void)call;
	(void)n;
	return term_kind_is(ev, args, "isPreferredAntiAffinity",
			    KVET_TERM_PREFERRED_ANTI_AFFINITY);
}

K8S_FN(fn_is_anti_affinity)
{
	(void)call;
	(void)n;
	return term_kind_is(ev, args, "isAntiAffinity", -1);
}

K8S_FN(fn_is_spread)
{
	(void)call;
	(void)n;
	return term_kind_is(ev, args, "isSpreadConstraint",
			    KVET_TERM_SPREAD_CONSTRAINT);
}

K8S_FN(fn_term_name)
{
	struct kvet_strbuf b = KVET_STRBUF_ARENA(ev->env->scratch);
	TERM_ARG(ti, "termName");

	(void)call;
	(void)n;
	add_term_name(&b, &ti->t);
	return text_value(ev, &b);
}

K8S_FN(fn_matches_siblings)
{
	TERM_ARG(ti, "matchesSiblings");

	(void)call;
	(void)n;
	return cel_bool(kvet_term_matches_siblings(&ti->t));
}

K8S_FN(fn_matches_across)
{
	TERM_ARG(ti, "matchesSiblingsAcrossRevisions");

	(void)call;
	(void)n;
	return cel_bool(kvet_term_matches_siblings_across_revisions(&ti->t));
}

K8S_FN(fn_spreading_key)
{
	TERM_ARG(ti, "hasSpreadingTopologyKey");

	(void)call;
	(void)n;
	return cel_bool(kvet_spreading_topology_key(kvet_cel_graph(ev),
						    ti->t.topology_key));
}

K8S_FN(fn_is_effective)
{
	TERM_ARG(ti, "isEffectiveSpreadingTerm");

	(void)call;
	(void)n;
	return cel_bool(
		match_is_true(kvet_term_effective(kvet_cel_graph(ev), &ti->t)));
}

K8S_FN(fn_scope_assumed)
{
	enum kvet_match m;
	TERM_ARG(ti, "scopeAssumed");

	(void)call;
	(void)n;
	m = kvet_term_scope_includes(kvet_cel_graph(ev), &ti->t,
				     ti->t.wl->obj->namespace);
	return cel_bool(m == KVET_MATCH_ASSUMED_TRUE ||
			m == KVET_MATCH_ASSUMED_FALSE);
}

K8S_FN(fn_why_not)
{
	struct kvet_strbuf b = KVET_STRBUF_ARENA(ev->env->scratch);
	TERM_ARG(ti, "whyNotEffective");

	(void)call;
	(void)n;
	why_not(kvet_cel_graph(ev), &ti->t, &b);
	return text_value(ev, &b);
}

K8S_FN(fn_ineffective_field)
{
	struct kvet_strbuf b = KVET_STRBUF_ARENA(ev->env->scratch);
	const struct kvet_node *at;
	struct cel_value v;
	TERM_ARG(ti, "ineffectiveField");

	(void)call;
	(void)n;
	at = why_not(kvet_cel_graph(ev), &ti->t, &b);
	if (!at)
		return cel_eval_errorf(ev, "ineffectiveField(): the term is effective");
	v = term_value(&ti->t);
	v.at = at;
	return v;
}

K8S_FN(fn_valid_selector)
{
	TERM_ARG(ti, "hasValidSelector");

	(void)call;
	(void)n;
	return cel_bool(ti->t.selector.meaning != KVET_SEL_INVALID);
}

K8S_FN(fn_merged_selector)
{
	struct kvet_strbuf b = KVET_STRBUF_ARENA(ev->env->scratch);
	TERM_ARG(ti, "mergedSelector");

	(void)call;
	(void)n;
	add_selector(&b, &ti->t.merged);
	return text_value(ev, &b);
}

K8S_FN(fn_term_scope)
{
	struct kvet_strbuf b = KVET_STRBUF_ARENA(ev->env->scratch);
	TERM_ARG(ti, "termScope");

	(void)call;
	(void)n;
	add_scope(&b, &ti->t);
	return text_value(ev, &b);
}

K8S_FN(fn_foreign)
{
	struct cel_value v = { .type = CEL_LIST }, *items;
	size_t i;
	TERM_ARG(ti, "foreignWorkloadsOf");

	(void)call;
	(void)n;
	if (foreign_of(ev, ti))
		return cel_eval_errorf(ev, "out of memory");
	items = kvet_arena_array(ev->env->scratch, ti->n_keep + 1,
				 sizeof(*items));
	if (!items)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < ti->n_keep; i++)
		items[i] = kvet_cel_from_object(ti->keep[i].wl->obj);
	v.u.items = items;
	v.len = (uint32_t)ti->n_keep;
	return v;
}

K8S_FN(fn_foreign_count)
{
	TERM_ARG(ti, "foreignWorkloadCount");

	(void)call;
	(void)n;
	if (foreign_of(ev, ti))
		return cel_eval_errorf(ev, "out of memory");
	return cel_int((int64_t)ti->n_foreign);
}

static void add_workload_names(struct kvet_strbuf *b,
			       const struct kvet_object *const *objs,
			       size_t shown, size_t total)
{
	size_t i;

	for (i = 0; i < shown; i++)
		kvet_strbuf_addf(b, "%s%s %s%s%s",
				 i ? (i + 1 == shown && shown == total ? " and " : ", ") : "",
				 objs[i]->kind, objs[i]->namespace,
				 *objs[i]->namespace ? "/" : "", objs[i]->name);
	if (total > shown)
		kvet_strbuf_addf(b, " and %zu more", total - shown);
}

enum { NAMES_SHOWN = 3 };

K8S_FN(fn_foreign_names)
{
	struct kvet_strbuf b = KVET_STRBUF_ARENA(ev->env->scratch);
	const struct kvet_object *objs[NAMES_SHOWN];
	size_t i;
	TERM_ARG(ti, "foreignWorkloadNames");

	(void)call;
	(void)n;
	if (foreign_of(ev, ti))
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < ti->n_keep && i < NAMES_SHOWN; i++)
		objs[i] = ti->keep[i].wl->obj;
	add_workload_names(&b, objs, i, ti->n_foreign);
	return text_value(ev, &b);
}

struct elsewhere {
	const struct kvet_workload *self;
	bool found;
};

static int find_other(void *data, const struct kvet_workload *wl)
{
	struct elsewhere *e = data;

	if (wl == e->self)
		return 0;
	e->found = true;
	return 1;	/* one is enough */
}

/* C3's heuristic stays quiet when the input shows the labels elsewhere
 * (RULES-CATALOGUE C3, "beta-mgr in another namespace"). */
K8S_FN(fn_matches_elsewhere)
{
	struct elsewhere e = { 0 };
	TERM_ARG(ti, "matchesWorkloadsElsewhere");

	(void)call;
	(void)n;
	e.self = ti->t.wl;
	if (kvet_graph_select_workloads(kvet_cel_graph(ev), NULL, &ti->t.merged,
					find_other, &e) < 0)
		return cel_eval_errorf(ev, "out of memory");
	return cel_bool(e.found);
}

K8S_FN(fn_foreign_assumed)
{
	TERM_ARG(ti, "foreignScopeAssumed");

	(void)call;
	(void)n;
	if (foreign_of(ev, ti))
		return cel_eval_errorf(ev, "out of memory");
	return cel_bool(ti->n_foreign > 0 && ti->n_true == 0);
}

K8S_FN(fn_foreign_pods)
{
	TERM_ARG(ti, "foreignPodCount");

	(void)call;
	(void)n;
	if (foreign_of(ev, ti))
		return cel_eval_errorf(ev, "out of memory");
	/* N_min: the pods the foreign workloads run at least; unknown
	 * counts (DaemonSets outside dump mode) and Jobs add none */
	return cel_int(ti->foreign_pods);
}

K8S_FN(fn_shared_keys)
{
	TERM_ARG(ti, "selectsOnlySharedKeys");

	(void)call;
	(void)n;
	return cel_bool(kvet_term_shared_keys_only(kvet_cel_graph(ev), &ti->t));
}

/* "Deployment ops/beta, StatefulSet ops/db and 3 more" */
K8S_FN(fn_workload_names)
{
	struct kvet_strbuf b = KVET_STRBUF_ARENA(ev->env->scratch);
	const struct kvet_object *objs[NAMES_SHOWN];
	size_t i, len;

	(void)call;
	(void)n;
	if (args[0].type != CEL_LIST)
		return cel_eval_errorf(ev, "workloadNames() needs a list of objects");
	len = cel_len(&args[0]);
	for (i = 0; i < len && i < NAMES_SHOWN; i++) {
		struct cel_value it = cel_list_at(&args[0], i);

		if (!kvet_cel_object(&it))
			return cel_eval_errorf(ev, "workloadNames() needs a list of objects");
		objs[i] = kvet_cel_object(&it);
	}
	add_workload_names(&b, objs, i, len);
	return text_value(ev, &b);
}

/* 1.3: live Pods of a cluster dump show what an operator created */
K8S_FN(fn_live_pods)
{
	const struct kvet_namespace *ns;
	char *name;

	(void)call;
	(void)n;
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "livePodCount");
	if (args[0].type != CEL_STRING)
		return cel_eval_errorf(ev, "livePodCount() needs a namespace name");
	name = kvet_arena_strndup(ev->env->scratch, args[0].u.s, args[0].len);
	if (!name)
		return cel_eval_errorf(ev, "out of memory");
	ns = kvet_graph_namespace(kvet_cel_graph(ev), name);
	return cel_int(ns ? (int64_t)ns->live_pods : 0);
}

/* ---- Deployment rollouts (C4) ---- */

static const struct kvet_workload *deployment_arg(struct cel_eval *ev,
						  const struct cel_value *v,
						  const char *name,
						  struct cel_value *err)
{
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, v, name, err);

	if (wl && wl->kind != KVET_WL_DEPLOYMENT) {
		*err = cel_eval_errorf(ev, "%s() needs a Deployment, not a %s",
				       name, wl->obj->kind);
		return NULL;
	}
	return wl;
}

#define DEPLOY_ARG(wl, name)						\
	struct cel_value err_;						\
	const struct kvet_workload *wl = deployment_arg(ev, &args[0], name, \
							&err_);		\
	if (!wl)							\
		return err_

static const struct kvet_node *strategy(const struct kvet_workload *wl)
{
	return kvet_node_path(wl->obj->root, "spec", "strategy", NULL);
}

K8S_FN(fn_rolling_update)
{
	const struct kvet_node *type;
	DEPLOY_ARG(wl, "usesRollingUpdate");

	(void)call;
	(void)n;
	type = kvet_node_get(strategy(wl), "type");
	/* the API server defaults an absent type to RollingUpdate */
	return cel_bool(!type || kvet_node_is_null(type) ||
			kvet_node_eq(type, "RollingUpdate"));
}

/* maxUnavailable as written, or the default 25% */
static const struct kvet_node *max_unavailable_node(const struct kvet_workload *wl)
{
	const struct kvet_node *n = kvet_node_path(strategy(wl), "rollingUpdate",
						   "maxUnavailable", NULL);

	return n && !kvet_node_is_null(n) ? n : NULL;
}

K8S_FN(fn_max_unavailable_setting)
{
	const struct kvet_node *mu;
	DEPLOY_ARG(wl, "maxUnavailableSetting");

	(void)call;
	(void)n;
	mu = max_unavailable_node(wl);
	if (!mu)
		return cel_string("25%", 3);
	if (!kvet_node_is_scalar(mu))
		return cel_eval_errorf(ev, "maxUnavailableSetting(): not an int or a percentage");
	return cel_string(mu->u.str, mu->len);
}

/*
 * intstr.GetScaledValueFromIntOrPercent(maxUnavailable, N, roundUp=false)
 * as the Deployment controller calls it: a percentage rounds down.
 */
K8S_FN(fn_effective_max_unavailable)
{
	const struct kvet_node *mu;
	long long v = 25, pct = 1;
	DEPLOY_ARG(wl, "effectiveMaxUnavailable");

	(void)call;
	(void)n;
	if (wl->replicas.state != KVET_REPLICAS_KNOWN)
		return cel_eval_errorf(ev, "effectiveMaxUnavailable(): the replicas are unknown");
	mu = max_unavailable_node(wl);
	if (mu && kvet_node_int(mu, &v))
		pct = 0;
	else if (mu) {
		char buf[24];
		char *end;

		if (mu->type != KVET_NODE_STRING || mu->len < 2 ||
		    mu->len >= sizeof(buf) || mu->u.str[mu->len - 1] != '%')
			return cel_eval_errorf(ev, "effectiveMaxUnavailable(): maxUnavailable is not an int or a percentage");
		memcpy(buf, mu->u.str, mu->len - 1);
		buf[mu->len - 1] = '\0';
		v = strtoll(buf, &end, 10);
		if (*end || v < 0)
			return cel_eval_errorf(ev, "effectiveMaxUnavailable(): maxUnavailable is not an int or a percentage");
	}
	if (v < 0)
		return cel_eval_errorf(ev, "effectiveMaxUnavailable(): maxUnavailable is negative");
	if (pct) {
		if (v > 100)
			return cel_eval_errorf(ev, "effectiveMaxUnavailable(): maxUnavailable is above 100%%");
		v = v * wl->replicas.min / 100;
	}
	return cel_int(v);
}

/* ---- Nodes (C5) ---- */

static bool slice_of_node(const struct kvet_node *n, struct kvet_slice *out)
{
	if (!kvet_node_is_scalar(n) || kvet_node_is_null(n))
		return false;
	out->s = n->u.str;
	out->len = n->len;
	return true;
}

K8S_FN(fn_topology_domains)
{
	long domains;
	TERM_ARG(ti, "topologyDomains");

	(void)call;
	(void)n;
	domains = kvet_topology_domains(ev->env->scratch, kvet_cel_graph(ev),
					ti->t.wl->pod_spec,
					ti->t.topology_key);
	if (domains == KVET_DOMAINS_NO_NODES)
		return cel_eval_errorf(ev, "topologyDomains(): the input has no Node objects");
	if (domains == -1)
		return cel_eval_errorf(ev, "out of memory");
	if (domains == KVET_DOMAINS_UNBOUNDED)
		return cel_int(-1);
	return cel_int((int64_t)domains);
}

/* ---- validation (C6) ---- */

struct problems {
	struct cel_eval *ev;
	struct cel_value *v;
	size_t n, cap;
	bool oom;
};

/* One problem: {"term": path, "field": the field, "problem": text}. */
__attribute__((format(printf, 5, 6)))
static void problem(struct problems *ps, const char *path,
		    const struct kvet_node *term, const struct kvet_node *at,
		    const char *fmt, ...)
{
	struct kvet_arena *a = ps->ev->env->scratch;
	struct cel_entry *e;
	struct cel_value m = { .type = CEL_MAP };
	va_list ap;
	char *msg;

	if (ps->oom)
		return;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? 2 * ps->cap : 8;
		struct cel_value *v = kvet_arena_array(a, cap, sizeof(*v));

		if (!v) {
			ps->oom = true;
			return;
		}
		if (ps->n)
			memcpy(v, ps->v, ps->n * sizeof(*v));
		ps->v = v;
		ps->cap = cap;
	}
	va_start(ap, fmt);
	msg = kvet_arena_vprintf(a, fmt, ap);
	va_end(ap);
	e = kvet_arena_array(a, 3, sizeof(*e));
	if (!msg || !e) {
		ps->oom = true;
		return;
	}
	e[0].key = cel_string("term", 4);
	e[0].value = cel_string(path, strlen(path));
	e[1].key = cel_string("field", 5);
	e[1].value = cel_from_node(term, at ? at : term);
	e[2].key = cel_string("problem", 7);
	e[2].value = cel_string(msg, strlen(msg));
	m.u.entries = e;
	m.len = 3;
	ps->v[ps->n++] = m;
}

static const struct kvet_node *keyof(const struct kvet_node *map,
				     const char *field)
{
	const struct kvet_pair *p = kvet_node_get_pair(map, field);

	return p ? &p->key : NULL;
}

static bool present(const struct kvet_node *n)
{
	return n && !kvet_node_is_null(n);
}

/* A selector field; reports an invalid one. Returns 0 or -1 (OOM). */
static int check_selector(struct problems *ps, const char *path,
			  const struct kvet_node *term, const char *field,
			  enum kvet_sel_field kind, struct kvet_selector *sel)
{
	if (kvet_selector_parse(ps->ev->env->scratch,
				kvet_node_get(term, field), kind, sel))
		return -1;
	if (sel->meaning == KVET_SEL_INVALID)
		problem(ps, path, term, keyof(term, field), "%s is invalid: %s",
			field, sel->error ? sel->error : "rejected");
	return 0;
}

/* matchLabelKeys or mismatchLabelKeys: only with a selector, no key of
 * the selector repeated. */
static void check_keys(struct problems *ps, const char *path,
		       const struct kvet_node *term, const char *field,
		       const struct kvet_selector *sel)
{
	const struct kvet_node *keys = kvet_node_get(term, field);
	struct kvet_slice k;
	uint32_t i;
	size_t j;

	if (!kvet_node_is_seq(keys) || !keys->len)
		return;
	if (sel->form == KVET_SEL_FORM_ABSENT) {
		problem(ps, path, term, keyof(term, field),
			"%s is set without a labelSelector", field);
		return;
	}
	for (i = 0; i < keys->len; i++) {
		if (!slice_of_node(&keys->u.items[i], &k))
			continue;
		for (j = 0; j < sel->n_reqs; j++)
			if (kvet_slice_eq(sel->reqs[j].key, k)) {
				problem(ps, path, term, &keys->u.items[i],
					"%s repeats %.*s, a key of its labelSelector",
					field, SL(k));
				break;
			}
	}
}

static int check_constraint(struct problems *ps, const char *path,
			    const struct kvet_node *c)
{
	const struct kvet_node *skew = kvet_node_get(c, "maxSkew");
	const struct kvet_node *tk = kvet_node_get(c, "topologyKey");
	const struct kvet_node *wu = kvet_node_get(c, "whenUnsatisfiable");
	const struct kvet_node *md = kvet_node_get(c, "minDomains");
	static const char *const policies[] = {
		"nodeAffinityPolicy", "nodeTaintsPolicy",
	};
	struct kvet_selector sel;
	long long v;
	size_t i;

	if (!present(skew))
		problem(ps, path, c, NULL, "maxSkew is missing");
	else if (!kvet_node_int(skew, &v) || v < 1)
		problem(ps, path, c, keyof(c, "maxSkew"),
			"maxSkew %.*s is not an integer of at least 1",
			kvet_node_is_scalar(skew) ? (int)skew->len : 0,
			kvet_node_is_scalar(skew) ? skew->u.str : "");
	if (!present(tk) || !kvet_node_is_scalar(tk) || !tk->len)
		problem(ps, path, c, keyof(c, "topologyKey"),
			"topologyKey is empty");
	if (!present(wu))
		problem(ps, path, c, NULL,
			"whenUnsatisfiable is missing (DoNotSchedule or ScheduleAnyway)");
	else if (!kvet_node_is_scalar(wu))
		problem(ps, path, c, keyof(c, "whenUnsatisfiable"),
			"whenUnsatisfiable is not DoNotSchedule or ScheduleAnyway");
	else if (!kvet_node_eq(wu, "DoNotSchedule") &&
		 !kvet_node_eq(wu, "ScheduleAnyway"))
		problem(ps, path, c, keyof(c, "whenUnsatisfiable"),
			"whenUnsatisfiable \"%.*s\" is not DoNotSchedule or ScheduleAnyway",
			(int)wu->len, wu->u.str);
	if (present(md)) {
		if (!kvet_node_int(md, &v) || v < 1)
			problem(ps, path, c, keyof(c, "minDomains"),
				"minDomains %.*s is not an integer of at least 1",
				kvet_node_is_scalar(md) ? (int)md->len : 0,
				kvet_node_is_scalar(md) ? md->u.str : "");
		else if (!kvet_node_eq(wu, "DoNotSchedule"))
			problem(ps, path, c, keyof(c, "minDomains"),
				"minDomains %lld is only allowed with whenUnsatisfiable: DoNotSchedule",
				v);
	}
	for (i = 0; i < 2; i++) {
		const struct kvet_node *p = kvet_node_get(c, policies[i]);

		if (present(p) && !kvet_node_eq(p, "Honor") &&
		    !kvet_node_eq(p, "Ignore"))
			problem(ps, path, c, keyof(c, policies[i]),
				"%s \"%.*s\" is not Honor or Ignore", policies[i],
				kvet_node_is_scalar(p) ? (int)p->len : 0,
				kvet_node_is_scalar(p) ? p->u.str : "");
	}
	if (check_selector(ps, path, c, "labelSelector", KVET_SEL_FIELD_SPREAD,
			   &sel))
		return -1;
	check_keys(ps, path, c, "matchLabelKeys", &sel);
	return 0;
}

static int check_affinity_term(struct problems *ps, const char *path,
			       const struct kvet_node *t)
{
	const struct kvet_node *tk = kvet_node_get(t, "topologyKey");
	struct kvet_selector sel, ns;

	if (!present(tk) || !kvet_node_is_scalar(tk) || !tk->len)
		problem(ps, path, t, keyof(t, "topologyKey"),
			"topologyKey is empty");
	if (check_selector(ps, path, t, "labelSelector",
			   KVET_SEL_FIELD_AFFINITY_TERM, &sel) ||
	    check_selector(ps, path, t, "namespaceSelector",
			   KVET_SEL_FIELD_AFFINITY_NS, &ns))
		return -1;
	check_keys(ps, path, t, "matchLabelKeys", &sel);
	check_keys(ps, path, t, "mismatchLabelKeys", &sel);
	return 0;
}

static int check_affinity(struct problems *ps, const struct kvet_node *spec,
			  const char *kind)
{
	const struct kvet_node *a = kvet_node_path(spec, "affinity", kind, NULL);
	const struct kvet_node *req, *pref;
	struct kvet_arena *ar = ps->ev->env->scratch;
	uint32_t i;
	long long w;

	req = kvet_node_get(a, "requiredDuringSchedulingIgnoredDuringExecution");
	pref = kvet_node_get(a, "preferredDuringSchedulingIgnoredDuringExecution");
	for (i = 0; kvet_node_is_seq(req) && i < req->len; i++) {
		char *path = kvet_arena_printf(ar, "%s.requiredDuringSchedulingIgnoredDuringExecution[%u]",
					       kind, i);

		if (!path)
			return -1;
		if (kvet_node_is_map(&req->u.items[i]) &&
		    check_affinity_term(ps, path, &req->u.items[i]))
			return -1;
	}
	for (i = 0; kvet_node_is_seq(pref) && i < pref->len; i++) {
		const struct kvet_node *e = &pref->u.items[i];
		const struct kvet_node *wn = kvet_node_get(e, "weight");
		const struct kvet_node *term = kvet_node_get(e, "podAffinityTerm");
		char *path = kvet_arena_printf(ar, "%s.preferredDuringSchedulingIgnoredDuringExecution[%u]",
					       kind, i);

		if (!path)
			return -1;
		if (!kvet_node_is_map(e))
			continue;
		if (!present(wn))
			problem(ps, path, e, NULL,
				"weight is missing (from 1 to 100)");
		else if (!kvet_node_int(wn, &w) || w < 1 || w > 100)
			problem(ps, path, e, keyof(e, "weight"),
				"weight %.*s is not from 1 to 100",
				kvet_node_is_scalar(wn) ? (int)wn->len : 0,
				kvet_node_is_scalar(wn) ? wn->u.str : "");
		if (kvet_node_is_map(term) &&
		    check_affinity_term(ps, path, term))
			return -1;
	}
	return 0;
}

K8S_FN(fn_term_problems)
{
	struct problems ps = { .ev = ev };
	const struct kvet_node *tsc;
	struct cel_value v = { .type = CEL_LIST };
	uint32_t i;
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, &args[0],
							      "schedulingTermProblems",
							      &v);

	(void)call;
	(void)n;
	if (!wl)
		return v;
	v.type = CEL_LIST;
	tsc = kvet_node_get(wl->pod_spec, "topologySpreadConstraints");
	for (i = 0; kvet_node_is_seq(tsc) && i < tsc->len; i++) {
		char *path = kvet_arena_printf(ev->env->scratch,
					       "topologySpreadConstraints[%u]", i);

		if (!path || (kvet_node_is_map(&tsc->u.items[i]) &&
			      check_constraint(&ps, path, &tsc->u.items[i])))
			return cel_eval_errorf(ev, "out of memory");
	}
	if (check_affinity(&ps, wl->pod_spec, "podAffinity") ||
	    check_affinity(&ps, wl->pod_spec, "podAntiAffinity") || ps.oom)
		return cel_eval_errorf(ev, "out of memory");
	v.u.items = ps.v;
	v.len = (uint32_t)ps.n;
	return v;
}

#define G CEL_CALL_GLOBAL
#define DYN CEL_ST_DYN
#define MAP CEL_ST_MAP
#define INT CEL_ST_INT
#define STR CEL_ST_STRING
#define LIST CEL_ST_LIST
#define BOOL CEL_ST_BOOL

static const struct cel_func spread_funcs[] = {
	/* a workload's terms */
	{ "spreadingTerms", G, 1, 1, LIST, { MAP }, fn_spreading_terms,
	  "its pod anti-affinity terms (required, then preferred podAffinityTerms) and topology spread constraints, as their mappings" },
	{ "effectiveSpreadingTerms", G, 1, 1, LIST, { MAP }, fn_effective_terms,
	  "the terms that match siblings, use a spreading topology key and cover its namespace (1.8)" },
	{ "hasEffectiveSpreadingTerm", G, 1, 1, BOOL, { MAP }, fn_has_effective,
	  "size(effectiveSpreadingTerms(w)) > 0" },
	{ "whyNoEffectiveSpreadingTerm", G, 1, 1, STR, { MAP }, fn_why_no_effective,
	  "why each term is not effective, for messages" },
	{ "schedulingTermProblems", G, 1, 1, LIST, { MAP }, fn_term_problems,
	  "what the API server rejects in its spread constraints and pod (anti-)affinity terms: maps {term, field, problem}" },
	/* one term */
	{ "isRequiredAntiAffinity", G, 1, 1, BOOL, { MAP }, fn_is_required,
	  "a requiredDuringSchedulingIgnoredDuringExecution anti-affinity term" },
	{ "isPreferredAntiAffinity", G, 1, 1, BOOL, { MAP }, fn_is_preferred,
	  "a preferred anti-affinity entry's podAffinityTerm" },
	{ "isAntiAffinity", G, 1, 1, BOOL, { MAP }, fn_is_anti_affinity,
	  "either kind of anti-affinity term" },
	{ "isSpreadConstraint", G, 1, 1, BOOL, { MAP }, fn_is_spread,
	  "a topology spread constraint" },
	{ "termName", G, 1, 1, STR, { MAP }, fn_term_name,
	  "\"required pod anti-affinity term #1\", \"topology spread constraint #2\", ..." },
	{ "matchesSiblings", G, 1, 1, BOOL, { MAP }, fn_matches_siblings,
	  "the merged selector matches a sibling replica of the same revision" },
	{ "matchesSiblingsAcrossRevisions", G, 1, 1, BOOL, { MAP }, fn_matches_across,
	  "it also matches a sibling of another revision (no pod-template-hash in matchLabelKeys)" },
	{ "hasSpreadingTopologyKey", G, 1, 1, BOOL, { MAP }, fn_spreading_key,
	  "topologyKey is a node, zone or region key (or configured)" },
	{ "isEffectiveSpreadingTerm", G, 1, 1, BOOL, { MAP }, fn_is_effective,
	  "an effective spreading term (1.8); an ASSUMED scope counts as its result" },
	{ "scopeAssumed", G, 1, 1, BOOL, { MAP }, fn_scope_assumed,
	  "whether the term covers its own namespace rests on a namespaceSelector and an absent Namespace object (1.5)" },
	{ "whyNotEffective", G, 1, 1, STR, { MAP }, fn_why_not,
	  "why it is not an effective spreading term; \"\" when it is" },
	{ "ineffectiveField", G, 1, 1, MAP, { MAP }, fn_ineffective_field,
	  "the term, positioned at the field that keeps it from being effective (for at:)" },
	{ "hasValidSelector", G, 1, 1, BOOL, { MAP }, fn_valid_selector,
	  "its labelSelector is absent or valid (1.5)" },
	{ "mergedSelector", G, 1, 1, STR, { MAP }, fn_merged_selector,
	  "the merged selector in kubectl syntax, for messages" },
	{ "termScope", G, 1, 1, STR, { MAP }, fn_term_scope,
	  "the namespaces it looks in, for messages" },
	{ "foreignWorkloadsOf", G, 1, 1, LIST, { MAP }, fn_foreign,
	  "the other workloads whose pods its merged selector selects in its scope, through the label index (1.7); the first 50" },
	{ "foreignWorkloadCount", G, 1, 1, INT, { MAP }, fn_foreign_count,
	  "how many other workloads it selects, all of them" },
	{ "foreignWorkloadNames", G, 1, 1, STR, { MAP }, fn_foreign_names,
	  "\"Deployment ops/a, Deployment ops/b and 7 more\", with the full count" },
	{ "matchesWorkloadsElsewhere", G, 1, 1, BOOL, { MAP }, fn_matches_elsewhere,
	  "its merged selector matches another workload in some namespace, in scope or not" },
	{ "foreignScopeAssumed", G, 1, 1, BOOL, { MAP }, fn_foreign_assumed,
	  "every foreign workload is in scope only by an ASSUMED namespaceSelector result" },
	{ "foreignPodCount", G, 1, 1, INT, { MAP }, fn_foreign_pods,
	  "the pods of its foreign workloads (N_min; unknown counts add none)" },
	{ "selectsOnlySharedKeys", G, 1, 1, BOOL, { MAP }, fn_shared_keys,
	  "every requirement of the merged selector uses a shared key (C3)" },
	{ "topologyDomains", G, 1, 1, INT, { MAP }, fn_topology_domains,
	  "distinct topologyKey values among the schedulable Nodes its pods may use; -1 when such a Node lacks the key; an error without Nodes" },
	/* workload lists, namespaces and Deployments */
	{ "livePodCount", G, 1, 1, INT, { STR }, fn_live_pods,
	  "the Pod objects of a cluster dump in a namespace (1.3)" },
	{ "workloadNames", G, 1, 1, STR, { LIST }, fn_workload_names,
	  "\"Deployment ops/a, StatefulSet ops/b and 2 more\"" },
	{ "usesRollingUpdate", G, 1, 1, BOOL, { MAP }, fn_rolling_update,
	  "a Deployment's strategy is RollingUpdate (the default)" },
	{ "maxUnavailableSetting", G, 1, 1, STR, { MAP }, fn_max_unavailable_setting,
	  "a Deployment's rollingUpdate.maxUnavailable as written, or \"25%\"" },
	{ "effectiveMaxUnavailable", G, 1, 1, INT, { MAP }, fn_effective_max_unavailable,
	  "maxUnavailable at N_min, a percentage rounded down" },
};

const struct cel_lib cel_k8s_spread_lib = CEL_LIB("kvet.spread", spread_funcs);

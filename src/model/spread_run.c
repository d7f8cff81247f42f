/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The spreading terms of a run (model/spread.h): each workload's terms
 * built once, found again by their node, and each term's foreign
 * workloads found once through the label index. Terms with equal merged
 * selectors and scopes (every release of a chart in a namespace, say)
 * share one walk of the index.
 */
#include "model/spread.h"

#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "model/run.h"

#define SL(x) (int)(x).len, (x).s

/* foreign.keep holds this many; the counts cover them all */
enum { FOREIGN_KEEP = KVET_TERM_FOREIGN_KEEP };

/* The workloads one merged selector selects in one scope, own workload
 * included. keep is sized to what the walk found: most selectors select
 * a few workloads, and a fixed array of FOREIGN_KEEP + 1 per memo (and
 * another per term) was most of this index on findings-heavy input. */
struct sel_memo {
	const char *key;
	size_t key_len;
	size_t n, n_true;		/* selected; in scope for certain */
	long long pods;			/* their N_min, where known */
	const struct kvet_term_hit *keep;
	size_t n_keep;
};

/* A walk in progress: its first hits wait here until their number is
 * known. */
struct memo_walk {
	struct sel_memo *m;
	struct kvet_term_hit keep[FOREIGN_KEEP + 1];
};

struct wl_terms {
	struct kvet_terms tm;
	struct kvet_term_foreign *foreign;	/* per term; n == SIZE_MAX:
						 * not found yet */
	bool done;
};

struct terms_index {
	struct kvet_arena *arena;
	const struct kvet_graph *g;
	struct wl_terms *wls;		/* per workload index */
	size_t n_wls;
	bool all_done;			/* every workload's terms are built */
	/* term node -> term, open addressing; a power of two */
	const struct kvet_term **slots;
	size_t n_slots, n_used;
	/* selector and scope key -> walk result, the same way */
	struct sel_memo **memo;
	size_t n_memo, n_memo_used;
};

static void *terms_build(struct kvet_run *run)
{
	struct terms_index *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->arena = kvet_run_arena(run);
	c->g = kvet_run_graph(run);
	kvet_graph_workloads(c->g, &c->n_wls);
	c->wls = calloc(c->n_wls + 1, sizeof(*c->wls));
	if (!c->wls) {
		free(c);
		return NULL;
	}
	return c;
}

static void terms_free(void *p)
{
	struct terms_index *c = p;

	free(c->wls);
	free(c->slots);
	free(c->memo);
	free(c);
}

static struct terms_index *terms_index(struct kvet_run *run)
{
	return kvet_run_index(run, KVET_RUN_TERMS, terms_build, terms_free);
}

static size_t hash_ptr(const void *p)
{
	uint64_t x = (uint64_t)(uintptr_t)p;

	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	return (size_t)x;
}

static int index_put(struct terms_index *c, const struct kvet_term *t)
{
	size_t i, j, mask;

	if (2 * (c->n_used + 1) > c->n_slots) {
		size_t n = c->n_slots ? 2 * c->n_slots : 64;
		const struct kvet_term **s = calloc(n, sizeof(*s));

		if (!s)
			return -1;
		for (i = 0; i < c->n_slots; i++) {
			if (!c->slots[i])
				continue;
			for (j = hash_ptr(c->slots[i]->node) & (n - 1); s[j];
			     j = (j + 1) & (n - 1))
				;
			s[j] = c->slots[i];
		}
		free(c->slots);
		c->slots = s;
		c->n_slots = n;
	}
	mask = c->n_slots - 1;
	for (i = hash_ptr(t->node) & mask; c->slots[i]; i = (i + 1) & mask)
		if (c->slots[i]->node == t->node)
			return 0;
	c->slots[i] = t;
	c->n_used++;
	return 0;
}

static const struct kvet_term *index_get(const struct terms_index *c,
					 const struct kvet_node *node)
{
	size_t i, mask;

	if (!c->n_slots)
		return NULL;
	mask = c->n_slots - 1;
	for (i = hash_ptr(node) & mask; c->slots[i]; i = (i + 1) & mask)
		if (c->slots[i]->node == node)
			return c->slots[i];
	return NULL;
}

/* The terms of @wl, built on first use. NULL when out of memory. */
static struct wl_terms *terms_of(struct terms_index *c,
				 const struct kvet_workload *wl)
{
	struct wl_terms *wt = &c->wls[wl->index];
	size_t i;

	if (wt->done)
		return wt;
	if (kvet_workload_terms(c->arena, wl, &wt->tm))
		return NULL;
	wt->foreign = kvet_arena_array(c->arena, wt->tm.n + 1,
				       sizeof(*wt->foreign));
	if (!wt->foreign)
		return NULL;
	for (i = 0; i < wt->tm.n; i++) {
		wt->foreign[i].n = SIZE_MAX;
		if (index_put(c, &wt->tm.v[i]))
			return NULL;
	}
	wt->done = true;
	return wt;
}

const struct kvet_terms *kvet_run_terms(struct kvet_run *run,
					const struct kvet_workload *wl)
{
	struct terms_index *c = terms_index(run);
	struct wl_terms *wt = c ? terms_of(c, wl) : NULL;

	return wt ? &wt->tm : NULL;
}

/*
 * A term's mapping read from the object itself
 * (object.spec.template.spec.topologySpreadConstraints[0]) is found too:
 * a miss builds every workload's terms, once.
 */
int kvet_run_term_at(struct kvet_run *run, const struct kvet_node *node,
		     const struct kvet_term **out)
{
	struct terms_index *c = terms_index(run);
	struct kvet_workload *const *wls;
	size_t i, n;

	*out = NULL;
	if (!c)
		return -1;
	*out = index_get(c, node);
	if (*out || c->all_done)
		return 0;
	wls = kvet_graph_workloads(c->g, &n);
	for (i = 0; i < n; i++)
		if (!terms_of(c, wls[i]))
			return -1;
	c->all_done = true;
	*out = index_get(c, node);
	return 0;
}

/* An exact key of a selector: values as they are, runtime ones too. */
/* @sep, then what "%.*s" writes of @sl (up to a NUL), and "%d" of
 * @n when @n is not -1: appended, since a term's key is made for every
 * walk and printf's parsing was most of its cost. */
static void add_piece(struct kvet_strbuf *b, char sep, struct kvet_slice sl)
{
	kvet_strbuf_add(b, &sep, 1);
	kvet_strbuf_add(b, sl.s, sl.len ? strnlen(sl.s, sl.len) : 0);
}

static void add_int(struct kvet_strbuf *b, int n)
{
	char buf[16];
	size_t i = sizeof(buf);
	unsigned int u = n < 0 ? 0u - (unsigned int)n : (unsigned int)n;

	do {
		buf[--i] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (n < 0)
		buf[--i] = '-';
	kvet_strbuf_add(b, buf + i, sizeof(buf) - i);
}

static void add_selector_key(struct kvet_strbuf *b,
			     const struct kvet_selector *sel)
{
	size_t i, j;

	add_int(b, (int)sel->meaning);
	kvet_strbuf_add(b, ":", 1);
	add_int(b, (int)sel->form);
	for (i = 0; sel->meaning == KVET_SEL_MATCH && i < sel->n_reqs; i++) {
		const struct kvet_requirement *r = &sel->reqs[i];

		add_piece(b, '\x1e', r->key);
		kvet_strbuf_add(b, "\x1f", 1);
		add_int(b, (int)r->op);
		for (j = 0; j < r->n_values; j++)
			add_piece(b, '\x1f', r->values[j]);
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
	kvet_strbuf_adds(b, "\x1dL");
	for (i = 0; i < t->n_namespaces; i++)
		add_piece(b, '\x1f', t->namespaces[i]);
	kvet_strbuf_adds(b, "\x1dS");
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
	struct memo_walk *w = data;
	struct sel_memo *m = w->m;

	m->n++;
	m->n_true += scope == KVET_MATCH_TRUE;
	if (wl->replicas.state == KVET_REPLICAS_KNOWN)
		m->pods += wl->replicas.min;
	if (m->n_keep < FOREIGN_KEEP + 1) {
		w->keep[m->n_keep].wl = wl;
		w->keep[m->n_keep++].scope = scope;
	}
	return 0;
}

static int memo_grow(struct terms_index *c)
{
	size_t n = c->n_memo ? 2 * c->n_memo : 64, i, j;
	struct sel_memo **v = calloc(n, sizeof(*v));

	if (!v)
		return -1;
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
	return 0;
}

/* The walk result for @t's selector and scope, shared by equal terms. */
static const struct sel_memo *memo_of(struct terms_index *c,
				      const struct kvet_term *t)
{
	struct kvet_strbuf b = KVET_STRBUF_INIT;
	struct sel_memo *m = NULL;
	struct memo_walk w;
	struct kvet_term_hit *keep;
	size_t i, mask;

	add_walk_key(&b, t);
	if (b.oom || (2 * (c->n_memo_used + 1) > c->n_memo && memo_grow(c)))
		goto out;
	mask = c->n_memo - 1;
	for (i = hash_str(b.buf, b.len) & mask; c->memo[i]; i = (i + 1) & mask)
		if (c->memo[i]->key_len == b.len &&
		    !memcmp(c->memo[i]->key, b.buf, b.len)) {
			m = c->memo[i];
			goto out;
		}
	m = kvet_arena_alloc(c->arena, sizeof(*m));
	if (!m)
		goto out;
	memset(m, 0, sizeof(*m));
	m->key = kvet_arena_strndup(c->arena, b.buf, b.len);
	m->key_len = b.len;
	w.m = m;
	if (!m->key || kvet_term_selected_workloads(c->g, t, memo_walk, &w)) {
		m = NULL;
		goto out;
	}
	keep = kvet_arena_array(c->arena, m->n_keep + 1, sizeof(*keep));
	if (!keep) {
		m = NULL;
		goto out;
	}
	memcpy(keep, w.keep, m->n_keep * sizeof(*keep));
	m->keep = keep;
	c->memo[i] = m;
	c->n_memo_used++;
out:
	kvet_strbuf_release(&b);
	return m;
}

/*
 * The shared walk's result less the term's own workload, which it holds
 * when the merged selector selects its pods in its scope (the label
 * index evaluates selectors the same way, kvet_workload_selected_by()).
 */
const struct kvet_term_foreign *kvet_run_term_foreign(struct kvet_run *run,
						      const struct kvet_term *t)
{
	struct terms_index *c = terms_index(run);
	const struct kvet_workload *own = t->wl;
	struct kvet_term_foreign *f;
	struct kvet_term_hit *keep;
	const struct sel_memo *m;
	struct wl_terms *wt;
	enum kvet_match scope;
	bool in;
	size_t i, first_own = SIZE_MAX, n_own = 0, n_keep;

	wt = c ? terms_of(c, own) : NULL;
	if (!wt || t < wt->tm.v || t >= wt->tm.v + wt->tm.n)
		return NULL;
	f = &wt->foreign[t - wt->tm.v];
	if (f->n != SIZE_MAX)
		return f;
	m = memo_of(c, t);
	if (!m)
		return NULL;
	scope = kvet_term_scope_includes(c->g, t, own->obj->namespace);
	in = kvet_match_is_true(scope) &&
	     kvet_workload_selected_by(own, &t->merged);
	f->n_true = m->n_true - (in && scope == KVET_MATCH_TRUE);
	f->pods = m->pods;
	if (in && own->replicas.state == KVET_REPLICAS_KNOWN)
		f->pods -= own->replicas.min;
	/* the hits less own, at most FOREIGN_KEEP: the memo's own array
	 * when own is not among them or only leads it, a copy otherwise */
	for (i = 0; i < m->n_keep; i++)
		if (m->keep[i].wl == own) {
			if (!n_own++)
				first_own = i;
		}
	n_keep = m->n_keep - n_own;
	if (n_keep > FOREIGN_KEEP)
		n_keep = FOREIGN_KEEP;
	if (first_own >= n_keep) {
		f->keep = m->keep;
	} else if (first_own == 0 && n_own == 1) {
		f->keep = m->keep + 1;
	} else {
		keep = kvet_arena_array(c->arena, n_keep + 1, sizeof(*keep));
		if (!keep)
			return NULL;
		for (i = 0, n_keep = 0;
		     i < m->n_keep && n_keep < FOREIGN_KEEP; i++)
			if (m->keep[i].wl != own)
				keep[n_keep++] = m->keep[i];
		f->keep = keep;
	}
	f->n_keep = n_keep;
	f->n = m->n - in;
	return f;
}

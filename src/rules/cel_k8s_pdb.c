/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes functions of CEL for RULES-CATALOGUE section 3, groups A and
 * B: PDB specifics (A4 to A8), HPAs (B2, B3), selector overlaps (B4) and
 * Services (B5). Rules read like their English condition:
 *
 *   size(overlappingWorkloads(object)) > 0
 *   size(webhooksUsing(object)) > 0 ? "error" : "warning"
 *
 * Every "which workloads does this select" goes through the graph's
 * label index. The one relation over all workloads, B4's overlaps, is
 * built once per run in the CEL_K8S_SLOT_PDB cache from one index
 * selection per workload, never by comparing every pair.
 */
#include "rules/cel_k8s.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/strbuf.h"
#include "base/vec.h"
#include "model/pdb.h"
#include "model/replicas.h"
#include "model/webhook.h"

/* ---- text ---- */

/* The text as a CEL string in the scratch arena; releases @t. */
static struct cel_value text_value(struct cel_eval *ev, struct kvet_strbuf *t)
{
	char *s = kvet_strbuf_to_arena(t, ev->env->scratch);

	if (!s)
		return cel_eval_errorf(ev, "out of memory");
	return cel_string(s, strlen(s));
}

#define SL(x) (int)(x).len, (x).s

/* kubectl's form of a requirement (labels.Requirement.String). */
static void req_text(struct kvet_strbuf *t, const struct kvet_requirement *r)
{
	size_t i;

	switch (r->op) {
	case KVET_SEL_IN:
	case KVET_SEL_NOT_IN:
		if (r->n_values == 1) {
			kvet_strbuf_addf(t, "%.*s%s%.*s", SL(r->key),
					 r->op == KVET_SEL_IN ? "=" : "!=",
					 SL(r->values[0]));
			return;
		}
		kvet_strbuf_addf(t, "%.*s %s (", SL(r->key),
				 r->op == KVET_SEL_IN ? "in" : "notin");
		for (i = 0; i < r->n_values; i++)
			kvet_strbuf_addf(t, "%s%.*s", i ? "," : "", SL(r->values[i]));
		kvet_strbuf_addf(t, ")");
		return;
	case KVET_SEL_EXISTS:
		kvet_strbuf_addf(t, "%.*s", SL(r->key));
		return;
	case KVET_SEL_DOES_NOT_EXIST:
		kvet_strbuf_addf(t, "!%.*s", SL(r->key));
		return;
	}
}

static void selector_text(struct kvet_strbuf *t,
			  const struct kvet_selector *sel)
{
	size_t i;

	if (sel->meaning == KVET_SEL_INVALID) {
		kvet_strbuf_addf(t, "(invalid: %s)", sel->error ? sel->error : "?");
		return;
	}
	if (sel->form == KVET_SEL_FORM_ABSENT) {
		kvet_strbuf_addf(t, "null");
		return;
	}
	if (sel->form == KVET_SEL_FORM_EMPTY) {
		kvet_strbuf_addf(t, "{}");
		return;
	}
	for (i = 0; i < sel->n_reqs; i++) {
		if (i)
			kvet_strbuf_addf(t, ",");
		req_text(t, &sel->reqs[i]);
	}
}

/* ---- arguments ---- */

static bool is_pdb(const struct kvet_object *obj)
{
	return obj && cel_k8s_is_kind(obj, "policy", "PodDisruptionBudget");
}

/* Parse the PodDisruptionBudget behind @v into scratch memory. */
static bool pdb_arg(struct cel_eval *ev, const struct cel_value *v,
		    const char *name, struct kvet_pdb *out,
		    struct cel_value *err)
{
	if (!is_pdb(kvet_cel_object(v))) {
		*err = cel_eval_errorf(ev, "%s() needs a PodDisruptionBudget",
				       name);
		return false;
	}
	if (kvet_pdb_parse(ev->env->scratch, kvet_cel_object(v), out)) {
		*err = cel_eval_errorf(ev, "out of memory");
		return false;
	}
	return true;
}

static bool same_ns(const struct kvet_workload *a,
		    const struct kvet_workload *b)
{
	return !strcmp(a->obj->namespace, b->obj->namespace);
}

/* ---- workload vectors ---- */

struct wl_vec {
	const struct kvet_workload **v;
	size_t n, cap;
	/* filters of the collectors */
	const char *skip_ns;		/* leave out this namespace */
	const struct kvet_selector *unless;	/* leave out what it selects */
	const struct kvet_requirement *like;	/* keep values close to its */
	size_t max;			/* stop at this many; 0: no limit */
	size_t budget;			/* stop after this many candidates */
	size_t seen;
};

/*
 * Hints for a message stay short and cheap: at most HINT_MAX workloads,
 * and a one-requirement near miss looks at no more than HINT_BUDGET
 * workloads carrying the key, so a PDB that matches nothing in a
 * namespace of thousands of workloads costs a bounded amount.
 */
enum { HINT_MAX = 10, HINT_BUDGET = 256 };

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

/* A value that looks like a typo of one the requirement wants: at most
 * two edits away, or one containing the other (mgr, mgr-controller). */
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

static int wl_push(struct wl_vec *vec, const struct kvet_workload *wl)
{
	if (!kvet_vec_grow((void **)&vec->v, &vec->cap, vec->n + 1,
			   sizeof(*vec->v)))
		return -1;
	vec->v[vec->n++] = wl;
	return 0;
}

static int collect(void *data, const struct kvet_workload *wl)
{
	struct wl_vec *vec = data;

	if (vec->budget && vec->seen++ >= vec->budget)
		return 1;
	if (vec->skip_ns && !strcmp(wl->obj->namespace, vec->skip_ns))
		return 0;
	if (vec->unless && kvet_workload_selected_by(wl, vec->unless))
		return 0;
	if (vec->like) {
		struct kvet_slice v;

		if (!kvet_labels_get(&wl->labels, vec->like->key, &v) ||
		    !value_like(vec->like, v))
			return 0;
	}
	if (wl_push(vec, wl))
		return -1;
	return vec->max && vec->n >= vec->max ? 1 : 0;
}

static int cmp_wl(const void *a, const void *b)
{
	uint32_t x = (*(const struct kvet_workload *const *)a)->index;
	uint32_t y = (*(const struct kvet_workload *const *)b)->index;

	return (x > y) - (x < y);
}

/* Sorted by workload order, each once; then a CEL list; frees @vec. */
static struct cel_value wl_vec_list(struct cel_eval *ev, struct wl_vec *vec)
{
	struct cel_value out;
	size_t i, k = 0;

	if (vec->n > 1)
		qsort(vec->v, vec->n, sizeof(*vec->v), cmp_wl);
	for (i = 0; i < vec->n; i++)
		if (!k || vec->v[k - 1] != vec->v[i])
			vec->v[k++] = vec->v[i];
	out = cel_k8s_workload_list(ev, vec->v, k);
	free(vec->v);
	memset(vec, 0, sizeof(*vec));
	return out;
}

/* ---- the per-run cache: B4's overlaps ---- */

struct pdb_cache {
	struct kvet_arena *arena;
	const struct kvet_graph *g;
	bool built, failed;
	uint32_t *off;		/* n_wls + 1 offsets into partners */
	const struct kvet_workload **partners;
};

static void *cache_create(struct kvet_arena *arena, const struct kvet_graph *g)
{
	struct pdb_cache *c = kvet_arena_alloc(arena, sizeof(*c));

	if (c) {
		memset(c, 0, sizeof(*c));
		c->arena = arena;
		c->g = g;
	}
	return c;
}

struct pair {
	uint32_t a, b;
};

struct pair_vec {
	struct pair *v;
	size_t n, cap;
	const struct kvet_workload *from;
};

static int add_pair(void *data, const struct kvet_workload *wl)
{
	struct pair_vec *pv = data;

	if (wl == pv->from)
		return 0;
	if (pv->n + 2 > pv->cap) {
		size_t cap = pv->cap ? pv->cap * 2 : 64;
		struct pair *v = realloc(pv->v, cap * sizeof(*v));

		if (!v)
			return -1;
		pv->v = v;
		pv->cap = cap;
	}
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
static int build_overlaps(struct pdb_cache *c)
{
	struct kvet_workload *const *wls;
	struct pair_vec pv = { 0 };
	size_t i, k, n_wls;
	int ret = -1;

	wls = kvet_graph_workloads(c->g, &n_wls);
	c->off = kvet_arena_array(c->arena, n_wls + 1, sizeof(*c->off));
	if (!c->off)
		goto out;
	for (i = 0; i < n_wls; i++) {
		if (wls[i]->kind == KVET_WL_POD || generated_selector(wls[i]))
			continue;
		pv.from = wls[i];
		if (kvet_graph_select_workloads(c->g, wls[i]->obj->namespace,
						&wls[i]->selector, add_pair,
						&pv))
			goto out;
	}
	if (pv.n > 1)
		qsort(pv.v, pv.n, sizeof(*pv.v), cmp_pair);
	for (i = k = 0; i < pv.n; i++)
		if (!k || cmp_pair(&pv.v[k - 1], &pv.v[i]))
			pv.v[k++] = pv.v[i];
	c->partners = kvet_arena_array(c->arena, k + 1, sizeof(*c->partners));
	if (!c->partners)
		goto out;
	for (i = 0; i < k; i++) {
		c->off[pv.v[i].a + 1]++;
		c->partners[i] = wls[pv.v[i].b];
	}
	for (i = 0; i < n_wls; i++)
		c->off[i + 1] += c->off[i];
	ret = 0;
out:
	free(pv.v);
	return ret;
}

static struct pdb_cache *overlaps(struct cel_eval *ev)
{
	struct pdb_cache *c = cel_k8s_cache(ev, CEL_K8S_SLOT_PDB, cache_create,
					    NULL);

	if (!c || c->failed)
		return NULL;
	if (!c->built) {
		c->built = true;
		if (build_overlaps(c)) {
			c->failed = true;
			return NULL;
		}
	}
	return c;
}

/* ---- A4: what the API server rejects ---- */

struct problems {
	struct cel_value *v;
	size_t n, cap;
};

/* One problem: {"message": text, "field": a value whose position is the
 * field's key}. */
static int problem_add(struct cel_eval *ev, struct problems *ps,
		       struct kvet_strbuf *msg, const struct kvet_node *at)
{
	struct cel_value text = text_value(ev, msg), field = cel_null();
	struct cel_entry *e;

	if (text.type == CEL_ERROR)
		return -1;
	if (ps->n == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 4;
		struct cel_value *v = kvet_arena_array(ev->env->scratch, cap,
						       sizeof(*v));

		if (!v)
			return -1;
		if (ps->n)
			memcpy(v, ps->v, ps->n * sizeof(*v));
		ps->v = v;
		ps->cap = cap;
	}
	e = kvet_arena_array(ev->env->scratch, 2, sizeof(*e));
	if (!e)
		return -1;
	e[0].key = cel_string("message", 7);
	e[0].value = text;
	field.at = at;
	e[1].key = cel_string("field", 5);
	e[1].value = field;
	memset(&ps->v[ps->n], 0, sizeof(ps->v[ps->n]));
	ps->v[ps->n].type = CEL_MAP;
	ps->v[ps->n].u.entries = e;
	ps->v[ps->n++].len = 2;
	return 0;
}

/* The key node of field @name of @map, for positions. */
static const struct kvet_node *key_of(const struct kvet_node *map,
				      const char *name)
{
	const struct kvet_pair *p = kvet_node_get_pair(map, name);

	return p ? &p->key : NULL;
}

/* An IntOrString value as written: quoted when it is a string. */
static void intstr_text(struct kvet_strbuf *t, const struct kvet_intstr *v)
{
	const struct kvet_node *n = v->node;

	if (!n)
		kvet_strbuf_addf(t, "null");
	else if (kvet_node_is_string(n))
		kvet_strbuf_addf(t, "\"%.*s\"", (int)n->len, n->u.str);
	else if (kvet_node_is_scalar(n))
		kvet_strbuf_addf(t, "%.*s", (int)n->len, n->u.str);
	else
		kvet_strbuf_addf(t, "a %s", kvet_node_type_name(n->type));
}

static bool all_digits(const struct kvet_node *n)
{
	uint32_t i;

	for (i = 0; i < n->len; i++)
		if (n->u.str[i] < '0' || n->u.str[i] > '9')
			return false;
	return n->len > 0;
}

/* validation.go's checks of one of minAvailable and maxUnavailable. */
static int value_problem(struct cel_eval *ev, struct problems *ps,
			 const struct kvet_node *spec, const char *name,
			 const struct kvet_intstr *v)
{
	struct kvet_strbuf t = KVET_STRBUF_INIT;

	switch (v->type) {
	case KVET_INTSTR_INT:
		if (v->value >= 0)
			return 0;
		kvet_strbuf_addf(&t, "%s %lld is negative", name, v->value);
		break;
	case KVET_INTSTR_PERCENT:
		if (v->value <= 100)
			return 0;
		kvet_strbuf_addf(&t, "%s \"%.*s\" is above 100%%", name,
				 (int)v->node->len, v->node->u.str);
		break;
	case KVET_INTSTR_INVALID:
		kvet_strbuf_addf(&t, "%s ", name);
		intstr_text(&t, v);
		if (kvet_node_is_string(v->node) && all_digits(v->node))
			kvet_strbuf_addf(&t, " is a string without %%, not an integer: write %.*s unquoted, or \"%.*s%%\"",
					 (int)v->node->len, v->node->u.str,
					 (int)v->node->len, v->node->u.str);
		else if (kvet_node_is_string(v->node))
			kvet_strbuf_addf(&t, " is not an integer or a percentage (\"<digits>%%\")");
		else if (v->node->type == KVET_NODE_INT)
			kvet_strbuf_addf(&t, " is outside the int32 range");
		else
			kvet_strbuf_addf(&t, " is not an integer or a percentage");
		break;
	default:
		return 0;
	}
	return problem_add(ev, ps, &t, key_of(spec, name));
}

K8S_FN(fn_pdb_spec_problems)
{
	const struct kvet_object *obj = kvet_cel_object(&args[0]);
	const struct kvet_node *spec, *at;
	struct problems ps = { 0 };
	struct cel_value err, out = { .type = CEL_LIST };
	struct kvet_pdb pdb;
	struct kvet_strbuf t = KVET_STRBUF_INIT;

	if (!pdb_arg(ev, &args[0], "pdbSpecProblems", &pdb, &err))
		return err;
	spec = kvet_node_get(obj->root, "spec");
	if (pdb.v1beta1) {
		kvet_strbuf_addf(&t, "apiVersion %s is not served since Kubernetes 1.25: use policy/v1",
				 obj->api_version);
		if (problem_add(ev, &ps, &t, key_of(obj->root, "apiVersion")))
			goto oom;
	}
	if (pdb.min_available.type != KVET_INTSTR_ABSENT &&
	    pdb.max_unavailable.type != KVET_INTSTR_ABSENT) {
		kvet_strbuf_addf(&t, "minAvailable ");
		intstr_text(&t, &pdb.min_available);
		kvet_strbuf_addf(&t, " and maxUnavailable ");
		intstr_text(&t, &pdb.max_unavailable);
		kvet_strbuf_addf(&t, " are both set: the API server accepts only one");
		if (problem_add(ev, &ps, &t, key_of(spec, "maxUnavailable")))
			goto oom;
	}
	if (value_problem(ev, &ps, spec, "minAvailable", &pdb.min_available) ||
	    value_problem(ev, &ps, spec, "maxUnavailable",
			  &pdb.max_unavailable))
		goto oom;
	if (pdb.selector.meaning == KVET_SEL_INVALID) {
		struct kvet_node *pos;

		kvet_strbuf_addf(&t, "selector is invalid: %s",
				 pdb.selector.error ? pdb.selector.error : "?");
		at = key_of(spec, "selector");
		if (pdb.selector.err_line) {
			/* the place inside the selector, as a bare position */
			pos = kvet_arena_alloc(ev->env->scratch, sizeof(*pos));
			if (!pos)
				goto oom;
			memset(pos, 0, sizeof(*pos));
			pos->line = pdb.selector.err_line;
			pos->col = pdb.selector.err_col;
			at = pos;
		}
		if (problem_add(ev, &ps, &t, at))
			goto oom;
	}
	out.u.items = ps.v;
	out.len = (uint32_t)ps.n;
	return out;
oom:
	kvet_strbuf_release(&t);
	return cel_eval_errorf(ev, "out of memory");
}

/* ---- A6, A7, A8: what a budget's selector and fields mean ---- */

K8S_FN(fn_pdb_selector_form)
{
	struct cel_value err;
	struct kvet_pdb pdb;
	const char *s;

	if (!pdb_arg(ev, &args[0], "pdbSelectorForm", &pdb, &err))
		return err;
	if (pdb.selector.meaning == KVET_SEL_INVALID)
		s = "invalid";
	else if (pdb.selector.form == KVET_SEL_FORM_ABSENT)
		s = "absent";
	else if (pdb.selector.form == KVET_SEL_FORM_EMPTY)
		s = "empty";
	else
		s = "requirements";
	return cel_string(s, strlen(s));
}

K8S_FN(fn_pdb_uses_scale)
{
	struct cel_value err;
	struct kvet_pdb pdb;

	if (!pdb_arg(ev, &args[0], "pdbUsesScale", &pdb, &err))
		return err;
	return cel_bool(pdb.max_unavailable.type != KVET_INTSTR_ABSENT ||
			(pdb.min_available.type != KVET_INTSTR_ABSENT &&
			 pdb.min_available.type != KVET_INTSTR_INT));
}

K8S_FN(fn_pdb_owner_kind)
{
	struct cel_value err;
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, &args[0],
						      "pdbOwnerKind", &err);
	const char *s;

	if (!wl)
		return err;
	switch (kvet_workload_pdb_member(wl).kind) {
	case KVET_PDB_SCALABLE:
		s = "scalable";
		break;
	case KVET_PDB_BARE_POD:
		s = "bare-pod";
		break;
	default:
		s = "unscalable";
		break;
	}
	return cel_string(s, strlen(s));
}

/* The workloads of other namespaces that the budget's selector matches:
 * "PDB in the wrong namespace?" (the first HINT_MAX). */
K8S_FN(fn_selected_elsewhere)
{
	struct wl_vec vec = { 0 };
	struct cel_value err;
	struct kvet_pdb pdb;

	if (!pdb_arg(ev, &args[0], "workloadsSelectedElsewhere", &pdb, &err))
		return err;
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "workloadsSelectedElsewhere");
	/* {} would match everything anywhere: no hint in that */
	if (pdb.selector.meaning != KVET_SEL_MATCH)
		return cel_k8s_workload_list(ev, NULL, 0);
	vec.skip_ns = kvet_cel_object(&args[0])->namespace;
	vec.max = HINT_MAX;
	if (kvet_graph_select_workloads(kvet_cel_graph(ev), NULL, &pdb.selector,
					collect, &vec) < 0) {
		free(vec.v);
		return cel_eval_errorf(ev, "out of memory");
	}
	return wl_vec_list(ev, &vec);
}

/*
 * Near misses: the workloads of the budget's namespace that meet every
 * requirement but one, found with the label index by dropping each
 * requirement in turn. With a single requirement "all but one" is every
 * workload, so a near miss is one whose value for an In requirement's
 * key looks like a typo of a wanted value (at most two edits, or one
 * containing the other). At most HINT_MAX of them.
 */
K8S_FN(fn_near_misses)
{
	struct kvet_requirement exists;
	struct kvet_requirement *reqs;
	struct kvet_selector sub;
	struct wl_vec vec = { 0 };
	struct cel_value err;
	struct kvet_pdb pdb;
	size_t i, j, k;

	if (!pdb_arg(ev, &args[0], "nearMisses", &pdb, &err))
		return err;
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "nearMisses");
	if (pdb.selector.meaning != KVET_SEL_MATCH || !pdb.selector.n_reqs)
		return cel_k8s_workload_list(ev, NULL, 0);
	vec.unless = &pdb.selector;
	vec.max = HINT_MAX;
	sub = pdb.selector;
	if (pdb.selector.n_reqs == 1) {
		const struct kvet_requirement *r = &pdb.selector.reqs[0];

		if (r->op != KVET_SEL_IN)
			return cel_k8s_workload_list(ev, NULL, 0);
		memset(&exists, 0, sizeof(exists));
		exists.key = r->key;
		exists.op = KVET_SEL_EXISTS;
		sub.reqs = &exists;
		vec.like = r;
		vec.budget = HINT_BUDGET;
		if (kvet_graph_select_workloads(
			    kvet_cel_graph(ev),
			    kvet_cel_object(&args[0])->namespace, &sub, collect,
			    &vec) < 0)
			goto oom;
		return wl_vec_list(ev, &vec);
	}
	reqs = kvet_arena_array(ev->env->scratch, pdb.selector.n_reqs,
				sizeof(*reqs));
	if (!reqs)
		goto oom;
	for (i = 0; i < pdb.selector.n_reqs && vec.n < HINT_MAX; i++) {
		for (j = k = 0; j < pdb.selector.n_reqs; j++)
			if (j != i)
				reqs[k++] = pdb.selector.reqs[j];
		sub.reqs = reqs;
		sub.n_reqs = k;
		if (kvet_graph_select_workloads(
			    kvet_cel_graph(ev),
			    kvet_cel_object(&args[0])->namespace, &sub, collect,
			    &vec) < 0)
			goto oom;
	}
	return wl_vec_list(ev, &vec);
oom:
	free(vec.v);
	return cel_eval_errorf(ev, "out of memory");
}

/* The first requirement of the budget's selector that @w's pods fail,
 * and what its pods have instead; "" when they meet all. */
K8S_FN(fn_unmet_requirement)
{
	const struct kvet_workload *wl;
	struct kvet_pod_runtime rt;
	struct kvet_strbuf t = KVET_STRBUF_INIT;
	struct cel_value err;
	struct kvet_pdb pdb;
	struct kvet_slice val;
	size_t i;

	if (!pdb_arg(ev, &args[0], "unmetRequirement", &pdb, &err))
		return err;
	wl = cel_k8s_workload_arg(ev, &args[1], "unmetRequirement", &err);
	if (!wl)
		return err;
	kvet_workload_runtime(wl, 0, 0, &rt);
	for (i = 0; i < pdb.selector.n_reqs; i++) {
		const struct kvet_requirement *r = &pdb.selector.reqs[i];

		if (kvet_requirement_matches(r, &wl->labels, &rt))
			continue;
		req_text(&t, r);
		if (kvet_labels_get(&wl->labels, r->key, &val))
			kvet_strbuf_addf(&t, ", its pods have %.*s=%.*s", SL(r->key),
					 SL(val));
		else
			kvet_strbuf_addf(&t, ", its pods lack %.*s", SL(r->key));
		break;
	}
	return text_value(ev, &t);
}

/* The selector of a PDB, Service or workload in kubectl's notation. */
K8S_FN(fn_selector_text)
{
	const struct kvet_object *obj = kvet_cel_object(&args[0]);
	const struct kvet_workload *wl;
	struct kvet_selector sel;
	struct kvet_strbuf t = KVET_STRBUF_INIT;
	struct kvet_pdb pdb;

	if (!obj)
		return cel_eval_errorf(ev, "selectorText() needs an object");
	if (is_pdb(obj)) {
		if (kvet_pdb_parse(ev->env->scratch, obj, &pdb))
			return cel_eval_errorf(ev, "out of memory");
		selector_text(&t, &pdb.selector);
		return text_value(ev, &t);
	}
	if (cel_k8s_is_kind(obj, "", "Service")) {
		if (kvet_selector_parse(ev->env->scratch,
					kvet_node_path(obj->root, "spec",
						       "selector", NULL),
					KVET_SEL_FIELD_SERVICE, &sel))
			return cel_eval_errorf(ev, "out of memory");
		selector_text(&t, &sel);
		return text_value(ev, &t);
	}
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "selectorText");
	wl = kvet_graph_workload_of(kvet_cel_graph(ev), obj);
	if (!wl || wl->obj != obj)
		return cel_eval_errorf(ev, "selectorText() takes a PodDisruptionBudget, a Service or a workload, not %s \"%s\"",
				       obj->kind, obj->name);
	selector_text(&t, &wl->selector);
	return text_value(ev, &t);
}

/* ---- B3: HPA targets ---- */

static bool hpa_arg(struct cel_eval *ev, const struct cel_value *v,
		    const char *name, struct kvet_hpa *out,
		    struct cel_value *err)
{
	if (!kvet_cel_object(v) || !kvet_object_is_hpa(kvet_cel_object(v))) {
		*err = cel_eval_errorf(ev, "%s() needs a HorizontalPodAutoscaler",
				       name);
		return false;
	}
	if (kvet_hpa_parse(ev->env->scratch, kvet_cel_object(v), out) ||
	    !out->target_group || !out->target_kind || !out->target_name) {
		*err = cel_eval_errorf(ev, "out of memory");
		return false;
	}
	return true;
}

/* The object scaleTargetRef names in the HPA's namespace (kind, name and
 * API group, 1.4), or null. */
K8S_FN(fn_scale_target_of)
{
	const struct kvet_object *target;
	struct cel_value err;
	struct kvet_hpa hpa;

	if (!hpa_arg(ev, &args[0], "scaleTargetOf", &hpa, &err))
		return err;
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "scaleTargetOf");
	if (!*hpa.target_kind || !*hpa.target_name)
		return cel_null();
	target = kvet_graph_find(
		kvet_cel_graph(ev), hpa.target_group, hpa.target_kind,
		kvet_cel_object(&args[0])->namespace, hpa.target_name);
	return target ? kvet_cel_from_object(target) : cel_null();
}

/* scaleTargetRef is a built-in kind without a scale subresource. */
K8S_FN(fn_target_has_no_scale)
{
	enum kvet_workload_kind wk;
	struct cel_value err;
	struct kvet_hpa hpa;

	if (!hpa_arg(ev, &args[0], "targetHasNoScale", &hpa, &err))
		return err;
	return cel_bool(kvet_workload_kind_of(hpa.target_group,
					      hpa.target_kind, &wk) &&
			!kvet_workload_kind_scalable(wk));
}

/* ---- B4: workloads whose selectors overlap ---- */

K8S_FN(fn_overlapping)
{
	struct cel_value err;
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, &args[0],
						      "overlappingWorkloads",
						      &err);
	struct pdb_cache *c;

	if (!wl)
		return err;
	c = overlaps(ev);
	if (!c)
		return cel_eval_errorf(ev, "out of memory");
	return cel_k8s_workload_list(ev, c->partners + c->off[wl->index],
				     c->off[wl->index + 1] - c->off[wl->index]);
}

/* The spec.selector of @a selects the pods of @b, another workload of
 * its namespace. */
K8S_FN(fn_selects_pods_of)
{
	const struct kvet_workload *a, *b;
	struct cel_value err;

	a = cel_k8s_workload_arg(ev, &args[0], "selectsPodsOf", &err);
	if (!a)
		return err;
	b = cel_k8s_workload_arg(ev, &args[1], "selectsPodsOf", &err);
	if (!b)
		return err;
	return cel_bool(a != b && same_ns(a, b) && !generated_selector(a) &&
			kvet_workload_selected_by(b, &a->selector));
}

/* ---- B5: Services behind webhooks ---- */

static bool refers_to(const struct kvet_service_ref *ref,
		      const struct kvet_object *svc)
{
	return !strcmp(ref->namespace, svc->namespace) &&
	       !strcmp(ref->name, svc->name);
}

static int obj_push(const struct kvet_object ***v, size_t *n, size_t *cap,
		    const struct kvet_object *obj)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if ((*v)[i] == obj)
			return 0;
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 4;
		const struct kvet_object **nv = realloc(*v, c * sizeof(*nv));

		if (!nv)
			return -1;
		*v = nv;
		*cap = c;
	}
	(*v)[(*n)++] = obj;
	return 0;
}

/* The webhook configurations, CRDs (conversion) and APIServices whose
 * clientConfig.service or spec.service is this Service (1.10). */
K8S_FN(fn_webhooks_using)
{
	const struct kvet_object *svc = kvet_cel_object(&args[0]);
	const struct kvet_webhook *const *entries;
	const struct kvet_apiservice *const *apis;
	const struct kvet_webhooks *whs;
	const struct kvet_object **v = NULL;
	size_t i, cnt_e, cnt = 0, cap = 0;
	struct cel_value out;

	if (!svc || !cel_k8s_is_kind(svc, "", "Service"))
		return cel_eval_errorf(ev, "webhooksUsing() needs a Service");
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "webhooksUsing");
	whs = cel_k8s_webhooks(ev);
	if (!whs)
		return cel_eval_errorf(ev, "out of memory");
	entries = kvet_webhooks_entries(whs, &cnt_e);
	for (i = 0; i < cnt_e; i++)
		if (entries[i]->has_service &&
		    refers_to(&entries[i]->service, svc) &&
		    obj_push(&v, &cnt, &cap, entries[i]->obj))
			goto oom;
	apis = kvet_webhooks_apiservices(whs, &cnt_e);
	for (i = 0; i < cnt_e; i++)
		if (refers_to(&apis[i]->service, svc) &&
		    obj_push(&v, &cnt, &cap, apis[i]->obj))
			goto oom;
	out = cel_k8s_object_list(ev, v, cnt);
	free(v);
	return out;
oom:
	free(v);
	return cel_eval_errorf(ev, "out of memory");
}

/* ---- the input ---- */

K8S_FN(fn_live_pods)
{
	const struct kvet_namespace *ns;
	char name[254];

	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "livePods");
	if (args[0].type != CEL_STRING || args[0].len >= sizeof(name))
		return cel_eval_errorf(ev, "livePods() needs a namespace name");
	memcpy(name, args[0].u.s, args[0].len);
	name[args[0].len] = '\0';
	ns = kvet_graph_namespace(kvet_cel_graph(ev), name);
	return cel_int(ns ? ns->live_pods : 0);
}

/*
 * 1.3 for a consumer: its namespace is covered by a Namespace object or
 * by another namespaced object. A PDB or HPA alone in a partial input
 * does not make its own references "missing".
 */
K8S_FN(fn_ns_covered_besides)
{
	const struct kvet_namespace *ns;

	if (!kvet_cel_object(&args[0]))
		return cel_eval_errorf(ev, "namespaceCoveredBesides() needs an object");
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "namespaceCoveredBesides");
	ns = kvet_graph_namespace(kvet_cel_graph(ev),
				  kvet_cel_object(&args[0])->namespace);
	return cel_bool(ns && (ns->obj || ns->n_objects >= 2));
}

#define G CEL_CALL_GLOBAL
#define MAP CEL_ST_MAP
#define INT CEL_ST_INT
#define STR CEL_ST_STRING
#define LIST CEL_ST_LIST
#define BOOL CEL_ST_BOOL

static const struct cel_func pdb_funcs[] = {
	/* A4 */
	{ "pdbSpecProblems", G, 1, 1, LIST, { MAP }, fn_pdb_spec_problems,
	  "what the API server rejects in a PDB: a list of {message, field}" },
	/* A6 to A8 */
	{ "pdbSelectorForm", G, 1, 1, STR, { MAP }, fn_pdb_selector_form,
	  "\"absent\" (or null), \"empty\" ({}), \"requirements\" or \"invalid\"" },
	{ "pdbUsesScale", G, 1, 1, BOOL, { MAP }, fn_pdb_uses_scale,
	  "maxUnavailable or a percentage minAvailable: the controller needs each owner's scale" },
	{ "pdbOwnerKind", G, 1, 1, STR, { MAP }, fn_pdb_owner_kind,
	  "how the disruption controller counts a workload: \"scalable\", \"bare-pod\" or \"unscalable\"" },
	{ "workloadsSelectedElsewhere", G, 1, 1, LIST, { MAP },
	  fn_selected_elsewhere,
	  "the workloads of other namespaces a PDB's selector matches" },
	{ "nearMisses", G, 1, 1, LIST, { MAP }, fn_near_misses,
	  "the workloads of a PDB's namespace that meet all its requirements but one" },
	{ "unmetRequirement", G, 2, 2, STR, { MAP, MAP }, fn_unmet_requirement,
	  "unmetRequirement(pdb, workload): the first requirement its pods fail, \"\" if none" },
	{ "selectorText", G, 1, 1, STR, { MAP }, fn_selector_text,
	  "the selector of a PDB, Service or workload, as kubectl prints it" },
	/* B3 */
	{ "scaleTargetOf", G, 1, 1, MAP, { MAP }, fn_scale_target_of,
	  "the object an HPA's scaleTargetRef names, or null" },
	{ "targetHasNoScale", G, 1, 1, BOOL, { MAP }, fn_target_has_no_scale,
	  "an HPA targets DaemonSet, Job, CronJob or Pod" },
	/* B4 */
	{ "overlappingWorkloads", G, 1, 1, LIST, { MAP }, fn_overlapping,
	  "the other workloads of its namespace it selects or is selected by" },
	{ "selectsPodsOf", G, 2, 2, BOOL, { MAP, MAP }, fn_selects_pods_of,
	  "selectsPodsOf(w1, w2): w1's spec.selector matches w2's pods" },
	/* B5 */
	{ "webhooksUsing", G, 1, 1, LIST, { MAP }, fn_webhooks_using,
	  "the webhook configurations, CRDs and APIServices a Service serves" },
	/* 1.3 */
	{ "namespaceCoveredBesides", G, 1, 1, BOOL, { MAP },
	  fn_ns_covered_besides,
	  "a Namespace object or another object than this one covers its namespace" },
	{ "livePods", G, 1, 1, INT, { STR }, fn_live_pods,
	  "the live Pods of a namespace in a cluster dump" },
};

const struct cel_lib cel_k8s_pdb_lib = CEL_LIB("kvet.pdb", pdb_funcs);

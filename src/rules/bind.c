/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dispatcher of kvet's CEL functions: each row's arguments resolved
 * to model pointers by their declared kind (cel-go's typed overloads,
 * Kubernetes' opaque QuantityType), the standard errors, and the value
 * builders every binding file uses.
 */
#include "rules/bind.h"

#include <stdarg.h>
#include <string.h>

#include "base/text.h"
#include "cel/ast.h"
#include "model/release_label.h"
#include "model/replicas.h"

static const char *value_name(const struct cel_value *v, char *buf,
			      size_t len)
{
	const struct kvet_object *obj = kvet_cel_object(v);

	if (!obj)
		return cel_type_name(v->type);
	snprintf(buf, len, "%s \"%s\"", obj->kind, obj->name);
	return buf;
}

/* "name() needs <what>, not <the value>". */
static struct cel_value needs(struct bind_call *c, const struct cel_value *v,
			      const char *what)
{
	char buf[256];

	return cel_eval_errorf(c->ev, "%s() needs %s, not %s", c->name, what,
			       value_name(v, buf, sizeof(buf)));
}

static const struct kvet_workload *workload(struct bind_call *c,
					    const struct cel_value *v,
					    struct cel_value *err)
{
	const struct kvet_object *obj = kvet_cel_object(v);
	const struct kvet_workload *wl;

	if (!obj) {
		*err = needs(c, v, "an object");
		return NULL;
	}
	if (!c->g) {
		*err = bind_no_run(c);
		return NULL;
	}
	wl = kvet_graph_workload_of(c->g, obj);
	if (!wl)
		*err = cel_eval_errorf(c->ev, "%s(): %s \"%s\" is not a workload",
				       c->name, obj->kind, obj->name);
	return wl;
}

static const char *string_copy(struct bind_call *c, const struct cel_value *v)
{
	return kvet_arena_strndup(c->scratch, v->u.s, v->len);
}

/* Labels from a CEL map of strings, an object, or null. */
static int labels(struct bind_call *c, const struct cel_value *v,
		  struct bind_labels *out, struct cel_value *err)
{
	const struct kvet_object *obj = kvet_cel_object(v);
	struct kvet_label *ls;
	struct cel_value k, x;
	size_t i, n;

	out->wl = obj && c->g ? kvet_graph_workload_of(c->g, obj) : NULL;
	if (out->wl && out->wl->obj == obj) {
		out->labels = out->wl->labels;
		kvet_workload_runtime(out->wl, 0, 0, &out->rt);
		return 0;
	}
	out->wl = NULL;
	if (obj)
		return kvet_labels_from_node(c->scratch,
					     kvet_node_path(obj->root,
							    "metadata",
							    "labels", NULL),
					     &out->labels);
	if (v->type == CEL_NULL)
		return 0;
	n = cel_len(v);
	ls = kvet_arena_array(c->scratch, n + 1, sizeof(*ls));
	if (!ls)
		return -1;
	for (i = 0; i < n; i++) {
		k = cel_map_key_at(v, i);
		if (k.type != CEL_STRING || !cel_map_find(v, &k, &x) ||
		    x.type != CEL_STRING) {
			*err = bind_fail(c, "labels must map strings to strings");
			return -2;
		}
		ls[i].key.s = k.u.s;
		ls[i].key.len = k.len;
		ls[i].value.s = x.u.s;
		ls[i].value.len = x.len;
	}
	kvet_labels_from_array(ls, n, &out->labels);
	return 0;
}

/* Resolve argument @i of kind @kind; 0, or -1 with the error in @err. */
static int resolve(struct bind_call *c, size_t i, unsigned int kind,
		   struct cel_value *err)
{
	const struct cel_value *v = &c->v[i];
	const struct kvet_object *obj = kvet_cel_object(v);
	union bind_arg *a = &c->arg[i];
	struct kvet_pdb *pdb;
	struct kvet_hpa *hpa;

	switch (kind) {
	case BIND_ANY:
	case BIND_LIST:
		if (kind == BIND_LIST && v->type != CEL_LIST)
			goto wrong;
		a->v = *v;
		return 0;
	case BIND_OBJECT:
		if (!obj)
			goto wrong;
		a->obj = obj;
		return 0;
	case BIND_WORKLOAD:
	case BIND_DEPLOYMENT:
		a->wl = workload(c, v, err);
		if (!a->wl)
			return -1;
		if (kind == BIND_DEPLOYMENT &&
		    a->wl->kind != KVET_WL_DEPLOYMENT) {
			*err = cel_eval_errorf(c->ev, "%s() needs a Deployment, not %s %s",
					       c->name, kvet_a_an(a->wl->obj->kind),
					       a->wl->obj->kind);
			return -1;
		}
		return 0;
	case BIND_PDB:
	case BIND_BUDGET:
		if (!kvet_object_is(obj, "policy", "PodDisruptionBudget"))
			goto wrong;
		/* a PDB of the run was parsed once, for its budget: the
		 * same parse, not one per call */
		if (kind == BIND_PDB && c->run) {
			const struct kvet_budget *b = kvet_run_budget(c->run, obj);

			if (b) {
				a->pdb = &b->pdb;
				return 0;
			}
		}
		if (kind == BIND_BUDGET) {
			if (!c->g) {
				*err = bind_no_run(c);
				return -1;
			}
			a->budget = kvet_run_budget(c->run, obj);
			if (!a->budget)
				goto oom;
			return 0;
		}
		pdb = kvet_arena_alloc(c->scratch, sizeof(*pdb));
		if (!pdb || kvet_pdb_parse(c->scratch, obj, pdb))
			goto oom;
		a->pdb = pdb;
		return 0;
	case BIND_HPA:
		if (!obj || !kvet_object_is_hpa(obj))
			goto wrong;
		hpa = kvet_arena_alloc(c->scratch, sizeof(*hpa));
		if (!hpa || kvet_hpa_parse(c->scratch, obj, hpa) ||
		    !hpa->target_group || !hpa->target_kind ||
		    !hpa->target_name)
			goto oom;
		a->hpa = hpa;
		return 0;
	case BIND_SERVICE:
		if (!kvet_object_is(obj, "", "Service"))
			goto wrong;
		a->obj = obj;
		return 0;
	case BIND_TERM:
	case BIND_FOREIGN:
		if (!c->g) {
			*err = bind_no_run(c);
			return -1;
		}
		a->term = NULL;
		if (v->type == CEL_MAP && (v->flags & CEL_V_NODE) &&
		    kvet_run_term_at(c->run, v->u.node, &a->term))
			goto oom;
		if (!a->term)
			goto wrong;
		if (kind == BIND_FOREIGN &&
		    !(a->foreign = kvet_run_term_foreign(c->run, a->term)))
			goto oom;
		return 0;
	case BIND_ENTRY: {
		const struct kvet_webhooks *whs;

		if (!c->g) {
			*err = bind_no_run(c);
			return -1;
		}
		whs = kvet_run_webhooks(c->run);
		if (!whs)
			goto oom;
		a->entry = NULL;
		if (v->type == CEL_MAP && (v->flags & CEL_V_NODE) && !obj)
			a->entry = kvet_webhooks_entry_at(whs, v->u.node);
		if (!a->entry)
			goto wrong;
		return 0;
	}
	case BIND_LABELS: {
		struct bind_labels *l;
		int r;

		if (!obj && v->type != CEL_NULL && v->type != CEL_MAP)
			goto wrong;
		l = kvet_arena_alloc(c->scratch, sizeof(*l));
		if (!l)
			goto oom;
		r = labels(c, v, l, err);
		if (r == -2)
			return -1;
		if (r)
			goto oom;
		a->labels = l;
		return 0;
	}
	case BIND_STRING:
	case BIND_NAMESPACE:
		if (v->type != CEL_STRING)
			goto wrong;
		a->s = string_copy(c, v);
		if (!a->s)
			goto oom;
		return 0;
	case BIND_COUNT:
		if (v->type != CEL_INT || v->u.i < 0 || v->u.i > INT32_MAX)
			goto wrong;
		a->count = v->u.i;
		return 0;
	case BIND_OBJECTS: {
		const struct kvet_object **objs;
		size_t k, n;

		if (v->type != CEL_LIST)
			goto wrong;
		n = cel_len(v);
		objs = kvet_arena_array(c->scratch, n + 1, sizeof(*objs));
		if (!objs)
			goto oom;
		for (k = 0; k < n; k++) {
			struct cel_value it = cel_list_at(v, k);

			objs[k] = kvet_cel_object(&it);
			if (!objs[k])
				goto wrong;
		}
		a->objs.v = objs;
		a->objs.n = n;
		return 0;
	}
	}
wrong:
	switch (kind) {
	case BIND_OBJECT:
		*err = needs(c, v, "an object");
		break;
	case BIND_PDB:
	case BIND_BUDGET:
		*err = needs(c, v, "a PodDisruptionBudget");
		break;
	case BIND_HPA:
		*err = needs(c, v, "a HorizontalPodAutoscaler");
		break;
	case BIND_SERVICE:
		*err = needs(c, v, "a Service");
		break;
	case BIND_TERM:
	case BIND_FOREIGN:
		*err = needs(c, v, "a term from spreadingTerms()");
		break;
	case BIND_ENTRY:
		*err = needs(c, v, "a webhook entry (an item of webhookEntries())");
		break;
	case BIND_NAMESPACE:
		*err = needs(c, v, "a namespace name");
		break;
	case BIND_COUNT:
		*err = cel_eval_errorf(c->ev, "%s() needs a count from 0 to 2147483647",
				       c->name);
		break;
	case BIND_OBJECTS:
		*err = needs(c, v, "a list of objects");
		break;
	case BIND_LIST:
		*err = needs(c, v, "a list");
		break;
	case BIND_LABELS:
		*err = needs(c, v, "the object's labels as a map or a workload");
		break;
	default:
		*err = needs(c, v, "a string");
		break;
	}
	return -1;
oom:
	*err = bind_oom(c);
	return -1;
}

struct cel_value bind_dispatch(struct cel_eval *ev, const struct cel_ast *call,
			       const struct cel_value *args, size_t n)
{
	const struct bind_fn *fn = bind_fn_of(call->fn);
	const struct kvet_cel_host *h = kvet_cel_host_of(ev);
	struct bind_call c;
	struct cel_value err;
	size_t i;

	/* field by field: the arguments are set as they are resolved, and
	 * zeroing all BIND_MAX_ARGS of them was most of a call's cost */
	c.ev = ev;
	c.name = call->fn->name;
	c.run = h ? h->run : NULL;
	c.g = h ? h->graph : NULL;
	c.scratch = ev->env->scratch;
	c.v = args;
	c.n = n;

	for (i = 0; i < n && i < BIND_MAX_ARGS; i++)
		if (resolve(&c, i, fn->kind[i], &err))
			return err;
	if ((fn->flags & BIND_RUN) && !c.g)
		return bind_no_run(&c);
	return fn->impl(&c);
}

/* ---- results ---- */

struct cel_value bind_fail(struct bind_call *c, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = kvet_arena_vprintf(c->scratch, fmt, ap);
	va_end(ap);
	if (!msg)
		return bind_oom(c);
	return cel_eval_errorf(c->ev, "%s(): %s", c->name, msg);
}

struct cel_value bind_oom(struct bind_call *c)
{
	return cel_eval_errorf(c->ev, "out of memory");
}

struct cel_value bind_no_run(struct bind_call *c)
{
	return cel_eval_errorf(c->ev, "%s() needs the object graph of a run",
			       c->name);
}

struct cel_value bind_str(const char *s)
{
	return cel_string(s, strlen(s));
}

struct cel_value bind_str_at(const char *s, size_t len,
			     const struct kvet_node *at)
{
	struct cel_value v = cel_string(s, len);

	v.at = at;
	return v;
}

struct cel_value bind_strbuf(struct bind_call *c, struct kvet_strbuf *sb)
{
	char *s = kvet_strbuf_to_arena(sb, c->scratch);

	if (!s)
		return bind_oom(c);
	return cel_string(s, strlen(s));
}

struct cel_value bind_node(const struct kvet_node *n)
{
	return cel_from_node(n, n);
}

struct cel_value bind_object(const struct kvet_object *obj)
{
	return obj ? kvet_cel_from_object(obj) : cel_null();
}

/* Objects, or the objects of workloads, as a list. */
static struct cel_value object_list(struct bind_call *c, const void *const *v,
				    size_t n, bool workloads)
{
	struct cel_value l = { .type = CEL_LIST }, *items;
	const struct kvet_object *obj;
	size_t i;

	items = kvet_arena_array(c->scratch, n + 1, sizeof(*items));
	if (!items)
		return bind_oom(c);
	for (i = 0; i < n; i++) {
		obj = workloads ? ((const struct kvet_workload *)v[i])->obj
				: v[i];
		items[i] = kvet_cel_from_object(obj);
	}
	l.u.items = items;
	l.len = (uint32_t)n;
	return l;
}

struct cel_value bind_objects(struct bind_call *c,
			      const struct kvet_object *const *v, size_t n)
{
	return object_list(c, (const void *const *)v, n, false);
}

struct cel_value bind_workloads(struct bind_call *c,
				const struct kvet_workload *const *v, size_t n)
{
	return object_list(c, (const void *const *)v, n, true);
}

struct cel_value bind_list(struct bind_call *c, const struct cel_value *items,
			   size_t n)
{
	struct cel_value l = { .type = CEL_LIST }, *copy;

	copy = kvet_arena_array(c->scratch, n + 1, sizeof(*copy));
	if (!copy)
		return bind_oom(c);
	if (n)
		memcpy(copy, items, n * sizeof(*copy));
	l.u.items = copy;
	l.len = (uint32_t)n;
	return l;
}

struct cel_value bind_empty_map(void)
{
	struct cel_value m = { .type = CEL_MAP };

	return m;
}

bool bind_map_init(struct bind_call *c, struct bind_map *m, uint32_t cap)
{
	m->e = kvet_arena_array(c->scratch, cap, sizeof(*m->e));
	m->n = 0;
	m->cap = cap;
	return m->e != NULL;
}

void bind_map_put(struct bind_map *m, const char *key, struct cel_value v)
{
	if (m->n < m->cap) {
		m->e[m->n].key = bind_str(key);
		m->e[m->n].value = v;
		m->n++;
	}
}

struct cel_value bind_map_done(struct bind_map *m, const struct kvet_node *at)
{
	struct cel_value v = { .type = CEL_MAP };

	v.u.entries = m->e;
	v.len = m->n;
	v.at = at;
	return v;
}

struct cel_value bind_problems(struct bind_call *c,
			       const struct kvet_problems *ps,
			       bind_words words, enum bind_problem_shape shape)
{
	struct cel_value *items, text, field;
	struct kvet_strbuf sb;
	struct bind_map m;
	size_t i;

	items = kvet_arena_array(c->scratch, ps->n + 1, sizeof(*items));
	if (!items)
		return bind_oom(c);
	for (i = 0; i < ps->n; i++) {
		const struct kvet_problem *p = &ps->v[i];

		kvet_strbuf_init(&sb, c->scratch);
		words(&sb, p);
		text = bind_strbuf(c, &sb);
		if (cel_is_error(&text) || !bind_map_init(c, &m, 3))
			return bind_oom(c);
		if (shape == BIND_PROBLEM_FIELD) {
			field = cel_null();
			field.at = p->at;
			bind_map_put(&m, "message", text);
			bind_map_put(&m, "field", field);
		} else {
			bind_map_put(&m, "term", bind_str(p->path));
			bind_map_put(&m, "field",
				     cel_from_node(p->part,
						   p->at ? p->at : p->part));
			bind_map_put(&m, "problem", text);
		}
		items[i] = bind_map_done(&m, NULL);
	}
	return bind_list(c, items, ps->n);
}

struct cel_value bind_release_label(struct bind_call *c, bool found,
				    const struct kvet_release_label *rel)
{
	struct bind_map m;

	if (!found)
		return cel_null();
	if (!bind_map_init(c, &m, 2))
		return bind_oom(c);
	bind_map_put(&m, "key", bind_str_at(rel->key.s, rel->key.len, NULL));
	bind_map_put(&m, "value",
		     bind_str_at(rel->value.s, rel->value.len, NULL));
	return bind_map_done(&m, NULL);
}

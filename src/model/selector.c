/* SPDX-License-Identifier: Apache-2.0 */
#include "model/selector.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NS_NAME_LABEL "kubernetes.io/metadata.name"

static const char *const op_names[] = {
	[KVET_SEL_IN] = "In",
	[KVET_SEL_NOT_IN] = "NotIn",
	[KVET_SEL_EXISTS] = "Exists",
	[KVET_SEL_DOES_NOT_EXIST] = "DoesNotExist",
};

const char *kvet_sel_op_name(enum kvet_sel_op op)
{
	return (unsigned)op < sizeof(op_names) / sizeof(op_names[0]) ?
	       op_names[op] : "?";
}

/* Operators are case-sensitive: "in" and "Exist" are invalid. */
static bool parse_op(const struct kvet_node *n, enum kvet_sel_op *op)
{
	size_t i;

	if (!kvet_node_is_string(n))
		return false;
	for (i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++) {
		if (kvet_node_text_eq(n, op_names[i])) {
			*op = (enum kvet_sel_op)i;
			return true;
		}
	}
	return false;
}

static struct kvet_slice node_slice(const struct kvet_node *n)
{
	struct kvet_slice s = { "", 0 };

	if (kvet_node_is_scalar(n) && n->type != KVET_NODE_NULL) {
		s.s = n->u.str;
		s.len = n->len;
	}
	return s;
}

/*
 * Record why @sel is invalid, once: the first problem is the one a user
 * fixes first. Returns -1 only when out of memory.
 */
static int invalid(struct kvet_arena *arena, struct kvet_selector *sel,
		   const struct kvet_node *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int invalid(struct kvet_arena *arena, struct kvet_selector *sel,
		   const struct kvet_node *at, const char *fmt, ...)
{
	va_list ap;

	if (sel->error)
		return 0;
	va_start(ap, fmt);
	sel->error = kvet_arena_vprintf(arena, fmt, ap);
	va_end(ap);
	if (!sel->error)
		return -1;
	if (at) {
		sel->err_line = at->line;
		sel->err_col = at->col;
	}
	return 0;
}

/* Printable prefix of a slice for messages, bounded so hostile keys
 * cannot make messages huge. */
#define SL_FMT "%.*s"
#define SL_ARG(sl) (int)((sl).len > 128 ? 128 : (sl).len), (sl).s

static int check_key(struct kvet_arena *arena, struct kvet_selector *sel,
		     const struct kvet_node *at, struct kvet_slice key)
{
	if (key.len == 0)
		return invalid(arena, sel, at, "selector key is empty");
	if (!kvet_label_key_valid(key))
		return invalid(arena, sel, at,
			       "selector key \"" SL_FMT "\" is not a valid "
			       "label key", SL_ARG(key));
	return 0;
}

/*
 * A value must be a string: the API server decodes selectors into Go
 * strings and rejects numbers and booleans, so "version: 1.0" must be
 * quoted. A null decodes to "".
 */
static int check_value(struct kvet_arena *arena, struct kvet_selector *sel,
		       const struct kvet_node *v, struct kvet_slice key)
{
	if (!kvet_node_is_scalar(v))
		return invalid(arena, sel, v,
			       "value for \"" SL_FMT "\" must be a string, "
			       "not %s", SL_ARG(key),
			       kvet_node_type_a(v ? v->type : KVET_NODE_NULL));
	if (v->type != KVET_NODE_STRING && v->type != KVET_NODE_NULL)
		return invalid(arena, sel, v,
			       "value for \"" SL_FMT "\" must be a string, "
			       "not %s (quote it)", SL_ARG(key),
			       kvet_node_type_a(v->type));
	if (!kvet_label_value_valid(node_slice(v)))
		return invalid(arena, sel, v,
			       "value \"" SL_FMT "\" for \"" SL_FMT "\" is not "
			       "a valid label value", SL_ARG(node_slice(v)),
			       SL_ARG(key));
	return 0;
}

static int slice_qcmp(const void *a, const void *b)
{
	return kvet_slice_cmp(*(const struct kvet_slice *)a,
			      *(const struct kvet_slice *)b);
}

/* matchLabels (or a plain map): each pair is "key In [value]". */
static int add_map_reqs(struct kvet_arena *arena, struct kvet_selector *sel,
			const struct kvet_node *map,
			struct kvet_requirement *reqs, size_t *n)
{
	uint32_t i;

	for (i = 0; i < map->len; i++) {
		const struct kvet_pair *p = &map->u.pairs[i];
		struct kvet_requirement *r = &reqs[(*n)++];
		struct kvet_slice *val;

		r->key = node_slice(&p->key);
		r->op = KVET_SEL_IN;
		r->node = &p->value;
		val = kvet_arena_alloc(arena, sizeof(*val));
		if (!val)
			return -1;
		*val = node_slice(&p->value);
		r->values = val;
		r->n_values = 1;
		if (check_key(arena, sel, &p->key, r->key) ||
		    check_value(arena, sel, &p->value, r->key))
			return -1;
	}
	return 0;
}

static int add_expression(struct kvet_arena *arena, struct kvet_selector *sel,
			  const struct kvet_node *e,
			  struct kvet_requirement *r)
{
	const struct kvet_node *key, *op, *values;
	struct kvet_slice *v;
	uint32_t i;

	r->node = e;
	if (!kvet_node_is_map(e))
		return invalid(arena, sel, e, "matchExpressions item must be "
			       "a mapping, not %s",
			       kvet_node_type_a(e->type));
	for (i = 0; i < e->len; i++) {
		const struct kvet_node *k = &e->u.pairs[i].key;

		if (!kvet_node_text_eq(k, "key") &&
		    !kvet_node_text_eq(k, "operator") &&
		    !kvet_node_text_eq(k, "values"))
			return invalid(arena, sel, k, "unknown field \""
				       SL_FMT "\" in matchExpressions item",
				       SL_ARG(node_slice(k)));
	}
	key = kvet_node_get(e, "key");
	op = kvet_node_get(e, "operator");
	values = kvet_node_get(e, "values");
	if (!kvet_node_is_string(key))
		return invalid(arena, sel, key ? key : e,
			       "matchExpressions item needs a string key");
	r->key = node_slice(key);
	if (check_key(arena, sel, key, r->key))
		return -1;
	if (!op || op->type == KVET_NODE_NULL)
		return invalid(arena, sel, e, "matchExpressions item for \""
			       SL_FMT "\" has no operator", SL_ARG(r->key));
	if (!parse_op(op, &r->op))
		return invalid(arena, sel, op, "operator \"" SL_FMT "\" is "
			       "not In, NotIn, Exists or DoesNotExist",
			       SL_ARG(node_slice(op)));
	if (values && values->type != KVET_NODE_NULL &&
	    !kvet_node_is_seq(values))
		return invalid(arena, sel, values, "values for \"" SL_FMT
			       "\" must be a sequence", SL_ARG(r->key));
	r->n_values = kvet_node_is_seq(values) ? values->len : 0;
	switch (r->op) {
	case KVET_SEL_IN:
	case KVET_SEL_NOT_IN:
		if (!r->n_values)
			return invalid(arena, sel, values ? values : op,
				       "operator %s on \"" SL_FMT "\" needs "
				       "at least one value",
				       kvet_sel_op_name(r->op), SL_ARG(r->key));
		break;
	case KVET_SEL_EXISTS:
	case KVET_SEL_DOES_NOT_EXIST:
		if (r->n_values)
			return invalid(arena, sel, values,
				       "operator %s on \"" SL_FMT "\" takes "
				       "no values", kvet_sel_op_name(r->op),
				       SL_ARG(r->key));
		return 0;
	}
	v = kvet_arena_array(arena, r->n_values, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < r->n_values; i++) {
		if (check_value(arena, sel, &values->u.items[i], r->key))
			return -1;
		v[i] = node_slice(&values->u.items[i]);
	}
	qsort(v, r->n_values, sizeof(*v), slice_qcmp);
	r->values = v;
	return 0;
}

/* Parse a LabelSelector mapping into @sel->reqs and @sel->form. */
static int parse_label_selector(struct kvet_arena *arena,
				struct kvet_selector *sel,
				const struct kvet_node *n)
{
	const struct kvet_node *ml, *me;
	struct kvet_requirement *reqs;
	size_t count = 0, k = 0;
	uint32_t i;

	/* until the shape is known to be right */
	sel->form = KVET_SEL_FORM_MALFORMED;
	for (i = 0; i < n->len; i++) {
		const struct kvet_node *key = &n->u.pairs[i].key;

		if (!kvet_node_text_eq(key, "matchLabels") &&
		    !kvet_node_text_eq(key, "matchExpressions"))
			return invalid(arena, sel, key, "unknown field \""
				       SL_FMT "\" in label selector (labels "
				       "go under matchLabels)",
				       SL_ARG(node_slice(key)));
	}
	ml = kvet_node_get(n, "matchLabels");
	me = kvet_node_get(n, "matchExpressions");
	if (!kvet_node_is_null(ml) && !kvet_node_is_map(ml))
		return invalid(arena, sel, ml, "matchLabels must be a mapping, "
			       "not %s", kvet_node_type_a(ml->type));
	if (!kvet_node_is_null(me) && !kvet_node_is_seq(me))
		return invalid(arena, sel, me, "matchExpressions must be a "
			       "sequence, not %s",
			       kvet_node_type_a(me->type));
	count = (kvet_node_is_map(ml) ? ml->len : 0) +
		(kvet_node_is_seq(me) ? me->len : 0);
	if (!count) {
		sel->form = KVET_SEL_FORM_EMPTY;
		return 0;
	}
	sel->form = KVET_SEL_FORM_REQUIREMENTS;
	reqs = kvet_arena_array(arena, count, sizeof(*reqs));
	if (!reqs)
		return -1;
	if (kvet_node_is_map(ml) && add_map_reqs(arena, sel, ml, reqs, &k))
		return -1;
	for (i = 0; kvet_node_is_seq(me) && i < me->len; i++)
		if (add_expression(arena, sel, &me->u.items[i], &reqs[k++]))
			return -1;
	sel->reqs = reqs;
	sel->n_reqs = k;
	return 0;
}

static int parse_plain_map(struct kvet_arena *arena, struct kvet_selector *sel,
			   const struct kvet_node *n)
{
	struct kvet_requirement *reqs;
	size_t k = 0;

	if (!n->len) {
		sel->form = KVET_SEL_FORM_EMPTY;
		return 0;
	}
	sel->form = KVET_SEL_FORM_REQUIREMENTS;
	reqs = kvet_arena_array(arena, n->len, sizeof(*reqs));
	if (!reqs || add_map_reqs(arena, sel, n, reqs, &k))
		return -1;
	sel->reqs = reqs;
	sel->n_reqs = k;
	return 0;
}

static bool is_plain(enum kvet_sel_field field)
{
	return field == KVET_SEL_FIELD_SERVICE ||
	       field == KVET_SEL_FIELD_PLAIN_WORKLOAD;
}

/*
 * The null-versus-empty table (docs/model.md, "Selectors"): what an
 * absent (or null) and an empty selector select, per field.
 */
static const struct {
	enum kvet_sel_meaning absent, empty;
} field_meanings[] = {
	/* policy/v1 selects every pod with {}; v1beta1 none */
	[KVET_SEL_FIELD_PDB_V1] = { KVET_SEL_NOTHING, KVET_SEL_EVERYTHING },
	[KVET_SEL_FIELD_PDB_V1BETA1] = { KVET_SEL_NOTHING, KVET_SEL_NOTHING },
	/* a Service without selector has no endpoints */
	[KVET_SEL_FIELD_SERVICE] = { KVET_SEL_NOTHING, KVET_SEL_NOTHING },
	[KVET_SEL_FIELD_AFFINITY_TERM] = { KVET_SEL_NOTHING,
					   KVET_SEL_EVERYTHING },
	/* the term's scope rule adds its own namespace */
	[KVET_SEL_FIELD_AFFINITY_NS] = { KVET_SEL_NOTHING,
					 KVET_SEL_EVERYTHING },
	[KVET_SEL_FIELD_SPREAD] = { KVET_SEL_NOTHING, KVET_SEL_EVERYTHING },
	/* defaulted to {} by the API server */
	[KVET_SEL_FIELD_WEBHOOK] = { KVET_SEL_EVERYTHING, KVET_SEL_EVERYTHING },
	/* required by the API server */
	[KVET_SEL_FIELD_WORKLOAD] = { KVET_SEL_INVALID, KVET_SEL_INVALID },
	/* a ReplicationController's until defaulted */
	[KVET_SEL_FIELD_PLAIN_WORKLOAD] = { KVET_SEL_NOTHING,
					    KVET_SEL_NOTHING },
};

static enum kvet_sel_meaning absent_meaning(enum kvet_sel_field field)
{
	return field_meanings[field].absent;
}

static enum kvet_sel_meaning empty_meaning(enum kvet_sel_field field)
{
	return field_meanings[field].empty;
}

int kvet_selector_parse(struct kvet_arena *arena, const struct kvet_node *n,
			enum kvet_sel_field field, struct kvet_selector *out)
{
	int ret = 0;

	memset(out, 0, sizeof(*out));
	out->field = field;
	out->node = n;
	if (kvet_node_is_null(n)) {
		out->form = KVET_SEL_FORM_ABSENT;
		out->meaning = absent_meaning(field);
		if (out->meaning == KVET_SEL_INVALID)
			ret = invalid(arena, out, n, "selector is missing");
		return ret;
	}
	if (!kvet_node_is_map(n)) {
		out->form = KVET_SEL_FORM_MALFORMED;
		out->meaning = KVET_SEL_INVALID;
		return invalid(arena, out, n, "selector must be a mapping, "
			       "not %s", kvet_node_type_a(n->type));
	}
	if (is_plain(field))
		ret = parse_plain_map(arena, out, n);
	else
		ret = parse_label_selector(arena, out, n);
	if (ret)
		return -1;
	if (out->error) {
		out->meaning = KVET_SEL_INVALID;
		return 0;
	}
	switch (out->form) {
	case KVET_SEL_FORM_EMPTY:
		out->meaning = empty_meaning(field);
		if (out->meaning == KVET_SEL_INVALID)
			ret = invalid(arena, out, n, "empty selector is invalid");
		break;
	default:
		out->meaning = KVET_SEL_MATCH;
		break;
	}
	return ret;
}

int kvet_selector_from_labels(struct kvet_arena *arena,
			      const struct kvet_labels *labels,
			      enum kvet_sel_field field,
			      struct kvet_selector *out)
{
	struct kvet_requirement *reqs;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->field = field;
	if (!labels || !labels->n) {
		out->form = KVET_SEL_FORM_EMPTY;
		out->meaning = KVET_SEL_INVALID;
		return invalid(arena, out, NULL, "empty selector is invalid");
	}
	reqs = kvet_arena_array(arena, labels->n, sizeof(*reqs));
	if (!reqs)
		return -1;
	for (i = 0; i < labels->n; i++) {
		reqs[i].key = labels->v[i].key;
		reqs[i].op = KVET_SEL_IN;
		reqs[i].values = &labels->v[i].value;
		reqs[i].n_values = 1;
	}
	out->form = KVET_SEL_FORM_REQUIREMENTS;
	out->meaning = KVET_SEL_MATCH;
	out->reqs = reqs;
	out->n_reqs = labels->n;
	return 0;
}

/*
 * A runtime label value: @head followed by the bytes of @tail. Synthetic
 * values start with a control byte, which no valid label value contains,
 * so they never equal what the input wrote.
 */
struct rt_value {
	struct kvet_slice head;
	char tail[48];
	size_t tail_len;
};

static bool rt_value_eq(const struct rt_value *v, struct kvet_slice s)
{
	return s.len == v->head.len + v->tail_len &&
	       (!v->head.len || memcmp(s.s, v->head.s, v->head.len) == 0) &&
	       memcmp(s.s + v->head.len, v->tail, v->tail_len) == 0;
}

static void rt_synthetic(struct rt_value *v, const char *tag, uint32_t uid,
			 uint32_t revision, bool per_revision)
{
	int len;

	v->head = kvet_slice_of(tag);
	if (per_revision)
		len = snprintf(v->tail, sizeof(v->tail), "%" PRIu32 ".%" PRIu32,
			       uid, revision);
	else
		len = snprintf(v->tail, sizeof(v->tail), "%" PRIu32, uid);
	v->tail_len = len > 0 ? (size_t)len : 0;
}

/*
 * The value of runtime label @key on the pod @rt, when the pod's
 * controller sets that label. Controllers overwrite what the template
 * says, so these win over template labels.
 */
static bool rt_lookup(const struct kvet_pod_runtime *rt, struct kvet_slice key,
		      struct rt_value *v)
{
	int len;

	if (!rt)
		return false;
	if ((rt->flags & KVET_RT_TEMPLATE_HASH) &&
	    kvet_slice_eq0(key, "pod-template-hash")) {
		rt_synthetic(v, "\001h", rt->uid, rt->revision, true);
		return true;
	}
	if ((rt->flags & KVET_RT_REVISION_HASH) &&
	    kvet_slice_eq0(key, "controller-revision-hash")) {
		rt_synthetic(v, "\001r", rt->uid, rt->revision, true);
		return true;
	}
	if ((rt->flags & KVET_RT_TEMPLATE_GENERATION) &&
	    kvet_slice_eq0(key, "pod-template-generation")) {
		rt_synthetic(v, "\001g", rt->uid, rt->revision, true);
		return true;
	}
	if (rt->flags & KVET_RT_STS_POD) {
		if (kvet_slice_eq0(key, "statefulset.kubernetes.io/pod-name")) {
			/* "<statefulset>-<ordinal>" */
			v->head = rt->name;
			len = snprintf(v->tail, sizeof(v->tail), "-%" PRIu32,
				       rt->ordinal);
			v->tail_len = len > 0 ? (size_t)len : 0;
			return true;
		}
		if (kvet_slice_eq0(key, "apps.kubernetes.io/pod-index")) {
			v->head = kvet_slice_of("");
			len = snprintf(v->tail, sizeof(v->tail), "%" PRIu32,
				       rt->ordinal);
			v->tail_len = len > 0 ? (size_t)len : 0;
			return true;
		}
	}
	if (rt->flags & KVET_RT_JOB) {
		if (kvet_slice_eq0(key, "batch.kubernetes.io/job-name") ||
		    kvet_slice_eq0(key, "job-name")) {
			if (rt->name.len) {
				v->head = rt->name;
				v->tail_len = 0;
			} else {
				/* a CronJob's Job names carry a timestamp */
				rt_synthetic(v, "\001j", rt->uid, rt->revision,
					     true);
			}
			return true;
		}
		if (kvet_slice_eq0(key, "batch.kubernetes.io/controller-uid") ||
		    kvet_slice_eq0(key, "controller-uid")) {
			rt_synthetic(v, "\001u", rt->uid, rt->revision, true);
			return true;
		}
	}
	return false;
}

int kvet_runtime_value(struct kvet_arena *arena,
		       const struct kvet_pod_runtime *rt, struct kvet_slice key,
		       struct kvet_slice *out)
{
	struct rt_value v;
	char *s;

	if (!rt_lookup(rt, key, &v))
		return 0;
	s = kvet_arena_alloc(arena, v.head.len + v.tail_len + 1);
	if (!s)
		return -1;
	if (v.head.len)
		memcpy(s, v.head.s, v.head.len);
	memcpy(s + v.head.len, v.tail, v.tail_len);
	out->s = s;
	out->len = v.head.len + v.tail_len;
	return 1;
}

/* The runtime label keys kvet models (rt_lookup()). */
static const char *const runtime_keys[] = {
	"pod-template-hash", "controller-revision-hash",
	"pod-template-generation",
	"statefulset.kubernetes.io/pod-name",
	"apps.kubernetes.io/pod-index",
	"batch.kubernetes.io/job-name", "job-name",
	"batch.kubernetes.io/controller-uid", "controller-uid",
};

#define N_RUNTIME_KEYS (sizeof(runtime_keys) / sizeof(runtime_keys[0]))

bool kvet_runtime_key(struct kvet_slice key)
{
	size_t i;

	for (i = 0; i < N_RUNTIME_KEYS; i++)
		if (kvet_slice_eq0(key, runtime_keys[i]))
			return true;
	return false;
}

int kvet_runtime_labels(struct kvet_arena *arena,
			const struct kvet_labels *labels,
			const struct kvet_pod_runtime *rt,
			struct kvet_labels *out)
{
	size_t n_in = labels ? labels->n : 0, n = 0, i;
	struct kvet_label *v;
	struct rt_value rv;
	int rc;

	v = kvet_arena_array(arena, n_in + N_RUNTIME_KEYS + 1, sizeof(*v));
	if (!v)
		return -1;
	for (i = 0; i < N_RUNTIME_KEYS; i++) {
		v[n].key = kvet_slice_of(runtime_keys[i]);
		rc = kvet_runtime_value(arena, rt, v[n].key, &v[n].value);
		if (rc < 0)
			return -1;
		n += rc;
	}
	/* the controller's value wins over the template's */
	for (i = 0; i < n_in; i++)
		if (!rt_lookup(rt, labels->v[i].key, &rv))
			v[n++] = labels->v[i];
	kvet_labels_from_array(v, n, out);
	return 0;
}

static bool values_contain(const struct kvet_requirement *r,
			   struct kvet_slice v)
{
	return kvet_sorted_find(r->values, r->n_values, sizeof(*r->values),
				v) < r->n_values;
}

static bool values_contain_rt(const struct kvet_requirement *r,
			      const struct rt_value *v)
{
	size_t i;

	/* values are few; synthetic ones cannot be binary-searched cheaply */
	for (i = 0; i < r->n_values; i++)
		if (rt_value_eq(v, r->values[i]))
			return true;
	return false;
}

bool kvet_requirement_matches(const struct kvet_requirement *r,
			      const struct kvet_labels *labels,
			      const struct kvet_pod_runtime *rt)
{
	struct kvet_slice val = { NULL, 0 };
	struct rt_value rv;
	bool present, in = false, runtime;

	runtime = rt_lookup(rt, r->key, &rv);
	present = runtime || kvet_labels_get(labels, r->key, &val);
	if (present && (r->op == KVET_SEL_IN || r->op == KVET_SEL_NOT_IN))
		in = runtime ? values_contain_rt(r, &rv) :
			       values_contain(r, val);
	switch (r->op) {
	case KVET_SEL_IN:
		return present && in;
	case KVET_SEL_NOT_IN:
		/* NotIn matches when the key is absent */
		return !present || !in;
	case KVET_SEL_EXISTS:
		return present;
	case KVET_SEL_DOES_NOT_EXIST:
		return !present;
	}
	return false;
}

bool kvet_selector_matches(const struct kvet_selector *sel,
			   const struct kvet_labels *labels,
			   const struct kvet_pod_runtime *rt)
{
	size_t i;

	switch (sel->meaning) {
	case KVET_SEL_EVERYTHING:
		return true;
	case KVET_SEL_MATCH:
		for (i = 0; i < sel->n_reqs; i++)
			if (!kvet_requirement_matches(&sel->reqs[i], labels, rt))
				return false;
		return true;
	default:
		return false;
	}
}

enum kvet_match kvet_match_and(enum kvet_match a, enum kvet_match b)
{
	static const enum kvet_match order[] = {
		KVET_MATCH_FALSE, KVET_MATCH_ASSUMED_FALSE, KVET_MATCH_UNKNOWN,
		KVET_MATCH_ASSUMED_TRUE, KVET_MATCH_TRUE,
	};
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (a == order[i] || b == order[i])
			return order[i];
	return KVET_MATCH_UNKNOWN;
}

/* Each result as kvet_match_name() and kvet_match_verdict() spell it. */
static const char *const match_names[][2] = {
	[KVET_MATCH_FALSE] = { "false", "FALSE" },
	[KVET_MATCH_TRUE] = { "true", "TRUE" },
	[KVET_MATCH_ASSUMED_FALSE] = { "assumed-false", "ASSUMED-FALSE" },
	[KVET_MATCH_ASSUMED_TRUE] = { "assumed-true", "ASSUMED-TRUE" },
	[KVET_MATCH_UNKNOWN] = { "unknown", "UNKNOWN" },
};
#define N_MATCH (sizeof(match_names) / sizeof(match_names[0]))

const char *kvet_match_name(enum kvet_match m)
{
	return (unsigned)m < N_MATCH ? match_names[m][0] : "?";
}

const char *kvet_match_verdict(enum kvet_match m)
{
	return (unsigned)m < N_MATCH ? match_names[m][1] : "?";
}

enum kvet_match kvet_selector_match_namespace(const struct kvet_selector *sel,
					      const char *ns,
					      const struct kvet_labels *ns_labels)
{
	struct kvet_label one = {
		kvet_slice_of(NS_NAME_LABEL), kvet_slice_of(ns)
	};
	struct kvet_labels only_name = { &one, 1 };
	bool assumed = false, result = true;
	size_t i;

	switch (sel->meaning) {
	case KVET_SEL_EVERYTHING:
		return KVET_MATCH_TRUE;
	case KVET_SEL_MATCH:
		break;
	default:
		return KVET_MATCH_FALSE;
	}
	for (i = 0; i < sel->n_reqs; i++) {
		const struct kvet_requirement *r = &sel->reqs[i];
		bool m;

		if (kvet_slice_eq0(r->key, NS_NAME_LABEL)) {
			/* set on every namespace since 1.22; wins over
			 * whatever the Namespace object says */
			m = kvet_requirement_matches(r, &only_name, NULL);
			if (!m)
				return KVET_MATCH_FALSE;
			continue;
		}
		m = kvet_requirement_matches(r, ns_labels, NULL);
		if (!ns_labels)
			assumed = true;
		else if (!m)
			return KVET_MATCH_FALSE;
		result = result && m;
	}
	if (assumed)
		return result ? KVET_MATCH_ASSUMED_TRUE : KVET_MATCH_ASSUMED_FALSE;
	return KVET_MATCH_TRUE;
}

const char *kvet_selector_form_name(const struct kvet_selector *sel)
{
	if (sel->meaning == KVET_SEL_INVALID)
		return "invalid";
	if (sel->form == KVET_SEL_FORM_ABSENT)
		return "absent";
	if (sel->form == KVET_SEL_FORM_EMPTY)
		return "empty";
	return "requirements";
}

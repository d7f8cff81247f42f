/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rule runner: for each object, the rules whose `match` it passes;
 * for each rule, the condition (once, or once per item of `each`), and
 * for each firing, a finding with its message, severity, position and
 * related object. Evaluation memory is a scratch arena reset between
 * objects, so the runner calls malloc only while it warms up.
 */
#include "rules/rules.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "model/run.h"
#include "rules/env.h"

struct kvet_rule_runner {
	const struct kvet_rule_set *set;
	struct kvet_arena *arena;
	struct kvet_findings *fs;
	struct kvet_diag *diag;		/* evaluation errors */
	struct kvet_arena scratch;
	struct kvet_arena_mark empty;
	struct cel_env env;
	struct kvet_cel_host host;	/* the run, for kvet's functions */
	const struct kvet_graph_config *cfg;	/* the declared workloads */
	struct cel_value *vars;
	unsigned int n_vars;
	struct cel_lazy lazy;		/* the rule's variables: */
	struct cel_value *lazy_values;	/* room for the most of any rule */
	uint8_t *lazy_state;
	size_t errors;
	size_t *errors_of;		/* per rule of the set */
	/* the rule and object being evaluated */
	size_t rule;
	const struct kvet_object *obj;
	bool gave_up;			/* a failure: stop this pair */
	bool oom;			/* an error could not be recorded */
};

struct kvet_rule_runner *kvet_rule_runner_create(const struct kvet_rule_set *set,
						 const struct kvet_graph *g,
						 struct kvet_arena *arena,
						 struct kvet_findings *fs,
						 struct kvet_diag *errors)
{
	struct kvet_rule_runner *r = calloc(1, sizeof(*r));
	size_t i, n_lazy = 0;

	if (!r)
		return NULL;
	r->set = set;
	r->arena = arena;
	r->fs = fs;
	r->diag = errors;
	r->cfg = kvet_graph_config(g);
	kvet_arena_init(&r->scratch);
	kvet_arena_mark(&r->scratch, &r->empty);
	if (cel_env_init(&r->env, &r->scratch))
		goto fail;
	/* the indexes answer the rules alone: what a finding keeps of
	 * them is copied into @arena, so they go with the runner */
	kvet_cel_host_attach(&r->env, &r->host, kvet_run_create(NULL, g));
	r->n_vars = KVET_RULE_VAR_GROUP + 1;
	for (i = 0; i < set->n; i++)
		if (set->v[i]->n_slots > r->n_vars)
			r->n_vars = set->v[i]->n_slots;
	r->vars = calloc(r->n_vars, sizeof(*r->vars));
	for (i = 0; i < set->n; i++)
		if (set->v[i]->n_vars > n_lazy)
			n_lazy = set->v[i]->n_vars;
	r->lazy_values = calloc(n_lazy + 1, sizeof(*r->lazy_values));
	r->lazy_state = calloc(n_lazy + 1, sizeof(*r->lazy_state));
	r->errors_of = calloc(set->n + 1, sizeof(*r->errors_of));
	if (!r->host.run || !r->vars || !r->lazy_values || !r->lazy_state ||
	    !r->errors_of)
		goto fail;
	r->env.lazy = &r->lazy;
	return r;
fail:
	kvet_rule_runner_destroy(r);
	return NULL;
}

void kvet_rule_runner_destroy(struct kvet_rule_runner *r)
{
	if (!r)
		return;
	kvet_run_destroy(r->host.run);
	cel_env_release(&r->env);
	kvet_arena_release(&r->scratch);
	free(r->vars);
	free(r->lazy_values);
	free(r->lazy_state);
	free(r->errors_of);
	free(r);
}

size_t kvet_rule_runner_errors(const struct kvet_rule_runner *r)
{
	return r->errors;
}

/* Record an error at @file:@line:@col of rule @rule. */
__attribute__((format(printf, 6, 7)))
static struct kvet_error *add_error(struct kvet_rule_runner *r,
				    const struct kvet_rule *rule,
				    const char *file, unsigned int line,
				    unsigned int col, const char *fmt, ...)
{
	size_t before = r->diag->n;
	struct kvet_error *e;
	va_list ap;

	va_start(ap, fmt);
	kvet_diag_vaddf(r->diag, file, line, col, fmt, ap);
	va_end(ap);
	if (r->diag->n == before) {
		r->oom = true;
		return NULL;
	}
	e = &r->diag->errors[before];
	e->rule = rule->info.id;
	e->tolerated = rule->tolerate_errors;
	return e;
}

/*
 * An evaluation error: @what of @rule (its condition, message...) gave
 * @v on the current object, which is an error, or a value of the wrong
 * type described by @want. It is listed at the most specific place
 * known: where the error arose in the object (the map a key is missing
 * from), else the object. The first KVET_RULE_ERRORS_LISTED of a rule
 * are listed; kvet_rule_runner_finish() counts the others.
 */
static void eval_error(struct kvet_rule_runner *r, const struct kvet_rule *rule,
		       const char *what, const struct cel_value *v,
		       const char *want)
{
	const struct kvet_object *obj = r->obj;
	const struct kvet_node *at = v->type == CEL_ERROR ? v->at : NULL;
	struct kvet_object_ref *ref;
	struct kvet_error *e;
	const char *sep = *obj->namespace ? "/" : "";

	/* after a failure the rest of the pair fails the same way */
	if (r->gave_up && cel_is_failure(v))
		return;
	r->errors++;
	if (cel_is_failure(v))
		r->gave_up = true;
	if (r->errors_of[r->rule]++ >= KVET_RULE_ERRORS_LISTED)
		return;
	ref = kvet_arena_alloc(r->arena, sizeof(*ref));
	if (!ref) {
		r->oom = true;
		return;
	}
	kvet_object_ref_set(ref, obj);
	if (v->type == CEL_ERROR)
		e = add_error(r, rule, obj->file, at ? at->line : obj->line,
			      at ? at->col : obj->col,
			      "cannot evaluate %s on %s %s%s%s: %s", what,
			      obj->kind, obj->namespace, sep, obj->name,
			      v->u.s);
	else if (v->type == CEL_STRING)
		e = add_error(r, rule, obj->file, obj->line, obj->col,
			      "cannot evaluate %s on %s %s%s%s: it gave \"%.*s\", not %s",
			      what, obj->kind, obj->namespace, sep, obj->name,
			      (int)(v->len > 40 ? 40 : v->len), v->u.s, want);
	else
		e = add_error(r, rule, obj->file, obj->line, obj->col,
			      "cannot evaluate %s on %s %s%s%s: it gave %s, not %s",
			      what, obj->kind, obj->namespace, sep, obj->name,
			      cel_type_name(v->type), want);
	if (e)
		e->object = ref;
}

int kvet_rule_runner_finish(struct kvet_rule_runner *r)
{
	size_t i, more;

	for (i = 0; i < r->set->n; i++) {
		if (r->errors_of[i] <= KVET_RULE_ERRORS_LISTED)
			continue;
		more = r->errors_of[i] - KVET_RULE_ERRORS_LISTED;
		add_error(r, r->set->v[i], r->set->v[i]->file, 0, 0,
			  "%zu more evaluation error%s of rule \"%s\" not listed (the first %d are)",
			  more, more == 1 ? "" : "s", r->set->v[i]->info.id,
			  KVET_RULE_ERRORS_LISTED);
	}
	return r->oom ? -1 : 0;
}

/* The kind class of the object (*@cls, worked out on first use and
 * kept for the object's other rules; -1 until then). */
static bool kind_matches(const struct kvet_rule *rule,
			 const struct kvet_object *obj,
			 const struct kvet_custom_workload *custom, size_t n,
			 int *cls)
{
	size_t i, gl;

	if (rule->kind_class != KVET_KIND_OTHER) {
		if (*cls < 0)
			*cls = (int)kvet_workload_kind_class(custom, n,
							     obj->group,
							     obj->kind);
		if ((enum kvet_kind_class)*cls >= rule->kind_class)
			return true;
	}
	if (rule->kind_parts) {
		/* the first byte first: most kinds differ there */
		for (i = 0; i < rule->n_kinds; i++) {
			const struct kvet_rule_kind *rk = &rule->kind_parts[i];

			if (rk->kind[0] != obj->kind[0] ||
			    strcmp(rk->kind, obj->kind))
				continue;
			if (!rk->group ||
			    (!strncmp(obj->group, rk->group, rk->group_len) &&
			     !obj->group[rk->group_len]))
				return true;
		}
		return false;
	}
	for (i = 0; i < rule->n_kinds; i++) {
		const char *k = rule->kinds[i], *slash = strchr(k, '/');

		if (!slash) {
			if (!strcmp(k, obj->kind))
				return true;
			continue;
		}
		gl = (size_t)(slash - k);
		if (!strcmp(slash + 1, obj->kind) && strlen(obj->group) == gl &&
		    !memcmp(obj->group, k, gl))
			return true;
	}
	return false;
}

bool kvet_rule_matches_class(const struct kvet_rule *rule,
			     const struct kvet_object *obj,
			     const struct kvet_custom_workload *custom,
			     size_t n, int *cls)
{
	const struct kvet_node *labels;
	size_t i;

	if (!kind_matches(rule, obj, custom, n, cls))
		return false;
	if (rule->n_namespaces) {
		for (i = 0; i < rule->n_namespaces; i++)
			if (!strcmp(rule->namespaces[i], obj->namespace))
				break;
		if (i == rule->n_namespaces)
			return false;
	}
	if (!rule->n_labels)
		return true;
	labels = kvet_node_path(obj->root, "metadata", "labels", NULL);
	for (i = 0; i < rule->n_labels; i++) {
		struct cel_value lv = cel_from_node(labels, NULL), v;
		const struct cel_value *want = &rule->labels[i].value;

		if (!cel_map_find(&lv, &rule->labels[i].key, &v) ||
		    cel_equal(&v, want) != 1)
			return false;
	}
	return true;
}

bool kvet_rule_matches(const struct kvet_rule *rule,
		       const struct kvet_object *obj,
		       const struct kvet_custom_workload *custom, size_t n)
{
	int cls = -1;

	return kvet_rule_matches_class(rule, obj, custom, n, &cls);
}

/* True when @msg needs no change by kvet_rule_one_line(): reading it
 * is cheaper than rewriting it, and most messages are already clean. */
static bool is_one_line(const char *msg)
{
	const char *s = msg;

	if (*s == ' ')
		return false;
#ifdef __SSE2__
	{
		/* sixteen bytes at a time: a control byte, or a space before
		 * a space; the second load ends at most at the NUL */
		const __m128i sp = _mm_set1_epi8(' '), ctl = _mm_set1_epi8(0x1f);
		size_t len = strlen(msg), i;

		for (i = 0; i + 16 <= len; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(msg + i));
			__m128i next = _mm_loadu_si128(
				(const __m128i *)(msg + i + 1));
			__m128i bad = _mm_or_si128(
				_mm_cmpeq_epi8(_mm_min_epu8(v, ctl), v),
				_mm_and_si128(_mm_cmpeq_epi8(v, sp),
					      _mm_cmpeq_epi8(next, sp)));

			if (_mm_movemask_epi8(bad))
				return false;
		}
		/* a space last is one before the NUL: the loop below */
		s = msg + (i ? i - 1 : 0);
	}
#endif
	for (; *s; s++)
		if ((unsigned char)*s <= ' ' &&
		    (*s != ' ' || s[1] == ' ' || !s[1]))
			return false;
	return true;
}

char *kvet_rule_one_line(char *msg)
{
	char *in = msg, *out = msg;

	if (is_one_line(msg))
		return msg;
	for (; *in; in++) {
		char c = *in == '\n' || *in == '\t' || *in == '\r' ? ' ' : *in;

		if (c == ' ' && (out == msg || out[-1] == ' '))
			continue;
		*out++ = c;
	}
	while (out > msg && out[-1] == ' ')
		out--;
	*out = '\0';
	return msg;
}

/* A template (message, headline, reason, help): text pieces and the
 * text of each {{ expression }}, on one line. */
static const char *render_template(struct kvet_rule_runner *r,
				   const struct kvet_rule *rule,
				   const struct kvet_template *t,
				   const char *what)
{
	const char *local_parts[16], **parts = local_parts;
	size_t i, len = 0, local_lens[16], *lens = local_lens;
	char *msg;

	if (t->constant)
		return t->constant;
	/* most templates have a few pieces: on the stack */
	if (t->n > 16) {
		parts = kvet_arena_array(&r->scratch, t->n + 1, sizeof(*parts));
		lens = kvet_arena_array(&r->scratch, t->n + 1, sizeof(*lens));
		if (!parts || !lens)
			return NULL;
	}
	for (i = 0; i < t->n; i++) {
		const struct kvet_msg_part *p = &t->parts[i];
		struct cel_value v;

		if (p->text) {
			parts[i] = p->text;
			lens[i] = p->len;
		} else {
			v = cel_eval(&r->env, &p->prog, r->vars);
			if (v.type == CEL_ERROR)
				eval_error(r, rule, what, &v, NULL);
			/* a string, most expressions' value, is copied once,
			 * into the message below; the text of a value is up to
			 * its first NUL */
			if (v.type == CEL_STRING) {
				parts[i] = v.len ? v.u.s : "";
				lens[i] = v.len ? strnlen(v.u.s, v.len) : 0;
				len += lens[i];
				continue;
			}
			parts[i] = cel_to_text(&r->scratch, &v);
			if (!parts[i])
				return NULL;
			lens[i] = strlen(parts[i]);
		}
		len += lens[i];
	}
	msg = kvet_arena_alloc(&r->scratch, len + 1);
	if (!msg)
		return NULL;
	for (len = 0, i = 0; i < t->n; i++) {
		memcpy(msg + len, parts[i], lens[i]);
		len += lens[i];
	}
	msg[len] = '\0';
	return kvet_rule_one_line(msg);
}

/* @t rendered into *@out when the rule has it. Returns false when out of
 * memory. */
static bool render_word(struct kvet_rule_runner *r,
			const struct kvet_rule *rule,
			const struct kvet_template *t, const char *what,
			const char **out)
{
	if (!t->text)
		return true;
	*out = render_template(r, rule, t, what);
	return *out != NULL;
}

/* The words of the finding (struct kvet_finding_text), those the rule
 * has. Returns 0, or -1 when out of memory. */
static int render_words(struct kvet_rule_runner *r,
			const struct kvet_rule *rule,
			struct kvet_finding_text *text)
{
	memset(text, 0, sizeof(*text));
	text->help = rule->help_default;
	if (!render_word(r, rule, &rule->message, "the message",
			 &text->message) ||
	    !render_word(r, rule, &rule->headline, "the headline",
			 &text->headline) ||
	    !render_word(r, rule, &rule->reason, "the reason", &text->reason) ||
	    !render_word(r, rule, &rule->help, "the help", &text->help))
		return -1;
	return 0;
}

static const struct kvet_node *resolve_at(struct kvet_rule_runner *r,
					  const struct kvet_rule *rule)
{
	size_t i;

	for (i = 0; i < rule->n_at; i++) {
		struct cel_value v = cel_eval(&r->env, &rule->at[i], r->vars);

		if (v.type != CEL_ERROR && v.at)
			return v.at;
		/* an error means "not this field", unless kvet gave up */
		if (cel_is_failure(&v)) {
			eval_error(r, rule, "\"at\"", &v, NULL);
			break;
		}
	}
	return NULL;
}

static enum kvet_severity severity(struct kvet_rule_runner *r,
				   const struct kvet_rule *rule)
{
	struct cel_value v;
	size_t i;

	if (!rule->has_severity_expr)
		return rule->info.severity;
	v = cel_eval(&r->env, &rule->severity_expr, r->vars);
	for (i = 0; v.type == CEL_STRING && i < KVET_SEV_COUNT; i++) {
		const char *name = kvet_rule_severity_names[i];

		if (v.len == strlen(name) && !memcmp(v.u.s, name, v.len))
			return (enum kvet_severity)i;
	}
	eval_error(r, rule, "severity_expr", &v,
		   "\"error\", \"warning\" or \"info\"");
	return rule->info.severity;
}

/* Add @obj to @v unless it is NULL, the finding's object or there. */
static void add_related(const struct kvet_object **v, size_t *n, size_t cap,
			const struct kvet_object *obj,
			const struct kvet_object *primary)
{
	size_t i;

	if (!obj || obj == primary || *n == cap)
		return;
	for (i = 0; i < *n; i++)
		if (v[i] == obj)
			return;
	v[(*n)++] = obj;
}

/*
 * The related objects: the `each` item when it is an object, then what
 * `related:` gives (an object, or a list whose objects count; nulls and
 * other values are skipped, so a rule may write [maybeNull] + list).
 */
static int related_objects(struct kvet_rule_runner *r,
			   const struct kvet_rule *rule,
			   const struct kvet_object *obj,
			   const struct kvet_object *item,
			   struct kvet_finding *f)
{
	const struct kvet_object **v;
	struct kvet_object_ref *refs;
	struct cel_value rel = { .type = CEL_NULL };
	size_t i, n = 0, cap = 1;

	if (rule->has_related) {
		rel = cel_eval(&r->env, &rule->related, r->vars);
		if (rel.type == CEL_ERROR)
			eval_error(r, rule, "\"related\"", &rel, NULL);
		if (rel.type == CEL_LIST)
			cap += cel_len(&rel);
		else if (kvet_cel_object(&rel))
			cap++;
	}
	v = kvet_arena_array(&r->scratch, cap, sizeof(*v));
	if (!v)
		return -1;
	add_related(v, &n, cap, item, obj);
	if (rel.type == CEL_LIST) {
		for (i = 0; i < cel_len(&rel); i++) {
			struct cel_value it = cel_list_at(&rel, i);

			add_related(v, &n, cap, kvet_cel_object(&it), obj);
		}
	} else {
		add_related(v, &n, cap, kvet_cel_object(&rel), obj);
	}
	if (!n)
		return 0;
	/* built in scratch: the findings keep each list once (the six
	 * Services of one selector relate the same six workloads) */
	refs = kvet_arena_array(&r->scratch, n, sizeof(*refs));
	if (!refs)
		return -1;
	for (i = 0; i < n; i++)
		kvet_object_ref_set(&refs[i], v[i]);
	f->related = kvet_findings_keep_refs(r->fs, refs, n);
	if (!f->related)
		return -1;
	f->n_related = n;
	return 0;
}

static int emit(struct kvet_rule_runner *r, const struct kvet_rule *rule,
		const struct kvet_object *obj, size_t file_order,
		const struct kvet_object *related)
{
	struct kvet_finding_text text;
	struct kvet_finding *f;

	if (render_words(r, rule, &text))
		return -1;
	f = kvet_findings_add(r->fs, rule->info.id, severity(r, rule), obj,
			      file_order, resolve_at(r, rule), &text);
	if (!f)
		return -1;
	return related_objects(r, rule, obj, related, f);
}

/* A condition that is not a bool is an evaluation error: no finding,
 * but listed (docs/rule-language.md, "Evaluation errors"). */
static bool fires(struct kvet_rule_runner *r, const struct kvet_rule *rule)
{
	struct cel_value v = cel_eval(&r->env, &rule->condition, r->vars);

	if (v.type == CEL_BOOL)
		return v.u.b;
	eval_error(r, rule, "the condition", &v, "bool");
	return false;
}

/* A list value of @n items, in the scratch arena (NULL: no memory). */
static bool item_list(struct kvet_rule_runner *r, const struct cel_value *v,
		      size_t n, struct cel_value *out)
{
	struct cel_value *copy = kvet_arena_array(&r->scratch, n + 1,
						  sizeof(*copy));

	if (!copy) {
		r->oom = true;
		return false;
	}
	memcpy(copy, v, n * sizeof(*copy));
	*out = (struct cel_value){ .type = CEL_LIST, .len = (uint32_t)n,
				   .u.items = copy };
	return true;
}

/* A fired item of a grouped rule: its group key and its place. */
struct keyed {
	const char *s;
	uint32_t len;
	size_t idx;
};

/* By key, then by place, so that each group's items stay in order. */
static int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	uint32_t len = a->len < b->len ? a->len : b->len;
	int c = len ? memcmp(a->s, b->s, len) : 0;

	if (c)
		return c;
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static bool same_key(const struct keyed *a, const struct keyed *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->s, b->s, a->len));
}

/* A group: its items are keyed[start, end); the first is keyed[start]. */
struct group_span {
	size_t start, end;
	size_t first;		/* place of the first item */
};

static int cmp_span(const void *pa, const void *pb)
{
	const struct group_span *a = pa, *b = pb;

	return a->first < b->first ? -1 : a->first > b->first;
}

/*
 * One cause, one finding: the items that fire are grouped by the key
 * `each.group_by` gives (a string), in the order of their first item;
 * each group is one finding, evaluated with its first item as the each
 * variable and the list of its items as `group`. While the condition
 * and the key are evaluated, `group` is the item alone. Grouping sorts,
 * so a list of many items with as many keys costs n log n, not n^2.
 */
static int run_grouped(struct kvet_rule_runner *r,
		       const struct kvet_rule *rule,
		       const struct kvet_object *obj, size_t file_order,
		       const struct cel_value *list)
{
	size_t i, k, n = cel_len(list), n_fired = 0, n_groups = 0;
	struct cel_value *items, *members, key;
	struct keyed *keys;
	struct group_span *groups;

	items = kvet_arena_array(&r->scratch, n + 1, sizeof(*items));
	keys = kvet_arena_array(&r->scratch, n + 1, sizeof(*keys));
	members = kvet_arena_array(&r->scratch, n + 1, sizeof(*members));
	groups = kvet_arena_array(&r->scratch, n + 1, sizeof(*groups));
	if (!items || !keys || !members || !groups)
		return -1;
	for (i = 0; i < n && !r->gave_up; i++) {
		items[n_fired] = cel_list_at(list, i);
		r->vars[KVET_RULE_VAR_EACH] = items[n_fired];
		if (!item_list(r, &items[n_fired], 1,
			       &r->vars[KVET_RULE_VAR_GROUP]))
			return -1;
		cel_lazy_reset(&r->lazy);
		if (!fires(r, rule))
			continue;
		key = cel_eval(&r->env, &rule->group_by, r->vars);
		if (key.type != CEL_STRING) {
			eval_error(r, rule, "\"each.group_by\"", &key,
				   "string");
			continue;
		}
		keys[n_fired] = (struct keyed){ key.u.s, key.len, n_fired };
		n_fired++;
	}
	if (r->gave_up || !n_fired)
		return 0;
	qsort(keys, n_fired, sizeof(*keys), cmp_keyed);
	for (i = 0; i < n_fired; i = k) {
		for (k = i + 1; k < n_fired && same_key(&keys[k], &keys[i]); k++)
			;
		groups[n_groups++] = (struct group_span){ i, k, keys[i].idx };
	}
	qsort(groups, n_groups, sizeof(*groups), cmp_span);
	for (i = 0; i < n_groups && !r->gave_up; i++) {
		size_t m = 0;

		for (k = groups[i].start; k < groups[i].end; k++)
			members[m++] = items[keys[k].idx];
		r->vars[KVET_RULE_VAR_EACH] = items[groups[i].first];
		if (!item_list(r, members, m, &r->vars[KVET_RULE_VAR_GROUP]))
			return -1;
		cel_lazy_reset(&r->lazy);
		if (emit(r, rule, obj, file_order,
			 kvet_cel_object(&items[groups[i].first])) < 0)
			return -1;
	}
	return 0;
}

static int run_rule(struct kvet_rule_runner *r, const struct kvet_rule *rule,
		    const struct kvet_object *obj, size_t file_order)
{
	struct cel_value list, item;
	size_t i, n;

	r->obj = obj;
	r->gave_up = false;
	r->vars[KVET_RULE_VAR_OBJECT] = kvet_cel_from_object(obj);
	r->vars[KVET_RULE_VAR_PARAMS] = rule->params;
	/* the variables are evaluated at most once per object and item */
	r->lazy = (struct cel_lazy){ rule->var_progs, r->lazy_values,
				     r->lazy_state, rule->n_vars };
	cel_lazy_reset(&r->lazy);
	/* one budget for everything the rule evaluates on the object */
	cel_env_meter(&r->env, CEL_COST_LIMIT, CEL_MEMORY_LIMIT);
	if (!rule->has_each)
		return fires(r, rule) ? emit(r, rule, obj, file_order, NULL) : 0;
	list = cel_eval(&r->env, &rule->each, r->vars);
	if (list.type != CEL_LIST) {
		eval_error(r, rule, "\"each.in\"", &list, "list");
		return 0;
	}
	if (rule->has_group)
		return run_grouped(r, rule, obj, file_order, &list);
	/* after a failure every evaluation of the pair fails: one is enough */
	for (i = 0, n = cel_len(&list); i < n && !r->gave_up; i++) {
		item = cel_list_at(&list, i);
		r->vars[KVET_RULE_VAR_EACH] = item;
		cel_lazy_reset(&r->lazy);
		if (fires(r, rule) &&
		    emit(r, rule, obj, file_order, kvet_cel_object(&item)) < 0)
			return -1;
	}
	return 0;
}

int kvet_rule_runner_object(struct kvet_rule_runner *r,
			    const struct kvet_object *obj, size_t file_order)
{
	size_t i;
	int ret = 0, cls = -1;

	for (i = 0; i < r->set->n && !ret; i++) {
		const struct kvet_rule *rule = r->set->v[i];

		if (rule->disabled || rule->pending ||
		    !kvet_rule_matches_class(rule, obj,
					     r->cfg->custom_workloads,
					     r->cfg->n_custom_workloads, &cls))
			continue;
		r->rule = i;
		ret = run_rule(r, rule, obj, file_order);
		kvet_arena_reset(&r->scratch, &r->empty);
	}
	return ret || r->oom ? -1 : 0;
}

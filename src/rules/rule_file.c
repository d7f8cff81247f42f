/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rule file loader: YAML through kvet's own loader (so every node
 * has a position), then each field validated and each CEL expression
 * compiled. Every problem is reported at its file:line:column; a CEL
 * error's byte offset is turned into the line and column of the rule
 * file, through block scalars too.
 */
#include "rules/rules.h"

#include <stdlib.h>
#include <string.h>

#include "load/load.h"
#include "rules/env.h"

/* What is being loaded: one rule file. */
struct rfile {
	struct kvet_rule_set *set;
	const char *name;
	const char *buf;
	size_t len;
	bool failed;
	bool oom;
	/* the cost estimate of the rule being loaded: its expressions, the
	 * ones after `each` once per item */
	double cost, per_item, heavy;
	unsigned int heavy_line, heavy_col;	/* the costliest part */
	struct cel_estimate last;		/* of the last expression */
	const struct cel_value *params;		/* of the rule, for sizes */
	/* the rule's variables while it loads: names, and the nodes of
	 * names and expressions, for compile_vars() and positions */
	const char **var_names;
	const struct kvet_node **var_name_nodes, **var_exprs;
};

__attribute__((format(printf, 4, 5)))
static void rerror(struct rfile *rf, unsigned int line, unsigned int col,
		   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvet_diag_vaddf(&rf->set->diag, rf->name, line, col, fmt, ap);
	va_end(ap);
	rf->failed = true;
}

#define NERROR(rf, n, ...) rerror(rf, (n)->line, (n)->col, __VA_ARGS__)

/*
 * Memory for the rule being loaded. Running out fails the file with an
 * error, once: a rule must never be added with a part left out, nor a
 * file dropped without a word (the CLI then exits 3, not 1).
 */
static void *rf_alloc(struct rfile *rf, size_t n, size_t size)
{
	void *p = kvet_arena_array(&rf->set->arena, n, size);

	if (!p && !rf->oom) {
		rf->oom = true;
		rerror(rf, 0, 0, "out of memory while loading the rule file");
	}
	rf->failed = rf->failed || !p;
	return p;
}

/* Line and column of byte @p of the file. */
static void pos_of_ptr(const struct rfile *rf, const char *p,
		       unsigned int *line, unsigned int *col)
{
	const char *s = rf->buf, *bol = s;

	*line = 1;
	for (; s < p; s++) {
		if (*s == '\n') {
			(*line)++;
			bol = s + 1;
		}
	}
	*col = (unsigned int)(p - bol) + 1;
}

/*
 * The position of byte @off of scalar @n's value. Plain scalars point
 * into the file; a block scalar's lines follow its indicator line with
 * one indentation; other scalars (quoted, with escapes) are approximated
 * from their opening quote.
 */
static void scalar_pos(const struct rfile *rf, const struct kvet_node *n,
		       size_t off, unsigned int *line, unsigned int *col)
{
	const char *p, *lstart;
	size_t i, k = 0, last = 0, indent = 0, l;

	if (n->u.str >= rf->buf && n->u.str + n->len <= rf->buf + rf->len) {
		pos_of_ptr(rf, n->u.str + off, line, col);
		return;
	}
	pos_of_ptr(rf, rf->buf, line, col);
	/* find the node's line in the file */
	p = rf->buf;
	for (l = 1; l < n->line && p; l++) {
		p = memchr(p, '\n', rf->len - (size_t)(p - rf->buf));
		p = p ? p + 1 : NULL;
	}
	if (p && (size_t)(p - rf->buf) + n->col - 1 < rf->len &&
	    (p[n->col - 1] == '|' || p[n->col - 1] == '>')) {
		for (i = 0; i < off && i < n->len; i++)
			if (n->u.str[i] == '\n') {
				k++;
				last = i + 1;
			}
		/* the indentation of the scalar's first content line */
		lstart = memchr(p, '\n', rf->len - (size_t)(p - rf->buf));
		if (lstart) {
			lstart++;
			while (lstart + indent < rf->buf + rf->len &&
			       lstart[indent] == ' ')
				indent++;
		}
		*line = n->line + 1 + (unsigned int)k;
		*col = (unsigned int)(indent + (off - last)) + 1;
		return;
	}
	if (memchr(n->u.str, '\n', n->len) ||
	    (p && (size_t)(p - rf->buf) + n->col - 1 < rf->len &&
	     p[n->col - 1] != '"' && p[n->col - 1] != '\'')) {
		/* a block scalar whose position is its first content line
		 * (with strip chomping, >- or |-, even a one-line one):
		 * its lines keep their indentation beyond the block's */
		for (i = 0; i < off && i < n->len; i++)
			if (n->u.str[i] == '\n') {
				k++;
				last = i + 1;
			}
		while (p && p + indent < rf->buf + rf->len && p[indent] == ' ')
			indent++;
		*line = n->line + (unsigned int)k;
		*col = (unsigned int)(indent + (off - last)) + 1;
		return;
	}
	*line = n->line;
	*col = n->col + 1 + (unsigned int)off;
}

static const char *str_of(struct rfile *rf, const struct kvet_node *n,
			  const char *field)
{
	char *s;

	if (!kvet_node_is_scalar(n) || n->type == KVET_NODE_NULL) {
		NERROR(rf, n, "\"%s\" must be a string", field);
		return NULL;
	}
	s = rf_alloc(rf, (size_t)n->len + 1, 1);
	if (s) {
		memcpy(s, n->u.str, n->len);
		s[n->len] = '\0';
	}
	return s;
}

static bool compile(struct rfile *rf, const struct kvet_node *n,
		    size_t base, const char *text, size_t len,
		    const struct cel_scope *scope, struct cel_program *out,
		    unsigned int *n_slots)
{
	const struct cel_value *known[2] = { NULL, NULL };
	struct cel_error err;
	unsigned int line, col;
	double cost;

	if (cel_compile(&rf->set->arena, &rf->set->rx, text, len, scope, out,
			&err)) {
		scalar_pos(rf, n, base + err.off, &line, &col);
		rerror(rf, line, col, "%s", err.msg);
		return false;
	}
	if (out->n_slots > *n_slots)
		*n_slots = out->n_slots;
	known[KVET_RULE_VAR_PARAMS] = rf->params;
	cel_estimate(out, known, 2, &rf->last);
	cost = rf->last.cost * rf->per_item;
	rf->cost += cost;
	if (cost > rf->heavy) {
		rf->heavy = cost;
		scalar_pos(rf, n, base + rf->last.off, &rf->heavy_line,
			   &rf->heavy_col);
	}
	return true;
}

/*
 * A rule whose estimate is over the limit would run out of budget on
 * objects with small lists: refuse it now, at its costliest expression
 * (at its outermost costliest macro), rather than on every object later.
 */
static void check_cost(struct rfile *rf, const struct kvet_rule *r)
{
	if (rf->failed || rf->cost <= CEL_COST_ESTIMATE_LIMIT)
		return;
	rerror(rf, rf->heavy_line, rf->heavy_col,
	       "rule \"%s\" may cost %.3g steps per object, over the limit of %d (with %d items in each list of unknown size): nested macros multiply",
	       r->info.id ? r->info.id : "?", rf->cost,
	       CEL_COST_ESTIMATE_LIMIT, CEL_COST_UNKNOWN_SIZE);
}

static bool compile_node(struct rfile *rf, const struct kvet_node *n,
			 const char *field, const struct cel_scope *scope,
			 struct cel_program *out, unsigned int *n_slots)
{
	if (!kvet_node_is_scalar(n) || n->type == KVET_NODE_NULL) {
		NERROR(rf, n, "\"%s\" must be a CEL expression (a string)",
		       field);
		return false;
	}
	return compile(rf, n, 0, n->u.str, n->len, scope, out, n_slots);
}

/* The first "{{" or "}}" (@pat, two bytes) in @s. */
static const char *find2(const char *s, size_t len, const char *pat, size_t n)
{
	size_t i;

	for (i = 0; i + n <= len; i++)
		if (s[i] == pat[0] && s[i + 1] == pat[1])
			return s + i;
	return NULL;
}

/* "Message {{ expr }} text": split and compile the expressions. */
static void load_message(struct rfile *rf, struct kvet_rule *r,
			 const struct kvet_node *n,
			 const struct cel_scope *scope)
{
	const char *s = n->u.str, *open, *close;
	size_t pos = 0, cap = 1, parts = 0;
	struct kvet_msg_part *v;

	if (!kvet_node_is_string(n)) {
		NERROR(rf, n, "\"message\" must be a string");
		return;
	}
	r->message_text = str_of(rf, n, "message");
	for (open = s; (open = find2(open, n->len - (size_t)(open - s), "{{", 2));
	     open += 2)
		cap += 2;
	v = rf_alloc(rf, cap + 1, sizeof(*v));
	if (!v)
		return;
	while (pos < n->len) {
		open = find2(s + pos, n->len - pos, "{{", 2);
		close = find2(s + pos, (open ? (size_t)(open - s) : n->len) - pos,
			       "}}", 2);
		if (close) {
			unsigned int line, col;

			scalar_pos(rf, n, (size_t)(close - s), &line, &col);
			rerror(rf, line, col, "\"}}\" without \"{{\" in message");
			return;
		}
		if (!open) {
			v[parts].text = s + pos;
			v[parts++].len = n->len - pos;
			break;
		}
		if (open > s + pos) {
			v[parts].text = s + pos;
			v[parts++].len = (size_t)(open - s) - pos;
		}
		close = find2(open + 2, n->len - (size_t)(open + 2 - s), "}}", 2);
		if (!close) {
			unsigned int line, col;

			scalar_pos(rf, n, (size_t)(open - s), &line, &col);
			rerror(rf, line, col, "\"{{\" without \"}}\" in message");
			return;
		}
		if (!compile(rf, n, (size_t)(open + 2 - s), open + 2,
			     (size_t)(close - open - 2), scope, &v[parts].prog,
			     &r->n_slots))
			return;
		parts++;
		pos = (size_t)(close + 2 - s);
	}
	r->message = v;
	r->n_message = parts;
}

static bool kebab_case(const char *s)
{
	size_t i, n = strlen(s);

	if (!n || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return false;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      (c == '-' && s[i + 1] != '-')))
			return false;
	}
	return true;
}

/* A list of strings (or one string) into a NULL-free array. */
static const char *const *str_list(struct rfile *rf, const struct kvet_node *n,
				   const char *field, size_t *count)
{
	const char **v;
	uint32_t i;

	*count = 0;
	if (kvet_node_is_scalar(n) && n->type != KVET_NODE_NULL) {
		v = rf_alloc(rf, 1, sizeof(*v));
		if (v && (v[0] = str_of(rf, n, field)))
			*count = 1;
		return v;
	}
	if (!kvet_node_is_seq(n)) {
		NERROR(rf, n, "\"%s\" must be a list of strings", field);
		return NULL;
	}
	v = rf_alloc(rf, n->len + 1u, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < n->len; i++)
		if (!(v[i] = str_of(rf, &n->u.items[i], field)))
			return NULL;
	*count = n->len;
	return v;
}

static void load_match(struct rfile *rf, struct kvet_rule *r,
		       const struct kvet_node *n)
{
	const struct kvet_node *kinds = kvet_node_get(n, "kinds"), *labels;
	uint32_t i;

	if (!kvet_node_is_map(n)) {
		NERROR(rf, n, "\"match\" must be a mapping with \"kinds\"");
		return;
	}
	for (i = 0; i < n->len; i++) {
		const struct kvet_node *k = &n->u.pairs[i].key;

		if (!kvet_node_eq(k, "kinds") && !kvet_node_eq(k, "namespaces") &&
		    !kvet_node_eq(k, "labels"))
			NERROR(rf, k, "unknown field \"match.%.*s\" (expected kinds, namespaces or labels)",
			       (int)k->len, k->u.str);
	}
	if (!kinds) {
		NERROR(rf, n, "\"match\" needs \"kinds\"");
		return;
	}
	r->kinds = str_list(rf, kinds, "match.kinds", &r->n_kinds);
	if (r->kinds && !r->n_kinds)
		NERROR(rf, kinds, "\"match.kinds\" is empty");
	if (kvet_node_get(n, "namespaces"))
		r->namespaces = str_list(rf, kvet_node_get(n, "namespaces"),
					 "match.namespaces", &r->n_namespaces);
	labels = kvet_node_get(n, "labels");
	if (labels) {
		struct cel_value lv = cel_from_node(labels, NULL);

		if (!kvet_node_is_map(labels)) {
			NERROR(rf, labels, "\"match.labels\" must be a mapping of strings");
			return;
		}
		r->labels = rf_alloc(rf, labels->len + 1u,
					     sizeof(*r->labels));
		if (!r->labels)
			return;
		for (i = 0; i < labels->len; i++) {
			struct cel_entry *e = (struct cel_entry *)&r->labels[i];

			e->key = cel_map_key_at(&lv, i);
			e->value = cel_from_node(&labels->u.pairs[i].value, NULL);
		}
		r->n_labels = labels->len;
	}
}

static void load_params(struct rfile *rf, struct kvet_rule *r,
			const struct kvet_node *n)
{
	struct cel_entry *e;
	uint32_t i;

	r->params.type = CEL_MAP;
	if (!n)
		return;
	if (!kvet_node_is_map(n)) {
		NERROR(rf, n, "\"params\" must be a mapping of names to default values");
		return;
	}
	e = rf_alloc(rf, n->len + 1u, sizeof(*e));
	r->param_list = rf_alloc(rf, n->len + 1u,
					 sizeof(*r->param_list));
	if (!e || !r->param_list)
		return;
	for (i = 0; i < n->len; i++) {
		const struct kvet_pair *p = &n->u.pairs[i];

		e[i].key = cel_string(p->key.u.str, p->key.len);
		e[i].value = cel_from_node(&p->value, &p->key);
		r->param_list[i].name = str_of(rf, &p->key, "params");
		r->param_list[i].value = &e[i].value;
	}
	r->params.u.entries = e;
	r->params.len = n->len;
	r->n_params = n->len;
}

static const char *const severities[] = {
	[KVET_SEV_INFO] = "info",
	[KVET_SEV_WARNING] = "warning",
	[KVET_SEV_ERROR] = "error",
};

static void load_examples(struct rfile *rf, struct kvet_rule *r,
			  const struct kvet_node *n)
{
	uint32_t i, j;

	if (!kvet_node_is_seq(n)) {
		NERROR(rf, n, "\"examples\" must be a list");
		return;
	}
	r->examples = rf_alloc(rf, n->len + 1u,
				       sizeof(*r->examples));
	if (!r->examples)
		return;
	for (i = 0; i < n->len; i++) {
		const struct kvet_node *ex = &n->u.items[i], *v;
		struct kvet_rule_example *e = &r->examples[i];
		long long count;

		e->line = ex->line;
		e->findings = -1;
		e->severity = -1;
		if (!kvet_node_is_map(ex)) {
			NERROR(rf, ex, "an example must be a mapping with \"expect\" and \"manifest\"");
			continue;
		}
		for (j = 0; j < ex->len; j++) {
			const struct kvet_node *k = &ex->u.pairs[j].key;
			static const char *const known[] = {
				"name", "expect", "manifest", "findings", "complete",
				"severity", "message",
			};
			size_t q, nk = sizeof(known) / sizeof(known[0]);

			for (q = 0; q < nk && !kvet_node_eq(k, known[q]); q++)
				;
			if (q == nk)
				NERROR(rf, k, "unknown field \"%.*s\" in example",
				       (int)k->len, k->u.str);
		}
		v = kvet_node_get(ex, "expect");
		if (!kvet_node_eq(v, "fail") && !kvet_node_eq(v, "pass"))
			NERROR(rf, v ? v : ex, "\"expect\" must be fail or pass");
		e->fails = kvet_node_eq(v, "fail");
		v = kvet_node_get(ex, "name");
		e->name = v ? str_of(rf, v, "name") : "";
		v = kvet_node_get(ex, "manifest");
		if (!kvet_node_is_string(v)) {
			NERROR(rf, v ? v : ex, "an example needs \"manifest\", the YAML text");
			continue;
		}
		e->manifest = v->u.str;
		e->len = v->len;
		v = kvet_node_get(ex, "findings");
		if (v && (!kvet_node_int(v, &count) || count < 0))
			NERROR(rf, v, "\"findings\" must be a count");
		else if (v)
			e->findings = (long)count;
		v = kvet_node_get(ex, "complete");
		e->complete = v && v->type == KVET_NODE_BOOL &&
			      cel_from_node(v, NULL).u.b;
		v = kvet_node_get(ex, "severity");
		for (j = 0; v && j < KVET_SEV_COUNT; j++)
			if (kvet_node_eq(v, severities[j]))
				e->severity = (int)j;
		if (v && e->severity < 0)
			NERROR(rf, v, "\"severity\" must be error, warning or info");
		v = kvet_node_get(ex, "message");
		if (v && !kvet_node_is_string(v))
			NERROR(rf, v, "\"message\" must be a string");
		else if (v)
			e->message = str_of(rf, v, "message");
	}
	r->n_examples = n->len;
}

static const char *const fields[] = {
	"id", "severity", "category", "summary", "description", "remediation",
	"references", "match", "params", "condition", "message", "at",
	"examples", "each", "severity_expr", "related", "on_error",
	"variables",
};

/* A CEL identifier that is not one of CEL's reserved words (the
 * language definition, "Syntax"). */
static bool cel_identifier(const char *s)
{
	static const char *const reserved[] = {
		"true", "false", "null", "in", "as", "break", "const",
		"continue", "else", "for", "function", "if", "import", "let",
		"loop", "package", "namespace", "return", "var", "void", "while",
	};
	size_t i;

	if (!*s)
		return false;
	for (i = 0; s[i]; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      c == '_' || (i && c >= '0' && c <= '9')))
			return false;
	}
	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (!strcmp(s, reserved[i]))
			return false;
	return true;
}

/*
 * `variables:` (docs/rule-language.md, after ValidatingAdmissionPolicy's
 * spec.variables): a list of {name, expression}. Only the names are read
 * here, before `each`, so that each.in can be told it may not read them;
 * compile_vars() compiles the expressions once the each variable exists.
 */
static void declare_vars(struct rfile *rf, struct kvet_rule *r,
			 const struct kvet_node *n)
{
	uint32_t i, j;

	if (!kvet_node_is_seq(n)) {
		NERROR(rf, n, "\"variables\" must be a list of {name, expression}");
		return;
	}
	if (n->len > KVET_RULE_MAX_VARS) {
		NERROR(rf, n, "a rule may have at most %d variables",
		       KVET_RULE_MAX_VARS);
		return;
	}
	r->vars = rf_alloc(rf, n->len + 1u, sizeof(*r->vars));
	r->var_progs = rf_alloc(rf, n->len + 1u, sizeof(*r->var_progs));
	rf->var_names = rf_alloc(rf, n->len + 1u, sizeof(*rf->var_names));
	rf->var_name_nodes = rf_alloc(rf, n->len + 1u,
				      sizeof(*rf->var_name_nodes));
	rf->var_exprs = rf_alloc(rf, n->len + 1u, sizeof(*rf->var_exprs));
	if (!r->vars || !r->var_progs || !rf->var_names ||
	    !rf->var_name_nodes || !rf->var_exprs)
		return;
	for (i = 0; i < n->len; i++) {
		const struct kvet_node *v = &n->u.items[i], *name, *expr;
		const char *s;

		name = kvet_node_get(v, "name");
		expr = kvet_node_get(v, "expression");
		if (!kvet_node_is_map(v) || !name || !expr) {
			NERROR(rf, v, "a variable must be a mapping with \"name\" and \"expression\"");
			return;
		}
		for (j = 0; j < v->len; j++) {
			const struct kvet_node *k = &v->u.pairs[j].key;

			if (!kvet_node_eq(k, "name") &&
			    !kvet_node_eq(k, "expression"))
				NERROR(rf, k, "unknown field \"%.*s\" in a variable (expected name and expression)",
				       (int)k->len, k->u.str);
		}
		if (!(s = str_of(rf, name, "name")))
			return;
		if (!cel_identifier(s)) {
			NERROR(rf, name, "variable name \"%s\" is not a CEL identifier",
			       s);
			return;
		}
		for (j = 0; j < i; j++) {
			if (strcmp(rf->var_names[j], s))
				continue;
			NERROR(rf, name, "duplicate variable \"%s\" (also on line %u)",
			       s, rf->var_name_nodes[j]->line);
			return;
		}
		if (!strcmp(s, "object") || !strcmp(s, "params")) {
			NERROR(rf, name, "variable \"%s\" shadows the rule's \"%s\"",
			       s, s);
			return;
		}
		r->vars[i].name = rf->var_names[i] = s;
		rf->var_name_nodes[i] = name;
		rf->var_exprs[i] = expr;
		r->n_vars = i + 1;
	}
}

/*
 * Compile the variables in order, each seeing those before it. Each
 * gets macro slots of its own, above every program compiled so far, and
 * the programs after them get slots above theirs: a variable may be
 * evaluated inside another program's macro, and must not overwrite its
 * iteration variable.
 */
static void compile_vars(struct rfile *rf, struct kvet_rule *r,
			 struct cel_scope *scope)
{
	size_t i;

	scope->lazy = r->var_progs;
	scope->lazy_compiling = true;
	for (i = 0; i < r->n_vars; i++) {
		scope->n_lazy_visible = i;
		scope->first_slot = r->n_slots;
		r->vars[i].text = str_of(rf, rf->var_exprs[i], "expression");
		compile_node(rf, rf->var_exprs[i], "expression", scope,
			     &r->var_progs[i], &r->n_slots);
	}
	scope->lazy_compiling = false;
	scope->n_lazy_visible = r->n_vars;
	scope->lazy_hidden_why = NULL;
	scope->first_slot = r->n_slots;
}

static void load_each(struct rfile *rf, struct kvet_rule *r,
		      const struct kvet_node *n, struct cel_scope *scope)
{
	const struct kvet_node *as = kvet_node_get(n, "as"), *in;
	size_t i;

	in = kvet_node_get(n, "in");
	if (!kvet_node_is_map(n) || !as || !in) {
		NERROR(rf, n, "\"each\" must be a mapping with \"as\" (a variable name) and \"in\" (a CEL list)");
		return;
	}
	r->each_as = str_of(rf, as, "each.as");
	if (!r->each_as)
		return;
	for (i = 0; i < r->n_vars; i++)
		if (!strcmp(r->vars[i].name, r->each_as))
			NERROR(rf, rf->var_name_nodes[i],
			       "variable \"%s\" shadows the each variable",
			       r->each_as);
	if (r->n_vars && !strcmp(r->each_as, "variables"))
		NERROR(rf, as, "the each variable \"variables\" would hide the rule's variables: name it otherwise");
	scope->lazy_hidden_why = "each.in is evaluated before the variables";
	if (!compile_node(rf, in, "each.in", scope, &r->each, &r->n_slots))
		return;
	/* what follows is evaluated once per item */
	rf->per_item = rf->last.size > 1 ? rf->last.size : 1;
	r->each_text = str_of(rf, in, "each.in");
	r->has_each = true;
	scope->names[scope->n++] = r->each_as;
}

static const struct kvet_node *required(struct rfile *rf,
					const struct kvet_node *root,
					const char *field)
{
	const struct kvet_node *n = kvet_node_get(root, field);

	if (!n)
		NERROR(rf, root, "missing field \"%s\"", field);
	return n;
}

static struct kvet_rule *load_rule(struct rfile *rf,
				   const struct kvet_node *root)
{
	struct kvet_rule *r = rf_alloc(rf, 1, sizeof(*r));
	struct cel_scope scope = {
		.names = { "object", "params" }, .n = 2,
		.libs = kvet_cel_libs, .n_libs = kvet_cel_n_libs,
		.lazy_ns = "variables",
	};
	const struct kvet_node *n;
	size_t i, j, nrefs;
	const char *sev;

	if (!r)
		return NULL;
	r->file = rf->name;
	rf->var_names = NULL;
	rf->var_name_nodes = rf->var_exprs = NULL;
	rf->cost = rf->heavy = 0;
	rf->per_item = 1;
	rf->heavy_line = root->line;
	rf->heavy_col = root->col;
	if (!kvet_node_is_map(root)) {
		NERROR(rf, root, "a rule must be a mapping");
		return NULL;
	}
	for (i = 0; i < root->len; i++) {
		const struct kvet_node *k = &root->u.pairs[i].key;

		for (j = 0; j < sizeof(fields) / sizeof(fields[0]); j++)
			if (kvet_node_eq(k, fields[j]))
				break;
		if (j == sizeof(fields) / sizeof(fields[0]))
			NERROR(rf, k, "unknown field \"%.*s\"", (int)k->len,
			       k->u.str);
	}
	if ((n = required(rf, root, "id")) &&
	    (r->info.id = str_of(rf, n, "id")) && !kebab_case(r->info.id))
		NERROR(rf, n, "rule id \"%s\" is not kebab-case (lowercase letters, digits and single dashes)",
		       r->info.id);
	if ((n = required(rf, root, "severity")) &&
	    (sev = str_of(rf, n, "severity"))) {
		for (i = 0; i < KVET_SEV_COUNT && strcmp(sev, severities[i]); i++)
			;
		if (i == KVET_SEV_COUNT)
			NERROR(rf, n, "invalid severity \"%s\" (expected error, warning or info)",
			       sev);
		r->info.severity = i < KVET_SEV_COUNT ? (enum kvet_severity)i
						      : KVET_SEV_ERROR;
	}
	if ((n = required(rf, root, "category")))
		r->info.category = str_of(rf, n, "category");
	if ((n = required(rf, root, "summary")))
		r->info.summary = str_of(rf, n, "summary");
	if ((n = required(rf, root, "description")))
		r->info.description = str_of(rf, n, "description");
	if ((n = required(rf, root, "remediation")))
		r->info.remediation = str_of(rf, n, "remediation");
	if ((n = kvet_node_get(root, "references"))) {
		r->info.references = str_list(rf, n, "references", &nrefs);
		r->info.n_references = nrefs;
		for (i = 0; r->info.references && i < nrefs; i++)
			if (strncmp(r->info.references[i], "https://", 8) &&
			    strncmp(r->info.references[i], "http://", 7))
				NERROR(rf, kvet_node_is_seq(n) ? &n->u.items[i] : n,
				       "reference \"%s\" is not an http(s) URL",
				       r->info.references[i]);
	}
	if ((n = required(rf, root, "match")))
		load_match(rf, r, n);
	load_params(rf, r, kvet_node_get(root, "params"));
	rf->params = &r->params;
	if ((n = kvet_node_get(root, "variables")))
		declare_vars(rf, r, n);
	scope.lazy_names = rf->var_names;
	scope.n_lazy = r->n_vars;
	if ((n = kvet_node_get(root, "each")))
		load_each(rf, r, n, &scope);
	compile_vars(rf, r, &scope);
	if ((n = required(rf, root, "condition"))) {
		r->condition_text = str_of(rf, n, "condition");
		compile_node(rf, n, "condition", &scope, &r->condition,
			     &r->n_slots);
	}
	if ((n = required(rf, root, "message")))
		load_message(rf, r, n, &scope);
	if ((n = kvet_node_get(root, "severity_expr")))
		r->has_severity_expr = compile_node(rf, n, "severity_expr",
						    &scope, &r->severity_expr,
						    &r->n_slots);
	if ((n = kvet_node_get(root, "at"))) {
		size_t cnt = kvet_node_is_seq(n) ? n->len : 1;

		r->at = rf_alloc(rf, cnt + 1, sizeof(*r->at));
		for (i = 0; r->at && i < cnt; i++)
			compile_node(rf, kvet_node_is_seq(n) ? &n->u.items[i] : n,
				     "at", &scope, &r->at[i], &r->n_slots);
		r->n_at = cnt;
	}
	if ((n = kvet_node_get(root, "related")))
		r->has_related = compile_node(rf, n, "related", &scope,
					      &r->related, &r->n_slots);
	if ((n = kvet_node_get(root, "on_error"))) {
		r->tolerate_errors = kvet_node_eq(n, "tolerate");
		if (!r->tolerate_errors && !kvet_node_eq(n, "fail"))
			NERROR(rf, n, "\"on_error\" must be fail or tolerate");
	}
	check_cost(rf, r);
	if ((n = kvet_node_get(root, "examples")))
		load_examples(rf, r, n);
	return r;
}

static int add_rule(struct rfile *rf, struct kvet_rule *r,
		    const struct kvet_node *root)
{
	struct kvet_rule_set *set = rf->set;
	const struct kvet_node *idn = kvet_node_get(root, "id");
	size_t i;

	for (i = 0; i < set->n; i++) {
		if (strcmp(set->v[i]->info.id, r->info.id))
			continue;
		NERROR(rf, idn, "duplicate rule id \"%s\" (also in %s)",
		       r->info.id, set->v[i]->file);
		return 0;
	}
	if (set->n == set->cap) {
		size_t cap = set->cap ? set->cap * 2 : 16;
		struct kvet_rule **v = realloc(set->v, cap * sizeof(*v));

		if (!v)
			return -1;
		set->v = v;
		set->cap = cap;
	}
	set->v[set->n++] = r;
	return 0;
}

int kvet_rule_set_add_buffer(struct kvet_rule_set *set, const char *name,
			     const char *text, size_t len)
{
	struct rfile rf = { .set = set };
	struct kvet_docs docs = { 0 };
	size_t i, errs = set->diag.n;
	char *buf;
	int ret = -1;

	rf.name = kvet_arena_strdup(&set->arena, name);
	buf = kvet_arena_strndup(&set->arena, text, len);
	if (!rf.name || !buf)
		goto out;
	rf.buf = buf;
	rf.len = len;
	if (kvet_load_buffer(&set->arena, &set->diag, rf.name, buf, len, &docs))
		goto out;
	for (i = 0; i < docs.n; i++) {
		bool before = rf.failed;
		struct kvet_rule *r;

		rf.failed = false;
		r = load_rule(&rf, docs.v[i].root);
		if (!r)
			goto out;
		if (!rf.failed && add_rule(&rf, r, docs.v[i].root))
			goto out;
		rf.failed = rf.failed || before;
	}
	ret = set->diag.n > errs || set->diag.oom ? -1 : 0;
out:
	/* only memory fails a file without an error of its own */
	if (ret < 0 && set->diag.n == errs)
		kvet_diag_addf(&set->diag, rf.name, 0, 0,
			       "cannot load the rule file: out of memory");
	kvet_docs_release(&docs);
	return ret;
}

int kvet_rule_set_add_builtin(struct kvet_rule_set *set)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < kvet_builtin_rule_file_count; i++)
		if (kvet_rule_set_add_buffer(set, kvet_builtin_rule_files[i].name,
					     kvet_builtin_rule_files[i].text,
					     kvet_builtin_rule_files[i].len))
			ret = -1;
	return ret;
}

static int cmp_rule(const void *a, const void *b)
{
	return strcmp((*(struct kvet_rule *const *)a)->info.id,
		      (*(struct kvet_rule *const *)b)->info.id);
}

void kvet_rule_set_sort(struct kvet_rule_set *set)
{
	if (set->n > 1)
		qsort(set->v, set->n, sizeof(*set->v), cmp_rule);
}

const struct kvet_rule *kvet_rule_set_find(const struct kvet_rule_set *set,
					   const char *id)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->v[i]->info.id, id))
			return set->v[i];
	return NULL;
}

void kvet_rule_set_init(struct kvet_rule_set *set)
{
	memset(set, 0, sizeof(*set));
	kvet_arena_init(&set->arena);
	kvet_diag_init(&set->diag, &set->arena);
}

void kvet_rule_set_release(struct kvet_rule_set *set)
{
	if (!set)
		return;
	free(set->v);
	cel_regexes_release(&set->rx);
	kvet_diag_release(&set->diag);
	kvet_arena_release(&set->arena);
	memset(set, 0, sizeof(*set));
}

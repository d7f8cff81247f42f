/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The loaders of a rule's fields, one function per field (match, params,
 * each, variables, message, examples), each validating its field and
 * reporting every problem at its place in the rule file. rule_file.c
 * loads the file and calls them in order.
 */
#include "rules/rule_load.h"

#include <string.h>

/* The first "{{" or "}}" (@pat, two bytes) in @s. */
static const char *find2(const char *s, size_t len, const char *pat, size_t n)
{
	size_t i;

	for (i = 0; i + n <= len; i++)
		if (s[i] == pat[0] && s[i + 1] == pat[1])
			return s + i;
	return NULL;
}

/* "Message {{ expr }} text": split and compile the expressions of the
 * template @field (message, headline, reason, help). */
void rfile_load_template(struct rfile *rf, struct kvet_template *t,
			 const char *field, const struct kvet_node *n,
			 const struct cel_scope *scope)
{
	const char *s, *open, *close;
	size_t pos = 0, cap = 1, parts = 0;
	struct kvet_msg_part *v;
	struct kvet_rule *r = rf->rule;

	if (!kvet_node_is_string(n)) {
		NERROR(rf, n, "\"%s\" must be a string", field);
		return;
	}
	s = n->u.str;
	t->text = rfile_str(rf, n, field);
	for (open = s; (open = find2(open, n->len - (size_t)(open - s), "{{", 2));
	     open += 2)
		cap += 2;
	v = rfile_alloc(rf, cap + 1, sizeof(*v));
	if (!v)
		return;
	while (pos < n->len) {
		open = find2(s + pos, n->len - pos, "{{", 2);
		close = find2(s + pos, (open ? (size_t)(open - s) : n->len) - pos,
			       "}}", 2);
		if (close) {
			unsigned int line, col;

			rfile_scalar_pos(rf, n, (size_t)(close - s), &line,
					 &col);
			rfile_error(rf, line, col, "\"}}\" without \"{{\" in %s",
				    field);
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

			rfile_scalar_pos(rf, n, (size_t)(open - s), &line,
					 &col);
			rfile_error(rf, line, col, "\"{{\" without \"}}\" in %s",
				    field);
			return;
		}
		if (!rfile_compile(rf, n, (size_t)(open + 2 - s), open + 2,
			     (size_t)(close - open - 2), scope, &v[parts].prog,
			     &r->n_slots))
			return;
		parts++;
		pos = (size_t)(close + 2 - s);
	}
	t->parts = v;
	t->n = parts;
	if (!parts || (parts == 1 && v[0].text)) {
		char *c = rfile_alloc(rf, n->len + 1, 1);

		if (!c)
			return;
		if (n->len)
			memcpy(c, s, n->len);
		c[n->len] = '\0';
		t->constant = kvet_rule_one_line(c);
	}
}

/* A list of strings (or one string) into a NULL-free array. */
const char *const *rfile_str_list(struct rfile *rf, const struct kvet_node *n,
				  const char *field, size_t *count)
{
	const char **v;
	uint32_t i;

	*count = 0;
	if (kvet_node_is_scalar(n) && n->type != KVET_NODE_NULL) {
		v = rfile_alloc(rf, 1, sizeof(*v));
		if (v && (v[0] = rfile_str(rf, n, field)))
			*count = 1;
		return v;
	}
	if (!kvet_node_is_seq(n)) {
		NERROR(rf, n, "\"%s\" must be a list of strings", field);
		return NULL;
	}
	v = rfile_alloc(rf, n->len + 1u, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0; i < n->len; i++)
		if (!(v[i] = rfile_str(rf, &n->u.items[i], field)))
			return NULL;
	*count = n->len;
	return v;
}

const struct kvet_node *rfile_list_item(const struct kvet_node *n, size_t i)
{
	return kvet_node_is_seq(n) ? &n->u.items[i] : n;
}

/*
 * A kind starts with an upper-case letter ("Deployment", "apps/Deployment");
 * a lower-case word selects a class of kinds: "workload" every workload
 * kind, built in or declared in the configuration's `workloads` (1.2),
 * "scalable-workload" those with a scale. Any other word is a typo.
 */
static void load_kind_word(struct rfile *rf, struct kvet_rule *r,
			   const struct kvet_node *at, const char *k)
{
	if (strchr(k, '/') || !(*k >= 'a' && *k <= 'z'))
		return;
	if (!strcmp(k, "workload"))
		r->kind_class = KVET_KIND_WORKLOAD;
	else if (!strcmp(k, "scalable-workload")) {
		if (r->kind_class != KVET_KIND_WORKLOAD)
			r->kind_class = KVET_KIND_SCALABLE_WORKLOAD;
	} else
		NERROR(rf, at, "unknown kind \"%s\" in \"match.kinds\" (a kind starts with an upper-case letter; \"workload\" and \"scalable-workload\" select workload kinds)",
		       k);
}

/* The group and kind of each entry of match.kinds, for kind_matches()
 * (rule_run.c), which tests every object against every rule. */
static void split_kinds(struct rfile *rf, struct kvet_rule *r)
{
	struct kvet_rule_kind *v = rfile_alloc(rf, r->n_kinds, sizeof(*v));
	size_t i;

	if (!v)
		return;
	for (i = 0; i < r->n_kinds; i++) {
		const char *k = r->kinds[i], *slash = strchr(k, '/');

		v[i].kind = slash ? slash + 1 : k;
		v[i].group = slash ? k : NULL;
		v[i].group_len = slash ? (size_t)(slash - k) : 0;
	}
	r->kind_parts = v;
}

void rfile_load_match(struct rfile *rf, struct kvet_rule *r,
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
	r->kinds = rfile_str_list(rf, kinds, "match.kinds", &r->n_kinds);
	if (r->kinds && !r->n_kinds)
		NERROR(rf, kinds, "\"match.kinds\" is empty");
	for (i = 0; r->kinds && i < r->n_kinds; i++)
		load_kind_word(rf, r, rfile_list_item(kinds, i), r->kinds[i]);
	if (r->kinds && r->n_kinds)
		split_kinds(rf, r);
	if (kvet_node_get(n, "namespaces"))
		r->namespaces = rfile_str_list(rf, kvet_node_get(n, "namespaces"),
					 "match.namespaces", &r->n_namespaces);
	labels = kvet_node_get(n, "labels");
	if (labels) {
		struct cel_value lv = cel_from_node(labels, NULL);

		if (!kvet_node_is_map(labels)) {
			NERROR(rf, labels, "\"match.labels\" must be a mapping of strings");
			return;
		}
		r->labels = rfile_alloc(rf, labels->len + 1u,
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

void rfile_load_params(struct rfile *rf, struct kvet_rule *r,
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
	e = rfile_alloc(rf, n->len + 1u, sizeof(*e));
	r->param_list = rfile_alloc(rf, n->len + 1u,
					 sizeof(*r->param_list));
	if (!e || !r->param_list)
		return;
	for (i = 0; i < n->len; i++) {
		const struct kvet_pair *p = &n->u.pairs[i];

		e[i].key = cel_string(p->key.u.str, p->key.len);
		e[i].value = cel_from_node(&p->value, &p->key);
		r->param_list[i].name = rfile_str(rf, &p->key, "params");
		r->param_list[i].value = &e[i].value;
	}
	r->params.u.entries = e;
	r->params.len = n->len;
	r->n_params = n->len;
}

void rfile_load_examples(struct rfile *rf, struct kvet_rule *r,
			 const struct kvet_node *n)
{
	uint32_t i, j;

	if (!kvet_node_is_seq(n)) {
		NERROR(rf, n, "\"examples\" must be a list");
		return;
	}
	r->examples = rfile_alloc(rf, n->len + 1u,
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
		e->name = v ? rfile_str(rf, v, "name") : "";
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
			if (kvet_node_eq(v, kvet_rule_severity_names[j]))
				e->severity = (int)j;
		if (v && e->severity < 0)
			NERROR(rf, v, "\"severity\" must be error, warning or info");
		v = kvet_node_get(ex, "message");
		if (v && !kvet_node_is_string(v))
			NERROR(rf, v, "\"message\" must be a string");
		else if (v)
			e->message = rfile_str(rf, v, "message");
	}
	r->n_examples = n->len;
}

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
 * rfile_compile_vars() compiles the expressions once the each variable exists.
 */
void rfile_declare_vars(struct rfile *rf, struct kvet_rule *r,
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
	r->vars = rfile_alloc(rf, n->len + 1u, sizeof(*r->vars));
	r->var_progs = rfile_alloc(rf, n->len + 1u, sizeof(*r->var_progs));
	rf->var_names = rfile_alloc(rf, n->len + 1u, sizeof(*rf->var_names));
	rf->var_name_nodes = rfile_alloc(rf, n->len + 1u,
				      sizeof(*rf->var_name_nodes));
	rf->var_exprs = rfile_alloc(rf, n->len + 1u, sizeof(*rf->var_exprs));
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
		if (!(s = rfile_str(rf, name, "name")))
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
void rfile_compile_vars(struct rfile *rf, struct kvet_rule *r,
			struct cel_scope *scope)
{
	size_t i;

	scope->lazy = r->var_progs;
	scope->lazy_compiling = true;
	for (i = 0; i < r->n_vars; i++) {
		scope->n_lazy_visible = i;
		scope->first_slot = r->n_slots;
		r->vars[i].text = rfile_str(rf, rf->var_exprs[i], "expression");
		rfile_compile_node(rf, rf->var_exprs[i], "expression", scope,
			     &r->var_progs[i], &r->n_slots);
	}
	scope->lazy_compiling = false;
	scope->n_lazy_visible = r->n_vars;
	scope->lazy_hidden_why = NULL;
	scope->first_slot = r->n_slots;
}

void rfile_load_each(struct rfile *rf, struct kvet_rule *r,
		     const struct kvet_node *n, struct cel_scope *scope)
{
	const struct kvet_node *as = kvet_node_get(n, "as"), *in;
	size_t i;

	in = kvet_node_get(n, "in");
	if (!kvet_node_is_map(n) || !as || !in) {
		NERROR(rf, n, "\"each\" must be a mapping with \"as\" (a variable name) and \"in\" (a CEL list)");
		return;
	}
	r->each_as = rfile_str(rf, as, "each.as");
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
	if (!rfile_compile_node(rf, in, "each.in", scope, &r->each, &r->n_slots))
		return;
	/* what follows is evaluated once per item */
	rf->per_item = rf->last.size > 1 ? rf->last.size : 1;
	r->each_text = rfile_str(rf, in, "each.in");
	r->has_each = true;
	scope->names[scope->n++] = r->each_as;
	for (i = 0; i < n->len; i++) {
		const struct kvet_node *k = &n->u.pairs[i].key;

		if (!kvet_node_eq(k, "as") && !kvet_node_eq(k, "in") &&
		    !kvet_node_eq(k, "group_by"))
			NERROR(rf, k, "unknown field \"each.%.*s\" (expected as, in or group_by)",
			       (int)k->len, k->u.str);
	}
	rf->group_by = kvet_node_get(n, "group_by");
	if (!rf->group_by)
		return;
	if (!strcmp(r->each_as, "group"))
		NERROR(rf, as, "the each variable \"group\" would hide the group of \"each.group_by\": name it otherwise");
	/* slot KVET_RULE_VAR_GROUP */
	scope->names[scope->n++] = "group";
}

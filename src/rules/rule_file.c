/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The rule file loader: YAML through kvet's own loader (so every node
 * has a position), then each field validated and each CEL expression
 * compiled. Every problem is reported at its file:line:column; a CEL
 * error's byte offset is turned into the line and column of the rule
 * file, through block scalars too.
 */
#include "rules/rule_load.h"

#include <stdlib.h>
#include <string.h>

#include "load/load.h"
#include "rules/env.h"

__attribute__((format(printf, 4, 5)))
void rfile_error(struct rfile *rf, unsigned int line, unsigned int col,
		 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvet_diag_vaddf(&rf->set->diag, rf->name, line, col, fmt, ap);
	va_end(ap);
	rf->failed = true;
}

#define NERROR(rf, n, ...) rfile_error(rf, (n)->line, (n)->col, __VA_ARGS__)

/*
 * Memory for the rule being loaded. Running out fails the file with an
 * error, once: a rule must never be added with a part left out, nor a
 * file dropped without a word (the CLI then exits 3, not 1).
 */
void *rfile_alloc(struct rfile *rf, size_t n, size_t size)
{
	void *p = kvet_arena_array(&rf->set->arena, n, size);

	if (!p && !rf->oom) {
		rf->oom = true;
		rfile_error(rf, 0, 0, "out of memory while loading the rule file");
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
void rfile_scalar_pos(const struct rfile *rf, const struct kvet_node *n,
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

const char *rfile_str(struct rfile *rf, const struct kvet_node *n,
		      const char *field)
{
	char *s;

	if (!kvet_node_is_scalar(n) || n->type == KVET_NODE_NULL) {
		NERROR(rf, n, "\"%s\" must be a string", field);
		return NULL;
	}
	s = rfile_alloc(rf, (size_t)n->len + 1, 1);
	if (s) {
		memcpy(s, n->u.str, n->len);
		s[n->len] = '\0';
	}
	return s;
}

bool rfile_compile(struct rfile *rf, const struct kvet_node *n,
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
		rfile_scalar_pos(rf, n, base + err.off, &line, &col);
		rfile_error(rf, line, col, "%s", err.msg);
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
		rf->heavy_node = n;
		rf->heavy_off = base + rf->last.off;
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
	unsigned int line = rf->heavy_node->line, col = rf->heavy_node->col;

	if (rf->failed || rf->cost <= CEL_COST_ESTIMATE_LIMIT)
		return;
	if (rf->heavy > 0)
		rfile_scalar_pos(rf, rf->heavy_node, rf->heavy_off, &line,
				 &col);
	rfile_error(rf, line, col,
	       "rule \"%s\" may cost %.3g steps per object, over the limit of %d (with %d items in each list of unknown size): nested macros multiply",
	       r->info.id ? r->info.id : "?", rf->cost,
	       CEL_COST_ESTIMATE_LIMIT, CEL_COST_UNKNOWN_SIZE);
}

bool rfile_compile_node(struct rfile *rf, const struct kvet_node *n,
			const char *field, const struct cel_scope *scope,
			struct cel_program *out, unsigned int *n_slots)
{
	if (!kvet_node_is_scalar(n) || n->type == KVET_NODE_NULL) {
		NERROR(rf, n, "\"%s\" must be a CEL expression (a string)",
		       field);
		return false;
	}
	return rfile_compile(rf, n, 0, n->u.str, n->len, scope, out, n_slots);
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

const char *const kvet_rule_severity_names[KVET_SEV_COUNT] = {
	[KVET_SEV_INFO] = "info",
	[KVET_SEV_WARNING] = "warning",
	[KVET_SEV_ERROR] = "error",
};

static const char *const fields[] = {
	"id", "severity", "category", "summary", "description", "remediation",
	"references", "match", "params", "condition", "message", "at",
	"examples", "each", "severity_expr", "related", "on_error",
	"variables", "headline", "reason", "help",
};

static const struct kvet_node *required(struct rfile *rf,
					const struct kvet_node *root,
					const char *field)
{
	const struct kvet_node *n = kvet_node_get(root, field);

	if (!n)
		NERROR(rf, root, "missing field \"%s\"", field);
	return n;
}

/* A field that documents a rule: required of the built-in rules, which
 * docs/rules/ documents in full, optional in a team's own
 * (docs/rule-language.md lists the defaults). */
static const struct kvet_node *documented(struct rfile *rf,
					  const struct kvet_node *root,
					  const char *field)
{
	if (rf->set->builtin)
		return required(rf, root, field);
	return kvet_node_get(root, field);
}

/*
 * The words of a finding (docs/rule-language.md, "Messages"): either
 * `message:`, the full sentence, or `headline:` and an optional
 * `reason:`, which kvet joins into it; `help:` either way. The built-in
 * rules must have headline, reason and help, which the text report and
 * the length and wording test need.
 */
static void load_words(struct rfile *rf, struct kvet_rule *r,
		       const struct kvet_node *root,
		       const struct cel_scope *scope)
{
	const struct kvet_node *msg = kvet_node_get(root, "message");
	const struct kvet_node *head = kvet_node_get(root, "headline");
	const struct kvet_node *reason = kvet_node_get(root, "reason");
	const struct kvet_node *help = kvet_node_get(root, "help");

	if (msg && head)
		NERROR(rf, head, "a rule has \"message\" or \"headline\", not both: the message is the headline and the reason joined");
	else if (!msg && !head)
		NERROR(rf, root, "missing field \"message\" (or \"headline\")");
	if (reason && !head)
		NERROR(rf, reason, "\"reason\" needs \"headline\" (a rule with \"message\" writes the whole sentence there)");
	if (rf->set->builtin) {
		if (!head)
			head = required(rf, root, "headline");
		if (!reason)
			reason = required(rf, root, "reason");
		if (!help)
			help = required(rf, root, "help");
	}
	if (msg)
		rfile_load_template(rf, &r->message, "message", msg, scope);
	if (head)
		rfile_load_template(rf, &r->headline, "headline", head, scope);
	if (reason && head)
		rfile_load_template(rf, &r->reason, "reason", reason, scope);
	if (help)
		rfile_load_template(rf, &r->help, "help", help, scope);
}

/* The defaults of the fields left out, once the words are loaded. */
static void fill_defaults(struct rfile *rf, struct kvet_rule *r)
{
	if (kvet_rule_fill_defaults(r, &rf->set->arena) && !rf->oom) {
		rf->oom = true;
		rfile_error(rf, 0, 0, "out of memory while loading the rule file");
	}
}

/* The rule's programs: its variables, `each`, condition, words and the
 * expressions that place and relate a finding, in @scope. */
static void load_programs(struct rfile *rf, struct kvet_rule *r,
			  const struct kvet_node *root)
{
	struct cel_scope scope = {
		.names = { "object", "params" }, .n = 2,
		.libs = kvet_cel_libs, .n_libs = kvet_cel_n_libs,
		.lazy_ns = "variables",
	};
	const struct kvet_node *n;
	size_t i;

	rf->rule = r;
	rf->var_names = NULL;
	rf->var_name_nodes = rf->var_exprs = NULL;
	rf->group_by = NULL;
	rf->cost = rf->heavy = 0;
	rf->per_item = 1;
	rf->heavy_node = root;
	rf->heavy_off = 0;
	rf->params = &r->params;
	if ((n = kvet_node_get(root, "variables")))
		rfile_declare_vars(rf, r, n);
	scope.lazy_names = rf->var_names;
	scope.n_lazy = r->n_vars;
	if ((n = kvet_node_get(root, "each")))
		rfile_load_each(rf, r, n, &scope);
	rfile_compile_vars(rf, r, &scope);
	if (rf->group_by) {
		r->group_text = rfile_str(rf, rf->group_by, "each.group_by");
		r->has_group = rfile_compile_node(rf, rf->group_by,
						  "each.group_by", &scope,
						  &r->group_by, &r->n_slots);
	}
	if ((n = required(rf, root, "condition"))) {
		r->condition_text = rfile_str(rf, n, "condition");
		rfile_compile_node(rf, n, "condition", &scope, &r->condition,
			     &r->n_slots);
	}
	load_words(rf, r, root, &scope);
	if ((n = kvet_node_get(root, "severity_expr")))
		r->has_severity_expr = rfile_compile_node(rf, n, "severity_expr",
						    &scope, &r->severity_expr,
						    &r->n_slots);
	if ((n = kvet_node_get(root, "at"))) {
		size_t cnt = kvet_node_is_seq(n) ? n->len : 1;

		r->at = rfile_alloc(rf, cnt + 1, sizeof(*r->at));
		for (i = 0; r->at && i < cnt; i++)
			rfile_compile_node(rf, rfile_list_item(n, i), "at",
					   &scope, &r->at[i], &r->n_slots);
		r->n_at = cnt;
	}
	if ((n = kvet_node_get(root, "related")))
		r->has_related = rfile_compile_node(rf, n, "related", &scope,
					      &r->related, &r->n_slots);
}

static struct kvet_rule *load_rule(struct rfile *rf,
				   const struct kvet_node *root)
{
	struct kvet_rule *r = rfile_alloc(rf, 1, sizeof(*r));
	const struct kvet_node *n;
	size_t i, j, nrefs;
	const char *sev;

	if (!r)
		return NULL;
	r->file = rf->name;
	rf->rule = r;
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
	    (r->info.id = rfile_str(rf, n, "id")) && !kebab_case(r->info.id))
		NERROR(rf, n, "rule id \"%s\" is not kebab-case (lowercase letters, digits and single dashes)",
		       r->info.id);
	if ((n = required(rf, root, "severity")) &&
	    (sev = rfile_str(rf, n, "severity"))) {
		for (i = 0; i < KVET_SEV_COUNT &&
			    strcmp(sev, kvet_rule_severity_names[i]); i++)
			;
		if (i == KVET_SEV_COUNT)
			NERROR(rf, n, "invalid severity \"%s\" (expected error, warning or info)",
			       sev);
		r->info.severity = i < KVET_SEV_COUNT ? (enum kvet_severity)i
						      : KVET_SEV_ERROR;
	}
	if ((n = documented(rf, root, "category")))
		r->info.category = rfile_str(rf, n, "category");
	if ((n = documented(rf, root, "summary")))
		r->info.summary = rfile_str(rf, n, "summary");
	if ((n = documented(rf, root, "description")))
		r->info.description = rfile_str(rf, n, "description");
	if ((n = documented(rf, root, "remediation")))
		r->info.remediation = rfile_str(rf, n, "remediation");
	if ((n = documented(rf, root, "references"))) {
		r->info.references = rfile_str_list(rf, n, "references", &nrefs);
		r->info.n_references = nrefs;
		for (i = 0; r->info.references && i < nrefs; i++)
			if (strncmp(r->info.references[i], "https://", 8) &&
			    strncmp(r->info.references[i], "http://", 7))
				NERROR(rf, rfile_list_item(n, i),
				       "reference \"%s\" is not an http(s) URL",
				       r->info.references[i]);
	}
	if ((n = required(rf, root, "match")))
		rfile_load_match(rf, r, n);
	rfile_load_params(rf, r, kvet_node_get(root, "params"));
	rf->params = &r->params;
	/* a lint's built-in rules are compiled when an object of their
	 * kinds comes (kvet_rule_set_compile()) */
	if (rf->set->lean)
		r->pending = root;
	else
		load_programs(rf, r, root);
	if ((n = kvet_node_get(root, "on_error"))) {
		r->tolerate_errors = kvet_node_eq(n, "tolerate");
		if (!r->tolerate_errors && !kvet_node_eq(n, "fail"))
			NERROR(rf, n, "\"on_error\" must be fail or tolerate");
	}
	if (!r->pending)
		check_cost(rf, r);
	if (!rf->set->lean && (n = documented(rf, root, "examples")))
		rfile_load_examples(rf, r, n);
	r->builtin = rf->set->builtin;
	r->text = rf->buf;
	r->text_len = rf->len;
	if (!r->pending)
		fill_defaults(rf, r);
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

/* Load and add the rules of the documents @roots (@n of them) of the file
 * @rf names: 0, or -1 when memory ran out. */
static int add_roots(struct rfile *rf, const struct kvet_node *const *roots,
		     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		bool before = rf->failed;
		struct kvet_rule *r;

		rf->failed = false;
		r = load_rule(rf, roots[i]);
		if (!r)
			return -1;
		if (!rf->failed && add_rule(rf, r, roots[i]))
			return -1;
		rf->failed = rf->failed || before;
	}
	return 0;
}

/* The end of adding one rule file, @failed or not: -1 when it failed or
 * gave errors of its own, and then, when it gave none, the one thing
 * that fails a file without an error: memory. */
static int file_done(struct kvet_rule_set *set, const char *name,
		     size_t errs, bool failed)
{
	if (!failed && set->diag.n == errs && !set->diag.oom)
		return 0;
	if (set->diag.n == errs)
		kvet_diag_addf(&set->diag, name, 0, 0,
			       "cannot load the rule file: out of memory");
	return -1;
}

int kvet_rule_set_add_buffer(struct kvet_rule_set *set, const char *name,
			     const char *text, size_t len)
{
	struct rfile rf = { .set = set };
	struct kvet_docs docs = { 0 };
	const struct kvet_node **roots = NULL;
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
	roots = kvet_arena_array(&set->arena, docs.n + 1, sizeof(*roots));
	if (!roots)
		goto out;
	for (i = 0; i < docs.n; i++)
		roots[i] = docs.v[i].root;
	if (add_roots(&rf, roots, docs.n))
		goto out;
	ret = 0;
out:
	ret = file_done(set, rf.name, errs, ret < 0);
	kvet_docs_release(&docs);
	return ret;
}

/*
 * A built-in rule file without its examples: its trees were made when
 * kvet was built (tools/embed_rules.c), by the loader a rule file goes
 * through, and the text they point into is the library's own, so a lint
 * neither parses nor copies it.
 */
static int add_builtin_trees(struct kvet_rule_set *set,
			     const struct kvet_builtin_rule_file *bf)
{
	struct rfile rf = { .set = set, .name = bf->name, .buf = bf->text,
			    .len = bf->rule_len };
	const struct kvet_node **roots;
	size_t i, errs = set->diag.n;
	int ret = -1;

	roots = kvet_arena_array(&set->arena, bf->n_roots + 1, sizeof(*roots));
	if (!roots)
		goto out;
	for (i = 0; i < bf->n_roots; i++)
		roots[i] = &bf->roots[i];
	if (add_roots(&rf, roots, bf->n_roots))
		goto out;
	ret = 0;
out:
	return file_done(set, rf.name, errs, ret < 0);
}

int kvet_rule_set_add_builtin(struct kvet_rule_set *set, bool examples)
{
	const struct kvet_builtin_rule_file *bf;
	size_t i;
	int ret = 0;

	set->builtin = true;
	set->lean = !examples;
	for (i = 0; i < kvet_builtin_rule_file_count; i++) {
		bf = &kvet_builtin_rule_files[i];
		if (examples ? kvet_rule_set_add_buffer(set, bf->name, bf->text,
							bf->len)
			     : add_builtin_trees(set, bf))
			ret = -1;
	}
	set->builtin = set->lean = false;
	return ret;
}

int kvet_rule_set_compile_rule(struct kvet_rule_set *set, struct kvet_rule *r)
{
	struct rfile rf = { .set = set, .name = r->file, .buf = r->text,
			    .len = r->text_len };
	size_t errs = set->diag.n;

	if (!r->pending)
		return 0;
	load_programs(&rf, r, r->pending);
	check_cost(&rf, r);
	fill_defaults(&rf, r);
	if (rf.failed || set->diag.n > errs)
		return -1;
	r->pending = NULL;
	return 0;
}

int kvet_rule_set_compile(struct kvet_rule_set *set,
			  struct kvet_object *const *objs, size_t n,
			  const struct kvet_custom_workload *custom,
			  size_t n_custom)
{
	size_t i, k;
	int *cls = malloc((n ? n : 1) * sizeof(*cls));
	int ret = -1;

	/* the objects' kind classes, worked out once for all the rules */
	if (!cls)
		return -1;
	for (k = 0; k < n; k++)
		cls[k] = -1;
	for (i = 0; i < set->n; i++) {
		struct kvet_rule *r = set->v[i];

		if (!r->pending || r->disabled)
			continue;
		for (k = 0; k < n; k++)
			if (kvet_rule_matches_class(r, objs[k], custom,
						    n_custom, &cls[k]))
				break;
		if (k < n && kvet_rule_set_compile_rule(set, r))
			goto out;
	}
	ret = 0;
out:
	free(cls);
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

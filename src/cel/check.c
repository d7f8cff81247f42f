/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CEL checker: the "compile" stage. It resolves every variable to a
 * slot (macros bind their iteration variable in a new slot), every call
 * to a row of the scope's libraries, infers static types where they are
 * known so that "a" + 1 or size(true) is refused when the rule is loaded,
 * compiles the pattern literals of matches() once, and folds operators
 * whose operands are constants.
 */
#include "cel/ast.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct checker {
	const struct cel_scope *scope;
	struct kvet_arena *arena;
	struct cel_regexes *rx;
	struct cel_error *err;
	const char *names[CEL_MAX_DEPTH + 8];	/* visible variables */
	size_t name_lens[CEL_MAX_DEPTH + 8];
	uint16_t slots[CEL_MAX_DEPTH + 8];
	size_t n_names;
	unsigned int next_slot;
	unsigned int depth;		/* of the node being checked, root 1 */
	unsigned int height;		/* with the lazy variables read */
	const char *text;
};

__attribute__((format(printf, 3, 4)))
static int check_error(struct checker *ck, size_t off, const char *fmt, ...)
{
	va_list ap;

	ck->err->off = off;
	va_start(ap, fmt);
	vsnprintf(ck->err->msg, sizeof(ck->err->msg), fmt, ap);
	va_end(ap);
	return -1;
}

static const char *stype_name(enum cel_stype t)
{
	static const char *const names[] = {
		[CEL_ST_DYN] = "dyn",	     [CEL_ST_NULL] = "null",
		[CEL_ST_BOOL] = "bool",	     [CEL_ST_INT] = "int",
		[CEL_ST_DOUBLE] = "double",  [CEL_ST_STRING] = "string",
		[CEL_ST_LIST] = "list",	     [CEL_ST_MAP] = "map",
	};

	return names[t];
}

static enum cel_stype stype_of_value(const struct cel_value *v)
{
	switch ((enum cel_type)v->type) {
	case CEL_NULL: return CEL_ST_NULL;
	case CEL_BOOL: return CEL_ST_BOOL;
	case CEL_INT: return CEL_ST_INT;
	case CEL_DOUBLE: return CEL_ST_DOUBLE;
	case CEL_STRING: return CEL_ST_STRING;
	case CEL_LIST: return CEL_ST_LIST;
	case CEL_MAP: return CEL_ST_MAP;
	case CEL_ERROR: break;
	}
	return CEL_ST_DYN;
}

/* May a value of static type @have be where @want is expected? */
static bool fits(enum cel_stype have, enum cel_stype want)
{
	return have == CEL_ST_DYN || want == CEL_ST_DYN || have == want ||
	       (have == CEL_ST_NULL && want == CEL_ST_MAP);
}

static bool numeric(enum cel_stype t)
{
	return t == CEL_ST_INT || t == CEL_ST_DOUBLE;
}

static int check(struct checker *ck, struct cel_ast *a);

static int check_kids(struct checker *ck, struct cel_ast *a, size_t from)
{
	size_t i;

	for (i = from; i < a->n; i++)
		if (check(ck, a->kids[i]))
			return -1;
	return 0;
}

/* Is @a the name of the lazy variables, bound to nothing else? */
static bool is_lazy_ns(const struct checker *ck, const struct cel_ast *a)
{
	const char *ns = ck->scope->lazy_ns;
	size_t i;

	if (!ns || a->kind != CEL_AST_IDENT || strlen(ns) != a->name_len ||
	    memcmp(ns, a->name, a->name_len))
		return false;
	for (i = 0; i < ck->n_names; i++)
		if (ck->name_lens[i] == a->name_len &&
		    !memcmp(ck->names[i], a->name, a->name_len))
			return false;
	return true;
}

static int check_ident(struct checker *ck, struct cel_ast *a)
{
	size_t i;

	for (i = ck->n_names; i-- > 0;) {
		if (ck->name_lens[i] == a->name_len &&
		    !memcmp(ck->names[i], a->name, a->name_len)) {
			a->slot = ck->slots[i];
			a->stype = CEL_ST_DYN;
			return 0;
		}
	}
	if (is_lazy_ns(ck, a))
		return check_error(ck, a->off,
				   "\"%s\" is no value of its own: read one variable, as in %s.name",
				   ck->scope->lazy_ns, ck->scope->lazy_ns);
	return check_error(ck, a->off, "unknown variable \"%.*s\"",
			   (int)a->name_len, a->name);
}

/*
 * lazy_ns.name: the lazy variable's index, so that nothing is looked up
 * by name at run time, and its static type. A variable may read only
 * the ones before it (which makes a cycle impossible) and is readable
 * only where the host says (not in what runs before it).
 */
static int check_lazy(struct checker *ck, struct cel_ast *a)
{
	const struct cel_scope *sc = ck->scope;
	const char *ns = sc->lazy_ns, *why = sc->lazy_hidden_why;
	size_t off = a->kids[0]->off, j;
	int len = (int)a->name_len;

	for (j = 0; j < sc->n_lazy; j++)
		if (strlen(sc->lazy_names[j]) == a->name_len &&
		    !memcmp(sc->lazy_names[j], a->name, a->name_len))
			break;
	if (j == sc->n_lazy)
		return check_error(ck, off, "unknown variable \"%s.%.*s\"", ns,
				   len, a->name);
	if (sc->lazy_compiling && j == sc->n_lazy_visible)
		return check_error(ck, off, "variable \"%.*s\" refers to itself",
				   len, a->name);
	if (sc->lazy_compiling && j > sc->n_lazy_visible)
		return check_error(ck, off,
				   "\"%s.%.*s\" is defined after variable \"%s\", which cannot read it",
				   ns, len, a->name,
				   sc->lazy_names[sc->n_lazy_visible]);
	if (j >= sc->n_lazy_visible)
		return check_error(ck, off, "\"%s.%.*s\" cannot be used here%s%s",
				   ns, len, a->name, why ? ": " : "",
				   why ? why : "");
	/* the variable's tree hangs below this node when it is evaluated */
	if (sc->lazy && ck->depth + sc->lazy[j].height > ck->height)
		ck->height = ck->depth + sc->lazy[j].height;
	if (ck->height > CEL_MAX_EVAL_DEPTH)
		return check_error(ck, off,
				   "expression nested more than %d deep with the variables it reads",
				   CEL_MAX_EVAL_DEPTH);
	a->kind = CEL_AST_VARIABLE;
	a->slot = (uint16_t)j;
	a->n = 0;
	/* a variable that failed to compile fails the rule anyway */
	a->stype = sc->lazy && sc->lazy[j].root ? sc->lazy[j].root->stype :
						   CEL_ST_DYN;
	return 0;
}

static int check_binary(struct checker *ck, struct cel_ast *a)
{
	enum cel_stype l = a->kids[0]->stype, r = a->kids[1]->stype;
	enum cel_binary_op op = a->op;
	bool ok = true;

	a->stype = CEL_ST_BOOL;
	switch (op) {
	case CEL_OP_AND:
	case CEL_OP_OR:
		ok = fits(l, CEL_ST_BOOL) && fits(r, CEL_ST_BOOL);
		break;
	case CEL_OP_EQ:
	case CEL_OP_NE:
		break;
	case CEL_OP_LT:
	case CEL_OP_LE:
	case CEL_OP_GT:
	case CEL_OP_GE:
		ok = l == CEL_ST_DYN || r == CEL_ST_DYN || l == r ||
		     (numeric(l) && numeric(r));
		ok = ok && l != CEL_ST_LIST && l != CEL_ST_MAP &&
		     l != CEL_ST_NULL;
		break;
	case CEL_OP_IN:
		ok = r == CEL_ST_DYN || r == CEL_ST_LIST || r == CEL_ST_MAP;
		break;
	case CEL_OP_ADD:
		ok = l == CEL_ST_DYN || r == CEL_ST_DYN ||
		     (l == r && (numeric(l) || l == CEL_ST_STRING ||
				 l == CEL_ST_LIST));
		a->stype = l == r ? l : CEL_ST_DYN;
		break;
	case CEL_OP_SUB:
	case CEL_OP_MUL:
	case CEL_OP_DIV:
		ok = (fits(l, CEL_ST_INT) || l == CEL_ST_DOUBLE) &&
		     (fits(r, CEL_ST_INT) || r == CEL_ST_DOUBLE) &&
		     (l == CEL_ST_DYN || r == CEL_ST_DYN || l == r);
		a->stype = l == r ? l : CEL_ST_DYN;
		break;
	case CEL_OP_MOD:
		ok = fits(l, CEL_ST_INT) && fits(r, CEL_ST_INT);
		a->stype = CEL_ST_INT;
		break;
	case CEL_OP_COUNT:
		break;
	}
	if (!ok)
		return check_error(ck, a->off,
				   "no operator '%s' for (%s, %s)",
				   cel_binary_op_name(op), stype_name(l),
				   stype_name(r));
	return 0;
}

/* The pattern of matches() is compiled now, once per rule set. */
static int check_regex(struct checker *ck, struct cel_ast *call,
		       struct cel_ast *pat)
{
	struct cel_error rerr;
	void *re;

	if (pat->kind != CEL_AST_LITERAL || pat->lit.type != CEL_STRING)
		return check_error(ck, pat->off,
				   "the pattern of matches() must be a string literal, compiled when the rule is loaded");
	re = cel_regex_compile(pat->lit.u.s, pat->lit.len, &rerr);
	if (!re) {
		/* the literal's opening quote, then the pattern offset; exact
		 * for patterns without escapes, which regexes rarely need
		 * inside raw strings */
		size_t q = pat->off;

		if (ck->text[q] == 'r' || ck->text[q] == 'R')
			q++;
		return check_error(ck, q + 1 + rerr.off, "%s", rerr.msg);
	}
	if (ck->rx->n == ck->rx->cap) {
		size_t cap = ck->rx->cap ? ck->rx->cap * 2 : 8;
		void **v = realloc(ck->rx->v, cap * sizeof(*v));

		if (!v) {
			/* cap 0: frees the code, not the borrowed vector */
			cel_regexes_release(&(struct cel_regexes){ &re, 1, 0 });
			return check_error(ck, pat->off, "out of memory");
		}
		ck->rx->v = v;
		ck->rx->cap = cap;
	}
	ck->rx->v[ck->rx->n++] = re;
	call->regex = re;
	return 0;
}

const struct cel_func *cel_func_find(const struct cel_lib *const *libs,
				     size_t n_libs, const char *name,
				     size_t len, unsigned int style,
				     size_t nargs, bool *known)
{
	const struct cel_func *fn;
	size_t i, j;

	*known = false;
	for (i = 0; i < n_libs; i++) {
		for (j = 0; j < libs[i]->n; j++) {
			fn = &libs[i]->funcs[j];
			/* the first byte first: every call of every rule
			 * is looked up in hundreds of rows */
			if ((len && fn->name[0] != name[0]) ||
			    strlen(fn->name) != len ||
			    memcmp(fn->name, name, len) != 0)
				continue;
			*known = true;
			if ((fn->style & style) && nargs >= fn->min_args &&
			    nargs <= fn->max_args)
				return fn;
		}
	}
	return NULL;
}

static int check_call(struct checker *ck, struct cel_ast *a)
{
	unsigned int style = a->receiver ? CEL_CALL_METHOD : CEL_CALL_GLOBAL;
	const struct cel_func *fn;
	bool known = false;
	size_t i;

	if (check_kids(ck, a, 0))
		return -1;
	fn = cel_func_find(ck->scope->libs, ck->scope->n_libs, a->name,
			   a->name_len, style, a->n, &known);
	if (!fn && !known)
		return check_error(ck, a->off, "unknown function \"%.*s\"",
				   (int)a->name_len, a->name);
	if (!fn)
		return check_error(ck, a->off,
				   "no form of \"%.*s\" takes %s%u argument%s",
				   (int)a->name_len, a->name,
				   a->receiver ? "a receiver and " : "",
				   (unsigned int)(a->n - (a->receiver ? 1 : 0)),
				   a->n - (a->receiver ? 1 : 0) == 1 ? "" : "s");
	for (i = 0; i < a->n && i < 4; i++) {
		enum cel_stype have = a->kids[i]->stype, want = fn->args[i];

		if (!fits(have, want) &&
		    !(want == CEL_ST_DOUBLE && have == CEL_ST_INT))
			return check_error(ck, a->kids[i]->off,
					   "%s() expects %s as %s, not %s",
					   fn->name, stype_name(want),
					   a->receiver && i == 0 ? "receiver"
								 : "argument",
					   stype_name(have));
	}
	a->fn = fn;
	a->stype = fn->ret;
	if (cel_std_is_matches(fn))
		return check_regex(ck, a, a->kids[a->n - 1]);
	return 0;
}

static int check_macro(struct checker *ck, struct cel_ast *a)
{
	enum cel_stype range;
	size_t i;

	if (a->op == CEL_MACRO_HAS) {
		if (a->kids[0]->kind == CEL_AST_SELECT &&
		    is_lazy_ns(ck, a->kids[0]->kids[0]))
			return check_lazy(ck, a->kids[0]) ? -1 :
			       check_error(ck, a->kids[0]->kids[0]->off,
					   "has() cannot test a variable: %s.%.*s is always defined",
					   ck->scope->lazy_ns,
					   (int)a->kids[0]->name_len,
					   a->kids[0]->name);
		if (check(ck, a->kids[0]))
			return -1;
		a->stype = CEL_ST_BOOL;
		return 0;
	}
	if (check(ck, a->kids[0]))
		return -1;
	range = a->kids[0]->stype;
	if (range != CEL_ST_DYN && range != CEL_ST_LIST && range != CEL_ST_MAP)
		return check_error(ck, a->kids[0]->off,
				   "%s() needs a list or map, not %s",
				   cel_macro_name(a->op), stype_name(range));
	if (ck->scope->n_lazy && ck->scope->lazy_ns &&
	    strlen(ck->scope->lazy_ns) == a->name_len &&
	    !memcmp(ck->scope->lazy_ns, a->name, a->name_len))
		return check_error(ck, a->off,
				   "the iteration variable \"%s\" would hide the variables (%s.name)",
				   ck->scope->lazy_ns, ck->scope->lazy_ns);
	if (ck->n_names == sizeof(ck->names) / sizeof(ck->names[0]) ||
	    ck->next_slot == UINT16_MAX)
		return check_error(ck, a->off, "too many nested macros");
	a->slot = (uint16_t)ck->next_slot++;
	ck->names[ck->n_names] = a->name;
	ck->name_lens[ck->n_names] = a->name_len;
	ck->slots[ck->n_names] = a->slot;
	ck->n_names++;
	for (i = 1; i < a->n; i++) {
		if (check(ck, a->kids[i])) {
			ck->n_names--;
			return -1;
		}
	}
	ck->n_names--;
	if (a->op != CEL_MACRO_MAP || a->n == 3) {
		if (!fits(a->kids[1]->stype, CEL_ST_BOOL))
			return check_error(ck, a->kids[1]->off,
					   "the predicate of %s() must be a bool, not %s",
					   cel_macro_name(a->op),
					   stype_name(a->kids[1]->stype));
	}
	a->stype = a->op == CEL_MACRO_FILTER || a->op == CEL_MACRO_MAP
			   ? CEL_ST_LIST
			   : CEL_ST_BOOL;
	return 0;
}

/* Replace an operator on constants by its value. */
static void fold(struct checker *ck, struct cel_ast *a)
{
	struct cel_env env = { .scratch = ck->arena };
	struct cel_eval ev = { .env = &env };
	struct cel_value v;
	size_t i;

	for (i = 0; i < a->n; i++)
		if (a->kids[i]->kind != CEL_AST_LITERAL)
			return;
	v = cel_eval_ast(&ev, a, 0);
	if (v.type == CEL_ERROR || v.type == CEL_LIST || v.type == CEL_MAP)
		return;
	a->kind = CEL_AST_LITERAL;
	a->lit = v;
	a->n = 0;
}

/* Recursion follows the AST, whose height the parser bounded. */
static int check_node(struct checker *ck, struct cel_ast *a)
{
	size_t i;

	switch ((enum cel_ast_kind)a->kind) {
	case CEL_AST_LITERAL:
		a->stype = stype_of_value(&a->lit);
		return 0;
	case CEL_AST_IDENT:
		return check_ident(ck, a);
	case CEL_AST_SELECT:
		if (is_lazy_ns(ck, a->kids[0]))
			return check_lazy(ck, a);
		if (check(ck, a->kids[0]))
			return -1;
		if (!fits(a->kids[0]->stype, CEL_ST_MAP))
			return check_error(ck, a->off,
					   "cannot select field \"%.*s\" of %s",
					   (int)a->name_len, a->name,
					   stype_name(a->kids[0]->stype));
		a->stype = CEL_ST_DYN;
		return 0;
	case CEL_AST_INDEX:
		if (check_kids(ck, a, 0))
			return -1;
		if (a->kids[0]->stype != CEL_ST_DYN &&
		    a->kids[0]->stype != CEL_ST_LIST &&
		    a->kids[0]->stype != CEL_ST_MAP)
			return check_error(ck, a->off, "cannot index %s",
					   stype_name(a->kids[0]->stype));
		if (a->kids[0]->stype == CEL_ST_LIST &&
		    !fits(a->kids[1]->stype, CEL_ST_INT))
			return check_error(ck, a->kids[1]->off,
					   "a list index must be an int, not %s",
					   stype_name(a->kids[1]->stype));
		a->stype = CEL_ST_DYN;
		return 0;
	case CEL_AST_CALL:
		return check_call(ck, a);
	case CEL_AST_LIST:
		a->stype = CEL_ST_LIST;
		return check_kids(ck, a, 0);
	case CEL_AST_MAP:
		a->stype = CEL_ST_MAP;
		if (check_kids(ck, a, 0))
			return -1;
		for (i = 0; i < a->n; i += 2) {
			enum cel_stype k = a->kids[i]->stype;

			if (k != CEL_ST_DYN && k != CEL_ST_STRING &&
			    k != CEL_ST_INT && k != CEL_ST_BOOL)
				return check_error(ck, a->kids[i]->off,
						   "a map key must be a string, int or bool, not %s",
						   stype_name(k));
		}
		return 0;
	case CEL_AST_UNARY:
		if (check(ck, a->kids[0]))
			return -1;
		if (a->op == CEL_UOP_NOT) {
			if (!fits(a->kids[0]->stype, CEL_ST_BOOL))
				return check_error(ck, a->off,
						   "no operator '!' for %s",
						   stype_name(a->kids[0]->stype));
			a->stype = CEL_ST_BOOL;
		} else {
			if (a->kids[0]->stype != CEL_ST_DYN &&
			    !numeric(a->kids[0]->stype))
				return check_error(ck, a->off,
						   "no operator '-' for %s",
						   stype_name(a->kids[0]->stype));
			a->stype = a->kids[0]->stype;
		}
		fold(ck, a);
		return 0;
	case CEL_AST_BINARY:
		if (check_kids(ck, a, 0) || check_binary(ck, a))
			return -1;
		fold(ck, a);
		return 0;
	case CEL_AST_COND:
		if (check_kids(ck, a, 0))
			return -1;
		if (!fits(a->kids[0]->stype, CEL_ST_BOOL))
			return check_error(ck, a->off,
					   "the condition of '?:' must be a bool, not %s",
					   stype_name(a->kids[0]->stype));
		a->stype = a->kids[1]->stype == a->kids[2]->stype
				   ? a->kids[1]->stype
				   : CEL_ST_DYN;
		return 0;
	case CEL_AST_MACRO:
		return check_macro(ck, a);
	case CEL_AST_VARIABLE:
		return 0;
	}
	return check_error(ck, a->off, "internal error: unknown node");
}

static int check(struct checker *ck, struct cel_ast *a)
{
	int ret;

	ck->depth++;
	ret = check_node(ck, a);
	ck->depth--;
	return ret;
}

int cel_compile(struct kvet_arena *arena, struct cel_regexes *rx,
		const char *text, size_t len, const struct cel_scope *scope,
		struct cel_program *out, struct cel_error *err)
{
	struct checker ck = { .scope = scope, .arena = arena, .rx = rx,
			      .err = err, .text = text };
	size_t i;

	memset(out, 0, sizeof(*out));
	if (cel_parse(arena, text, len, &out->root, err))
		return -1;
	for (i = 0; i < scope->n; i++) {
		ck.names[i] = scope->names[i];
		ck.name_lens[i] = strlen(scope->names[i]);
		ck.slots[i] = (uint16_t)i;
	}
	ck.n_names = scope->n;
	ck.next_slot = (unsigned int)scope->n;
	if (scope->first_slot > ck.next_slot)
		ck.next_slot = scope->first_slot;
	if (check(&ck, out->root))
		return -1;
	out->n_slots = ck.next_slot;
	out->height = ck.height > out->root->height ? ck.height
						    : out->root->height;
	return 0;
}

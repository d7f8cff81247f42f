/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CEL evaluator: walks a checked AST. Recursion follows the AST,
 * whose height the parser bounded; loops over input lists are loops.
 * Everything it allocates goes to the environment's scratch arena, which
 * the host resets between evaluations (kvet: between objects).
 *
 * Errors are values. && and || absorb them as the CEL specification
 * says ("Logical Operators"): false && error is false, true || error is
 * true, and the macros all() and exists() do the same over their items.
 * A failure (CEL_V_FAILURE: a limit hit, no memory) is not absorbed:
 * it is no value of the expression, and ends the evaluation.
 */
#include "cel/ast.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>

/* The parser bounds the height of a program's tree, and the checker
 * that of a program with the lazy variables it reads; the evaluator goes
 * one level down per call: this only guards trees built otherwise. */
enum { EVAL_MAX_DEPTH = CEL_MAX_EVAL_DEPTH };

/* the kinds of node that cel_eval_ast() jumps to (see there) */
#define NOINLINE_ __attribute__((noinline))

__attribute__((format(printf, 3, 0)))
static struct cel_value verrorf(struct cel_eval *ev, bool failure,
				const char *fmt, va_list ap)
{
	struct cel_value v = { .type = CEL_ERROR };

	v.u.s = kvet_arena_vprintf(ev->env->scratch, fmt, ap);
	if (!v.u.s) {
		v.u.s = "out of memory";
		failure = true;
	}
	if (failure)
		v.flags = CEL_V_FAILURE;
	return v;
}

struct cel_value cel_eval_errorf(struct cel_eval *ev, const char *fmt, ...)
{
	struct cel_value v;
	va_list ap;

	va_start(ap, fmt);
	/* the bindings report exhaustion with this one message */
	v = verrorf(ev, !strcmp(fmt, "out of memory"), fmt, ap);
	va_end(ap);
	return v;
}

struct cel_value cel_eval_failf(struct cel_eval *ev, const char *fmt, ...)
{
	struct cel_value v;
	va_list ap;

	va_start(ap, fmt);
	v = verrorf(ev, true, fmt, ap);
	va_end(ap);
	return v;
}

void cel_env_meter(struct cel_env *env, uint64_t steps, size_t bytes)
{
	env->cost = 0;
	env->cost_limit = steps;
	env->mem_base = env->scratch ? env->scratch->total : 0;
	env->mem_limit = bytes;
	env->cost_cap = steps ? steps : UINT64_MAX;
	env->mem_cap = bytes && env->mem_base <= SIZE_MAX - bytes
			       ? env->mem_base + bytes
			       : SIZE_MAX;
}

static bool over_memory(const struct cel_env *env)
{
	size_t used = env->scratch->total;

	return env->mem_limit && used > env->mem_base &&
	       used - env->mem_base > env->mem_limit;
}

bool cel_eval_charge(struct cel_eval *ev, uint64_t steps,
		     struct cel_value *err)
{
	struct cel_env *env = ev->env;

	if (cel_env_charge(env, steps) && !over_memory(env))
		return true;
	if (env->cost_limit && env->cost > env->cost_limit)
		*err = cel_eval_failf(ev, "evaluation cost over the limit of %llu steps for one object",
				      (unsigned long long)env->cost_limit);
	else
		*err = cel_eval_failf(ev, "evaluation memory over the limit of %zu KiB for one object",
				      env->mem_limit >> 10);
	return false;
}

/* The steps of scanning @n items or bytes. */
static uint64_t scan(size_t n)
{
	return n / CEL_COST_SCAN;
}

static struct cel_value no_key(struct cel_eval *ev, const char *k, size_t len)
{
	return cel_eval_errorf(ev, "no such key: '%.*s'", (int)len, k);
}

/* An error about value @v, placed where @v is in the input (the key of
 * the map a key is missing from), for the report of the error. */
static struct cel_value placed(struct cel_value err, const struct cel_value *v)
{
	err.at = v->at;
	return err;
}

static struct cel_value select_field(struct cel_eval *ev,
				     const struct cel_value *v,
				     const char *name, size_t len)
{
	struct cel_value out;

	if (v->type == CEL_ERROR)
		return *v;
	if (v->type != CEL_MAP)
		return placed(cel_eval_errorf(ev, "no such key: '%.*s' (on %s)",
					      (int)len, name,
					      cel_type_name(v->type)), v);
	CEL_CHARGE(ev, scan(cel_len(v)));
	if (cel_map_get(v, name, len, &out))
		return out;
	/* a host object may have fields its map lacks (cel_host.h) */
	if (v->host_tag != CEL_HOST_NONE && ev->env->host &&
	    ev->env->host->field &&
	    ev->env->host->field(ev->env->host, v, name, len, &out))
		return out;
	return placed(no_key(ev, name, len), v);
}

static struct cel_value eval_index(struct cel_eval *ev,
				   const struct cel_value *v,
				   const struct cel_value *i)
{
	struct cel_value out;

	if (v->type == CEL_ERROR)
		return *v;
	if (i->type == CEL_ERROR)
		return *i;
	if (v->type == CEL_LIST) {
		int64_t k;

		if (i->type == CEL_INT)
			k = i->u.i;
		else if (i->type == CEL_DOUBLE && i->u.d == floor(i->u.d) &&
			 fabs(i->u.d) < 9e15)
			k = (int64_t)i->u.d;
		else
			return cel_eval_errorf(ev, "a list index must be an int, not %s",
					       cel_type_name(i->type));
		if (k < 0 || (uint64_t)k >= cel_len(v))
			return placed(cel_eval_errorf(ev, "index %lld out of range (size %zu)",
						      (long long)k, cel_len(v)), v);
		return cel_list_at(v, (size_t)k);
	}
	if (v->type == CEL_MAP) {
		CEL_CHARGE(ev, scan(cel_len(v)));
		if (cel_map_find(v, i, &out))
			return out;
		if (i->type == CEL_STRING)
			return placed(no_key(ev, i->u.s, i->len), v);
		return placed(cel_eval_errorf(ev, "no such key"), v);
	}
	return cel_eval_errorf(ev, "cannot index %s", cel_type_name(v->type));
}

static struct cel_value eval_has(struct cel_eval *ev, const struct cel_ast *sel,
				 int depth)
{
	struct cel_value v = cel_eval_ast(ev, sel->kids[0], depth + 1), out;

	if (v.type == CEL_ERROR)
		return v;
	if (v.type != CEL_MAP)
		return cel_eval_errorf(ev, "has() on %s", cel_type_name(v.type));
	CEL_CHARGE(ev, scan(cel_len(&v)));
	/* Kubernetes treats a null field as an absent one */
	return cel_bool(cel_map_get(&v, sel->name, sel->name_len, &out) &&
			out.type != CEL_NULL);
}

/* cel_equal() within the budget: -2 when the budget ran out. */
static int equal(struct cel_eval *ev, const struct cel_value *a,
		 const struct cel_value *b)
{
	struct cel_env *env = ev->env;

	return cel_equal_metered(a, b, &env->cost,
				 env->cost_limit ? env->cost_limit : UINT64_MAX);
}

static struct cel_value eval_in(struct cel_eval *ev, const struct cel_value *x,
				const struct cel_value *c)
{
	struct cel_value item;
	size_t i, n;
	int eq;

	if (c->type == CEL_MAP) {
		CEL_CHARGE(ev, scan(cel_len(c)));
		return cel_bool(cel_map_find(c, x, &item));
	}
	if (c->type != CEL_LIST)
		return cel_eval_errorf(ev, "no operator 'in' for %s",
				       cel_type_name(c->type));
	for (i = 0, n = cel_len(c); i < n; i++) {
		item = cel_list_at(c, i);
		eq = equal(ev, x, &item);
		if (eq == -2)
			CEL_CHARGE(ev, 0);
		if (eq == 1)
			return cel_bool(true);
	}
	return cel_bool(false);
}

/* && and || with CEL's commutative error absorption. */
static struct cel_value logic(struct cel_eval *ev, const struct cel_ast *a,
			      int depth)
{
	bool is_and = a->op == CEL_OP_AND;
	struct cel_value l = cel_eval_ast(ev, a->kids[0], depth + 1), r;

	if (l.type == CEL_BOOL && l.u.b != is_and)
		return l;	/* short circuit: false && _, true || _ */
	if (cel_is_failure(&l))
		return l;	/* no value: nothing to absorb */
	r = cel_eval_ast(ev, a->kids[1], depth + 1);
	if (r.type == CEL_BOOL && r.u.b != is_and)
		return r;
	if (cel_is_failure(&r))
		return r;
	if (l.type == CEL_ERROR)
		return l;
	if (r.type == CEL_ERROR)
		return r;
	if (l.type != CEL_BOOL || r.type != CEL_BOOL)
		return cel_eval_errorf(ev, "no operator '%s' for (%s, %s)",
				       is_and ? "&&" : "||",
				       cel_type_name(l.type),
				       cel_type_name(r.type));
	return cel_bool(is_and);
}

static struct cel_value eval_node_charged(struct cel_eval *ev,
					  const struct cel_ast *a, int depth);
static inline bool charge_node(struct cel_env *env);

/* Is @a a + whose left operand is a + too: a chain a + b + c + ... */
static bool is_add_chain(const struct cel_ast *a)
{
	return a->kind == CEL_AST_BINARY && a->op == CEL_OP_ADD &&
	       a->kids[0]->kind == CEL_AST_BINARY &&
	       a->kids[0]->op == CEL_OP_ADD;
}

/* The string @acc (@*buf holding it, or NULL) with @r appended, in a
 * buffer that doubles (arena memory is zeroed: the text stays
 * NUL-terminated). */
static struct cel_value append(struct cel_eval *ev, struct cel_value acc,
			       const struct cel_value *r, char **buf,
			       size_t *cap)
{
	size_t len = (size_t)acc.len + r->len, c;
	char *s;

	if (*buf && len < *cap) {
		memcpy(*buf + acc.len, r->u.s, r->len);
		return cel_string(*buf, len);
	}
	for (c = *cap ? *cap : 64; c <= len; c *= 2)
		;
	s = kvet_arena_alloc(ev->env->scratch, c);
	if (!s)
		return cel_eval_errorf(ev, "out of memory");
	memcpy(s, acc.u.s, acc.len);
	memcpy(s + acc.len, r->u.s, r->len);
	*buf = s;
	*cap = c;
	return cel_string(s, len);
}

/*
 * A chain a + b + c + ... (the parser nests it to the left), as the
 * nested evaluation does it: each + node's step charged and its depth
 * checked on the way down, then the operands left to right, each +
 * charged for what it copies. Only strings are copied differently: into
 * one buffer that grows, where each + of the nested evaluation made a
 * new string of everything so far (a message's pieces were copied once
 * per piece after them). Other operands go to arith() as they would.
 */
static NOINLINE_ struct cel_value eval_add_chain(struct cel_eval *ev,
						 const struct cel_ast *a,
						 int depth)
{
	const struct cel_ast *chain[CEL_MAX_DEPTH];
	struct cel_value acc, r;
	size_t m = 0, k, cap = 0;
	char *buf = NULL;

	chain[m++] = a;
	while (m < CEL_MAX_DEPTH && is_add_chain(chain[m - 1])) {
		const struct cel_ast *kid = chain[m - 1]->kids[0];

		/* what cel_eval_ast() does on entering @kid */
		if (__builtin_expect(!charge_node(ev->env), 0)) {
			ev->env->cost--;
			if (!cel_eval_charge(ev, 1, &r))
				return r;
		}
		if (depth + (int)m > EVAL_MAX_DEPTH)
			return cel_eval_failf(ev, "expression too deep");
		chain[m++] = kid;
	}
	/* the innermost + of the chain evaluates as any other + */
	acc = eval_node_charged(ev, chain[m - 1], depth + (int)m - 1);
	for (k = m - 1; k-- > 0;) {
		if (acc.type == CEL_ERROR)
			return acc;
		r = cel_eval_ast(ev, chain[k]->kids[1], depth + (int)k + 1);
		if (r.type == CEL_ERROR)
			return r;
		if (acc.type != CEL_STRING || r.type != CEL_STRING) {
			acc = cel_arith(ev, CEL_OP_ADD, &acc, &r);
			buf = NULL;
			continue;
		}
		CEL_CHARGE(ev, scan((size_t)acc.len + r.len));
		if (acc.u.s != buf)
			buf = NULL;
		acc = append(ev, acc, &r, &buf, &cap);
	}
	return acc;
}

static NOINLINE_ struct cel_value eval_binary(struct cel_eval *ev,
				    const struct cel_ast *a, int depth)
{
	struct cel_value l, r;
	int c, eq;

	if (a->op == CEL_OP_AND || a->op == CEL_OP_OR)
		return logic(ev, a, depth);
	if (is_add_chain(a))
		return eval_add_chain(ev, a, depth);
	l = cel_eval_ast(ev, a->kids[0], depth + 1);
	if (l.type == CEL_ERROR)
		return l;
	r = cel_eval_ast(ev, a->kids[1], depth + 1);
	if (r.type == CEL_ERROR)
		return r;
	switch ((enum cel_binary_op)a->op) {
	case CEL_OP_EQ:
	case CEL_OP_NE:
		eq = equal(ev, &l, &r);
		if (eq == -2)
			CEL_CHARGE(ev, 0);
		if (eq < 0)
			return cel_eval_errorf(ev, "values nest too deeply to compare");
		return cel_bool((eq == 1) == (a->op == CEL_OP_EQ));
	case CEL_OP_LT:
	case CEL_OP_LE:
	case CEL_OP_GT:
	case CEL_OP_GE:
		if (l.type == CEL_STRING && r.type == CEL_STRING)
			CEL_CHARGE(ev, scan(l.len < r.len ? l.len : r.len));
		c = cel_compare(&l, &r);
		if (c == -2)
			return cel_eval_errorf(ev, "no operator '%s' for (%s, %s)",
					       cel_binary_op_name(a->op),
					       cel_type_name(l.type),
					       cel_type_name(r.type));
		switch (a->op) {
		case CEL_OP_LT: return cel_bool(c < 0);
		case CEL_OP_LE: return cel_bool(c <= 0);
		case CEL_OP_GT: return cel_bool(c > 0);
		default: return cel_bool(c >= 0);
		}
	case CEL_OP_IN:
		return eval_in(ev, &l, &r);
	default:
		return cel_arith(ev, a->op, &l, &r);
	}
}

static NOINLINE_ struct cel_value eval_unary(struct cel_eval *ev,
				   const struct cel_ast *a, int depth)
{
	struct cel_value v = cel_eval_ast(ev, a->kids[0], depth + 1);

	if (v.type == CEL_ERROR)
		return v;
	if (a->op == CEL_UOP_NOT) {
		if (v.type != CEL_BOOL)
			return cel_eval_errorf(ev, "no operator '!' for %s",
					       cel_type_name(v.type));
		return cel_bool(!v.u.b);
	}
	if (v.type == CEL_INT) {
		if (v.u.i == INT64_MIN)
			return cel_eval_errorf(ev, "integer overflow");
		return cel_int(-v.u.i);
	}
	if (v.type == CEL_DOUBLE)
		return cel_double(-v.u.d);
	return cel_eval_errorf(ev, "no operator '-' for %s",
			       cel_type_name(v.type));
}

static NOINLINE_ struct cel_value eval_macro(struct cel_eval *ev,
				   const struct cel_ast *a, int depth)
{
	struct cel_value range, item, p, *out = NULL, err = { .type = CEL_NULL };
	size_t i, n, m = 0, trues = 0;
	bool is_map;

	if (a->op == CEL_MACRO_HAS)
		return eval_has(ev, a->kids[0], depth);
	range = cel_eval_ast(ev, a->kids[0], depth + 1);
	if (range.type == CEL_ERROR)
		return range;
	if (range.type != CEL_LIST && range.type != CEL_MAP)
		return cel_eval_errorf(ev, "%s() on %s", cel_macro_name(a->op),
				       cel_type_name(range.type));
	is_map = range.type == CEL_MAP;
	n = cel_len(&range);
	if (a->op == CEL_MACRO_FILTER || a->op == CEL_MACRO_MAP) {
		CEL_CHARGE(ev, scan(n));
		out = kvet_arena_array(ev->env->scratch, n + 1, sizeof(*out));
		if (!out)
			return cel_eval_errorf(ev, "out of memory");
	}
	for (i = 0; i < n; i++) {
		item = is_map ? cel_map_key_at(&range, i) : cel_list_at(&range, i);
		ev->vars[a->slot] = item;
		p = cel_eval_ast(ev, a->kids[1], depth + 1);
		if (a->op == CEL_MACRO_MAP && a->n == 2) {
			if (p.type == CEL_ERROR)
				return p;
			out[m++] = p;
			continue;
		}
		if (p.type == CEL_ERROR) {
			/* all() and exists() may still be decided by another
			 * item, unless kvet gave up; the others fail at once */
			if ((a->op != CEL_MACRO_ALL && a->op != CEL_MACRO_EXISTS) ||
			    cel_is_failure(&p))
				return p;
			if (err.type != CEL_ERROR)
				err = p;
			continue;
		}
		if (p.type != CEL_BOOL)
			return cel_eval_errorf(ev, "the predicate of %s() gave %s, not bool",
					       cel_macro_name(a->op),
					       cel_type_name(p.type));
		switch ((enum cel_macro)a->op) {
		case CEL_MACRO_ALL:
			if (!p.u.b)
				return cel_bool(false);
			break;
		case CEL_MACRO_EXISTS:
			if (p.u.b)
				return cel_bool(true);
			break;
		case CEL_MACRO_EXISTS_ONE:
			trues += p.u.b;
			break;
		case CEL_MACRO_FILTER:
			if (p.u.b)
				out[m++] = item;
			break;
		case CEL_MACRO_MAP:
			if (!p.u.b)
				break;
			p = cel_eval_ast(ev, a->kids[2], depth + 1);
			if (p.type == CEL_ERROR)
				return p;
			out[m++] = p;
			break;
		default:
			break;
		}
	}
	switch ((enum cel_macro)a->op) {
	case CEL_MACRO_ALL:
		return err.type == CEL_ERROR ? err : cel_bool(true);
	case CEL_MACRO_EXISTS:
		return err.type == CEL_ERROR ? err : cel_bool(false);
	case CEL_MACRO_EXISTS_ONE:
		return cel_bool(trues == 1);
	default:
		p = (struct cel_value){ .type = CEL_LIST, .u.items = out,
					.len = (uint32_t)m };
		return p;
	}
}

void cel_lazy_reset(struct cel_lazy *lz)
{
	if (lz && lz->n)
		memset(lz->state, CEL_LAZY_UNSET, lz->n);
}

/*
 * A lazy variable: its value once evaluated, else evaluated now, in the
 * same activation, and kept, error or not. The checker let a variable
 * read only the ones before it, so none is ever read while it is being
 * evaluated, and bounded the depth the evaluation reaches below the
 * reading node (CEL_MAX_EVAL_DEPTH).
 */
static NOINLINE_ struct cel_value eval_lazy(struct cel_eval *ev, const struct cel_ast *a,
				  int depth)
{
	struct cel_lazy *lz = ev->env->lazy;
	struct cel_value v;
	size_t i = a->slot;

	if (!lz || i >= lz->n)
		return cel_eval_failf(ev, "internal error: variable %zu has no value",
				      i);
	if (lz->state[i] == CEL_LAZY_SET)
		return lz->values[i];
	assert(lz->state[i] != CEL_LAZY_BUSY);
	if (lz->state[i] == CEL_LAZY_BUSY)
		return cel_eval_failf(ev, "internal error: variable %zu reads itself",
				      i);
	lz->state[i] = CEL_LAZY_BUSY;
	v = cel_eval_ast(ev, lz->progs[i].root, depth + 1);
	lz->values[i] = v;
	lz->state[i] = CEL_LAZY_SET;
	return v;
}

static NOINLINE_ struct cel_value eval_call(struct cel_eval *ev, const struct cel_ast *a,
				  int depth)
{
	struct cel_value local[8], *args = local;
	size_t i;

	if (a->n > 8) {
		args = kvet_arena_array(ev->env->scratch, a->n, sizeof(*args));
		if (!args)
			return cel_eval_errorf(ev, "out of memory");
	}
	for (i = 0; i < a->n; i++) {
		args[i] = cel_eval_ast(ev, a->kids[i], depth + 1);
		if (args[i].type == CEL_ERROR)
			return args[i];
	}
	return a->fn->fn(ev, a, args, a->n);
}

static NOINLINE_ struct cel_value eval_collection(struct cel_eval *ev,
					const struct cel_ast *a, int depth)
{
	struct cel_value v = { .type = a->kind == CEL_AST_LIST ? CEL_LIST : CEL_MAP };
	struct cel_value *items = NULL, x;
	struct cel_entry *entries = NULL;
	size_t i;

	if (a->kind == CEL_AST_LIST)
		items = kvet_arena_array(ev->env->scratch, a->n + 1u, sizeof(*items));
	else
		entries = kvet_arena_array(ev->env->scratch, a->n / 2 + 1u,
					   sizeof(*entries));
	if (!items && !entries)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < a->n; i++) {
		struct cel_value e = cel_eval_ast(ev, a->kids[i], depth + 1);

		if (e.type == CEL_ERROR)
			return e;
		if (items) {
			items[i] = e;
		} else if (i % 2 == 0) {
			CEL_CHARGE(ev, scan(i / 2));
			v.u.entries = entries;
			v.len = (uint32_t)(i / 2);
			if (cel_map_find(&v, &e, &x))
				return cel_eval_errorf(ev, "duplicate map key");
			entries[i / 2].key = e;
		} else {
			entries[i / 2].value = e;
		}
	}
	if (items) {
		v.u.items = items;
		v.len = a->n;
	} else {
		v.u.entries = entries;
		v.len = a->n / 2u;
	}
	return v;
}

/* The step of one node: under both caps, nothing more to check. */
static inline bool charge_node(struct cel_env *env)
{
	return ++env->cost <= env->cost_cap &&
	       env->scratch->total <= env->mem_cap;
}

/*
 * The kinds of node that evaluate their children, each in a function of
 * its own: cel_eval_ast() below stays a small dispatcher that returns a
 * leaf (a literal, a variable, a lazy variable already evaluated)
 * without setting up the stack frame of the largest kind, and jumps to
 * the others.
 */
static NOINLINE_ struct cel_value eval_select(struct cel_eval *ev,
					     const struct cel_ast *a, int depth)
{
	struct cel_value v = cel_eval_ast(ev, a->kids[0], depth + 1);

	return select_field(ev, &v, a->name, a->name_len);
}

static NOINLINE_ struct cel_value eval_subscript(struct cel_eval *ev,
						const struct cel_ast *a,
						int depth)
{
	struct cel_value v = cel_eval_ast(ev, a->kids[0], depth + 1), i;

	if (v.type == CEL_ERROR)
		return v;
	i = cel_eval_ast(ev, a->kids[1], depth + 1);
	return eval_index(ev, &v, &i);
}

static NOINLINE_ struct cel_value eval_cond(struct cel_eval *ev,
					   const struct cel_ast *a, int depth)
{
	struct cel_value v = cel_eval_ast(ev, a->kids[0], depth + 1);

	if (v.type == CEL_ERROR)
		return v;
	if (v.type != CEL_BOOL)
		return cel_eval_errorf(ev, "the condition of '?:' gave %s, not bool",
				       cel_type_name(v.type));
	return cel_eval_ast(ev, a->kids[v.u.b ? 1 : 2], depth + 1);
}

/* A node whose step charge_node() counted: its kind's evaluation. */
static inline struct cel_value eval_node(struct cel_eval *ev,
					 const struct cel_ast *a, int depth)
{
	const struct cel_lazy *lz;

	if (depth > EVAL_MAX_DEPTH)
		return cel_eval_failf(ev, "expression too deep");
	switch ((enum cel_ast_kind)a->kind) {
	case CEL_AST_LITERAL:
		return a->lit;
	case CEL_AST_IDENT:
		return ev->vars[a->slot];
	case CEL_AST_SELECT:
		return eval_select(ev, a, depth);
	case CEL_AST_INDEX:
		return eval_subscript(ev, a, depth);
	case CEL_AST_CALL:
		return eval_call(ev, a, depth);
	case CEL_AST_LIST:
	case CEL_AST_MAP:
		return eval_collection(ev, a, depth);
	case CEL_AST_UNARY:
		return eval_unary(ev, a, depth);
	case CEL_AST_BINARY:
		return eval_binary(ev, a, depth);
	case CEL_AST_COND:
		return eval_cond(ev, a, depth);
	case CEL_AST_MACRO:
		return eval_macro(ev, a, depth);
	case CEL_AST_VARIABLE:
		lz = ev->env->lazy;
		if (lz && a->slot < lz->n && lz->state[a->slot] == CEL_LAZY_SET)
			return lz->values[a->slot];
		return eval_lazy(ev, a, depth);
	}
	return cel_eval_errorf(ev, "internal error: unknown node");
}

/* eval_node() of a node whose step is charged: the innermost + of a
 * chain (eval_add_chain()). */
static struct cel_value eval_node_charged(struct cel_eval *ev,
					  const struct cel_ast *a, int depth)
{
	return eval_node(ev, a, depth);
}

/* A node over one of the caps: the exact test, on the step
 * charge_node() counted already, then the node if it passes. */
static NOINLINE_ struct cel_value eval_recharged(struct cel_eval *ev,
						 const struct cel_ast *a,
						 int depth)
{
	struct cel_value e;

	ev->env->cost--;
	if (!cel_eval_charge(ev, 1, &e))
		return e;
	return eval_node(ev, a, depth);
}

struct cel_value cel_eval_ast(struct cel_eval *ev, const struct cel_ast *a,
			      int depth)
{
	if (__builtin_expect(!charge_node(ev->env), 0))
		return eval_recharged(ev, a, depth);
	return eval_node(ev, a, depth);
}

struct cel_value cel_eval(struct cel_env *env, const struct cel_program *prog,
			  struct cel_value *vars)
{
	struct cel_eval ev = { .env = env, .vars = vars };

	return cel_eval_ast(&ev, prog->root, 0);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CEL parser: recursive descent over the grammar of the CEL language
 * definition, with binary operators climbed by the precedence of the
 * operator table (cel_ops.h). Recursion follows the expression's nesting,
 * which is bounded by CEL_MAX_DEPTH: rule files are input too.
 */
#include "cel/ast.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct parser {
	struct cel_lexer lx;
	struct cel_token tok;		/* the current token */
	struct kvet_arena *arena;
	struct cel_error *err;
	bool failed;
};

__attribute__((format(printf, 3, 4)))
static struct cel_ast *fail(struct parser *ps, size_t off, const char *fmt,
			    ...)
{
	va_list ap;

	if (ps->failed)
		return NULL;
	ps->failed = true;
	ps->err->off = off;
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
	return NULL;
}

static bool advance(struct parser *ps)
{
	if (ps->failed)
		return false;
	if (cel_lex_next(&ps->lx, &ps->tok, ps->err)) {
		ps->failed = true;
		return false;
	}
	return true;
}

static bool expect(struct parser *ps, enum cel_tok kind, const char *what)
{
	if (ps->failed)
		return false;
	if (ps->tok.kind != kind) {
		fail(ps, ps->tok.off, "expected %s, found %s", what,
		     cel_tok_name(ps->tok.kind));
		return false;
	}
	return advance(ps);
}

static struct cel_ast *node(struct parser *ps, enum cel_ast_kind kind,
			    size_t off, size_t n)
{
	struct cel_ast *a = kvet_arena_alloc(ps->arena, sizeof(*a));

	if (!a)
		return fail(ps, off, "out of memory");
	a->kind = (uint8_t)kind;
	a->off = off;
	a->n = (uint16_t)n;
	a->height = 1;
	if (n) {
		a->kids = kvet_arena_array(ps->arena, n, sizeof(*a->kids));
		if (!a->kids)
			return fail(ps, off, "out of memory");
	}
	return a;
}

/*
 * Record the height of @a, whose children are set, and refuse it above
 * CEL_MAX_DEPTH. Chains count: a.b.c or 1 + 2 + 3 is a tree as deep as
 * it is long, and every walk over the tree (checker, cost estimate,
 * evaluator) recurses that deep, so the bound is on height, not on
 * parentheses.
 */
static struct cel_ast *sealed(struct parser *ps, struct cel_ast *a)
{
	unsigned int h = 0;
	size_t i;

	if (!a)
		return NULL;
	for (i = 0; i < a->n; i++)
		if (a->kids[i] && a->kids[i]->height > h)
			h = a->kids[i]->height;
	if (h >= CEL_MAX_DEPTH)
		return fail(ps, a->off,
			    "expression nested more than %d deep (each operator, selection, index or call of a chain is one level)",
			    CEL_MAX_DEPTH);
	a->height = (uint8_t)(h + 1);
	return a;
}

/* A growable list of children while a call, list or map is parsed. */
struct kids {
	struct cel_ast **v;
	size_t n, cap;
};

static bool push(struct parser *ps, struct kids *k, struct cel_ast *a)
{
	if (!a)
		return false;
	if (k->n == UINT16_MAX) {
		fail(ps, a->off, "too many elements");
		return false;
	}
	if (k->n == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 4;
		struct cel_ast **v = kvet_arena_array(ps->arena, cap, sizeof(*v));

		if (!v) {
			fail(ps, a->off, "out of memory");
			return false;
		}
		if (k->n)
			memcpy(v, k->v, k->n * sizeof(*v));
		k->v = v;
		k->cap = cap;
	}
	k->v[k->n++] = a;
	return true;
}

static struct cel_ast *parse_expr(struct parser *ps, int depth);

/* Arguments up to ')' (the '(' is consumed). */
static bool parse_args(struct parser *ps, struct kids *k, int depth)
{
	if (ps->tok.kind == CEL_T_RPAREN)
		return advance(ps);
	for (;;) {
		if (!push(ps, k, parse_expr(ps, depth + 1)))
			return false;
		if (ps->tok.kind == CEL_T_COMMA) {
			if (!advance(ps))
				return false;
			continue;
		}
		return expect(ps, CEL_T_RPAREN, "',' or ')'");
	}
}

/* name(args) or recv.name(args): a call, or a macro. */
static struct cel_ast *make_call(struct parser *ps, struct cel_ast *recv,
				 const struct cel_token *name, struct kids *args)
{
	struct cel_ast *a;
	size_t i, off = name->off, n = args->n + (recv ? 1 : 0);
	int m = cel_macro_find(name->v.str.s, name->v.str.len, recv != NULL);
	unsigned int lo, hi;

	if (m >= 0) {
		cel_macro_arity((enum cel_macro)m, &lo, &hi);
		if (args->n < lo || args->n > hi)
			return fail(ps, off,
				    "%s() takes %u%s argument%s, not %zu",
				    cel_macro_name((enum cel_macro)m), lo,
				    hi > lo ? " or more" : "",
				    lo == 1 ? "" : "s", args->n);
		if (m == CEL_MACRO_HAS) {
			if (args->v[0]->kind != CEL_AST_SELECT)
				return fail(ps, args->v[0]->off,
					    "has() needs a field selection, as in has(object.spec.replicas)");
			a = node(ps, CEL_AST_MACRO, off, 1);
			if (a) {
				a->op = CEL_MACRO_HAS;
				a->kids[0] = args->v[0];
			}
			return sealed(ps, a);
		}
		if (args->v[0]->kind != CEL_AST_IDENT)
			return fail(ps, args->v[0]->off,
				    "the first argument of %s() must be a variable name, as in %s(x, x > 0)",
				    cel_macro_name((enum cel_macro)m),
				    cel_macro_name((enum cel_macro)m));
		a = node(ps, CEL_AST_MACRO, off, args->n);
		if (!a)
			return NULL;
		a->op = (uint8_t)m;
		a->name = args->v[0]->name;
		a->name_len = args->v[0]->name_len;
		a->kids[0] = recv;
		for (i = 1; i < args->n; i++)
			a->kids[i] = args->v[i];
		return sealed(ps, a);
	}
	a = node(ps, CEL_AST_CALL, off, n);
	if (!a)
		return NULL;
	a->name = name->v.str.s;
	a->name_len = name->v.str.len;
	a->receiver = recv != NULL;
	if (recv)
		a->kids[0] = recv;
	for (i = 0; i < args->n; i++)
		a->kids[i + (recv ? 1 : 0)] = args->v[i];
	return sealed(ps, a);
}

static struct cel_ast *literal(struct parser *ps, struct cel_value v)
{
	struct cel_ast *a = node(ps, CEL_AST_LITERAL, ps->tok.off, 0);

	if (!a)
		return NULL;
	a->lit = v;
	return advance(ps) ? a : NULL;
}

static struct cel_ast *parse_list(struct parser *ps, size_t off, int depth)
{
	struct kids k = { 0 };
	struct cel_ast *a;

	while (ps->tok.kind != CEL_T_RBRACKET) {
		if (!push(ps, &k, parse_expr(ps, depth + 1)))
			return NULL;
		if (ps->tok.kind != CEL_T_COMMA)
			break;
		if (!advance(ps))
			return NULL;
	}
	if (!expect(ps, CEL_T_RBRACKET, "',' or ']'"))
		return NULL;
	a = node(ps, CEL_AST_LIST, off, 0);
	if (a) {
		a->kids = k.v;
		a->n = (uint16_t)k.n;
	}
	return sealed(ps, a);
}

static struct cel_ast *parse_map(struct parser *ps, size_t off, int depth)
{
	struct kids k = { 0 };
	struct cel_ast *a;

	while (ps->tok.kind != CEL_T_RBRACE) {
		if (!push(ps, &k, parse_expr(ps, depth + 1)))
			return NULL;
		if (!expect(ps, CEL_T_COLON, "':'"))
			return NULL;
		if (!push(ps, &k, parse_expr(ps, depth + 1)))
			return NULL;
		if (ps->tok.kind != CEL_T_COMMA)
			break;
		if (!advance(ps))
			return NULL;
	}
	if (!expect(ps, CEL_T_RBRACE, "',' or '}'"))
		return NULL;
	a = node(ps, CEL_AST_MAP, off, 0);
	if (a) {
		a->kids = k.v;
		a->n = (uint16_t)k.n;
	}
	return sealed(ps, a);
}

static struct cel_ast *parse_primary(struct parser *ps, int depth)
{
	struct cel_token t = ps->tok;
	struct kids args = { 0 };
	struct cel_ast *a;

	switch (t.kind) {
	case CEL_T_INT:
		if ((uint64_t)t.v.i > INT64_MAX)
			return fail(ps, t.off, "integer out of range");
		return literal(ps, cel_int(t.v.i));
	case CEL_T_UINT:
		/* kvet has no uint type: unsigned literals are ints */
		if ((uint64_t)t.v.i > INT64_MAX)
			return fail(ps, t.off, "integer out of range");
		return literal(ps, cel_int(t.v.i));
	case CEL_T_DOUBLE:
		return literal(ps, cel_double(t.v.d));
	case CEL_T_STRING:
		return literal(ps, cel_string(t.v.str.s, t.v.str.len));
	case CEL_T_TRUE:
		return literal(ps, cel_bool(true));
	case CEL_T_FALSE:
		return literal(ps, cel_bool(false));
	case CEL_T_NULL:
		return literal(ps, cel_null());
	case CEL_T_DOT:
		/* ".name": a name from the root scope; kvet has one scope */
		if (!advance(ps))
			return NULL;
		if (ps->tok.kind != CEL_T_IDENT)
			return fail(ps, ps->tok.off, "expected identifier, found %s",
				    cel_tok_name(ps->tok.kind));
		return parse_primary(ps, depth);
	case CEL_T_IDENT:
		if (!advance(ps))
			return NULL;
		if (ps->tok.kind == CEL_T_LPAREN) {
			if (!advance(ps) || !parse_args(ps, &args, depth))
				return NULL;
			return make_call(ps, NULL, &t, &args);
		}
		a = node(ps, CEL_AST_IDENT, t.off, 0);
		if (a) {
			a->name = t.v.str.s;
			a->name_len = t.v.str.len;
		}
		return a;
	case CEL_T_LPAREN:
		if (!advance(ps))
			return NULL;
		a = parse_expr(ps, depth + 1);
		if (!a || !expect(ps, CEL_T_RPAREN, "')'"))
			return NULL;
		return a;
	case CEL_T_LBRACKET:
		if (!advance(ps))
			return NULL;
		return parse_list(ps, t.off, depth);
	case CEL_T_LBRACE:
		if (!advance(ps))
			return NULL;
		return parse_map(ps, t.off, depth);
	default:
		return fail(ps, t.off, "expected an expression, found %s",
			    cel_tok_name(t.kind));
	}
}

static struct cel_ast *parse_member(struct parser *ps, int depth)
{
	struct cel_ast *a = parse_primary(ps, depth), *b;
	struct kids args;
	struct cel_token t;

	while (a && !ps->failed) {
		t = ps->tok;
		if (t.kind == CEL_T_DOT) {
			if (!advance(ps))
				return NULL;
			t = ps->tok;
			if (t.kind != CEL_T_IDENT)
				return fail(ps, t.off,
					    "expected a field name after '.', found %s",
					    cel_tok_name(t.kind));
			if (!advance(ps))
				return NULL;
			if (ps->tok.kind == CEL_T_LPAREN) {
				memset(&args, 0, sizeof(args));
				if (!advance(ps) || !parse_args(ps, &args, depth))
					return NULL;
				a = make_call(ps, a, &t, &args);
				continue;
			}
			b = node(ps, CEL_AST_SELECT, t.off, 1);
			if (!b)
				return NULL;
			b->kids[0] = a;
			b->name = t.v.str.s;
			b->name_len = t.v.str.len;
			a = sealed(ps, b);
		} else if (t.kind == CEL_T_LBRACKET) {
			if (!advance(ps))
				return NULL;
			b = node(ps, CEL_AST_INDEX, t.off, 2);
			if (!b)
				return NULL;
			b->kids[0] = a;
			b->kids[1] = parse_expr(ps, depth + 1);
			if (!b->kids[1] || !expect(ps, CEL_T_RBRACKET, "']'"))
				return NULL;
			a = sealed(ps, b);
		} else {
			break;
		}
	}
	return ps->failed ? NULL : a;
}

static struct cel_ast *parse_unary(struct parser *ps, int depth)
{
	struct cel_token t = ps->tok;
	struct cel_ast *a, *operand;
	enum cel_unary_op op;

	if (t.kind != CEL_T_NOT && t.kind != CEL_T_MINUS)
		return parse_member(ps, depth);
	if (depth > CEL_MAX_DEPTH)
		return fail(ps, t.off, "expression nested more than %d deep",
			    CEL_MAX_DEPTH);
	op = t.kind == CEL_T_NOT ? CEL_UOP_NOT : CEL_UOP_NEG;
	if (!advance(ps))
		return NULL;
	/* -9223372036854775808 is a literal, not the negation of one */
	if (op == CEL_UOP_NEG && ps->tok.kind == CEL_T_INT) {
		struct cel_token lit = ps->tok;

		if (!advance(ps))
			return NULL;
		if (ps->tok.kind != CEL_T_DOT && ps->tok.kind != CEL_T_LBRACKET) {
			a = node(ps, CEL_AST_LITERAL, t.off, 0);
			if (a)
				a->lit = cel_int((int64_t)(0 - (uint64_t)lit.v.i));
			return a;
		}
		return fail(ps, lit.off, "unexpected %s after a number",
			    cel_tok_name(ps->tok.kind));
	}
	operand = parse_unary(ps, depth + 1);
	if (!operand)
		return NULL;
	a = node(ps, CEL_AST_UNARY, t.off, 1);
	if (a) {
		a->op = (uint8_t)op;
		a->kids[0] = operand;
	}
	return sealed(ps, a);
}

static int binary_op(enum cel_tok kind)
{
	switch (kind) {
	case CEL_T_OR: return CEL_OP_OR;
	case CEL_T_AND: return CEL_OP_AND;
	case CEL_T_EQ: return CEL_OP_EQ;
	case CEL_T_NE: return CEL_OP_NE;
	case CEL_T_LT: return CEL_OP_LT;
	case CEL_T_LE: return CEL_OP_LE;
	case CEL_T_GT: return CEL_OP_GT;
	case CEL_T_GE: return CEL_OP_GE;
	case CEL_T_IN: return CEL_OP_IN;
	case CEL_T_PLUS: return CEL_OP_ADD;
	case CEL_T_MINUS: return CEL_OP_SUB;
	case CEL_T_STAR: return CEL_OP_MUL;
	case CEL_T_SLASH: return CEL_OP_DIV;
	case CEL_T_PERCENT: return CEL_OP_MOD;
	default: return -1;
	}
}

static struct cel_ast *parse_binary(struct parser *ps, int min, int depth);

/* The operands of a chain of one logical operator, and the offset of
 * the operator after each (the last one's is unused). */
struct chain {
	struct cel_ast **v;
	size_t *off;
	size_t n, cap;
};

static bool chain_push(struct parser *ps, struct chain *c, struct cel_ast *a,
		       size_t off)
{
	if (!a)
		return false;
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 8;
		struct cel_ast **v = kvet_arena_array(ps->arena, cap, sizeof(*v));
		size_t *o = kvet_arena_array(ps->arena, cap, sizeof(*o));

		if (!v || !o) {
			fail(ps, a->off, "out of memory");
			return false;
		}
		if (c->n) {
			memcpy(v, c->v, c->n * sizeof(*v));
			memcpy(o, c->off, c->n * sizeof(*o));
		}
		c->v = v;
		c->off = o;
		c->cap = cap;
	}
	c->v[c->n] = a;
	c->off[c->n++] = off;
	return true;
}

/*
 * a || b || c ... (or &&) with @first parsed: the operands, then a tree
 * built by pairing neighbours in rounds, so that it is log2(n) deep, not
 * n: && and || are associative, and evaluation still goes from left to
 * right. A generated rule may well test hundreds of values this way.
 */
static struct cel_ast *parse_logic_chain(struct parser *ps, int op,
					 struct cel_ast *first, int depth)
{
	enum cel_tok tok = op == CEL_OP_OR ? CEL_T_OR : CEL_T_AND;
	int prec = cel_binary_op_precedence((enum cel_binary_op)op);
	struct chain c = { 0 };
	struct cel_ast *a;
	size_t i, j, off;

	if (!chain_push(ps, &c, first, 0))
		return NULL;
	while (ps->tok.kind == tok) {
		off = ps->tok.off;
		c.off[c.n - 1] = off;
		if (!advance(ps) ||
		    !chain_push(ps, &c, parse_binary(ps, prec + 1, depth), 0))
			return NULL;
	}
	while (c.n > 1) {
		for (i = 0, j = 0; i < c.n; i += 2, j++) {
			if (i + 1 == c.n) {
				c.v[j] = c.v[i];
				c.off[j] = c.off[i];
				continue;
			}
			a = node(ps, CEL_AST_BINARY, c.off[i], 2);
			if (!a)
				return NULL;
			a->op = (uint8_t)op;
			a->kids[0] = c.v[i];
			a->kids[1] = c.v[i + 1];
			if (!sealed(ps, a))
				return NULL;
			c.v[j] = a;
			c.off[j] = c.off[i + 1];
		}
		c.n = j;
	}
	return c.v[0];
}

/* Left-associative operators of precedence @min and above. The right
 * operand climbs one level up, so recursion is bounded by the table. */
static struct cel_ast *parse_binary(struct parser *ps, int min, int depth)
{
	struct cel_ast *left = parse_unary(ps, depth), *right, *a;
	int op, prec;
	size_t off;

	while (left && !ps->failed) {
		op = binary_op(ps->tok.kind);
		if (op < 0)
			break;
		prec = cel_binary_op_precedence((enum cel_binary_op)op);
		if (prec < min)
			break;
		if (op == CEL_OP_AND || op == CEL_OP_OR) {
			left = parse_logic_chain(ps, op, left, depth);
			continue;
		}
		off = ps->tok.off;
		if (!advance(ps))
			return NULL;
		right = parse_binary(ps, prec + 1, depth);
		if (!right)
			return NULL;
		a = node(ps, CEL_AST_BINARY, off, 2);
		if (!a)
			return NULL;
		a->op = (uint8_t)op;
		a->kids[0] = left;
		a->kids[1] = right;
		left = sealed(ps, a);
	}
	return ps->failed ? NULL : left;
}

static struct cel_ast *parse_expr(struct parser *ps, int depth)
{
	struct cel_ast *cond, *a;
	size_t off;

	if (depth > CEL_MAX_DEPTH)
		return fail(ps, ps->tok.off,
			    "expression nested more than %d deep",
			    CEL_MAX_DEPTH);
	cond = parse_binary(ps, 1, depth);
	if (!cond || ps->tok.kind != CEL_T_QUESTION)
		return cond;
	off = ps->tok.off;
	if (!advance(ps))
		return NULL;
	a = node(ps, CEL_AST_COND, off, 3);
	if (!a)
		return NULL;
	a->kids[0] = cond;
	a->kids[1] = parse_binary(ps, 1, depth + 1);
	if (!a->kids[1] || !expect(ps, CEL_T_COLON, "':'"))
		return NULL;
	a->kids[2] = parse_expr(ps, depth + 1);
	return a->kids[2] ? sealed(ps, a) : NULL;
}

int cel_parse(struct kvet_arena *arena, const char *text, size_t len,
	      struct cel_ast **out, struct cel_error *err)
{
	struct parser ps = { .arena = arena, .err = err };
	struct cel_ast *root;

	cel_lexer_init(&ps.lx, arena, text, len);
	if (!advance(&ps))
		return -1;
	if (ps.tok.kind == CEL_T_EOF) {
		fail(&ps, 0, "empty expression");
		return -1;
	}
	root = parse_expr(&ps, 0);
	if (!root)
		return -1;
	if (ps.tok.kind != CEL_T_EOF) {
		fail(&ps, ps.tok.off, "unexpected %s after the expression",
		     cel_tok_name(ps.tok.kind));
		return -1;
	}
	*out = root;
	return 0;
}

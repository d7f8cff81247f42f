/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The arithmetic and the ordering of values, for the evaluator (eval.c):
 * + - * / % of ints and doubles, + of strings and lists, and <, <=, >,
 * >= of numbers, strings and bools. What they copy is charged to the
 * budget by its size.
 */
#include "cel/ast.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The steps of scanning @n items or bytes. */
static uint64_t scan(size_t n)
{
	return n / CEL_COST_SCAN;
}

/* -1, 0, 1 for <, ==, >; -2 when the values do not compare. */
int cel_compare(const struct cel_value *a, const struct cel_value *b)
{
	double x, y;
	size_t n;
	int c;

	if (a->type == CEL_INT && b->type == CEL_INT)
		return (a->u.i > b->u.i) - (a->u.i < b->u.i);
	if ((a->type == CEL_INT || a->type == CEL_DOUBLE) &&
	    (b->type == CEL_INT || b->type == CEL_DOUBLE)) {
		x = a->type == CEL_INT ? (double)a->u.i : a->u.d;
		y = b->type == CEL_INT ? (double)b->u.i : b->u.d;
		if (isnan(x) || isnan(y))
			return -2;
		return (x > y) - (x < y);
	}
	if (a->type == CEL_STRING && b->type == CEL_STRING) {
		n = a->len < b->len ? a->len : b->len;
		c = n ? memcmp(a->u.s, b->u.s, n) : 0;
		if (c)
			return c < 0 ? -1 : 1;
		return (a->len > b->len) - (a->len < b->len);
	}
	if (a->type == CEL_BOOL && b->type == CEL_BOOL)
		return (a->u.b > b->u.b) - (a->u.b < b->u.b);
	return -2;
}

static struct cel_value concat(struct cel_eval *ev, const struct cel_value *a,
			       const struct cel_value *b)
{
	size_t na = cel_len(a), nb = cel_len(b), i;
	struct cel_value out = { .type = CEL_LIST }, *items;
	char *s;

	/* what is copied: repeated doubling must run out of budget */
	CEL_CHARGE(ev, a->type == CEL_STRING ? scan((size_t)a->len + b->len)
					 : scan(na + nb));
	if (a->type == CEL_STRING) {
		s = kvet_arena_alloc(ev->env->scratch, (size_t)a->len + b->len + 1);
		if (!s)
			return cel_eval_errorf(ev, "out of memory");
		memcpy(s, a->u.s, a->len);
		memcpy(s + a->len, b->u.s, b->len);
		return cel_string(s, (size_t)a->len + b->len);
	}
	items = kvet_arena_array(ev->env->scratch, na + nb + 1, sizeof(*items));
	if (!items)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < na; i++)
		items[i] = cel_list_at(a, i);
	for (i = 0; i < nb; i++)
		items[na + i] = cel_list_at(b, i);
	out.u.items = items;
	out.len = (uint32_t)(na + nb);
	return out;
}

static struct cel_value int_arith(struct cel_eval *ev, enum cel_binary_op op,
				  int64_t x, int64_t y)
{
	int64_t r = 0;
	bool over = false;

	switch (op) {
	case CEL_OP_ADD: over = __builtin_add_overflow(x, y, &r); break;
	case CEL_OP_SUB: over = __builtin_sub_overflow(x, y, &r); break;
	case CEL_OP_MUL: over = __builtin_mul_overflow(x, y, &r); break;
	case CEL_OP_DIV:
	case CEL_OP_MOD:
		if (y == 0)
			return cel_eval_errorf(ev, op == CEL_OP_DIV ? "division by zero"
								    : "modulus by zero");
		if (x == INT64_MIN && y == -1)
			over = true;
		else
			r = op == CEL_OP_DIV ? x / y : x % y;
		break;
	default:
		break;
	}
	if (over)
		return cel_eval_errorf(ev, "integer overflow");
	return cel_int(r);
}

struct cel_value cel_arith(struct cel_eval *ev, enum cel_binary_op op,
			   const struct cel_value *a, const struct cel_value *b)
{
	if (a->type == CEL_INT && b->type == CEL_INT)
		return int_arith(ev, op, a->u.i, b->u.i);
	if (a->type == CEL_DOUBLE && b->type == CEL_DOUBLE && op != CEL_OP_MOD) {
		switch (op) {
		case CEL_OP_ADD: return cel_double(a->u.d + b->u.d);
		case CEL_OP_SUB: return cel_double(a->u.d - b->u.d);
		case CEL_OP_MUL: return cel_double(a->u.d * b->u.d);
		default: return cel_double(a->u.d / b->u.d);
		}
	}
	if (op == CEL_OP_ADD && a->type == b->type &&
	    (a->type == CEL_STRING || a->type == CEL_LIST))
		return concat(ev, a, b);
	return cel_eval_errorf(ev, "no operator '%s' for (%s, %s)",
			       cel_binary_op_name(op), cel_type_name(a->type),
			       cel_type_name(b->type));
}

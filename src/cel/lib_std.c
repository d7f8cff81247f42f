/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The standard library of kvet's CEL subset (cel-go's common/stdlib):
 * size, the string tests, matches and the conversions, each one row of
 * CEL_STD. The strings extension is lib_strings.c; a host adds its own
 * libraries (cel.h).
 */
#include "cel/ast.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

#define G CEL_CALL_GLOBAL
#define M CEL_CALL_METHOD
#define DYN CEL_ST_DYN
#define INT CEL_ST_INT
#define DBL CEL_ST_DOUBLE
#define STR CEL_ST_STRING
#define BOOL CEL_ST_BOOL

/*
 * X(function, name, style, min args, max args, result, arg0, arg1, doc)
 * The receiver of a method call is argument 0.
 */
#define CEL_STD(X)							\
	X(fn_size, "size", G | M, 1, 1, INT, DYN, DYN,			\
	  "the length of a string (in code points), list or map")	\
	X(fn_starts, "startsWith", M, 2, 2, BOOL, STR, STR,		\
	  "s.startsWith(prefix)")					\
	X(fn_ends, "endsWith", M, 2, 2, BOOL, STR, STR,		\
	  "s.endsWith(suffix)")						\
	X(fn_contains, "contains", M, 2, 2, BOOL, STR, STR,		\
	  "s.contains(part)")						\
	X(fn_matches, "matches", G | M, 2, 2, BOOL, STR, STR,		\
	  "s.matches(re): PCRE2 search; the pattern is a literal, compiled at load") \
	X(fn_int, "int", G, 1, 1, INT, DYN, DYN,			\
	  "int(x): from an int, a double (truncated) or a decimal string") \
	X(fn_double, "double", G, 1, 1, DBL, DYN, DYN,			\
	  "double(x): from an int, a double or a numeric string")	\
	X(fn_string, "string", G, 1, 1, STR, DYN, DYN,			\
	  "string(x): the text of a scalar")				\
	X(fn_bool, "bool", G, 1, 1, BOOL, DYN, DYN,			\
	  "bool(x): from a bool or the strings \"true\" and \"false\"")	\
	X(fn_dyn, "dyn", G, 1, 1, DYN, DYN, DYN,			\
	  "dyn(x): x, with its static type forgotten")

#define DECLARE(fn, name, style, lo, hi, ret, a0, a1, doc)		\
	static struct cel_value fn(struct cel_eval *ev,			\
				   const struct cel_ast *call,		\
				   const struct cel_value *args, size_t n);
CEL_STD(DECLARE)
#undef DECLARE

#define ROW(fn, name, style, lo, hi, ret, a0, a1, doc)			\
	{ name, style, lo, hi, ret, { a0, a1, DYN, DYN }, fn, doc, NULL },
static const struct cel_func std_funcs[] = { CEL_STD(ROW) };
#undef ROW

const struct cel_lib cel_lib_std = CEL_LIB("cel.lib.std", std_funcs);

bool cel_std_is_matches(const struct cel_func *fn)
{
	return fn->fn == fn_matches;
}

struct cel_value cel_no_overload(struct cel_eval *ev, const char *fn,
				 const struct cel_value *v)
{
	return cel_eval_errorf(ev, "no such overload: %s(%s)", fn,
			       cel_type_name(v->type));
}

static struct cel_value fn_size(struct cel_eval *ev, const struct cel_ast *call,
				const struct cel_value *args, size_t n)
{
	size_t i, count = 0;
	uint32_t cp;

	if (args[0].type == CEL_LIST || args[0].type == CEL_MAP)
		return cel_int((int64_t)cel_len(&args[0]));
	if (args[0].type != CEL_STRING)
		return cel_no_overload(ev, "size", &args[0]);
	CEL_CHARGE(ev, args[0].len / CEL_COST_SCAN);
	for (i = 0; i < args[0].len; count++)
		i += kvet_utf8_next(args[0].u.s + i, args[0].len - i, &cp);
	return cel_int((int64_t)count);
}

static bool strings2(const struct cel_value *args)
{
	return args[0].type == CEL_STRING && args[1].type == CEL_STRING;
}

static struct cel_value fn_starts(struct cel_eval *ev, const struct cel_ast *call,
				  const struct cel_value *args, size_t n)
{
	if (!strings2(args))
		return cel_no_overload(ev, "startsWith", &args[0]);
	CEL_CHARGE(ev, args[1].len / CEL_COST_SCAN);
	return cel_bool(args[1].len <= args[0].len &&
			!memcmp(args[0].u.s, args[1].u.s, args[1].len));
}

static struct cel_value fn_ends(struct cel_eval *ev, const struct cel_ast *call,
				const struct cel_value *args, size_t n)
{
	if (!strings2(args))
		return cel_no_overload(ev, "endsWith", &args[0]);
	CEL_CHARGE(ev, args[1].len / CEL_COST_SCAN);
	return cel_bool(args[1].len <= args[0].len &&
			!memcmp(args[0].u.s + args[0].len - args[1].len,
				args[1].u.s, args[1].len));
}

static struct cel_value fn_contains(struct cel_eval *ev,
				    const struct cel_ast *call,
				    const struct cel_value *args, size_t n)
{
	size_t i;

	if (!strings2(args))
		return cel_no_overload(ev, "contains", &args[0]);
	/* the search compares the part at every offset */
	CEL_CHARGE(ev,
		   (uint64_t)args[0].len * (args[1].len + 1) / CEL_COST_SCAN);
	if (!args[1].len)
		return cel_bool(true);
	for (i = 0; i + args[1].len <= args[0].len; i++)
		if (!memcmp(args[0].u.s + i, args[1].u.s, args[1].len))
			return cel_bool(true);
	return cel_bool(false);
}

static struct cel_value fn_matches(struct cel_eval *ev,
				   const struct cel_ast *call,
				   const struct cel_value *args, size_t n)
{
	int rc;

	if (args[0].type != CEL_STRING)
		return cel_no_overload(ev, "matches", &args[0]);
	CEL_CHARGE(ev, args[0].len / CEL_COST_SCAN);
	rc = cel_regex_match(ev->env, call->regex, args[0].u.s, args[0].len);
	if (rc < 0) {
		/* PCRE2 does not say how much it did: a match that gave up
		 * did as much as its limits allow */
		CEL_CHARGE(ev, CEL_COST_REGEX_GAVE_UP);
		return cel_eval_failf(ev, "matches() gave up (PCRE2 error %d: a match limit was hit)",
				      rc);
	}
	return cel_bool(rc == 1);
}

/* A NUL-terminated copy of a short string, for strtoll and strtod. */
static bool copy_number(const struct cel_value *v, char *buf, size_t size)
{
	if (v->len == 0 || v->len >= size)
		return false;
	memcpy(buf, v->u.s, v->len);
	buf[v->len] = '\0';
	return true;
}

static struct cel_value fn_int(struct cel_eval *ev, const struct cel_ast *call,
			       const struct cel_value *args, size_t n)
{
	const struct cel_value *v = &args[0];
	char buf[64], *end;
	long long i;

	switch (v->type) {
	case CEL_INT:
		return cel_int(v->u.i);
	case CEL_DOUBLE:
		if (isnan(v->u.d) || v->u.d >= 9223372036854775807.0 ||
		    v->u.d < -9223372036854775807.0)
			return cel_eval_errorf(ev, "int() out of range");
		return cel_int((int64_t)v->u.d);
	case CEL_STRING:
		errno = 0;
		if (!copy_number(v, buf, sizeof(buf)))
			break;
		i = strtoll(buf, &end, 10);
		if (errno || *end)
			break;
		return cel_int(i);
	default:
		return cel_no_overload(ev, "int", v);
	}
	return cel_eval_errorf(ev, "int() cannot convert \"%.*s\"",
			       (int)(v->len > 40 ? 40 : v->len), v->u.s);
}

static struct cel_value fn_double(struct cel_eval *ev,
				  const struct cel_ast *call,
				  const struct cel_value *args, size_t n)
{
	const struct cel_value *v = &args[0];
	char buf[64], *end;
	double d;

	switch (v->type) {
	case CEL_INT:
		return cel_double((double)v->u.i);
	case CEL_DOUBLE:
		return *v;
	case CEL_STRING:
		if (!copy_number(v, buf, sizeof(buf)))
			break;
		d = strtod(buf, &end);
		if (*end)
			break;
		return cel_double(d);
	default:
		return cel_no_overload(ev, "double", v);
	}
	return cel_eval_errorf(ev, "double() cannot convert \"%.*s\"",
			       (int)(v->len > 40 ? 40 : v->len), v->u.s);
}

static struct cel_value fn_string(struct cel_eval *ev,
				  const struct cel_ast *call,
				  const struct cel_value *args, size_t n)
{
	char *s;

	if (args[0].type == CEL_STRING)
		return args[0];
	if (args[0].type == CEL_LIST || args[0].type == CEL_MAP)
		return cel_no_overload(ev, "string", &args[0]);
	s = cel_to_text(ev->env->scratch, &args[0]);
	if (!s)
		return cel_eval_errorf(ev, "out of memory");
	return cel_string(s, strlen(s));
}

static struct cel_value fn_bool(struct cel_eval *ev, const struct cel_ast *call,
				const struct cel_value *args, size_t n)
{
	const struct cel_value *v = &args[0];

	if (v->type == CEL_BOOL)
		return *v;
	if (v->type == CEL_STRING && v->len == 4 && !memcmp(v->u.s, "true", 4))
		return cel_bool(true);
	if (v->type == CEL_STRING && v->len == 5 && !memcmp(v->u.s, "false", 5))
		return cel_bool(false);
	return cel_no_overload(ev, "bool", v);
}

static struct cel_value fn_dyn(struct cel_eval *ev, const struct cel_ast *call,
			       const struct cel_value *args, size_t n)
{
	return args[0];
}

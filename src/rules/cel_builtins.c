/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The standard functions of kvet's CEL subset: size, the string
 * functions, matches and the conversions, each one row of CEL_BUILTINS.
 * The Kubernetes functions are another table (cel_k8s.c); the checker
 * looks names up in both.
 */
#include "rules/cel.h"

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
#define LIST CEL_ST_LIST

/*
 * X(function, name, style, min args, max args, result, arg0, arg1, doc)
 * The receiver of a method call is argument 0.
 */
#define CEL_BUILTINS(X)							\
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
	X(fn_lower, "lowerAscii", M, 1, 1, STR, STR, DYN,		\
	  "s.lowerAscii(): ASCII letters in lower case")		\
	X(fn_join, "join", M, 1, 2, STR, LIST, STR,			\
	  "l.join(), l.join(sep): the strings of a list, separated by sep") \
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
CEL_BUILTINS(DECLARE)
#undef DECLARE

#define ROW(fn, name, style, lo, hi, ret, a0, a1, doc)			\
	{ name, style, lo, hi, ret, { a0, a1, DYN, DYN }, fn, doc },
static const struct cel_func builtins[] = { CEL_BUILTINS(ROW) };
#undef ROW

const struct cel_func *cel_builtin_funcs(size_t *n)
{
	*n = sizeof(builtins) / sizeof(builtins[0]);
	return builtins;
}

static const struct cel_func *find_in(const struct cel_func *tab, size_t n,
				      const char *name, size_t len,
				      unsigned int style, size_t nargs,
				      bool *known)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (strlen(tab[i].name) != len ||
		    memcmp(tab[i].name, name, len) != 0)
			continue;
		*known = true;
		if ((tab[i].style & style) && nargs >= tab[i].min_args &&
		    nargs <= tab[i].max_args)
			return &tab[i];
	}
	return NULL;
}

static const cel_func_table_fn tables[] = {
	cel_builtin_funcs,	cel_k8s_funcs,		cel_k8s_pdb_funcs,
	cel_k8s_spread_funcs,	cel_k8s_webhook_funcs,	cel_k8s_roles_funcs,
};

const cel_func_table_fn *cel_func_tables(size_t *n)
{
	*n = sizeof(tables) / sizeof(tables[0]);
	return tables;
}

const struct cel_func *cel_func_find(const char *name, size_t len,
				     unsigned int style, size_t nargs,
				     bool *known)
{
	const struct cel_func *tab, *fn;
	size_t i, n;

	*known = false;
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		tab = tables[i](&n);
		fn = find_in(tab, n, name, len, style, nargs, known);
		if (fn)
			return fn;
	}
	return NULL;
}

/* Charge @steps or return the failure from the calling function. */
#define CHARGE(ev, steps) do {						\
		struct cel_value e_;					\
		if (!cel_eval_charge(ev, steps, &e_))			\
			return e_;					\
	} while (0)

static struct cel_value bad_arg(struct cel_eval *ev, const char *fn,
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
		return bad_arg(ev, "size", &args[0]);
	CHARGE(ev, args[0].len / CEL_COST_SCAN);
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
		return bad_arg(ev, "startsWith", &args[0]);
	CHARGE(ev, args[1].len / CEL_COST_SCAN);
	return cel_bool(args[1].len <= args[0].len &&
			!memcmp(args[0].u.s, args[1].u.s, args[1].len));
}

static struct cel_value fn_ends(struct cel_eval *ev, const struct cel_ast *call,
				const struct cel_value *args, size_t n)
{
	if (!strings2(args))
		return bad_arg(ev, "endsWith", &args[0]);
	CHARGE(ev, args[1].len / CEL_COST_SCAN);
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
		return bad_arg(ev, "contains", &args[0]);
	/* the search compares the part at every offset */
	CHARGE(ev, (uint64_t)args[0].len * (args[1].len + 1) / CEL_COST_SCAN);
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
		return bad_arg(ev, "matches", &args[0]);
	CHARGE(ev, args[0].len / CEL_COST_SCAN);
	rc = cel_regex_match(ev->env, call->regex, args[0].u.s, args[0].len);
	if (rc < 0) {
		/* PCRE2 does not say how much it did: a match that gave up
		 * did as much as its limits allow */
		CHARGE(ev, CEL_COST_REGEX_GAVE_UP);
		return cel_eval_failf(ev, "matches() gave up (PCRE2 error %d: a match limit was hit)",
				      rc);
	}
	return cel_bool(rc == 1);
}

static struct cel_value fn_lower(struct cel_eval *ev, const struct cel_ast *call,
				 const struct cel_value *args, size_t n)
{
	char *s;
	size_t i;

	if (args[0].type != CEL_STRING)
		return bad_arg(ev, "lowerAscii", &args[0]);
	CHARGE(ev, args[0].len / CEL_COST_SCAN);
	s = kvet_arena_alloc(ev->env->scratch, (size_t)args[0].len + 1);
	if (!s)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < args[0].len; i++) {
		char c = args[0].u.s[i];

		s[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	}
	return cel_string(s, args[0].len);
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

/* CEL's strings extension: list<string>.join([separator]). */
static struct cel_value fn_join(struct cel_eval *ev, const struct cel_ast *call,
				const struct cel_value *args, size_t n)
{
	const struct cel_value *sep = n > 1 ? &args[1] : NULL;
	size_t i, cnt, len = 0;
	struct cel_value it;
	char *s;

	if (args[0].type != CEL_LIST)
		return bad_arg(ev, "join", &args[0]);
	if (sep && sep->type != CEL_STRING)
		return bad_arg(ev, "join", sep);
	cnt = cel_len(&args[0]);
	for (i = 0; i < cnt; i++) {
		it = cel_list_at(&args[0], i);
		if (it.type != CEL_STRING)
			return cel_eval_errorf(ev, "join() needs a list of strings, not one with %s",
					       cel_type_name(it.type));
		len += it.len + (i && sep ? sep->len : 0);
	}
	CHARGE(ev, (cnt + len) / CEL_COST_SCAN);
	s = kvet_arena_alloc(ev->env->scratch, len + 1);
	if (!s)
		return cel_eval_errorf(ev, "out of memory");
	for (len = 0, i = 0; i < cnt; i++) {
		it = cel_list_at(&args[0], i);
		if (i && sep && sep->len) {
			memcpy(s + len, sep->u.s, sep->len);
			len += sep->len;
		}
		if (it.len)
			memcpy(s + len, it.u.s, it.len);
		len += it.len;
	}
	s[len] = '\0';
	return cel_string(s, len);
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
		return bad_arg(ev, "int", v);
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
		return bad_arg(ev, "double", v);
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
		return bad_arg(ev, "string", &args[0]);
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
	return bad_arg(ev, "bool", v);
}

static struct cel_value fn_dyn(struct cel_eval *ev, const struct cel_ast *call,
			       const struct cel_value *args, size_t n)
{
	return args[0];
}

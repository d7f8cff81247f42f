/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The strings extension of kvet's CEL subset, as cel-go's ext/strings:
 *
 *   "ABC".lowerAscii()             // "abc"
 *   ["a", "b"].join(", ")          // "a, b"
 *   ["a", "b"].join()              // "ab"
 *   "tacocat".substring(4)         // "cat"
 *   "tacocat".substring(0, 4)      // "taco"
 */
#include "cel/ast.h"

#include <string.h>

#include "base/utf8.h"

#define M CEL_CALL_METHOD
#define DYN CEL_ST_DYN
#define STR CEL_ST_STRING
#define LIST CEL_ST_LIST
#define INT CEL_ST_INT

static struct cel_value fn_lower(struct cel_eval *ev, const struct cel_ast *call,
				 const struct cel_value *args, size_t n)
{
	char *s;
	size_t i;

	if (args[0].type != CEL_STRING)
		return cel_no_overload(ev, "lowerAscii", &args[0]);
	CEL_CHARGE(ev, args[0].len / CEL_COST_SCAN);
	s = kvet_arena_alloc(ev->env->scratch, (size_t)args[0].len + 1);
	if (!s)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < args[0].len; i++) {
		char c = args[0].u.s[i];

		s[i] = c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
	}
	return cel_string(s, args[0].len);
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
		return cel_no_overload(ev, "join", &args[0]);
	if (sep && sep->type != CEL_STRING)
		return cel_no_overload(ev, "join", sep);
	cnt = cel_len(&args[0]);
	for (i = 0; i < cnt; i++) {
		it = cel_list_at(&args[0], i);
		if (it.type != CEL_STRING)
			return cel_eval_errorf(ev, "join() needs a list of strings, not one with %s",
					       cel_type_name(it.type));
		len += it.len + (i && sep ? sep->len : 0);
	}
	CEL_CHARGE(ev, (cnt + len) / CEL_COST_SCAN);
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

/* Byte offset of code point @cp of @v, or -1 past its end. */
static long long cp_offset(const struct cel_value *v, long long cp)
{
	size_t at = 0;
	uint32_t c;

	while (cp > 0 && at < v->len) {
		at += kvet_utf8_next(v->u.s + at, v->len - at, &c);
		cp--;
	}
	return cp ? -1 : (long long)at;
}

/* CEL's strings extension: s.substring(start[, end]), in code points;
 * an index out of range, or start after end, is an error. */
static struct cel_value fn_substring(struct cel_eval *ev,
				     const struct cel_ast *call,
				     const struct cel_value *args, size_t n)
{
	long long start, end;

	if (args[0].type != CEL_STRING)
		return cel_no_overload(ev, "substring", &args[0]);
	if (args[1].type != CEL_INT || (n > 2 && args[2].type != CEL_INT))
		return cel_no_overload(ev, "substring", &args[args[1].type != CEL_INT ? 1 : 2]);
	CEL_CHARGE(ev, args[0].len / CEL_COST_SCAN);
	start = args[1].u.i < 0 ? -1 : cp_offset(&args[0], args[1].u.i);
	end = n < 3 ? (long long)args[0].len
	      : args[2].u.i < 0 ? -1 : cp_offset(&args[0], args[2].u.i);
	if (start < 0 || end < 0 || (n > 2 && args[2].u.i < args[1].u.i))
		return cel_eval_errorf(ev, "substring(%lld%s%lld): index out of range for a string of %u bytes",
				       (long long)args[1].u.i, n > 2 ? ", " : "",
				       n > 2 ? (long long)args[2].u.i : 0LL,
				       args[0].len);
	return cel_string(args[0].u.s + start, (size_t)(end - start));
}

static const struct cel_func strings_funcs[] = {
	{ "lowerAscii", M, 1, 1, STR, { STR, DYN }, fn_lower,
	  "s.lowerAscii(): ASCII letters in lower case", NULL },
	{ "join", M, 1, 2, STR, { LIST, STR }, fn_join,
	  "l.join(), l.join(sep): the strings of a list, separated by sep", NULL },
	{ "substring", M, 2, 3, STR, { STR, INT, INT }, fn_substring,
	  "s.substring(start), s.substring(start, end): the code points from start up to end", NULL },
};

const struct cel_lib cel_lib_strings =
	CEL_LIB("cel.lib.ext.strings", strings_funcs);

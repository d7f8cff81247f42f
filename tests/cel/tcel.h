/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_CEL_TCEL_H
#define KVET_TESTS_CEL_TCEL_H

/*
 * Compile and evaluate CEL expressions in tests, with the variables
 * `object` (slot 0) and `params` (slot 1). tcel_new_std() calls CEL's own
 * libraries only; tests/rules/tcel.h adds kvet's libraries and host.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cel/ast.h"

struct tcel {
	struct kvet_arena arena;	/* programs */
	struct kvet_arena scratch;
	struct cel_regexes rx;
	struct cel_env env;
	struct cel_scope scope;
	struct cel_value vars[64];
	struct cel_error err;
};

/* A tcel at the start of @size bytes, whose expressions call @libs. */
static inline struct tcel *tcel_create(size_t size,
				       const struct cel_lib *const *libs,
				       size_t n_libs)
{
	struct tcel *t = calloc(1, size);
	const struct cel_scope scope = {
		.names = { "object", "params" }, .n = 2,
		.libs = libs, .n_libs = n_libs,
	};

	assert_non_null(t);
	kvet_arena_init(&t->arena);
	kvet_arena_init(&t->scratch);
	assert_int_equal(cel_env_init(&t->env, &t->scratch), 0);
	t->scope = scope;
	return t;
}

static inline void tcel_destroy(struct tcel *t)
{
	cel_env_release(&t->env);
	cel_regexes_release(&t->rx);
	kvet_arena_release(&t->scratch);
	kvet_arena_release(&t->arena);
	free(t);
}

static const struct cel_lib *const tcel_std_libs[] = {
	&cel_lib_std, &cel_lib_strings,
};

static inline struct tcel *tcel_new_std(void)
{
	return tcel_create(sizeof(struct tcel), tcel_std_libs, 2);
}

/* Compile @expr: 0, or -1 with t->err set. */
static inline int tcel_compile(struct tcel *t, const char *expr,
			       struct cel_program *prog)
{
	return cel_compile(&t->arena, &t->rx, expr, strlen(expr), &t->scope,
			   prog, &t->err);
}

static inline struct cel_value tcel_eval(struct tcel *t, const char *expr)
{
	struct cel_program prog;

	if (tcel_compile(t, expr, &prog))
		fail_msg("%s: %zu: %s", expr, t->err.off, t->err.msg);
	return cel_eval(&t->env, &prog, t->vars);
}

#define assert_cel_true(t, e) do {					\
		struct cel_value v_ = tcel_eval(t, e);			\
		if (v_.type != CEL_BOOL || !v_.u.b)			\
			fail_msg("%s: %s %s", e, cel_type_name(v_.type),	\
				 v_.type == CEL_ERROR ? v_.u.s : "");	\
	} while (0)

#define assert_cel_false(t, e) do {					\
		struct cel_value v_ = tcel_eval(t, e);			\
		if (v_.type != CEL_BOOL || v_.u.b)			\
			fail_msg("%s: not false (%s)", e, cel_type_name(v_.type)); \
	} while (0)

#define assert_cel_error(t, e, part) do {				\
		struct cel_value v_ = tcel_eval(t, e);			\
		if (v_.type != CEL_ERROR || !strstr(v_.u.s, part))	\
			fail_msg("%s: no error \"%s\" (%s)", e, part,	\
				 cel_type_name(v_.type));		\
	} while (0)

/* A compile error at @off whose message contains @part. */
#define assert_compile_error(t, e, off_, part) do {			\
		struct cel_program p_;					\
		if (!tcel_compile(t, e, &p_))				\
			fail_msg("%s: compiled", e);			\
		if (t->err.off != (size_t)(off_) || !strstr(t->err.msg, part)) \
			fail_msg("%s: error at %zu \"%s\", want %d \"%s\"", e, \
				 t->err.off, t->err.msg, (int)(off_), part); \
	} while (0)

#endif

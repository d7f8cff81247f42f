/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_TCTX_H
#define KVET_TESTS_TCTX_H

/*
 * The fixture of the tests that go through the public API (tests/api,
 * tests/report, tests/rules): a context given a manifest as text, the
 * way a test writes one, and the findings of one rule. Each step asserts,
 * so a test reads as what it checks. Tests below the API load text with
 * support.h's load_str() and tgraph.h's tg_load() instead.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "kvet/kvet.h"

/* tctx_add() - queue the NUL-terminated @text as the input @name */
static inline void tctx_add(struct kvet_ctx *ctx, const char *name,
			    const char *text)
{
	assert_int_equal(kvet_ctx_add_buffer(ctx, name, text, strlen(text)),
			 0);
}

/*
 * tctx_lint() - a context created with @opts (NULL: the defaults) that
 * has run over @text as the input @name. The caller destroys it.
 */
static inline struct kvet_ctx *tctx_lint(const struct kvet_options *opts,
					 const char *name, const char *text)
{
	struct kvet_ctx *ctx = kvet_ctx_create(opts);

	assert_non_null(ctx);
	tctx_add(ctx, name, text);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	return ctx;
}

/* tctx_count() - how many findings of @rule the run of @ctx reported */
static inline size_t tctx_count(const struct kvet_ctx *ctx, const char *rule)
{
	size_t i, n = 0;

	for (i = 0; i < kvet_ctx_finding_count(ctx); i++)
		n += strcmp(kvet_ctx_finding(ctx, i)->rule, rule) == 0;
	return n;
}

#endif

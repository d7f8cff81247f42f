/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Regexes of matches(): PCRE2, compiled once when a rule is loaded
 * (UTF-8, invalid subjects simply do not match, no \C), JIT-compiled when
 * the platform allows, and bounded at match time by match, depth and heap
 * limits (LIBS.md section 2: the limits also apply when JIT is off).
 */
#include "cel/ast.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest pattern and deepest parentheses accepted in a rule file. */
enum { MAX_PATTERN = 4096, MAX_PARENS = 64 };

void *cel_regex_compile(const char *pat, size_t len, struct cel_error *err)
{
	pcre2_compile_context *cc = pcre2_compile_context_create(NULL);
	pcre2_code *re = NULL;
	PCRE2_SIZE off = 0;
	int code = 0;

	if (!cc) {
		err->off = 0;
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return NULL;
	}
	pcre2_set_max_pattern_length(cc, MAX_PATTERN);
	pcre2_set_parens_nest_limit(cc, MAX_PARENS);
	re = pcre2_compile((PCRE2_SPTR)pat, len,
			   PCRE2_UTF | PCRE2_MATCH_INVALID_UTF |
				   PCRE2_NEVER_BACKSLASH_C,
			   &code, &off, cc);
	pcre2_compile_context_free(cc);
	if (!re) {
		PCRE2_UCHAR msg[120];

		if (pcre2_get_error_message(code, msg, sizeof(msg)) < 0)
			snprintf((char *)msg, sizeof(msg), "error %d", code);
		err->off = off;
		snprintf(err->msg, sizeof(err->msg), "invalid regex: %s",
			 (const char *)msg);
		return NULL;
	}
	/* without JIT (no executable memory) matching falls back to the
	 * interpreter, which the limits bound as well */
	(void)pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
	return re;
}

void cel_regexes_release(struct cel_regexes *rx)
{
	size_t i;

	if (!rx)
		return;
	for (i = 0; i < rx->n; i++)
		pcre2_code_free(rx->v[i]);
	if (rx->cap)
		free(rx->v);
	rx->v = NULL;
	rx->n = rx->cap = 0;
}

int cel_env_init(struct cel_env *env, struct kvet_arena *scratch)
{
	pcre2_match_context *mc;

	memset(env, 0, sizeof(*env));
	env->scratch = scratch;
	cel_env_meter(env, CEL_COST_LIMIT, CEL_MEMORY_LIMIT);
	mc = pcre2_match_context_create(NULL);
	if (!mc)
		return -1;
	pcre2_set_match_limit(mc, CEL_REGEX_MATCH_LIMIT);
	pcre2_set_depth_limit(mc, CEL_REGEX_DEPTH_LIMIT);
	pcre2_set_heap_limit(mc, CEL_REGEX_HEAP_LIMIT_KIB);
	env->match_ctx = mc;
	/* one pair: matches() asks only whether there is a match */
	env->match_data = pcre2_match_data_create(1, NULL);
	if (!env->match_data) {
		cel_env_release(env);
		return -1;
	}
	return 0;
}

void cel_env_release(struct cel_env *env)
{
	if (!env)
		return;
	pcre2_match_data_free(env->match_data);
	pcre2_match_context_free(env->match_ctx);
	env->match_data = NULL;
	env->match_ctx = NULL;
}

int cel_regex_match(struct cel_env *env, const void *re, const char *s,
		    size_t len)
{
	int rc;

	if (!env->match_ctx || !env->match_data)
		return PCRE2_ERROR_NOMEMORY;
	rc = pcre2_match(re, (PCRE2_SPTR)s, len, 0, 0, env->match_data,
			 env->match_ctx);
	if (rc >= 0)
		return 1;
	if (rc == PCRE2_ERROR_NOMATCH)
		return 0;
	env->regex_errors++;
	return rc;
}

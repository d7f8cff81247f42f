/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The examples of rule files as tests (docs/rule-language.md,
 * "Examples"): `kvet rules test DIR` for a team's rules, and the
 * rule-examples test for the built-in ones. Each manifest is linted in a
 * context of its own that holds only its rule file, so no other rule and
 * no setting of the caller changes the outcome.
 */
#include "api/context.h"

#include <string.h>

/* @f's full sentence in @run's arena ("" when out of memory: it only
 * explains a failed example). */
static const char *sentence(struct kvet_ctx *run, const struct kvet_finding *f)
{
	const char *s;

	if (f->message)
		return f->message;
	s = kvet_arena_printf(&run->arena, "%s: %s", f->headline, f->reason);
	return s ? s : "";
}

/* Why an example did not pass, in its context's arena; NULL if it did. */
static const char *judge(struct kvet_ctx *run, const struct kvet_rule *rule,
			 const struct kvet_rule_example *ex, size_t *found)
{
	static const char *const sev[] = { "info", "warning", "error" };
	const struct kvet_finding *f, *first = NULL;
	const struct kvet_error *e;
	size_t i;

	*found = 0;
	if (kvet_ctx_error_count(run)) {
		e = kvet_ctx_error(run, 0);
		return kvet_arena_printf(&run->arena,
					 "the manifest does not lint: line %u:%u: %s",
					 e->pos.line, e->pos.column, e->message);
	}
	for (i = 0; i < kvet_ctx_finding_count(run); i++) {
		f = kvet_ctx_finding(run, i);
		if (strcmp(f->rule, rule->info.id))
			continue;
		if (!(*found)++)
			first = f;
		if (ex->severity >= 0 && (int)f->severity != ex->severity)
			return kvet_arena_printf(&run->arena,
						 "a finding is %s, expected %s: %s",
						 sev[f->severity],
						 sev[ex->severity], sentence(run, f));
		if (ex->message && !strstr(sentence(run, f), ex->message))
			return kvet_arena_printf(&run->arena,
						 "a finding's message lacks \"%s\": %s",
						 ex->message, sentence(run, f));
	}
	if (!ex->fails && first)
		return kvet_arena_printf(&run->arena,
					 "expected no finding, got %zu: %s",
					 *found, sentence(run, first));
	if (ex->fails && ex->findings >= 0 && *found != (size_t)ex->findings)
		return kvet_arena_printf(&run->arena,
					 "expected %ld finding%s, got %zu",
					 ex->findings,
					 ex->findings == 1 ? "" : "s", *found);
	if (ex->fails && !*found)
		return "expected a finding, got none";
	return NULL;
}

/* Returns 1 when the example failed, 0 when it passed, -1 (memory). */
static int run_example(const struct kvet_rule *rule,
		       const struct kvet_rule_example *ex, kvet_example_fn fn,
		       void *user)
{
	struct kvet_options opts = { .flags = KVET_CTX_NO_BUILTIN_RULES };
	struct kvet_example_result res = {
		.file = rule->file,
		.line = ex->line,
		.rule = rule->info.id,
		.name = ex->name ? ex->name : "",
		.expect_fail = ex->fails,
	};
	struct kvet_ctx *run;

	if (ex->complete)
		opts.flags |= KVET_CTX_COMPLETE_INPUT;
	/* one worker: examples are small, and many run one after another */
	opts.jobs = 1;
	run = kvet_ctx_create(&opts);
	if (!run)
		return -1;
	if (kvet_ctx_add_rules_buffer(run, rule->file, rule->text,
				      rule->text_len) ||
	    kvet_ctx_add_buffer(run, "example.yaml", ex->manifest, ex->len) ||
	    kvet_ctx_run(run)) {
		kvet_ctx_destroy(run);
		return -1;
	}
	res.why = judge(run, rule, ex, &res.findings);
	res.passed = !res.why;
	res.run = run;
	fn(user, &res);
	kvet_ctx_destroy(run);
	return res.passed ? 0 : 1;
}

KVET_API long kvet_ctx_test_rules(const struct kvet_ctx *ctx,
				  unsigned int flags, kvet_example_fn fn,
				  void *user)
{
	const struct kvet_rule *rule;
	long failed = 0;
	size_t i, k;
	int rc;

	for (i = 0; i < ctx->rules.n; i++) {
		rule = ctx->rules.v[i];
		if (rule->builtin && !(flags & KVET_TEST_BUILTIN))
			continue;
		for (k = 0; k < rule->n_examples; k++) {
			rc = run_example(rule, &rule->examples[k], fn, user);
			if (rc < 0)
				return -1;
			failed += rc;
		}
	}
	return failed;
}

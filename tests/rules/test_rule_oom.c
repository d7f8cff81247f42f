/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rule files loaded while memory runs out (issue 11, item 10): a file
 * used to be dropped without an error, so kvet linted without its rules
 * and exited 1 instead of 3. Every allocation of a load is made to fail
 * in turn (malloc, calloc and realloc are wrapped at link time): the
 * file must then be refused with a rule error, never half-loaded and
 * never dropped in silence.
 */
#include "support.h"

#include "kvet/kvet.h"
#include "rules/rules.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);

/* Allocations counted while armed; the one numbered @fail_at fails, and
 * with @fail_after every later one too. */
static bool armed, fail_after;
static long count, fail_at = -1;

static bool fails(void)
{
	if (!armed)
		return false;
	return fail_after ? count++ >= fail_at : count++ == fail_at;
}

void *__wrap_malloc(size_t size)
{
	return fails() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return fails() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return fails() ? NULL : __real_realloc(p, size);
}

static void arm(long at, bool after)
{
	count = 0;
	fail_at = at;
	fail_after = after;
	armed = true;
}

/* Rules with every part: each, params, labels, a message with an
 * expression, at, related, examples; a hundred of them, so that their
 * trees take more than one block of the arena. */
#define RULE_TEXT \
	"id: full-%d\nseverity: warning\ncategory: t\nsummary: s\n" \
	"description: d\nremediation: r\nreferences: [\"https://x\"]\n" \
	"match: {kinds: [apps/Deployment], namespaces: [a]," \
	" labels: {app: web}}\n" \
	"params: {n: 2, names: [a, b]}\n" \
	"each: {as: c, in: object.spec.template.spec.containers}\n" \
	"condition: c.name in params.names && c.image.matches('^x')\n" \
	"message: 'container {{ c.name }} of {{ object.metadata.name }}'\n" \
	"at: [c.image, object.spec]\n" \
	"related: '[hpaFor(object)]'\n" \
	"examples:\n- {expect: pass, manifest: x}\n---\n"

static char *rule_file(void)
{
	size_t cap = 48 * 1024, len = 0;
	char *s = __real_malloc(cap);
	int i;

	assert_non_null(s);
	for (i = 0; len + 1024 < cap; i++)
		len += (size_t)snprintf(s + len, cap - len, RULE_TEXT, i);
	return s;
}

/* Every part of every rule of rule_file() is there. */
static void assert_whole(const struct kvet_rule_set *set)
{
	const struct kvet_rule *r;
	size_t i;

	for (i = 0; i < set->n; i++) {
		r = set->v[i];
		assert_int_equal(r->n_kinds, 1);
		assert_int_equal(r->n_namespaces, 1);
		assert_int_equal(r->n_labels, 1);
		assert_int_equal(r->n_params, 2);
		assert_true(r->has_each && r->has_related);
		assert_int_equal(r->message.n, 4);
		assert_int_equal(r->n_at, 2);
		assert_int_equal(r->n_examples, 1);
		assert_int_equal(r->info.n_references, 1);
	}
}

/* The rule set alone: refused with an error, or loaded whole. */
static void rule_set_never_drops_a_file(void **state)
{
	char *text = rule_file();
	size_t len = strlen(text), full;
	struct kvet_rule_set set;
	long at, total, refused = 0;
	int rc;

	(void)state;
	kvet_rule_set_init(&set);
	arm(-1, false);
	assert_int_equal(kvet_rule_set_add_buffer(&set, "r.yaml", text, len), 0);
	armed = false;
	total = count;
	full = set.n;
	assert_true(full > 50);
	assert_whole(&set);
	kvet_rule_set_release(&set);
	for (at = 0; at < total; at++) {
		kvet_rule_set_init(&set);
		arm(at, false);
		rc = kvet_rule_set_add_buffer(&set, "r.yaml", text, len);
		armed = false;
		if (rc == 0) {
			/* the failure hit nothing the file needed */
			assert_int_equal(set.n, full);
			assert_int_equal(set.diag.n, 0);
			assert_whole(&set);
		} else {
			refused++;
			if (!set.diag.n)
				fail_msg("allocation %ld: refused with no error", at);
			assert_non_null(strstr(set.diag.errors[0].message,
					       "out of memory"));
		}
		kvet_rule_set_release(&set);
	}
	assert_true(refused > 0);
	free(text);
}

/* Through the context, with every allocation after one failing too (so
 * that even the error cannot be recorded): a rule error is there, which
 * is what makes the CLI exit 3. */
static void context_reports_every_refusal(void **state)
{
	struct kvet_options opts = { .flags = KVET_CTX_NO_BUILTIN_RULES };
	char *text = rule_file();
	size_t len = strlen(text);
	struct kvet_ctx *ctx;
	long at, total;
	int mode, rc;

	(void)state;
	ctx = kvet_ctx_create(&opts);
	assert_non_null(ctx);
	arm(-1, false);
	assert_int_equal(kvet_ctx_add_rules_buffer(ctx, "r.yaml", text, len), 0);
	armed = false;
	total = count;
	kvet_ctx_destroy(ctx);
	for (mode = 0; mode < 2; mode++) {
		for (at = 0; at < total; at++) {
			ctx = kvet_ctx_create(&opts);
			assert_non_null(ctx);
			arm(at, mode == 1);
			rc = kvet_ctx_add_rules_buffer(ctx, "r.yaml", text, len);
			armed = false;
			if (rc < 0 && !kvet_ctx_rule_error_count(ctx))
				fail_msg("allocation %ld (%s): refused in silence",
					 at, mode ? "and after" : "alone");
			if (rc < 0)
				assert_non_null(kvet_ctx_rule_error(ctx, 0)->message);
			else
				assert_int_equal(kvet_ctx_rule_error_count(ctx), 0);
			kvet_ctx_destroy(ctx);
		}
	}
	free(text);
}

/* The built-in rules: a context is made whole or not at all. */
static void builtin_rules_are_all_or_nothing(void **state)
{
	struct kvet_ctx *ctx;
	size_t all;
	long at;

	(void)state;
	ctx = kvet_ctx_create(NULL);
	assert_non_null(ctx);
	all = kvet_ctx_rule_count(ctx);
	kvet_ctx_destroy(ctx);
	for (at = 0; at < 4000; at += 97) {
		arm(at, false);
		ctx = kvet_ctx_create(NULL);
		armed = false;
		if (ctx)
			assert_int_equal(kvet_ctx_rule_count(ctx), all);
		kvet_ctx_destroy(ctx);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rule_set_never_drops_a_file),
		cmocka_unit_test(context_reports_every_refusal),
		cmocka_unit_test(builtin_rules_are_all_or_nothing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

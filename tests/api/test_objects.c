/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of the API that the CI reports read: object iteration, rule
 * applicability, suppressed findings, and the format table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvet/kvet.h"
#include "tctx.h"

static const char input[] =
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: web, namespace: shop}\nspec:\n  replicas: two\n"
	"---\n"
	"apiVersion: v1\nkind: Namespace\nmetadata: {name: shop}\n"
	"---\n"
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: t\n"
	"  annotations: {helm.sh/hook: test}\n";

static struct kvet_ctx *run(unsigned int jobs)
{
	struct kvet_options opts = { .jobs = jobs };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);

	assert_non_null(ctx);
	tctx_add(ctx, "a.yaml", input);
	tctx_add(ctx, "b.yaml", input);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	return ctx;
}

static void test_objects(void **state)
{
	struct kvet_ctx *ctx = run(1);
	struct kvet_object_ref obj;

	assert_int_equal(kvet_ctx_object_count(ctx), 6);
	assert_int_equal(kvet_ctx_object(ctx, 0, &obj), 0);
	assert_string_equal(obj.api_version, "apps/v1");
	assert_string_equal(obj.kind, "Deployment");
	assert_string_equal(obj.namespace, "shop");
	assert_string_equal(obj.name, "web");
	assert_string_equal(obj.pos.file, "a.yaml");
	assert_int_equal(obj.pos.line, 1);
	assert_int_equal(kvet_ctx_object(ctx, 1, &obj), 0);
	assert_string_equal(obj.kind, "Namespace");
	assert_string_equal(obj.namespace, "");
	/* input order: the second file's objects follow the first's */
	assert_int_equal(kvet_ctx_object(ctx, 3, &obj), 0);
	assert_string_equal(obj.pos.file, "b.yaml");
	assert_int_equal(kvet_ctx_object(ctx, 6, &obj), -1);
	assert_null(obj.kind);
	kvet_ctx_destroy(ctx);
}

static void test_rule_applies(void **state)
{
	struct kvet_ctx *ctx = run(1);

	assert_true(kvet_ctx_rule_applies(ctx, "invalid-field-type", 0));
	assert_true(kvet_ctx_rule_applies(ctx, "invalid-field-type", 1));
	/* a Helm test hook is not linted */
	assert_false(kvet_ctx_rule_applies(ctx, "invalid-field-type", 2));
	assert_false(kvet_ctx_rule_applies(ctx, "no-such-rule", 0));
	assert_false(kvet_ctx_rule_applies(ctx, "invalid-field-type", 6));
	assert_false(kvet_ctx_rule_applies(ctx, NULL, 0));
	kvet_ctx_destroy(ctx);
}

static void test_suppressed_none_yet(void **state)
{
	struct kvet_ctx *ctx = run(1);

	assert_int_equal(kvet_ctx_suppressed_count(ctx), 0);
	assert_null(kvet_ctx_suppressed(ctx, 0));
	kvet_ctx_destroy(ctx);
}

static void test_format_table(void **state)
{
	static const char *const names[] = { "text", "json", "junit",
					     "sarif", "github", "codequality",
					     "markdown" };
	enum kvet_format fmt;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		assert_int_equal(kvet_format_from_name(names[i], &fmt), 0);
		assert_string_equal(kvet_format_name(fmt), names[i]);
	}
	assert_null(kvet_format_name((enum kvet_format)i));
	assert_int_equal(kvet_format_from_name("xml", &fmt), -1);
}

static char *render(const struct kvet_ctx *ctx, enum kvet_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(kvet_render(ctx, fmt, 0, fp), 0);
	assert_int_equal(fclose(fp), 0);
	assert_true(len > 0);
	return buf;
}

/* Every format gives the same bytes whatever the number of threads. */
static void test_reports_ignore_jobs(void **state)
{
	struct kvet_ctx *one = run(1), *many = run(8);
	unsigned int f;

	for (f = 0; kvet_format_name((enum kvet_format)f); f++) {
		char *a = render(one, (enum kvet_format)f);
		char *b = render(many, (enum kvet_format)f);

		assert_string_equal(a, b);
		free(a);
		free(b);
	}
	kvet_ctx_destroy(one);
	kvet_ctx_destroy(many);
}

static void test_render_write_error(void **state)
{
	struct kvet_ctx *ctx = run(1);
	FILE *fp = fopen("/dev/full", "w");
	unsigned int f;

	if (!fp)
		skip();
	for (f = 0; kvet_format_name((enum kvet_format)f); f++) {
		assert_int_equal(kvet_render(ctx, (enum kvet_format)f, 0, fp),
				 -1);
		clearerr(fp);
	}
	fclose(fp);
	kvet_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_objects),
		cmocka_unit_test(test_rule_applies),
		cmocka_unit_test(test_suppressed_none_yet),
		cmocka_unit_test(test_format_table),
		cmocka_unit_test(test_reports_ignore_jobs),
		cmocka_unit_test(test_render_write_error),
	};

	return cmocka_run_group_tests_name("objects", tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How the reports show suppressed findings. Suppression does not exist
 * yet, so the two API functions that list them are replaced at link time
 * (-Wl,--wrap) by ones that return two suppressed findings.
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

size_t __wrap_kvet_ctx_suppressed_count(const struct kvet_ctx *ctx);
const struct kvet_suppressed *
__wrap_kvet_ctx_suppressed(const struct kvet_ctx *ctx, size_t i);

static const char input[] =
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: web}\nspec:\n  replicas: two\n"
	"---\n"
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: api}\nspec:\n  replicas: 1\n";

static struct kvet_suppressed sups[2];

size_t __wrap_kvet_ctx_suppressed_count(const struct kvet_ctx *ctx)
{
	return 2;
}

const struct kvet_suppressed *
__wrap_kvet_ctx_suppressed(const struct kvet_ctx *ctx, size_t i)
{
	return i < 2 ? &sups[i] : NULL;
}

static char *render(const struct kvet_ctx *ctx, const char *format)
{
	enum kvet_format fmt;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(kvet_format_from_name(format, &fmt), 0);
	assert_int_equal(kvet_render(ctx, fmt, 0, fp), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static struct kvet_ctx *run(void)
{
	struct kvet_ctx *ctx = kvet_ctx_create(NULL);
	struct kvet_object_ref api;

	assert_non_null(ctx);
	tctx_add(ctx, "s.yaml", input);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_finding_count(ctx), 1);
	assert_int_equal(kvet_ctx_object(ctx, 1, &api), 0);

	/* web: a reported finding and a suppressed one */
	sups[0].finding = *kvet_ctx_finding(ctx, 0);
	sups[0].finding.message = "hidden on web";
	sups[0].reason = "annotation";
	/* api: only a suppressed finding */
	memset(&sups[1].finding, 0, sizeof(sups[1].finding));
	sups[1].finding.rule = "invalid-field-type";
	sups[1].finding.severity = KVET_SEV_WARNING;
	sups[1].finding.message = "hidden on api";
	sups[1].finding.object = api;
	sups[1].finding.object_index = 1;
	sups[1].finding.pos = api.pos;
	sups[1].reason = "baseline";
	return ctx;
}

static void test_junit_skipped(void **state)
{
	struct kvet_ctx *ctx = run();
	char *xml = render(ctx, "junit");

	assert_non_null(strstr(xml, "<testsuite name=\"invalid-field-type\" "
				    "tests=\"2\" failures=\"1\" errors=\"0\" "
				    "skipped=\"1\""));
	assert_non_null(strstr(xml, "<skipped type=\"warning\" message=\""
				    "suppressed by baseline: hidden on api\">"
				    "s.yaml:7:1: warning: hidden on api "
				    "[invalid-field-type]\n"
				    "  suppressed by baseline\n"));
	/* a failing test case shows its reported findings only */
	assert_null(strstr(xml, "hidden on web"));
	free(xml);
	kvet_ctx_destroy(ctx);
}

static void test_sarif_suppressions(void **state)
{
	struct kvet_ctx *ctx = run();
	char *sarif = render(ctx, "sarif");
	const char *web = strstr(sarif, "\"text\": \"hidden on web\"");
	const char *api = strstr(sarif, "\"text\": \"hidden on api\"");

	assert_non_null(web);
	assert_non_null(api);
	assert_non_null(strstr(web, "\"kind\": \"inSource\",\n"
				    "              \"justification\": "
				    "\"annotation\""));
	assert_non_null(strstr(api, "\"kind\": \"external\",\n"
				    "              \"justification\": "
				    "\"baseline\""));
	free(sarif);
	kvet_ctx_destroy(ctx);
}

static void test_json_suppressed(void **state)
{
	struct kvet_ctx *ctx = run();
	char *json = render(ctx, "json");
	char *gh = render(ctx, "github");

	assert_non_null(strstr(json, "\"reason\": \"annotation\",\n"
				     "      \"justification\": null,\n"
				     "      \"message\": \"hidden on web\""));
	assert_non_null(strstr(json, "\"reason\": \"baseline\""));
	/* annotations are for what must be fixed */
	assert_null(strstr(gh, "hidden"));
	free(json);
	free(gh);
	kvet_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_junit_skipped),
		cmocka_unit_test(test_sarif_suppressions),
		cmocka_unit_test(test_json_suppressed),
	};

	return cmocka_run_group_tests_name("suppressed", tests, NULL, NULL);
}

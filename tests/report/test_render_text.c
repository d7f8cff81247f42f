/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The text report (render_text.c) through the public API: whatever the
 * input holds, the report is text for a terminal, with no control
 * character but tab and line feed (kvet_text_write()).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvet/kvet.h"
#include "tctx.h"

static const char input[] =
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: web, namespace: ops}\nspec:\n  replicas: 1\n";

/* Render @ctx as text, without colours. */
static char *render_text(const struct kvet_ctx *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	assert_non_null(fp);
	assert_int_equal(kvet_render(ctx, KVET_FORMAT_TEXT, NULL, fp), 0);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

/* Fail at the first control character but tab and line feed. */
static void assert_no_controls(const char *s)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++)
		if ((*p < 0x20 && *p != '\t' && *p != '\n') || *p == 0x7f)
			fail_msg("control byte 0x%02x at %zu in:\n%s", *p,
				 (size_t)(p - (const unsigned char *)s), s);
}

/*
 * Found by fuzz_baseline: a baseline entry that matches no finding is a
 * note in the text report, and its rule, kind, namespace and name were
 * written as the baseline file spelled them, escape sequences and all.
 */
static void test_fuzz_stale_entry_controls(void **state)
{
	static const char baseline[] =
		"version: 2\n"
		"findings:\n"
		"- rule: \"no-such\\e[31m-rule\"\n"
		"  kind: \"Deploy\\x07ment\"\n"
		"  namespace: \"\\x02ops\\e]0;title\\a\"\n"
		"  name: \"a\\rb\\x7f\"\n"
		"  fingerprint: \"0000000000000000\"\n";
	char path[] = "/tmp/kvet-test-baseline-XXXXXX";
	struct kvet_ctx *ctx = kvet_ctx_create(NULL);
	char *out;
	FILE *fp;
	int fd;

	(void)state;
	assert_non_null(ctx);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	fp = fdopen(fd, "w");
	assert_non_null(fp);
	assert_int_equal(fwrite(baseline, 1, sizeof(baseline) - 1, fp),
			 sizeof(baseline) - 1);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(kvet_ctx_load_baseline(ctx, path), 0);
	tctx_add(ctx, "in.yaml", input);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_baseline_stale_count(ctx), 1);
	out = render_text(ctx);
	assert_non_null(strstr(out, "baseline entry matches no finding: "
				    "no-such\xef\xbf\xbd[31m-rule on "
				    "Deploy\xef\xbf\xbdment "
				    "\xef\xbf\xbdops\xef\xbf\xbd]0;title"
				    "\xef\xbf\xbd/a\xef\xbf\xbd" "b"
				    "\xef\xbf\xbd\n"));
	assert_no_controls(out);
	free(out);
	unlink(path);
	kvet_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fuzz_stale_entry_controls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

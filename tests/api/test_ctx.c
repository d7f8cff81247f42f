/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests of the public API: contexts, runs, summaries, exit codes. */
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

static const char good[] = "apiVersion: apps/v1\nkind: Deployment\n"
			   "metadata: {name: web}\nspec:\n  replicas: 1\n";
static const char two[] = "apiVersion: apps/v1\nkind: Deployment\n"
			  "metadata: {name: web}\nspec:\n  replicas: two\n";
static const char broken[] = "kind: [\n";

static struct kvet_ctx *run(const char *name, const char *text,
			    unsigned int jobs)
{
	struct kvet_options opts = { .jobs = jobs };

	return tctx_lint(&opts, name, text);
}

static void test_clean_run(void **state)
{
	struct kvet_ctx *ctx = run("a.yaml", good, 1);
	struct kvet_summary s;

	(void)state;
	kvet_ctx_summary(ctx, &s);
	assert_int_equal(s.files, 1);
	assert_int_equal(s.documents, 1);
	assert_int_equal(s.objects, 1);
	assert_int_equal(kvet_ctx_finding_count(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 0);
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, false),
			 KVET_EXIT_OK);
	/* a context runs once */
	assert_int_equal(kvet_ctx_run(ctx), -1);
	kvet_ctx_destroy(ctx);
}

static void test_wrong_type_is_a_finding(void **state)
{
	struct kvet_ctx *ctx = run("t.yaml", two, 1);
	const struct kvet_finding *f;
	size_t len;
	const char *line;
	char *msg;

	(void)state;
	assert_int_equal(kvet_ctx_finding_count(ctx), 1);
	f = kvet_ctx_finding(ctx, 0);
	assert_string_equal(f->rule, "invalid-field-type");
	assert_int_equal(f->severity, KVET_SEV_ERROR);
	assert_int_equal(f->pos.line, 5);
	assert_int_equal(f->pos.column, 13);
	assert_string_equal(f->object.kind, "Deployment");
	assert_string_equal(f->object.namespace, "default");
	assert_int_equal(f->object.pos.line, 1);
	msg = kvet_finding_message_dup(f);
	assert_non_null(msg);
	assert_non_null(strstr(msg, "\"two\""));
	free(msg);
	line = kvet_ctx_source_line(ctx, "t.yaml", 5, &len);
	assert_non_null(line);
	assert_int_equal(len, strlen("  replicas: two"));
	assert_memory_equal(line, "  replicas: two", len);
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, false),
			 KVET_EXIT_FINDINGS);
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, true),
			 KVET_EXIT_OK);
	kvet_ctx_destroy(ctx);
}

/*
 * The excerpt's line is found from an index of 64 KB chunks (issue 22
 * item 6): every line of an input of lines short and long, empty ones,
 * CRLF and lines across chunk boundaries, as a plain scan finds it.
 */
static void test_source_line_every_line(void **state)
{
	size_t cap = 600000, len = 0, i, n = 0, at, got_len;
	char *buf = malloc(cap);
	struct kvet_ctx *ctx = kvet_ctx_create(NULL);
	const char *got;

	(void)state;
	assert_non_null(buf);
	for (i = 0; len + 70000 < cap; i++) {
		size_t w = i % 7 == 0 ? 0 : i % 11 == 0 ? 65537 : i % 13;

		memset(buf + len, 'a' + (int)(i % 26), w);
		len += w;
		if (i % 5 == 0)
			buf[len++] = '\r';
		buf[len++] = '\n';
	}
	memcpy(buf + len, "last", 4);
	len += 4;
	assert_int_equal(kvet_ctx_add_buffer(ctx, "t.yaml", buf, len), 0);
	kvet_ctx_run(ctx);
	for (at = 0; at <= len; n++) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - buf) : len, l = end - at;

		if (l && buf[end - 1] == '\r')
			l--;
		got = kvet_ctx_source_line(ctx, "t.yaml", (unsigned int)n + 1,
					   &got_len);
		assert_non_null(got);
		assert_ptr_equal(got, kvet_ctx_source_line(ctx, "t.yaml",
							   (unsigned int)n + 1,
							   &got_len));
		assert_int_equal(got_len, l);
		assert_memory_equal(got, buf + at, l);
		at = end + 1;
	}
	assert_null(kvet_ctx_source_line(ctx, "t.yaml", (unsigned int)n + 1,
					 &got_len));
	kvet_ctx_destroy(ctx);
	free(buf);
}

static void test_errors_win_exit_code(void **state)
{
	struct kvet_ctx *ctx = kvet_ctx_create(NULL);
	const struct kvet_error *e;
	struct kvet_summary s;

	(void)state;
	tctx_add(ctx, "bad.yaml", broken);
	tctx_add(ctx, "t.yaml", two);
	assert_int_equal(kvet_ctx_add_path(ctx, "/nonexistent/x.yaml"), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 2);
	e = kvet_ctx_error(ctx, 0);
	assert_string_equal(e->pos.file, "/nonexistent/x.yaml");
	e = kvet_ctx_error(ctx, 1);
	assert_string_equal(e->pos.file, "bad.yaml");
	assert_int_equal(e->pos.line, 2);
	/* the good file is still linted */
	assert_int_equal(kvet_ctx_finding_count(ctx), 1);
	kvet_ctx_summary(ctx, &s);
	assert_int_equal(s.files, 2);
	assert_int_equal(s.findings[KVET_SEV_ERROR], 1);
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, true),
			 KVET_EXIT_INPUT);
	kvet_ctx_destroy(ctx);
}

/* Output must not depend on -j: the same inputs give the same records. */
static void test_jobs_do_not_change_order(void **state)
{
	struct kvet_ctx *ctx[2];
	unsigned int jobs[2] = { 1, 4 };
	size_t i, k;
	char name[32];

	(void)state;
	for (k = 0; k < 2; k++) {
		struct kvet_options opts = { .jobs = jobs[k] };

		ctx[k] = kvet_ctx_create(&opts);
		for (i = 0; i < 40; i++) {
			const char *text = i % 3 == 0 ? broken
					   : i % 3 == 1 ? two
							: good;

			snprintf(name, sizeof(name), "f%02zu.yaml", i);
			tctx_add(ctx[k], name, text);
		}
		assert_int_equal(kvet_ctx_run(ctx[k]), 0);
	}
	assert_int_equal(kvet_ctx_error_count(ctx[0]), 14);
	assert_int_equal(kvet_ctx_error_count(ctx[1]), 14);
	for (i = 0; i < 14; i++)
		assert_string_equal(kvet_ctx_error(ctx[0], i)->pos.file,
				    kvet_ctx_error(ctx[1], i)->pos.file);
	assert_int_equal(kvet_ctx_finding_count(ctx[0]), 13);
	assert_int_equal(kvet_ctx_finding_count(ctx[1]), 13);
	for (i = 0; i < 13; i++)
		assert_string_equal(kvet_ctx_finding(ctx[0], i)->pos.file,
				    kvet_ctx_finding(ctx[1], i)->pos.file);
	kvet_ctx_destroy(ctx[0]);
	kvet_ctx_destroy(ctx[1]);
}

static void test_default_namespace_option(void **state)
{
	struct kvet_options opts = { .default_namespace = "ops", .jobs = 1 };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);

	(void)state;
	tctx_add(ctx, "t.yaml", two);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_string_equal(kvet_ctx_finding(ctx, 0)->object.namespace, "ops");
	kvet_ctx_destroy(ctx);
	kvet_ctx_destroy(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clean_run),
		cmocka_unit_test(test_wrong_type_is_a_finding),
		cmocka_unit_test(test_source_line_every_line),
		cmocka_unit_test(test_errors_win_exit_code),
		cmocka_unit_test(test_jobs_do_not_change_order),
		cmocka_unit_test(test_default_namespace_option),
	};

	return cmocka_run_group_tests_name("ctx", tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Unit tests of a run's inputs through the public API: --require-objects,
 * directories that give nothing, FIFOs without a writer.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kvet/kvet.h"
#include "tctx.h"

static const char good[] = "apiVersion: v1\nkind: ConfigMap\n"
			   "metadata: {name: a}\n";
/* what `kubectl get` prints when nothing matches: no object at all */
static const char empty_list[] = "apiVersion: v1\nkind: List\nitems: []\n";

struct fixture {
	char dir[64];
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/kvet-inputs-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", fx->dir);
	if (system(cmd) != 0)
		return -1;
	free(fx);
	return 0;
}

static struct kvet_ctx *create(unsigned int flags)
{
	struct kvet_options opts = { .jobs = 1, .flags = flags,
				     .fifo_wait_ms = 100 };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);

	assert_non_null(ctx);
	return ctx;
}

static void add_text(struct kvet_ctx *ctx, const char *name,
		     const char *text)
{
	tctx_add(ctx, name, text);
}

static enum kvet_exit exit_code(const struct kvet_ctx *ctx)
{
	return kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, false);
}

/* Issue 10.2: an empty render passes unless objects are required. */
static void test_require_objects(void **state)
{
	struct kvet_ctx *ctx = create(0);
	const struct kvet_error *e;

	(void)state;
	add_text(ctx, "empty.yaml", empty_list);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 0);
	assert_int_equal(exit_code(ctx), KVET_EXIT_OK);
	kvet_ctx_destroy(ctx);

	ctx = create(KVET_CTX_REQUIRE_OBJECTS);
	add_text(ctx, "empty.yaml", empty_list);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 1);
	e = kvet_ctx_error(ctx, 0);
	assert_null(e->pos.file);
	assert_string_equal(e->message,
			    "no Kubernetes object in any input, and objects are required");
	assert_int_equal(exit_code(ctx), KVET_EXIT_INPUT);
	kvet_ctx_destroy(ctx);
}

/* The setter, as .kvet.yaml's requireObjects: uses it, in either order
 * with the paths; one object anywhere is enough. */
static void test_require_objects_setter(void **state)
{
	struct kvet_ctx *ctx = create(0);

	(void)state;
	add_text(ctx, "empty.yaml", empty_list);
	kvet_ctx_set_require_objects(ctx, true);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(exit_code(ctx), KVET_EXIT_INPUT);
	kvet_ctx_destroy(ctx);

	ctx = create(KVET_CTX_REQUIRE_OBJECTS);
	kvet_ctx_set_require_objects(ctx, false);
	add_text(ctx, "empty.yaml", empty_list);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(exit_code(ctx), KVET_EXIT_OK);
	kvet_ctx_destroy(ctx);

	ctx = create(KVET_CTX_REQUIRE_OBJECTS);
	add_text(ctx, "empty.yaml", empty_list);
	add_text(ctx, "cm.yaml", good);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 0);
	assert_int_equal(exit_code(ctx), KVET_EXIT_OK);
	kvet_ctx_destroy(ctx);
}

/* Issue 10.6: a directory named that gives nothing is a warning, and an
 * input error when objects are required. */
static void test_empty_directory(void **state)
{
	struct fixture *fx = *state;
	const struct kvet_notice *nt;
	struct kvet_ctx *ctx = create(0);
	const struct kvet_error *e;

	add_text(ctx, "cm.yaml", good);
	assert_int_equal(kvet_ctx_add_path(ctx, fx->dir), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 0);
	assert_int_equal(kvet_ctx_notice_count(ctx), 1);
	nt = kvet_ctx_notice(ctx, 0);
	assert_int_equal(nt->level, KVET_NOTICE_WARNING);
	assert_string_equal(nt->pos.file, fx->dir);
	assert_string_equal(nt->message,
			    "no file to lint: the directory holds no *.yaml, *.yml or *.json file");
	assert_int_equal(exit_code(ctx), KVET_EXIT_OK);
	kvet_ctx_destroy(ctx);

	ctx = create(0);
	add_text(ctx, "cm.yaml", good);
	assert_int_equal(kvet_ctx_add_path(ctx, fx->dir), 0);
	kvet_ctx_set_require_objects(ctx, true);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_notice_count(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 1);
	e = kvet_ctx_error(ctx, 0);
	assert_string_equal(e->pos.file, fx->dir);
	assert_non_null(strstr(e->message, "no file to lint"));
	assert_int_equal(exit_code(ctx), KVET_EXIT_INPUT);
	kvet_ctx_destroy(ctx);
}

static void test_everything_excluded(void **state)
{
	struct fixture *fx = *state;
	struct kvet_ctx *ctx = create(0);
	char path[256];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/a.yaml", fx->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(good, fp);
	fclose(fp);
	assert_int_equal(kvet_ctx_add_exclude(ctx, "*.yaml"), 0);
	assert_int_equal(kvet_ctx_add_path(ctx, fx->dir), 0);
	/* a file excluded by name stays silent, as it always did */
	assert_int_equal(kvet_ctx_add_path(ctx, path), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_notice_count(ctx), 1);
	assert_string_equal(kvet_ctx_notice(ctx, 0)->message,
			    "no file to lint: the configuration excludes every *.yaml, *.yml and *.json file below it");
	kvet_ctx_destroy(ctx);
}

/* Issue 11.15: a named FIFO nobody opens for writing is an input error
 * naming it, after fifo_wait_ms, not a run that never ends. */
static void test_fifo_without_writer(void **state)
{
	struct fixture *fx = *state;
	struct kvet_ctx *ctx = create(0);
	const struct kvet_error *e;
	char path[256];

	snprintf(path, sizeof(path), "%s/render.yaml", fx->dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	add_text(ctx, "cm.yaml", good);
	assert_int_equal(kvet_ctx_add_path(ctx, path), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(kvet_ctx_error_count(ctx), 1);
	e = kvet_ctx_error(ctx, 0);
	assert_string_equal(e->pos.file, path);
	assert_string_equal(e->message,
			    "cannot read: no process opened the FIFO for writing within 100 ms");
	/* the rest is still linted */
	assert_int_equal(kvet_ctx_object_count(ctx), 1);
	assert_int_equal(exit_code(ctx), KVET_EXIT_INPUT);
	kvet_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_require_objects),
		cmocka_unit_test(test_require_objects_setter),
		cmocka_unit_test_setup_teardown(test_empty_directory, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_everything_excluded,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_fifo_without_writer,
						setup, teardown),
	};

	return cmocka_run_group_tests_name("inputs", tests, NULL, NULL);
}

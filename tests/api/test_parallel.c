/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Parallel loading: files read by several threads while the caller's
 * thread reports progress, and standard input named twice. scripts/test
 * runs this file under ThreadSanitizer (suite "parallel"), so each case
 * uses files on disk, which the workers read, rather than buffers.
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
#include <sys/wait.h>
#include <unistd.h>

#include "kvet/kvet.h"

enum { NFILES = 24, DOCS = 40 };

static const char doc[] = "---\napiVersion: apps/v1\nkind: Deployment\n"
			  "metadata: {name: web%zu-%zu}\nspec:\n"
			  "  replicas: two\n";

struct fixture {
	char dir[64];
	size_t bytes;		/* of all the files */
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char path[128];
	size_t i, j;
	FILE *fp;
	int n;

	if (!fx)
		return -1;
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/kvet-par-XXXXXX");
	if (!mkdtemp(fx->dir))
		return -1;
	for (i = 0; i < NFILES; i++) {
		snprintf(path, sizeof(path), "%s/f%02zu.yaml", fx->dir, i);
		fp = fopen(path, "w");
		if (!fp)
			return -1;
		/* every third file breaks halfway */
		for (j = 0; j < DOCS; j++) {
			n = fprintf(fp, doc, i, j);
			fx->bytes += n > 0 ? (size_t)n : 0;
			if (i % 3 == 0 && j == DOCS / 2)
				fx->bytes += (size_t)fprintf(fp, "kind: [\n");
		}
		fclose(fp);
	}
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

struct seen_progress {
	struct kvet_progress last_loading;
	size_t calls;
};

static void on_progress(void *user, const struct kvet_progress *p)
{
	struct seen_progress *sp = user;

	sp->calls++;
	if (strcmp(p->stage, "loading") == 0)
		sp->last_loading = *p;
}

static struct kvet_ctx *lint_dir(const struct fixture *fx, unsigned int jobs,
				 struct seen_progress *sp)
{
	struct kvet_options opts = { .jobs = jobs };
	struct kvet_ctx *ctx;

	if (sp) {
		opts.progress = on_progress;
		opts.progress_user = sp;
	}
	ctx = kvet_ctx_create(&opts);
	assert_non_null(ctx);
	assert_int_equal(kvet_ctx_add_path(ctx, fx->dir), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	return ctx;
}

/*
 * Issue 11.14: the progress total was summed on the caller's thread while
 * the workers filled in the sources it read (a data race ThreadSanitizer
 * reports). The records must not depend on -j or on progress either.
 */
static void test_progress_while_loading(void **state)
{
	struct fixture *fx = *state;
	struct seen_progress sp = { 0 };
	struct kvet_ctx *one = lint_dir(fx, 1, NULL);
	struct kvet_ctx *many = lint_dir(fx, 4, &sp);
	size_t i;

	assert_true(sp.calls >= 2);
	assert_int_equal(sp.last_loading.files_total, NFILES);
	assert_int_equal(sp.last_loading.files_done, NFILES);
	assert_int_equal(sp.last_loading.bytes_total, fx->bytes);
	assert_int_equal(kvet_ctx_error_count(one),
			 kvet_ctx_error_count(many));
	assert_int_equal(kvet_ctx_error_count(one), NFILES / 3);
	for (i = 0; i < kvet_ctx_error_count(one); i++) {
		assert_string_equal(kvet_ctx_error(one, i)->pos.file,
				    kvet_ctx_error(many, i)->pos.file);
		assert_int_equal(kvet_ctx_error(one, i)->pos.line,
				 kvet_ctx_error(many, i)->pos.line);
	}
	assert_int_equal(kvet_ctx_finding_count(one),
			 kvet_ctx_finding_count(many));
	assert_true(kvet_ctx_finding_count(one) > NFILES * DOCS / 2);
	kvet_ctx_destroy(one);
	kvet_ctx_destroy(many);
}

/*
 * Issue 11.13: "-" twice with -j above 1 had two threads read one pipe,
 * each getting pieces of the other's documents. It is one input, read
 * once. A child writes more than a pipe holds, so that reading takes a
 * while.
 */
static void test_stdin_twice(void **state)
{
	struct kvet_options opts = { .jobs = 4 };
	struct kvet_ctx *ctx;
	struct kvet_summary sum;
	int fds[2], saved = dup(STDIN_FILENO), status;
	size_t j;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		FILE *fp = fdopen(fds[1], "w");

		close(fds[0]);
		for (j = 0; fp && j < 2000; j++)
			fprintf(fp, doc, (size_t)0, j);
		_exit(!fp || fclose(fp) != 0);
	}
	close(fds[1]);
	assert_int_equal(dup2(fds[0], STDIN_FILENO), STDIN_FILENO);
	close(fds[0]);
	ctx = kvet_ctx_create(&opts);
	assert_non_null(ctx);
	assert_int_equal(kvet_ctx_add_path(ctx, "-"), 0);
	assert_int_equal(kvet_ctx_add_path(ctx, "-"), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	if (saved >= 0) {
		dup2(saved, STDIN_FILENO);
		close(saved);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	kvet_ctx_summary(ctx, &sum);
	assert_int_equal(kvet_ctx_error_count(ctx), 0);
	assert_int_equal(sum.files, 1);
	assert_int_equal(sum.objects, 2000);
	assert_int_equal(kvet_ctx_notice_count(ctx), 1);
	assert_string_equal(kvet_ctx_notice(ctx, 0)->message,
			    "standard input is named more than once: read once");
	kvet_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_progress_while_loading,
						setup, teardown),
		cmocka_unit_test(test_stdin_twice),
	};

	return cmocka_run_group_tests_name("parallel", tests, NULL, NULL);
}

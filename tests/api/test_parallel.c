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

/*
 * One input of more than 2 MB is parsed in pieces by every thread
 * (load/split.h): a kubectl List in YAML and in JSON, a stream of
 * documents, and a List broken in its middle, which is parsed whole
 * after a piece failed. Objects, their positions and the errors must be
 * those of -j 1.
 */
enum { BIG_OBJECTS = 16000 };

static const char big_yaml_item[] =
	"- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n"
	"    name: web%zu\n    namespace: ns%zu\n  spec:\n    replicas: 3\n"
	"    selector:\n      matchLabels: {app: web%zu}\n";
static const char big_yaml_doc[] =
	"---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
	"  name: web%zu\n  namespace: ns%zu\nspec:\n  replicas: 3\n"
	"  selector:\n    matchLabels: {app: web%zu}\n";
static const char big_json_item[] =
	"        {\n            \"apiVersion\": \"apps/v1\",\n"
	"            \"kind\": \"Deployment\",\n            \"metadata\": "
	"{\"name\": \"web%zu\", \"namespace\": \"ns%zu\"},\n"
	"            \"spec\": {\"replicas\": 3, \"selector\": "
	"{\"matchLabels\": {\"app\": \"web%zu\"}}}\n        }%s\n";

static void write_big(const char *path, int layout)
{
	FILE *fp = fopen(path, "w");
	size_t i;

	assert_non_null(fp);
	if (layout == 0 || layout == 3)
		fputs("apiVersion: v1\nitems:\n", fp);
	else if (layout == 1)
		fputs("{\n    \"apiVersion\": \"v1\",\n    \"items\": [\n", fp);
	for (i = 0; i < BIG_OBJECTS; i++) {
		if (layout == 1)
			fprintf(fp, big_json_item, i, i % 7, i,
				i + 1 < BIG_OBJECTS ? "," : "");
		else if (layout == 2)
			fprintf(fp, big_yaml_doc, i, i % 7, i);
		else
			fprintf(fp, big_yaml_item, i, i % 7, i);
		if (layout == 3 && i == BIG_OBJECTS / 2)
			fputs("- kind: [\n", fp);
	}
	if (layout == 0 || layout == 3)
		fputs("kind: List\nmetadata:\n  resourceVersion: \"\"\n", fp);
	else if (layout == 1)
		fputs("    ],\n    \"kind\": \"List\"\n}\n", fp);
	assert_int_equal(fclose(fp), 0);
}

static struct kvet_ctx *lint_file(const char *path, unsigned int jobs,
				  struct seen_progress *sp)
{
	/* the loader is what runs in parallel: no rule, which ThreadSanitizer
	 * would make slow */
	struct kvet_options opts = { .jobs = jobs,
				     .flags = KVET_CTX_NO_BUILTIN_RULES };
	struct kvet_ctx *ctx;

	if (sp) {
		opts.progress = on_progress;
		opts.progress_user = sp;
	}
	ctx = kvet_ctx_create(&opts);
	assert_non_null(ctx);
	assert_int_equal(kvet_ctx_add_path(ctx, path), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	return ctx;
}

static void test_one_file_in_pieces(void **state)
{
	struct fixture *fx = *state;
	char path[128];
	int layout;

	for (layout = 0; layout < 4; layout++) {
		struct seen_progress sp = { 0 };
		struct kvet_ctx *one, *many;
		struct kvet_summary sum;
		size_t i;

		snprintf(path, sizeof(path), "%s/big%d.%s", fx->dir, layout,
			 layout == 1 ? "json" : "yaml");
		write_big(path, layout);
		one = lint_file(path, 1, NULL);
		many = lint_file(path, 4, &sp);
		kvet_ctx_summary(many, &sum);
		/* the error costs the List, the only document */
		assert_int_equal(sum.objects, layout == 3 ? 0 : BIG_OBJECTS);
		assert_int_equal(sp.last_loading.files_done, 1);
		assert_int_equal(kvet_ctx_error_count(one),
				 kvet_ctx_error_count(many));
		assert_int_equal(kvet_ctx_error_count(one), layout == 3);
		for (i = 0; i < kvet_ctx_error_count(one); i++) {
			assert_int_equal(kvet_ctx_error(one, i)->pos.line,
					 kvet_ctx_error(many, i)->pos.line);
			assert_string_equal(kvet_ctx_error(one, i)->message,
					    kvet_ctx_error(many, i)->message);
		}
		assert_int_equal(kvet_ctx_object_count(one), sum.objects);
		for (i = 0; i < sum.objects; i++) {
			struct kvet_object_ref a, b;

			assert_int_equal(kvet_ctx_object(one, i, &a), 0);
			assert_int_equal(kvet_ctx_object(many, i, &b), 0);
			assert_string_equal(a.name, b.name);
			assert_string_equal(a.namespace, b.namespace);
			assert_int_equal(a.pos.line, b.pos.line);
			assert_int_equal(a.pos.column, b.pos.column);
		}
		kvet_ctx_destroy(one);
		kvet_ctx_destroy(many);
	}
}

/*
 * The rules run in blocks of objects on every thread (api/lint.c): the
 * findings, their order and their messages must be those of -j 1.
 */
static void test_rules_in_blocks(void **state)
{
	struct fixture *fx = *state;
	struct kvet_options one_opts = { .jobs = 1 }, many_opts = { .jobs = 4 };
	struct kvet_ctx *one, *many;
	char path[128];
	FILE *fp;
	size_t i;

	snprintf(path, sizeof(path), "%s/rules.yaml", fx->dir);
	fp = fopen(path, "w");
	assert_non_null(fp);
	/* workloads, a few with a PDB that selects two of them */
	for (i = 0; i < 2100; i++) {
		fprintf(fp, big_yaml_doc, i, i % 5, i / 3);
		if (i % 50 == 0)
			fprintf(fp, "---\napiVersion: policy/v1\n"
				"kind: PodDisruptionBudget\nmetadata:\n"
				"  name: pdb%zu\n  namespace: ns%zu\nspec:\n"
				"  minAvailable: 3\n  selector:\n"
				"    matchLabels: {app: web%zu}\n", i, i % 5,
				i / 3);
	}
	assert_int_equal(fclose(fp), 0);
	one = kvet_ctx_create(&one_opts);
	many = kvet_ctx_create(&many_opts);
	assert_non_null(one);
	assert_non_null(many);
	assert_int_equal(kvet_ctx_add_path(one, path), 0);
	assert_int_equal(kvet_ctx_add_path(many, path), 0);
	assert_int_equal(kvet_ctx_run(one), 0);
	assert_int_equal(kvet_ctx_run(many), 0);
	assert_true(kvet_ctx_finding_count(one) > 2100);
	assert_int_equal(kvet_ctx_finding_count(one),
			 kvet_ctx_finding_count(many));
	for (i = 0; i < kvet_ctx_finding_count(one); i++) {
		const struct kvet_finding *a = kvet_ctx_finding(one, i);
		const struct kvet_finding *b = kvet_ctx_finding(many, i);
		size_t k;

		assert_string_equal(a->rule, b->rule);
		assert_int_equal(kvet_finding_message_cmp(a, b), 0);
		assert_int_equal(a->pos.line, b->pos.line);
		assert_int_equal(a->pos.column, b->pos.column);
		assert_int_equal(a->n_related, b->n_related);
		for (k = 0; k < a->n_related; k++)
			assert_string_equal(a->related[k].name,
					    b->related[k].name);
	}
	kvet_ctx_destroy(one);
	kvet_ctx_destroy(many);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_progress_while_loading,
						setup, teardown),
		cmocka_unit_test(test_stdin_twice),
		cmocka_unit_test_setup_teardown(test_one_file_in_pieces,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_rules_in_blocks,
						setup, teardown),
	};

	return cmocka_run_group_tests_name("parallel", tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "api/context.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/arena.h"
#include "base/diag.h"
#include "model/graph.h"
#include "findings/findings.h"
#include "rules/rules.h"

/*
 * The rules run on the graph's objects in parallel: each thread takes a
 * block of consecutive objects with a runner, an arena, a findings list
 * and an error list of its own, and the graph, the objects and the rule
 * set are only read. The blocks' findings are joined in block order,
 * which is the order one thread makes, and then sorted as always, so the
 * report does not depend on -j. Evaluation errors are numbered and
 * capped per rule over the whole run (KVET_RULE_ERRORS_LISTED): when any
 * block had one, the rules run again on one thread, which is rare and
 * keeps that bookkeeping exact.
 */

enum {
	/* fewer objects than this per thread are not worth one */
	MIN_BLOCK = 512,
	MAX_BLOCKS = 64,
};

struct block {
	struct kvet_ctx *ctx;
	struct kvet_object *const *objs;
	size_t from, to;		/* objects [from, to) */
	struct kvet_arena arena;
	struct kvet_findings findings;
	struct kvet_diag diag;
	size_t errors;			/* evaluation errors */
	atomic_size_t *done;		/* objects done by every block */
	int failed;			/* out of memory */
};

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Report linting progress at most ten times a second, and at the end. */
static void lint_progress(struct kvet_ctx *ctx, size_t done, size_t total,
			  double *last)
{
	struct kvet_progress p = { .stage = "linting" };
	double now;

	if (!ctx->opts.progress)
		return;
	if (done != total && (done & 1023))
		return;
	now = seconds();
	if (done != total && now - *last < 0.1)
		return;
	*last = now;
	p.files_done = p.files_total = ctx->nunits;
	p.objects_done = done;
	p.objects_total = total;
	ctx->opts.progress(ctx->opts.progress_user, &p);
}

/*
 * Run every rule on the objects of @b; @report: this is the caller's
 * thread, which reports progress for all the blocks.
 */
static void run_block(struct block *b, bool report, size_t total)
{
	struct kvet_ctx *ctx = b->ctx;
	struct kvet_rule_runner *runner;
	double last = 0;
	size_t i, u = 0;

	runner = kvet_rule_runner_create(&ctx->rules, ctx->graph, &b->arena,
					 &b->findings, &b->diag);
	if (!runner) {
		b->failed = 1;
		return;
	}
	for (i = b->from; i < b->to; i++) {
		/* the unit of the object's file: objects are in input order */
		while (u < ctx->nunits &&
		       ctx->units[u].src->name != b->objs[i]->file)
			u++;
		if (kvet_rule_runner_object(runner, b->objs[i], u) < 0) {
			b->failed = 1;
			break;
		}
		atomic_fetch_add_explicit(b->done, 1, memory_order_relaxed);
		if (report)
			lint_progress(ctx, atomic_load_explicit(
					      b->done, memory_order_relaxed),
				      total, &last);
	}
	if (!b->failed && kvet_rule_runner_finish(runner) < 0)
		b->failed = 1;
	b->errors = kvet_rule_runner_errors(runner);
	kvet_rule_runner_destroy(runner);
}

static void *block_thread(void *arg)
{
	struct block *b = arg;

	run_block(b, false, 0);
	return NULL;
}

static void block_release(struct block *b)
{
	kvet_findings_release(&b->findings);
	kvet_diag_release(&b->diag);
	kvet_arena_release(&b->arena);
}

/* Run the rules on @n objects in @nb blocks; 1 when done, 0 when they
 * must run on one thread (an evaluation error), -1 when out of memory. */
static int run_blocks(struct kvet_ctx *ctx, struct kvet_object *const *objs,
		      size_t n, size_t nb)
{
	struct block *b = calloc(nb, sizeof(*b));
	pthread_t threads[MAX_BLOCKS];
	bool started[MAX_BLOCKS] = { false };
	atomic_size_t done = 0;
	size_t i, errors = 0;
	double last;
	int ret = -1;

	if (!b)
		return -1;
	for (i = 0; i < nb; i++) {
		b[i].ctx = ctx;
		b[i].objs = objs;
		b[i].from = n * i / nb;
		b[i].to = n * (i + 1) / nb;
		b[i].done = &done;
		kvet_arena_init(&b[i].arena);
		kvet_findings_init(&b[i].findings, &b[i].arena);
		kvet_diag_init(&b[i].diag, &b[i].arena);
	}
	for (i = 1; i < nb; i++)
		started[i] = pthread_create(&threads[i], NULL, block_thread,
					    &b[i]) == 0;
	run_block(&b[0], true, n);
	/* a block no thread took runs here */
	for (i = 1; i < nb; i++)
		if (!started[i])
			run_block(&b[i], false, 0);
	for (i = 1; i < nb; i++)
		if (started[i])
			pthread_join(threads[i], NULL);
	/* the caller's block may end first: the last report is here */
	last = 0;
	lint_progress(ctx, n, n, &last);
	for (i = 0; i < nb; i++) {
		if (b[i].failed || b[i].findings.oom || b[i].diag.oom)
			goto out;
		errors += b[i].errors + b[i].diag.n;
	}
	if (errors) {
		ret = 0;
		goto out;
	}
	for (i = 0; i < nb; i++) {
		if (kvet_findings_append(&ctx->findings, &b[i].findings) < 0)
			goto out;
		kvet_arena_adopt(&ctx->arena, &b[i].arena);
	}
	ret = 1;
out:
	for (i = 0; i < nb; i++)
		block_release(&b[i]);
	free(b);
	return ret;
}

/* The rules on one thread, with the run's arena, findings and errors. */
static int run_serial(struct kvet_ctx *ctx, struct kvet_object *const *objs,
		      size_t n)
{
	struct kvet_rule_runner *runner;
	double last = 0;
	size_t i, u = 0;
	int ret = -1;

	runner = kvet_rule_runner_create(&ctx->rules, ctx->graph, &ctx->arena,
					 &ctx->findings, &ctx->diag);
	if (!runner)
		return -1;
	for (i = 0; i < n; i++) {
		while (u < ctx->nunits &&
		       ctx->units[u].src->name != objs[i]->file)
			u++;
		if (kvet_rule_runner_object(runner, objs[i], u) < 0)
			goto out;
		lint_progress(ctx, i + 1, n, &last);
	}
	if (kvet_rule_runner_finish(runner) < 0)
		goto out;
	ctx->rule_errors += kvet_rule_runner_errors(runner);
	ret = 0;
out:
	kvet_rule_runner_destroy(runner);
	return ret;
}

int kvet_ctx_run_rules_unit(struct kvet_ctx *ctx)
{
	const struct kvet_check *c[KVET_MAX_C_CHECKS];
	const struct kvet_graph_config *cfg;
	struct kvet_object *const *objs;
	size_t i, n, nb, nc;
	int rc = 0;

	if (ctx->rules.n) {
		/* the graph's objects: input order, duplicates and Helm
		 * tests left out */
		objs = kvet_graph_objects(ctx->graph, &n);
		cfg = kvet_graph_config(ctx->graph);
		if (kvet_rule_set_compile(&ctx->rules, objs, n,
					  cfg->custom_workloads,
					  cfg->n_custom_workloads))
			return -1;
		nb = kvet_ctx_jobs(&ctx->opts);
		if (nb > n / MIN_BLOCK)
			nb = n / MIN_BLOCK;
		if (nb > MAX_BLOCKS)
			nb = MAX_BLOCKS;
		if (nb > 1)
			rc = run_blocks(ctx, objs, n, nb);
		if (rc < 0)
			return -1;
		if (rc == 0 && run_serial(ctx, objs, n) < 0)
			return -1;
	}
	/* the roll reads the whole graph, on this thread, after the rules */
	nc = kvet_ctx_checks_at(ctx, KVET_CHECK_PER_RUN, c);
	for (i = 0; i < nc; i++)
		if (c[i]->run.run(ctx) < 0)
			return -1;
	return 0;
}

int kvet_ctx_finish_rules(struct kvet_ctx *ctx)
{
	kvet_findings_sort(&ctx->findings);
	if (ctx->findings.oom || kvet_ctx_map_templates(ctx) < 0)
		return -1;
	kvet_ctx_name_units(ctx);
	return kvet_ctx_apply_settings(ctx) < 0 ? -1 : 0;
}

int kvet_ctx_run_rules(struct kvet_ctx *ctx)
{
	if (kvet_ctx_run_rules_unit(ctx) < 0)
		return -1;
	return kvet_ctx_finish_rules(ctx);
}

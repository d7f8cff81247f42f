/* SPDX-License-Identifier: Apache-2.0 */
#include "api/context.h"

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
 * The rules run on the graph's objects on every thread (pass.c): each
 * lane has a runner of its own, and the graph, the objects and the rule
 * set are only read. The findings come out in the order one thread
 * makes, and are then sorted as always, so the report does not depend on
 * -j. Evaluation errors are numbered and capped per rule over the whole
 * run (KVET_RULE_ERRORS_LISTED): when any lane had one, the rules run
 * again on one thread, which is rare and keeps that bookkeeping exact.
 */

enum {
	/* fewer objects than this per thread are not worth one */
	MIN_BLOCK = 512,
};

/* What the rules' lanes share: objects done, for the progress. */
struct rules_pass {
	atomic_size_t done;
	size_t total;
	double last;			/* of the caller's thread */
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

static int rules_open(struct kvet_pass_lane *lane, void *arg)
{
	struct kvet_ctx *ctx = lane->ctx;

	(void)arg;
	lane->state = kvet_rule_runner_create(&ctx->rules, ctx->graph,
					      &lane->arena, &lane->findings,
					      &lane->diag);
	return lane->state ? 0 : -1;
}

static int rules_object(struct kvet_pass_lane *lane,
			const struct kvet_object *obj, size_t unit, void *arg)
{
	struct rules_pass *rp = arg;
	size_t done;

	if (kvet_rule_runner_object(lane->state, obj, unit) < 0)
		return -1;
	done = atomic_fetch_add_explicit(&rp->done, 1,
					 memory_order_relaxed) + 1;
	/* the caller's thread reports progress for every lane */
	if (lane->first)
		lint_progress(lane->ctx, done, rp->total, &rp->last);
	return 0;
}

static int rules_close(struct kvet_pass_lane *lane, void *arg)
{
	int ret = 0;

	(void)arg;
	if (!lane->state)
		return 0;
	if (kvet_rule_runner_finish(lane->state) < 0)
		ret = -1;
	lane->errors = kvet_rule_runner_errors(lane->state);
	kvet_rule_runner_destroy(lane->state);
	lane->state = NULL;
	return ret;
}

/* Run the rules on @n objects on @nb threads; 1 when done, 0 when they
 * must run on one thread (an evaluation error), -1 when out of memory. */
static int run_blocks(struct kvet_ctx *ctx, struct kvet_object *const *objs,
		      size_t n, size_t nb)
{
	struct rules_pass rp = { .total = n };
	const struct kvet_pass pass = {
		.open = rules_open,
		.object = rules_object,
		.close = rules_close,
		.arg = &rp,
	};
	double last = 0;
	int ret;

	atomic_init(&rp.done, 0);
	ret = kvet_ctx_run_pass(ctx, objs, n, nb, &pass);
	/* the caller's lane may end first: the last report is here */
	lint_progress(ctx, n, n, &last);
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
		u = kvet_ctx_unit_from(ctx, u, objs[i]);
		if (kvet_rule_runner_object(runner, objs[i], u) < 0)
			goto out;
		lint_progress(ctx, i + 1, n, &last);
	}
	if (kvet_rule_runner_finish(runner) < 0)
		goto out;
	ctx->lint.rule_errors += kvet_rule_runner_errors(runner);
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
		nb = kvet_ctx_pass_lanes(ctx, n, MIN_BLOCK);
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

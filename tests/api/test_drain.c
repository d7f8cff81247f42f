/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet drain through the public API, as a program linking libkvet sees
 * it: a drain context, its plan, node verdicts that point at findings,
 * the drain checks as the context's rules, settings and suppressions.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "kvet/kvet.h"

/* Two nodes; web has its 2 replicas on a1, no budget, and a Service. */
static const char dump[] =
	"apiVersion: v1\nkind: Node\nmetadata: {name: a1}\n"
	"status: {allocatable: {cpu: \"4\", pods: \"110\"}}\n---\n"
	"apiVersion: v1\nkind: Node\nmetadata: {name: b1}\n"
	"status: {allocatable: {cpu: \"4\", pods: \"110\"}}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: web-1, namespace: shop,"
	" labels: {app: web}, ownerReferences: [{apiVersion: apps/v1, kind:"
	" ReplicaSet, name: web-rs, controller: true}]}\n"
	"spec: {nodeName: a1, containers: [{name: c}]}\n"
	"status: {phase: Running, conditions: [{type: Ready, status: \"True\"}]}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: web-2, namespace: shop,"
	" labels: {app: web}, ownerReferences: [{apiVersion: apps/v1, kind:"
	" ReplicaSet, name: web-rs, controller: true}]}\n"
	"spec: {nodeName: a1, containers: [{name: c}]}\n"
	"status: {phase: Running, conditions: [{type: Ready, status: \"True\"}]}\n---\n"
	"apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: shop}\n"
	"spec: {selector: {app: web}}\n";

static const char pod_only[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n";

static struct kvet_ctx *drain_ctx(const struct kvet_drain_options *o,
				  const char *off)
{
	struct kvet_options opts = { .flags = KVET_CTX_DRAIN, .jobs = 1 };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);

	assert_non_null(ctx);
	if (off)
		assert_int_equal(kvet_ctx_set_rule_enabled(ctx, off, false), 0);
	if (o)
		assert_int_equal(kvet_ctx_set_drain(ctx, o), 0);
	assert_int_equal(kvet_ctx_add_buffer(ctx, "dump.yaml", dump,
					     strlen(dump)), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_true(kvet_ctx_drain_ran(ctx));
	return ctx;
}

static void each_node(void **state)
{
	struct kvet_ctx *ctx = drain_ctx(NULL, NULL);
	const struct kvet_drain_node *a1, *b1;
	const struct kvet_finding *f;

	(void)state;
	assert_int_equal(kvet_ctx_drain_plan(ctx), KVET_DRAIN_EACH_NODE);
	assert_int_equal(kvet_ctx_drain_node_count(ctx), 2);
	a1 = kvet_ctx_drain_node(ctx, 0);
	b1 = kvet_ctx_drain_node(ctx, 1);
	assert_string_equal(a1->node.name, "a1");
	assert_int_equal(a1->node.pos.line, 1);
	/* no budget: kubectl evicts both at once, and the Service is left
	 * without endpoint until the replacements run on b1 */
	assert_int_equal(a1->verdict, KVET_DRAIN_WARNINGS);
	assert_int_equal(a1->evicted, 2);
	assert_int_equal(a1->n_findings, 1);
	f = kvet_ctx_finding(ctx, a1->findings[0]);
	assert_string_equal(f->rule, "drain-service-outage");
	assert_string_equal(f->related[0].kind, "Node");
	assert_string_equal(f->related[0].name, "a1");
	assert_int_equal(b1->verdict, KVET_DRAIN_DRAINS);
	assert_int_equal(b1->n_findings, 0);
	assert_string_equal(kvet_drain_verdict_name(a1->verdict),
			    "drains-with-warnings");
	/* the context's rules are the drain checks */
	assert_non_null(kvet_ctx_rule_find(ctx, "drain-eviction-blocked"));
	assert_null(kvet_ctx_rule_find(ctx, "pdb-zero-disruptions"));
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, false),
			 KVET_EXIT_FINDINGS);
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_ERROR, false),
			 KVET_EXIT_OK);
	kvet_ctx_destroy(ctx);
}

static void settings_apply(void **state)
{
	struct kvet_ctx *ctx = drain_ctx(NULL, "drain-service-outage");

	(void)state;
	assert_int_equal(kvet_ctx_finding_count(ctx), 0);
	assert_int_equal(kvet_ctx_drain_node(ctx, 0)->verdict,
			 KVET_DRAIN_DRAINS);
	kvet_ctx_destroy(ctx);
}

static void rolling_by_name(void **state)
{
	struct kvet_drain_options o = {
		.plan = KVET_DRAIN_ROLLING,
		.order = KVET_DRAIN_ORDER_GIVEN,
		.nodes = "b1,a1",
	};
	struct kvet_ctx *ctx = drain_ctx(&o, NULL);
	const struct kvet_drain_step *st;

	(void)state;
	assert_int_equal(kvet_ctx_drain_step_count(ctx), 2);
	st = kvet_ctx_drain_step(ctx, 0);
	assert_int_equal(st->index, 1);
	assert_string_equal(st->nodes[0], "b1");
	assert_false(st->stalled);
	assert_int_equal(kvet_ctx_drain_node(ctx, 1)->step, 2);
	kvet_ctx_destroy(ctx);
}

static void refusals(void **state)
{
	struct kvet_drain_options o = { .nodes = "zone in (a" };
	struct kvet_options lint = { .jobs = 1 };
	struct kvet_ctx *ctx = kvet_ctx_create(&lint);

	(void)state;
	/* a lint context has no drain */
	assert_int_equal(kvet_ctx_set_drain(ctx, &o), -1);
	assert_false(kvet_ctx_drain_ran(ctx));
	assert_null(kvet_ctx_rule_find(ctx, "drain-eviction-blocked"));
	kvet_ctx_destroy(ctx);
	lint.flags = KVET_CTX_DRAIN;
	ctx = kvet_ctx_create(&lint);
	assert_int_equal(kvet_ctx_set_drain(ctx, &o), -1);
	assert_int_equal(kvet_ctx_rule_error_count(ctx), 1);
	assert_non_null(strstr(kvet_ctx_rule_error(ctx, 0)->message,
			       "invalid node selector 'zone in (a'"));
	kvet_ctx_destroy(ctx);
	/* no Nodes: an input error, and no drain */
	ctx = kvet_ctx_create(&lint);
	assert_int_equal(kvet_ctx_add_buffer(ctx, "d.yaml", pod_only,
					     strlen(pod_only)), 0);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_false(kvet_ctx_drain_ran(ctx));
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, false),
			 KVET_EXIT_INPUT);
	kvet_ctx_destroy(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_node),
		cmocka_unit_test(settings_apply),
		cmocka_unit_test(rolling_by_name),
		cmocka_unit_test(refusals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

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

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kvet/kvet.h"
#include "tctx.h"
#include "../rules/banned_terms.h"

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

/* a dump's Pod (bound to a node) without its Node */
static const char pod_only[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
			       "spec: {nodeName: n1}\n";
/* a manifest's bare Pod: no nodeName, no status */
static const char bare_pod[] = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n";

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
	tctx_add(ctx, "dump.yaml", dump);
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
	tctx_add(ctx, "d.yaml", pod_only);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_false(kvet_ctx_drain_ran(ctx));
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, false),
			 KVET_EXIT_INPUT);
	kvet_ctx_destroy(ctx);
	/* a manifest's bare Pod is no dump: it is drained on the pool */
	ctx = kvet_ctx_create(&lint);
	tctx_add(ctx, "m.yaml", bare_pod);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_true(kvet_ctx_drain_ran(ctx));
	kvet_ctx_destroy(ctx);
}

/* Rendered manifests: a Deployment of 1 replica under minAvailable 1. */
static const char chart[] =
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: mgr,"
	" namespace: ops}\nspec: {selector: {matchLabels: {app: mgr}},"
	" template: {metadata: {labels: {app: mgr}}, spec: {containers:"
	" [{name: c}]}}}\n---\n"
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name:"
	" mgr, namespace: ops}\nspec: {minAvailable: 1, selector:"
	" {matchLabels: {app: mgr}}}\n";

static void pool_options(void **state)
{
	struct kvet_options opts = { .jobs = 1 };
	const char *labels[] = { "pool=apps" }, *bad[] = { "pool" };
	const char *taints[] = { "dedicated=apps:NoSchedule" };
	struct kvet_pool_options p = { .nodes = 2, .zones = 1, .cpu = "2",
				       .memory = "8Gi", .pods = 30,
				       .labels = labels, .n_labels = 1,
				       .taints = taints, .n_taints = 1 };
	struct kvet_pool_options q = { .cpu = "lots" };
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);
	unsigned int n, z;

	(void)state;
	assert_int_equal(kvet_pool_parse_size("6x2", &n, &z), 0);
	assert_int_equal(n, 6);
	assert_int_equal(z, 2);
	assert_int_equal(kvet_pool_parse_size("2x3", &n, &z), -1);
	assert_int_equal(kvet_pool_parse_size("3x", &n, &z), -1);
	assert_int_equal(kvet_pool_parse_size("0x0", &n, &z), -1);
	assert_int_equal(kvet_pool_parse_size("1001x1", &n, &z), -1);
	assert_int_equal(kvet_ctx_set_pool(ctx, &p), 0);
	assert_int_equal(kvet_ctx_set_pool(ctx, &q), -1);
	assert_non_null(strstr(kvet_ctx_rule_error(ctx, 0)->message,
			       "invalid node CPU 'lots'"));
	memset(&q, 0, sizeof(q));
	q.labels = bad;
	q.n_labels = 1;
	assert_int_equal(kvet_ctx_set_pool(ctx, &q), -1);
	assert_non_null(strstr(kvet_ctx_rule_error(ctx, 1)->message,
			       "invalid node label 'pool'"));
	kvet_ctx_destroy(ctx);
}

/* kvet drain on rendered manifests uses the pool; on a dump a pool is
 * refused; kvet lint's roll finds the stall at the budget. */
static void pool_runs(void **state)
{
	struct kvet_options opts = { .flags = KVET_CTX_DRAIN, .jobs = 1 };
	struct kvet_drain_options o = { .plan = KVET_DRAIN_ROLLING };
	struct kvet_pool_options p = { .nodes = 2, .zones = 1 };
	const struct kvet_drain_pool *info;
	const struct kvet_finding *f;
	struct kvet_ctx *ctx = kvet_ctx_create(&opts);
	size_t i, n = 0;

	(void)state;
	assert_int_equal(kvet_ctx_set_drain(ctx, &o), 0);
	assert_int_equal(kvet_ctx_set_pool(ctx, &p), 0);
	tctx_add(ctx, "c.yaml", chart);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	info = kvet_ctx_drain_pool(ctx);
	assert_non_null(info);
	assert_int_equal(info->nodes, 2);
	assert_int_equal(info->cpu, 3920);
	assert_int_equal(info->pods_placed, 1);
	assert_int_equal(kvet_ctx_drain_step_count(ctx), 1);
	assert_true(kvet_ctx_drain_step(ctx, 0)->stalled);
	assert_string_equal(kvet_ctx_drain_node(ctx, 0)->node.name, "node-1");
	kvet_ctx_destroy(ctx);

	ctx = kvet_ctx_create(&opts);
	assert_int_equal(kvet_ctx_set_pool(ctx, &p), 0);
	tctx_add(ctx, "dump.yaml", dump);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_false(kvet_ctx_drain_ran(ctx));
	assert_null(kvet_ctx_drain_pool(ctx));
	assert_int_equal(kvet_ctx_exit_code(ctx, KVET_SEV_WARNING, false),
			 KVET_EXIT_INPUT);
	kvet_ctx_destroy(ctx);

	/* pdb-blocks-single-replica, which would tell the stall, at
	 * warning: the stall is a finding of its own */
	opts.flags = 0;
	ctx = kvet_ctx_create(&opts);
	assert_int_equal(kvet_ctx_set_rule_severity(
				 ctx, "pdb-blocks-single-replica",
				 KVET_SEV_WARNING), 0);
	tctx_add(ctx, "c.yaml", chart);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	for (i = 0; i < kvet_ctx_finding_count(ctx); i++) {
		f = kvet_ctx_finding(ctx, i);
		if (strcmp(f->rule, "rolling-upgrade-stalls"))
			continue;
		n++;
		assert_int_equal(f->pos.line, 9);
		assert_string_equal(f->object.kind, "PodDisruptionBudget");
	}
	assert_int_equal(n, 1);
	kvet_ctx_destroy(ctx);

	/* a dump: the roll is kvet drain's, the lint check stays silent */
	ctx = kvet_ctx_create(&opts);
	tctx_add(ctx, "dump.yaml", dump);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	for (i = 0; i < kvet_ctx_finding_count(ctx); i++)
		assert_string_not_equal(kvet_ctx_finding(ctx, i)->rule,
					"rolling-upgrade-stalls");
	kvet_ctx_destroy(ctx);
}

/*
 * One manifest set per kind of stall the lint check reports: a budget
 * with no room, a fail-closed webhook that rejects its own backend's
 * replacement (and so the Deployment whose replacement it rejects), a
 * bare Pod kubectl refuses, a pod no node takes at install, and pods the
 * pool has no room for (one finding for both workloads).
 */
static const char *const stalls[] = {
	chart,

	"apiVersion: admissionregistration.k8s.io/v1\n"
	"kind: MutatingWebhookConfiguration\nmetadata: {name: guard}\n"
	"webhooks:\n- name: pods.guard.example.com\n"
	"  admissionReviewVersions: [v1]\n  sideEffects: None\n"
	"  failurePolicy: Fail\n"
	"  clientConfig: {service: {name: guard, namespace: guard}}\n"
	"  rules: [{apiGroups: [\"\"], apiVersions: [v1],"
	" operations: [CREATE], resources: [pods]}]\n---\n"
	"apiVersion: v1\nkind: Service\nmetadata: {name: guard,"
	" namespace: guard}\nspec: {selector: {app: guard},"
	" ports: [{port: 443}]}\n---\n"
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: guard,"
	" namespace: guard}\nspec: {selector: {matchLabels: {app: guard}},"
	" template: {metadata: {labels: {app: guard}}, spec: {containers:"
	" [{name: c}]}}}\n",

	"apiVersion: v1\nkind: Pod\nmetadata: {name: debug, namespace: ops}\n"
	"spec: {containers: [{name: c}]}\n",

	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api,"
	" namespace: shop}\nspec:\n  replicas: 4\n"
	"  selector: {matchLabels: {app: api}}\n  template:\n"
	"    metadata: {labels: {app: api}}\n    spec:\n"
	"      containers: [{name: c}]\n      affinity:\n"
	"        podAntiAffinity:\n"
	"          requiredDuringSchedulingIgnoredDuringExecution:\n"
	"          - labelSelector: {matchLabels: {app: api}}\n"
	"            topologyKey: kubernetes.io/hostname\n",

	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: big,"
	" namespace: a}\nspec: {replicas: 4, selector: {matchLabels: {app:"
	" big}}, template: {metadata: {labels: {app: big}}, spec: {containers:"
	" [{name: c, resources: {requests: {cpu: \"3\"}}}]}}}\n---\n"
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: bigger,"
	" namespace: b}\nspec: {replicas: 2, selector: {matchLabels: {app:"
	" bigger}}, template: {metadata: {labels: {app: bigger}}, spec:"
	" {containers: [{name: c, resources: {requests: {cpu: \"3\"}}}]}}}\n",
};

/* @f's headline, reason and help read as every built-in rule's do
 * (tests/rules/run_examples.c): short headline, no internal terms. */
static void check_words(const struct kvet_finding *f, const regex_t *re)
{
	const char *const words[] = { f->headline, f->reason, f->help };
	const char *h = f->headline;
	size_t chars = 0, w, k;

	assert_non_null(h);
	for (; *h; h++)
		chars += ((unsigned char)*h & 0xc0) != 0x80;
	if (chars > KVET_HEADLINE_MAX)
		fail_msg("headline of %zu characters: %s", chars, f->headline);
	for (w = 0; w < 3; w++) {
		if (!words[w] || !*words[w])
			fail_msg("%s finding without its %s: %s", f->rule,
				 w == 1 ? "reason" : "help", f->headline);
		for (k = 0; k < N_BANNED; k++)
			if (!regexec(&re[k], words[w], 0, NULL, 0))
				fail_msg("internal term /%s/ in: %s",
					 banned[k], words[w]);
	}
}

static void compile_banned(regex_t *re)
{
	size_t k;

	for (k = 0; k < N_BANNED; k++)
		assert_int_equal(regcomp(&re[k], banned[k],
					 REG_EXTENDED | REG_NOSUB), 0);
}

static void free_banned(regex_t *re)
{
	size_t k;

	for (k = 0; k < N_BANNED; k++)
		regfree(&re[k]);
}

/* The rules whose error findings tell a stall of their cause. */
static const char *const tellers[] = {
	"pdb-blocks-single-replica", "pdb-zero-disruptions",
	"webhook-self-deadlock", "webhook-fail-single-backend",
};

/* The words of each rolling-upgrade-stalls finding of kvet lint, the
 * rules that would tell a stall as their own finding's consequence off. */
static void roll_words(void **state)
{
	struct kvet_options opts = { .jobs = 1 };
	regex_t re[N_BANNED];
	size_t i, j, k, n = 0, per[5] = { 0 };

	(void)state;
	compile_banned(re);
	for (i = 0; i < sizeof(stalls) / sizeof(stalls[0]); i++) {
		struct kvet_ctx *ctx = kvet_ctx_create(&opts);

		for (k = 0; k < sizeof(tellers) / sizeof(tellers[0]); k++)
			assert_int_equal(kvet_ctx_set_rule_enabled(
						 ctx, tellers[k], false), 0);
		tctx_add(ctx, "c.yaml", stalls[i]);
		assert_int_equal(kvet_ctx_run(ctx), 0);
		for (j = 0; j < kvet_ctx_finding_count(ctx); j++) {
			const struct kvet_finding *f = kvet_ctx_finding(ctx, j);

			if (strcmp(f->rule, "rolling-upgrade-stalls"))
				continue;
			n++;
			per[i]++;
			check_words(f, re);
		}
		kvet_ctx_destroy(ctx);
	}
	/* the budget; the webhook and the Deployment it rejects; the Pod;
	 * the anti-affinity; one finding for both workloads with no room */
	assert_int_equal(per[0], 1);
	assert_int_equal(per[1], 2);
	assert_int_equal(per[2], 1);
	assert_int_equal(per[3], 1);
	assert_int_equal(per[4], 1);
	assert_int_equal(n, 6);
	free_banned(re);
}

/* How many findings of @rule @ctx reports; the first in *@first. */
static size_t count_rule(const struct kvet_ctx *ctx, const char *rule,
			 const struct kvet_finding **first)
{
	size_t i, n = 0;

	*first = NULL;
	for (i = 0; i < kvet_ctx_finding_count(ctx); i++)
		if (!strcmp(kvet_ctx_finding(ctx, i)->rule, rule) && !n++)
			*first = kvet_ctx_finding(ctx, i);
	return n;
}

/* Does @f relate the pool's node @name? */
static bool relates_node(const struct kvet_finding *f, const char *name)
{
	size_t i;

	for (i = 0; i < f->n_related; i++)
		if (!strcmp(f->related[i].kind, "Node") &&
		    !strcmp(f->related[i].name, name))
			return true;
	return false;
}

/*
 * One cause, one error: the stall a budget or a webhook causes is told
 * by the error finding of that budget or webhook, with the step and the
 * node, and is no rolling-upgrade-stalls error of its own; it is one
 * when that finding is not an error, and stays held back when the budget
 * ignores rolling-upgrade-stalls.
 */
static void roll_told_by_cause(void **state)
{
	static const char annotated[] =
		"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: mgr,"
		" namespace: ops}\nspec: {selector: {matchLabels: {app: mgr}},"
		" template: {metadata: {labels: {app: mgr}}, spec: {containers:"
		" [{name: c}]}}}\n---\n"
		"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name:"
		" mgr, namespace: ops, annotations: {kvet.dev/ignore:"
		" rolling-upgrade-stalls}}\nspec: {minAvailable: 1, selector:"
		" {matchLabels: {app: mgr}}}\n";
	struct kvet_options opts = { .jobs = 1 };
	const struct kvet_finding *f, *g;
	regex_t re[N_BANNED];
	struct kvet_ctx *ctx;
	char *msg;

	(void)state;
	compile_banned(re);
	/* the budget: pdb-blocks-single-replica tells it */
	ctx = kvet_ctx_create(&opts);
	tctx_add(ctx, "c.yaml", chart);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(count_rule(ctx, "rolling-upgrade-stalls", &f), 0);
	assert_int_equal(count_rule(ctx, "pdb-blocks-single-replica", &f), 1);
	assert_int_equal(f->severity, KVET_SEV_ERROR);
	assert_non_null(strstr(f->reason,
			       "; a rolling upgrade of a pool of 3 nodes in 3 zones therefore stalls at step 1, where node \"node-1\" cannot drain: the eviction of pod \"ops/mgr-1\" is refused"));
	msg = kvet_finding_message_dup(f);
	assert_non_null(msg);
	assert_non_null(strstr(msg, f->reason));
	free(msg);
	assert_true(relates_node(f, "node-1"));
	check_words(f, re);
	kvet_ctx_destroy(ctx);

	/* the budget ignores the stall: held back, not told elsewhere */
	ctx = kvet_ctx_create(&opts);
	tctx_add(ctx, "c.yaml", annotated);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(count_rule(ctx, "rolling-upgrade-stalls", &f), 0);
	assert_int_equal(count_rule(ctx, "pdb-blocks-single-replica", &f), 1);
	assert_null(strstr(f->reason, "rolling upgrade"));
	assert_int_equal(kvet_ctx_suppressed_count(ctx), 1);
	assert_string_equal(kvet_ctx_suppressed(ctx, 0)->finding.rule,
			    "rolling-upgrade-stalls");
	kvet_ctx_destroy(ctx);

	/* the webhook: webhook-self-deadlock tells the deadlock, and the
	 * backend Deployment whose replacement it refuses is that stall */
	ctx = kvet_ctx_create(&opts);
	tctx_add(ctx, "c.yaml", stalls[1]);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(count_rule(ctx, "rolling-upgrade-stalls", &f), 0);
	assert_int_equal(count_rule(ctx, "webhook-self-deadlock", &f), 1);
	assert_non_null(strstr(f->reason,
			       "; a rolling upgrade of a pool of 3 nodes in 3 zones therefore stalls at step 1, where draining node \"node-1\" deadlocks fail-closed webhook \"pods.guard.example.com\": its backend pod \"guard/guard-1\" is evicted"));
	assert_true(relates_node(f, "node-1"));
	check_words(f, re);
	assert_int_equal(count_rule(ctx, "webhook-fail-single-backend", &g), 1);
	assert_null(strstr(g->reason, "rolling upgrade"));
	kvet_ctx_destroy(ctx);

	/* webhook-self-deadlock off: webhook-fail-single-backend tells it */
	ctx = kvet_ctx_create(&opts);
	assert_int_equal(kvet_ctx_set_rule_enabled(
				 ctx, "webhook-self-deadlock", false), 0);
	tctx_add(ctx, "c.yaml", stalls[1]);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(count_rule(ctx, "rolling-upgrade-stalls", &f), 0);
	assert_int_equal(count_rule(ctx, "webhook-fail-single-backend", &f), 1);
	assert_non_null(strstr(f->reason, "deadlocks fail-closed webhook"));
	kvet_ctx_destroy(ctx);

	/* both at warning: the webhook's stall and its backend's are
	 * rolling-upgrade-stalls errors, as before */
	ctx = kvet_ctx_create(&opts);
	assert_int_equal(kvet_ctx_set_rule_severity(
				 ctx, "webhook-self-deadlock", KVET_SEV_WARNING), 0);
	assert_int_equal(kvet_ctx_set_rule_severity(
				 ctx, "webhook-fail-single-backend",
				 KVET_SEV_WARNING), 0);
	tctx_add(ctx, "c.yaml", stalls[1]);
	assert_int_equal(kvet_ctx_run(ctx), 0);
	assert_int_equal(count_rule(ctx, "rolling-upgrade-stalls", &f), 2);
	kvet_ctx_destroy(ctx);
	free_banned(re);
}

/* The same inputs under kvet drain, each node alone and rolling, and the
 * dump above: every drain finding has the words of a lint finding. */
static void drain_words(void **state)
{
	regex_t re[N_BANNED];
	size_t i, j, n = 0;
	int rolling;

	(void)state;
	compile_banned(re);
	for (rolling = 0; rolling < 2; rolling++) {
		for (i = 0; i <= sizeof(stalls) / sizeof(stalls[0]); i++) {
			struct kvet_options opts = { .flags = KVET_CTX_DRAIN,
						     .jobs = 1 };
			struct kvet_drain_options d = { 0 };
			struct kvet_ctx *ctx = kvet_ctx_create(&opts);
			const char *in = i ? stalls[i - 1] : dump;

			assert_non_null(ctx);
			if (rolling) {
				d.plan = KVET_DRAIN_ROLLING;
				d.max_unavailable = 1;
				assert_int_equal(kvet_ctx_set_drain(ctx, &d), 0);
			}
			tctx_add(ctx, "c.yaml", in);
			assert_int_equal(kvet_ctx_run(ctx), 0);
			for (j = 0; j < kvet_ctx_finding_count(ctx); j++, n++)
				check_words(kvet_ctx_finding(ctx, j), re);
			kvet_ctx_destroy(ctx);
		}
	}
	assert_true(n >= 10);
	free_banned(re);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_node),
		cmocka_unit_test(settings_apply),
		cmocka_unit_test(rolling_by_name),
		cmocka_unit_test(refusals),
		cmocka_unit_test(pool_options),
		cmocka_unit_test(pool_runs),
		cmocka_unit_test(roll_words),
		cmocka_unit_test(roll_told_by_cause),
		cmocka_unit_test(drain_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * rolling-upgrade-stalls: kvet lint installs the rendered manifests on
 * the configured synthetic pool and rolls it, as kvet drain --rolling
 * does, and reports what stalls the roll (or keeps a pod from being
 * installed at all) at the object that causes it: a budget's
 * minAvailable, a workload, a webhook. A cluster dump has its own nodes,
 * which kvet drain simulates: the check stays silent there.
 */
#include "api/context.h"

#include <string.h>

static const char *const roll_refs[] = {
	"https://kubernetes.io/docs/tasks/administer-cluster/safely-drain-node/",
	"https://kubernetes.io/docs/concepts/workloads/pods/disruptions/",
	"https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/",
};

const struct kvet_rule_info kvet_check_roll_info = {
	.id = KVET_RULE_ROLL,
	.severity = KVET_SEV_ERROR,
	.category = "drain",
	.summary = "a rolling upgrade of the node pool stalls on these manifests",
	.description =
		"kvet installs the workloads on a synthetic node pool (by "
		"default 3 nodes in 3 zones of 4 CPU and 16Gi, or `pool:` in "
		".kvet.yaml), each with its smallest replica count, placed by "
		"the scheduler's filters, then drains the nodes one after "
		"another as a managed node-pool upgrade does (`kvet drain "
		"--rolling`, docs/drain.md). The roll stalls when an eviction "
		"stays refused (a PodDisruptionBudget that allows no "
		"disruption, or whose pods cannot be replaced), when kubectl "
		"drain refuses a node, when a fail-closed webhook rejects the "
		"creation of its own backend's replacement, or when an evicted "
		"pod fits no node once the step is over; a pod that fits no "
		"node at all means the manifests cannot even be installed on "
		"that pool. A stalled upgrade fails after a timeout (EKS: 15 "
		"minutes, PodEvictionFailure) or deletes the pods anyway (GKE: "
		"after an hour). A cluster dump is not rolled here: `kvet "
		"drain` simulates its own nodes.",
	.remediation =
		"Follow the chain of causes in the message: give the budget "
		"room (more replicas than minAvailable, on other nodes), relax "
		"required anti-affinity or DoNotSchedule spread for the pool's "
		"size, exclude a webhook's own pods from what it intercepts, "
		"or describe the pool your manifests target (`pool:` in "
		".kvet.yaml: size, node resources, labels, taints). `kvet "
		"drain --rolling` shows every step.",
	.references = roll_refs,
	.n_references = sizeof(roll_refs) / sizeof(roll_refs[0]),
};

/* An error at the place of an earlier one says nothing new. */
static bool repeated(const struct drain_result *res, size_t i)
{
	const struct drain_issue *is = &res->issues[i];
	size_t j;

	for (j = 0; j < i; j++)
		if (res->issues[j].sev == KVET_SEV_ERROR &&
		    res->issues[j].obj == is->obj && res->issues[j].at == is->at)
			return true;
	return false;
}

/*
 * The words of a stall: a headline naming what stalls the roll and the
 * node where it does, the drain's sentence as the reason, after the
 * pool it was rolled on, and what to do.
 */
static int words_of(struct kvet_ctx *ctx, const struct drain_result *res,
		    const struct drain_issue *is, const char *pool,
		    struct kvet_finding_text *text)
{
	const char *subject;

	memset(text, 0, sizeof(*text));
	subject = is->webhook
		? kvet_arena_printf(&ctx->arena, "fail-closed webhook \"%s\"",
				    is->webhook)
		: kvet_arena_printf(&ctx->arena, "%s \"%s\"", is->obj->kind,
				    is->obj->name);
	if (!subject)
		return -1;
	if (is->rule == DRAIN_RULE_INSTALL_UNSCHEDULABLE ||
	    is->node >= res->n_nodes) {
		/* the pool in the headline, the scheduler's words below */
		size_t len = kvet_drain_headline_len(is->message);

		text->headline = kvet_arena_printf(&ctx->arena,
			"%s cannot be installed on %s", subject, pool);
		text->reason = is->message + (len ? len + 2 : 0);
	} else {
		text->headline = kvet_arena_printf(&ctx->arena,
			"%s stalls a rolling upgrade of the pool at node \"%s\"",
			subject, res->nodes[is->node].name);
		text->reason = kvet_arena_printf(&ctx->arena, "on %s, %s",
						 pool, is->message);
	}
	text->help = drain_issue_help(is, true);
	return text->headline && text->reason ? 0 : -1;
}

/*
 * Pods the pool has no room for say the pool is too small for what is
 * linted at once, not that the manifests are wrong: one finding (the
 * first workload's) says so for all of them, instead of one per workload
 * of a large repository linted against the default pool.
 */
static int say_no_room(struct kvet_ctx *ctx, size_t first, size_t more)
{
	struct kvet_finding *f = &ctx->findings.v[first];

	f->reason = kvet_arena_printf(&ctx->arena,
		"%s (and %zu more workload%s the pool has no room for)",
		f->reason, more, more == 1 ? "" : "s");
	f->message = kvet_arena_printf(&ctx->arena, "%s: %s", f->headline,
				       f->reason);
	return f->reason && f->message ? 0 : -1;
}

int kvet_ctx_check_roll(struct kvet_ctx *ctx)
{
	struct kvet_finding_text text;
	struct drain_options opts;
	struct drain_result res;
	struct drain_pool pool;
	const char *on;
	size_t i, n, no_room = 0, first_no_room = 0;
	int rc;

	if ((ctx->opts.flags & KVET_CTX_NO_BUILTIN_RULES) ||
	    kvet_ctx_rule_disabled(ctx, KVET_RULE_ROLL) ||
	    kvet_graph_dump_mode(ctx->graph))
		return 0;
	kvet_graph_workloads(ctx->graph, &n);
	if (!n)
		return 0;
	memset(&opts, 0, sizeof(opts));
	opts.plan = KVET_DRAIN_ROLLING;
	opts.delete_emptydir = true;
	opts.ignore_daemonsets = true;
	opts.max_unavailable = 1;
	opts.order = KVET_DRAIN_ORDER_ZONE;
	opts.press_on = true;
	kvet_ctx_pool(ctx, &pool, &opts);
	on = kvet_arena_printf(&ctx->arena,
			       "a pool of %u node%s in %u zone%s",
			       pool.nodes, pool.nodes == 1 ? "" : "s",
			       pool.zones, pool.zones == 1 ? "" : "s");
	if (!on)
		return -1;
	rc = drain_run_pool(&ctx->arena, &ctx->diag, ctx->graph, &opts, &pool,
			    &res);
	/* what stalls the roll is an error of the drain; warnings (an
	 * outage while a node drains) are kvet drain's to tell */
	for (i = 0; !rc && i < res.n_issues; i++) {
		const struct drain_issue *is = &res.issues[i];

		if (is->sev != KVET_SEV_ERROR || repeated(&res, i) ||
		    (is->no_room && no_room++))
			continue;
		if (words_of(ctx, &res, is, on, &text) < 0 ||
		    kvet_ctx_add_drain_issue(ctx, is, KVET_RULE_ROLL, &text) < 0)
			rc = -1;
		else if (is->no_room)
			first_no_room = ctx->findings.n - 1;
	}
	if (!rc && no_room > 1)
		rc = say_no_room(ctx, first_no_room, no_room - 1);
	drain_result_release(&res);
	return rc;
}

bool kvet_ctx_roll_applies(const struct kvet_ctx *ctx,
			   const struct kvet_object *obj)
{
	static const char *const kinds[] = {
		"PodDisruptionBudget", "ValidatingWebhookConfiguration",
		"MutatingWebhookConfiguration",
	};
	size_t i;

	if (!ctx->graph || kvet_graph_dump_mode(ctx->graph))
		return false;
	if (kvet_graph_workload_of(ctx->graph, obj))
		return true;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(obj->kind, kinds[i]))
			return true;
	return false;
}

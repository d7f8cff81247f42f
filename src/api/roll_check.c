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
	.commands = KVET_RULE_IN_LINT,
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
		"after an hour). A stall whose cause a rule already reports "
		"at error (pdb-blocks-single-replica or pdb-zero-disruptions "
		"for the budget, webhook-self-deadlock or else "
		"webhook-fail-single-backend for the webhook) is told in that "
		"finding, as its consequence, not here a second time. A "
		"cluster dump is not rolled here: `kvet drain` simulates its "
		"own nodes.",
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
		text->headline = kvet_arena_printf(&ctx->arena,
			"%s cannot be installed on %s", subject, pool);
		text->reason = is->reason ? is->reason : is->message;
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
 * One cause, one error (docs/rules/rolling-upgrade-stalls.md): a budget
 * that allows no disruption, or a fail-closed webhook that deadlocks on
 * its own backend, has its own error finding already; the stall it
 * causes is told there, as its consequence, not as a second error at the
 * same place. The rules that can tell it, in the order they are asked.
 */
static const char *const budget_rules[] = {
	"pdb-blocks-single-replica",
	"pdb-zero-disruptions",
};
static const char *const webhook_rules[] = {
	"webhook-self-deadlock",
	"webhook-fail-single-backend",
};

/* Does @f relate the object of the drain's @r? */
static bool relates(const struct kvet_finding *f, const struct drain_ref *r)
{
	size_t k;

	for (k = 0; k < f->n_related; k++)
		if (!strcmp(f->related[k].kind, r->kind) &&
		    !strcmp(f->related[k].namespace, r->ns) &&
		    !strcmp(f->related[k].name, r->name))
			return true;
	return false;
}

/* Is finding @i about the cause of stall @is: its object, and for a
 * webhook, the backend Service the deadlocked entry calls? */
static bool same_cause(const struct kvet_ctx *ctx, size_t i,
		       const struct drain_issue *is)
{
	const struct kvet_finding *f = &ctx->findings.v[i];
	size_t k;

	if (ctx->findings.meta[i].obj != is->obj)
		return false;
	if (is->rule != DRAIN_RULE_WEBHOOK_DEADLOCK)
		return true;
	for (k = 0; k < is->n_related; k++)
		if (!strcmp(is->related[k].kind, "Service"))
			return relates(f, &is->related[k]);
	return false;
}

/*
 * The finding of @ctx's first @n (those of the rules) that tells the
 * cause of stall @is at error, or (size_t)-1: one of @rules in their
 * order, the first in the file when two of one rule do.
 */
static size_t cause_finding(struct kvet_ctx *ctx, size_t n,
			    const struct drain_issue *is)
{
	const char *const *rules;
	enum kvet_severity sev;
	size_t r, nr, i, best;

	if (is->rule == DRAIN_RULE_EVICTION_BLOCKED && !is->webhook &&
	    is->budget == DRAIN_BUDGET_ROOM) {
		rules = budget_rules;
		nr = sizeof(budget_rules) / sizeof(budget_rules[0]);
	} else if (is->rule == DRAIN_RULE_WEBHOOK_DEADLOCK) {
		rules = webhook_rules;
		nr = sizeof(webhook_rules) / sizeof(webhook_rules[0]);
	} else {
		return (size_t)-1;
	}
	for (r = 0; r < nr; r++) {
		best = (size_t)-1;
		for (i = 0; i < n; i++) {
			const struct kvet_finding *f = &ctx->findings.v[i];

			if (strcmp(f->rule, rules[r]) ||
			    !same_cause(ctx, i, is) ||
			    !kvet_ctx_finding_kept(ctx, i, &sev) ||
			    sev != KVET_SEV_ERROR)
				continue;
			if (best == (size_t)-1 ||
			    f->pos.line < ctx->findings.v[best].pos.line ||
			    (f->pos.line == ctx->findings.v[best].pos.line &&
			     f->pos.column < ctx->findings.v[best].pos.column))
				best = i;
		}
		if (best != (size_t)-1)
			return best;
	}
	return (size_t)-1;
}

/*
 * Tell stall @is in finding @i, as its consequence: the pool and the
 * step, what the drain runs into there (the drain's sentence up to its
 * own reason: the finding has said why), and the node as a related
 * object. Only the node is added: a pool's nodes are not in the input,
 * so the finding keeps its fingerprint whether the roll ran or not.
 */
static int tell_consequence(struct kvet_ctx *ctx, size_t i,
			    const struct drain_result *res,
			    const struct drain_issue *is, const char *pool)
{
	struct kvet_finding *f = &ctx->findings.v[i];
	const struct drain_node_result *node = &res->nodes[is->node];
	size_t len = is->headline ? strlen(is->headline) : 0, more;
	struct kvet_object_ref *rel;
	const char *what;
	size_t k, n = 0;

	/* the headline and the first part of the reason: what happens and
	 * its first cause */
	more = is->reason ? drain_headline_len(is->reason) : 0;
	if (more)
		len += 2 + more;
	what = len ? kvet_arena_strndup(&ctx->arena, is->message, len)
		   : is->message;
	if (!what)
		return -1;
	/* the roll goes on past a stall only while the pods come back, so
	 * the steps it made are not all it planned: no "of N" */
	what = kvet_arena_printf(&ctx->arena,
		"a rolling upgrade of %s therefore stalls at step %u, where %s",
		pool, node->step, what);
	if (!what)
		return -1;
	f->reason = f->reason ? kvet_arena_printf(&ctx->arena, "%s; %s",
						  f->reason, what)
			      : what;
	/* a message the findings do not keep is the headline and the
	 * reason joined, and stays so */
	if (f->message) {
		f->message = kvet_arena_printf(&ctx->arena, "%s%s%s",
					       f->message,
					       f->reason == what ? ": " : "; ",
					       what);
		if (!f->message)
			return -1;
	}
	rel = kvet_arena_array(&ctx->arena, f->n_related + is->n_related,
			       sizeof(*rel));
	if (!f->reason || !rel)
		return -1;
	if (f->n_related)
		memcpy(rel, f->related, f->n_related * sizeof(*rel));
	n = f->n_related;
	for (k = 0; k < is->n_related; k++) {
		if (is->related[k].obj || relates(f, &is->related[k]))
			continue;
		memset(&rel[n], 0, sizeof(rel[n]));
		rel[n].api_version = "v1";
		rel[n].kind = is->related[k].kind;
		rel[n].namespace = is->related[k].ns;
		rel[n].name = is->related[k].name;
		n++;
	}
	f->related = rel;
	f->n_related = n;
	return 0;
}

/*
 * The replacement of a webhook's backend pod that the webhook refuses
 * at the node of a deadlock already told (@told) is that deadlock: the
 * same stall, not one of its own.
 */
static bool told_deadlock(const struct drain_result *res, const bool *told,
			  size_t i)
{
	const struct drain_issue *is = &res->issues[i];
	size_t j, k;

	if (is->rule != DRAIN_RULE_POD_UNSCHEDULABLE || !is->refused)
		return false;
	for (j = 0; j < i; j++) {
		const struct drain_issue *d = &res->issues[j];

		if (!told[j] || d->rule != DRAIN_RULE_WEBHOOK_DEADLOCK ||
		    d->node != is->node)
			continue;
		for (k = 0; k < d->n_related; k++)
			if (d->related[k].obj == is->obj)
				return true;
	}
	return false;
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
	size_t rules_n = ctx->findings.n;	/* the rules' findings */
	bool *told, *told_f;
	int rc;

	if (kvet_ctx_rule_disabled(ctx, KVET_RULE_ROLL) ||
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
	/* the stalls told by the finding of their cause, and those findings */
	told = kvet_arena_array(&ctx->arena, res.n_issues + 1, sizeof(*told));
	told_f = kvet_arena_array(&ctx->arena, rules_n + 1, sizeof(*told_f));
	if (!told || !told_f)
		rc = -1;
	/* what stalls the roll is an error of the drain; warnings (an
	 * outage while a node drains) are kvet drain's to tell */
	for (i = 0; !rc && i < res.n_issues; i++) {
		const struct drain_issue *is = &res.issues[i];
		enum kvet_severity sev;
		size_t cause;

		if (is->sev != KVET_SEV_ERROR || repeated(&res, i) ||
		    told_deadlock(&res, told, i) ||
		    (is->no_room && no_room++))
			continue;
		rc = words_of(ctx, &res, is, on, &text);
		if (!rc)
			rc = kvet_ctx_add_drain_issue(ctx, is, KVET_RULE_ROLL,
						      &text);
		if (rc)
			break;
		if (is->no_room)
			first_no_room = ctx->findings.n - 1;
		/* the stall as a finding of its own, unless the finding of
		 * its cause tells it; a stall the settings hold back (an
		 * annotation, a suppress: entry) stays one, to be held */
		cause = cause_finding(ctx, rules_n, is);
		if (cause == (size_t)-1 ||
		    !kvet_ctx_finding_kept(ctx, ctx->findings.n - 1, &sev))
			continue;
		ctx->findings.n--;
		told[i] = true;
		if (told_f[cause])
			continue;
		told_f[cause] = true;
		if (tell_consequence(ctx, cause, &res, is, on) < 0)
			rc = -1;
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

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry of the checks built into kvet in C (findings/check.h):
 * one table, which the context's rule index, kvet rules and the stages
 * that run them all read. Rule files join them in the index.
 */
#include "api/context.h"

#include "rules/check_types.h"

#define DRAIN_CHECK(r) { &drain_checks[r], KVET_CHECK_BY_DRAIN, { NULL } }

static const struct kvet_check checks[] = {
	{ &kvet_check_field_types_info, KVET_CHECK_PER_OBJECT,
	  { .object = kvet_check_field_types } },
	{ &kvet_check_roll_info, KVET_CHECK_PER_RUN,
	  { .run = kvet_ctx_check_roll } },
	DRAIN_CHECK(DRAIN_RULE_EVICTION_BLOCKED),
	DRAIN_CHECK(DRAIN_RULE_KUBECTL_REFUSES),
	DRAIN_CHECK(DRAIN_RULE_WEBHOOK_DEADLOCK),
	DRAIN_CHECK(DRAIN_RULE_POD_UNSCHEDULABLE),
	DRAIN_CHECK(DRAIN_RULE_POD_DELETED),
	DRAIN_CHECK(DRAIN_RULE_EMPTYDIR_LOST),
	DRAIN_CHECK(DRAIN_RULE_WEBHOOK_OUTAGE),
	DRAIN_CHECK(DRAIN_RULE_SERVICE_OUTAGE),
	DRAIN_CHECK(DRAIN_RULE_QUORUM_LOSS),
	DRAIN_CHECK(DRAIN_RULE_INSTALL_UNSCHEDULABLE),
	DRAIN_CHECK(DRAIN_RULE_NODE_NOT_READY),
};

_Static_assert(sizeof(checks) / sizeof(checks[0]) == 2 + DRAIN_RULE_COUNT,
	       "every drain check is in the registry");
_Static_assert(sizeof(checks) / sizeof(checks[0]) <= KVET_MAX_C_CHECKS,
	       "the rule index has room for every check");

const struct kvet_check *kvet_checks(size_t *n)
{
	*n = sizeof(checks) / sizeof(checks[0]);
	return checks;
}

/*
 * The checks of @stage that the context's command runs, into @out:
 * none when the built-in rules are off (the drain checks, which the
 * simulation raises, are not run here).
 */
size_t kvet_ctx_checks_at(const struct kvet_ctx *ctx,
			  enum kvet_check_stage stage,
			  const struct kvet_check **out)
{
	unsigned int command = ctx->opts.flags & KVET_CTX_DRAIN
				       ? KVET_RULE_IN_DRAIN
				       : KVET_RULE_IN_LINT;
	size_t i, k = 0;

	if (ctx->opts.flags & KVET_CTX_NO_BUILTIN_RULES)
		return 0;
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++)
		if (checks[i].stage == stage &&
		    (checks[i].info->commands & command))
			out[k++] = &checks[i];
	return k;
}

/*
 * The field-type check runs before the graph is built and the rules run:
 * a field it reports (replicas: "two", minReplicas: -.inf) reads as
 * absent from then on, for the graph and for every rule alike. It runs
 * on every thread (pass.c), object by object. These are the C checks of
 * the context's command that run per object (findings/check.h).
 */
struct object_checks {
	const struct kvet_check *c[KVET_MAX_C_CHECKS];
	size_t n;
};

static int run_object_checks(struct kvet_findings *fs,
			     const struct object_checks *oc,
			     const struct kvet_object *obj, size_t u)
{
	size_t k;

	if (obj->flags & KVET_OBJ_HELM_TEST)
		return 0;
	for (k = 0; k < oc->n; k++)
		if (oc->c[k]->run.object(fs, obj, u) < 0)
			return -1;
	return 0;
}

static int object_checks_lane(struct kvet_pass_lane *lane,
			      const struct kvet_object *obj, size_t u,
			      void *arg)
{
	return run_object_checks(&lane->findings, arg, obj, u);
}

int kvet_ctx_check_objects(struct kvet_ctx *ctx)
{
	struct object_checks oc;
	const struct kvet_pass pass = { .object = object_checks_lane,
					.arg = &oc };
	size_t i, u = 0, nl;
	int rc;

	oc.n = kvet_ctx_checks_at(ctx, KVET_CHECK_PER_OBJECT, oc.c);
	if (!oc.n)
		return 0;
	/* a thread is worth it from a few thousand objects on */
	nl = kvet_ctx_pass_lanes(ctx, ctx->objects.n, 2048);
	if (nl > 1) {
		rc = kvet_ctx_run_pass(ctx, ctx->objects.v, ctx->objects.n, nl,
				       &pass);
		if (rc)
			return rc < 0 ? -1 : 0;
	}
	/* on one thread: few objects, or an alias shares a node the
	 * check invalidates, which the objects after it read so */
	for (i = 0; i < ctx->objects.n; i++) {
		const struct kvet_object *obj = ctx->objects.v[i];

		u = kvet_ctx_unit_from(ctx, u, obj);
		if (run_object_checks(&ctx->findings, &oc, obj, u) < 0)
			return -1;
	}
	return 0;
}

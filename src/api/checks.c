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

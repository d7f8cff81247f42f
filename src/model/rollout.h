/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_ROLLOUT_H
#define KVET_MODEL_ROLLOUT_H

#include <stdbool.h>

#include "load/node.h"
#include "model/workload.h"

/*
 * A Deployment's rollout strategy (rule
 * required-anti-affinity-rollout-deadlock), as the Deployment
 * controller reads it (pkg/controller/deployment/util/deployment_util.go).
 */

/* spec.strategy.type is RollingUpdate: the API server's default. */
bool kvet_deployment_rolling_update(const struct kvet_workload *wl);

/* rollingUpdate.maxUnavailable as written; NULL when absent or null,
 * which means the default "25%". */
const struct kvet_node *
kvet_deployment_max_unavailable(const struct kvet_workload *wl);

enum kvet_rollout_error {
	KVET_ROLLOUT_OK,
	KVET_ROLLOUT_UNKNOWN_REPLICAS,
	KVET_ROLLOUT_NOT_INTSTR,	/* neither an int nor "<digits>%" */
	KVET_ROLLOUT_NEGATIVE,
	KVET_ROLLOUT_OVER_100,		/* a percentage above 100% */
};

/**
 * kvet_deployment_effective_max_unavailable() - maxUnavailable at N_min:
 * intstr.GetScaledValueFromIntOrPercent(maxUnavailable, N, false) as the
 * controller calls it, a percentage rounded down.
 * Returns: KVET_ROLLOUT_OK with @out set, or why there is no value.
 */
enum kvet_rollout_error
kvet_deployment_effective_max_unavailable(const struct kvet_workload *wl,
					  long long *out);

#endif

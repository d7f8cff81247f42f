/* SPDX-License-Identifier: Apache-2.0 */
#include "model/rollout.h"

#include <stdlib.h>
#include <string.h>

static const struct kvet_node *strategy(const struct kvet_workload *wl)
{
	return kvet_node_path(wl->obj->root, "spec", "strategy", NULL);
}

bool kvet_deployment_rolling_update(const struct kvet_workload *wl)
{
	const struct kvet_node *type = kvet_node_get(strategy(wl), "type");

	/* the API server defaults an absent type to RollingUpdate */
	return !type || kvet_node_is_null(type) ||
	       kvet_node_eq(type, "RollingUpdate");
}

const struct kvet_node *
kvet_deployment_max_unavailable(const struct kvet_workload *wl)
{
	const struct kvet_node *n = kvet_node_path(strategy(wl),
						   "rollingUpdate",
						   "maxUnavailable", NULL);

	return n && !kvet_node_is_null(n) ? n : NULL;
}

/* "<digits>%" as a number, or -1. */
static long long percent(const struct kvet_node *mu)
{
	char buf[24], *end;
	long long v;

	if (mu->type != KVET_NODE_STRING || mu->len < 2 ||
	    mu->len >= sizeof(buf) || mu->u.str[mu->len - 1] != '%')
		return -1;
	memcpy(buf, mu->u.str, mu->len - 1);
	buf[mu->len - 1] = '\0';
	v = strtoll(buf, &end, 10);
	return *end || v < 0 ? -1 : v;
}

enum kvet_rollout_error
kvet_deployment_effective_max_unavailable(const struct kvet_workload *wl,
					  long long *out)
{
	const struct kvet_node *mu;
	long long v = 25;
	bool pct = true;

	if (wl->replicas.state != KVET_REPLICAS_KNOWN)
		return KVET_ROLLOUT_UNKNOWN_REPLICAS;
	mu = kvet_deployment_max_unavailable(wl);
	if (mu && kvet_node_int(mu, &v)) {
		pct = false;
	} else if (mu) {
		v = percent(mu);
		if (v < 0)
			return KVET_ROLLOUT_NOT_INTSTR;
	}
	if (v < 0)
		return KVET_ROLLOUT_NEGATIVE;
	if (pct) {
		if (v > 100)
			return KVET_ROLLOUT_OVER_100;
		v = v * wl->replicas.min / 100;
	}
	*out = v;
	return KVET_ROLLOUT_OK;
}

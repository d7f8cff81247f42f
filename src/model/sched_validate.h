/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_SCHED_VALIDATE_H
#define KVET_MODEL_SCHED_VALIDATE_H

#include "base/arena.h"
#include "load/node.h"
#include "model/problem.h"

/*
 * What the API server rejects in a pod spec's topology spread
 * constraints and pod (anti-)affinity terms (rule
 * spread-constraint-invalid), after pkg/apis/core/validation/validation.go
 * (validateTopologySpreadConstraints, validatePodAffinityTerm,
 * validateWeightedPodAffinityTerm).
 */
enum kvet_sched_problem {
	KVET_SCHED_SKEW_MISSING,	/* at the constraint */
	KVET_SCHED_SKEW_BAD,		/* value: maxSkew below 1 or no int */
	KVET_SCHED_TOPOLOGY_KEY_EMPTY,
	KVET_SCHED_WHEN_MISSING,	/* whenUnsatisfiable, at the term */
	KVET_SCHED_WHEN_NOT_SCALAR,
	KVET_SCHED_WHEN_BAD,		/* value: not DoNotSchedule or
					 * ScheduleAnyway */
	KVET_SCHED_MIN_DOMAINS_BAD,	/* value: below 1 or no int */
	KVET_SCHED_MIN_DOMAINS_ANYWAY,	/* number: minDomains without
					 * DoNotSchedule */
	KVET_SCHED_POLICY_BAD,		/* field, value: not Honor or Ignore */
	KVET_SCHED_SELECTOR_INVALID,	/* field, text: why */
	KVET_SCHED_KEYS_WITHOUT_SELECTOR,	/* field: (mis)matchLabelKeys */
	KVET_SCHED_KEY_REPEATED,	/* field, key: also in the selector */
	KVET_SCHED_WEIGHT_MISSING,	/* at the weighted entry */
	KVET_SCHED_WEIGHT_BAD,		/* value: not from 1 to 100 */
};

/**
 * kvet_pod_spec_term_problems() - the problems of @pod_spec's spread
 * constraints, then its podAffinity and podAntiAffinity terms, in the
 * order of the spec. Each has @path (the term, e.g.
 * "topologySpreadConstraints[0]"), @part (the term's or weighted entry's
 * mapping) and @at (the field's key or item; NULL: the part itself).
 * @arena: where the problems and the selectors they parse go.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_pod_spec_term_problems(struct kvet_arena *arena,
				const struct kvet_node *pod_spec,
				struct kvet_problems *out);

#endif

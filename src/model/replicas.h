/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_REPLICAS_H
#define KVET_MODEL_REPLICAS_H

#include <stdbool.h>

#include "load/node.h"
#include "model/object.h"

/*
 * Replica counts (docs/model.md 1.4): N_spec, and N_min/N_max once an
 * HorizontalPodAutoscaler targeting the workload is taken into account.
 */

/*
 * The fields of one HorizontalPodAutoscaler (autoscaling/v1, v2, v2beta1,
 * v2beta2: scaleTargetRef, minReplicas and maxReplicas mean the same in
 * all of them). Strings are NUL-terminated, in the arena.
 */
struct kvet_hpa {
	const struct kvet_object *obj;
	const char *target_group;	/* group of scaleTargetRef.apiVersion */
	const char *target_kind;	/* "" when absent */
	const char *target_name;	/* "" when absent */
	long long min;			/* minReplicas, default 1 */
	long long max;			/* maxReplicas; min when absent */
	const struct kvet_node *target_node;	/* scaleTargetRef */
	const struct kvet_node *min_node;	/* NULL when absent */
	const struct kvet_node *max_node;	/* NULL when absent */
	/* A KEDA ScaledObject (keda.sh): it scales its target through an
	 * HPA KEDA creates at run time, which renders never hold (1.4).
	 * min is minReplicaCount (default 0) but at least 1, as a workload
	 * scaled to zero has no pod to protect and runs one once active;
	 * max is maxReplicaCount (default 100). */
	bool keda;
};

/* True for an object that is an HPA of a group kvet accepts. */
bool kvet_object_is_hpa(const struct kvet_object *obj);

/* An HPA, or a KEDA ScaledObject, which scales its target like one. */
bool kvet_object_is_scaler(const struct kvet_object *obj);

/**
 * kvet_hpa_parse() - read an HPA or a KEDA ScaledObject.
 * @arena: where the target strings go.
 * @obj: the HPA object.
 * @out: the fields; invalid counts take their defaults.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_hpa_parse(struct kvet_arena *arena, const struct kvet_object *obj,
		   struct kvet_hpa *out);

/* The API group of an apiVersion: "apps/v1" is "apps", "v1" is "". */
const char *kvet_api_group(struct kvet_arena *arena, const char *api_version);

/**
 * kvet_replicas_field() - read a replica count field.
 * @n: the node, or NULL.
 * @out: the count.
 *
 * A count is an integer from 0 to 2^31-1. Anything else counts as absent,
 * so the caller keeps its default: the invalid-field-type check
 * (rules/check_types.c) is the one place that reports a wrong type.
 *
 * Returns: true and sets @out when @n holds a valid count.
 */
bool kvet_replicas_field(const struct kvet_node *n, long long *out);

enum kvet_replicas_state {
	KVET_REPLICAS_KNOWN,
	KVET_REPLICAS_UNKNOWN,		/* DaemonSet outside dump mode */
	KVET_REPLICAS_EXCLUDED,		/* Job, CronJob: not long-running */
};

struct kvet_replicas {
	enum kvet_replicas_state state;
	long long spec;			/* N_spec; -1 unless KNOWN */
	long long min;			/* N_min: the worst case */
	long long max;			/* N_max: the most it ever runs */
	const struct kvet_node *spec_node;	/* spec.replicas when written */
	const struct kvet_hpa *hpa;	/* the first HPA targeting it */
	unsigned int n_hpas;		/* how many HPAs target it */
};

#endif

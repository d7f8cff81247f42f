/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_PDB_H
#define KVET_MODEL_PDB_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/object.h"
#include "model/selector.h"

/*
 * PodDisruptionBudget arithmetic (docs/model.md, "PDB evaluation"),
 * replicating pkg/controller/disruption/disruption.go under the
 * steady-state assumption that every selected pod is Ready.
 */
struct kvet_run;
struct kvet_workload;

/* An IntOrString field as the API server decodes it. */
enum kvet_intstr_type {
	KVET_INTSTR_ABSENT,	/* absent or null */
	KVET_INTSTR_INT,	/* an unquoted integer that fits int32 */
	KVET_INTSTR_PERCENT,	/* a string "<digits>%" */
	KVET_INTSTR_INVALID,	/* anything else, "1" included */
};

struct kvet_intstr {
	enum kvet_intstr_type type;
	long long value;		/* the integer or the percentage */
	const struct kvet_node *node;	/* NULL when absent */
};

/**
 * kvet_intstr_parse() - read an IntOrString node.
 * @n: the node, or NULL when the field is absent.
 * @out: the result.
 *
 * An integer node is an int; a string is a percentage only when it is
 * digits followed by "%". A quoted "1" is a string without "%", hence
 * invalid, exactly as the API server sees it (the YAML-to-JSON step keeps
 * quoted scalars as JSON strings). Floats, booleans, collections and
 * integers outside int32 are invalid.
 */
void kvet_intstr_parse(const struct kvet_node *n, struct kvet_intstr *out);

/**
 * kvet_intstr_scaled() - the value of @v against @total, percentages
 * rounded up (intstr.GetScaledValueFromIntOrPercent with roundUp=true).
 * @v: an INT or PERCENT value.
 * @total: the count a percentage applies to, >= 0.
 */
long long kvet_intstr_scaled(const struct kvet_intstr *v, long long total);

/* How the disruption controller can count one selected workload's pods. */
enum kvet_pdb_member_kind {
	KVET_PDB_SCALABLE,	/* has a scale subresource */
	KVET_PDB_BARE_POD,	/* a pod without a controller */
	KVET_PDB_UNSCALABLE,	/* DaemonSet, Job, unscalable custom kind */
};

struct kvet_pdb_member {
	long long n;			/* pod count; < 0 when unknown */
	enum kvet_pdb_member_kind kind;
};

enum kvet_pdb_status {
	KVET_PDB_OK,
	KVET_PDB_INVALID_BOTH_SET,	/* minAvailable and maxUnavailable */
	KVET_PDB_INVALID_VALUE,		/* bad string, < 0, > 100% */
	KVET_PDB_SYNC_FAILS,		/* scale needed of an unscalable owner */
	KVET_PDB_NO_POLICY,		/* neither field set */
	KVET_PDB_UNKNOWN,		/* needs a pod count nobody knows */
};

struct kvet_pdb_result {
	enum kvet_pdb_status status;
	long long pods_total;	/* all selected pods; < 0 when unknown */
	long long expected;	/* expectedCount */
	long long desired;	/* desiredHealthy */
	long long allowed;	/* disruptionsAllowed; < 0 when UNKNOWN */
	bool uses_scale;	/* maxUnavailable or a percentage minAvailable */
	const struct kvet_intstr *bad;	/* the field of INVALID_VALUE */
};

/**
 * kvet_pdb_evaluate() - compute a budget's allowed disruptions.
 * @min_available: spec.minAvailable.
 * @max_unavailable: spec.maxUnavailable.
 * @members: the selected workloads, with N = N_min normally.
 * @n: how many.
 * @out: the result; allowed is 0 for every status but OK and UNKNOWN,
 *       as the budget then blocks every eviction (or does not exist).
 */
void kvet_pdb_evaluate(const struct kvet_intstr *min_available,
		       const struct kvet_intstr *max_unavailable,
		       const struct kvet_pdb_member *members, size_t n,
		       struct kvet_pdb_result *out);

const char *kvet_pdb_status_name(enum kvet_pdb_status status);

/* The fields of one PodDisruptionBudget object that the model reads. */
struct kvet_pdb {
	const struct kvet_object *obj;
	bool v1beta1;				/* policy/v1beta1 */
	struct kvet_intstr min_available;
	struct kvet_intstr max_unavailable;
	struct kvet_selector selector;		/* by the field rules of its
						 * apiVersion */
	const struct kvet_node *unhealthy_policy;	/* NULL when absent */
	/* unhealthyPodEvictionPolicy: AlwaysAllow lets a pod that is not
	 * Ready be evicted whatever the budget says (policy/v1, 1.27) */
	bool always_allow;
};

/**
 * kvet_pdb_parse() - read a PodDisruptionBudget object.
 * @arena: where the selector goes.
 * @obj: the object.
 * @out: the fields.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_pdb_parse(struct kvet_arena *arena, const struct kvet_object *obj,
		   struct kvet_pdb *out);

/*
 * The status a PodDisruptionBudget of a cluster dump carries: the
 * disruption controller's own numbers (PodDisruptionBudgetStatus), each
 * read only when it is an integer.
 */
struct kvet_pdb_observed {
	bool has_allowed;		/* status.disruptionsAllowed */
	bool has_current, has_desired, has_expected;
	long long allowed;
	long long current_healthy;	/* status.currentHealthy */
	long long desired_healthy;	/* status.desiredHealthy */
	long long expected_pods;	/* status.expectedPods */
	/* status.observedGeneration < metadata.generation: the controller
	 * has not processed the last change of the spec, and the API server
	 * refuses every eviction the budget covers until it has */
	bool stale;
	const struct kvet_node *observed_generation;	/* NULL when absent */
};

/* Read the status of PodDisruptionBudget object @obj. */
void kvet_pdb_observed_read(const struct kvet_object *obj,
			    struct kvet_pdb_observed *out);

/* maxUnavailable, or a percentage minAvailable: the disruption controller
 * needs the scale of each owner of the selected pods. */
bool kvet_pdb_uses_scale(const struct kvet_pdb *pdb);

/* "scalable", "bare-pod" or "unscalable". */
const char *kvet_pdb_member_kind_name(enum kvet_pdb_member_kind kind);

/**
 * kvet_pdb_allowed_at() - the budget as if it selected one scalable
 * workload of @n pods: how "minAvailable: 1" reads at one replica.
 * Returns: disruptionsAllowed, 0 when the budget is invalid.
 */
long long kvet_pdb_allowed_at(const struct kvet_pdb *pdb, long long n);

/* A PodDisruptionBudget of a run, with what it selects and its budget
 * at N_min: plain data in the run's arena. */
struct kvet_budget {
	const struct kvet_object *obj;
	struct kvet_pdb pdb;
	const struct kvet_workload **wls;	/* selected, in workload order */
	size_t n;
	struct kvet_pdb_result res;		/* at N_min */
};

/**
 * kvet_run_budget() - the budget of PDB object @obj of the run's graph.
 * The relation is built once per run, from one label-index selection per
 * PDB (never by comparing every pair): PDB -> workloads, then the
 * reverse, workload -> PDBs.
 * Returns: the budget, or NULL when @obj is no PDB of the graph or memory
 * ran out.
 */
const struct kvet_budget *kvet_run_budget(struct kvet_run *run,
					  const struct kvet_object *obj);

/**
 * kvet_run_pdbs_covering() - the PDB objects that select @wl, in input
 * order.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_run_pdbs_covering(struct kvet_run *run, const struct kvet_workload *wl,
			   const struct kvet_object *const **out, size_t *n);

/**
 * kvet_run_pdbs_covering_any() - the PDB objects that select any of @wls,
 * each once, in the order found.
 * @arena: where the list goes.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_run_pdbs_covering_any(struct kvet_run *run, struct kvet_arena *arena,
			       const struct kvet_workload *const *wls,
			       size_t n_wls, const struct kvet_object ***out,
			       size_t *n);

#endif

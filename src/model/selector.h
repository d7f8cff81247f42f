/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_SELECTOR_H
#define KVET_MODEL_SELECTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/labels.h"

/*
 * Label selectors, compiled once and evaluated exactly as
 * k8s.io/apimachinery/pkg/labels/selector.go does (docs/model.md 1.5).
 */

enum kvet_sel_op {
	KVET_SEL_IN,
	KVET_SEL_NOT_IN,
	KVET_SEL_EXISTS,
	KVET_SEL_DOES_NOT_EXIST,
};

/* One requirement; matchLabels {k: v} becomes k In [v]. */
struct kvet_requirement {
	struct kvet_slice key;
	enum kvet_sel_op op;
	const struct kvet_slice *values;	/* sorted; empty for (Does)Exist */
	size_t n_values;
	const struct kvet_node *node;	/* the expression or matchLabels value */
};

/*
 * The field a selector was read from. Kubernetes gives absent, null and
 * empty selectors a different meaning per field (the null-versus-empty
 * table of docs/model.md 1.5), so the caller must say which it is.
 */
enum kvet_sel_field {
	KVET_SEL_FIELD_PDB_V1,		/* policy/v1 PDB spec.selector */
	KVET_SEL_FIELD_PDB_V1BETA1,	/* policy/v1beta1 PDB spec.selector */
	KVET_SEL_FIELD_SERVICE,		/* Service spec.selector (plain map) */
	KVET_SEL_FIELD_AFFINITY_TERM,	/* PodAffinityTerm.labelSelector */
	KVET_SEL_FIELD_AFFINITY_NS,	/* PodAffinityTerm.namespaceSelector */
	KVET_SEL_FIELD_SPREAD,		/* TopologySpreadConstraint.labelSelector */
	KVET_SEL_FIELD_WEBHOOK,		/* webhook namespace/objectSelector */
	KVET_SEL_FIELD_WORKLOAD,	/* Deployment, ... spec.selector */
	KVET_SEL_FIELD_PLAIN_WORKLOAD,	/* ReplicationController spec.selector */
};

/* How the field was written. */
enum kvet_sel_form {
	KVET_SEL_FORM_ABSENT,		/* absent or null */
	KVET_SEL_FORM_EMPTY,		/* {} or only empty matchLabels/Expressions */
	KVET_SEL_FORM_REQUIREMENTS,	/* at least one requirement */
	KVET_SEL_FORM_MALFORMED,	/* wrong shape; see error */
};

/* What the selector selects, once the field's rules are applied. */
enum kvet_sel_meaning {
	KVET_SEL_NOTHING,	/* selects no pod or namespace */
	KVET_SEL_EVERYTHING,	/* every pod (namespace) in scope */
	KVET_SEL_MATCH,		/* those matching every requirement */
	KVET_SEL_INVALID,	/* rejected by the API server: matches nothing */
};

/* Plain data, filled by kvet_selector_parse(); arrays live in its arena. */
struct kvet_selector {
	enum kvet_sel_field field;
	enum kvet_sel_form form;
	enum kvet_sel_meaning meaning;
	const struct kvet_requirement *reqs;
	size_t n_reqs;
	const struct kvet_node *node;	/* the selector node; NULL if absent */
	const char *error;		/* why it is invalid, or NULL */
	uint32_t err_line, err_col;	/* where (1-based); 0 when absent */
};

/**
 * kvet_selector_parse() - compile a selector field.
 * @arena: where requirements and the error message go.
 * @n: the field's value: a LabelSelector mapping (matchLabels and
 *     matchExpressions), or a plain mapping for the Service and
 *     ReplicationController fields; NULL when absent.
 * @field: which field @n is; decides what absent and {} mean.
 * @out: the compiled selector.
 *
 * An invalid selector is not an error of this function: @out->meaning is
 * KVET_SEL_INVALID, and @out->error and its position say why, for the
 * rule that owns the field to report. Unknown fields in a LabelSelector
 * (selector: {app: web}) are invalid, because the API server's strict
 * field validation rejects them.
 *
 * For KVET_SEL_FIELD_PLAIN_WORKLOAD an absent or empty map means "the
 * template's labels"; the caller substitutes them with
 * kvet_selector_from_labels().
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_selector_parse(struct kvet_arena *arena, const struct kvet_node *n,
			enum kvet_sel_field field, struct kvet_selector *out);

/**
 * kvet_selector_from_labels() - an equality selector requiring every label
 * of @labels (the defaulted selector of a ReplicationController).
 * @arena: where requirements go.
 * @labels: the labels; borrowed, must outlive @out.
 * @field: recorded in @out.
 * @out: the selector; an empty @labels gives a KVET_SEL_INVALID selector.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_selector_from_labels(struct kvet_arena *arena,
			      const struct kvet_labels *labels,
			      enum kvet_sel_field field,
			      struct kvet_selector *out);

/*
 * The runtime labels of one modelled pod (docs/model.md 1.6): labels a
 * controller adds to its pods that no template shows. Values that are
 * hashes or UIDs in a cluster are modelled by synthetic values that equal
 * each other exactly when the real ones would (same workload, same
 * revision) and never equal a value written in the input.
 */
enum kvet_runtime_flags {
	/* pod-template-hash (Deployment pods) */
	KVET_RT_TEMPLATE_HASH = 1u << 0,
	/* controller-revision-hash (StatefulSet and DaemonSet pods) */
	KVET_RT_REVISION_HASH = 1u << 1,
	/* statefulset.kubernetes.io/pod-name, apps.kubernetes.io/pod-index */
	KVET_RT_STS_POD = 1u << 2,
	/* pod-template-generation (DaemonSet pods) */
	KVET_RT_TEMPLATE_GENERATION = 1u << 3,
	/* batch.kubernetes.io/job-name, .../controller-uid and their
	 * unprefixed forms job-name, controller-uid (Job pods) */
	KVET_RT_JOB = 1u << 4,
};

struct kvet_pod_runtime {
	unsigned int flags;		/* enum kvet_runtime_flags */
	struct kvet_slice name;		/* StatefulSet name for pod-name; Job
					 * name for job-name, or empty when
					 * generated (CronJob) */
	uint32_t uid;			/* unique per workload in a run */
	uint32_t revision;		/* 0: current; others: rollout peers */
	uint32_t ordinal;		/* the pod's index among its siblings */
};

/**
 * kvet_runtime_value() - the value of runtime label @key on pod @rt, for
 * building merged selectors (docs/model.md 1.8: matchLabelKeys on
 * pod-template-hash takes the incoming pod's value).
 * @arena: where the value is copied.
 * @rt: the pod.
 * @key: the label key.
 * @out: the value, when @rt carries @key.
 *
 * Returns: 1 when @rt carries @key, 0 when not, -1 when out of memory.
 */
int kvet_runtime_value(struct kvet_arena *arena,
		       const struct kvet_pod_runtime *rt, struct kvet_slice key,
		       struct kvet_slice *out);

/* True when @key is one of the runtime label keys kvet models. */
bool kvet_runtime_key(struct kvet_slice key);

/**
 * kvet_requirement_matches() - evaluate one requirement.
 * @r: the requirement.
 * @labels: the pod's labels (template labels); NULL for none.
 * @rt: the pod's runtime labels, which win over @labels; NULL for none.
 */
bool kvet_requirement_matches(const struct kvet_requirement *r,
			      const struct kvet_labels *labels,
			      const struct kvet_pod_runtime *rt);

/**
 * kvet_selector_matches() - does @sel select a pod with these labels?
 * @sel: a parsed selector; NOTHING and INVALID never match, EVERYTHING
 *       always does.
 * @labels: the pod's labels; NULL for none.
 * @rt: its runtime labels; NULL for none.
 */
bool kvet_selector_matches(const struct kvet_selector *sel,
			   const struct kvet_labels *labels,
			   const struct kvet_pod_runtime *rt);

/*
 * Results that may rest on an assumption about objects missing from the
 * input (docs/model.md 1.5, 1.11).
 */
enum kvet_match {
	KVET_MATCH_FALSE,
	KVET_MATCH_TRUE,
	KVET_MATCH_ASSUMED_FALSE,
	KVET_MATCH_ASSUMED_TRUE,
	KVET_MATCH_UNKNOWN,
};

/* Combine two steps: FALSE, then ASSUMED_FALSE, UNKNOWN, ASSUMED_TRUE win. */
enum kvet_match kvet_match_and(enum kvet_match a, enum kvet_match b);

/* TRUE, or ASSUMED_TRUE: what kvet counts as a match. */
static inline bool kvet_match_is_true(enum kvet_match m)
{
	return m == KVET_MATCH_TRUE || m == KVET_MATCH_ASSUMED_TRUE;
}

const char *kvet_match_name(enum kvet_match m);

/* The verdict as rules compare it: "TRUE", "FALSE", "ASSUMED-TRUE",
 * "ASSUMED-FALSE" or "UNKNOWN". */
const char *kvet_match_verdict(enum kvet_match m);

/**
 * kvet_selector_match_namespace() - evaluate a namespaceSelector.
 * @sel: the selector.
 * @ns: the namespace's name.
 * @ns_labels: the Namespace object's labels, or NULL when the input has
 *             no Namespace object for @ns.
 *
 * kubernetes.io/metadata.name=@ns is always present. When the Namespace
 * object is absent and a requirement concerns another key, the result is
 * ASSUMED: an administrator may have labelled the namespace.
 */
enum kvet_match kvet_selector_match_namespace(const struct kvet_selector *sel,
					      const char *ns,
					      const struct kvet_labels *ns_labels);

const char *kvet_sel_op_name(enum kvet_sel_op op);

/* How a selector field was written: "absent" (or null), "empty" ({}),
 * "requirements", or "invalid" when the API server rejects it. */
const char *kvet_selector_form_name(const struct kvet_selector *sel);

#endif

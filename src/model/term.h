/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_TERM_H
#define KVET_MODEL_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/strbuf.h"
#include "load/node.h"
#include "model/labels.h"
#include "model/selector.h"

/*
 * The one reading of a pod's scheduling terms (docs/model.md 1.8): its
 * pod (anti-)affinity terms and topology spread constraints, each with
 * the selector the API server builds from it at pod creation (labelSelector
 * AND matchLabelKeys In AND mismatchLabelKeys NotIn, with the incoming
 * pod's values), its namespace scope (1.7), and for a spread constraint
 * maxSkew, minDomains and the node inclusion policies. Lint's rules read
 * a workload's terms (model/spread.h); the drain reads each pod's, shares
 * equal ones and counts them per node (drain/terms.c).
 */
enum kvet_term_kind {
	KVET_TERM_REQUIRED_ANTI_AFFINITY,	/* required...Execution[i] */
	KVET_TERM_PREFERRED_ANTI_AFFINITY,	/* its podAffinityTerm */
	KVET_TERM_SPREAD_CONSTRAINT,		/* topologySpreadConstraints */
	KVET_TERM_REQUIRED_AFFINITY,		/* podAffinity, required */
};

/* Sets of kinds, for kvet_term_iter_init(). */
#define KVET_TERMS_SPREADING                                   \
	((1u << KVET_TERM_REQUIRED_ANTI_AFFINITY) |            \
	 (1u << KVET_TERM_PREFERRED_ANTI_AFFINITY) |           \
	 (1u << KVET_TERM_SPREAD_CONSTRAINT))
#define KVET_TERMS_SCHEDULING                                  \
	((1u << KVET_TERM_REQUIRED_AFFINITY) |                 \
	 (1u << KVET_TERM_REQUIRED_ANTI_AFFINITY) |            \
	 (1u << KVET_TERM_SPREAD_CONSTRAINT))

/* Where a term is in a pod spec, before it is read. */
struct kvet_term_ref {
	enum kvet_term_kind kind;
	uint32_t index;			/* place in its list */
	const struct kvet_node *entry;	/* the list item (a preferred term's
					 * weighted entry) */
	const struct kvet_node *node;	/* the PodAffinityTerm or constraint */
	/* the scheduler's Filter enforces it: a required term, or a spread
	 * constraint whose whenUnsatisfiable is not ScheduleAnyway (that
	 * one only scores) */
	bool filters;
};

/*
 * The pod spec's term lists in the order the iterator yields them:
 * required affinity, required anti-affinity, preferred anti-affinity,
 * spread constraints. Items of the wrong shape (not a mapping) are
 * skipped: check_types and sched_validate report them.
 */
/* the lists of a pod spec a term comes from: one per kvet_term_kind */
#define KVET_TERM_LISTS 4

struct kvet_term_iter {
	const struct kvet_node *list[KVET_TERM_LISTS];
	enum kvet_term_kind kind[KVET_TERM_LISTS];
	uint32_t at, i;
};

/* Start on @pod_spec's terms of the kinds in @kinds (KVET_TERMS_*). */
void kvet_term_iter_init(struct kvet_term_iter *it,
			 const struct kvet_node *pod_spec, unsigned kinds);

/* At most how many terms the iterator yields: for sizing an array. */
size_t kvet_term_iter_bound(const struct kvet_term_iter *it);

/* The next term into @out; false at the end. */
bool kvet_term_iter_next(struct kvet_term_iter *it, struct kvet_term_ref *out);

struct kvet_workload;

/*
 * The incoming pod whose values matchLabelKeys and mismatchLabelKeys
 * take: a runtime label of @rt (1.6) wins, as its controller sets it
 * over the template, then @labels.
 */
struct kvet_term_pod {
	const struct kvet_labels *labels;
	const struct kvet_pod_runtime *rt;	/* NULL: @labels are all */
	const struct kvet_workload *wl;		/* kept in the term; may be
						 * NULL (a pod of a dump) */
};

/* Plain data in an arena, filled by kvet_term_parse(). */
struct kvet_term {
	enum kvet_term_kind kind;
	const struct kvet_workload *wl;
	uint32_t index;			/* place in its list in the template */
	const struct kvet_node *node;	/* the PodAffinityTerm or constraint */
	const struct kvet_node *entry;	/* the list item (a preferred term's
					 * weighted entry); else == node */
	bool filters;			/* kvet_term_ref.filters */
	struct kvet_slice topology_key;	/* empty when absent or no string */
	const struct kvet_node *topology_key_node;	/* NULL when absent */
	struct kvet_selector selector;	/* labelSelector as written */
	/* labelSelector AND matchLabelKeys In AND mismatchLabelKeys NotIn,
	 * with the incoming pod's values (template and runtime labels) */
	struct kvet_selector merged;
	const struct kvet_node *match_label_keys;	/* NULL when absent */
	const struct kvet_node *mismatch_label_keys;	/* affinity only */
	/* 1.7 scope: the pod's own namespace when both fields below are
	 * empty or null, and always for a spread constraint */
	bool scope_own;
	const struct kvet_slice *namespaces;	/* sorted, unique */
	size_t n_namespaces;
	struct kvet_selector ns_selector;	/* NOTHING when absent */
	/* spread constraints; the defaults of the API otherwise */
	int64_t max_skew;		/* 1 when absent or no integer */
	int64_t min_domains;		/* 1 when absent or no integer */
	bool honor_affinity;		/* nodeAffinityPolicy not Ignore */
	bool honor_taints;		/* nodeTaintsPolicy Honor */
};

/**
 * kvet_term_parse() - read the term at @ref for the incoming pod @pod.
 * @arena: where the selectors and the namespace list go.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_term_parse(struct kvet_arena *arena, const struct kvet_term_ref *ref,
		    const struct kvet_term_pod *pod, struct kvet_term *out);

/**
 * kvet_term_identity() - append to @sb the bytes two terms share exactly
 * when kvet_term_parse() reads them alike: the term's shape, types and
 * text, positions aside, then the incoming pod's values of its
 * matchLabelKeys and mismatchLabelKeys. 100,000 aliases of one anchor
 * are one term this way, without reading any of them twice.
 * @arena: where runtime values are copied (only when @pod->rt is set).
 * Returns: 0, or -1 when out of memory (also when @sb ran out).
 */
int kvet_term_identity(struct kvet_strbuf *sb, struct kvet_arena *arena,
		       const struct kvet_term_ref *ref,
		       const struct kvet_term_pod *pod);

const char *kvet_term_kind_name(enum kvet_term_kind kind);

/* True for both kinds of pod anti-affinity term. */
bool kvet_term_is_anti_affinity(const struct kvet_term *t);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_SPREAD_H
#define KVET_MODEL_SPREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/graph.h"
#include "model/selector.h"
#include "model/term.h"
#include "model/workload.h"

/*
 * Spreading terms (docs/model.md 1.8): the pod anti-affinity terms and
 * topology spread constraints of a workload, read once by model/term.c
 * for its first pod, and what lint's rules ask of them.
 */
struct kvet_terms {
	const struct kvet_term *v;
	size_t n;
};

/**
 * kvet_workload_terms() - the spreading terms of @wl, in template order:
 * required anti-affinity terms, preferred ones, then spread constraints.
 * @arena: the run's arena; the terms and merged selectors go here.
 * @wl: the workload.
 * @out: the terms; empty when the template has none.
 *
 * Items of the wrong shape (not a mapping) are skipped: check_types and
 * sched_validate report them.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_workload_terms(struct kvet_arena *arena,
			const struct kvet_workload *wl, struct kvet_terms *out);

/**
 * kvet_term_matches_siblings() - does the term reach a sibling replica of
 * the same revision: its scope (1.7) includes the workload's namespace
 * (TRUE or ASSUMED-TRUE) and its merged selector matches the sibling? A
 * per-pod key (StatefulSet pod-name) in matchLabelKeys makes it miss: the
 * sibling's value differs.
 */
bool kvet_term_matches_siblings(const struct kvet_graph *g,
				const struct kvet_term *t);

/*
 * The labels half of kvet_term_matches_siblings(), whatever the scope:
 * rule spread-selector-misses-own-pods blames the selector only when it
 * is the selector that misses.
 */
bool kvet_term_selector_matches_siblings(const struct kvet_term *t);

/**
 * kvet_term_matches_siblings_across_revisions() - does the merged
 * selector also match a sibling of another revision (a pod of the old
 * ReplicaSet during a rollout, rule
 * required-anti-affinity-rollout-deadlock)? False when matchLabelKeys
 * names pod-template-hash or controller-revision-hash, or when the scope
 * leaves out its own namespace.
 */
bool kvet_term_matches_siblings_across_revisions(const struct kvet_graph *g,
						 const struct kvet_term *t);

/**
 * kvet_spreading_topology_key() - one of the five well-known node
 * topology labels of 1.8, or a key the configuration adds.
 */
bool kvet_spreading_topology_key(const struct kvet_graph *g,
				 struct kvet_slice key);

/**
 * kvet_term_scope_includes() - is namespace @ns in the term's scope (1.7)?
 * Returns: TRUE or FALSE, or an ASSUMED result when a namespaceSelector
 * decides it and the input has no Namespace object for @ns.
 */
enum kvet_match kvet_term_scope_includes(const struct kvet_graph *g,
					 const struct kvet_term *t,
					 const char *ns);

/**
 * kvet_term_effective() - is @t an effective spreading term (1.8): it
 * matches siblings, its topologyKey is a spreading key and its scope
 * includes the workload's namespace?
 * Returns: FALSE when any part fails, else the scope's result.
 */
enum kvet_match kvet_term_effective(const struct kvet_graph *g,
				    const struct kvet_term *t);

/*
 * Called for each foreign workload a term selects, with the scope result
 * for its namespace (TRUE, ASSUMED_TRUE); non-zero stops the walk.
 */
typedef int (*kvet_term_fn)(void *data, const struct kvet_workload *wl,
			    enum kvet_match scope);

/**
 * kvet_term_foreign_workloads() - the workloads other than the term's own
 * whose pods its merged selector selects within its scope, through the
 * graph's label index. Listed namespaces first, in list order, then those
 * a namespaceSelector matches; workloads in namespaces the selector
 * matches FALSE or ASSUMED_FALSE are left out.
 *
 * Returns: 0, the first non-zero value of @fn, or -1 when out of memory.
 */
int kvet_term_foreign_workloads(const struct kvet_graph *g,
				const struct kvet_term *t, kvet_term_fn fn,
				void *data);

/**
 * kvet_term_selected_workloads() - kvet_term_foreign_workloads() with the
 * term's own workload included when its merged selector selects its pods
 * (for callers that share one walk among terms with equal selectors).
 */
int kvet_term_selected_workloads(const struct kvet_graph *g,
				 const struct kvet_term *t, kvet_term_fn fn,
				 void *data);

struct kvet_term_hit {
	const struct kvet_workload *wl;
	enum kvet_match scope;
};

/**
 * kvet_term_foreign_list() - kvet_term_foreign_workloads() into an array.
 * @arena: where the array goes.
 * @out: the hits, borrowed from @arena; NULL when there are none.
 * @n: how many.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_term_foreign_list(struct kvet_arena *arena,
			   const struct kvet_graph *g,
			   const struct kvet_term *t,
			   const struct kvet_term_hit **out, size_t *n);

/**
 * kvet_shared_label_key() - is @key one that several installations
 * share (app.kubernetes.io/part-of, ...component, ...managed-by,
 * ...version, helm.sh/chart, control-plane, tier; with the
 * configuration's sharedLabelKeys added or instead)?
 */
bool kvet_shared_label_key(const struct kvet_graph *g, struct kvet_slice key);

/**
 * kvet_term_shared_keys_only() - the heuristic of rule
 * spread-selector-matches-foreign-pods: does every requirement of the
 * merged selector use a shared key (app.kubernetes.io/part-of,
 * ...component, ...managed-by, ...version, helm.sh/chart, control-plane,
 * tier; with the configuration's shared_keys added or instead), so that another
 * installation would be matched? A selector that matches everything is
 * shared; one that matches nothing is not.
 */
bool kvet_term_shared_keys_only(const struct kvet_graph *g,
				const struct kvet_term *t);

/* Is the term's own namespace in its scope only by an ASSUMED result? */
bool kvet_term_scope_assumed(const struct kvet_graph *g,
			     const struct kvet_term *t);

/**
 * kvet_term_matches_elsewhere() - does the merged selector match another
 * workload in some namespace, in scope or not? (Rule
 * spread-selector-matches-foreign-pods stays quiet when the input shows
 * the labels elsewhere.)
 * Returns: 1 or 0, or -1 when out of memory.
 */
int kvet_term_matches_elsewhere(const struct kvet_graph *g,
				const struct kvet_term *t);

/**
 * kvet_workload_lacks_spreading() - rule multi-replica-without-spread for
 * one workload: scalable, N_max at least 2 and no effective spreading
 * term; a term whose scope rests on an assumption counts as effective,
 * so an assumption never raises a severity.
 * @arena: where its terms are built.
 * Returns: 0 with @out set, or -1 when out of memory.
 */
int kvet_workload_lacks_spreading(struct kvet_arena *arena,
				  const struct kvet_graph *g,
				  const struct kvet_workload *wl, bool *out);

/* Why a term is not an effective spreading term (1.8), the first reason
 * found; the words are the caller's. */
enum kvet_term_flaw {
	KVET_TERM_EFFECTIVE,		/* none: it is effective */
	KVET_TERM_NO_SELECTOR,		/* no labelSelector: counts no pod */
	KVET_TERM_INVALID_SELECTOR,	/* selector.error says why */
	KVET_TERM_EXCLUDES_OWN_PODS,	/* a mismatchLabelKeys key (req) */
	KVET_TERM_KEY_UNIQUE_PER_POD,	/* a matchLabelKeys key (req) whose
					 * value differs on every pod */
	KVET_TERM_MISSES_OWN_PODS,	/* the labelSelector misses them */
	KVET_TERM_NO_TOPOLOGY_KEY,
	KVET_TERM_NOT_SPREADING_KEY,	/* not a node, zone or region key */
	KVET_TERM_SCOPE_EXCLUDES_OWN,	/* its own namespace (scope says
					 * whether by assumption) */
};

struct kvet_term_why {
	enum kvet_term_flaw flaw;
	const struct kvet_node *at;	/* the field it concerns: the key of
					 * labelSelector, topologyKey,
					 * namespaceSelector, the
					 * matchLabelKeys item; or the term */
	const struct kvet_requirement *req;	/* the key's requirement */
	enum kvet_match scope;		/* of its own namespace */
};

/* Why @t is not effective; flaw EFFECTIVE when it is. */
void kvet_term_why_not(const struct kvet_graph *g, const struct kvet_term *t,
		       struct kvet_term_why *out);

/* ---- the terms of a run (spread_run.c) ---- */

struct kvet_run;

/* Foreign workloads one term selects; keep lists the first of them. */
enum { KVET_TERM_FOREIGN_KEEP = 50 };

struct kvet_term_foreign {
	size_t n;			/* foreign workloads, all of them */
	size_t n_true;			/* of those, in scope for certain */
	long long pods;			/* their N_min; unknown counts add 0 */
	const struct kvet_term_hit *keep;	/* the first ones, in walk
						 * order */
	size_t n_keep;			/* at most KVET_TERM_FOREIGN_KEEP */
};

/**
 * kvet_run_terms() - the terms of @wl (kvet_workload_terms()), built once
 * per run; the pointers stay valid for the run, so a term found twice is
 * the same term.
 * Returns: the terms, or NULL when out of memory.
 */
const struct kvet_terms *kvet_run_terms(struct kvet_run *run,
					const struct kvet_workload *wl);

/**
 * kvet_run_term_at() - the term of the run whose mapping is @node (a
 * value of spreadingTerms(), or the same field read from the object).
 * @out: the term, or NULL when @node is no term's.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_run_term_at(struct kvet_run *run, const struct kvet_node *node,
		     const struct kvet_term **out);

/**
 * kvet_run_term_foreign() - the foreign workloads of a term of the run
 * (kvet_term_foreign_workloads()), found once: terms with equal merged
 * selectors and scopes share one walk of the label index.
 * Returns: the result, or NULL when out of memory.
 */
const struct kvet_term_foreign *kvet_run_term_foreign(struct kvet_run *run,
						      const struct kvet_term *t);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_FIT_H
#define KVET_DRAIN_FIT_H

/*
 * The kube-scheduler's filter plugins, as far as files can tell, one file
 * each, in the default profile's order (NodeUnschedulable,
 * TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit,
 * VolumeBinding, PodTopologySpread, InterPodAffinity). A filter that
 * rejects a node adds the plugin's own reason to a struct drain_reasons;
 * placement stops at the first plugin that rejects, as the scheduler does.
 */
#include "drain/state.h"

enum { DRAIN_MAX_REASONS = 8 };

struct drain_reasons {
	const char *v[DRAIN_MAX_REASONS];
	size_t n;
};

static inline void drain_reason(struct drain_reasons *r, const char *s)
{
	if (r && r->n < DRAIN_MAX_REASONS)
		r->v[r->n++] = s;
}

/* Does pod @pod's label set match term @t (its match list)? */
static inline bool drain_pod_matches_term(const struct drain_pod *pod,
					  uint32_t t)
{
	uint32_t i;

	for (i = 0; i < pod->n_match_terms; i++)
		if (pod->match_terms[i] == t)
			return true;
	return false;
}

/* fit_node.c: what the pod spec and the node alone decide. */
bool drain_fit_unschedulable(const struct drain_cluster *c, uint32_t p,
			     uint32_t n, struct drain_reasons *r);
bool drain_fit_taints(struct drain_cluster *c, uint32_t p, uint32_t n,
		      struct drain_reasons *r);
bool drain_fit_node_affinity(const struct drain_cluster *c, uint32_t p,
			     uint32_t n, struct drain_reasons *r);
bool drain_fit_volumes(const struct drain_cluster *c, uint32_t p, uint32_t n,
		       struct drain_reasons *r);
bool drain_fit_volume_zone(const struct drain_cluster *c, uint32_t p,
			   uint32_t n, struct drain_reasons *r);

/* fit_resources.c, fit_ports.c */
bool drain_fit_resources(struct drain_cluster *c, uint32_t p, uint32_t n,
			 struct drain_reasons *r);
bool drain_fit_ports(const struct drain_cluster *c, uint32_t p, uint32_t n,
		     struct drain_reasons *r);

/*
 * What PodTopologySpread and InterPodAffinity compute once per pod before
 * filtering nodes (their PreFilter): per term, the matching pods of each
 * domain of its topology key.
 */
struct drain_domain_counts {
	uint32_t term;
	int64_t *count;			/* per value of the term's key */
	int64_t min;			/* spread: the smallest eligible one */
	bool any;			/* affinity: some pod matches */
};

struct drain_prefilter {
	struct drain_domain_counts *spread;	/* the pod's constraints */
	size_t n_spread;
	struct drain_domain_counts *affinity;	/* its affinity terms */
	size_t n_affinity;
	struct drain_domain_counts *anti;	/* its anti-affinity terms */
	size_t n_anti;
	struct drain_domain_counts *existing;	/* others' terms it meets */
	size_t n_existing;
	bool self_matches_affinity;	/* the pod matches all its own */
	/* no nodeSelector and no required node affinity: NodeAffinity
	 * passes on every node, without reading the spec per node */
	bool any_node;
};

/* fit_spread.c, fit_interpod.c */
int drain_prefilter_spread(struct drain_cluster *c, struct kvet_arena *scratch,
			   uint32_t p, struct drain_prefilter *pre);
bool drain_fit_spread(const struct drain_cluster *c, uint32_t p, uint32_t n,
		      const struct drain_prefilter *pre,
		      struct drain_reasons *r);
int drain_prefilter_interpod(struct drain_cluster *c,
			     struct kvet_arena *scratch, uint32_t p,
			     struct drain_prefilter *pre);
bool drain_fit_interpod(const struct drain_cluster *c, uint32_t p, uint32_t n,
			const struct drain_prefilter *pre,
			struct drain_reasons *r);

/* Domain counts of term @t over the present nodes @keep accepts. */
int64_t *drain_domain_counts(const struct drain_cluster *c,
			     struct kvet_arena *scratch, uint32_t t,
			     bool use_own, const bool *keep);

/*
 * place.c: the first node in preference order that every filter accepts
 * (on a synthetic pool: the one with fewest pods of the workload, by node
 * then zone, ties in preference order), or DRAIN_NONE with the scheduler's message in @why ("0/5 nodes are
 * available: 3 Insufficient cpu, 2 node(s) were unschedulable.").
 */
uint32_t drain_place(struct drain_cluster *c, uint32_t p, const char **why);

/* Place @p on node @n or nowhere, as a DaemonSet's pod, whose node
 * affinity names its node: the other nodes fail NodeAffinity. */
uint32_t drain_place_on(struct drain_cluster *c, uint32_t p, uint32_t n,
			const char **why);

#endif

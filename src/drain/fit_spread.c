/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PodTopologySpread, for whenUnsatisfiable: DoNotSchedule: placing the
 * pod in a node's domain must not make that domain's matching pods exceed
 * the smallest domain's by more than maxSkew. Domains are counted over
 * the nodes the pod's node affinity accepts (nodeAffinityPolicy Honor,
 * the default) and whose taints it tolerates when nodeTaintsPolicy is
 * Honor, cordoned ones included, as the scheduler's PreFilter counts them;
 * fewer domains than minDomains make the minimum 0. A cordoned node carries
 * node.kubernetes.io/unschedulable:NoSchedule (the node lifecycle
 * controller adds it to every node with spec.unschedulable), so under
 * nodeTaintsPolicy Honor a node kvet cordons leaves the count exactly as
 * one the dump shows cordoned, whether or not the dump lists the taint.
 */
#include "drain/fit.h"

#include <string.h>

#include "drain/keys.h"
#include "model/node_affinity.h"

int64_t *drain_domain_counts(const struct drain_cluster *c,
			     struct kvet_arena *scratch, uint32_t t,
			     bool use_own, const bool *keep)
{
	const struct drain_term *term = &c->terms[t];
	const struct drain_key *k = &c->keys[term->key];
	int64_t *count = kvet_arena_array(scratch, k->n_values + 1,
					   sizeof(*count));
	uint32_t n, v;

	if (!count)
		return NULL;
	for (n = 0; n < c->n_nodes; n++) {
		v = k->value[n];
		if (v == DRAIN_NONE || c->nodes[n].gone || (keep && !keep[n]))
			continue;
		if (use_own ? term->own != NULL : term->match != NULL)
			count[v] += use_own ? term->own[n] : term->match[n];
	}
	return count;
}

static bool *eligible_nodes(struct drain_cluster *c,
			    struct kvet_arena *scratch, uint32_t p,
			    const struct drain_term *t)
{
	bool *keep = kvet_arena_array(scratch, c->n_nodes + 1, sizeof(*keep));
	uint32_t n;

	if (!keep)
		return NULL;
	for (n = 0; n < c->n_nodes; n++)
		keep[n] = !c->nodes[n].gone &&
			  (!t->t.honor_affinity ||
			   drain_fit_node_affinity(c, p, n, NULL)) &&
			  (!t->t.honor_taints ||
			   (drain_fit_taints(c, p, n, NULL) &&
			    drain_fit_unschedulable(c, p, n, NULL)));
	return keep;
}

int drain_prefilter_spread(struct drain_cluster *c, struct kvet_arena *scratch,
			   uint32_t p, struct drain_prefilter *pre)
{
	const struct drain_pod *pod = &c->pods[p];
	uint32_t i, n, v;

	pre->spread = kvet_arena_array(scratch, pod->n_own_terms + 1,
				       sizeof(*pre->spread));
	if (!pre->spread)
		return -1;
	for (i = 0; i < pod->n_own_terms; i++) {
		uint32_t t = pod->own_terms[i];
		const struct drain_term *term = &c->terms[t];
		const struct drain_key *k = &c->keys[term->key];
		struct drain_domain_counts *d = &pre->spread[pre->n_spread];
		bool *keep, *seen;
		int64_t domains = 0;

		if (term->t.kind != KVET_TERM_SPREAD_CONSTRAINT)
			continue;
		keep = eligible_nodes(c, scratch, p, term);
		seen = kvet_arena_array(scratch, k->n_values + 1,
					sizeof(*seen));
		if (!keep || !seen)
			return -1;
		d->term = t;
		d->count = drain_domain_counts(c, scratch, t, false, keep);
		if (!d->count)
			return -1;
		d->min = INT64_MAX;
		for (n = 0; n < c->n_nodes; n++) {
			v = k->value[n];
			if (!keep[n] || v == DRAIN_NONE || seen[v])
				continue;
			seen[v] = true;
			domains++;
			if (d->count[v] < d->min)
				d->min = d->count[v];
		}
		if (domains < term->t.min_domains || d->min == INT64_MAX)
			d->min = 0;
		pre->n_spread++;
	}
	return 0;
}

bool drain_fit_spread(const struct drain_cluster *c, uint32_t p, uint32_t n,
		      const struct drain_prefilter *pre,
		      struct drain_reasons *r)
{
	const struct drain_pod *pod = &c->pods[p];
	size_t i;

	for (i = 0; i < pre->n_spread; i++) {
		const struct drain_domain_counts *d = &pre->spread[i];
		const struct drain_term *t = &c->terms[d->term];
		uint32_t v = drain_key_value(c, t->key, n);
		int64_t skew;

		if (v == DRAIN_NONE) {
			drain_reason(r, "node(s) didn't match pod topology spread constraints (missing required label)");
			return false;
		}
		skew = d->count[v] + (drain_pod_matches_term(pod, d->term) ? 1 : 0) -
		       d->min;
		if (skew > t->t.max_skew) {
			drain_reason(r, "node(s) didn't match pod topology spread constraints");
			return false;
		}
	}
	return true;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * InterPodAffinity, required terms only: the pod's affinity terms need a
 * matching pod in the node's domain (or, when no pod anywhere matches and
 * the pod matches its own terms, none: the first of a group); its
 * anti-affinity terms forbid domains with a matching pod; and existing
 * pods' anti-affinity terms that match the pod forbid their domains (the
 * symmetry the scheduler enforces).
 */
#include "drain/fit.h"

#include "drain/keys.h"

static int add(struct drain_cluster *c, struct kvet_arena *scratch,
	       struct drain_domain_counts *v, size_t *n, uint32_t t,
	       bool use_own)
{
	struct drain_domain_counts *d = &v[(*n)++];

	d->term = t;
	d->count = drain_domain_counts(c, scratch, t, use_own, NULL);
	d->any = c->terms[t].match_total > 0;
	return d->count ? 0 : -1;
}

int drain_prefilter_interpod(struct drain_cluster *c,
			     struct kvet_arena *scratch, uint32_t p,
			     struct drain_prefilter *pre)
{
	const struct drain_pod *pod = &c->pods[p];
	size_t cap = pod->n_own_terms + pod->n_match_terms + 1;
	uint32_t i, t;

	pre->affinity = kvet_arena_array(scratch, cap, sizeof(*pre->affinity));
	pre->anti = kvet_arena_array(scratch, cap, sizeof(*pre->anti));
	pre->existing = kvet_arena_array(scratch, cap, sizeof(*pre->existing));
	if (!pre->affinity || !pre->anti || !pre->existing)
		return -1;
	pre->self_matches_affinity = true;
	for (i = 0; i < pod->n_own_terms; i++) {
		t = pod->own_terms[i];
		if (c->terms[t].t.kind == KVET_TERM_REQUIRED_AFFINITY) {
			if (add(c, scratch, pre->affinity, &pre->n_affinity, t,
				false) < 0)
				return -1;
			pre->self_matches_affinity &= drain_pod_matches_term(pod, t);
		} else if (c->terms[t].t.kind == KVET_TERM_REQUIRED_ANTI_AFFINITY &&
			   add(c, scratch, pre->anti, &pre->n_anti, t,
			       false) < 0) {
			return -1;
		}
	}
	for (i = 0; i < pod->n_match_terms; i++) {
		t = pod->match_terms[i];
		if (c->terms[t].t.kind == KVET_TERM_REQUIRED_ANTI_AFFINITY &&
		    add(c, scratch, pre->existing, &pre->n_existing, t,
			true) < 0)
			return -1;
	}
	return 0;
}

static bool satisfies_affinity(const struct drain_cluster *c, uint32_t n,
			       const struct drain_prefilter *pre)
{
	bool any = false;
	size_t i;

	for (i = 0; i < pre->n_affinity; i++)
		any |= pre->affinity[i].any;
	for (i = 0; i < pre->n_affinity; i++) {
		const struct drain_domain_counts *d = &pre->affinity[i];
		uint32_t v = drain_key_value(c, c->terms[d->term].key, n);

		if (v == DRAIN_NONE)
			return false;
		if (d->count[v] > 0)
			continue;
		/* the first pod of a group that selects itself */
		if (!any && pre->self_matches_affinity)
			continue;
		return false;
	}
	return true;
}

static bool clear_of(const struct drain_cluster *c, uint32_t n,
		     const struct drain_domain_counts *v, size_t count)
{
	size_t i;

	for (i = 0; i < count; i++) {
		uint32_t val = drain_key_value(c, c->terms[v[i].term].key, n);

		if (val != DRAIN_NONE && v[i].count[val] > 0)
			return false;
	}
	return true;
}

bool drain_fit_interpod(const struct drain_cluster *c, uint32_t p, uint32_t n,
			const struct drain_prefilter *pre,
			struct drain_reasons *r)
{
	(void)p;
	if (!satisfies_affinity(c, n, pre)) {
		drain_reason(r, "node(s) didn't match pod affinity rules");
		return false;
	}
	if (!clear_of(c, n, pre->anti, pre->n_anti)) {
		drain_reason(r, "node(s) didn't match pod anti-affinity rules");
		return false;
	}
	if (!clear_of(c, n, pre->existing, pre->n_existing)) {
		drain_reason(r, "node(s) didn't satisfy existing pods anti-affinity rules");
		return false;
	}
	return true;
}

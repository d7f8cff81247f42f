/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_RELATE_H
#define KVET_DRAIN_RELATE_H

/*
 * Relations between pods and what selects them, collected as (pod, item)
 * pairs and turned into one sorted array per pod.
 */
#include "drain/pod_index.h"
#include "drain/state.h"

struct drain_pairs {
	uint64_t *v;		/* pod << 32 | item */
	size_t n, cap;
	bool oom;
};

void drain_pairs_add(struct drain_pairs *pr, uint32_t pod, uint32_t item);

/* Give each pod its items: @list and @count are offsets of the pod's
 * fields (budgets, services, match_terms, own_terms). Frees @pr. */
int drain_pairs_finish(struct drain_cluster *c, struct drain_pairs *pr,
		       size_t list, size_t count);

/* budget.c, outage.c, terms.c: what each builds from the dump. */
int drain_budgets_build(struct drain_cluster *c,
			const struct drain_pod_index *idx);
int drain_services_build(struct drain_cluster *c,
			 const struct drain_pod_index *idx);
int drain_webhooks_build(struct drain_cluster *c);
int drain_sts_build(struct drain_cluster *c);
int drain_terms_build(struct drain_cluster *c,
		      const struct drain_pod_index *idx);

#endif

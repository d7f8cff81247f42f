/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_POD_INDEX_H
#define KVET_DRAIN_POD_INDEX_H

/*
 * The pods of a dump by namespace, label key and label value, so that
 * "which pods does this PDB, Service or term select" costs about the pods
 * carrying its most selective requirement, never every pod.
 */
#include "drain/state.h"
#include "model/hash.h"

struct drain_pod_index {
	struct kvet_hash h;
};

/* Index pods 0 .. c->n_pods - 1. Returns 0, or -1 when out of memory. */
int drain_pod_index_build(struct drain_pod_index *idx,
			  const struct drain_cluster *c);
void drain_pod_index_release(struct drain_pod_index *idx);

/* Called with each selected pod's index; non-zero stops the walk. */
typedef int (*drain_pod_fn)(void *data, uint32_t pod);

/**
 * drain_pod_index_select() - the indexed pods of namespace @ns that @sel
 * selects (kvet_selector_matches() on their labels).
 *
 * Returns: 0, or the first non-zero value of @fn.
 */
int drain_pod_index_select(const struct drain_pod_index *idx,
			   const struct drain_cluster *c, const char *ns,
			   const struct kvet_selector *sel, drain_pod_fn fn,
			   void *data);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_INDEX_H
#define KVET_MODEL_INDEX_H

#include <stddef.h>

#include "base/arena.h"
#include "model/selector.h"
#include "model/workload.h"

/*
 * The label index: per namespace (and across all namespaces), which
 * workloads carry label key k, and which carry k=v. Selecting with it
 * costs about the number of workloads carrying the selector's most
 * selective In or Exists requirement, not the number of workloads, which
 * keeps "which pods does this PDB/Service/term select" near-linear over a
 * 100,000-object dump (DESIGN.md, "Relations are computed once per run
 * from indexes").
 */
struct kvet_label_index;

/*
 * Called for each selected workload, in workload order; a non-zero return
 * stops the walk and is returned by the select function.
 */
typedef int (*kvet_workload_fn)(void *data, const struct kvet_workload *wl);

/**
 * kvet_label_index_create() - index workloads by namespace and labels.
 * @arena: where postings go; it must outlive the index.
 * @wls: the workloads, wls[i]->index == i; borrowed for the index's life.
 * @n: how many.
 *
 * Returns: an index freed with kvet_label_index_destroy(), or NULL when
 * out of memory.
 */
struct kvet_label_index *kvet_label_index_create(struct kvet_arena *arena,
						 struct kvet_workload *const *wls,
						 size_t n);

void kvet_label_index_destroy(struct kvet_label_index *idx);

/**
 * kvet_label_index_select() - the workloads whose pods @sel selects.
 * @idx: the index.
 * @ns: the namespace scope, or NULL for every namespace.
 * @sel: the selector, evaluated with kvet_workload_selected_by().
 * @fn: called for each selected workload.
 * @data: passed to @fn.
 * @examined: when not NULL, set to the number of candidates checked.
 *
 * Selectors with only NotIn and DoesNotExist requirements, or only
 * requirements on runtime labels, scan the namespace.
 *
 * Returns: 0, the first non-zero value of @fn, or -1 when out of memory.
 */
int kvet_label_index_select(const struct kvet_label_index *idx,
			    const char *ns, const struct kvet_selector *sel,
			    kvet_workload_fn fn, void *data, size_t *examined);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_OVERLAP_H
#define KVET_MODEL_OVERLAP_H

#include <stdbool.h>
#include <stddef.h>

#include "model/workload.h"

/*
 * Workloads whose selectors overlap (rule workload-selectors-overlap):
 * two controllers of one namespace fighting over the same pods.
 */
struct kvet_run;

/**
 * kvet_run_overlapping() - the other workloads of @wl's namespace whose
 * pods its spec.selector selects, or whose selector selects its pods, in
 * workload order. Built once per run from one label-index selection per
 * workload, never by comparing every pair. A Job or CronJob with a
 * generated selector, and a bare Pod, overlap nothing.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_run_overlapping(struct kvet_run *run, const struct kvet_workload *wl,
			 const struct kvet_workload *const **out, size_t *n);

/* The spec.selector of @a selects the pods of @b, another workload of its
 * namespace. */
bool kvet_workload_selects_pods_of(const struct kvet_workload *a,
				   const struct kvet_workload *b);

#endif

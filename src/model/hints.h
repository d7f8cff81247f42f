/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_HINTS_H
#define KVET_MODEL_HINTS_H

#include <stddef.h>

#include "base/arena.h"
#include "model/graph.h"
#include "model/pdb.h"

/*
 * Hints for a PodDisruptionBudget that selects nothing (rule
 * pdb-matches-nothing): the workloads it would select in other
 * namespaces, and the near misses of its own namespace. Hints stay short
 * and cheap: at most KVET_HINT_MAX workloads, and a one-requirement near
 * miss looks at no more than KVET_HINT_BUDGET workloads carrying the key,
 * so a PDB that matches nothing in a namespace of thousands of workloads
 * costs a bounded amount.
 */
enum { KVET_HINT_MAX = 10, KVET_HINT_BUDGET = 256 };

/**
 * kvet_pdb_selected_elsewhere() - the workloads of other namespaces the
 * budget's selector matches ("PDB in the wrong namespace?"), the first
 * KVET_HINT_MAX, in workload order; none for {}, which would match
 * everything anywhere.
 * @arena: where the list goes.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_pdb_selected_elsewhere(struct kvet_arena *arena,
				const struct kvet_graph *g,
				const struct kvet_pdb *pdb,
				const struct kvet_workload ***out, size_t *n);

/**
 * kvet_pdb_near_misses() - the workloads of the budget's namespace that
 * meet every requirement but one, found with the label index by
 * dropping each requirement in turn. With a single requirement "all but
 * one" is every workload, so a near miss is one whose value for an In
 * requirement's key looks like a typo of a wanted value (at most two
 * edits, or one containing the other: mgr, mgr-controller). At most
 * KVET_HINT_MAX, in workload order.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_pdb_near_misses(struct kvet_arena *arena, const struct kvet_graph *g,
			 const struct kvet_pdb *pdb,
			 const struct kvet_workload ***out, size_t *n);

/* The first requirement of the budget's selector that @wl's pods fail,
 * or NULL when they meet all. */
const struct kvet_requirement *
kvet_pdb_unmet_requirement(const struct kvet_pdb *pdb,
			   const struct kvet_workload *wl);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_CEL_K8S_H
#define KVET_RULES_CEL_K8S_H

#include "base/arena.h"
#include "model/graph.h"

/*
 * The relations the Kubernetes functions of CEL read, computed once per
 * run from the graph's indexes: which workloads each PDB selects, their
 * budget at N_min (RULES-CATALOGUE 1.9), and the reverse, which PDBs
 * cover each workload. Built on first use, so a run whose rules never
 * ask pays nothing.
 */
struct cel_k8s;

/**
 * cel_k8s_create() - relation caches for one run.
 * @arena: the run's arena; the relations live there.
 * @g: the graph; borrowed.
 *
 * Returns: the caches, freed with cel_k8s_destroy(), or NULL when out of
 * memory.
 */
struct cel_k8s *cel_k8s_create(struct kvet_arena *arena,
			       const struct kvet_graph *g);
void cel_k8s_destroy(struct cel_k8s *k);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_RUN_H
#define KVET_MODEL_RUN_H

#include "base/arena.h"
#include "model/graph.h"

/*
 * The per-run indexes of the model: relations over the whole graph that
 * several questions share (which workloads each PDB selects, the webhook
 * backends, the spreading terms, the RBAC subject index, ...). Each is
 * built on first use, so a run whose rules never ask pays nothing, and
 * lives until the run ends. A run belongs to one thread: its indexes are
 * filled lazily and without locks (every rule runner has its own).
 *
 * Each topic owns its index and declares a typed accessor next to its
 * other functions (kvet_run_webhooks() in webhook.h, ...); this file
 * only keeps the slots.
 */
struct kvet_run;

/**
 * kvet_run_create() - the indexes of one run, none built yet.
 * @arena: where the indexes live; NULL for an arena of the run's own,
 *         released by kvet_run_destroy() (the rules' runner: about 100 MB
 *         of indexes for gen_dump --overlap 100000 go when the rules are
 *         done, before the findings are joined, sorted and reported).
 * @g: the graph; borrowed for the run's lifetime.
 *
 * Returns: the run, freed with kvet_run_destroy(), or NULL when out of
 * memory.
 */
struct kvet_run *kvet_run_create(struct kvet_arena *arena,
				 const struct kvet_graph *g);
void kvet_run_destroy(struct kvet_run *run);

const struct kvet_graph *kvet_run_graph(const struct kvet_run *run);
struct kvet_arena *kvet_run_arena(const struct kvet_run *run);

/* The indexes, one slot each. */
enum kvet_run_slot {
	KVET_RUN_BUDGETS,		/* pdb.c: PDB <-> workloads */
	KVET_RUN_OVERLAPS,		/* overlap.c: selector overlaps */
	KVET_RUN_TERMS,			/* spread_run.c: terms, foreigners */
	KVET_RUN_WEBHOOKS,		/* webhook.c: entries and backends */
	KVET_RUN_CONFIG_WRITERS,	/* rbac.c: who may rewrite webhooks */
	KVET_RUN_MANAGERS,		/* manager.c: verdicts per workload */
	KVET_RUN_PRIORITIES,		/* priority.c: defaults, live Pods */
	KVET_RUN_RBAC,			/* rbac.c: bindings by subject */
	KVET_RUN_N_SLOTS,
};

typedef void *(*kvet_run_build_fn)(struct kvet_run *run);
typedef void (*kvet_run_free_fn)(void *index);

/**
 * kvet_run_index() - the index of @slot, built by @build on first use.
 * @free: releases what @build allocated outside the run's arena when the
 *        run ends; NULL when everything is in the arena.
 *
 * A build that fails (out of memory) is not tried again: the slot stays
 * empty for the rest of the run.
 *
 * Returns: the index, or NULL when @run is NULL or memory ran out.
 */
void *kvet_run_index(struct kvet_run *run, enum kvet_run_slot slot,
		     kvet_run_build_fn build, kvet_run_free_fn free);

#endif

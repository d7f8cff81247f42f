/* SPDX-License-Identifier: Apache-2.0 */
#include "model/run.h"

#include <stdbool.h>
#include <stdlib.h>

struct kvet_run {
	struct kvet_arena *arena;
	struct kvet_arena own;		/* @arena when none was given */
	const struct kvet_graph *g;
	void *index[KVET_RUN_N_SLOTS];
	kvet_run_free_fn free[KVET_RUN_N_SLOTS];
	bool failed[KVET_RUN_N_SLOTS];
};

struct kvet_run *kvet_run_create(struct kvet_arena *arena,
				 const struct kvet_graph *g)
{
	struct kvet_run *run = calloc(1, sizeof(*run));

	if (!run)
		return NULL;
	kvet_arena_init(&run->own);
	run->arena = arena ? arena : &run->own;
	run->g = g;
	return run;
}

void kvet_run_destroy(struct kvet_run *run)
{
	size_t i;

	if (!run)
		return;
	/* in reverse: a later index may point into an earlier one */
	for (i = KVET_RUN_N_SLOTS; i-- > 0;)
		if (run->index[i] && run->free[i])
			run->free[i](run->index[i]);
	kvet_arena_release(&run->own);
	free(run);
}

const struct kvet_graph *kvet_run_graph(const struct kvet_run *run)
{
	return run ? run->g : NULL;
}

struct kvet_arena *kvet_run_arena(const struct kvet_run *run)
{
	return run ? run->arena : NULL;
}

void *kvet_run_index(struct kvet_run *run, enum kvet_run_slot slot,
		     kvet_run_build_fn build, kvet_run_free_fn free)
{
	if (!run || run->failed[slot])
		return NULL;
	if (!run->index[slot]) {
		run->index[slot] = build(run);
		if (!run->index[slot]) {
			run->failed[slot] = true;
			return NULL;
		}
		run->free[slot] = free;
	}
	return run->index[slot];
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "base/workers.h"

#include <pthread.h>

struct lane_start {
	struct kvet_workers *ws;
	kvet_lane_fn *fn;
	void *arg;
	unsigned int lane;
};

static void *lane_thread(void *p)
{
	struct lane_start *ls = p;

	ls->fn(ls->ws, ls->lane, ls->arg);
	return NULL;
}

void kvet_workers_run(struct kvet_workers *ws, size_t n, unsigned int lanes,
		      kvet_lane_fn *fn, void *arg)
{
	pthread_t threads[KVET_WORKERS_MAX];
	struct lane_start start[KVET_WORKERS_MAX];
	bool started[KVET_WORKERS_MAX] = { false };
	unsigned int i, running = 1;

	atomic_init(&ws->next, 0);
	ws->n = n;
	if (lanes < 1)
		lanes = 1;
	for (i = 1; i < lanes && i < KVET_WORKERS_MAX; i++) {
		start[i] = (struct lane_start){ .ws = ws, .fn = fn, .arg = arg,
						.lane = i };
		started[i] = pthread_create(&threads[i], NULL, lane_thread,
					    &start[i]) == 0;
		running += started[i];
	}
	/* for lane 0 alone: the lanes already started never read it */
	ws->threads = running;
	fn(ws, 0, arg);
	/* a lane without a thread still runs, so that what a lane sets up
	 * and closes (pass.c) is the same whichever thread ran it */
	for (i = 1; i < lanes; i++)
		if (i >= KVET_WORKERS_MAX || !started[i])
			fn(ws, i, arg);
	for (i = 1; i < lanes && i < KVET_WORKERS_MAX; i++)
		if (started[i])
			pthread_join(threads[i], NULL);
}

bool kvet_workers_take_below(struct kvet_workers *ws, size_t limit,
			     size_t *task)
{
	size_t i = atomic_load_explicit(&ws->next, memory_order_relaxed);

	if (limit > ws->n)
		limit = ws->n;
	while (i < limit)
		if (atomic_compare_exchange_weak_explicit(
			    &ws->next, &i, i + 1, memory_order_relaxed,
			    memory_order_relaxed)) {
			*task = i;
			return true;
		}
	return false;
}

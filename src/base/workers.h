/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_WORKERS_H
#define KVET_BASE_WORKERS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Work on several threads, the one way kvet does it: a number of lanes,
 * lane 0 on the calling thread and each other on a thread of its own,
 * all taking tasks from one counter. The counter hands the tasks out in
 * increasing order, so the tasks one lane takes are in increasing order
 * too; which lane takes which task is up to the scheduler, so a caller
 * that needs its results in task order keeps them by task.
 */

/* Lanes that run on threads at once; the others run on the caller's. */
enum { KVET_WORKERS_MAX = 128 };

struct kvet_workers {
	atomic_size_t next;		/* the next task to take */
	size_t n;			/* tasks */
	unsigned int threads;		/* lanes running at once, the
					 * caller's included: for lane 0 */
};

/* What a lane does, once: take tasks until none is left (or stop). */
typedef void kvet_lane_fn(struct kvet_workers *ws, unsigned int lane,
			  void *arg);

/*
 * kvet_workers_run() - run @fn(@ws, lane, @arg) for each lane from 0 to
 * @lanes - 1 (at least lane 0), lane 0 on the calling thread, and hand
 * out the tasks 0 to @n - 1 to them (kvet_workers_take()).
 * @ws: the counter, set up here.
 * @n: how many tasks.
 * @lanes: how many lanes.
 * @fn: the lane.
 * @arg: for @fn.
 *
 * A lane whose thread cannot be started (or past KVET_WORKERS_MAX) runs
 * on the calling thread after lane 0 has returned, in lane order: by
 * then the lanes that run have taken every task, so it usually finds
 * none left. When lane 0 starts, @ws->threads says how many lanes run at
 * once: 1 when it is alone, and then it must do the work itself.
 * Returns when every lane has returned; what they wrote is then visible.
 */
void kvet_workers_run(struct kvet_workers *ws, size_t n, unsigned int lanes,
		      kvet_lane_fn *fn, void *arg);

/* The next task into *@task; false when every task is taken. */
static inline bool kvet_workers_take(struct kvet_workers *ws, size_t *task)
{
	/* the threads' start and join order what the tasks write: the
	 * counter itself orders nothing */
	*task = atomic_fetch_add_explicit(&ws->next, 1, memory_order_relaxed);
	return *task < ws->n;
}

/* The same, but only a task before @limit: false when the next one is
 * @limit or after it (it is left for later), or there is none left. */
bool kvet_workers_take_below(struct kvet_workers *ws, size_t limit,
			     size_t *task);

#endif

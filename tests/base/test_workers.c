/* SPDX-License-Identifier: Apache-2.0 */
/* Lanes on threads: every task once, in increasing order within a lane,
 * every lane once, lane 0 on the caller's thread, and the lanes that get
 * no thread on the caller's after lane 0. */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "base/workers.h"

enum { LANES = KVET_WORKERS_MAX + 4, TASKS = 5000 };

struct record {
	pthread_t caller;
	atomic_uint runs[TASKS];	/* times task i ran */
	atomic_uint lane_runs[LANES];
	unsigned int order[LANES];	/* when each lane ran, on the caller */
	atomic_uint n_order;
	bool on_caller[LANES];
	bool increasing[LANES];
	unsigned int threads;		/* what lane 0 saw */
	size_t limit;			/* take_below only, when set */
};

static void lane(struct kvet_workers *ws, unsigned int id, void *arg)
{
	struct record *r = arg;
	size_t t, last = 0;
	bool first = true;

	atomic_fetch_add(&r->lane_runs[id], 1);
	r->on_caller[id] = pthread_equal(pthread_self(), r->caller);
	if (r->on_caller[id])
		r->order[atomic_fetch_add(&r->n_order, 1)] = id;
	if (id == 0)
		r->threads = ws->threads;
	r->increasing[id] = true;
	while (r->limit ? kvet_workers_take_below(ws, r->limit, &t)
			: kvet_workers_take(ws, &t)) {
		/* cmocka's asserts are for the main thread: noted here */
		if (t >= TASKS || (!first && t <= last)) {
			r->increasing[id] = false;
			break;
		}
		first = false;
		last = t;
		atomic_fetch_add(&r->runs[t], 1);
	}
}

static struct record *run(size_t n, unsigned int lanes, size_t limit)
{
	struct record *r = calloc(1, sizeof(*r));
	struct kvet_workers ws;
	unsigned int i;

	assert_non_null(r);
	r->caller = pthread_self();
	r->limit = limit;
	kvet_workers_run(&ws, n, lanes, lane, r);
	for (i = 0; i < (lanes ? lanes : 1); i++) {
		assert_int_equal(atomic_load(&r->lane_runs[i]), 1);
		assert_true(r->increasing[i]);
	}
	for (; i < LANES; i++)
		assert_int_equal(atomic_load(&r->lane_runs[i]), 0);
	assert_true(r->on_caller[0]);
	/* lane 0 first on the caller's thread, the others after it */
	assert_int_equal(r->order[0], 0);
	for (i = 0; i < n; i++)
		assert_int_equal(atomic_load(&r->runs[i]),
				 !limit || i < limit ? 1 : 0);
	for (; i < TASKS; i++)
		assert_int_equal(atomic_load(&r->runs[i]), 0);
	return r;
}

static void every_task_once(void **state)
{
	(void)state;
	free(run(TASKS, 4, 0));
	free(run(TASKS, 2, 0));
	free(run(0, 3, 0));
}

/* More lanes than tasks: the lanes without a task still run. */
static void more_lanes_than_tasks(void **state)
{
	(void)state;
	free(run(3, 16, 0));
	free(run(1, 2, 0));
}

/* One lane (or none asked): all on the caller's thread, in task order. */
static void one_lane(void **state)
{
	struct record *r;
	unsigned int lanes;

	(void)state;
	for (lanes = 0; lanes <= 1; lanes++) {
		r = run(TASKS, lanes, 0);
		assert_int_equal(r->threads, 1);
		assert_int_equal(atomic_load(&r->n_order), 1);
		free(r);
	}
}

/* Lanes past the threads there may be run on the caller's thread after
 * lane 0, in lane order, as those whose thread fails to start do. */
static void lanes_without_threads(void **state)
{
	struct record *r = run(TASKS, LANES, 0);
	unsigned int i;

	(void)state;
	assert_true(r->threads <= KVET_WORKERS_MAX);
	for (i = KVET_WORKERS_MAX; i < LANES; i++)
		assert_true(r->on_caller[i]);
	assert_true(atomic_load(&r->n_order) >= LANES - KVET_WORKERS_MAX + 1);
	for (i = 1; i < atomic_load(&r->n_order); i++)
		assert_true(r->order[i] > r->order[i - 1]);
	free(r);
}

/* take_below leaves the tasks from the limit on. */
static void take_below_stops_at_limit(void **state)
{
	(void)state;
	free(run(TASKS, 3, 100));
	free(run(50, 3, 100));
	free(run(TASKS, 1, 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_task_once),
		cmocka_unit_test(more_lanes_than_tasks),
		cmocka_unit_test(one_lane),
		cmocka_unit_test(lanes_without_threads),
		cmocka_unit_test(take_below_stops_at_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

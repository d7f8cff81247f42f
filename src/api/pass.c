/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A pass over objects on every thread: the field-type check and the
 * rules. Objects are cut into chunks of consecutive objects that the
 * threads take in turn from a counter, so a thread that drew cheap
 * objects takes more of them: with one half of the input per thread, the
 * thread with the heavier half ran a third longer than the other
 * (`gen_dump --overlap 100000`). Each thread has its own arena, findings
 * and error list; the graph and the objects are only read. The chunks'
 * findings are joined in chunk order, which is the order one thread
 * makes, so the findings (and their sort, whose ties keep that order) do
 * not depend on -j or on which thread took which chunk.
 */
#include "api/context.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/workers.h"
#include "load/node.h"

enum {
	/* objects a thread takes at a time: small enough that the threads
	 * end together, large enough that the counter is not contended */
	CHUNK = 128,
	MAX_LANES = 64,
};

struct shared {
	struct kvet_ctx *ctx;
	const struct kvet_pass *pass;
	struct kvet_object *const *objs;
	size_t n;
	/* where each chunk's findings are, in its lane */
	struct kvet_findings_part *chunks;
	size_t n_chunks;
	struct kvet_pass_lane *lanes;
};

/* A lane whose thread could not start runs on the caller's after lane
 * 0 (kvet_workers_run()): the chunks are all taken by then, so it only
 * opens and closes. */
static void run_lane(struct kvet_workers *ws, unsigned int id, void *arg)
{
	struct shared *sh = arg;
	struct kvet_ctx *ctx = sh->ctx;
	struct kvet_pass_lane *lane = &sh->lanes[id];
	size_t c, i, u = 0;

	if (sh->pass->open && sh->pass->open(lane, sh->pass->arg) < 0) {
		lane->failed = 1;
		return;
	}
	/* a lane takes chunks in increasing order: its unit index only
	 * moves forward, as on one thread */
	while (!lane->failed && kvet_workers_take(ws, &c)) {
		size_t from = c * CHUNK;
		size_t to = from + CHUNK < sh->n ? from + CHUNK : sh->n;

		sh->chunks[c].from = id;
		sh->chunks[c].first = lane->findings.n;
		for (i = from; i < to; i++) {
			u = kvet_ctx_unit_from(ctx, u, sh->objs[i]);
			if (sh->pass->object(lane, sh->objs[i], u,
					     sh->pass->arg) < 0) {
				lane->failed = 1;
				break;
			}
		}
		sh->chunks[c].end = lane->findings.n;
	}
	if (sh->pass->close && sh->pass->close(lane, sh->pass->arg) < 0)
		lane->failed = 1;
}

static void lane_release(struct kvet_pass_lane *lane)
{
	kvet_findings_release(&lane->findings);
	kvet_diag_release(&lane->diag);
	kvet_arena_release(&lane->arena);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(const void *const *)a;
	uintptr_t y = (uintptr_t)*(const void *const *)b;

	return x < y ? -1 : x > y;
}

/*
 * Did two objects find the same node unusable? Only an alias shares a
 * node between objects, and on one thread the second object reads it
 * invalidated by the first (and says so differently), so such a pass
 * runs again on one thread. Returns 1 when they did, 0 when not, -1
 * when out of memory.
 */
static int invalid_shared(const struct kvet_pass_lane *lanes, size_t nl)
{
	const struct kvet_node **all;
	size_t i, n = 0;
	int ret = 0;

	for (i = 0; i < nl; i++)
		n += lanes[i].findings.n_invalid;
	if (n < 2)
		return 0;
	all = malloc(n * sizeof(*all));
	if (!all)
		return -1;
	for (n = 0, i = 0; i < nl; i++) {
		memcpy(all + n, lanes[i].findings.invalid,
		       lanes[i].findings.n_invalid * sizeof(*all));
		n += lanes[i].findings.n_invalid;
	}
	qsort(all, n, sizeof(*all), cmp_ptr);
	for (i = 1; i < n && !ret; i++)
		ret = all[i] == all[i - 1];
	free(all);
	return ret;
}

/* Join the lanes' findings into ctx->findings in chunk order, and then
 * what the field-type check left for after the pass. */
static int join_lanes(struct shared *sh, struct kvet_pass_lane *lanes,
		      size_t nl)
{
	struct kvet_findings *fs[MAX_LANES];
	size_t i, k;

	for (i = 0; i < nl; i++)
		fs[i] = &lanes[i].findings;
	if (kvet_findings_join(&sh->ctx->findings, fs, nl, sh->chunks,
			       sh->n_chunks) < 0)
		return -1;
	for (i = 0; i < nl; i++) {
		const struct kvet_findings *f = &lanes[i].findings;

		for (k = 0; k < f->n_invalid; k++)
			kvet_node_invalidate(f->invalid[k]);
		kvet_arena_adopt(&sh->ctx->arena, &lanes[i].arena);
	}
	return 0;
}

int kvet_ctx_run_pass(struct kvet_ctx *ctx, struct kvet_object *const *objs,
		      size_t n, size_t nl, const struct kvet_pass *pass)
{
	struct shared sh = { .ctx = ctx, .pass = pass, .objs = objs, .n = n };
	struct kvet_workers ws;
	struct kvet_pass_lane *lanes;
	size_t i, errors = 0;
	int ret = -1;

	if (nl > MAX_LANES)
		nl = MAX_LANES;
	if (nl < 1)
		nl = 1;
	sh.n_chunks = (n + CHUNK - 1) / CHUNK;
	sh.chunks = calloc(sh.n_chunks ? sh.n_chunks : 1, sizeof(*sh.chunks));
	lanes = calloc(nl, sizeof(*lanes));
	if (!sh.chunks || !lanes)
		goto out_free;
	for (i = 0; i < nl; i++) {
		lanes[i].ctx = ctx;
		lanes[i].first = i == 0;
		kvet_arena_init(&lanes[i].arena);
		kvet_findings_init(&lanes[i].findings, &lanes[i].arena);
		/* the nodes a check finds unusable wait for the join: the
		 * same node may be another thread's object's (an alias) */
		lanes[i].findings.defer_invalid = true;
		kvet_diag_init(&lanes[i].diag, &lanes[i].arena);
	}
	sh.lanes = lanes;
	kvet_workers_run(&ws, sh.n_chunks, (unsigned int)nl, run_lane, &sh);
	for (i = 0; i < nl; i++) {
		if (lanes[i].failed || lanes[i].findings.oom ||
		    lanes[i].diag.oom)
			goto out;
		errors += lanes[i].errors + lanes[i].diag.n;
	}
	if (errors) {
		ret = 0;
		goto out;
	}
	switch (invalid_shared(lanes, nl)) {
	case 1:
		ret = 0;
		/* fall through */
	case -1:
		goto out;
	}
	if (join_lanes(&sh, lanes, nl) < 0)
		goto out;
	ret = 1;
out:
	for (i = 0; i < nl; i++)
		lane_release(&lanes[i]);
out_free:
	free(lanes);
	free(sh.chunks);
	return ret;
}

size_t kvet_ctx_pass_lanes(const struct kvet_ctx *ctx, size_t n,
			   size_t per_lane)
{
	size_t nl = kvet_ctx_jobs(&ctx->opts);

	if (nl > n / per_lane)
		nl = n / per_lane;
	return nl < MAX_LANES ? nl : MAX_LANES;
}

KVET_API unsigned int kvet_ctx_threads(const struct kvet_ctx *ctx)
{
	return kvet_ctx_jobs(&ctx->opts);
}

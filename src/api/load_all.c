/* SPDX-License-Identifier: Apache-2.0 */
#include "api/context.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/arena.h"
#include "base/diag.h"
#include "base/workers.h"
#include "input/source.h"
#include "load/load.h"
#include "model/object.h"

enum {
	MAX_JOBS = 64,
};

/*
 * Loading runs in three phases, each spread over the threads: read every
 * input and plan its pieces (load/split.h); parse every piece of every
 * input; then join each input's pieces, or parse it whole when it has
 * none or one failed, and turn its documents into objects. Each phase
 * ends when all its tasks did, so an input of 2 GB keeps every core busy
 * and small files load side by side as before. Every task writes only
 * its own unit or piece; the threads of a phase are joined before the
 * next starts, which orders all of it.
 */
static void read_unit(struct unit *u, const struct kvet_options *opts)
{
	int rc;

	/* a file of a million bad lines must not make a million errors */
	kvet_diag_set_limit(&u->diag, KVET_LOAD_MAX_ERRORS);
	if (u->src->skip)
		return;
	rc = kvet_source_read_in(u->src, &u->diag, &u->arena,
				 opts->max_file_size, opts->fifo_wait_ms);
	if (rc < 0)
		u->oom = 1;
	if (rc)
		return;
	/* an empty render is said once, as such (units.c), not as the
	 * empty input a 0-byte file is */
	if (u->src->kind != KVET_SOURCE_FILE && !u->src->len)
		return;
	u->job = kvet_load_job_create(&u->arena, &u->diag, u->src->name,
				      u->src->buf, u->src->len,
				      opts->progress ? &u->bytes_done : NULL);
	if (!u->job)
		u->oom = 1;
	else if (u->src->mapped)
		kvet_load_job_detach(u->job, true);
}

static void finish_unit(struct unit *u, const struct kvet_options *opts)
{
	if (u->job && !u->oom &&
	    (kvet_load_job_finish(u->job, &u->docs) < 0 ||
	     kvet_objects_from_docs(&u->arena, &u->diag, u->src->name,
				    &u->docs,
				    u->src->release_ns ? u->src->release_ns
						       : opts->default_namespace,
				    &u->objs) < 0))
		u->oom = 1;
	kvet_load_job_destroy(u->job);
	u->job = NULL;
	kvet_diag_close_limit(&u->diag, u->src->name);
}

enum phase { PHASE_READ, PHASE_PIECES, PHASE_FINISH };

/* A piece of work of the pieces phase: piece @piece of unit @unit. */
struct piece_task {
	size_t unit, piece;
};

struct pool {
	struct kvet_ctx *ctx;
	struct unit *units;
	enum phase phase;
	struct piece_task *tasks;	/* PHASE_PIECES */
	bool watch;			/* the caller's lane reports progress */
	size_t bytes_total;		/* for the progress */
	atomic_size_t done;		/* tasks of the phase done */
	atomic_size_t files_done;	/* units finished, for progress */
	const struct kvet_options *opts;
};

/* Sizes of the files to load, for the progress display; stdin is not
 * known in advance. Taken before the workers start, which fill in the
 * sources' buffers. */
static size_t total_bytes(const struct kvet_ctx *ctx)
{
	struct stat st;
	size_t i, total = 0;

	for (i = 0; i < ctx->nunits; i++) {
		const struct kvet_source *src = ctx->units[i].src;

		if (src->buf)
			total += src->len;
		else if (src->kind == KVET_SOURCE_FILE && src->path &&
			 stat(src->path, &st) == 0)
			total += (size_t)st.st_size;
	}
	return total;
}

/*
 * With a progress callback the calling thread only watches: it reports
 * every 100 ms until the workers of a phase are done, so that the
 * callback always runs on the caller's thread.
 */
static void watch_loading(struct pool *pool, const struct kvet_workers *ws)
{
	struct kvet_ctx *ctx = pool->ctx;
	struct kvet_progress p = { .stage = "loading" };
	const struct timespec tick = { 0, 100 * 1000 * 1000 };
	size_t i;

	p.files_total = ctx->nunits;
	p.bytes_total = pool->bytes_total;
	for (;;) {
		bool done = atomic_load(&pool->done) >= ws->n;

		p.files_done = atomic_load(&pool->files_done);
		p.bytes_done = 0;
		for (i = 0; i < ctx->nunits; i++)
			p.bytes_done += atomic_load_explicit(
				&ctx->units[i].bytes_done, memory_order_relaxed);
		/* one report per phase, then every tick until it is done */
		ctx->opts.progress(ctx->opts.progress_user, &p);
		if (done)
			break;
		nanosleep(&tick, NULL);
	}
}

static void worker(struct kvet_workers *ws, unsigned int lane, void *arg)
{
	struct pool *pool = arg;
	size_t i;

	/* a watcher without a thread beside it loads, without reports */
	if (lane == 0 && pool->watch && ws->threads > 1) {
		watch_loading(pool, ws);
		return;
	}
	while (kvet_workers_take(ws, &i)) {
		struct unit *u;

		switch (pool->phase) {
		case PHASE_READ:
			read_unit(&pool->units[i], pool->opts);
			break;
		case PHASE_PIECES:
			u = &pool->units[pool->tasks[i].unit];
			if (!u->oom &&
			    kvet_load_job_piece(u->job, pool->tasks[i].piece) < 0)
				u->oom = 1;
			break;
		case PHASE_FINISH:
			u = &pool->units[i];
			finish_unit(u, pool->opts);
			if (u->src->buf)
				atomic_store(&u->bytes_done, u->src->len);
			atomic_fetch_add(&pool->files_done, 1);
			break;
		}
		atomic_fetch_add(&pool->done, 1);
	}
}

unsigned int kvet_ctx_jobs(const struct kvet_options *opts)
{
	long cores;
	unsigned int jobs = opts->jobs;

	if (!jobs) {
		cores = sysconf(_SC_NPROCESSORS_ONLN);
		jobs = cores > 0 ? (unsigned int)cores : 1;
	}
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
	return jobs ? jobs : 1;
}

/* Run the @n tasks of @phase on up to @jobs threads; with a progress
 * callback the caller's thread watches beside them. stdin can be read
 * only once and only by one thread: the pool handles it like any file,
 * since the sources hold it once at most. */
static void run_phase(struct pool *pool, enum phase phase, size_t n,
		      unsigned int jobs)
{
	struct kvet_workers ws;

	pool->phase = phase;
	atomic_store(&pool->done, 0);
	if (jobs > n)
		jobs = n ? (unsigned int)n : 1;
	kvet_workers_run(&ws, n, jobs + pool->watch, worker, pool);
}

void kvet_ctx_load_all(struct kvet_ctx *ctx)
{
	struct pool pool = { .ctx = ctx, .units = ctx->units,
			     .opts = &ctx->opts };
	unsigned int jobs = kvet_ctx_jobs(&ctx->opts);
	size_t i, k, n = 0;

	pool.watch = ctx->opts.progress != NULL;
	pool.bytes_total = pool.watch ? total_bytes(ctx) : 0;
	run_phase(&pool, PHASE_READ, ctx->nunits, jobs);
	for (i = 0; i < ctx->nunits; i++)
		if (ctx->units[i].job)
			n += kvet_load_job_pieces(ctx->units[i].job);
	if (n) {
		pool.tasks = calloc(n, sizeof(*pool.tasks));
		if (!pool.tasks) {
			ctx->units[0].oom = 1;
			n = 0;
		}
		for (i = 0, n = 0; pool.tasks && i < ctx->nunits; i++) {
			struct kvet_load_job *job = ctx->units[i].job;
			size_t pieces = job ? kvet_load_job_pieces(job) : 0;

			for (k = 0; k < pieces; k++, n++) {
				pool.tasks[n].unit = i;
				pool.tasks[n].piece = k;
			}
		}
		run_phase(&pool, PHASE_PIECES, n, jobs);
		free(pool.tasks);
		pool.tasks = NULL;
	}
	run_phase(&pool, PHASE_FINISH, ctx->nunits, jobs);
}

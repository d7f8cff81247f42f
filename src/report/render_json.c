/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "base/workers.h"
#include "report/render_drain.h"

/*
 * The JSON report (docs/formats.md, DESIGN.md "JSON report contract"):
 * one object, keys in a fixed order, two-space indentation, a final
 * newline. A value that is absent is written as null, never left out, so
 * that every finding has the same keys: "source" is null without a Helm
 * "# Source:" comment, and "line" and "column" are null when an error has
 * no position.
 */

/*
 * The members of findings, each written thousands of times: keys quoted
 * at compile time, and the texts the findings keep once (file names,
 * kinds, names, the rules' words) escaped once for the whole report.
 */
static inline void kept(struct kvet_jw *jw, struct kvet_jw_key key,
			const char *val)
{
	kvet_jw_key(jw, key);
	kvet_jw_kept(jw, val);
}

static inline void pos(struct kvet_jw *jw, struct kvet_jw_key key,
		       unsigned int val)
{
	kvet_jw_key(jw, key);
	kvet_jw_value_pos(jw, val);
}

static inline void open_member(struct kvet_jw *jw, struct kvet_jw_key key,
			       char bracket)
{
	kvet_jw_key(jw, key);
	kvet_jw_value_open(jw, bracket);
}

static void write_object(struct kvet_jw *jw,
			 const struct kvet_object_ref *obj)
{
	open_member(jw, KVET_JW_KEY("object"), '{');
	kept(jw, KVET_JW_KEY("apiVersion"), obj->api_version);
	kept(jw, KVET_JW_KEY("kind"), obj->kind);
	kept(jw, KVET_JW_KEY("namespace"), obj->namespace);
	kept(jw, KVET_JW_KEY("name"), obj->name);
	kvet_jw_close(jw, '}');
}

static void write_related(struct kvet_jw *jw, const struct kvet_object_ref *rel)
{
	open_member(jw, KVET_JW_ELEMENT, '{');
	kept(jw, KVET_JW_KEY("kind"), rel->kind);
	kept(jw, KVET_JW_KEY("namespace"), rel->namespace);
	kept(jw, KVET_JW_KEY("name"), rel->name);
	kept(jw, KVET_JW_KEY("file"), rel->pos.file);
	pos(jw, KVET_JW_KEY("line"), rel->pos.line);
	kvet_jw_close(jw, '}');
}

void kvet_jw_rendered(struct kvet_jw *jw, const struct kvet_finding *f)
{
	if (!f->rendered.line)
		return;
	kvet_jw_open(jw, "rendered", '{');
	kvet_jw_str(jw, "file", f->rendered.file);
	kvet_jw_pos(jw, "line", f->rendered.line);
	kvet_jw_pos(jw, "column", f->rendered.column);
	kvet_jw_close(jw, '}');
}

/* Is the finding's message its headline @hl and its reason joined by
 * ": "? (The findings' list keeps no such message, or keeps the reason
 * as its tail.) */
static bool message_joined(const struct kvet_finding *f, const char *hl)
{
	size_t hlen;

	if (!f->message)
		return true;
	if (hl == f->message)
		return false;
	hlen = strlen(hl);
	return f->reason == f->message + hlen + 2 &&
	       !memcmp(f->message, hl, hlen) &&
	       !memcmp(f->message + hlen, ": ", 2);
}

/* "message", "headline" and "reason": a message that is its headline and
 * its reason joined is escaped once for the three. */
static void write_words(struct kvet_jw *jw, const struct kvet_finding *f)
{
	const char *hl = f->headline ? f->headline : f->message;

	if (hl && f->reason && message_joined(f, hl)) {
		kvet_jw_str_joined(jw, KVET_JW_KEY("message"),
				   KVET_JW_KEY("headline"),
				   KVET_JW_KEY("reason"), hl, ": ", f->reason);
		return;
	}
	kvet_jw_str(jw, "message", f->message);
	kvet_jw_str(jw, "headline", hl);
	kvet_jw_str(jw, "reason", f->reason);
}

/* The finding's words: "message" is the full sentence, "headline" its
 * first line in the text report, "reason" the explanation below it,
 * "help" what to do and "help_uri" where the rule is documented (null
 * when there is none). */
static void write_finding(struct kvet_jw *jw, const struct kvet_ctx *ctx,
			  const struct kvet_finding *f)
{
	const struct kvet_rule_info *info = kvet_ctx_rule_find(ctx, f->rule);
	size_t i;

	open_member(jw, KVET_JW_ELEMENT, '{');
	kept(jw, KVET_JW_KEY("rule"), f->rule);
	kept(jw, KVET_JW_KEY("severity"), kvet_severity_name(f->severity));
	write_words(jw, f);
	kept(jw, KVET_JW_KEY("help"), f->help);
	kept(jw, KVET_JW_KEY("help_uri"), info ? info->help_uri : NULL);
	write_object(jw, &f->object);
	kept(jw, KVET_JW_KEY("file"), f->pos.file);
	pos(jw, KVET_JW_KEY("line"), f->pos.line);
	pos(jw, KVET_JW_KEY("column"), f->pos.line ? f->pos.column : 0);
	kvet_jw_str(jw, "source", f->source);
	/* only when the place above is a template line: reports of other
	 * inputs keep their keys */
	kvet_jw_rendered(jw, f);
	/* only for renders kvet made, so plain reports stay as they were */
	if (f->unit)
		kvet_jw_str(jw, "unit", f->unit);
	open_member(jw, KVET_JW_KEY("related"), '[');
	for (i = 0; i < f->n_related; i++)
		write_related(jw, &f->related[i]);
	kvet_jw_close(jw, ']');
	kvet_jw_close(jw, '}');
}

/*
 * A large findings array is written on every thread the run may use: in
 * batches of consecutive findings, each into memory of its own, which
 * the caller's thread writes to the stream in order as soon as it is its
 * turn, rendering batches itself meanwhile. At most AHEAD batches wait
 * (about 1 MiB each), so the report is never held whole and the peak
 * grows by a few MiB at most; the bytes are those one thread writes.
 */
enum {
	BATCH = 512,			/* findings a batch */
	AHEAD = 4,			/* batches rendered and not written */
	MIN_PARALLEL = 8192,		/* fewer findings: on one thread */
};

struct batch {
	char *buf;			/* malloc'd; NULL: failed, or empty */
	size_t len;
	bool done;
};

struct batches {
	const struct kvet_ctx *ctx;
	size_t n, n_batches;
	unsigned int depth;		/* of the findings array's elements */
	struct batch *v;
	struct kvet_jw *jw;		/* the report's */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t written;			/* batches written to the stream */
};

/* Findings of batch @b into memory; buf NULL when that failed (the
 * caller's thread then writes them to the stream itself). */
static void render_batch(struct batches *bs, size_t b, struct batch *out)
{
	size_t i, from = b * BATCH, to = from + BATCH;
	struct kvet_jw *jw = malloc(sizeof(*jw));
	FILE *fp = NULL;

	out->buf = NULL;
	out->len = 0;
	if (to > bs->n)
		to = bs->n;
	if (jw)
		fp = open_memstream(&out->buf, &out->len);
	if (!fp) {
		free(jw);
		out->buf = NULL;
		return;
	}
	kvet_jw_init_inside(jw, fp, bs->depth, from == 0);
	for (i = from; i < to; i++)
		write_finding(jw, bs->ctx, kvet_ctx_finding(bs->ctx, i));
	kvet_jw_flush(jw);
	if (ferror(fp)) {
		fclose(fp);
		free(out->buf);
		out->buf = NULL;
	} else if (fclose(fp)) {
		free(out->buf);
		out->buf = NULL;
	}
	free(jw);
}

static void put_batch(struct batches *bs, size_t b, const struct batch *out)
{
	pthread_mutex_lock(&bs->mu);
	bs->v[b] = *out;
	bs->v[b].done = true;
	pthread_cond_broadcast(&bs->cv);
	pthread_mutex_unlock(&bs->mu);
}

/* A helper's lane: the batches it takes, each once it is among the
 * AHEAD after the last written. */
static void render_batches(struct kvet_workers *ws, struct batches *bs)
{
	struct batch out;
	size_t b;

	while (kvet_workers_take(ws, &b)) {
		pthread_mutex_lock(&bs->mu);
		while (b >= bs->written + AHEAD)
			pthread_cond_wait(&bs->cv, &bs->mu);
		pthread_mutex_unlock(&bs->mu);
		render_batch(bs, b, &out);
		put_batch(bs, b, &out);
	}
}

/* The caller's lane: the findings' elements, in order, into the
 * report's stream, rendering the next batch itself while it waits. */
static void write_batches(struct kvet_workers *ws, struct batches *bs)
{
	struct kvet_jw *jw = bs->jw;
	FILE *fp = kvet_jw_stream(jw);
	struct batch out;
	size_t b, i;

	pthread_mutex_lock(&bs->mu);
	while (bs->written < bs->n_batches) {
		struct batch *w = &bs->v[bs->written];

		if (w->done) {
			pthread_mutex_unlock(&bs->mu);
			if (w->buf) {
				fwrite_unlocked(w->buf, 1, w->len, fp);
				free(w->buf);
				w->buf = NULL;
			} else {
				/* no memory for it: written here, directly */
				struct kvet_jw *dw = malloc(sizeof(*dw));
				size_t from = bs->written * BATCH;
				size_t to = from + BATCH < bs->n ? from + BATCH
								 : bs->n;

				/* the report's own writer, when even this
				 * fails: it is empty, all was flushed */
				if (!dw)
					dw = jw;
				kvet_jw_init_inside(dw, fp, bs->depth,
						    from == 0);
				for (i = from; i < to; i++)
					write_finding(dw, bs->ctx,
						      kvet_ctx_finding(bs->ctx, i));
				kvet_jw_flush(dw);
				if (dw != jw)
					free(dw);
			}
			pthread_mutex_lock(&bs->mu);
			bs->written++;
			pthread_cond_broadcast(&bs->cv);
			continue;
		}
		if (kvet_workers_take_below(ws, bs->written + AHEAD, &b)) {
			pthread_mutex_unlock(&bs->mu);
			render_batch(bs, b, &out);
			put_batch(bs, b, &out);
			pthread_mutex_lock(&bs->mu);
			continue;
		}
		pthread_cond_wait(&bs->cv, &bs->mu);
	}
	pthread_mutex_unlock(&bs->mu);
}

static void batch_lane(struct kvet_workers *ws, unsigned int lane, void *arg)
{
	if (lane == 0)
		write_batches(ws, arg);
	else
		render_batches(ws, arg);
}

/* The elements of "findings": on several threads when there are many. */
static void write_findings(struct kvet_jw *jw, const struct kvet_ctx *ctx)
{
	size_t i, n = kvet_ctx_finding_count(ctx);
	unsigned int lanes = kvet_ctx_threads(ctx);
	struct batches bs = { .ctx = ctx, .n = n, .depth = jw->depth,
			      .jw = jw };
	struct kvet_workers ws;

	bs.n_batches = (n + BATCH - 1) / BATCH;
	if (n >= MIN_PARALLEL && lanes > 1)
		bs.v = calloc(bs.n_batches, sizeof(*bs.v));
	if (!bs.v) {
		for (i = 0; i < n; i++)
			write_finding(jw, ctx, kvet_ctx_finding(ctx, i));
		return;
	}
	pthread_mutex_init(&bs.mu, NULL);
	pthread_cond_init(&bs.cv, NULL);
	kvet_workers_run(&ws, bs.n_batches, lanes, batch_lane, &bs);
	pthread_cond_destroy(&bs.cv);
	pthread_mutex_destroy(&bs.mu);
	free(bs.v);
	/* the array is no longer empty for the writer that closes it */
	jw->empty[jw->depth - 1] = false;
}

/* DESIGN.md: {"rule", "object", "reason"}, then the finding's place. */
static void write_suppressed(struct kvet_jw *jw,
			     const struct kvet_suppressed *sup)
{
	const struct kvet_finding *f = &sup->finding;

	kvet_jw_open(jw, NULL, '{');
	kvet_jw_str(jw, "rule", f->rule);
	write_object(jw, &f->object);
	kvet_jw_str(jw, "reason", sup->reason);
	kvet_jw_str(jw, "justification", sup->justification);
	if (f->message || !f->headline || !f->reason)
		kvet_jw_str(jw, "message", f->message);
	else
		kvet_jw_str_joined(jw, KVET_JW_KEY("message"),
				   KVET_JW_NO_KEY, KVET_JW_NO_KEY,
				   f->headline, ": ", f->reason);
	kvet_jw_str(jw, "file", f->pos.file);
	kvet_jw_pos(jw, "line", f->pos.line);
	kvet_jw_pos(jw, "column", f->pos.line ? f->pos.column : 0);
	kvet_jw_close(jw, '}');
}

/* "baseline": {"stale": [...]}: entries that matched no finding. */
static void write_baseline(struct kvet_jw *jw, const struct kvet_ctx *ctx)
{
	struct kvet_baseline_stale st;
	size_t i, n = kvet_ctx_baseline_stale_count(ctx);

	kvet_jw_open(jw, "baseline", '{');
	kvet_jw_open(jw, "stale", '[');
	for (i = 0; i < n; i++) {
		if (kvet_ctx_baseline_stale(ctx, i, &st))
			continue;
		kvet_jw_open(jw, NULL, '{');
		kvet_jw_str(jw, "rule", st.rule);
		kvet_jw_str(jw, "kind", st.kind);
		kvet_jw_str(jw, "namespace", st.namespace);
		kvet_jw_str(jw, "name", st.name);
		kvet_jw_str(jw, "message", st.message);
		kvet_jw_str(jw, "file", st.pos.file);
		kvet_jw_pos(jw, "line", st.pos.line);
		kvet_jw_close(jw, '}');
	}
	kvet_jw_close(jw, ']');
	kvet_jw_close(jw, '}');
}

/* An evaluation error adds its rule, its object when there is one, and
 * "tolerated" when its rule tolerates it (docs/formats.md). */
static void write_error(struct kvet_jw *jw, const struct kvet_error *e)
{
	kvet_jw_open(jw, NULL, '{');
	if (e->rule)
		kvet_jw_str(jw, "rule", e->rule);
	if (e->object)
		write_object(jw, e->object);
	kvet_jw_str(jw, "file", e->pos.file);
	kvet_jw_pos(jw, "line", e->pos.line);
	kvet_jw_pos(jw, "column", e->pos.line ? e->pos.column : 0);
	kvet_jw_str(jw, "message", e->message);
	if (e->tolerated)
		kvet_jw_bool(jw, "tolerated", true);
	kvet_jw_close(jw, '}');
}

static void write_notice(struct kvet_jw *jw, const struct kvet_notice *nt)
{
	kvet_jw_open(jw, NULL, '{');
	kvet_jw_str(jw, "level", kvet_notice_level_name(nt->level));
	kvet_jw_str(jw, "file", nt->pos.file);
	kvet_jw_pos(jw, "line", nt->pos.line);
	kvet_jw_pos(jw, "column", nt->pos.line ? nt->pos.column : 0);
	kvet_jw_str(jw, "message", nt->message);
	kvet_jw_close(jw, '}');
}

static void write_summary(struct kvet_jw *jw, const struct kvet_summary *sum)
{
	kvet_jw_open(jw, "summary", '{');
	kvet_jw_uint(jw, "files", sum->files);
	kvet_jw_uint(jw, "documents", sum->documents);
	kvet_jw_uint(jw, "objects", sum->objects);
	kvet_jw_open(jw, "findings", '{');
	kvet_jw_uint(jw, "error", sum->findings[KVET_SEV_ERROR]);
	kvet_jw_uint(jw, "warning", sum->findings[KVET_SEV_WARNING]);
	kvet_jw_uint(jw, "info", sum->findings[KVET_SEV_INFO]);
	kvet_jw_close(jw, '}');
	kvet_jw_uint(jw, "skipped", sum->skipped);
	kvet_jw_close(jw, '}');
}

/* What a command adds before the summary (kvet drain: its plan), or
 * NULL. */
typedef void (*command_member_fn)(struct kvet_jw *jw,
				  const struct kvet_ctx *ctx);

static int write_report(const struct kvet_ctx *ctx, FILE *fp,
			command_member_fn member)
{
	struct kvet_summary sum;
	struct kvet_jw jw;
	size_t i, n;

	kvet_jw_init(&jw, fp);
	memset(&sum, 0, sizeof(sum));
	kvet_ctx_summary(ctx, &sum);

	kvet_jw_open(&jw, NULL, '{');
	kvet_jw_open(&jw, "tool", '{');
	kvet_jw_str(&jw, "name", "kvet");
	kvet_jw_str(&jw, "version", kvet_version());
	kvet_jw_close(&jw, '}');

	kvet_jw_open(&jw, "findings", '[');
	write_findings(&jw, ctx);
	kvet_jw_close(&jw, ']');

	kvet_jw_open(&jw, "suppressed", '[');
	n = kvet_ctx_suppressed_count(ctx);
	for (i = 0; i < n; i++)
		write_suppressed(&jw, kvet_ctx_suppressed(ctx, i));
	kvet_jw_close(&jw, ']');

	kvet_jw_open(&jw, "errors", '[');
	n = kvet_ctx_error_count(ctx);
	for (i = 0; i < n; i++)
		write_error(&jw, kvet_ctx_error(ctx, i));
	kvet_jw_close(&jw, ']');

	kvet_jw_open(&jw, "notices", '[');
	n = kvet_ctx_notice_count(ctx);
	for (i = 0; i < n; i++)
		write_notice(&jw, kvet_ctx_notice(ctx, i));
	kvet_jw_close(&jw, ']');

	if (kvet_ctx_baseline_loaded(ctx))
		write_baseline(&jw, ctx);
	if (member)
		member(&jw, ctx);
	write_summary(&jw, &sum);
	kvet_jw_close(&jw, '}');
	kvet_jw_raw(&jw, "\n", 1);
	kvet_jw_flush(&jw);
	return 0;
}

/**
 * kvet_render_json() - write the JSON report of a run.
 * @ctx: a context that has run.
 * @opts: unused.
 * @fp: the stream.
 *
 * Returns: 0; write errors are left on @fp for kvet_render().
 */
int kvet_render_json(const struct kvet_ctx *ctx,
		     const struct kvet_render_options *opts, FILE *fp)
{
	(void)opts;
	return write_report(ctx, fp, NULL);
}

/* The same for kvet drain, with its "drain" member before the summary. */
int kvet_render_json_drain(const struct kvet_ctx *ctx,
			   const struct kvet_render_options *opts, FILE *fp)
{
	(void)opts;
	return write_report(ctx, fp, kvet_json_write_drain);
}

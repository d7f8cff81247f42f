/* SPDX-License-Identifier: Apache-2.0 */
#include "load/load.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/vec.h"
#include "load/block.h"
#include "load/build.h"
#include "load/countable.h"
#include "load/detach.h"
#include "load/json.h"
#include "load/sanitize.h"
#include "load/split.h"

/*
 * One input loaded in pieces on several threads. The plan (split.c) only
 * guesses where the input may be cut; every piece is parsed alone, into
 * an arena of its own, and the trees are joined in input order only when
 * every piece parsed without an error and the join checks out. Anything
 * else loads the whole input as before, on one thread: errors, their
 * positions and the recovery after them are never those of a piece, and
 * the result does not depend on the number of threads.
 */

/* An input is cut in about this many pieces, whatever the number of
 * threads: plenty for any machine, few enough to join; smaller inputs
 * and pieces are not worth a thread. */
#define PIECES 64
#define MIN_SIZE ((size_t)2 * 1024 * 1024)
#define MIN_PIECE ((size_t)256 * 1024)
#define TEXT_EVERY 384

struct kvet_load_piece {
	struct kvet_arena arena;
	/* the copies of its text (detach.c), apart from the nodes: they
	 * are made between them, and the two sharing blocks wasted the end
	 * of one a chunk in eight */
	struct kvet_arena text;
	struct kvet_docs docs;		/* YAML: what it parsed to */
	uint32_t ndocs;			/* documents it counted */
	struct kvet_json_piece json;	/* JSON items */
	bool ok;
};

struct kvet_load_job {
	struct kvet_arena *arena;
	struct kvet_diag *diag;
	const char *name;
	char *buf;
	size_t len;
	atomic_size_t *done;
	struct kvet_utf8_fix fix;
	struct kvet_split split;
	struct kvet_load_piece *pieces;
	bool refused;		/* too many lines or too long a line */
	bool detach;		/* pieces copy their text out of buf */
	bool give_back;		/* ... and give its pages back (a mapping) */
};

struct kvet_load_job *kvet_load_job_create(struct kvet_arena *arena,
					   struct kvet_diag *diag,
					   const char *name, char *buf,
					   size_t len, atomic_size_t *done)
{
	size_t piece = len / PIECES;

	return kvet_load_job_create_sized(arena, diag, name, buf, len, done,
					  len < MIN_SIZE ? 0
					  : piece < MIN_PIECE ? MIN_PIECE
					  : piece);
}

struct kvet_load_job *kvet_load_job_create_sized(struct kvet_arena *arena,
						 struct kvet_diag *diag,
						 const char *name, char *buf,
						 size_t len,
						 atomic_size_t *done,
						 size_t piece)
{
	struct kvet_load_job *job = calloc(1, sizeof(*job));
	size_t i;

	if (!job)
		return NULL;
	job->arena = arena;
	job->diag = diag;
	job->name = name;
	job->buf = buf;
	job->len = len;
	job->done = done;
	if (!kvet_load_countable(diag, name, buf, len, KVET_LOAD_MAX_LINES,
				 KVET_LOAD_MAX_LINE)) {
		job->refused = true;
		return job;
	}
	if (kvet_load_sanitize(diag, buf, len, &job->fix) < 0)
		goto fail;
	if (kvet_load_clean(&job->fix, buf, len) &&
	    kvet_split_plan(buf, len, piece, &job->split) < 0)
		goto fail;
	if (job->split.n) {
		job->pieces = calloc(job->split.n, sizeof(*job->pieces));
		if (!job->pieces)
			goto fail;
		for (i = 0; i < job->split.n; i++) {
			kvet_arena_init(&job->pieces[i].arena);
			kvet_arena_init(&job->pieces[i].text);
		}
	}
	return job;
fail:
	kvet_load_job_destroy(job);
	return NULL;
}

void kvet_load_job_detach(struct kvet_load_job *job, bool give_back)
{
	job->detach = true;
	job->give_back = give_back;
}

/*
 * When the input is a private mapping of its file, the whole pages of
 * piece @sp's text are given back once its trees are detached: nothing
 * points into them any more, and reading them again (a fallback to the
 * whole parse, a source line for the text report) reads the file again.
 * The sanitizer changed no byte of an input that has pieces, so no page
 * given back held a change.
 */
static void give_back(struct kvet_load_job *job,
		      const struct kvet_split_piece *sp)
{
	uintptr_t lo, hi, page;
	long pagesize = sysconf(_SC_PAGESIZE);

	if (pagesize <= 0)
		return;
	page = (uintptr_t)pagesize;
	lo = ((uintptr_t)job->buf + sp->start + page - 1) & ~(page - 1);
	hi = ((uintptr_t)job->buf + sp->end) & ~(page - 1);
	/* a failure only leaves the pages where they were */
	if (hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

size_t kvet_load_job_pieces(const struct kvet_load_job *job)
{
	return job->split.n;
}

int kvet_load_job_piece(struct kvet_load_job *job, size_t i)
{
	const struct kvet_split_piece *sp = &job->split.v[i];
	struct kvet_load_piece *p = &job->pieces[i];
	struct kvet_detach d;
	struct kvet_diag diag;
	bool fast = true;
	int rc;

	kvet_diag_init(&diag, &p->arena);
	kvet_detach_init(&d, &p->text, job->buf, job->len);
	/* a dump's pieces hold a distinct text every 350 to 400 bytes */
	kvet_detach_reserve(&d, (sp->end - sp->start) / TEXT_EVERY);
	if (job->split.mode == KVET_SPLIT_JSON_ITEMS) {
		/* detached as read, while each text is in the cache */
		rc = kvet_json_items(&p->arena, job->buf, job->len, sp->start,
				     sp->end, sp->line, i + 1 == job->split.n,
				     job->detach ? &d : NULL, &p->json);
	} else if (job->split.mode == KVET_SPLIT_YAML_ITEMS &&
		   (rc = kvet_block_items(&p->arena, job->buf, sp->start,
					  sp->end, sp->line, &p->docs)) != 0) {
		/* kubectl's block style, read without libfyaml */
		p->ndocs = 1;
		if (rc > 0 && job->detach &&
		    kvet_detach_tree(&d, (struct kvet_node *)p->docs.v[0].root) < 0)
			rc = -1;
	} else {
		/* libfyaml's trees may share subtrees (aliases): not detached */
		fast = false;
		rc = kvet_load_yaml_piece(&p->arena, &diag, job->name,
					  job->buf, sp->start, sp->end,
					  sp->line, &p->docs, &p->ndocs);
		/* an items piece is one block sequence */
		if (rc > 0 && job->split.mode == KVET_SPLIT_YAML_ITEMS &&
		    (p->docs.n != 1 || p->ndocs != 1 ||
		     !kvet_node_is_seq(p->docs.v[0].root) ||
		     (p->docs.v[0].root->flags & KVET_NODE_FLOW)))
			rc = 0;
	}
	kvet_detach_release(&d);
	kvet_diag_release(&diag);
	p->ok = rc > 0;
	if (p->ok && job->detach && fast && job->give_back)
		give_back(job, sp);
	if (job->done)
		atomic_fetch_add_explicit(job->done, sp->end - sp->start,
					  memory_order_relaxed);
	return rc < 0 ? -1 : 0;
}

static bool append_doc(struct kvet_docs *out, const struct kvet_doc *d,
		       uint32_t index)
{
	if (!kvet_vec_grow((void **)&out->v, &out->cap, out->n + 1,
			   sizeof(*out->v)))
		return false;
	out->v[out->n] = *d;
	out->v[out->n].index = index;
	out->n++;
	return true;
}

static int join_docs(struct kvet_load_job *job, struct kvet_docs *out)
{
	uint32_t base = 0;
	size_t i, k;

	for (i = 0; i < job->split.n; i++) {
		const struct kvet_load_piece *p = &job->pieces[i];

		for (k = 0; k < p->docs.n; k++)
			if (!append_doc(out, &p->docs.v[k],
					base + p->docs.v[k].index))
				return -1;
		base += p->ndocs;
	}
	return 1;
}

/* The one document of YAML @buf[@start, @end), a block mapping, parsed
 * into @arena; NULL when it is not so. */
static int one_map(struct kvet_load_job *job, struct kvet_arena *arena,
		   size_t start, size_t end, uint32_t line,
		   struct kvet_doc *doc)
{
	struct kvet_docs docs = { 0 };
	struct kvet_diag diag;
	uint32_t ndocs;
	int rc;

	kvet_diag_init(&diag, arena);
	rc = kvet_load_yaml_piece(arena, &diag, job->name, job->buf, start,
				  end, line, &docs, &ndocs);
	if (rc > 0 && (docs.n != 1 || ndocs != 1 ||
		       !kvet_node_is_map(docs.v[0].root) ||
		       (docs.v[0].root->flags & KVET_NODE_FLOW)))
		rc = 0;
	if (rc > 0)
		*doc = docs.v[0];
	kvet_docs_release(&docs);
	kvet_diag_release(&diag);
	return rc;
}

static bool same_key(const struct kvet_node *a, const struct kvet_node *b)
{
	return a->len == b->len && memcmp(a->u.str, b->u.str, a->len) == 0;
}

/*
 * A List whose items were parsed in pieces: its head (the keys up to
 * "items:", whose value must be empty there) and its tail (the keys
 * after the items) are parsed alone too, and the root mapping is made
 * of the head's keys, the items and the tail's keys, in that order, as
 * the whole parse makes it. Merge keys would reorder keys: their "<<"
 * sends the input to the whole parse.
 */
static int join_yaml_items(struct kvet_load_job *job, struct kvet_docs *out)
{
	const struct kvet_split *s = &job->split;
	struct kvet_doc head, tail = { 0 };
	const struct kvet_node *last;
	struct kvet_node *items, *seq, *root;
	struct kvet_pair *pairs;
	size_t n = 0, i, k, h, t = 0;
	int rc;

	rc = one_map(job, job->arena, 0, s->v[0].start, 1, &head);
	if (rc <= 0)
		return rc;
	h = head.root->len;
	last = h ? &head.root->u.pairs[h - 1].key : NULL;
	if (!last || !kvet_node_text_eq(last, "items") ||
	    head.root->u.pairs[h - 1].value.type != KVET_NODE_NULL ||
	    head.root->u.pairs[h - 1].value.len ||
	    (head.root->u.pairs[h - 1].value.flags & KVET_NODE_QUOTED))
		return 0;
	if (s->tail < job->len) {
		rc = one_map(job, job->arena, s->tail, job->len, s->tail_line,
			     &tail);
		if (rc <= 0)
			return rc;
		t = tail.root->len;
	}
	for (i = 0; i < t; i++)
		for (k = 0; k < h; k++)
			if (same_key(&tail.root->u.pairs[i].key,
				     &head.root->u.pairs[k].key))
				return 0;
	for (i = 0; i < s->n; i++)
		n += job->pieces[i].docs.v[0].root->len;
	items = kvet_arena_array(job->arena, n, sizeof(*items));
	pairs = kvet_arena_array(job->arena, h + t, sizeof(*pairs));
	seq = kvet_arena_alloc(job->arena, sizeof(*seq));
	root = kvet_arena_alloc(job->arena, sizeof(*root));
	if (!items || !pairs || !seq || !root || n > UINT32_MAX)
		return -1;
	for (i = 0, n = 0; i < s->n; i++) {
		const struct kvet_node *r = job->pieces[i].docs.v[0].root;

		if (r->len)
			memcpy(items + n, r->u.items, r->len * sizeof(*items));
		n += r->len;
	}
	*seq = *job->pieces[0].docs.v[0].root;
	seq->len = (uint32_t)n;
	seq->u.items = items;
	memcpy(pairs, head.root->u.pairs, h * sizeof(*pairs));
	if (t)
		memcpy(pairs + h, tail.root->u.pairs, t * sizeof(*pairs));
	pairs[h - 1].value = *seq;
	*root = *head.root;
	root->len = (uint32_t)(h + t);
	root->u.pairs = pairs;
	head.root = root;
	return append_doc(out, &head, 0) ? 1 : -1;
}

static int join_json_items(struct kvet_load_job *job, struct kvet_docs *out)
{
	const struct kvet_split *s = &job->split;
	const struct kvet_json_piece *last = &job->pieces[s->n - 1].json;
	struct kvet_json_graft g = { 0 };
	struct kvet_node *items;
	size_t n = 0, i;

	for (i = 0; i < s->n; i++)
		n += job->pieces[i].json.n;
	items = kvet_arena_array(job->arena, n, sizeof(*items));
	if (!items)
		return -1;
	for (i = 0, n = 0; i < s->n; i++) {
		const struct kvet_json_piece *p = &job->pieces[i].json;

		if (p->n)
			memcpy(items + n, p->items, p->n * sizeof(*items));
		n += p->n;
	}
	g.at = s->v[0].start;
	g.items = items;
	g.n = n;
	g.resume = last->end;
	g.line = last->line;
	g.bol = last->bol;
	g.adj = last->adj;
	return kvet_json_load_graft(job->arena, job->buf, job->len, out, NULL,
				    &g);
}

int kvet_load_job_finish(struct kvet_load_job *job, struct kvet_docs *out)
{
	struct kvet_arena_mark mark;
	size_t n0 = out->n, i;
	int rc = 0;

	if (job->refused)
		return 0;
	kvet_arena_mark(job->arena, &mark);
	for (i = 0; i < job->split.n && job->pieces[i].ok; i++)
		;
	if (job->split.n && i == job->split.n) {
		if (job->split.mode == KVET_SPLIT_DOCS)
			rc = join_docs(job, out);
		else if (job->split.mode == KVET_SPLIT_YAML_ITEMS)
			rc = join_yaml_items(job, out);
		else
			rc = join_json_items(job, out);
	}
	if (rc > 0) {
		for (i = 0; i < job->split.n; i++) {
			kvet_arena_adopt(job->arena, &job->pieces[i].arena);
			kvet_arena_adopt(job->arena, &job->pieces[i].text);
		}
		return 0;
	}
	out->n = n0;
	kvet_arena_reset(job->arena, &mark);
	if (rc < 0)
		return -1;
	return kvet_load_fixed(job->arena, job->diag, job->name, job->buf,
			       job->len, out, job->done, true, &job->fix);
}

void kvet_load_job_destroy(struct kvet_load_job *job)
{
	size_t i;

	if (!job)
		return;
	for (i = 0; job->pieces && i < job->split.n; i++) {
		kvet_docs_release(&job->pieces[i].docs);
		kvet_arena_release(&job->pieces[i].arena);
		kvet_arena_release(&job->pieces[i].text);
	}
	free(job->pieces);
	kvet_split_release(&job->split);
	kvet_utf8_fix_release(&job->fix);
	free(job);
}

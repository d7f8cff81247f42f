/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The duplicate objects of a unit (model 1.1), told to the user. Two
 * copies of one object are warned about at both places: kubectl apply
 * keeps the one applied last, and kvet lints one of them. Two folders
 * that mirror each other, every object of one defined again in the
 * other, are another thing: one folder per cluster or environment (a
 * Flux repository's clusters/staging and clusters/production), never
 * applied together, that a lint of their parent reads as one input. For
 * them, one warning per pair of folders says that only one folder's
 * copies are linted, and not that they collide.
 */
#include "api/context.h"

#include <stdbool.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "model/graph.h"
#include "model/object.h"

/* Folder pairs remembered; past that, duplicates are told one by one. */
#define MAX_PAIRS 64

struct slice {
	const char *s;
	size_t n;
};

struct pair {
	struct slice a, b;	/* a sorts first */
	bool mirror, told;
};

static struct slice dir_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	struct slice d = { file, slash ? (size_t)(slash - file) : 0 };

	return d;
}

static bool same(struct slice x, struct slice y)
{
	return x.n == y.n && memcmp(x.s, y.s, x.n) == 0;
}

/* Is @outer @inner or a folder above it? ("" is above every folder.) */
static bool contains(struct slice outer, struct slice inner)
{
	return !outer.n ||
	       (inner.n >= outer.n && memcmp(inner.s, outer.s, outer.n) == 0 &&
		(inner.n == outer.n || inner.s[outer.n] == '/'));
}

static size_t count_in(const struct kvet_graph *g, struct slice dir)
{
	struct kvet_object *const *objs;
	const struct kvet_duplicate *dups;
	size_t i, n, nd, c = 0;

	objs = kvet_graph_objects(g, &n);
	for (i = 0; i < n; i++)
		c += same(dir_of(objs[i]->file), dir);
	dups = kvet_graph_duplicates(g, &nd);
	for (i = 0; i < nd; i++)
		c += same(dir_of(dups[i].dropped->file), dir);
	return c;
}

/* Each object of @a defined again in @b and each of @b in @a, and nothing
 * else in either folder? */
static bool mirrors(const struct kvet_graph *g, struct slice a,
		    struct slice b)
{
	const struct kvet_duplicate *dups;
	size_t i, nd, pairs = 0;

	dups = kvet_graph_duplicates(g, &nd);
	for (i = 0; i < nd; i++) {
		struct slice k = dir_of(dups[i].kept->file);
		struct slice d = dir_of(dups[i].dropped->file);

		if ((same(k, a) && same(d, b)) || (same(k, b) && same(d, a)))
			pairs++;
	}
	return pairs && count_in(g, a) == pairs && count_in(g, b) == pairs;
}

static int compare(struct slice x, struct slice y)
{
	int c = memcmp(x.s, y.s, x.n < y.n ? x.n : y.n);

	return c ? c : (x.n > y.n) - (x.n < y.n);
}

/* The folder pair of @dup when its copies lie in two folders neither of
 * which holds the other, or NULL; NULL too once MAX_PAIRS are known. */
static struct pair *pair_of(const struct kvet_graph *g,
			    const struct kvet_duplicate *dup,
			    struct pair *pairs, size_t *n)
{
	struct slice a = dir_of(dup->kept->file);
	struct slice b = dir_of(dup->dropped->file);
	struct slice t;
	size_t i;

	if (contains(a, b) || contains(b, a))
		return NULL;
	if (compare(a, b) > 0) {
		t = a;
		a = b;
		b = t;
	}
	for (i = 0; i < *n; i++)
		if (same(pairs[i].a, a) && same(pairs[i].b, b))
			return &pairs[i];
	if (*n == MAX_PAIRS)
		return NULL;
	pairs[*n].a = a;
	pairs[*n].b = b;
	pairs[*n].mirror = mirrors(g, a, b);
	pairs[*n].told = false;
	return &pairs[(*n)++];
}

static void say_pair(struct kvet_ctx *ctx, const struct kvet_graph *g,
		     const struct kvet_duplicate *dup, const struct pair *p)
{
	const struct kvet_object *k = dup->kept, *d = dup->dropped;
	struct slice kd = dir_of(k->file);

	kvet_diag_notef(&ctx->diag, KVET_NOTICE_WARNING, d->file, d->line,
			d->col,
			"folders %.*s and %.*s define the same %zu objects (%s %s%s%s among them, also at %s:%u), as one folder per cluster or environment does: read as one input, only the copies in %.*s are linted; lint each folder on its own",
			(int)p->a.n, p->a.s, (int)p->b.n, p->b.s,
			count_in(g, kd), d->kind, d->namespace,
			d->namespace[0] ? "/" : "", d->name, k->file, k->line,
			(int)kd.n, kd.s);
}

void kvet_ctx_note_duplicates(struct kvet_ctx *ctx)
{
	const struct kvet_duplicate *dups;
	struct pair pairs[MAX_PAIRS], *p;
	size_t i, n, np = 0;

	dups = kvet_graph_duplicates(ctx->graph, &n);
	for (i = 0; i < n; i++) {
		const struct kvet_object *k = dups[i].kept;
		const struct kvet_object *d = dups[i].dropped;

		p = pair_of(ctx->graph, &dups[i], pairs, &np);
		if (p && p->mirror) {
			if (!p->told)
				say_pair(ctx, ctx->graph, &dups[i], p);
			p->told = true;
			continue;
		}
		kvet_diag_notef(&ctx->diag, KVET_NOTICE_WARNING, d->file,
				d->line, d->col,
				"%s %s%s%s is defined twice, also at %s:%u: kubectl apply keeps the one applied last; kvet lints the other one",
				d->kind, d->namespace, d->namespace[0] ? "/" : "",
				d->name, k->file, k->line);
		kvet_diag_notef(&ctx->diag, KVET_NOTICE_WARNING, k->file,
				k->line, k->col,
				"%s %s%s%s is defined twice, also at %s:%u: kubectl apply keeps the one applied last; kvet lints this one (its place sorts first)",
				k->kind, k->namespace, k->namespace[0] ? "/" : "",
				k->name, d->file, d->line);
	}
}

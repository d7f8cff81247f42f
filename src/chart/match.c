/* SPDX-License-Identifier: Apache-2.0 */
#include "chart/match.h"

#include <string.h>

enum {
	/* helpers that include helpers: followed this deep */
	MAX_NEST = 8,
};

/* The document of @ti that printed the object, or -1 when in doubt;
 * *@kind_doc is the document whose kind: line is the fallback. */
static long pick_doc(const struct kvet_tindex *ti,
		     const struct kvet_chart_field *f, size_t *kind_doc)
{
	size_t i, n = 0, templated = 0, first = (size_t)-1;
	size_t nth = (size_t)-1;

	for (i = 0; i < ti->ndocs; i++) {
		const char *k = ti->docs[i].kind;

		if (!k)
			continue;
		if (strstr(k, "{{")) {
			templated++;
			continue;
		}
		if (strcmp(k, f->kind))
			continue;
		if (first == (size_t)-1)
			first = i;
		if (n == f->ordinal)
			nth = i;
		n++;
	}
	*kind_doc = first;
	if (first == (size_t)-1 || templated)
		return -1;
	if (n == 1)
		return (long)first;
	/* one document per object, in order: no range made more */
	if (n == f->count && nth != (size_t)-1) {
		*kind_doc = nth;
		return (long)nth;
	}
	return -1;
}

static bool text_fits(const struct kvet_tline *tl,
		      const struct kvet_chart_field *f)
{
	if (!f->text || !tl->text_len)
		return true;
	return kvet_ttext_match(tl->text, tl->text_len, f->text, f->text_len);
}

/*
 * The one line of @define (-1: top level) in document @doc (-1: any)
 * with key path @path, or NULL. When several have it, the text decides;
 * *@several says that the path was found but not told apart.
 */
static const struct kvet_tline *
find_line(const struct kvet_tindex *ti, int32_t define, long doc,
	  const char *path, const struct kvet_chart_field *f, bool *several)
{
	const struct kvet_tline *hit = NULL, *fit = NULL;
	size_t i, nhit = 0, nfit = 0;

	for (i = 0; i < ti->n; i++) {
		const struct kvet_tline *tl = &ti->lines[i];

		if (tl->kind == KVET_TLINE_BLOCK || tl->define != define ||
		    (doc >= 0 && tl->doc != (uint32_t)doc) ||
		    !kvet_tpath_eq(tl->path, path))
			continue;
		hit = tl;
		nhit++;
		if (text_fits(tl, f)) {
			fit = tl;
			nfit++;
		}
	}
	*several = nhit > 1;
	if (nhit == 1)
		return hit;
	return nfit == 1 ? fit : NULL;
}

/* The blocks whose lines go under the longest prefix of @path. */
static const struct kvet_tline *
find_block(const struct kvet_tindex *ti, int32_t define, long doc,
	   const char *path, size_t *nblocks, const char **rest)
{
	const struct kvet_tline *best = NULL;
	size_t i, bestlen = 0;

	*nblocks = 0;
	for (i = 0; i < ti->n; i++) {
		const struct kvet_tline *tl = &ti->lines[i];
		const char *r;
		size_t len;

		if (tl->kind != KVET_TLINE_BLOCK || tl->define != define ||
		    (doc >= 0 && tl->doc != (uint32_t)doc))
			continue;
		r = kvet_tpath_under(path, tl->path);
		if (!r || (!*r && *path && *tl->path))
			continue;
		len = strlen(tl->path);
		if (!best || len > bestlen) {
			best = tl;
			bestlen = len;
			*nblocks = 1;
			*rest = r;
		} else if (len == bestlen) {
			(*nblocks)++;
		}
	}
	return best;
}

/* The values path of the field under a toYaml block: the block's path
 * and the keys below it, up to the first sequence item. */
static const char *yaml_key(struct kvet_arena *arena, const char *block,
			    const char *rest)
{
	const char *e = rest;
	char *out, *p;

	while (*e && !(e[0] == '-' && (!e[1] || e[1] == KVET_TPATH_SEP)) &&
	       !(e[0] == '*'))
		e = strchr(e, KVET_TPATH_SEP) ? strchr(e, KVET_TPATH_SEP) + 1
					      : e + strlen(e);
	if (e > rest && e[-1] == KVET_TPATH_SEP)
		e--;
	out = kvet_arena_printf(arena, "%s%s%.*s", block,
				*block && e > rest ? "." : "",
				(int)(e - rest), rest);
	for (p = out; p && *p; p++)
		if (*p == KVET_TPATH_SEP)
			*p = '.';
	return out;
}

static void take(struct kvet_tmatch *out, const struct kvet_tindex *ti,
		 const struct kvet_tline *tl)
{
	out->ti = ti;
	out->line = tl->line;
	out->col = tl->col;
	out->exact = true;
}

void kvet_tmatch_field(struct kvet_arena *arena, const struct kvet_tindex *ti,
		       kvet_define_fn find, void *user,
		       const struct kvet_chart_field *f, struct kvet_tmatch *out)
{
	const struct kvet_tindex *cur = ti;
	const struct kvet_tline *tl, *bl;
	const char *path = f->path, *rest = NULL;
	int32_t define = -1;
	size_t kind_doc, nb;
	long doc;
	bool several;
	int depth;

	memset(out, 0, sizeof(*out));
	out->ti = ti;
	out->line = 1;
	out->col = 1;
	doc = pick_doc(ti, f, &kind_doc);
	if (kind_doc != (size_t)-1) {
		out->line = ti->docs[kind_doc].kind_line;
		out->col = ti->docs[kind_doc].kind_col;
	}
	if (doc < 0 || !*path)
		return;
	for (depth = 0; depth < MAX_NEST; depth++) {
		tl = find_line(cur, define, define < 0 ? doc : -1, path, f,
			       &several);
		if (tl) {
			take(out, cur, tl);
			if (tl->kind != KVET_TLINE_BLOCK)
				out->values_key = kvet_tvalues_ref(
					arena, tl->text, tl->text_len, tl->dot);
			return;
		}
		if (several)
			return;
		bl = find_block(cur, define, define < 0 ? doc : -1, path, &nb,
				&rest);
		if (!bl || nb != 1)
			return;
		take(out, cur, bl);
		if (bl->values) {
			out->values_key = yaml_key(arena, bl->block, rest);
			return;
		}
		if (!bl->block || !find)
			return;
		/* into the helper, when it is found: its lines or the
		 * include line */
		{
			int32_t d = -1;
			const struct kvet_tindex *h = find(user, bl->block, &d);

			if (!h || d < 0)
				return;
			cur = h;
			define = d;
			path = rest;
		}
		if (!*path)
			return;
	}
}

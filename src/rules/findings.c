/* SPDX-License-Identifier: Apache-2.0 */
#include "rules/findings.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void kvet_findings_init(struct kvet_findings *fs, struct kvet_arena *arena)
{
	memset(fs, 0, sizeof(*fs));
	fs->arena = arena;
}

void kvet_findings_release(struct kvet_findings *fs)
{
	if (!fs)
		return;
	free(fs->v);
	free(fs->order);
	free(fs->objs);
	fs->v = NULL;
	fs->order = NULL;
	fs->objs = NULL;
	fs->n = fs->cap = 0;
}

void kvet_object_ref_set(struct kvet_object_ref *ref,
			 const struct kvet_object *obj)
{
	ref->api_version = obj->api_version;
	ref->kind = obj->kind;
	ref->namespace = obj->namespace;
	ref->name = obj->name;
	ref->pos.file = obj->file;
	ref->pos.line = obj->line;
	ref->pos.column = obj->col;
}

/* @s in the arena, or NULL for NULL and ""; sets *@oom when it cannot. */
static const char *keep(struct kvet_arena *arena, const char *s, bool *oom)
{
	const char *copy;

	if (!s || !*s)
		return NULL;
	copy = kvet_arena_strdup(arena, s);
	if (!copy)
		*oom = true;
	return copy;
}

struct kvet_finding *kvet_findings_add(struct kvet_findings *fs,
				       const char *rule,
				       enum kvet_severity sev,
				       const struct kvet_object *obj,
				       size_t file_order,
				       const struct kvet_node *at,
				       const struct kvet_finding_text *text)
{
	struct kvet_finding *f;
	const char *headline, *reason, *help, *msg;
	bool oom = false;

	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? fs->cap * 2 : 32;
		struct kvet_finding *v = realloc(fs->v, cap * sizeof(*v));
		const struct kvet_object **ob;
		size_t *o;

		if (!v)
			goto oom;
		fs->v = v;
		o = realloc(fs->order, cap * sizeof(*o));
		if (!o)
			goto oom;
		fs->order = o;
		ob = realloc(fs->objs, cap * sizeof(*ob));
		if (!ob)
			goto oom;
		fs->objs = ob;
		fs->cap = cap;
	}
	headline = keep(fs->arena, text->headline ? text->headline : "", &oom);
	reason = keep(fs->arena, text->reason, &oom);
	help = keep(fs->arena, text->help, &oom);
	if (text->message)
		msg = keep(fs->arena, text->message, &oom);
	else if (reason)
		msg = kvet_arena_printf(fs->arena, "%s: %s",
					headline ? headline : "", reason);
	else
		msg = headline;
	if (oom || !msg)
		goto oom;
	if (!headline)
		headline = msg;
	f = &fs->v[fs->n];
	memset(f, 0, sizeof(*f));
	fs->order[fs->n] = file_order;
	fs->objs[fs->n] = obj;
	fs->n++;
	f->rule = rule;
	f->severity = sev;
	f->message = msg;
	f->headline = headline;
	f->reason = reason;
	f->help = help;
	kvet_object_ref_set(&f->object, obj);
	f->pos = f->object.pos;
	if (at && at->line) {
		f->pos.line = at->line;
		f->pos.column = at->col;
	}
	f->source = obj->source;
	return f;
oom:
	fs->oom = 1;
	return NULL;
}

struct sort_item {
	const struct kvet_finding *f;
	const struct kvet_object *obj;
	size_t order;
};

static int cmp_finding(const void *pa, const void *pb)
{
	const struct sort_item *a = pa, *b = pb;
	int c;

	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	if (a->f->pos.line != b->f->pos.line)
		return a->f->pos.line < b->f->pos.line ? -1 : 1;
	if (a->f->pos.column != b->f->pos.column)
		return a->f->pos.column < b->f->pos.column ? -1 : 1;
	c = strcmp(a->f->rule, b->f->rule);
	if (c)
		return c;
	return strcmp(a->f->message, b->f->message);
}

void kvet_findings_sort(struct kvet_findings *fs)
{
	struct sort_item *items;
	struct kvet_finding *sorted;
	size_t i;

	if (fs->n < 2)
		return;
	items = malloc(fs->n * sizeof(*items));
	sorted = malloc(fs->n * sizeof(*sorted));
	if (!items || !sorted) {
		free(items);
		free(sorted);
		fs->oom = 1;
		return;
	}
	for (i = 0; i < fs->n; i++) {
		items[i].f = &fs->v[i];
		items[i].obj = fs->objs[i];
		items[i].order = fs->order[i];
	}
	qsort(items, fs->n, sizeof(*items), cmp_finding);
	for (i = 0; i < fs->n; i++) {
		sorted[i] = *items[i].f;
		fs->order[i] = items[i].order;
		fs->objs[i] = items[i].obj;
	}
	free(fs->v);
	fs->v = sorted;
	fs->cap = fs->n;
	free(items);
}

/*
 * FNV-1a, 64 bits, over the fields that identify a finding independently
 * of where it is, each followed by a NUL so that no two field lists hash
 * the same text.
 */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	do {
		h ^= *p;
		h *= 0x100000001b3ull;
	} while (*p++);
	return h;
}

KVET_API uint64_t kvet_finding_fingerprint(const struct kvet_finding *f)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = fnv1a(h, f->rule);
	h = fnv1a(h, f->object.api_version);
	h = fnv1a(h, f->object.kind);
	h = fnv1a(h, f->object.namespace);
	h = fnv1a(h, f->object.name);
	return fnv1a(h, f->headline ? f->headline : f->message);
}

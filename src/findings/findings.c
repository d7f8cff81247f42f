/* SPDX-License-Identifier: Apache-2.0 */
#include "findings/findings.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "load/field_path.h"

enum {
	/* the least room trim() gives back in one call */
	TRIM_BYTES = 1 << 20,
};

void kvet_findings_init(struct kvet_findings *fs, struct kvet_arena *arena)
{
	memset(fs, 0, sizeof(*fs));
	fs->arena = arena;
	kvet_arena_init(&fs->scratch);
}

void kvet_findings_release(struct kvet_findings *fs)
{
	if (!fs)
		return;
	free(fs->v);
	free(fs->meta);
	free(fs->invalid);
	free(fs->kept);
	kvet_arena_release(&fs->scratch);
	fs->v = NULL;
	fs->meta = NULL;
	fs->invalid = NULL;
	fs->kept = NULL;
	fs->n = fs->cap = 0;
	fs->n_invalid = fs->cap_invalid = 0;
	fs->n_kept = fs->cap_kept = 0;
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

/*
 * One kept text or list of related objects. @len is its size in bytes
 * (a text's with its NUL), its top bit set for a list: a text is never
 * handed out as a list, whose pointer must be aligned.
 */
struct kvet_findings_kept {
	const void *p;
	uint32_t hash;
	uint32_t len;
};
#define KEPT_LIST 0x80000000u

/* What a kept entry is compared with: up to three pieces, in order (a
 * joined message is its headline, ": " and its reason). */
struct pieces {
	const void *p[3];
	size_t len[3];
	size_t n, total;
};

static void add_piece(struct pieces *pc, const void *p, size_t len)
{
	pc->p[pc->n] = p;
	pc->len[pc->n++] = len;
	pc->total += len;
}

/*
 * A hash of the pieces (byte-wise FNV-1a was 4% of a findings-heavy run's
 * instructions). It depends on where the pieces are cut: the same bytes
 * cut otherwise are only kept twice.
 */
static uint32_t hash_pieces(const struct pieces *pc, uint32_t kind)
{
	uint64_t h = KVET_HASH_SEED ^ kind;
	size_t i;

	for (i = 0; i < pc->n; i++) {
		h = kvet_hash_mix(h, (uint64_t)pc->len[i]);
		h = kvet_hash_bytes(h, pc->p[i], pc->len[i]);
	}
	return (uint32_t)kvet_hash_end(h);
}

static bool same_pieces(const struct kvet_findings_kept *e,
			const struct pieces *pc)
{
	const char *p = e->p;
	size_t i;

	for (i = 0; i < pc->n; i++) {
		if (pc->len[i] && memcmp(p, pc->p[i], pc->len[i]))
			return false;
		p += pc->len[i];
	}
	return true;
}

/* Room for one more entry at a load of at most a half. Returns false
 * when out of memory. */
static bool kept_grow(struct kvet_findings *fs)
{
	struct kvet_findings_kept *v;
	size_t cap, i, k;

	if ((fs->n_kept + 1) * 2 <= fs->cap_kept)
		return true;
	cap = fs->cap_kept ? fs->cap_kept * 2 : 1024;
	v = calloc(cap, sizeof(*v));
	if (!v)
		return false;
	for (i = 0; i < fs->cap_kept; i++) {
		if (!fs->kept[i].p)
			continue;
		for (k = fs->kept[i].hash & (cap - 1); v[k].p;
		     k = (k + 1) & (cap - 1))
			;
		v[k] = fs->kept[i];
	}
	free(fs->kept);
	fs->kept = v;
	fs->cap_kept = cap;
	return true;
}

/*
 * The pieces @pc joined, in the arena, a text (@kind 0) or a list
 * (KEPT_LIST): the copy kept before when there is one. Returns NULL
 * when out of memory.
 */
static const void *keep_pieces(struct kvet_findings *fs,
			       const struct pieces *pc, uint32_t kind)
{
	uint32_t h = hash_pieces(pc, kind), len = (uint32_t)pc->total | kind;
	struct kvet_findings_kept *e = NULL;
	char *copy;
	size_t i, k;

	if (pc->total < KEPT_LIST && kept_grow(fs)) {
		for (k = h & (fs->cap_kept - 1); fs->kept[k].p;
		     k = (k + 1) & (fs->cap_kept - 1))
			if (fs->kept[k].hash == h && fs->kept[k].len == len &&
			    same_pieces(&fs->kept[k], pc))
				return fs->kept[k].p;
		e = &fs->kept[k];
	}
	/* the arena aligns every allocation */
	copy = kvet_arena_alloc(fs->arena, pc->total);
	if (!copy)
		return NULL;
	for (k = 0, i = 0; i < pc->n; k += pc->len[i++])
		if (pc->len[i])
			memcpy(copy + k, pc->p[i], pc->len[i]);
	if (e) {
		*e = (struct kvet_findings_kept){ copy, h, len };
		fs->n_kept++;
	}
	return copy;
}

/* @s in the arena, once, or NULL for NULL and ""; sets *@oom when it
 * cannot. */
static const char *keep(struct kvet_findings *fs, const char *s, bool *oom)
{
	struct pieces pc = { .n = 0 };
	const char *copy;

	if (!s || !*s)
		return NULL;
	add_piece(&pc, s, strlen(s) + 1);
	copy = keep_pieces(fs, &pc, 0);
	if (!copy)
		*oom = true;
	return copy;
}

/* "@headline: @reason" in the arena, once, with *@tail at its reason. */
static const char *join(struct kvet_findings *fs, const char *headline,
			const char *reason, const char **tail)
{
	struct pieces pc = { .n = 0 };
	size_t hl = strlen(headline);
	const char *s;

	add_piece(&pc, headline, hl);
	add_piece(&pc, ": ", 2);
	add_piece(&pc, reason, strlen(reason) + 1);
	s = keep_pieces(fs, &pc, 0);
	if (s)
		*tail = s + hl + 2;
	return s;
}

/* The field path of @at in @obj, kept once ("" as it is). */
static const char *keep_field(struct kvet_findings *fs,
			      const struct kvet_object *obj,
			      const struct kvet_node *at, bool *oom)
{
	struct kvet_arena_mark empty;
	const char *path;

	kvet_arena_mark(&fs->scratch, &empty);
	path = kvet_node_field_path(&fs->scratch, obj->root, at);
	if (path && *path)
		path = keep(fs, path, oom);
	else if (!path)
		*oom = true;
	kvet_arena_reset(&fs->scratch, &empty);
	return path;
}

const struct kvet_object_ref *
kvet_findings_keep_refs(struct kvet_findings *fs,
			const struct kvet_object_ref *refs, size_t n)
{
	struct pieces pc = { .n = 0 };

	/* a ref is pointers and positions, with no padding: its bytes say
	 * which objects it names */
	add_piece(&pc, refs, n * sizeof(*refs));
	return keep_pieces(fs, &pc, KEPT_LIST);
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
	const char *headline, *reason, *help, *msg, *field;
	bool oom = false;

	if (fs->n == fs->cap) {
		size_t cap = fs->cap ? fs->cap * 2 : 32;
		struct kvet_finding *v = realloc(fs->v, cap * sizeof(*v));
		struct kvet_finding_meta *m;

		if (!v)
			goto oom;
		fs->v = v;
		m = realloc(fs->meta, cap * sizeof(*m));
		if (!m)
			goto oom;
		fs->meta = m;
		fs->cap = cap;
	}
	headline = keep(fs, text->headline, &oom);
	help = keep(fs, text->help, &oom);
	reason = NULL;
	msg = headline;
	if (text->message) {
		reason = keep(fs, text->reason, &oom);
		msg = keep(fs, text->message, &oom);
	} else if (text->reason && *text->reason && headline) {
		/* the message is the headline and the reason joined: not
		 * kept, as most reasons are shared and most headlines are
		 * not (kvet_finding_message_dup() joins it) */
		reason = keep(fs, text->reason, &oom);
		msg = NULL;
	} else if (text->reason && *text->reason) {
		msg = join(fs, "", text->reason, &reason);
	}
	field = keep_field(fs, obj, at, &oom);
	if (oom || (!msg && !reason) || !field)
		goto oom;
	if (!headline)
		headline = msg;
	f = &fs->v[fs->n];
	memset(f, 0, sizeof(*f));
	fs->meta[fs->n].obj = obj;
	fs->meta[fs->n].file_order = file_order;
	fs->meta[fs->n].tag = KVET_FINDING_NO_TAG;
	fs->n++;
	f->rule = rule;
	f->severity = sev;
	f->message = msg;
	f->headline = headline;
	f->reason = reason;
	f->help = help;
	f->field = field;
	kvet_object_ref_set(&f->object, obj);
	f->object_index = obj->seq;
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

/* Room for @n findings in all. Returns 0, or -1 when out of memory. */
static int reserve(struct kvet_findings *fs, size_t n)
{
	struct kvet_finding *v;
	struct kvet_finding_meta *m;

	if (n <= fs->cap)
		return 0;
	v = realloc(fs->v, n * sizeof(*v));
	if (!v)
		return -1;
	fs->v = v;
	m = realloc(fs->meta, n * sizeof(*m));
	if (!m)
		return -1;
	fs->meta = m;
	fs->cap = n;
	return 0;
}

/* Give back the room of @fs past its first @n findings, which the join
 * has moved out, once it is worth a call. The list keeps its @n. */
static void trim(struct kvet_findings *fs, size_t n)
{
	struct kvet_finding *v;
	struct kvet_finding_meta *m;

	if (!n || (fs->cap - n) * sizeof(*v) < TRIM_BYTES)
		return;
	v = realloc(fs->v, n * sizeof(*v));
	m = realloc(fs->meta, n * sizeof(*m));
	/* a smaller block is taken in place; were it not, the old stays */
	if (v)
		fs->v = v;
	if (m)
		fs->meta = m;
	if (v && m)
		fs->cap = n;
}

int kvet_findings_join(struct kvet_findings *to,
		       struct kvet_findings *const *lanes, size_t nl,
		       const struct kvet_findings_part *parts, size_t n_parts)
{
	struct kvet_findings *base = NULL;
	struct kvet_finding *old_v = to->v;
	struct kvet_finding_meta *old_meta = to->meta;
	size_t i, total = to->n, at, old_cap = to->cap;

	for (i = 0; i < n_parts; i++)
		total += parts[i].end - parts[i].first;
	for (i = 0; i < nl; i++) {
		if (lanes[i]->oom)
			to->oom = 1;
		if (!base || lanes[i]->n > base->n)
			base = lanes[i];
	}
	if (!base || total == to->n)
		return 0;
	if (reserve(base, total) < 0)
		return -1;
	/* a part of @base starts at or after where it is now, as @base's
	 * earlier parts are among all the earlier parts: from the last
	 * part down, a move never overwrites what is still to move */
	at = total;
	for (i = n_parts; i-- > 0;) {
		const struct kvet_findings_part *pt = &parts[i];
		struct kvet_findings *from = lanes[pt->from];
		size_t n = pt->end - pt->first;

		if (!n)
			continue;
		at -= n;
		if (from == base) {
			memmove(base->v + at, base->v + pt->first,
				n * sizeof(*base->v));
			memmove(base->meta + at, base->meta + pt->first,
				n * sizeof(*base->meta));
			continue;
		}
		memcpy(base->v + at, from->v + pt->first, n * sizeof(*base->v));
		memcpy(base->meta + at, from->meta + pt->first,
		       n * sizeof(*base->meta));
		/* a lane's parts come in increasing order: this one's
		 * findings and all after it are copied */
		trim(from, pt->first);
	}
	if (to->n) {
		memcpy(base->v, to->v, to->n * sizeof(*to->v));
		memcpy(base->meta, to->meta, to->n * sizeof(*to->meta));
	}
	to->v = base->v;
	to->meta = base->meta;
	to->cap = base->cap;
	to->n = total;
	base->v = old_v;
	base->meta = old_meta;
	base->cap = old_cap;
	for (i = 0; i < nl; i++)
		lanes[i]->n = 0;
	return 0;
}

int kvet_findings_invalidate(struct kvet_findings *fs,
			     const struct kvet_node *n)
{
	if (!fs->defer_invalid) {
		kvet_node_invalidate(n);
		return 0;
	}
	if (fs->n_invalid == fs->cap_invalid) {
		size_t cap = fs->cap_invalid ? fs->cap_invalid * 2 : 16;
		const struct kvet_node **v = realloc(fs->invalid,
						     cap * sizeof(*v));

		if (!v) {
			fs->oom = 1;
			return -1;
		}
		fs->invalid = v;
		fs->cap_invalid = cap;
	}
	fs->invalid[fs->n_invalid++] = n;
	return 0;
}

/* A finding's sort keys, held inline: a comparison reads the finding
 * itself only for a tie in place (its rule and message). */
struct sort_item {
	size_t file_order;
	unsigned int line, column;
	const struct kvet_finding *f;
	size_t idx;			/* before the sort */
};

static int cmp_finding(const void *pa, const void *pb)
{
	const struct sort_item *a = pa, *b = pb;
	int c;

	if (a->file_order != b->file_order)
		return a->file_order < b->file_order ? -1 : 1;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	c = strcmp(a->f->rule, b->f->rule);
	if (!c)
		c = kvet_finding_message_cmp(a->f, b->f);
	if (c)
		return c;
	/* equal findings keep their order, as qsort's merge sort did */
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Put the findings in the order of @items, in place: a second copy of
 * 200,000 findings was 40 MB more at the run's peak. Each cycle of the
 * permutation moves once; a moved place is marked by its own index. */
static void permute(struct kvet_findings *fs, struct sort_item *items)
{
	size_t i, j, k;

	for (i = 0; i < fs->n; i++) {
		struct kvet_finding f;
		struct kvet_finding_meta m;

		if (items[i].idx == i)
			continue;
		f = fs->v[i];
		m = fs->meta[i];
		for (j = i; (k = items[j].idx) != i; j = k) {
			fs->v[j] = fs->v[k];
			fs->meta[j] = fs->meta[k];
			items[j].idx = j;
		}
		fs->v[j] = f;
		fs->meta[j] = m;
		items[j].idx = j;
	}
}

void kvet_findings_sort(struct kvet_findings *fs)
{
	struct sort_item *items;
	struct kvet_finding *v;
	struct kvet_finding_meta *meta;
	size_t i;

	/* sorted, the findings are all there: what found their texts again
	 * goes before the report needs the memory (a later finding starts
	 * a new table) */
	free(fs->kept);
	fs->kept = NULL;
	fs->n_kept = fs->cap_kept = 0;
	if (fs->n < 2)
		return;
	items = malloc(fs->n * sizeof(*items));
	if (!items) {
		fs->oom = 1;
		return;
	}
	for (i = 0; i < fs->n; i++) {
		items[i].file_order = fs->meta[i].file_order;
		items[i].line = fs->v[i].pos.line;
		items[i].column = fs->v[i].pos.column;
		items[i].f = &fs->v[i];
		items[i].idx = i;
	}
	qsort(items, fs->n, sizeof(*items), cmp_finding);
	permute(fs, items);
	free(items);
	/* the room of a list that grew by doubling goes back; both keep at
	 * least @n either way, which is the capacity from now on */
	if (fs->cap == fs->n)
		return;
	v = realloc(fs->v, fs->n * sizeof(*v));
	if (v)
		fs->v = v;
	meta = realloc(fs->meta, fs->n * sizeof(*meta));
	if (meta)
		fs->meta = meta;
	fs->cap = fs->n;
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

uint64_t kvet_finding_hash(const struct kvet_finding *f, const char *text)
{
	uint64_t h = 0xcbf29ce484222325ull;

	h = fnv1a(h, f->rule);
	h = fnv1a(h, f->object.api_version);
	h = fnv1a(h, f->object.kind);
	h = fnv1a(h, f->object.namespace);
	h = fnv1a(h, f->object.name);
	return fnv1a(h, text);
}

/* FNV-1a steps over @s, without its NUL. */
static uint64_t fnv1a_part(uint64_t h, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		h ^= *p;
		h *= 0x100000001b3ull;
	}
	return h;
}

uint64_t kvet_finding_hash_message(const struct kvet_finding *f)
{
	uint64_t h = 0xcbf29ce484222325ull;

	if (f->message)
		return kvet_finding_hash(f, f->message);
	/* kvet_finding_hash() over the joined message, hashed in pieces */
	h = fnv1a(h, f->rule);
	h = fnv1a(h, f->object.api_version);
	h = fnv1a(h, f->object.kind);
	h = fnv1a(h, f->object.namespace);
	h = fnv1a(h, f->object.name);
	h = fnv1a_part(h, f->headline);
	h = fnv1a_part(h, ": ");
	return fnv1a(h, f->reason);
}

/* The pieces of @f's full sentence: the message, or the headline, ": "
 * and the reason. Returns how many. */
static size_t message_pieces(const struct kvet_finding *f, const char *v[3])
{
	if (f->message) {
		v[0] = f->message;
		return 1;
	}
	v[0] = f->headline;
	v[1] = ": ";
	v[2] = f->reason;
	return 3;
}

KVET_API int kvet_finding_message_cmp(const struct kvet_finding *a,
				      const struct kvet_finding *b)
{
	const char *pa[3], *pb[3];
	size_t na = message_pieces(a, pa), nb = message_pieces(b, pb);
	size_t ia = 0, ib = 0;
	const unsigned char *x = (const unsigned char *)pa[0];
	const unsigned char *y = (const unsigned char *)pb[0];

	if (na == 1 && nb == 1)
		return strcmp(a->message, b->message);
	/* strcmp() over the joined sentences, a byte at a time */
	for (;;) {
		while (!*x && ++ia < na)
			x = (const unsigned char *)pa[ia];
		while (!*y && ++ib < nb)
			y = (const unsigned char *)pb[ib];
		if (*x != *y || !*x)
			return (*x > *y) - (*x < *y);
		x++;
		y++;
	}
}

KVET_API char *kvet_finding_message_dup(const struct kvet_finding *f)
{
	const char *v[3];
	size_t i, n = message_pieces(f, v), len = 0, at = 0;
	char *s;

	for (i = 0; i < n; i++)
		len += strlen(v[i]);
	s = malloc(len + 1);
	if (!s)
		return NULL;
	for (i = 0; i < n; i++) {
		size_t l = strlen(v[i]);

		memcpy(s + at, v[i], l);
		at += l;
	}
	s[at] = '\0';
	return s;
}

/* @h over the API group of @api_version ("apps/v1" is "apps", "v1" the
 * core group ""): the version of an API is no part of an object's
 * identity, and moving to a newer one keeps the fingerprint. */
static uint64_t fnv1a_group(uint64_t h, const char *api_version)
{
	const char *slash = api_version ? strchr(api_version, '/') : NULL;
	const unsigned char *p = (const unsigned char *)api_version;

	for (; slash && p < (const unsigned char *)slash; p++) {
		h ^= *p;
		h *= 0x100000001b3ull;
	}
	return fnv1a(h, "");
}

/* splitmix64's finaliser: related objects are summed, in any order, so
 * each is mixed first, and no two sets of them sum alike by accident. */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t identity(uint64_t h, const struct kvet_object_ref *o)
{
	h = fnv1a_group(h, o->api_version);
	h = fnv1a(h, o->kind);
	h = fnv1a(h, o->namespace);
	return fnv1a(h, o->name);
}

KVET_API uint64_t kvet_finding_fingerprint(const struct kvet_finding *f)
{
	uint64_t h = 0xcbf29ce484222325ull, related = 0;
	size_t i, n = 0;

	h = fnv1a(h, f->rule);
	h = identity(h, &f->object);
	h = fnv1a(h, f->field);
	/* an object the input does not hold (a node of the synthetic pool,
	 * whose name depends on what else was placed) names no cause */
	for (i = 0; i < f->n_related; i++) {
		if (!f->related[i].pos.file)
			continue;
		related += mix(identity(0xcbf29ce484222325ull, &f->related[i]));
		n++;
	}
	h ^= mix(related + n);
	return h * 0x100000001b3ull;
}

/* A property of the finding and the run's gate, not of any report:
 * the exit status and every format ask here. */
bool kvet_finding_fails(const struct kvet_finding *f,
			enum kvet_severity fail_on, bool fail_never)
{
	return !fail_never && f->severity >= fail_on;
}

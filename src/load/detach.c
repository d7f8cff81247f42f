/* SPDX-License-Identifier: Apache-2.0 */
#include "load/detach.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/vec.h"

enum {
	/* values are packed in chunks of this size; a longer one gets an
	 * allocation of its own */
	CHUNK = 32 * 1024,
	BIG = CHUNK / 8,
	/* past this many distinct texts, or this many probes for one, a
	 * text is copied, not interned: a hostile input with a million
	 * different keys, or keys made to collide, costs no more than
	 * copying them */
	MAX_INTERNED = 1 << 16,
	MAX_PROBES = 32,
	/* values up to this long are interned, as keys are: kinds,
	 * namespaces, label values, images and "True" repeat, where names,
	 * uids and timestamps (longer, or unique anyway) do not */
	SHORT_VALUE = 64,
};

void kvet_detach_init(struct kvet_detach *d, struct kvet_arena *arena,
		      const char *buf, size_t len)
{
	memset(d, 0, sizeof(*d));
	d->arena = arena;
	d->lo = buf;
	d->hi = buf + len;
	/* a piece of a dump holds a few thousand different texts */
	d->firstcap = 4096;
}

void kvet_detach_reserve(struct kvet_detach *d, size_t n)
{
	size_t cap = 4096;

	/* at most half full, and never more than MAX_INTERNED texts */
	while (cap < 2 * n && cap < 2 * (size_t)MAX_INTERNED)
		cap *= 2;
	d->firstcap = cap;
}

void kvet_detach_release(struct kvet_detach *d)
{
	if (!d)
		return;
	free(d->slot);
	free(d->stack);
	memset(d, 0, sizeof(*d));
}

static bool in_input(const struct kvet_detach *d, const struct kvet_node *n)
{
	return n->len && (uintptr_t)n->u.str >= (uintptr_t)d->lo &&
	       (uintptr_t)n->u.str < (uintptr_t)d->hi;
}

/* A NUL-terminated copy of @len bytes at @s, packed; NULL on OOM. */
static char *copy(struct kvet_detach *d, const char *s, size_t len)
{
	char *p;

	if (len >= BIG)
		return kvet_arena_strndup(d->arena, s, len);
	if (d->left < len + 1) {
		d->chunk = kvet_arena_alloc(d->arena, CHUNK);
		if (!d->chunk) {
			d->left = 0;
			return NULL;
		}
		d->left = CHUNK;
	}
	p = d->chunk;
	memcpy(p, s, len);
	p[len] = '\0';
	d->chunk += len + 1;
	d->left -= len + 1;
	return p;
}

/* Are the @len bytes at @a and @b the same? Inline, a word at a time:
 * the texts are short, and a call to memcmp() cost more than them. */
static bool same(const char *a, const char *b, size_t len)
{
	uint64_t x, y;
	uint32_t u, v;
	size_t i;

	if (len >= 8) {
		for (i = 0; i + 8 < len; i += 8) {
			memcpy(&x, a + i, sizeof(x));
			memcpy(&y, b + i, sizeof(y));
			if (x != y)
				return false;
		}
		memcpy(&x, a + len - 8, sizeof(x));
		memcpy(&y, b + len - 8, sizeof(y));
		return x == y;
	}
	if (len >= 4) {
		memcpy(&u, a, sizeof(u));
		memcpy(&v, b, sizeof(v));
		if (u != v)
			return false;
		memcpy(&u, a + len - 4, sizeof(u));
		memcpy(&v, b + len - 4, sizeof(v));
		return u == v;
	}
	for (i = 0; i < len; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

static bool grow(struct kvet_detach *d)
{
	size_t cap = d->captext ? 2 * d->captext : d->firstcap, i, j;
	struct kvet_detach_entry *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return false;
	for (i = 0; i < d->captext; i++) {
		if (!d->slot[i].s)
			continue;
		for (j = d->slot[i].hash & (cap - 1); slot[j].s;
		     j = (j + 1) & (cap - 1))
			;
		slot[j] = d->slot[i];
	}
	free(d->slot);
	d->slot = slot;
	d->captext = cap;
	return true;
}

/*
 * The first bytes of @s (up to 8) as one word, zero past @len: with @len,
 * the whole of a short text. A word is read at once when the input has
 * the bytes (it ends with a NUL), else byte by byte.
 */
static uint64_t head(const struct kvet_detach *d, const char *s, size_t len)
{
	uint64_t w = 0;
	size_t i;

	if (len >= 8) {
		memcpy(&w, s, sizeof(w));
		return w;
	}
	if ((uintptr_t)d->hi + 1 - (uintptr_t)s < sizeof(w)) {
		for (i = 0; i < len; i++)
			w |= (uint64_t)(unsigned char)s[i] << (8 * i);
		return w;
	}
	memcpy(&w, s, sizeof(w));
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w & ((1ull << (8 * len)) - 1);
}

/*
 * intern() when the recent cache (@r, for the head @w) missed: the table,
 * and a copy for a text seen first. Out of line: inlined, its registers
 * and its frame cost every lookup, and the cache answers 86% of them on
 * a dump (keys 97%, short values 68%).
 */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int intern_slow(struct kvet_detach *d, struct kvet_node *n,
		       uint64_t w, struct kvet_detach_recent *r)
{
	struct kvet_detach_entry *e;
	uint32_t h;
	size_t j, probes;
	char *p;

	if (d->ntext >= d->captext / 2 && (d->ntext >= MAX_INTERNED || !grow(d)))
		goto copy;
	h = kvet_hash_text(n->u.str, n->len);
	for (j = h & (d->captext - 1), probes = 0; d->slot[j].s;
	     j = (j + 1) & (d->captext - 1)) {
		e = &d->slot[j];
		if (e->hash == h && e->len == n->len &&
		    same(e->s, n->u.str, n->len)) {
			r->s = e->s;
			r->len = e->len;
			r->head = w;
			n->u.str = e->s;
			return 0;
		}
		if (++probes == MAX_PROBES)
			goto copy;
	}
	p = copy(d, n->u.str, n->len);
	if (!p)
		return -1;
	e = &d->slot[j];
	e->s = p;
	e->len = n->len;
	e->hash = h;
	d->ntext++;
	r->s = p;
	r->len = e->len;
	r->head = w;
	n->u.str = p;
	return 0;
copy:
	p = copy(d, n->u.str, n->len);
	if (!p)
		return -1;
	n->u.str = p;
	return 0;
}

/*
 * Point @n at a copy of its text: the one made before for the same text
 * when there is one. Most texts are one of the last few hundred seen (a
 * dump repeats its keys in every object), so a small direct-mapped cache
 * in front of the table answers most lookups without hashing all of the
 * text. Returns 0, or -1 when out of memory.
 */
static inline int intern(struct kvet_detach *d, struct kvet_node *n)
{
	struct kvet_detach_recent *r;
	uint64_t w = head(d, n->u.str, n->len);

	r = &d->recent[((w ^ n->len) * 0x9e3779b97f4a7c15ull) >>
		       (64 - KVET_DETACH_RECENT_BITS)];
	if (r->s && r->len == n->len && r->head == w &&
	    (n->len <= 8 || same(r->s + 8, n->u.str + 8, n->len - 8))) {
		n->u.str = r->s;
		return 0;
	}
	return intern_slow(d, n, w, r);
}

static int value(struct kvet_detach *d, struct kvet_node *n)
{
	char *p;

	if (!in_input(d, n))
		return 0;
	if (n->len <= SHORT_VALUE)
		return intern(d, n);
	p = copy(d, n->u.str, n->len);
	if (!p)
		return -1;
	n->u.str = p;
	return 0;
}

static int key_of(struct kvet_detach *d, struct kvet_node *n)
{
	return in_input(d, n) ? intern(d, n) : 0;
}

int kvet_detach_scalar(struct kvet_detach *d, struct kvet_node *n, bool key)
{
	return key ? key_of(d, n) : value(d, n);
}

/* Copy the text of @n, or put it on the stack when it is a collection. */
static int visit(struct kvet_detach *d, struct kvet_node *n)
{
	if (kvet_node_is_scalar(n))
		return value(d, n);
	if (!n->len)
		return 0;
	if (d->n == d->cap &&
	    !kvet_vec_grow((void **)&d->stack, &d->cap, d->n + 1,
			   sizeof(*d->stack)))
		return -1;
	d->stack[d->n++] = n;
	return 0;
}

int kvet_detach_tree(struct kvet_detach *d, struct kvet_node *root)
{
	uint32_t i;

	d->n = 0;
	if (visit(d, root) < 0)
		return -1;
	while (d->n) {
		struct kvet_node *n = d->stack[--d->n];

		/* the loader's own arena memory, typed const for readers */
		if (n->type == KVET_NODE_MAP) {
			struct kvet_pair *pairs = (struct kvet_pair *)n->u.pairs;

			for (i = 0; i < n->len; i++)
				if (key_of(d, &pairs[i].key) < 0 ||
				    visit(d, &pairs[i].value) < 0)
					return -1;
		} else {
			struct kvet_node *items = (struct kvet_node *)n->u.items;

			for (i = 0; i < n->len; i++)
				if (visit(d, &items[i]) < 0)
					return -1;
		}
	}
	return 0;
}

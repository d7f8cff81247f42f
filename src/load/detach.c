/* SPDX-License-Identifier: Apache-2.0 */
#include "load/detach.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"

enum {
	/* values are packed in chunks of this size; a longer one gets an
	 * allocation of its own */
	CHUNK = 32 * 1024,
	BIG = CHUNK / 8,
	/* past this many distinct keys, or values, they are copied, not
	 * interned: a hostile input with a million different keys costs no
	 * more than copying them */
	MAX_INTERNED = 1 << 16,
	/* values up to this long are interned too: kinds, namespaces,
	 * label values, images and "True" repeat, where names, uids and
	 * timestamps (longer, or unique anyway) do not */
	SHORT_VALUE = 64,
};

void kvet_detach_init(struct kvet_detach *d, struct kvet_arena *arena,
		      const char *buf, size_t len)
{
	memset(d, 0, sizeof(*d));
	d->arena = arena;
	d->lo = buf;
	d->hi = buf + len;
}

void kvet_detach_release(struct kvet_detach *d)
{
	if (!d)
		return;
	kvet_keyset_release(&d->keys);
	kvet_keyset_release(&d->values);
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

/* Point @n at the copy of its text in @set, made now if need be. */
static int intern(struct kvet_detach *d, struct kvet_keyset *set,
		  struct kvet_node *n)
{
	struct kvet_keyset_entry *e;
	char *p;

	if (!kvet_keyset_reserve(set))
		return -1;
	e = kvet_keyset_slot(set, n->u.str, n->len);
	if (!e->idx) {
		p = copy(d, n->u.str, n->len);
		if (!p)
			return -1;
		e->s = p;
		e->len = n->len;
		e->idx = 1;
		kvet_keyset_added(set);
	}
	n->u.str = e->s;
	return 0;
}

static int value(struct kvet_detach *d, struct kvet_node *n)
{
	char *p;

	if (!in_input(d, n))
		return 0;
	if (n->len <= SHORT_VALUE && d->values.n < MAX_INTERNED)
		return intern(d, &d->values, n);
	p = copy(d, n->u.str, n->len);
	if (!p)
		return -1;
	n->u.str = p;
	return 0;
}

static int key(struct kvet_detach *d, struct kvet_node *n)
{
	char *p;

	if (!in_input(d, n))
		return 0;
	if (d->keys.n < MAX_INTERNED)
		return intern(d, &d->keys, n);
	p = copy(d, n->u.str, n->len);
	if (!p)
		return -1;
	n->u.str = p;
	return 0;
}

/* Copy the text of @n, or put it on the stack when it is a collection. */
static int visit(struct kvet_detach *d, struct kvet_node *n)
{
	if (kvet_node_is_scalar(n))
		return value(d, n);
	if (!n->len)
		return 0;
	if (!kvet_vec_grow((void **)&d->stack, &d->cap, d->n + 1,
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
				if (key(d, &pairs[i].key) < 0 ||
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

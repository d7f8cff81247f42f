/* SPDX-License-Identifier: Apache-2.0 */
#include "load/collection.h"

#include <stdint.h>
#include <string.h>

#include "load/build.h"

enum {
	/* up to this many keys, compared pairwise: cheaper than hashing */
	SMALL_MAP = 16,
};

static bool same_text(const struct kvet_node *a, const struct kvet_node *b)
{
	return a->len == b->len && memcmp(a->u.str, b->u.str, a->len) == 0;
}

/* 1 when the keys of pairs kv[0, 2 * n) are all different, 0 when one is
 * there twice, -1 when out of memory. */
static int keys_unique(struct kvet_keyset *keys, const struct kvet_node *kv,
		       size_t n)
{
	size_t i, k;

	if (n <= SMALL_MAP) {
		for (i = 1; i < n; i++)
			for (k = 0; k < i; k++)
				if (same_text(&kv[2 * k], &kv[2 * i]))
					return 0;
		return 1;
	}
	if (!kvet_keyset_reset(keys, n))
		return -1;
	for (i = 0; i < n; i++) {
		struct kvet_keyset_entry *e = kvet_keyset_slot(
			keys, kv[2 * i].u.str, kv[2 * i].len);

		if (e->idx)
			return 0;
		e->s = kv[2 * i].u.str;
		e->len = kv[2 * i].len;
		e->idx = (uint32_t)i + 1;
		kvet_keyset_added(keys);
	}
	return 1;
}

int kvet_collection_fill(struct kvet_arena *arena, struct kvet_keyset *keys,
			 struct kvet_node *n, const struct kvet_node *v,
			 size_t count)
{
	size_t i;
	int u;

	if (count > UINT32_MAX)
		return 1;
	if (n->type == KVET_NODE_MAP) {
		struct kvet_pair *pairs;

		if (count % 2)
			return 1;
		count /= 2;
		u = keys_unique(keys, v, count);
		if (u <= 0)
			return u < 0 ? -1 : 1;
		pairs = kvet_arena_array(arena, count, sizeof(*pairs));
		if (!pairs && count)
			return -1;
		for (i = 0; i < count; i++) {
			pairs[i].key = v[2 * i];
			pairs[i].value = v[2 * i + 1];
		}
		n->u.pairs = pairs;
	} else {
		struct kvet_node *items =
			kvet_arena_array(arena, count, sizeof(*items));

		if (!items && count)
			return -1;
		if (count)
			memcpy(items, v, count * sizeof(*items));
		n->u.items = items;
	}
	n->len = (uint32_t)count;
	return 0;
}

size_t kvet_scan_frame_open(struct kvet_scan_frame *f,
			    const struct kvet_scan_frame *parent, uint8_t type,
			    uint32_t line, uint32_t col,
			    const struct kvet_node *stack, size_t n)
{
	const struct kvet_node *key = NULL;

	memset(f, 0, sizeof(*f));
	f->line = line;
	f->col = col;
	f->type = type;
	f->skip = parent && parent->skip;
	if (parent && parent->type == KVET_NODE_MAP && !f->skip)
		key = &stack[n - 1];
	if (key && kvet_build_drops(parent->role, key)) {
		n--;
		f->skip = true;
	}
	if (!f->skip)
		f->role = kvet_build_role(parent ? parent->role : KVET_ROLE_NONE,
					  !parent, key, type);
	f->start = n;
	return n;
}

int kvet_scan_frame_node(struct kvet_arena *arena, struct kvet_keyset *keys,
			 const struct kvet_scan_frame *f, uint8_t flags,
			 const struct kvet_node *stack, size_t n,
			 struct kvet_node *out)
{
	memset(out, 0, sizeof(*out));
	out->type = f->type;
	out->flags = flags;
	out->line = f->line;
	out->col = f->col;
	return kvet_collection_fill(arena, keys, out,
				    n > f->start ? &stack[f->start] : NULL,
				    n - f->start);
}

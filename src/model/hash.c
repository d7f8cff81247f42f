/* SPDX-License-Identifier: Apache-2.0 */
#include "model/hash.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

enum { HASH_MIN_CAP = 16 };

/* Each part is hashed and stored as a 4-byte length then its bytes. */
static void put_len(unsigned char *b, size_t len)
{
	uint32_t l = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;

	b[0] = (unsigned char)l;
	b[1] = (unsigned char)(l >> 8);
	b[2] = (unsigned char)(l >> 16);
	b[3] = (unsigned char)(l >> 24);
}

static uint64_t hash_parts(const struct kvet_slice *parts, size_t nparts,
			   size_t *klen)
{
	uint64_t h = KVET_HASH_SEED;
	size_t i;

	*klen = 0;
	for (i = 0; i < nparts; i++) {
		/* the length first, so that ("ab", "c") and ("a", "bc")
		 * differ */
		h = kvet_hash_mix(h, (uint64_t)parts[i].len);
		h = kvet_hash_bytes(h, parts[i].s, parts[i].len);
		*klen += sizeof(uint32_t) + parts[i].len;
	}
	return kvet_hash_end(h);
}

static bool key_eq(const unsigned char *key, size_t klen,
		   const struct kvet_slice *parts, size_t nparts, size_t plen)
{
	unsigned char lb[4];
	size_t i, off = 0;

	if (klen != plen)
		return false;
	for (i = 0; i < nparts; i++) {
		put_len(lb, parts[i].len);
		if (memcmp(key + off, lb, sizeof(lb)) != 0)
			return false;
		off += sizeof(lb);
		if (parts[i].len &&
		    memcmp(key + off, parts[i].s, parts[i].len) != 0)
			return false;
		off += parts[i].len;
	}
	return true;
}

void kvet_hash_init(struct kvet_hash *h, struct kvet_arena *arena)
{
	memset(h, 0, sizeof(*h));
	h->arena = arena;
}

void kvet_hash_release(struct kvet_hash *h)
{
	if (!h)
		return;
	free(h->slots);
	h->slots = NULL;
	h->cap = h->n = 0;
}

static int grow(struct kvet_hash *h)
{
	size_t cap = h->cap ? h->cap * 2 : HASH_MIN_CAP;
	struct kvet_hash_slot *slots;
	size_t i;

	if (cap < h->cap || cap > SIZE_MAX / sizeof(*slots))
		return -1;
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -1;
	for (i = 0; i < h->cap; i++) {
		size_t j;

		if (!h->slots[i].key)
			continue;
		j = (size_t)h->slots[i].hash & (cap - 1);
		while (slots[j].key)
			j = (j + 1) & (cap - 1);
		slots[j] = h->slots[i];
	}
	free(h->slots);
	h->slots = slots;
	h->cap = cap;
	return 0;
}

static struct kvet_hash_slot *lookup(const struct kvet_hash *h, uint64_t hash,
				     const struct kvet_slice *parts,
				     size_t nparts, size_t klen)
{
	size_t j;

	if (!h->cap)
		return NULL;
	j = (size_t)hash & (h->cap - 1);
	/* the load factor stays below 3/4, so an empty slot ends the probe */
	while (h->slots[j].key) {
		if (h->slots[j].hash == hash &&
		    key_eq(h->slots[j].key, h->slots[j].klen, parts, nparts,
			   klen))
			return &h->slots[j];
		j = (j + 1) & (h->cap - 1);
	}
	return &h->slots[j];
}

void **kvet_hash_put(struct kvet_hash *h, const struct kvet_slice *parts,
		     size_t nparts, bool *created)
{
	struct kvet_hash_slot *slot;
	unsigned char *key;
	size_t klen, i, off = 0;
	uint64_t hash = hash_parts(parts, nparts, &klen);

	if (created)
		*created = false;
	if ((h->n + 1) * 4 > h->cap * 3 && grow(h))
		return NULL;
	slot = lookup(h, hash, parts, nparts, klen);
	if (slot->key)
		return &slot->value;
	key = kvet_arena_alloc(h->arena, klen ? klen : 1);
	if (!key)
		return NULL;
	for (i = 0; i < nparts; i++) {
		put_len(key + off, parts[i].len);
		off += 4;
		if (parts[i].len)
			memcpy(key + off, parts[i].s, parts[i].len);
		off += parts[i].len;
	}
	slot->hash = hash;
	slot->key = key;
	slot->klen = klen;
	slot->value = NULL;
	h->n++;
	if (created)
		*created = true;
	return &slot->value;
}

void *kvet_hash_get(const struct kvet_hash *h, const struct kvet_slice *parts,
		    size_t nparts)
{
	size_t klen;
	uint64_t hash = hash_parts(parts, nparts, &klen);
	struct kvet_hash_slot *slot = lookup(h, hash, parts, nparts, klen);

	return slot && slot->key ? slot->value : NULL;
}

struct kvet_hash_slot *kvet_hash_next(const struct kvet_hash *h, size_t *pos)
{
	while (*pos < h->cap) {
		struct kvet_hash_slot *s = &h->slots[(*pos)++];

		if (s->key)
			return s;
	}
	return NULL;
}

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_HASH_H
#define KVET_MODEL_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "model/labels.h"

/*
 * An open-addressing hash table (linear probing, FNV-1a) from composite
 * keys to pointers: the object graph's indexes by (group, kind, namespace,
 * name), by namespace and by label. A key is a short list of slices; it
 * is copied into the arena on insertion, length-prefixed, so that parts
 * holding any bytes cannot run into each other.
 *
 * The slot array is malloc'd and grows; kvet_hash_release() frees it.
 * Keys and values live as long as the arena and the caller's data.
 */
struct kvet_hash_slot {
	uint64_t hash;
	const unsigned char *key;	/* NULL: empty slot */
	size_t klen;
	void *value;
};

struct kvet_hash {
	struct kvet_arena *arena;
	struct kvet_hash_slot *slots;
	size_t cap;			/* a power of two, or 0 */
	size_t n;
};

void kvet_hash_init(struct kvet_hash *h, struct kvet_arena *arena);
void kvet_hash_release(struct kvet_hash *h);

/**
 * kvet_hash_put() - find or insert the key made of @parts.
 * @h: the table.
 * @parts: the key's parts; an empty slice is a valid part.
 * @nparts: how many.
 * @created: set to true when the key was not in @h (may be NULL).
 *
 * Returns: the value slot of the key (NULL for a new key), to read or
 * set; NULL when out of memory. The slot moves when the table grows.
 */
void **kvet_hash_put(struct kvet_hash *h, const struct kvet_slice *parts,
		     size_t nparts, bool *created);

/* The value stored under the key made of @parts, or NULL. */
void *kvet_hash_get(const struct kvet_hash *h, const struct kvet_slice *parts,
		    size_t nparts);

/*
 * kvet_hash_next() - iterate: start with *@pos = 0; returns the next used
 * slot or NULL at the end. The order is that of the slots, not of
 * insertion: sort when order matters.
 */
struct kvet_hash_slot *kvet_hash_next(const struct kvet_hash *h, size_t *pos);

#endif

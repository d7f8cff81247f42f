/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_KEYSET_H
#define KVET_LOAD_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A set of byte strings for the loader's own lookups: the keys of one
 * mapping (duplicates, merge keys) and the anchors of one document. It
 * stores slices, not copies, and a caller's index per entry, so one
 * table serves every mapping of a load: cleared, not freed, between uses.
 * Open addressing with linear probing, at most half full, so that the
 * cost of a mapping or a document stays linear in its size whatever the
 * input does (YAML merge keys and anchors were quadratic before).
 */
struct kvet_keyset_entry {
	const char *s;
	uint32_t len;
	uint32_t idx;		/* the caller's index + 1; 0: empty slot */
};

struct kvet_keyset {
	struct kvet_keyset_entry *slot;	/* malloc'd */
	size_t cap;		/* a power of two, or 0 */
	size_t n;
};

/* Empty the set and make room for @n entries. Returns false on OOM. */
bool kvet_keyset_reset(struct kvet_keyset *ks, size_t n);

/*
 * kvet_keyset_slot() - the entry of the string @s of @len bytes: either
 * the one already in the set (idx != 0) or the empty slot where it goes
 * (idx == 0; fill s, len and idx, then call kvet_keyset_added()). Call
 * kvet_keyset_reserve() for one more entry first.
 */
struct kvet_keyset_entry *kvet_keyset_slot(struct kvet_keyset *ks,
					   const char *s, size_t len);

static inline void kvet_keyset_added(struct kvet_keyset *ks)
{
	ks->n++;
}

/* Make room for one more entry, keeping those present. False on OOM. */
bool kvet_keyset_reserve(struct kvet_keyset *ks);

void kvet_keyset_release(struct kvet_keyset *ks);

#endif

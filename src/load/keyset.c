/* SPDX-License-Identifier: Apache-2.0 */
#include "load/keyset.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

static bool resize(struct kvet_keyset *ks, size_t cap)
{
	struct kvet_keyset_entry *old = ks->slot, *slot;
	size_t oldcap = ks->cap, i;

	if (cap > SIZE_MAX / sizeof(*slot))
		return false;
	slot = calloc(cap, sizeof(*slot));
	if (!slot)
		return false;
	for (i = 0; i < oldcap; i++) {
		size_t j;

		if (!old[i].idx)
			continue;
		j = kvet_hash_text(old[i].s, old[i].len) & (cap - 1);
		while (slot[j].idx)
			j = (j + 1) & (cap - 1);
		slot[j] = old[i];
	}
	free(old);
	ks->slot = slot;
	ks->cap = cap;
	return true;
}

bool kvet_keyset_reset(struct kvet_keyset *ks, size_t n)
{
	size_t cap = 16;

	while (cap / 2 < n) {
		if (cap > SIZE_MAX / 4)
			return false;
		cap *= 2;
	}
	ks->n = 0;
	if (cap > ks->cap) {
		free(ks->slot);
		ks->slot = NULL;
		ks->cap = 0;
		return resize(ks, cap);
	}
	/* a big table left by an earlier mapping is cleared only as far as
	 * this one needs: shrink it so that small mappings stay cheap */
	if (ks->cap > 4 * cap) {
		free(ks->slot);
		ks->slot = NULL;
		ks->cap = 0;
		return resize(ks, cap);
	}
	memset(ks->slot, 0, ks->cap * sizeof(*ks->slot));
	return true;
}

bool kvet_keyset_reserve(struct kvet_keyset *ks)
{
	if (ks->cap && ks->n + 1 <= ks->cap / 2)
		return true;
	if (ks->cap > SIZE_MAX / 4)
		return false;
	return resize(ks, ks->cap ? ks->cap * 2 : 16);
}

struct kvet_keyset_entry *kvet_keyset_slot(struct kvet_keyset *ks,
					   const char *s, size_t len)
{
	size_t j = kvet_hash_text(s, len) & (ks->cap - 1);

	while (ks->slot[j].idx) {
		if (ks->slot[j].len == len &&
		    (len == 0 || memcmp(ks->slot[j].s, s, len) == 0))
			return &ks->slot[j];
		j = (j + 1) & (ks->cap - 1);
	}
	return &ks->slot[j];
}

void kvet_keyset_release(struct kvet_keyset *ks)
{
	if (!ks)
		return;
	free(ks->slot);
	memset(ks, 0, sizeof(*ks));
}

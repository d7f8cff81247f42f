/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_HASH_H
#define KVET_BASE_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
 * The one hash of byte strings, for the run's open-addressing tables:
 * the loader's interned texts and mapping keys, the findings' kept texts,
 * the model's composite keys. Keys are a few to a few tens of bytes,
 * hashed hundreds of thousands of times a run, so a word at a time
 * (multiply and fold, as fxhash and wyhash do), and the last word read
 * overlapping the one before rather than byte by byte: nothing outside
 * the bytes is read, and a mapped input may end at a page's end. No
 * table's order of iteration is reported, so the values may change.
 */
#define KVET_HASH_SEED 0x9e3779b97f4a7c15ull

static inline uint64_t kvet_hash_mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0xbf58476d1ce4e5b9ull;
	return h ^ (h >> 31);
}

/* @h with the @len bytes at @s mixed in; @len is not, and callers that
 * join several strings mix each length in themselves. */
static inline uint64_t kvet_hash_bytes(uint64_t h, const void *s, size_t len)
{
	const unsigned char *b = s;
	uint64_t w;
	uint32_t lo, hi;

	if (len >= 8) {
		for (; len > 8; b += 8, len -= 8) {
			memcpy(&w, b, sizeof(w));
			h = kvet_hash_mix(h, w);
		}
		/* the last eight bytes, which may overlap the word before */
		memcpy(&w, b + len - 8, sizeof(w));
	} else if (len >= 4) {
		memcpy(&lo, b, sizeof(lo));
		memcpy(&hi, b + len - 4, sizeof(hi));
		w = (uint64_t)hi << 32 | lo;
	} else if (len) {
		w = (uint64_t)b[0] | (uint64_t)b[len / 2] << 8 |
		    (uint64_t)b[len - 1] << 16;
	} else {
		return h;
	}
	return kvet_hash_mix(h, w);
}

/* The final avalanche (murmur3's): the low bits that pick a slot then
 * depend on every byte. */
static inline uint64_t kvet_hash_end(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

/* One string, its length mixed in first. */
static inline uint32_t kvet_hash_text(const void *s, size_t len)
{
	uint64_t h = kvet_hash_mix(KVET_HASH_SEED, (uint64_t)len);

	return (uint32_t)kvet_hash_end(kvet_hash_bytes(h, s, len));
}

#endif

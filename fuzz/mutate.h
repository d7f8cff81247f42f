/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_FUZZ_MUTATE_H
#define KVET_FUZZ_MUTATE_H

/*
 * A blind mutator for the smoke of scripts/test: seeded, with no
 * coverage feedback, so that one seed, one list of inputs and one
 * dictionary give the same mutants on every machine and under every
 * compiler. libFuzzer's coverage-guided search (scripts/fuzz HARNESS
 * SECONDS) finds more; this finds the same thing every time.
 */
#include <stddef.h>
#include <stdint.h>

/* xorshift64*: small, fast, and the same sequence everywhere */
struct fuzz_rng {
	uint64_t s;
};

void fuzz_rng_seed(struct fuzz_rng *rng, uint64_t seed);
uint64_t fuzz_rng_next(struct fuzz_rng *rng);
/* A number below @n (@n > 0). */
size_t fuzz_rng_below(struct fuzz_rng *rng, size_t n);

/* Tokens of a libFuzzer dictionary (-dict=FILE). */
struct fuzz_dict {
	uint8_t **tok;
	size_t *len;
	size_t n;
};

/*
 * Read the dictionary at @path: one `"token"` or `name="token"` a line,
 * `#` comments, the escapes \\, \" and \xNN. Returns 0, or -1 with a
 * message naming path:line on stderr.
 */
int fuzz_dict_load(struct fuzz_dict *dict, const char *path);
void fuzz_dict_release(struct fuzz_dict *dict);

/*
 * Mutate @buf (@len bytes, room for @max) in place with one to eight
 * stacked changes: bit flips, bytes set, inserted or erased, ranges
 * copied, dictionary tokens inserted or written over, numbers changed,
 * a splice with @other. Returns the new length, at most @max.
 */
size_t fuzz_mutate(struct fuzz_rng *rng, const struct fuzz_dict *dict,
		   uint8_t *buf, size_t len, size_t max,
		   const uint8_t *other, size_t other_len);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * base/hash.h: every byte of a text and its length count, and nothing
 * past the text is read (each text here is a malloc'd block of its own
 * size, so the sanitizer build catches a read past it).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

enum { MAX_LEN = 40 };

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* A text of @len bytes, alone in its block. */
static unsigned char *text(size_t len, unsigned char fill)
{
	unsigned char *b = malloc(len ? len : 1);

	assert_non_null(b);
	memset(b, fill, len);
	return b;
}

/* Changing any one byte of a text of any length changes its hash. */
static void test_every_byte_counts(void **state)
{
	size_t len, i;

	(void)state;
	for (len = 1; len <= MAX_LEN; len++) {
		unsigned char *b = text(len, 'a');
		uint32_t base = kvet_hash_text(b, len);

		for (i = 0; i < len; i++) {
			b[i] = 'b';
			assert_int_not_equal(kvet_hash_text(b, len), base);
			b[i] = 'a';
		}
		free(b);
	}
}

/* "", "a", "aa", ... and the same with NUL bytes: all different. */
static void test_length_counts(void **state)
{
	uint32_t h[2 * (MAX_LEN + 1)];
	size_t len, n = 0, i;

	(void)state;
	for (len = 0; len <= MAX_LEN; len++) {
		unsigned char *a = text(len, 'a'), *z = text(len, '\0');

		h[n++] = kvet_hash_text(a, len);
		if (len)
			h[n++] = kvet_hash_text(z, len);
		free(a);
		free(z);
	}
	qsort(h, n, sizeof(*h), cmp_u32);
	for (i = 1; i < n; i++)
		assert_int_not_equal(h[i], h[i - 1]);
}

/* Joined strings mix each length in: ("ab", "c") is not ("a", "bc"). */
static void test_parts(void **state)
{
	uint64_t x = KVET_HASH_SEED, y = KVET_HASH_SEED;

	(void)state;
	x = kvet_hash_bytes(kvet_hash_mix(x, 2), "ab", 2);
	x = kvet_hash_bytes(kvet_hash_mix(x, 1), "c", 1);
	y = kvet_hash_bytes(kvet_hash_mix(y, 1), "a", 1);
	y = kvet_hash_bytes(kvet_hash_mix(y, 2), "bc", 2);
	assert_int_not_equal(kvet_hash_end(x), kvet_hash_end(y));
	/* an empty part reads nothing, not even its pointer */
	assert_int_equal(kvet_hash_bytes(x, NULL, 0), x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_byte_counts),
		cmocka_unit_test(test_length_counts),
		cmocka_unit_test(test_parts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

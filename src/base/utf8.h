/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_UTF8_H
#define KVET_BASE_UTF8_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* U+FFFD, which stands in for every byte that is not valid UTF-8. */
#define KVET_UTF8_REPLACEMENT 0xfffdu

/**
 * kvet_utf8_next() - decode one code point.
 * @s: the text.
 * @len: bytes left at @s; at least 1.
 * @cp: set to the code point, or to KVET_UTF8_REPLACEMENT when @s does
 *      not start with a well-formed UTF-8 sequence (overlong forms,
 *      surrogates and values above U+10FFFF are not well formed).
 *
 * Returns: the number of bytes consumed, 1 to 4; an invalid sequence
 * consumes exactly one byte.
 */
size_t kvet_utf8_next(const char *s, size_t len, uint32_t *cp);

/* The value of the hexadecimal digit @c, or -1. For the escapes that
 * name a code point in CEL and YAML strings (\xXX, \uXXXX, \UXXXXXXXX). */
static inline int kvet_hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The value of the @n hexadecimal digits at @s (at most 8), or -1 when
 * one is not a digit. */
static inline long kvet_hex_value(const char *s, size_t n)
{
	long v = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		int d = kvet_hex_digit(s[k]);

		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/* Write @cp as UTF-8 into @out (room for 4 bytes); returns the length. */
size_t kvet_utf8_encode(char *out, uint32_t cp);

/* Write @cp as UTF-8. */
void kvet_utf8_put(FILE *fp, uint32_t cp);

#endif

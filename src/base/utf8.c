/* SPDX-License-Identifier: Apache-2.0 */
#include "base/utf8.h"

/*
 * UTF-8 as RFC 3629 defines it. Each malformed byte is replaced on its own,
 * which keeps the decoder trivial and the output deterministic.
 */

size_t kvet_utf8_next(const char *s, size_t len, uint32_t *cp)
{
	const unsigned char *p = (const unsigned char *)s;
	uint32_t c, min;
	size_t n, i;

	c = p[0];
	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		goto invalid;
	}
	if (len < n)
		goto invalid;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			goto invalid;
		c = (c << 6) | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		goto invalid;
	*cp = c;
	return n;
invalid:
	*cp = KVET_UTF8_REPLACEMENT;
	return 1;
}

void kvet_utf8_put(FILE *fp, uint32_t cp)
{
	if (cp < 0x80) {
		putc((int)cp, fp);
	} else if (cp < 0x800) {
		putc((int)(0xc0 | (cp >> 6)), fp);
		putc((int)(0x80 | (cp & 0x3f)), fp);
	} else if (cp < 0x10000) {
		putc((int)(0xe0 | (cp >> 12)), fp);
		putc((int)(0x80 | ((cp >> 6) & 0x3f)), fp);
		putc((int)(0x80 | (cp & 0x3f)), fp);
	} else {
		putc((int)(0xf0 | (cp >> 18)), fp);
		putc((int)(0x80 | ((cp >> 12) & 0x3f)), fp);
		putc((int)(0x80 | ((cp >> 6) & 0x3f)), fp);
		putc((int)(0x80 | (cp & 0x3f)), fp);
	}
}

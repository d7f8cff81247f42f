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

size_t kvet_utf8_encode(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

void kvet_utf8_put(FILE *fp, uint32_t cp)
{
	char buf[4];

	fwrite(buf, 1, kvet_utf8_encode(buf, cp), fp);
}

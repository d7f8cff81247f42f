/* SPDX-License-Identifier: Apache-2.0 */
#include "load/sanitize.h"


#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"

void kvet_utf8_fix_release(struct kvet_utf8_fix *fix)
{
	if (!fix)
		return;
	free(fix->v);
	free(fix->offsets);
	memset(fix, 0, sizeof(*fix));
}

static int record(struct kvet_utf8_fix *fix, size_t offset, uint32_t line,
		  uint32_t col, bool is_nul)
{
	if (fix->n == fix->cap) {
		size_t cap = fix->cap ? fix->cap * 2 : 8;
		struct kvet_utf8_bad *v = realloc(fix->v, cap * sizeof(*v));
		size_t *o;

		if (!v)
			return -1;
		fix->v = v;
		o = realloc(fix->offsets, cap * sizeof(*o));
		if (!o)
			return -1;
		fix->offsets = o;
		fix->cap = cap;
	}
	fix->v[fix->n].offset = offset;
	fix->v[fix->n].line = line;
	fix->v[fix->n].col = col;
	fix->v[fix->n].is_nul = is_nul;
	fix->offsets[fix->n] = offset;
	fix->n++;
	return 0;
}

int kvet_utf8_sanitize(char *buf, size_t len, struct kvet_utf8_fix *fix)
{
	const unsigned char *s = (const unsigned char *)buf;
	uint32_t line = 1, col = 1;
	size_t i = 0;
	/* one error per line is enough to point at it; the rest of a binary
	 * file would only be noise */
	uint32_t last_line = 0;

	while (i < len) {
		uint32_t cp;
		size_t n;

		if (s[i] >= 0x20 && s[i] < 0x80) {
			i++, col++;
			continue;
		}
		if (s[i] == '\n') {
			i++, line++, col = 1;
			continue;
		}
		if (s[i] == '\0') {
			if (line != last_line &&
			    record(fix, i, line, col, true) < 0)
				return -1;
			last_line = line;
			buf[i++] = '?';
			col++;
			continue;
		}
		n = kvet_utf8_next(buf + i, len - i, &cp);
		if (cp == KVET_UTF8_REPLACEMENT && n == 1) {
			if (line != last_line &&
			    record(fix, i, line, col, false) < 0)
				return -1;
			last_line = line;
			buf[i++] = '?';
			col++;
			continue;
		}
		i += n;
		col++;
	}
	return 0;
}

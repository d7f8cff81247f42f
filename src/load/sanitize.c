/* SPDX-License-Identifier: Apache-2.0 */
#include "load/sanitize.h"

#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "base/vec.h"

void kvet_utf8_fix_release(struct kvet_utf8_fix *fix)
{
	if (!fix)
		return;
	free(fix->v);
	free(fix->offsets);
	free(fix->boms);
	memset(fix, 0, sizeof(*fix));
}

static int record(struct kvet_utf8_fix *fix, size_t max_detail,
		  size_t offset, uint32_t line, uint32_t col, bool is_nul)
{
	if (!kvet_vec_grow((void **)&fix->offsets, &fix->cap, fix->n + 1,
			   sizeof(*fix->offsets)))
		return -1;
	fix->offsets[fix->n++] = offset;
	if (fix->ndetail >= max_detail)
		return 0;
	if (!kvet_vec_grow((void **)&fix->v, &fix->capdetail,
			   fix->ndetail + 1, sizeof(*fix->v)))
		return -1;
	fix->v[fix->ndetail].offset = offset;
	fix->v[fix->ndetail].line = line;
	fix->v[fix->ndetail].col = col;
	fix->v[fix->ndetail].is_nul = is_nul;
	fix->ndetail++;
	return 0;
}

/* Where @to is, given that @from was at *line:*col (columns count
 * characters: every byte that is not a UTF-8 continuation byte). */
static void advance(const unsigned char *s, size_t from, size_t to,
		    uint32_t *line, uint32_t *col)
{
	for (; from < to; from++) {
		if (s[from] == '\n')
			(*line)++, *col = 1;
		else if ((s[from] & 0xc0) != 0x80)
			(*col)++;
	}
}

/*
 * Is one of the eight bytes of @w zero or not ASCII? A byte b has the top
 * bit of b | (b - 1) set just when it is one of those; as long as no byte
 * is zero, w - ones borrows across no byte, and when one is, that byte
 * is set anyway.
 */
static uint64_t word_look(uint64_t w)
{
	return (w | (w - 0x0101010101010101ull)) & 0x8080808080808080ull;
}

/*
 * Where the first block of @s[@i, @len) starts that holds a NUL or a byte
 * that is not ASCII; a tail shorter than a block is not read. A loop of
 * a fixed count with no early exit, in plain C: GCC vectorises it at -O2
 * (SSE2, 16 bytes a step), unrolls it to eight words at -O3, on any
 * target; half the instructions of a word at a time with a test each.
 */
enum { BLOCK = 64 };

static size_t skip_plain(const unsigned char *s, size_t i, size_t len)
{
	while (len - i >= BLOCK) {
		uint64_t acc = 0, w;
		size_t k;

		for (k = 0; k < BLOCK; k += sizeof(w)) {
			memcpy(&w, s + i + k, sizeof(w));
			acc |= word_look(w);
		}
		if (acc)
			break;
		i += BLOCK;
	}
	return i;
}

/* Does the line at @i start with "---" (and then a blank or the end)? */
static bool doc_marker(const unsigned char *s, size_t i, size_t len)
{
	return len - i >= 3 && memcmp(s + i, "---", 3) == 0 &&
	       (len - i == 3 || s[i + 3] == '\n' || s[i + 3] == '\r' ||
		s[i + 3] == ' ' || s[i + 3] == '\t');
}

/*
 * A byte order mark at @i that starts a document of a stream made by
 * joining files: at the start of a line that follows a "---" line, or
 * before a "---". Not the one at offset 0, which libfyaml reads itself.
 */
static bool starts_document(const unsigned char *s, size_t i, size_t len)
{
	size_t p;

	if (i == 0 || s[i - 1] != '\n')
		return false;
	if (doc_marker(s, i + 3, len))
		return true;
	for (p = i - 1; p > 0 && s[p - 1] != '\n'; p--)
		;
	return doc_marker(s, p, len);
}

/*
 * Most manifests are pure ASCII: skip a block at a time, then eight bytes,
 * and work out line and column only when there is something to report.
 */
int kvet_utf8_sanitize(char *buf, size_t len, size_t max_detail,
		       struct kvet_utf8_fix *fix)
{
	const unsigned char *s = (const unsigned char *)buf;
	uint32_t line = 1, col = 1;
	size_t i = 0, at = 0;
	/* one error per line is enough to point at it; the rest of a binary
	 * file would only be noise */
	uint32_t last_line = 0;

	while (i < len) {
		uint32_t cp;
		size_t n;
		bool nul;

		i = skip_plain(s, i, len);
		while (len - i >= 8) {
			uint64_t w;

			memcpy(&w, s + i, sizeof(w));
			if (word_look(w))
				break;
			i += 8;
		}
		if (i >= len)
			break;
		if (s[i] && s[i] < 0x80) {
			i++;
			continue;
		}
		nul = s[i] == '\0';
		if (!nul) {
			n = kvet_utf8_next(buf + i, len - i, &cp);
			if (!(cp == KVET_UTF8_REPLACEMENT && n == 1)) {
				if (cp == 0xfeff &&
				    starts_document(s, i, len)) {
					if (!kvet_vec_grow((void **)&fix->boms,
							   &fix->capboms,
							   fix->nboms + 1,
							   sizeof(*fix->boms)))
						return -1;
					fix->boms[fix->nboms++] = i;
				}
				i += n;
				continue;
			}
		}
		advance(s, at, i, &line, &col);
		at = i;
		if (line != last_line &&
		    record(fix, max_detail, i, line, col, nul) < 0)
			return -1;
		last_line = line;
		buf[i++] = '?';
	}
	return 0;
}

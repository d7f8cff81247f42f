/* SPDX-License-Identifier: Apache-2.0 */
#include "load/split.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "base/vec.h"

enum {
	/* where a List's "items" key must be found: its head is short */
	HEAD_WINDOW = 64 * 1024,
	/* how far back from the end the last item may start */
	TAIL_WINDOW = 4 * 1024 * 1024,
	MAX_INDENT = 64,
};

size_t kvet_count_lines(const char *buf, size_t len)
{
	size_t n = 0, i = 0;

#ifdef __SSE2__
	/* Each byte lane counts its newlines (a match is -1, subtracted)
	 * for at most 255 blocks, then the lanes are summed: no popcount,
	 * which x86-64's baseline lacks (libgcc's costs a call a block). */
	const __m128i nl = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	while (i + 16 <= len) {
		__m128i acc = zero, sum;
		size_t k;

		for (k = 0; k < 255 && i + 16 <= len; k++, i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(buf + i));

			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, nl));
		}
		sum = _mm_sad_epu8(acc, zero);
		n += (size_t)_mm_cvtsi128_si32(sum) +
		     (size_t)_mm_extract_epi16(sum, 4);
	}
#endif
	for (; i < len; i++)
		n += buf[i] == '\n';
	return n;
}

void kvet_split_release(struct kvet_split *split)
{
	if (!split)
		return;
	free(split->v);
	memset(split, 0, sizeof(*split));
}

/*
 * The first @needle in @buf[@from, @len), or NULL (memmem() is a GNU
 * extension). Sixteen positions at a time are filtered on the needle's
 * first and last bytes, and only those that pass are compared: the
 * needles here start with a '\n' and end with a rarer byte.
 */
static const char *find(const char *buf, size_t len, size_t from,
			const char *needle, size_t nlen)
{
	size_t i = from, last = nlen - 1;

	if (!nlen || from >= len || len - from < nlen)
		return NULL;
#ifdef __SSE2__
	{
		const __m128i first = _mm_set1_epi8(needle[0]);
		const __m128i final = _mm_set1_epi8(needle[last]);

		for (; i + last + 16 <= len; i += 16) {
			__m128i a = _mm_loadu_si128((const __m128i *)(buf + i));
			__m128i b = _mm_loadu_si128(
				(const __m128i *)(buf + i + last));
			unsigned m = (unsigned)_mm_movemask_epi8(
				_mm_and_si128(_mm_cmpeq_epi8(a, first),
					      _mm_cmpeq_epi8(b, final)));

			while (m) {
				size_t k = i + (size_t)__builtin_ctz(m);

				if (memcmp(buf + k, needle, nlen) == 0)
					return buf + k;
				m &= m - 1;
			}
		}
	}
#endif
	for (; i + nlen <= len; i++)
		if (buf[i] == needle[0] && memcmp(buf + i, needle, nlen) == 0)
			return buf + i;
	return NULL;
}

static size_t skip_json_ws(const char *buf, size_t len, size_t p)
{
	while (p < len && (buf[p] == ' ' || buf[p] == '\t' || buf[p] == '\n' ||
			   buf[p] == '\r'))
		p++;
	return p;
}

static size_t line_start(const char *buf, size_t p)
{
	while (p > 0 && buf[p - 1] != '\n')
		p--;
	return p;
}

static size_t line_end(const char *buf, size_t len, size_t p)
{
	const char *nl = p < len ? memchr(buf + p, '\n', len - p) : NULL;

	return nl ? (size_t)(nl - buf) : len;
}

static size_t indent_of(const char *buf, size_t len, size_t p)
{
	size_t i = p;

	while (i < len && buf[i] == ' ')
		i++;
	return i - p;
}

/* A line with nothing for the parser: blank, or only a comment. */
static bool blank_line(const char *buf, size_t len, size_t p)
{
	while (p < len && (buf[p] == ' ' || buf[p] == '\t'))
		p++;
	return p >= len || buf[p] == '\n' || buf[p] == '\r' || buf[p] == '#';
}

/* Does the line at @p start a block sequence item at @indent? */
static bool item_line(const char *buf, size_t len, size_t p, size_t indent)
{
	size_t d = p + indent;

	return indent_of(buf, len, p) == indent && d < len && buf[d] == '-' &&
	       (d + 1 == len || buf[d + 1] == ' ' || buf[d + 1] == '\n' ||
		buf[d + 1] == '\r');
}

static bool add_piece(struct kvet_split *s, size_t *cap, size_t start)
{
	if (!kvet_vec_grow((void **)&s->v, cap, s->n + 1, sizeof(*s->v)))
		return false;
	s->v[s->n].start = start;
	s->v[s->n].end = 0;
	s->v[s->n].line = 0;
	s->n++;
	return true;
}

/*
 * Cut from @first to @stop at the next match of @needle (which starts
 * with the '\n' before a line) after every @piece bytes; @accept checks
 * a line start found so.
 */
static bool cut(const char *buf, size_t len, size_t first, size_t stop,
		size_t piece, const char *needle, size_t nlen,
		bool (*accept)(const char *buf, size_t len, size_t at),
		struct kvet_split *s)
{
	size_t cap = 0, from = first + piece;

	if (!add_piece(s, &cap, first))
		return false;
	while (from < stop) {
		const char *m = find(buf, stop, from, needle, nlen);
		size_t at;

		if (!m)
			break;
		at = (size_t)(m - buf) + 1;
		if (!accept(buf, len, at)) {
			from = at;
			continue;
		}
		if (!add_piece(s, &cap, at))
			return false;
		from = at + piece;
	}
	return true;
}

/* A "---" line, not right after a directive, which belongs to the
 * document it starts (a directive elsewhere makes a piece fail). */
static bool accept_doc(const char *buf, size_t len, size_t at)
{
	return (at + 3 == len || buf[at + 3] == ' ' || buf[at + 3] == '\t' ||
		buf[at + 3] == '\r' || buf[at + 3] == '\n') &&
	       buf[line_start(buf, at - 1)] != '%';
}

static bool accept_yaml_item(const char *buf, size_t len, size_t at)
{
	size_t d = at + indent_of(buf, len, at);

	return d + 1 == len || buf[d + 1] == ' ' || buf[d + 1] == '\n' ||
	       buf[d + 1] == '\r';
}

/* A JSON item's '{' line follows the ',' after the item before. */
static bool accept_json_item(const char *buf, size_t len, size_t at)
{
	size_t p = at - 1;

	while (p > 0 && (buf[p - 1] == ' ' || buf[p - 1] == '\t' ||
			 buf[p - 1] == '\r' || buf[p - 1] == '\n'))
		p--;
	return p > 0 && buf[p - 1] == ',';
}

/* The first item of a kubectl -o json List, at the start of its line. */
static size_t json_first_item(const char *buf, size_t len, size_t *indent)
{
	size_t p = skip_json_ws(buf, len, 0), head;
	const char *m;

	if (p >= len || buf[p] != '{')
		return 0;
	head = len < HEAD_WINDOW ? len : HEAD_WINDOW;
	m = find(buf, head, p, "\"items\"", 7);
	if (!m)
		return 0;
	p = skip_json_ws(buf, len, (size_t)(m - buf) + 7);
	if (p >= len || buf[p] != ':')
		return 0;
	p = skip_json_ws(buf, len, p + 1);
	if (p >= len || buf[p] != '[')
		return 0;
	p = skip_json_ws(buf, len, p + 1);
	if (p >= len || buf[p] != '{')
		return 0;
	*indent = p - line_start(buf, p);
	if (*indent > MAX_INDENT || indent_of(buf, len, p - *indent) != *indent)
		return 0;
	return p;
}

/* The first item of a top-level "items:" block sequence, at the start of
 * its line; *@indent is its indentation. 0 when there is none. */
static size_t yaml_first_item(const char *buf, size_t len, size_t *indent)
{
	size_t head = len < HEAD_WINDOW ? len : HEAD_WINDOW, p, e;

	if (head >= 6 && memcmp(buf, "items:", 6) == 0) {
		p = 0;
	} else {
		const char *m = find(buf, head, 0, "\nitems:", 7);

		if (!m)
			return 0;
		p = (size_t)(m - buf) + 1;
	}
	if (!blank_line(buf, len, p + 6))
		return 0;
	for (e = line_end(buf, len, p); e < len; e = line_end(buf, len, p)) {
		p = e + 1;
		if (!blank_line(buf, len, p))
			break;
	}
	if (e >= len)
		return 0;
	*indent = indent_of(buf, len, p);
	if (*indent > MAX_INDENT || !item_line(buf, len, p, *indent))
		return 0;
	return p;
}

/*
 * Where the keys after a List's items start: the first line after the
 * last item that starts at column 1 with neither a comment nor, for items
 * at column 1, a '-'. 0 when the last item is not near the end.
 */
static size_t yaml_tail(const char *buf, size_t len, size_t first,
			size_t indent)
{
	size_t p = len, floor = len > TAIL_WINDOW ? len - TAIL_WINDOW : 0;
	size_t last = 0;

	if (floor < first)
		floor = first;
	while (p > floor) {
		p = line_start(buf, p - 1);
		if (item_line(buf, len, p, indent)) {
			last = p;
			break;
		}
	}
	if (!last)
		return 0;
	for (p = line_end(buf, len, last); p < len; p = line_end(buf, len, p)) {
		char c;

		p++;
		c = p < len ? buf[p] : '\n';
		if (!blank_line(buf, len, p) && c != ' ' && c != '\t' &&
		    !(indent == 0 && item_line(buf, len, p, 0)))
			return p;
	}
	return len;
}

static int plan_items(const char *buf, size_t len, size_t piece,
		      struct kvet_split *s)
{
	size_t indent = 0, first, tail;
	char needle[MAX_INDENT + 3];

	first = yaml_first_item(buf, len, &indent);
	if (!first)
		return 0;
	/* the List must be the only document: a "---" or "..." line would
	 * make a piece or the tail more than one, which sends the input to
	 * the whole parse */
	tail = yaml_tail(buf, len, first, indent);
	if (!tail)
		return 0;
	needle[0] = '\n';
	memset(needle + 1, ' ', indent);
	needle[indent + 1] = '-';
	if (!cut(buf, len, first, tail, piece, needle, indent + 2,
		 accept_yaml_item, s))
		return -1;
	s->mode = KVET_SPLIT_YAML_ITEMS;
	s->tail = tail;
	return 0;
}

static int plan(const char *buf, size_t len, size_t piece,
		struct kvet_split *s)
{
	size_t indent = 0, first;
	char needle[MAX_INDENT + 3];

	first = json_first_item(buf, len, &indent);
	if (first) {
		needle[0] = '\n';
		memset(needle + 1, ' ', indent);
		needle[indent + 1] = '{';
		if (!cut(buf, len, first, len, piece, needle, indent + 2,
			 accept_json_item, s))
			return -1;
		s->mode = KVET_SPLIT_JSON_ITEMS;
		return 0;
	}
	if (skip_json_ws(buf, len, 0) < len &&
	    (buf[skip_json_ws(buf, len, 0)] == '{' ||
	     buf[skip_json_ws(buf, len, 0)] == '['))
		return 0;
	if (plan_items(buf, len, piece, s) < 0)
		return -1;
	if (s->mode != KVET_SPLIT_NONE)
		return 0;
	kvet_split_release(s);
	if (!cut(buf, len, 0, len, piece, "\n---", 4, accept_doc, s))
		return -1;
	s->mode = KVET_SPLIT_DOCS;
	return 0;
}

int kvet_split_plan(const char *buf, size_t len, size_t piece,
		    struct kvet_split *out)
{
	uint32_t line = 1;
	size_t i, at = 0;

	memset(out, 0, sizeof(*out));
	if (!len || !piece)
		return 0;
	if (plan(buf, len, piece, out) < 0) {
		kvet_split_release(out);
		return -1;
	}
	if (out->n < 2) {
		kvet_split_release(out);
		return 0;
	}
	for (i = 0; i < out->n; i++) {
		line += (uint32_t)kvet_count_lines(buf + at, out->v[i].start - at);
		at = out->v[i].start;
		out->v[i].line = line;
		out->v[i].end = i + 1 < out->n ? out->v[i + 1].start
			      : out->mode == KVET_SPLIT_YAML_ITEMS ? out->tail
			      : len;
	}
	if (out->mode == KVET_SPLIT_YAML_ITEMS)
		out->tail_line = line + (uint32_t)kvet_count_lines(
				 buf + at, out->tail - at);
	return 0;
}

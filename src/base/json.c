/* SPDX-License-Identifier: Apache-2.0 */
#include "base/json.h"

#include <stdint.h>
#include <string.h>

#include "base/utf8.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/*
 * A report of 200,000 findings is tens of millions of small writes: they
 * go to the writer's own buffer, which reaches the stream in large
 * blocks, since even unlocked stdio calls cost more than the copy.
 */
static void put(struct kvet_jw *jw, const char *s, size_t len)
{
	if (KVET_JW_BUF - jw->len < len) {
		kvet_jw_flush(jw);
		if (len >= KVET_JW_BUF) {
			fwrite_unlocked(s, 1, len, jw->out);
			return;
		}
	}
	memcpy(jw->buf + jw->len, s, len);
	jw->len += len;
}

static void put_char(struct kvet_jw *jw, char c)
{
	if (jw->len == KVET_JW_BUF)
		kvet_jw_flush(jw);
	jw->buf[jw->len++] = c;
}

void kvet_jw_init(struct kvet_jw *jw, FILE *fp)
{
	jw->out = fp;
	jw->depth = 0;
	jw->len = 0;
}

void kvet_jw_flush(struct kvet_jw *jw)
{
	if (jw->len)
		fwrite_unlocked(jw->buf, 1, jw->len, jw->out);
	jw->len = 0;
}

FILE *kvet_jw_stream(struct kvet_jw *jw)
{
	kvet_jw_flush(jw);
	return jw->out;
}

void kvet_jw_raw(struct kvet_jw *jw, const char *s, size_t len)
{
	put(jw, s, len);
}

/* How many bytes from @s on stand for themselves in a JSON string
 * (printable ASCII but '"' and '\\'): sixteen at a time with SSE2, else
 * eight. */
static size_t plain_run(const char *s, size_t len)
{
	size_t n = 0;

#ifdef __SSE2__
	/* a signed compare below 0x20 catches the bytes of 0x80 and up too */
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);

	while (len - n >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(s + n));
		__m128i bad = _mm_or_si128(
			_mm_or_si128(_mm_cmpeq_epi8(v, quote),
				     _mm_cmpeq_epi8(v, bslash)),
			_mm_or_si128(_mm_cmplt_epi8(v, space),
				     _mm_cmpeq_epi8(v, del)));
		unsigned int m = (unsigned int)_mm_movemask_epi8(bad);

		if (m)
			return n + (size_t)__builtin_ctz(m);
		n += 16;
	}
#else
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t highs = 0x8080808080808080ull;

	while (len - n >= 8) {
		uint64_t w, q, b, d;

		memcpy(&w, s + n, sizeof(w));
		q = w ^ (ones * '"');
		b = w ^ (ones * '\\');
		d = w ^ (ones * 0x7f);
		if ((((q - ones) & ~q) | ((b - ones) & ~b) | ((d - ones) & ~d) |
		     ((w - ones * 0x20) & ~w) | w) & highs)
			break;
		n += 8;
	}
#endif
	for (; n < len; n++) {
		unsigned char c = (unsigned char)s[n];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			break;
	}
	return n;
}

void kvet_jw_string(struct kvet_jw *jw, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n;
	uint32_t cp;

	if (!s) {
		put(jw, "null", 4);
		return;
	}
	put_char(jw, '"');
	for (i = 0; i < len; i += n) {
		/* mostly one run of text that needs no escape */
		n = plain_run(s + i, len - i);
		if (n) {
			put(jw, s + i, n);
			continue;
		}
		/* the quotes around names in findings' words are most of
		 * what needs an escape: no UTF-8 decoding for them */
		if (s[i] == '"' || s[i] == '\\') {
			put_char(jw, '\\');
			put_char(jw, s[i]);
			n = 1;
			continue;
		}
		n = kvet_utf8_next(s + i, len - i, &cp);
		switch (cp) {
		case '\b':
			put(jw, "\\b", 2);
			break;
		case '\f':
			put(jw, "\\f", 2);
			break;
		case '\n':
			put(jw, "\\n", 2);
			break;
		case '\r':
			put(jw, "\\r", 2);
			break;
		case '\t':
			put(jw, "\\t", 2);
			break;
		case 0x2028:
			put(jw, "\\u2028", 6);
			break;
		case 0x2029:
			put(jw, "\\u2029", 6);
			break;
		default:
			if (cp < 0x20 || cp == 0x7f) {
				put(jw, "\\u00", 4);
				put_char(jw, hex[cp >> 4]);
				put_char(jw, hex[cp & 0xf]);
			} else {
				char u[4];

				put(jw, u, kvet_utf8_encode(u, cp));
			}
			break;
		}
	}
	put_char(jw, '"');
}

void kvet_json_write_string(FILE *fp, const char *s, size_t len)
{
	struct kvet_jw jw;

	kvet_jw_init(&jw, fp);
	kvet_jw_string(&jw, s, len);
	kvet_jw_flush(&jw);
}

static void jw_indent(struct kvet_jw *jw, unsigned int depth)
{
	/* a line break and 32 spaces: one write per line at any depth the
	 * reports have (KVET_JW_MAX_DEPTH) */
	static const char spaces[] = "\n                                ";
	const size_t most = sizeof(spaces) - 2;
	size_t n = 2 * (size_t)depth, k = n < most ? n : most;

	put(jw, spaces, 1 + k);
	for (n -= k; n; n -= k) {
		k = n < most ? n : most;
		put(jw, spaces + 1, k);
	}
}

void kvet_jw_item(struct kvet_jw *jw, const char *key)
{
	if (jw->depth) {
		if (!jw->empty[jw->depth - 1])
			put_char(jw, ',');
		jw->empty[jw->depth - 1] = false;
		jw_indent(jw, jw->depth);
	}
	if (key) {
		kvet_jw_string(jw, key, strlen(key));
		put(jw, ": ", 2);
	}
}

void kvet_jw_open(struct kvet_jw *jw, const char *key, char bracket)
{
	kvet_jw_item(jw, key);
	put_char(jw, bracket);
	if (jw->depth < KVET_JW_MAX_DEPTH)
		jw->empty[jw->depth] = true;
	jw->depth++;
}

void kvet_jw_close(struct kvet_jw *jw, char bracket)
{
	jw->depth--;
	if (jw->depth < KVET_JW_MAX_DEPTH && !jw->empty[jw->depth])
		jw_indent(jw, jw->depth);
	put_char(jw, bracket);
}

void kvet_jw_str(struct kvet_jw *jw, const char *key, const char *val)
{
	kvet_jw_item(jw, key);
	kvet_jw_string(jw, val, val ? strlen(val) : 0);
}

/* Decimal digits without printf: a report has millions of them. */
static void put_uint(struct kvet_jw *jw, unsigned long long val)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + val % 10);
		val /= 10;
	} while (val);
	put(jw, buf + i, sizeof(buf) - i);
}

void kvet_jw_uint(struct kvet_jw *jw, const char *key, unsigned long long val)
{
	kvet_jw_item(jw, key);
	put_uint(jw, val);
}

void kvet_jw_pos(struct kvet_jw *jw, const char *key, unsigned int val)
{
	kvet_jw_item(jw, key);
	if (val)
		put_uint(jw, val);
	else
		put(jw, "null", 4);
}

void kvet_jw_bool(struct kvet_jw *jw, const char *key, bool val)
{
	kvet_jw_item(jw, key);
	put(jw, val ? "true" : "false", val ? 4 : 5);
}

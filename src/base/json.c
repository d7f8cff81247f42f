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
	jw->kept_ready = false;
}

void kvet_jw_init_inside(struct kvet_jw *jw, FILE *fp, unsigned int depth,
			 bool first)
{
	kvet_jw_init(jw, fp);
	jw->depth = depth;
	if (depth && depth <= KVET_JW_MAX_DEPTH)
		jw->empty[depth - 1] = first;
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

/* The bytes that stand for themselves in a JSON string: printable ASCII
 * but '"' and '\\'. */
#define PLAIN16(c) (c) >= 0x20 && (c) < 0x7f && (c) != '"' && (c) != '\\'
#define PLAIN4(c) PLAIN16(c), PLAIN16((c) + 1), PLAIN16((c) + 2), PLAIN16((c) + 3)
#define PLAIN_ROW(c) PLAIN4(c), PLAIN4((c) + 4), PLAIN4((c) + 8), PLAIN4((c) + 12)
static const bool plain[256] = {
	PLAIN_ROW(0x00), PLAIN_ROW(0x10), PLAIN_ROW(0x20), PLAIN_ROW(0x30),
	PLAIN_ROW(0x40), PLAIN_ROW(0x50), PLAIN_ROW(0x60), PLAIN_ROW(0x70),
};

#ifdef __SSE2__
/* A bit for each of the 16 bytes of @v that is not plain. */
static inline unsigned int bad_mask(__m128i v)
{
	/* a signed compare below 0x20 catches the bytes of 0x80 and up too */
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	const __m128i space = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7f);
	__m128i bad = _mm_or_si128(
		_mm_or_si128(_mm_cmpeq_epi8(v, quote),
			     _mm_cmpeq_epi8(v, bslash)),
		_mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del)));

	return (unsigned int)_mm_movemask_epi8(bad);
}
#endif

/* How many bytes from @s on stand for themselves in a JSON string
 * (printable ASCII but '"' and '\\'): sixteen at a time with SSE2, else
 * eight. */
static size_t plain_run(const char *s, size_t len)
{
	size_t n = 0;

#ifdef __SSE2__
	while (len - n >= 16) {
		unsigned int m = bad_mask(
			_mm_loadu_si128((const __m128i *)(s + n)));

		if (m)
			return n + (size_t)__builtin_ctz(m);
		n += 16;
	}
	/* the last bytes of a text of 16 or more in one more step, over
	 * some that were checked already */
	if (n < len && len >= 16) {
		size_t skip = 16 - (len - n);
		unsigned int m = bad_mask(_mm_loadu_si128(
			(const __m128i *)(s + len - 16))) >> skip;

		return m ? n + (size_t)__builtin_ctz(m) : len;
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
	/* the rest, and most keys and names, byte by byte: one load each */
	while (n < len && plain[(unsigned char)s[n]])
		n++;
	return n;
}

/*
 * The escaped form of @s into @o, which has room for the worst case
 * (ESCAPED_MAX()): no room is checked byte by byte. Returns the end.
 */
#define ESCAPED_MAX(len) (6 * (len) + 2)
#define PIECE 1024

static char *escape_body(char *o, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n;
	uint32_t cp;

	for (i = 0; i < len; i += n) {
#ifdef __SSE2__
		/* sixteen bytes a step, stored whole and kept as far as
		 * they are plain: each byte read may take six bytes of the
		 * room, so sixteen fit wherever sixteen are left to read. A
		 * finding's words are short runs between quotes: no call to
		 * measure or copy each. */
		n = 0;
		while (len - i >= 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(s + i));
			unsigned int m = bad_mask(v);

			_mm_storeu_si128((__m128i *)o, v);
			if (m) {
				n = (size_t)__builtin_ctz(m);
				break;
			}
			o += 16;
			i += 16;
		}
		if (n) {
			o += n;
			continue;
		}
		while (i < len && plain[(unsigned char)s[i]])
			*o++ = s[i++];
		if (i == len)
			break;
#else
		/* mostly one run of text that needs no escape */
		n = plain_run(s + i, len - i);
		if (n) {
			memcpy(o, s + i, n);
			o += n;
			continue;
		}
#endif
		/* the quotes around names in findings' words are most of
		 * what needs an escape: no UTF-8 decoding for them */
		if (s[i] == '"' || s[i] == '\\') {
			*o++ = '\\';
			*o++ = s[i];
			n = 1;
			continue;
		}
		n = kvet_utf8_next(s + i, len - i, &cp);
		switch (cp) {
		case '\b':
			*o++ = '\\', *o++ = 'b';
			break;
		case '\f':
			*o++ = '\\', *o++ = 'f';
			break;
		case '\n':
			*o++ = '\\', *o++ = 'n';
			break;
		case '\r':
			*o++ = '\\', *o++ = 'r';
			break;
		case '\t':
			*o++ = '\\', *o++ = 't';
			break;
		case 0x2028:
			memcpy(o, "\\u2028", 6);
			o += 6;
			break;
		case 0x2029:
			memcpy(o, "\\u2029", 6);
			o += 6;
			break;
		default:
			if (cp < 0x20 || cp == 0x7f) {
				memcpy(o, "\\u00", 4);
				o[4] = hex[cp >> 4];
				o[5] = hex[cp & 0xf];
				o += 6;
			} else {
				/* at most 3 bytes (U+FFFD) for each byte read */
				o += kvet_utf8_encode(o, cp);
			}
			break;
		}
	}
	return o;
}

static char *escape(char *o, const char *s, size_t len)
{
	*o++ = '"';
	o = escape_body(o, s, len);
	*o++ = '"';
	return o;
}

static void string_body(struct kvet_jw *jw, const char *s, size_t len);

void kvet_jw_string(struct kvet_jw *jw, const char *s, size_t len)
{
	if (!s) {
		put(jw, "null", 4);
		return;
	}
	if (KVET_JW_BUF - jw->len < ESCAPED_MAX(len))
		kvet_jw_flush(jw);
	if (KVET_JW_BUF - jw->len >= ESCAPED_MAX(len)) {
		jw->len = (size_t)(escape(jw->buf + jw->len, s, len) - jw->buf);
		return;
	}
	/* a string of more than a sixth of the buffer, piece by piece */
	put_char(jw, '"');
	string_body(jw, s, len);
	put_char(jw, '"');
}

/* @s escaped, without quotes, in pieces of at most PIECE bytes. */
static void string_body(struct kvet_jw *jw, const char *s, size_t len)
{
	while (len) {
		size_t n = len < PIECE ? len : PIECE, k;
		char piece[ESCAPED_MAX(PIECE)];

		/* not inside a UTF-8 sequence: a decoder would see it cut */
		while (n < len && n > 1 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
		k = (size_t)(escape(piece, s, n) - piece);
		put(jw, piece + 1, k - 2);
		s += n;
		len -= n;
	}
}

/* @o[0, @len) again as a string member @key; the room is there, for the
 * key's fast path too. */
static void copy_member(struct kvet_jw *jw, struct kvet_jw_key key,
			size_t from, size_t len)
{
	kvet_jw_key(jw, key);
	jw->buf[jw->len++] = '"';
	memcpy(jw->buf + jw->len, jw->buf + from, len);
	jw->len += len;
	jw->buf[jw->len++] = '"';
}

void kvet_jw_str_joined(struct kvet_jw *jw, struct kvet_jw_key key,
			struct kvet_jw_key head_key,
			struct kvet_jw_key tail_key,
			const char *head, const char *sep, const char *tail)
{
	size_t hl = strlen(head), sl = strlen(sep), tl = strlen(tail);
	size_t len = hl + sl + tl;
	size_t keys = key.len + (head_key.s ? head_key.len + tail_key.len : 0);
	/* each key's fast path wants 2 * KVET_JW_MAX_DEPTH + 2 beyond it */
	size_t need = 2 * ESCAPED_MAX(len) + keys +
		      3 * (2 * (size_t)KVET_JW_MAX_DEPTH + 2);
	size_t start, head_end, tail_start, end;
	char *o;

	if (KVET_JW_BUF - jw->len < need)
		kvet_jw_flush(jw);
	if (KVET_JW_BUF - jw->len < need || !jw->depth ||
	    jw->depth > KVET_JW_MAX_DEPTH) {
		kvet_jw_key(jw, key);
		put_char(jw, '"');
		string_body(jw, head, hl);
		string_body(jw, sep, sl);
		string_body(jw, tail, tl);
		put_char(jw, '"');
		if (!head_key.s)
			return;
		kvet_jw_key(jw, head_key);
		kvet_jw_string(jw, head, hl);
		kvet_jw_key(jw, tail_key);
		kvet_jw_string(jw, tail, tl);
		return;
	}
	/* no UTF-8 sequence crosses an ASCII byte, so the escaped whole is
	 * the escaped pieces one after the other */
	kvet_jw_key(jw, key);
	o = jw->buf + jw->len;
	*o++ = '"';
	start = (size_t)(o - jw->buf);
	o = escape_body(o, head, hl);
	head_end = (size_t)(o - jw->buf);
	o = escape_body(o, sep, sl);
	tail_start = (size_t)(o - jw->buf);
	o = escape_body(o, tail, tl);
	end = (size_t)(o - jw->buf);
	*o++ = '"';
	jw->len = (size_t)(o - jw->buf);
	if (!head_key.s)
		return;
	copy_member(jw, head_key, start, head_end - start);
	copy_member(jw, tail_key, tail_start, end - tail_start);
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
	/* a line break and the spaces: one write per line at any depth the
	 * reports have (KVET_JW_MAX_DEPTH) */
	static const char spaces[] = "\n" KVET_JW_SPACES;
	const size_t most = sizeof(spaces) - 2;
	size_t n = 2 * (size_t)depth, k = n < most ? n : most;

	put(jw, spaces, 1 + k);
	for (n -= k; n; n -= k) {
		k = n < most ? n : most;
		put(jw, spaces + 1, k);
	}
}

/* What comes before an item inside a container: the comma after the one
 * before it, a line break and the indentation. Deeper than the array no
 * comma is tracked (no report nests so deep), but nothing is written
 * outside it. */
static void separate(struct kvet_jw *jw)
{
	if (!jw->depth)
		return;
	if (jw->depth <= KVET_JW_MAX_DEPTH) {
		if (!jw->empty[jw->depth - 1])
			put_char(jw, ',');
		jw->empty[jw->depth - 1] = false;
	}
	jw_indent(jw, jw->depth);
}

void kvet_jw_item(struct kvet_jw *jw, const char *key)
{
	size_t klen = key ? strlen(key) : 0;
	char *o;

	/* the common case, a plain key at a depth the reports have, in one
	 * write: ",\n", the indentation, "\"key\": " */
	if (jw->depth && jw->depth <= KVET_JW_MAX_DEPTH &&
	    KVET_JW_BUF - jw->len >= klen + 2 * KVET_JW_MAX_DEPTH + 6 &&
	    plain_run(key ? key : "", klen) == klen) {
		size_t i;

		o = kvet_jw_separate(jw, jw->buf + jw->len);
		if (key) {
			*o++ = '"';
			for (i = 0; i < klen; i++)
				*o++ = key[i];
			memcpy(o, "\": ", 3);
			o += 3;
		}
		jw->len = (size_t)(o - jw->buf);
		return;
	}
	separate(jw);
	if (key) {
		kvet_jw_string(jw, key, klen);
		put(jw, ": ", 2);
	}
}

void kvet_jw_open(struct kvet_jw *jw, const char *key, char bracket)
{
	kvet_jw_item(jw, key);
	kvet_jw_value_open(jw, bracket);
}

void kvet_jw_close(struct kvet_jw *jw, char bracket)
{
	jw->depth--;
	if (jw->depth < KVET_JW_MAX_DEPTH && !jw->empty[jw->depth]) {
		/* the line break, the indentation and the bracket in copies
		 * of constant sizes, as kvet_jw_key() writes a key */
		if (KVET_JW_BUF - jw->len >= 2 * KVET_JW_MAX_DEPTH + 2) {
			char *o = kvet_jw_newline(jw->buf + jw->len, jw->depth);

			*o++ = bracket;
			jw->len = (size_t)(o - jw->buf);
			return;
		}
		jw_indent(jw, jw->depth);
	}
	put_char(jw, bracket);
}

void kvet_jw_str(struct kvet_jw *jw, const char *key, const char *val)
{
	kvet_jw_item(jw, key);
	kvet_jw_value_str(jw, val);
}

/* Decimal digits without printf: a report has millions of them. Two a
 * step from a table, into the middle of a buffer, so that one copy of a
 * fixed size takes the digits whatever their number. */
static void put_uint(struct kvet_jw *jw, unsigned long long val)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char buf[48];
	size_t i = 24, n;

	while (val >= 100) {
		i -= 2;
		memcpy(buf + i, pairs + 2 * (val % 100), 2);
		val /= 100;
	}
	if (val >= 10) {
		i -= 2;
		memcpy(buf + i, pairs + 2 * val, 2);
	} else {
		buf[--i] = (char)('0' + val);
	}
	n = 24 - i;
	if (KVET_JW_BUF - jw->len < 20)
		kvet_jw_flush(jw);
	memcpy(jw->buf + jw->len, buf + i, 20);
	jw->len += n;
}

void kvet_jw_uint(struct kvet_jw *jw, const char *key, unsigned long long val)
{
	kvet_jw_item(jw, key);
	put_uint(jw, val);
}

void kvet_jw_pos(struct kvet_jw *jw, const char *key, unsigned int val)
{
	kvet_jw_item(jw, key);
	kvet_jw_value_pos(jw, val);
}

void kvet_jw_bool(struct kvet_jw *jw, const char *key, bool val)
{
	kvet_jw_item(jw, key);
	put(jw, val ? "true" : "false", val ? 4 : 5);
}

void kvet_jw_key_slow(struct kvet_jw *jw, struct kvet_jw_key key)
{
	separate(jw);
	put(jw, key.s, key.len);
}

void kvet_jw_value_str(struct kvet_jw *jw, const char *val)
{
	kvet_jw_string(jw, val, val ? strlen(val) : 0);
}

void kvet_jw_value_pos(struct kvet_jw *jw, unsigned int val)
{
	if (val)
		put_uint(jw, val);
	else
		put(jw, "null", 4);
}

void kvet_jw_value_open(struct kvet_jw *jw, char bracket)
{
	put_char(jw, bracket);
	if (jw->depth < KVET_JW_MAX_DEPTH)
		jw->empty[jw->depth] = true;
	jw->depth++;
}

/* Texts longer than this are written as they come, not kept. */
#define KEPT_MAX 1024
_Static_assert(ESCAPED_MAX(KEPT_MAX) <= KVET_JW_KEPT_BUF,
	       "kept_buf holds the longest kept text escaped");

static struct kvet_jw_text *kept_slot(struct kvet_jw *jw, const char *val)
{
	/* the address's bits mixed, its high byte the slot */
	uint64_t h = (uint64_t)(uintptr_t)val * 0x9e3779b97f4a7c15ull;

	_Static_assert(KVET_JW_KEPT == 256, "the slot is one byte");
	return &jw->kept[h >> 56];
}

/* Remember @val in @t: measured, and escaped when it needs it. False:
 * too long to keep. */
static bool kept_fill(struct kvet_jw *jw, struct kvet_jw_text *t,
		      const char *val)
{
	size_t len = strnlen(val, KEPT_MAX + 1);

	if (len > KEPT_MAX)
		return false;
	if (plain_run(val, len) == len) {
		t->off = KVET_JW_PLAIN;
		t->len = (uint32_t)len;
	} else {
		char *o;

		if (KVET_JW_KEPT_BUF - jw->kept_used < ESCAPED_MAX(len)) {
			/* full: start again, forgetting every text */
			memset(jw->kept, 0, sizeof(jw->kept));
			jw->kept_used = 0;
		}
		o = escape_body(jw->kept_buf + jw->kept_used, val, len);
		t->off = (uint32_t)jw->kept_used;
		t->len = (uint32_t)(o - (jw->kept_buf + jw->kept_used));
		jw->kept_used += t->len;
	}
	t->s = val;
	return true;
}

void kvet_jw_kept(struct kvet_jw *jw, const char *val)
{
	struct kvet_jw_text *t;
	char *o;

	if (!val) {
		put(jw, "null", 4);
		return;
	}
	if (!jw->kept_ready) {
		memset(jw->kept, 0, sizeof(jw->kept));
		jw->kept_used = 0;
		jw->kept_ready = true;
	}
	t = kept_slot(jw, val);
	if (t->s != val && !kept_fill(jw, t, val)) {
		kvet_jw_value_str(jw, val);
		return;
	}
	if (KVET_JW_BUF - jw->len < (size_t)t->len + 2)
		kvet_jw_flush(jw);
	o = jw->buf + jw->len;
	*o++ = '"';
	memcpy(o, t->off == KVET_JW_PLAIN ? val : jw->kept_buf + t->off,
	       t->len);
	o += t->len;
	*o++ = '"';
	jw->len = (size_t)(o - jw->buf);
}

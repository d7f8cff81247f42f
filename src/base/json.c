/* SPDX-License-Identifier: Apache-2.0 */
#include "base/json.h"

#include <stdint.h>
#include <string.h>

#include "base/utf8.h"

/*
 * Reports and baselines are written by one thread, and a report of
 * 200,000 findings makes tens of millions of stdio calls: the unlocked
 * ones skip the stream's lock (fwrite_unlocked is in glibc and musl
 * alike).
 */
static void put(FILE *fp, const char *s, size_t len)
{
	fwrite_unlocked(s, 1, len, fp);
}

/* How many bytes from @s on stand for themselves in a JSON string
 * (printable ASCII but '"' and '\\'), eight at a time. */
static size_t plain_run(const char *s, size_t len)
{
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t highs = 0x8080808080808080ull;
	size_t n = 0;

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
	for (; n < len; n++) {
		unsigned char c = (unsigned char)s[n];

		if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
			break;
	}
	return n;
}

void kvet_json_write_string(FILE *fp, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n;
	uint32_t cp;

	if (!s) {
		put(fp, "null", 4);
		return;
	}
	putc_unlocked('"', fp);
	for (i = 0; i < len; i += n) {
		/* mostly one run of text that needs no escape */
		n = plain_run(s + i, len - i);
		if (n) {
			put(fp, s + i, n);
			continue;
		}
		n = kvet_utf8_next(s + i, len - i, &cp);
		switch (cp) {
		case '"':
			put(fp, "\\\"", 2);
			break;
		case '\\':
			put(fp, "\\\\", 2);
			break;
		case '\b':
			put(fp, "\\b", 2);
			break;
		case '\f':
			put(fp, "\\f", 2);
			break;
		case '\n':
			put(fp, "\\n", 2);
			break;
		case '\r':
			put(fp, "\\r", 2);
			break;
		case '\t':
			put(fp, "\\t", 2);
			break;
		case 0x2028:
			put(fp, "\\u2028", 6);
			break;
		case 0x2029:
			put(fp, "\\u2029", 6);
			break;
		default:
			if (cp < 0x20 || cp == 0x7f) {
				put(fp, "\\u00", 4);
				putc_unlocked(hex[cp >> 4], fp);
				putc_unlocked(hex[cp & 0xf], fp);
			} else {
				kvet_utf8_put(fp, cp);
			}
			break;
		}
	}
	putc_unlocked('"', fp);
}


static void jw_indent(struct kvet_jw *jw, unsigned int depth)
{
	/* a line break and 32 spaces: one write per line at any depth the
	 * reports have (KVET_JW_MAX_DEPTH) */
	static const char spaces[] = "\n                                ";
	const size_t most = sizeof(spaces) - 2;
	size_t n = 2 * (size_t)depth, k = n < most ? n : most;

	fwrite_unlocked(spaces, 1, 1 + k, jw->fp);
	for (n -= k; n; n -= k) {
		k = n < most ? n : most;
		fwrite_unlocked(spaces + 1, 1, k, jw->fp);
	}
}

void kvet_jw_item(struct kvet_jw *jw, const char *key)
{
	if (jw->depth) {
		if (!jw->empty[jw->depth - 1])
			putc_unlocked(',', jw->fp);
		jw->empty[jw->depth - 1] = false;
		jw_indent(jw, jw->depth);
	}
	if (key) {
		kvet_json_write_string(jw->fp, key, strlen(key));
		fwrite_unlocked(": ", 1, 2, jw->fp);
	}
}

void kvet_jw_open(struct kvet_jw *jw, const char *key, char bracket)
{
	kvet_jw_item(jw, key);
	putc_unlocked(bracket, jw->fp);
	if (jw->depth < KVET_JW_MAX_DEPTH)
		jw->empty[jw->depth] = true;
	jw->depth++;
}

void kvet_jw_close(struct kvet_jw *jw, char bracket)
{
	jw->depth--;
	if (jw->depth < KVET_JW_MAX_DEPTH && !jw->empty[jw->depth])
		jw_indent(jw, jw->depth);
	putc_unlocked(bracket, jw->fp);
}

void kvet_jw_str(struct kvet_jw *jw, const char *key, const char *val)
{
	kvet_jw_item(jw, key);
	kvet_json_write_string(jw->fp, val, val ? strlen(val) : 0);
}

/* Decimal digits without printf: a report has millions of them. */
static void put_uint(FILE *fp, unsigned long long val)
{
	char buf[24];
	size_t i = sizeof(buf);

	do {
		buf[--i] = (char)('0' + val % 10);
		val /= 10;
	} while (val);
	fwrite_unlocked(buf + i, 1, sizeof(buf) - i, fp);
}

void kvet_jw_uint(struct kvet_jw *jw, const char *key, unsigned long long val)
{
	kvet_jw_item(jw, key);
	put_uint(jw->fp, val);
}

void kvet_jw_pos(struct kvet_jw *jw, const char *key, unsigned int val)
{
	kvet_jw_item(jw, key);
	if (val)
		put_uint(jw->fp, val);
	else
		fwrite_unlocked("null", 1, 4, jw->fp);
}

void kvet_jw_bool(struct kvet_jw *jw, const char *key, bool val)
{
	kvet_jw_item(jw, key);
	fwrite_unlocked(val ? "true" : "false", 1, val ? 4 : 5, jw->fp);
}

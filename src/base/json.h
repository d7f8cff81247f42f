/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_JSON_H
#define KVET_BASE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/*
 * JSON output, for the JSON and SARIF reports and for the baseline file
 * (whose strings are JSON strings, a YAML double-quoted scalar), so that
 * none of them reaches into another's code.
 *
 * They write with stdio and do not report errors: the caller checks
 * ferror() once after the whole document.
 */

/**
 * kvet_json_write_string() - write a JSON string literal, quotes included.
 * @fp: the stream.
 * @s: the bytes, not necessarily NUL-terminated; NULL writes null.
 * @len: their number.
 *
 * '"' and '\' are escaped, control characters become \b \f \n \r \t or
 * \u00XX, U+2028 and U+2029 become \u2028 and \u2029 (so that the output
 * is also valid JavaScript), and every byte that is not valid UTF-8
 * becomes U+FFFD, so that the output is always valid JSON (RFC 8259).
 */
void kvet_json_write_string(FILE *fp, const char *s, size_t len);

/*
 * A pretty-printing JSON writer shared by the JSON and SARIF reports:
 * two-space indentation, members in the order written. Strings go
 * through the one JSON escaping function (kvet_jw_string(), which
 * kvet_json_write_string() wraps). Nesting is fixed by each report's
 * shape and never deeper than KVET_JW_MAX_DEPTH, so a small array is the
 * whole stack. Output is buffered in the writer: kvet_jw_flush() it at
 * the end, and take the stream with kvet_jw_stream() to write to it
 * directly. Errors are left on the stream for kvet_render().
 */
#define KVET_JW_MAX_DEPTH 16
#define KVET_JW_BUF (64 * 1024)
#define KVET_JW_KEPT 256		/* texts kvet_jw_kept() remembers */
#define KVET_JW_KEPT_BUF 8192	/* their escaped bytes, when not plain */

/* A text kvet_jw_kept() has escaped: @len bytes at @s itself when it
 * needs no escape (@off is KVET_JW_PLAIN), else at kept_buf + @off. */
#define KVET_JW_PLAIN UINT32_MAX
struct kvet_jw_text {
	const char *s;
	uint32_t len;
	uint32_t off;
};

struct kvet_jw {
	FILE *out;		/* through kvet_jw_stream(), which flushes */
	unsigned int depth;
	bool empty[KVET_JW_MAX_DEPTH];	/* nothing written yet at this level */
	bool kept_ready;	/* kept[] cleared, on first use */
	size_t len;		/* bytes in buf */
	size_t kept_used;	/* bytes in kept_buf */
	char buf[KVET_JW_BUF];
	struct kvet_jw_text kept[KVET_JW_KEPT];
	char kept_buf[KVET_JW_KEPT_BUF];
};

void kvet_jw_init(struct kvet_jw *jw, FILE *fp);
/* A writer for @fp that goes on inside an array at @depth (a part of a
 * document written elsewhere): @first, no element is before. */
void kvet_jw_init_inside(struct kvet_jw *jw, FILE *fp, unsigned int depth,
			 bool first);
/* Write what is buffered to the stream. */
void kvet_jw_flush(struct kvet_jw *jw);
/* The stream, after what is buffered, to write to it directly. */
FILE *kvet_jw_stream(struct kvet_jw *jw);
/* @len bytes as they are (JSON text the caller vouches for). */
void kvet_jw_raw(struct kvet_jw *jw, const char *s, size_t len);
/* A JSON string literal of @len bytes (kvet_json_write_string()). */
void kvet_jw_string(struct kvet_jw *jw, const char *s, size_t len);

/*
 * Each writer takes @key for an object member, or NULL for an array
 * element (or the top-level value).
 */
void kvet_jw_item(struct kvet_jw *jw, const char *key);
/* Open '{' or '[' as a member or element; close with the other bracket. */
void kvet_jw_open(struct kvet_jw *jw, const char *key, char bracket);
void kvet_jw_close(struct kvet_jw *jw, char bracket);
/* A string; NULL is written null. */
void kvet_jw_str(struct kvet_jw *jw, const char *key, const char *val);
void kvet_jw_uint(struct kvet_jw *jw, const char *key, unsigned long long val);
void kvet_jw_bool(struct kvet_jw *jw, const char *key, bool val);
/* A 1-based line or column; 0 means "no position" and is written null. */
void kvet_jw_pos(struct kvet_jw *jw, const char *key, unsigned int val);

/*
 * The same members for the reports' hot loops, cheaper: the key is a
 * constant known plain, quoted with its ": " at compile time
 * (KVET_JW_KEY("line")), so that nothing is measured, checked or copied
 * byte by byte; KVET_JW_ELEMENT for an array element. Each is written
 * as kvet_jw_item() would write it.
 */
struct kvet_jw_key {
	const char *s;		/* "\"key\": " */
	size_t len;
};
#define KVET_JW_KEY(k) ((struct kvet_jw_key){ "\"" k "\": ", sizeof(k) + 3 })
#define KVET_JW_ELEMENT ((struct kvet_jw_key){ "", 0 })

#define KVET_JW_NO_KEY ((struct kvet_jw_key){ NULL, 0 })

void kvet_jw_key_slow(struct kvet_jw *jw, struct kvet_jw_key key);

/* The indentation of the deepest level, copied in one piece. */
#define KVET_JW_SPACES "                                "
_Static_assert(sizeof(KVET_JW_SPACES) == 2 * KVET_JW_MAX_DEPTH + 1,
	       "KVET_JW_SPACES holds the deepest indentation");

/* At @o, a line break and the indentation of @depth (at most
 * KVET_JW_MAX_DEPTH), as one copy of a constant size: the room for 1 +
 * 2 * KVET_JW_MAX_DEPTH bytes is there. Returns the end. */
static inline char *kvet_jw_newline(char *o, unsigned int depth)
{
	*o++ = '\n';
	memcpy(o, KVET_JW_SPACES, 2 * KVET_JW_MAX_DEPTH);
	return o + 2 * (size_t)depth;
}

/* The comma after the item before, when there is one, and the newline of
 * an item at @o, for the fast paths: jw->depth is 1 to KVET_JW_MAX_DEPTH
 * and the room for 2 + 2 * KVET_JW_MAX_DEPTH bytes is there. */
static inline char *kvet_jw_separate(struct kvet_jw *jw, char *o)
{
	if (!jw->empty[jw->depth - 1])
		*o++ = ',';
	jw->empty[jw->depth - 1] = false;
	return kvet_jw_newline(o, jw->depth);
}

/* The comma, the line break, the indentation and @key, in one copy of
 * each when there is room (inline, so that the copies are of constant
 * sizes). */
static inline void kvet_jw_key(struct kvet_jw *jw, struct kvet_jw_key key)
{
	char *o;

	if (!jw->depth || jw->depth > KVET_JW_MAX_DEPTH ||
	    KVET_JW_BUF - jw->len < key.len + 2 * KVET_JW_MAX_DEPTH + 2) {
		kvet_jw_key_slow(jw, key);
		return;
	}
	o = kvet_jw_separate(jw, jw->buf + jw->len);
	memcpy(o, key.s, key.len);
	jw->len = (size_t)(o + key.len - jw->buf);
}

/* Values after kvet_jw_key(): a string (NULL: null), as kvet_jw_str()
 * writes it; a position, as kvet_jw_pos(); an opening bracket, as
 * kvet_jw_open(). */
void kvet_jw_value_str(struct kvet_jw *jw, const char *val);
void kvet_jw_value_pos(struct kvet_jw *jw, unsigned int val);
void kvet_jw_value_open(struct kvet_jw *jw, char bracket);
/*
 * kvet_jw_kept() - a string value as kvet_jw_value_str() writes it, for
 * texts written many times: a report's file names, kinds, names and help
 * texts, each kept once by the findings and written for every finding
 * and related object. The writer remembers the last KVET_JW_KEPT texts
 * by their address, and writes one again without measuring or escaping
 * it. @val must stay unchanged as long as the writer is used.
 */
void kvet_jw_kept(struct kvet_jw *jw, const char *val);

/*
 * kvet_jw_str_joined() - three string members: @key @head, @sep and
 * @tail joined, then @head_key @head and @tail_key @tail, as three
 * kvet_jw_str() would write them, but escaped once and without joining
 * them (a finding's message is its headline and its reason joined with
 * ": "); @head_key and @tail_key KVET_JW_NO_KEY write the joined member
 * alone. The last byte of @head, and @sep's first and last, must be
 * ASCII.
 */
void kvet_jw_str_joined(struct kvet_jw *jw, struct kvet_jw_key key,
			struct kvet_jw_key head_key,
			struct kvet_jw_key tail_key,
			const char *head, const char *sep, const char *tail);

#endif

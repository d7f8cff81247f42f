/* SPDX-License-Identifier: Apache-2.0 */
#include "report/json_writer.h"

/*
 * Reports are written by one thread: the unlocked stdio calls skip the
 * stream's lock, which cost more than the writing itself.
 */

#include <string.h>

#include "report/escape.h"

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

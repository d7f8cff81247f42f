/* SPDX-License-Identifier: Apache-2.0 */
#include "base/json.h"

#include <stdint.h>
#include <string.h>

#include "base/utf8.h"

void kvet_json_write_string(FILE *fp, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n;
	uint32_t cp;

	if (!s) {
		fputs("null", fp);
		return;
	}
	putc('"', fp);
	for (i = 0; i < len; i += n) {
		n = kvet_utf8_next(s + i, len - i, &cp);
		switch (cp) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\b':
			fputs("\\b", fp);
			break;
		case '\f':
			fputs("\\f", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		case 0x2028:
			fputs("\\u2028", fp);
			break;
		case 0x2029:
			fputs("\\u2029", fp);
			break;
		default:
			if (cp < 0x20 || cp == 0x7f) {
				fputs("\\u00", fp);
				putc(hex[cp >> 4], fp);
				putc(hex[cp & 0xf], fp);
			} else if (n == 1 && cp < 0x80) {
				putc((int)cp, fp);
			} else {
				kvet_utf8_put(fp, cp);
			}
			break;
		}
	}
	putc('"', fp);
}


static void jw_indent(struct kvet_jw *jw, unsigned int depth)
{
	unsigned int i;

	putc('\n', jw->fp);
	for (i = 0; i < depth; i++)
		fputs("  ", jw->fp);
}

void kvet_jw_item(struct kvet_jw *jw, const char *key)
{
	if (jw->depth) {
		if (!jw->empty[jw->depth - 1])
			putc(',', jw->fp);
		jw->empty[jw->depth - 1] = false;
		jw_indent(jw, jw->depth);
	}
	if (key) {
		kvet_json_write_string(jw->fp, key, strlen(key));
		fputs(": ", jw->fp);
	}
}

void kvet_jw_open(struct kvet_jw *jw, const char *key, char bracket)
{
	kvet_jw_item(jw, key);
	putc(bracket, jw->fp);
	if (jw->depth < KVET_JW_MAX_DEPTH)
		jw->empty[jw->depth] = true;
	jw->depth++;
}

void kvet_jw_close(struct kvet_jw *jw, char bracket)
{
	jw->depth--;
	if (jw->depth < KVET_JW_MAX_DEPTH && !jw->empty[jw->depth])
		jw_indent(jw, jw->depth);
	putc(bracket, jw->fp);
}

void kvet_jw_str(struct kvet_jw *jw, const char *key, const char *val)
{
	kvet_jw_item(jw, key);
	kvet_json_write_string(jw->fp, val, val ? strlen(val) : 0);
}

void kvet_jw_uint(struct kvet_jw *jw, const char *key, unsigned long long val)
{
	kvet_jw_item(jw, key);
	fprintf(jw->fp, "%llu", val);
}

void kvet_jw_pos(struct kvet_jw *jw, const char *key, unsigned int val)
{
	kvet_jw_item(jw, key);
	if (val)
		fprintf(jw->fp, "%u", val);
	else
		fputs("null", jw->fp);
}

void kvet_jw_bool(struct kvet_jw *jw, const char *key, bool val)
{
	kvet_jw_item(jw, key);
	fputs(val ? "true" : "false", jw->fp);
}

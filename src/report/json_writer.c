/* SPDX-License-Identifier: Apache-2.0 */
#include "report/json_writer.h"

#include <string.h>

#include "report/escape.h"

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

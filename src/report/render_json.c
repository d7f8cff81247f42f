/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "report/escape.h"

/*
 * The JSON report (docs/formats.md, DESIGN.md "JSON report contract"):
 * one object, keys in a fixed order, two-space indentation, a final
 * newline. A value that is absent is written as null, never left out, so
 * that every finding has the same keys: "source" is null without a Helm
 * "# Source:" comment, and "line" and "column" are null when an error has
 * no position.
 */

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

/*
 * A pretty-printing writer. Nesting is fixed by the contract and never
 * deeper than JW_MAX_DEPTH, so a small array is the whole stack.
 */
#define JW_MAX_DEPTH 8

struct jw {
	FILE *fp;
	unsigned int depth;
	bool empty[JW_MAX_DEPTH];	/* nothing written yet at this level */
};

static void jw_indent(struct jw *jw, unsigned int depth)
{
	unsigned int i;

	putc('\n', jw->fp);
	for (i = 0; i < depth; i++)
		fputs("  ", jw->fp);
}

/* Start a member (@key non-NULL) or an array element (@key NULL). */
static void jw_item(struct jw *jw, const char *key)
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

static void jw_open(struct jw *jw, const char *key, char bracket)
{
	jw_item(jw, key);
	putc(bracket, jw->fp);
	if (jw->depth < JW_MAX_DEPTH)
		jw->empty[jw->depth] = true;
	jw->depth++;
}

static void jw_close(struct jw *jw, char bracket)
{
	jw->depth--;
	if (jw->depth < JW_MAX_DEPTH && !jw->empty[jw->depth])
		jw_indent(jw, jw->depth);
	putc(bracket, jw->fp);
}

static void jw_str(struct jw *jw, const char *key, const char *val)
{
	jw_item(jw, key);
	kvet_json_write_string(jw->fp, val, val ? strlen(val) : 0);
}

static void jw_uint(struct jw *jw, const char *key, unsigned long long val)
{
	jw_item(jw, key);
	fprintf(jw->fp, "%llu", val);
}

/* A 1-based line or column; 0 means "no position" and is written null. */
static void jw_pos(struct jw *jw, const char *key, unsigned int val)
{
	jw_item(jw, key);
	if (val)
		fprintf(jw->fp, "%u", val);
	else
		fputs("null", jw->fp);
}

static void write_object(struct jw *jw, const struct kvet_object_ref *obj)
{
	jw_open(jw, "object", '{');
	jw_str(jw, "apiVersion", obj->api_version);
	jw_str(jw, "kind", obj->kind);
	jw_str(jw, "namespace", obj->namespace);
	jw_str(jw, "name", obj->name);
	jw_close(jw, '}');
}

static void write_related(struct jw *jw, const struct kvet_object_ref *rel)
{
	jw_open(jw, NULL, '{');
	jw_str(jw, "kind", rel->kind);
	jw_str(jw, "namespace", rel->namespace);
	jw_str(jw, "name", rel->name);
	jw_str(jw, "file", rel->pos.file);
	jw_pos(jw, "line", rel->pos.line);
	jw_close(jw, '}');
}

static void write_finding(struct jw *jw, const struct kvet_finding *f)
{
	size_t i;

	jw_open(jw, NULL, '{');
	jw_str(jw, "rule", f->rule);
	jw_str(jw, "severity", kvet_severity_name(f->severity));
	jw_str(jw, "message", f->message);
	write_object(jw, &f->object);
	jw_str(jw, "file", f->pos.file);
	jw_pos(jw, "line", f->pos.line);
	jw_pos(jw, "column", f->pos.line ? f->pos.column : 0);
	jw_str(jw, "source", f->source);
	jw_open(jw, "related", '[');
	for (i = 0; i < f->n_related; i++)
		write_related(jw, &f->related[i]);
	jw_close(jw, ']');
	jw_close(jw, '}');
}

static void write_error(struct jw *jw, const struct kvet_error *e)
{
	jw_open(jw, NULL, '{');
	jw_str(jw, "file", e->pos.file);
	jw_pos(jw, "line", e->pos.line);
	jw_pos(jw, "column", e->pos.line ? e->pos.column : 0);
	jw_str(jw, "message", e->message);
	jw_close(jw, '}');
}

static void write_summary(struct jw *jw, const struct kvet_summary *sum)
{
	jw_open(jw, "summary", '{');
	jw_uint(jw, "files", sum->files);
	jw_uint(jw, "documents", sum->documents);
	jw_uint(jw, "objects", sum->objects);
	jw_open(jw, "findings", '{');
	jw_uint(jw, "error", sum->findings[KVET_SEV_ERROR]);
	jw_uint(jw, "warning", sum->findings[KVET_SEV_WARNING]);
	jw_uint(jw, "info", sum->findings[KVET_SEV_INFO]);
	jw_close(jw, '}');
	jw_close(jw, '}');
}

/**
 * kvet_render_json() - write the JSON report of a run.
 * @ctx: a context that has run.
 * @flags: unused; colour and quiet only concern text.
 * @fp: the stream.
 *
 * Returns: 0; write errors are left on @fp for kvet_render().
 */
int kvet_render_json(const struct kvet_ctx *ctx, unsigned int flags, FILE *fp)
{
	struct kvet_summary sum;
	struct jw jw = { .fp = fp };
	size_t i, n;

	memset(&sum, 0, sizeof(sum));
	kvet_ctx_summary(ctx, &sum);

	jw_open(&jw, NULL, '{');
	jw_open(&jw, "tool", '{');
	jw_str(&jw, "name", "kvet");
	jw_str(&jw, "version", KVET_VERSION);
	jw_close(&jw, '}');

	jw_open(&jw, "findings", '[');
	n = kvet_ctx_finding_count(ctx);
	for (i = 0; i < n; i++)
		write_finding(&jw, kvet_ctx_finding(ctx, i));
	jw_close(&jw, ']');

	/* Suppression (annotations, config, baseline) is not implemented. */
	jw_open(&jw, "suppressed", '[');
	jw_close(&jw, ']');

	jw_open(&jw, "errors", '[');
	n = kvet_ctx_error_count(ctx);
	for (i = 0; i < n; i++)
		write_error(&jw, kvet_ctx_error(ctx, i));
	jw_close(&jw, ']');

	write_summary(&jw, &sum);
	jw_close(&jw, '}');
	putc('\n', fp);
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render.h"

#include <string.h>

#include "report/escape.h"

/*
 * GitHub Actions workflow commands, which the runner turns into
 * annotations on the pull request's files:
 *
 *	::error file=deploy.yaml,line=8,col=13,title=invalid-field-type::msg
 *
 * One line per input error and per finding, in the text report's order;
 * severities map to ::error, ::warning and ::notice. Related objects and
 * the Helm template follow the message on lines of their own, which
 * GitHub shows as one multi-line annotation. Input from standard input
 * has no file in the repository, so its commands name none.
 */

static const char *const commands[KVET_SEV_COUNT] = {
	[KVET_SEV_INFO] = "notice",
	[KVET_SEV_WARNING] = "warning",
	[KVET_SEV_ERROR] = "error",
};

void kvet_github_write(FILE *fp, const char *s, size_t len, bool property)
{
	size_t i, n;
	uint32_t cp;

	/* actions/runner ActionCommand: the escapes it undoes, and no more */
	for (i = 0; i < len; i += n) {
		n = kvet_utf8_next(s + i, len - i, &cp);
		if (cp == '%')
			fputs("%25", fp);
		else if (cp == '\r')
			fputs("%0D", fp);
		else if (cp == '\n')
			fputs("%0A", fp);
		else if (property && cp == ':')
			fputs("%3A", fp);
		else if (property && cp == ',')
			fputs("%2C", fp);
		else if (cp == '\t' || (cp >= 0x20 && cp < 0x7f))
			putc((int)cp, fp);
		else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			kvet_utf8_put(fp, KVET_UTF8_REPLACEMENT);
		else
			kvet_utf8_put(fp, cp);
	}
}

static void put(FILE *fp, const char *s, bool property)
{
	if (s)
		kvet_github_write(fp, s, strlen(s), property);
}

static bool is_stdin(const char *file)
{
	return !file || !strcmp(file, "<stdin>");
}

static void write_command(FILE *fp, const char *command,
			  const struct kvet_position *pos, const char *title)
{
	char sep = ' ';

	fprintf(fp, "::%s", command);
	if (!is_stdin(pos->file)) {
		fputs(" file=", fp);
		put(fp, pos->file, true);
		sep = ',';
		if (pos->line) {
			fprintf(fp, ",line=%u", pos->line);
			if (pos->column)
				fprintf(fp, ",col=%u", pos->column);
		}
	}
	fprintf(fp, "%ctitle=", sep);
	put(fp, title, true);
	fputs("::", fp);
}

static void write_object(FILE *fp, const struct kvet_object_ref *obj)
{
	put(fp, obj->kind, false);
	putc(' ', fp);
	if (obj->namespace && *obj->namespace) {
		put(fp, obj->namespace, false);
		putc('/', fp);
	}
	put(fp, obj->name, false);
}

static void write_finding(FILE *fp, const struct kvet_finding *f)
{
	unsigned int sev = (unsigned int)f->severity;
	const struct kvet_object_ref *rel;
	size_t i;

	if (sev >= KVET_SEV_COUNT)
		sev = KVET_SEV_ERROR;
	write_command(fp, commands[sev], &f->pos, f->rule);
	put(fp, f->message, false);
	if (f->source) {
		fputs("%0Arendered from Helm template ", fp);
		put(fp, f->source, false);
	}
	for (i = 0; i < f->n_related; i++) {
		rel = &f->related[i];
		fputs("%0Arelated: ", fp);
		write_object(fp, rel);
		if (rel->pos.file) {
			fputs(" at ", fp);
			put(fp, rel->pos.file, false);
			if (rel->pos.line)
				fprintf(fp, ":%u", rel->pos.line);
		}
	}
	putc('\n', fp);
}

/**
 * kvet_render_github() - write GitHub Actions annotations for a run.
 * @ctx: a context that has run.
 * @flags: unused.
 * @fp: the stream, normally standard output of a workflow step.
 *
 * Returns: 0; write errors are left on @fp for kvet_render().
 */
int kvet_render_github(const struct kvet_ctx *ctx, unsigned int flags,
		       FILE *fp)
{
	const struct kvet_notice *nt;
	const struct kvet_error *e;
	size_t i, n;

	n = kvet_ctx_error_count(ctx);
	for (i = 0; i < n; i++) {
		e = kvet_ctx_error(ctx, i);
		write_command(fp, e->tolerated ? "warning" : "error", &e->pos,
			      e->rule ? e->rule : "kvet input error");
		if (e->rule)
			fputs("evaluation error: ", fp);
		put(fp, e->message, false);
		putc('\n', fp);
	}
	n = kvet_ctx_notice_count(ctx);
	for (i = 0; i < n; i++) {
		nt = kvet_ctx_notice(ctx, i);
		/* one annotation per skipped document would bury the rest */
		if (nt->level == KVET_NOTICE_DETAIL)
			continue;
		write_command(fp, nt->level == KVET_NOTICE_WARNING ? "warning"
								   : "notice",
			      &nt->pos, "kvet");
		put(fp, nt->message, false);
		putc('\n', fp);
	}
	n = kvet_ctx_finding_count(ctx);
	for (i = 0; i < n; i++)
		write_finding(fp, kvet_ctx_finding(ctx, i));
	return 0;
}

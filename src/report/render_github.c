/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render.h"

#include <string.h>

#include "report/escape.h"

/*
 * GitHub Actions workflow commands, which the runner turns into
 * annotations on the pull request's files:
 *
 *	::error file=deploy.yaml,line=8,col=13,title=HEADLINE [rule-id]::REASON
 *
 * One line per input error, notice and finding: the ::error ones first,
 * then ::warning, then ::notice (GitHub's limits, below), each level in
 * the text report's order. A finding's help, its link, the Helm template
 * and related objects follow its reason on lines of their own, which
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

/* The command up to "::"; with @rule, the title is "@title [@rule]". */
static void write_command(FILE *fp, const char *command,
			  const struct kvet_position *pos, const char *title,
			  const char *rule)
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
	if (rule) {
		fputs(" [", fp);
		put(fp, rule, true);
		putc(']', fp);
	}
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

/*
 * A finding: the headline and rule as the title, which GitHub shows in
 * bold; the reason (the headline when there is none), what to do and
 * where the rule is documented as the message, then the notes.
 */
static void write_finding(FILE *fp, const struct kvet_ctx *ctx,
			  const struct kvet_finding *f)
{
	const struct kvet_rule_info *info = kvet_ctx_rule_find(ctx, f->rule);
	unsigned int sev = (unsigned int)f->severity;
	const struct kvet_object_ref *rel;
	size_t i;

	if (sev >= KVET_SEV_COUNT)
		sev = KVET_SEV_ERROR;
	write_command(fp, commands[sev], &f->pos,
		      f->headline ? f->headline : f->message, f->rule);
	put(fp, f->reason ? f->reason : f->headline ? f->headline : f->message,
	    false);
	if (f->help) {
		fputs("%0Ahelp: ", fp);
		put(fp, f->help, false);
	}
	if (info && info->help_uri) {
		fputs("%0Asee: ", fp);
		put(fp, info->help_uri, false);
	}
	if (f->unit) {
		fputs("%0Ain the render of ", fp);
		put(fp, f->unit, false);
	}
	if (f->rendered.line) {
		fputs("%0Arendered at ", fp);
		put(fp, f->rendered.file ? f->rendered.file : "", false);
		fprintf(fp, ":%u:%u", f->rendered.line, f->rendered.column);
	} else if (f->source) {
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

/* The level of each annotation: enum kvet_severity, info being
 * GitHub's notice; -1 for what is not annotated. */
static int error_level(const struct kvet_error *e)
{
	return e->tolerated ? KVET_SEV_WARNING : KVET_SEV_ERROR;
}

static int notice_level(const struct kvet_notice *nt)
{
	/* one annotation per skipped document would bury the rest */
	if (nt->level == KVET_NOTICE_DETAIL)
		return -1;
	return nt->level == KVET_NOTICE_WARNING ? KVET_SEV_WARNING
						: KVET_SEV_INFO;
}

static int finding_level(const struct kvet_finding *f)
{
	return (unsigned int)f->severity < KVET_SEV_COUNT ? (int)f->severity
							  : KVET_SEV_ERROR;
}

static void count_levels(const struct kvet_ctx *ctx,
			 size_t count[KVET_SEV_COUNT])
{
	size_t i;
	int l;

	memset(count, 0, KVET_SEV_COUNT * sizeof(*count));
	for (i = 0; i < kvet_ctx_error_count(ctx); i++)
		count[error_level(kvet_ctx_error(ctx, i))]++;
	for (i = 0; i < kvet_ctx_notice_count(ctx); i++)
		if ((l = notice_level(kvet_ctx_notice(ctx, i))) >= 0)
			count[l]++;
	for (i = 0; i < kvet_ctx_finding_count(ctx); i++)
		count[finding_level(kvet_ctx_finding(ctx, i))]++;
}

/* Over the limit, the first annotation of a level says so and takes one
 * of its places: the rest are in the log only. */
size_t kvet_github_hidden(const struct kvet_ctx *ctx,
			  size_t hidden[KVET_SEV_COUNT])
{
	size_t count[KVET_SEV_COUNT], sum = 0;
	int l;

	count_levels(ctx, count);
	for (l = 0; l < KVET_SEV_COUNT; l++) {
		hidden[l] = count[l] > KVET_GITHUB_ANNOTATIONS_PER_LEVEL
				    ? count[l] -
					      (KVET_GITHUB_ANNOTATIONS_PER_LEVEL - 1)
				    : 0;
		sum += hidden[l];
	}
	return sum;
}

static const char *const level_nouns[KVET_SEV_COUNT] = {
	[KVET_SEV_INFO] = "notices",
	[KVET_SEV_WARNING] = "warnings",
	[KVET_SEV_ERROR] = "errors",
};

/* Every annotation of one level, in the text report's order. */
static void write_level(FILE *fp, const struct kvet_ctx *ctx, int level,
			size_t count, size_t hidden)
{
	const struct kvet_notice *nt;
	const struct kvet_error *e;
	size_t i, n;

	if (hidden)
		fprintf(fp, "::%s title=kvet::%zu %s: GitHub shows %d annotations of each level per step, so %zu of them are only in this step's log\n",
			commands[level], count, level_nouns[level],
			KVET_GITHUB_ANNOTATIONS_PER_LEVEL, hidden);
	n = kvet_ctx_error_count(ctx);
	for (i = 0; i < n; i++) {
		e = kvet_ctx_error(ctx, i);
		if (error_level(e) != level)
			continue;
		write_command(fp, commands[level], &e->pos,
			      e->rule ? e->rule : "kvet input error", NULL);
		if (e->rule)
			fputs("evaluation error: ", fp);
		put(fp, e->message, false);
		putc('\n', fp);
	}
	n = kvet_ctx_notice_count(ctx);
	for (i = 0; i < n; i++) {
		nt = kvet_ctx_notice(ctx, i);
		if (notice_level(nt) != level)
			continue;
		write_command(fp, commands[level], &nt->pos, "kvet", NULL);
		put(fp, nt->message, false);
		putc('\n', fp);
	}
	n = kvet_ctx_finding_count(ctx);
	for (i = 0; i < n; i++)
		if (finding_level(kvet_ctx_finding(ctx, i)) == level)
			write_finding(fp, ctx, kvet_ctx_finding(ctx, i));
}

/**
 * kvet_render_github() - write GitHub Actions annotations for a run.
 * @ctx: a context that has run.
 * @opts: unused.
 * @fp: the stream, normally standard output of a workflow step.
 *
 * GitHub shows only the first KVET_GITHUB_ANNOTATIONS_PER_LEVEL
 * annotations of each level per step, so errors come first, then
 * warnings, then notices; a level over the limit starts with an
 * annotation that says how many of it are only in the log.
 *
 * Returns: 0; write errors are left on @fp for kvet_render().
 */
int kvet_render_github(const struct kvet_ctx *ctx,
		       const struct kvet_render_options *opts, FILE *fp)
{
	size_t count[KVET_SEV_COUNT], hidden[KVET_SEV_COUNT];
	int level;

	count_levels(ctx, count);
	kvet_github_hidden(ctx, hidden);
	for (level = KVET_SEV_ERROR; level >= KVET_SEV_INFO; level--)
		write_level(fp, ctx, level, count[level], hidden[level]);
	return 0;
}

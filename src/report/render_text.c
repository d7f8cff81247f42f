/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render.h"

#include <string.h>

#include "report/escape.h"
#include "report/render_drain.h"

/*
 * The text report, in the compiler convention (clang, rustc) so that
 * editors and CI log viewers can jump to each position: a headline with
 * the place, severity and rule; the source line and a caret; then
 * indented, the reason, what to do, where the rule is documented, and
 * notes. The notes of an object (its Helm template, its related objects)
 * are written once for the findings on it that follow one another:
 *
 *	rendered/trainer.yaml:12:3: error: budget "mgr" blocks every drain [rule-id]
 *	  minAvailable: 1
 *	  ^
 *	  it selects 1 pod and allows 0 disruptions, so draining its node ...
 *	  help: set `maxUnavailable: 1`, or run 2 replicas
 *	  see: https://kubernetes.io/docs/tasks/run-application/configure-pdb/
 *	  note: rendered from Helm template trainer/templates/pdb.yaml
 *	  rendered/trainer.yaml:40: note: related Deployment ops/mgr
 *	kvet: 1 file, 17 objects: 1 error, 0 warnings, 0 infos, 0 input errors
 *
 * Input errors come first, then notices, then findings, each in the
 * context's order. --quiet writes the first line of each only, and no
 * summary. A drain's report puts its answer and its blockers after the
 * input errors, and --quiet writes its answer alone.
 */

/* ANSI SGR sequences, or empty strings when colour is off. */
struct palette {
	const char *loc;
	const char *sev[KVET_SEV_COUNT];
	const char *input_error;
	const char *note;
	const char *help;
	const char *caret;
	const char *reset;
};

static const struct palette plain = {
	.loc = "",
	.sev = { "", "", "" },
	.input_error = "",
	.note = "",
	.help = "",
	.caret = "",
	.reset = "",
};

static const struct palette ansi = {
	.loc = "\033[1m",
	.sev = {
		[KVET_SEV_INFO] = "\033[1;36m",
		[KVET_SEV_WARNING] = "\033[1;33m",
		[KVET_SEV_ERROR] = "\033[1;31m",
	},
	.input_error = "\033[1;31m",
	.note = "\033[1;36m",
	.help = "\033[1;32m",
	.caret = "\033[1;32m",
	.reset = "\033[0m",
};

static void text_puts(FILE *fp, const char *s)
{
	if (s)
		kvet_text_write(fp, s, strlen(s));
}

/* Byte offset of 1-based @column in @s, or @len when it is past the end. */
static size_t column_offset(const char *s, size_t len, unsigned int column)
{
	size_t at = 0;
	uint32_t cp;

	while (at < len && column > 1) {
		at += kvet_utf8_next(s + at, len - at, &cp);
		column--;
	}
	return at;
}

static bool is_continuation(const char *s, size_t i)
{
	return ((unsigned char)s[i] & 0xc0) == 0x80;
}

void kvet_text_write_excerpt(FILE *fp, const char *line, size_t len,
			     unsigned int column, const char *caret_on,
			     const char *caret_off)
{
	size_t at, start = 0, end, i, n;
	uint32_t cp;

	if (len && line[len - 1] == '\r')
		len--;
	at = column_offset(line, len, column);
	end = len;
	if (len > KVET_TEXT_EXCERPT_MAX) {
		/* Show a third of the window before the column. */
		start = 0;
		if (at > KVET_TEXT_EXCERPT_MAX / 3)
			start = at - KVET_TEXT_EXCERPT_MAX / 3;
		while (start > 0 && is_continuation(line, start))
			start--;
		end = start + KVET_TEXT_EXCERPT_MAX;
		if (end > len) {
			end = len;
			start = len - KVET_TEXT_EXCERPT_MAX;
			while (start < at && is_continuation(line, start))
				start++;
		}
		while (end > at && end < len && is_continuation(line, end))
			end--;
	}

	if (start)
		fputs("...", fp);
	kvet_text_write(fp, line + start, end - start);
	if (end < len)
		fputs("...", fp);
	putc('\n', fp);
	if (!column)
		return;

	if (start)
		fputs("   ", fp);
	for (i = start; i < at; i += n) {
		n = kvet_utf8_next(line + i, at - i, &cp);
		putc(cp == '\t' ? '\t' : ' ', fp);
	}
	fprintf(fp, "%s^%s\n", caret_on ? caret_on : "",
		caret_off ? caret_off : "");
}

/* "file:line:col:", "file:line:" or "file:", in the location colour. */
static void write_location(FILE *fp, const struct palette *pal,
			   const struct kvet_position *pos, bool with_column)
{
	fputs(pal->loc, fp);
	text_puts(fp, pos->file ? pos->file : "kvet");
	if (pos->line) {
		fprintf(fp, ":%u", pos->line);
		if (with_column && pos->column)
			fprintf(fp, ":%u", pos->column);
	}
	putc(':', fp);
	fputs(pal->reset, fp);
}

static void write_source(FILE *fp, const struct palette *pal,
			 const struct kvet_ctx *ctx,
			 const struct kvet_position *pos)
{
	const char *line;
	size_t len = 0;

	if (!pos->file || !pos->line)
		return;
	line = kvet_ctx_source_line(ctx, pos->file, pos->line, &len);
	if (!line)
		return;
	kvet_text_write_excerpt(fp, line, len, pos->column, pal->caret,
				pal->reset);
}

/* An input error, or an evaluation error with its rule (a warning when
 * the rule tolerates it). */
static void write_error(FILE *fp, const struct palette *pal,
			const struct kvet_ctx *ctx, const struct kvet_error *e,
			bool quiet)
{
	write_location(fp, pal, &e->pos, true);
	if (e->tolerated)
		fprintf(fp, " %swarning:%s ", pal->sev[KVET_SEV_WARNING],
			pal->reset);
	else
		fprintf(fp, " %serror:%s ", pal->input_error, pal->reset);
	text_puts(fp, e->message);
	if (e->rule) {
		fputs(" [", fp);
		text_puts(fp, e->rule);
		putc(']', fp);
	}
	putc('\n', fp);
	if (!quiet)
		write_source(fp, pal, ctx, &e->pos);
}

/* Detail notices (one per skipped document) only with -v. */
static void write_notice(FILE *fp, const struct palette *pal,
			 const struct kvet_notice *nt, unsigned int flags)
{
	const char *colour = nt->level == KVET_NOTICE_WARNING
				     ? pal->sev[KVET_SEV_WARNING]
				     : pal->note;

	if (nt->level == KVET_NOTICE_DETAIL && !(flags & KVET_RENDER_VERBOSE))
		return;
	write_location(fp, pal, &nt->pos, true);
	fprintf(fp, " %s%s:%s ", colour,
		nt->level == KVET_NOTICE_WARNING ? "warning" : "note",
		pal->reset);
	text_puts(fp, nt->message);
	putc('\n', fp);
}

/* NULL, as for an object kvet made up (a synthetic pool's node), is
 * equal to NULL only. */
static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_ref(const struct kvet_object_ref *a,
		     const struct kvet_object_ref *b)
{
	return a->pos.line == b->pos.line && same_str(a->pos.file, b->pos.file) &&
	       same_str(a->kind, b->kind) &&
	       same_str(a->namespace, b->namespace) &&
	       same_str(a->name, b->name);
}

/* Is @rel related to one of @group[0..@n), whose notes are written? */
static bool related_written(const struct kvet_finding *const *group,
			    size_t n, const struct kvet_object_ref *rel)
{
	size_t i, k;

	for (i = 0; i < n; i++)
		for (k = 0; k < group[i]->n_related; k++)
			if (same_ref(&group[i]->related[k], rel))
				return true;
	return false;
}

static void write_related(FILE *fp, const struct palette *pal,
			  const struct kvet_object_ref *rel)
{
	fputs("  ", fp);
	write_location(fp, pal, &rel->pos, false);
	fprintf(fp, " %snote:%s related ", pal->note, pal->reset);
	text_puts(fp, rel->kind);
	putc(' ', fp);
	if (rel->namespace && *rel->namespace) {
		text_puts(fp, rel->namespace);
		putc('/', fp);
	}
	text_puts(fp, rel->name);
	putc('\n', fp);
}

/* "  label: text", the label coloured; nothing for NULL text. */
static void write_line(FILE *fp, const char *colour, const char *reset,
		       const char *label, const char *s)
{
	if (!s || !*s)
		return;
	fputs("  ", fp);
	if (label)
		fprintf(fp, "%s%s:%s ", colour, label, reset);
	text_puts(fp, s);
	putc('\n', fp);
}

/* The first line of a finding: place, severity, headline, rule. */
static void write_headline(FILE *fp, const struct palette *pal,
			   const struct kvet_finding *f)
{
	unsigned int sev = (unsigned int)f->severity;

	if (sev >= KVET_SEV_COUNT)
		sev = KVET_SEV_ERROR;
	write_location(fp, pal, &f->pos, true);
	fprintf(fp, " %s%s:%s ", pal->sev[sev], kvet_severity_name(sev),
		pal->reset);
	text_puts(fp, f->headline ? f->headline : f->message);
	fputs(" [", fp);
	text_puts(fp, f->rule);
	fputs("]\n", fp);
}

/*
 * A finding. @group holds the findings on the same object written just
 * before it (@n of them): their Helm note and related objects are not
 * written again.
 */
static void write_finding(FILE *fp, const struct palette *pal,
			  const struct kvet_ctx *ctx,
			  const struct kvet_finding *f,
			  const struct kvet_finding *const *group, size_t n)
{
	const struct kvet_rule_info *info = kvet_ctx_rule_find(ctx, f->rule);
	size_t i;

	write_headline(fp, pal, f);
	write_source(fp, pal, ctx, &f->pos);
	write_line(fp, "", "", NULL, f->reason);
	write_line(fp, pal->help, pal->reset, "help", f->help);
	write_line(fp, pal->note, pal->reset, "see",
		   info ? info->help_uri : NULL);
	if (f->unit && !n) {
		fprintf(fp, "  %snote:%s in the render of ", pal->note,
			pal->reset);
		text_puts(fp, f->unit);
		putc('\n', fp);
	}
	if (f->rendered.line) {
		/* the place above is the template's: say where the render
		 * has it, for each finding */
		fprintf(fp, "  %snote:%s rendered at ", pal->note, pal->reset);
		text_puts(fp, f->rendered.file ? f->rendered.file : "");
		fprintf(fp, ":%u:%u\n", f->rendered.line, f->rendered.column);
	} else if (f->source && !n) {
		fprintf(fp, "  %snote:%s rendered from Helm template ",
			pal->note, pal->reset);
		text_puts(fp, f->source);
		putc('\n', fp);
	}
	for (i = 0; i < f->n_related; i++)
		if (!related_written(group, n, &f->related[i]))
			write_related(fp, pal, &f->related[i]);
}

/*
 * The findings, each group of consecutive findings on one object
 * sharing its notes. A group is bounded, so that an object with
 * thousands of findings costs no quadratic search.
 */
#define GROUP_MAX 64

static void write_findings(FILE *fp, const struct palette *pal,
			   const struct kvet_ctx *ctx, bool quiet)
{
	const struct kvet_finding *group[GROUP_MAX];
	size_t i, n = 0, count = kvet_ctx_finding_count(ctx);

	for (i = 0; i < count; i++) {
		const struct kvet_finding *f = kvet_ctx_finding(ctx, i);

		if (quiet) {
			write_headline(fp, pal, f);
			continue;
		}
		if (n && (n == GROUP_MAX || !same_ref(&group[0]->object,
						      &f->object)))
			n = 0;
		write_finding(fp, pal, ctx, f, group, n);
		group[n++] = f;
	}
}

static void write_summary(FILE *fp, const struct kvet_ctx *ctx)
{
	struct kvet_summary sum;

	memset(&sum, 0, sizeof(sum));
	kvet_ctx_summary(ctx, &sum);
	fputs("kvet: ", fp);
	kvet_write_count(fp, sum.files, "file", "files");
	fputs(", ", fp);
	kvet_write_count(fp, sum.objects, "object", "objects");
	fputs(": ", fp);
	kvet_write_finding_counts(fp, &sum);
	fputs(", ", fp);
	kvet_write_count(fp, sum.input_errors, "input error", "input errors");
	kvet_write_other_counts(fp, ctx, &sum);
	if (sum.skipped) {
		fputs(", ", fp);
		kvet_write_count(fp, sum.skipped, "document", "documents");
		fputs(" skipped (not Kubernetes objects)", fp);
	}
	putc('\n', fp);
}

/* Baseline entries that matched nothing, as notes at their lines, so a
 * team can prune the file (--write-baseline rewrites it). Every field is
 * the baseline file's text, so each goes through kvet_text_write(). */
static void write_stale(FILE *fp, const struct palette *pal,
			const struct kvet_ctx *ctx)
{
	struct kvet_baseline_stale st;
	size_t i, n = kvet_ctx_baseline_stale_count(ctx);

	for (i = 0; i < n; i++) {
		if (kvet_ctx_baseline_stale(ctx, i, &st))
			continue;
		write_location(fp, pal, &st.pos, false);
		fprintf(fp, " %snote:%s baseline entry matches no finding: ",
			pal->note, pal->reset);
		text_puts(fp, st.rule);
		fputs(" on ", fp);
		text_puts(fp, st.kind);
		putc(' ', fp);
		if (*st.namespace) {
			text_puts(fp, st.namespace);
			putc('/', fp);
		}
		text_puts(fp, st.name);
		putc('\n', fp);
	}
}

/* --show-suppressed: what was held back, and what held it. */
static void write_suppressed(FILE *fp, const struct palette *pal,
			     const struct kvet_suppressed *sup, bool quiet)
{
	const struct kvet_finding *f = &sup->finding;

	write_location(fp, pal, &f->pos, true);
	fprintf(fp, " %snote:%s suppressed %s: ", pal->note, pal->reset,
		kvet_severity_name(f->severity));
	text_puts(fp, f->headline ? f->headline : f->message);
	fputs(" [", fp);
	text_puts(fp, f->rule);
	fputs("]\n", fp);
	if (quiet)
		return;
	fprintf(fp, "  %snote:%s by ", pal->note, pal->reset);
	text_puts(fp, sup->reason);
	if (sup->justification) {
		fputs(": ", fp);
		text_puts(fp, sup->justification);
	}
	putc('\n', fp);
}

/* With a github report in the same run: what its annotations leave out. */
static void write_github_hidden(FILE *fp, const struct kvet_ctx *ctx)
{
	static const char *const nouns[KVET_SEV_COUNT][2] = {
		[KVET_SEV_INFO] = { "notice", "notices" },
		[KVET_SEV_WARNING] = { "warning", "warnings" },
		[KVET_SEV_ERROR] = { "error", "errors" },
	};
	size_t hidden[KVET_SEV_COUNT];
	const char *sep = "";
	int l;

	if (!kvet_github_hidden(ctx, hidden))
		return;
	fprintf(fp, "kvet: GitHub shows %d annotations of each level per step: ",
		KVET_GITHUB_ANNOTATIONS_PER_LEVEL);
	for (l = KVET_SEV_ERROR; l >= KVET_SEV_INFO; l--) {
		if (!hidden[l])
			continue;
		fprintf(fp, "%s%zu %s", sep, hidden[l],
			nouns[l][hidden[l] != 1]);
		sep = ", ";
	}
	fputs(" of this run are in the step's log only\n", fp);
}

/**
 * kvet_render_text() - write the text report of a run.
 * @ctx: a context that has run.
 * @opts: flags: KVET_RENDER_COLOR for ANSI colours, KVET_RENDER_QUIET for
 *        the first line of each error and finding and no summary line, KVET_RENDER_VERBOSE to list each
 *        skipped document, KVET_RENDER_SHOW_SUPPRESSED to list each
 *        suppressed finding, KVET_RENDER_WITH_GITHUB to say how many
 *        annotations of the run's github report GitHub will not show.
 * @fp: the stream.
 *
 * Returns: 0; write errors are left on @fp for kvet_render().
 */
/* The input errors, each with its place; first in every text report. */
static void write_errors(FILE *fp, const struct palette *pal,
			 const struct kvet_ctx *ctx, bool quiet)
{
	size_t i, n = kvet_ctx_error_count(ctx);

	for (i = 0; i < n; i++)
		write_error(fp, pal, ctx, kvet_ctx_error(ctx, i), quiet);
}

/* Notices, findings, the suppressed ones when asked, a stale baseline. */
static void write_body(FILE *fp, const struct palette *pal,
		       const struct kvet_ctx *ctx, unsigned int flags)
{
	bool quiet = flags & KVET_RENDER_QUIET;
	size_t i, n;

	n = kvet_ctx_notice_count(ctx);
	for (i = 0; i < n; i++)
		write_notice(fp, pal, kvet_ctx_notice(ctx, i), flags);
	write_findings(fp, pal, ctx, quiet);
	n = flags & KVET_RENDER_SHOW_SUPPRESSED ? kvet_ctx_suppressed_count(ctx)
						: 0;
	for (i = 0; i < n; i++)
		write_suppressed(fp, pal, kvet_ctx_suppressed(ctx, i), quiet);
	write_stale(fp, pal, ctx);
}

static void write_tail(FILE *fp, const struct kvet_ctx *ctx,
		       unsigned int flags)
{
	write_summary(fp, ctx);
	if (flags & KVET_RENDER_WITH_GITHUB)
		write_github_hidden(fp, ctx);
}

int kvet_render_text(const struct kvet_ctx *ctx,
		     const struct kvet_render_options *opts, FILE *fp)
{
	const struct palette *pal = opts->flags & KVET_RENDER_COLOR ? &ansi
								     : &plain;

	write_errors(fp, pal, ctx, opts->flags & KVET_RENDER_QUIET);
	write_body(fp, pal, ctx, opts->flags);
	if (!(opts->flags & KVET_RENDER_QUIET))
		write_tail(fp, ctx, opts->flags);
	return 0;
}

/*
 * kvet_render_text_drain() - the text report of kvet drain: the answer
 * before the details it rests on, and alone under --quiet
 * (docs/drain.md, "Reports"); then what a lint report holds, and each
 * node's or step's counts. @opts as for kvet_render_text().
 */
int kvet_render_text_drain(const struct kvet_ctx *ctx,
			   const struct kvet_render_options *opts, FILE *fp)
{
	bool color = opts->flags & KVET_RENDER_COLOR;
	const struct palette *pal = color ? &ansi : &plain;

	write_errors(fp, pal, ctx, opts->flags & KVET_RENDER_QUIET);
	kvet_text_write_drain_answer(fp, ctx, color);
	if (opts->flags & KVET_RENDER_QUIET)
		return 0;
	kvet_text_write_drain_blockers(fp, ctx);
	write_body(fp, pal, ctx, opts->flags);
	kvet_text_write_drain(fp, ctx, color);
	write_tail(fp, ctx, opts->flags);
	return 0;
}

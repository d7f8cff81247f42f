/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "report/escape.h"
#include "report/render_drain.h"

/*
 * A Markdown summary (docs/formats.md) for places people read rather than
 * tools: GitHub's $GITHUB_STEP_SUMMARY and pull-request or merge-request
 * comments. GitHub Flavored Markdown, which GitLab also renders:
 *
 *	### kvet: 2 errors, 1 warning, 0 infos
 *	one sentence: what was linted and whether the gate fails
 *	| rule | severity | findings |    one row per rule with findings
 *	#### Deployment shop/web         the findings grouped by object,
 *	- **error** `file:line:col` ...  in input order
 *	#### Input errors                when some input could not be used
 *
 * Everything from the input goes through kvet_markdown_write(), so no
 * manifest can add a link, an image, HTML or a table cell.
 */

/* Is byte @i the dot of a "www." that starts a word? */
static bool after_www(const char *s, size_t i)
{
	unsigned char before;

	if (i < 3 || strncasecmp(s + i - 3, "www", 3))
		return false;
	if (i == 3)
		return true;
	before = (unsigned char)s[i - 4];
	return !((before >= 'a' && before <= 'z') ||
		 (before >= 'A' && before <= 'Z') ||
		 (before >= '0' && before <= '9') || before >= 0x80);
}

void kvet_markdown_write(FILE *fp, const char *s, size_t len)
{
	size_t i, n;
	uint32_t cp;

	for (i = 0; i < len; i += n) {
		n = kvet_utf8_next(s + i, len - i, &cp);
		switch (cp) {
		/* HTML: a tag, an entity or an autolink */
		case '<':
			fputs("&lt;", fp);
			break;
		case '>':
			fputs("&gt;", fp);
			break;
		case '&':
			fputs("&amp;", fp);
			break;
		/* an empty comment after '@' ends the text there: no
		 * @mention to notify from a comment, no mailto: autolink */
		case '@':
			fputs("@<!-- -->", fp);
			break;
		/* GFM autolinks "scheme://" and "www.": an escaped
		 * character is a text node of its own, which ends them */
		case ':':
			if (len - i > 2 && s[i + 1] == '/' && s[i + 2] == '/')
				putc('\\', fp);
			putc(':', fp);
			break;
		case '.':
			if (after_www(s, i))
				putc('\\', fp);
			putc('.', fp);
			break;
		/* inline syntax: emphasis, code, links, images, table cells,
		 * strikethrough, and the escape character itself */
		case '\\': case '`': case '*': case '_': case '[': case ']':
		case '|': case '~': case '!': case '#':
			putc('\\', fp);
			putc((int)cp, fp);
			break;
		/* one line per item: a line break would end it */
		case '\n': case '\r': case '\t':
			putc(' ', fp);
			break;
		default:
			if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
				kvet_utf8_put(fp, KVET_UTF8_REPLACEMENT);
			else if (n == 1)
				putc((int)cp, fp);
			else
				kvet_utf8_put(fp, cp);
		}
	}
}

static void md(FILE *fp, const char *s)
{
	if (s)
		kvet_markdown_write(fp, s, strlen(s));
}

/* A link destination between < and >: what could end it or break the
 * line is percent-encoded (RFC 3986), the rest is left as written. */
static void md_url(FILE *fp, const char *url)
{
	const unsigned char *p = (const unsigned char *)url;

	for (; *p; p++) {
		if (*p <= ' ' || *p >= 0x7f || *p == '<' || *p == '>' ||
		    *p == '\\')
			fprintf(fp, "%%%02X", *p);
		else
			putc(*p, fp);
	}
}

static void write_place(FILE *fp, const struct kvet_position *pos)
{
	md(fp, pos->file ? pos->file : "kvet");
	if (pos->line) {
		fprintf(fp, ":%u", pos->line);
		if (pos->column)
			fprintf(fp, ":%u", pos->column);
	}
}

static void write_identity(FILE *fp, const struct kvet_object_ref *obj)
{
	md(fp, obj->kind);
	putc(' ', fp);
	if (obj->namespace && *obj->namespace) {
		md(fp, obj->namespace);
		putc('/', fp);
	}
	md(fp, obj->name);
}

static void write_heading(FILE *fp, const struct kvet_ctx *ctx,
			  const struct kvet_render_options *opts)
{
	struct kvet_summary sum;
	enum kvet_exit code;

	kvet_ctx_summary(ctx, &sum);
	fputs("### kvet: ", fp);
	kvet_write_finding_counts(fp, &sum);
	fputs("\n\n", fp);
	kvet_write_count(fp, sum.files, "file", "files");
	fputs(", ", fp);
	kvet_write_count(fp, sum.objects, "object", "objects");
	if (sum.input_errors) {
		fputs(", ", fp);
		kvet_write_count(fp, sum.input_errors, "input error",
				 "input errors");
	}
	kvet_write_other_counts(fp, ctx, &sum);
	code = kvet_ctx_exit_code(ctx, opts->fail_on, opts->fail_never);
	if (code == KVET_EXIT_INPUT)
		fputs(": **some input could not be linted**.\n", fp);
	else if (code == KVET_EXIT_FINDINGS)
		fprintf(fp, ": **fails** (findings of severity %s or above).\n",
			kvet_severity_name(opts->fail_on));
	else
		fputs(": passes.\n", fp);
}

/* With a github report in the same run: what its annotations leave out. */
static void write_github_hidden(FILE *fp, const struct kvet_ctx *ctx)
{
	size_t hidden[KVET_SEV_COUNT], n = kvet_github_hidden(ctx, hidden);

	if (!n)
		return;
	fprintf(fp, "\nGitHub shows %d annotations of each level per step: ",
		KVET_GITHUB_ANNOTATIONS_PER_LEVEL);
	kvet_write_count(fp, n, "problem of this run is",
			 "problems of this run are");
	fputs(" listed here and in the step's log only.\n", fp);
}

/* The rules with findings, by id: how many each, and where it is
 * documented. */
static void write_rule_table(FILE *fp, const struct kvet_ctx *ctx)
{
	size_t i, k, n = kvet_ctx_finding_count(ctx), count;
	const struct kvet_rule_info *rule;
	const struct kvet_finding *f;
	enum kvet_severity worst;
	bool any = false;

	for (i = 0; i < kvet_ctx_rule_count(ctx); i++) {
		rule = kvet_ctx_rule(ctx, i);
		count = 0;
		worst = KVET_SEV_INFO;
		for (k = 0; k < n; k++) {
			f = kvet_ctx_finding(ctx, k);
			if (strcmp(f->rule, rule->id))
				continue;
			count++;
			if (f->severity > worst)
				worst = f->severity;
		}
		if (!count)
			continue;
		if (!any)
			fputs("\n| rule | severity | findings |\n"
			      "| --- | --- | ---: |\n", fp);
		any = true;
		fputs("| ", fp);
		if (rule->help_uri) {
			putc('[', fp);
			md(fp, rule->id);
			/* a URL of a rule file or --docs-url: < > keep it
			 * one destination, whatever it holds */
			fputs("](<", fp);
			md_url(fp, rule->help_uri);
			fputs(">)", fp);
		} else {
			md(fp, rule->id);
		}
		fprintf(fp, " | %s | %zu |\n", kvet_severity_name(worst),
			count);
	}
}

/* The headline as the item, the reason and help as a list below it. */
static void write_finding(FILE *fp, const struct kvet_finding *f)
{
	fprintf(fp, "- **%s** ", kvet_severity_name(f->severity));
	write_place(fp, &f->pos);
	fputs(": ", fp);
	md(fp, f->headline ? f->headline : f->message);
	fputs(" (", fp);
	md(fp, f->rule);
	fputs(")\n", fp);
	if (f->reason) {
		fputs("  - ", fp);
		md(fp, f->reason);
		putc('\n', fp);
	}
	if (f->help) {
		fputs("  - help: ", fp);
		md(fp, f->help);
		putc('\n', fp);
	}
}

/*
 * The report is written item by item (a finding, an error) through a
 * budget: each item goes to @scratch first and is copied to @out only if
 * it fits in what is @left, so that a capped report ends on a whole item.
 * Once one does not fit, the rest are only counted.
 */
struct budget {
	FILE *out;
	FILE *scratch;
	char *buf;
	size_t len;
	size_t left;
	bool full;
	size_t dropped[KVET_SEV_COUNT];	/* findings left out */
	size_t dropped_errors;
};

static FILE *item_begin(struct budget *b)
{
	rewind(b->scratch);
	return b->scratch;
}

/* Returns: whether the item went into the report. */
static bool item_end(struct budget *b)
{
	off_t len;

	fflush(b->scratch);
	len = ftello(b->scratch);
	if (b->full || len < 0 || (size_t)len > b->left) {
		b->full = true;
		return false;
	}
	fwrite(b->buf, 1, (size_t)len, b->out);
	b->left -= (size_t)len;
	return true;
}

static int object_order(const void *pa, const void *pb)
{
	const struct kvet_finding *const *a = pa, *const *b = pb;
	int c = kvet_position_cmp(&(*a)->object.pos, &(*b)->object.pos);

	/* the findings of one object keep the report's order */
	if (c)
		return c;
	return *a < *b ? -1 : *a > *b;
}

/* Capped: the worst first, then by object as above. */
static int severity_order(const void *pa, const void *pb)
{
	const struct kvet_finding *const *a = pa, *const *b = pb;

	if ((*a)->severity != (*b)->severity)
		return (*a)->severity > (*b)->severity ? -1 : 1;
	return object_order(pa, pb);
}

/* The findings grouped by the object they are about, objects in input
 * order (@capped: errors first, then warnings, then infos, an object's
 * heading again for each). Returns -1 when out of memory. */
static int write_objects(struct budget *b, const struct kvet_ctx *ctx,
			 bool capped)
{
	size_t i, n = kvet_ctx_finding_count(ctx);
	const struct kvet_finding **v = malloc((n ? n : 1) * sizeof(*v));
	FILE *fp;

	if (!v)
		return -1;
	for (i = 0; i < n; i++)
		v[i] = kvet_ctx_finding(ctx, i);
	qsort(v, n, sizeof(*v), capped ? severity_order : object_order);
	for (i = 0; i < n; i++) {
		fp = item_begin(b);
		if (!i || kvet_position_cmp(&v[i - 1]->object.pos,
					    &v[i]->object.pos) ||
		    (capped && v[i - 1]->severity != v[i]->severity)) {
			fputs("\n#### ", fp);
			write_identity(fp, &v[i]->object);
			fputs(" (", fp);
			md(fp, v[i]->object.pos.file);
			fputs(")\n\n", fp);
		}
		write_finding(fp, v[i]);
		if (!item_end(b) && (unsigned int)v[i]->severity < KVET_SEV_COUNT)
			b->dropped[v[i]->severity]++;
	}
	free(v);
	return 0;
}

static void write_errors(struct budget *b, const struct kvet_ctx *ctx)
{
	size_t i, n = kvet_ctx_error_count(ctx);
	const struct kvet_error *e;
	FILE *fp;

	for (i = 0; i < n; i++) {
		fp = item_begin(b);
		if (!i)
			fputs("\n#### Errors\n\n", fp);
		e = kvet_ctx_error(ctx, i);
		fprintf(fp, "- **%s** ", e->tolerated ? "warning" : "error");
		write_place(fp, &e->pos);
		fputs(": ", fp);
		md(fp, e->message);
		if (e->rule) {
			fputs(" (", fp);
			md(fp, e->rule);
			putc(')', fp);
		}
		putc('\n', fp);
		if (!item_end(b))
			b->dropped_errors++;
	}
}

/*
 * kvet drain: the plan, a row per node, and the chain of causes where a
 * roll stalls (docs/drain.md).
 */
static void write_drain(FILE *fp, const struct kvet_ctx *ctx)
{
	const struct kvet_drain_step *st;
	size_t i, j;

	fprintf(fp, "\n#### Drain, %s\n\n",
		kvet_ctx_drain_plan(ctx) == KVET_DRAIN_ROLLING
			? "rolling" : "each node alone");
	if (kvet_ctx_drain_pool(ctx)) {
		fputs("On a synthetic pool of ", fp);
		kvet_drain_write_pool(fp, kvet_ctx_drain_pool(ctx));
		fputs(".\n\n", fp);
	}
	fputs("| node | step | verdict | evicted | deleted | left | findings |\n"
	      "| --- | ---: | --- | ---: | ---: | ---: | ---: |\n", fp);
	for (i = 0; i < kvet_ctx_drain_node_count(ctx); i++) {
		const struct kvet_drain_node *dn = kvet_ctx_drain_node(ctx, i);

		fputs("| ", fp);
		md(fp, dn->node.name);
		if (dn->step)
			fprintf(fp, " | %u | ", dn->step);
		else
			fputs(" |  | ", fp);
		md(fp, kvet_drain_verdict_name(dn->verdict));
		fprintf(fp, " | %zu | %zu | %zu | %zu |\n", dn->evicted,
			dn->deleted, dn->left, dn->n_findings);
	}
	for (i = 0; i < kvet_ctx_drain_step_count(ctx); i++) {
		st = kvet_ctx_drain_step(ctx, i);
		if (!st->stalled)
			continue;
		fprintf(fp, "\nThe roll stalls at step %u:\n\n", st->index);
		for (j = 0; j < st->n_causes; j++) {
			fputs(strncmp(st->causes[j], "because ", 8) ? "- "
								  : "  - ",
			      fp);
			md(fp, st->causes[j]);
			putc('\n', fp);
		}
	}
}

/* What a command adds to the head (kvet drain: its plan), or NULL. */
typedef void (*command_section_fn)(FILE *fp, const struct kvet_ctx *ctx);

/* The head of the report: the counts, the verdict, what GitHub hides,
 * the command's section and the rules; always written whole. */
static void write_head(FILE *fp, const struct kvet_ctx *ctx,
		       const struct kvet_render_options *opts, size_t cap,
		       command_section_fn section)
{
	write_heading(fp, ctx, opts);
	if (cap)
		fprintf(fp, "\nThis summary would be over %zu bytes, which "
			"GitHub does not show: it lists the worst first and "
			"ends with what it leaves out.\n", cap);
	if (opts->flags & KVET_RENDER_WITH_GITHUB)
		write_github_hidden(fp, ctx);
	if (section)
		section(fp, ctx);
	write_rule_table(fp, ctx);
}

/* The last line of a capped report: what is not in it, and where it is. */
static void write_left_out(FILE *fp, const struct budget *b,
			   const struct kvet_render_options *opts)
{
	size_t n = b->dropped[KVET_SEV_ERROR] + b->dropped[KVET_SEV_WARNING] +
		   b->dropped[KVET_SEV_INFO];

	fputs("\n**Left out:** ", fp);
	kvet_write_count(fp, n, "finding", "findings");
	fprintf(fp, " (%zu error%s, %zu warning%s, %zu info%s)",
		b->dropped[KVET_SEV_ERROR],
		b->dropped[KVET_SEV_ERROR] == 1 ? "" : "s",
		b->dropped[KVET_SEV_WARNING],
		b->dropped[KVET_SEV_WARNING] == 1 ? "" : "s",
		b->dropped[KVET_SEV_INFO],
		b->dropped[KVET_SEV_INFO] == 1 ? "" : "s");
	if (b->dropped_errors) {
		fputs(" and ", fp);
		kvet_write_count(fp, b->dropped_errors, "error", "errors");
	}
	fputs(", to keep this summary within GitHub's limit; ", fp);
	if (opts->full_report) {
		fputs("the full report of this run is in `", fp);
		md(fp, opts->full_report);
		fputs("`.\n", fp);
	} else {
		fputs("write the full report as well with `--format "
		      "json=FILE` (or text, sarif) and keep it as an "
		      "artifact.\n", fp);
	}
}

/* Room kept for the left-out line of a capped report, besides the
 * path it names (escaped, at most twice as long). */
#define LEFT_OUT_ROOM 512

/* @cap 0: the report in full, as long as it fits in @b; otherwise the
 * capped report, whose head is written even when it alone is over. */
static int render(const struct kvet_ctx *ctx,
		  const struct kvet_render_options *opts, struct budget *b,
		  size_t cap, command_section_fn section)
{
	FILE *fp = item_begin(b);
	off_t len;

	write_head(fp, ctx, opts, cap, section);
	if (!item_end(b)) {
		if (!cap)
			return 0;
		len = ftello(b->scratch);
		fwrite(b->buf, 1, len > 0 ? (size_t)len : 0, b->out);
		b->left = 0;
		b->full = false;	/* count what follows */
	}
	write_errors(b, ctx);
	if (b->full && !cap)
		return 0;
	return write_objects(b, ctx, cap != 0);
}

static int markdown(const struct kvet_ctx *ctx,
		    const struct kvet_render_options *opts, FILE *fp,
		    command_section_fn section)
{
	size_t cap = opts->markdown_max ? opts->markdown_max
					: KVET_MARKDOWN_MAX;
	struct budget b = { 0 };
	FILE *whole_fp;
	char *whole = NULL;
	size_t whole_len = 0, room;
	int ret = -1;

	b.scratch = open_memstream(&b.buf, &b.len);
	whole_fp = open_memstream(&whole, &whole_len);
	if (!b.scratch || !whole_fp)
		goto out;
	/* the report as it is, in memory, as long as it fits */
	b.out = whole_fp;
	b.left = cap;
	if (render(ctx, opts, &b, 0, section) < 0)
		goto out;
	if (fflush(whole_fp))
		goto out;
	if (!b.full) {
		fwrite(whole, 1, whole_len, fp);
		ret = 0;
		goto out;
	}
	/* too large: the head, then the errors and the findings, worst
	 * first, as many as fit, then the left-out line */
	memset(b.dropped, 0, sizeof(b.dropped));
	b.dropped_errors = 0;
	b.full = false;
	b.out = fp;
	room = LEFT_OUT_ROOM +
	       (opts->full_report ? 2 * strlen(opts->full_report) : 0);
	b.left = cap > room ? cap - room : 0;
	if (render(ctx, opts, &b, cap, section) < 0)
		goto out;
	write_left_out(fp, &b, opts);
	ret = 0;
out:
	if (b.scratch)
		fclose(b.scratch);
	if (whole_fp)
		fclose(whole_fp);
	free(b.buf);
	free(whole);
	if (ret < 0)
		errno = ENOMEM;
	return ret;
}

/**
 * kvet_render_markdown() - write the Markdown summary of a run.
 * @ctx: a context that has run.
 * @opts: the gate, for the verdict sentence; KVET_RENDER_WITH_GITHUB to
 *        say how many problems GitHub will not annotate.
 * @fp: the stream.
 *
 * Returns: 0, or -1 when out of memory (errno is set); write errors are
 * left on @fp for kvet_render().
 */
int kvet_render_markdown(const struct kvet_ctx *ctx,
			 const struct kvet_render_options *opts, FILE *fp)
{
	return markdown(ctx, opts, fp, NULL);
}

/* The same for kvet drain, with the plan's table in the head. */
int kvet_render_markdown_drain(const struct kvet_ctx *ctx,
			       const struct kvet_render_options *opts,
			       FILE *fp)
{
	return markdown(ctx, opts, fp, write_drain);
}

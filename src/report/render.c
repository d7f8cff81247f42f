/* SPDX-License-Identifier: Apache-2.0 */
#include "kvet/kvet.h"

#include <errno.h>
#include <string.h>

#include "report/render.h"

/*
 * The report formats, indexed by enum kvet_format: a renderer for each
 * command, the same where kvet drain adds nothing to lint's report.
 */
static const struct {
	const char *name;
	kvet_render_fn lint, drain;
} formats[] = {
	[KVET_FORMAT_TEXT] = { "text", kvet_render_text,
			       kvet_render_text_drain },
	[KVET_FORMAT_JSON] = { "json", kvet_render_json,
			       kvet_render_json_drain },
	[KVET_FORMAT_JUNIT] = { "junit", kvet_render_junit,
				kvet_render_junit_drain },
	[KVET_FORMAT_SARIF] = { "sarif", kvet_render_sarif,
				kvet_render_sarif },
	[KVET_FORMAT_GITHUB] = { "github", kvet_render_github,
				 kvet_render_github },
	[KVET_FORMAT_CODEQUALITY] = { "codequality", kvet_render_codequality,
				      kvet_render_codequality },
	[KVET_FORMAT_MARKDOWN] = { "markdown", kvet_render_markdown,
				   kvet_render_markdown_drain },
};

#define N_FORMATS (sizeof(formats) / sizeof(formats[0]))

static const char *const severity_names[KVET_SEV_COUNT] = {
	[KVET_SEV_INFO] = "info",
	[KVET_SEV_WARNING] = "warning",
	[KVET_SEV_ERROR] = "error",
};

const char *kvet_severity_name(enum kvet_severity sev)
{
	if ((unsigned int)sev >= KVET_SEV_COUNT)
		return "error";
	return severity_names[sev];
}

int kvet_format_from_name(const char *name, enum kvet_format *out)
{
	size_t i;

	if (!name)
		return -1;
	for (i = 0; i < N_FORMATS; i++) {
		if (formats[i].name && !strcmp(formats[i].name, name)) {
			*out = (enum kvet_format)i;
			return 0;
		}
	}
	return -1;
}

const char *kvet_format_name(enum kvet_format format)
{
	if ((unsigned int)format >= N_FORMATS || !formats[format].name)
		return NULL;
	return formats[format].name;
}

int kvet_render(const struct kvet_ctx *ctx, enum kvet_format format,
		const struct kvet_render_options *opts, FILE *fp)
{
	static const struct kvet_render_options defaults = {
		.fail_on = KVET_SEV_WARNING,
	};
	kvet_render_fn render;

	if (!ctx || !fp || (unsigned int)format >= N_FORMATS ||
	    !formats[format].lint) {
		errno = EINVAL;
		return -1;
	}
	render = kvet_ctx_drain_ran(ctx) ? formats[format].drain
					 : formats[format].lint;
	errno = 0;
	if (render(ctx, opts ? opts : &defaults, fp))
		return -1;
	return kvet_render_flush(fp);
}

int kvet_render_flush(FILE *fp)
{
	/* Buffered writes fail late: surface the error here, with errno. */
	if (fflush(fp) || ferror(fp)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}

void kvet_write_count(FILE *fp, size_t n, const char *one, const char *many)
{
	fprintf(fp, "%zu %s", n, n == 1 ? one : many);
}

void kvet_write_finding_counts(FILE *fp, const struct kvet_summary *sum)
{
	kvet_write_count(fp, sum->findings[KVET_SEV_ERROR], "error", "errors");
	fputs(", ", fp);
	kvet_write_count(fp, sum->findings[KVET_SEV_WARNING], "warning",
			 "warnings");
	fputs(", ", fp);
	kvet_write_count(fp, sum->findings[KVET_SEV_INFO], "info", "infos");
}

void kvet_write_other_counts(FILE *fp, const struct kvet_ctx *ctx,
			     const struct kvet_summary *sum)
{
	if (sum->evaluation_errors) {
		fputs(", ", fp);
		kvet_write_count(fp, sum->evaluation_errors, "evaluation error",
				 "evaluation errors");
	}
	if (kvet_ctx_suppressed_count(ctx)) {
		fputs(", ", fp);
		kvet_write_count(fp, kvet_ctx_suppressed_count(ctx),
				 "suppressed", "suppressed");
	}
}

int kvet_position_cmp(const struct kvet_position *a,
		      const struct kvet_position *b)
{
	int c = strcmp(a->file ? a->file : "", b->file ? b->file : "");

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->column != b->column)
		return a->column < b->column ? -1 : 1;
	return 0;
}

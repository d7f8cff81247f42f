/* SPDX-License-Identifier: Apache-2.0 */
#include "report/render.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/json.h"
#include "report/escape.h"
#include "report/fingerprint.h"

/*
 * GitLab Code Quality (docs/formats.md): the JSON array GitLab's merge
 * request widget reads from `artifacts: reports: codequality:`, the
 * subset of the Code Climate spec that GitLab documents (docs.gitlab.com,
 * ci/testing/code_quality, "Code Quality report format"):
 *
 *	[{"description": "...", "check_name": "RULE-ID",
 *	  "fingerprint": "...", "severity": "major",
 *	  "location": {"path": "deploy.yaml", "lines": {"begin": 12}}}]
 *
 * One issue per reported finding, in the report's order, then one per
 * input or evaluation error that has a file (check_name "input-error"
 * or "evaluation-error"), so the widget does not look clean when some
 * input could not be linted. Suppressed findings and notices are left
 * out. GitLab keeps only the first issue of a fingerprint, so each is
 * unique (fingerprint.h).
 */

/* GitLab's scale is info, minor, major, critical, blocker: kvet's
 * errors break a cluster operation, but blocker is kept for input that
 * could not be linted at all. */
static const char *const severities[KVET_SEV_COUNT] = {
	[KVET_SEV_INFO] = "info",
	[KVET_SEV_WARNING] = "minor",
	[KVET_SEV_ERROR] = "critical",
};

/* Standard input has no path in the repository; it is named "stdin",
 * as in SARIF. A leading "./" is dropped: paths are from the root. */
static void location(struct kvet_jw *jw, const struct kvet_position *pos)
{
	const char *path = pos->file;

	if (!strcmp(path, "<stdin>"))
		path = "stdin";
	while (path[0] == '.' && path[1] == '/')
		path += 2;
	kvet_jw_open(jw, "location", '{');
	kvet_jw_str(jw, "path", path);
	kvet_jw_open(jw, "lines", '{');
	/* a file-level problem is on its first line */
	kvet_jw_uint(jw, "begin", pos->line ? pos->line : 1);
	kvet_jw_close(jw, '}');
	kvet_jw_close(jw, '}');
}

static void write_finding(struct kvet_jw *jw, const struct kvet_finding *f,
			  const struct kvet_report_fp *fp)
{
	unsigned int sev = (unsigned int)f->severity;

	kvet_jw_open(jw, NULL, '{');
	/* the merge request widget gives each issue one line */
	kvet_jw_str(jw, "description", f->headline ? f->headline : f->message);
	kvet_jw_str(jw, "check_name", f->rule);
	kvet_jw_item(jw, "fingerprint");
	kvet_report_fp_write(kvet_jw_stream(jw), fp);
	kvet_jw_str(jw, "severity",
		    severities[sev < KVET_SEV_COUNT ? sev : KVET_SEV_ERROR]);
	location(jw, &f->pos);
	kvet_jw_close(jw, '}');
}

/* An error's fingerprint: its kind, place and message (hashed as the
 * field), which two errors never share (kvet reports one error per
 * place and cause). */
static void write_error(struct kvet_jw *jw, const struct kvet_error *e)
{
	struct kvet_finding as_finding = {
		.rule = e->rule ? e->rule : "input-error",
		.message = e->message,
		.field = e->message,
		.pos = e->pos,
	};
	struct kvet_report_fp fp = { 0, 1 };
	char where[64];

	snprintf(where, sizeof(where), "%u:%u", e->pos.line, e->pos.column);
	as_finding.object.name = where;
	as_finding.object.kind = e->pos.file;
	fp.hash = kvet_finding_fingerprint(&as_finding);
	kvet_jw_open(jw, NULL, '{');
	kvet_jw_str(jw, "description", e->message);
	kvet_jw_str(jw, "check_name",
		    e->rule ? "evaluation-error" : "input-error");
	kvet_jw_item(jw, "fingerprint");
	kvet_report_fp_write(kvet_jw_stream(jw), &fp);
	kvet_jw_str(jw, "severity", e->tolerated ? "minor" : "blocker");
	location(jw, &e->pos);
	kvet_jw_close(jw, '}');
}

/**
 * kvet_render_codequality() - write the GitLab Code Quality report of a
 * run.
 * @ctx: a context that has run.
 * @opts: unused: GitLab compares the issues of two pipelines, whatever
 *        fails the job.
 * @fp: the stream.
 *
 * Returns: 0, or -1 when out of memory (errno is set); write errors are
 * left on @fp for kvet_render().
 */
int kvet_render_codequality(const struct kvet_ctx *ctx,
			    const struct kvet_render_options *opts, FILE *fp)
{
	size_t i, n = kvet_ctx_finding_count(ctx);
	const struct kvet_finding **all = malloc((n ? n : 1) * sizeof(*all));
	struct kvet_jw jw;
	const struct kvet_error *e;
	struct kvet_report_fp *fps;

	kvet_jw_init(&jw, fp);
	if (!all) {
		errno = ENOMEM;
		return -1;
	}
	for (i = 0; i < n; i++)
		all[i] = kvet_ctx_finding(ctx, i);
	fps = kvet_report_fps_create(all, n);
	if (!fps) {
		free(all);
		errno = ENOMEM;
		return -1;
	}
	kvet_jw_open(&jw, NULL, '[');
	for (i = 0; i < n; i++)
		if (all[i]->pos.file)
			write_finding(&jw, all[i], &fps[i]);
	for (i = 0; i < kvet_ctx_error_count(ctx); i++) {
		e = kvet_ctx_error(ctx, i);
		if (e->pos.file)
			write_error(&jw, e);
	}
	kvet_jw_close(&jw, ']');
	kvet_jw_raw(&jw, "\n", 1);
	kvet_jw_flush(&jw);
	free(fps);
	free(all);
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_REPORT_RENDER_H
#define KVET_REPORT_RENDER_H

#include <stdio.h>

#include "kvet/kvet.h"

/*
 * The interface every report format implements: one function that writes
 * the whole report of a run that has completed. Renderers read the context
 * through the public API only and never flush or close @fp; kvet_render()
 * checks the stream for write errors once, at the end.
 */
typedef int (*kvet_render_fn)(const struct kvet_ctx *ctx,
			      const struct kvet_render_options *opts,
			      FILE *fp);

/* A renderer per format and command: where kvet drain's report differs
 * from lint's, the _drain one (render.c's table). */
int kvet_render_text(const struct kvet_ctx *ctx,
		     const struct kvet_render_options *opts, FILE *fp);
int kvet_render_text_drain(const struct kvet_ctx *ctx,
			   const struct kvet_render_options *opts, FILE *fp);
int kvet_render_json(const struct kvet_ctx *ctx,
		     const struct kvet_render_options *opts, FILE *fp);
int kvet_render_json_drain(const struct kvet_ctx *ctx,
			   const struct kvet_render_options *opts, FILE *fp);
int kvet_render_junit(const struct kvet_ctx *ctx,
		      const struct kvet_render_options *opts, FILE *fp);
int kvet_render_junit_drain(const struct kvet_ctx *ctx,
			    const struct kvet_render_options *opts, FILE *fp);
int kvet_render_sarif(const struct kvet_ctx *ctx,
		      const struct kvet_render_options *opts, FILE *fp);
int kvet_render_github(const struct kvet_ctx *ctx,
		       const struct kvet_render_options *opts, FILE *fp);
int kvet_render_codequality(const struct kvet_ctx *ctx,
			    const struct kvet_render_options *opts, FILE *fp);
int kvet_render_markdown(const struct kvet_ctx *ctx,
			 const struct kvet_render_options *opts, FILE *fp);
int kvet_render_markdown_drain(const struct kvet_ctx *ctx,
			       const struct kvet_render_options *opts,
			       FILE *fp);

/* GitHub shows at most this many annotations of each level (error,
 * warning, notice) per step (actions/toolkit docs/problem-matchers.md,
 * "Limitations"); the rest stay in the step's log. */
#define KVET_GITHUB_ANNOTATIONS_PER_LEVEL 10

/**
 * kvet_github_hidden() - how many annotations of a github report of this
 * run GitHub will not show, per level.
 * @ctx: a context that has run.
 * @hidden: set, indexed by enum kvet_severity (info is GitHub's notice).
 *
 * Returns: their sum.
 */
size_t kvet_github_hidden(const struct kvet_ctx *ctx,
			  size_t hidden[KVET_SEV_COUNT]);

/* Counts in prose, shared by the text and Markdown summaries: "1 file",
 * "3 errors"; "2 errors, 1 warning, 0 infos"; and ", N evaluation
 * errors", ", N suppressed" for those that are not zero. */
void kvet_write_count(FILE *fp, size_t n, const char *one, const char *many);
void kvet_write_finding_counts(FILE *fp, const struct kvet_summary *sum);
void kvet_write_other_counts(FILE *fp, const struct kvet_ctx *ctx,
			     const struct kvet_summary *sum);

struct kvet_jw;

/* A finding moved to its chart's template line: its place in the render,
 * as the object "rendered": {file, line, column}, for the JSON and SARIF
 * reports; nothing for any other finding (render_json.c). */
void kvet_jw_rendered(struct kvet_jw *jw, const struct kvet_finding *f);

/* Order of positions: file (bytes), line, column. */
int kvet_position_cmp(const struct kvet_position *a,
		      const struct kvet_position *b);

/* Flush @fp and turn a write error into -1 with errno set. */
int kvet_render_flush(FILE *fp);

/* "error", "warning" or "info": the spelling shared by every format. */
const char *kvet_severity_name(enum kvet_severity sev);

#endif

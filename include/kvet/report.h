/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_REPORT_H
#define KVET_REPORT_H

/*
 * Reports: the formats, the gate of the exit status, and the writers of
 * a run's report and of the list of rules.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Report formats: one renderer each, chosen by name. */
enum kvet_format {
	KVET_FORMAT_TEXT,
	KVET_FORMAT_JSON,
	KVET_FORMAT_JUNIT,	/* JUnit XML for CI test dashboards */
	KVET_FORMAT_SARIF,	/* SARIF 2.1.0 for code scanning */
	KVET_FORMAT_GITHUB,	/* GitHub Actions workflow commands */
	KVET_FORMAT_CODEQUALITY,	/* GitLab Code Quality (merge requests) */
	KVET_FORMAT_MARKDOWN,	/* a summary for GitHub step summaries and
				 * merge-request comments */
};

enum kvet_render_flags {
	KVET_RENDER_COLOR = 1u << 0,	/* text: ANSI colours */
	KVET_RENDER_QUIET = 1u << 1,	/* text: headlines only: the first
					 * line of each error and finding,
					 * no summary line */
	KVET_RENDER_VERBOSE = 1u << 2,	/* text: detail notices too */
	/* text: each suppressed finding as a note, with what suppressed it */
	KVET_RENDER_SHOW_SUPPRESSED = 1u << 3,
	/* text, markdown: the run also writes a github report; say how many
	 * of its annotations GitHub will not show (its per-step limits) */
	KVET_RENDER_WITH_GITHUB = 1u << 4,
};

/*
 * Plain data: how to write a report. The gate is the one the exit status
 * uses (kvet_ctx_exit_code()), so that reports which say pass or fail
 * (JUnit) agree with it.
 */
struct kvet_render_options {
	unsigned int flags;		/* enum kvet_render_flags */
	enum kvet_severity fail_on;	/* findings at or above fail */
	bool fail_never;		/* no finding fails: --fail-on never,
					 * or a baseline being written */
	/* markdown: the most bytes it may take; 0: KVET_MARKDOWN_MAX */
	size_t markdown_max;
	/* markdown: a file of this run's that holds every finding, named
	 * when the summary has to leave some out; NULL: none */
	const char *full_report;
	/* sarif: the most results; 0: KVET_SARIF_MAX_RESULTS */
	size_t sarif_max;
};

/*
 * GitHub code scanning rejects a SARIF run of more than 25,000 results
 * whole ("SARIF results exceed hard limit"), and shows the 5,000 worst:
 * the SARIF report keeps this many, the worst first.
 */
#define KVET_SARIF_MAX_RESULTS ((size_t)25000)

/*
 * GitHub drops a step summary over 1 MiB whole ("Step isolation and
 * limits", docs.github.com, workflow commands): the Markdown report
 * stays below it by a margin, for what else the step writes there.
 */
#define KVET_MARKDOWN_MAX ((size_t)1000000)

/**
 * kvet_format_from_name() - look a format up by its CLI name.
 * Returns: 0 and sets @out, or -1 for an unknown name.
 */
KVET_API int kvet_format_from_name(const char *name, enum kvet_format *out);

/**
 * kvet_format_name() - the CLI name of a format.
 * @format: the format; every value from 0 up to the first that gives
 *          NULL is a format, so a caller can list them all.
 *
 * Returns: a static string, or NULL when @format is not a format.
 */
KVET_API const char *kvet_format_name(enum kvet_format format);

/**
 * kvet_render() - write the report of a run.
 * @ctx: a context that has run.
 * @format: the format.
 * @opts: flags and gate; NULL: no flags, and findings of warning and
 *        above fail (the command's default, --fail-on warning).
 * @fp: the stream; kvet does not close it.
 *
 * Returns: 0, or -1 on a write error (errno is set).
 */
KVET_API int kvet_render(const struct kvet_ctx *ctx, enum kvet_format format,
			 const struct kvet_render_options *opts, FILE *fp);

/**
 * kvet_ctx_write_rules() - write the list of rules (`kvet rules`): every
 * rule of kvet_ctx_rule_all() (kvet drain's checks among them), disabled
 * ones marked.
 * @ctx: the context, with its rules and settings.
 * @format: KVET_FORMAT_TEXT, one line per rule (id, severity, category,
 *          summary, "(disabled)"), or KVET_FORMAT_JSON (docs/formats.md;
 *          "commands" says which commands run it).
 * @fp: the stream; flushed.
 *
 * Returns: 0, or -1 with errno set (EINVAL for another format, or the
 * write error).
 */
KVET_API int kvet_ctx_write_rules(const struct kvet_ctx *ctx,
				  enum kvet_format format, FILE *fp);

#ifdef __cplusplus
}
#endif

#endif

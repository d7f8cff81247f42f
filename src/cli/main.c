/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet, the command: parse the command line, run libkvet, write the
 * reports and map the result to an exit code (enum kvet_exit).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kvet/kvet.h"
#include "cli/args.h"
#include "cli/cluster.h"
#include "cli/output.h"
#include "cli/config_file.h"
#include "cli/progress.h"
#include "cli/rules_cmd.h"

/* no-color.org: a non-empty NO_COLOR turns colour off unless asked for. */
static bool want_color(enum kvet_color color)
{
	const char *no_color = getenv("NO_COLOR");
	const char *term = getenv("TERM");

	switch (color) {
	case KVET_COLOR_ALWAYS:
		return true;
	case KVET_COLOR_NEVER:
		return false;
	case KVET_COLOR_AUTO:
		break;
	}
	if (no_color && *no_color)
		return false;
	if (term && !strcmp(term, "dumb"))
		return false;
	return isatty(STDOUT_FILENO);
}

/* Output to a full disk must not look like success; a closed pipe is
 * the reader's choice. */
static enum kvet_exit finish_stdout(enum kvet_exit code)
{
	if (fflush(stdout) || ferror(stdout)) {
		if (errno == EPIPE)
			return code;
		fprintf(stderr,
			"kvet: error: cannot write to standard output: %s\n",
			strerror(errno));
		return KVET_EXIT_USAGE;
	}
	return code;
}

/*
 * "kvet lint | head -1": the reader of standard output may go away at any
 * time. That is its choice, not a failure of the lint.
 */
static bool reader_gone(void)
{
	return errno == EPIPE;
}

static int write_stdout_report(const struct kvet_ctx *ctx,
			       enum kvet_format format,
			       const struct kvet_render_options *opts)
{
	if (!kvet_render(ctx, format, opts, stdout))
		return 0;
	if (reader_gone())
		return 0;
	fprintf(stderr, "kvet: error: cannot write to standard output: %s\n",
		strerror(errno));
	return -1;
}

static int write_baseline(const void *ctx, FILE *fp)
{
	return kvet_ctx_write_baseline(ctx, fp);
}

/* With a baseline written, the findings are accepted: only input errors
 * fail, in the exit status and in the reports alike. */
static bool fail_never(const struct kvet_args *args)
{
	return args->write_baseline || args->fail_never;
}

static unsigned int render_flags(const struct kvet_args *args)
{
	unsigned int flags = (args->quiet ? KVET_RENDER_QUIET : 0) |
			     (args->verbose ? KVET_RENDER_VERBOSE : 0) |
			     (args->show_suppressed ? KVET_RENDER_SHOW_SUPPRESSED
						    : 0);
	size_t i;

	for (i = 0; i < args->n_outputs; i++)
		if (args->outputs[i].format == KVET_FORMAT_GITHUB)
			flags |= KVET_RENDER_WITH_GITHUB;
	return flags;
}

/*
 * A file of this run that holds every finding, for a Markdown summary
 * that has to leave some out to name: the first JSON, text or SARIF
 * report written to a file.
 */
static const char *full_report(const struct kvet_args *args)
{
	size_t i;

	for (i = 0; i < args->n_outputs; i++) {
		enum kvet_format f = args->outputs[i].format;

		if (args->outputs[i].path &&
		    (f == KVET_FORMAT_JSON || f == KVET_FORMAT_TEXT ||
		     f == KVET_FORMAT_SARIF))
			return args->outputs[i].path;
	}
	return NULL;
}

/*
 * KVET_TEST_MARKDOWN_MAX, KVET_TEST_SARIF_MAX: lower caps of the Markdown
 * report's bytes and the SARIF report's results, so that the tests reach
 * them with small inputs (testdata/report-markdown-capped,
 * report-sarif-capped); not for users, who have GitHub's limits to keep.
 */
static size_t test_cap(const char *name, size_t limit)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	return errno || *end || v > limit ? 0 : (size_t)v;
}

/*
 * Files first: they are what CI keeps, and they must not depend on whether
 * anyone still reads standard output.
 */
static int write_reports(const struct kvet_ctx *ctx,
			 const struct kvet_args *args)
{
	struct kvet_render_options opts = {
		.flags = render_flags(args),
		.fail_on = args->fail_on,
		.fail_never = fail_never(args),
		.markdown_max = test_cap("KVET_TEST_MARKDOWN_MAX",
					 KVET_MARKDOWN_MAX),
		.sarif_max = test_cap("KVET_TEST_SARIF_MAX",
				      KVET_SARIF_MAX_RESULTS),
		.full_report = full_report(args),
	};
	struct kvet_render_options colored = opts;
	const struct kvet_output *to_stdout = NULL;
	size_t i;
	int ret = 0;

	if (want_color(args->color))
		colored.flags |= KVET_RENDER_COLOR;
	for (i = 0; i < args->n_outputs; i++) {
		if (!args->outputs[i].path)
			to_stdout = &args->outputs[i];
		else if (kvet_output_write_file(ctx, args->outputs[i].format,
						&opts, args->outputs[i].path,
						args->opts.fifo_wait_ms,
						stderr))
			ret = -1;
	}
	if (args->write_baseline &&
	    kvet_output_write_atomic(args->write_baseline, write_baseline,
				     ctx, args->opts.fifo_wait_ms, stderr))
		ret = -1;
	/* Colour only ever goes to standard output, never to a file. */
	if (to_stdout)
		ret |= write_stdout_report(ctx, to_stdout->format, &colored);
	else if (!args->n_outputs)
		ret |= write_stdout_report(ctx, KVET_FORMAT_TEXT, &colored);
	return ret;
}

static enum kvet_exit lint(const struct kvet_args *args)
{
	struct kvet_cli_progress progress = { stderr, false };
	enum kvet_exit code = KVET_EXIT_USAGE;
	struct kvet_args with_progress, lean;
	struct kvet_ctx *ctx;
	size_t i, n_stdout = 0;
	struct kvet_chart_options chart;
	bool failed;

	for (i = 0; i < args->n_outputs; i++)
		n_stdout += !args->outputs[i].path;
	if (n_stdout > 1) {
		fputs("kvet: error: more than one --format writes to standard output\n"
		      "kvet: hint: give the others a file: --format FMT=FILE\n",
		      stderr);
		return KVET_EXIT_USAGE;
	}
	if (kvet_output_check_reports(args, stderr))
		return KVET_EXIT_USAGE;

	/* a lint or a drain never runs the built-in rules' examples */
	lean = *args;
	lean.opts.flags |= KVET_CTX_NO_EXAMPLES;
	args = &lean;
	if (kvet_cli_progress_wanted(stderr, args->quiet)) {
		with_progress = *args;
		with_progress.opts.progress = kvet_cli_progress_show;
		with_progress.opts.progress_user = &progress;
		args = &with_progress;
	}
	ctx = kvet_cli_context(args, stderr);
	if (!ctx)
		return KVET_EXIT_USAGE;
	if ((args->command == KVET_CMD_DRAIN &&
	     kvet_ctx_set_drain(ctx, &args->drain)) ||
	    kvet_ctx_set_pool(ctx, &args->pool)) {
		for (i = 0; i < kvet_ctx_rule_error_count(ctx); i++)
			kvet_cli_print_error(kvet_ctx_rule_error(ctx, i),
					     stderr);
		if (!kvet_ctx_rule_error_count(ctx))
			fprintf(stderr, "kvet: error: %s\n", strerror(ENOMEM));
		goto out;
	}
	chart = args->chart;
	if (!chart.helm)
		chart.helm = getenv("KVET_HELM");
	if (!chart.kustomize)
		chart.kustomize = getenv("KVET_KUSTOMIZE");
	if (chart.helm && !*chart.helm)
		chart.helm = NULL;
	if (chart.kustomize && !*chart.kustomize)
		chart.kustomize = NULL;
	kvet_ctx_set_chart_options(ctx, &chart);
	if (args->cluster) {
		code = kvet_cli_cluster_add(ctx, args, stderr);
		if (code)
			goto out;
		code = KVET_EXIT_USAGE;
	} else if (args->changed) {
		if (kvet_ctx_add_changed(ctx,
					 (const char *const *)args->operands,
					 args->n_operands))
			goto oom;
	} else if (!args->n_operands && kvet_ctx_add_default_input(ctx)) {
		goto oom;
	}
	for (i = 0; !args->changed && i < args->n_operands; i++) {
		if (kvet_ctx_add_path(ctx, args->operands[i]))
			goto oom;
	}
	failed = kvet_ctx_run(ctx) != 0;
	kvet_cli_progress_end(&progress);
	if (failed) {
		fprintf(stderr, "kvet: error: cannot %s: %s\n",
			args->command == KVET_CMD_DRAIN ? "drain" : "lint",
			strerror(errno ? errno : ENOMEM));
		goto out;
	}
	if (write_reports(ctx, args))
		goto out;
	code = kvet_ctx_exit_code(ctx, args->fail_on, fail_never(args));
	goto out;
oom:
	fprintf(stderr, "kvet: error: %s\n", strerror(ENOMEM));
out:
	kvet_ctx_destroy(ctx);
	return code;
}

static enum kvet_exit rule_command(const struct kvet_args *args)
{
	struct kvet_args with_dir;
	struct kvet_ctx *ctx;
	enum kvet_exit code;

	/* kvet rules test DIR loads DIR as --rules DIR does */
	if (args->rules_test) {
		with_dir = *args;
		if (with_dir.n_rules_dirs == KVET_MAX_RULE_ARGS) {
			fputs("kvet: error: too many --rules options\n", stderr);
			return KVET_EXIT_USAGE;
		}
		with_dir.rules_dirs[with_dir.n_rules_dirs++] = args->rules_test;
		args = &with_dir;
	}
	ctx = kvet_cli_context(args, stderr);

	if (!ctx)
		return KVET_EXIT_USAGE;
	if (args->command == KVET_CMD_RULES && args->rules_test)
		code = kvet_cli_rules_test(ctx, args->rules_test, stdout,
					   stderr);
	else if (args->command == KVET_CMD_RULES)
		code = kvet_cli_rules(ctx, args->n_outputs
						   ? args->outputs[0].format
						   : KVET_FORMAT_TEXT,
				      stdout, stderr);
	else
		code = kvet_cli_explain(ctx, args->operands[0], stdout, stderr);
	kvet_ctx_destroy(ctx);
	return finish_stdout(code);
}

/*
 * KVET_FIFO_WAIT_MS: how long a FIFO, read or written, waits for the other
 * end (default 10 s). For tests, which make it short so that a FIFO
 * nobody opens is an error at once; not an option, as nobody else should
 * need it.
 */
static void fifo_wait_from_env(struct kvet_args *args)
{
	const char *env = getenv("KVET_FIFO_WAIT_MS");
	unsigned long ms;
	char *end;

	if (!env || !*env)
		return;
	errno = 0;
	ms = strtoul(env, &end, 10);
	if (!*end && !errno && ms && ms <= 3600000)
		args->opts.fifo_wait_ms = (unsigned int)ms;
}

int main(int argc, char **argv)
{
	struct kvet_args args;

	/* EPIPE instead of death, so that reports to files still get written */
	signal(SIGPIPE, SIG_IGN);
	if (kvet_args_parse(&args, argc, argv, stderr))
		return KVET_EXIT_USAGE;
	fifo_wait_from_env(&args);
	if (args.help || args.command == KVET_CMD_HELP) {
		kvet_args_usage(&args, stdout);
		return finish_stdout(KVET_EXIT_OK);
	}
	switch (args.command) {
	case KVET_CMD_LINT:
	case KVET_CMD_DRAIN:
		/* kvet_render() flushes and reports its own write errors. */
		return lint(&args);
	case KVET_CMD_VERSION:
		if (*kvet_version_commit())
			printf("kvet %s (commit %s)\n", kvet_version(),
			       kvet_version_commit());
		else
			printf("kvet %s\n", kvet_version());
		return finish_stdout(KVET_EXIT_OK);
	case KVET_CMD_RULES:
	case KVET_CMD_EXPLAIN:
		return rule_command(&args);
	case KVET_CMD_CONFIG:
		if (strcmp(args.operands[0], "init") != 0) {
			fprintf(stderr, "kvet: error: unknown config command '%s'\n"
					"kvet: hint: see 'kvet config --help'\n",
				args.operands[0]);
			return KVET_EXIT_USAGE;
		}
		return kvet_config_init(args.n_operands > 1 ? args.operands[1]
							    : KVET_CONFIG_NAME,
					stderr);
	case KVET_CMD_HELP:
		break;
	}
	return KVET_EXIT_USAGE;
}

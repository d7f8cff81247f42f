/* SPDX-License-Identifier: Apache-2.0 */
/* The rule commands of kvet, and loading the rules a command line names. */
#include "cli/rules_cmd.h"

#include <errno.h>
#include <string.h>

#include "cli/config_file.h"

/* Text from a file or a file name, as the text report writes it: no
 * control character reaches the terminal. */
static void put_text(FILE *fp, const char *s)
{
	kvet_text_write(fp, s, strlen(s));
}

void kvet_cli_print_error(const struct kvet_error *e, FILE *err)
{
	if (e->pos.file) {
		put_text(err, e->pos.file);
		if (e->pos.line)
			fprintf(err, ":%u:%u", e->pos.line, e->pos.column);
		fputs(": error: ", err);
	} else {
		fputs("kvet: error: ", err);
	}
	put_text(err, e->message);
	putc('\n', err);
}

static void print_rule_errors(const struct kvet_ctx *ctx, FILE *err)
{
	size_t i;

	for (i = 0; i < kvet_ctx_rule_error_count(ctx); i++)
		kvet_cli_print_error(kvet_ctx_rule_error(ctx, i), err);
}

/* Whether the context knows rule @id, switched off or not. */
static bool rule_known(const struct kvet_ctx *ctx, const char *id)
{
	size_t i;

	for (i = 0; i < kvet_ctx_rule_all_count(ctx); i++)
		if (!strcmp(kvet_ctx_rule_all(ctx, i)->id, id))
			return true;
	return false;
}

/* "unknown rule" on @err, with the closest id when one is close. */
static void unknown_rule(const struct kvet_ctx *ctx, const char *id,
			 const char *where, FILE *err)
{
	const char *near = kvet_ctx_rule_suggest(ctx, id);

	fputs("kvet: error: unknown rule '", err);
	put_text(err, id);
	fprintf(err, "'%s\n", where);
	if (near)
		fprintf(err, "kvet: hint: did you mean '%s'?\n", near);
	else
		fputs("kvet: hint: 'kvet rules' lists the rules\n", err);
}

/*
 * The configuration file first, then the command line over it: both name
 * rules, so every rule file is loaded before either. Returns false when
 * --enable or --disable named an unknown rule (reported on @err); errors
 * of the files are left in the context.
 */
static bool apply_settings(struct kvet_ctx *ctx, const struct kvet_args *args,
			   FILE *err)
{
	char found[4352];
	const char *config = args->config;
	bool ok = true;
	size_t i;

	if (!config && !args->no_config)
		config = kvet_config_find(found, sizeof(found));
	if (config && kvet_ctx_load_config(ctx, config))
		return true;
	if (args->namespace_given)
		(void)kvet_ctx_set_namespace(ctx, args->opts.default_namespace);
	if (args->complete_given)
		kvet_ctx_set_complete_input(ctx, true);
	if (args->require_given)
		kvet_ctx_set_require_objects(ctx, true);
	if (args->max_input_given)
		kvet_ctx_set_max_input_size(ctx, args->opts.max_file_size);
	/* checked as a URL when parsed: only memory can fail it here */
	if ((args->docs_url && kvet_ctx_set_docs_url(ctx, args->docs_url)) ||
	    (args->chart_dir && kvet_ctx_set_chart_dir(ctx, args->chart_dir))) {
		fprintf(err, "kvet: error: %s\n", strerror(ENOMEM));
		ok = false;
	}
	for (i = 0; i < args->n_toggles; i++) {
		if (kvet_ctx_set_rule_enabled(ctx, args->toggles[i].id,
					      args->toggles[i].on) == 0)
			continue;
		unknown_rule(ctx, args->toggles[i].id,
			     args->toggles[i].on ? " in --enable" : " in --disable",
			     err);
		ok = false;
	}
	if (args->baseline)
		(void)kvet_ctx_load_baseline(ctx, args->baseline);
	return ok;
}

struct kvet_ctx *kvet_cli_context(const struct kvet_args *args, FILE *err)
{
	struct kvet_ctx *ctx = kvet_ctx_create(&args->opts);
	char name[256], rule[256];
	bool bad_toggle = false, refused = false, bad_param = false;
	size_t i;

	if (!ctx) {
		fprintf(err, "kvet: error: %s\n", strerror(ENOMEM));
		return NULL;
	}
	/* a refused file stops the run even if it could not say why */
	for (i = 0; i < args->n_rules_dirs; i++)
		if (kvet_ctx_add_rules_dir(ctx, args->rules_dirs[i]) < 0)
			refused = true;
	if (!kvet_ctx_rule_error_count(ctx))
		bad_toggle = !apply_settings(ctx, args, err);
	/* parameters name loaded rules, so only once every file is in */
	for (i = 0; !kvet_ctx_rule_error_count(ctx) && i < args->n_params; i++) {
		const char *p = args->params[i], *dot = strchr(p, '.');
		const char *eq = strchr(p, '=');

		snprintf(rule, sizeof(rule), "%.*s", (int)(dot - p), p);
		snprintf(name, sizeof(name), "%.*s", (int)(eq - dot - 1), dot + 1);
		if (!rule_known(ctx, rule)) {
			unknown_rule(ctx, rule, " in --param", err);
			bad_param = true;
			continue;
		}
		(void)kvet_ctx_set_param(ctx, rule, name, eq + 1);
	}
	if (kvet_ctx_rule_error_count(ctx) || bad_toggle || refused ||
	    bad_param) {
		print_rule_errors(ctx, err);
		if (refused && !kvet_ctx_rule_error_count(ctx))
			fprintf(err, "kvet: error: cannot load the rule files\n");
		kvet_ctx_destroy(ctx);
		return NULL;
	}
	return ctx;
}

enum kvet_exit kvet_cli_rules(const struct kvet_ctx *ctx,
			      enum kvet_format format, FILE *out, FILE *err)
{
	if (!kvet_ctx_write_rules(ctx, format, out))
		return KVET_EXIT_OK;
	if (errno != EPIPE)
		fprintf(err, "kvet: error: cannot write to standard output: %s\n",
			strerror(errno));
	return errno == EPIPE ? KVET_EXIT_OK : KVET_EXIT_USAGE;
}

enum kvet_exit kvet_cli_explain(const struct kvet_ctx *ctx, const char *id,
				FILE *out, FILE *err)
{
	if (!rule_known(ctx, id)) {
		unknown_rule(ctx, id, "", err);
		return KVET_EXIT_USAGE;
	}
	if (kvet_ctx_rule_write_markdown(ctx, id, out))
		return KVET_EXIT_USAGE;
	return KVET_EXIT_OK;
}

struct test_run {
	FILE *out;
	size_t passed, failed;
};

/* Compiler style, so an editor jumps to the example. */
static void print_example(void *user, const struct kvet_example_result *r)
{
	struct test_run *t = user;

	put_text(t->out, r->file);
	fprintf(t->out, ":%u: %s: ", r->line, r->passed ? "pass" : "FAIL");
	put_text(t->out, r->rule);
	fputs(": ", t->out);
	put_text(t->out, *r->name ? r->name
			 : r->expect_fail ? "fires" : "does not fire");
	if (r->passed) {
		fprintf(t->out, " (%zu finding%s)\n", r->findings,
			r->findings == 1 ? "" : "s");
	} else {
		fputs(": ", t->out);
		put_text(t->out, r->why);
		putc('\n', t->out);
	}
	if (r->passed)
		t->passed++;
	else
		t->failed++;
}

enum kvet_exit kvet_cli_rules_test(const struct kvet_ctx *ctx,
				   const char *dir, FILE *out, FILE *err)
{
	struct test_run t = { out, 0, 0 };
	long failed = kvet_ctx_test_rules(ctx, 0, print_example, &t);

	if (failed < 0) {
		fprintf(err, "kvet: error: %s\n", strerror(ENOMEM));
		return KVET_EXIT_USAGE;
	}
	if (!t.passed && !t.failed) {
		fputs("kvet: error: no example to run in '", err);
		put_text(err, dir);
		fputs("'\nkvet: hint: give each rule 'examples:' (docs/rule-language.md)\n",
		      err);
		return KVET_EXIT_FINDINGS;
	}
	fprintf(out, "kvet: %zu example%s: %zu passed, %zu failed\n",
		t.passed + t.failed, t.passed + t.failed == 1 ? "" : "s",
		t.passed, t.failed);
	return t.failed ? KVET_EXIT_FINDINGS : KVET_EXIT_OK;
}

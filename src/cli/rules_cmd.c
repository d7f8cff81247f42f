/* SPDX-License-Identifier: Apache-2.0 */
/* The rule commands of kvet, and loading the rules a command line names. */
#include "cli/rules_cmd.h"

#include <errno.h>
#include <string.h>

#include "cli/config_file.h"

static void print_rule_errors(const struct kvet_ctx *ctx, FILE *err)
{
	size_t i;

	for (i = 0; i < kvet_ctx_rule_error_count(ctx); i++) {
		const struct kvet_error *e = kvet_ctx_rule_error(ctx, i);

		if (e->pos.file && e->pos.line)
			fprintf(err, "%s:%u:%u: error: %s\n", e->pos.file,
				e->pos.line, e->pos.column, e->message);
		else if (e->pos.file)
			fprintf(err, "%s: error: %s\n", e->pos.file, e->message);
		else
			fprintf(err, "kvet: error: %s\n", e->message);
	}
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
	for (i = 0; i < args->n_toggles; i++) {
		if (kvet_ctx_set_rule_enabled(ctx, args->toggles[i].id,
					      args->toggles[i].on) == 0)
			continue;
		fprintf(err, "kvet: error: unknown rule '%s' in --%s\n"
			     "kvet: hint: 'kvet rules' lists the rules\n",
			args->toggles[i].id,
			args->toggles[i].on ? "enable" : "disable");
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
	bool bad_toggle = false, refused = false;
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
		(void)kvet_ctx_set_param(ctx, rule, name, eq + 1);
	}
	if (kvet_ctx_rule_error_count(ctx) || bad_toggle || refused) {
		print_rule_errors(ctx, err);
		if (refused && !kvet_ctx_rule_error_count(ctx))
			fprintf(err, "kvet: error: cannot load the rule files\n");
		kvet_ctx_destroy(ctx);
		return NULL;
	}
	return ctx;
}

static const char *const sev_names[] = { "info", "warning", "error" };

enum kvet_exit kvet_cli_rules(const struct kvet_ctx *ctx, FILE *out)
{
	size_t i, w = 2;

	for (i = 0; i < kvet_ctx_rule_count(ctx); i++)
		if (strlen(kvet_ctx_rule(ctx, i)->id) > w)
			w = strlen(kvet_ctx_rule(ctx, i)->id);
	for (i = 0; i < kvet_ctx_rule_count(ctx); i++) {
		const struct kvet_rule_info *r = kvet_ctx_rule(ctx, i);

		fprintf(out, "%-*s  %-7s  %-12s  %s\n", (int)w, r->id,
			sev_names[r->severity], r->category, r->summary);
	}
	return KVET_EXIT_OK;
}

enum kvet_exit kvet_cli_explain(const struct kvet_ctx *ctx, const char *id,
				FILE *out, FILE *err)
{
	if (!kvet_ctx_rule_find(ctx, id)) {
		fprintf(err, "kvet: error: unknown rule '%s'\n"
			     "kvet: hint: 'kvet rules' lists the rules\n", id);
		return KVET_EXIT_USAGE;
	}
	if (kvet_ctx_rule_write_markdown(ctx, id, out))
		return KVET_EXIT_USAGE;
	return KVET_EXIT_OK;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The setters of the options kvet lint, rules and explain share (inputs,
 * reports, rule selection, settings); kvet drain's own are in
 * args_drain.c. Each checks its value and stores it in struct kvet_args.
 */
#include "cli/args_setters.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* "text, json": the formats the library knows, for messages and help. */
void kvet_args_format_names(char *buf, size_t size)
{
	size_t used = 0;
	const char *name;
	unsigned int i;
	int n;

	buf[0] = '\0';
	for (i = 0; (name = kvet_format_name((enum kvet_format)i)); i++) {
		n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
			     name);
		if (n < 0 || (size_t)n >= size - used)
			break;
		used += (size_t)n;
	}
}

int kvet_arg_set_format(struct kvet_args *args, const char *val, FILE *err)
{
	struct kvet_output *out;
	const char *eq = strchr(val, '=');
	size_t len = eq ? (size_t)(eq - val) : strlen(val);
	char name[32], expected[128];
	enum kvet_format fmt;

	if (len < sizeof(name)) {
		memcpy(name, val, len);
		name[len] = '\0';
	}
	if (len >= sizeof(name) || kvet_format_from_name(name, &fmt)) {
		kvet_args_format_names(expected, sizeof(expected));
		return kvet_args_error(args, err,
				   "unknown format '%.*s' (expected %s)",
				   (int)len, val, expected);
	}
	if (eq && !eq[1])
		return kvet_args_error(args, err, "no file name after '%s'", val);
	if (args->n_outputs == KVET_MAX_OUTPUTS)
		return kvet_args_error(args, err, "more than %d --format options",
				   KVET_MAX_OUTPUTS);
	out = &args->outputs[args->n_outputs++];
	out->format = fmt;
	out->path = eq && strcmp(eq + 1, "-") ? eq + 1 : NULL;
	return 0;
}

/* kvet rules --format: the list as text or JSON, to standard output. */
int kvet_arg_set_rules_format(struct kvet_args *args, const char *val,
			    FILE *err)
{
	enum kvet_format fmt;

	if (kvet_format_from_name(val, &fmt) ||
	    (fmt != KVET_FORMAT_TEXT && fmt != KVET_FORMAT_JSON))
		return kvet_args_error(args, err,
				   "invalid value '%s' for '--format' (expected text or json)",
				   val);
	args->outputs[0].format = fmt;
	args->outputs[0].path = NULL;
	args->n_outputs = 1;
	return 0;
}

/* An RFC 1123 label, which Kubernetes requires of namespace names. */
static bool is_dns_label(const char *s)
{
	size_t i, len = strlen(s);

	if (len == 0 || len > 63 || s[0] == '-' || s[len - 1] == '-')
		return false;
	for (i = 0; i < len; i++) {
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	}
	return true;
}

int kvet_arg_set_namespace(struct kvet_args *args, const char *val, FILE *err)
{
	if (!is_dns_label(val))
		return kvet_args_error(args, err,
				   "invalid namespace '%s' (expected a DNS label: lowercase letters, digits and '-', at most 63)",
				   val);
	args->opts.default_namespace = val;
	args->namespace_given = true;
	return 0;
}

static const struct {
	const char *name;
	enum kvet_severity sev;
	bool never;
} fail_on_values[] = {
	{ "error", KVET_SEV_ERROR, false },
	{ "warning", KVET_SEV_WARNING, false },
	{ "info", KVET_SEV_INFO, false },
	{ "never", KVET_SEV_ERROR, true },
};

int kvet_arg_set_fail_on(struct kvet_args *args, const char *val, FILE *err)
{
	size_t i;

	for (i = 0; i < sizeof(fail_on_values) / sizeof(fail_on_values[0]);
	     i++) {
		if (!strcmp(val, fail_on_values[i].name)) {
			args->fail_on = fail_on_values[i].sev;
			args->fail_never = fail_on_values[i].never;
			return 0;
		}
	}
	return kvet_args_error(args, err,
			   "invalid value '%s' for '--fail-on' (expected error, warning, info or never)",
			   val);
}

static const char *const color_values[] = {
	[KVET_COLOR_AUTO] = "auto",
	[KVET_COLOR_ALWAYS] = "always",
	[KVET_COLOR_NEVER] = "never",
};

int kvet_arg_set_color(struct kvet_args *args, const char *val, FILE *err)
{
	size_t i;

	for (i = 0; i < sizeof(color_values) / sizeof(color_values[0]); i++) {
		if (!strcmp(val, color_values[i])) {
			args->color = (enum kvet_color)i;
			return 0;
		}
	}
	return kvet_args_error(args, err,
			   "invalid value '%s' for '--color' (expected auto, always or never)",
			   val);
}

/* More parallel loads than this only costs memory. */
#define KVET_MAX_JOBS 1024

int kvet_arg_set_jobs(struct kvet_args *args, const char *val, FILE *err)
{
	if (!kvet_arg_count(val, 0, KVET_MAX_JOBS, &args->opts.jobs))
		return kvet_args_error(args, err,
				   "invalid value '%s' for '--jobs' (expected 0 to %d; 0 is one per core)",
				   val, KVET_MAX_JOBS);
	return 0;
}

int kvet_arg_set_max_input_size(struct kvet_args *args, const char *val,
				FILE *err)
{
	size_t size;

	if (kvet_input_parse_size(val, &size))
		return kvet_args_error(args, err,
				   "invalid value '%s' for '--max-input-size' (expected a size in bytes from 1 to 1Ti, such as 512Mi, 4Gi or 1000000)",
				   val);
	args->opts.max_file_size = size;
	args->max_input_given = true;
	return 0;
}

int kvet_arg_set_complete_input(struct kvet_args *args, const char *val,
			      FILE *err)
{
	args->opts.flags |= KVET_CTX_COMPLETE_INPUT;
	args->complete_given = true;
	return 0;
}

int kvet_arg_set_require_objects(struct kvet_args *args, const char *val,
			       FILE *err)
{
	args->opts.flags |= KVET_CTX_REQUIRE_OBJECTS;
	args->require_given = true;
	return 0;
}

int kvet_arg_add_rules_dir(struct kvet_args *args, const char *val, FILE *err)
{
	if (args->n_rules_dirs == KVET_MAX_RULE_ARGS)
		return kvet_args_error(args, err, "more than %d --rules options",
				   KVET_MAX_RULE_ARGS);
	args->rules_dirs[args->n_rules_dirs++] = val;
	return 0;
}

int kvet_arg_add_param(struct kvet_args *args, const char *val, FILE *err)
{
	const char *dot = strchr(val, '.'), *eq = strchr(val, '=');

	if (!dot || !eq || dot > eq || dot == val || eq == dot + 1)
		return kvet_args_error(args, err,
				   "invalid --param '%s' (expected RULE.NAME=VALUE)",
				   val);
	if (args->n_params == KVET_MAX_RULE_ARGS)
		return kvet_args_error(args, err, "more than %d --param options",
				   KVET_MAX_RULE_ARGS);
	args->params[args->n_params++] = val;
	return 0;
}

static int add_toggle(struct kvet_args *args, const char *val, bool on,
		      FILE *err)
{
	if (args->n_toggles == KVET_MAX_RULE_ARGS)
		return kvet_args_error(args, err,
				   "more than %d --enable and --disable options",
				   KVET_MAX_RULE_ARGS);
	args->toggles[args->n_toggles].id = val;
	args->toggles[args->n_toggles].on = on;
	args->n_toggles++;
	return 0;
}

int kvet_arg_set_enable(struct kvet_args *args, const char *val, FILE *err)
{
	return add_toggle(args, val, true, err);
}

int kvet_arg_set_disable(struct kvet_args *args, const char *val, FILE *err)
{
	return add_toggle(args, val, false, err);
}

int kvet_arg_set_config(struct kvet_args *args, const char *val, FILE *err)
{
	args->config = val;
	return 0;
}

int kvet_arg_set_no_config(struct kvet_args *args, const char *val, FILE *err)
{
	args->no_config = true;
	return 0;
}

int kvet_arg_set_baseline(struct kvet_args *args, const char *val, FILE *err)
{
	args->baseline = val;
	return 0;
}

int kvet_arg_set_write_baseline(struct kvet_args *args, const char *val,
			      FILE *err)
{
	args->write_baseline = val;
	return 0;
}

int kvet_arg_set_chart_dir(struct kvet_args *args, const char *val, FILE *err)
{
	struct stat st;

	if (stat(val, &st) || !S_ISDIR(st.st_mode))
		return kvet_args_error(args, err,
				   "invalid --chart-dir '%s' (not a directory)",
				   val);
	args->chart_dir = val;
	return 0;
}

int kvet_arg_set_docs_url(struct kvet_args *args, const char *val, FILE *err)
{
	if (strncmp(val, "https://", 8) && strncmp(val, "http://", 7))
		return kvet_args_error(args, err,
				   "invalid --docs-url '%s' (expected an http:// or https:// URL)",
				   val);
	args->docs_url = val;
	return 0;
}

int kvet_arg_set_no_builtin(struct kvet_args *args, const char *val, FILE *err)
{
	args->opts.flags |= KVET_CTX_NO_BUILTIN_RULES;
	return 0;
}

int kvet_arg_set_quiet(struct kvet_args *args, const char *val, FILE *err)
{
	args->quiet = true;
	return 0;
}

int kvet_arg_set_verbose(struct kvet_args *args, const char *val, FILE *err)
{
	args->verbose = true;
	return 0;
}

int kvet_arg_set_show_suppressed(struct kvet_args *args, const char *val,
			       FILE *err)
{
	args->show_suppressed = true;
	return 0;
}

int kvet_arg_set_help(struct kvet_args *args, const char *val, FILE *err)
{
	args->help = true;
	return 0;
}

/* helm template's options, in its own spelling, passed on to every chart
 * rendered (docs/helm.md). */
KVET_ARG_SETTER(add_values)
{
	if (args->chart.n_values == KVET_MAX_RULE_ARGS)
		return kvet_args_error(args, err, "more than %d values files",
				       KVET_MAX_RULE_ARGS);
	args->chart_values[args->chart.n_values++] = val;
	args->chart.values = args->chart_values;
	return 0;
}

static int add_set(struct kvet_args *args, const char *flag, const char *val,
		   FILE *err)
{
	if (!strchr(val, '='))
		return kvet_args_error(args, err,
				       "invalid value '%s' for '%s' (expected KEY=VALUE)",
				       val, flag);
	if (args->chart.n_sets == KVET_MAX_RULE_ARGS)
		return kvet_args_error(args, err, "more than %d --set options",
				       KVET_MAX_RULE_ARGS);
	args->chart_sets[args->chart.n_sets].flag = flag;
	args->chart_sets[args->chart.n_sets++].value = val;
	args->chart.sets = args->chart_sets;
	return 0;
}

KVET_ARG_SETTER(add_set)
{
	return add_set(args, "--set", val, err);
}

KVET_ARG_SETTER(add_set_string)
{
	return add_set(args, "--set-string", val, err);
}

KVET_ARG_SETTER(add_set_file)
{
	return add_set(args, "--set-file", val, err);
}

KVET_ARG_SETTER(set_release_name)
{
	(void)err;
	args->chart.release_name = val;
	return 0;
}

KVET_ARG_SETTER(set_kube_version)
{
	(void)err;
	args->chart.kube_version = val;
	return 0;
}

KVET_ARG_SETTER(add_api_versions)
{
	if (args->chart.n_api_versions == KVET_MAX_RULE_ARGS)
		return kvet_args_error(args, err,
				       "more than %d --api-versions options",
				       KVET_MAX_RULE_ARGS);
	args->chart_api[args->chart.n_api_versions++] = val;
	args->chart.api_versions = args->chart_api;
	return 0;
}

KVET_ARG_SETTER(set_helm)
{
	(void)err;
	args->chart.helm = val;
	return 0;
}

KVET_ARG_SETTER(set_kustomize)
{
	(void)err;
	args->chart.kustomize = val;
	return 0;
}

KVET_ARG_SETTER(set_no_values_matrix)
{
	(void)val;
	(void)err;
	args->chart.no_matrix = true;
	return 0;
}

KVET_ARG_SETTER(set_no_default_values)
{
	(void)val;
	(void)err;
	args->chart.no_defaults = true;
	return 0;
}

KVET_ARG_SETTER(set_lint_owners)
{
	(void)val;
	(void)err;
	args->chart.owners = true;
	return 0;
}

KVET_ARG_SETTER(set_changed)
{
	(void)val;
	(void)err;
	args->changed = true;
	return 0;
}

/* --cluster and what is passed on to the kubectl it runs (cli/cluster.c) */
int kvet_arg_set_cluster(struct kvet_args *args, const char *val, FILE *err)
{
	args->cluster = true;
	return 0;
}

int kvet_arg_set_kube_context(struct kvet_args *args, const char *val,
			      FILE *err)
{
	args->kube_context = val;
	return 0;
}

int kvet_arg_set_kubeconfig(struct kvet_args *args, const char *val,
			    FILE *err)
{
	args->kubeconfig = val;
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * A small table-driven parser: each command and each option is one row,
 * and the help text is generated from the same rows, so that the parser
 * and the documentation cannot disagree. Options and operands may be
 * mixed; "--" ends the options. Both "--opt VALUE" and "--opt=VALUE" are
 * accepted, and "-j N" or "-jN" for short options.
 */

#define CMD_BIT(cmd) (1u << (cmd))
#define RULE_COMMANDS (CMD_BIT(KVET_CMD_LINT) | CMD_BIT(KVET_CMD_RULES) | \
		       CMD_BIT(KVET_CMD_EXPLAIN))
/* what kvet lint and kvet drain share: inputs, reports, settings */
#define RUN_COMMANDS (CMD_BIT(KVET_CMD_LINT) | CMD_BIT(KVET_CMD_DRAIN))
#define SETTING_COMMANDS (RULE_COMMANDS | CMD_BIT(KVET_CMD_DRAIN))
#define DRAIN CMD_BIT(KVET_CMD_DRAIN)
#define ALL_COMMANDS (CMD_BIT(KVET_CMD_LINT) | CMD_BIT(KVET_CMD_RULES) | \
		      CMD_BIT(KVET_CMD_EXPLAIN) | CMD_BIT(KVET_CMD_VERSION) | \
		      CMD_BIT(KVET_CMD_HELP) | CMD_BIT(KVET_CMD_CONFIG) | DRAIN)

static const struct command_spec {
	const char *name;
	const char *operands;
	size_t min_operands, max_operands;
	const char *summary;
} commands[] = {
	[KVET_CMD_LINT] = { "lint", "[OPTIONS] [PATH...]", 0, SIZE_MAX,
			    "lint Kubernetes manifests" },
	[KVET_CMD_RULES] = {
		"rules", "[test DIR]", 0, 2,
		"list the rules, or test rule files: 'kvet rules test DIR'" },
	[KVET_CMD_EXPLAIN] = { "explain", "RULE-ID", 1, 1,
			       "show the full documentation of a rule" },
	[KVET_CMD_VERSION] = { "version", "", 0, 0, "print the version" },
	[KVET_CMD_HELP] = { "help", "[COMMAND]", 0, 1,
			    "show the help of a command" },
	[KVET_CMD_CONFIG] = { "config", "init [FILE]", 1, 2,
			      "write a commented default configuration file (.kvet.yaml)" },
	[KVET_CMD_DRAIN] = { "drain", "[OPTIONS] [PATH...]", 0, SIZE_MAX,
			     "simulate node drains and rolling node-pool upgrades on a cluster dump" },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* Prefix of every usage error, then a hint pointing at the right help. */
__attribute__((format(printf, 3, 4)))
static int usage_error(const struct kvet_args *args, FILE *err,
		       const char *fmt, ...)
{
	va_list ap;

	fputs("kvet: error: ", err);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	if (args->command == KVET_CMD_HELP)
		fputs("\nkvet: hint: see 'kvet --help'\n", err);
	else
		fprintf(err, "\nkvet: hint: see 'kvet %s --help'\n",
			commands[args->command].name);
	return -1;
}

/* "text, json": the formats the library knows, for messages and help. */
static void format_names(char *buf, size_t size)
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

static int set_format(struct kvet_args *args, const char *val, FILE *err)
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
		format_names(expected, sizeof(expected));
		return usage_error(args, err,
				   "unknown format '%.*s' (expected %s)",
				   (int)len, val, expected);
	}
	if (eq && !eq[1])
		return usage_error(args, err, "no file name after '%s'", val);
	if (args->n_outputs == KVET_MAX_OUTPUTS)
		return usage_error(args, err, "more than %d --format options",
				   KVET_MAX_OUTPUTS);
	out = &args->outputs[args->n_outputs++];
	out->format = fmt;
	out->path = eq && strcmp(eq + 1, "-") ? eq + 1 : NULL;
	return 0;
}

/* kvet rules --format: the list as text or JSON, to standard output. */
static int set_rules_format(struct kvet_args *args, const char *val,
			    FILE *err)
{
	enum kvet_format fmt;

	if (kvet_format_from_name(val, &fmt) ||
	    (fmt != KVET_FORMAT_TEXT && fmt != KVET_FORMAT_JSON))
		return usage_error(args, err,
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

static int set_namespace(struct kvet_args *args, const char *val, FILE *err)
{
	if (!is_dns_label(val))
		return usage_error(args, err,
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

static int set_fail_on(struct kvet_args *args, const char *val, FILE *err)
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
	return usage_error(args, err,
			   "invalid value '%s' for '--fail-on' (expected error, warning, info or never)",
			   val);
}

static const char *const color_values[] = {
	[KVET_COLOR_AUTO] = "auto",
	[KVET_COLOR_ALWAYS] = "always",
	[KVET_COLOR_NEVER] = "never",
};

static int set_color(struct kvet_args *args, const char *val, FILE *err)
{
	size_t i;

	for (i = 0; i < sizeof(color_values) / sizeof(color_values[0]); i++) {
		if (!strcmp(val, color_values[i])) {
			args->color = (enum kvet_color)i;
			return 0;
		}
	}
	return usage_error(args, err,
			   "invalid value '%s' for '--color' (expected auto, always or never)",
			   val);
}

/* More parallel loads than this only costs memory. */
#define KVET_MAX_JOBS 1024

static int set_jobs(struct kvet_args *args, const char *val, FILE *err)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(val, &end, 10);
	if (val[0] < '0' || val[0] > '9' || *end || errno || n > KVET_MAX_JOBS)
		return usage_error(args, err,
				   "invalid value '%s' for '--jobs' (expected 0 to %d; 0 is one per core)",
				   val, KVET_MAX_JOBS);
	args->opts.jobs = (unsigned int)n;
	return 0;
}

static int set_complete_input(struct kvet_args *args, const char *val,
			      FILE *err)
{
	args->opts.flags |= KVET_CTX_COMPLETE_INPUT;
	args->complete_given = true;
	return 0;
}

static int set_require_objects(struct kvet_args *args, const char *val,
			       FILE *err)
{
	args->opts.flags |= KVET_CTX_REQUIRE_OBJECTS;
	args->require_given = true;
	return 0;
}

static int add_rules_dir(struct kvet_args *args, const char *val, FILE *err)
{
	if (args->n_rules_dirs == KVET_MAX_RULE_ARGS)
		return usage_error(args, err, "more than %d --rules options",
				   KVET_MAX_RULE_ARGS);
	args->rules_dirs[args->n_rules_dirs++] = val;
	return 0;
}

static int add_param(struct kvet_args *args, const char *val, FILE *err)
{
	const char *dot = strchr(val, '.'), *eq = strchr(val, '=');

	if (!dot || !eq || dot > eq || dot == val || eq == dot + 1)
		return usage_error(args, err,
				   "invalid --param '%s' (expected RULE.NAME=VALUE)",
				   val);
	if (args->n_params == KVET_MAX_RULE_ARGS)
		return usage_error(args, err, "more than %d --param options",
				   KVET_MAX_RULE_ARGS);
	args->params[args->n_params++] = val;
	return 0;
}

static int add_toggle(struct kvet_args *args, const char *val, bool on,
		      FILE *err)
{
	if (args->n_toggles == KVET_MAX_RULE_ARGS)
		return usage_error(args, err,
				   "more than %d --enable and --disable options",
				   KVET_MAX_RULE_ARGS);
	args->toggles[args->n_toggles].id = val;
	args->toggles[args->n_toggles].on = on;
	args->n_toggles++;
	return 0;
}

static int set_enable(struct kvet_args *args, const char *val, FILE *err)
{
	return add_toggle(args, val, true, err);
}

static int set_disable(struct kvet_args *args, const char *val, FILE *err)
{
	return add_toggle(args, val, false, err);
}

static int set_config(struct kvet_args *args, const char *val, FILE *err)
{
	args->config = val;
	return 0;
}

static int set_no_config(struct kvet_args *args, const char *val, FILE *err)
{
	args->no_config = true;
	return 0;
}

static int set_baseline(struct kvet_args *args, const char *val, FILE *err)
{
	args->baseline = val;
	return 0;
}

static int set_write_baseline(struct kvet_args *args, const char *val,
			      FILE *err)
{
	args->write_baseline = val;
	return 0;
}

static int set_docs_url(struct kvet_args *args, const char *val, FILE *err)
{
	if (strncmp(val, "https://", 8) && strncmp(val, "http://", 7))
		return usage_error(args, err,
				   "invalid --docs-url '%s' (expected an http:// or https:// URL)",
				   val);
	args->docs_url = val;
	return 0;
}

static int set_no_builtin(struct kvet_args *args, const char *val, FILE *err)
{
	args->opts.flags |= KVET_CTX_NO_BUILTIN_RULES;
	return 0;
}

static int set_quiet(struct kvet_args *args, const char *val, FILE *err)
{
	args->quiet = true;
	return 0;
}

static int set_verbose(struct kvet_args *args, const char *val, FILE *err)
{
	args->verbose = true;
	return 0;
}

static int set_show_suppressed(struct kvet_args *args, const char *val,
			       FILE *err)
{
	args->show_suppressed = true;
	return 0;
}

static int set_help(struct kvet_args *args, const char *val, FILE *err)
{
	args->help = true;
	return 0;
}

static int set_rolling(struct kvet_args *args, const char *val, FILE *err)
{
	args->drain.plan = KVET_DRAIN_ROLLING;
	return 0;
}

/* A count from @min to 10,000 nodes. */
static int read_count(struct kvet_args *args, const char *opt,
		      const char *val, unsigned int min, unsigned int *out,
		      FILE *err)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(val, &end, 10);
	if (val[0] < '0' || val[0] > '9' || *end || errno || n < min ||
	    n > 10000)
		return usage_error(args, err,
				   "invalid value '%s' for '--%s' (expected %u to 10000)",
				   val, opt, min);
	*out = (unsigned int)n;
	return 0;
}

static int set_max_unavailable(struct kvet_args *args, const char *val,
			       FILE *err)
{
	return read_count(args, "max-unavailable", val, 1,
			  &args->drain.max_unavailable, err);
}

static int set_surge(struct kvet_args *args, const char *val, FILE *err)
{
	return read_count(args, "surge", val, 0, &args->drain.surge, err);
}

static int set_order(struct kvet_args *args, const char *val, FILE *err)
{
	static const char *const names[] = {
		[KVET_DRAIN_ORDER_ZONE] = "zone",
		[KVET_DRAIN_ORDER_NAME] = "name",
		[KVET_DRAIN_ORDER_GIVEN] = "given",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(val, names[i])) {
			args->drain.order = (enum kvet_drain_order)i;
			return 0;
		}
	return usage_error(args, err,
			   "invalid value '%s' for '--order' (expected zone, name or given)",
			   val);
}

static int set_nodes(struct kvet_args *args, const char *val, FILE *err)
{
	args->drain.nodes = val;
	return 0;
}

/* kubectl's boolean flags: --flag, --flag=true, --flag=false. */
static int drain_switch(struct kvet_args *args, const char *opt,
			const char *val, unsigned int flag, bool flag_means,
			FILE *err)
{
	bool on;

	if (!val || !strcmp(val, "true"))
		on = true;
	else if (!strcmp(val, "false"))
		on = false;
	else
		return usage_error(args, err,
				   "invalid value '%s' for '--%s' (expected true or false)",
				   val, opt);
	if (on == flag_means)
		args->drain.flags |= flag;
	else
		args->drain.flags &= ~flag;
	return 0;
}

static int set_force(struct kvet_args *args, const char *val, FILE *err)
{
	return drain_switch(args, "force", val, KVET_DRAIN_FORCE, true, err);
}

static int set_delete_emptydir(struct kvet_args *args, const char *val,
			       FILE *err)
{
	return drain_switch(args, "delete-emptydir-data", val,
			    KVET_DRAIN_KEEP_EMPTYDIR, false, err);
}

static int set_ignore_daemonsets(struct kvet_args *args, const char *val,
				 FILE *err)
{
	return drain_switch(args, "ignore-daemonsets", val,
			    KVET_DRAIN_NO_IGNORE_DAEMONSETS, false, err);
}

static const struct option_spec {
	const char *name;		/* the long name, without "--" */
	char short_name;		/* 0: none */
	const char *arg;		/* the value's name; NULL: no value */
	bool optional;			/* "--opt" or "--opt=VALUE" only */
	unsigned int commands;		/* CMD_BIT()s of the commands */
	int (*apply)(struct kvet_args *args, const char *val, FILE *err);
	const char *help;
} options[] = {
	{ "format", 0, "FMT[=FILE]", false, RUN_COMMANDS, set_format,
	  "report format (see below); repeatable; =FILE writes that report to FILE instead of standard output (default: text)" },
	{ "format", 0, "FMT", false, CMD_BIT(KVET_CMD_RULES), set_rules_format,
	  "text (default) or json" },
	{ "namespace", 0, "NS", false, RUN_COMMANDS, set_namespace,
	  "namespace of namespaced objects that name none (default: default)" },
	{ "fail-on", 0, "SEVERITY", false, RUN_COMMANDS, set_fail_on,
	  "exit 1 on findings of this severity or above: error, warning, info or never (default: warning)" },
	{ "complete-input", 0, NULL, false, CMD_BIT(KVET_CMD_LINT),
	  set_complete_input,
	  "the input is the whole cluster: report references to objects it does not contain" },
	{ "require-objects", 0, NULL, false, RUN_COMMANDS,
	  set_require_objects,
	  "exit 2 when no input holds a Kubernetes object (an empty render) or a directory named holds no file to lint" },
	{ "rules", 0, "DIR", false, RULE_COMMANDS, add_rules_dir,
	  "also load the rule files (*.yaml, *.yml) in DIR; repeatable" },
	{ "param", 0, "RULE.NAME=VALUE", false, RULE_COMMANDS, add_param,
	  "override parameter NAME of rule RULE; repeatable" },
	{ "no-builtin-rules", 0, NULL, false, RULE_COMMANDS, set_no_builtin,
	  "leave out the built-in rules: only --rules run" },
	{ "enable", 0, "ID", false, SETTING_COMMANDS, set_enable,
	  "run rule ID even if the configuration disables it; repeatable" },
	{ "disable", 0, "ID", false, SETTING_COMMANDS, set_disable,
	  "do not run rule ID ('*': every rule, then --enable some); repeatable" },
	{ "config", 0, "FILE", false, SETTING_COMMANDS, set_config,
	  "read the configuration from FILE (default: the nearest .kvet.yaml from the working directory upward)" },
	{ "no-config", 0, NULL, false, SETTING_COMMANDS, set_no_config,
	  "read no configuration file" },
	{ "docs-url", 0, "BASE", false, SETTING_COMMANDS, set_docs_url,
	  "link reports to BASE/ID.md, a copy of kvet's docs/rules/ (default: each rule's first reference)" },
	{ "baseline", 0, "FILE", false, RUN_COMMANDS, set_baseline,
	  "report the findings recorded in FILE as suppressed, and list its entries that no longer match" },
	{ "write-baseline", 0, "FILE", false, RUN_COMMANDS,
	  set_write_baseline,
	  "record the current findings in FILE (written atomically) and exit 0 unless an input failed" },
	{ "jobs", 'j', "N", false, RUN_COMMANDS, set_jobs,
	  "load up to N files in parallel (default: 0, one per core)" },
	{ "color", 0, "WHEN", false, RUN_COMMANDS, set_color,
	  "colour the text report: auto, always or never (default: auto, on a terminal unless NO_COLOR is set)" },
	{ "quiet", 'q', NULL, false, RUN_COMMANDS, set_quiet,
	  "text report: only the first line of each error and finding (the headline), and no summary line" },
	{ "verbose", 'v', NULL, false, RUN_COMMANDS, set_verbose,
	  "list in the text report each document skipped as not a Kubernetes object" },
	{ "rolling", 0, NULL, false, DRAIN, set_rolling,
	  "simulate a rolling upgrade of the nodes, one step after another, instead of each node alone from the dump's state" },
	{ "max-unavailable", 0, "K", false, DRAIN, set_max_unavailable,
	  "--rolling: drain K nodes at a time (default: 1)" },
	{ "surge", 0, "S", false, DRAIN, set_surge,
	  "--rolling: add S empty nodes shaped like the first node to drain, and replace each drained node by a new one, as managed node groups do (default: 0, drained nodes come back empty)" },
	{ "order", 0, "ORDER", false, DRAIN, set_order,
	  "--rolling: the order of the nodes: zone (by zone label, then name), name, or given (as --nodes names them) (default: zone)" },
	{ "nodes", 0, "SELECTOR|NAMES", false, DRAIN, set_nodes,
	  "drain only these nodes: a label selector in kubectl's notation (pool=blue,zone in (a,b)) or node names separated by commas (default: every node)" },
	{ "force", 0, NULL, true, DRAIN, set_force,
	  "like kubectl drain --force: delete pods that declare no controller (default: false)" },
	{ "delete-emptydir-data", 0, NULL, true, DRAIN, set_delete_emptydir,
	  "like kubectl drain: delete pods with emptyDir volumes; =false refuses them (default: true, as managed upgrades drain)" },
	{ "ignore-daemonsets", 0, NULL, true, DRAIN, set_ignore_daemonsets,
	  "like kubectl drain: leave DaemonSet pods; =false refuses them (default: true)" },
	{ "show-suppressed", 0, NULL, false, RUN_COMMANDS,
	  set_show_suppressed,
	  "list in the text report each suppressed finding, with what suppressed it" },
	{ "help", 'h', NULL, false, ALL_COMMANDS, set_help, "show this help" },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

/* The row of option --NAME for @command: one name may have a row per
 * command (--format). */
static const struct option_spec *find_long(const char *name, size_t len,
					   enum kvet_command command)
{
	size_t i;

	for (i = 0; i < N_OPTIONS; i++) {
		if (strlen(options[i].name) == len &&
		    !memcmp(options[i].name, name, len) &&
		    (options[i].commands & CMD_BIT(command)))
			return &options[i];
	}
	return NULL;
}

static const struct option_spec *find_short(char c, enum kvet_command command)
{
	size_t i;

	for (i = 0; i < N_OPTIONS; i++) {
		if (options[i].short_name && options[i].short_name == c &&
		    (options[i].commands & CMD_BIT(command)))
			return &options[i];
	}
	return NULL;
}

static int find_command(const char *name, enum kvet_command *out)
{
	size_t i;

	for (i = 0; i < N_COMMANDS; i++) {
		if (!strcmp(commands[i].name, name)) {
			*out = (enum kvet_command)i;
			return 0;
		}
	}
	return -1;
}

/* The command closest to a misspelt @name, or NULL. */
static const char *near_command(const char *name)
{
	const char *names[N_COMMANDS];
	size_t i;

	for (i = 0; i < N_COMMANDS; i++)
		names[i] = commands[i].name;
	return kvet_suggest(name, names, N_COMMANDS);
}

/* The long option of @command closest to a misspelt one (no dashes). */
static const char *near_option(const char *name, size_t len,
			       enum kvet_command command)
{
	const char *names[N_OPTIONS];
	char word[64];
	size_t i, n = 0;

	if (len >= sizeof(word))
		return NULL;
	memcpy(word, name, len);
	word[len] = '\0';
	for (i = 0; i < N_OPTIONS; i++)
		if (options[i].commands & CMD_BIT(command))
			names[n++] = options[i].name;
	return kvet_suggest(word, names, n);
}

/* "unknown option", and the closest one git style; always -1. */
static int unknown_option(const struct kvet_args *args, FILE *err,
			  const char *shown, int shown_len, const char *near)
{
	if (!near)
		return usage_error(args, err, "unknown option '%.*s'",
				   shown_len, shown);
	fprintf(err, "kvet: error: unknown option '%.*s'\n"
		     "kvet: hint: did you mean '--%s'?\n",
		shown_len, shown, near);
	return -1;
}

/*
 * Parse the option at argv[*i], taking its value from the next argument
 * when it is not attached, and advance *i past what was used.
 */
static int parse_option(struct kvet_args *args, int argc, char **argv,
			int *i, FILE *err)
{
	const struct option_spec *opt;
	const char *arg = argv[*i], *val = NULL, *eq;
	char shown[3] = "-?";
	size_t len;

	if (arg[1] == '-') {
		eq = strchr(arg + 2, '=');
		len = eq ? (size_t)(eq - arg) : strlen(arg);
		opt = find_long(arg + 2, len - 2, args->command);
		if (!opt)
			return unknown_option(args, err, arg, (int)len,
					      near_option(arg + 2, len - 2,
							  args->command));
		if (eq && !opt->arg && !opt->optional)
			return usage_error(args, err,
					   "option '--%s' takes no value",
					   opt->name);
		if (eq)
			val = eq + 1;
		if (opt->optional) {
			(*i)++;
			return opt->apply(args, val, err);
		}
	} else {
		shown[1] = arg[1];
		opt = find_short(arg[1], args->command);
		if (!opt)
			return usage_error(args, err, "unknown option '%s'",
					   shown);
		/* No bundling: "-qj4" is not "-q -j4". */
		if (arg[2] && !opt->arg)
			return usage_error(args, err, "unknown option '%s'",
					   arg);
		if (arg[2])
			val = arg + 2;
	}
	if (opt->arg && !val) {
		if (*i + 1 >= argc)
			return usage_error(args, err,
					   "option '--%s' needs a value (%s)",
					   opt->name, opt->arg);
		val = argv[++*i];
	}
	(*i)++;
	return opt->apply(args, val, err);
}

/* "unknown command", and the closest one git style; always -1. */
static int unknown_command(const struct kvet_args *args, FILE *err,
			   const char *name)
{
	const char *near = near_command(name);

	if (!near)
		return usage_error(args, err, "unknown command '%s'", name);
	fprintf(err, "kvet: error: unknown command '%s'\n"
		     "kvet: hint: did you mean '%s'?\n", name, near);
	return -1;
}

/* "kvet rules test DIR": the one subcommand of rules. */
static int check_rules_test(struct kvet_args *args, FILE *err)
{
	static const char *const subcommands[] = { "test" };
	const char *near;

	if (strcmp(args->operands[0], "test")) {
		near = kvet_suggest(args->operands[0], subcommands, 1);
		if (near) {
			fprintf(err, "kvet: error: unknown rules command '%s'\n"
				     "kvet: hint: did you mean 'kvet rules %s'?\n",
				args->operands[0], near);
			return -1;
		}
		return usage_error(args, err,
				   "unknown rules command '%s' (expected 'kvet rules' or 'kvet rules test DIR')",
				   args->operands[0]);
	}
	if (args->n_operands < 2)
		return usage_error(args, err,
				   "'kvet rules test' needs DIR, a folder of rule files");
	args->rules_test = args->operands[1];
	return 0;
}

static int check_operands(struct kvet_args *args, FILE *err)
{
	const struct command_spec *cmd = &commands[args->command];
	enum kvet_command target;

	if (args->help)
		return 0;
	if (args->n_operands < cmd->min_operands)
		return usage_error(args, err, "'kvet %s' needs %s",
				   cmd->name, cmd->operands);
	if (args->n_operands > cmd->max_operands)
		return usage_error(args, err,
				   "too many arguments for 'kvet %s' (usage: kvet %s%s%s)",
				   cmd->name, cmd->name,
				   *cmd->operands ? " " : "", cmd->operands);
	if (args->command == KVET_CMD_RULES && args->n_operands)
		return check_rules_test(args, err);
	/* "kvet help CMD" is "kvet CMD --help". */
	if (args->command == KVET_CMD_HELP && args->n_operands) {
		if (find_command(args->operands[0], &target))
			return unknown_command(args, err, args->operands[0]);
		args->command = target;
		args->help = true;
		args->n_operands = 0;
	}
	return 0;
}

int kvet_args_parse(struct kvet_args *args, int argc, char **argv, FILE *err)
{
	bool options_done = false;
	const char *first;
	int i;

	memset(args, 0, sizeof(*args));
	args->command = KVET_CMD_HELP;
	args->fail_on = KVET_SEV_WARNING;
	args->color = KVET_COLOR_AUTO;

	if (argc < 2) {
		kvet_args_usage(KVET_CMD_HELP, err);
		return -1;
	}
	first = argv[1];
	if (!strcmp(first, "--version")) {
		args->command = KVET_CMD_VERSION;
	} else if (!strcmp(first, "--help") || !strcmp(first, "-h")) {
		args->command = KVET_CMD_HELP;
	} else if (find_command(first, &args->command)) {
		if (first[0] == '-')
			return usage_error(args, err, "unknown option '%s'",
					   first);
		return unknown_command(args, err, first);
	}

	/* Operands are a subset of argv, kept in order, in argv's place. */
	args->operands = argv + 2;
	for (i = 2; i < argc;) {
		if (!options_done && !strcmp(argv[i], "--")) {
			options_done = true;
			i++;
		} else if (!options_done && argv[i][0] == '-' && argv[i][1]) {
			if (parse_option(args, argc, argv, &i, err))
				return -1;
		} else {
			args->operands[args->n_operands++] = argv[i++];
		}
	}
	if (args->command == KVET_CMD_DRAIN)
		args->opts.flags |= KVET_CTX_DRAIN;
	return check_operands(args, err);
}

/* Help columns: options start at 2, their help at HELP_COL, wrap at 79. */
#define HELP_COL 24
#define HELP_WIDTH 79

/* Write @text from column @col, wrapping at spaces to HELP_WIDTH. */
static void write_wrapped(FILE *fp, const char *text, int col)
{
	const char *word = text, *end;
	int len, pos = col;

	while (*word) {
		end = strchr(word, ' ');
		len = end ? (int)(end - word) : (int)strlen(word);
		if (pos > col && pos + 1 + len > HELP_WIDTH) {
			fprintf(fp, "\n%*s", col, "");
			pos = col;
		} else if (pos > col) {
			putc(' ', fp);
			pos++;
		}
		fwrite(word, 1, (size_t)len, fp);
		pos += len;
		word += len;
		while (*word == ' ')
			word++;
	}
	putc('\n', fp);
}

static void write_option(FILE *fp, const struct option_spec *opt)
{
	int n;

	if (opt->short_name)
		n = fprintf(fp, "  -%c, --%s", opt->short_name, opt->name);
	else
		n = fprintf(fp, "      --%s", opt->name);
	if (opt->arg)
		n += fprintf(fp, " %s", opt->arg);
	if (opt->optional)
		n += fprintf(fp, "[=BOOL]");
	if (n >= HELP_COL - 1) {
		fprintf(fp, "\n%*s", HELP_COL, "");
	} else {
		fprintf(fp, "%*s", HELP_COL - n, "");
	}
	write_wrapped(fp, opt->help, HELP_COL);
}

static void usage_overview(FILE *fp)
{
	size_t i;

	fputs("usage: kvet COMMAND [ARGS]\n\n"
	      "A static linter for Kubernetes manifests.\n\n"
	      "commands:\n", fp);
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(fp, "  %-10s%s\n", commands[i].name,
			commands[i].summary);
	fputs("\nRun 'kvet help COMMAND' or 'kvet COMMAND --help' for the options of a\n"
	      "command; 'kvet --version' prints the version.\n", fp);
}

void kvet_args_usage(enum kvet_command command, FILE *fp)
{
	const struct command_spec *cmd;
	char formats[128];
	size_t i;

	if (command == KVET_CMD_HELP || (unsigned int)command >= N_COMMANDS) {
		usage_overview(fp);
		return;
	}
	cmd = &commands[command];
	fprintf(fp, "usage: kvet %s%s%s\n\n", cmd->name,
		*cmd->operands ? " " : "", cmd->operands);
	write_wrapped(fp, cmd->summary, 0);
	if (command == KVET_CMD_DRAIN) {
		putc('\n', fp);
		write_wrapped(fp, "PATH is a cluster dump with its Nodes and Pods (kubectl get nodes,pods,pdb,deploy,sts,ds,rs,job,svc,pv,pvc,validatingwebhookconfigurations,mutatingwebhookconfigurations -A -o yaml), read as kvet lint reads its inputs. Each node alone, or every node in a rolling upgrade, is drained as kubectl drain would: evictions refused by PodDisruptionBudgets, replacements placed by the kube-scheduler's filters, fail-closed webhooks, Services and StatefulSets that lose their pods. Every finding names the node it comes from; the report gives each node's verdict (drains, drains with warnings, blocked) and, for --rolling, the steps and the chain of causes where the roll stalls. See docs/drain.md.", 0);
	}
	if (command == KVET_CMD_LINT) {
		putc('\n', fp);
		write_wrapped(fp, "PATH is a file, a directory (searched recursively for *.yaml, *.yml and *.json files; Helm chart sources and kustomize directories are left out with a note saying how to render them) or - for standard input. With no PATH, kvet reads standard input when it is a pipe or file that yields data, and the current directory otherwise (a terminal, a closed pipe, /dev/null).", 0);
	}
	fputs("\noptions:\n", fp);
	for (i = 0; i < N_OPTIONS; i++) {
		if (options[i].commands & CMD_BIT(command))
			write_option(fp, &options[i]);
	}
	if (command != KVET_CMD_LINT && command != KVET_CMD_DRAIN)
		return;
	format_names(formats, sizeof(formats));
	fprintf(fp, "\nformats: %s\n", formats);
	if (command == KVET_CMD_DRAIN) {
		fputs("\nexit status:\n"
		      "  0  no finding at or above --fail-on\n"
		      "  1  findings at or above --fail-on: a node is blocked or the roll stalls (errors)\n"
		      "  2  some input could not be read, or the dump lacks Nodes or Pods\n"
		      "  3  usage or configuration error, or a report could not be written\n", fp);
		return;
	}
	fputs("\nexit status:\n"
	      "  0  no finding at or above --fail-on\n"
	      "  1  findings at or above --fail-on\n"
	      "  2  some input could not be read or parsed; the rest was linted\n"
	      "  3  usage, rule-file or --param error, or a report could not be written\n", fp);
}

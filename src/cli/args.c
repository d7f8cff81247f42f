/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/args.h"
#include "cli/args_setters.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
			     "simulate node drains and rolling node-pool upgrades" },
};

#define N_COMMANDS (sizeof(commands) / sizeof(commands[0]))

/* Prefix of every usage error, then a hint pointing at the right help. */
int kvet_args_error(const struct kvet_args *args, FILE *err,
		    const char *fmt, ...)
{
	va_list ap;

	fputs("kvet: error: ", err);
	va_start(ap, fmt);
	vfprintf(err, fmt, ap);
	va_end(ap);
	if (args->command == KVET_CMD_HELP)
		fprintf(err, "\nkvet: hint: see '%s --help'\n", args->prog);
	else
		fprintf(err, "\nkvet: hint: see '%s %s --help'\n", args->prog,
			commands[args->command].name);
	return -1;
}

bool kvet_arg_count(const char *val, unsigned long min, unsigned long max,
		    unsigned int *out)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(val, &end, 10);
	if (val[0] < '0' || val[0] > '9' || *end || errno || n < min ||
	    n > max)
		return false;
	*out = (unsigned int)n;
	return true;
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
	{ "format", 0, "FMT[=FILE]", false, RUN_COMMANDS, kvet_arg_set_format,
	  "report format (see below); repeatable; =FILE writes that report to FILE instead of standard output (default: text)" },
	{ "format", 0, "FMT", false, CMD_BIT(KVET_CMD_RULES), kvet_arg_set_rules_format,
	  "text (default) or json" },
	{ "namespace", 'n', "NS", false, RUN_COMMANDS, kvet_arg_set_namespace,
	  "namespace of namespaced objects that name none (default: default); with --cluster, the one namespace to read" },
	{ "chart-dir", 0, "DIR", false, CMD_BIT(KVET_CMD_LINT),
	  kvet_arg_set_chart_dir,
	  "the chart that rendered a piped render: findings of its '# Source:' objects go to its template lines (default: CHART/, ./ or charts/CHART/ of the working directory)" },
	{ "values", 'f', "FILE", false, RUN_COMMANDS, kvet_arg_add_values,
	  "charts: a values file for helm template, repeatable, in order; replaces the ci/ values matrix" },
	{ "set", 0, "KEY=VALUE", false, RUN_COMMANDS, kvet_arg_add_set,
	  "charts: helm template --set; repeatable" },
	{ "set-string", 0, "KEY=VALUE", false, RUN_COMMANDS,
	  kvet_arg_add_set_string, "charts: helm template --set-string; repeatable" },
	{ "set-file", 0, "KEY=PATH", false, RUN_COMMANDS, kvet_arg_add_set_file,
	  "charts: helm template --set-file; repeatable" },
	{ "release-name", 0, "NAME", false, RUN_COMMANDS,
	  kvet_arg_set_release_name,
	  "charts: the release name (default: release-name, as helm template)" },
	{ "kube-version", 0, "VERSION", false, RUN_COMMANDS,
	  kvet_arg_set_kube_version,
	  "charts: the Kubernetes version helm template is told (default: 1.32.0, which kvet's rules describe)" },
	{ "api-versions", 0, "LIST", false, RUN_COMMANDS,
	  kvet_arg_add_api_versions,
	  "charts: the APIs .Capabilities.APIVersions has, instead of kvet's list of the GA APIs; repeatable" },
	{ "helm", 0, "PATH", false, RUN_COMMANDS, kvet_arg_set_helm,
	  "the helm that renders charts (default: $KVET_HELM, or helm on PATH)" },
	{ "kustomize", 0, "PATH", false, RUN_COMMANDS, kvet_arg_set_kustomize,
	  "kubectl or kustomize, to build kustomizations (default: $KVET_KUSTOMIZE, or kustomize, then kubectl, on PATH)" },
	{ "no-values-matrix", 0, NULL, false, RUN_COMMANDS,
	  kvet_arg_set_no_values_matrix,
	  "charts: render once with the defaults, not once more per ci/*-values.yaml file" },
	{ "no-default-values", 0, NULL, false, RUN_COMMANDS,
	  kvet_arg_set_no_default_values,
	  "charts with ci/*-values.yaml files: render only with those, not with the defaults too" },
	{ "lint-owners", 0, NULL, false, RUN_COMMANDS,
	  kvet_arg_set_lint_owners,
	  "a file named that lies in a chart or kustomization lints that one instead, once (pre-commit: a changed template or values.yaml re-lints its chart)" },
	{ "changed", 0, NULL, false, CMD_BIT(KVET_CMD_LINT),
	  kvet_arg_set_changed,
	  "the PATHs are the files a change touched: lint the repository around them (its manifests as one graph, and the charts and kustomizations they lie in) and report only what concerns them (pre-commit, pull requests)" },
	{ "fail-on", 0, "SEVERITY", false, RUN_COMMANDS, kvet_arg_set_fail_on,
	  "exit 1 on findings of this severity or above: error, warning, info or never (default: warning; for drain, error: a blocked node or a stalled roll)" },
	{ "complete-input", 0, NULL, false, CMD_BIT(KVET_CMD_LINT),
	  kvet_arg_set_complete_input,
	  "the input is the whole cluster: report references to objects it does not contain" },
	{ "require-objects", 0, NULL, false, RUN_COMMANDS,
	  kvet_arg_set_require_objects,
	  "exit 2 when no input holds a Kubernetes object (an empty render) or a directory named holds no file to lint" },
	{ "rules", 0, "DIR", false, RULE_COMMANDS, kvet_arg_add_rules_dir,
	  "also load the rule files (*.yaml, *.yml) in DIR; repeatable" },
	{ "param", 0, "RULE.NAME=VALUE", false, RULE_COMMANDS, kvet_arg_add_param,
	  "override parameter NAME of rule RULE; repeatable" },
	{ "no-builtin-rules", 0, NULL, false, RULE_COMMANDS, kvet_arg_set_no_builtin,
	  "leave out the built-in rules: only --rules run" },
	{ "enable", 0, "ID", false, SETTING_COMMANDS, kvet_arg_set_enable,
	  "run rule ID even if the configuration disables it; repeatable" },
	{ "disable", 0, "ID", false, SETTING_COMMANDS, kvet_arg_set_disable,
	  "do not run rule ID ('*': every rule, then --enable some); repeatable" },
	{ "config", 0, "FILE", false, SETTING_COMMANDS, kvet_arg_set_config,
	  "read the configuration from FILE (default: the nearest .kvet.yaml from the working directory upward)" },
	{ "no-config", 0, NULL, false, SETTING_COMMANDS, kvet_arg_set_no_config,
	  "read no configuration file" },
	{ "docs-url", 0, "BASE", false, SETTING_COMMANDS, kvet_arg_set_docs_url,
	  "link reports to BASE/ID.md, a copy of kvet's docs/rules/ (default: each rule's first reference)" },
	{ "baseline", 0, "FILE", false, RUN_COMMANDS, kvet_arg_set_baseline,
	  "report the findings recorded in FILE as suppressed, and list its entries that no longer match" },
	{ "write-baseline", 0, "FILE", false, RUN_COMMANDS,
	  kvet_arg_set_write_baseline,
	  "record the current findings in FILE (written atomically) and exit 0 unless an input failed" },
	{ "max-input-size", 0, "SIZE", false, RUN_COMMANDS,
	  kvet_arg_set_max_input_size,
	  "refuse an input larger than SIZE, in bytes or as a quantity such as 512Mi or 4Gi; up to 1Ti (default: 512Mi, or maxInputSize: in the configuration)" },
	{ "jobs", 'j', "N", false, RUN_COMMANDS, kvet_arg_set_jobs,
	  "load up to N files in parallel (default: 0, one per core)" },
	{ "color", 0, "WHEN", false, RUN_COMMANDS, kvet_arg_set_color,
	  "colour the text report: auto, always or never (default: auto, on a terminal unless NO_COLOR is set)" },
	{ "quiet", 'q', NULL, false, RUN_COMMANDS, kvet_arg_set_quiet,
	  "text report: only the first line of each error and finding (the headline), and no summary line; kvet drain: only its answer, the verdict and the table of nodes" },
	{ "verbose", 'v', NULL, false, RUN_COMMANDS, kvet_arg_set_verbose,
	  "list in the text report each document skipped as not a Kubernetes object" },
	{ "rolling", 0, NULL, false, DRAIN, kvet_arg_set_rolling,
	  "simulate a rolling upgrade of the nodes, one step after another, instead of each node alone from the dump's state" },
	{ "max-unavailable", 0, "K", false, DRAIN,
	  kvet_arg_set_max_unavailable,
	  "--rolling: drain K nodes at a time (default: 1)" },
	{ "surge", 0, "S", false, DRAIN, kvet_arg_set_surge,
	  "--rolling: add S empty nodes shaped like the first node to drain, and replace each drained node by a new one, as managed node groups do (default: 0, drained nodes come back empty)" },
	{ "order", 0, "ORDER", false, DRAIN, kvet_arg_set_order,
	  "--rolling: the order of the nodes: zone (by zone label, then name), name, or given (as --nodes names them) (default: zone)" },
	{ "nodes", 0, "SELECTOR|NAMES", false, DRAIN, kvet_arg_set_nodes,
	  "drain only these nodes: a label selector in kubectl's notation (pool=blue,zone in (a,b)) or node names separated by commas (default: every node)" },
	{ "force", 0, NULL, true, DRAIN, kvet_arg_set_force,
	  "like kubectl drain --force: delete pods that declare no controller (default: false)" },
	{ "delete-emptydir-data", 0, NULL, true, DRAIN,
	  kvet_arg_set_delete_emptydir,
	  "like kubectl drain: delete pods with emptyDir volumes; =false refuses them (default: true, as managed upgrades drain)" },
	{ "ignore-daemonsets", 0, NULL, true, DRAIN,
	  kvet_arg_set_ignore_daemonsets,
	  "like kubectl drain: leave DaemonSet pods; =false refuses them (default: true)" },
	{ "skip-wait-for-delete-timeout", 0, "SECONDS", false, DRAIN,
	  kvet_arg_set_skip_wait_for_delete,
	  "like kubectl drain: on a node that is not Ready, stop waiting for the deletion of an evicted pod after SECONDS, and skip the pods already terminating there (default: 0, wait forever, so such a node never drains)" },
	{ "pool", 0, "NODESxZONES", false, RUN_COMMANDS, kvet_arg_set_pool,
	  "the synthetic pool that rendered manifests (no Nodes, no live Pods) are installed on and rolled: NODES nodes round-robin over ZONES zones (default: 3x3, or pool: in the configuration)" },
	{ "node-cpu", 0, "QTY", false, RUN_COMMANDS, kvet_arg_set_node_cpu,
	  "the CPU of a pool node, of which the kubelet's reservations leave the allocatable (default: 4)" },
	{ "node-memory", 0, "QTY", false, RUN_COMMANDS,
	  kvet_arg_set_node_memory,
	  "the memory of a pool node, likewise (default: 16Gi)" },
	{ "node-pods", 0, "N", false, RUN_COMMANDS, kvet_arg_set_node_pods,
	  "the pods a pool node takes (default: 110)" },
	{ "node-label", 0, "KEY=VALUE", false, RUN_COMMANDS,
	  kvet_arg_add_node_label,
	  "a label of every pool node, beside kubernetes.io/hostname, topology.kubernetes.io/zone, kubernetes.io/os=linux and kubernetes.io/arch=amd64; repeatable" },
	{ "node-taint", 0, "KEY[=VALUE]:EFFECT", false, RUN_COMMANDS,
	  kvet_arg_add_node_taint,
	  "a taint of every pool node (a dedicated pool); repeatable" },
	{ "show-suppressed", 0, NULL, false, RUN_COMMANDS,
	  kvet_arg_set_show_suppressed,
	  "list in the text report each suppressed finding, with what suppressed it" },
	{ "cluster", 0, NULL, false, RUN_COMMANDS, kvet_arg_set_cluster,
	  "read the cluster instead of PATHs: run kubectl get (KUBECTL, or kubectl on PATH) for the objects kvet reads, -A -o json, and take the dump as the complete input" },
	{ "context", 0, "CTX", false, RUN_COMMANDS, kvet_arg_set_kube_context,
	  "--cluster: the kubeconfig context kubectl uses" },
	{ "kubeconfig", 0, "FILE", false, RUN_COMMANDS, kvet_arg_set_kubeconfig,
	  "--cluster: the kubeconfig file kubectl reads" },
	{ "help", 'h', NULL, false, ALL_COMMANDS, kvet_arg_set_help, "show this help" },
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
		return kvet_args_error(args, err, "unknown option '%.*s'",
				   shown_len, shown);
	fprintf(err, "kvet: error: unknown option '%.*s'\n"
		     "kvet: hint: did you mean '--%s'?\n",
		shown_len, shown, near);
	return -1;
}

/*
 * kubectl's and kube-linter's habit, `-o json` or `--output json`: the
 * hint spells kvet's --format with the value given (@val, which may be
 * NULL: none followed). Always -1.
 */
static int output_habit(FILE *err, const char *shown, const char *val)
{
	fprintf(err, "kvet: error: unknown option '%s'\n"
		     "kvet: hint: did you mean '--format %s'?\n",
		shown, val && *val && *val != '-' ? val : "FMT");
	return -1;
}

/* Does @command take --format? */
static bool takes_format(enum kvet_command command)
{
	return (RUN_COMMANDS | CMD_BIT(KVET_CMD_RULES)) & CMD_BIT(command);
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
		if (!opt && len == 8 && !strncmp(arg, "--output", 8) &&
		    takes_format(args->command))
			return output_habit(err, "--output",
					    eq ? eq + 1
					       : *i + 1 < argc ? argv[*i + 1]
							       : NULL);
		if (!opt)
			return unknown_option(args, err, arg, (int)len,
					      near_option(arg + 2, len - 2,
							  args->command));
		if (eq && !opt->arg && !opt->optional)
			return kvet_args_error(args, err,
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
		if (!opt && arg[1] == 'o' && takes_format(args->command))
			return output_habit(err, "-o",
					    arg[2] ? arg + 2
						   : *i + 1 < argc ? argv[*i + 1]
								   : NULL);
		if (!opt)
			return kvet_args_error(args, err, "unknown option '%s'",
					   shown);
		/* No bundling: "-qj4" is not "-q -j4". */
		if (arg[2] && !opt->arg)
			return kvet_args_error(args, err, "unknown option '%s'",
					   arg);
		if (arg[2])
			val = arg + 2;
	}
	if (opt->arg && !val) {
		if (*i + 1 >= argc)
			return kvet_args_error(args, err,
					   "option '--%s' needs a value (%s)",
					   opt->name, opt->arg);
		val = argv[++*i];
	}
	(*i)++;
	return opt->apply(args, val, err);
}

/*
 * Does @name look like an input rather than a command: a path with a
 * slash, a manifest's extension, "." or "-", or a file or directory that
 * exists? (kube-linter's and kubeconform's habit: `kvet FILE`.)
 */
static bool looks_like_path(const char *name)
{
	static const char *const exts[] = { ".yaml", ".yml", ".json",
					    ".tgz" };
	size_t len = strlen(name), i, n;
	struct stat st;

	if (strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "-"))
		return true;
	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		n = strlen(exts[i]);
		if (len > n && !strcmp(name + len - n, exts[i]))
			return true;
	}
	return stat(name, &st) == 0;
}

/* "unknown command", and the closest one git style; always -1. */
static int unknown_command(const struct kvet_args *args, FILE *err,
			   const char *name)
{
	const char *near;

	if (looks_like_path(name)) {
		fprintf(err, "kvet: error: unknown command '%s'\n"
			     "kvet: hint: did you mean 'kvet lint %s'?\n",
			name, name);
		return -1;
	}
	near = near_command(name);
	if (!near)
		return kvet_args_error(args, err, "unknown command '%s'", name);
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
		return kvet_args_error(args, err,
				   "unknown rules command '%s' (expected 'kvet rules' or 'kvet rules test DIR')",
				   args->operands[0]);
	}
	if (args->n_operands < 2)
		return kvet_args_error(args, err,
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
		return kvet_args_error(args, err, "'kvet %s' needs %s",
				   cmd->name, cmd->operands);
	if (args->n_operands > cmd->max_operands)
		return kvet_args_error(args, err,
				   "too many arguments for '%s %s' (usage: %s %s%s%s)",
				   args->prog, cmd->name, args->prog, cmd->name,
				   *cmd->operands ? " " : "", cmd->operands);
	if (args->command == KVET_CMD_RULES && args->n_operands)
		return check_rules_test(args, err);
	if (args->cluster && args->n_operands)
		return kvet_args_error(args, err,
				   "--cluster reads the cluster: no PATH with it (got '%s')",
				   args->operands[0]);
	if (args->cluster && args->changed)
		return kvet_args_error(args, err,
				   "--changed names the files of a change in the repository; --cluster reads the cluster: not both");
	if (!args->cluster && (args->kube_context || args->kubeconfig))
		return kvet_args_error(args, err,
				   "--%s is passed on to kubectl: it needs --cluster",
				   args->kube_context ? "context" : "kubeconfig");
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

/* kubectl runs its plugin kubectl-kvet by that name: the help and the
 * hints then say what the user types, "kubectl kvet". */
static const char *program_name(const char *argv0)
{
	const char *base = argv0 ? strrchr(argv0, '/') : NULL;

	base = base ? base + 1 : argv0;
	return base && !strcmp(base, "kubectl-kvet") ? "kubectl kvet" : "kvet";
}

int kvet_args_parse(struct kvet_args *args, int argc, char **argv, FILE *err)
{
	bool options_done = false;
	const char *first;
	int i;

	memset(args, 0, sizeof(*args));
	args->prog = program_name(argc ? argv[0] : NULL);
	args->command = KVET_CMD_HELP;
	args->fail_on = KVET_SEV_WARNING;
	args->color = KVET_COLOR_AUTO;

	if (argc < 2) {
		kvet_args_usage(args, err);
		return -1;
	}
	first = argv[1];
	if (!strcmp(first, "--version")) {
		args->command = KVET_CMD_VERSION;
	} else if (!strcmp(first, "--help") || !strcmp(first, "-h")) {
		args->command = KVET_CMD_HELP;
	} else if (find_command(first, &args->command)) {
		if (first[0] == '-')
			return kvet_args_error(args, err, "unknown option '%s'",
					   first);
		return unknown_command(args, err, first);
	}

	/*
	 * kvet drain answers "can it be drained, does the roll complete": a
	 * blocked node or a stall is an error; outages and lost data are
	 * warnings that fail the run only when asked (--fail-on warning).
	 */
	if (args->command == KVET_CMD_DRAIN)
		args->fail_on = KVET_SEV_ERROR;

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

static void usage_overview(const char *prog, FILE *fp)
{
	size_t i;

	fprintf(fp, "usage: %s COMMAND [ARGS]\n\n"
		    "A static linter for Kubernetes manifests.\n\n"
		    "commands:\n", prog);
	for (i = 0; i < N_COMMANDS; i++)
		fprintf(fp, "  %-10s%s\n", commands[i].name,
			commands[i].summary);
	/* the workflows of README's "Typical uses", one line each */
	fputs("\nworkflows:\n"
	      "  chart       kvet lint ./chart -f values-prod.yaml   # rendered with helm\n"
	      "  kustomize   kvet lint ./overlays/prod               # built with kustomize\n"
	      "  dump        kubectl get deploy,sts,ds,pdb,hpa,svc,pods -A -o yaml |\n"
	      "                kvet lint --complete-input -\n"
	      "  drain       kvet drain --rolling cluster.yaml       # a node-pool upgrade\n"
	      "  pre-commit  hook id kvet, in .pre-commit-hooks.yaml\n"
	      "  CI          kvet lint --format github \\\n"
	      "                --format markdown=\"$GITHUB_STEP_SUMMARY\" rendered/\n"
	      "              (GitLab: --format codequality=FILE; also junit, sarif)\n",
	      fp);
	fprintf(fp, "\nRun '%s help COMMAND' or '%s COMMAND --help' for the options of a\n"
		    "command; '%s --version' prints the version.\n",
		prog, prog, prog);
}

void kvet_args_usage(const struct kvet_args *args, FILE *fp)
{
	enum kvet_command command = args->command;
	const struct command_spec *cmd;
	char formats[128];
	size_t i;

	if (command == KVET_CMD_HELP || (unsigned int)command >= N_COMMANDS) {
		usage_overview(args->prog, fp);
		return;
	}
	cmd = &commands[command];
	fprintf(fp, "usage: %s %s%s%s\n\n", args->prog, cmd->name,
		*cmd->operands ? " " : "", cmd->operands);
	write_wrapped(fp, cmd->summary, 0);
	if (command == KVET_CMD_DRAIN) {
		putc('\n', fp);
		write_wrapped(fp, "PATH is a cluster dump with its Nodes and Pods (kubectl get nodes,pods,pdb,deploy,sts,ds,rs,job,svc,pv,pvc,validatingwebhookconfigurations,mutatingwebhookconfigurations -A -o yaml), read as kvet lint reads its inputs. Each node alone, or every node in a rolling upgrade, is drained as kubectl drain would: evictions refused by PodDisruptionBudgets, replacements placed by the kube-scheduler's filters, fail-closed webhooks, Services and StatefulSets that lose their pods. Every finding names the node it comes from; the report gives each node's verdict (drains, drains with warnings, blocked) and, for --rolling, the steps and the chain of causes where the roll stalls. Rendered manifests (no Node objects, and no Pod bound to a node or with a status) are first installed on a synthetic pool (--pool, --node-*; default 3 nodes in 3 zones of 4 CPU, 16Gi and 110 pods): each workload's pods at its smallest replica count, placed one by one by the scheduler's filters, a pod no node takes being an error (drain-install-unschedulable). See docs/drain.md.", 0);
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
	kvet_args_format_names(formats, sizeof(formats));
	fprintf(fp, "\nformats: %s\n", formats);
	if (command == KVET_CMD_DRAIN) {
		fputs("\nexit status:\n"
		      "  0  every node drains, or the roll completes (warnings such as outages\n"
		      "     fail only with --fail-on warning)\n"
		      "  1  a node is blocked or the roll stalls (findings at or above --fail-on,\n"
		      "     default error)\n"
		      "  2  some input could not be read, the dump lacks Nodes or Pods, or a pool is given for a dump\n"
		      "  3  usage or configuration error, or a report could not be written\n", fp);
		return;
	}
	fputs("\nexit status:\n"
	      "  0  no finding at or above --fail-on\n"
	      "  1  findings at or above --fail-on\n"
	      "  2  some input could not be read or parsed; the rest was linted\n"
	      "  3  usage, rule-file or --param error, or a report could not be written\n", fp);
}

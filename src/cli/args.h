/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_ARGS_H
#define KVET_CLI_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kvet/kvet.h"

/* The subcommands of kvet. */
enum kvet_command {
	KVET_CMD_LINT,
	KVET_CMD_RULES,
	KVET_CMD_EXPLAIN,
	KVET_CMD_VERSION,
	KVET_CMD_HELP,
	KVET_CMD_CONFIG,
	KVET_CMD_DRAIN,
};

enum kvet_color {
	KVET_COLOR_AUTO,
	KVET_COLOR_ALWAYS,
	KVET_COLOR_NEVER,
};

/* One report to write: --format FMT or --format FMT=FILE. */
struct kvet_output {
	enum kvet_format format;
	const char *path;	/* NULL: standard output */
};

/* --rules and --param options accepted. */
#define KVET_MAX_RULE_ARGS 64

/* Enough for every format to one file and one more to stdout, twice. */
#define KVET_MAX_OUTPUTS 16

/*
 * The parsed command line. Strings point into argv; nothing is allocated,
 * so there is nothing to free.
 */
struct kvet_args {
	enum kvet_command command;
	bool help;			/* "kvet CMD --help" */
	struct kvet_options opts;
	enum kvet_severity fail_on;
	bool fail_never;
	enum kvet_color color;
	bool quiet;
	bool verbose;
	bool show_suppressed;		/* text: list suppressed findings */
	struct kvet_output outputs[KVET_MAX_OUTPUTS];
	size_t n_outputs;		/* 0: text to standard output */
	const char *rules_dirs[KVET_MAX_RULE_ARGS];	/* --rules DIR */
	size_t n_rules_dirs;
	const char *params[KVET_MAX_RULE_ARGS];	/* --param RULE.NAME=VALUE */
	size_t n_params;
	/* --enable ID / --disable ID, in command-line order */
	struct {
		const char *id;
		bool on;
	} toggles[KVET_MAX_RULE_ARGS];
	size_t n_toggles;
	const char *config;		/* --config FILE */
	bool no_config;			/* --no-config */
	const char *baseline;		/* --baseline FILE */
	const char *write_baseline;	/* --write-baseline FILE */
	const char *docs_url;		/* --docs-url BASE */
	const char *chart_dir;		/* --chart-dir DIR */
	bool namespace_given;		/* --namespace beats the config */
	bool complete_given;		/* --complete-input beats it too */
	bool require_given;		/* and --require-objects */
	bool max_input_given;		/* and --max-input-size */
	struct kvet_drain_options drain;	/* kvet drain's plan */
	struct kvet_pool_options pool;	/* --pool, --node-* */
	const char *pool_labels[KVET_MAX_RULE_ARGS];	/* --node-label */
	const char *pool_taints[KVET_MAX_RULE_ARGS];	/* --node-taint */
	/* charts and kustomizations: helm template's own options */
	struct kvet_chart_options chart;
	const char *chart_values[KVET_MAX_RULE_ARGS];	/* -f, in order */
	struct kvet_chart_set chart_sets[KVET_MAX_RULE_ARGS];	/* --set* */
	const char *chart_api[KVET_MAX_RULE_ARGS];	/* --api-versions */
	const char *rules_test;		/* kvet rules test DIR */
	const char *prog;		/* "kvet", or "kubectl kvet" as a plugin */
	bool cluster;			/* --cluster: kubectl get's dump */
	bool changed;			/* --changed: PATHs are a change */
	const char *kube_context;	/* --context, for kubectl */
	const char *kubeconfig;		/* --kubeconfig, for kubectl */
	char **operands;		/* paths, or a rule id for explain */
	size_t n_operands;
};

/**
 * kvet_args_parse() - parse the command line.
 * @args: filled in.
 * @argc: as given to main().
 * @argv: as given to main(); @args points into it afterwards.
 * @err: where a usage error is described, git style ("kvet: error: ...",
 *       then a hint to --help).
 *
 * Returns: 0, or -1 after describing a usage error on @err.
 */
int kvet_args_parse(struct kvet_args *args, int argc, char **argv, FILE *err);

/**
 * kvet_args_usage() - write the help of a command.
 * @args: its command (KVET_CMD_HELP for the overview) and the name kvet
 *        was called by (prog).
 * @fp: the stream.
 */
void kvet_args_usage(const struct kvet_args *args, FILE *fp);

#endif

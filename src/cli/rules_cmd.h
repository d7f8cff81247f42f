/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_RULES_CMD_H
#define KVET_CLI_RULES_CMD_H

#include <stdio.h>

#include "kvet/kvet.h"
#include "cli/args.h"

/*
 * kvet_cli_context() - a context with the rules of the command line:
 * built-in rules unless --no-builtin-rules, every --rules DIR, then every
 * --param. Rule errors are written to @err, compiler style.
 * Returns: the context, or NULL after writing why (the exit code is then
 * KVET_EXIT_USAGE).
 */
struct kvet_ctx *kvet_cli_context(const struct kvet_args *args, FILE *err);

/* kvet rules: the rule list in @format (text or json). */
enum kvet_exit kvet_cli_rules(const struct kvet_ctx *ctx,
			      enum kvet_format format, FILE *out, FILE *err);

/*
 * kvet rules test DIR: the examples of the rule files the context loaded
 * from DIR (--rules), one line each, then a count. KVET_EXIT_FINDINGS
 * when one failed or there was none.
 */
enum kvet_exit kvet_cli_rules_test(const struct kvet_ctx *ctx,
				   const char *dir, FILE *out, FILE *err);

/* kvet explain ID: the rule's Markdown documentation. */
enum kvet_exit kvet_cli_explain(const struct kvet_ctx *ctx, const char *id,
				FILE *out, FILE *err);

/* One error of the context on @err, "FILE:LINE:COL: error: MESSAGE",
 * its file name and message escaped for the terminal. */
void kvet_cli_print_error(const struct kvet_error *e, FILE *err);

#endif

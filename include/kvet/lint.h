/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LINT_H
#define KVET_LINT_H

/*
 * Linting: the rules a context knows, rule files and their tests, the
 * settings of a run (enabled rules, severities, parameters, suppression,
 * baselines, configuration files) and the objects rules apply to.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The rules a context knows, sorted by id; valid after creation. */
KVET_API size_t kvet_ctx_rule_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_rule_info *kvet_ctx_rule(const struct kvet_ctx *ctx,
						    size_t i);
/* The rule @id, or NULL. */
KVET_API const struct kvet_rule_info *kvet_ctx_rule_find(const struct kvet_ctx *ctx,
							 const char *id);

/* Every rule the context knows, disabled ones too (marked so), sorted by
 * id: what `kvet rules` lists. */
KVET_API size_t kvet_ctx_rule_all_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_rule_info *kvet_ctx_rule_all(const struct kvet_ctx *ctx,
							size_t i);

/**
 * kvet_ctx_rule_suggest() - the known rule id closest to a misspelt one,
 * for "did you mean" hints (kvet_suggest()).
 * @ctx: the context.
 * @id: the id that named no rule.
 *
 * Returns: a rule id borrowed from @ctx, or NULL when none is close.
 */
KVET_API const char *kvet_ctx_rule_suggest(const struct kvet_ctx *ctx,
					   const char *id);

/**
 * kvet_ctx_set_docs_url() - link reports to a team's own copy of
 * docs/rules/ instead of each rule's first upstream reference (SARIF
 * helpUri and informationUri, the JUnit help property, the JSON rule
 * list).
 * @ctx: the context.
 * @base: an http:// or https:// URL (copied; trailing slashes dropped):
 *        a rule's page is BASE/ID.md. NULL or "" goes back to the
 *        references.
 *
 * Returns: 0, or -1 when @base is not an http(s) URL or memory ran out.
 */
KVET_API int kvet_ctx_set_docs_url(struct kvet_ctx *ctx, const char *base);

/* The docs URL set with kvet_ctx_set_docs_url(), or NULL. */
KVET_API const char *kvet_ctx_docs_url(const struct kvet_ctx *ctx);

/**
 * kvet_ctx_add_rules_dir() - load the rule files (*.yaml, *.yml) directly
 * in @dir (docs/rule-language.md). Call before kvet_ctx_run().
 * @ctx: the context.
 * @dir: the directory; copied.
 *
 * A rule file with a problem (YAML or CEL syntax, an unknown function, a
 * type error, a duplicate id, a bad regex) is refused; each problem is a
 * rule error with its file:line:column, see kvet_ctx_rule_error(). Rules
 * of the other files are still added.
 *
 * Returns: 0, or -1 when some file was refused or memory ran out.
 */
KVET_API int kvet_ctx_add_rules_dir(struct kvet_ctx *ctx, const char *dir);

/* Like kvet_ctx_add_rules_dir() for one rule file in memory (copied). */
KVET_API int kvet_ctx_add_rules_buffer(struct kvet_ctx *ctx, const char *name,
				       const char *data, size_t len);

/*
 * Rule errors: problems of rule files and of parameter overrides, in the
 * order they were found. A program should not lint when there are any
 * (the CLI exits with KVET_EXIT_USAGE). The built-in rules never have
 * any; they are tested.
 */
KVET_API size_t kvet_ctx_rule_error_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_error *kvet_ctx_rule_error(const struct kvet_ctx *ctx,
						      size_t i);

/**
 * kvet_ctx_set_param() - override a rule parameter (--param RULE.NAME=VALUE).
 * @ctx: the context, with its rule files loaded.
 * @rule: the rule id.
 * @name: the parameter.
 * @value: the value, read with the type of the parameter's default.
 *
 * Returns: 0, or -1 with a rule error recorded (unknown rule or
 * parameter, or a value of the wrong type).
 */
KVET_API int kvet_ctx_set_param(struct kvet_ctx *ctx, const char *rule,
				const char *name, const char *value);

/**
 * kvet_ctx_rule_write_markdown() - write the documentation of rule @id
 * (what `kvet explain` prints and docs/rules/ID.md holds) to @fp.
 * Returns: 0, or -1 for an unknown id or a write error.
 */
KVET_API int kvet_ctx_rule_write_markdown(const struct kvet_ctx *ctx,
					  const char *id, FILE *fp);

/*
 * One example of a rule file, run (`kvet rules test`). Plain data, valid
 * during the callback only.
 */
struct kvet_example_result {
	const char *file;		/* the rule file */
	unsigned int line;		/* of the example in it */
	const char *rule;		/* the rule id */
	const char *name;		/* the example's name, or "" */
	bool expect_fail;		/* expect: fail */
	bool passed;
	size_t findings;		/* the rule's findings on the manifest */
	const char *why;		/* when it did not pass, what differed */
	/* the example's own run, holding only its rule file: render it
	 * (kvet_render()) to see the findings as a user would */
	const struct kvet_ctx *run;
};

typedef void (*kvet_example_fn)(void *user,
				const struct kvet_example_result *r);

enum kvet_test_flags {
	/* the built-in rules' examples too, not only the rule files added
	 * with kvet_ctx_add_rules_dir() or _buffer() */
	KVET_TEST_BUILTIN = 1u << 0,
};

/**
 * kvet_ctx_test_rules() - run the examples of rule files: each manifest
 * linted with its rule file alone, with default parameters (and as a
 * complete input when the example says `complete: true`), then checked
 * as docs/rule-language.md says (expect, findings, severity, message).
 * @ctx: the context, with its rule files added.
 * @flags: enum kvet_test_flags.
 * @fn: called once per example, in the order of the rules (by id) and of
 *      their examples.
 * @user: passed to @fn.
 *
 * Returns: the number of examples that did not pass, or -1 when out of
 * memory.
 */
KVET_API long kvet_ctx_test_rules(const struct kvet_ctx *ctx,
				  unsigned int flags, kvet_example_fn fn,
				  void *user);

/**
 * kvet_ctx_rule_applies() - whether a rule looks at an object, for reports
 * that list what passed as well as what failed (JUnit: one test case per
 * object a rule applies to).
 * @ctx: a context that has run.
 * @rule_id: a rule id.
 * @object_index: an object, as for kvet_ctx_object().
 *
 * A rule applies to the objects its `match` selects (kinds, for rule
 * files); the built-in invalid-field-type applies to every object. No rule
 * applies to a Helm test hook, which kvet does not lint, nor to an unknown
 * rule or object.
 *
 * Returns: true when the rule is evaluated on the object.
 */
KVET_API bool kvet_ctx_rule_applies(const struct kvet_ctx *ctx,
				    const char *rule_id, size_t object_index);

/*
 * A finding that was not reported because something suppressed it.
 * Plain data, borrowed from the context.
 */
struct kvet_suppressed {
	struct kvet_finding finding;
	const char *reason;		/* "annotation", "config" or "baseline" */
	const char *justification;	/* why, as its author said; or NULL */
};

/* Suppressed findings, in the order of findings; none until suppression
 * (annotations, config, baseline) exists. */
KVET_API size_t kvet_ctx_suppressed_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_suppressed *
kvet_ctx_suppressed(const struct kvet_ctx *ctx, size_t i);

/*
 * Settings of a run, from a configuration file or the command line; call
 * them after adding rules and before kvet_ctx_run(). A later call wins.
 */

/**
 * kvet_ctx_set_rule_enabled() - switch a rule on or off.
 * @id: a rule id, or "*" for every rule.
 *
 * Returns: 0, or -1 when no rule has that id.
 */
KVET_API int kvet_ctx_set_rule_enabled(struct kvet_ctx *ctx, const char *id,
				       bool enabled);

/**
 * kvet_ctx_set_rule_tolerate_errors() - whether a rule's evaluation errors
 * leave the exit status alone (they are listed either way; a rule file
 * says it with `on_error: tolerate`).
 * @id: a rule id, or "*" for every rule.
 *
 * Returns: 0, or -1 when no rule has that id.
 */
KVET_API int kvet_ctx_set_rule_tolerate_errors(struct kvet_ctx *ctx,
					       const char *id, bool tolerate);

/* Report a rule's findings at @sev. Returns 0, or -1 for an unknown id. */
KVET_API int kvet_ctx_set_rule_severity(struct kvet_ctx *ctx, const char *id,
					enum kvet_severity sev);

/* Parse "error", "warning" or "info". Returns 0, or -1. */
KVET_API int kvet_severity_from_name(const char *name,
				     enum kvet_severity *out);

/**
 * kvet_ctx_suppress() - hold back the findings that match, with reason
 * "config": for objects that cannot carry a kvet.dev/ignore annotation
 * (third-party charts, cluster dumps).
 * @rule, @namespace, @name: shell globs, or NULL for any.
 * @kind: a kind, or NULL for any.
 * @justification: why; copied; may be NULL.
 *
 * Returns: 0, or -1 when out of memory.
 */
KVET_API int kvet_ctx_suppress(struct kvet_ctx *ctx, const char *rule,
			       const char *kind, const char *namespace,
			       const char *name, const char *justification);

/**
 * kvet_ctx_load_baseline() - hold back the findings recorded in a baseline
 * file, with reason "baseline".
 *
 * Returns: 0, or -1 after recording why as a setup error
 * (kvet_ctx_rule_error()).
 */
KVET_API int kvet_ctx_load_baseline(struct kvet_ctx *ctx, const char *path);

/**
 * kvet_ctx_write_baseline() - write a baseline of the run's findings: the
 * reported ones and those the loaded baseline held back, not those an
 * annotation or the configuration suppresses.
 *
 * Returns: 0, or -1 on a write error.
 */
KVET_API int kvet_ctx_write_baseline(const struct kvet_ctx *ctx, FILE *fp);

/* A baseline entry that matched no finding of the run: prune it. */
struct kvet_baseline_stale {
	const char *rule;
	const char *kind;
	const char *namespace;
	const char *name;
	const char *message;		/* as recorded, or NULL */
	struct kvet_position pos;	/* the entry in the baseline file */
};

/* Was a baseline loaded (kvet_ctx_load_baseline())? */
KVET_API bool kvet_ctx_baseline_loaded(const struct kvet_ctx *ctx);
KVET_API size_t kvet_ctx_baseline_stale_count(const struct kvet_ctx *ctx);
KVET_API int kvet_ctx_baseline_stale(const struct kvet_ctx *ctx, size_t i,
				     struct kvet_baseline_stale *out);

/* The lists of names that tune the shared definitions (docs/model.md
 * 1.8, 1.12, and the shared label keys of rule
 * spread-selector-matches-foreign-pods); values are added to the
 * built-in ones unless the list is replaced
 * (kvet_ctx_replace_graph_values()). */
enum kvet_graph_list {
	KVET_GRAPH_SPREADING_KEYS,	/* spreading topology keys */
	KVET_GRAPH_MANAGER_COMPONENTS,	/* app.kubernetes.io/component values */
	KVET_GRAPH_SHARED_LABEL_KEYS,	/* label keys shared by releases */
	KVET_GRAPH_LIST_COUNT,
};

/* Add @value (copied) to a list. Returns 0, or -1 when out of memory. */
KVET_API int kvet_ctx_add_graph_value(struct kvet_ctx *ctx,
				      enum kvet_graph_list list,
				      const char *value);

/**
 * kvet_ctx_replace_graph_values() - switch off the built-in values of
 * @list and forget the values added to it so far: only values added
 * afterwards count, and none if none are added.
 *
 * Returns: 0, or -1 for an unknown @list.
 */
KVET_API int kvet_ctx_replace_graph_values(struct kvet_ctx *ctx,
					   enum kvet_graph_list list);

/**
 * kvet_ctx_add_workload_kind() - treat a custom resource kind as a
 * workload (docs/model.md 1.2), for example Argo Rollouts.
 * @api_version: "argoproj.io/v1alpha1"; only its group is compared.
 * @kind: "Rollout".
 * @pod_template: dotted path of its pod template: "spec.template".
 * @replicas: dotted path of its replica count, or NULL: with one the kind
 *            is scalable (it has a scale subresource), without one it is
 *            not.
 *
 * Returns: 0, or -1 for an empty path or when out of memory.
 */
KVET_API int kvet_ctx_add_workload_kind(struct kvet_ctx *ctx,
					const char *api_version,
					const char *kind,
					const char *pod_template,
					const char *replicas);

/**
 * kvet_ctx_load_config() - apply a configuration file (.kvet.yaml; see
 * docs/configuration.md). Unknown keys and values of the wrong type are
 * setup errors with their line and column (kvet_ctx_rule_error()).
 *
 * Returns: 0, or -1 when the file has errors.
 */
KVET_API int kvet_ctx_load_config(struct kvet_ctx *ctx, const char *path);

#ifdef __cplusplus
}
#endif

#endif

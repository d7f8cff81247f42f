/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_KVET_H
#define KVET_KVET_H

/*
 * libkvet: load Kubernetes manifests into one object graph, lint it, and
 * iterate the findings and input errors.
 *
 * A context holds everything of one run. Contexts share nothing, so a
 * program may run several at once in different threads. The library never
 * prints and never aborts: failures come back as return values and as
 * error records with positions.
 *
 * Strings handed out by a context (findings, errors, positions) are
 * borrowed: they stay valid until kvet_ctx_destroy().
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(KVET_BUILDING_LIBRARY)
#define KVET_API __attribute__((visibility("default")))
#else
#define KVET_API
#endif

/* The version of libkvet ("0.1.0"): meson's project version, the one
 * place it is written. */
KVET_API const char *kvet_version(void);

/*
 * The git commit libkvet was built from, as `git describe --always
 * --dirty` abbreviates it ("3f2a1c9d0e1b", "3f2a1c9d0e1b-dirty"), or ""
 * when it was not built from a git checkout.
 */
KVET_API const char *kvet_version_commit(void);

/* The exit codes of the kvet command, defined once for the CLI and tests. */
enum kvet_exit {
	KVET_EXIT_OK = 0,		/* nothing at or above --fail-on */
	KVET_EXIT_FINDINGS = 1,		/* findings at or above --fail-on */
	KVET_EXIT_INPUT = 2,		/* some input could not be used */
	KVET_EXIT_USAGE = 3,		/* usage, config or rule-file error */
};

enum kvet_severity {
	KVET_SEV_INFO = 0,
	KVET_SEV_WARNING = 1,
	KVET_SEV_ERROR = 2,
};
#define KVET_SEV_COUNT 3

enum kvet_ctx_flags {
	/* Treat the input as a complete cluster (docs/model.md 1.3). */
	KVET_CTX_COMPLETE_INPUT = 1u << 0,
	/* Leave out the built-in rules: only rules added with
	 * kvet_ctx_add_rules_dir() run (and none when there are none). */
	KVET_CTX_NO_BUILTIN_RULES = 1u << 1,
	/* No Kubernetes object in any input, or a directory named as an
	 * input that holds no file to lint, is an input error
	 * (KVET_EXIT_INPUT): a CI gate must not pass on an empty render. */
	KVET_CTX_REQUIRE_OBJECTS = 1u << 2,
	/* Simulate node drains instead of linting (kvet_ctx_set_drain()):
	 * the rules are the drain checks, and the rule files stay loaded
	 * only so that a configuration naming them still applies. */
	KVET_CTX_DRAIN = 1u << 3,
	/* Load the built-in rules without their examples (about half of a
	 * small lint's time): kvet_ctx_test_rules() and the rule pages
	 * then have none to show. kvet lint and kvet drain set it. */
	KVET_CTX_NO_EXAMPLES = 1u << 4,
};

/*
 * How far a run is, for a progress display. Plain data, valid during the
 * callback only.
 */
struct kvet_progress {
	const char *stage;		/* "loading", then "linting" */
	size_t files_done, files_total;
	size_t bytes_done, bytes_total;	/* loading; 0 total when unknown */
	size_t objects_done, objects_total;	/* linting */
};

/*
 * Called from the thread that runs kvet_ctx_run(), at most about ten times
 * a second, and once at the end of each stage.
 */
typedef void (*kvet_progress_fn)(void *user, const struct kvet_progress *p);

/*
 * The size limit of one input (docs/input.md): the default, and the
 * largest kvet_input_parse_size() accepts. kvet holds its input and the
 * trees built from it, about twice to three times its size, so 1 TiB is
 * beyond any machine it runs on, and far from overflowing a size_t.
 */
#define KVET_INPUT_SIZE_DEFAULT ((size_t)512 * 1024 * 1024)
#define KVET_INPUT_SIZE_MAX ((size_t)1 << 40)

/* Plain data: options for kvet_ctx_create(). Zero means the default. */
struct kvet_options {
	const char *default_namespace;	/* NULL: "default" */
	unsigned int flags;		/* enum kvet_ctx_flags */
	unsigned int jobs;		/* parallel file loads; 0: one per core */
	size_t max_file_size;		/* bytes; 0: KVET_INPUT_SIZE_DEFAULT */
	unsigned int fifo_wait_ms;	/* how long a named FIFO may go
					 * without a writer; 0: 10 s */
	kvet_progress_fn progress;	/* NULL: none */
	void *progress_user;		/* passed to @progress */
};

/* A 1-based position in an input. line == 0 means "no position". */
struct kvet_position {
	const char *file;		/* as given by the user; "-" is "<stdin>" */
	unsigned int line;
	unsigned int column;
};

/* Identity and place of one Kubernetes object. */
struct kvet_object_ref {
	const char *api_version;
	const char *kind;
	const char *namespace;		/* "" for cluster-scoped objects */
	const char *name;
	struct kvet_position pos;	/* the object's first line */
};

/*
 * A finding, in the compiler convention (docs/formats.md, "text"): a
 * one-line @headline, then the @reason that explains it, and @help, what
 * to do. @message is the full sentence, the headline and the reason
 * joined with ": " (a team rule's `message:` as written).
 */
struct kvet_finding {
	const char *rule;
	enum kvet_severity severity;
	const char *message;		/* the full sentence */
	struct kvet_object_ref object;
	struct kvet_position pos;	/* the most specific field */
	const char *source;		/* Helm "# Source:" path, or NULL */
	/* the render the finding comes from: "CHART" or "CHART with
	 * ci/x-values.yaml" for a chart kvet rendered, the directory of a
	 * kustomization it built; NULL for plain inputs */
	const char *unit;
	const struct kvet_object_ref *related;
	size_t n_related;
	const char *headline;		/* one line, what is wrong */
	const char *reason;		/* why it matters here, or NULL */
	const char *help;		/* what to do, one line, or NULL */
	/*
	 * Where the field is in the rendered input, when @pos was moved to
	 * the chart's template line (docs/template-lines.md); line 0: @pos
	 * is the place in the input.
	 */
	struct kvet_position rendered;
	/* the field @pos points at, as a path from the object's root
	 * ("spec.minAvailable", "spec.template.spec.containers[name=web]");
	 * "" for the object itself */
	const char *field;
};

/* The longest headline a built-in rule gives, in characters (a test
 * checks every example); a team rule's may be longer. */
#define KVET_HEADLINE_MAX 120

/**
 * kvet_finding_fingerprint() - a 64-bit hash of what identifies a finding
 * wherever it is and whatever else is linted with it: the rule, the
 * object's identity (API group, kind, namespace, name), the field it
 * points at (@field) and the objects of the input it relates (@related,
 * in any order; objects not in the input, such as the nodes of kvet
 * lint's synthetic pool, are left out). Lines, files and the finding's
 * words are left out, so a finding keeps its fingerprint when lines move,
 * documents or arguments are reordered, unrelated inputs are added, or a
 * value its headline quotes changes; baselines (version 3), SARIF
 * partialFingerprints (kvetFindingHash/v3) and Code Quality use it.
 */
KVET_API uint64_t kvet_finding_fingerprint(const struct kvet_finding *f);

/*
 * An input that could not be read or used, whole or in part; or, with
 * @rule set, an evaluation error: a rule that could not be evaluated on
 * an object (an expression that gave an error, or a limit it hit; see
 * docs/rule-language.md). Plain data, borrowed from the context.
 */
struct kvet_error {
	struct kvet_position pos;	/* the most specific place known */
	const char *message;
	const char *rule;		/* NULL for an input error */
	const struct kvet_object_ref *object;	/* the object, or NULL */
	bool tolerated;			/* the rule tolerates evaluation
					 * errors: listed, no exit status */
};

/*
 * Something a user should know about the run that is neither a finding
 * nor an input error, and never changes the exit status: a path that
 * matched no file, a Helm chart source that was not linted, an unknown
 * rule id in a suppression.
 */
enum kvet_notice_level {
	KVET_NOTICE_WARNING,	/* probably a mistake of the user's */
	KVET_NOTICE_NOTE,	/* something kvet chose not to lint, and why */
	KVET_NOTICE_DETAIL,	/* one skipped document: text shows it with -v */
};

struct kvet_notice {
	struct kvet_position pos;	/* line 0: the file as a whole */
	enum kvet_notice_level level;
	const char *message;
};

struct kvet_summary {
	size_t files;
	size_t documents;
	size_t objects;
	size_t findings[KVET_SEV_COUNT];	/* indexed by kvet_severity */
	size_t skipped;		/* documents that are not Kubernetes objects */
	size_t input_errors;		/* errors without a rule */
	size_t evaluation_errors;	/* listed or not */
};

struct kvet_ctx;

/**
 * kvet_ctx_create() - make an empty context.
 * @opts: options, copied; NULL for defaults.
 *
 * Returns: a context the caller frees with kvet_ctx_destroy(), or NULL
 * when out of memory.
 */
KVET_API struct kvet_ctx *kvet_ctx_create(const struct kvet_options *opts);

/**
 * kvet_ctx_destroy() - free a context and everything it handed out.
 * @ctx: the context, or NULL.
 */
KVET_API void kvet_ctx_destroy(struct kvet_ctx *ctx);

/**
 * kvet_ctx_add_path() - queue a file, a directory or "-" (stdin).
 * @ctx: the context.
 * @path: copied. A directory is searched recursively for *.yaml, *.yml
 *        and *.json files, in byte order of their paths.
 *
 * Every file and directory is read once, however many paths, hard links
 * and symlinks lead to it; the later ones get a note. A Helm chart source
 * (a directory with a Chart.yaml) or a kustomize directory (with a
 * kustomization.yaml, kustomization.yml or Kustomization) is not entered,
 * whether named or met below @path: a note says how to render it. "-"
 * named twice is read once. A named FIFO waits for a writer at most
 * fifo_wait_ms (struct kvet_options) when the context runs.
 *
 * Problems with the path (missing, unreadable, a symlink loop) are not
 * returned here; they become error records when the context runs. A
 * directory that gives no file to lint is a warning then, or an error
 * with KVET_CTX_REQUIRE_OBJECTS.
 *
 * Returns: 0, or -1 when out of memory.
 */
KVET_API int kvet_ctx_add_path(struct kvet_ctx *ctx, const char *path);

/**
 * kvet_ctx_add_default_input() - queue what `kvet lint` reads when no
 * path is given: standard input when it is not a terminal and yields
 * data, otherwise the current directory ".".
 * @ctx: the context.
 *
 * Standard input is read unless it is a terminal (then "."), even when
 * it is empty: an empty pipe is a failed render, never the working
 * directory's files.
 *
 * Returns: 0, or -1 when out of memory.
 */
KVET_API int kvet_ctx_add_default_input(struct kvet_ctx *ctx);

/* One --set, --set-string or --set-file of helm template, in order. */
struct kvet_chart_set {
	const char *flag;	/* "--set", "--set-string" or "--set-file" */
	const char *value;	/* "key=value" */
};

/*
 * How charts and kustomizations are rendered (docs/helm.md). Every
 * pointer is borrowed until the context is destroyed; NULL and 0 take
 * the defaults: helm and kubectl or kustomize on PATH, release name
 * "release-name", the context's namespace as the release namespace,
 * --kube-version of the Kubernetes version kvet targets with its
 * --api-versions, and the chart's ci/ *-values.yaml matrix when no
 * values file is given.
 */
struct kvet_chart_options {
	const char *helm;
	const char *kustomize;
	const char *release_name;
	const char *kube_version;
	const char *const *api_versions;
	size_t n_api_versions;
	const char *const *values;	/* -f FILE, in order */
	size_t n_values;
	const struct kvet_chart_set *sets;
	size_t n_sets;
	bool no_matrix;		/* no render per ci/ values file */
	bool no_defaults;	/* with a matrix: no render of the defaults */
	/* a file named that lies in a chart or kustomization names that
	 * one instead (pre-commit: a changed template re-lints its chart) */
	bool owners;
};

/**
 * kvet_ctx_set_chart_options() - how to render the charts and
 * kustomizations named or met later by kvet_ctx_add_path(): call it
 * before them. Without it they are rendered with the defaults.
 */
KVET_API void kvet_ctx_set_chart_options(struct kvet_ctx *ctx,
					 const struct kvet_chart_options *o);

/**
 * kvet_ctx_add_changed() - lint the context of a change, and report what
 * concerns it (kvet lint --changed; docs/usage.md): the plain manifests
 * of the repository the working directory lies in (the nearest directory
 * up with .git, else the working directory itself) as one graph, less
 * the configuration's excludes; the chart or kustomization each changed
 * file lies in, rendered; and of all that, only the findings whose object
 * or a related object lies in a changed file, every finding of those
 * renders, and the errors and notices of changed files. A changed path
 * that is no file (deleted by the change) is left out; one outside the
 * repository is linted as it is. Call it once, after
 * kvet_ctx_set_chart_options(), instead of adding paths.
 * @ctx: the context.
 * @files: the changed files, as paths from the working directory.
 * @n: how many.
 *
 * Returns: 0, or -1 when out of memory.
 */
KVET_API int kvet_ctx_add_changed(struct kvet_ctx *ctx,
				  const char *const *files, size_t n);

/**
 * kvet_ctx_add_buffer() - queue an in-memory input.
 * @ctx: the context.
 * @name: the file name used in positions; copied.
 * @data: the bytes; copied.
 * @len: their length.
 *
 * Returns: 0, or -1 when out of memory.
 */
KVET_API int kvet_ctx_add_buffer(struct kvet_ctx *ctx, const char *name,
				 const char *data, size_t len);

/**
 * kvet_ctx_run() - load every queued input, build the object graph and
 * run the rules. A context runs once.
 * @ctx: the context.
 *
 * Returns: 0 when the run completed (input errors are recorded, not
 * returned), or -1 when it could not (out of memory, run twice).
 */
KVET_API int kvet_ctx_run(struct kvet_ctx *ctx);

/* Findings, sorted by file, line, column and rule. */
KVET_API size_t kvet_ctx_finding_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_finding *kvet_ctx_finding(const struct kvet_ctx *ctx,
						     size_t i);

/*
 * Errors: input errors, in the order of the inputs and their positions,
 * then evaluation errors (@rule set), in the order of the objects and
 * rules: at most 10 per rule, then one with no object saying how many
 * more there were.
 */
KVET_API size_t kvet_ctx_error_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_error *kvet_ctx_error(const struct kvet_ctx *ctx,
						 size_t i);

/* Notices, in the order of the inputs; setup notices (configuration,
 * paths) first. */
KVET_API size_t kvet_ctx_notice_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_notice *kvet_ctx_notice(const struct kvet_ctx *ctx,
						   size_t i);
/* "warning", "note" or "detail". */
KVET_API const char *kvet_notice_level_name(enum kvet_notice_level level);

/* Counts of the run; valid after kvet_ctx_run(). */
KVET_API void kvet_ctx_summary(const struct kvet_ctx *ctx,
			       struct kvet_summary *out);

/**
 * kvet_ctx_source_line() - the text of one line of a loaded input, for
 * showing context under a message.
 * @ctx: the context.
 * @file: a file name as it appears in positions.
 * @line: 1-based.
 * @len: set to the length of the line, without its line break.
 *
 * Returns: a pointer into the loaded input (borrowed), or NULL.
 */
KVET_API const char *kvet_ctx_source_line(const struct kvet_ctx *ctx,
					  const char *file, unsigned int line,
					  size_t *len);

/*
 * What a rule is, for reports that describe their rules (SARIF) and for
 * `kvet rules` / `kvet explain`. Plain data, borrowed from the context.
 */
struct kvet_rule_info {
	const char *id;			/* kebab-case */
	enum kvet_severity severity;	/* default severity */
	const char *category;
	const char *summary;		/* one line */
	const char *description;	/* why it matters; Markdown */
	const char *remediation;	/* how to fix it; Markdown */
	const char *const *references;	/* URLs; the first is the main one */
	size_t n_references;
	/* Where the rule is documented, for reports that link to it:
	 * BASE/ID.md when a docs URL is set (kvet_ctx_set_docs_url()),
	 * else its first reference, else NULL. Set in the rules a context
	 * hands out (kvet_ctx_rule()), not in a rule file's own info. */
	const char *help_uri;
	/* Switched off by the settings: only kvet_ctx_rule_all() hands out
	 * such rules. */
	bool disabled;
};

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
 * kvet_suggest() - the candidate closest to @word, as git suggests a
 * command for a misspelt one: the smallest Damerau-Levenshtein distance
 * (insertions, deletions, substitutions and swaps of two neighbours), if
 * it is small for the word's length (at most a third of it, and 1 for
 * words of up to five characters), the first candidate winning a tie.
 * @word: what the user typed.
 * @candidates: the known words.
 * @n: their number.
 *
 * Returns: one of @candidates, or NULL when none is close or @word is
 * one of them.
 */
KVET_API const char *kvet_suggest(const char *word,
				  const char *const *candidates, size_t n);

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

/* The objects of a run, in input order (file, then position). */
KVET_API size_t kvet_ctx_object_count(const struct kvet_ctx *ctx);

/**
 * kvet_ctx_object() - the identity and place of one object.
 * @ctx: a context that has run.
 * @i: 0 to kvet_ctx_object_count() - 1.
 * @out: filled with strings borrowed from @ctx.
 *
 * Returns: 0, or -1 when @i is out of range (@out is then zeroed).
 */
KVET_API int kvet_ctx_object(const struct kvet_ctx *ctx, size_t i,
			     struct kvet_object_ref *out);

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

/* Namespace of namespaced objects that name none; before adding paths. */
/*
 * kvet_ctx_set_chart_dir() - the chart that rendered the input's "#
 * Source:" objects: a directory with Chart.yaml, or one holding the chart
 * as a subdirectory of its name. Without it, the chart is looked for in
 * the working directory. @dir is copied. Returns: 0, or -1 (OOM).
 */
KVET_API int kvet_ctx_set_chart_dir(struct kvet_ctx *ctx, const char *dir);

KVET_API int kvet_ctx_set_namespace(struct kvet_ctx *ctx, const char *ns);

/* Set or clear KVET_CTX_COMPLETE_INPUT. */
KVET_API void kvet_ctx_set_complete_input(struct kvet_ctx *ctx, bool on);

/**
 * kvet_ctx_set_require_objects() - with @on, a run in which no input
 * holds a Kubernetes object is an input error (exit 2), for CI gates that
 * must not pass on an empty render (--require-objects, requireObjects in
 * .kvet.yaml), and so is a directory added that gives no file to lint.
 * KVET_CTX_REQUIRE_OBJECTS in the options sets it at creation; this call
 * may come before or after the paths, as long as it is before
 * kvet_ctx_run().
 */
KVET_API void kvet_ctx_set_require_objects(struct kvet_ctx *ctx, bool on);

/**
 * kvet_ctx_set_max_input_size() - the size limit of each input
 * (--max-input-size, maxInputSize in .kvet.yaml); before
 * kvet_ctx_add_default_input() and kvet_ctx_run(). An input larger than
 * it is refused, and none is read past it.
 * @ctx: the context.
 * @bytes: 1 to KVET_INPUT_SIZE_MAX; 0 restores the default.
 */
KVET_API void kvet_ctx_set_max_input_size(struct kvet_ctx *ctx, size_t bytes);

/**
 * kvet_input_parse_size() - read a size limit: a whole number of bytes,
 * written as plain bytes (1000000) or as a Kubernetes quantity (512Mi,
 * 4Gi, 2G, 1.5Gi).
 * @s: the text.
 * @out: the size in bytes, when valid.
 *
 * Returns: 0, or -1 when @s is not such a size from 1 byte to
 * KVET_INPUT_SIZE_MAX (0, a negative or a fractional number of bytes,
 * more than 1Ti, not a quantity).
 */
KVET_API int kvet_input_parse_size(const char *s, size_t *out);

/**
 * kvet_ctx_add_exclude() - skip input files whose path matches a shell
 * glob, as given or after any '/' ("vendor/x*" skips "a/vendor/x.yaml");
 * call before adding paths.
 *
 * Returns: 0, or -1 when out of memory.
 */
KVET_API int kvet_ctx_add_exclude(struct kvet_ctx *ctx, const char *glob);

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

/*
 * Drain simulation (docs/drain.md): a context created with KVET_CTX_DRAIN
 * does not lint; kvet_ctx_run() loads a cluster dump (or rendered
 * manifests, installed on a synthetic pool: kvet_ctx_set_pool()) and
 * simulates draining its nodes, and the findings of the run are what the
 * drains run into, under the drain checks' rule ids (kvet_ctx_rule()).
 */
enum kvet_drain_plan {
	KVET_DRAIN_EACH_NODE,	/* every node alone, from the dump's state */
	KVET_DRAIN_ROLLING,	/* one node (or K) after another */
};

enum kvet_drain_order {
	KVET_DRAIN_ORDER_ZONE,	/* by zone label, then name */
	KVET_DRAIN_ORDER_NAME,	/* by name */
	KVET_DRAIN_ORDER_GIVEN,	/* as the node names were given */
};

enum kvet_drain_flags {
	KVET_DRAIN_FORCE = 1u << 0,		/* kubectl drain --force */
	KVET_DRAIN_KEEP_EMPTYDIR = 1u << 1,	/* --delete-emptydir-data=false */
	KVET_DRAIN_NO_IGNORE_DAEMONSETS = 1u << 2, /* --ignore-daemonsets=false */
};

/* Plain data: what to simulate. Zero is the default plan. */
struct kvet_drain_options {
	enum kvet_drain_plan plan;
	unsigned int flags;		/* enum kvet_drain_flags */
	unsigned int max_unavailable;	/* rolling: nodes per step; 0: 1 */
	unsigned int surge;		/* rolling: new empty nodes; 0: none,
					 * drained nodes come back empty */
	enum kvet_drain_order order;	/* rolling */
	const char *nodes;		/* a label selector (kubectl syntax:
					 * "pool=a,zone in (x,y)") or node
					 * names separated by commas; NULL:
					 * every node */
	/* kubectl drain --skip-wait-for-delete-timeout: on a node that is
	 * not Ready, stop waiting for an evicted pod's deletion after this
	 * many seconds, and skip the pods already terminating there; 0,
	 * kubectl's default: wait forever */
	unsigned int skip_wait_for_delete_timeout;
};

/**
 * kvet_ctx_set_drain() - what kvet_ctx_run() simulates, for a context
 * created with KVET_CTX_DRAIN; call before kvet_ctx_run().
 * @ctx: the context.
 * @opts: copied (its strings too).
 *
 * Returns: 0, or -1 when the context is no drain context, @opts->nodes
 * is no valid selector (a rule error says why) or memory ran out.
 */
KVET_API int kvet_ctx_set_drain(struct kvet_ctx *ctx,
				const struct kvet_drain_options *opts);

/*
 * A synthetic node pool (docs/drain.md, "Rendered manifests"): what
 * kvet_ctx_run() drains when the input has no Node and no Pod objects,
 * and what the rolling-upgrade-stalls check of kvet lint rolls.
 * Identical nodes named node-1, node-2, ... round-robin over zones
 * zone-a, zone-b, ...; --node-cpu and --node-memory are each node's
 * capacity, of which the kubelet's reservations leave the allocatable
 * (GKE's formula: 4 CPU and 16Gi leave 3920m and about 13.3Gi).
 */
enum kvet_pool_flags {
	KVET_POOL_SURGE = 1u << 0,	/* @surge is given, even 0 */
};

/*
 * Plain data. A zero field keeps what was set before (the
 * configuration's pool:, else the default: 3 nodes in 3 zones, 4 CPU,
 * 16Gi, 110 pods); labels and taints add to those set before.
 */
struct kvet_pool_options {
	unsigned int nodes;		/* 1 to 1000 */
	unsigned int zones;		/* 1 to 26, at most @nodes */
	const char *cpu;		/* a node's CPU: "4", "3500m" */
	const char *memory;		/* a node's memory: "16Gi" */
	unsigned int pods;		/* its pod limit (maxPods) */
	const char *const *labels;	/* "KEY=VALUE" */
	size_t n_labels;
	const char *const *taints;	/* "KEY[=VALUE]:EFFECT" */
	size_t n_taints;
	unsigned int max_unavailable;	/* rolling: nodes per step */
	unsigned int surge;		/* rolling: with KVET_POOL_SURGE */
	unsigned int flags;		/* enum kvet_pool_flags */
};

/**
 * kvet_ctx_set_pool() - describe the synthetic pool; call before
 * kvet_ctx_run(). A pool given here (nodes, zones, resources, labels or
 * taints) for an input that turns out to be a cluster dump is an input
 * error: a dump is drained on its own nodes.
 * @ctx: the context.
 * @opts: copied (its strings too).
 *
 * Returns: 0, or -1 when a value is invalid (a rule error says which)
 * or memory ran out.
 */
KVET_API int kvet_ctx_set_pool(struct kvet_ctx *ctx,
			       const struct kvet_pool_options *opts);

/**
 * kvet_pool_parse_size() - read "NODESxZONES" ("3x3", "6x2").
 * Returns: 0, or -1 when @s is no such size within the limits above.
 */
KVET_API int kvet_pool_parse_size(const char *s, unsigned int *nodes,
				  unsigned int *zones);

/* The pool a drain ran on. Plain data, borrowed from the context. */
struct kvet_drain_pool {
	unsigned int nodes, zones;
	long long cpu;			/* allocatable per node, millicores */
	long long memory;		/* bytes */
	long long pods;
	size_t pods_placed;		/* pods the workloads run */
	size_t pods_unplaced;		/* pods no node takes */
};

/* The pool of the run, or NULL when it drained a cluster dump. */
KVET_API const struct kvet_drain_pool *
kvet_ctx_drain_pool(const struct kvet_ctx *ctx);

enum kvet_drain_verdict {
	KVET_DRAIN_DRAINS,		/* no finding */
	KVET_DRAIN_WARNINGS,		/* findings, none an error */
	KVET_DRAIN_BLOCKED,		/* an error: the drain never completes */
	KVET_DRAIN_NOT_REACHED,		/* rolling: after the stall */
};

/* "drains", "drains-with-warnings", "blocked" or "not-reached". */
KVET_API const char *kvet_drain_verdict_name(enum kvet_drain_verdict v);

/* One node of the plan. Plain data, borrowed from the context. */
struct kvet_drain_node {
	struct kvet_object_ref node;	/* pos.line 0: a node kvet added */
	enum kvet_drain_verdict verdict;
	unsigned int step;		/* rolling: 1-based; 0: each node */
	size_t evicted;			/* pods evicted */
	size_t deleted;			/* deleted without eviction (done,
					 * pending, --force) */
	size_t left;			/* left on the node (DaemonSet,
					 * mirror pods) */
	const size_t *findings;		/* its findings, as indexes for
					 * kvet_ctx_finding() */
	size_t n_findings;
};

/* One step of a rolling plan. */
struct kvet_drain_step {
	unsigned int index;		/* 1-based */
	const char *const *nodes;	/* the nodes it drains */
	size_t n_nodes;
	bool stalled;			/* the roll stops here */
	const char *const *causes;	/* the chain of causes, outermost
					 * first; empty unless stalled */
	size_t n_causes;
};

/* Whether the run was a drain simulation that ran. */
KVET_API bool kvet_ctx_drain_ran(const struct kvet_ctx *ctx);
KVET_API enum kvet_drain_plan kvet_ctx_drain_plan(const struct kvet_ctx *ctx);
/* The nodes, in plan order (each node: by name). */
KVET_API size_t kvet_ctx_drain_node_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_drain_node *
kvet_ctx_drain_node(const struct kvet_ctx *ctx, size_t i);
/* The steps of a rolling plan, up to the one that stalls. */
KVET_API size_t kvet_ctx_drain_step_count(const struct kvet_ctx *ctx);
KVET_API const struct kvet_drain_step *
kvet_ctx_drain_step(const struct kvet_ctx *ctx, size_t i);

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
 * kvet_finding_fails() - whether a finding counts for the exit status:
 * its severity is at or above @fail_on, and @fail_never is false. The
 * one place that decides it, for kvet_ctx_exit_code() and the reports.
 */
KVET_API bool kvet_finding_fails(const struct kvet_finding *f,
				 enum kvet_severity fail_on, bool fail_never);

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

/* The flags the context was created with (enum kvet_ctx_flags). */
KVET_API unsigned int kvet_ctx_flags(const struct kvet_ctx *ctx);

/*
 * The checks of `kvet drain` (docs/drain.md), sorted by id: what a drain
 * reports (a context created with KVET_CTX_DRAIN), built into kvet.
 */
KVET_API size_t kvet_drain_check_count(void);
KVET_API const struct kvet_rule_info *kvet_drain_check(size_t i);

/**
 * kvet_ctx_write_rules() - write the list of rules (`kvet rules`): every
 * rule of kvet_ctx_rule_all(), disabled ones marked, then the checks of
 * kvet drain (kvet_drain_check()).
 * @ctx: the context, with its rules and settings.
 * @format: KVET_FORMAT_TEXT, one line per rule (id, severity, category,
 *          summary, "(disabled)"), or KVET_FORMAT_JSON (docs/formats.md;
 *          "command" says which command reports it).
 * @fp: the stream; flushed.
 *
 * Returns: 0, or -1 with errno set (EINVAL for another format, or the
 * write error).
 */
KVET_API int kvet_ctx_write_rules(const struct kvet_ctx *ctx,
				  enum kvet_format format, FILE *fp);

/**
 * kvet_text_write() - write text from kvet's inputs to a terminal or a
 * log: file names, messages, rule fields, as the text report writes them.
 * @fp: the stream.
 * @s: the bytes, not necessarily NUL-terminated.
 * @len: their number.
 *
 * Tabs are kept; every other control character (the C0 controls, line
 * feed included, DEL and the C1 controls) and every invalid byte becomes
 * U+FFFD, so that input cannot move the cursor, start a new line or send
 * escape sequences (CSI, OSC) to a terminal. Each code point stays one
 * code point, so a caret line computed on @s still lines up. Errors are
 * left to ferror().
 */
KVET_API void kvet_text_write(FILE *fp, const char *s, size_t len);

/* The process exit code for a run: see enum kvet_exit. An evaluation
 * error counts as an input error unless its rule tolerates it. */
KVET_API enum kvet_exit kvet_ctx_exit_code(const struct kvet_ctx *ctx,
					   enum kvet_severity fail_on,
					   bool fail_never);

#ifdef __cplusplus
}
#endif

#endif

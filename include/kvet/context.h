/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CONTEXT_H
#define KVET_CONTEXT_H

/*
 * A context: the inputs of one run, the run, and what it found. The
 * settings of lint are in kvet/lint.h, those of a drain in kvet/drain.h.
 */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kvet/common.h"

#ifdef __cplusplus
extern "C" {
#endif

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

/*
 * kvet_ctx_set_chart_dir() - the chart that rendered the input's "#
 * Source:" objects: a directory with Chart.yaml, or one holding the chart
 * as a subdirectory of its name. Without it, the chart is looked for in
 * the working directory. @dir is copied. Returns: 0, or -1 (OOM).
 */
KVET_API int kvet_ctx_set_chart_dir(struct kvet_ctx *ctx, const char *dir);

/* Namespace of namespaced objects that name none; before adding paths. */
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
 * kvet_ctx_threads() - how many threads the context's work may use: its
 * options' @jobs, or one per core when 0, at most 64. A renderer may
 * write a large report on as many.
 * @ctx: the context.
 *
 * Returns: 1 or more.
 */
KVET_API unsigned int kvet_ctx_threads(const struct kvet_ctx *ctx);

/* The flags the context was created with (enum kvet_ctx_flags). */
KVET_API unsigned int kvet_ctx_flags(const struct kvet_ctx *ctx);

/* The process exit code for a run: see enum kvet_exit. An evaluation
 * error counts as an input error unless its rule tolerates it. */
KVET_API enum kvet_exit kvet_ctx_exit_code(const struct kvet_ctx *ctx,
					   enum kvet_severity fail_on,
					   bool fail_never);

#ifdef __cplusplus
}
#endif

#endif

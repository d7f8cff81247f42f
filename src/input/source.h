/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_INPUT_SOURCE_H
#define KVET_INPUT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "input/render.h"
#include "input/seen.h"

enum kvet_source_kind {
	KVET_SOURCE_FILE,	/* a file, stdin or a buffer: read as it is */
	KVET_SOURCE_CHART,	/* a Helm chart: helm template's output */
	KVET_SOURCE_KUSTOMIZE,	/* a kustomization: kustomize build's */
};

/*
 * One input to load: a file, stdin, a caller's buffer, or the render of
 * a chart or kustomization. A render is a unit of its own: its objects
 * make their own graph and rule run; every plain input together makes
 * one more (unit 0).
 */
struct kvet_source {
	const char *name;	/* for positions; "<stdin>" for "-"; a render:
				 * "<helm template CHART [-f FILE]...>" */
	const char *path;	/* what to open; NULL for a buffer */
	char *buf;		/* the text, NUL-terminated; owned */
	size_t len;
	/* buf is a private, writable mapping of the regular file (a large
	 * one), map bytes long, not malloc'd: the loader may give its pages
	 * back once parsed (load.h, kvet_load_job_detach()) */
	bool mapped;
	size_t map;
	bool is_stdin;
	bool partial;		/* buf holds the first bytes of stdin only */
	bool failed;		/* could not be read (reported) */
	bool skip;		/* pulled in by a kustomize root: not read */
	enum kvet_source_kind kind;
	unsigned int unit;	/* 0: the plain inputs; a render's own */
	const char *unit_name;	/* a render, for every report: "CHART" or
				 * "CHART with ci/x-values.yaml", the
				 * kustomization's directory; NULL: plain */
	/* a chart render: the chart (directory or .tgz), the values files
	 * of this render in order (the chart's values.yaml is helm's
	 * own), and the release namespace: the --namespace given to helm
	 * template, which the model gives every namespaced object of the
	 * unit that names none */
	const char *chart_dir;
	const char *const *values;
	size_t n_values;
	const char *release_ns;
	const struct kvet_render_opts *render;	/* how to render; borrowed */
	/* a kustomize build: its directory, and each document's source
	 * file, in order */
	const char *kustomize_dir;
	struct kvet_origin *origins;
	size_t n_origins;
};

/* Is @path one the configuration excludes? */
typedef bool (*kvet_exclude_fn)(const void *user, const char *path);

/* A directory named as an input that gave no file to read. */
struct kvet_empty_dir {
	const char *path;
	bool excluded;		/* it had files, all excluded */
};

struct kvet_sources {
	struct kvet_source *v;
	size_t n, cap;
	struct kvet_seen seen;	/* every file and directory queued */
	bool have_stdin;
	kvet_exclude_fn excluded;	/* NULL: nothing is excluded */
	const void *excluded_user;
	struct kvet_empty_dir *empty;
	size_t n_empty, cap_empty;
	const struct kvet_render_opts *render;	/* NULL: charts and
						 * kustomizations are noted,
						 * not rendered */
	/* the options of one chart (its .kvet.yaml entry), or NULL:
	 * render everywhere */
	const struct kvet_render_opts *(*chart_opts)(const void *user,
						     const char *path);
	const void *chart_opts_user;
	bool drain;			/* one render per chart: no matrix */
	bool owners;			/* a file inside a chart or
					 * kustomization names that one */
	/* walking a repository around a change (kvet lint --changed):
	 * its charts and kustomizations are left out without a note (the
	 * ones a changed file lies in are queued as owners), and a
	 * directory met again is no news */
	bool context;
	unsigned int units;		/* renders queued so far */
};

void kvet_sources_release(struct kvet_sources *srcs);

/*
 * kvet_sources_add_path() - expand one command-line path into sources:
 * "-" is stdin, a file is itself, and a directory gives its *.yaml, *.yml
 * and *.json files, recursively, in byte order of their paths; Helm chart
 * sources and kustomize directories below it are left out with a note.
 * Every file and directory is read once, whatever number of paths, links
 * and symlinks lead to it: a later one gets a note. Paths that do not
 * exist, unreadable directories and symlink loops are errors in @diag
 * (without a line); a directory that gives no file is recorded in
 * srcs->empty.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_sources_add_path(struct kvet_sources *srcs, struct kvet_arena *arena,
			  struct kvet_diag *diag, const char *path);

/*
 * kvet_sources_add_default() - what to read when no path is given:
 * standard input unless it is a terminal, where "." is linted instead.
 * A pipe, a file or /dev/null is read even when empty, so that a render
 * that failed and wrote nothing never passes as the working directory's
 * manifests; a closed descriptor 0 is an error in @diag.
 * @max: unused (standard input is read with the others, to its limit).
 * Returns: 0, or -1 when out of memory.
 */
int kvet_sources_add_default(struct kvet_sources *srcs,
			     struct kvet_arena *arena, struct kvet_diag *diag,
			     size_t max);

/*
 * kvet_sources_add_chart() - queue the renders of the chart @path (a
 * directory with Chart.yaml, or a packaged .tgz): with the values files
 * of srcs->render when it names any; else once with the chart's defaults
 * and once per ci/ *-values.yaml file (sorted), as chart-testing does,
 * unless the options say no.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_sources_add_chart(struct kvet_sources *srcs,
			   struct kvet_arena *arena, const char *path);

/*
 * kvet_sources_add_owner() - queue the chart or kustomization @path lies
 * in (its nearest directory up with a Chart.yaml or kustomization file,
 * up to the working directory for a relative path), once however many of
 * its files are named.
 * Returns: 1 when @path lies in one (queued now or before, or excluded),
 * 0 when in none, -1 when out of memory.
 */
int kvet_sources_add_owner(struct kvet_sources *srcs, struct kvet_arena *arena,
			   const char *path);

/* Queue the build of the kustomization in @dir. 0, or -1 (OOM). */
int kvet_sources_add_kustomize(struct kvet_sources *srcs,
			       struct kvet_arena *arena, const char *dir);

/* Queue a copy of @data under @name. Returns 0, or -1 on OOM. */
int kvet_sources_add_buffer(struct kvet_sources *srcs,
			    struct kvet_arena *arena, const char *name,
			    const char *data, size_t len);

/* How long a named FIFO waits for a writer unless told otherwise. */
#define KVET_FIFO_WAIT_MS 10000u

/*
 * kvet_source_read() - read a file or stdin source into src->buf; usable
 * for any file kvet reads whole (configuration, baseline): set name and
 * path, and free src->buf afterwards.
 * @max: the size limit; reading stops one byte past it, so /dev/zero or
 *       an endless pipe costs @max bytes, then an error.
 * @wait_ms: how long a named FIFO may go without a writer: opening one
 *           for reading otherwise blocks until some process opens it for
 *           writing, which may be never.
 * On failure the error goes to @diag and src->failed is set.
 * Returns: 0 when read, 1 when reported, -1 when out of memory.
 */
int kvet_source_read(struct kvet_source *src, struct kvet_diag *diag,
		     size_t max, unsigned int wait_ms);

/* The same, rendering charts and kustomizations too: @arena holds what
 * a render keeps beside its text (the origins of a kustomize build). */
int kvet_source_read_in(struct kvet_source *src, struct kvet_diag *diag,
			struct kvet_arena *arena, size_t max,
			unsigned int wait_ms);

#endif

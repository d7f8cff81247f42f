/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_INPUT_RENDER_H
#define KVET_INPUT_RENDER_H

/*
 * Charts and kustomizations as inputs: kvet runs the user's helm or
 * kustomize and reads what it prints, as a source of its own (one unit:
 * its own object graph and rule run). Nothing runs through a shell.
 */
#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"

/*
 * The Kubernetes version kvet's rules describe (sidecar init containers,
 * policy/v1 budgets, autoscaling/v2): what a render is told the cluster
 * is, unless the user says otherwise, so that charts which test
 * .Capabilities do not fall back to removed APIs offline.
 */
#define KVET_KUBE_VERSION "1.32.0"

/* One --set, --set-string or --set-file, in the order given. */
struct kvet_render_set {
	const char *flag;	/* "--set", "--set-string", "--set-file" */
	const char *value;	/* "key=value" */
};

/*
 * How charts and kustomizations are rendered; the context owns it, and
 * every source it gives points at it (or at a per-chart copy).
 */
struct kvet_render_opts {
	const char *helm;		/* the helm program; NULL: helm on PATH */
	const char *kustomize;		/* kubectl or kustomize; NULL: on PATH */
	const char *release_name;	/* NULL: "release-name", as helm */
	const char *release_ns;		/* helm template --namespace */
	const char *kube_version;	/* NULL: KVET_KUBE_VERSION */
	const char *const *api_versions;	/* NULL: kvet's list */
	size_t n_api_versions;
	const char *const *values;	/* -f FILE, in order */
	size_t n_values;
	const struct kvet_render_set *sets;
	size_t n_sets;
	bool no_matrix;			/* ci/ values files: not one by one */
	bool no_defaults;		/* with a matrix: not the defaults too */
};

/*
 * kvet_render_chart() - run `helm template` on @chart, in namespace @ns
 * (NULL: ro->release_ns, then "default"), with @values (the
 * files of this render, in order) and the options of @ro; the output in
 * *@out (malloc'd, NUL-terminated), at most @max bytes.
 * Errors (helm missing, a non-zero exit quoting helm's message, output
 * over @max) go to @diag under @chart.
 * Returns: 0, 1 when reported, -1 when out of memory.
 */
int kvet_render_chart(const struct kvet_render_opts *ro, const char *chart,
		      const char *ns, const char *const *values,
		      size_t n_values,
		      struct kvet_diag *diag, size_t max, char **out,
		      size_t *len);

/* An object's source file, as kustomize's origin annotation names it. */
struct kvet_origin {
	const char *file;	/* relative to the working directory */
	unsigned int line;	/* its kind: line there, or 1 */
};

/*
 * kvet_render_kustomize() - build the kustomization in @dir (through a
 * wrapping kustomization in a temporary directory that asks for origin
 * annotations), strip those annotations from the output and return the
 * source of each document, in order, in *@origins (from @arena; a NULL
 * file where kustomize gave none, a generator's for instance).
 * Returns: 0, 1 when reported, -1 when out of memory.
 */
int kvet_render_kustomize(const struct kvet_render_opts *ro, const char *dir,
			  struct kvet_arena *arena, struct kvet_diag *diag,
			  size_t max, char **out, size_t *len,
			  struct kvet_origin **origins, size_t *n_origins);

/* render_run.c: run @argv (argv[0] a path), stdout into *@out (at most
 * @max bytes), stderr into *@err (truncated); *@status its exit status,
 * or -1 when it could not run (then *@err says why). 0, or -1 (OOM). */
int kvet_render_run(const char *const *argv, size_t max, char **out,
		    size_t *len, char **err, int *status, bool *too_large);

/* render_run.c: a tool's message on one line, "; " between its lines,
 * without trailing blanks (from @arena; @s itself when out of memory). */
char *kvet_render_one_line(struct kvet_arena *arena, char *s);

/* render_run.c: @prog itself when it has a '/', else the first
 * executable of that name on PATH, or NULL (from @arena). */
const char *kvet_render_find(struct kvet_arena *arena, const char *prog);

#endif

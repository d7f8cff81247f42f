/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Charts and kustomizations met as inputs: the renders they give, each a
 * source (and a unit) of its own. A chart with a ci/ folder of
 * *-values.yaml files is rendered once per file, plus once with its
 * defaults, as chart-testing's `ct lint` does.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "input/source.h"
#include "input/walk.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The chart's ci/ *-values.yaml files, sorted, as paths (from @arena). */
static int ci_values(struct kvet_arena *arena, const char *chart,
		     char ***out, size_t *n)
{
	char *dir = kvet_arena_printf(arena, "%s/ci", chart);
	static const char suffix[] = "-values.yaml";
	size_t cap = 0, sl = sizeof(suffix) - 1;
	struct dirent *de;
	DIR *d;

	*out = NULL;
	*n = 0;
	if (!dir)
		return -1;
	d = opendir(dir);
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);

		if (de->d_name[0] == '.' || len <= sl ||
		    strcmp(de->d_name + len - sl, suffix) != 0)
			continue;
		if (!kvet_vec_grow((void **)out, &cap, *n + 1, sizeof(**out)))
			goto oom;
		(*out)[*n] = kvet_arena_printf(arena, "%s/%s", dir,
					       de->d_name);
		if (!(*out)[(*n)++])
			goto oom;
	}
	closedir(d);
	if (*n)
		qsort(*out, *n, sizeof(**out), cmp_str);
	return 0;
oom:
	closedir(d);
	free(*out);
	*out = NULL;
	return -1;
}

/* The values file as reports show it: inside the chart, from there. */
static const char *short_values(const char *chart, const char *file)
{
	size_t cl = strlen(chart);

	if (strncmp(file, chart, cl) == 0 && file[cl] == '/')
		return file + cl + 1;
	return file;
}

static int push_render(struct kvet_sources *srcs, struct kvet_arena *arena,
		       const struct kvet_render_opts *ro, const char *chart,
		       const char *const *values, size_t n_values)
{
	struct kvet_source *src = kvet_sources_push(srcs);
	const char *name, *unit;
	size_t i;

	if (!src)
		return -1;
	name = kvet_arena_printf(arena, "<helm template %s", chart);
	unit = chart;
	for (i = 0; name && unit && i < n_values; i++) {
		name = kvet_arena_printf(arena, "%s -f %s", name, values[i]);
		unit = kvet_arena_printf(arena, "%s %s %s", unit,
					 i ? "and" : "with",
					 short_values(chart, values[i]));
	}
	name = name ? kvet_arena_printf(arena, "%s>", name) : NULL;
	if (!name || !unit)
		return -1;
	src->name = name;
	src->kind = KVET_SOURCE_CHART;
	src->unit = ++srcs->units;
	src->unit_name = unit;
	src->chart_dir = chart;
	src->values = values;
	src->n_values = n_values;
	src->render = ro;
	/* the context's namespace, unless the chart's options name one:
	 * settled before the render runs (kvet_ctx_run()) */
	src->release_ns = ro->release_ns;
	return 0;
}

/* @path without its trailing slashes ("chart/" names "chart"). */
static const char *tidy(struct kvet_arena *arena, const char *path)
{
	size_t n = strlen(path);

	while (n > 1 && path[n - 1] == '/')
		n--;
	return kvet_arena_strndup(arena, path, n);
}

int kvet_sources_add_chart(struct kvet_sources *srcs,
			   struct kvet_arena *arena, const char *path)
{
	const struct kvet_render_opts *ro;
	char **ci = NULL;
	size_t n_ci = 0, i;
	int rc = 0;

	path = tidy(arena, path);
	if (!path)
		return -1;
	ro = srcs->chart_opts ? srcs->chart_opts(srcs->chart_opts_user, path)
			      : srcs->render;

	if (ro->n_values)
		return push_render(srcs, arena, ro, path, ro->values,
				   ro->n_values);
	if (!ro->no_matrix && !srcs->drain && ci_values(arena, path, &ci, &n_ci))
		return -1;
	if ((!n_ci || !ro->no_defaults) &&
	    push_render(srcs, arena, ro, path, NULL, 0) < 0)
		rc = -1;
	for (i = 0; i < n_ci && !rc; i++) {
		const char **one = kvet_arena_alloc(arena, sizeof(*one));

		if (!one) {
			rc = -1;
			break;
		}
		one[0] = ci[i];
		rc = push_render(srcs, arena, ro, path, one, 1);
	}
	free(ci);
	return rc;
}

int kvet_sources_add_kustomize(struct kvet_sources *srcs,
			       struct kvet_arena *arena, const char *dir)
{
	struct kvet_source *src = kvet_sources_push(srcs);

	dir = tidy(arena, dir);
	if (!src || !dir)
		return -1;
	src->name = kvet_arena_printf(arena, "<kustomize build %s>", dir);
	if (!src->name)
		return -1;
	src->kind = KVET_SOURCE_KUSTOMIZE;
	src->kustomize_dir = dir;
	src->unit = ++srcs->units;
	src->unit_name = dir;
	src->render = srcs->render;
	return 0;
}

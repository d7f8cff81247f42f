/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The `charts:` section of .kvet.yaml: helm template's options for one
 * chart, keyed by its path (from the configuration file's directory):
 *
 *   charts:
 *     deploy/chart:
 *       values: [values-prod.yaml]   # from the chart's directory
 *       set: [replicas=3]
 *       namespace: shop
 *       releaseName: web
 *       valuesMatrix: false
 *       defaultValues: false
 *
 * The command line's options apply to every chart; a chart's entry adds
 * its values files and sets after them and replaces the rest.
 */
#include "api/context.h"
#include "api/config_charts.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "load/strict.h"

static const char *const chart_keys[] = { "values", "set", "namespace",
					  "releaseName", "valuesMatrix",
					  "defaultValues", NULL };

/* @rel from the directory of @file, or @rel itself when absolute. */
static char *from_dir_of(struct kvet_arena *arena, const char *file,
			 const char *rel)
{
	const char *slash = strrchr(file, '/');

	if (rel[0] == '/' || !slash)
		return kvet_arena_strdup(arena, rel);
	return kvet_arena_printf(arena, "%.*s/%s", (int)(slash - file), file,
				 rel);
}

static void apply_chart(struct kvet_strict *s, struct kvet_ctx *ctx,
			const struct kvet_pair *p)
{
	const struct kvet_node *e = &p->value, *n;
	struct kvet_chart_entry *c;
	const char **v;
	char *path, *key;
	size_t nv, i;
	bool on;

	if (!kvet_strict_map(s, e, "a charts: entry", chart_keys))
		return;
	key = kvet_arena_strndup(&ctx->arena, p->key.u.str, p->key.len);
	path = key ? from_dir_of(&ctx->arena, s->file, key) : NULL;
	if (!path) {
		kvet_strict_errorf(s, e, "out of memory");
		return;
	}
	c = realloc(ctx->chart_entries,
		    (ctx->n_chart_entries + 1) * sizeof(*c));
	if (!c) {
		kvet_strict_errorf(s, e, "out of memory");
		return;
	}
	ctx->chart_entries = c;
	c = &c[ctx->n_chart_entries++];
	memset(c, 0, sizeof(*c));
	/* compared by real path when a chart is met: the file may name a
	 * chart of another checkout's layout, which then matches nothing */
	c->path = path;
	c->matrix = c->defaults = -1;
	n = kvet_node_get(e, "values");
	if (n && kvet_strict_strings(s, n, "values", &v, &nv)) {
		for (i = 0; i < nv; i++)
			v[i] = from_dir_of(&ctx->arena,
					   kvet_arena_printf(&ctx->arena,
							     "%s/x", path),
					   v[i]);
		c->values = v;
		c->n_values = nv;
	}
	n = kvet_node_get(e, "set");
	if (n && kvet_strict_strings(s, n, "set", &v, &nv)) {
		c->sets = v;
		c->n_sets = nv;
	}
	n = kvet_node_get(e, "namespace");
	if (n)
		c->ns = kvet_strict_string(s, n, "namespace");
	n = kvet_node_get(e, "releaseName");
	if (n)
		c->release = kvet_strict_string(s, n, "releaseName");
	n = kvet_node_get(e, "valuesMatrix");
	if (n && kvet_strict_bool(s, n, "valuesMatrix", &on))
		c->matrix = on;
	n = kvet_node_get(e, "defaultValues");
	if (n && kvet_strict_bool(s, n, "defaultValues", &on))
		c->defaults = on;
}

void kvet_config_apply_charts(struct kvet_strict *s, struct kvet_ctx *ctx,
			      const struct kvet_node *charts)
{
	uint32_t i;

	if (!charts)
		return;
	if (!kvet_node_is_map(charts)) {
		kvet_strict_errorf(s, charts,
				   "charts must be a mapping of chart paths to their options");
		return;
	}
	for (i = 0; i < charts->len; i++)
		apply_chart(s, ctx, &charts->u.pairs[i]);
}

/* The options of the chart at @path: the command line's with its entry's
 * on top, or the command line's when it has none. */
const struct kvet_render_opts *kvet_ctx_chart_opts(const void *user,
						   const char *path)
{
	struct kvet_ctx *ctx = (struct kvet_ctx *)user;
	const struct kvet_chart_entry *c = NULL;
	struct kvet_render_opts *ro;
	struct kvet_render_set *sets;
	const char **values;
	char real[PATH_MAX];
	size_t i;

	if (!ctx->n_chart_entries || !realpath(path, real))
		return &ctx->render;
	for (i = 0; i < ctx->n_chart_entries && !c; i++) {
		char other[PATH_MAX];

		if (realpath(ctx->chart_entries[i].path, other) &&
		    strcmp(other, real) == 0)
			c = &ctx->chart_entries[i];
	}
	if (!c)
		return &ctx->render;
	ro = kvet_arena_alloc(&ctx->arena, sizeof(*ro));
	values = kvet_arena_array(&ctx->arena,
				  ctx->render.n_values + c->n_values + 1,
				  sizeof(*values));
	sets = kvet_arena_array(&ctx->arena, ctx->render.n_sets + c->n_sets + 1,
				sizeof(*sets));
	if (!ro || !values || !sets)
		return &ctx->render;
	*ro = ctx->render;
	for (i = 0; i < ctx->render.n_values; i++)
		values[i] = ctx->render.values[i];
	for (i = 0; i < c->n_values; i++)
		values[ctx->render.n_values + i] = c->values[i];
	ro->values = values;
	ro->n_values = ctx->render.n_values + c->n_values;
	for (i = 0; i < ctx->render.n_sets; i++)
		sets[i] = ctx->render.sets[i];
	for (i = 0; i < c->n_sets; i++) {
		sets[ctx->render.n_sets + i].flag = "--set";
		sets[ctx->render.n_sets + i].value = c->sets[i];
	}
	ro->sets = sets;
	ro->n_sets = ctx->render.n_sets + c->n_sets;
	if (c->ns)
		ro->release_ns = c->ns;
	if (c->release)
		ro->release_name = c->release;
	if (c->matrix >= 0)
		ro->no_matrix = !c->matrix;
	if (c->defaults >= 0)
		ro->no_defaults = !c->defaults;
	return ro;
}

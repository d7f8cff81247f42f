/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Units: the render of a chart (once per values file of its matrix) and
 * the build of a kustomize root are each linted alone, in an object
 * graph of their own, since they are installed alone: a budget of one
 * release must not be found to select another's pods. Every plain input
 * together (files, directories' loose manifests, standard input) is one
 * more unit, as all inputs were before. All findings go to one report.
 */
#include "api/context.h"

#include <stdlib.h>
#include <string.h>

#include "input/source.h"
#include "model/graph.h"

static int cmp_render(const void *a, const void *b)
{
	const struct kvet_source *x = a, *y = b;

	return strcmp(x->name, y->name);
}

int kvet_ctx_order_units(struct kvet_ctx *ctx)
{
	struct kvet_sources *srcs = &ctx->srcs;
	struct kvet_source *tmp;
	size_t i, plain = 0, r = 0, nr = 0;

	for (i = 0; i < srcs->n; i++) {
		struct kvet_source *src = &srcs->v[i];

		if (src->kind == KVET_SOURCE_FILE)
			continue;
		nr++;
		if (src->kind == KVET_SOURCE_CHART && !src->release_ns)
			src->release_ns = ctx->opts.default_namespace;
	}
	if (!nr)
		return 0;
	/* the report's order then does not depend on the order of the
	 * arguments that named the charts */
	tmp = malloc(srcs->n * sizeof(*tmp));
	if (!tmp)
		return -1;
	for (i = 0; i < srcs->n; i++)
		if (srcs->v[i].kind == KVET_SOURCE_FILE)
			tmp[plain++] = srcs->v[i];
	for (i = 0; i < srcs->n; i++)
		if (srcs->v[i].kind != KVET_SOURCE_FILE)
			tmp[plain + r++] = srcs->v[i];
	qsort(tmp + plain, nr, sizeof(*tmp), cmp_render);
	for (i = 0; i < nr; i++)
		tmp[plain + i].unit = (unsigned int)(i + 1);
	memcpy(srcs->v, tmp, srcs->n * sizeof(*tmp));
	free(tmp);
	return 0;
}

void kvet_ctx_report_empty_renders(struct kvet_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->nunits; i++) {
		const struct unit *u = &ctx->units[i];
		const struct kvet_source *src = u->src;
		const char *what, *where;

		if (src->kind == KVET_SOURCE_FILE || src->failed || src->skip ||
		    u->objs.n)
			continue;
		what = src->kind == KVET_SOURCE_CHART ? "helm template"
						      : "the kustomize build";
		where = src->kind == KVET_SOURCE_CHART ? src->chart_dir
						       : src->kustomize_dir;
		if (ctx->require_objects)
			kvet_diag_addf(&ctx->diag, where, 0, 0,
				       "the render of %s is empty: %s printed no Kubernetes object, and objects are required",
				       src->unit_name, what);
		else
			kvet_diag_notef(&ctx->diag, KVET_NOTICE_WARNING, where,
					0, 0,
					"the render of %s is empty: %s printed no Kubernetes object",
					src->unit_name, what);
	}
}

/* Keep @g to destroy with the context. 0, or -1 (OOM). */
static int keep_graph(struct kvet_ctx *ctx, struct kvet_graph *g)
{
	struct kvet_graph **v;

	v = realloc(ctx->unit_graphs,
		    (ctx->n_unit_graphs + 1) * sizeof(*v));
	if (!v) {
		kvet_graph_destroy(g);
		return -1;
	}
	ctx->unit_graphs = v;
	v[ctx->n_unit_graphs++] = g;
	return 0;
}

int kvet_ctx_lint_units(struct kvet_ctx *ctx,
			const struct kvet_graph_config *cfg)
{
	struct kvet_objects part = { 0 };
	unsigned int unit;
	size_t i, j;
	int ret = -1;

	for (unit = 0; unit <= ctx->srcs.units; unit++) {
		part.n = 0;
		for (i = 0; i < ctx->nunits; i++) {
			const struct unit *u = &ctx->units[i];

			if (u->src->unit != unit)
				continue;
			for (j = 0; j < u->objs.n; j++)
				if (kvet_objects_push(&part, u->objs.v[j]) < 0)
					goto out;
		}
		if (!part.n)
			continue;
		if (ctx->graph && keep_graph(ctx, ctx->graph) < 0) {
			ctx->graph = NULL;
			goto out;
		}
		ctx->graph = kvet_graph_create(&ctx->arena, part.v, part.n,
					       cfg);
		if (!ctx->graph)
			goto out;
		kvet_ctx_note_input_meaning(ctx);
		if (kvet_ctx_run_rules_unit(ctx) < 0)
			goto out;
	}
	/* no object anywhere: the rules still run, on an empty graph */
	if (!ctx->graph) {
		ctx->graph = kvet_graph_create(&ctx->arena, NULL, 0, cfg);
		if (!ctx->graph || kvet_ctx_run_rules_unit(ctx) < 0)
			goto out;
	}
	ret = kvet_ctx_finish_rules(ctx);
out:
	kvet_objects_release(&part);
	return ret;
}

const struct kvet_object *kvet_ctx_object_at(const struct kvet_ctx *ctx,
					     const struct kvet_object_ref *ref)
{
	size_t i;

	if (!ref->pos.file || ref->pos.file[0] != '<')
		return NULL;
	for (i = 0; i < ctx->objects.n; i++) {
		const struct kvet_object *o = ctx->objects.v[i];

		if (o->line == ref->pos.line && o->col == ref->pos.column &&
		    (o->file == ref->pos.file ||
		     !strcmp(o->file, ref->pos.file)))
			return o;
	}
	return NULL;
}

const struct kvet_source *kvet_ctx_render_of(const struct kvet_ctx *ctx,
					    const char *file)
{
	size_t i;

	if (!file || file[0] != '<')
		return NULL;
	for (i = 0; i < ctx->nunits; i++) {
		const struct kvet_source *src = ctx->units[i].src;

		if (src->kind != KVET_SOURCE_FILE &&
		    (src->name == file || strcmp(src->name, file) == 0))
			return src;
	}
	return NULL;
}

/* The place in its source file of an object a kustomize build printed,
 * from its origin annotation; false for any other object. */
static bool origin_place(const struct kvet_ctx *ctx,
			 const struct kvet_object *obj,
			 struct kvet_position *pos)
{
	const struct kvet_source *src = obj ? kvet_ctx_render_of(ctx, obj->file)
					    : NULL;
	const struct kvet_origin *og;

	if (!src || src->kind != KVET_SOURCE_KUSTOMIZE ||
	    obj->doc >= src->n_origins)
		return false;
	og = &src->origins[obj->doc];
	if (!og->file)
		return false;
	/* the rendered line is no line of that file: the object's kind:
	 * line there is */
	pos->file = og->file;
	pos->line = og->line;
	pos->column = 1;
	return true;
}

/* The related objects of a kustomize build at their source files. */
static void name_related(struct kvet_ctx *ctx, struct kvet_finding *f)
{
	struct kvet_object_ref *refs = NULL;
	struct kvet_position pos;
	size_t i;

	for (i = 0; i < f->n_related; i++) {
		const struct kvet_source *src =
			kvet_ctx_render_of(ctx, f->related[i].pos.file);

		/* the object search only for a build's objects: a chart's
		 * were placed by kvet_ctx_map_templates() */
		if (!src || src->kind != KVET_SOURCE_KUSTOMIZE ||
		    !origin_place(ctx, kvet_ctx_object_at(ctx, &f->related[i]),
				  &pos))
			continue;
		if (!refs) {
			refs = kvet_arena_array(&ctx->arena, f->n_related,
						sizeof(*refs));
			if (!refs)
				return;	/* out of memory: the build's lines */
			memcpy(refs, f->related, f->n_related * sizeof(*refs));
		}
		refs[i].pos = pos;
	}
	if (refs)
		f->related = refs;
}

void kvet_ctx_name_units(struct kvet_ctx *ctx)
{
	size_t i;

	if (!ctx->srcs.units)
		return;
	for (i = 0; i < ctx->findings.n; i++) {
		struct kvet_finding *f = &ctx->findings.v[i];
		const struct kvet_object *obj = ctx->findings.meta[i].obj;
		const struct kvet_source *src = kvet_ctx_render_of(ctx,
							  f->object.pos.file);

		if (!src)
			continue;
		f->unit = src->unit_name;
		name_related(ctx, f);
		if (origin_place(ctx, obj, &f->object.pos))
			f->pos = f->object.pos;
	}
}

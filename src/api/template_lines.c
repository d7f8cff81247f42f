/* SPDX-License-Identifier: Apache-2.0 */
#include "api/context.h"

#include <string.h>

#include "base/strbuf.h"
#include "chart/chart.h"
#include "load/node.h"

/*
 * A finding of an object that a chart template rendered ("# Source:")
 * is moved to the template line that printed its field (src/chart/),
 * and keeps its rendered place in `rendered`. The findings are already
 * sorted by their rendered places, which stays their order: the report
 * reads as the render does, whatever the chart's file layout.
 */

enum {
	/* the deepest a walk below an object goes: the loader's bound */
	MAX_DEPTH = KVET_LOAD_MAX_DEPTH + 2,
};

struct frame {
	const struct kvet_node *n;
	uint32_t next;		/* the next child to visit */
	const char *seg;	/* the segment that leads here */
	size_t len;
};

/*
 * The key path from @root to the node at @line:@col, into @sb, and the
 * scalar text there; false when no node is there. The first node met in
 * document order wins, so a mapping that starts at the place is taken
 * before its first key. Iterative, bounded by MAX_DEPTH.
 */
static bool field_at(const struct kvet_node *root, unsigned int line,
		     unsigned int col, struct kvet_strbuf *sb,
		     struct kvet_chart_field *f)
{
	struct frame st[MAX_DEPTH];
	size_t depth = 0, i;
	const struct kvet_node *hit = NULL;

	if (root->line == line && root->col == col)
		return true;
	st[depth++] = (struct frame){ root, 0, NULL, 0 };
	while (depth && !hit) {
		struct frame *fr = &st[depth - 1];
		const struct kvet_node *n = fr->n, *child;
		const char *seg;
		size_t len;

		if (fr->next >= (n->type == KVET_NODE_MAP ||
				 n->type == KVET_NODE_SEQ ? n->len : 0)) {
			depth--;
			continue;
		}
		if (n->type == KVET_NODE_MAP) {
			const struct kvet_pair *pr = &n->u.pairs[fr->next];

			child = &pr->value;
			seg = pr->key.u.str;
			len = pr->key.len;
			if (pr->key.line == line && pr->key.col == col)
				hit = child;
		} else {
			child = &n->u.items[fr->next];
			seg = "-";
			len = 1;
		}
		fr->next++;
		if (child->line == line && child->col == col)
			hit = child;
		if (depth == MAX_DEPTH) {
			hit = NULL;	/* deeper than any loaded tree */
			continue;
		}
		st[depth++] = (struct frame){ child, 0, seg, len };
	}
	if (!hit)
		return false;
	for (i = 1; i < depth; i++) {
		if (i > 1)
			kvet_strbuf_add(sb, &(char){ KVET_TPATH_SEP }, 1);
		kvet_strbuf_add(sb, st[i].seg, st[i].len);
	}
	/*
	 * A mapping starts at its first key, and the render's line there is
	 * that key's ("- name: data" for an item, "priorityClassName: x"
	 * for a pod spec): the field is the key, as the text report shows
	 * it, so the template line is the key's too.
	 */
	while (hit->type == KVET_NODE_MAP && hit->len &&
	       hit->u.pairs[0].key.line == line &&
	       hit->u.pairs[0].key.col == col && hit != root) {
		if (sb->len)
			kvet_strbuf_add(sb, &(char){ KVET_TPATH_SEP }, 1);
		kvet_strbuf_add(sb, hit->u.pairs[0].key.u.str,
				hit->u.pairs[0].key.len);
		hit = &hit->u.pairs[0].value;
	}
	if (kvet_node_is_scalar(hit) && hit->type != KVET_NODE_NULL) {
		f->text = hit->u.str;
		f->text_len = hit->len;
	}
	return true;
}

/*
 * The place of @obj among the objects of its input (one render) from the
 * same template and of its kind. Every unit's objects are in
 * ctx->objects; the graph is only the last unit's.
 */
static void ordinal(const struct kvet_ctx *ctx, const struct kvet_object *obj,
		    struct kvet_chart_field *f)
{
	size_t i;

	f->ordinal = f->count = 0;
	for (i = 0; i < ctx->objects.n; i++) {
		const struct kvet_object *o = ctx->objects.v[i];

		if (!o->source || strcmp(o->source, obj->source) ||
		    strcmp(o->kind, obj->kind) ||
		    (o->file != obj->file && strcmp(o->file, obj->file)))
			continue;
		if (o == obj)
			f->ordinal = f->count;
		f->count++;
	}
}

/* The help, with the values key that set the field. */
static const char *values_help(struct kvet_ctx *ctx, const char *help,
			       const struct kvet_chart_place *pl)
{
	const char *what;

	if (pl->values_file)
		what = kvet_arena_printf(&ctx->arena, "%s:%u: %s",
					 pl->values_file, pl->values_line,
					 pl->values_key);
	else
		what = kvet_arena_printf(&ctx->arena, "values key %s",
					 pl->values_key);
	if (!what)
		return NULL;
	if (!help || !*help)
		return kvet_arena_printf(&ctx->arena,
					 "the value comes from %s", what);
	return kvet_arena_printf(&ctx->arena, "%s (the value comes from %s)",
				 help, what);
}

/* Which version of the chart rendered @obj (map.c): its labels. */
static void chart_labels(const struct kvet_object *obj,
			 struct kvet_chart_field *cf)
{
	const struct kvet_node *labels, *label;

	labels = kvet_node_path(obj->root, "metadata", "labels", NULL);
	label = kvet_node_get(labels, "helm.sh/chart");
	if (kvet_node_is_string(label)) {
		cf->chart_label = label->u.str;
		cf->chart_label_len = label->len;
	}
	label = kvet_node_get(labels, "app.kubernetes.io/version");
	if (kvet_node_is_string(label)) {
		cf->app_version = label->u.str;
		cf->app_version_len = label->len;
	}
}

/* The template place of field @cf of @obj: 1 with @pl set, 0 when the
 * chart or its template is not found, -1 when out of memory. */
static int resolve(struct kvet_ctx *ctx, const struct kvet_object *obj,
		   struct kvet_chart_field *cf, struct kvet_chart_place *pl)
{
	const struct kvet_source *src;

	ordinal(ctx, obj, cf);
	/* a chart kvet rendered itself knows its directory and values;
	 * a piped render has --chart-dir or the working directory */
	src = kvet_ctx_render_of(ctx, obj->file);
	if (src && src->chart_dir)
		return kvet_chart_map_resolve(ctx->lint.chart_map, src->chart_dir,
					      src->values, src->n_values,
					      obj->source, cf, pl);
	return kvet_chart_map_resolve(ctx->lint.chart_map, ctx->lint.chart_dir, NULL, 0,
				      obj->source, cf, pl);
}

/*
 * The related objects of a render go to their templates too, at the
 * object's own place there (its kind: line): a note that says "related
 * PodDisruptionBudget" points at the file the user edits, as the
 * finding does.
 */
static int map_related(struct kvet_ctx *ctx, struct kvet_finding *f)
{
	struct kvet_object_ref *refs = NULL;
	struct kvet_chart_place pl;
	size_t i;
	int rc;

	for (i = 0; i < f->n_related; i++) {
		const struct kvet_object_ref *r = &f->related[i];
		struct kvet_chart_field cf = { .path = "" };
		const struct kvet_object *obj = kvet_ctx_object_at(ctx, r);

		if (!obj || !obj->source)
			continue;
		cf.kind = obj->kind;
		chart_labels(obj, &cf);
		rc = resolve(ctx, obj, &cf, &pl);
		if (rc < 0)
			return -1;
		if (!rc)
			continue;
		if (!refs) {
			refs = kvet_arena_array(&ctx->arena, f->n_related,
						sizeof(*refs));
			if (!refs)
				return -1;
			memcpy(refs, f->related, f->n_related * sizeof(*refs));
		}
		refs[i].pos.file = pl.file;
		refs[i].pos.line = pl.line;
		refs[i].pos.column = pl.column;
	}
	if (refs)
		f->related = refs;
	return 0;
}

static int map_one(struct kvet_ctx *ctx, struct kvet_finding *f,
		   const struct kvet_object *obj)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(&ctx->arena);
	struct kvet_chart_field cf = { .kind = obj->kind };
	struct kvet_chart_place pl;
	int rc;

	chart_labels(obj, &cf);
	if (!field_at(obj->root, f->pos.line, f->pos.column, &sb, &cf))
		return 0;
	cf.path = kvet_strbuf_str(&sb);
	if (sb.oom)
		return -1;
	rc = resolve(ctx, obj, &cf, &pl);
	if (rc <= 0)
		return rc;
	f->rendered = f->pos;
	f->pos.file = pl.file;
	f->pos.line = pl.line;
	f->pos.column = pl.column;
	if (pl.values_key) {
		f->help = values_help(ctx, f->help, &pl);
		if (!f->help)
			return -1;
	}
	return 0;
}

int kvet_ctx_map_templates(struct kvet_ctx *ctx)
{
	size_t i;

	for (i = 0; i < ctx->findings.n; i++) {
		struct kvet_finding *f = &ctx->findings.v[i];
		const struct kvet_object *obj = ctx->findings.meta[i].obj;

		if (!f->source || !obj || obj->source != f->source)
			continue;
		if (!ctx->lint.chart_map) {
			ctx->lint.chart_map = kvet_chart_map_create(NULL);
			if (!ctx->lint.chart_map)
				return -1;
		}
		if (map_one(ctx, f, obj) < 0 || map_related(ctx, f) < 0)
			return -1;
	}
	return 0;
}

int kvet_ctx_set_chart_dir(struct kvet_ctx *ctx, const char *dir)
{
	ctx->lint.chart_dir = dir ? kvet_arena_strdup(&ctx->arena, dir) : NULL;
	return dir && !ctx->lint.chart_dir ? -1 : 0;
}

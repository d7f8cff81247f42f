/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kustomize roots: of the kustomizations a run met, only those that no
 * other one pulls in (through resources, bases or components) are built,
 * each as its unit; a base is linted inside the overlays that use it,
 * not once more alone. A plain file a kustomization pulls in (a resource
 * or a patch outside the directories the walk leaves out) is not linted
 * again as a loose manifest either: a patch is no object.
 */
#include "api/context.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/read_file.h"
#include "input/source.h"
#include "load/load.h"
#include "load/node.h"

/* The kustomization file of @dir, as kustomize looks for it. */
static bool kustomization_file(const char *dir, char *path, size_t size)
{
	static const char *const names[] = { "kustomization.yaml",
					     "kustomization.yml",
					     "Kustomization" };
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, size, "%s/%s", dir, names[i]);
		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return true;
	}
	return false;
}

/* Mark every source whose file or directory is @real as pulled in. */
static void mark(struct kvet_ctx *ctx, const char *real)
{
	char other[PATH_MAX];
	size_t i;

	for (i = 0; i < ctx->srcs.n; i++) {
		struct kvet_source *src = &ctx->srcs.v[i];
		const char *p = src->kind == KVET_SOURCE_KUSTOMIZE
					? src->kustomize_dir
				: src->kind == KVET_SOURCE_FILE ? src->path
								: NULL;

		if (p && realpath(p, other) && strcmp(other, real) == 0)
			src->skip = true;
	}
}

/* An entry of a kustomization: a path from its directory @dir. */
static void mark_entry(struct kvet_ctx *ctx, const char *dir,
		       const struct kvet_node *n)
{
	char path[PATH_MAX], real[PATH_MAX];

	if (!n || !kvet_node_is_scalar(n) || !n->len ||
	    strstr(n->u.str, "://") || n->u.str[0] == '/')
		return;
	snprintf(path, sizeof(path), "%s/%.*s", dir, (int)n->len, n->u.str);
	if (realpath(path, real))
		mark(ctx, real);
}

/* The entries of a list: strings, or maps with a path: (patches). */
static void mark_list(struct kvet_ctx *ctx, const char *dir,
		      const struct kvet_node *list)
{
	uint32_t i;

	if (!list || !kvet_node_is_seq(list))
		return;
	for (i = 0; i < list->len; i++) {
		const struct kvet_node *it = &list->u.items[i];

		mark_entry(ctx, dir,
			   kvet_node_is_map(it) ? kvet_node_get(it, "path") : it);
	}
}

static void mark_pulled_in(struct kvet_ctx *ctx, const char *dir)
{
	static const char *const keys[] = { "resources", "bases",
					    "components", "crds",
					    "patchesStrategicMerge", "patches",
					    "patchesJson6902" };
	struct kvet_arena arena;
	struct kvet_diag diag;
	struct kvet_docs docs = { 0 };
	struct kvet_file f;
	char path[PATH_MAX];
	size_t i, k;

	if (!kustomization_file(dir, path, sizeof(path)) ||
	    kvet_file_read(path, 1u << 24, &f) != KVET_FILE_OK)
		return;
	kvet_arena_init(&arena);
	kvet_diag_init(&diag, &arena);
	/* a kustomization kustomize cannot read fails its own build,
	 * which says why; here it only pulls nothing in */
	if (kvet_load_buffer(&arena, &diag, path, f.buf, f.len, &docs) == 0)
		for (i = 0; i < docs.n; i++)
			for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
				mark_list(ctx, dir,
					  kvet_node_get(docs.v[i].root,
							keys[k]));
	kvet_docs_release(&docs);
	kvet_diag_release(&diag);
	kvet_arena_release(&arena);
	free(f.buf);
}

void kvet_ctx_pick_roots(struct kvet_ctx *ctx)
{
	size_t i, n = 0;

	for (i = 0; i < ctx->srcs.n; i++)
		n += ctx->srcs.v[i].kind == KVET_SOURCE_KUSTOMIZE;
	if (!n)
		return;
	/* every kustomization's entries count, a root's and a base's
	 * alike: a base of a base is no root either */
	for (i = 0; i < ctx->srcs.n; i++)
		if (ctx->srcs.v[i].kind == KVET_SOURCE_KUSTOMIZE)
			mark_pulled_in(ctx, ctx->srcs.v[i].kustomize_dir);
}

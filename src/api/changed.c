/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet lint --changed: lint what a change lives in, report what concerns
 * it. pre-commit hands kvet the changed files only; linted alone, a PDB
 * changed to maxUnavailable: 0 has no Deployment to block, and the risk
 * kvet exists to find passes. So the context is the repository's plain
 * manifests as one graph, plus the chart or kustomization each changed
 * file lies in (rendered: a changed template re-lints its chart), and
 * the report keeps what touches a changed file: a finding whose object
 * or related object is in one, every finding of those renders, and the
 * changed files' own errors. Old findings elsewhere stay out of the way.
 */
#include "api/context.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/repo.h"
#include "base/vec.h"
#include "input/source.h"

/* A file name of a finding or error, and whether it is a changed file:
 * names are shared pointers, so most lookups end at the first test. */
struct changed_memo {
	const char *name;
	bool in;
};

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The repository root relative to the working directory: "." or
 * "../..", where the nearest .git is; "." without one. NULL: OOM. */
static const char *repo_root(struct kvet_ctx *ctx, const char **top)
{
	char cwd[PATH_MAX];

	*top = NULL;
	if (!realpath(".", cwd))
		return ".";
	*top = kvet_repo_top(&ctx->arena, cwd);
	if (!*top)
		return ".";
	return kvet_path_from(&ctx->arena, *top, cwd);
}

/* Is the real path @real inside the directory @top? */
static bool under(const char *real, const char *top)
{
	size_t n = strlen(top);

	if (!strcmp(top, "/"))
		return true;
	return !strncmp(real, top, n) && real[n] == '/';
}

KVET_API int kvet_ctx_add_changed(struct kvet_ctx *ctx,
				  const char *const *files, size_t n)
{
	char real[PATH_MAX];
	const char *top, *root;
	struct stat st;
	size_t i;
	int rc;

	ctx->lint.changed_mode = true;
	root = repo_root(ctx, &top);
	if (!root)
		return -1;
	for (i = 0; i < n; i++) {
		const char *path;

		/* a deleted file has no object left to report on */
		if (!realpath(files[i], real) || stat(real, &st) < 0 ||
		    !S_ISREG(st.st_mode))
			continue;
		if (!kvet_vec_grow((void **)&ctx->lint.changed, &ctx->lint.cap_changed,
				   ctx->lint.n_changed + 1, sizeof(*ctx->lint.changed)))
			return -1;
		ctx->lint.changed[ctx->lint.n_changed] = kvet_arena_strdup(&ctx->arena,
								 real);
		path = kvet_arena_strdup(&ctx->arena, files[i]);
		if (!ctx->lint.changed[ctx->lint.n_changed++] || !path)
			return -1;
		rc = ctx->srcs.render ? kvet_sources_add_owner(&ctx->srcs,
							       &ctx->arena,
							       path)
				      : 0;
		if (rc < 0)
			return -1;
		/* outside the repository, the file is its own context */
		if (rc == 0 && top && !under(real, top) &&
		    kvet_sources_add_path(&ctx->srcs, &ctx->arena,
					  &ctx->path_diag, path) < 0)
			return -1;
	}
	if (ctx->lint.n_changed > 1)
		qsort(ctx->lint.changed, ctx->lint.n_changed, sizeof(*ctx->lint.changed),
		      cmp_path);
	ctx->srcs.context = true;
	rc = kvet_sources_add_path(&ctx->srcs, &ctx->arena, &ctx->path_diag,
				   root);
	ctx->srcs.context = false;
	return rc;
}

/* Is @name (as the input named it) a changed file? */
static bool in_change(struct kvet_ctx *ctx, const char *name)
{
	char real[PATH_MAX];
	const char *key = real;
	struct changed_memo *m;
	size_t i;

	if (!name)
		return false;
	for (i = ctx->lint.n_memo; i-- > 0;)
		if (ctx->lint.memo[i].name == name ||
		    !strcmp(ctx->lint.memo[i].name, name))
			return ctx->lint.memo[i].in;
	if (!kvet_vec_grow((void **)&ctx->lint.memo, &ctx->lint.cap_memo,
			   ctx->lint.n_memo + 1, sizeof(*ctx->lint.memo)))
		return true;	/* out of memory: rather say too much */
	m = &ctx->lint.memo[ctx->lint.n_memo++];
	m->name = name;
	/* no changed file at all (every one deleted): nothing is in it */
	m->in = ctx->lint.n_changed && realpath(name, real) &&
		bsearch(&key, ctx->lint.changed, ctx->lint.n_changed,
			sizeof(*ctx->lint.changed), cmp_path);
	return m->in;
}

bool kvet_ctx_concerns_change(struct kvet_ctx *ctx,
			      const struct kvet_finding *f)
{
	size_t i;

	if (!ctx->lint.changed_mode || f->unit)
		return true;
	if (in_change(ctx, f->object.pos.file) || in_change(ctx, f->pos.file))
		return true;
	for (i = 0; i < f->n_related; i++)
		if (in_change(ctx, f->related[i].pos.file))
			return true;
	return false;
}

/* An error or notice stays unless it is a plain file's the change did
 * not touch: those of renders, directories and the run as a whole stay. */
static bool keep_place(struct kvet_ctx *ctx, const char *file)
{
	struct stat st;

	if (!file || stat(file, &st) < 0 || !S_ISREG(st.st_mode))
		return true;
	return in_change(ctx, file);
}

void kvet_ctx_keep_changed_diag(struct kvet_ctx *ctx)
{
	struct kvet_diag *d = &ctx->diag;
	size_t i, out;

	if (!ctx->lint.changed_mode)
		return;
	for (i = out = 0; i < d->n; i++)
		if (keep_place(ctx, d->errors[i].pos.file))
			d->errors[out++] = d->errors[i];
	d->n = out;
	for (i = out = 0; i < d->n_notices; i++)
		if (keep_place(ctx, d->notices[i].pos.file))
			d->notices[out++] = d->notices[i];
	d->n_notices = out;
}

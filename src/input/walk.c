/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Directory walks: which files below a directory are inputs. Each file
 * and directory is visited once, by device and inode, however many
 * symlinks lead to it (a tree of non-looping symlinks would otherwise be
 * walked once per path through it: 2^n times for n levels of two links);
 * a Helm chart source or a kustomize directory is not entered, since its
 * files become manifests only once rendered: it is queued as a render
 * (input/project.c), or noted when the caller renders nothing.
 */
#include "input/walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/vec.h"

/* A directory on the walk, with the chain of directories above it so
 * that a symlink back to an ancestor is seen as the loop it is. */
struct dir_entry {
	const char *path;
	dev_t dev;
	ino_t ino;
	size_t parent;		/* index + 1, or 0 for the root */
};

struct walk {
	struct kvet_sources *srcs;
	struct kvet_arena *arena;	/* paths that outlive the walk */
	struct kvet_arena scratch;	/* the entries of one directory */
	struct kvet_diag *diag;
	struct dir_entry *dirs;
	size_t ndirs, capdirs;
	char **files;
	size_t nfiles, capfiles;
	char **names;		/* entries of the directory being read */
	size_t nnames, capnames;
	size_t excluded;	/* files the configuration left out */
};

/* What a source directory is, by its file of kvet_project_files (walk.h). */
enum project {
	PROJECT_NONE,
	PROJECT_HELM,
	PROJECT_KUSTOMIZE,
};

const char *const kvet_project_files[KVET_PROJECT_FILES] = {
	"Chart.yaml", "kustomization.yaml", "kustomization.yml",
	"Kustomization",
};

bool kvet_chart_archive_name(const char *name)
{
	size_t len = strlen(name);

	return len > 4 && strcmp(name + len - 4, ".tgz") == 0;
}

bool kvet_unit_file_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t i;

	base = base ? base + 1 : path;
	for (i = 0; i < KVET_PROJECT_FILES; i++)
		if (!strcmp(base, kvet_project_files[i]))
			return true;
	/* values.yaml, values-prod.yaml, and chart-testing's
	 * ci/ *-values.yaml */
	return strstr(base, "values") && kvet_manifest_name(base);
}

bool kvet_manifest_name(const char *name)
{
	static const char *const exts[] = { ".yaml", ".yml", ".json" };
	size_t len = strlen(name), i;

	for (i = 0; i < sizeof(exts) / sizeof(exts[0]); i++) {
		size_t el = strlen(exts[i]);

		if (len > el && strcmp(name + len - el, exts[i]) == 0)
			return true;
	}
	return false;
}

void kvet_note_seen(struct kvet_diag *diag, const char *path,
		    const char *first, bool is_dir)
{
	if (strcmp(path, first) == 0)
		kvet_diag_notef(diag, KVET_NOTICE_NOTE, path, 0, 0,
				"named more than once: read once");
	else if (is_dir)
		kvet_diag_notef(diag, KVET_NOTICE_NOTE, path, 0, 0,
				"same directory as '%s': its files are read once",
				first);
	else
		kvet_diag_notef(diag, KVET_NOTICE_NOTE, path, 0, 0,
				"same file as '%s': read once", first);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_ancestor(const struct walk *w, size_t parent, dev_t dev,
			ino_t ino)
{
	while (parent) {
		const struct dir_entry *d = &w->dirs[parent - 1];

		if (d->dev == dev && d->ino == ino)
			return true;
		parent = d->parent;
	}
	return false;
}

static char *join(struct kvet_arena *arena, const char *dir, const char *name)
{
	size_t dl = strlen(dir);

	if (dl && dir[dl - 1] == '/')
		return kvet_arena_printf(arena, "%s%s", dir, name);
	return kvet_arena_printf(arena, "%s/%s", dir, name);
}

static bool excluded(const struct walk *w, const char *path)
{
	return w->srcs->excluded &&
	       w->srcs->excluded(w->srcs->excluded_user, path);
}

/*
 * The entries of @dpath, sorted, into w->names: what is met first then
 * never depends on readdir(), so neither do the notes about duplicates.
 * Returns: 0, 1 when the directory cannot be read (reported), or -1.
 */
static int read_names(struct walk *w, const char *dpath)
{
	struct dirent *de;
	DIR *dir = opendir(dpath);
	int ret = -1;

	w->nnames = 0;
	if (!dir) {
		kvet_diag_addf(w->diag, dpath, 0, 0,
			       "cannot read directory: %s", strerror(errno));
		return 1;
	}
	while ((de = readdir(dir)) != NULL) {
		/* hidden entries (.git, .github, .kvet.yaml,
		 * .pre-commit-config.yaml) are tooling, not manifests; name
		 * them to lint them */
		if (de->d_name[0] == '.')
			continue;
		if (!kvet_vec_grow((void **)&w->names, &w->capnames,
				   w->nnames + 1, sizeof(*w->names)))
			goto out;
		w->names[w->nnames] = kvet_arena_strdup(&w->scratch,
							de->d_name);
		if (!w->names[w->nnames++])
			goto out;
	}
	if (w->nnames)
		qsort(w->names, w->nnames, sizeof(*w->names), cmp_str);
	ret = 0;
out:
	closedir(dir);
	return ret;
}

/* The project file in the directory just read, or NULL. */
static const char *project_file(struct walk *w, const char *dpath,
				enum project *kind)
{
	struct stat st;
	size_t i, j;
	char *path;

	for (i = 0; i < KVET_PROJECT_FILES; i++)
		for (j = 0; j < w->nnames; j++) {
			if (strcmp(w->names[j], kvet_project_files[i]) != 0)
				continue;
			path = join(&w->scratch, dpath, w->names[j]);
			if (path && stat(path, &st) == 0 &&
			    S_ISREG(st.st_mode)) {
				*kind = i == 0 ? PROJECT_HELM
					       : PROJECT_KUSTOMIZE;
				return kvet_project_files[i];
			}
		}
	*kind = PROJECT_NONE;
	return NULL;
}

/* One note per source directory: what is left out and how to lint it. */
static void note_project(struct walk *w, const char *dpath, enum project kind,
			 const char *file)
{
	if (excluded(w, dpath))
		return;
	if (kind == PROJECT_HELM)
		kvet_diag_notef(w->diag, KVET_NOTICE_NOTE, dpath, 0, 0,
				"Helm chart source (Chart.yaml): nothing below it is linted; render it and lint the output: helm template NAME %s | kvet lint",
				dpath);
	else
		kvet_diag_notef(w->diag, KVET_NOTICE_NOTE, dpath, 0, 0,
				"kustomize directory (%s): nothing below it is linted; render it and lint the output: kustomize build %s | kvet lint (or kubectl kustomize %s | kvet lint)",
				file, dpath, dpath);
}

/*
 * Keep @child's name and claim its inode: 1 when it is new, 0 when another
 * path reached it first (a note says which), -1 when out of memory.
 */
static int claim(struct walk *w, const char *child, const struct stat *cst,
		 bool dir, char **kept)
{
	const char *first;
	int rc;

	*kept = kvet_arena_strdup(w->arena, child);
	if (!*kept)
		return -1;
	rc = kvet_seen_add(&w->srcs->seen, cst->st_dev, cst->st_ino, *kept,
			   &first);
	if (rc == 0 && !w->srcs->context)
		kvet_note_seen(w->diag, *kept, first, dir);
	return rc;
}

static int add_dir(struct walk *w, size_t self, const char *child,
		   const struct stat *cst)
{
	char *kept;
	int rc;

	if (is_ancestor(w, self + 1, cst->st_dev, cst->st_ino)) {
		kept = kvet_arena_strdup(w->arena, child);
		if (!kept)
			return -1;
		kvet_diag_addf(w->diag, kept, 0, 0,
			       "symlink loop: the directory contains itself");
		return 0;
	}
	rc = claim(w, child, cst, true, &kept);
	if (rc <= 0)
		return rc;
	if (!kvet_vec_grow((void **)&w->dirs, &w->capdirs, w->ndirs + 1,
			   sizeof(*w->dirs)))
		return -1;
	w->dirs[w->ndirs++] = (struct dir_entry){ kept, cst->st_dev,
						  cst->st_ino, self + 1 };
	return 0;
}

static int add_file(struct walk *w, const char *child, const struct stat *cst)
{
	char *kept;
	int rc;

	/* left out before it counts as seen: another path to the same file
	 * that is not excluded is still read */
	if (excluded(w, child)) {
		w->excluded++;
		return 0;
	}
	rc = claim(w, child, cst, false, &kept);
	if (rc <= 0)
		return rc;
	if (!kvet_vec_grow((void **)&w->files, &w->capfiles, w->nfiles + 1,
			   sizeof(*w->files)))
		return -1;
	w->files[w->nfiles++] = kept;
	return 0;
}

/* Queue the subdirectories and take the files of directory @self. */
static int walk_one(struct walk *w, size_t self)
{
	const char *dpath = w->dirs[self].path, *file;
	enum project kind;
	struct stat cst;
	size_t i;
	int rc = 0;

	file = project_file(w, dpath, &kind);
	if (file && w->srcs->context)
		return 0;
	if (file && w->srcs->render && !excluded(w, dpath)) {
		if (kind == PROJECT_HELM)
			return kvet_sources_add_chart(w->srcs, w->arena,
						      dpath);
		return kvet_sources_add_kustomize(w->srcs, w->arena, dpath);
	}
	if (file) {
		note_project(w, dpath, kind, file);
		return 0;
	}
	for (i = 0; i < w->nnames && rc == 0; i++) {
		const char *name = w->names[i];
		/* around a change, files are named from the repository's
		 * root, as git and pre-commit name them */
		char *child = w->srcs->context && !strcmp(dpath, ".")
				      ? kvet_arena_strdup(&w->scratch, name)
				      : join(&w->scratch, dpath, name);

		if (!child)
			return -1;
		if (stat(child, &cst) < 0) {
			/* a dangling symlink is no manifest: skip it unless
			 * its name says it should have been */
			if (!kvet_manifest_name(name))
				continue;
			child = kvet_arena_strdup(w->arena, child);
			if (!child)
				return -1;
			kvet_diag_addf(w->diag, child, 0, 0,
				       "cannot open: %s", strerror(errno));
		} else if (S_ISDIR(cst.st_mode)) {
			rc = add_dir(w, self, child, &cst);
		} else if (S_ISREG(cst.st_mode) && kvet_manifest_name(name)) {
			rc = add_file(w, child, &cst);
		} else if (S_ISREG(cst.st_mode) && w->srcs->render &&
			   kvet_chart_archive_name(name) && !excluded(w, child)) {
			child = kvet_arena_strdup(w->arena, child);
			rc = child ? kvet_sources_add_chart(w->srcs, w->arena,
							    child)
				   : -1;
		}
	}
	return rc;
}

/* A named directory that gave nothing and no message saying why. */
static int record_empty(struct kvet_sources *srcs, const char *root,
			bool all_excluded)
{
	if (!kvet_vec_grow((void **)&srcs->empty, &srcs->cap_empty,
			   srcs->n_empty + 1, sizeof(*srcs->empty)))
		return -1;
	srcs->empty[srcs->n_empty].path = root;
	srcs->empty[srcs->n_empty].excluded = all_excluded;
	srcs->n_empty++;
	return 0;
}

/*
 * Walk the directory tree below @root without recursion: directories wait
 * in a list and are read one after the other, so the walk is breadth
 * first and a file met under two paths keeps the shorter one; the files
 * found are sorted once at the end.
 */
int kvet_walk_dir(struct kvet_sources *srcs, struct kvet_arena *arena,
		  struct kvet_diag *diag, const char *root,
		  const struct stat *st)
{
	struct walk w = { .srcs = srcs, .arena = arena, .diag = diag };
	size_t said = diag->n + diag->n_notices, next = 0, i;
	unsigned int units = srcs->units;
	struct kvet_arena_mark mark;
	struct kvet_source *src;
	int ret = -1, rc;

	kvet_arena_init(&w.scratch);
	if (!kvet_vec_grow((void **)&w.dirs, &w.capdirs, 1, sizeof(*w.dirs)))
		goto out;
	w.dirs[w.ndirs++] = (struct dir_entry){ root, st->st_dev, st->st_ino,
						0 };
	while (next < w.ndirs) {
		size_t self = next++;

		kvet_arena_mark(&w.scratch, &mark);
		rc = read_names(&w, w.dirs[self].path);
		if (rc == 0)
			rc = walk_one(&w, self);
		kvet_arena_reset(&w.scratch, &mark);
		if (rc < 0)
			goto out;
	}
	if (!w.nfiles && diag->n + diag->n_notices == said &&
	    srcs->units == units &&
	    record_empty(srcs, root, w.excluded > 0) < 0)
		goto out;
	if (w.nfiles)
		qsort(w.files, w.nfiles, sizeof(*w.files), cmp_str);
	for (i = 0; i < w.nfiles; i++) {
		src = kvet_sources_push(srcs);
		if (!src)
			goto out;
		src->name = src->path = w.files[i];
	}
	ret = 0;
out:
	free(w.dirs);
	free(w.files);
	free(w.names);
	kvet_arena_release(&w.scratch);
	return ret;
}

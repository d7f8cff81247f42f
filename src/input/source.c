/* SPDX-License-Identifier: Apache-2.0 */
#include "input/source.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/vec.h"

void kvet_sources_release(struct kvet_sources *srcs)
{
	size_t i;

	if (!srcs)
		return;
	for (i = 0; i < srcs->n; i++)
		free(srcs->v[i].buf);
	free(srcs->v);
	memset(srcs, 0, sizeof(*srcs));
}

static struct kvet_source *push(struct kvet_sources *srcs)
{
	struct kvet_source *src;

	if (!kvet_vec_grow((void **)&srcs->v, &srcs->cap, srcs->n + 1,
			   sizeof(*srcs->v)))
		return NULL;
	src = &srcs->v[srcs->n++];
	memset(src, 0, sizeof(*src));
	return src;
}

static bool manifest_name(const char *name)
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

/* A directory on the walk, with the chain of directories above it so
 * that a symlink back to an ancestor is seen as the loop it is. */
struct dir_entry {
	const char *path;
	dev_t dev;
	ino_t ino;
	size_t parent;		/* index + 1, or 0 for the root */
};

struct walk {
	struct dir_entry *dirs;
	size_t ndirs, capdirs;
	char **files;
	size_t nfiles, capfiles;
};

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

/*
 * Walk the directory tree below @root without recursion: directories
 * wait in a list and are read one after the other; the files found are
 * sorted once at the end, so the order never depends on readdir().
 */
static int walk_dir(struct walk *w, struct kvet_arena *arena,
		    struct kvet_diag *diag, const char *root,
		    const struct stat *st)
{
	size_t next = 0;

	if (!kvet_vec_grow((void **)&w->dirs, &w->capdirs, w->ndirs + 1,
			   sizeof(*w->dirs)))
		return -1;
	w->dirs[w->ndirs++] = (struct dir_entry){ root, st->st_dev,
						  st->st_ino, 0 };
	while (next < w->ndirs) {
		size_t self = next++;
		const char *dpath = w->dirs[self].path;
		struct dirent *de;
		DIR *dir = opendir(dpath);

		if (!dir) {
			kvet_diag_addf(diag, dpath, 0, 0,
				       "cannot read directory: %s",
				       strerror(errno));
			continue;
		}
		while ((de = readdir(dir)) != NULL) {
			struct stat cst;
			char *child;

			/* hidden entries (.git, .github, .kvet.yaml,
			 * .pre-commit-config.yaml) are tooling, not
			 * manifests; name them to lint them */
			if (de->d_name[0] == '.')
				continue;
			child = join(arena, dpath, de->d_name);
			if (!child) {
				closedir(dir);
				return -1;
			}
			if (stat(child, &cst) < 0) {
				/* a dangling symlink is no manifest: skip it
				 * unless its name says it should have been */
				if (manifest_name(de->d_name))
					kvet_diag_addf(diag, child, 0, 0,
						       "cannot open: %s",
						       strerror(errno));
				continue;
			}
			if (S_ISDIR(cst.st_mode)) {
				if (is_ancestor(w, self + 1, cst.st_dev,
						cst.st_ino)) {
					kvet_diag_addf(diag, child, 0, 0,
						       "symlink loop: the directory contains itself");
					continue;
				}
				if (!kvet_vec_grow((void **)&w->dirs,
						   &w->capdirs, w->ndirs + 1,
						   sizeof(*w->dirs))) {
					closedir(dir);
					return -1;
				}
				w->dirs[w->ndirs++] = (struct dir_entry){
					child, cst.st_dev, cst.st_ino, self + 1
				};
			} else if (S_ISREG(cst.st_mode) &&
				   manifest_name(de->d_name)) {
				if (!kvet_vec_grow((void **)&w->files,
						   &w->capfiles, w->nfiles + 1,
						   sizeof(*w->files))) {
					closedir(dir);
					return -1;
				}
				w->files[w->nfiles++] = child;
			}
		}
		closedir(dir);
	}
	return 0;
}

int kvet_sources_add_path(struct kvet_sources *srcs, struct kvet_arena *arena,
			  struct kvet_diag *diag, const char *path)
{
	struct walk w = { 0 };
	struct kvet_source *src;
	struct stat st;
	size_t i;
	int ret = -1;

	if (strcmp(path, "-") == 0) {
		src = push(srcs);
		if (!src)
			return -1;
		src->name = "<stdin>";
		src->is_stdin = true;
		return 0;
	}
	path = kvet_arena_strdup(arena, path);
	if (!path)
		return -1;
	if (stat(path, &st) < 0) {
		kvet_diag_addf(diag, path, 0, 0, "cannot open: %s",
			       strerror(errno));
		return 0;
	}
	if (!S_ISDIR(st.st_mode)) {
		src = push(srcs);
		if (!src)
			return -1;
		src->name = src->path = path;
		return 0;
	}
	if (walk_dir(&w, arena, diag, path, &st) < 0)
		goto out;
	qsort(w.files, w.nfiles, sizeof(*w.files), cmp_str);
	for (i = 0; i < w.nfiles; i++) {
		src = push(srcs);
		if (!src)
			goto out;
		src->name = src->path = w.files[i];
	}
	ret = 0;
out:
	free(w.dirs);
	free(w.files);
	return ret;
}

int kvet_sources_add_buffer(struct kvet_sources *srcs,
			    struct kvet_arena *arena, const char *name,
			    const char *data, size_t len)
{
	struct kvet_source *src;
	char *copy;

	if (len == SIZE_MAX)
		return -1;
	copy = malloc(len + 1);
	if (!copy)
		return -1;
	memcpy(copy, data, len);
	copy[len] = '\0';
	src = push(srcs);
	name = kvet_arena_strdup(arena, name);
	if (!src || !name) {
		free(copy);
		return -1;
	}
	src->name = name;
	src->buf = copy;
	src->len = len;
	return 0;
}

static int read_fd(int fd, char **bufp, size_t *lenp, size_t max,
		   size_t hint)
{
	size_t cap = hint ? hint + 1 : 65536, len = 0;
	char *buf = malloc(cap + 1);

	if (!buf)
		return ENOMEM;
	for (;;) {
		ssize_t n;

		if (len == cap) {
			char *nb;

			if (cap > max) {
				free(buf);
				return EFBIG;
			}
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				return ENOMEM;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = errno;
			free(buf);
			return (int)n;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	if (len > max) {
		free(buf);
		return EFBIG;
	}
	buf[len] = '\0';
	*bufp = buf;
	*lenp = len;
	return 0;
}

int kvet_source_read(struct kvet_source *src, struct kvet_diag *diag,
		     size_t max)
{
	struct stat st;
	size_t hint = 0;
	int fd, err;

	if (src->buf || (!src->path && !src->is_stdin))
		return 0;
	fd = src->is_stdin ? STDIN_FILENO : open(src->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = errno;
		goto fail;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		if ((uint64_t)st.st_size > max) {
			err = EFBIG;
			if (!src->is_stdin)
				close(fd);
			goto fail;
		}
		hint = (size_t)st.st_size;
	}
	err = read_fd(fd, &src->buf, &src->len, max, hint);
	if (!src->is_stdin)
		close(fd);
	if (err == ENOMEM)
		return -1;
	if (!err)
		return 0;
fail:
	src->failed = true;
	if (err == EFBIG)
		kvet_diag_addf(diag, src->name, 0, 0,
			       "input larger than the limit of %zu bytes", max);
	else
		kvet_diag_addf(diag, src->name, 0, 0, "cannot read: %s",
			       strerror(err));
	return 1;
}

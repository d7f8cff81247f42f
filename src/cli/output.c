/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define TMP_SUFFIX ".tmp.XXXXXX"
/* the kernel's own limit on a chain of symbolic links (ELOOP) */
#define MAX_LINK_HOPS 40

/*
 * Where a report goes. A regular file (or a name that does not exist yet)
 * is replaced atomically; anything else that exists is written in place,
 * since renaming over a device, a FIFO or a terminal would destroy it.
 */
struct target {
	char *path;		/* the file itself, symbolic links resolved */
	bool in_place;		/* write through open(), no temporary file */
	bool exists;		/* a regular file to replace: keep its mode */
	struct stat st;
};

/*
 * /dev/stdout, /dev/fd/N and /proc/self/fd/N are links the kernel makes up:
 * their targets ("pipe:[123]", a shell's redirection) are not files to
 * rename over, even when they name a regular file.
 */
static bool is_magic_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];
	size_t len;

	if (!slash) {
		dir[0] = '.';
		dir[1] = '\0';
	} else {
		len = slash == path ? 1 : (size_t)(slash - path);
		if (len >= sizeof(dir))
			return false;
		memcpy(dir, path, len);
		dir[len] = '\0';
	}
	if (!realpath(dir, real))
		return false;
	return !strcmp(real, "/dev") || !strncmp(real, "/dev/", 5) ||
	       !strcmp(real, "/proc") || !strncmp(real, "/proc/", 6);
}

/* Replaces *path by the target of the link at *path, relative to its dir. */
static int follow_link(char **path)
{
	char buf[PATH_MAX], *next;
	const char *slash;
	ssize_t len;
	size_t dlen;

	len = readlink(*path, buf, sizeof(buf) - 1);
	if (len < 0)
		return -1;
	buf[len] = '\0';
	slash = strrchr(*path, '/');
	dlen = buf[0] == '/' || !slash ? 0 : (size_t)(slash - *path) + 1;
	next = malloc(dlen + (size_t)len + 1);
	if (!next)
		return -1;
	memcpy(next, *path, dlen);
	memcpy(next + dlen, buf, (size_t)len + 1);
	free(*path);
	*path = next;
	return 0;
}

static int resolve_target(const char *path, struct target *t)
{
	struct stat lst;
	int hops;

	memset(t, 0, sizeof(*t));
	t->path = strdup(path);
	if (!t->path)
		return -1;
	for (hops = 0;; hops++) {
		if (is_magic_dir(t->path)) {
			t->in_place = true;
			break;
		}
		if (lstat(t->path, &lst)) {
			if (errno != ENOENT)
				return -1;
			return 0;	/* a new file: atomic create */
		}
		if (!S_ISLNK(lst.st_mode))
			break;
		if (hops == MAX_LINK_HOPS) {
			errno = ELOOP;
			return -1;
		}
		if (follow_link(&t->path))
			return -1;
	}
	if (stat(t->path, &t->st)) {
		if (errno == ENOENT && !t->in_place)
			return 0;
		return -1;
	}
	if (S_ISDIR(t->st.st_mode)) {
		errno = EISDIR;
		return -1;
	}
	if (!S_ISREG(t->st.st_mode))
		t->in_place = true;
	t->exists = !t->in_place;
	return 0;
}

static int write_in_place(const struct target *t, kvet_output_fn write,
			  const void *data)
{
	/* a regular file behind /dev/stdout is a shell's redirection: append */
	int flags = O_WRONLY | O_NOCTTY | O_CLOEXEC |
		    (S_ISREG(t->st.st_mode) ? O_APPEND : 0);
	int fd = open(t->path, flags), saved;
	FILE *fp;

	if (fd < 0)
		return -1;
	fp = fdopen(fd, "w");
	if (!fp) {
		saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	if (write(data, fp) || fflush(fp) || ferror(fp)) {
		saved = errno ? errno : EIO;
		fclose(fp);
		errno = saved;
		return -1;
	}
	return fclose(fp);
}

static int write_replacing(const struct target *t, kvet_output_fn write,
			   const void *data)
{
	size_t size = strlen(t->path) + sizeof(TMP_SUFFIX);
	char *tmp = malloc(size);
	FILE *fp = NULL;
	int ret = -1, fd = -1, saved = 0;
	mode_t mode, mask;

	if (!tmp)
		return -1;
	snprintf(tmp, size, "%s" TMP_SUFFIX, t->path);
	fd = mkstemp(tmp);
	if (fd < 0)
		goto out;
	/* mkstemp() makes the file 0600: a report is an ordinary file */
	mask = umask(0);
	umask(mask);
	mode = t->exists ? t->st.st_mode & 07777 : 0666 & ~mask;
	if (fchmod(fd, mode))
		goto fail;
	/* root replacing someone's report keeps it theirs; best effort */
	if (t->exists && fchown(fd, t->st.st_uid, t->st.st_gid))
		errno = 0;
	fp = fdopen(fd, "w");
	if (!fp)
		goto fail;
	fd = -1;
	if (write(data, fp) || fflush(fp) || ferror(fp) || fsync(fileno(fp)))
		goto fail;
	saved = fclose(fp);
	fp = NULL;
	if (saved || rename(tmp, t->path))
		goto fail;
	ret = 0;
	goto out;
fail:
	saved = errno ? errno : EIO;
	if (fp)
		fclose(fp);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = saved;
out:
	saved = errno;
	free(tmp);
	errno = saved;
	return ret;
}

int kvet_output_write_atomic(const char *path, kvet_output_fn write,
			     const void *data, FILE *err)
{
	struct target t;
	int ret;

	errno = 0;
	ret = resolve_target(path, &t);
	if (!ret)
		ret = t.in_place ? write_in_place(&t, write, data)
				 : write_replacing(&t, write, data);
	if (ret)
		fprintf(err, "kvet: error: cannot write '%s': %s\n", path,
			strerror(errno ? errno : EIO));
	free(t.path);
	return ret;
}

struct report {
	const struct kvet_ctx *ctx;
	enum kvet_format format;
	const struct kvet_render_options *opts;
};

static int write_report(const void *data, FILE *fp)
{
	const struct report *r = data;

	return kvet_render(r->ctx, r->format, r->opts, fp);
}

int kvet_output_write_file(const struct kvet_ctx *ctx, enum kvet_format format,
			   const struct kvet_render_options *opts,
			   const char *path, FILE *err)
{
	struct report r = { ctx, format, opts };

	return kvet_output_write_atomic(path, write_report, &r, err);
}

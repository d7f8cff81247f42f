/* SPDX-License-Identifier: Apache-2.0 */
#include "cli/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/args.h"
#include "cli/tmpfile.h"

#define TMP_SUFFIX ".tmp.XXXXXX"
/* the kernel's own limit on a chain of symbolic links (ELOOP) */
#define MAX_LINK_HOPS 40
/* how often a FIFO without a reader is tried again */
#define FIFO_RETRY_MS 10

/*
 * Where a report goes. Only what renaming over would destroy is written
 * in place: a character device (a terminal, /dev/null), a FIFO, and a
 * descriptor kvet was given (/dev/stdout, /dev/fd/N: the shell's
 * redirection or pipe, written as standard output is). Everything else
 * is a regular file, or a name that becomes one, wherever it is (also
 * /dev/shm), and is replaced atomically.
 */
enum target_kind {
	TARGET_NEW,		/* no file yet: created atomically */
	TARGET_REPLACE,		/* a regular file, replaced atomically */
	TARGET_DEVICE,		/* a character device: written in place */
	TARGET_FIFO,		/* opened when a reader comes, in time */
	TARGET_FD,		/* this process's descriptor fd */
};

struct target {
	char *path;		/* the file itself, symbolic links resolved */
	enum target_kind kind;
	int fd;			/* TARGET_FD */
	struct stat st;		/* TARGET_REPLACE: the mode to keep */
};

/* Is @dir (canonical) this process's /proc/PID/fd or a thread's? */
static bool is_own_fd_dir(const char *dir)
{
	char own[64];
	const char *task;
	size_t n;

	n = (size_t)snprintf(own, sizeof(own), "/proc/%ld/", (long)getpid());
	if (strncmp(dir, own, n))
		return false;
	if (!strcmp(dir + n, "fd"))
		return true;
	task = dir + n;
	if (strncmp(task, "task/", 5))
		return false;
	task = strchr(task + 5, '/');
	return task && !strcmp(task, "/fd");
}

/*
 * /dev/stdout, /dev/fd/N and /proc/self/fd/N name a descriptor of this
 * process: what the kernel links them to ("pipe:[123]", a shell's
 * redirection to a file that may be gone) is not a file to rename over.
 * Returns: N, or -1 when @path is no such name.
 */
static int own_fd(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX], *end;
	size_t len;
	long n;

	if (!slash || slash == path || !slash[1])
		return -1;
	len = (size_t)(slash - path);
	if (len >= sizeof(dir))
		return -1;
	memcpy(dir, path, len);
	dir[len] = '\0';
	if (!realpath(dir, real) || !is_own_fd_dir(real))
		return -1;
	errno = 0;
	n = strtol(slash + 1, &end, 10);
	if (*end || errno || n < 0 || n > INT_MAX)
		return -1;
	return (int)n;
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

/* Follows @path's links; the file at the end may not exist (TARGET_NEW). */
static int resolve_target(const char *path, struct target *t)
{
	int hops;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->path = strdup(path);
	if (!t->path)
		return -1;
	for (hops = 0;; hops++) {
		t->fd = own_fd(t->path);
		if (t->fd >= 0) {
			t->kind = TARGET_FD;
			return fstat(t->fd, &t->st);
		}
		if (lstat(t->path, &t->st)) {
			if (errno != ENOENT)
				return -1;
			t->kind = TARGET_NEW;
			return 0;
		}
		if (!S_ISLNK(t->st.st_mode))
			break;
		if (hops == MAX_LINK_HOPS) {
			errno = ELOOP;
			return -1;
		}
		if (follow_link(&t->path))
			return -1;
	}
	if (S_ISREG(t->st.st_mode)) {
		t->kind = TARGET_REPLACE;
	} else if (S_ISCHR(t->st.st_mode)) {
		t->kind = TARGET_DEVICE;
	} else if (S_ISFIFO(t->st.st_mode)) {
		t->kind = TARGET_FIFO;
	} else {
		/* a socket or a block device is not renamed over either */
		errno = S_ISDIR(t->st.st_mode) ? EISDIR : EINVAL;
		return -1;
	}
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * A FIFO opened for writing blocks until a reader opens it: opened
 * without blocking instead, it fails (ENXIO) until a reader comes, and
 * is tried again every few milliseconds for at most @wait_ms, as an
 * input FIFO waits for a writer. Then writes block as on any pipe.
 * Returns: the descriptor, or -1 with errno set (ETIMEDOUT: no reader).
 */
static int open_fifo(const char *path, unsigned int wait_ms)
{
	long waited = 0;
	int fd, flags;

	for (;;) {
		fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd >= 0 || errno != ENXIO)
			break;
		if (waited >= (long)wait_ms) {
			errno = ETIMEDOUT;
			return -1;
		}
		sleep_ms(FIFO_RETRY_MS);
		waited += FIFO_RETRY_MS;
	}
	if (fd < 0)
		return -1;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int write_in_place(const struct target *t, kvet_output_fn write,
			  const void *data, unsigned int wait_ms)
{
	int fd, saved;
	FILE *fp;

	if (t->kind == TARGET_FD)
		fd = fcntl(t->fd, F_DUPFD_CLOEXEC, 0);
	else if (t->kind == TARGET_FIFO)
		fd = open_fifo(t->path, wait_ms);
	else
		fd = open(t->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
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
	bool exists = t->kind == TARGET_REPLACE;

	if (!tmp)
		return -1;
	snprintf(tmp, size, "%s" TMP_SUFFIX, t->path);
	fd = kvet_tmpfile_create(tmp);
	if (fd < 0)
		goto out;
	/* mkstemp() makes the file 0600: a report is an ordinary file */
	mask = umask(0);
	umask(mask);
	mode = exists ? t->st.st_mode & 07777 : 0666 & ~mask;
	if (fchmod(fd, mode))
		goto fail;
	/* root replacing someone's report keeps it theirs; best effort */
	if (exists && fchown(fd, t->st.st_uid, t->st.st_gid))
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
	kvet_tmpfile_forget();
	ret = 0;
	goto out;
fail:
	saved = errno ? errno : EIO;
	if (fp)
		fclose(fp);
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	kvet_tmpfile_forget();
	errno = saved;
out:
	saved = errno;
	free(tmp);
	errno = saved;
	return ret;
}

static void describe_failure(FILE *err, const char *path, int code,
			     unsigned int wait_ms)
{
	if (code == ETIMEDOUT && wait_ms % 1000 == 0)
		fprintf(err,
			"kvet: error: cannot write '%s': no process opened the FIFO for reading within %u seconds\n",
			path, wait_ms / 1000);
	else if (code == ETIMEDOUT)
		fprintf(err,
			"kvet: error: cannot write '%s': no process opened the FIFO for reading within %u ms\n",
			path, wait_ms);
	else if (code == EINVAL)
		fprintf(err,
			"kvet: error: cannot write '%s': not a regular file, a character device or a FIFO\n",
			path);
	else
		fprintf(err, "kvet: error: cannot write '%s': %s\n", path,
			strerror(code));
}

int kvet_output_write_atomic(const char *path, kvet_output_fn write,
			     const void *data, unsigned int wait_ms, FILE *err)
{
	struct target t;
	bool in_place;
	int ret;

	if (!wait_ms)
		wait_ms = KVET_OUTPUT_FIFO_WAIT_MS;
	errno = 0;
	ret = resolve_target(path, &t);
	in_place = t.kind == TARGET_DEVICE || t.kind == TARGET_FIFO ||
		   t.kind == TARGET_FD;
	if (!ret)
		ret = in_place ? write_in_place(&t, write, data, wait_ms)
			       : write_replacing(&t, write, data);
	/* a reader that went away: its choice, as on standard output */
	if (ret && in_place && errno == EPIPE)
		ret = 0;
	if (ret)
		describe_failure(err, path, errno ? errno : EIO, wait_ms);
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
			   const char *path, unsigned int wait_ms, FILE *err)
{
	struct report r = { ctx, format, opts };

	return kvet_output_write_atomic(path, write_report, &r, wait_ms, err);
}

/*
 * Who a report file is, to tell two names of one file apart: the device
 * and inode of a file that exists (hard links, symbolic links and
 * "./r.json" alike), the canonical path of one that does not yet. A
 * character device is nobody: two reports to /dev/null or a terminal are
 * written one after the other, and neither is lost.
 * Returns: 0, or -1 when @path cannot be resolved (writing it fails
 * later and says why).
 */
struct identity {
	dev_t dev;
	ino_t ino;
	char *path;		/* a new file: its canonical path; malloc'd */
	bool device;
};

static int identify(const char *path, struct identity *id)
{
	char dir[PATH_MAX];
	const char *base;
	struct target t;
	struct stat st;
	size_t len;

	memset(id, 0, sizeof(*id));
	if (!path) {
		if (fstat(STDOUT_FILENO, &st))
			return -1;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->device = S_ISCHR(st.st_mode);
		return 0;
	}
	if (resolve_target(path, &t)) {
		free(t.path);
		return -1;
	}
	if (t.kind != TARGET_NEW) {
		id->dev = t.st.st_dev;
		id->ino = t.st.st_ino;
		id->device = S_ISCHR(t.st.st_mode);
		free(t.path);
		return 0;
	}
	base = strrchr(t.path, '/');
	len = base ? (size_t)(base - t.path) : 0;
	if (len >= sizeof(dir))
		len = sizeof(dir) - 1;
	memcpy(dir, base ? t.path : ".", base ? len : 1);
	dir[base ? len : 1] = '\0';
	if (base && !len)
		strcpy(dir, "/");
	base = base ? base + 1 : t.path;
	id->path = malloc(PATH_MAX + strlen(base) + 2);
	if (id->path && realpath(dir, id->path))
		strcat(strcat(id->path, "/"), base);
	else if (id->path)
		strcpy(id->path, t.path);	/* the write will say why */
	free(t.path);
	return id->path ? 0 : -1;
}

static bool same_identity(const struct identity *a, const struct identity *b)
{
	if (a->device || b->device)
		return false;
	if (a->path || b->path)
		return a->path && b->path && !strcmp(a->path, b->path);
	return a->dev == b->dev && a->ino == b->ino;
}

/* A report's file and how the user named it. */
struct slot {
	const char *path;	/* NULL: standard output */
	const struct kvet_output *output;	/* NULL: the baseline, or
						 * the default text report */
	struct identity id;
	bool known;
};

static void describe(const struct slot *s, char *buf, size_t size)
{
	if (s->output && s->path)
		snprintf(buf, size, "--format %s=%s",
			 kvet_format_name(s->output->format), s->path);
	else if (s->output)
		snprintf(buf, size, "--format %s (standard output)",
			 kvet_format_name(s->output->format));
	else if (s->path)
		snprintf(buf, size, "--write-baseline %s", s->path);
	else
		snprintf(buf, size, "the text report (standard output)");
}

int kvet_output_check_reports(const struct kvet_args *args, FILE *err)
{
	struct slot slots[KVET_MAX_OUTPUTS + 2];
	char one[PATH_MAX + 64], other[PATH_MAX + 64];
	size_t n = 0, i, k;
	int ret = 0;

	memset(slots, 0, sizeof(slots));
	for (i = 0; i < args->n_outputs; i++) {
		slots[n].output = &args->outputs[i];
		slots[n++].path = args->outputs[i].path;
	}
	if (!args->n_outputs)
		n++;		/* text to standard output */
	if (args->write_baseline)
		slots[n++].path = args->write_baseline;
	for (i = 0; i < n; i++)
		slots[i].known = !identify(slots[i].path, &slots[i].id);
	for (i = 0; i < n && !ret; i++)
		for (k = i + 1; k < n && !ret; k++) {
			if (!slots[i].known || !slots[k].known ||
			    !same_identity(&slots[i].id, &slots[k].id))
				continue;
			describe(&slots[i], one, sizeof(one));
			describe(&slots[k], other, sizeof(other));
			fprintf(err,
				"kvet: error: two reports to one file: '%s' and '%s'\n"
				"kvet: hint: give each report a file of its own\n",
				one, other);
			ret = -1;
		}
	for (i = 0; i < n; i++)
		free(slots[i].id.path);
	return ret;
}

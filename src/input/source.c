/* SPDX-License-Identifier: Apache-2.0 */
#include "input/source.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/vec.h"
#include "input/walk.h"

void kvet_sources_release(struct kvet_sources *srcs)
{
	size_t i;

	if (!srcs)
		return;
	for (i = 0; i < srcs->n; i++) {
		if (srcs->v[i].mapped)
			munmap(srcs->v[i].buf, srcs->v[i].map);
		else
			free(srcs->v[i].buf);
	}
	free(srcs->v);
	free(srcs->empty);
	kvet_seen_release(&srcs->seen);
	memset(srcs, 0, sizeof(*srcs));
}

struct kvet_source *kvet_sources_push(struct kvet_sources *srcs)
{
	struct kvet_source *src;

	if (!kvet_vec_grow((void **)&srcs->v, &srcs->cap, srcs->n + 1,
			   sizeof(*srcs->v)))
		return NULL;
	src = &srcs->v[srcs->n++];
	memset(src, 0, sizeof(*src));
	return src;
}

/*
 * Standard input can be read once, by one thread: a second "-" is the
 * same input (and two threads reading one pipe would each get half of
 * it). Its file joins the seen set, so that /dev/stdin, or the file it
 * was redirected from, is not read a second time either.
 */
static struct kvet_source *add_stdin(struct kvet_sources *srcs,
				     struct kvet_diag *diag, int *oom)
{
	struct kvet_source *src;
	struct stat st;
	const char *first;

	*oom = 0;
	if (srcs->have_stdin) {
		kvet_diag_notef(diag, KVET_NOTICE_NOTE, "<stdin>", 0, 0,
				"standard input is named more than once: read once");
		return NULL;
	}
	if (fstat(STDIN_FILENO, &st) == 0 &&
	    kvet_seen_add(&srcs->seen, st.st_dev, st.st_ino, "<stdin>",
			  &first) < 0)
		goto fail;
	src = kvet_sources_push(srcs);
	if (!src)
		goto fail;
	src->name = "<stdin>";
	src->is_stdin = true;
	srcs->have_stdin = true;
	return src;
fail:
	*oom = 1;
	return NULL;
}

/* A changed values.yaml or template re-lints its chart: pre-commit passes
 * the changed files. */
int kvet_sources_add_owner(struct kvet_sources *srcs, struct kvet_arena *arena,
			   const char *path)
{
	char *dir = kvet_arena_strdup(arena, path), *slash, *mark;
	const char *first;
	struct stat st;
	size_t i;
	int rc;

	if (!dir)
		return -1;
	while ((slash = strrchr(dir, '/')) != NULL) {
		*slash = '\0';
		if (!*dir)
			break;
		for (i = 0; i < KVET_PROJECT_FILES; i++) {
			mark = kvet_arena_printf(arena, "%s/%s", dir,
						 kvet_project_files[i]);
			if (!mark)
				return -1;
			if (stat(mark, &st) != 0 || !S_ISREG(st.st_mode))
				continue;
			if (stat(dir, &st) != 0)
				return 0;
			if (srcs->excluded &&
			    srcs->excluded(srcs->excluded_user, dir))
				return 1;
			/* several changed files of one chart: one render */
			rc = kvet_seen_add(&srcs->seen, st.st_dev, st.st_ino,
					   dir, &first);
			if (rc <= 0)
				return rc < 0 ? -1 : 1;
			if (i == 0)
				return kvet_sources_add_chart(srcs, arena, dir)
					       ? -1
					       : 1;
			return kvet_sources_add_kustomize(srcs, arena, dir)
				       ? -1
				       : 1;
		}
	}
	return 0;
}

/* Does @path look like a shell pattern that matched nothing? */
static bool looks_like_glob(const char *path)
{
	return strpbrk(path, "*?[") != NULL;
}

int kvet_sources_add_path(struct kvet_sources *srcs, struct kvet_arena *arena,
			  struct kvet_diag *diag, const char *path)
{
	struct kvet_source *src;
	const char *first;
	struct stat st;
	int rc;

	if (strcmp(path, "-") == 0) {
		(void)add_stdin(srcs, diag, &rc);
		return rc ? -1 : 0;
	}
	path = kvet_arena_strdup(arena, path);
	if (!path)
		return -1;
	if (stat(path, &st) < 0) {
		/* the shell passes a pattern that matched nothing as it is */
		if (errno == ENOENT && looks_like_glob(path))
			kvet_diag_addf(diag, path, 0, 0,
				       "cannot open: no file matches this pattern");
		else
			kvet_diag_addf(diag, path, 0, 0, "cannot open: %s",
				       strerror(errno));
		return 0;
	}
	/* a Chart.yaml, kustomization or values file named is its unit,
	 * never an object (it would be skipped as none, or fail as one) */
	if (!S_ISDIR(st.st_mode) && srcs->render &&
	    (srcs->owners || kvet_unit_file_name(path))) {
		rc = kvet_sources_add_owner(srcs, arena, path);
		if (rc)
			return rc < 0 ? -1 : 0;
	}
	if (!S_ISDIR(st.st_mode) && srcs->excluded &&
	    srcs->excluded(srcs->excluded_user, path))
		return 0;
	rc = kvet_seen_add(&srcs->seen, st.st_dev, st.st_ino, path, &first);
	if (rc < 0)
		return -1;
	if (rc == 0) {
		kvet_note_seen(diag, path, first, S_ISDIR(st.st_mode));
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return kvet_walk_dir(srcs, arena, diag, path, &st);
	if (srcs->render && kvet_chart_archive_name(path))
		return kvet_sources_add_chart(srcs, arena, path);
	src = kvet_sources_push(srcs);
	if (!src)
		return -1;
	src->name = src->path = path;
	return 0;
}

/* Wait until @fd can be read: for descriptors left non-blocking. */
static int wait_readable(int fd)
{
	struct pollfd pfd = { fd, POLLIN, 0 };

	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return errno;
	return 0;
}

/* One read() that waits for data or the end, as a blocking one would. */
static ssize_t read_some(int fd, char *buf, size_t len)
{
	ssize_t n;

	for (;;) {
		n = read(fd, buf, len);
		if (n >= 0)
			return n;
		if (errno == EINTR)
			continue;
		if ((errno != EAGAIN && errno != EWOULDBLOCK) ||
		    wait_readable(fd))
			return -1;
	}
}

int kvet_sources_add_default(struct kvet_sources *srcs,
			     struct kvet_arena *arena, struct kvet_diag *diag,
			     size_t max)
{
	int oom;

	(void)max;
	/* a person at a terminal means the working directory; stdin there
	 * would wait for typing */
	if (isatty(STDIN_FILENO))
		return kvet_sources_add_path(srcs, arena, diag, ".");
	/* anything else is read, even empty: an empty pipe is what a failed
	 * `helm template ... | kvet lint` hands on, and linting the working
	 * directory instead would pass it */
	if (fcntl(STDIN_FILENO, F_GETFD) < 0) {
		kvet_diag_addf(diag, "<stdin>", 0, 0,
			       "standard input is closed and no path is given: name the files or directories to lint (. for the working directory)");
		return 0;
	}
	return add_stdin(srcs, diag, &oom) || !oom ? 0 : -1;
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
	src = kvet_sources_push(srcs);
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

/* A growing read buffer; cap bytes plus one for the final NUL. */
struct rbuf {
	char *buf;
	size_t len, cap;
};

/* Make room for @cap bytes; never shrinks. Returns 0, or -1 (OOM). */
static int grow(struct rbuf *rb, size_t cap)
{
	char *nb;

	if (cap <= rb->cap && rb->buf)
		return 0;
	nb = realloc(rb->buf, cap + 1);
	if (!nb)
		return -1;
	rb->buf = nb;
	rb->cap = cap;
	return 0;
}

/*
 * Read @fd to its end into @rb, but never more than @max + 1 bytes: the
 * one byte past the limit tells that the input is too large, and an
 * endless input (/dev/zero, a pipe that never ends) is not read further.
 * Returns: 0, EFBIG, ENOMEM or the errno of read().
 */
static int read_all(int fd, struct rbuf *rb, size_t max)
{
	ssize_t n;

	for (;;) {
		if (rb->len > max)
			return EFBIG;
		if (rb->len == rb->cap) {
			size_t cap = rb->cap < 32768 ? 65536 : rb->cap * 2;

			if (cap > max + 1 || cap < rb->cap)
				cap = max + 1;
			if (grow(rb, cap))
				return ENOMEM;
		}
		n = read_some(fd, rb->buf + rb->len, rb->cap - rb->len);
		if (n < 0)
			return errno;
		if (n == 0)
			return 0;
		rb->len += (size_t)n;
	}
}

static long ms_since(const struct timespec *t0)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long)(now.tv_sec - t0->tv_sec) * 1000 +
	       (now.tv_nsec - t0->tv_nsec) / 1000000;
}

/*
 * A named FIFO, opened non-blocking so that the open itself cannot hang:
 * wait at most @wait_ms for a writer. Linux's poll() reports data, or the
 * hang-up of a writer that came and went, and nothing while no writer
 * ever came (it also reports the hang-up at once for a pipe whose writer
 * has gone, as /dev/fd/N of a finished process substitution). When time
 * is up, read() tells the rest apart, as POSIX has it for an empty FIFO:
 * EAGAIN while a writer has it open (a slow one: wait for it as for any
 * pipe), 0 when none has.
 * Returns: 0 to read on, ETIMEDOUT when no writer came, or an errno.
 */
static int wait_writer(int fd, unsigned int wait_ms, struct rbuf *rb)
{
	struct pollfd pfd = { fd, POLLIN, 0 };
	struct timespec t0;
	long left;
	ssize_t n;
	int rc;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		left = (long)wait_ms - ms_since(&t0);
		if (left > INT_MAX)
			left = INT_MAX;
		rc = poll(&pfd, 1, left > 0 ? (int)left : 0);
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc < 0)
			return errno;
		if (rc > 0)
			return 0;
		n = read(fd, rb->buf, 1);
		if (n > 0) {
			rb->len = 1;
			return 0;
		}
		if (n == 0)
			return ETIMEDOUT;
		if (errno == EAGAIN || errno == EWOULDBLOCK)
			return 0;
		if (errno != EINTR)
			return errno;
	}
}

/* Regular files from this size on are mapped, not read (map_file()). */
#define MAP_MIN ((uint64_t)2 * 1024 * 1024)

/*
 * Map the regular file @fd of @size bytes instead of reading it: the
 * copy read() makes costs the input's size in memory for the whole run,
 * where the pages of a private mapping can be given back once parsed,
 * and read from the file again when a source line is printed. The
 * mapping is writable and private, as a buffer is (the sanitizer writes
 * in place; those pages become the process's own), with at least one
 * zero byte after the text: a page of anonymous memory past the file's
 * last whole page. A file truncated by another process while kvet runs
 * would fault on the pages past its new end, as with any mapping.
 * Returns: true with @src's buffer set; false to read the file instead.
 */
static bool map_file(struct kvet_source *src, int fd, size_t size)
{
	long pagesize = sysconf(_SC_PAGESIZE);
	size_t page, span;
	void *at, *file;

	if (pagesize <= 0)
		return false;
	page = (size_t)pagesize;
	if (size > SIZE_MAX - 2 * page)
		return false;
	span = (size / page + 1) * page;
	at = mmap(NULL, span, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (at == MAP_FAILED)
		return false;
	file = mmap(at, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED,
		    fd, 0);
	if (file == MAP_FAILED) {
		munmap(at, span);
		return false;
	}
	src->buf = at;
	src->len = size;
	src->map = span;
	src->mapped = true;
	return true;
}

/*
 * Open @src for reading, without blocking: a FIFO then waits for its
 * writer (see above), a regular file too large is refused before it is
 * read, one of MAP_MIN bytes or more is mapped (*@mapped), and one that
 * fits gets a buffer of its size.
 * Returns: 0 with *@fdp set, or an errno value.
 */
static int open_source(struct kvet_source *src, size_t max,
		       unsigned int wait_ms, struct rbuf *rb, int *fdp,
		       bool *mapped)
{
	struct stat st;
	int fd, flags, err = 0;

	fd = open(src->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return errno;
	if (fstat(fd, &st) < 0)
		err = errno;
	else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max)
		err = EFBIG;
	else if (S_ISREG(st.st_mode) && (uint64_t)st.st_size >= MAP_MIN &&
		 map_file(src, fd, (size_t)st.st_size)) {
		close(fd);
		*mapped = true;
		return 0;
	} else if (S_ISREG(st.st_mode))
		/* room for the read that sees the end, too */
		err = grow(rb, (size_t)st.st_size + 1) ? ENOMEM : 0;
	else if (S_ISFIFO(st.st_mode))
		err = grow(rb, 1) ? ENOMEM : wait_writer(fd, wait_ms, rb);
	/* reads block from here on, as they do on any other file */
	flags = err ? 0 : fcntl(fd, F_GETFL);
	if (!err && (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) < 0))
		err = errno;
	if (err) {
		close(fd);
		return err;
	}
	*fdp = fd;
	return 0;
}

/* A chart or kustomization: what its renderer prints. */
static int read_render(struct kvet_source *src, struct kvet_diag *diag,
		       struct kvet_arena *arena, size_t max)
{
	int rc;

	if (src->buf)
		return 0;
	if (src->kind == KVET_SOURCE_CHART)
		rc = kvet_render_chart(src->render, src->chart_dir,
				       src->release_ns, src->values, src->n_values, diag, max,
				       &src->buf, &src->len);
	else if (!arena)
		rc = -1;
	else
		rc = kvet_render_kustomize(src->render, src->kustomize_dir,
					   arena, diag, max, &src->buf,
					   &src->len, &src->origins,
					   &src->n_origins);
	if (rc > 0)
		src->failed = true;
	return rc;
}

int kvet_source_read(struct kvet_source *src, struct kvet_diag *diag,
		     size_t max, unsigned int wait_ms)
{
	return kvet_source_read_in(src, diag, NULL, max, wait_ms);
}

int kvet_source_read_in(struct kvet_source *src, struct kvet_diag *diag,
			struct kvet_arena *arena, size_t max,
			unsigned int wait_ms)
{
	struct rbuf rb = { src->buf, src->len, src->len };
	int fd = STDIN_FILENO, err;
	bool mapped = false;

	if (src->kind != KVET_SOURCE_FILE)
		return read_render(src, diag, arena, max);
	if ((src->buf && !src->partial) || (!src->path && !src->is_stdin))
		return 0;
	src->buf = NULL;
	if (max > SIZE_MAX - 2)
		max = SIZE_MAX - 2;
	if (!src->is_stdin) {
		err = open_source(src, max, wait_ms, &rb, &fd, &mapped);
		if (err)
			goto fail;
		if (mapped) {
			src->partial = false;
			return 0;
		}
	}
	err = read_all(fd, &rb, max);
	if (!src->is_stdin)
		close(fd);
	if (err)
		goto fail;
	if (!rb.buf && grow(&rb, 1)) {
		err = ENOMEM;
		goto fail;
	}
	rb.buf[rb.len] = '\0';
	src->buf = rb.buf;
	src->len = rb.len;
	src->partial = false;
	return 0;
fail:
	free(rb.buf);
	src->len = 0;
	src->partial = false;
	if (err == ENOMEM)
		return -1;
	src->failed = true;
	if (err == EFBIG)
		kvet_diag_addf(diag, src->name, 0, 0,
			       "input larger than the limit of %zu bytes", max);
	else if (err == ETIMEDOUT && wait_ms % 1000 == 0)
		kvet_diag_addf(diag, src->name, 0, 0,
			       "cannot read: no process opened the FIFO for writing within %u seconds",
			       wait_ms / 1000);
	else if (err == ETIMEDOUT)
		kvet_diag_addf(diag, src->name, 0, 0,
			       "cannot read: no process opened the FIFO for writing within %u ms",
			       wait_ms);
	else
		kvet_diag_addf(diag, src->name, 0, 0, "cannot read: %s",
			       strerror(err));
	return 1;
}

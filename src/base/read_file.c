/* SPDX-License-Identifier: Apache-2.0 */
#include "base/read_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { FIRST_CHUNK = 64 * 1024 };

static int set_blocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0)
		return -1;
	return fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

/* The 1-based line and column of byte @at of @buf. */
static void position_of(const char *buf, size_t at, struct kvet_file *out)
{
	const char *p = buf, *end = buf + at, *nl;
	unsigned int line = 1;

	while ((nl = memchr(p, '\n', (size_t)(end - p)))) {
		line++;
		p = nl + 1;
	}
	out->line = line;
	out->column = (unsigned int)(end - p) + 1;
}

enum kvet_file_status kvet_file_read(const char *path, size_t limit,
				     struct kvet_file *out)
{
	enum kvet_file_status ret = KVET_FILE_CANNOT_READ;
	size_t cap = FIRST_CHUNK, len = 0;
	char *buf = NULL, *more;
	struct stat st;
	bool probe;
	ssize_t got;
	int fd;

	memset(out, 0, sizeof(*out));
	/*
	 * Opening a FIFO for reading waits until some process opens it for
	 * writing, which may be never. Without the wait, the first read
	 * tells: EAGAIN when a writer has it open (or is waiting in open()
	 * itself, since Linux counts a writer before it waits for readers),
	 * end of file when there is none.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		out->err = errno;
		return KVET_FILE_CANNOT_OPEN;
	}
	if (fstat(fd, &st) < 0) {
		out->err = errno;
		goto out;
	}
	probe = S_ISFIFO(st.st_mode);
	if (!probe && set_blocking(fd) < 0) {
		out->err = errno;
		goto out;
	}
	/* a regular file is read in one go, and one more read sees its end */
	if (S_ISREG(st.st_mode) && st.st_size >= 0 &&
	    (uintmax_t)st.st_size < limit)
		cap = (size_t)st.st_size + 1;
	if (cap > limit + 1)
		cap = limit + 1;
	buf = malloc(cap + 1);
	if (!buf) {
		ret = KVET_FILE_NO_MEMORY;
		goto out;
	}
	/* limit + 1 bytes at most: one byte past the limit proves it hit */
	while (len <= limit) {
		if (len == cap) {
			cap = cap > (limit + 1) / 2 ? limit + 1 : cap * 2;
			more = realloc(buf, cap + 1);
			if (!more) {
				ret = KVET_FILE_NO_MEMORY;
				goto out;
			}
			buf = more;
		}
		got = read(fd, buf + len, cap - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN && probe) {
			probe = false;
			if (set_blocking(fd) < 0) {
				out->err = errno;
				goto out;
			}
			continue;
		}
		if (got < 0) {
			out->err = errno;
			goto out;
		}
		if (got == 0 && probe && len == 0) {
			ret = KVET_FILE_NO_WRITER;
			goto out;
		}
		if (got == 0)
			break;
		len += (size_t)got;
		/* data came: the rest is waited for as on any pipe */
		if (probe) {
			probe = false;
			if (set_blocking(fd) < 0) {
				out->err = errno;
				goto out;
			}
		}
	}
	if (len > limit) {
		position_of(buf, limit, out);
		ret = KVET_FILE_TOO_LARGE;
		goto out;
	}
	buf[len] = '\0';
	out->buf = buf;
	out->len = len;
	buf = NULL;
	ret = KVET_FILE_OK;
out:
	free(buf);
	close(fd);
	return ret;
}

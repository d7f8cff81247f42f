/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_READ_FILE_H
#define KVET_BASE_READ_FILE_H

#include <stddef.h>

/*
 * Reading a whole file that kvet's own setup needs (configuration,
 * baseline, rule files), bounded in memory and in time whatever the path
 * names: a regular file, a device such as /dev/zero, a pipe, or a named
 * FIFO that nobody writes to.
 */
enum kvet_file_status {
	KVET_FILE_OK,
	KVET_FILE_CANNOT_OPEN,	/* errno in @err */
	KVET_FILE_CANNOT_READ,	/* errno in @err */
	KVET_FILE_TOO_LARGE,	/* more than @limit bytes: @line, @column */
	KVET_FILE_NO_WRITER,	/* a FIFO or pipe with no data and no writer */
	KVET_FILE_NO_MEMORY,
};

struct kvet_file {
	char *buf;		/* malloc'd, NUL-terminated; the caller frees */
	size_t len;
	int err;		/* errno of CANNOT_OPEN and CANNOT_READ */
	/* TOO_LARGE: 1-based position of the first byte past the limit */
	unsigned int line, column;
};

/**
 * kvet_file_read() - read all of @path, at most @limit bytes.
 * @out: the text on success; on failure, the details of the status (and
 *       no buffer).
 *
 * A FIFO is opened without waiting for a writer: if no process has it
 * open for writing and it holds no data, the status is
 * KVET_FILE_NO_WRITER at once. With a writer, reading waits for the
 * writer as it would on a pipe. Reading stops after @limit + 1 bytes, so
 * /dev/zero costs at most @limit bytes of memory.
 *
 * Returns: the status.
 */
enum kvet_file_status kvet_file_read(const char *path, size_t limit,
				     struct kvet_file *out);

#endif

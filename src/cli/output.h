/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_OUTPUT_H
#define KVET_CLI_OUTPUT_H

#include <stdio.h>

#include "kvet/kvet.h"
#include "cli/args.h"

/* How long a report FIFO waits for a reader unless told otherwise: as
 * long as an input FIFO waits for a writer (struct kvet_options). */
#define KVET_OUTPUT_FIFO_WAIT_MS 10000u

/* Writes the whole content to @fp; returns 0, or -1 with errno set. */
typedef int (*kvet_output_fn)(const void *data, FILE *fp);

/**
 * kvet_output_write_atomic() - write a file without ever leaving half of it.
 * @path: a regular file, or a name that does not exist yet, wherever it is
 *        (/dev/shm too), is written to a temporary file in the same
 *        directory (PATH.tmp.XXXXXX), synced, then renamed over it,
 *        keeping the old file's mode, so that readers never see half a
 *        file and a failure leaves the old one; a signal that ends kvet
 *        meanwhile removes the temporary file. A symbolic link is followed
 *        and the file it names is replaced; the link stays. Only what
 *        renaming would destroy is written in place: a character device
 *        (/dev/null, a terminal), a FIFO, and a descriptor of kvet's
 *        (/dev/stdout, /dev/fd/N: written as standard output is, a
 *        redirection to a file included). A directory, a socket or a
 *        block device is an error.
 * @wait_ms: how long a FIFO may go without a reader before it is an error
 *        (0: KVET_OUTPUT_FIFO_WAIT_MS).
 *
 * A reader of a pipe or FIFO that goes away (EPIPE) is no failure, as on
 * standard output.
 * Returns: 0, or -1 after describing the failure on @err.
 */
int kvet_output_write_atomic(const char *path, kvet_output_fn write,
			     const void *data, unsigned int wait_ms, FILE *err);

/**
 * kvet_output_write_file() - write a report to a file atomically.
 * @ctx: a context that has run.
 * @format: the report format.
 * @opts: flags and gate, as for kvet_render().
 * @path: the file, written as kvet_output_write_atomic() says.
 * @wait_ms: as for kvet_output_write_atomic().
 * @err: where a failure is described ("kvet: error: ...").
 *
 * Returns: 0, or -1 after describing the failure on @err; the temporary
 * file is removed.
 */
int kvet_output_write_file(const struct kvet_ctx *ctx, enum kvet_format format,
			   const struct kvet_render_options *opts,
			   const char *path, unsigned int wait_ms, FILE *err);

/**
 * kvet_output_check_reports() - refuse two reports to one file.
 * @args: the reports to files and to standard output, and the baseline
 *        to write, compared as files (symbolic links, hard links and
 *        spellings of one path are one file; /dev/stdout is standard
 *        output); character devices (/dev/null, a terminal) excepted.
 * Returns: 0, or -1 after naming both on @err.
 */
int kvet_output_check_reports(const struct kvet_args *args, FILE *err);

#endif

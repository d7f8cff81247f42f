/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_OUTPUT_H
#define KVET_CLI_OUTPUT_H

#include <stdio.h>

#include "kvet/kvet.h"

/* Writes the whole content to @fp; returns 0, or -1 with errno set. */
typedef int (*kvet_output_fn)(const void *data, FILE *fp);

/**
 * kvet_output_write_atomic() - write a file without ever leaving half of it.
 * @path: a regular file, or a name that does not exist yet, is written to a
 *        temporary file in the same directory (PATH.tmp.XXXXXX), synced,
 *        then renamed over it, keeping the old file's mode, so that readers
 *        never see half a file and a failure leaves the old one. A symbolic
 *        link is followed and the file it names is replaced; the link stays.
 *        Anything else that exists (a character device such as /dev/null,
 *        a FIFO, a socket, /dev/stdout, /dev/fd/N) is opened and written
 *        in place: renaming over it would destroy it. A directory is an
 *        error (EISDIR).
 * Returns: 0, or -1 after describing the failure on @err.
 */
int kvet_output_write_atomic(const char *path, kvet_output_fn write,
			     const void *data, FILE *err);

/**
 * kvet_output_write_file() - write a report to a file atomically.
 * @ctx: a context that has run.
 * @format: the report format.
 * @opts: flags and gate, as for kvet_render().
 * @path: the file, written as kvet_output_write_atomic() says.
 * @err: where a failure is described ("kvet: error: ...").
 *
 * Returns: 0, or -1 after describing the failure on @err; the temporary
 * file is removed.
 */
int kvet_output_write_file(const struct kvet_ctx *ctx, enum kvet_format format,
			   const struct kvet_render_options *opts,
			   const char *path, FILE *err);

#endif

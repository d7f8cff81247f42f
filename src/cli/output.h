/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_OUTPUT_H
#define KVET_CLI_OUTPUT_H

#include <stdio.h>

#include "kvet/kvet.h"

/* Writes the whole content to @fp; returns 0, or -1 with errno set. */
typedef int (*kvet_output_fn)(const void *data, FILE *fp);

/**
 * kvet_output_write_atomic() - write a file atomically: to a temporary
 * file next to @path (PATH.tmp.XXXXXX), synced, then renamed over @path,
 * so that readers never see half a file and a failure leaves the old one.
 * Returns: 0, or -1 after describing the failure on @err.
 */
int kvet_output_write_atomic(const char *path, kvet_output_fn write,
			     const void *data, FILE *err);

/**
 * kvet_output_write_file() - write a report to a file atomically.
 * @ctx: a context that has run.
 * @format: the report format.
 * @flags: enum kvet_render_flags.
 * @path: the file. The report goes to a temporary file next to it
 *        (PATH.tmp.XXXXXX), which is renamed over @path once complete, so
 *        that readers never see half a report and a failed run leaves an
 *        old report intact. A symlink at @path is replaced, not followed.
 * @err: where a failure is described ("kvet: error: ...").
 *
 * Returns: 0, or -1 after describing the failure on @err; the temporary
 * file is removed.
 */
int kvet_output_write_file(const struct kvet_ctx *ctx, enum kvet_format format,
			   unsigned int flags, const char *path, FILE *err);

#endif

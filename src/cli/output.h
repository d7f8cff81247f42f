/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CLI_OUTPUT_H
#define KVET_CLI_OUTPUT_H

#include <stdio.h>

#include "kvet/kvet.h"

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

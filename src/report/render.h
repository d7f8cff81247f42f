/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_REPORT_RENDER_H
#define KVET_REPORT_RENDER_H

#include <stdio.h>

#include "kvet/kvet.h"

/*
 * The interface every report format implements: one function that writes
 * the whole report of a run that has completed. Renderers read the context
 * through the public API only and never flush or close @fp; kvet_render()
 * checks the stream for write errors once, at the end.
 */
typedef int (*kvet_render_fn)(const struct kvet_ctx *ctx, unsigned int flags,
			      FILE *fp);

int kvet_render_text(const struct kvet_ctx *ctx, unsigned int flags, FILE *fp);
int kvet_render_json(const struct kvet_ctx *ctx, unsigned int flags, FILE *fp);
int kvet_render_junit(const struct kvet_ctx *ctx, unsigned int flags,
		      FILE *fp);
int kvet_render_sarif(const struct kvet_ctx *ctx, unsigned int flags,
		      FILE *fp);
int kvet_render_github(const struct kvet_ctx *ctx, unsigned int flags,
		       FILE *fp);

/* "error", "warning" or "info": the spelling shared by every format. */
const char *kvet_severity_name(enum kvet_severity sev);

#endif

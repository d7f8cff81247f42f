/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_REPORT_RENDER_DRAIN_H
#define KVET_REPORT_RENDER_DRAIN_H

/*
 * The drain parts of the reports (kvet drain): each node's verdict and,
 * for a rolling plan, the steps and the chain of causes where the roll
 * stalls. The findings themselves go through the usual renderers.
 */
#include <stdbool.h>
#include <stdio.h>

#include "kvet/kvet.h"
#include "base/json.h"

/*
 * render_drain_text.c, the text report's three parts (issue 26, item
 * 11): the answer (the verdict, the pool, a row per node with what
 * blocks it), first and alone under --quiet; the blockers in the API
 * server's words; and, after the findings, each node's pod and finding
 * counts.
 */
void kvet_text_write_drain_answer(FILE *fp, const struct kvet_ctx *ctx,
				  bool color);
void kvet_text_write_drain_blockers(FILE *fp, const struct kvet_ctx *ctx);
void kvet_text_write_drain(FILE *fp, const struct kvet_ctx *ctx, bool color);

/* "3 nodes in 3 zones, each with 3920m CPU, ...; 4 pods placed". */
void kvet_drain_write_pool(FILE *fp, const struct kvet_drain_pool *pool);

/* render_drain_json.c: the "drain" member of the JSON report. */
void kvet_json_write_drain(struct kvet_jw *jw, const struct kvet_ctx *ctx);

/* "each-node" or "rolling". */
const char *kvet_drain_plan_name(enum kvet_drain_plan plan);

/* How many of the nodes have each verdict. */
void kvet_drain_count_verdicts(const struct kvet_ctx *ctx,
			       size_t counts[KVET_DRAIN_NOT_REACHED + 1]);

/* The step that stalls, or NULL. */
const struct kvet_drain_step *kvet_drain_stall(const struct kvet_ctx *ctx);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The drain section of the text report:
 *
 *	drain, each node alone: 3 nodes: 1 drains, 1 drains with warnings, 1 blocked
 *	  node "a1": drains (4 pods evicted, 1 deleted, 2 left)
 *	  node "c1": blocked (1 error, 2 warnings)
 *
 * and for a rolling plan, the steps, with the chain of causes under the
 * one that stalls.
 */
#include "report/render_drain.h"

#include <string.h>

#include "report/escape.h"

const char *kvet_drain_plan_name(enum kvet_drain_plan plan)
{
	return plan == KVET_DRAIN_ROLLING ? "rolling" : "each-node";
}

void kvet_drain_count_verdicts(const struct kvet_ctx *ctx,
			       size_t counts[KVET_DRAIN_NOT_REACHED + 1])
{
	size_t i;

	memset(counts, 0, (KVET_DRAIN_NOT_REACHED + 1) * sizeof(*counts));
	for (i = 0; i < kvet_ctx_drain_node_count(ctx); i++)
		counts[kvet_ctx_drain_node(ctx, i)->verdict]++;
}

const struct kvet_drain_step *kvet_drain_stall(const struct kvet_ctx *ctx)
{
	size_t i;

	for (i = 0; i < kvet_ctx_drain_step_count(ctx); i++)
		if (kvet_ctx_drain_step(ctx, i)->stalled)
			return kvet_ctx_drain_step(ctx, i);
	return NULL;
}

static const char *const verdict_text[] = {
	[KVET_DRAIN_DRAINS] = "drains",
	[KVET_DRAIN_WARNINGS] = "drains with warnings",
	[KVET_DRAIN_BLOCKED] = "blocked",
	[KVET_DRAIN_NOT_REACHED] = "not reached",
};

static const char *const verdict_color[] = {
	[KVET_DRAIN_DRAINS] = "\033[1;32m",
	[KVET_DRAIN_WARNINGS] = "\033[1;33m",
	[KVET_DRAIN_BLOCKED] = "\033[1;31m",
	[KVET_DRAIN_NOT_REACHED] = "\033[1;36m",
};

static void put(FILE *fp, const char *s)
{
	kvet_text_write(fp, s, strlen(s));
}

static void write_counts(FILE *fp, const struct kvet_ctx *ctx,
			 const struct kvet_drain_node *dn)
{
	size_t sev[KVET_SEV_COUNT] = { 0 }, i;
	bool first = true;

	for (i = 0; i < dn->n_findings; i++)
		sev[kvet_ctx_finding(ctx, dn->findings[i])->severity]++;
	fprintf(fp, " (%zu pod%s evicted, %zu deleted, %zu left",
		dn->evicted, dn->evicted == 1 ? "" : "s", dn->deleted,
		dn->left);
	for (i = KVET_SEV_COUNT; i-- > 0;) {
		static const char *const names[] = { "info", "warning",
						     "error" };

		if (!sev[i])
			continue;
		fprintf(fp, "%s %zu %s%s", first ? ";" : ",", sev[i], names[i],
			sev[i] == 1 || i == KVET_SEV_INFO ? "" : "s");
		first = false;
	}
	putc(')', fp);
}

static void write_node(FILE *fp, const struct kvet_ctx *ctx,
		       const struct kvet_drain_node *dn, bool color,
		       const char *indent)
{
	fprintf(fp, "%snode \"", indent);
	put(fp, dn->node.name);
	fputs("\": ", fp);
	if (color)
		fputs(verdict_color[dn->verdict], fp);
	fputs(verdict_text[dn->verdict], fp);
	if (color)
		fputs("\033[0m", fp);
	if (dn->verdict != KVET_DRAIN_NOT_REACHED)
		write_counts(fp, ctx, dn);
	putc('\n', fp);
}

static void write_header(FILE *fp, const struct kvet_ctx *ctx)
{
	size_t counts[KVET_DRAIN_NOT_REACHED + 1], i;
	const struct kvet_drain_step *stall = kvet_drain_stall(ctx);
	bool first = true;

	kvet_drain_count_verdicts(ctx, counts);
	if (kvet_ctx_drain_plan(ctx) == KVET_DRAIN_ROLLING) {
		fprintf(fp, "drain, rolling: %zu step%s: ",
			kvet_ctx_drain_step_count(ctx),
			kvet_ctx_drain_step_count(ctx) == 1 ? "" : "s");
		if (stall)
			fprintf(fp, "stalls at step %u\n", stall->index);
		else
			fputs("completes\n", fp);
		return;
	}
	fprintf(fp, "drain, each node alone: %zu node%s",
		kvet_ctx_drain_node_count(ctx),
		kvet_ctx_drain_node_count(ctx) == 1 ? "" : "s");
	for (i = 0; i <= KVET_DRAIN_NOT_REACHED; i++) {
		if (!counts[i])
			continue;
		fprintf(fp, "%s %zu %s", first ? ":" : ",", counts[i],
			verdict_text[i]);
		first = false;
	}
	putc('\n', fp);
}

static void write_steps(FILE *fp, const struct kvet_ctx *ctx, bool color)
{
	size_t i, j, k = 0;

	for (i = 0; i < kvet_ctx_drain_step_count(ctx); i++) {
		const struct kvet_drain_step *st = kvet_ctx_drain_step(ctx, i);

		fprintf(fp, "  step %u:\n", st->index);
		for (j = 0; j < st->n_nodes; j++, k++)
			write_node(fp, ctx, kvet_ctx_drain_node(ctx, k), color,
				   "    ");
		for (j = 0; j < st->n_causes; j++) {
			fputs(strncmp(st->causes[j], "because ", 8) ? "      "
								 : "        ",
			      fp);
			put(fp, st->causes[j]);
			putc('\n', fp);
		}
	}
	if (k < kvet_ctx_drain_node_count(ctx))
		fprintf(fp, "  not reached: %zu node%s\n",
			kvet_ctx_drain_node_count(ctx) - k,
			kvet_ctx_drain_node_count(ctx) - k == 1 ? "" : "s");
}

void kvet_text_write_drain(FILE *fp, const struct kvet_ctx *ctx, bool color)
{
	size_t i;

	write_header(fp, ctx);
	if (kvet_ctx_drain_plan(ctx) == KVET_DRAIN_ROLLING) {
		write_steps(fp, ctx, color);
		return;
	}
	for (i = 0; i < kvet_ctx_drain_node_count(ctx); i++)
		write_node(fp, ctx, kvet_ctx_drain_node(ctx, i), color, "  ");
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The "drain" member of the JSON report (docs/formats.md):
 *
 *	"drain": {"plan": "rolling", "result": "stalls", "stall_step": 2,
 *	  "nodes": [{"name": "a1", "file": ..., "line": 3, "verdict":
 *	    "drains", "step": 1, "pods": {"evicted": 4, "deleted": 1,
 *	    "left": 2}, "findings": [0, 3]}],
 *	  "steps": [{"step": 1, "nodes": ["a1"], "stalled": false,
 *	    "causes": []}]}
 *
 * "findings" are indexes into the report's "findings" array.
 */
#include "report/render_drain.h"

static void write_node(struct kvet_jw *jw, const struct kvet_drain_node *dn)
{
	size_t i;

	kvet_jw_open(jw, NULL, '{');
	kvet_jw_str(jw, "name", dn->node.name);
	kvet_jw_str(jw, "file", dn->node.pos.file);
	kvet_jw_pos(jw, "line", dn->node.pos.line);
	kvet_jw_str(jw, "verdict", kvet_drain_verdict_name(dn->verdict));
	if (dn->step)
		kvet_jw_uint(jw, "step", dn->step);
	kvet_jw_open(jw, "pods", '{');
	kvet_jw_uint(jw, "evicted", dn->evicted);
	kvet_jw_uint(jw, "deleted", dn->deleted);
	kvet_jw_uint(jw, "left", dn->left);
	kvet_jw_close(jw, '}');
	kvet_jw_open(jw, "findings", '[');
	for (i = 0; i < dn->n_findings; i++)
		kvet_jw_uint(jw, NULL, dn->findings[i]);
	kvet_jw_close(jw, ']');
	kvet_jw_close(jw, '}');
}

static void write_step(struct kvet_jw *jw, const struct kvet_drain_step *st)
{
	size_t i;

	kvet_jw_open(jw, NULL, '{');
	kvet_jw_uint(jw, "step", st->index);
	kvet_jw_open(jw, "nodes", '[');
	for (i = 0; i < st->n_nodes; i++)
		kvet_jw_str(jw, NULL, st->nodes[i]);
	kvet_jw_close(jw, ']');
	kvet_jw_bool(jw, "stalled", st->stalled);
	kvet_jw_open(jw, "causes", '[');
	for (i = 0; i < st->n_causes; i++)
		kvet_jw_str(jw, NULL, st->causes[i]);
	kvet_jw_close(jw, ']');
	kvet_jw_close(jw, '}');
}

void kvet_json_write_drain(struct kvet_jw *jw, const struct kvet_ctx *ctx)
{
	const struct kvet_drain_step *stall = kvet_drain_stall(ctx);
	size_t counts[KVET_DRAIN_NOT_REACHED + 1], i;

	kvet_drain_count_verdicts(ctx, counts);
	kvet_jw_open(jw, "drain", '{');
	kvet_jw_str(jw, "plan", kvet_drain_plan_name(kvet_ctx_drain_plan(ctx)));
	if (kvet_ctx_drain_plan(ctx) == KVET_DRAIN_ROLLING) {
		kvet_jw_str(jw, "result", stall ? "stalls" : "completes");
		if (stall)
			kvet_jw_uint(jw, "stall_step", stall->index);
	}
	kvet_jw_open(jw, "verdicts", '{');
	for (i = 0; i <= KVET_DRAIN_NOT_REACHED; i++)
		kvet_jw_uint(jw, kvet_drain_verdict_name(
					 (enum kvet_drain_verdict)i),
			     counts[i]);
	kvet_jw_close(jw, '}');
	kvet_jw_open(jw, "nodes", '[');
	for (i = 0; i < kvet_ctx_drain_node_count(ctx); i++)
		write_node(jw, kvet_ctx_drain_node(ctx, i));
	kvet_jw_close(jw, ']');
	if (kvet_ctx_drain_plan(ctx) == KVET_DRAIN_ROLLING) {
		kvet_jw_open(jw, "steps", '[');
		for (i = 0; i < kvet_ctx_drain_step_count(ctx); i++)
			write_step(jw, kvet_ctx_drain_step(ctx, i));
		kvet_jw_close(jw, ']');
	}
	kvet_jw_close(jw, '}');
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `kvet drain`: bytes as a cluster dump → loader → objects → graph →
 * the drain simulation (each node, or a rolling plan) → every report
 * format, each checked for well-formedness.
 *
 * An input whose first line is "#fuzz:" (a YAML comment, so the dump
 * still loads) asks for: 'r' a rolling plan, 'f' --force, 'e'
 * --delete-emptydir-data=false, 'd' --ignore-daemonsets=false, 's' one
 * surge node, a digit that many nodes per rolling step, 'o' order by
 * name, 'g' order as given, 'w' --skip-wait-for-delete-timeout 60;
 * after a space, the rest of the line is
 * --nodes (a label selector or node names).
 */
#include "common.h"

FUZZ_INITIALIZE_TEMPLATE()

/* Read the "#fuzz:" line of @data into @o; @nodes gets --nodes. */
static void read_flags(const uint8_t *data, size_t size,
		       struct kvet_drain_options *o, char *nodes, size_t cap)
{
	size_t i, n;

	if (size < 6 || memcmp(data, "#fuzz:", 6))
		return;
	for (i = 6; i < size && data[i] != '\n' && data[i] != ' '; i++)
		switch (data[i]) {
		case 'r':
			o->plan = KVET_DRAIN_ROLLING;
			break;
		case 'f':
			o->flags |= KVET_DRAIN_FORCE;
			break;
		case 'e':
			o->flags |= KVET_DRAIN_KEEP_EMPTYDIR;
			break;
		case 'd':
			o->flags |= KVET_DRAIN_NO_IGNORE_DAEMONSETS;
			break;
		case 's':
			o->surge = 1;
			break;
		case 'o':
			o->order = KVET_DRAIN_ORDER_NAME;
			break;
		case 'g':
			o->order = KVET_DRAIN_ORDER_GIVEN;
			break;
		case 'w':
			o->skip_wait_for_delete_timeout = 60;
			break;
		default:
			if (data[i] >= '0' && data[i] <= '9')
				o->max_unavailable = data[i] - '0';
		}
	if (i >= size || data[i] != ' ')
		return;
	for (i++, n = 0; i < size && data[i] != '\n' && n + 1 < cap; i++)
		nodes[n++] = data[i] ? (char)data[i] : ' ';
	nodes[n] = '\0';
	o->nodes = nodes;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kvet_options opts = { .flags = KVET_CTX_DRAIN, .jobs = 1 };
	struct kvet_drain_options drain = { 0 };
	char nodes[256];
	struct kvet_ctx *ctx;
	size_t i, n;

	read_flags(data, size, &drain, nodes, sizeof(nodes));
	ctx = fuzz_ctx(&opts);
	if (!ctx)
		return 0;
	/* a selector that does not parse is the one refusal */
	if (kvet_ctx_set_drain(ctx, &drain))
		goto out;
	if (kvet_ctx_add_buffer(ctx, "dump.yaml", (const char *)data,
				size) == 0 &&
	    kvet_ctx_run(ctx) == 0) {
		n = kvet_ctx_drain_node_count(ctx);
		for (i = 0; i < n; i++) {
			const struct kvet_drain_node *dn =
				kvet_ctx_drain_node(ctx, i);
			size_t j;

			if (!dn)
				fuzz_die("a drain node out of its count");
			for (j = 0; j < dn->n_findings; j++)
				if (!kvet_ctx_finding(ctx, dn->findings[j]))
					fuzz_die("a drain node's finding out of range");
		}
		fuzz_render_all(ctx);
	}
out:
	kvet_ctx_destroy(ctx);
	fuzz_restore_rules();
	return 0;
}

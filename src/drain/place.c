/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Placement: where the kube-scheduler could put a replacement. Nodes are
 * tried in a fixed preference order (least requested share of CPU, then
 * name), kept sorted as pods move, so that a placement usually stops at
 * the first node tried; only a pod no node accepts costs a pass over all
 * nodes, to say why in the scheduler's words.
 */
#include "drain/fit.h"

#include <stdlib.h>
#include <string.h>

/* Every filter, in the scheduler's order; the first failure decides. */
static bool fits(struct drain_cluster *c, uint32_t p, uint32_t n,
		 const struct drain_prefilter *pre, struct drain_reasons *r)
{
	return drain_fit_unschedulable(c, p, n, r) &&
	       drain_fit_taints(c, p, n, r) &&
	       drain_fit_node_affinity(c, p, n, r) &&
	       drain_fit_ports(c, p, n, r) &&
	       drain_fit_resources(c, p, n, r) &&
	       drain_fit_volumes(c, p, n, r) &&
	       drain_fit_spread(c, p, n, pre, r) &&
	       drain_fit_interpod(c, p, n, pre, r);
}

struct bucket {
	const char *reason;
	size_t count;
};

static int cmp_text(const void *pa, const void *pb)
{
	return strcmp(*(const char *const *)pa, *(const char *const *)pb);
}

/*
 * "0/N nodes are available: 3 Insufficient cpu, 2 node(s) were
 * unschedulable." The histogram entries are "<count> <reason>", sorted
 * as strings, as the scheduler's FitError.Error() sorts them.
 */
static const char *explain(struct drain_cluster *c, uint32_t p,
			   const struct drain_prefilter *pre)
{
	struct bucket *b = calloc(64, sizeof(*b));
	const char **lines = NULL;
	struct drain_reasons r;
	size_t nb = 0, i, j, total = 0, len = 0;
	char *msg = NULL, *at;
	uint32_t n;

	if (!b)
		goto out;
	for (n = 0; n < c->n_nodes; n++) {
		if (c->nodes[n].gone)
			continue;
		total++;
		r.n = 0;
		fits(c, p, n, pre, &r);
		for (i = 0; i < r.n; i++) {
			for (j = 0; j < nb; j++)
				if (!strcmp(b[j].reason, r.v[i]))
					break;
			if (j == nb && nb == 64)
				continue;
			if (j == nb)
				b[nb++].reason = r.v[i];
			b[j].count++;
		}
	}
	lines = calloc(nb + 1, sizeof(*lines));
	if (!lines)
		goto out;
	for (i = 0; i < nb; i++) {
		lines[i] = kvet_arena_printf(c->arena, "%zu %s", b[i].count,
					     b[i].reason);
		if (!lines[i])
			goto out;
		len += strlen(lines[i]) + 2;
	}
	qsort(lines, nb, sizeof(*lines), cmp_text);
	msg = kvet_arena_alloc(c->arena, len + 64);
	if (!msg)
		goto out;
	at = msg + snprintf(msg, 64, "0/%zu nodes are available%s", total,
			    nb ? ": " : "");
	for (i = 0; i < nb; i++) {
		if (i) {
			memcpy(at, ", ", 2);
			at += 2;
		}
		memcpy(at, lines[i], strlen(lines[i]));
		at += strlen(lines[i]);
	}
	memcpy(at, ".", 2);
out:
	if (!msg)
		c->oom = true;
	free(lines);
	free(b);
	return msg ? msg : "0 nodes are available.";
}

uint32_t drain_place(struct drain_cluster *c, uint32_t p, const char **why)
{
	struct kvet_arena_mark mark;
	struct drain_prefilter pre;
	uint32_t pos, n, found = DRAIN_NONE;

	kvet_arena_mark(&c->scratch, &mark);
	memset(&pre, 0, sizeof(pre));
	*why = NULL;
	if (drain_prefilter_spread(c, &c->scratch, p, &pre) < 0 ||
	    drain_prefilter_interpod(c, &c->scratch, p, &pre) < 0) {
		c->oom = true;
		goto out;
	}
	for (pos = 0; pos < c->n_nodes; pos++) {
		n = c->order[pos];
		if (!c->nodes[n].gone && fits(c, p, n, &pre, NULL)) {
			found = n;
			goto out;
		}
	}
	*why = explain(c, p, &pre);
out:
	kvet_arena_reset(&c->scratch, &mark);
	return found;
}

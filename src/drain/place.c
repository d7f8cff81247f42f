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

#include "model/node_affinity.h"

/* Every filter, in the scheduler's order; the first failure decides. */
static bool fits(struct drain_cluster *c, uint32_t p, uint32_t n,
		 const struct drain_prefilter *pre, struct drain_reasons *r)
{
	return drain_fit_unschedulable(c, p, n, r) &&
	       drain_fit_taints(c, p, n, r) &&
	       (pre->any_node || drain_fit_node_affinity(c, p, n, r)) &&
	       drain_fit_ports(c, p, n, r) &&
	       drain_fit_resources(c, p, n, r) &&
	       drain_fit_volumes(c, p, n, r) &&
	       drain_fit_volume_zone(c, p, n, r) &&
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

/* The one copy of message @msg (scratch) in the cluster's arena. */
static const char *intern(struct drain_cluster *c, const char *msg)
{
	struct kvet_slice key = { msg, strlen(msg) };
	bool created;
	void **slot;

	if (!c->messages.arena)
		kvet_hash_init(&c->messages, c->arena);
	slot = kvet_hash_put(&c->messages, &key, 1, &created);
	if (!slot)
		return NULL;
	if (created)
		*slot = kvet_arena_strndup(c->arena, msg, key.len);
	return *slot;
}

enum { MAX_BUCKETS = 64 };

/* Count what the filters said of one node into @b; false when a reason
 * found no bucket left (the histogram then depends on the nodes' order). */
static bool tally(struct bucket *b, size_t *nb, const struct drain_reasons *r)
{
	bool ok = true;
	size_t i, j;

	for (i = 0; i < r->n; i++) {
		for (j = 0; j < *nb; j++)
			if (!strcmp(b[j].reason, r->v[i]))
				break;
		if (j == *nb && *nb == MAX_BUCKETS) {
			ok = false;
			continue;
		}
		if (j == *nb)
			b[(*nb)++].reason = r->v[i];
		b[j].count++;
	}
	return ok;
}

/*
 * "0/N nodes are available: 3 Insufficient cpu, 2 node(s) were
 * unschedulable." The histogram entries are "<count> <reason>", sorted
 * as strings, as the scheduler's FitError.Error() sorts them. A pod no
 * node takes is explained over every node, again on each retry: what
 * the filters said lives in the placement's scratch, and only the
 * message, one copy per distinct text, in the cluster's arena.
 */
static const char *word(struct drain_cluster *c, uint32_t p,
			const struct bucket *b, size_t nb, size_t total)
{
	const char **lines = NULL;
	const char *kept = NULL;
	size_t i, len = 0;
	char *msg = NULL, *at;

	lines = calloc(nb + 1, sizeof(*lines));
	if (!lines)
		goto out;
	for (i = 0; i < nb; i++) {
		lines[i] = kvet_arena_printf(&c->scratch, "%zu %s", b[i].count,
					     b[i].reason);
		if (!lines[i])
			goto out;
		len += strlen(lines[i]) + 2;
	}
	qsort(lines, nb, sizeof(*lines), cmp_text);
	/* NodeResourcesFit's reasons alone: a bigger pool would take it */
	c->pods[p].no_room = nb > 0;
	for (i = 0; i < nb; i++)
		if (strncmp(b[i].reason, "Insufficient ", 13) &&
		    strcmp(b[i].reason, "Too many pods"))
			c->pods[p].no_room = false;
	msg = kvet_arena_alloc(&c->scratch, len + 64);
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
	kept = intern(c, msg);
out:
	if (!kept)
		c->oom = true;
	free(lines);
	return kept ? kept : "0 nodes are available.";
}

/* The scheduler's message for @p, asking every node in name order. */
static const char *explain(struct drain_cluster *c, uint32_t p,
			   const struct drain_prefilter *pre, uint32_t only)
{
	struct bucket *b = kvet_arena_array(&c->scratch, MAX_BUCKETS,
					    sizeof(*b));
	struct drain_reasons r;
	size_t nb = 0, total = 0;
	uint32_t n;

	if (!b) {
		c->oom = true;
		return "0 nodes are available.";
	}
	for (n = 0; n < c->n_nodes; n++) {
		if (c->nodes[n].gone)
			continue;
		total++;
		r.n = 0;
		/* a DaemonSet's pod: its node affinity names one node */
		if (only != DRAIN_NONE && n != only)
			drain_reason(&r, "node(s) didn't match Pod's node affinity/selector");
		else
			fits(c, p, n, pre, &r);
		tally(b, &nb, &r);
	}
	return word(c, p, b, nb, total);
}

/*
 * A dump's placement: the first node in preference order that takes @p,
 * or DRAIN_NONE with the scheduler's message in @why, from what the
 * filters said on the way: one pass over the nodes, not a second one to
 * explain (on a full pool, each replacement passes over every node). The
 * counts do not depend on the order of the nodes, unless the reasons
 * overflow the buckets: then explain() asks again in name order.
 */
static uint32_t first_fit(struct drain_cluster *c, uint32_t p,
			  const struct drain_prefilter *pre, const char **why)
{
	struct bucket *b = kvet_arena_array(&c->scratch, MAX_BUCKETS,
					    sizeof(*b));
	struct drain_reasons r;
	size_t nb = 0, total = 0;
	bool ordered = true;
	uint32_t pos, n;

	if (!b) {
		c->oom = true;
		*why = "0 nodes are available.";
		return DRAIN_NONE;
	}
	for (pos = 0; pos < c->n_nodes; pos++) {
		n = c->order[pos];
		if (c->nodes[n].gone)
			continue;
		total++;
		r.n = 0;
		if (fits(c, p, n, pre, &r))
			return n;
		if (!tally(b, &nb, &r))
			ordered = false;
	}
	*why = ordered ? word(c, p, b, nb, total)
		       : explain(c, p, pre, DRAIN_NONE);
	return DRAIN_NONE;
}

/*
 * Pods of @p's workload running on each node (@on, kept by moves.c) and
 * zone (@in, summed here over the nodes, which pick() passes over anyway),
 * so that placing a replica costs the pool's nodes, not the workload's
 * pods (65,535 replicas took 18 s when each placement recounted them).
 */
static int siblings(struct drain_cluster *c, uint32_t p, const int32_t **on,
		    int64_t **in)
{
	const struct drain_key *zk = &c->keys[c->zone_key];
	uint32_t group = c->pods[p].group, n;

	*on = group != DRAIN_NONE
		      ? c->siblings[group]
		      : kvet_arena_array(&c->scratch, c->n_nodes + 1,
					 sizeof(**on));
	*in = kvet_arena_array(&c->scratch, zk->n_values + 1, sizeof(**in));
	if (!*on || !*in)
		return -1;
	for (n = 0; n < c->n_nodes; n++)
		if (zk->value[n] != DRAIN_NONE)
			(*in)[zk->value[n]] += (*on)[n];
	return 0;
}

/*
 * A synthetic pool has no scheduler history to follow: pods of one
 * workload go where fewest of them run, by node then zone, as the
 * scheduler's default topology spreading (hostname and zone, ScheduleAnyway)
 * scores it; the preference order breaks ties. A dump keeps the first node
 * in preference order (first_fit()).
 */
static uint32_t pick(struct drain_cluster *c, uint32_t p,
		     const struct drain_prefilter *pre)
{
	const int32_t *on;
	int64_t *in, best_on = 0, best_in = 0, zin;
	uint32_t pos, n, z, best = DRAIN_NONE;

	if (siblings(c, p, &on, &in) < 0) {
		c->oom = true;
		return DRAIN_NONE;
	}
	for (pos = 0; pos < c->n_nodes; pos++) {
		n = c->order[pos];
		z = c->keys[c->zone_key].value[n];
		zin = z == DRAIN_NONE ? 0 : in[z];
		if (c->nodes[n].gone ||
		    (best != DRAIN_NONE &&
		     (on[n] > best_on || (on[n] == best_on && zin >= best_in))))
			continue;
		if (!fits(c, p, n, pre, NULL))
			continue;
		best = n;
		best_on = on[n];
		best_in = zin;
	}
	return best;
}

/* Place @p on the nodes @only allows (DRAIN_NONE: any). */
static uint32_t place(struct drain_cluster *c, uint32_t p, uint32_t only,
		      const char **why)
{
	struct kvet_arena_mark mark;
	struct drain_prefilter pre;
	uint32_t found = DRAIN_NONE;

	kvet_arena_mark(&c->scratch, &mark);
	memset(&pre, 0, sizeof(pre));
	pre.any_node = !kvet_pod_has_node_affinity(c->pods[p].spec);
	*why = NULL;
	if (drain_prefilter_spread(c, &c->scratch, p, &pre) < 0 ||
	    drain_prefilter_interpod(c, &c->scratch, p, &pre) < 0) {
		c->oom = true;
		goto out;
	}
	if (only == DRAIN_NONE && !c->synthetic) {
		found = first_fit(c, p, &pre, why);
		goto out;
	}
	if (only == DRAIN_NONE)
		found = pick(c, p, &pre);
	else if (!c->nodes[only].gone && fits(c, p, only, &pre, NULL))
		found = only;
	if (found == DRAIN_NONE)
		*why = explain(c, p, &pre, only);
out:
	kvet_arena_reset(&c->scratch, &mark);
	return found;
}

uint32_t drain_place(struct drain_cluster *c, uint32_t p, const char **why)
{
	return place(c, p, DRAIN_NONE, why);
}

uint32_t drain_place_on(struct drain_cluster *c, uint32_t p, uint32_t n,
			const char **why)
{
	return place(c, p, n, why);
}

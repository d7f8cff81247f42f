/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The moves of pods: onto a node, off it, Ready or not, replaced. Each
 * keeps the counts that depend on it (node requests, term counts, budget
 * health, Service endpoints, StatefulSet replicas) in step, through the
 * journal.
 */
#include "drain/cluster.h"

#include <stdlib.h>
#include <string.h>

#include "base/sat.h"
#include "base/vec.h"
#include "drain/journal.h"

/* What @req asks of resource @k of @node: a built-in one below
 * KVET_RES_BUILTIN, else its extended resource k - KVET_RES_BUILTIN. */
static int64_t request_of(const struct kvet_resources *req,
			  const struct drain_node *node, size_t k)
{
	return k < KVET_RES_BUILTIN
		       ? req->v[k]
		       : kvet_resources_ext(
				 req, node->alloc.ext[k - KVET_RES_BUILTIN].name);
}

/* The use of resource @k by the unfinished pods listed on node @n. */
static int64_t recount(const struct drain_cluster *c, uint32_t n, size_t k)
{
	const struct drain_node *node = &c->nodes[n];
	int64_t sum = 0;
	uint32_t q;

	for (q = node->first_pod; q != DRAIN_NONE; q = c->pods[q].next)
		if (!kvet_pod_phase_terminal(c->pods[q].phase))
			sum = kvet_sat_add_i64(
				sum, request_of(&c->pods[q].needs.req, node, k));
	return sum;
}

/*
 * Node @n's use @used of resource @k with @req (never negative, at most
 * INT64_MAX: model/quantity.h) added (@sign 1) or taken away (-1), for a
 * pod already off the node's list. A use is the true sum, or INT64_MAX
 * when that is more, a node so full it takes nothing more: requests past
 * what an int64 holds are no real pod's, yet fuzz_drain found three
 * pods whose CPU requests summed past it, first as a signed overflow, then,
 * with sums stopped, as a use taken below zero. A stopped sum is
 * recounted when a pod leaves, which costs the node's pods only on such
 * inputs.
 */
static int64_t moved(const struct drain_cluster *c, uint32_t n, size_t k,
		     int64_t used, int64_t req, int sign)
{
	if (sign > 0)
		return kvet_sat_add_i64(used, req);
	return used < INT64_MAX ? used - req : recount(c, n, k);
}

/* Requests of @p on node @n, added (@sign 1) or taken away (-1: @p
 * already off the node's list). */
static void count_requests(struct drain_cluster *c, uint32_t p, uint32_t n,
			   int sign)
{
	struct drain_node *node = &c->nodes[n];
	const struct kvet_resources *req = &c->pods[p].needs.req;
	size_t k, n_res = KVET_RES_BUILTIN + node->alloc.n_ext;
	int64_t *used, r;

	for (k = 0; k < n_res; k++) {
		used = k < KVET_RES_BUILTIN
			       ? &node->used[k]
			       : &node->ext_used[k - KVET_RES_BUILTIN];
		r = request_of(req, node, k);
		if (r)
			drain_set_i64(c, used, moved(c, n, k, *used, r, sign));
	}
}

static void count_terms(struct drain_cluster *c, uint32_t p, uint32_t n,
			int sign)
{
	const struct drain_pod *pod = &c->pods[p];
	uint32_t i;

	for (i = 0; i < pod->n_match_terms; i++) {
		struct drain_term *t = &c->terms[pod->match_terms[i]];

		drain_set_i32(c, &t->match[n], t->match[n] + sign);
		drain_set_i64(c, &t->match_total, t->match_total + sign);
	}
	for (i = 0; i < pod->n_own_terms; i++) {
		struct drain_term *t = &c->terms[pod->own_terms[i]];

		if (t->own)
			drain_set_i32(c, &t->own[n], t->own[n] + sign);
	}
}

/* @p's workload's counts after a change of what drain_pod_counted()
 * reads: before it, the pod counted (@was) on node @from. */
static void count_sibling(struct drain_cluster *c, uint32_t p, bool was,
			  uint32_t from)
{
	const struct drain_pod *pod = &c->pods[p];
	bool now = drain_pod_counted(pod);
	int32_t *on;

	if (pod->group == DRAIN_NONE || (was == now && from == pod->node))
		return;
	on = c->siblings[pod->group];
	if (was)
		drain_set_i32(c, &on[from], on[from] - 1);
	if (now)
		drain_set_i32(c, &on[pod->node], on[pod->node] + 1);
}

void drain_pod_set_state(struct drain_cluster *c, uint32_t p, uint32_t state)
{
	bool was = drain_pod_counted(&c->pods[p]);

	drain_set_u32(c, &c->pods[p].state, state);
	count_sibling(c, p, was, c->pods[p].node);
}

void drain_pod_bind(struct drain_cluster *c, uint32_t p, uint32_t n)
{
	struct drain_pod *pod = &c->pods[p];
	struct drain_node *node = &c->nodes[n];
	bool was = drain_pod_counted(pod);
	uint32_t from = pod->node;

	drain_set_u32(c, &pod->node, n);
	drain_set_u32(c, &pod->state, DRAIN_POD_RUNNING);
	drain_set_u32(c, &pod->prev, DRAIN_NONE);
	drain_set_u32(c, &pod->next, node->first_pod);
	if (node->first_pod != DRAIN_NONE)
		drain_set_u32(c, &c->pods[node->first_pod].prev, p);
	drain_set_u32(c, &node->first_pod, p);
	count_sibling(c, p, was, from);
	count_requests(c, p, n, 1);
	count_terms(c, p, n, 1);
	if (c->order)
		drain_order_update(c, n);
}

void drain_pod_unbind(struct drain_cluster *c, uint32_t p)
{
	struct drain_pod *pod = &c->pods[p];
	uint32_t n = pod->node;
	bool was = drain_pod_counted(pod);

	if (n == DRAIN_NONE)
		return;
	if (pod->prev != DRAIN_NONE)
		drain_set_u32(c, &c->pods[pod->prev].next, pod->next);
	else
		drain_set_u32(c, &c->nodes[n].first_pod, pod->next);
	if (pod->next != DRAIN_NONE)
		drain_set_u32(c, &c->pods[pod->next].prev, pod->prev);
	drain_set_u32(c, &pod->next, DRAIN_NONE);
	drain_set_u32(c, &pod->prev, DRAIN_NONE);
	drain_set_u32(c, &pod->node, DRAIN_NONE);
	count_sibling(c, p, was, n);
	/* a finished pod used nothing */
	if (!kvet_pod_phase_terminal(pod->phase)) {
		count_requests(c, p, n, -1);
		count_terms(c, p, n, -1);
	}
	if (c->order)
		drain_order_update(c, n);
}

/* The disruption controller's arithmetic after a pod's health changed. */
static void recompute_allowed(struct drain_cluster *c, struct drain_budget *b)
{
	int64_t a = b->healthy - b->desired;

	drain_set_i64(c, &b->allowed, b->expected > 0 && a > 0 ? a : 0);
}

void drain_pod_set_ready(struct drain_cluster *c, uint32_t p, bool ready)
{
	struct drain_pod *pod = &c->pods[p];
	int d = ready ? 1 : -1;
	uint32_t i;

	if (pod->ready == ready)
		return;
	drain_set_bool(c, &pod->ready, ready);
	for (i = 0; i < pod->n_budgets; i++) {
		struct drain_budget *b = &c->budgets[pod->budgets[i]];

		drain_set_i64(c, &b->healthy, b->healthy + d);
		recompute_allowed(c, b);
	}
	for (i = 0; i < pod->n_services; i++) {
		struct drain_service *s = &c->services[pod->services[i]];

		drain_set_i64(c, &s->ready, s->ready + d);
	}
	if (pod->sts != DRAIN_NONE)
		drain_set_i64(c, &c->sts[pod->sts].ready,
			      c->sts[pod->sts].ready + d);
}

uint32_t drain_pod_replace(struct drain_cluster *c, uint32_t p)
{
	struct drain_pod *r;
	uint32_t i = c->n_pods;
	bool was;

	if (c->n_pods == c->cap_pods) {
		/* a journal holds pointers into the pods: never move them
		 * while it records (drain_cluster_reserve() beforehand) */
		if (drain_journal_mark(c->journal) ||
		    drain_cluster_reserve(c, 64) < 0) {
			c->oom = true;
			return DRAIN_NONE;
		}
	}
	r = &c->pods[i];
	*r = c->pods[p];
	r->origin = c->pods[p].origin != DRAIN_NONE ? c->pods[p].origin : p;
	r->node = DRAIN_NONE;
	r->next = r->prev = DRAIN_NONE;
	r->state = DRAIN_POD_PENDING;
	r->ready = false;
	r->terminating = false;
	r->phase = KVET_PHASE_PENDING;
	r->replaced_by = DRAIN_NONE;
	r->from_node = c->pods[p].node;
	r->why = NULL;
	r->held_by = DRAIN_NONE;
	drain_set_u32(c, &c->n_pods, i + 1);
	was = drain_pod_counted(&c->pods[p]);
	drain_set_u32(c, &c->pods[p].replaced_by, i);
	count_sibling(c, p, was, c->pods[p].node);
	return i;
}

/* Least requested share of allocatable CPU first, in millionths. */
static uint64_t order_key(const struct drain_cluster *c, uint32_t n)
{
	const struct drain_node *node = &c->nodes[n];
	int64_t alloc = node->alloc.v[KVET_RES_CPU];
	int64_t used = node->used[KVET_RES_CPU];
	double share;

	if (alloc <= 0)
		return UINT64_MAX / 2;
	if (used < 0)
		used = 0;
	share = (double)used * 1e6 / (double)alloc;
	/* a node requested 10^12 times over (found by fuzz_drain) is as
	 * full as one further over, and a larger share would not fit the
	 * key; either sorts before a node of unknown size */
	return share < 1e18 ? (uint64_t)share : (uint64_t)1e18;
}

static bool before(const struct drain_cluster *c, uint32_t a, uint32_t b)
{
	uint64_t ka = order_key(c, a), kb = order_key(c, b);

	return ka < kb || (ka == kb && a < b);
}

struct keyed {
	uint64_t key;
	uint32_t n;
};

static int cmp_keyed(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->n < b->n ? -1 : a->n > b->n;
}

void drain_order_sort(struct drain_cluster *c)
{
	struct keyed *k;
	uint32_t i;

	if (!c->order)
		c->order = malloc((size_t)c->cap_nodes * sizeof(*c->order));
	k = malloc(((size_t)c->n_nodes + 1) * sizeof(*k));
	if (!c->order || !k) {
		free(k);
		c->oom = true;
		return;
	}
	for (i = 0; i < c->n_nodes; i++) {
		k[i].key = order_key(c, i);
		k[i].n = i;
	}
	qsort(k, c->n_nodes, sizeof(*k), cmp_keyed);
	for (i = 0; i < c->n_nodes; i++) {
		c->order[i] = k[i].n;
		c->nodes[k[i].n].order_pos = i;
	}
	free(k);
}

void drain_order_update(struct drain_cluster *c, uint32_t n)
{
	uint32_t pos = c->nodes[n].order_pos;

	while (pos > 0 && before(c, n, c->order[pos - 1])) {
		c->order[pos] = c->order[pos - 1];
		c->nodes[c->order[pos]].order_pos = pos;
		pos--;
	}
	while (pos + 1 < c->n_nodes && before(c, c->order[pos + 1], n)) {
		c->order[pos] = c->order[pos + 1];
		c->nodes[c->order[pos]].order_pos = pos;
		pos++;
	}
	c->order[pos] = n;
	c->nodes[n].order_pos = pos;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plans: every node alone from the dump's state, or a rolling
 * upgrade, K nodes a step, with optional surge nodes.
 */
#include "drain/drain.h"

#include <stdlib.h>
#include <string.h>

#include "drain/causes.h"
#include "drain/cluster.h"
#include "drain/daemons.h"
#include "drain/evict.h"
#include "drain/issue.h"
#include "drain/journal.h"
#include "drain/keys.h"
#include "drain/state.h"
#include "drain/wave.h"

void drain_result_release(struct drain_result *res)
{
	if (!res)
		return;
	free(res->issues);
	memset(res, 0, sizeof(*res));
}

static const char *zone_of(const struct drain_cluster *c, uint32_t n)
{
	struct kvet_slice v;

	if (kvet_labels_get(&c->nodes[n].labels,
			    kvet_slice_of("topology.kubernetes.io/zone"), &v) ||
	    kvet_labels_get(&c->nodes[n].labels,
			    kvet_slice_of("failure-domain.beta.kubernetes.io/zone"),
			    &v))
		return kvet_arena_strndup(c->arena, v.s, v.len);
	return "";
}

struct ordered {
	const char *zone;
	uint32_t n;
};

static int cmp_zone(const void *pa, const void *pb)
{
	const struct ordered *a = pa, *b = pb;
	int r = strcmp(a->zone ? a->zone : "", b->zone ? b->zone : "");

	return r ? r : (a->n > b->n) - (a->n < b->n);
}

/* The nodes of the plan, in its order; names not in the dump are input
 * errors. Returns the count, or -1 when out of memory. */
static long select_nodes(struct drain_cluster *c, struct kvet_diag *diag,
			 uint32_t **out)
{
	const struct drain_options *o = &c->opts;
	struct ordered *v = calloc((size_t)c->n_nodes + o->n_names + 1,
				   sizeof(*v));
	uint32_t i, n, k = 0;

	*out = NULL;
	if (!v)
		return -1;
	if (o->n_names) {
		for (i = 0; i < o->n_names; i++) {
			n = drain_node_find(c, kvet_slice_of(o->names[i]));
			if (n == DRAIN_NONE) {
				kvet_diag_addf(diag, NULL, 0, 0,
					       "no node named '%s' in the input",
					       o->names[i]);
				continue;
			}
			v[k++].n = n;
		}
	} else {
		for (n = 0; n < c->n_nodes; n++)
			if (!o->selector ||
			    kvet_selector_matches(o->selector,
						  &c->nodes[n].labels, NULL))
				v[k++].n = n;
	}
	if (o->plan == KVET_DRAIN_ROLLING && o->order == KVET_DRAIN_ORDER_ZONE) {
		for (i = 0; i < k; i++)
			v[i].zone = zone_of(c, v[i].n);
		qsort(v, k, sizeof(*v), cmp_zone);
	}
	*out = malloc(((size_t)k + 1) * sizeof(**out));
	if (!*out) {
		free(v);
		return -1;
	}
	for (i = 0; i < k; i++)
		(*out)[i] = v[i].n;
	free(v);
	return k;
}

static int setup_results(struct drain_cluster *c, const uint32_t *sel,
			 size_t k)
{
	struct drain_result *res = c->res;
	size_t i;

	c->result_of = kvet_arena_array(c->arena, c->cap_nodes + 1,
					sizeof(*c->result_of));
	res->nodes = kvet_arena_array(c->arena, k + 1, sizeof(*res->nodes));
	if (!c->result_of || !res->nodes)
		return -1;
	for (i = 0; i < c->cap_nodes; i++)
		c->result_of[i] = DRAIN_NONE;
	for (i = 0; i < k; i++) {
		res->nodes[i].obj = c->nodes[sel[i]].obj;
		res->nodes[i].name = c->nodes[sel[i]].name;
		c->result_of[sel[i]] = (uint32_t)i;
	}
	res->n_nodes = k;
	return 0;
}

static uint32_t pods_on(const struct drain_cluster *c, uint32_t n)
{
	uint32_t p, k = 0;

	for (p = c->nodes[n].first_pod; p != DRAIN_NONE; p = c->pods[p].next)
		k++;
	return k;
}

static int each_node(struct drain_cluster *c, const uint32_t *sel, size_t k)
{
	size_t i, mark;

	drain_journal_enable(c->journal, true);
	for (i = 0; i < k && !c->oom; i++) {
		/* no pointer into the pods may move under the journal */
		if (drain_cluster_reserve(c, pods_on(c, sel[i]) + 1) < 0)
			return -1;
		mark = drain_journal_mark(c->journal);
		c->res->nodes[i].reached = true;
		if (drain_nodes(c, &sel[i], 1, NULL))
			drain_nodes_down(c, &sel[i], 1);
		drain_journal_rollback(c->journal, mark);
		c->n_waiting = 0;
		drain_order_sort(c);
	}
	return c->oom ? -1 : 0;
}

/* The taints of a new node shaped like @t: a new node is Ready, so it
 * has none of those the node lifecycle controller puts on one that is
 * not. Returns: 0, or -1 when out of memory. */
static int ready_taints(struct drain_cluster *c, struct kvet_taints *t)
{
	struct kvet_taint *v = kvet_arena_array(c->arena, t->n + 1,
						sizeof(*v));
	size_t i, k = 0;

	if (!v)
		return -1;
	for (i = 0; i < t->n; i++)
		if (!kvet_slice_eq0(t->v[i].key, KVET_TAINT_NOT_READY) &&
		    !kvet_slice_eq0(t->v[i].key, KVET_TAINT_UNREACHABLE))
			v[k++] = t->v[i];
	t->v = v;
	t->n = k;
	return 0;
}

/* A new empty node shaped like node @like, named @name. */
static uint32_t add_node(struct drain_cluster *c, uint32_t like,
			 const char *name)
{
	struct drain_node *n;
	struct kvet_label *labels;
	uint32_t i = c->n_nodes;
	size_t j;

	if (i == c->cap_nodes)
		return DRAIN_NONE;
	n = &c->nodes[i];
	*n = c->nodes[like];
	n->obj = NULL;
	n->root = NULL;
	n->name = name;
	n->first_pod = DRAIN_NONE;
	n->cordoned = false;
	n->gone = false;
	n->not_ready = false;
	memset(n->used, 0, sizeof(n->used));
	n->ext_used = kvet_arena_array(c->arena, n->alloc.n_ext + 1,
				       sizeof(*n->ext_used));
	labels = kvet_arena_array(c->arena, n->labels.n + 1, sizeof(*labels));
	if (!n->ext_used || !labels || ready_taints(c, &n->taints) < 0)
		return DRAIN_NONE;
	for (j = 0; j < n->labels.n; j++) {
		labels[j] = n->labels.v[j];
		if (kvet_slice_eq0(labels[j].key, "kubernetes.io/hostname"))
			labels[j].value = kvet_slice_of(name);
	}
	n->labels.v = labels;
	c->n_nodes++;
	c->result_of[i] = DRAIN_NONE;
	if (drain_key_add_node(c, i) < 0)
		return DRAIN_NONE;
	drain_order_sort(c);
	/* the DaemonSet controller starts its pods on the new node, once
	 * the node has its place in the preference order */
	if (drain_daemons_start(c, i) < 0)
		return DRAIN_NONE;
	return i;
}

static int add_surge(struct drain_cluster *c, uint32_t like)
{
	unsigned int i;
	const char *name;

	for (i = 1; i <= c->opts.surge; i++) {
		name = kvet_arena_printf(c->arena, "kvet-surge-%u", i);
		if (!name || add_node(c, like, name) == DRAIN_NONE)
			return -1;
	}
	return 0;
}

/* After a step: the nodes come back empty, or new ones replace them. */
static int upgrade(struct drain_cluster *c, const uint32_t *set, size_t n)
{
	const char *name;
	size_t i;

	if (!c->opts.surge) {
		drain_nodes_up(c, set, n);
		return 0;
	}
	for (i = 0; i < n; i++) {
		c->nodes[set[i]].gone = true;
		/* its Node object is deleted, and with it, by the pod
		 * garbage collector, the pods that waited for its kubelet */
		c->nodes[set[i]].not_ready = false;
		name = kvet_arena_printf(c->arena, "%s-new",
					 c->nodes[set[i]].name);
		if (!name || add_node(c, set[i], name) == DRAIN_NONE)
			return -1;
	}
	drain_retry_pending(c, DRAIN_NONE);
	return 0;
}

/* The step stops the roll, with @why as its causes (into the arena). */
static int stall(struct drain_cluster *c, struct drain_step_result *st,
		 const struct drain_causes *why)
{
	st->stalled = true;
	st->causes = kvet_arena_array(c->arena, why->n + 1,
				      sizeof(*st->causes));
	if (!st->causes)
		return -1;
	if (why->n)
		memcpy(st->causes, why->v, why->n * sizeof(*st->causes));
	st->n_causes = why->n;
	return 0;
}

/* Replacements still waiting once the step's nodes are back: the roll
 * cannot go on, and each is an error of the node it left. */
static void stall_on_waiting(struct drain_cluster *c, struct drain_causes *why)
{
	struct drain_issue *is;
	size_t i;

	for (i = 0; i < c->n_waiting; i++) {
		uint32_t r = c->waiting[i];
		const struct drain_pod *pod = &c->pods[r];
		const char *state = pod->state == DRAIN_POD_REFUSED
					    ? "cannot be created"
					    : pod->state == DRAIN_POD_HELD
						      ? "is not created"
						      : "stays Pending";

		is = drain_issue_add(c, DRAIN_RULE_POD_UNSCHEDULABLE,
				     KVET_SEV_ERROR, pod->from_node, pod->obj,
				     NULL,
				     "the roll stalls after draining node \"%s\": the replacement of pod \"%s\" %s: %s",
				     c->nodes[pod->from_node].name,
				     drain_pod_label(c, r), state,
				     pod->why ? pod->why : "");
		if (is) {
			is->refused = pod->state == DRAIN_POD_REFUSED;
			is->held = pod->state == DRAIN_POD_HELD &&
				   pod->held_by != DRAIN_NONE;
			is->not_ready = pod->state == DRAIN_POD_HELD &&
					pod->held_by == DRAIN_NONE;
		}
		drain_causes_add(c, why,
				 "the replacement of pod \"%s\", evicted from node \"%s\", %s: %s",
				 drain_pod_label(c, r),
				 c->nodes[pod->from_node].name, state,
				 pod->why ? pod->why : "");
	}
}

static int rolling(struct drain_cluster *c, const uint32_t *sel, size_t k)
{
	size_t per = c->opts.max_unavailable ? c->opts.max_unavailable : 1;
	size_t steps = (k + per - 1) / per, i, j, at;
	struct drain_result *res = c->res;
	struct drain_causes why = { 0 };
	bool ok;

	res->steps = kvet_arena_array(c->arena, steps + 1,
				      sizeof(*res->steps));
	if (!res->steps)
		return -1;
	for (i = 0; i < k; i++)
		res->nodes[i].step = (unsigned int)(i / per) + 1;
	drain_journal_enable(c->journal, false);
	if (k && c->opts.surge && add_surge(c, sel[0]) < 0)
		return -1;
	for (i = 0, at = 0; at < k && !c->oom; i++, at += per) {
		struct drain_step_result *st = &res->steps[res->n_steps++];
		size_t n = k - at < per ? k - at : per;

		st->index = (unsigned int)i + 1;
		st->nodes = kvet_arena_array(c->arena, n, sizeof(*st->nodes));
		if (!st->nodes)
			return -1;
		for (j = 0; j < n; j++) {
			st->nodes[j] = c->nodes[sel[at + j]].name;
			res->nodes[at + j].reached = true;
		}
		st->n_nodes = n;
		why.n = 0;
		/* the disruption controller has caught up by now */
		if (i == 1)
			drain_budgets_resync(c);
		ok = drain_nodes(c, &sel[at], n, &why);
		if (!ok) {
			if (stall(c, st, &why) < 0) {
				free(why.v);
				return -1;
			}
			if (!c->opts.press_on)
				break;
			drain_nodes_force(c, &sel[at], n);
		}
		drain_nodes_down(c, &sel[at], n);
		if (upgrade(c, &sel[at], n) < 0)
			return -1;
		/* evicted pods run again before the next step; one that
		 * cannot stays a cause of whatever stalls later, so even
		 * press_on stops here */
		if (c->n_waiting) {
			if (!st->stalled) {
				stall_on_waiting(c, &why);
				if (stall(c, st, &why) < 0) {
					free(why.v);
					return -1;
				}
			}
			break;
		}
	}
	free(why.v);
	return c->oom ? -1 : 0;
}

long drain_run_prepare(struct drain_cluster *c, struct kvet_diag *diag,
		       struct drain_result *out, uint32_t **sel)
{
	long k;

	memset(out, 0, sizeof(*out));
	out->plan = c->opts.plan;
	c->res = out;
	k = select_nodes(c, diag, sel);
	if (k >= 0 && setup_results(c, *sel, (size_t)k) < 0)
		k = -1;
	return k;
}

int drain_run_plan(struct drain_cluster *c, const uint32_t *sel, size_t k)
{
	int rc;

	if (c->opts.plan == KVET_DRAIN_ROLLING)
		rc = rolling(c, sel, k);
	else
		rc = each_node(c, sel, k);
	return !rc && c->oom ? -1 : rc;
}

int drain_run(struct drain_cluster *c, struct kvet_diag *diag,
	      struct drain_result *out)
{
	uint32_t *sel = NULL;
	long k;
	int rc = -1;

	k = drain_run_prepare(c, diag, out, &sel);
	if (k >= 0)
		rc = drain_run_plan(c, sel, (size_t)k);
	free(sel);
	return rc;
}

int drain_run_dump(struct kvet_arena *arena, struct kvet_diag *diag,
		   const struct kvet_graph *g, const struct drain_options *opts,
		   struct drain_result *out)
{
	struct drain_cluster c;
	int rc;

	memset(out, 0, sizeof(*out));
	out->plan = opts->plan;
	rc = drain_cluster_from_dump(&c, arena, diag, g, opts);
	if (!rc)
		rc = drain_run(&c, diag, out);
	drain_cluster_release(&c);
	return rc;
}

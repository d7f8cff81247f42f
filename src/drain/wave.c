/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/wave.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "drain/causes.h"
#include "drain/cluster.h"
#include "drain/deadlock.h"
#include "drain/evict.h"
#include "drain/fit.h"
#include "drain/issue.h"
#include "drain/journal.h"
#include "drain/kubectl.h"
#include "drain/ordered.h"
#include "drain/quorum.h"
#include "drain/outage.h"
#include "drain/unreachable.h"
#include "model/intercept.h"

/* One pod to delete, and how its last eviction went. */
struct target {
	uint32_t pod;
	uint32_t node;
	bool done;
	bool skipped;			/* skipDeletedFilter: left alone */
	struct drain_eviction ev;
	uint32_t webhook;		/* refused by this webhook, or NONE */
};

struct sorted {
	const char *ns, *name;
	uint32_t pod;
};

static int cmp_sorted(const void *pa, const void *pb)
{
	const struct sorted *a = pa, *b = pb;
	int r = strcmp(a->ns, b->ns);

	if (r)
		return r;
	r = strcmp(a->name, b->name);
	return r ? r : (a->pod > b->pod) - (a->pod < b->pod);
}

/* The pods on the nodes of @set, by namespace and name. */
static struct sorted *pods_of(struct drain_cluster *c, const uint32_t *set,
			      size_t n, size_t *count)
{
	struct sorted *v = NULL;
	size_t k = 0, cap = 0, i;
	uint32_t p;

	for (i = 0; i < n; i++)
		for (p = c->nodes[set[i]].first_pod; p != DRAIN_NONE;
		     p = c->pods[p].next) {
			if (!kvet_vec_grow((void **)&v, &cap, k + 1,
					   sizeof(*v))) {
				free(v);
				c->oom = true;
				return NULL;
			}
			v[k].ns = c->pods[p].ns;
			v[k].name = c->pods[p].name;
			v[k++].pod = p;
		}
	if (k)
		qsort(v, k, sizeof(*v), cmp_sorted);
	*count = k;
	return v;
}

static void wait_for(struct drain_cluster *c, uint32_t r)
{
	if (!kvet_vec_grow((void **)&c->waiting, &c->cap_waiting,
			   c->n_waiting + 1, sizeof(*c->waiting))) {
		c->oom = true;
		return;
	}
	c->waiting[c->n_waiting++] = r;
}

/* Create replacement @r and place it; false when it must wait. */
static bool create_one(struct drain_cluster *c, uint32_t r)
{
	const char *why;
	uint32_t w, n, q;

	/* the controller decides to create it before any webhook is asked;
	 * a StatefulSet waits first for the old pod object to be gone */
	if (c->pods[r].origin != DRAIN_NONE &&
	    !drain_unready_replaces(c, c->pods[r].origin,
				    c->pods[r].from_node)) {
		if (c->pods[r].state != DRAIN_POD_HELD ||
		    c->pods[r].held_by != DRAIN_NONE) {
			why = drain_unready_hold_reason(c, r);
			drain_set_u32(c, &c->pods[r].state, DRAIN_POD_HELD);
			drain_set_u32(c, &c->pods[r].held_by, DRAIN_NONE);
			drain_set_ptr(c, (const void **)&c->pods[r].why, why);
		}
		return false;
	}
	q = drain_sts_holds(c, r);
	if (q != DRAIN_NONE) {
		/* held for the same pod as last time: nothing to journal */
		if (c->pods[r].state != DRAIN_POD_HELD ||
		    c->pods[r].held_by != q) {
			why = drain_sts_hold_reason(c, r, q);
			drain_set_u32(c, &c->pods[r].state, DRAIN_POD_HELD);
			drain_set_u32(c, &c->pods[r].held_by, q);
			drain_set_ptr(c, (const void **)&c->pods[r].why, why);
		}
		return false;
	}
	w = drain_webhook_refusing(c, r, "");
	if (w != DRAIN_NONE) {
		why = drain_webhook_error(c, w);
		/* refused again as last time: nothing to journal */
		if (c->pods[r].state != DRAIN_POD_REFUSED ||
		    c->pods[r].why != why) {
			drain_set_u32(c, &c->pods[r].state, DRAIN_POD_REFUSED);
			drain_set_ptr(c, (const void **)&c->pods[r].why, why);
			c->refusal_new = true;
		}
		return false;
	}
	n = drain_place(c, r, &why);
	if (n == DRAIN_NONE) {
		drain_set_u32(c, &c->pods[r].state, DRAIN_POD_PENDING);
		drain_set_ptr(c, (const void **)&c->pods[r].why, why);
		return false;
	}
	/* a replacement is a new pod: nothing to journal */
	c->pods[r].phase = KVET_PHASE_RUNNING;
	drain_pod_bind(c, r, n);
	drain_pod_set_ready(c, r, true);
	return true;
}

/*
 * Each pass retries every waiting replacement and ends the loop unless one
 * was placed: at most one pass more than the replacements that wait. A
 * pass costs, per replacement, the webhooks that intercept it (a refusal
 * is decided by whether one of those is down) or, when none refuses, a
 * placement; a replacement refused again changes nothing in the journal.
 */
bool drain_retry_pending(struct drain_cluster *c, uint32_t blame)
{
	bool any = false, progress = true;
	size_t i, k;

	(void)blame;
	while (progress && !c->oom) {
		progress = false;
		for (i = 0, k = 0; i < c->n_waiting; i++) {
			uint32_t r = c->waiting[i];

			if (create_one(c, r))
				progress = any = true;
			else
				c->waiting[k++] = r;
		}
		c->n_waiting = k;
	}
	/* none more can be created: whatever waits on a ring of webhooks
	 * that reject each other's backends waits forever */
	drain_deadlock_check(c);
	return any;
}

static void report_service(struct drain_cluster *c, uint32_t s, uint32_t n)
{
	struct drain_service *svc = &c->services[s];
	struct drain_issue *is;

	if (svc->reported || svc->ready > 0 || svc->total <= 0)
		return;
	drain_set_bool(c, &svc->reported, true);
	is = drain_issue_add(c, DRAIN_RULE_SERVICE_OUTAGE, KVET_SEV_WARNING, n,
			     svc->obj, svc->svc.selector.node,
			     "Service \"%s/%s\" has no ready endpoint while node \"%s\" drains: every pod it selects is evicted or gone before a replacement is ready",
			     svc->obj->namespace, svc->obj->name,
			     c->nodes[n].name);
	(void)is;
}

/* 'webhooks "a" (CREATE pods), "b" (UPDATE nodes) and 2 more' for the
 * webhooks @v[0..@k), the first three named and the others counted. */
static const char *webhook_list(struct drain_cluster *c, const uint32_t *v,
				uint32_t k)
{
	const char *s = "";
	uint32_t i;

	for (i = 0; i < k && i < 3 && s; i++)
		s = kvet_arena_printf(c->arena, "%s%s\"%s\" (%s)", s,
				      !i ? "webhooks "
				      : k <= 3 && i == k - 1 ? " and " : ", ",
				      c->webhooks[v[i]].wh->name,
				      drain_webhook_operations(c, v[i]));
	if (s && k > 3)
		s = kvet_arena_printf(c->arena, "%s and %u more", s, k - 3);
	if (!s)
		c->oom = true;
	return s ? s : "";
}

/* One finding for the webhooks @v[0..@k) of one configuration that lost
 * their backend, Service @s, as node @n drains: the first is the worst. */
static void report_webhooks(struct drain_cluster *c, const uint32_t *v,
			    uint32_t k, uint32_t s, uint32_t n)
{
	const struct kvet_webhook *wh = c->webhooks[v[0]].wh;
	const struct kvet_object *svc = c->services[s].obj;
	const struct kvet_node *at = wh->failure_policy_node
					     ? wh->failure_policy_node
					     : wh->node;
	struct drain_issue *is;

	if (k == 1)
		is = drain_issue_add(c, DRAIN_RULE_WEBHOOK_OUTAGE,
				     KVET_SEV_WARNING, n, wh->obj, at,
				     "fail-closed webhook \"%s\" has no ready backend while node \"%s\" drains: until Service \"%s/%s\" has a ready pod again, the API server rejects every request the webhook intercepts (%s)",
				     wh->name, c->nodes[n].name, svc->namespace,
				     svc->name, drain_webhook_operations(c, v[0]));
	else
		is = drain_issue_add(c, DRAIN_RULE_WEBHOOK_OUTAGE,
				     KVET_SEV_WARNING, n, wh->obj, at,
				     "%u fail-closed webhooks of \"%s\" have no ready backend while node \"%s\" drains: until Service \"%s/%s\" has a ready pod again, the API server rejects every request they intercept: %s",
				     k, wh->obj->name, c->nodes[n].name,
				     svc->namespace, svc->name,
				     webhook_list(c, v, k));
	drain_issue_relate(is, svc);
}

/*
 * The fail-closed webhooks of Service @s that have just lost their last
 * backend, one finding per configuration (issue 26, item 12: a
 * configuration of 46 entries on one Service is one cause, as lint's
 * webhook rules group it), the entries that intercept what the cluster
 * cannot do without (pods, nodes, namespaces, kube-system) named first.
 */
static void report_service_webhooks(struct drain_cluster *c, uint32_t s,
				    uint32_t n)
{
	const struct drain_service *svc = &c->services[s];
	uint32_t *down, *group, k = 0, i, j, g, pass;

	if (!svc->n_webhooks)
		return;
	down = malloc((size_t)svc->n_webhooks * 2 * sizeof(*down));
	if (!down) {
		c->oom = true;
		return;
	}
	group = down + svc->n_webhooks;
	for (i = 0; i < svc->n_webhooks; i++) {
		struct drain_webhook *wh = &c->webhooks[svc->webhooks[i]];

		if (wh->reported || !drain_webhook_down(c, wh))
			continue;
		drain_set_bool(c, &wh->reported, true);
		down[k++] = svc->webhooks[i];
	}
	for (i = 0; i < k; i++) {
		const struct kvet_object *cfg;

		if (down[i] == DRAIN_NONE)
			continue;
		cfg = c->webhooks[down[i]].wh->obj;
		g = 0;
		for (pass = 0; pass < 2; pass++)
			for (j = i; j < k; j++) {
				const struct kvet_webhook *wh;

				if (down[j] == DRAIN_NONE ||
				    c->webhooks[down[j]].wh->obj != cfg)
					continue;
				wh = c->webhooks[down[j]].wh;
				if (kvet_webhook_intercepts_critical(c->g, wh) !=
				    !pass)
					continue;
				group[g++] = down[j];
			}
		for (j = i; j < k; j++)
			if (down[j] != DRAIN_NONE &&
			    c->webhooks[down[j]].wh->obj == cfg)
				down[j] = DRAIN_NONE;
		report_webhooks(c, group, g, s, n);
	}
	free(down);
}

/* What losing pod @p from node @n breaks right now. */
static void check_outages(struct drain_cluster *c, uint32_t p, uint32_t n)
{
	const struct drain_pod *pod = &c->pods[p];
	uint32_t i;

	for (i = 0; i < pod->n_services; i++) {
		report_service(c, pod->services[i], n);
		report_service_webhooks(c, pod->services[i], n);
	}
	if (pod->sts != DRAIN_NONE)
		drain_quorum_note(c, pod->sts, n);
}

static void count(struct drain_cluster *c, uint32_t n, size_t *field)
{
	(void)c;
	(void)n;
	(*field)++;
}

/* Pod @p leaves node @n: evicted or deleted, replaced if controlled. */
static void remove_pod(struct drain_cluster *c, struct target *t,
		       enum drain_evict_outcome how)
{
	struct drain_node_result *nr = &c->res->nodes[c->result_of[t->node]];
	struct drain_pod *pod = &c->pods[t->pod];
	uint32_t r = DRAIN_NONE;
	bool was_ready = pod->ready;

	t->done = true;
	count(c, t->node, how == DRAIN_EVICT_DELETED ? &nr->deleted
						     : &nr->evicted);
	if (pod->kind == DRAIN_POD_REPLICATED &&
	    !kvet_pod_phase_terminal(pod->phase) && !pod->terminating)
		r = drain_pod_replace(c, t->pod);
	pod = &c->pods[t->pod];
	drain_pod_set_ready(c, t->pod, false);
	drain_pod_unbind(c, t->pod);
	drain_set_u32(c, &pod->state, DRAIN_POD_GONE);
	if (r != DRAIN_NONE)
		wait_for(c, r);
	/* only a ready pod's going takes an endpoint away */
	if (was_ready)
		check_outages(c, t->pod, t->node);
}

/* 'node "a"', 'nodes "a" and "b"', 'nodes "a", "b" and 3 more'. */
static const char *node_list(struct drain_cluster *c,
			     const struct drain_emptydir *e)
{
	if (e->n_nodes == 1)
		return kvet_arena_printf(c->arena, "node \"%s\"", e->node[0]);
	if (e->n_nodes == 2)
		return kvet_arena_printf(c->arena, "nodes \"%s\" and \"%s\"",
					 e->node[0], e->node[1]);
	return kvet_arena_printf(c->arena, "nodes \"%s\", \"%s\" and %u more",
				 e->node[0], e->node[1], e->n_nodes - 2);
}

/* The first pods of @e, with their nodes when there are several. */
static const char *pod_list(struct drain_cluster *c,
			    const struct drain_emptydir *e)
{
	const char *s = "";
	uint32_t i, named = e->pods < 3 ? e->pods : 3;

	for (i = 0; i < named && s; i++) {
		s = kvet_arena_printf(c->arena, "%s%s\"%s\"", s,
				      !i ? "" : e->pods <= 3 && i == named - 1
							? " and " : ", ",
				      e->pod[i]);
		if (s && e->n_nodes > 1)
			s = kvet_arena_printf(c->arena, "%s at node \"%s\"", s,
					      e->pod_node[i]);
	}
	if (s && e->pods > 3)
		s = kvet_arena_printf(c->arena, "%s and %u more", s,
				      e->pods - 3);
	return s;
}

/*
 * kubectl deletes pod @p with its emptyDir data as node @n drains
 * (--delete-emptydir-data). The pods of one workload are one cause, one
 * finding (issue 26, item 12), as lint's rules report a workload once:
 * for a node alone, or for the whole of a roll, where a replacement that
 * lands on a node drained later loses its data again. It stays at the
 * first pod's emptyDir volume and node; its words count the pods and
 * name the first few, and the nodes.
 */
static void warn_emptydir(struct drain_cluster *c, uint32_t p, uint32_t n)
{
	const struct drain_pod *pod = &c->pods[p];
	const struct kvet_workload *wl = pod->wl;
	struct drain_emptydir *e;
	struct drain_issue *is;
	size_t count;
	const char *msg;

	kvet_graph_workloads(c->g, &count);
	if (!wl || wl->index >= count || !wl->obj)
		goto alone;
	if (!c->emptydir) {
		c->emptydir = kvet_arena_array(c->arena, count + 1,
					       sizeof(*c->emptydir));
		if (!c->emptydir)
			goto oom;
		memset(c->emptydir, 0, (count + 1) * sizeof(*c->emptydir));
		c->n_emptydir = count;
	}
	e = &c->emptydir[wl->index];
	/* each node alone starts again from the dump */
	if (e->issue && c->opts.plan != KVET_DRAIN_ROLLING &&
	    c->res->issues[e->issue - 1].node != c->result_of[n])
		memset(e, 0, sizeof(*e));
	/* a node's pods are filtered one after another, and a roll drains
	 * each node once */
	if (!e->pods || e->last_node != c->nodes[n].name) {
		if (e->n_nodes < 2)
			e->node[e->n_nodes] = c->nodes[n].name;
		e->n_nodes++;
		e->last_node = c->nodes[n].name;
	}
	if (e->pods < 3) {
		e->pod[e->pods] = drain_pod_label(c, p);
		e->pod_node[e->pods] = c->nodes[n].name;
	}
	e->pods++;
	if (e->pods == 1) {
		is = drain_issue_add(c, DRAIN_RULE_EMPTYDIR_LOST,
				     KVET_SEV_WARNING, n, pod->obj,
				     pod->emptydir,
				     "draining node \"%s\" deletes the emptyDir data of pod \"%s\" (--delete-emptydir-data)",
				     c->nodes[n].name, e->pod[0]);
		if (is)
			e->issue = c->res->n_issues;
		return;
	}
	msg = kvet_arena_printf(c->arena,
				"draining %s deletes the emptyDir data of %u pods of %s \"%s%s%s\" (--delete-emptydir-data): pods %s",
				node_list(c, e), e->pods, wl->obj->kind,
				wl->obj->namespace ? wl->obj->namespace : "",
				wl->obj->namespace && *wl->obj->namespace ? "/"
									 : "",
				wl->obj->name, pod_list(c, e));
	if (!msg)
		goto oom;
	c->res->issues[e->issue - 1].message = msg;
	return;
alone:
	drain_issue_add(c, DRAIN_RULE_EMPTYDIR_LOST, KVET_SEV_WARNING, n,
			pod->obj, pod->emptydir,
			"draining node \"%s\" deletes the emptyDir data of pod \"%s\" (--delete-emptydir-data)",
			c->nodes[n].name, drain_pod_label(c, p));
	return;
oom:
	c->oom = true;
}

static void warn_filtered(struct drain_cluster *c, const struct target *t)
{
	const struct drain_pod *pod = &c->pods[t->pod];
	const char *node = c->nodes[t->node].name;

	if (kvet_pod_phase_terminal(pod->phase))
		return;
	if (pod->emptydir)
		warn_emptydir(c, t->pod, t->node);
	if (pod->kind == DRAIN_POD_BARE)
		drain_issue_add(c, DRAIN_RULE_POD_DELETED, KVET_SEV_WARNING,
				t->node, pod->obj, NULL,
				"draining node \"%s\" deletes pod \"%s\", which declares no controller: nothing recreates it (--force)",
				node, drain_pod_label(c, t->pod));
}

/* kubectl drain's filters; false when kubectl refuses node @n. */
static bool filter_node(struct drain_cluster *c, const struct sorted *v,
			size_t k, uint32_t n, struct target **targets,
			size_t *nt, size_t *cap, struct drain_causes *why)
{
	struct drain_node_result *nr = &c->res->nodes[c->result_of[n]];
	struct drain_filter f;
	size_t i, first = *nt, left = nr->left;
	bool ok = true;

	for (i = 0; i < k; i++) {
		uint32_t p = v[i].pod;

		if (c->pods[p].node != n)
			continue;
		if (!kvet_vec_grow((void **)targets, cap, *nt + 1,
				   sizeof(**targets))) {
			c->oom = true;
			return false;
		}
		/* kubectl's first filter, before the others see the pod */
		if (drain_unready_skips(c, p)) {
			memset(&(*targets)[*nt], 0, sizeof(**targets));
			(*targets)[*nt].pod = p;
			(*targets)[*nt].node = n;
			(*targets)[*nt].webhook = DRAIN_NONE;
			(*targets)[*nt].done = (*targets)[*nt].skipped = true;
			(*nt)++;
			nr->left++;
			continue;
		}
		drain_kubectl_filter(c, p, &f);
		if (f.status == DRAIN_FILTER_ERROR) {
			/* kubectl's errors(): "cannot delete " leads each */
			const char *msg = f.message +
					  (strncmp(f.message, "cannot delete ",
						   14) ? 0 : 14);

			ok = false;
			drain_issue_add(c, DRAIN_RULE_KUBECTL_REFUSES,
					KVET_SEV_ERROR, n, c->pods[p].obj, NULL,
					"kubectl drain refuses node \"%s\": cannot delete %s: %s",
					c->nodes[n].name, msg,
					drain_pod_label(c, p));
			drain_causes_add(c, why,
					 "kubectl drain refuses node \"%s\": cannot delete %s: %s",
					 c->nodes[n].name, msg,
					 drain_pod_label(c, p));
			continue;
		}
		if (!f.delete) {
			nr->left++;
			continue;
		}
		memset(&(*targets)[*nt], 0, sizeof(**targets));
		(*targets)[*nt].pod = p;
		(*targets)[*nt].node = n;
		(*targets)[*nt].webhook = DRAIN_NONE;
		(*nt)++;
	}
	/* kubectl lists its errors and evicts nothing from the node */
	if (!ok) {
		*nt = first;
		nr->left = left;
	}
	return ok;
}

/* One round: every pod not yet gone asks for its eviction. */
static bool evict_round(struct drain_cluster *c, struct target *t, size_t nt)
{
	bool progress = false;
	size_t i;

	for (i = 0; i < nt; i++) {
		if (t[i].done)
			continue;
		t[i].webhook = drain_webhook_refusing(c, t[i].pod, "eviction");
		if (t[i].webhook != DRAIN_NONE)
			continue;
		drain_evict(c, t[i].pod, &t[i].ev);
		if (drain_evict_refused(t[i].ev.outcome))
			continue;
		warn_filtered(c, &t[i]);
		remove_pod(c, &t[i], t[i].ev.outcome);
		progress = true;
	}
	return progress;
}

/* After the drain: what stayed, and why, in the issues and @why. */
static void report_blocked(struct drain_cluster *c, struct target *t,
			   size_t nt, struct drain_causes *why)
{
	struct drain_blocked_memo memo = { 0 };
	size_t i;

	/* without the memo (out of memory) each scans its budget again */
	if (drain_blocked_memo_init(c, &memo) < 0)
		c->oom = true;
	for (i = 0; i < nt; i++)
		if (!t[i].done)
			drain_report_blocked(c, t[i].pod, t[i].node, &t[i].ev,
					     t[i].webhook, &memo, why);
	drain_blocked_memo_release(&memo);
}

/* Node @n is not Ready: what kubectl drain waits for there, and the
 * pods it skipped, which then leave the simulation (their node deletes
 * them once it returns). Returns whether the drain completes. */
static bool report_unready(struct drain_cluster *c, const struct target *t,
			   size_t nt, uint32_t n, struct drain_causes *why)
{
	uint32_t *wait = malloc((nt + 1) * sizeof(*wait));
	uint32_t *skip = malloc((nt + 1) * sizeof(*skip));
	size_t i, n_wait = 0, n_skip = 0;
	bool ok = true;

	if (!wait || !skip) {
		c->oom = true;
		goto out;
	}
	for (i = 0; i < nt; i++) {
		if (t[i].node != n || !t[i].done)
			continue;
		if (t[i].skipped)
			skip[n_skip++] = t[i].pod;
		else if (drain_unready_waits(c, t[i].pod, n))
			wait[n_wait++] = t[i].pod;
	}
	ok = drain_unready_report(c, n, wait, n_wait, skip, n_skip, why);
	for (i = 0; i < n_skip; i++) {
		drain_pod_unbind(c, skip[i]);
		drain_set_u32(c, &c->pods[skip[i]].state, DRAIN_POD_GONE);
	}
out:
	free(wait);
	free(skip);
	return ok;
}

/* Do the waiting replacements @a and @b wait for one cause: of one
 * workload, evicted from one node, in one state for the same reason? */
static bool same_wait(const struct drain_cluster *c, uint32_t a, uint32_t b)
{
	const struct drain_pod *x = &c->pods[a], *y = &c->pods[b];

	return x->wl && x->wl == y->wl && x->wl->obj &&
	       x->from_node == y->from_node && x->state == y->state &&
	       (x->held_by == DRAIN_NONE) == (y->held_by == DRAIN_NONE) &&
	       !strcmp(x->why, y->why);
}

static bool reportable(const struct drain_pod *pod)
{
	return (pod->state == DRAIN_POD_PENDING ||
		pod->state == DRAIN_POD_HELD) && pod->why;
}

/*
 * The replacements still waiting when a drain ends, each a warning of
 * the node it left; those of one workload that wait for the same reason
 * are one (issue 26, item 12), counting and naming them.
 */
static void report_pending(struct drain_cluster *c)
{
	struct drain_issue *is;
	bool *done;
	size_t i, j, k;

	if (!c->n_waiting)
		return;
	done = calloc(c->n_waiting, sizeof(*done));
	if (!done) {
		c->oom = true;
		return;
	}
	for (i = 0; i < c->n_waiting; i++) {
		uint32_t r = c->waiting[i];
		const struct drain_pod *pod = &c->pods[r];
		const char *names[3];

		if (done[i] || !reportable(pod))
			continue;
		names[0] = drain_pod_label(c, r);
		for (j = i + 1, k = 1; j < c->n_waiting; j++) {
			if (done[j] || !reportable(&c->pods[c->waiting[j]]) ||
			    !same_wait(c, r, c->waiting[j]))
				continue;
			done[j] = true;
			if (k < 3)
				names[k] = drain_pod_label(c, c->waiting[j]);
			k++;
		}
		if (k == 1)
			is = drain_issue_add(c, DRAIN_RULE_POD_UNSCHEDULABLE,
				KVET_SEV_WARNING, pod->from_node, pod->obj,
				NULL,
				"the replacement of pod \"%s\", evicted from node \"%s\", %s: %s",
				names[0], c->nodes[pod->from_node].name,
				pod->state == DRAIN_POD_HELD
					? "is not created"
					: "cannot be scheduled",
				pod->why);
		else
			is = drain_issue_add(c, DRAIN_RULE_POD_UNSCHEDULABLE,
				KVET_SEV_WARNING, pod->from_node, pod->obj,
				NULL,
				"the replacements of %zu pods of %s \"%s/%s\", evicted from node \"%s\", %s: %s (pods \"%s\"%s\"%s\"%s%s%s%s)",
				k, pod->wl->obj->kind, pod->ns,
				pod->wl->obj->name,
				c->nodes[pod->from_node].name,
				pod->state == DRAIN_POD_HELD
					? "are not created"
					: "cannot be scheduled",
				pod->why, names[0], k == 2 ? " and " : ", ",
				names[1], k == 3 ? " and \"" : k > 3 ? ", \"" : "",
				k >= 3 ? names[2] : "", k >= 3 ? "\"" : "",
				k > 3 ? kvet_arena_printf(c->arena,
						" and %zu more", k - 3)
				      : "");
		if (is) {
			is->held = pod->state == DRAIN_POD_HELD &&
				   pod->held_by != DRAIN_NONE;
			is->not_ready = pod->state == DRAIN_POD_HELD &&
					pod->held_by == DRAIN_NONE;
		}
	}
	free(done);
}

bool drain_nodes(struct drain_cluster *c, const uint32_t *set, size_t n,
		 struct drain_causes *why)
{
	struct target *t = NULL;
	struct sorted *v;
	size_t k = 0, nt = 0, cap = 0, i;
	bool ok = true, progress = true, created;

	for (i = 0; i < n; i++)
		drain_set_bool(c, &c->nodes[set[i]].cordoned, true);
	v = pods_of(c, set, n, &k);
	if (k && !v)
		return false;
	for (i = 0; i < n; i++)
		ok &= filter_node(c, v, k, set[i], &t, &nt, &cap, why);
	free(v);
	while (progress && !c->oom) {
		progress = evict_round(c, t, nt);
		created = drain_retry_pending(c, DRAIN_NONE);
		progress |= created;
		for (i = 0; i < nt && !t[i].done; i++)
			;
	}
	for (i = 0; i < nt; i++)
		ok &= t[i].done;
	report_blocked(c, t, nt, why);
	for (i = 0; i < n; i++)
		if (c->nodes[set[i]].not_ready)
			ok &= report_unready(c, t, nt, set[i], why);
	report_pending(c);
	drain_quorum_report(c);
	free(t);
	return ok && !c->oom;
}

void drain_nodes_force(struct drain_cluster *c, const uint32_t *set,
		       size_t n)
{
	struct target t;
	struct sorted *v;
	size_t k = 0, i;

	v = pods_of(c, set, n, &k);
	for (i = 0; i < k; i++) {
		const struct drain_pod *pod = &c->pods[v[i].pod];

		if (pod->state != DRAIN_POD_RUNNING ||
		    pod->kind == DRAIN_POD_DAEMONSET ||
		    pod->kind == DRAIN_POD_MIRROR)
			continue;
		memset(&t, 0, sizeof(t));
		t.pod = v[i].pod;
		t.node = pod->node;
		remove_pod(c, &t, DRAIN_EVICT_DELETED);
	}
	free(v);
	drain_retry_pending(c, DRAIN_NONE);
}

void drain_nodes_down(struct drain_cluster *c, const uint32_t *set, size_t n)
{
	size_t i;
	uint32_t p;

	for (i = 0; i < n; i++)
		for (p = c->nodes[set[i]].first_pod; p != DRAIN_NONE;
		     p = c->pods[p].next) {
			if (c->pods[p].state != DRAIN_POD_RUNNING ||
			    kvet_pod_phase_terminal(c->pods[p].phase))
				continue;
			drain_set_u32(c, &c->pods[p].state, DRAIN_POD_LOST);
			if (c->pods[p].ready) {
				drain_pod_set_ready(c, p, false);
				check_outages(c, p, set[i]);
			}
		}
	drain_quorum_report(c);
}

void drain_nodes_up(struct drain_cluster *c, const uint32_t *set, size_t n)
{
	size_t i;
	uint32_t p;

	for (i = 0; i < n; i++) {
		drain_set_bool(c, &c->nodes[set[i]].cordoned, false);
		/* back from its upgrade, the kubelet reports again and
		 * completes the deletions that waited for it */
		drain_set_bool(c, &c->nodes[set[i]].not_ready, false);
		for (p = c->nodes[set[i]].first_pod; p != DRAIN_NONE;
		     p = c->pods[p].next) {
			if (c->pods[p].state != DRAIN_POD_LOST)
				continue;
			drain_set_u32(c, &c->pods[p].state, DRAIN_POD_RUNNING);
			drain_pod_set_ready(c, p, true);
		}
	}
	drain_retry_pending(c, DRAIN_NONE);
}

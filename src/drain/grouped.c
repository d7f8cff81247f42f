/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The warnings of a drain, one finding per cause (issue 26, item 12), as
 * lint's rules group theirs: a Service and the fail-closed webhooks it
 * backs when it loses its last ready endpoint (one finding per webhook
 * configuration), the emptyDir data kubectl deletes (one per workload),
 * and the replacements still waiting when a drain ends (one per
 * workload, node and scheduler message). Each finding counts what it
 * groups and names the first few, the worst first.
 */
#include "drain/grouped.h"

#include <stdlib.h>
#include <string.h>

#include "drain/cluster.h"
#include "drain/issue.h"
#include "drain/journal.h"
#include "drain/outage.h"
#include "model/intercept.h"

static void report_service(struct drain_cluster *c, uint32_t s, uint32_t n)
{
	struct drain_service *svc = &c->services[s];

	if (svc->reported || svc->ready > 0 || svc->total <= 0)
		return;
	drain_set_bool(c, &svc->reported, true);
	drain_issue_add(c, DRAIN_RULE_SERVICE_OUTAGE, KVET_SEV_WARNING, n,
			     svc->obj, svc->svc.selector.node,
			     "Service \"%s/%s\" has no ready endpoint while node \"%s\" drains: every pod it selects is evicted or gone before a replacement is ready",
			     svc->obj->namespace, svc->obj->name,
			     c->nodes[n].name);
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

void drain_warn_outage(struct drain_cluster *c, uint32_t s, uint32_t n)
{
	report_service(c, s, n);
	report_service_webhooks(c, s, n);
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
void drain_warn_emptydir(struct drain_cluster *c, uint32_t p, uint32_t n)
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
				     pod->needs.emptydir,
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
	drain_issue_set_message(c, &c->res->issues[e->issue - 1], msg);
	return;
alone:
	drain_issue_add(c, DRAIN_RULE_EMPTYDIR_LOST, KVET_SEV_WARNING, n,
			pod->obj, pod->needs.emptydir,
			"draining node \"%s\" deletes the emptyDir data of pod \"%s\" (--delete-emptydir-data)",
			c->nodes[n].name, drain_pod_label(c, p));
	return;
oom:
	c->oom = true;
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
void drain_warn_pending(struct drain_cluster *c)
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

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
#include "drain/grouped.h"
#include "drain/issue.h"
#include "drain/journal.h"
#include "drain/kubectl.h"
#include "drain/ordered.h"
#include "drain/quorum.h"
#include "drain/outage.h"
#include "drain/unreachable.h"

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
			drain_pod_set_state(c, r, DRAIN_POD_HELD);
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
			drain_pod_set_state(c, r, DRAIN_POD_HELD);
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
			drain_pod_set_state(c, r, DRAIN_POD_REFUSED);
			drain_set_ptr(c, (const void **)&c->pods[r].why, why);
			c->refusal_new = true;
		}
		return false;
	}
	n = drain_place(c, r, &why);
	if (n == DRAIN_NONE) {
		drain_pod_set_state(c, r, DRAIN_POD_PENDING);
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

/* What losing pod @p from node @n breaks right now. */
static void check_outages(struct drain_cluster *c, uint32_t p, uint32_t n)
{
	const struct drain_pod *pod = &c->pods[p];
	uint32_t i;

	for (i = 0; i < pod->n_services; i++) {
		drain_warn_outage(c, pod->services[i], n);
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
	drain_pod_set_state(c, t->pod, DRAIN_POD_GONE);
	if (r != DRAIN_NONE)
		wait_for(c, r);
	/* only a ready pod's going takes an endpoint away */
	if (was_ready)
		check_outages(c, t->pod, t->node);
}

static void warn_filtered(struct drain_cluster *c, const struct target *t)
{
	const struct drain_pod *pod = &c->pods[t->pod];
	const char *node = c->nodes[t->node].name;

	if (kvet_pod_phase_terminal(pod->phase))
		return;
	if (pod->needs.emptydir)
		drain_warn_emptydir(c, t->pod, t->node);
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
		drain_pod_set_state(c, skip[i], DRAIN_POD_GONE);
	}
out:
	free(wait);
	free(skip);
	return ok;
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
	drain_warn_pending(c);
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
			drain_pod_set_state(c, p, DRAIN_POD_LOST);
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
			drain_pod_set_state(c, p, DRAIN_POD_RUNNING);
			drain_pod_set_ready(c, p, true);
		}
	}
	drain_retry_pending(c, DRAIN_NONE);
}

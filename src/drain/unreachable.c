/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/unreachable.h"

#include "drain/causes.h"
#include "drain/cluster.h"
#include "drain/issue.h"
#include "model/pod.h"
#include "model/taints.h"

/* kubectl drain names no more pods than this in one sentence either */
enum { LISTED = 3 };

bool drain_unready_skips(const struct drain_cluster *c, uint32_t p)
{
	const struct drain_pod *pod = &c->pods[p];

	return c->opts.skip_wait_for_delete && pod->terminating &&
	       pod->node != DRAIN_NONE && c->nodes[pod->node].not_ready;
}

bool drain_unready_waits(const struct drain_cluster *c, uint32_t p,
			 uint32_t n)
{
	const struct drain_pod *pod = &c->pods[p];
	long long grace;

	if (n == DRAIN_NONE || !c->nodes[n].not_ready ||
	    kvet_pod_phase_terminal(pod->phase))
		return false;
	/* CheckGracefulDelete: kubectl drain sends no grace period by
	 * default, so the pod's own decides, and 0 deletes at once */
	return !kvet_pod_grace_period(pod->spec, &grace) || grace != 0;
}

static bool stateful(const struct drain_pod *pod)
{
	return kvet_slice_eq0(pod->owner_kind, "StatefulSet");
}

bool drain_unready_replaces(const struct drain_cluster *c, uint32_t p,
			    uint32_t n)
{
	return !stateful(&c->pods[p]) || !drain_unready_waits(c, p, n);
}

const char *drain_unready_hold_reason(struct drain_cluster *c, uint32_t r)
{
	const struct drain_pod *pod = &c->pods[r];
	const char *s;

	s = kvet_arena_printf(c->arena,
			      "StatefulSet \"%s/%.*s\" creates pod \"%s\" again only once the old one is gone, and that one keeps its deletionTimestamp while node \"%s\" is not Ready",
			      pod->ns, (int)pod->owner_name.len,
			      pod->owner_name.s, drain_pod_label(c, r),
			      c->nodes[pod->from_node].name);
	if (!s)
		c->oom = true;
	return s;
}

/* What the Ready condition of node @n says, for a reason. */
static const char *ready_words(const struct drain_cluster *c, uint32_t n)
{
	enum kvet_ready_condition st =
		c->nodes[n].root
			? kvet_cluster_node_ready_condition(c->nodes[n].root)
			: KVET_READY_ABSENT;

	if (st == KVET_READY_UNKNOWN)
		return "its Ready condition is Unknown (the node controller has not heard from its kubelet)";
	if (st == KVET_READY_FALSE)
		return "its Ready condition is False (its kubelet reports it not Ready)";
	return "its Ready condition is not True";
}

/* 'pod "a"', 'the 2 pods "a" and "b"', 'the 5 pods "a", "b", "c" and 2
 * more' (arena; "" when out of memory, which c->oom says). */
static const char *pod_list(struct drain_cluster *c, const uint32_t *v,
			    size_t n)
{
	const char *s;
	size_t i, shown = n < LISTED ? n : LISTED;

	if (n == 1)
		s = kvet_arena_printf(c->arena, "pod \"%s\"",
				      drain_pod_label(c, v[0]));
	else
		s = kvet_arena_printf(c->arena, "%zu pods", n);
	for (i = 0; n > 1 && s && i < shown; i++)
		s = kvet_arena_printf(c->arena, "%s%s\"%s\"", s,
				      !i ? " "
				      : i + 1 == shown && shown == n ? " and "
								     : ", ",
				      drain_pod_label(c, v[i]));
	if (s && n > shown)
		s = kvet_arena_printf(c->arena, "%s and %zu more", s,
				      n - shown);
	if (!s)
		c->oom = true;
	return s ? s : "";
}

static void relate_pods(struct drain_issue *is, const struct drain_cluster *c,
			const uint32_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		drain_issue_relate(is, c->pods[v[i]].obj);
}

bool drain_unready_report(struct drain_cluster *c, uint32_t n,
			  const uint32_t *wait, size_t n_wait,
			  const uint32_t *skip, size_t n_skip,
			  struct drain_causes *why)
{
	const struct drain_node *node = &c->nodes[n];
	unsigned int secs = c->opts.skip_wait_for_delete;
	const struct kvet_node *at;
	struct drain_issue *is;
	const char *waited = "", *skipped = "";

	if (!n_wait && !n_skip)
		return true;
	at = node->root ? kvet_cluster_node_ready_status(node->root) : NULL;
	if (!secs) {
		is = drain_issue_add(c, DRAIN_RULE_NODE_NOT_READY,
				     KVET_SEV_ERROR, n, node->obj, at,
				     "node \"%s\" never finishes draining: %s, so nothing completes the deletion of the %s that kubectl drain evicts there: the API server keeps %s, with a deletionTimestamp, until the node returns or its Node object is deleted, and kubectl drain waits for %s forever (waitForDelete)",
				     node->name, ready_words(c, n),
				     pod_list(c, wait, n_wait),
				     n_wait == 1 ? "it" : "them",
				     n_wait == 1 ? "it" : "them");
		relate_pods(is, c, wait, n_wait);
		drain_causes_add(c, why,
				 "kubectl drain waits forever for the deletion of the %s it evicts from node \"%s\", which is not Ready: %s",
				 pod_list(c, wait, n_wait), node->name,
				 ready_words(c, n));
		return false;
	}
	if (n_wait)
		waited = kvet_arena_printf(c->arena,
					   "nothing completes the deletion of the %s that kubectl drain evicts there, and --skip-wait-for-delete-timeout=%u makes kubectl drain stop waiting for %s after %u seconds",
					   pod_list(c, wait, n_wait), secs,
					   n_wait == 1 ? "it" : "them", secs);
	if (n_skip && n_wait)
		skipped = kvet_arena_printf(c->arena,
					    ", and skip the %s, already terminating there",
					    pod_list(c, skip, n_skip));
	else if (n_skip)
		skipped = kvet_arena_printf(c->arena,
					    "--skip-wait-for-delete-timeout=%u makes kubectl drain skip the %s, already terminating there",
					    secs, pod_list(c, skip, n_skip));
	if (!waited || !skipped) {
		c->oom = true;
		return true;
	}
	is = drain_issue_add(c, DRAIN_RULE_NODE_NOT_READY, KVET_SEV_WARNING, n,
			     node->obj, at,
			     "node \"%s\" drains only by leaving its pods behind: %s, so %s%s: the API server keeps %s, with a deletionTimestamp and perhaps still running, until the node returns or its Node object is deleted",
			     node->name, ready_words(c, n), waited, skipped,
			     n_wait + n_skip == 1 ? "it" : "them");
	if (is)
		is->skip_wait = true;
	relate_pods(is, c, wait, n_wait);
	relate_pods(is, c, skip, n_skip);
	return true;
}

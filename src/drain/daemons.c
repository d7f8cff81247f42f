/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The DaemonSet controller on a node kvet adds (a surge node, the node
 * that replaces a drained one): every DaemonSet that should run there
 * gets its pod, running and Ready, as kvet's replacements are. Without it
 * a webhook or Service that a DaemonSet serves would look down for good
 * once the original nodes are gone.
 *
 * Whether it should run follows the daemon controller's
 * nodeShouldRunDaemonPod (pkg/controller/daemon/daemon_controller.go):
 * the DaemonSet's template, with the tolerations the controller adds to
 * every daemon pod (util.AddOrUpdateDaemonPodTolerations), must tolerate
 * the node's NoSchedule and NoExecute taints, and its nodeSelector and
 * required node affinity must accept the node. Room is not asked: the
 * controller creates the pod whatever is left, and a new node is empty.
 */
#include "drain/daemons.h"

#include <stdlib.h>
#include <string.h>

#include "drain/cluster.h"
#include "model/node_affinity.h"
#include "model/pod.h"

/* The controller's own tolerations: these taints never keep a daemon pod
 * off a node (network-unavailable only for hostNetwork pods). */
static bool auto_tolerated(const struct kvet_taint *t,
			   const struct kvet_node *spec)
{
	static const char *const no_schedule[] = {
		"node.kubernetes.io/disk-pressure",
		"node.kubernetes.io/memory-pressure",
		"node.kubernetes.io/pid-pressure",
		KVET_TAINT_UNSCHEDULABLE,
	};
	static const char *const no_execute[] = {
		KVET_TAINT_NOT_READY,
		"node.kubernetes.io/unreachable",
	};
	size_t i;

	if (t->effect == KVET_TAINT_NO_EXECUTE) {
		for (i = 0; i < sizeof(no_execute) / sizeof(*no_execute); i++)
			if (kvet_slice_eq0(t->key, no_execute[i]))
				return true;
		return false;
	}
	for (i = 0; i < sizeof(no_schedule) / sizeof(*no_schedule); i++)
		if (kvet_slice_eq0(t->key, no_schedule[i]))
			return true;
	return kvet_slice_eq0(t->key, "node.kubernetes.io/network-unavailable") &&
	       kvet_pod_host_network(spec);
}

/*
 * @spec is the DaemonSet's template spec; NULL when the dump lacks the
 * DaemonSet, and the pod's own spec stands for it, without its node
 * affinity (the controller pins each pod to its node by metadata.name).
 */
static bool should_run(const struct drain_cluster *c,
		       const struct kvet_node *spec,
		       const struct kvet_node *pod_spec, uint32_t n)
{
	const struct drain_node *node = &c->nodes[n];
	const struct kvet_node *tol = spec ? spec : pod_spec;
	size_t i;

	for (i = 0; i < node->taints.n; i++) {
		const struct kvet_taint *t = &node->taints.v[i];

		if (t->effect != KVET_TAINT_NO_SCHEDULE &&
		    t->effect != KVET_TAINT_NO_EXECUTE)
			continue;
		if (!auto_tolerated(t, tol) && !kvet_pod_tolerates(tol, t))
			return false;
	}
	return !spec ||
	       kvet_pod_node_affinity_matches(spec, &node->labels,
					      kvet_slice_of(node->name));
}

/* Has a pod of @pod's DaemonSet (same namespace and controller name)
 * already been chosen into @seen? */
static bool seen_before(const struct drain_cluster *c, const uint32_t *seen,
			size_t n_seen, const struct drain_pod *pod)
{
	size_t i;

	for (i = 0; i < n_seen; i++) {
		const struct drain_pod *o = &c->pods[seen[i]];

		if (!strcmp(o->ns, pod->ns) &&
		    kvet_slice_eq(o->owner_name, pod->owner_name))
			return true;
	}
	return false;
}

int drain_daemons_start(struct drain_cluster *c, uint32_t n)
{
	uint32_t p, k = 0, end = c->n_pods, i;
	uint32_t *seen;
	size_t n_seen = 0;

	for (p = 0; p < end; p++)
		k += c->pods[p].kind == DRAIN_POD_DAEMONSET &&
		     c->pods[p].origin == DRAIN_NONE;
	if (!k)
		return 0;
	/* the first pod of each DaemonSet in the dump stands for it */
	seen = malloc(k * sizeof(*seen));
	if (!seen || drain_cluster_reserve(c, k) < 0) {
		free(seen);
		return -1;
	}
	for (p = 0; p < end; p++) {
		const struct drain_pod *pod = &c->pods[p];

		if (pod->kind == DRAIN_POD_DAEMONSET &&
		    pod->origin == DRAIN_NONE &&
		    !seen_before(c, seen, n_seen, pod))
			seen[n_seen++] = p;
	}
	for (i = 0; i < n_seen; i++) {
		const struct drain_pod *pod = &c->pods[seen[i]];
		const struct kvet_node *spec =
			pod->wl && pod->wl->kind == KVET_WL_DAEMONSET
				? pod->wl->pod_spec
				: NULL;
		uint32_t q = c->n_pods;
		struct drain_pod *r;

		if (!should_run(c, spec, pod->spec, n))
			continue;
		r = &c->pods[q];
		*r = *pod;
		r->name = kvet_arena_printf(c->arena, "%.*s-%s",
					    (int)pod->owner_name.len,
					    pod->owner_name.s, c->nodes[n].name);
		if (!r->name) {
			free(seen);
			return -1;
		}
		/* made from its DaemonSet's pod, whose webhooks it shares;
		 * not a replacement: the roll waits for none */
		r->origin = seen[i];
		r->replaced_by = DRAIN_NONE;
		r->from_node = DRAIN_NONE;
		r->why = NULL;
		r->terminating = false;
		r->ready = false;
		r->phase = KVET_PHASE_RUNNING;
		c->n_pods = q + 1;
		drain_pod_bind(c, q, n);
		drain_pod_set_ready(c, q, true);
	}
	free(seen);
	return 0;
}

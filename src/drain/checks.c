/* SPDX-License-Identifier: Apache-2.0 */
/* The drain checks: the rule ids, severities and documentation of what a
 * drain runs into (docs/drain.md has the long form), and what to do about
 * each finding. */
#include "drain/drain.h"

#define REF_EVICTION "https://kubernetes.io/docs/concepts/scheduling-eviction/api-eviction/"
#define REF_PDB "https://kubernetes.io/docs/tasks/run-application/configure-pdb/"
#define REF_DRAIN "https://kubernetes.io/docs/tasks/administer-cluster/safely-drain-node/"
#define REF_SCHED "https://kubernetes.io/docs/concepts/scheduling-eviction/kube-scheduler/"
#define REF_WEBHOOK "https://kubernetes.io/docs/reference/access-authn-authz/extensible-admission-controllers/#failure-policy"
#define REF_SVC "https://kubernetes.io/docs/concepts/services-networking/service/"
#define REF_STS "https://kubernetes.io/docs/concepts/workloads/controllers/statefulset/"
#define REF_NODE "https://kubernetes.io/docs/concepts/architecture/nodes/#non-graceful-node-shutdown"

static const char *const refs_eviction[] = { REF_EVICTION, REF_PDB };
static const char *const refs_drain[] = { REF_DRAIN };
static const char *const refs_sched[] = { REF_SCHED };
static const char *const refs_webhook[] = { REF_WEBHOOK };
static const char *const refs_svc[] = { REF_SVC };
static const char *const refs_sts[] = { REF_STS };
static const char *const refs_unready[] = { REF_DRAIN, REF_NODE };

#define REFS(a) .references = (a), .n_references = sizeof(a) / sizeof((a)[0])

const struct kvet_rule_info drain_checks[DRAIN_RULE_COUNT] = {
	[DRAIN_RULE_EVICTION_BLOCKED] = {
		"drain-eviction-blocked", KVET_SEV_ERROR, "drain",
		"the API server refuses an eviction, so the node never drains",
		"kubectl drain retries a refused eviction every 5 seconds, forever: a PodDisruptionBudget that allows no disruption (429), one whose status the disruption controller has not caught up with (429), two budgets selecting one pod (500), or a fail-closed webhook on evictions without a backend keeps the node from draining, and managed upgrades give up (EKS after 15 minutes with PodEvictionFailure) or delete the pods anyway (GKE after an hour).",
		"Give the budget room: more replicas than minAvailable (placed on other nodes), or maxUnavailable of at least 1; make sure the replacements of evicted pods can be scheduled; keep one budget per pod.",
		REFS(refs_eviction), .commands = KVET_RULE_IN_DRAIN },
	[DRAIN_RULE_KUBECTL_REFUSES] = {
		"drain-kubectl-refuses", KVET_SEV_ERROR, "drain",
		"kubectl drain's own filters refuse the node",
		"Before evicting anything, kubectl drain refuses a node with DaemonSet pods (without --ignore-daemonsets), pods with emptyDir volumes (without --delete-emptydir-data) or pods that declare no controller (without --force).",
		"Run the drain with the flags the pods need, or give bare pods a controller.",
		REFS(refs_drain), .commands = KVET_RULE_IN_DRAIN },
	[DRAIN_RULE_WEBHOOK_DEADLOCK] = {
		"drain-webhook-deadlock", KVET_SEV_ERROR, "drain",
		"a fail-closed webhook rejects the creation of its own backend's replacement",
		"When every backend pod of a webhook with failurePolicy: Fail is evicted, the API server rejects every request the webhook intercepts. If that includes creating pods in the backend's own namespace, the backend's replacement can never be created: nothing the webhook intercepts works again until someone deletes the webhook configuration.",
		"Run the webhook with at least 2 replicas spread over nodes and a PodDisruptionBudget, and exclude its own namespace (namespaceSelector) or its own pods (objectSelector) from what it intercepts.",
		REFS(refs_webhook), .commands = KVET_RULE_IN_DRAIN },
	[DRAIN_RULE_POD_UNSCHEDULABLE] = {
		"drain-pod-unschedulable", KVET_SEV_WARNING, "drain",
		"the replacement of an evicted pod fits no node",
		"The controller creates a replacement, but no node passes the scheduler's filters (capacity, taints, node affinity, pod anti-affinity, topology spread, host ports, volume zones): it stays Pending, and a budget that counts it stays down.",
		"Add capacity (or surge nodes), relax required anti-affinity or DoNotSchedule spread constraints, or keep zonal volumes in zones with room.",
		REFS(refs_sched), .commands = KVET_RULE_IN_DRAIN },
	[DRAIN_RULE_POD_DELETED] = {
		"drain-pod-deleted", KVET_SEV_WARNING, "drain",
		"a pod without a controller is deleted and never comes back",
		"kubectl drain --force deletes pods that declare no controller; nothing recreates them.",
		"Run the pod under a Deployment, StatefulSet or Job.",
		REFS(refs_drain), .commands = KVET_RULE_IN_DRAIN },
	[DRAIN_RULE_EMPTYDIR_LOST] = {
		"drain-emptydir-data-lost", KVET_SEV_WARNING, "drain",
		"a pod's emptyDir data is deleted with the pod",
		"kubectl drain --delete-emptydir-data (what managed upgrades use) deletes pods with emptyDir volumes; their data is gone, and the replacement starts empty.",
		"Keep data that must survive in a PersistentVolume; ignore this for caches and scratch space.",
		REFS(refs_drain), .commands = KVET_RULE_IN_DRAIN },
	[DRAIN_RULE_WEBHOOK_OUTAGE] = {
		"drain-webhook-outage", KVET_SEV_WARNING, "drain",
		"a fail-closed webhook has no ready backend while a node drains",
		"While every backend pod of a webhook with failurePolicy: Fail is evicted (or lost with its node) and not yet replaced, the API server rejects every request the webhook intercepts.",
		"Run at least 2 backend replicas on different nodes with a PodDisruptionBudget.",
		REFS(refs_webhook), .commands = KVET_RULE_IN_DRAIN },
	[DRAIN_RULE_SERVICE_OUTAGE] = {
		"drain-service-outage", KVET_SEV_WARNING, "drain",
		"a Service has no ready endpoint while a node drains",
		"kubectl drain evicts the pods of a node at once: when they are all the Service's ready pods, it has no endpoint until a replacement is ready.",
		"Run at least 2 replicas on different nodes, with a PodDisruptionBudget of maxUnavailable 1.",
		REFS(refs_svc), .commands = KVET_RULE_IN_DRAIN },
	[DRAIN_RULE_QUORUM_LOSS] = {
		"drain-quorum-loss", KVET_SEV_INFO, "drain",
		"a StatefulSet's ready pods drop below a majority",
		"etcd, ZooKeeper and Raft-based systems stop accepting writes when fewer than a majority of their members are up.",
		"Spread the members over nodes and protect them with a PodDisruptionBudget of maxUnavailable 1.",
		REFS(refs_sts), .commands = KVET_RULE_IN_DRAIN },
	[DRAIN_RULE_INSTALL_UNSCHEDULABLE] = {
		"drain-install-unschedulable", KVET_SEV_ERROR, "drain",
		"a pod of the manifests fits no node of the synthetic pool",
		"When the input is rendered manifests rather than a cluster dump (no Node object and no live Pod: none bound to a node or carrying a status; a bare Pod of the manifests is installed like a workload), kvet drain, and kvet lint's rolling-upgrade-stalls, first install the pods of every workload on the synthetic pool (--pool, the --node-* options or pool: in .kvet.yaml; 3 nodes in 3 zones by default): as many as the workload runs at its smallest (replicas, an HPA's minReplicas, a Job's parallelism, a DaemonSet's eligible nodes), one by one in the scheduling queue's order, through the scheduler's filters (taints, node affinity and selector, host ports, requests, pod (anti-)affinity, DoNotSchedule topology spread). A pod that no node accepts stays Pending: the manifests cannot even be installed on that pool as configured (too few nodes or zones for required anti-affinity or a DoNotSchedule spread, a nodeSelector or taint the pool does not have, requests larger than a node, more pods than the pool takes). It is reported once per workload, with the count of its pods that fit no node, at the field the scheduler's message blames, in the scheduler's words; when only room is lacking (Insufficient resources, Too many pods) kvet lint reports the first such workload and counts the others, since the pool is then smaller than what is linted at once.",
		"Describe the pool the manifests target (--pool, --node-cpu, --node-memory, --node-label, --node-taint, or pool: in .kvet.yaml), or relax what the pod requires.",
		REFS(refs_sched), .commands = KVET_RULE_IN_DRAIN },
	[DRAIN_RULE_NODE_NOT_READY] = {
		"drain-node-not-ready", KVET_SEV_ERROR, "drain",
		"the node is not Ready, so the deletions of its evicted pods never complete",
		"On a node whose Ready condition is Unknown (unreachable) or False, the API server grants the evictions, but a graceful deletion ends only when the kubelet has stopped the pod and removes it: the pods keep their deletionTimestamp until the node returns, or until its Node object is deleted and the pod garbage collector removes them. kubectl drain waits for every pod it evicted to be gone (waitForDelete), so it never returns, unless --skip-wait-for-delete-timeout=N makes it give up on pods terminating for longer than N seconds; a StatefulSet recreates such a pod only once the old one is gone. kvet drain --skip-wait-for-delete-timeout N simulates that switch, and the finding becomes a warning.",
		"Bring the node back; if it is gone for good, delete its Node object (or, for a node shut down, taint it node.kubernetes.io/out-of-service=nodeshutdown:NoExecute) so that its pods are removed; or drain with kubectl drain --skip-wait-for-delete-timeout=SECONDS.",
		REFS(refs_unready), .commands = KVET_RULE_IN_DRAIN },
};

const struct kvet_rule_info *drain_rule_info(enum drain_rule rule)
{
	return (unsigned int)rule < DRAIN_RULE_COUNT ? &drain_checks[rule] : NULL;
}

const char *drain_issue_help(const struct drain_issue *is, bool pool)
{
	switch (is->rule) {
	case DRAIN_RULE_EVICTION_BLOCKED:
		if (is->webhook)
			return "let the webhook's own pods and their evictions through (an objectSelector or namespaceSelector that leaves them out), or run 2 backends on different nodes";
		if (is->budget == DRAIN_BUDGET_OVERLAP)
			return "make the budgets disjoint: narrow their selectors so that no pod is selected by more than one (the eviction API refuses such a pod every time, whatever the budgets allow)";
		if (is->budget == DRAIN_BUDGET_STALE)
			return "drain again once the disruption controller has processed the budget (status.observedGeneration reaches metadata.generation within seconds); a status that stays behind means kube-controller-manager is not running";
		if (is->budget == DRAIN_BUDGET_SYNC_FAILS)
			return "the disruption controller cannot count the pods of a budget that selects pods without a Deployment, ReplicaSet, StatefulSet or ReplicationController unless minAvailable is an integer: set minAvailable: N, or run the pods under such a controller";
		return pool ? "give the budget room: run more pods than it needs healthy, on nodes that can take their replacements, or set maxUnavailable: 1; kvet drain --rolling shows every step"
			    : "give the budget room: run more pods than it needs healthy, on nodes that can take their replacements, or set maxUnavailable: 1";
	case DRAIN_RULE_WEBHOOK_DEADLOCK:
		if (is->ring)
			return "break the ring: leave the backend pods of the webhooks it rejects out of what it intercepts (an objectSelector or namespaceSelector), or run 2 backends of each webhook of the ring on different nodes with a budget of maxUnavailable: 1";
		return "leave the webhook's own pods out of what it intercepts (an objectSelector or namespaceSelector), or run 2 backends on different nodes with a budget of maxUnavailable: 1";
	case DRAIN_RULE_KUBECTL_REFUSES:
		return pool ? "run the pod under a controller, such as a Deployment, so that kubectl drain may evict it and it comes back"
			    : "drain with the flags these pods need (--ignore-daemonsets, --delete-emptydir-data, --force), or run bare pods under a controller such as a Deployment";
	case DRAIN_RULE_POD_UNSCHEDULABLE:
		if (is->refused)
			return "leave these pods out of what the webhook that rejects them intercepts, or run 2 of its backends on different nodes";
		if (is->not_ready)
			return "bring the node back, or, once it is gone for good, delete its Node object (the pod garbage collector then removes the old pod, and the StatefulSet recreates it)";
		if (is->held)
			return "make the lower ordinal Running and Ready first, or set podManagementPolicy: Parallel if the members need no start-up order";
		if (!pool)
			return "add capacity or surge nodes, relax required anti-affinity or DoNotSchedule topology spread, or keep zonal volumes in zones with room";
		break;
	case DRAIN_RULE_POD_DELETED:
		return "run the pod under a controller (a Deployment, StatefulSet or Job), so that it comes back after a drain";
	case DRAIN_RULE_EMPTYDIR_LOST:
		return "keep data that must survive in a PersistentVolume; a cache or scratch space needs nothing";
	case DRAIN_RULE_WEBHOOK_OUTAGE:
		return "run 2 or more backend replicas on different nodes, with a PodDisruptionBudget of maxUnavailable: 1, or set failurePolicy: Ignore if the webhook is not essential";
	case DRAIN_RULE_SERVICE_OUTAGE:
		return "run 2 or more replicas on different nodes, with a PodDisruptionBudget of maxUnavailable: 1";
	case DRAIN_RULE_QUORUM_LOSS:
		return "spread the members over nodes and zones, with a PodDisruptionBudget of maxUnavailable: 1";
	case DRAIN_RULE_NODE_NOT_READY:
		if (is->skip_wait)
			return "once the machine is gone for good, delete its Node object, so that the pod garbage collector removes its pods and their controllers replace them; until then they may still run there";
		return "bring the node back, and its kubelet completes the deletions; if it is gone for good, delete its Node object so that the pod garbage collector removes its pods (for a node shut down, the taint node.kubernetes.io/out-of-service=nodeshutdown:NoExecute does it too); or drain with kubectl drain --skip-wait-for-delete-timeout=SECONDS, which kvet drain takes as well";
	case DRAIN_RULE_INSTALL_UNSCHEDULABLE:
		if (is->no_room)
			return "describe the cluster these manifests run on with pool: in .kvet.yaml (size, nodeCPU, nodeMemory, nodePods), or lint them chart by chart";
		break;
	default:
		break;
	}
	return "relax the required anti-affinity or DoNotSchedule topology spread for a pool of this size, or describe the pool the manifests target with pool: in .kvet.yaml";
}

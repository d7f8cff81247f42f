/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Draining a node whose Ready condition is not True (src/drain/
 * unreachable.c). The facts come from kubernetes:
 * staging/src/k8s.io/kubectl/pkg/drain/drain.go, waitForDelete (kubectl
 * drain waits for each evicted pod to be gone, for ever by default, and
 * gives up on one whose deletionTimestamp is older than
 * --skip-wait-for-delete-timeout), filters.go, skipDeletedFilter (the
 * same test, before any eviction), and pkg/registry/core/pod/strategy.go,
 * CheckGracefulDelete (a finished pod, or one with a grace period of 0,
 * is deleted at once; any other waits for its kubelet).
 */
#include "tdrain.h"

#define NODE(name, ready)                                                   \
	"apiVersion: v1\nkind: Node\nmetadata: {name: " name ", labels:"   \
	" {kubernetes.io/hostname: " name "}}\nstatus: {allocatable:"      \
	" {cpu: \"4\", memory: 8Gi, pods: \"110\"}, conditions: [{type:"   \
	" Ready, status: " ready "}]}\n---\n"

#define POD(name, node, owner, extra_meta, extra_spec, phase)              \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name                 \
	", namespace: ns, labels: {app: " name "}, ownerReferences:"        \
	" [{apiVersion: apps/v1, kind: " owner ", name: " name              \
	", controller: true}]" extra_meta "}\nspec: {nodeName: " node       \
	", containers: [{name: c, resources: {requests: {cpu: 100m}}}]"    \
	extra_spec "}\nstatus: {phase: " phase ", conditions: [{type:"     \
	" Ready, status: \"False\"}]}\n---\n"

/* n1 is unreachable, n2 and n3 are Ready */
static const char cluster[] =
	NODE("n1", "Unknown") NODE("n2", "\"True\"") NODE("n3", "\"True\"")
	POD("api", "n1", "ReplicaSet", "", "", "Running")
	POD("db-0", "n1", "StatefulSet", "", "", "Running")
	POD("old", "n1", "ReplicaSet",
	    ", deletionTimestamp: \"2026-01-10T08:00:00Z\"", "", "Running")
	POD("done", "n1", "Job", "", "", "Succeeded")
	POD("now", "n1", "ReplicaSet", "",
	    ", terminationGracePeriodSeconds: 0", "Running")
	POD("web", "n2", "ReplicaSet", "", "", "Running");

/* kubectl drain's waitForDelete: without the switch it waits for ever */
static void wait_for_delete_never_returns(void **state)
{
	struct drain_options o = td_options();
	const struct drain_issue *is;
	struct tdrain t;

	(void)state;
	td_load(&t, cluster);
	td_run(&t, &o);
	assert_int_equal(t.rc, 0);
	assert_int_equal(td_count(&t, "n1", DRAIN_RULE_NODE_NOT_READY), 1);
	is = td_issue(&t, "n1", DRAIN_RULE_NODE_NOT_READY);
	assert_int_equal(is->sev, KVET_SEV_ERROR);
	assert_false(is->skip_wait);
	/* at the Ready condition's status, about the Node, related to it
	 * first so that the report counts it as the node's */
	assert_string_equal(is->obj->kind, "Node");
	assert_non_null(is->at);
	assert_true(is->n_related >= 1);
	assert_string_equal(is->related[0].kind, "Node");
	assert_string_equal(is->related[0].name, "n1");
	td_contains(is->message, "waitForDelete");
	td_contains(is->message, "Ready condition is Unknown");
	/* what waits: the evicted pod, the StatefulSet's and the one
	 * terminating already; not the finished pod, nor the one whose
	 * grace period of 0 the API server carries out at once */
	td_contains(is->message, "the 3 pods \"ns/api\", \"ns/db-0\" and \"ns/old\"");
	assert_null(strstr(is->message, "ns/done"));
	assert_null(strstr(is->message, "ns/now"));
	assert_int_equal(td_node(&t, "n1")->evicted, 3);
	assert_int_equal(td_node(&t, "n1")->deleted, 2);
	/* the Ready nodes are the control */
	assert_int_equal(td_count(&t, "n2", DRAIN_RULE_NODE_NOT_READY), 0);
	assert_int_equal(td_count(&t, "n3", DRAIN_RULE_NODE_NOT_READY), 0);
	td_free(&t);
}

/* Ready False is no better: the kubelet completes nothing either */
static void ready_false_waits_too(void **state)
{
	static const char yaml[] =
		NODE("n1", "\"False\"") NODE("n2", "\"True\"")
		POD("api", "n1", "ReplicaSet", "", "", "Running");
	struct drain_options o = td_options();
	struct tdrain t;

	(void)state;
	td_load(&t, yaml);
	td_run(&t, &o);
	td_contains(td_issue(&t, "n1", DRAIN_RULE_NODE_NOT_READY)->message,
		    "its Ready condition is False");
	td_contains(td_issue(&t, "n1", DRAIN_RULE_NODE_NOT_READY)->message,
		    "pod \"ns/api\" that kubectl drain evicts there");
	td_free(&t);
}

/* what nothing waits for: a node without conditions counts as Ready, and
 * finished pods or a grace period of 0 are deleted at once */
static void nothing_to_wait_for(void **state)
{
	static const char yaml[] =
		NODE("n1", "Unknown") NODE("n2", "\"True\"")
		POD("done", "n1", "Job", "", "", "Failed")
		POD("now", "n1", "ReplicaSet", "",
		    ", terminationGracePeriodSeconds: 0", "Running")
		"apiVersion: v1\nkind: Node\nmetadata: {name: n3}\n---\n"
		POD("web", "n3", "ReplicaSet", "", "", "Running");
	struct drain_options o = td_options();
	struct tdrain t;

	(void)state;
	td_load(&t, yaml);
	td_run(&t, &o);
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_NODE_NOT_READY), 0);
	assert_int_equal(td_node(&t, "n1")->evicted, 1);
	assert_int_equal(td_node(&t, "n1")->deleted, 1);
	assert_int_equal(td_node(&t, "n3")->evicted, 1);
	td_free(&t);
}

/* --skip-wait-for-delete-timeout: waitForDelete gives up on the evicted
 * pods, skipDeletedFilter leaves the terminating one, and the drain
 * completes with a warning */
static void skip_wait_for_delete_timeout(void **state)
{
	struct drain_options o = td_options();
	const struct drain_issue *is;
	struct tdrain t;

	(void)state;
	td_load(&t, cluster);
	o.skip_wait_for_delete = 60;
	td_run(&t, &o);
	is = td_issue(&t, "n1", DRAIN_RULE_NODE_NOT_READY);
	assert_int_equal(is->sev, KVET_SEV_WARNING);
	assert_true(is->skip_wait);
	td_contains(is->message, "--skip-wait-for-delete-timeout=60 makes kubectl drain stop waiting for them after 60 seconds");
	td_contains(is->message, "skip the pod \"ns/old\", already terminating there");
	assert_int_equal(td_node(&t, "n1")->evicted, 3);
	assert_int_equal(td_node(&t, "n1")->deleted, 1);
	assert_int_equal(td_node(&t, "n1")->left, 1);
	/* the switch changes nothing on a Ready node */
	assert_int_equal(td_count(&t, "n2", DRAIN_RULE_NODE_NOT_READY), 0);
	assert_int_equal(td_node(&t, "n2")->evicted, 1);
	td_free(&t);
}

/* A StatefulSet recreates db-0 only once the old object is gone: not
 * while n1 is unreachable; once n1 is back from an in-place upgrade, or
 * replaced (its Node object deleted), it does, and the roll goes on. */
static void statefulset_waits_for_the_old_pod(void **state)
{
	struct drain_options o = td_options();
	const struct drain_issue *is;
	struct tdrain t;

	(void)state;
	td_load(&t, cluster);
	o.skip_wait_for_delete = 60;
	td_run(&t, &o);
	is = td_issue(&t, "n1", DRAIN_RULE_POD_UNSCHEDULABLE);
	assert_true(is->not_ready);
	assert_false(is->held);
	td_contains(is->message, "the replacement of pod \"ns/db-0\", evicted from node \"n1\", is not created");
	td_contains(is->message, "only once the old one is gone");
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_POD_UNSCHEDULABLE), 1);
	o.plan = KVET_DRAIN_ROLLING;
	o.order = KVET_DRAIN_ORDER_NAME;
	td_run(&t, &o);
	assert_int_equal(t.res.n_steps, 3);
	assert_false(t.res.steps[0].stalled);
	assert_false(t.res.steps[2].stalled);
	o.surge = 1;
	td_run(&t, &o);
	assert_int_equal(t.res.n_steps, 3);
	assert_false(t.res.steps[0].stalled);
	td_free(&t);
}

/* A surge node shaped like the unreachable n1 is a new node, and Ready:
 * none of the taints the node lifecycle controller put on n1, so that
 * n1's replacement goes there when n2 is full. */
static void surge_node_is_ready(void **state)
{
	static const char yaml[] =
		"apiVersion: v1\nkind: Node\nmetadata: {name: n1, labels:"
		" {kubernetes.io/hostname: n1}}\nspec: {taints: [{key:"
		" node.kubernetes.io/unreachable, effect: NoSchedule}]}\n"
		"status: {allocatable: {cpu: \"4\", memory: 8Gi, pods:"
		" \"110\"}, conditions: [{type: Ready, status: Unknown}]}\n---\n"
		"apiVersion: v1\nkind: Node\nmetadata: {name: n2, labels:"
		" {kubernetes.io/hostname: n2}}\nstatus: {allocatable: {cpu:"
		" \"4\", memory: 8Gi, pods: \"1\"}, conditions: [{type: Ready,"
		" status: \"True\"}]}\n---\n"
		POD("api", "n1", "ReplicaSet", "", "", "Running")
		POD("web", "n2", "ReplicaSet", "", "", "Running");
	struct drain_options o = td_options();
	struct tdrain t;

	(void)state;
	td_load(&t, yaml);
	o.plan = KVET_DRAIN_ROLLING;
	o.order = KVET_DRAIN_ORDER_NAME;
	o.skip_wait_for_delete = 60;
	o.surge = 1;
	o.n_names = 1;
	o.names = (const char *[]){ "n1" };
	td_run(&t, &o);
	assert_int_equal(t.res.n_steps, 1);
	assert_false(t.res.steps[0].stalled);
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_POD_UNSCHEDULABLE), 0);
	assert_int_equal(td_count(&t, "n1", DRAIN_RULE_NODE_NOT_READY), 1);
	td_free(&t);
}

/* without the switch a roll stalls at the node, with waitForDelete as
 * the cause, and does not reach the others */
static void roll_stalls_on_wait_for_delete(void **state)
{
	struct drain_options o = td_options();
	struct tdrain t;

	(void)state;
	td_load(&t, cluster);
	o.plan = KVET_DRAIN_ROLLING;
	o.order = KVET_DRAIN_ORDER_NAME;
	td_run(&t, &o);
	assert_int_equal(t.res.n_steps, 1);
	assert_true(t.res.steps[0].stalled);
	assert_int_equal(t.res.steps[0].n_causes, 1);
	td_contains(t.res.steps[0].causes[0], "kubectl drain waits forever for the deletion of the 3 pods");
	assert_false(td_node(&t, "n2")->reached);
	td_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(wait_for_delete_never_returns),
		cmocka_unit_test(ready_false_waits_too),
		cmocka_unit_test(nothing_to_wait_for),
		cmocka_unit_test(skip_wait_for_delete_timeout),
		cmocka_unit_test(statefulset_waits_for_the_old_pod),
		cmocka_unit_test(roll_stalls_on_wait_for_delete),
		cmocka_unit_test(surge_node_is_ready),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plans: each node alone from the same state, rolling steps in zone,
 * name or given order, K nodes a step, surge nodes, node selection, and
 * what a dump without Nodes or Pods is told.
 */
#include "tdrain.h"

#include "model/selector_text.h"

#define NODE(name, zone)                                                    \
	"apiVersion: v1\nkind: Node\nmetadata: {name: " name ", labels:"   \
	" {kubernetes.io/hostname: " name ", topology.kubernetes.io/zone: " \
	zone ", pool: " zone "}}\nstatus: {allocatable: {cpu: \"4\","      \
	" memory: 8Gi, pods: \"110\"}}\n---\n"

#define POD(name, node)                                                     \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name                 \
	", namespace: ns, labels: {app: web}, ownerReferences:"             \
	" [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, controller:"   \
	" true}]}\nspec: {nodeName: " node ", containers: [{name: c,"       \
	" resources: {requests: {cpu: \"1\"}}}]}\n"                         \
	"status: {phase: Running, conditions: [{type: Ready, status:"       \
	" \"True\"}]}\n---\n"

/* web: 3 pods, one per zone; a budget of maxUnavailable 1 */
static const char pool[] =
	NODE("c1", "c") NODE("a1", "a") NODE("b1", "b")
	POD("web-a", "a1") POD("web-b", "b1") POD("web-c", "c1")
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: web, namespace: ns}\n"
	"spec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\n";

static void each_node_rolls_back(void **state)
{
	struct drain_options o = td_options();
	struct tdrain t;
	size_t i;

	(void)state;
	td_load(&t, pool);
	td_run(&t, &o);
	assert_int_equal(t.rc, 0);
	/* every node from the dump's state: each evicts its pod, none is
	 * blocked by what the others did */
	assert_int_equal(t.res.n_nodes, 3);
	assert_string_equal(t.res.nodes[0].name, "a1");
	for (i = 0; i < 3; i++)
		assert_int_equal(t.res.nodes[i].evicted, 1);
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_EVICTION_BLOCKED), 0);
	/* the same again: the state came back */
	td_run(&t, &o);
	assert_int_equal(t.res.n_issues, 0);
	td_free(&t);
}

static void rolling_orders(void **state)
{
	struct drain_options o = td_options();
	const char *given[] = { "c1", "a1" };
	struct tdrain t;

	(void)state;
	td_load(&t, pool);
	o.plan = KVET_DRAIN_ROLLING;
	td_run(&t, &o);
	assert_int_equal(t.rc, 0);
	assert_int_equal(t.res.n_steps, 3);
	assert_false(t.res.steps[2].stalled);
	assert_string_equal(t.res.steps[0].nodes[0], "a1");
	assert_int_equal(t.res.nodes[2].step, 3);
	o.max_unavailable = 2;
	td_run(&t, &o);
	assert_int_equal(t.res.n_steps, 2);
	assert_int_equal(t.res.steps[0].n_nodes, 2);
	/* two of the budget's three pods at once: maxUnavailable 1 lets one
	 * go, the other waits for its replacement, which fits on c1 */
	assert_false(t.res.steps[0].stalled);
	o.max_unavailable = 1;
	o.order = KVET_DRAIN_ORDER_GIVEN;
	o.names = given;
	o.n_names = 2;
	td_run(&t, &o);
	assert_int_equal(t.res.n_nodes, 2);
	assert_string_equal(t.res.steps[0].nodes[0], "c1");
	assert_string_equal(t.res.steps[1].nodes[0], "a1");
	td_free(&t);
}

static void rolling_stalls_and_surge(void **state)
{
	struct drain_options o = td_options();
	struct tdrain t;

	(void)state;
	/* all three nodes at once: the first eviction uses the budget, the
	 * others wait for a replacement that no node takes */
	td_load(&t, pool);
	o.plan = KVET_DRAIN_ROLLING;
	o.max_unavailable = 3;
	td_run(&t, &o);
	assert_int_equal(t.res.n_steps, 1);
	assert_true(t.res.steps[0].stalled);
	assert_true(t.res.steps[0].n_causes >= 2);
	td_contains(t.res.steps[0].causes[0], "is refused");
	td_contains(t.res.steps[0].causes[1], "is Pending: 0/3 nodes are available: 3 node(s) were unschedulable.");
	/* a surge node takes each replacement in turn: the budget recovers
	 * after each, and the step completes */
	o.surge = 1;
	td_run(&t, &o);
	assert_false(t.res.steps[0].stalled);
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_EVICTION_BLOCKED), 0);
	td_free(&t);
}

static void node_selection(void **state)
{
	struct drain_options o = td_options();
	struct kvet_selector sel;
	const char *err = NULL;
	const char *names[] = { "b1", "zz" };
	struct tdrain t;

	(void)state;
	td_load(&t, pool);
	assert_int_equal(kvet_selector_parse_text(&t.l->arena,
						  "pool in (a, c), zone", &sel,
						  &err), 0);
	o.selector = &sel;
	td_run(&t, &o);
	/* no node has a "zone" label: none is selected */
	assert_int_equal(t.res.n_nodes, 0);
	assert_int_equal(kvet_selector_parse_text(&t.l->arena,
						  "pool in (a, c),pool!=a",
						  &sel, &err), 0);
	td_run(&t, &o);
	assert_int_equal(t.res.n_nodes, 1);
	assert_string_equal(t.res.nodes[0].name, "c1");
	assert_int_equal(kvet_selector_parse_text(&t.l->arena, "pool in (a",
						  &sel, &err), 1);
	td_contains(err, "expected ',' or ')'");
	o.selector = NULL;
	o.names = names;
	o.n_names = 2;
	td_run(&t, &o);
	assert_int_equal(t.res.n_nodes, 1);
	assert_int_equal(t.diag.n, 1);
	td_contains(t.diag.errors[0].message, "no node named 'zz' in the input");
	td_free(&t);
}

static void not_a_dump(void **state)
{
	struct drain_options o = td_options();
	struct tdrain t;

	(void)state;
	td_load(&t, POD("web-a", "a1"));
	td_run(&t, &o);
	assert_int_equal(t.rc, 1);
	assert_int_equal(t.diag.n, 1);
	td_contains(t.diag.errors[0].message,
		    "the input has no Node objects: kvet drain simulates a cluster dump and needs its Nodes and Pods; add nodes to the kubectl get command");
	td_free(&t);
	td_load(&t, NODE("a1", "a"));
	td_run(&t, &o);
	assert_int_equal(t.rc, 1);
	td_contains(t.diag.errors[0].message, "no Pod objects");
	td_contains(t.diag.errors[0].message, "kubectl get nodes,pods,pdb");
	td_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_node_rolls_back),
		cmocka_unit_test(rolling_orders),
		cmocka_unit_test(rolling_stalls_and_surge),
		cmocka_unit_test(node_selection),
		cmocka_unit_test(not_a_dump),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Taints and tolerations: Toleration.ToleratesTaint and the
 * TaintToleration filter's choice of the first untolerated NoSchedule or
 * NoExecute taint (cases after k8s.io/api/core/v1 toleration_test.go and
 * the plugin's taint_toleration_test.go TestTaintTolerationFilter).
 */
#include "tgraph.h"

#include "model/taints.h"

#define NODE(name, extra)                                                   \
	"apiVersion: v1\nkind: Node\nmetadata: {name: " name "}\n" extra    \
	"---\n"

static struct kvet_taints taints_of(struct tgraph *t, const char *name)
{
	struct kvet_taints ts;

	assert_int_equal(
		kvet_cluster_node_taints(
			&t->l->arena,
			kvet_graph_find(t->g, "", "Node", "", name)->root, &ts),
		0);
	return ts;
}

/* The spec of pod @name, for its tolerations. */
static const struct kvet_node *tols(struct tgraph *t, const char *name)
{
	const struct kvet_object *o = kvet_graph_find(t->g, "", "Pod", "ns",
						      name);

	assert_non_null(o);
	return kvet_node_get(o->root, "spec");
}

#define POD(name, tolerations)                                              \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name                 \
	", namespace: ns}\nspec: {tolerations: " tolerations "}\n---\n"

static const char input[] =
	NODE("plain", "")
	NODE("dedicated", "spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule},"
			  " {key: soft, effect: PreferNoSchedule}]}\n")
	NODE("notready", "status: {conditions: [{type: Ready, status: \"False\"}]}\n")
	NODE("unknown", "status: {conditions: [{type: Ready, status: Unknown}]}\n")
	NODE("ready", "status: {conditions: [{type: MemoryPressure, status: \"False\"},"
		      " {type: Ready, status: \"True\"}]}\n")
	POD("none", "[]")
	POD("equal", "[{key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}]")
	POD("wrongvalue", "[{key: dedicated, value: cpu}]")
	POD("exists", "[{key: dedicated, operator: Exists}]")
	POD("all", "[{operator: Exists}]")
	POD("noexecute", "[{key: dedicated, operator: Exists, effect: NoExecute}]")
	POD("cordon", "[{key: node.kubernetes.io/unschedulable, operator: Exists, effect: NoSchedule}]");

static void tolerations(void **state)
{
	struct tgraph t = tg_load(input, 0);
	struct kvet_taints d = taints_of(&t, "dedicated");
	const struct kvet_taint *u;

	(void)state;
	assert_int_equal(d.n, 2);
	/* PreferNoSchedule never filters */
	{
		struct kvet_taints plain = taints_of(&t, "plain");

		assert_null(kvet_pod_untolerated_taint(&plain, tols(&t, "none")));
	}
	u = kvet_pod_untolerated_taint(&d, tols(&t, "none"));
	assert_non_null(u);
	assert_true(kvet_slice_eq0(u->key, "dedicated"));
	assert_true(kvet_slice_eq0(u->value, "gpu"));
	assert_int_equal(u->node->line, 8);
	assert_null(kvet_pod_untolerated_taint(&d, tols(&t, "equal")));
	assert_non_null(kvet_pod_untolerated_taint(&d, tols(&t, "wrongvalue")));
	assert_null(kvet_pod_untolerated_taint(&d, tols(&t, "exists")));
	assert_null(kvet_pod_untolerated_taint(&d, tols(&t, "all")));
	/* the effect must match when the toleration names one */
	assert_non_null(kvet_pod_untolerated_taint(&d, tols(&t, "noexecute")));
	assert_false(kvet_pod_tolerates_unschedulable(tols(&t, "none")));
	assert_true(kvet_pod_tolerates_unschedulable(tols(&t, "cordon")));
	assert_true(kvet_pod_tolerates_unschedulable(tols(&t, "all")));
	tg_free(&t);
}

static void not_ready(void **state)
{
	struct tgraph t = tg_load(input, 0);
	struct kvet_taints nr = taints_of(&t, "notready");
	const struct kvet_taint *u;

	(void)state;
	assert_false(kvet_cluster_node_ready(
		kvet_graph_find(t.g, "", "Node", "", "notready")->root));
	assert_false(kvet_cluster_node_ready(
		kvet_graph_find(t.g, "", "Node", "", "unknown")->root));
	assert_true(kvet_cluster_node_ready(
		kvet_graph_find(t.g, "", "Node", "", "ready")->root));
	assert_true(kvet_cluster_node_ready(
		kvet_graph_find(t.g, "", "Node", "", "plain")->root));
	assert_int_equal(kvet_cluster_node_ready_condition(
		kvet_graph_find(t.g, "", "Node", "", "notready")->root),
		KVET_READY_FALSE);
	assert_int_equal(kvet_cluster_node_ready_condition(
		kvet_graph_find(t.g, "", "Node", "", "unknown")->root),
		KVET_READY_UNKNOWN);
	assert_int_equal(kvet_cluster_node_ready_condition(
		kvet_graph_find(t.g, "", "Node", "", "ready")->root),
		KVET_READY_TRUE);
	assert_int_equal(kvet_cluster_node_ready_condition(
		kvet_graph_find(t.g, "", "Node", "", "plain")->root),
		KVET_READY_ABSENT);
	/* the node lifecycle controller's taint, added by kvet */
	assert_int_equal(nr.n, 1);
	u = kvet_pod_untolerated_taint(&nr, tols(&t, "none"));
	assert_non_null(u);
	assert_true(kvet_slice_eq0(u->key, KVET_TAINT_NOT_READY));
	assert_null(u->node);
	assert_null(kvet_pod_untolerated_taint(&nr, tols(&t, "all")));
	assert_int_equal(taints_of(&t, "unknown").n, 1);
	assert_int_equal(taints_of(&t, "ready").n, 0);
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tolerations),
		cmocka_unit_test(not_ready),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

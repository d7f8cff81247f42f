/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pod requests and node allocatable, summed as the scheduler's
 * NodeResourcesFit reads them (component-helpers resource PodRequests:
 * containers summed, init containers by max, sidecars added, overhead).
 */
#include "tgraph.h"

#include "model/resources.h"

#define POD(name, spec)                                                     \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name                 \
	", namespace: ns}\nspec: " spec "\n---\n"

static struct kvet_resources requests(struct tgraph *t, const char *name)
{
	const struct kvet_object *o = kvet_graph_find(t->g, "", "Pod", "ns",
						      name);
	struct kvet_resources r;

	assert_non_null(o);
	assert_int_equal(kvet_pod_requests(&t->l->arena,
					   kvet_node_get(o->root, "spec"), &r),
			 0);
	return r;
}

#define C(req) "{name: c, resources: " req "}"

static void containers_and_init(void **state)
{
	struct tgraph t = tg_load(
		POD("sum", "{containers: [" C("{requests: {cpu: 100m, memory: 64Mi}}") ", "
			   C("{requests: {cpu: \"1\", memory: 1Gi}}") "]}")
		POD("limits", "{containers: [" C("{limits: {cpu: 500m, memory: 1G}}") ", "
			      C("{requests: {cpu: 100m}, limits: {cpu: \"2\", memory: 2G}}") "]}")
		POD("init", "{initContainers: [" C("{requests: {cpu: \"2\"}}") "],"
			    " containers: [" C("{requests: {cpu: 500m, memory: 1Gi}}") "]}")
		POD("sidecar", "{initContainers: [{name: s, restartPolicy: Always,"
			       " resources: {requests: {cpu: 200m}}},"
			       " " C("{requests: {cpu: 1500m}}") "],"
			       " containers: [" C("{requests: {cpu: \"1\"}}") "]}")
		POD("overhead", "{overhead: {cpu: 250m}, containers: [" C("{requests: {cpu: 250m}}") "]}")
		POD("extended", "{containers: [" C("{limits: {nvidia.com/gpu: 2}}") ", "
				C("{requests: {nvidia.com/gpu: 1, hugepages-2Mi: 4Mi, ephemeral-storage: 1Gi}}") "]}")
		POD("none", "{containers: [{name: c}]}"),
		0);
	struct kvet_resources r;

	(void)state;
	r = requests(&t, "sum");
	assert_int_equal(r.v[KVET_RES_CPU], 1100);
	assert_int_equal(r.v[KVET_RES_MEMORY], 64 * 1048576LL + 1073741824LL);
	assert_int_equal(r.v[KVET_RES_PODS], 1);
	/* limits stand in for absent requests, name by name */
	r = requests(&t, "limits");
	assert_int_equal(r.v[KVET_RES_CPU], 600);
	assert_int_equal(r.v[KVET_RES_MEMORY], 3000000000LL);
	/* an init container runs alone: the larger of the two */
	r = requests(&t, "init");
	assert_int_equal(r.v[KVET_RES_CPU], 2000);
	assert_int_equal(r.v[KVET_RES_MEMORY], 1073741824LL);
	/* a sidecar runs beside everything after it: 200m + max(1500m, 1) */
	r = requests(&t, "sidecar");
	assert_int_equal(r.v[KVET_RES_CPU], 1700);
	r = requests(&t, "overhead");
	assert_int_equal(r.v[KVET_RES_CPU], 500);
	r = requests(&t, "extended");
	assert_int_equal(kvet_resources_ext(&r, kvet_slice_of("nvidia.com/gpu")), 3);
	assert_int_equal(kvet_resources_ext(&r, kvet_slice_of("hugepages-2Mi")),
			 4194304);
	assert_int_equal(kvet_resources_ext(&r, kvet_slice_of("example.com/x")), 0);
	assert_int_equal(r.v[KVET_RES_EPHEMERAL], 1073741824LL);
	r = requests(&t, "none");
	assert_int_equal(r.v[KVET_RES_CPU], 0);
	assert_int_equal(r.v[KVET_RES_MEMORY], 0);
	assert_int_equal(r.v[KVET_RES_PODS], 1);
	tg_free(&t);
}

static void allocatable(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: v1\nkind: Node\nmetadata: {name: a}\n"
		"status:\n  capacity: {cpu: \"8\", memory: 32Gi, pods: \"250\"}\n"
		"  allocatable: {cpu: 7910m, memory: 31Gi, pods: \"110\","
		" ephemeral-storage: \"100G\", nvidia.com/gpu: \"4\"}\n---\n"
		"apiVersion: v1\nkind: Node\nmetadata: {name: b}\n"
		"status:\n  capacity: {cpu: \"4\", pods: 110}\n",
		0);
	struct kvet_resources r;

	(void)state;
	assert_int_equal(
		kvet_cluster_node_allocatable(
			&t.l->arena,
			kvet_graph_find(t.g, "", "Node", "", "a")->root, &r),
		0);
	assert_int_equal(r.v[KVET_RES_CPU], 7910);
	assert_int_equal(r.v[KVET_RES_MEMORY], 31LL << 30);
	assert_int_equal(r.v[KVET_RES_PODS], 110);
	assert_int_equal(r.v[KVET_RES_EPHEMERAL], 100000000000LL);
	assert_int_equal(kvet_resources_ext(&r, kvet_slice_of("nvidia.com/gpu")), 4);
	/* no allocatable: capacity */
	assert_int_equal(
		kvet_cluster_node_allocatable(
			&t.l->arena,
			kvet_graph_find(t.g, "", "Node", "", "b")->root, &r),
		0);
	assert_int_equal(r.v[KVET_RES_CPU], 4000);
	assert_int_equal(r.v[KVET_RES_PODS], 110);
	assert_string_equal(kvet_resource_name(KVET_RES_EPHEMERAL),
			    "ephemeral-storage");
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(containers_and_init),
		cmocka_unit_test(allocatable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

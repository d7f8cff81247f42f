/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Orphans (model/orphan.c): the Pods of a controller a dump lacks are
 * one workload where workloads are counted, by kind, name and uid.
 */
#include "tgraph.h"

#include "model/orphan.h"

/* A Pod bound to a node (dump mode) owned by controller @kind/@name. */
#define POD(name, kind, owner, uid)					\
	"apiVersion: v1\nkind: Pod\n"					\
	"metadata:\n  name: " name "\n  namespace: ops\n"		\
	"  labels: {app: x}\n"						\
	"  ownerReferences: [{apiVersion: apps/v1, kind: " kind		\
	", name: " owner ", uid: " uid ", controller: true}]\n"	\
	"spec: {nodeName: n1}\n---\n"

static const char *const input =
	POD("ds-a", "DaemonSet", "agent", "u1")
	POD("ds-b", "DaemonSet", "agent", "u1")
	POD("ds-new", "DaemonSet", "agent", "u2")
	POD("rs-a", "ReplicaSet", "agent", "u1")
	"apiVersion: v1\nkind: Pod\n"
	"metadata: {name: bare, namespace: ops, labels: {app: x}}\n"
	"spec: {nodeName: n1}\n"
	"---\n"
	"apiVersion: v1\nkind: Pod\n"
	"metadata:\n  name: weak\n  namespace: ops\n"
	"  ownerReferences: [{apiVersion: v1, kind: Node, name: n1, uid: n,"
	" controller: false}]\n"
	"spec: {nodeName: n1}\n";

static void controller_ref(void **state)
{
	struct tgraph tg = tg_load(input, 0);
	struct kvet_controller_ref ref;

	(void)state;
	assert_true(kvet_workload_controller_ref(
		tg_wl(&tg, "", "Pod", "ops", "ds-a"), &ref));
	assert_true(kvet_slice_eq0(ref.kind, "DaemonSet"));
	assert_true(kvet_slice_eq0(ref.name, "agent"));
	assert_true(kvet_slice_eq0(ref.uid, "u1"));
	assert_true(kvet_slice_eq0(ref.api_version, "apps/v1"));
	assert_non_null(ref.node);
	/* a bare Pod, and one whose only owner is no controller */
	assert_false(kvet_workload_controller_ref(
		tg_wl(&tg, "", "Pod", "ops", "bare"), &ref));
	assert_false(kvet_workload_controller_ref(
		tg_wl(&tg, "", "Pod", "ops", "weak"), &ref));
	tg_free(&tg);
}

static void distinct(void **state)
{
	struct tgraph tg = tg_load(input, 0);
	const struct kvet_workload *v[6], *const *out;
	size_t n;

	(void)state;
	v[0] = tg_wl(&tg, "", "Pod", "ops", "ds-a");
	v[1] = tg_wl(&tg, "", "Pod", "ops", "bare");
	v[2] = tg_wl(&tg, "", "Pod", "ops", "ds-b");
	v[3] = tg_wl(&tg, "", "Pod", "ops", "ds-new");
	v[4] = tg_wl(&tg, "", "Pod", "ops", "rs-a");
	v[5] = tg_wl(&tg, "", "Pod", "ops", "weak");
	assert_int_equal(kvet_workloads_distinct(&tg.l->arena, v, 6, &out, &n),
			 0);
	/* ds-b is ds-a's DaemonSet; another uid or kind is another one */
	assert_int_equal(n, 5);
	assert_ptr_equal(out[0], v[0]);
	assert_ptr_equal(out[1], v[1]);
	assert_ptr_equal(out[2], v[3]);
	assert_ptr_equal(out[3], v[4]);
	assert_ptr_equal(out[4], v[5]);
	/* without orphans the list is kept as it is */
	assert_int_equal(kvet_workloads_distinct(&tg.l->arena, v + 1, 1, &out,
						 &n), 0);
	assert_ptr_equal(out, v + 1);
	assert_int_equal(n, 1);
	assert_int_equal(kvet_workloads_distinct(&tg.l->arena, v, 0, &out, &n),
			 0);
	assert_int_equal(n, 0);
	tg_free(&tg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(controller_ref),
		cmocka_unit_test(distinct),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/* The pod properties of autoscaler-scale-down-blocker: safe-to-evict and
 * local storage. */
#include "tgraph.h"

#include "model/evict.h"

#define DEPLOY(name, annotations, spec)                                     \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: kube-system}\n"              \
	"spec:\n  selector: {matchLabels: {app: " name "}}\n"               \
	"  template:\n    metadata: {labels: {app: " name "},"              \
	" annotations: " annotations "}\n    spec: " spec "\n---\n"

#define SAFE "cluster-autoscaler.kubernetes.io/safe-to-evict"
#define LOCAL "cluster-autoscaler.kubernetes.io/safe-to-evict-local-volumes"

static const struct kvet_workload *wl(struct tgraph *t, const char *name)
{
	return tg_wl(t, "apps", "Deployment", "kube-system", name);
}

static void safe_to_evict(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("safe", "{" SAFE ": \"true\"}", "{}")
		DEPLOY("unsafe", "{" SAFE ": \"false\"}", "{}")
		DEPLOY("unquoted", "{" SAFE ": true}", "{}")
		DEPLOY("none", "{}", "{}"),
		0);
	const struct kvet_node *n;

	(void)state;
	assert_int_equal(kvet_workload_safe_to_evict(wl(&t, "safe"), &n),
			 KVET_EVICT_TRUE);
	assert_non_null(n);
	assert_int_equal(n->line, 7);
	assert_int_equal(kvet_workload_safe_to_evict(wl(&t, "unsafe"), NULL),
			 KVET_EVICT_FALSE);
	/* an unquoted true is a boolean: the API server rejects the map of
	 * strings, and the autoscaler never sees "true" */
	assert_int_equal(kvet_workload_safe_to_evict(wl(&t, "unquoted"), &n),
			 KVET_EVICT_UNSET);
	assert_non_null(n);
	assert_int_equal(kvet_workload_safe_to_evict(wl(&t, "none"), &n),
			 KVET_EVICT_UNSET);
	assert_null(n);
	tg_free(&t);
}

static void local_volumes(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("vols", "{" LOCAL ": \"cache,data\"}",
		       "{volumes: [{name: host, hostPath: {path: /var}},"
		       " {name: cache, emptyDir: {}}, {name: tmp, emptyDir: null},"
		       " {name: mem, emptyDir: {medium: Memory}},"
		       " {name: cfg, configMap: {name: x}},"
		       " {name: data, hostPath: {path: /data}}]}")
		DEPLOY("none", "{}", "{volumes: [{name: cfg, secret: {secretName: s}}]}"),
		0);
	struct kvet_local_volumes lv;

	(void)state;
	assert_int_equal(kvet_workload_blocking_volumes(&t.l->arena,
							wl(&t, "vols"), &lv), 0);
	assert_int_equal(lv.n, 2);
	assert_true(kvet_slice_eq0(lv.v[0].name, "host"));
	assert_true(lv.v[0].host_path);
	assert_true(kvet_slice_eq0(lv.v[1].name, "tmp"));
	assert_false(lv.v[1].host_path);
	assert_non_null(lv.v[1].node);
	assert_int_equal(kvet_workload_blocking_volumes(&t.l->arena,
							wl(&t, "none"), &lv), 0);
	assert_int_equal(lv.n, 0);
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(safe_to_evict),
		cmocka_unit_test(local_volumes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Replica counts and HPA targeting (docs/model.md 1.4), and PDBs read
 * from YAML and evaluated over the workloads they select (1.9, with its
 * edge cases).
 */
#include "tgraph.h"

#include "model/pdb.h"

#define DEPLOY(name, extra)                                                 \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: ops}\n"                      \
	"spec:\n" extra "  selector: {matchLabels: {app: " name "}}\n"      \
	"  template: {metadata: {labels: {app: " name "}}}\n---\n"

#define HPA(version, target_api, target, min, max)                         \
	"apiVersion: autoscaling/" version "\n"                             \
	"kind: HorizontalPodAutoscaler\n"                                   \
	"metadata: {name: h-" target ", namespace: ops}\n"                  \
	"spec:\n  scaleTargetRef: {apiVersion: " target_api ", kind: Deployment," \
	" name: " target "}\n" min max "---\n"

static void spec_replicas(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("unset", "")
		DEPLOY("three", "  replicas: 3\n")
		DEPLOY("zero", "  replicas: 0\n")
		DEPLOY("typo", "  replicas: \"two\"\n"),
		0);
	const struct kvet_workload *wl;

	(void)state;
	wl = tg_wl(&t, "apps", "Deployment", "ops", "unset");
	assert_int_equal(wl->replicas.state, KVET_REPLICAS_KNOWN);
	assert_int_equal(wl->replicas.spec, 1);
	assert_int_equal(wl->replicas.min, 1);
	assert_int_equal(wl->replicas.max, 1);
	assert_null(wl->replicas.spec_node);
	assert_null(wl->replicas.hpa);
	wl = tg_wl(&t, "apps", "Deployment", "ops", "three");
	assert_int_equal(wl->replicas.spec, 3);
	assert_int_equal(wl->replicas.min, 3);
	assert_int_equal(wl->replicas.max, 3);
	assert_non_null(wl->replicas.spec_node);
	wl = tg_wl(&t, "apps", "Deployment", "ops", "zero");
	assert_int_equal(wl->replicas.min, 0);
	/* a wrong type is reported elsewhere and counts as absent */
	wl = tg_wl(&t, "apps", "Deployment", "ops", "typo");
	assert_int_equal(wl->replicas.spec, 1);
	assert_non_null(wl->replicas.spec_node);
	tg_free(&t);
}

static void hpa_min_and_max(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("a", "  replicas: 1\n")
		DEPLOY("b", "")
		DEPLOY("c", "  replicas: 4\n")
		DEPLOY("d", "")
		DEPLOY("e", "")
		HPA("v2", "apps/v1", "a", "  minReplicas: 2\n",
		    "  maxReplicas: 5\n")
		/* no minReplicas: 1 */
		HPA("v1", "apps/v1", "b", "", "  maxReplicas: 4\n")
		HPA("v2beta2", "apps/v1", "c", "  minReplicas: 3\n",
		    "  maxReplicas: 6\n")
		/* the API group must match: core has no Deployment */
		HPA("v2", "v1", "d", "  minReplicas: 3\n", "  maxReplicas: 6\n")
		HPA("v2beta1", "apps/v1", "e", "  minReplicas: 2\n",
		    "  maxReplicas: 2\n")
		"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
		"metadata: {name: h-e-again, namespace: ops}\n"
		"spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment,"
		" name: e}\n  minReplicas: 7\n  maxReplicas: 9\n",
		0);
	const struct kvet_workload *wl;
	unsigned int count;
	size_t n;

	(void)state;
	wl = tg_wl(&t, "apps", "Deployment", "ops", "a");
	assert_non_null(wl->replicas.hpa);
	assert_int_equal(wl->replicas.spec, 1);
	assert_int_equal(wl->replicas.min, 2);
	assert_int_equal(wl->replicas.max, 5);
	wl = tg_wl(&t, "apps", "Deployment", "ops", "b");
	assert_int_equal(wl->replicas.min, 1);
	assert_int_equal(wl->replicas.max, 4);
	assert_null(wl->replicas.hpa->min_node);
	wl = tg_wl(&t, "apps", "Deployment", "ops", "c");
	assert_int_equal(wl->replicas.spec, 4);
	assert_int_equal(wl->replicas.min, 3);
	assert_int_equal(wl->replicas.max, 6);
	wl = tg_wl(&t, "apps", "Deployment", "ops", "d");
	assert_null(wl->replicas.hpa);
	assert_int_equal(wl->replicas.min, 1);
	assert_int_equal(wl->replicas.max, 1);
	/* two HPAs: the first counts, the number is kept */
	wl = tg_wl(&t, "apps", "Deployment", "ops", "e");
	assert_int_equal(wl->replicas.n_hpas, 2);
	assert_int_equal(wl->replicas.min, 2);
	assert_non_null(kvet_graph_hpa_for(t.g, "apps", "Deployment", "ops",
					   "e", &count));
	assert_int_equal(count, 2);
	assert_null(kvet_graph_hpa_for(t.g, "apps", "Deployment", "dev", "e",
				       &count));
	assert_int_equal(count, 0);
	assert_non_null(kvet_graph_hpa_for(t.g, "", "Deployment", "ops", "d",
					   NULL));
	kvet_graph_hpas(t.g, &n);
	assert_int_equal(n, 6);
	tg_free(&t);
}

#define SCALED(name, target, extra)                                          \
	"apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\n"              \
	"metadata: {name: " name ", namespace: ops}\n"                     \
	"spec:\n  scaleTargetRef: " target "\n" extra "---\n"

/* 1.4: a KEDA ScaledObject scales its target like an HPA. */
static void keda_scaled_objects(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("a", "  replicas: 1\n")
		DEPLOY("b", "")
		DEPLOY("c", "")
		DEPLOY("d", "")
		"apiVersion: apps/v1\nkind: StatefulSet\n"
		"metadata: {name: s, namespace: ops}\n"
		"spec:\n  selector: {matchLabels: {app: s}}\n"
		"  template: {metadata: {labels: {app: s}}}\n---\n"
		/* kind and apiVersion default to Deployment, apps/v1 */
		SCALED("sa", "{name: a}", "  minReplicaCount: 2\n"
		       "  maxReplicaCount: 6\n")
		/* minReplicaCount 0 by default: 1 pod once active; max 100 */
		SCALED("sb", "{name: b}", "")
		SCALED("ss", "{apiVersion: apps/v1, kind: StatefulSet, name: s}",
		       "  minReplicaCount: 0\n  maxReplicaCount: 3\n")
		/* an HPA and a ScaledObject on c: the larger minimum holds */
		HPA("v2", "apps/v1", "c", "  minReplicas: 1\n",
		    "  maxReplicas: 4\n")
		SCALED("sc", "{name: c}", "  minReplicaCount: 3\n")
		/* a StatefulSet target does not scale Deployment d */
		SCALED("sd", "{kind: StatefulSet, name: d}", ""),
		0);
	const struct kvet_workload *wl;

	(void)state;
	wl = tg_wl(&t, "apps", "Deployment", "ops", "a");
	assert_true(wl->replicas.hpa && wl->replicas.hpa->keda);
	assert_int_equal(wl->replicas.min, 2);
	assert_int_equal(wl->replicas.max, 6);
	wl = tg_wl(&t, "apps", "Deployment", "ops", "b");
	assert_int_equal(wl->replicas.min, 1);
	assert_int_equal(wl->replicas.max, 100);
	wl = tg_wl(&t, "apps", "StatefulSet", "ops", "s");
	assert_int_equal(wl->replicas.min, 1);
	assert_int_equal(wl->replicas.max, 3);
	wl = tg_wl(&t, "apps", "Deployment", "ops", "c");
	assert_int_equal(wl->replicas.n_hpas, 2);
	assert_true(wl->replicas.hpa->keda);
	assert_int_equal(wl->replicas.min, 3);
	wl = tg_wl(&t, "apps", "Deployment", "ops", "d");
	assert_null(wl->replicas.hpa);
	assert_int_equal(wl->replicas.min, 1);
	tg_free(&t);
}

static void hpa_in_other_namespace_does_not_target(void **state)
{
	struct tgraph t = tg_load(
		DEPLOY("a", "")
		"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
		"metadata: {name: h, namespace: dev}\n"
		"spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment,"
		" name: a}\n  minReplicas: 3\n  maxReplicas: 4\n", 0);
	const struct kvet_workload *wl = tg_wl(&t, "apps", "Deployment", "ops",
					       "a");

	(void)state;
	assert_null(wl->replicas.hpa);
	assert_int_equal(wl->replicas.min, 1);
	tg_free(&t);
}

static const char daemonset[] =
	"apiVersion: apps/v1\nkind: DaemonSet\n"
	"metadata: {name: agent, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app: agent}}\n"
	"  template: {metadata: {labels: {app: agent, part-of: suite}}}\n"
	"status: {desiredNumberScheduled: 3, numberReady: 3}\n";

static void other_kinds(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: apps/v1\nkind: DaemonSet\n"
		"metadata: {name: agent, namespace: ops}\n"
		"spec:\n  selector: {matchLabels: {app: agent}}\n"
		"  template: {metadata: {labels: {app: agent}}}\n"
		"---\napiVersion: batch/v1\nkind: Job\n"
		"metadata: {name: j, namespace: ops}\n"
		"spec: {template: {metadata: {labels: {app: j}}}}\n"
		"---\napiVersion: v1\nkind: Pod\n"
		"metadata: {name: p, namespace: ops}\n", 0);
	const struct kvet_workload *wl;
	struct kvet_pdb_member m;

	(void)state;
	wl = tg_wl(&t, "apps", "DaemonSet", "ops", "agent");
	assert_int_equal(wl->replicas.state, KVET_REPLICAS_UNKNOWN);
	m = kvet_workload_pdb_member(wl);
	assert_int_equal(m.kind, KVET_PDB_UNSCALABLE);
	assert_true(m.n < 0);
	wl = tg_wl(&t, "batch", "Job", "ops", "j");
	assert_int_equal(wl->replicas.state, KVET_REPLICAS_EXCLUDED);
	assert_int_equal(kvet_workload_pdb_member(wl).kind,
			 KVET_PDB_UNSCALABLE);
	wl = tg_wl(&t, "", "Pod", "ops", "p");
	assert_int_equal(wl->replicas.state, KVET_REPLICAS_KNOWN);
	assert_int_equal(wl->replicas.min, 1);
	assert_int_equal(wl->replicas.max, 1);
	m = kvet_workload_pdb_member(wl);
	assert_int_equal(m.kind, KVET_PDB_BARE_POD);
	assert_int_equal(m.n, 1);
	tg_free(&t);

	/* a dump knows how many nodes run the DaemonSet */
	t = tg_load(daemonset, 0);
	wl = tg_wl(&t, "apps", "DaemonSet", "ops", "agent");
	assert_int_equal(wl->replicas.state, KVET_REPLICAS_KNOWN);
	assert_int_equal(wl->replicas.min, 3);
	assert_int_equal(kvet_workload_pdb_member(wl).n, 3);
	tg_free(&t);
}

struct members {
	struct kvet_pdb_member v[8];
	size_t n;
};

static int collect(void *data, const struct kvet_workload *wl)
{
	struct members *m = data;

	assert_true(m->n < 8);
	m->v[m->n++] = kvet_workload_pdb_member(wl);
	return 0;
}

/* Evaluate the first PodDisruptionBudget of @yaml over the workloads it
 * selects in its namespace. */
static struct kvet_pdb_result eval_pdb(const char *yaml)
{
	struct tgraph t = tg_load(yaml, 0);
	struct kvet_object *const *pdbs;
	struct kvet_pdb_result r;
	struct members m = { .n = 0 };
	struct kvet_pdb pdb;
	size_t n;

	pdbs = kvet_graph_kind(t.g, "policy", "PodDisruptionBudget", &n);
	assert_int_equal(n, 1);
	assert_int_equal(kvet_pdb_parse(&t.l->arena, pdbs[0], &pdb), 0);
	assert_int_equal(kvet_graph_select_workloads(t.g, pdbs[0]->namespace,
						     &pdb.selector, collect,
						     &m), 0);
	kvet_pdb_evaluate(&pdb.min_available, &pdb.max_unavailable, m.v, m.n,
			  &r);
	tg_free(&t);
	return r;
}

#define PDB(policy)                                                          \
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"                 \
	"metadata: {name: p, namespace: ops}\n"                              \
	"spec:\n" policy "  selector: {matchLabels: {app: mgr}}\n---\n"

static void pdb_rows_of_the_matrix(void **state)
{
	struct kvet_pdb_result r;

	(void)state;
	/* replicas absent, minAvailable: 1 -> pdb-blocks-single-replica */
	r = eval_pdb(DEPLOY("mgr", "") PDB("  minAvailable: 1\n"));
	assert_int_equal(r.status, KVET_PDB_OK);
	assert_int_equal(r.pods_total, 1);
	assert_int_equal(r.allowed, 0);
	/* pdb-blocks-single-replica fires: "50%" of 1 replica */
	r = eval_pdb(DEPLOY("mgr", "") PDB("  minAvailable: \"50%\"\n"));
	assert_int_equal(r.allowed, 0);
	/* (a) maxUnavailable: 1 */
	r = eval_pdb(DEPLOY("mgr", "") PDB("  maxUnavailable: 1\n"));
	assert_int_equal(r.allowed, 1);
	/* (b) replicas 2, minAvailable 1 */
	r = eval_pdb(DEPLOY("mgr", "  replicas: 2\n") PDB("  minAvailable: 1\n"));
	assert_int_equal(r.allowed, 1);
	/* (c) HPA minReplicas 2: ceil(50% x 2) = 1 */
	r = eval_pdb(DEPLOY("mgr", "")
		     HPA("v2", "apps/v1", "mgr", "  minReplicas: 2\n",
			 "  maxReplicas: 4\n")
		     PDB("  minAvailable: \"50%\"\n"));
	assert_int_equal(r.expected, 2);
	assert_int_equal(r.allowed, 1);
	/* HPA minReplicas 2 + replicas 1 + minAvailable 1: N_min = 2 */
	r = eval_pdb(DEPLOY("mgr", "  replicas: 1\n")
		     HPA("v2", "apps/v1", "mgr", "  minReplicas: 2\n",
			 "  maxReplicas: 4\n")
		     PDB("  minAvailable: 1\n"));
	assert_int_equal(r.allowed, 1);
	/* HPA without minReplicas: 1 */
	r = eval_pdb(DEPLOY("mgr", "")
		     HPA("v2", "apps/v1", "mgr", "", "  maxReplicas: 4\n")
		     PDB("  minAvailable: 1\n"));
	assert_int_equal(r.allowed, 0);
	/* "80%" with HPA minReplicas 1 */
	r = eval_pdb(DEPLOY("mgr", "")
		     HPA("v2", "apps/v1", "mgr", "  minReplicas: 1\n",
			 "  maxReplicas: 4\n")
		     PDB("  minAvailable: \"80%\"\n"));
	assert_int_equal(r.allowed, 0);
	/* (d) maxUnavailable "10%" */
	r = eval_pdb(DEPLOY("mgr", "") PDB("  maxUnavailable: \"10%\"\n"));
	assert_int_equal(r.allowed, 1);
	/* pdb-zero-disruptions: "67%" of 3 vs "66%" */
	r = eval_pdb(DEPLOY("mgr", "  replicas: 3\n")
		     PDB("  minAvailable: \"67%\"\n"));
	assert_int_equal(r.allowed, 0);
	r = eval_pdb(DEPLOY("mgr", "  replicas: 3\n")
		     PDB("  minAvailable: \"66%\"\n"));
	assert_int_equal(r.allowed, 1);
	/* pdb-no-policy and pdb-invalid-spec */
	r = eval_pdb(DEPLOY("mgr", "") PDB(""));
	assert_int_equal(r.status, KVET_PDB_NO_POLICY);
	r = eval_pdb(DEPLOY("mgr", "") PDB("  minAvailable: \"1\"\n"));
	assert_int_equal(r.status, KVET_PDB_INVALID_VALUE);
	r = eval_pdb(DEPLOY("mgr", "")
		     PDB("  minAvailable: 1\n  maxUnavailable: 1\n"));
	assert_int_equal(r.status, KVET_PDB_INVALID_BOTH_SET);
	r = eval_pdb(DEPLOY("mgr", "") PDB("  minAvailable: \"100%\"\n"));
	assert_int_equal(r.status, KVET_PDB_OK);
}

static void pdb_empty_selector_with_daemonset(void **state)
{
	struct kvet_pdb_result r;

	(void)state;
	/* selector {} in a namespace with a DaemonSet: the sync fails */
	r = eval_pdb(DEPLOY("mgr", "  replicas: 3\n")
		     "apiVersion: apps/v1\nkind: DaemonSet\n"
		     "metadata: {name: agent, namespace: ops}\n"
		     "spec:\n  selector: {matchLabels: {app: agent}}\n"
		     "  template: {metadata: {labels: {app: agent}}}\n---\n"
		     "apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
		     "metadata: {name: p, namespace: ops}\n"
		     "spec:\n  maxUnavailable: 1\n  selector: {}\n");
	assert_int_equal(r.status, KVET_PDB_SYNC_FAILS);
	assert_int_equal(r.allowed, 0);
	/* the same budget in policy/v1beta1: {} selects nothing */
	r = eval_pdb(DEPLOY("mgr", "  replicas: 3\n")
		     "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n"
		     "metadata: {name: p, namespace: ops}\n"
		     "spec:\n  maxUnavailable: 1\n  selector: {}\n");
	assert_int_equal(r.status, KVET_PDB_OK);
	assert_int_equal(r.pods_total, 0);
	assert_int_equal(r.allowed, 0);
}

static void pdb_parse_fields(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\n"
		"metadata: {name: p, namespace: ops}\n"
		"spec:\n  maxUnavailable: 25%\n"
		"  unhealthyPodEvictionPolicy: AlwaysAllow\n", 0);
	struct kvet_object *const *v;
	struct kvet_pdb pdb;
	size_t n;

	(void)state;
	v = kvet_graph_kind(t.g, "policy", "PodDisruptionBudget", &n);
	assert_int_equal(kvet_pdb_parse(&t.l->arena, v[0], &pdb), 0);
	assert_true(pdb.v1beta1);
	assert_int_equal(pdb.min_available.type, KVET_INTSTR_ABSENT);
	assert_int_equal(pdb.max_unavailable.type, KVET_INTSTR_PERCENT);
	assert_int_equal(pdb.max_unavailable.value, 25);
	assert_int_equal(pdb.max_unavailable.node->line, 5);
	assert_non_null(pdb.unhealthy_policy);
	assert_int_equal(pdb.selector.form, KVET_SEL_FORM_ABSENT);
	assert_int_equal(pdb.selector.meaning, KVET_SEL_NOTHING);
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spec_replicas),
		cmocka_unit_test(hpa_min_and_max),
		cmocka_unit_test(keda_scaled_objects),
		cmocka_unit_test(hpa_in_other_namespace_does_not_target),
		cmocka_unit_test(other_kinds),
		cmocka_unit_test(pdb_rows_of_the_matrix),
		cmocka_unit_test(pdb_empty_selector_with_daemonset),
		cmocka_unit_test(pdb_parse_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

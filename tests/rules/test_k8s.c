/* SPDX-License-Identifier: Apache-2.0 */
/* The Kubernetes functions of CEL, over a real graph. */
#include "tcel.h"
#include "tgraph.h"

static const char *const input =
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app: web}}\n"
	"  template: {metadata: {labels: {app: web, tier: fe}}}\n"
	"---\n"
	"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n"
	"  minReplicas: 2\n  maxReplicas: 5\n"
	"---\n"
	"apiVersion: apps/v1\nkind: StatefulSet\n"
	"metadata: {name: db, namespace: ops}\n"
	"spec:\n  replicas: 3\n  selector: {matchLabels: {app: db}}\n"
	"  template: {metadata: {labels: {app: db}}}\n"
	"---\n"
	"apiVersion: apps/v1\nkind: DaemonSet\n"
	"metadata: {name: agent, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app: agent}}\n"
	"  template: {metadata: {labels: {app: agent}}}\n"
	"---\n"
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec:\n  minAvailable: \"50%\"\n  selector: {matchLabels: {app: web}}\n"
	"---\n"
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: db, namespace: ops}\n"
	"spec:\n  minAvailable: 3\n  selector: {matchLabels: {app: db}}\n"
	"---\n"
	"apiVersion: v1\nkind: Service\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec:\n  selector: {app: web}\n";

struct fixture {
	struct tgraph tg;
	struct tcel *t;
};

static struct fixture *setup(void)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->tg = tg_load(input, 0);
	f->t = tcel_new();
	tcel_attach(f->t, &f->tg.l->arena, f->tg.g);
	return f;
}

static void teardown(struct fixture *f)
{
	tcel_free(f->t);
	tg_free(&f->tg);
	free(f);
}

static void bind(struct fixture *f, const char *group, const char *kind,
		 const char *name)
{
	const struct kvet_object *obj = kvet_graph_find(f->tg.g, group, kind,
							"ops", name);

	assert_non_null(obj);
	f->t->vars[0] = kvet_cel_from_object(obj);
}

static void replicas(void **state)
{
	struct fixture *f = setup();

	(void)state;
	bind(f, "apps", "Deployment", "web");
	assert_cel_true(f->t, "minReplicas(object) == 2 && maxReplicas(object) == 5");
	assert_cel_true(f->t, "specReplicas(object) == 1 && hpaFor(object).metadata.name == \"web\"");
	assert_cel_true(f->t, "isWorkload(object) && isScalable(object)");
	assert_cel_true(f->t, "templateLabels(object).tier == \"fe\" && namespaceOf(object) == \"ops\"");
	bind(f, "apps", "DaemonSet", "agent");
	assert_cel_error(f->t, "minReplicas(object) >= 2", "unknown");
	assert_cel_true(f->t, "hpaFor(object) == null && !isScalable(object)");
	teardown(f);
}

static void pdbs(void **state)
{
	struct fixture *f = setup();

	(void)state;
	bind(f, "policy", "PodDisruptionBudget", "web");
	assert_cel_true(f->t, "size(workloadsSelectedBy(object)) == 1");
	assert_cel_true(f->t, "workloadsSelectedBy(object)[0].metadata.name == \"web\"");
	/* N_min = 2: ceil(50% of 2) = 1, so 1 allowed */
	assert_cel_true(f->t, "podsTotal(object) == 2 && desiredHealthy(object) == 1");
	assert_cel_true(f->t, "allowedDisruptions(object) == 1 && pdbStatus(object) == \"ok\"");
	assert_cel_true(f->t, "allowedDisruptionsAt(object, 1) == 0 && allowedDisruptionsAt(object, 4) == 2");
	bind(f, "policy", "PodDisruptionBudget", "db");
	assert_cel_true(f->t, "allowedDisruptions(object) == 0 && expectedPods(object) == 3");
	bind(f, "apps", "StatefulSet", "db");
	assert_cel_true(f->t, "pdbsCovering(object).map(p, p.metadata.name) == [\"db\"]");
	bind(f, "apps", "DaemonSet", "agent");
	assert_cel_true(f->t, "size(pdbsCovering(object)) == 0");
	assert_cel_error(f->t, "allowedDisruptions(object) == 0", "needs a PodDisruptionBudget");
	teardown(f);
}

static void services_and_input(void **state)
{
	struct fixture *f = setup();

	(void)state;
	bind(f, "", "Service", "web");
	assert_cel_true(f->t, "workloadsSelectedBy(object).map(w, w.metadata.name) == [\"web\"]");
	assert_cel_true(f->t, "objects(\"Deployment\").exists(d, selects(object, d))");
	assert_cel_true(f->t, "size(objects(\"policy/PodDisruptionBudget\", \"ops\")) == 2");
	assert_cel_true(f->t, "size(objects(\"Deployment\", \"other\")) == 0");
	assert_cel_error(f->t, "size(objects(\"Widget\")) == 0", "group");
	assert_cel_true(f->t, "namespaceCovered(\"ops\") && !namespaceCovered(\"nope\")");
	assert_cel_true(f->t, "!dumpMode() && !completeInput() && !operatorPopulated(\"ops\")");
	assert_cel_true(f->t, "workloadOf(object) == null");
	teardown(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replicas),
		cmocka_unit_test(pdbs),
		cmocka_unit_test(services_and_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

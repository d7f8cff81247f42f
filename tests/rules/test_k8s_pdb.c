/* SPDX-License-Identifier: Apache-2.0 */
/* The PDB, HPA, overlap and Service functions of CEL (kvet.pdb,
 * src/rules/bind_pdb.c), over a real graph. */
#include "tk8s.h"

#include "tpdb.h"

static struct fixture *setup(void)
{
	char *input = tpdb_input();
	struct fixture *f;

	assert_non_null(input);
	f = tk8s_load(input);
	free(input);
	return f;
}

#define PDB(f, name) tk8s_bind(f, "policy", "PodDisruptionBudget", "ops", name)

static void spec_problems(void **state)
{
	struct fixture *f = setup();
	struct cel_value v, field;

	(void)state;
	PDB(f, "bad");
	assert_cel_true(f->t, "size(pdbSpecProblems(object)) == 4");
	assert_cel_true(f->t, "pdbSpecProblems(object)[0].message == "
			"'minAvailable \"1\" and maxUnavailable -1 are both set: the API server accepts only one'");
	assert_cel_true(f->t, "pdbSpecProblems(object)[1].message.startsWith("
			"'minAvailable \"1\" is a string without %, not an integer: write 1 unquoted')");
	assert_cel_true(f->t, "pdbSpecProblems(object)[2].message == 'maxUnavailable -1 is negative'");
	assert_cel_true(f->t, "pdbSpecProblems(object)[3].message.contains('operator \"in\"')");
	/* each problem is positioned at its field's key, the selector's
	 * inside the selector */
	v = tcel_eval(f->t, "pdbSpecProblems(object)");
	assert_int_equal(v.type, CEL_LIST);
	assert_true(cel_map_get(&v.u.items[0], "field", 5, &field));
	assert_non_null(field.at);
	assert_true(kvet_node_eq(field.at, "maxUnavailable"));
	assert_true(cel_map_get(&v.u.items[1], "field", 5, &field));
	assert_true(kvet_node_eq(field.at, "minAvailable"));
	assert_true(cel_map_get(&v.u.items[3], "field", 5, &field));
	assert_non_null(field.at);
	assert_true(field.at->line > 0 && field.at->col > 20);
	PDB(f, "old");
	assert_cel_true(f->t, "pdbSpecProblems(object).map(p, p.message) == "
			"['apiVersion policy/v1beta1 is not served since Kubernetes 1.25: use policy/v1']");
	PDB(f, "suite");
	assert_cel_true(f->t, "size(pdbSpecProblems(object)) == 0");
	tk8s_bind(f, "apps", "Deployment", "ops", "alpha-mgr");
	assert_cel_error(f->t, "size(pdbSpecProblems(object)) == 0", "needs a PodDisruptionBudget");
	teardown(f);
}

static void selector_forms(void **state)
{
	struct fixture *f = setup();

	(void)state;
	PDB(f, "nosel");
	assert_cel_true(f->t, "pdbSelectorForm(object) == 'absent' && selectorText(object) == 'null'");
	assert_cel_false(f->t, "pdbUsesScale(object)");
	PDB(f, "empty");
	assert_cel_true(f->t, "pdbSelectorForm(object) == 'empty' && selectorText(object) == '{}'");
	assert_cel_true(f->t, "pdbUsesScale(object)");
	PDB(f, "bad");
	assert_cel_true(f->t, "pdbSelectorForm(object) == 'invalid'");
	assert_cel_true(f->t, "selectorText(object).startsWith('(invalid: ')");
	PDB(f, "typo");
	assert_cel_true(f->t, "pdbSelectorForm(object) == 'requirements' && pdbUsesScale(object)");
	assert_cel_true(f->t, "selectorText(object) == "
			"'app.kubernetes.io/part-of=suite,app.kubernetes.io/component in (ctrl,manger)'");
	tk8s_bind(f, "", "Service", "ops", "alpha-webhook");
	assert_cel_true(f->t, "selectorText(object) == "
			"'app.kubernetes.io/part-of=suite,app.kubernetes.io/component=manager'");
	tk8s_bind(f, "apps", "Deployment", "ops", "alpha-mgr");
	assert_cel_true(f->t, "selectorText(object) == 'app.kubernetes.io/instance=alpha'");
	tk8s_bind(f, "batch", "Job", "ops", "migrate-1");
	assert_cel_true(f->t, "selectorText(object).startsWith('batch.kubernetes.io/controller-uid=')");
	teardown(f);
}

static void owners(void **state)
{
	struct fixture *f = setup();

	(void)state;
	PDB(f, "suite");
	assert_cel_true(f->t, "workloadsSelectedBy(object).map(w, w.metadata.name + '=' + pdbOwnerKind(w)) == "
			"['alpha-mgr=scalable', 'beta-mgr=scalable', 'agent=unscalable']");
	tk8s_bind(f, "", "Pod", "ops", "debug");
	assert_cel_true(f->t, "pdbOwnerKind(object) == 'bare-pod'");
	tk8s_bind(f, "batch", "Job", "ops", "migrate-1");
	assert_cel_true(f->t, "pdbOwnerKind(object) == 'unscalable'");
	tk8s_bind(f, "", "Service", "ops", "plain");
	assert_cel_error(f->t, "pdbOwnerKind(object) == ''", "not a workload");
	teardown(f);
}

static void misses(void **state)
{
	struct fixture *f = setup();

	(void)state;
	PDB(f, "web");
	assert_cel_true(f->t, "size(workloadsSelectedBy(object)) == 0");
	assert_cel_true(f->t, "workloadsSelectedElsewhere(object).map(w, namespaceOf(w) + '/' + w.metadata.name) == ['staging/web']");
	assert_cel_true(f->t, "size(nearMisses(object)) == 0");
	PDB(f, "typo");
	assert_cel_true(f->t, "size(workloadsSelectedElsewhere(object)) == 0");
	/* the DaemonSet lacks the component key: it fails that requirement
	 * too, and the managers fail only that one */
	assert_cel_true(f->t, "nearMisses(object).map(w, w.metadata.name) == ['alpha-mgr', 'beta-mgr', 'agent']");
	assert_cel_true(f->t, "nearMisses(object).map(w, unmetRequirement(object, w)) == ["
			"'app.kubernetes.io/component in (ctrl,manger), its pods have app.kubernetes.io/component=manager', "
			"'app.kubernetes.io/component in (ctrl,manger), its pods have app.kubernetes.io/component=manager', "
			"'app.kubernetes.io/component in (ctrl,manger), its pods lack app.kubernetes.io/component']");
	/* one requirement: the workloads whose value looks like a typo */
	PDB(f, "one");
	assert_cel_true(f->t, "nearMisses(object).map(w, w.metadata.name) == ['agent']");
	assert_cel_true(f->t, "unmetRequirement(object, nearMisses(object)[0]) == 'app=agnt, its pods have app=agent'");
	PDB(f, "suite");
	assert_cel_true(f->t, "size(nearMisses(object)) == 0");
	assert_cel_true(f->t, "workloadsSelectedBy(object).all(w, unmetRequirement(object, w) == '')");
	PDB(f, "empty");
	assert_cel_true(f->t, "size(workloadsSelectedElsewhere(object)) == 0 && size(nearMisses(object)) == 0");
	teardown(f);
}

static void hpas(void **state)
{
	struct fixture *f = setup();

	(void)state;
	tk8s_bind(f, "autoscaling", "HorizontalPodAutoscaler", "ops", "alpha");
	assert_cel_true(f->t, "scaleTargetOf(object).metadata.name == 'alpha-mgr' && !targetHasNoScale(object)");
	tk8s_bind(f, "autoscaling", "HorizontalPodAutoscaler", "ops", "agent");
	assert_cel_true(f->t, "scaleTargetOf(object).kind == 'DaemonSet' && targetHasNoScale(object)");
	/* the API group counts: extensions is not apps */
	tk8s_bind(f, "autoscaling", "HorizontalPodAutoscaler", "ops", "ghost");
	assert_cel_true(f->t, "scaleTargetOf(object) == null && !targetHasNoScale(object)");
	assert_cel_true(f->t, "namespaceCoveredBesides(object)");
	tk8s_bind(f, "autoscaling", "HorizontalPodAutoscaler", "lonely", "lonely");
	assert_cel_true(f->t, "scaleTargetOf(object) == null && namespaceCovered('lonely')");
	assert_cel_false(f->t, "namespaceCoveredBesides(object)");
	assert_cel_true(f->t, "livePods('ops') == 0 && livePods('nowhere') == 0");
	PDB(f, "suite");
	assert_cel_error(f->t, "scaleTargetOf(object) == null", "HorizontalPodAutoscaler");
	teardown(f);
}

static void overlaps(void **state)
{
	struct fixture *f = setup();

	(void)state;
	tk8s_bind(f, "apps", "Deployment", "ops", "alpha-mgr");
	assert_cel_true(f->t, "overlappingWorkloads(object).map(w, w.metadata.name) == ['beta-mgr']");
	assert_cel_true(f->t, "overlappingWorkloads(object).all(w, !selectsPodsOf(object, w) && selectsPodsOf(w, object))");
	tk8s_bind(f, "apps", "Deployment", "ops", "beta-mgr");
	assert_cel_true(f->t, "overlappingWorkloads(object).map(w, w.metadata.name) == ['alpha-mgr']");
	assert_cel_false(f->t, "selectsPodsOf(object, object)");
	/* generated Job selectors select only their own pods */
	tk8s_bind(f, "batch", "Job", "ops", "migrate-1");
	assert_cel_true(f->t, "size(overlappingWorkloads(object)) == 0");
	tk8s_bind(f, "apps", "Deployment", "staging", "web");
	assert_cel_true(f->t, "size(overlappingWorkloads(object)) == 0");
	teardown(f);
}

static void webhook_services(void **state)
{
	struct fixture *f = setup();

	(void)state;
	tk8s_bind(f, "", "Service", "ops", "alpha-webhook");
	/* two entries of one configuration: the configuration once */
	assert_cel_true(f->t, "webhooksUsing(object).map(o, o.kind + '/' + o.metadata.name) == "
			"['ValidatingWebhookConfiguration/alpha-validator']");
	tk8s_bind(f, "", "Service", "ops", "metrics");
	assert_cel_true(f->t, "webhooksUsing(object).map(o, o.kind) == ['APIService']");
	tk8s_bind(f, "", "Service", "ops", "plain");
	assert_cel_true(f->t, "size(webhooksUsing(object)) == 0");
	PDB(f, "suite");
	assert_cel_error(f->t, "size(webhooksUsing(object)) == 0", "needs a Service");
	teardown(f);
}

/* Outside a run the functions say so instead of crashing. */
static void no_graph(void **state)
{
	struct fixture *f = setup();

	(void)state;
	PDB(f, "typo");
	tcel_attach(f->t, NULL, NULL);
	assert_cel_error(f->t, "size(nearMisses(object)) == 0", "object graph");
	assert_cel_error(f->t, "livePods('ops') == 0", "object graph");
	teardown(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(spec_problems),
		cmocka_unit_test(selector_forms),
		cmocka_unit_test(owners),
		cmocka_unit_test(misses),
		cmocka_unit_test(hpas),
		cmocka_unit_test(overlaps),
		cmocka_unit_test(webhook_services),
		cmocka_unit_test(no_graph),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

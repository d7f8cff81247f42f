/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Kubernetes functions of CEL for managers, leader election,
 * priority, lease RBAC and eviction (kvet.roles, src/rules/bind_roles.c),
 * over a real graph.
 */
#include "tk8s.h"

#include "troles.h"

static struct fixture *setup(void)
{
	return tk8s_load(input);
}


/* The line `at` points to for @expr. */
static unsigned int at_line(struct fixture *f, const char *expr)
{
	struct cel_value v = tcel_eval(f->t, expr);

	if (v.type == CEL_ERROR)
		fail_msg("%s: %s", expr, v.u.s);
	return v.at ? v.at->line : 0;
}

/* The 1-based line of the first occurrence of @text in the input. */
static unsigned int line_of(const char *text)
{
	const char *p = strstr(input, text), *q;
	unsigned int line = 1;

	assert_non_null(p);
	for (q = input; q < p; q++)
		line += *q == '\n';
	return line;
}

static void managers(void **state)
{
	struct fixture *f = setup();

	(void)state;
	tk8s_bind(f, "apps", "Deployment", "ops", "hook");
	assert_cel_true(f->t, "isManager(object) && managerCriteria(object) == [\"M1\"]");
	assert_cel_true(f->t, "managerWhy(object) == \"M1: it serves webhook ValidatingWebhookConfiguration/alpha-validator#validate.example.com through Service ops/alpha-webhook (and more)\"");
	/* two entries of one configuration: one related object */
	assert_cel_true(f->t, "webhooksServedBy(object).map(o, o.metadata.name) == [\"alpha-validator\"]");
	tk8s_bind(f, "apps", "Deployment", "ops", "ctl");
	assert_cel_true(f->t, "managerCriteria(object) == [\"M2\", \"M3\", \"M4\"]");
	assert_cel_true(f->t, "managerReasons(object)[0] == \"M2: leader election off (--leader-elect=false in container \\\"manager\\\")\"");
	assert_cel_true(f->t, "managerReasons(object)[1] == \"M3: label control-plane=controller-manager\"");
	assert_cel_true(f->t, "managerReasons(object)[2] == \"M4: a container is named \\\"manager\\\"\"");
	/* each reason points at its evidence: args, label, container name */
	assert_int_equal(at_line(f, "managerReasons(object)[0]"), line_of("args: [--metrics"));
	assert_int_equal(at_line(f, "managerReasons(object)[1]"), line_of("labels: {app: ctl,"));
	assert_int_equal(at_line(f, "managerReasons(object)[2]"), line_of("- name: manager"));
	assert_int_equal(at_line(f, "managerWhy(object)"), line_of("args: [--metrics"));
	assert_cel_true(f->t, "size(webhooksServedBy(object)) == 0");
	/* leader election ON from a ConfigMap is M2, but db is no M1/M3/M4 */
	tk8s_bind(f, "apps", "StatefulSet", "ops", "db");
	assert_cel_true(f->t, "managerCriteria(object) == [\"M2\"]");
	tk8s_bind(f, "", "Pod", "ops", "debug");
	assert_cel_false(f->t, "isManager(object)");
	assert_cel_true(f->t, "managerWhy(object) == \"\" && size(managerReasons(object)) == 0");
	tk8s_bind(f, "", "Service", "ops", "alpha-webhook");
	assert_cel_error(f->t, "isManager(object)", "is not a workload");
	teardown(f);
}

static void leader_election(void **state)
{
	struct fixture *f = setup();

	(void)state;
	tk8s_bind(f, "apps", "Deployment", "ops", "ctl");
	assert_cel_true(f->t, "leaderElection(object).state == \"off\" && leaderElection(object).source == \"flag\"");
	assert_cel_true(f->t, "leaderElection(object).evidence == \"--leader-elect=false\"");
	assert_cel_true(f->t, "leaderElection(object).container == \"manager\"");
	assert_cel_true(f->t, "leaderElection(object).leaseNamespace == \"kube-system\"");
	assert_int_equal(at_line(f, "leaderElection(object).evidence"), line_of("args: [--metrics"));
	/* the 1.13 note: a bool flag takes its value only after "=" */
	tk8s_bind(f, "apps", "Deployment", "ops", "web");
	assert_cel_true(f->t, "leaderElection(object).state == \"on\" && leaderElection(object).evidence == \"--leader-elect\"");
	assert_cel_true(f->t, "leaderElection(object).leaseNamespace == \"ops\"");
	tk8s_bind(f, "apps", "StatefulSet", "ops", "db");
	assert_cel_true(f->t, "leaderElection(object).state == \"on\" && leaderElection(object).source == \"config\"");
	assert_cel_true(f->t, "leaderElection(object).configMap.metadata.name == \"cfg\"");
	assert_cel_true(f->t, "leaderElection(object).text.contains(\"key \\\"config.yaml\\\" of ConfigMap \\\"cfg\\\"\")");
	/* the ConfigMap's text is elsewhere: point at the pod volume */
	assert_int_equal(at_line(f, "leaderElection(object).evidence"), line_of("volumes: [{name: c,"));
	tk8s_bind(f, "apps", "Deployment", "ops", "hook");
	assert_cel_true(f->t, "leaderElection(object).state == \"unknown\" && leaderElection(object).source == \"none\"");
	assert_cel_true(f->t, "leaderElection(object).configMap == null");
	teardown(f);
}

static void priority(void **state)
{
	struct fixture *f = setup();

	(void)state;
	tk8s_bind(f, "apps", "Deployment", "ops", "hook");
	assert_cel_true(f->t, "effectivePriority(object).known && effectivePriority(object).value == -20");
	assert_cel_true(f->t, "effectivePriority(object).source == \"class\" && effectivePriority(object).className == \"low\"");
	assert_cel_true(f->t, "effectivePriority(object).priorityClass.metadata.name == \"low\"");
	assert_cel_true(f->t, "effectivePriority(object).origin == \"priorityClassName \\\"low\\\": PriorityClass value -20\"");
	assert_int_equal(at_line(f, "effectivePriority(object).className"), line_of("priorityClassName: low"));
	/* no name: the lowest of two globalDefault classes */
	tk8s_bind(f, "apps", "Deployment", "ops", "ctl");
	assert_cel_true(f->t, "effectivePriority(object).value == 3 && effectivePriority(object).source == \"global-default\"");
	assert_cel_true(f->t, "effectivePriority(object).className == \"\"");
	tk8s_bind(f, "apps", "StatefulSet", "ops", "db");
	assert_cel_true(f->t, "effectivePriority(object).value == 2000001000 && effectivePriority(object).source == \"system\"");
	tk8s_bind(f, "apps", "Deployment", "ops", "web");
	assert_cel_true(f->t, "!effectivePriority(object).known && effectivePriority(object).value == null");
	assert_cel_true(f->t, "effectivePriority(object).source == \"missing\"");
	assert_cel_true(f->t, "priorityClassNamed(\"low\").value == -20 && priorityClassNamed(\"nowhere\") == null");
	assert_cel_true(f->t, "globalDefaultPriorityClasses().map(p, p.metadata.name) == [\"default-a\", \"default-b\"]");
	tk8s_bind(f, "apps", "StatefulSet", "ops", "db");
	assert_cel_true(f->t, "podSpec(object).priority == 7 && has(podSpec(object).priorityClassName)");
	tk8s_bind(f, "", "Pod", "ops", "debug");
	assert_cel_true(f->t, "podSpec(object).containers[0].name == \"sh\"");
	teardown(f);
}

static void lease_rbac(void **state)
{
	struct fixture *f = setup();

	(void)state;
	tk8s_bind(f, "apps", "Deployment", "ops", "ctl");
	assert_cel_true(f->t, "serviceAccountOf(object) == \"ctl\"");
	assert_cel_true(f->t, "leaseAccess(object).bound && leaseAccess(object).leaseNamespace == \"kube-system\"");
	assert_cel_true(f->t, "leaseAccess(object).granted == [\"get\", \"create\"] && leaseAccess(object).missing == [\"update\"]");
	assert_cel_true(f->t, "leaseAccess(object).grantedText == \"get and create\" && leaseAccess(object).missingText == \"update\"");
	assert_cel_true(f->t, "leaseAccess(object).binding.metadata.name == \"leases\" && leaseAccess(object).role.kind == \"Role\"");
	assert_cel_true(f->t, "leaseAccess(object).subjectBinding.kind == \"RoleBinding\"");
	/* no binding names the default account: RBAC out of scope */
	tk8s_bind(f, "apps", "Deployment", "ops", "web");
	assert_cel_true(f->t, "serviceAccountOf(object) == \"default\" && !leaseAccess(object).bound");
	assert_cel_true(f->t, "leaseAccess(object).missingText == \"get, create or update\"");
	assert_cel_true(f->t, "leaseAccess(object).binding == null && leaseAccess(object).subjectBinding == null");
	teardown(f);
}

static void eviction(void **state)
{
	struct fixture *f = setup();

	(void)state;
	tk8s_bind(f, "apps", "Deployment", "ops", "ctl");
	assert_cel_true(f->t, "safeToEvict(object) == \"false\"");
	assert_int_equal(at_line(f, "safeToEvict(object)"), line_of("annotations: {cluster"));
	assert_cel_true(f->t, "blockingLocalVolumes(object).map(v, v.name) == [\"cache\", \"host\"]");
	assert_cel_true(f->t, "blockingLocalVolumes(object).map(v, v.type) == [\"emptyDir\", \"hostPath\"]");
	assert_int_equal(at_line(f, "blockingLocalVolumes(object)[1]"), line_of("- {name: host"));
	assert_cel_false(f->t, "isBarePod(object)");
	tk8s_bind(f, "", "Pod", "ops", "debug");
	assert_cel_true(f->t, "isBarePod(object) && safeToEvict(object) == \"unset\"");
	assert_cel_true(f->t, "size(blockingLocalVolumes(object)) == 0");
	teardown(f);
}

/* M1 also covers APIServices and CRD conversion webhooks. */
static void other_backends(void **state)
{
	static const char *const text =
		"apiVersion: apiregistration.k8s.io/v1\nkind: APIService\n"
		"metadata: {name: v1beta1.metrics.k8s.io}\n"
		"spec: {group: metrics.k8s.io, version: v1beta1,"
		" service: {namespace: kube-system, name: metrics-server}}\n---\n"
		"apiVersion: v1\nkind: Service\n"
		"metadata: {name: metrics-server, namespace: kube-system}\n"
		"spec: {selector: {k8s-app: metrics-server}}\n---\n"
		"apiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: metrics-server, namespace: kube-system}\n"
		"spec: {selector: {matchLabels: {k8s-app: metrics-server}},"
		" template: {metadata: {labels: {k8s-app: metrics-server}}}}\n---\n"
		"apiVersion: apiextensions.k8s.io/v1\n"
		"kind: CustomResourceDefinition\n"
		"metadata: {name: widgets.example.com}\n"
		"spec:\n  group: example.com\n"
		"  names: {plural: widgets, kind: Widget}\n"
		"  conversion: {strategy: Webhook, webhook: {clientConfig:"
		" {service: {namespace: ops, name: conv}}}}\n---\n"
		"apiVersion: v1\nkind: Service\n"
		"metadata: {name: conv, namespace: ops}\n"
		"spec: {selector: {app: conv}}\n---\n"
		"apiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: conv, namespace: ops}\n"
		"spec: {selector: {matchLabels: {app: conv}},"
		" template: {metadata: {labels: {app: conv}}}}\n";
	struct fixture f = { tg_load(text, 0), tcel_new() };

	(void)state;
	tcel_attach(f.t, &f.tg.l->arena, f.tg.g);
	tk8s_bind(&f, "apps", "Deployment", "kube-system", "metrics-server");
	assert_cel_true(f.t, "managerCriteria(object) == [\"M1\"]");
	assert_cel_true(f.t, "managerWhy(object) == \"M1: it serves APIService v1beta1.metrics.k8s.io through Service kube-system/metrics-server\"");
	assert_cel_true(f.t, "webhooksServedBy(object)[0].kind == \"APIService\"");
	tk8s_bind(&f, "apps", "Deployment", "ops", "conv");
	assert_cel_true(f.t, "managerWhy(object) == \"M1: it serves the conversion webhook of CustomResourceDefinition widgets.example.com through Service ops/conv\"");
	assert_cel_true(f.t, "webhooksServedBy(object).map(o, o.metadata.name) == [\"widgets.example.com\"]");
	tcel_free(f.t);
	tg_free(&f.tg);
}

/* Outside a run the functions say so instead of crashing. */
static void no_graph(void **state)
{
	struct tcel *t = tcel_new();

	(void)state;
	assert_cel_error(t, "priorityClassNamed(\"x\") == null", "object graph");
	assert_cel_error(t, "size(globalDefaultPriorityClasses()) == 0", "object graph");
	assert_cel_error(t, "isManager({\"a\": 1})", "needs an object");
	tcel_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(managers),
		cmocka_unit_test(leader_election),
		cmocka_unit_test(priority),
		cmocka_unit_test(lease_rbac),
		cmocka_unit_test(eviction),
		cmocka_unit_test(other_backends),
		cmocka_unit_test(no_graph),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

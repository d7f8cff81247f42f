/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What selects what (model/service.c): the workloads of a Service or a
 * PodDisruptionBudget, the objects that call a Service, its endpoints,
 * the named ports its workloads declare; and kinds as rules name them
 * and whether the input shows them (model/kinds.c, model/graph.c).
 */
#include "tgraph.h"

#include "model/kinds.h"
#include "model/run.h"
#include "model/service.h"

static const char *const input =
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app: web}}\n"
	"  template: {metadata: {labels: {app: web}}}\n"
	"---\n"
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: web, namespace: dev}\n"
	"spec:\n  selector: {matchLabels: {app: web}}\n"
	"  template: {metadata: {labels: {app: web}}}\n"
	"---\n"
	"apiVersion: v1\nkind: Service\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec: {selector: {app: web}}\n"
	"---\n"
	"apiVersion: v1\nkind: Service\n"
	"metadata: {name: manual, namespace: ops}\n"
	"---\n"
	"apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\n"
	"metadata: {name: manual-1, namespace: ops,"
	" labels: {kubernetes.io/service-name: manual}}\n"
	"---\n"
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\n"
	"metadata: {name: web, namespace: ops}\n"
	"spec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\n"
	"---\n"
	"apiVersion: admissionregistration.k8s.io/v1\n"
	"kind: ValidatingWebhookConfiguration\n"
	"metadata: {name: v}\n"
	"webhooks:\n"
	"- {name: a.x.io, clientConfig: {service: {namespace: ops, name: web}}}\n"
	"- {name: b.x.io, clientConfig: {service: {namespace: ops, name: web}}}\n"
	"---\n"
	"apiVersion: apiregistration.k8s.io/v1\nkind: APIService\n"
	"metadata: {name: v1beta1.metrics.k8s.io}\n"
	"spec: {service: {namespace: ops, name: web}}\n";

static const struct kvet_object *find(const struct tgraph *tg,
				      const char *group, const char *kind,
				      const char *ns, const char *name)
{
	const struct kvet_object *obj = kvet_graph_find(tg->g, group, kind,
							ns, name);

	assert_non_null(obj);
	return obj;
}

static void selection(void **state)
{
	struct tgraph tg = tg_load(input, 0);
	struct kvet_run *run = kvet_run_create(&tg.l->arena, tg.g);
	const struct kvet_workload *const *wls;
	const struct kvet_object **objs;
	size_t n;

	(void)state;
	/* in its own namespace only */
	assert_int_equal(kvet_run_selected_by(run, &tg.l->arena,
					      find(&tg, "", "Service", "ops",
						   "web"), &wls, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(wls[0]->obj->namespace, "ops");
	assert_int_equal(kvet_run_selected_by(run, &tg.l->arena,
					      find(&tg, "policy",
						   "PodDisruptionBudget", "ops",
						   "web"), &wls, &n), 0);
	assert_int_equal(n, 1);
	/* no selector, nothing */
	assert_int_equal(kvet_run_selected_by(run, &tg.l->arena,
					      find(&tg, "", "Service", "ops",
						   "manual"), &wls, &n), 0);
	assert_int_equal(n, 0);
	/* a workload selects no workloads */
	assert_int_equal(kvet_run_selected_by(run, &tg.l->arena,
					      find(&tg, "apps", "Deployment",
						   "ops", "web"), &wls, &n),
			 -2);
	/* the callers: the configuration once, then the APIService */
	assert_int_equal(kvet_run_callers_of(run, &tg.l->arena,
					     find(&tg, "", "Service", "ops",
						  "web"), &objs, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(objs[0]->kind, "ValidatingWebhookConfiguration");
	assert_string_equal(objs[1]->kind, "APIService");
	assert_true(kvet_service_has_endpoints(tg.g, find(&tg, "", "Service",
							  "ops", "manual")));
	assert_false(kvet_service_has_endpoints(tg.g, find(&tg, "", "Service",
							   "ops", "web")));
	kvet_run_destroy(run);
	tg_free(&tg);
}

static void kinds(void **state)
{
	struct tgraph tg = tg_load(input, 0);
	const struct kvet_object **objs;
	size_t n;

	(void)state;
	assert_string_equal(kvet_kind_group("Deployment"), "apps");
	assert_string_equal(kvet_kind_group("Service"), "");
	assert_null(kvet_kind_group("Widget"));
	assert_int_equal(kvet_graph_objects_named(&tg.l->arena, tg.g,
						  "Deployment", NULL, &objs,
						  &n), 0);
	assert_int_equal(n, 2);
	assert_int_equal(kvet_graph_objects_named(&tg.l->arena, tg.g,
						  "apps/Deployment", "dev",
						  &objs, &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(objs[0]->namespace, "dev");
	assert_int_equal(kvet_graph_objects_named(&tg.l->arena, tg.g,
						  "discovery.k8s.io/EndpointSlice",
						  NULL, &objs, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(kvet_graph_objects_named(&tg.l->arena, tg.g,
						  "Widget", NULL, &objs, &n),
			 -2);
	tg_free(&tg);
}

/* Two workloads that declare port "metrics" (one as a sidecar), one
 * that declares it for UDP only, one that declares none. */
static const char *const ports =
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: api, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app: api}}\n"
	"  template:\n    metadata: {labels: {app: api}}\n"
	"    spec: {containers: [{name: a, ports: [{name: metrics,"
	" containerPort: 8443}]}]}\n"
	"---\n"
	"apiVersion: apps/v1\nkind: DaemonSet\n"
	"metadata: {name: agent, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app: agent}}\n"
	"  template:\n    metadata: {labels: {app: agent}}\n"
	"    spec:\n      containers: [{name: a}]\n"
	"      initContainers: [{name: s, restartPolicy: Always,"
	" ports: [{name: metrics, containerPort: 9100}]}]\n"
	"---\n"
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: dns, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app: dns}}\n"
	"  template:\n    metadata: {labels: {app: dns}}\n"
	"    spec: {containers: [{name: a, ports: [{name: metrics,"
	" containerPort: 53, protocol: UDP}]}]}\n"
	"---\n"
	"apiVersion: apps/v1\nkind: Deployment\n"
	"metadata: {name: plain, namespace: ops}\n"
	"spec:\n  selector: {matchLabels: {app: plain}}\n"
	"  template:\n    metadata: {labels: {app: plain}}\n"
	"    spec:\n      containers: [{name: a}]\n"
	"      initContainers: [{name: i, ports: [{name: metrics,"
	" containerPort: 1}]}]\n"
	"---\n"
	"apiVersion: v1\nkind: Service\n"
	"metadata: {name: named, namespace: ops}\n"
	"spec: {ports: [{port: 443, targetPort: metrics}]}\n"
	"---\n"
	"apiVersion: v1\nkind: Service\n"
	"metadata: {name: udp, namespace: ops}\n"
	"spec: {ports: [{port: 53, targetPort: metrics, protocol: UDP}]}\n"
	"---\n"
	"apiVersion: v1\nkind: Service\n"
	"metadata: {name: mixed, namespace: ops}\n"
	"spec: {ports: [{port: 443, targetPort: metrics}, {port: 80}]}\n"
	"---\n"
	"apiVersion: v1\nkind: Service\n"
	"metadata: {name: portless, namespace: ops}\n";

static void ports_declared(void **state)
{
	struct tgraph tg = tg_load(ports, 0);
	const struct kvet_workload *v[4];
	const struct kvet_object *named = find(&tg, "", "Service", "ops",
					       "named");

	(void)state;
	v[0] = tg_wl(&tg, "apps", "Deployment", "ops", "api");
	v[1] = tg_wl(&tg, "apps", "DaemonSet", "ops", "agent");
	v[2] = tg_wl(&tg, "apps", "Deployment", "ops", "dns");
	v[3] = tg_wl(&tg, "apps", "Deployment", "ops", "plain");
	/* a container's port and a sidecar's */
	assert_true(kvet_service_ports_declared_by(named, v, 2));
	/* TCP, the default, is not UDP; an init container that is no
	 * sidecar serves nothing */
	assert_false(kvet_service_ports_declared_by(named, v, 3));
	assert_false(kvet_service_ports_declared_by(named, v + 3, 1));
	assert_true(kvet_service_ports_declared_by(
		find(&tg, "", "Service", "ops", "udp"), v + 2, 1));
	assert_false(kvet_service_ports_declared_by(
		find(&tg, "", "Service", "ops", "udp"), v, 1));
	/* a port without a named target, no port, no workload */
	assert_false(kvet_service_ports_declared_by(
		find(&tg, "", "Service", "ops", "mixed"), v, 2));
	assert_false(kvet_service_ports_declared_by(
		find(&tg, "", "Service", "ops", "portless"), v, 2));
	assert_false(kvet_service_ports_declared_by(named, v, 0));
	tg_free(&tg);
}

/* A kind is shown by a manifest always, by a dump when it holds one or
 * the user says the input is the whole cluster (1.3). */
static void kinds_known(void **state)
{
	static const char *const dump =
		"apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n"
		"---\n"
		"apiVersion: v1\nkind: Service\n"
		"metadata: {name: web, namespace: ops}\n";
	struct tgraph tg = tg_load(input, 0);
	bool known = false;

	(void)state;
	assert_true(kvet_graph_kind_known(tg.g, "policy",
					  "PodDisruptionBudget"));
	assert_true(kvet_graph_kind_known(tg.g, "apps", "StatefulSet"));
	tg_free(&tg);
	tg = tg_load(dump, 0);
	assert_true(kvet_graph_dump_mode(tg.g));
	assert_true(kvet_graph_kind_known(tg.g, "", "Service"));
	assert_false(kvet_graph_kind_known(tg.g, "policy",
					   "PodDisruptionBudget"));
	assert_int_equal(kvet_graph_kind_named_known(&tg.l->arena, tg.g,
						     "Service", &known), 0);
	assert_true(known);
	assert_int_equal(kvet_graph_kind_named_known(&tg.l->arena, tg.g,
						     "policy/PodDisruptionBudget",
						     &known), 0);
	assert_false(known);
	assert_int_equal(kvet_graph_kind_named_known(&tg.l->arena, tg.g,
						     "Widget", &known), -2);
	assert_false(known);
	tg_free(&tg);
	tg = tg_load(dump, KVET_GRAPH_COMPLETE);
	assert_true(kvet_graph_kind_known(tg.g, "policy",
					  "PodDisruptionBudget"));
	tg_free(&tg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(selection),
		cmocka_unit_test(kinds),
		cmocka_unit_test(ports_declared),
		cmocka_unit_test(kinds_known),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

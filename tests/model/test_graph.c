/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The object graph: identity and kind indexes, dump mode (1.1),
 * workloads and owner folding (1.2), covered and operator-populated
 * namespaces (1.3).
 */
#include "tgraph.h"

static void find_and_kind_lists(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: a, namespace: ops}\n"
		"---\napiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: b}\n"
		"---\napiVersion: v1\nkind: Service\n"
		"metadata: {name: a, namespace: ops}\n"
		"---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ops}\n",
		0);
	struct kvet_object *const *v;
	size_t n;

	(void)state;
	assert_non_null(kvet_graph_find(t.g, "apps", "Deployment", "ops", "a"));
	/* no namespace: the default one */
	assert_non_null(kvet_graph_find(t.g, "apps", "Deployment", "default",
					"b"));
	assert_null(kvet_graph_find(t.g, "", "Deployment", "ops", "a"));
	assert_null(kvet_graph_find(t.g, "apps", "Deployment", "ops", "c"));
	assert_non_null(kvet_graph_find(t.g, "", "Namespace", "", "ops"));
	v = kvet_graph_kind(t.g, "apps", "Deployment", &n);
	assert_int_equal(n, 2);
	assert_string_equal(v[0]->name, "a");
	assert_string_equal(v[1]->name, "b");
	v = kvet_graph_kind(t.g, "apps", "StatefulSet", &n);
	assert_int_equal(n, 0);
	assert_null(v);
	kvet_graph_objects(t.g, &n);
	assert_int_equal(n, 4);
	tg_free(&t);
}

static void helm_tests_and_duplicates_are_left_out(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: t\n"
		"  annotations: {helm.sh/hook: test}\n"
		"---\napiVersion: v1\nkind: ConfigMap\n"
		"metadata: {name: c, labels: {first: 'yes'}}\n"
		"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
		0);
	const struct kvet_object *cm;
	size_t n;

	(void)state;
	assert_null(kvet_graph_find(t.g, "", "Pod", "default", "t"));
	kvet_graph_workloads(t.g, &n);
	assert_int_equal(n, 0);
	kvet_graph_objects(t.g, &n);
	assert_int_equal(n, 1);
	cm = kvet_graph_find(t.g, "", "ConfigMap", "default", "c");
	assert_non_null(kvet_node_path(cm->root, "metadata", "labels", NULL));
	tg_free(&t);
}

static void dump_mode(void **state)
{
	static const char *const plain =
		"apiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: a, namespace: ops}\nstatus: {}\n";
	struct tgraph t;

	(void)state;
	/* an empty status is no status */
	t = tg_load(plain, 0);
	assert_false(kvet_graph_dump_mode(t.g));
	assert_false(kvet_graph_complete(t.g));
	tg_free(&t);
	t = tg_load(plain, KVET_GRAPH_COMPLETE);
	assert_false(kvet_graph_dump_mode(t.g));
	assert_true(kvet_graph_complete(t.g));
	tg_free(&t);
	t = tg_load(plain, KVET_GRAPH_DUMP);
	assert_true(kvet_graph_dump_mode(t.g));
	assert_true(kvet_graph_complete(t.g));
	tg_free(&t);
	t = tg_load("apiVersion: v1\nkind: List\nitems:\n"
		    "- apiVersion: apps/v1\n  kind: Deployment\n"
		    "  metadata: {name: a, namespace: ops}\n"
		    "  status: {replicas: 1}\n", 0);
	assert_true(kvet_graph_dump_mode(t.g));
	assert_true(kvet_graph_complete(t.g));
	tg_free(&t);
	t = tg_load("apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n", 0);
	assert_true(kvet_graph_dump_mode(t.g));
	tg_free(&t);
}

static void namespaces(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: v1\nkind: Namespace\n"
		"metadata: {name: quiet, labels: {team: a}}\n"
		"---\napiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: a, namespace: ops}\n"
		"---\napiVersion: monitoring.coreos.com/v1\nkind: Alertmanager\n"
		"metadata: {name: main, namespace: mon}\n"
		"---\napiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\n"
		"metadata: {name: r, namespace: web}\n"
		"---\napiVersion: networking.k8s.io/v1\nkind: Ingress\n"
		"metadata: {name: i, namespace: ops}\n"
		"---\napiVersion: rbac.authorization.k8s.io/v1\n"
		"kind: ClusterRole\nmetadata: {name: cr}\n",
		0);
	const struct kvet_namespace *const *all;
	const struct kvet_namespace *ns;
	size_t n;

	(void)state;
	assert_true(kvet_graph_ns_covered(t.g, "quiet"));
	assert_true(kvet_graph_ns_covered(t.g, "ops"));
	assert_true(kvet_graph_ns_covered(t.g, "mon"));
	assert_false(kvet_graph_ns_covered(t.g, "elsewhere"));
	assert_false(kvet_graph_ns_covered(t.g, ""));
	assert_false(kvet_graph_ns_operator_populated(t.g, "ops"));
	assert_true(kvet_graph_ns_operator_populated(t.g, "mon"));
	/* Gateway API is a CRD, not a built-in group */
	assert_true(kvet_graph_ns_operator_populated(t.g, "web"));
	assert_false(kvet_graph_ns_operator_populated(t.g, "quiet"));
	ns = kvet_graph_namespace(t.g, "quiet");
	assert_non_null(ns->obj);
	assert_int_equal(ns->labels.n, 1);
	assert_int_equal(ns->n_objects, 0);
	ns = kvet_graph_namespace(t.g, "ops");
	assert_null(ns->obj);
	assert_int_equal(ns->n_objects, 2);
	all = kvet_graph_namespaces(t.g, &n);
	assert_int_equal(n, 4);
	assert_string_equal(all[0]->name, "mon");
	assert_string_equal(all[1]->name, "ops");
	assert_string_equal(all[2]->name, "quiet");
	assert_string_equal(all[3]->name, "web");
	tg_free(&t);
}

static void builtin_groups(void **state)
{
	(void)state;
	assert_true(kvet_group_is_builtin(""));
	assert_true(kvet_group_is_builtin("apps"));
	assert_true(kvet_group_is_builtin("policy"));
	assert_true(kvet_group_is_builtin("admissionregistration.k8s.io"));
	assert_false(kvet_group_is_builtin("argoproj.io"));
	assert_false(kvet_group_is_builtin("snapshot.storage.k8s.io"));
	assert_false(kvet_group_is_builtin("Apps"));
}

static void namespace_selector_through_graph(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: v1\nkind: Namespace\n"
		"metadata: {name: mesh, labels: {istio-injection: enabled}}\n"
		"---\napiVersion: v1\nkind: ConfigMap\n"
		"metadata: {name: c, namespace: ops}\n", 0);
	struct kvet_selector s;
	struct kvet_node *n;
	struct loaded *y = load_str(
		"matchExpressions:\n"
		"- {key: istio-injection, operator: In, values: [enabled]}\n");

	(void)state;
	n = (struct kvet_node *)y->docs.v[0].root;
	assert_int_equal(kvet_selector_parse(&y->arena, n,
					     KVET_SEL_FIELD_WEBHOOK, &s), 0);
	assert_int_equal(kvet_graph_match_namespace(t.g, &s, "mesh"),
			 KVET_MATCH_TRUE);
	/* covered, but no Namespace object: an admin may label it */
	assert_int_equal(kvet_graph_match_namespace(t.g, &s, "ops"),
			 KVET_MATCH_ASSUMED_FALSE);
	assert_int_equal(kvet_graph_match_namespace(t.g, &s, "gone"),
			 KVET_MATCH_ASSUMED_FALSE);
	loaded_free(y);
	tg_free(&t);
}

static void workload_kinds_and_templates(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: apps/v1\nkind: StatefulSet\n"
		"metadata: {name: db, namespace: ops}\n"
		"spec:\n  selector: {matchLabels: {app: db}}\n"
		"  template:\n    metadata: {labels: {app: db, tier: data}}\n"
		"    spec: {containers: []}\n"
		"---\napiVersion: batch/v1\nkind: CronJob\n"
		"metadata: {name: nightly, namespace: ops}\n"
		"spec:\n  jobTemplate:\n    spec:\n      template:\n"
		"        metadata: {labels: {app: nightly}}\n"
		"---\napiVersion: v1\nkind: Pod\n"
		"metadata: {name: p, namespace: ops, labels: {app: solo}}\n"
		"spec: {containers: []}\n"
		"---\napiVersion: v1\nkind: ReplicationController\n"
		"metadata: {name: rc, namespace: ops}\n"
		"spec:\n  template:\n    metadata: {labels: {app: rc}}\n"
		"---\napiVersion: v1\nkind: ConfigMap\n"
		"metadata: {name: cm, namespace: ops}\n", 0);
	struct kvet_workload *const *wls;
	const struct kvet_workload *wl;
	struct kvet_slice v;
	size_t n;

	(void)state;
	wls = kvet_graph_workloads(t.g, &n);
	assert_int_equal(n, 4);
	assert_int_equal(wls[0]->kind, KVET_WL_STATEFULSET);
	assert_int_equal(wls[1]->kind, KVET_WL_CRONJOB);
	assert_int_equal(wls[2]->kind, KVET_WL_POD);
	assert_int_equal(wls[3]->kind, KVET_WL_REPLICATION_CONTROLLER);
	assert_int_equal(wls[3]->index, 3);

	wl = tg_wl(&t, "apps", "StatefulSet", "ops", "db");
	assert_int_equal(wl->labels.n, 2);
	assert_true(kvet_labels_get(&wl->labels, kvet_slice_of("tier"), &v));
	assert_true(kvet_slice_eq0(v, "data"));
	assert_non_null(wl->pod_spec);
	assert_int_equal(wl->selector.meaning, KVET_SEL_MATCH);
	assert_true(kvet_workload_selected_by(wl, &wl->selector));

	wl = tg_wl(&t, "batch", "CronJob", "ops", "nightly");
	assert_true(kvet_labels_get(&wl->labels, kvet_slice_of("app"), &v));
	assert_true(kvet_slice_eq0(v, "nightly"));
	/* generated Job selector: its own controller-uid */
	assert_int_equal(wl->selector.meaning, KVET_SEL_MATCH);
	assert_true(kvet_workload_selected_by(wl, &wl->selector));
	assert_false(kvet_workload_selected_by(wls[0], &wl->selector));

	wl = tg_wl(&t, "", "Pod", "ops", "p");
	assert_true(kvet_labels_get(&wl->labels, kvet_slice_of("app"), &v));
	assert_true(kvet_slice_eq0(v, "solo"));
	assert_int_equal(wl->selector.meaning, KVET_SEL_NOTHING);

	/* ReplicationController: selector defaults to the template labels */
	wl = tg_wl(&t, "", "ReplicationController", "ops", "rc");
	assert_int_equal(wl->selector.meaning, KVET_SEL_MATCH);
	assert_true(kvet_workload_selected_by(wl, &wl->selector));

	assert_null(kvet_graph_workload_of(t.g, kvet_graph_find(t.g, "",
					"ConfigMap", "ops", "cm")));
	assert_true(kvet_workload_kind_scalable(KVET_WL_STATEFULSET));
	assert_false(kvet_workload_kind_scalable(KVET_WL_DAEMONSET));
	assert_string_equal(kvet_workload_kind_name(KVET_WL_CRONJOB),
			    "CronJob");
	tg_free(&t);
}

/* A Deployment, its ReplicaSet and two Pods, as kubectl get -o yaml. */
static const char dump_chain[] =
	"apiVersion: v1\nkind: List\nitems:\n"
	"- apiVersion: apps/v1\n  kind: Deployment\n"
	"  metadata: {name: web, namespace: ops}\n"
	"  spec:\n    replicas: 2\n    selector: {matchLabels: {app: web}}\n"
	"    template: {metadata: {labels: {app: web}}}\n"
	"  status: {replicas: 2}\n"
	"- apiVersion: apps/v1\n  kind: ReplicaSet\n"
	"  metadata:\n    name: web-5d4\n    namespace: ops\n"
	"    ownerReferences:\n"
	"    - {apiVersion: apps/v1, kind: Deployment, name: web,"
	" controller: true}\n"
	"  spec:\n    selector: {matchLabels: {app: web, pod-template-hash: 5d4}}\n"
	"    template: {metadata: {labels: {app: web, pod-template-hash: 5d4}}}\n"
	"- apiVersion: v1\n  kind: Pod\n"
	"  metadata:\n    name: web-5d4-a\n    namespace: ops\n"
	"    labels: {app: web, pod-template-hash: 5d4}\n"
	"    ownerReferences:\n"
	"    - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4,"
	" controller: true}\n"
	"- apiVersion: v1\n  kind: Pod\n"
	"  metadata:\n    name: web-5d4-b\n    namespace: ops\n"
	"    labels: {app: web, pod-template-hash: 5d4}\n"
	"    ownerReferences:\n"
	"    - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4,"
	" controller: true}\n"
	/* its ReplicaSet is not in the dump */
	"- apiVersion: v1\n  kind: Pod\n"
	"  metadata:\n    name: lost-1\n    namespace: ops\n"
	"    labels: {app: lost}\n"
	"    ownerReferences:\n"
	"    - {apiVersion: apps/v1, kind: ReplicaSet, name: lost,"
	" controller: true}\n"
	/* owned but not controlled */
	"- apiVersion: v1\n  kind: Pod\n"
	"  metadata:\n    name: side\n    namespace: ops\n"
	"    ownerReferences:\n"
	"    - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4}\n"
	/* an Argo Rollout owns this ReplicaSet: not a workload kind */
	"- apiVersion: argoproj.io/v1alpha1\n  kind: Rollout\n"
	"  metadata: {name: ro, namespace: ops}\n"
	"- apiVersion: apps/v1\n  kind: ReplicaSet\n"
	"  metadata:\n    name: ro-77\n    namespace: ops\n"
	"    ownerReferences:\n"
	"    - {apiVersion: argoproj.io/v1alpha1, kind: Rollout, name: ro,"
	" controller: true}\n"
	"- apiVersion: v1\n  kind: Pod\n"
	"  metadata:\n    name: ro-77-a\n    namespace: ops\n"
	"    ownerReferences:\n"
	"    - {apiVersion: apps/v1, kind: ReplicaSet, name: ro-77,"
	" controller: true}\n"
	/* the same names in another namespace do not fold */
	"- apiVersion: v1\n  kind: Pod\n"
	"  metadata:\n    name: web-5d4-c\n    namespace: dev\n"
	"    ownerReferences:\n"
	"    - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4,"
	" controller: true}\n";

/* podManagementPolicy: OrderedReady unless it says Parallel */
static void statefulset_policy(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: apps/v1\nkind: StatefulSet\n"
		"metadata: {name: a, namespace: ops}\n"
		"spec: {podManagementPolicy: Parallel, selector: {matchLabels: {app: a}},"
		" template: {metadata: {labels: {app: a}}}}\n"
		"---\napiVersion: apps/v1\nkind: StatefulSet\n"
		"metadata: {name: b, namespace: ops}\n"
		"spec: {selector: {matchLabels: {app: b}},"
		" template: {metadata: {labels: {app: b}}}}\n",
		0);

	(void)state;
	assert_false(kvet_statefulset_ordered_ready(
		tg_wl(&t, "apps", "StatefulSet", "ops", "a")));
	assert_true(kvet_statefulset_ordered_ready(
		tg_wl(&t, "apps", "StatefulSet", "ops", "b")));
	tg_free(&t);
}

static void owner_folding_in_dump_mode(void **state)
{
	struct tgraph t = tg_load(dump_chain, 0);
	const struct kvet_workload *web, *wl;
	size_t n;

	(void)state;
	assert_true(kvet_graph_dump_mode(t.g));
	web = tg_wl(&t, "apps", "Deployment", "ops", "web");
	assert_non_null(web);
	assert_string_equal(web->obj->name, "web");
	assert_ptr_equal(tg_wl(&t, "apps", "ReplicaSet", "ops", "web-5d4"),
			 web);
	assert_ptr_equal(tg_wl(&t, "", "Pod", "ops", "web-5d4-a"), web);
	assert_ptr_equal(tg_wl(&t, "", "Pod", "ops", "web-5d4-b"), web);
	assert_int_equal(web->n_folded, 3);
	assert_int_equal(web->live_pods, 2);
	assert_false(web->orphan);

	wl = tg_wl(&t, "", "Pod", "ops", "lost-1");
	assert_int_equal(wl->kind, KVET_WL_POD);
	assert_true(wl->orphan);
	assert_int_equal(kvet_workload_pdb_member(wl).kind,
			 KVET_PDB_UNSCALABLE);
	wl = tg_wl(&t, "", "Pod", "ops", "side");
	assert_false(wl->orphan);
	assert_int_equal(kvet_workload_pdb_member(wl).kind, KVET_PDB_BARE_POD);

	wl = tg_wl(&t, "apps", "ReplicaSet", "ops", "ro-77");
	assert_int_equal(wl->kind, KVET_WL_REPLICASET);
	assert_string_equal(wl->obj->name, "ro-77");
	assert_ptr_equal(tg_wl(&t, "", "Pod", "ops", "ro-77-a"), wl);
	assert_null(kvet_graph_workload_of(t.g, kvet_graph_find(t.g,
				"argoproj.io", "Rollout", "ops", "ro")));

	wl = tg_wl(&t, "", "Pod", "dev", "web-5d4-c");
	assert_string_equal(wl->obj->name, "web-5d4-c");

	/* web, lost-1, side, ro-77, web-5d4-c */
	kvet_graph_workloads(t.g, &n);
	assert_int_equal(n, 5);
	assert_int_equal(kvet_graph_namespace(t.g, "ops")->live_pods, 5);
	tg_free(&t);
}

static void no_folding_outside_dump_mode(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: web, namespace: ops}\n"
		"spec: {selector: {matchLabels: {app: web}}}\n"
		"---\napiVersion: apps/v1\nkind: ReplicaSet\n"
		"metadata:\n  name: web-1\n  namespace: ops\n"
		"  ownerReferences:\n"
		"  - {apiVersion: apps/v1, kind: Deployment, name: web,"
		" controller: true}\n", 0);
	size_t n;

	(void)state;
	kvet_graph_workloads(t.g, &n);
	assert_int_equal(n, 2);
	assert_true(tg_wl(&t, "apps", "ReplicaSet", "ops", "web-1")->orphan);
	tg_free(&t);
}

static void owner_cycle_terminates(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: apps/v1\nkind: ReplicaSet\n"
		"metadata:\n  name: a\n  namespace: ops\n"
		"  ownerReferences:\n"
		"  - {apiVersion: apps/v1, kind: ReplicaSet, name: b,"
		" controller: true}\n"
		"---\napiVersion: apps/v1\nkind: ReplicaSet\n"
		"metadata:\n  name: b\n  namespace: ops\n"
		"  ownerReferences:\n"
		"  - {apiVersion: apps/v1, kind: ReplicaSet, name: a,"
		" controller: true}\n"
		"---\napiVersion: apps/v1\nkind: ReplicaSet\n"
		"metadata:\n  name: self\n  namespace: ops\n"
		"  ownerReferences:\n"
		"  - {apiVersion: apps/v1, kind: ReplicaSet, name: self,"
		" controller: true}\n", KVET_GRAPH_DUMP);
	struct kvet_workload *const *wls;
	size_t n, i;

	(void)state;
	wls = kvet_graph_workloads(t.g, &n);
	assert_true(n >= 1);
	for (i = 0; i < n; i++)
		assert_int_equal(wls[i]->index, i);
	assert_non_null(tg_wl(&t, "apps", "ReplicaSet", "ops", "a"));
	assert_non_null(tg_wl(&t, "apps", "ReplicaSet", "ops", "b"));
	assert_non_null(tg_wl(&t, "apps", "ReplicaSet", "ops", "self"));
	tg_free(&t);
}

/* selector-mismatches-template: the API server's check of spec.selector
 * against the template. */
static void template_flaws(void **state)
{
	struct tgraph t = tg_load(
		"apiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: ok, namespace: ops}\n"
		"spec:\n  selector: {matchLabels: {app: web}}\n"
		"  template: {metadata: {labels: {app: web, tier: fe}}}\n"
		"---\napiVersion: apps/v1\nkind: Deployment\n"
		"metadata: {name: typo, namespace: ops}\n"
		"spec:\n  selector: {matchLabels: {app: web}}\n"
		"  template: {metadata: {labels: {app: website}}}\n"
		"---\napiVersion: apps/v1\nkind: DaemonSet\n"
		"metadata: {name: empty, namespace: ops}\n"
		"spec:\n  selector: {}\n"
		"  template: {metadata: {labels: {app: a}}}\n"
		"---\napiVersion: apps/v1\nkind: StatefulSet\n"
		"metadata: {name: none, namespace: ops}\n"
		"spec:\n  template: {metadata: {labels: {app: a}}}\n"
		"---\napiVersion: apps/v1beta1\nkind: Deployment\n"
		"metadata: {name: old, namespace: ops}\n"
		"spec:\n  template: {metadata: {labels: {app: a}}}\n"
		"---\napiVersion: batch/v1\nkind: Job\n"
		"metadata: {name: gen, namespace: ops}\n"
		"spec:\n  template: {metadata: {labels: {app: a}}}\n"
		"---\napiVersion: batch/v1\nkind: Job\n"
		"metadata: {name: manual, namespace: ops}\n"
		"spec:\n  manualSelector: true\n"
		"  template: {metadata: {labels: {app: a}}}\n"
		"---\napiVersion: v1\nkind: ReplicationController\n"
		"metadata: {name: rc, namespace: ops}\n"
		"spec:\n  template: {metadata: {labels: {app: a}}}\n", 0);
	const struct kvet_requirement *r;

	(void)state;
	assert_int_equal(kvet_workload_template_flaw(
		tg_wl(&t, "apps", "Deployment", "ops", "ok"), &r),
		KVET_TEMPLATE_SELECTED);
	assert_int_equal(kvet_workload_template_flaw(
		tg_wl(&t, "apps", "Deployment", "ops", "typo"), &r),
		KVET_TEMPLATE_MISMATCH);
	assert_true(kvet_slice_eq0(r->key, "app"));
	assert_int_equal(kvet_workload_template_flaw(
		tg_wl(&t, "apps", "DaemonSet", "ops", "empty"), &r),
		KVET_TEMPLATE_EMPTY_SELECTOR);
	assert_int_equal(kvet_workload_template_flaw(
		tg_wl(&t, "apps", "StatefulSet", "ops", "none"), &r),
		KVET_TEMPLATE_NO_SELECTOR);
	/* apps/v1beta1 defaulted the selector from the labels */
	assert_int_equal(kvet_workload_template_flaw(
		tg_wl(&t, "apps", "Deployment", "ops", "old"), &r),
		KVET_TEMPLATE_SELECTED);
	assert_int_equal(kvet_workload_template_flaw(
		tg_wl(&t, "batch", "Job", "ops", "gen"), &r),
		KVET_TEMPLATE_SELECTED);
	assert_int_equal(kvet_workload_template_flaw(
		tg_wl(&t, "batch", "Job", "ops", "manual"), &r),
		KVET_TEMPLATE_NO_SELECTOR);
	assert_int_equal(kvet_workload_template_flaw(
		tg_wl(&t, "", "ReplicationController", "ops", "rc"), &r),
		KVET_TEMPLATE_SELECTED);
	tg_free(&t);
}

/* 1.2: declared kinds are workloads; match.kinds' classes read them. */
static void declared_workload_kinds(void **state)
{
	static const char *const tmpl[] = { "spec", "template" };
	static const char *const reps[] = { "spec", "replicas" };
	const struct kvet_custom_workload custom[] = {
		{ "argoproj.io", "Rollout", tmpl, 2, reps, 2 },
		{ "example.com", "Runner", tmpl, 2, NULL, 0 },
	};
	struct kvet_graph_config cfg = { 0 };
	struct tgraph t;

	(void)state;
	assert_int_equal(kvet_workload_kind_class(custom, 2, "apps",
						  "Deployment"),
			 KVET_KIND_SCALABLE_WORKLOAD);
	assert_int_equal(kvet_workload_kind_class(custom, 2, "apps",
						  "DaemonSet"),
			 KVET_KIND_WORKLOAD);
	assert_int_equal(kvet_workload_kind_class(custom, 2, "argoproj.io",
						  "Rollout"),
			 KVET_KIND_SCALABLE_WORKLOAD);
	assert_int_equal(kvet_workload_kind_class(custom, 2, "example.com",
						  "Runner"),
			 KVET_KIND_WORKLOAD);
	assert_int_equal(kvet_workload_kind_class(custom, 2, "example.com",
						  "Rollout"),
			 KVET_KIND_OTHER);
	assert_int_equal(kvet_workload_kind_class(NULL, 0, "", "Service"),
			 KVET_KIND_OTHER);
	/* a declared kind's pods are modelled: no operator's output */
	cfg.custom_workloads = custom;
	cfg.n_custom_workloads = 2;
	t = tg_load_cfg("apiVersion: argoproj.io/v1alpha1\nkind: Rollout\n"
			"metadata: {name: web, namespace: shop}\n"
			"spec:\n  replicas: 3\n"
			"  template: {metadata: {labels: {app: web}}}\n"
			"---\napiVersion: example.com/v1\nkind: Widget\n"
			"metadata: {name: w, namespace: ops}\n", &cfg);
	assert_non_null(tg_wl(&t, "argoproj.io", "Rollout", "shop", "web"));
	assert_false(kvet_graph_ns_operator_populated(t.g, "shop"));
	assert_true(kvet_graph_ns_operator_populated(t.g, "ops"));
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(find_and_kind_lists),
		cmocka_unit_test(helm_tests_and_duplicates_are_left_out),
		cmocka_unit_test(dump_mode),
		cmocka_unit_test(namespaces),
		cmocka_unit_test(builtin_groups),
		cmocka_unit_test(namespace_selector_through_graph),
		cmocka_unit_test(workload_kinds_and_templates),
		cmocka_unit_test(statefulset_policy),
		cmocka_unit_test(owner_folding_in_dump_mode),
		cmocka_unit_test(no_folding_outside_dump_mode),
		cmocka_unit_test(owner_cycle_terminates),
		cmocka_unit_test(template_flaws),
		cmocka_unit_test(declared_workload_kinds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/* A render read as Helm means it (docs/model.md 1.1): status stubs, hooks,
 * the release namespace, duplicates and what decides dump mode. */
#include "tgraph.h"

#include "model/release.h"

static const struct kvet_object *obj_named(const struct loaded *l,
					   const char *name)
{
	size_t i;

	for (i = 0; i < l->objs.n; i++)
		if (strcmp(l->objs.v[i]->name, name) == 0)
			return l->objs.v[i];
	fail_msg("no object %s", name);
	return NULL;
}

static void test_status_stub(void **state)
{
	struct loaded *l = load_str(
		"kind: CustomResourceDefinition\n"
		"apiVersion: apiextensions.k8s.io/v1\n"
		"metadata: {name: stub}\n"
		"status: {acceptedNames: {kind: \"\", plural: \"\"}, conditions: [], storedVersions: [], x: ~, y: [{}, []]}\n"
		"---\n"
		"kind: Deployment\napiVersion: apps/v1\nmetadata: {name: live}\n"
		"status: {acceptedNames: {kind: \"\"}, replicas: 0}\n"
		"---\n"
		"kind: Deployment\napiVersion: apps/v1\nmetadata: {name: word}\n"
		"status: {conditions: [{type: Available}]}\n");

	(void)state;
	assert_false(kvet_status_observed(NULL));
	assert_false(obj_named(l, "stub")->flags & KVET_OBJ_HAS_STATUS);
	/* a zero was observed: only empty values make a stub */
	assert_true(obj_named(l, "live")->flags & KVET_OBJ_HAS_STATUS);
	assert_true(obj_named(l, "word")->flags & KVET_OBJ_HAS_STATUS);
	loaded_free(l);
}

static void test_hooks(void **state)
{
	static const char *const hooks[] = {
		"pre-install", "post-install", "pre-delete", "post-delete",
		"pre-upgrade", "post-upgrade", "pre-rollback", "post-rollback",
		"pre-install,post-upgrade",
	};
	char yaml[512];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(hooks) / sizeof(hooks[0]); i++) {
		struct loaded *l;

		snprintf(yaml, sizeof(yaml),
			 "kind: Job\napiVersion: batch/v1\n"
			 "metadata: {name: j, annotations: {helm.sh/hook: \"%s\"}}\n",
			 hooks[i]);
		l = load_str(yaml);
		assert_int_equal(l->objs.n, 1);
		assert_false(kvet_object_runs(l->objs.v[0]));
		assert_false(l->objs.v[0]->flags & KVET_OBJ_HELM_TEST);
		loaded_free(l);
	}
	{
		struct loaded *l = load_str(
			"kind: Pod\napiVersion: v1\n"
			"metadata: {name: t, annotations: {helm.sh/hook: test}}\n"
			"---\n"
			"kind: Job\napiVersion: batch/v1\n"
			"metadata: {name: plain, annotations: {helm.sh/hook-weight: \"1\"}}\n");

		assert_true(obj_named(l, "t")->flags & KVET_OBJ_HELM_TEST);
		assert_true(kvet_object_runs(obj_named(l, "plain")));
		loaded_free(l);
	}
}

static int count_one(void *data, const struct kvet_workload *wl)
{
	(void)wl;
	(*(size_t *)data)++;
	return 0;
}

static size_t count_selected(const struct kvet_graph *g, const char *ns,
			     const struct kvet_selector *sel)
{
	size_t n = 0;

	assert_int_equal(kvet_graph_select_workloads(g, ns, sel, count_one, &n),
			 0);
	return n;
}

/* Hooks stay workloads (validated) but no selector reaches them. */
static void test_hook_not_selected(void **state)
{
	struct tgraph t = tg_load(
		"kind: Deployment\napiVersion: apps/v1\n"
		"metadata: {name: hook, annotations: {helm.sh/hook: pre-upgrade}}\n"
		"spec: {selector: {matchLabels: {app: a}}, template: {metadata: {labels: {app: a}}}}\n"
		"---\n"
		"kind: Deployment\napiVersion: apps/v1\n"
		"metadata: {name: run}\n"
		"spec: {selector: {matchLabels: {app: a}}, template: {metadata: {labels: {app: a}}}}\n",
		0);
	struct kvet_selector sel;
	size_t n;

	(void)state;
	kvet_graph_workloads(t.g, &n);
	assert_int_equal(n, 2);
	assert_non_null(tg_wl(&t, "apps", "Deployment", "default", "hook"));
	assert_int_equal(kvet_selector_parse(&t.l->arena,
			kvet_node_path(kvet_graph_find(t.g, "apps", "Deployment",
						       "default", "run")->root,
				       "spec", "selector", NULL),
			KVET_SEL_FIELD_WORKLOAD, &sel), 0);
	assert_int_equal(count_selected(t.g, "default", &sel), 1);
	tg_free(&t);
}

static const char render[] =
	"# Source: c/templates/svc.yaml\n"
	"kind: Service\napiVersion: v1\nmetadata: {name: hook-svc}\n"
	"---\n"
	"kind: ServiceAccount\napiVersion: v1\nmetadata: {name: sa}\n"
	"---\n"
	"kind: ValidatingWebhookConfiguration\n"
	"apiVersion: admissionregistration.k8s.io/v1\nmetadata: {name: vw}\n"
	"webhooks: [{name: w, clientConfig: {service: {name: hook-svc, namespace: ops}}}]\n";

static void test_release_inferred(void **state)
{
	char yaml[1024];
	struct loaded *l;
	struct kvet_release_guess g;

	(void)state;
	/* from the webhook */
	l = load_str(render);
	assert_true(kvet_objects_helm_render(l->objs.v, l->objs.n));
	assert_int_equal(kvet_release_namespace(&l->arena, &l->diag, l->objs.v,
						l->objs.n, NULL, "default"), 0);
	assert_string_equal(obj_named(l, "hook-svc")->namespace, "ops");
	assert_string_equal(obj_named(l, "sa")->namespace, "ops");
	assert_string_equal(obj_named(l, "vw")->namespace, "");
	assert_int_equal(l->diag.n_notices, 1);
	assert_non_null(strstr(l->diag.notices[0].message, "\"ops\""));
	loaded_free(l);

	/* a binding that agrees changes nothing; one that does not disagrees */
	snprintf(yaml, sizeof(yaml), "%s---\n"
		 "kind: ClusterRoleBinding\napiVersion: rbac.authorization.k8s.io/v1\n"
		 "metadata: {name: b}\nsubjects: [{kind: ServiceAccount, name: sa, namespace: %s}]\n",
		 render, "other");
	l = load_str(yaml);
	assert_int_equal(kvet_release_namespace_infer(&l->arena, l->objs.v,
						      l->objs.n, &g), 0);
	assert_int_equal(g.state, KVET_RELEASE_DISAGREE);
	assert_int_equal(g.n_unset, 2);
	assert_int_equal(kvet_release_namespace(&l->arena, &l->diag, l->objs.v,
						l->objs.n, NULL, "default"), 0);
	assert_string_equal(obj_named(l, "sa")->namespace, "default");
	assert_int_equal(l->diag.n_notices, 1);
	assert_int_equal(l->diag.notices[0].level, KVET_NOTICE_WARNING);
	loaded_free(l);

	/* a given namespace wins, with no notice */
	l = load_str(render);
	assert_int_equal(kvet_release_namespace(&l->arena, &l->diag, l->objs.v,
						l->objs.n, "given", "default"), 0);
	assert_string_equal(obj_named(l, "sa")->namespace, "given");
	assert_int_equal(l->diag.n_notices, 0);
	loaded_free(l);
}

static void test_release_shared_and_unnamed(void **state)
{
	struct loaded *l;
	struct kvet_release_guess g;

	(void)state;
	l = load_str("# Source: c/templates/a.yaml\n"
		     "kind: ConfigMap\napiVersion: v1\nmetadata: {name: a}\n"
		     "---\n"
		     "kind: ConfigMap\napiVersion: v1\nmetadata: {name: b, namespace: shop}\n");
	assert_int_equal(kvet_release_namespace_infer(&l->arena, l->objs.v,
						      l->objs.n, &g), 0);
	assert_int_equal(g.state, KVET_RELEASE_INFERRED);
	assert_string_equal(g.ns, "shop");
	loaded_free(l);

	/* two named namespaces share nothing: no reference at all */
	l = load_str("# Source: c/templates/a.yaml\n"
		     "kind: ConfigMap\napiVersion: v1\nmetadata: {name: a}\n"
		     "---\n"
		     "kind: ConfigMap\napiVersion: v1\nmetadata: {name: b, namespace: shop}\n"
		     "---\n"
		     "kind: ConfigMap\napiVersion: v1\nmetadata: {name: c, namespace: kube-system}\n");
	assert_int_equal(kvet_release_namespace(&l->arena, &l->diag, l->objs.v,
						l->objs.n, NULL, "default"), 0);
	assert_string_equal(obj_named(l, "a")->namespace, "default");
	assert_int_equal(l->diag.n_notices, 1);
	assert_non_null(strstr(l->diag.notices[0].message, "--namespace"));
	loaded_free(l);

	/* not a Helm render: nothing is inferred or said */
	l = load_str(render + strlen("# Source: c/templates/svc.yaml\n"));
	assert_false(kvet_objects_helm_render(l->objs.v, l->objs.n));
	assert_int_equal(kvet_release_namespace(&l->arena, &l->diag, l->objs.v,
						l->objs.n, NULL, "default"), 0);
	assert_string_equal(obj_named(l, "sa")->namespace, "default");
	assert_int_equal(l->diag.n_notices, 0);
	loaded_free(l);
}

/* The kept copy of a duplicate is the same whatever the input order. */
static void test_duplicates(void **state)
{
	struct loaded *l = load_str(
		"kind: ConfigMap\napiVersion: v1\nmetadata: {name: a, labels: {copy: first}}\n"
		"---\n"
		"kind: ConfigMap\napiVersion: v1\nmetadata: {name: a, labels: {copy: second}}\n");
	struct kvet_object *rev[2];
	const struct kvet_duplicate *d;
	struct kvet_graph *g;
	size_t n, i;

	(void)state;
	rev[0] = l->objs.v[1];
	rev[1] = l->objs.v[0];
	for (i = 0; i < 2; i++) {
		g = kvet_graph_create(&l->arena, i ? rev : l->objs.v, 2, NULL);
		assert_non_null(g);
		assert_ptr_equal(kvet_graph_find(g, "", "ConfigMap", "default",
						 "a"),
				 l->objs.v[0]);
		kvet_graph_objects(g, &n);
		assert_int_equal(n, 1);
		d = kvet_graph_duplicates(g, &n);
		assert_int_equal(n, 1);
		assert_ptr_equal(d[0].kept, l->objs.v[0]);
		assert_ptr_equal(d[0].dropped, l->objs.v[1]);
		kvet_graph_destroy(g);
	}
	loaded_free(l);
}

static void test_dump_cause(void **state)
{
	struct tgraph t;

	(void)state;
	t = tg_load("kind: CustomResourceDefinition\n"
		    "apiVersion: apiextensions.k8s.io/v1\nmetadata: {name: c}\n"
		    "status: {acceptedNames: {kind: \"\"}, conditions: []}\n", 0);
	assert_false(kvet_graph_dump_mode(t.g));
	assert_null(kvet_graph_dump_cause(t.g));
	tg_free(&t);

	t = tg_load("kind: Pod\napiVersion: v1\nmetadata: {name: unbound}\n"
		    "---\n"
		    "kind: Pod\napiVersion: v1\nmetadata: {name: bound}\n"
		    "spec: {nodeName: n1}\n", 0);
	assert_true(kvet_graph_dump_mode(t.g));
	assert_string_equal(kvet_graph_dump_cause(t.g)->name, "bound");
	tg_free(&t);

	/* the flag alone names no object */
	t = tg_load("kind: ConfigMap\napiVersion: v1\nmetadata: {name: c}\n",
		    KVET_GRAPH_DUMP);
	assert_true(kvet_graph_dump_mode(t.g));
	assert_null(kvet_graph_dump_cause(t.g));
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_stub),
		cmocka_unit_test(test_hooks),
		cmocka_unit_test(test_hook_not_selected),
		cmocka_unit_test(test_release_inferred),
		cmocka_unit_test(test_release_shared_and_unnamed),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_dump_cause),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/* The webhook functions of CEL (1.10, 1.11), over a real graph. */
#include "tk8s.h"

#include "twebhook.h"

static struct fixture *setup(const char *group, const char *kind,
			     const char *ns, const char *name)
{
	struct fixture *f = tk8s_load(input);

	tk8s_bind(f, group, kind, ns, name);
	return f;
}

static struct fixture *config(void)
{
	return setup("admissionregistration.k8s.io",
		     "MutatingWebhookConfiguration", "", "injector");
}

#define ENTRY0 "webhookEntries(object)[0]"
#define ENTRY1 "webhookEntries(object)[1]"

static void entries(void **state)
{
	struct fixture *f = config();

	(void)state;
	assert_cel_true(f->t, "size(webhookEntries(object)) == 2");
	assert_cel_true(f->t, ENTRY0 ".name == \"inject.example.com\"");
	assert_cel_true(f->t, "webhookId(" ENTRY0 ") == \"MutatingWebhookConfiguration/injector#inject.example.com\"");
	assert_cel_true(f->t, "effectiveFailurePolicy(" ENTRY0 ") == \"Fail\" && failurePolicyImplicit(" ENTRY0 ")");
	assert_cel_true(f->t, "effectiveFailurePolicy(" ENTRY1 ") == \"Ignore\" && !failurePolicyImplicit(" ENTRY1 ")");
	assert_cel_true(f->t, "!isConversionWebhook(" ENTRY0 ") && clientConfig(" ENTRY0 ").service.name == \"injector\"");
	assert_cel_error(f->t, "webhookId(object) == \"\"", "webhook entry");
	assert_cel_error(f->t, "webhookId({\"name\": \"x\"}) == \"\"", "webhook entry");
	teardown(f);
}

static void backends(void **state)
{
	struct fixture *f = config();

	(void)state;
	assert_cel_true(f->t, "backendState(" ENTRY0 ") == \"workloads\" && backendState(" ENTRY1 ") == \"url\"");
	assert_cel_true(f->t, "webhookService(" ENTRY0 ").metadata.name == \"injector\" && webhookService(" ENTRY1 ") == null");
	assert_cel_true(f->t, "servicePort(" ENTRY0 ") == 443 && servicePortEntry(" ENTRY0 ").targetPort == \"webhook\"");
	assert_cel_error(f->t, "servicePort(" ENTRY1 ") == 443", "no clientConfig.service");
	assert_cel_true(f->t, "serviceSelector(" ENTRY0 ") == {\"app\": \"injector\"} && serviceSelector(" ENTRY1 ") == {}");
	assert_cel_true(f->t, "backendWorkloads(" ENTRY0 ").map(w, w.metadata.name) == [\"injector\"]");
	assert_cel_true(f->t, "backendMinReplicas(" ENTRY0 ") == 2 && backendMaxReplicas(" ENTRY0 ") == 2 && !backendReplicasAtLeast(" ENTRY0 ")");
	assert_cel_true(f->t, "describeBackends(" ENTRY0 ") == \"Deployment \\\"injector\\\" (N_min 2)\"");
	assert_cel_true(f->t, "backendPdbs(" ENTRY0 ").map(p, p.metadata.name) == [\"injector\"]");
	assert_cel_true(f->t, "backendsUnspread(" ENTRY0 ") && !backendsUnspread(" ENTRY1 ")");
	assert_cel_true(f->t, "backendDeclaresPort(" ENTRY0 ", \"webhook\") && !backendDeclaresPort(" ENTRY0 ", \"https\")");
	assert_cel_true(f->t, "backendMountsSecret(" ENTRY0 ", \"serving-tls\") && !backendMountsSecret(" ENTRY0 ", \"x\")");
	assert_cel_true(f->t, "backendMayUpdateConfiguration(" ENTRY0 ")");
	assert_cel_true(f->t, "serviceHasEndpoints(webhookService(" ENTRY0 ")) == false");
	assert_cel_true(f->t, "servicesInInput()");
	teardown(f);
}

static void conversion(void **state)
{
	struct fixture *f = setup("apiextensions.k8s.io",
				  "CustomResourceDefinition", "",
				  "widgets.example.com");

	(void)state;
	assert_cel_true(f->t, "size(webhookEntries(object)) == 1 && isConversionWebhook(" ENTRY0 ")");
	assert_cel_true(f->t, "effectiveFailurePolicy(" ENTRY0 ") == \"Fail\" && !failurePolicyImplicit(" ENTRY0 ")");
	assert_cel_true(f->t, "backendState(" ENTRY0 ") == \"missing\" && servicePort(" ENTRY0 ") == 9443");
	assert_cel_true(f->t, "intercepts(" ENTRY0 ", \"CREATE\", \"example.com\", \"v1\", \"widgets\", \"\", \"ops\", {}) == \"TRUE\"");
	assert_cel_true(f->t, "intercepts(" ENTRY0 ", \"CREATE\", \"\", \"v1\", \"pods\", \"\", \"ops\", {}) == \"FALSE\"");
	teardown(f);
}

static void interception(void **state)
{
	struct fixture *f = config();

	(void)state;
	/* no Namespace object: the opt-out selector is ASSUMED-TRUE */
	assert_cel_true(f->t, "intercepts(" ENTRY0 ", \"CREATE\", \"\", \"v1\", \"pods\", \"\", \"ops\", backendWorkloads(" ENTRY0 ")[0]) == \"ASSUMED-TRUE\"");
	assert_cel_true(f->t, "intercepts(" ENTRY0 ", \"UPDATE\", \"\", \"v1\", \"pods\", \"\", \"ops\", {}) == \"FALSE\"");
	assert_cel_true(f->t, "intercepts(" ENTRY0 ", \"CREATE\", \"\", \"v1\", \"pods\", \"eviction\", \"*\", {}) == \"FALSE\"");
	assert_cel_true(f->t, "intercepts(" ENTRY0 ", \"CREATE\", \"\", \"v1\", \"pods\", \"\", \"*\", {}) == \"TRUE\"");
	assert_cel_true(f->t, "interception(" ENTRY0 ", \"CREATE\", \"\", \"v1\", \"pods\", \"\", \"ops\", {}).why.contains(\"example.com/ignore DoesNotExist\")");
	assert_cel_true(f->t, "interception(" ENTRY0 ", \"CREATE\", \"\", \"v1\", \"pods\", \"\", \"ops\", {}).rule.resources == [\"pods\"]");
	assert_cel_true(f->t, "interception(" ENTRY0 ", \"CREATE\", \"\", \"v1\", \"pods\", \"\", \"ops\", {}).namespaceStep == \"ASSUMED-TRUE\"");
	assert_cel_error(f->t, "intercepts(" ENTRY0 ", \"CREATE\", \"\", \"v1\", \"pods\", \"\", \"ops\", 3) == \"\"", "labels");
	teardown(f);
}

/* RBAC through a ClusterRoleBinding, an aggregated ClusterRole included */
static void patchers(void **state)
{
	struct fixture *f = setup("admissionregistration.k8s.io",
				  "ValidatingWebhookConfiguration", "",
				  "checker");

	(void)state;
	/* the backend's account may patch only mutating configurations */
	assert_cel_true(f->t, "!backendMayUpdateConfiguration(" ENTRY0 ")");
	assert_cel_true(f->t, "configurationPatchJobs(" ENTRY0 ").map(j, j.metadata.name) == [\"certgen\"]");
	teardown(f);
	f = config();
	assert_cel_true(f->t, "size(configurationPatchJobs(" ENTRY0 ")) == 0");
	teardown(f);
}

static void urls_and_ca(void **state)
{
	struct fixture *f = config();

	(void)state;
	assert_cel_true(f->t, "webhookUrl(" ENTRY0 ") == null");
	assert_cel_true(f->t, "webhookUrl(" ENTRY1 ").scheme == \"https\" && webhookUrl(" ENTRY1 ").userInfo == \"user\"");
	assert_cel_true(f->t, "webhookUrl(" ENTRY1 ").host == \"hook.ops.svc\" && webhookUrl(" ENTRY1 ").port == \"8443\"");
	assert_cel_true(f->t, "webhookUrl(" ENTRY1 ").path == \"/x\" && webhookUrl(" ENTRY1 ").query == \"q=1\" && webhookUrl(" ENTRY1 ").fragment == \"f\"");
	assert_cel_true(f->t, "caInjection(" ENTRY0 ").kind == \"certificate\" && caInjection(" ENTRY0 ").valid");
	assert_cel_true(f->t, "caInjection(" ENTRY0 ")[\"namespace\"] == \"ops\" && caInjection(" ENTRY0 ").object.spec.secretName == \"serving-tls\"");
	teardown(f);
}

/*
 * Many entries, Jobs and bindings, one aggregated ClusterRole among them:
 * who may patch a configuration is found once per run, so asking it of
 * every entry stays linear (meson's timeout bounds it).
 */
static void many_entries(void **state)
{
	enum { N = 1500 };
	struct kvet_arena_mark mark;
	struct tgraph tg;
	struct tcel *t;
	char *text = NULL;
	size_t i, len = 0;
	FILE *fp = open_memstream(&text, &len);

	(void)state;
	assert_non_null(fp);
	for (i = 0; i < N; i++)
		fprintf(fp,
			"apiVersion: admissionregistration.k8s.io/v1\n"
			"kind: ValidatingWebhookConfiguration\n"
			"metadata: {name: c%zu}\n"
			"webhooks:\n- name: a.example.com\n"
			"  clientConfig: {service: {namespace: ns, name: s%zu}}\n"
			"- name: b.example.com\n"
			"  clientConfig: {service: {namespace: ns, name: s%zu}}\n"
			"---\n"
			"apiVersion: batch/v1\nkind: Job\n"
			"metadata: {name: j%zu, namespace: ns}\n"
			"spec: {template: {spec: {serviceAccountName: sa%zu}}}\n"
			"---\n"
			"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n"
			"metadata: {name: r%zu, labels: {agg: \"%d\"}}\n"
			"%s\n---\n"
			"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\n"
			"metadata: {name: b%zu}\n"
			"roleRef: {kind: ClusterRole, name: r%zu}\n"
			"subjects: [{kind: ServiceAccount, name: sa%zu, namespace: ns}]\n"
			"---\n",
			i, i, i, i, i, i, (int)(i % 7),
			i % 50 ? "rules: [{apiGroups: [\"\"], resources: [pods], verbs: [get]}]"
			       : "aggregationRule: {clusterRoleSelectors: [{matchLabels: {agg: \"3\"}}]}",
			i, i, i);
	assert_int_equal(fclose(fp), 0);
	tg = tg_load(text, 0);
	t = tcel_new();
	kvet_arena_mark(&t->scratch, &mark);
	tcel_attach(t, &tg.l->arena, tg.g);
	for (i = 0; i < N; i += 1) {
		char name[32];

		snprintf(name, sizeof(name), "c%zu", i);
		t->vars[0] = kvet_cel_from_object(kvet_graph_find(tg.g,
			"admissionregistration.k8s.io",
			"ValidatingWebhookConfiguration", "", name));
		assert_cel_true(t, "webhookEntries(object).all(e, size(configurationPatchJobs(e)) == 0 && !backendMayUpdateConfiguration(e))");
		kvet_arena_reset(&t->scratch, &mark);
	}
	tcel_free(t);
	tg_free(&tg);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(entries),
		cmocka_unit_test(backends),
		cmocka_unit_test(conversion),
		cmocka_unit_test(interception),
		cmocka_unit_test(patchers),
		cmocka_unit_test(urls_and_ca),
		cmocka_unit_test(many_entries),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

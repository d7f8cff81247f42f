/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Webhook entries, effective failure policies and backend resolution
 * (docs/model.md 1.10, with the edge cases of the webhook rules).
 */
#include "tgraph.h"

#include "model/webhook.h"

#define SVC(ns, name, spec)                                                 \
	"apiVersion: v1\nkind: Service\n"                                   \
	"metadata: {name: " name ", namespace: " ns "}\n"                   \
	"spec: " spec "\n---\n"

#define DEPLOY(ns, name, replicas)                                          \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: " ns "}\n"                   \
	"spec:\n" replicas "  selector: {matchLabels: {app: " name "}}\n"   \
	"  template: {metadata: {labels: {app: " name ", part: web}}}\n---\n"

/* webhook-fail-single-backend's example. */
#define FAIL_CONFIG                                                         \
	"apiVersion: admissionregistration.k8s.io/v1\n"                     \
	"kind: ValidatingWebhookConfiguration\n"                            \
	"metadata: {name: alpha-validator}\n"                               \
	"webhooks:\n"                                                       \
	"- name: validate.jobs.example.com\n"                               \
	"  sideEffects: None\n"                                             \
	"  admissionReviewVersions: [v1]\n"                                 \
	"  clientConfig: {service: {namespace: ops, name: alpha-webhook,"   \
	" path: /validate}}\n"                                              \
	"  rules: [{operations: [CREATE, UPDATE], apiGroups: [example.com],"\
	" apiVersions: [v1], resources: [jobs]}]\n"                         \
	"- name: explicit.example.com\n"                                    \
	"  failurePolicy: Ignore\n"                                         \
	"  clientConfig: {service: {namespace: ops, name: alpha-webhook,"   \
	" port: 9443}}\n"                                                   \
	"- name: url.example.com\n"                                         \
	"  failurePolicy: fail\n"                                           \
	"  clientConfig: {url: \"https://webhook.example.com:9443/v\"}\n"   \
	"---\n"

static struct tgraph load(const char *yaml, unsigned int flags,
			  struct kvet_webhooks **whs)
{
	struct tgraph t = tg_load(yaml, flags);

	*whs = kvet_webhooks_create(&t.l->arena, t.g);
	assert_non_null(*whs);
	return t;
}

static const struct kvet_webhook *entry(const struct kvet_webhooks *whs,
					const char *id)
{
	const struct kvet_webhook *const *v;
	size_t n, i;

	v = kvet_webhooks_entries(whs, &n);
	for (i = 0; i < n; i++)
		if (strcmp(v[i]->id, id) == 0)
			return v[i];
	fail_msg("no webhook entry %s", id);
	return NULL;
}

static void e1_example(void **state)
{
	struct kvet_webhooks *whs;
	struct tgraph t = load(
		FAIL_CONFIG
		SVC("ops", "alpha-webhook", "{selector: {app: mgr},"
		    " ports: [{port: 443, targetPort: 9443}]}")
		DEPLOY("ops", "mgr", "")
		DEPLOY("ops", "other", "  replicas: 3\n"),
		0, &whs);
	const struct kvet_webhook *wh;
	const struct kvet_workload *mgr;
	size_t n;

	(void)state;
	kvet_webhooks_entries(whs, &n);
	assert_int_equal(n, 3);
	wh = entry(whs, "ValidatingWebhookConfiguration/alpha-validator"
		   "#validate.jobs.example.com");
	assert_int_equal(wh->source, KVET_WEBHOOK_VALIDATING);
	assert_string_equal(wh->name, "validate.jobs.example.com");
	assert_int_equal(wh->index, 0);
	assert_int_equal(wh->node->line, 5);
	assert_false(wh->v1beta1);
	/* failurePolicy omitted: Fail in v1 */
	assert_int_equal(wh->failure_policy, KVET_FAILURE_FAIL);
	assert_null(wh->failure_policy_node);
	assert_true(wh->match_equivalent);
	assert_true(wh->has_service);
	assert_string_equal(wh->service.namespace, "ops");
	assert_string_equal(wh->service.name, "alpha-webhook");
	assert_string_equal(wh->service.path, "/validate");
	/* no port: 443 */
	assert_int_equal(wh->service.port, 443);
	assert_null(wh->service.port_node);
	assert_int_equal(wh->backend.state, KVET_BACKEND_WORKLOADS);
	assert_non_null(wh->backend.service);
	assert_int_equal(wh->backend.n_wls, 1);
	assert_string_equal(wh->backend.wls[0]->obj->name, "mgr");
	assert_int_equal(wh->backend.n_min, 1);
	assert_int_equal(wh->backend.n_max, 1);
	assert_false(wh->backend.at_least);

	wh = entry(whs, "ValidatingWebhookConfiguration/alpha-validator"
		   "#explicit.example.com");
	assert_int_equal(wh->failure_policy, KVET_FAILURE_IGNORE);
	assert_non_null(wh->failure_policy_node);
	assert_int_equal(wh->service.port, 9443);
	assert_non_null(wh->service.port_node);
	assert_null(wh->service.path);
	/* same Service, same backend */
	assert_int_equal(wh->backend.n_wls, 1);

	/* a url has no resolvable backend; "fail" is not a policy */
	wh = entry(whs, "ValidatingWebhookConfiguration/alpha-validator"
		   "#url.example.com");
	assert_int_equal(wh->failure_policy, KVET_FAILURE_INVALID);
	assert_false(wh->has_service);
	assert_non_null(wh->url);
	assert_int_equal(wh->backend.state, KVET_BACKEND_URL);
	assert_int_equal(wh->backend.n_wls, 0);

	mgr = tg_wl(&t, "apps", "Deployment", "ops", "mgr");
	kvet_webhooks_backed_by(whs, mgr, &n);
	assert_int_equal(n, 2);
	kvet_webhooks_backed_by(whs, tg_wl(&t, "apps", "Deployment", "ops",
					   "other"), &n);
	assert_int_equal(n, 0);
	kvet_webhooks_destroy(whs);
	tg_free(&t);
}

/* Section 4: v1beta1 without failurePolicy is Ignore, matchPolicy Exact. */
static void v1beta1_defaults(void **state)
{
	struct kvet_webhooks *whs;
	struct tgraph t = load(
		"apiVersion: admissionregistration.k8s.io/v1beta1\n"
		"kind: MutatingWebhookConfiguration\n"
		"metadata: {name: old}\n"
		"webhooks:\n- name: a.example.com\n"
		"  clientConfig: {service: {namespace: ops, name: gone}}\n"
		"- name: b.example.com\n  matchPolicy: Equivalent\n"
		"  clientConfig: {}\n- not a mapping\n",
		0, &whs);
	const struct kvet_webhook *wh;
	size_t n;

	(void)state;
	kvet_webhooks_entries(whs, &n);
	assert_int_equal(n, 2);
	wh = entry(whs, "MutatingWebhookConfiguration/old#a.example.com");
	assert_int_equal(wh->source, KVET_WEBHOOK_MUTATING);
	assert_true(wh->v1beta1);
	assert_int_equal(wh->failure_policy, KVET_FAILURE_IGNORE);
	assert_null(wh->failure_policy_node);
	assert_false(wh->match_equivalent);
	assert_int_equal(wh->backend.state, KVET_BACKEND_MISSING);
	assert_null(wh->backend.service);
	wh = entry(whs, "MutatingWebhookConfiguration/old#b.example.com");
	assert_true(wh->match_equivalent);
	assert_int_equal(wh->backend.state, KVET_BACKEND_NONE);
	assert_int_equal(wh->index, 1);
	kvet_webhooks_destroy(whs);
	tg_free(&t);
}

#define HOOK(name, svc)                                                     \
	"- name: " name "\n  clientConfig: {service: {namespace: ops,"      \
	" name: " svc "}}\n"

/* Section 4: HPA minReplicas with replicas absent; several backends. */
static void backend_counts(void **state)
{
	struct kvet_webhooks *whs;
	struct tgraph t = load(
		"apiVersion: admissionregistration.k8s.io/v1\n"
		"kind: ValidatingWebhookConfiguration\n"
		"metadata: {name: c}\nwebhooks:\n"
		HOOK("hpa", "hpa-svc") HOOK("pair", "pair-svc")
		HOOK("ds", "ds-svc") HOOK("ext", "ext-svc")
		HOOK("empty", "empty-svc") HOOK("nomatch", "nomatch-svc")
		"---\n"
		SVC("ops", "hpa-svc", "{selector: {app: scaled}}")
		SVC("ops", "pair-svc", "{selector: {part: web}}")
		SVC("ops", "ds-svc", "{selector: {app: agent}}")
		SVC("ops", "ext-svc", "{type: ExternalName,"
		    " externalName: x.example.com}")
		SVC("ops", "empty-svc", "{selector: {}}")
		SVC("ops", "nomatch-svc", "{selector: {app: nothing}}")
		DEPLOY("ops", "scaled", "")
		DEPLOY("ops", "three", "  replicas: 3\n")
		/* same labels in another namespace: not a backend */
		DEPLOY("dev", "three", "  replicas: 3\n")
		"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
		"metadata: {name: scaled, namespace: ops}\n"
		"spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment,"
		" name: scaled}\n  minReplicas: 2\n  maxReplicas: 5\n---\n"
		"apiVersion: apps/v1\nkind: DaemonSet\n"
		"metadata: {name: agent, namespace: ops}\n"
		"spec:\n  selector: {matchLabels: {app: agent}}\n"
		"  template: {metadata: {labels: {app: agent}}}\n",
		0, &whs);
	const struct kvet_webhook *wh;

	(void)state;
	wh = entry(whs, "ValidatingWebhookConfiguration/c#hpa");
	assert_int_equal(wh->backend.n_wls, 1);
	assert_int_equal(wh->backend.n_min, 2);
	assert_int_equal(wh->backend.n_max, 5);
	wh = entry(whs, "ValidatingWebhookConfiguration/c#pair");
	assert_int_equal(wh->backend.n_wls, 2);
	assert_int_equal(wh->backend.n_min, 5);
	assert_int_equal(wh->backend.n_max, 8);
	wh = entry(whs, "ValidatingWebhookConfiguration/c#ds");
	assert_int_equal(wh->backend.n_min, 2);
	assert_true(wh->backend.at_least);
	wh = entry(whs, "ValidatingWebhookConfiguration/c#ext");
	assert_int_equal(wh->backend.state, KVET_BACKEND_EXTERNAL);
	assert_int_equal(wh->backend.n_wls, 0);
	wh = entry(whs, "ValidatingWebhookConfiguration/c#empty");
	assert_int_equal(wh->backend.state, KVET_BACKEND_WORKLOADS);
	assert_int_equal(wh->backend.n_wls, 0);
	assert_int_equal(wh->backend.n_max, 0);
	wh = entry(whs, "ValidatingWebhookConfiguration/c#nomatch");
	assert_int_equal(wh->backend.n_wls, 0);
	assert_string_equal(kvet_backend_state_name(wh->backend.state),
			    "workloads");
	kvet_webhooks_destroy(whs);
	tg_free(&t);
}

/* Dump mode knows a DaemonSet's count. */
static void daemonset_in_dump_mode(void **state)
{
	struct kvet_webhooks *whs;
	struct tgraph t = load(
		"apiVersion: admissionregistration.k8s.io/v1\n"
		"kind: ValidatingWebhookConfiguration\n"
		"metadata: {name: c}\nwebhooks:\n" HOOK("ds", "ds-svc") "---\n"
		SVC("ops", "ds-svc", "{selector: {app: agent}}")
		"apiVersion: apps/v1\nkind: DaemonSet\n"
		"metadata: {name: agent, namespace: ops}\n"
		"spec:\n  selector: {matchLabels: {app: agent}}\n"
		"  template: {metadata: {labels: {app: agent}}}\n"
		"status: {desiredNumberScheduled: 3}\n",
		0, &whs);
	const struct kvet_webhook *wh;

	(void)state;
	assert_true(kvet_graph_dump_mode(t.g));
	wh = entry(whs, "ValidatingWebhookConfiguration/c#ds");
	assert_int_equal(wh->backend.n_min, 3);
	assert_false(wh->backend.at_least);
	kvet_webhooks_destroy(whs);
	tg_free(&t);
}

/* CRD conversion webhooks and APIServices are backends too (M1). */
static void conversion_and_apiservice(void **state)
{
	struct kvet_webhooks *whs;
	struct tgraph t = load(
		"apiVersion: apiextensions.k8s.io/v1\n"
		"kind: CustomResourceDefinition\n"
		"metadata: {name: widgets.example.com}\n"
		"spec:\n  group: example.com\n  names: {plural: widgets}\n"
		"  conversion:\n    strategy: Webhook\n"
		"    webhook:\n      clientConfig:\n"
		"        service: {namespace: ops, name: conv, port: 8443}\n"
		"---\napiVersion: apiextensions.k8s.io/v1\n"
		"kind: CustomResourceDefinition\n"
		"metadata: {name: plain.example.com}\n"
		"spec:\n  group: example.com\n  conversion: {strategy: None}\n"
		"---\napiVersion: apiextensions.k8s.io/v1beta1\n"
		"kind: CustomResourceDefinition\n"
		"metadata: {name: olds.example.com}\n"
		"spec:\n  group: example.com\n  names: {plural: olds}\n"
		"  conversion:\n    strategy: Webhook\n"
		"    webhookClientConfig: {url: \"https://x.example.com\"}\n"
		"---\napiVersion: apiregistration.k8s.io/v1\nkind: APIService\n"
		"metadata: {name: v1beta1.metrics.k8s.io}\n"
		"spec: {service: {namespace: ops, name: metrics}}\n"
		"---\napiVersion: apiregistration.k8s.io/v1\nkind: APIService\n"
		"metadata: {name: v1.apps}\nspec: {service: null}\n---\n"
		SVC("ops", "conv", "{selector: {app: conv}}")
		SVC("ops", "metrics", "{selector: {app: metrics}}")
		DEPLOY("ops", "conv", "")
		DEPLOY("ops", "metrics", "  replicas: 2\n"),
		0, &whs);
	const struct kvet_apiservice *const *apis;
	const struct kvet_webhook *wh;
	size_t n;

	(void)state;
	kvet_webhooks_entries(whs, &n);
	assert_int_equal(n, 2);
	wh = entry(whs, "CustomResourceDefinition/widgets.example.com"
		   "#conversion");
	assert_int_equal(wh->source, KVET_WEBHOOK_CONVERSION);
	assert_int_equal(wh->failure_policy, KVET_FAILURE_FAIL);
	assert_string_equal(wh->crd_group, "example.com");
	assert_string_equal(wh->crd_plural, "widgets");
	assert_int_equal(wh->service.port, 8443);
	assert_int_equal(wh->backend.n_wls, 1);
	assert_string_equal(wh->backend.wls[0]->obj->name, "conv");
	wh = entry(whs, "CustomResourceDefinition/olds.example.com#conversion");
	assert_int_equal(wh->backend.state, KVET_BACKEND_URL);

	apis = kvet_webhooks_apiservices(whs, &n);
	assert_int_equal(n, 1);
	assert_string_equal(apis[0]->obj->name, "v1beta1.metrics.k8s.io");
	assert_int_equal(apis[0]->service.port, 443);
	assert_int_equal(apis[0]->backend.n_min, 2);
	apis = kvet_apiservices_backed_by(whs, tg_wl(&t, "apps", "Deployment",
						     "ops", "metrics"), &n);
	assert_int_equal(n, 1);
	assert_string_equal(apis[0]->obj->name, "v1beta1.metrics.k8s.io");
	kvet_webhooks_backed_by(whs, tg_wl(&t, "apps", "Deployment", "ops",
					   "metrics"), &n);
	assert_int_equal(n, 0);
	kvet_webhooks_backed_by(whs, tg_wl(&t, "apps", "Deployment", "ops",
					   "conv"), &n);
	assert_int_equal(n, 1);
	kvet_webhooks_destroy(whs);
	tg_free(&t);
}

/* One workload behind entries of two configurations, in input order. */
static void workload_to_entries_index(void **state)
{
	struct kvet_webhooks *whs;
	struct tgraph t = load(
		"apiVersion: admissionregistration.k8s.io/v1\n"
		"kind: MutatingWebhookConfiguration\n"
		"metadata: {name: m}\nwebhooks:\n" HOOK("one", "svc")
		"---\napiVersion: admissionregistration.k8s.io/v1\n"
		"kind: ValidatingWebhookConfiguration\n"
		"metadata: {name: v}\nwebhooks:\n" HOOK("two", "svc")
		HOOK("three", "other") "---\n"
		SVC("ops", "svc", "{selector: {part: web}}")
		SVC("ops", "other", "{selector: {app: b}}")
		DEPLOY("ops", "a", "") DEPLOY("ops", "b", ""),
		0, &whs);
	const struct kvet_webhook *const *v;
	size_t n;

	(void)state;
	v = kvet_webhooks_backed_by(whs, tg_wl(&t, "apps", "Deployment", "ops",
					       "a"), &n);
	assert_int_equal(n, 2);
	assert_string_equal(v[0]->id, "MutatingWebhookConfiguration/m#one");
	assert_string_equal(v[1]->id, "ValidatingWebhookConfiguration/v#two");
	v = kvet_webhooks_backed_by(whs, tg_wl(&t, "apps", "Deployment", "ops",
					       "b"), &n);
	assert_int_equal(n, 3);
	assert_string_equal(v[2]->id, "ValidatingWebhookConfiguration/v#three");
	assert_string_equal(kvet_failure_policy_name(v[2]->failure_policy),
			    "Fail");
	kvet_webhooks_destroy(whs);
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(e1_example),
		cmocka_unit_test(v1beta1_defaults),
		cmocka_unit_test(backend_counts),
		cmocka_unit_test(daemonset_in_dump_mode),
		cmocka_unit_test(conversion_and_apiservice),
		cmocka_unit_test(workload_to_entries_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

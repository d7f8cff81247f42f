/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The interception predicate (docs/model.md 1.11) and the cases of rules
 * webhook-self-deadlock and webhook-intercepts-system-critical.
 */
#include "tgraph.h"

#include "model/intercept.h"
#include "model/webhook.h"

/* One MutatingWebhookConfiguration "c" with entry "w" and @fields. */
#define HOOK(fields)                                                        \
	"apiVersion: admissionregistration.k8s.io/v1\n"                     \
	"kind: MutatingWebhookConfiguration\n"                              \
	"metadata: {name: c}\nwebhooks:\n- name: w\n"                       \
	"  failurePolicy: Fail\n"                                           \
	"  clientConfig: {service: {namespace: ops, name: injector}}\n"     \
	fields "---\n"

#define POD_RULE                                                            \
	"  rules: [{operations: [CREATE], apiGroups: [\"\"],"               \
	" apiVersions: [v1], resources: [pods]}]\n"

#define INJECTOR                                                            \
	"apiVersion: v1\nkind: Service\n"                                   \
	"metadata: {name: injector, namespace: ops}\n"                      \
	"spec: {selector: {app: injector}}\n---\n"                          \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: injector, namespace: ops}\n"                      \
	"spec:\n  selector: {matchLabels: {app: injector}}\n"               \
	"  template: {metadata: {labels: {app: injector}}}\n---\n"

struct fixture {
	struct tgraph t;
	struct kvet_webhooks *whs;
	const struct kvet_webhook *wh;
	const struct kvet_workload *wl;	/* ops/injector */
	struct kvet_pod_runtime rt;
};

static void setup(struct fixture *f, const char *yaml)
{
	const struct kvet_webhook *const *v;
	size_t n;

	f->t = tg_load(yaml, 0);
	f->whs = kvet_webhooks_create(&f->t.l->arena, f->t.g);
	assert_non_null(f->whs);
	v = kvet_webhooks_entries(f->whs, &n);
	assert_true(n >= 1);
	f->wh = v[0];
	f->wl = NULL;
	if (kvet_graph_find(f->t.g, "apps", "Deployment", "ops", "injector")) {
		f->wl = tg_wl(&f->t, "apps", "Deployment", "ops", "injector");
		kvet_workload_runtime(f->wl, 0, 0, &f->rt);
	}
}

static void teardown(struct fixture *f)
{
	kvet_webhooks_destroy(f->whs);
	tg_free(&f->t);
}

/* webhook-self-deadlock's question: CREATE of a backend pod in namespace
 * @ns. */
static enum kvet_match pod_create(struct fixture *f, const char *ns,
				  struct kvet_interception *why)
{
	struct kvet_request req = {
		"CREATE", "", "v1", "pods", "", ns,
		f->wl ? &f->wl->labels : NULL, f->wl ? &f->rt : NULL,
	};

	return kvet_webhook_intercepts(f->t.g, f->wh, &req, why);
}

static enum kvet_match ask(struct fixture *f, const char *op,
			   const char *group, const char *version,
			   const char *resource, const char *sub,
			   const char *ns)
{
	struct kvet_request req = { op, group, version, resource, sub, ns,
				    NULL, NULL };

	return kvet_webhook_intercepts(f->t.g, f->wh, &req, NULL);
}

/* webhook-self-deadlock's example deadlocks: TRUE, with the matching rule
 * for positions. */
static void self_deadlock(void **state)
{
	struct kvet_interception why;
	struct fixture f;

	(void)state;
	setup(&f, HOOK(POD_RULE) INJECTOR);
	assert_int_equal(pod_create(&f, "ops", &why), KVET_MATCH_TRUE);
	assert_non_null(why.rule);
	assert_int_equal(why.rule->line, 8);
	assert_int_equal(why.namespace_step, KVET_MATCH_TRUE);
	assert_int_equal(why.object_step, KVET_MATCH_TRUE);
	assert_false(why.conditions);
	/* other operations, groups, versions and resources */
	assert_int_equal(ask(&f, "UPDATE", "", "v1", "pods", "", "ops"),
			 KVET_MATCH_FALSE);
	assert_int_equal(ask(&f, "CREATE", "apps", "v1", "pods", "", "ops"),
			 KVET_MATCH_FALSE);
	assert_int_equal(ask(&f, "CREATE", "", "v1", "services", "", "ops"),
			 KVET_MATCH_FALSE);
	assert_int_equal(ask(&f, "CREATE", "", "v1", "pods", "status", "ops"),
			 KVET_MATCH_FALSE);
	teardown(&f);
}

/* The fix the docs recommend: exclude the webhook's own namespace. */
static void namespace_excluded_by_name(void **state)
{
	struct kvet_interception why;
	struct fixture f;

	(void)state;
	setup(&f, HOOK(POD_RULE
		       "  namespaceSelector: {matchExpressions: [{key:"
		       " kubernetes.io/metadata.name, operator: NotIn,"
		       " values: [ops, kube-system]}]}\n") INJECTOR);
	/* no Namespace object, but the name label is always known */
	assert_int_equal(pod_create(&f, "ops", &why), KVET_MATCH_FALSE);
	assert_int_equal(why.namespace_step, KVET_MATCH_FALSE);
	assert_int_equal(pod_create(&f, "dev", NULL), KVET_MATCH_TRUE);
	teardown(&f);
}

/* Section 4: absent Namespace, opt-out vs opt-in namespaceSelector. */
static void assumed_namespace_results(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, HOOK(POD_RULE
		       "  namespaceSelector: {matchExpressions: [{key:"
		       " admission.example.com/ignore, operator: DoesNotExist}]}\n")
		  INJECTOR);
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_ASSUMED_TRUE);
	teardown(&f);

	setup(&f, HOOK(POD_RULE
		       "  namespaceSelector: {matchExpressions: [{key:"
		       " team, operator: NotIn, values: [platform]}]}\n")
		  INJECTOR);
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_ASSUMED_TRUE);
	teardown(&f);

	setup(&f, HOOK(POD_RULE
		       "  namespaceSelector: {matchLabels:"
		       " {istio-injection: enabled}}\n") INJECTOR);
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_ASSUMED_FALSE);
	teardown(&f);

	setup(&f, HOOK(POD_RULE
		       "  namespaceSelector: {matchExpressions: [{key:"
		       " istio-injection, operator: Exists}]}\n") INJECTOR);
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_ASSUMED_FALSE);
	teardown(&f);

	/* with the Namespace object the answer is certain */
	setup(&f, HOOK(POD_RULE
		       "  namespaceSelector: {matchLabels:"
		       " {istio-injection: enabled}}\n") INJECTOR
		  "apiVersion: v1\nkind: Namespace\nmetadata: {name: ops,"
		  " labels: {istio-injection: enabled}}\n---\n"
		  "apiVersion: v1\nkind: Namespace\nmetadata: {name: dev}\n");
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_TRUE);
	assert_int_equal(pod_create(&f, "dev", NULL), KVET_MATCH_FALSE);
	teardown(&f);
}

/* Section 4: matchConditions make a TRUE result UNKNOWN, nothing else. */
static void match_conditions_unknown(void **state)
{
	struct kvet_interception why;
	struct fixture f;

	(void)state;
	setup(&f, HOOK(POD_RULE
		       "  matchConditions: [{name: c, expression: \"true\"}]\n"
		       "  namespaceSelector: {matchExpressions: [{key:"
		       " kubernetes.io/metadata.name, operator: In,"
		       " values: [ops]}]}\n") INJECTOR);
	assert_int_equal(pod_create(&f, "ops", &why), KVET_MATCH_UNKNOWN);
	assert_true(why.conditions);
	assert_int_equal(pod_create(&f, "dev", NULL), KVET_MATCH_FALSE);
	teardown(&f);

	setup(&f, HOOK(POD_RULE
		       "  matchConditions: [{name: c, expression: \"true\"}]\n"
		       "  namespaceSelector: {matchLabels: {x: z}}\n") INJECTOR);
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_ASSUMED_FALSE);
	teardown(&f);

	setup(&f, HOOK(POD_RULE
		       "  matchConditions: [{name: c, expression: \"true\"}]\n"
		       "  namespaceSelector: {matchExpressions: [{key: x,"
		       " operator: DoesNotExist}]}\n") INJECTOR);
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_UNKNOWN);
	teardown(&f);

	/* an empty list is no condition */
	setup(&f, HOOK(POD_RULE "  matchConditions: []\n") INJECTOR);
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_TRUE);
	teardown(&f);
}

/* Section 4: apiGroups ["null"] is a literal group; [null] is core. */
static void null_api_group(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, HOOK("  rules: [{operations: [\"*\"], apiGroups: [\"null\"],"
		       " apiVersions: [\"*\"], resources: [\"*\"]}]\n") INJECTOR);
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_FALSE);
	assert_int_equal(ask(&f, "CREATE", "apps", "v1", "deployments", "",
			     "ops"), KVET_MATCH_FALSE);
	assert_int_equal(ask(&f, "CREATE", "null", "v1", "things", "",
			     "ops"), KVET_MATCH_TRUE);
	teardown(&f);

	setup(&f, HOOK("  rules: [{operations: [CREATE], apiGroups: [null],"
		       " apiVersions: [v1], resources: [pods]}]\n") INJECTOR);
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_TRUE);
	teardown(&f);
}

/* objectSelector against template labels plus runtime labels. */
static void object_selector(void **state)
{
	struct kvet_interception why;
	struct fixture f;

	(void)state;
	setup(&f, HOOK(POD_RULE "  objectSelector: {matchLabels:"
		       " {app: other}}\n") INJECTOR);
	assert_int_equal(pod_create(&f, "ops", &why), KVET_MATCH_FALSE);
	assert_int_equal(why.object_step, KVET_MATCH_FALSE);
	teardown(&f);

	setup(&f, HOOK(POD_RULE "  objectSelector: {matchExpressions: [{key:"
		       " pod-template-hash, operator: Exists}]}\n") INJECTOR);
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_TRUE);
	/* without runtime labels the key is absent */
	f.wl = NULL;
	assert_int_equal(pod_create(&f, "ops", NULL), KVET_MATCH_FALSE);
	teardown(&f);
}

/* webhook-intercepts-system-critical: wildcards, subresources and scope. */
static void wildcards_subresources_scope(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, HOOK("  rules: [{operations: [\"*\"], apiGroups: [\"*\"],"
		       " apiVersions: [\"*\"], resources: [\"*\"]}]\n"
		       "  namespaceSelector: {}\n"));
	assert_int_equal(ask(&f, "CREATE", "", "v1", "pods", "", "kube-system"),
			 KVET_MATCH_TRUE);
	assert_int_equal(ask(&f, "UPDATE", "coordination.k8s.io", "v1",
			     "leases", "", "kube-node-lease"), KVET_MATCH_TRUE);
	assert_int_equal(ask(&f, "CREATE", "", "v1", "nodes", "", ""),
			 KVET_MATCH_TRUE);
	/* "*" excludes subresources */
	assert_int_equal(ask(&f, "CREATE", "", "v1", "pods", "eviction", "ops"),
			 KVET_MATCH_FALSE);
	/* never for webhook configurations */
	assert_int_equal(ask(&f, "UPDATE", "admissionregistration.k8s.io", "v1",
			     "validatingwebhookconfigurations", "", ""),
			 KVET_MATCH_FALSE);
	teardown(&f);

	setup(&f, HOOK("  rules:\n"
		       "  - {operations: [CREATE], apiGroups: [\"\"],"
		       " apiVersions: [v1], resources: [\"*/eviction\"]}\n"
		       "  - {operations: [UPDATE], apiGroups: [\"\"],"
		       " apiVersions: [v1], resources: [\"pods/*\"]}\n"
		       "  - {operations: [DELETE], apiGroups: [\"*\"],"
		       " apiVersions: [\"*\"], resources: [\"*/*\"]}\n"));
	assert_int_equal(ask(&f, "CREATE", "", "v1", "pods", "eviction", "ops"),
			 KVET_MATCH_TRUE);
	assert_int_equal(ask(&f, "CREATE", "", "v1", "pods", "status", "ops"),
			 KVET_MATCH_FALSE);
	assert_int_equal(ask(&f, "UPDATE", "", "v1", "pods", "status", "ops"),
			 KVET_MATCH_TRUE);
	assert_int_equal(ask(&f, "UPDATE", "", "v1", "pods", "", "ops"),
			 KVET_MATCH_FALSE);
	assert_int_equal(ask(&f, "DELETE", "apps", "v1", "deployments", "scale",
			     "ops"), KVET_MATCH_TRUE);
	assert_int_equal(ask(&f, "DELETE", "apps", "v1", "deployments", "",
			     "ops"), KVET_MATCH_TRUE);
	assert_int_equal(ask(&f, "DELETE", "admissionregistration.k8s.io", "v1",
			     "mutatingwebhookconfigurations", "", ""),
			 KVET_MATCH_FALSE);
	teardown(&f);

	/* its negative example: Namespaced plus a kube-system opt-out */
	setup(&f, HOOK("  rules: [{operations: [\"*\"], apiGroups: [\"*\"],"
		       " apiVersions: [\"*\"], resources: [\"*\"],"
		       " scope: Namespaced}]\n"
		       "  namespaceSelector: {matchExpressions: [{key:"
		       " kubernetes.io/metadata.name, operator: NotIn,"
		       " values: [kube-system, kube-node-lease]}]}\n"));
	assert_int_equal(ask(&f, "CREATE", "", "v1", "nodes", "", ""),
			 KVET_MATCH_FALSE);
	assert_int_equal(ask(&f, "CREATE", "", "v1", "pods", "", "kube-system"),
			 KVET_MATCH_FALSE);
	assert_int_equal(ask(&f, "CREATE", "", "v1", "pods", "", "ops"),
			 KVET_MATCH_TRUE);
	teardown(&f);

	/* Cluster scope; the namespaceSelector never skips cluster-scoped */
	setup(&f, HOOK("  rules: [{operations: [\"*\"], apiGroups: [\"*\"],"
		       " apiVersions: [\"*\"], resources: [\"*\"],"
		       " scope: Cluster}]\n"
		       "  namespaceSelector: {matchLabels: {never: here}}\n"));
	assert_int_equal(ask(&f, "CREATE", "authentication.k8s.io", "v1",
			     "tokenreviews", "", ""), KVET_MATCH_TRUE);
	assert_int_equal(ask(&f, "CREATE", "", "v1", "pods", "", "ops"),
			 KVET_MATCH_FALSE);
	teardown(&f);
}

/* matchPolicy: Equivalent (v1 default) accepts any version. */
static void match_policy(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, HOOK("  matchPolicy: Exact\n"
		       "  rules: [{operations: [CREATE], apiGroups: [batch],"
		       " apiVersions: [v1beta1], resources: [cronjobs]}]\n"));
	assert_int_equal(ask(&f, "CREATE", "batch", "v1", "cronjobs", "", "ops"),
			 KVET_MATCH_FALSE);
	assert_int_equal(ask(&f, "CREATE", "batch", "v1beta1", "cronjobs", "",
			     "ops"), KVET_MATCH_TRUE);
	teardown(&f);

	setup(&f, HOOK("  rules: [{operations: [CREATE], apiGroups: [batch],"
		       " apiVersions: [v1beta1], resources: [cronjobs]}]\n"));
	assert_true(f.wh->match_equivalent);
	assert_int_equal(ask(&f, "CREATE", "batch", "v1", "cronjobs", "", "ops"),
			 KVET_MATCH_TRUE);
	teardown(&f);
}

/* A CRD conversion webhook intercepts every request for its resource. */
static void conversion_webhook(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, "apiVersion: apiextensions.k8s.io/v1\n"
		  "kind: CustomResourceDefinition\n"
		  "metadata: {name: widgets.example.com}\n"
		  "spec:\n  group: example.com\n  names: {plural: widgets}\n"
		  "  conversion:\n    strategy: Webhook\n"
		  "    webhook: {clientConfig: {url: \"https://x.example.com\"}}\n");
	assert_int_equal(ask(&f, "DELETE", "example.com", "v2", "widgets", "",
			     "ops"), KVET_MATCH_TRUE);
	assert_int_equal(ask(&f, "UPDATE", "example.com", "v1", "widgets",
			     "status", "ops"), KVET_MATCH_TRUE);
	assert_int_equal(ask(&f, "CREATE", "example.com", "v1", "gadgets", "",
			     "ops"), KVET_MATCH_FALSE);
	teardown(&f);
}

/* The words a drain message gives for what an entry intercepts: the
 * first @max rules, each rule's operations then its resources. */
static void rules_text(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f, HOOK("  rules:\n"
		       "  - {operations: [CREATE, UPDATE], resources: [pods, services]}\n"
		       "  - {apiGroups: [apps]}\n"
		       "  - {operations: [DELETE], resources: [deployments]}\n"
		       "  - {operations: [CONNECT]}\n"));
	assert_string_equal(kvet_webhook_rules_text(&f.t.l->arena, f.wh, 4),
			    "CREATE UPDATE pods, services; DELETE deployments; CONNECT ");
	assert_string_equal(kvet_webhook_rules_text(&f.t.l->arena, f.wh, 1),
			    "CREATE UPDATE pods, services");
	teardown(&f);
	setup(&f, HOOK(""));
	assert_string_equal(kvet_webhook_rules_text(&f.t.l->arena, f.wh, 4), "");
	teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(self_deadlock),
		cmocka_unit_test(namespace_excluded_by_name),
		cmocka_unit_test(assumed_namespace_results),
		cmocka_unit_test(match_conditions_unknown),
		cmocka_unit_test(null_api_group),
		cmocka_unit_test(object_selector),
		cmocka_unit_test(wildcards_subresources_scope),
		cmocka_unit_test(match_policy),
		cmocka_unit_test(conversion_webhook),
		cmocka_unit_test(rules_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

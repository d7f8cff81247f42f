/* SPDX-License-Identifier: Apache-2.0 */
/* Managers (docs/model.md 1.12): M1 to M6 and why each matched. */
#include "tgraph.h"

#include "model/manager.h"
#include "model/rbac.h"
#include "model/webhook.h"

#define DEPLOY(name, meta, tlabels, spec)                                   \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: ops" meta "}\n"              \
	"spec:\n  selector: {matchLabels: {app: " name "}}\n"               \
	"  template:\n    metadata: {labels: {app: " name tlabels "}}\n"    \
	"    spec: " spec "\n---\n"

static const char *const yaml =
	"apiVersion: admissionregistration.k8s.io/v1\n"
	"kind: ValidatingWebhookConfiguration\n"
	"metadata: {name: v}\nwebhooks:\n- name: w.example.com\n"
	"  clientConfig: {service: {namespace: ops, name: hook}}\n---\n"
	"apiVersion: v1\nkind: Service\nmetadata: {name: hook, namespace: ops}\n"
	"spec: {selector: {app: backend}}\n---\n"
	"apiVersion: apiregistration.k8s.io/v1\nkind: APIService\n"
	"metadata: {name: v1beta1.metrics.k8s.io}\n"
	"spec: {service: {namespace: ops, name: metrics}}\n---\n"
	"apiVersion: v1\nkind: Service\nmetadata: {name: metrics, namespace: ops}\n"
	"spec: {selector: {app: metrics}}\n---\n"
	DEPLOY("backend", "", "", "{containers: [{name: srv}]}")
	DEPLOY("metrics", "", "", "{containers: [{name: srv}]}")
	DEPLOY("elect", "", "",
	       "{containers: [{name: srv, args: [\"--leader-elect=false\"]}]}")
	DEPLOY("own-label", ", labels: {app.kubernetes.io/component: controller}",
	       "", "{containers: [{name: srv}]}")
	DEPLOY("tmpl-label", "", ", app.kubernetes.io/component: webhook-server",
	       "{containers: [{name: srv}]}")
	DEPLOY("kubebuilder", "", ", control-plane: controller-manager",
	       "{containers: [{name: srv}]}")
	DEPLOY("custom", "", ", app.kubernetes.io/component: brain",
	       "{containers: [{name: srv}]}")
	DEPLOY("db", "", ", app.kubernetes.io/component: database",
	       "{containers: [{name: srv}]}")
	DEPLOY("named", "", "", "{containers: [{name: proxy}, {name: manager}]}")
	DEPLOY("cmd", "", "", "{containers: [{name: c, command: [/manager]}]}")
	DEPLOY("bare-cmd", "", "", "{containers: [{name: c, command: [manager]}]}")
	DEPLOY("everything", ", labels: {app.kubernetes.io/component: operator}",
	       "", "{containers: [{name: manager, args: [\"--leader-elect\"]}]}");

struct fixture {
	struct tgraph t;
	struct kvet_webhooks *whs;
};

static void setup(struct fixture *f, const struct kvet_graph_config *cfg)
{
	f->t = tg_load_cfg(yaml, cfg);
	f->whs = kvet_webhooks_create(&f->t.l->arena, f->t.g);
	assert_non_null(f->whs);
}

static void teardown(struct fixture *f)
{
	kvet_webhooks_destroy(f->whs);
	tg_free(&f->t);
}

static struct kvet_manager of(struct fixture *f, const char *name)
{
	struct kvet_manager m;

	assert_int_equal(kvet_manager_of(&f->t.l->arena, f->t.g, f->whs, NULL,
					 tg_wl(&f->t, "apps", "Deployment",
					       "ops", name), &m), 0);
	return m;
}

static void criteria(void **state)
{
	struct kvet_graph_config cfg = { 0 };
	struct kvet_manager m;
	struct fixture f;

	(void)state;
	setup(&f, &cfg);
	m = of(&f, "backend");
	assert_int_equal(m.criteria, KVET_MANAGER_BACKEND);
	assert_true(kvet_manager_is(&m));
	assert_string_equal(m.entry->id,
			    "ValidatingWebhookConfiguration/v#w.example.com");
	assert_null(m.apiservice);
	m = of(&f, "metrics");
	assert_int_equal(m.criteria, KVET_MANAGER_BACKEND);
	assert_null(m.entry);
	assert_string_equal(m.apiservice->obj->name, "v1beta1.metrics.k8s.io");
	/* an explicit "off" is evidence of a manager too */
	m = of(&f, "elect");
	assert_int_equal(m.criteria, KVET_MANAGER_LEADER_ELECTION);
	assert_int_equal(m.leader.state, KVET_LEADER_OFF);
	m = of(&f, "own-label");
	assert_int_equal(m.criteria, KVET_MANAGER_COMPONENT);
	assert_true(kvet_node_text_eq(m.label, "controller"));
	assert_int_equal(of(&f, "tmpl-label").criteria, KVET_MANAGER_COMPONENT);
	m = of(&f, "kubebuilder");
	assert_int_equal(m.criteria, KVET_MANAGER_COMPONENT);
	assert_true(kvet_node_text_eq(m.label, "controller-manager"));
	assert_int_equal(of(&f, "custom").criteria, 0);
	m = of(&f, "db");
	assert_int_equal(m.criteria, 0);
	assert_false(kvet_manager_is(&m));
	assert_null(m.label);
	m = of(&f, "named");
	assert_int_equal(m.criteria, KVET_MANAGER_CONTAINER);
	assert_true(kvet_node_eq(m.container_evidence, "manager"));
	m = of(&f, "cmd");
	assert_int_equal(m.criteria, KVET_MANAGER_CONTAINER);
	assert_true(kvet_node_eq(m.container_evidence, "/manager"));
	assert_int_equal(of(&f, "bare-cmd").criteria, 0);
	m = of(&f, "everything");
	assert_int_equal(m.criteria, KVET_MANAGER_LEADER_ELECTION |
				     KVET_MANAGER_COMPONENT |
				     KVET_MANAGER_CONTAINER);
	assert_int_equal(m.leader.state, KVET_LEADER_ON);
	teardown(&f);
}

/* Configured component values add to the defaults. */
static void configured_components(void **state)
{
	static const char *const values[] = { "brain" };
	struct kvet_graph_config cfg = { 0 };
	struct fixture f;

	(void)state;
	cfg.manager_components.v = values;
	cfg.manager_components.n = 1;
	setup(&f, &cfg);
	assert_int_equal(of(&f, "custom").criteria, KVET_MANAGER_COMPONENT);
	/* "controller" is still one of the defaults */
	assert_int_equal(of(&f, "own-label").criteria, KVET_MANAGER_COMPONENT);
	assert_int_equal(of(&f, "db").criteria, 0);
	teardown(&f);
}

/* ...or, asked to, replace them; an empty replacement switches M3's
 * values off. */
static void replaced_components(void **state)
{
	static const char *const values[] = { "brain" };
	struct kvet_graph_config cfg = { 0 };
	struct fixture f;

	(void)state;
	cfg.manager_components.v = values;
	cfg.manager_components.n = 1;
	cfg.manager_components.replace = true;
	setup(&f, &cfg);
	assert_int_equal(of(&f, "custom").criteria, KVET_MANAGER_COMPONENT);
	assert_int_equal(of(&f, "own-label").criteria, 0);
	/* the kubebuilder label is not a component value */
	assert_int_equal(of(&f, "kubebuilder").criteria,
			 KVET_MANAGER_COMPONENT);
	teardown(&f);
	cfg.manager_components.n = 0;
	setup(&f, &cfg);
	assert_int_equal(of(&f, "custom").criteria, 0);
	assert_int_equal(of(&f, "tmpl-label").criteria, 0);
	teardown(&f);
}

static void names(void **state)
{
	(void)state;
	assert_string_equal(kvet_manager_criterion_name(KVET_MANAGER_BACKEND),
			    "webhook backend");
	assert_string_equal(kvet_manager_criterion_name(
				KVET_MANAGER_LEADER_ELECTION),
			    "leader election");
	assert_string_equal(kvet_manager_criterion_name(KVET_MANAGER_COMPONENT),
			    "component label");
	assert_string_equal(kvet_manager_criterion_name(KVET_MANAGER_CONTAINER),
			    "manager container");
	assert_string_equal(kvet_manager_criterion_name(KVET_MANAGER_NAME),
			    "controller name");
	assert_string_equal(kvet_manager_criterion_name(KVET_MANAGER_RBAC),
			    "controller RBAC");
}

/* M5 by name, and M6 by what the ServiceAccount may do. */
#define SA_DEPLOY(name, sa)                                                 \
	DEPLOY(name, "", "", "{serviceAccountName: " sa ", containers: [{name: srv}]}")
#define ROLE(name, rules)                                                   \
	"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\n"    \
	"metadata: {name: " name "}\nrules: " rules "\n---\n"              \
	"apiVersion: rbac.authorization.k8s.io/v1\n"                        \
	"kind: ClusterRoleBinding\nmetadata: {name: " name "}\n"            \
	"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole,"  \
	" name: " name "}\n"                                                \
	"subjects: [{kind: ServiceAccount, namespace: ops, name: " name "}]\n---\n"

static const char *const names_and_rbac =
	SA_DEPLOY("rook-ceph-operator", "none")
	SA_DEPLOY("tekton-pipelines-controller", "none")
	SA_DEPLOY("gatekeeper-controller-manager", "none")
	SA_DEPLOY("operator", "none")
	SA_DEPLOY("controller-ui", "none")
	SA_DEPLOY("operators", "none")
	SA_DEPLOY("my-operator-ui", "none")
	SA_DEPLOY("recommender", "writer")
	SA_DEPLOY("reader-app", "reader")
	SA_DEPLOY("eventer", "eventer")
	ROLE("writer", "[{apiGroups: [\"\"], resources: [pods], verbs: [get, watch]},"
	     " {apiGroups: [autoscaling.k8s.io], resources: [verticalpodautoscalers],"
	     " verbs: [patch]}]")
	ROLE("reader", "[{apiGroups: [\"\", apps], resources: [pods, deployments],"
	     " verbs: [get, list, watch]}]")
	ROLE("eventer", "[{apiGroups: [\"\"], resources: [pods], verbs: [watch]},"
	     " {apiGroups: [\"\"], resources: [events], verbs: [create, patch]}]");

static void names_and_rbac_criteria(void **state)
{
	struct tgraph t = tg_load(names_and_rbac, 0);
	struct kvet_webhooks *whs = kvet_webhooks_create(&t.l->arena, t.g);
	struct kvet_rbac *rbac = kvet_rbac_create(&t.l->arena, t.g);
	static const struct {
		const char *name;
		unsigned int criteria;
		const char *suffix;
	} cases[] = {
		{ "rook-ceph-operator", KVET_MANAGER_NAME, "-operator" },
		{ "tekton-pipelines-controller", KVET_MANAGER_NAME,
		  "-controller" },
		{ "gatekeeper-controller-manager", KVET_MANAGER_NAME,
		  "-controller-manager" },
		{ "operator", KVET_MANAGER_NAME, "operator" },
		/* "controller" in the middle, or a longer word: no */
		{ "controller-ui", 0, NULL },
		{ "operators", 0, NULL },
		{ "my-operator-ui", 0, NULL },
		/* watches pods, patches VPAs: a controller's signature */
		{ "recommender", KVET_MANAGER_RBAC, NULL },
		/* reads only */
		{ "reader-app", 0, NULL },
		/* writes only events */
		{ "eventer", 0, NULL },
	};
	struct kvet_manager m;
	size_t i;

	(void)state;
	assert_non_null(whs);
	assert_non_null(rbac);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(kvet_manager_of(&t.l->arena, t.g, whs, rbac,
						 tg_wl(&t, "apps", "Deployment",
						       "ops", cases[i].name),
						 &m), 0);
		if (m.criteria != cases[i].criteria)
			fail_msg("%s: criteria %#x, expected %#x",
				 cases[i].name, m.criteria, cases[i].criteria);
		if (cases[i].suffix)
			assert_string_equal(m.name_suffix, cases[i].suffix);
		if (m.criteria == KVET_MANAGER_RBAC) {
			assert_string_equal(m.rbac.watch_role->name, "writer");
			assert_true(kvet_node_eq(m.rbac.watch_resource, "pods"));
			assert_true(kvet_node_eq(m.rbac.write_verb, "patch"));
			assert_true(kvet_node_eq(m.rbac.write_resource,
						 "verticalpodautoscalers"));
			/* M6 alone: API servers acting for users hold it too */
			assert_false(kvet_manager_reconciles(&m));
		}
		if (m.criteria == KVET_MANAGER_NAME)
			assert_true(kvet_manager_reconciles(&m));
	}
	/* without the RBAC index, M6 is left out */
	assert_int_equal(kvet_manager_of(&t.l->arena, t.g, whs, NULL,
					 tg_wl(&t, "apps", "Deployment", "ops",
					       "recommender"), &m), 0);
	assert_int_equal(m.criteria, 0);
	kvet_rbac_destroy(rbac);
	kvet_webhooks_destroy(whs);
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(criteria),
		cmocka_unit_test(configured_components),
		cmocka_unit_test(replaced_components),
		cmocka_unit_test(names),
		cmocka_unit_test(names_and_rbac_criteria),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

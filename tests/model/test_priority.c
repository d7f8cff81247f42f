/* SPDX-License-Identifier: Apache-2.0 */
/* Effective priority (docs/model.md 1.14). */
#include "tgraph.h"

#include "model/priority.h"

#define DEPLOY(name, spec)                                                  \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: ops}\n"                      \
	"spec:\n  selector: {matchLabels: {app: " name "}}\n"               \
	"  template:\n    metadata: {labels: {app: " name "}}\n"            \
	"    spec: " spec "\n---\n"

#define PC(name, fields)                                                    \
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"           \
	"metadata: {name: " name "}\n" fields "---\n"

struct fixture {
	struct tgraph t;
	struct kvet_priorities *p;
};

static void setup(struct fixture *f, const char *yaml, unsigned int flags)
{
	f->t = tg_load(yaml, flags);
	f->p = kvet_priorities_create(&f->t.l->arena, f->t.g);
	assert_non_null(f->p);
}

static void teardown(struct fixture *f)
{
	kvet_priorities_destroy(f->p);
	tg_free(&f->t);
}

static struct kvet_priority of(struct fixture *f, const char *group,
			       const char *kind, const char *name)
{
	struct kvet_priority pr;

	kvet_effective_priority(f->p, tg_wl(&f->t, group, kind, "ops", name),
				&pr);
	return pr;
}

static void names_and_classes(void **state)
{
	struct kvet_priority pr;
	struct fixture f;
	size_t n;

	(void)state;
	setup(&f,
	      PC("platform-high", "value: 1000000\n")
	      PC("broken", "value: \"high\"\n")
	      PC("not-default", "value: -5\nglobalDefault: false\n")
	      DEPLOY("plain", "{}")
	      DEPLOY("empty", "{priorityClassName: \"\"}")
	      DEPLOY("node", "{priorityClassName: system-node-critical}")
	      DEPLOY("cluster", "{priorityClassName: system-cluster-critical}")
	      DEPLOY("high", "{priorityClassName: platform-high}")
	      DEPLOY("missing", "{priorityClassName: manager-critical}")
	      DEPLOY("bad", "{priorityClassName: broken}"),
	      0);
	assert_null(kvet_priorities_global_default(f.p, &n));
	assert_int_equal(n, 0);
	/* no name and no globalDefault class: zero */
	pr = of(&f, "apps", "Deployment", "plain");
	assert_true(pr.known);
	assert_int_equal(pr.value, 0);
	assert_int_equal(pr.source, KVET_PRIORITY_ZERO);
	assert_null(pr.name_node);
	pr = of(&f, "apps", "Deployment", "empty");
	assert_int_equal(pr.source, KVET_PRIORITY_ZERO);
	pr = of(&f, "apps", "Deployment", "node");
	assert_int_equal(pr.source, KVET_PRIORITY_SYSTEM);
	assert_int_equal(pr.value, 2000001000);
	assert_non_null(pr.name_node);
	pr = of(&f, "apps", "Deployment", "cluster");
	assert_int_equal(pr.value, 2000000000);
	pr = of(&f, "apps", "Deployment", "high");
	assert_true(pr.known);
	assert_int_equal(pr.source, KVET_PRIORITY_CLASS);
	assert_int_equal(pr.value, 1000000);
	assert_string_equal(pr.priority_class->name, "platform-high");
	assert_int_equal(pr.value_node->line, 4);
	pr = of(&f, "apps", "Deployment", "missing");
	assert_false(pr.known);
	assert_int_equal(pr.source, KVET_PRIORITY_MISSING);
	assert_null(pr.priority_class);
	pr = of(&f, "apps", "Deployment", "bad");
	assert_false(pr.known);
	assert_int_equal(pr.source, KVET_PRIORITY_CLASS);
	teardown(&f);
}

/* Several globalDefault classes: the lowest value is the default. */
static void global_default(void **state)
{
	struct kvet_priority pr;
	struct fixture f;
	size_t n;

	(void)state;
	setup(&f,
	      PC("default-high", "value: 100\nglobalDefault: true\n")
	      PC("default-low", "value: 50\nglobalDefault: true\n")
	      DEPLOY("plain", "{}")
	      DEPLOY("named", "{priorityClassName: default-high}"),
	      0);
	assert_string_equal(kvet_priorities_global_default(f.p, &n)->name,
			    "default-low");
	assert_int_equal(n, 2);
	pr = of(&f, "apps", "Deployment", "plain");
	assert_int_equal(pr.source, KVET_PRIORITY_GLOBAL_DEFAULT);
	assert_int_equal(pr.value, 50);
	pr = of(&f, "apps", "Deployment", "named");
	assert_int_equal(pr.value, 100);
	teardown(&f);
}

/* In a dump a live Pod's spec.priority wins. */
static void live_pod_wins(void **state)
{
	struct kvet_priority pr;
	struct fixture f;

	(void)state;
	setup(&f,
	      "apiVersion: v1\nkind: List\nitems:\n"
	      "- apiVersion: apps/v1\n  kind: Deployment\n"
	      "  metadata: {name: web, namespace: ops}\n"
	      "  spec:\n    selector: {matchLabels: {app: web}}\n"
	      "    template:\n      metadata: {labels: {app: web}}\n"
	      "      spec: {priorityClassName: gone}\n"
	      "  status: {replicas: 1}\n"
	      "- apiVersion: apps/v1\n  kind: ReplicaSet\n"
	      "  metadata:\n    name: web-1\n    namespace: ops\n"
	      "    ownerReferences:\n"
	      "    - {apiVersion: apps/v1, kind: Deployment, name: web,"
	      " controller: true}\n"
	      "  spec:\n    selector: {matchLabels: {app: web}}\n"
	      "- apiVersion: v1\n  kind: Pod\n"
	      "  metadata:\n    name: web-1-a\n    namespace: ops\n"
	      "    ownerReferences:\n"
	      "    - {apiVersion: apps/v1, kind: ReplicaSet, name: web-1,"
	      " controller: true}\n"
	      "  spec: {priority: 1000, containers: []}\n"
	      "- apiVersion: v1\n  kind: Pod\n"
	      "  metadata: {name: bare, namespace: ops}\n"
	      "  spec: {priorityClassName: gone, priority: -7}\n"
	      "- apiVersion: apps/v1\n  kind: Deployment\n"
	      "  metadata: {name: cold, namespace: ops}\n"
	      "  spec:\n    selector: {matchLabels: {app: cold}}\n"
	      "    template:\n      metadata: {labels: {app: cold}}\n"
	      "      spec: {priorityClassName: gone}\n",
	      0);
	assert_true(kvet_graph_dump_mode(f.t.g));
	pr = of(&f, "apps", "Deployment", "web");
	assert_true(pr.known);
	assert_int_equal(pr.source, KVET_PRIORITY_LIVE_POD);
	assert_int_equal(pr.value, 1000);
	pr = of(&f, "", "Pod", "bare");
	assert_int_equal(pr.value, -7);
	/* no live Pod: the name decides, and it is missing */
	pr = of(&f, "apps", "Deployment", "cold");
	assert_false(pr.known);
	assert_int_equal(pr.source, KVET_PRIORITY_MISSING);
	teardown(&f);
}

/* Outside dump mode a template's spec.priority is no live value. */
static void template_priority_ignored(void **state)
{
	struct kvet_priority pr;
	struct fixture f;

	(void)state;
	setup(&f, DEPLOY("t", "{priority: 5}"), 0);
	pr = of(&f, "apps", "Deployment", "t");
	assert_int_equal(pr.source, KVET_PRIORITY_ZERO);
	assert_int_equal(pr.value, 0);
	teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_and_classes),
		cmocka_unit_test(global_default),
		cmocka_unit_test(live_pod_wins),
		cmocka_unit_test(template_priority_ignored),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/* kvet_node_field_path(): the field a finding points at, as fingerprints
 * hash it (issue 27): stable across reordered named list items. */
#include "support.h"

#include "load/field_path.h"
#include "load/node.h"

static const char deployment[] =
	"apiVersion: apps/v1\n"
	"kind: Deployment\n"
	"metadata:\n"
	"  name: web\n"
	"  labels: {app.kubernetes.io/name: web, \"q\\\"uote\": x}\n"
	"spec:\n"
	"  replicas: 3\n"
	"  template:\n"
	"    spec:\n"
	"      containers:\n"
	"      - name: %s\n"
	"        resources: {limits: {cpu: 1}}\n"
	"      - name: %s\n"
	"        resources: {limits: {cpu: 2}}\n"
	"        args: [a, b]\n";

static const char *path_of(struct loaded *l, const struct kvet_node *at)
{
	return kvet_node_field_path(&l->arena, l->docs.v[0].root, at);
}

static void test_paths(void **state)
{
	char text[sizeof(deployment) + 16];
	struct loaded *l;
	const struct kvet_node *root, *c, *n;

	(void)state;
	snprintf(text, sizeof(text), deployment, "app", "side car");
	l = load_str(text);
	assert_int_equal(l->diag.n, 0);
	root = l->docs.v[0].root;
	assert_string_equal(path_of(l, root), "");
	assert_string_equal(path_of(l, NULL), "");
	n = kvet_node_path(root, "spec", "replicas", NULL);
	assert_string_equal(path_of(l, n), "spec.replicas");
	/* a key stands for its field, as CEL's `at` gives it */
	assert_string_equal(path_of(l, &kvet_node_get_pair(root, "spec")->key),
			    "spec");
	n = kvet_node_path(root, "metadata", "labels", NULL);
	assert_string_equal(path_of(l, kvet_node_get(n, "app.kubernetes.io/name")),
			    "metadata.labels[\"app.kubernetes.io/name\"]");
	assert_string_equal(path_of(l, kvet_node_get(n, "q\"uote")),
			    "metadata.labels[\"q\\\"uote\"]");
	c = kvet_node_path(root, "spec", "template", "spec", "containers", NULL);
	n = kvet_node_path(&c->u.items[0], "resources", "limits", "cpu", NULL);
	assert_string_equal(path_of(l, n),
		"spec.template.spec.containers[name=app].resources.limits.cpu");
	n = kvet_node_get(&c->u.items[1], "args");
	assert_string_equal(path_of(l, &n->u.items[1]),
		"spec.template.spec.containers[name=\"side car\"].args[1]");
	assert_string_equal(path_of(l, &c->u.items[1]),
		"spec.template.spec.containers[name=\"side car\"]");
	loaded_free(l);
}

/* Containers reordered: each keeps its path, its index does not matter. */
static void test_named_items_reordered(void **state)
{
	char text[sizeof(deployment) + 16];
	struct loaded *l;
	const struct kvet_node *c, *n;

	(void)state;
	snprintf(text, sizeof(text), deployment, "side", "app");
	l = load_str(text);
	c = kvet_node_path(l->docs.v[0].root, "spec", "template", "spec",
			   "containers", NULL);
	n = kvet_node_path(&c->u.items[1], "resources", "limits", "cpu", NULL);
	assert_string_equal(path_of(l, n),
		"spec.template.spec.containers[name=app].resources.limits.cpu");
	loaded_free(l);
}

/* A node of another tree is not found: the path is empty, not wrong. */
static void test_elsewhere(void **state)
{
	struct loaded *a = load_str("apiVersion: v1\nkind: Pod\n"
				    "metadata: {name: a}\nspec: {x: 1}\n");
	struct loaded *b = load_str("apiVersion: v1\nkind: Pod\n"
				    "metadata: {name: b}\nspec: {x: 1}\n");
	const struct kvet_node *n;

	(void)state;
	n = kvet_node_path(b->docs.v[0].root, "spec", "x", NULL);
	assert_string_equal(path_of(a, n), "");
	loaded_free(a);
	loaded_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_named_items_reordered),
		cmocka_unit_test(test_elsewhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

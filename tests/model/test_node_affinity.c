/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Node eligibility by a pod's own spec: nodeSelector and required node
 * affinity (the kube-scheduler's NodeAffinity filter), cordoned nodes and
 * topology domains.
 */
#include "tgraph.h"

#include "model/node_affinity.h"

#define NODE(name, labels, extra)                                           \
	"apiVersion: v1\nkind: Node\nmetadata:\n  name: " name "\n"         \
	"  labels: " labels "\n" extra "---\n"

#define DEPLOY(name, spec)                                                  \
	"apiVersion: apps/v1\nkind: Deployment\n"                           \
	"metadata: {name: " name ", namespace: ns}\n"                       \
	"spec:\n  selector: {matchLabels: {app: " name "}}\n"               \
	"  template:\n    metadata: {labels: {app: " name "}}\n"            \
	"    spec: " spec "\n---\n"

static const struct kvet_node *spec_of(struct tgraph *t, const char *name)
{
	return tg_wl(t, "apps", "Deployment", "ns", name)->pod_spec;
}

/* Does deployment @dep's pod fit Node @node by its affinity? */
static bool fits(struct tgraph *t, const char *dep, const char *node)
{
	const struct kvet_object *n = kvet_graph_find(t->g, "", "Node", "",
						      node);
	struct kvet_labels labels;
	struct kvet_slice name;

	assert_non_null(n);
	assert_int_equal(kvet_cluster_node_labels(&t->l->arena, n->root,
						  &labels, &name), 0);
	return kvet_pod_node_affinity_matches(spec_of(t, dep), &labels, name);
}

#define REQ(terms)                                                          \
	"{affinity: {nodeAffinity: "                                        \
	"{requiredDuringSchedulingIgnoredDuringExecution: "                 \
	"{nodeSelectorTerms: " terms "}}}}"

static const char *const cluster_parts[] = {
	NODE("a1", "{zone: a, gpu: \"2\", disk: ssd}", ""),
	NODE("b1", "{zone: b, gpu: \"8\"}", ""),
	NODE("c1", "{zone: c, gpu: many}", "spec: {unschedulable: true}\n"),
	DEPLOY("any", "{}"),
	DEPLOY("sel", "{nodeSelector: {disk: ssd}}"),
	DEPLOY("in", REQ("[{matchExpressions: [{key: zone, operator: In, values: [b, c]}]}]")),
	DEPLOY("notin", REQ("[{matchExpressions: [{key: disk, operator: NotIn, values: [ssd]}]}]")),
	DEPLOY("exists", REQ("[{matchExpressions: [{key: disk, operator: Exists}]}]")),
	DEPLOY("absent", REQ("[{matchExpressions: [{key: disk, operator: DoesNotExist}]}]")),
	DEPLOY("gt", REQ("[{matchExpressions: [{key: gpu, operator: Gt, values: [\"4\"]}]}]")),
	DEPLOY("lt", REQ("[{matchExpressions: [{key: gpu, operator: Lt, values: [\"4\"]}]}]")),
	DEPLOY("or", REQ("[{matchExpressions: [{key: zone, operator: In, values: [a]}]},"
			 " {matchFields: [{key: metadata.name, operator: In, values: [b1]}]}]")),
	DEPLOY("and", REQ("[{matchExpressions: [{key: zone, operator: In, values: [a, b]},"
			  " {key: disk, operator: Exists}]}]")),
	DEPLOY("empty", REQ("[{}]")),
	DEPLOY("noterms", REQ("[]")),
	DEPLOY("badop", REQ("[{matchExpressions: [{key: zone, operator: in, values: [a]}]}]")),
	DEPLOY("both", "{nodeSelector: {zone: b}, affinity: {nodeAffinity: "
		       "{requiredDuringSchedulingIgnoredDuringExecution: "
		       "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]}}}}"),
	NULL,
};

/* The parts above joined: one string literal would be too long for C99. */
static const char *cluster_yaml(void)
{
	static char buf[8192];
	size_t i, len = 0;

	if (!len && !buf[0])
		for (i = 0; cluster_parts[i]; i++) {
			size_t n = strlen(cluster_parts[i]);

			assert_true(len + n < sizeof(buf));
			memcpy(buf + len, cluster_parts[i], n + 1);
			len += n;
		}
	return buf;
}

static void operators(void **state)
{
	struct tgraph t = tg_load(cluster_yaml(), 0);

	(void)state;
	assert_true(fits(&t, "any", "a1"));
	assert_true(fits(&t, "sel", "a1"));
	assert_false(fits(&t, "sel", "b1"));
	assert_false(fits(&t, "in", "a1"));
	assert_true(fits(&t, "in", "b1"));
	/* NotIn also matches a node without the key */
	assert_false(fits(&t, "notin", "a1"));
	assert_true(fits(&t, "notin", "b1"));
	assert_true(fits(&t, "exists", "a1"));
	assert_false(fits(&t, "exists", "b1"));
	assert_false(fits(&t, "absent", "a1"));
	assert_true(fits(&t, "absent", "b1"));
	/* Gt and Lt compare integers; "many" is none, so neither holds */
	assert_false(fits(&t, "gt", "a1"));
	assert_true(fits(&t, "gt", "b1"));
	assert_false(fits(&t, "gt", "c1"));
	assert_true(fits(&t, "lt", "a1"));
	assert_false(fits(&t, "lt", "c1"));
	tg_free(&t);
}

static void terms(void **state)
{
	struct tgraph t = tg_load(cluster_yaml(), 0);

	(void)state;
	/* terms are ORed, requirements within a term ANDed */
	assert_true(fits(&t, "or", "a1"));
	assert_true(fits(&t, "or", "b1"));
	assert_false(fits(&t, "or", "c1"));
	assert_true(fits(&t, "and", "a1"));
	assert_false(fits(&t, "and", "b1"));
	/* an empty term, or no term at all, matches no node */
	assert_false(fits(&t, "empty", "a1"));
	assert_false(fits(&t, "noterms", "a1"));
	/* operators are case-sensitive */
	assert_false(fits(&t, "badop", "a1"));
	/* nodeSelector and node affinity must both hold */
	assert_false(fits(&t, "both", "a1"));
	assert_false(fits(&t, "both", "b1"));
	assert_true(kvet_pod_has_node_affinity(spec_of(&t, "both")));
	assert_false(kvet_pod_has_node_affinity(spec_of(&t, "any")));
	tg_free(&t);
}

static void cordoned_and_domains(void **state)
{
	struct tgraph t = tg_load(cluster_yaml(), 0);
	struct kvet_slice zone = kvet_slice_of("zone");
	struct kvet_slice disk = kvet_slice_of("disk");

	(void)state;
	assert_true(kvet_cluster_node_unschedulable(
		kvet_graph_find(t.g, "", "Node", "", "c1")->root));
	assert_false(kvet_cluster_node_unschedulable(
		kvet_graph_find(t.g, "", "Node", "", "a1")->root));
	/* c1 is cordoned: zones a and b */
	assert_int_equal(kvet_topology_domains(&t.l->arena, t.g,
					       spec_of(&t, "any"), zone), 2);
	assert_int_equal(kvet_topology_domains(&t.l->arena, t.g,
					       spec_of(&t, "sel"), zone), 1);
	/* b1 has no disk label: any number of pods fit there */
	assert_int_equal(kvet_topology_domains(&t.l->arena, t.g,
					       spec_of(&t, "any"), disk),
			 KVET_DOMAINS_UNBOUNDED);
	tg_free(&t);

	t = tg_load(DEPLOY("any", "{}"), 0);
	assert_int_equal(kvet_topology_domains(&t.l->arena, t.g,
					       spec_of(&t, "any"), zone),
			 KVET_DOMAINS_NO_NODES);
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(operators),
		cmocka_unit_test(terms),
		cmocka_unit_test(cordoned_and_domains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Placement, filter by filter: where the replacement of a pod evicted
 * from node "src" goes, or the kube-scheduler's message when it fits
 * nowhere (plugin reasons and FitError's sorted histogram).
 */
#include "tdrain.h"

#include "drain/fit.h"

#define NODE(name, labels, extra)                                           \
	"apiVersion: v1\nkind: Node\nmetadata: {name: " name ", labels: "   \
	labels "}\n" extra                                                  \
	"status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\n"

#define NODE_CAP(name, labels, cpu, pods)                                   \
	"apiVersion: v1\nkind: Node\nmetadata: {name: " name ", labels: "   \
	labels "}\nstatus: {allocatable: {cpu: \"" cpu "\", memory: 8Gi,"   \
	" pods: \"" pods "\"}}\n---\n"

#define POD(name, node, labels, spec)                                       \
	"apiVersion: v1\nkind: Pod\nmetadata: {name: " name                 \
	", namespace: ns, labels: " labels ", ownerReferences:"             \
	" [{apiVersion: apps/v1, kind: ReplicaSet, name: rs, controller:"   \
	" true}]}\nspec: {nodeName: " node ", " spec "}\n"                 \
	"status: {phase: Running, conditions: [{type: Ready, status:"       \
	" \"True\"}]}\n---\n"

#define C(cpu) "containers: [{name: c, resources: {requests: {cpu: " cpu "}}}]"

/* Evict pod @name from its node (cordoned) and place its replacement:
 * the node's name, or the scheduler's reason. */
static const char *place(const char *yaml, const char *name, char *buf,
			 size_t size)
{
	struct drain_options o = td_options();
	struct drain_cluster c;
	struct tdrain t;
	const char *why = NULL;
	uint32_t p, r, n;

	td_load(&t, yaml);
	assert_int_equal(drain_cluster_from_dump(&c, &t.l->arena, &t.diag,
						 t.g, &o), 0);
	for (p = 0; p < c.n_pods && strcmp(c.pods[p].name, name); p++)
		;
	assert_true(p < c.n_pods);
	c.nodes[c.pods[p].node].cordoned = true;
	r = drain_pod_replace(&c, p);
	assert_int_not_equal(r, DRAIN_NONE);
	drain_pod_set_ready(&c, p, false);
	drain_pod_unbind(&c, p);
	n = drain_place(&c, r, &why);
	snprintf(buf, size, "%s", n == DRAIN_NONE ? why : c.nodes[n].name);
	drain_cluster_release(&c);
	td_free(&t);
	return buf;
}

#define PLACE(yaml, pod) place(yaml, pod, buf, sizeof(buf))

static void unschedulable_and_not_ready(void **state)
{
	char buf[512];

	(void)state;
	assert_string_equal(PLACE(
		NODE("src", "{}", "")
		NODE("cordoned", "{}", "spec: {unschedulable: true}\n")
		"apiVersion: v1\nkind: Node\nmetadata: {name: down}\n"
		"status: {allocatable: {cpu: \"4\", pods: \"110\"},"
		" conditions: [{type: Ready, status: \"False\"}]}\n---\n"
		NODE("ok", "{}", "")
		POD("p", "src", "{app: p}", C("100m")), "p"), "ok");
	assert_string_equal(PLACE(
		NODE("src", "{}", "")
		NODE("cordoned", "{}", "spec: {unschedulable: true}\n")
		"apiVersion: v1\nkind: Node\nmetadata: {name: down}\n"
		"status: {allocatable: {cpu: \"4\", pods: \"110\"},"
		" conditions: [{type: Ready, status: \"False\"}]}\n---\n"
		POD("p", "src", "{app: p}", C("100m")), "p"),
		"0/3 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }, 2 node(s) were unschedulable.");
	/* a DaemonSet-like toleration of the cordon */
	assert_string_equal(PLACE(
		NODE("src", "{}", "")
		NODE("cordoned", "{}", "spec: {unschedulable: true}\n")
		POD("p", "src", "{app: p}",
		    "tolerations: [{key: node.kubernetes.io/unschedulable, operator: Exists}], " C("100m")),
		"p"), "cordoned");
}

static void taints(void **state)
{
	char buf[512];

	(void)state;
	assert_string_equal(PLACE(
		NODE("src", "{}", "")
		NODE("gpu", "{}", "spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}\n")
		POD("p", "src", "{app: p}", C("1")), "p"),
		"0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable.");
	assert_string_equal(PLACE(
		NODE("src", "{}", "")
		NODE("gpu", "{}", "spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}\n")
		POD("p", "src", "{app: p}",
		    "tolerations: [{key: dedicated, value: gpu}], " C("1")), "p"),
		"gpu");
	/* PreferNoSchedule never filters */
	assert_string_equal(PLACE(
		NODE("src", "{}", "")
		NODE("soft", "{}", "spec: {taints: [{key: x, effect: PreferNoSchedule}]}\n")
		POD("p", "src", "{app: p}", C("1")), "p"), "soft");
}

static void node_affinity_and_volumes(void **state)
{
	char buf[512];

	(void)state;
	assert_string_equal(PLACE(
		NODE("src", "{disk: ssd}", "")
		NODE("hdd", "{disk: hdd}", "")
		NODE("ssd", "{disk: ssd}", "")
		POD("p", "src", "{app: p}", "nodeSelector: {disk: ssd}, " C("1")),
		"p"), "ssd");
	assert_string_equal(PLACE(
		NODE("src", "{disk: ssd}", "")
		NODE("hdd", "{disk: hdd}", "")
		POD("p", "src", "{app: p}", "nodeSelector: {disk: ssd}, " C("1")),
		"p"),
		"0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) were unschedulable.");
	/* a bound zonal PersistentVolume */
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("b1", "{zone: b}", "")
		POD("p", "src", "{app: p}",
		    "volumes: [{name: d, persistentVolumeClaim: {claimName: d}}], " C("1"))
		"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: d, namespace: ns}\n"
		"spec: {volumeName: pv}\n---\n"
		"apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv}\n"
		"spec: {nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions:"
		" [{key: zone, operator: In, values: [a]}]}]}}}\n", "p"),
		"0/2 nodes are available: 1 node(s) had volume node affinity conflict, 1 node(s) were unschedulable.");
}

static void resources_and_ports(void **state)
{
	char buf[512];

	(void)state;
	/* least requested CPU first */
	assert_string_equal(PLACE(
		NODE("src", "{}", "")
		NODE("busy", "{}", "")
		NODE("idle", "{}", "")
		POD("q", "busy", "{app: q}", C("2"))
		POD("p", "src", "{app: p}", C("1")), "p"), "idle");
	assert_string_equal(PLACE(
		NODE_CAP("src", "{}", "4", "110")
		NODE_CAP("small", "{}", "2", "110")
		NODE_CAP("full", "{}", "8", "1")
		POD("q", "full", "{app: q}", C("1"))
		POD("p", "src", "{app: p}",
		    "containers: [{name: c, resources: {requests: {cpu: \"3\", nvidia.com/gpu: 1}}}]"),
		"p"),
		"0/3 nodes are available: 1 Insufficient cpu, 1 Too many pods, 1 node(s) were unschedulable, 2 Insufficient nvidia.com/gpu.");
	assert_string_equal(PLACE(
		NODE("src", "{}", "")
		NODE("taken", "{}", "")
		POD("q", "taken", "{app: q}",
		    "containers: [{name: c, ports: [{containerPort: 80, hostPort: 8080}]}]")
		POD("p", "src", "{app: p}",
		    "containers: [{name: c, ports: [{containerPort: 80, hostPort: 8080}]}]"),
		"p"),
		"0/2 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) were unschedulable.");
}

/*
 * Found by fuzz_drain: a request past INT64_MAX millicores (read as
 * INT64_MAX) beside another on one node summed past what an int64
 * holds, undefined behaviour that in practice wrapped to a negative use,
 * so that the fullest node looked the emptiest; and the node's share of
 * CPU requested, in millionths, no longer fit the key nodes are ordered
 * by (on x86-64 it became 0, the emptiest again).
 */
#define HUGE_REQUESTS                                                       \
	NODE("src", "{}", "")                                               \
	NODE("full", "{}", "")                                              \
	NODE("idle", "{}", "")                                              \
	POD("huge", "full", "{app: h}", C("9223372036854775808m"))          \
	POD("q", "full", "{app: q}", C("500m"))                             \
	POD("p", "src", "{app: p}", C("500m"))

static void requests_past_int64(void **state)
{
	struct drain_options o = td_options();
	struct tdrain t;
	char buf[512];

	(void)state;
	assert_string_equal(PLACE(HUGE_REQUESTS, "p"), "idle");
	/* a pod that requests no CPU fits both: the less requested wins */
	assert_string_equal(PLACE(HUGE_REQUESTS
		POD("none", "src", "{app: n}", "containers: [{name: c}]"),
		"none"), "idle");
	td_load(&t, HUGE_REQUESTS);
	td_run(&t, &o);
	assert_int_equal(t.rc, 0);
	td_free(&t);
}

/*
 * Found by fuzz_drain once sums stopped at INT64_MAX: the stopped sum
 * less a huge pod went on down, below zero, and past INT64_MIN. A
 * node's use is the true sum or INT64_MAX, also after pods leave it.
 */
static void requests_recounted(void **state)
{
	struct drain_options o = td_options();
	struct drain_cluster c;
	struct tdrain t;
	uint32_t p, full;

	(void)state;
	td_load(&t, NODE("full", "{}", "")
		    POD("a", "full", "{app: a}", C("9223372036854775800m"))
		    POD("b", "full", "{app: b}", C("500m"))
		    POD("c", "full", "{app: c}", C("9223372036854775800m")));
	assert_int_equal(drain_cluster_from_dump(&c, &t.l->arena, &t.diag,
						 t.g, &o), 0);
	full = drain_node_find(&c, kvet_slice_of("full"));
	assert_int_not_equal(full, DRAIN_NONE);
	assert_true(c.nodes[full].used[KVET_RES_CPU] == INT64_MAX);
	for (p = 0; strcmp(c.pods[p].name, "a"); p++)
		;
	drain_pod_unbind(&c, p);
	/* b and c: still more than an int64 holds */
	assert_true(c.nodes[full].used[KVET_RES_CPU] == INT64_MAX);
	for (p = 0; strcmp(c.pods[p].name, "c"); p++)
		;
	drain_pod_unbind(&c, p);
	assert_int_equal(c.nodes[full].used[KVET_RES_CPU], 500);
	for (p = 0; strcmp(c.pods[p].name, "b"); p++)
		;
	drain_pod_unbind(&c, p);
	assert_int_equal(c.nodes[full].used[KVET_RES_CPU], 0);
	drain_cluster_release(&c);
	td_free(&t);
}

#define ANTI(app, key)                                                      \
	"affinity: {podAntiAffinity: {requiredDuringSchedulingIgnored"      \
	"DuringExecution: [{labelSelector: {matchLabels: {app: " app "}},"  \
	" topologyKey: " key "}]}}"
#define AFF(app, key)                                                       \
	"affinity: {podAffinity: {requiredDuringSchedulingIgnored"          \
	"DuringExecution: [{labelSelector: {matchLabels: {app: " app "}},"  \
	" topologyKey: " key "}]}}"

#define KEYS                                                                \
	"affinity: {podAntiAffinity: {requiredDuringSchedulingIgnored"      \
	"DuringExecution: [{labelSelector: {matchLabels: {app: web}},"      \
	" matchLabelKeys: [v], topologyKey: zone}]}}"

static void inter_pod_affinity(void **state)
{
	char buf[512];

	(void)state;
	/* its own anti-affinity: the zone of a sibling is out */
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("a2", "{zone: a}", "")
		NODE("b1", "{zone: b}", "")
		POD("web2", "b1", "{app: web}", ANTI("web", "zone") ", " C("100m"))
		POD("web1", "src", "{app: web}", ANTI("web", "zone") ", " C("100m")),
		"web1"), "a2");
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("b1", "{zone: b}", "")
		POD("web2", "b1", "{app: web}", ANTI("web", "zone") ", " C("100m"))
		POD("web1", "src", "{app: web}", ANTI("web", "zone") ", " C("100m")),
		"web1"),
		"0/2 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) were unschedulable.");
	/* an existing pod's anti-affinity repels the incoming one */
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("b1", "{zone: b}", "")
		POD("loner", "b1", "{app: loner}", ANTI("web", "zone") ", " C("100m"))
		POD("web1", "src", "{app: web}", C("100m")), "web1"),
		"0/2 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules, 1 node(s) were unschedulable.");
	/* required affinity: only where a cache pod runs */
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("b1", "{zone: b}", "")
		NODE("c1", "{zone: c}", "")
		POD("cache", "c1", "{app: cache}", C("100m"))
		POD("web1", "src", "{app: web}", AFF("cache", "zone") ", " C("100m")),
		"web1"), "c1");
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("b1", "{zone: b}", "")
		POD("cache", "src", "{app: cache}", C("100m"))
		POD("web1", "src", "{app: web}", AFF("cache", "zone") ", " C("100m")),
		"web1"),
		"0/2 nodes are available: 1 node(s) didn't match pod affinity rules, 1 node(s) were unschedulable.");
}

#define SPREAD(key)                                                         \
	"topologySpreadConstraints: [{maxSkew: 1, topologyKey: " key ","   \
	" whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels:"   \
	" {app: web}}}]"

/* A term an anchor repeats, and one a pod of the same namespace writes
 * the same way (terms.c makes each one term): verdicts as for one term
 * per pod; equal text with other matchLabelKeys values stays two. */
static void equal_terms(void **state)
{
	char buf[512];

	(void)state;
	/* both pods' terms are one, which still repels each from the other */
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("a2", "{zone: a}", "")
		NODE("b1", "{zone: b}", "")
		POD("web2", "b1", "{app: web}", ANTI("web", "zone") ", " C("100m"))
		POD("web1", "src", "{app: web}",
		    "affinity: {podAntiAffinity: {requiredDuringScheduling"
		    "IgnoredDuringExecution: [&t {labelSelector: {matchLabels:"
		    " {app: web}}, topologyKey: zone}, *t, *t]}}, " C("100m")),
		"web1"), "a2");
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("b1", "{zone: b}", "")
		POD("web2", "b1", "{app: web}", ANTI("web", "zone") ", " C("100m"))
		POD("web1", "src", "{app: web}",
		    "affinity: {podAntiAffinity: {requiredDuringScheduling"
		    "IgnoredDuringExecution: [&t {labelSelector: {matchLabels:"
		    " {app: web}}, topologyKey: zone}, *t]}}, " C("100m")),
		"web1"),
		"0/2 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) were unschedulable.");
	/* the same text, merged with v=1 and with v=2: two terms */
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("b1", "{zone: b}", "")
		POD("web2", "b1", "{app: web, v: \"1\"}", KEYS ", " C("100m"))
		POD("web1", "src", "{app: web, v: \"2\"}", KEYS ", " C("100m")),
		"web1"), "b1");
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("b1", "{zone: b}", "")
		POD("web2", "b1", "{app: web, v: \"2\"}", KEYS ", " C("100m"))
		POD("web1", "src", "{app: web, v: \"2\"}", KEYS ", " C("100m")),
		"web1"),
		"0/2 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) were unschedulable.");
}

static void topology_spread(void **state)
{
	char buf[512];

	(void)state;
	/* zone b's only node drains: its pod cannot go to zone a, which
	 * would then hold 2 against b's 0; the cordoned node still counts
	 * its domain, as the scheduler's PreFilter does */
	assert_string_equal(PLACE(
		NODE("a1", "{zone: a}", "")
		NODE("a2", "{zone: a}", "")
		NODE("src", "{zone: b}", "")
		POD("web1", "a1", "{app: web}", SPREAD("zone") ", " C("100m"))
		POD("web2", "src", "{app: web}", SPREAD("zone") ", " C("100m")),
		"web2"),
		"0/3 nodes are available: 1 node(s) were unschedulable, 2 node(s) didn't match pod topology spread constraints.");
	/* with a third zone, the emptiest zone takes it */
	assert_string_equal(PLACE(
		NODE("a1", "{zone: a}", "")
		NODE("c1", "{zone: c}", "")
		NODE("src", "{zone: b}", "")
		POD("web1", "a1", "{app: web}", SPREAD("zone") ", " C("100m"))
		POD("web2", "src", "{app: web}", SPREAD("zone") ", " C("100m")),
		"web2"), "c1");
	/* a node without the key fails the constraint outright */
	assert_string_equal(PLACE(
		NODE("src", "{zone: a}", "")
		NODE("nolabel", "{}", "")
		POD("web2", "src", "{app: web}", SPREAD("zone") ", " C("100m")),
		"web2"),
		"0/2 nodes are available: 1 node(s) didn't match pod topology spread constraints (missing required label), 1 node(s) were unschedulable.");
}

/*
 * A pod no node takes is explained over every node on each attempt
 * (issue 26): the message is kept once per text, and what the filters
 * said on each node is scratch, so a retry adds nothing to the run's
 * arena and a twin's replacement shares the same words.
 */
static void unplaced_message_kept_once(void **state)
{
	struct drain_options o = td_options();
	struct kvet_arena_mark before, after;
	struct drain_cluster c;
	struct tdrain t;
	const char *why1 = NULL, *why2 = NULL, *why3 = NULL;
	uint32_t p, q, r, r2;

	(void)state;
	td_load(&t, NODE("src", "{}", "")
		    NODE_CAP("small", "{}", "1", "110")
		    NODE("gpu", "{}", "spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}\n")
		    "apiVersion: v1\nkind: Node\nmetadata: {name: fpga}\n"
		    "status: {allocatable: {cpu: \"4\", pods: \"110\","
		    " example.com/fpga: \"0\"}}\n---\n"
		    POD("p", "src", "{app: p}", "containers: [{name: c, resources: {requests: {cpu: \"2\", example.com/fpga: \"1\"}}}]")
		    POD("q", "src", "{app: p}", "containers: [{name: c, resources: {requests: {cpu: \"2\", example.com/fpga: \"1\"}}}]"));
	assert_int_equal(drain_cluster_from_dump(&c, &t.l->arena, &t.diag,
						 t.g, &o), 0);
	for (p = 0; p < c.n_pods && strcmp(c.pods[p].name, "p"); p++)
		;
	for (q = 0; q < c.n_pods && strcmp(c.pods[q].name, "q"); q++)
		;
	assert_true(p < c.n_pods && q < c.n_pods);
	c.nodes[c.pods[p].node].cordoned = true;
	r = drain_pod_replace(&c, p);
	assert_int_not_equal(r, DRAIN_NONE);
	drain_pod_unbind(&c, p);
	r2 = drain_pod_replace(&c, q);
	assert_int_not_equal(r2, DRAIN_NONE);
	drain_pod_unbind(&c, q);
	assert_int_equal(drain_place(&c, r, &why1), DRAIN_NONE);
	assert_string_equal(why1,
		"0/4 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) were unschedulable, 2 Insufficient example.com/fpga.");
	kvet_arena_mark(&t.l->arena, &before);
	assert_int_equal(drain_place(&c, r, &why2), DRAIN_NONE);
	assert_int_equal(drain_place(&c, r2, &why3), DRAIN_NONE);
	kvet_arena_mark(&t.l->arena, &after);
	assert_ptr_equal(why1, why2);
	assert_ptr_equal(why1, why3);
	assert_ptr_equal(before.head, after.head);
	assert_int_equal(before.used, after.used);
	drain_cluster_release(&c);
	td_free(&t);
}

/*
 * More distinct reasons than the histogram's 64 buckets: which are kept
 * depends on the order the nodes are asked in. The scheduler's message
 * stays the one of the nodes in name order, although first fit goes in
 * preference order (least requested first, so the loaded t00 to t02
 * come last there).
 */
static void reasons_overflow_in_name_order(void **state)
{
	static char yaml[65536];
	char buf[8192], want[8192];
	const char *lines[64];
	size_t at = 0, n = 0, i, j;

	(void)state;
	at += (size_t)snprintf(yaml + at, sizeof(yaml) - at, "%s",
			       NODE("src", "{}", ""));
	for (i = 0; i < 66; i++)
		at += (size_t)snprintf(yaml + at, sizeof(yaml) - at,
			"apiVersion: v1\nkind: Node\nmetadata: {name: t%02zu}\n"
			"spec: {taints: [{key: k%02zu, value: v, effect: NoSchedule}]}\n"
			"status: {allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}}\n---\n",
			i, i);
	for (i = 0; i < 3; i++)
		at += (size_t)snprintf(yaml + at, sizeof(yaml) - at,
			"apiVersion: v1\nkind: Pod\nmetadata: {name: load%zu, namespace: ns}\n"
			"spec: {nodeName: t%02zu, tolerations: [{operator: Exists}], " C("2") "}\n"
			"status: {phase: Running, conditions: [{type: Ready, status: \"True\"}]}\n---\n",
			i, i);
	at += (size_t)snprintf(yaml + at, sizeof(yaml) - at, "%s",
			       POD("p", "src", "{app: p}", C("100m")));
	assert_true(at < sizeof(yaml));
	/* name order: src, then t00 to t62 fill the 64 buckets */
	lines[n++] = "1 node(s) were unschedulable";
	for (i = 0; i < 63; i++) {
		char *l = test_malloc(64);

		snprintf(l, 64, "1 node(s) had untolerated taint {k%02zu: v}", i);
		lines[n++] = l;
	}
	/* sorted as strings: "...taint {" sorts before "...were" */
	at = (size_t)snprintf(want, sizeof(want), "0/67 nodes are available: ");
	for (i = 1; i < n; i++)
		at += (size_t)snprintf(want + at, sizeof(want) - at, "%s, ",
				       lines[i]);
	snprintf(want + at, sizeof(want) - at, "%s.", lines[0]);
	assert_string_equal(PLACE(yaml, "p"), want);
	for (j = 1; j < n; j++)
		test_free((void *)lines[j]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unschedulable_and_not_ready),
		cmocka_unit_test(taints),
		cmocka_unit_test(node_affinity_and_volumes),
		cmocka_unit_test(resources_and_ports),
		cmocka_unit_test(requests_past_int64),
		cmocka_unit_test(requests_recounted),
		cmocka_unit_test(inter_pod_affinity),
		cmocka_unit_test(equal_terms),
		cmocka_unit_test(topology_spread),
		cmocka_unit_test(unplaced_message_kept_once),
		cmocka_unit_test(reasons_overflow_in_name_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

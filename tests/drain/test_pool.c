/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The synthetic pool: allocatable by GKE's reservations, the pods each
 * workload kind gets, the placement order (priority first) and the
 * spreading preference, DaemonSets on the nodes they tolerate, runtime
 * labels a selector can name, pods no node takes, and kvet lint's roll
 * that presses on past independent stalls.
 */
#include "tdrain.h"

#define GIB (INT64_C(1) << 30)
#define MIB (INT64_C(1) << 20)

static struct drain_pool pool_of(unsigned int nodes, unsigned int zones)
{
	struct drain_pool p;

	memset(&p, 0, sizeof(p));
	p.nodes = nodes;
	p.zones = zones;
	p.cpu = 4000;
	p.memory = 16 * GIB;
	p.pods = 110;
	return p;
}

static void td_run_pool(struct tdrain *t, const struct drain_options *o,
			const struct drain_pool *p)
{
	drain_result_release(&t->res);
	t->rc = drain_run_pool(&t->l->arena, &t->diag, t->g, o, p, &t->res);
	assert_int_equal(t->rc, 0);
	assert_true(t->res.pool);
}

#define DEPLOY_CPU(name, replicas, cpu, extra)                              \
	"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " name     \
	", namespace: ns}\nspec:\n  replicas: " replicas "\n  selector:"    \
	" {matchLabels: {app: " name "}}\n  template:\n    metadata:"       \
	" {labels: {app: " name "}}\n    spec:\n      containers: [{name:"  \
	" c, resources: {requests: {cpu: " cpu "}}}]\n" extra "---\n"
#define DEPLOY(name, replicas, extra) DEPLOY_CPU(name, replicas, "500m", extra)

#define BUDGET(name, min)                                                   \
	"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: " \
	name ", namespace: ns}\nspec: {minAvailable: " min ", selector:"    \
	" {matchLabels: {app: " name "}}}\n---\n"

/* GKE's table: 4 CPU and 16 GiB keep 80m and 2.6 GiB + 100 MiB. */
static void allocatable(void **state)
{
	struct drain_pool p = pool_of(3, 3);
	int64_t cpu, mem, eph;

	(void)state;
	drain_pool_allocatable(&p, &cpu, &mem, &eph);
	assert_int_equal(cpu, 3920);
	/* 1 GiB + 20% of 4 GiB + 10% of 8 GiB + 100 MiB */
	assert_int_equal(mem, 16 * GIB - (GIB + 858993459 + 858993459 +
					  100 * MIB));
	assert_int_equal(eph, 90 * GIB);
	p.cpu = 2000;
	drain_pool_allocatable(&p, &cpu, &mem, &eph);
	assert_int_equal(cpu, 1930);
	p.cpu = 8000;
	drain_pool_allocatable(&p, &cpu, &mem, &eph);
	assert_int_equal(cpu, 7910);
	p.memory = GIB / 2;
	drain_pool_allocatable(&p, &cpu, &mem, &eph);
	assert_int_equal(mem, GIB / 2 - 355 * MIB);
}

/* N_min with an HPA, StatefulSet ordinals, a Job's parallelism capped by
 * its completions; CronJobs and suspended Jobs run nothing. */
static void pods_per_kind(void **state)
{
	struct drain_options o = td_options();
	struct drain_pool p = pool_of(3, 3);
	struct tdrain t;

	(void)state;
	td_load(&t,
		DEPLOY("web", "5", "")
		"apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\n"
		"metadata: {name: web, namespace: ns}\nspec: {scaleTargetRef:"
		" {apiVersion: apps/v1, kind: Deployment, name: web},"
		" minReplicas: 2, maxReplicas: 9}\n---\n"
		"apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db,"
		" namespace: ns}\nspec: {replicas: 3, selector: {matchLabels:"
		" {app: db}}, template: {metadata: {labels: {app: db}}, spec:"
		" {containers: [{name: c}]}}}\n---\n"
		"apiVersion: batch/v1\nkind: Job\nmetadata: {name: once,"
		" namespace: ns}\nspec: {parallelism: 3, completions: 2,"
		" template: {spec: {containers: [{name: c}]}}}\n---\n"
		"apiVersion: batch/v1\nkind: Job\nmetadata: {name: held,"
		" namespace: ns}\nspec: {suspend: true, template: {spec:"
		" {containers: [{name: c}]}}}\n---\n"
		"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: nightly,"
		" namespace: ns}\nspec: {schedule: '0 0 * * *', jobTemplate:"
		" {spec: {template: {spec: {containers: [{name: c}]}}}}}\n"
		/* db-1 alone is protected */
		"---\n"
		"apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:"
		" {name: db-1, namespace: ns}\nspec: {minAvailable: 1, selector:"
		" {matchLabels: {statefulset.kubernetes.io/pod-name: db-1}}}\n");
	td_run_pool(&t, &o, &p);
	assert_int_equal(t.res.pods_placed, 2 + 3 + 2);
	assert_int_equal(t.res.pods_unplaced, 0);
	/* the runtime label names one pod: one node is blocked by it */
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_EVICTION_BLOCKED), 1);
	td_contains(td_issue(&t, NULL, DRAIN_RULE_EVICTION_BLOCKED)->message,
		    "pod \"ns/db-1\"");
	td_free(&t);
}

/* Pods of one workload go where fewest of them run, by node then zone. */
static void spreads_replicas(void **state)
{
	struct drain_options o = td_options();
	struct drain_pool p = pool_of(4, 2);
	struct tdrain t;

	(void)state;
	td_load(&t, DEPLOY("web", "3", ""));
	td_run_pool(&t, &o, &p);
	/* node-1 (zone-a), node-2 (zone-b), then zone-a again: node-3 */
	assert_string_equal(t.res.nodes[0].name, "node-1");
	assert_int_equal(td_node(&t, "node-1")->evicted, 1);
	assert_int_equal(td_node(&t, "node-2")->evicted, 1);
	assert_int_equal(td_node(&t, "node-3")->evicted, 1);
	assert_int_equal(td_node(&t, "node-4")->evicted, 0);
	td_free(&t);
}

/*
 * Fewest pods of the workload first, then the least CPU: the counts of
 * the workload's pods per node follow installs, evictions and
 * replacements through a roll. Without them every replica would go by
 * CPU alone (node-1 1 pod, node-2 and node-3 2).
 */
static void spreads_replacements(void **state)
{
	struct drain_options o = td_options();
	struct drain_pool p = pool_of(3, 1);
	struct tdrain t;

	(void)state;
	o.plan = KVET_DRAIN_ROLLING;
	td_load(&t, DEPLOY_CPU("big", "1", "1500m", "")
		    DEPLOY_CPU("web", "4", "100m", ""));
	td_run_pool(&t, &o, &p);
	/* big on node-1; web on node-2, node-3, node-1 (no web pod yet,
	 * however busy), node-2 (less CPU than node-1) */
	assert_int_equal(td_node(&t, "node-1")->evicted, 2);
	/* big goes to node-3 (100m), so does web (1 web pod, node-2 2);
	 * node-2's two go to node-1, back up and empty */
	assert_int_equal(td_node(&t, "node-2")->evicted, 2);
	assert_int_equal(td_node(&t, "node-3")->evicted, 3);
	td_free(&t);
}

/*
 * More replicas than the pool holds: the pods past its room and one
 * more are counted, not made (a fuzzed replicas: 2147483647 ran for
 * minutes), and the finding and the counts are those of every pod.
 */
static void counts_pods_past_room(void **state)
{
	struct drain_options o = td_options();
	struct drain_pool p = pool_of(3, 3);
	struct tdrain t;

	(void)state;
	td_load(&t, DEPLOY_CPU("web", "2147483647", "1m", ""));
	td_run_pool(&t, &o, &p);
	assert_int_equal(t.res.pods_placed, 330);
	assert_int_equal(t.res.pods_unplaced, 2147483317);
	assert_string_equal(
		td_issue(&t, NULL, DRAIN_RULE_INSTALL_UNSCHEDULABLE)->message,
		"2147483317 of the 2147483647 pods of Deployment \"ns/web\" cannot be scheduled on the pool, so the manifests cannot be installed: pod \"ns/web-331\" stays Pending: 0/3 nodes are available: 3 Too many pods.");
	td_free(&t);
}

/* The queue pops the higher priority first: it gets the only room. */
static void priority_first(void **state)
{
	struct drain_options o = td_options();
	struct drain_pool p = pool_of(1, 1);
	struct tdrain t;
	const struct drain_issue *is;

	(void)state;
	p.pods = 2;
	td_load(&t,
		DEPLOY("a", "2", "")
		DEPLOY("z", "1", "      priorityClassName: high\n")
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		"metadata: {name: high}\nvalue: 1000\n");
	td_run_pool(&t, &o, &p);
	assert_int_equal(t.res.pods_placed, 2);
	assert_int_equal(t.res.pods_unplaced, 1);
	is = td_issue(&t, NULL, DRAIN_RULE_INSTALL_UNSCHEDULABLE);
	assert_int_equal(is->node, UINT32_MAX);
	assert_string_equal(is->obj->name, "a");
	td_contains(is->message,
		    "1 of the 2 pods of Deployment \"ns/a\" cannot be scheduled on the pool");
	td_contains(is->message,
		    "pod \"ns/a-2\" stays Pending: 0/1 nodes are available: 1 Too many pods.");
	/* blamed on the count that asks for the pods */
	assert_true(kvet_node_text_eq(is->at, "2"));
	td_free(&t);
}

/* One DaemonSet pod per node it tolerates; its room is its node's. */
static void daemonsets(void **state)
{
	struct drain_options o = td_options();
	struct drain_pool p = pool_of(3, 1);
	struct kvet_taint taint;
	struct tdrain t;

	(void)state;
	memset(&taint, 0, sizeof(taint));
	taint.key = kvet_slice_of("dedicated");
	taint.value = kvet_slice_of("apps");
	taint.effect = KVET_TAINT_NO_SCHEDULE;
	p.taints = &taint;
	p.n_taints = 1;
	td_load(&t,
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent,"
		" namespace: ns}\nspec: {selector: {matchLabels: {app: agent}},"
		" template: {metadata: {labels: {app: agent}}, spec:"
		" {tolerations: [{operator: Exists}], containers: [{name: c,"
		" resources: {requests: {cpu: '3'}}}]}}}\n---\n"
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: big,"
		" namespace: ns}\nspec: {selector: {matchLabels: {app: big}},"
		" template: {metadata: {labels: {app: big}}, spec:"
		" {tolerations: [{operator: Exists}], containers: [{name: c,"
		" resources: {requests: {cpu: '1'}}}]}}}\n---\n"
		"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: shy,"
		" namespace: ns}\nspec: {selector: {matchLabels: {app: shy}},"
		" template: {metadata: {labels: {app: shy}}, spec:"
		" {containers: [{name: c}]}}}\n");
	td_run_pool(&t, &o, &p);
	/* agent on every node; big does not fit beside it anywhere (3920m);
	 * shy does not tolerate the taint, so it runs nowhere */
	assert_int_equal(t.res.pods_placed, 3);
	assert_int_equal(t.res.pods_unplaced, 3);
	td_contains(td_issue(&t, NULL, DRAIN_RULE_INSTALL_UNSCHEDULABLE)->message,
		    "3 of the 3 pods of DaemonSet \"ns/big\" cannot be scheduled on the pool, so the manifests cannot be installed: pod \"ns/big-node-1\" stays Pending: 0/3 nodes are available: 1 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector.");
	assert_int_equal(td_node(&t, "node-1")->left, 1);
	td_free(&t);
}

/* kvet lint's roll goes on past a stall whose pods all run again, and
 * stops at one that leaves a pod Pending. */
static void presses_on(void **state)
{
	struct drain_options o = td_options();
	struct drain_pool p = pool_of(3, 3);
	struct tdrain t;

	(void)state;
	o.plan = KVET_DRAIN_ROLLING;
	td_load(&t, DEPLOY("a", "1", "") BUDGET("a", "1")
		    DEPLOY("b", "1", "") BUDGET("b", "1"));
	td_run_pool(&t, &o, &p);
	assert_int_equal(t.res.n_steps, 1);
	assert_true(t.res.steps[0].stalled);
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_EVICTION_BLOCKED), 1);
	o.press_on = true;
	td_run_pool(&t, &o, &p);
	/* a on node-1, b on node-2 (less CPU requested); a's replacement
	 * goes to node-3, so every step stalls on one budget */
	assert_int_equal(t.res.n_steps, 3);
	assert_true(t.res.steps[0].stalled && t.res.steps[1].stalled &&
		    t.res.steps[2].stalled);
	assert_int_equal(td_count(&t, "node-1", DRAIN_RULE_EVICTION_BLOCKED),
			 1);
	assert_int_equal(td_count(&t, "node-2", DRAIN_RULE_EVICTION_BLOCKED),
			 1);
	td_contains(td_issue(&t, "node-2", DRAIN_RULE_EVICTION_BLOCKED)->message,
		    "pod \"ns/b-1\"");
	td_free(&t);
	/* b (first by name) on node-1 stalls step 1, and its pod is
	 * replaced; then the one backend of a fail-closed webhook leaves
	 * node-2: its replacement can never be created, so whatever
	 * stalled after it would be its consequence: the roll stops there */
	td_load(&t,
		"apiVersion: admissionregistration.k8s.io/v1\n"
		"kind: MutatingWebhookConfiguration\nmetadata: {name: guard}\n"
		"webhooks:\n- name: pods.guard.example.com\n"
		"  failurePolicy: Fail\n  sideEffects: None\n"
		"  admissionReviewVersions: [v1]\n"
		"  clientConfig: {service: {name: guard, namespace: ns}}\n"
		"  rules: [{apiGroups: [''], apiVersions: [v1],"
		" operations: [CREATE], resources: [pods]}]\n---\n"
		"apiVersion: v1\nkind: Service\nmetadata: {name: guard,"
		" namespace: ns}\nspec: {selector: {app: guard}, ports:"
		" [{port: 443}]}\n---\n"
		DEPLOY("guard", "1", "") DEPLOY("b", "1", "") BUDGET("b", "1"));
	td_run_pool(&t, &o, &p);
	assert_int_equal(t.res.n_steps, 2);
	assert_int_equal(td_count(&t, "node-1", DRAIN_RULE_EVICTION_BLOCKED),
			 1);
	assert_int_equal(td_count(&t, "node-2", DRAIN_RULE_WEBHOOK_DEADLOCK),
			 1);
	assert_int_equal(td_count(&t, NULL, DRAIN_RULE_EVICTION_BLOCKED), 1);
	td_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(allocatable),
		cmocka_unit_test(pods_per_kind),
		cmocka_unit_test(spreads_replicas),
		cmocka_unit_test(spreads_replacements),
		cmocka_unit_test(counts_pods_past_room),
		cmocka_unit_test(priority_first),
		cmocka_unit_test(daemonsets),
		cmocka_unit_test(presses_on),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

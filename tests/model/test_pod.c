/* SPDX-License-Identifier: Apache-2.0 */
/* A live pod's state, its emptyDir, host ports and bound volumes. */
#include "tgraph.h"

#include "model/pod.h"

static const struct kvet_object *pod(struct tgraph *t, const char *name)
{
	const struct kvet_object *o = kvet_graph_find(t->g, "", "Pod", "ns",
						      name);

	assert_non_null(o);
	return o;
}

static struct kvet_pod_state state_of(struct tgraph *t, const char *name)
{
	struct kvet_pod_state st;

	kvet_pod_state_read(pod(t, name)->root, &st);
	return st;
}

static const char pods[] =
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: ns\n"
	"  ownerReferences:\n  - {apiVersion: apps/v1, kind: ReplicaSet, name: other}\n"
	"  - {apiVersion: apps/v1, kind: ReplicaSet, name: web-5d4, controller: true}\n"
	"spec: {nodeName: n1}\n"
	"status:\n  phase: Running\n  conditions:\n"
	"  - {type: Initialized, status: \"True\"}\n  - {type: Ready, status: \"True\"}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: unready\n  namespace: ns\n"
	"  deletionTimestamp: \"2024-01-01T00:00:00Z\"\n"
	"  annotations: {kubernetes.io/config.mirror: abc}\n"
	"status: {phase: Running, conditions: [{type: Ready, status: \"False\"}]}\n---\n"
	"apiVersion: v1\nkind: Pod\nmetadata: {name: bare, namespace: ns}\n"
	"status: {phase: Succeeded}\n---\n";

static void state(void **st)
{
	struct tgraph t = tg_load(pods, 0);
	struct kvet_pod_state s;

	(void)st;
	s = state_of(&t, "web");
	assert_int_equal(s.phase, KVET_PHASE_RUNNING);
	assert_true(s.ready);
	assert_false(s.terminating);
	assert_false(s.mirror);
	assert_true(kvet_slice_eq0(s.node_name, "n1"));
	/* only the reference with controller: true is the controller */
	assert_true(s.has_controller);
	assert_true(kvet_slice_eq0(s.controller_kind, "ReplicaSet"));
	assert_true(kvet_slice_eq0(s.controller_name, "web-5d4"));
	s = state_of(&t, "unready");
	assert_false(s.ready);
	assert_true(s.terminating);
	assert_true(s.mirror);
	assert_false(s.has_controller);
	assert_int_equal(s.node_name.len, 0);
	s = state_of(&t, "bare");
	assert_int_equal(s.phase, KVET_PHASE_SUCCEEDED);
	assert_true(kvet_pod_phase_terminal(s.phase));
	assert_string_equal(kvet_pod_phase_name(s.phase), "Succeeded");
	tg_free(&t);
}

static void spec_facts(void **st)
{
	struct tgraph t = tg_load(
		"apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\n"
		"spec:\n  volumes:\n  - {name: cfg, configMap: {name: x}}\n"
		"  - {name: scratch, emptyDir: {medium: Memory}}\n"
		"  - {name: data, persistentVolumeClaim: {claimName: data-p}}\n"
		"  - {name: gone, persistentVolumeClaim: {claimName: missing}}\n"
		"  containers:\n  - name: c\n    ports:\n"
		"    - {containerPort: 80, hostPort: 8080}\n"
		"    - {containerPort: 53, hostPort: 53, protocol: UDP, hostIP: 10.0.0.1}\n"
		"    - {containerPort: 9090}\n"
		"  initContainers:\n  - {name: s, restartPolicy: Always, ports: [{hostPort: 9000}]}\n"
		"  - {name: i, ports: [{hostPort: 9001}]}\n---\n"
		"apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data-p, namespace: ns}\n"
		"spec: {volumeName: pv-1}\n---\n"
		"apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv-1}\n"
		"spec:\n  nodeAffinity:\n    required:\n      nodeSelectorTerms:\n"
		"      - matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [a]}]\n"
		"---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: q, namespace: ns}\n"
		"spec: {volumes: [{name: tmp, emptyDir: null}]}\n",
		0);
	const struct kvet_node *spec = kvet_node_get(pod(&t, "p")->root, "spec");
	struct kvet_host_ports hp;
	struct kvet_pod_volumes vols;
	const struct kvet_node *ed;

	(void)st;
	ed = kvet_pod_emptydir(spec);
	assert_non_null(ed);
	assert_true(kvet_node_eq(kvet_node_get(ed, "name"), "scratch"));
	assert_non_null(kvet_pod_emptydir(kvet_node_get(pod(&t, "q")->root,
							"spec")));
	assert_int_equal(kvet_pod_host_ports(&t.l->arena, spec, &hp), 0);
	/* two container ports, and the sidecar's; not the init container's */
	assert_int_equal(hp.n, 3);
	assert_int_equal(hp.v[0].port, 8080);
	assert_true(kvet_slice_eq0(hp.v[0].protocol, "TCP"));
	assert_true(kvet_slice_eq0(hp.v[1].ip, "10.0.0.1"));
	assert_int_equal(hp.v[2].port, 9000);
	{
		struct kvet_host_port a = hp.v[0], b = hp.v[0];

		b.ip = kvet_slice_of("10.0.0.2");
		assert_true(kvet_host_ports_conflict(&a, &b));
		a.ip = kvet_slice_of("10.0.0.1");
		assert_false(kvet_host_ports_conflict(&a, &b));
		b.protocol = kvet_slice_of("UDP");
		b.ip = a.ip;
		assert_false(kvet_host_ports_conflict(&a, &b));
	}
	assert_int_equal(kvet_pod_bound_volumes(&t.l->arena, t.g, "ns", spec,
						&vols), 0);
	assert_int_equal(vols.n, 1);
	assert_non_null(vols.v[0].pv);
	assert_non_null(vols.v[0].node_affinity);
	assert_false(vols.v[0].local);
	tg_free(&t);
}

/* hostNetwork, the grace period and the images the drain reads */
static void container_facts(void **st)
{
	struct tgraph t = tg_load(
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: ns}\n"
		"spec:\n  hostNetwork: true\n  terminationGracePeriodSeconds: 0\n"
		"  containers:\n  - {name: x, image: registry.k8s.io/etcd:3.5}\n"
		"  - {name: y}\n  - {name: z, image: 7}\n  - {name: w, image: busybox}\n"
		"---\n"
		"apiVersion: v1\nkind: Pod\nmetadata: {name: b, namespace: ns}\n"
		"spec: {hostNetwork: \"true\", terminationGracePeriodSeconds: \"5\"}\n",
		0);
	const struct kvet_node *a = kvet_node_get(pod(&t, "a")->root, "spec");
	const struct kvet_node *b = kvet_node_get(pod(&t, "b")->root, "spec");
	struct kvet_slice im;
	long long grace = -1;
	uint32_t i = 0;

	(void)st;
	assert_true(kvet_pod_host_network(a));
	assert_false(kvet_pod_host_network(b));	/* a string is no bool */
	assert_true(kvet_pod_grace_period(a, &grace));
	assert_int_equal(grace, 0);
	assert_false(kvet_pod_grace_period(b, &grace));
	/* only string images, in container order */
	assert_true(kvet_pod_image_next(a, &i, &im));
	assert_true(kvet_slice_eq0(im, "registry.k8s.io/etcd:3.5"));
	assert_true(kvet_pod_image_next(a, &i, &im));
	assert_true(kvet_slice_eq0(im, "busybox"));
	assert_false(kvet_pod_image_next(a, &i, &im));
	i = 0;
	assert_false(kvet_pod_image_next(b, &i, &im));
	tg_free(&t);
}

/* Where a message about a pod spec field points, and the one read of a
 * pod's needs */
static void spec_keys_and_needs(void **st)
{
	struct tgraph t = tg_load(
		"apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: ns, labels: {app: a}}\n"
		"spec:\n  nodeSelector: ~\n  affinity:\n    podAntiAffinity: {}\n"
		"  containers:\n  - name: x\n    resources: {requests: {cpu: 100m}}\n"
		"    ports: [{containerPort: 80, hostPort: 80}]\n"
		"  volumes: [{name: scratch, emptyDir: {}}]\n",
		0);
	const struct kvet_object *o = pod(&t, "a");
	struct kvet_pod_state ps;
	struct kvet_pod_needs needs;
	struct kvet_labels labels;
	const struct kvet_node *k;

	(void)st;
	kvet_pod_state_read(o->root, &ps);
	assert_non_null(ps.spec);
	k = kvet_pod_spec_key(ps.spec, "affinity", "podAntiAffinity");
	assert_non_null(k);
	assert_int_equal(k->line, 7);
	assert_null(kvet_pod_spec_key(ps.spec, "affinity", "podAffinity"));
	assert_null(kvet_pod_spec_key(ps.spec, "nodeSelector", NULL)); /* null */
	assert_null(kvet_pod_spec_key(ps.spec, "tolerations", NULL));
	assert_int_equal(kvet_pod_spec_key(ps.spec, "containers", NULL)->line,
			 8);
	assert_int_equal(kvet_pod_spec_holder_key(o->root)->line, 4);
	assert_int_equal(kvet_pod_needs_read(&t.l->arena, t.g, "ns", ps.spec,
					     &needs), 0);
	assert_non_null(needs.emptydir);
	assert_int_equal(needs.ports.n, 1);
	assert_int_equal(needs.vols.n, 0);
	assert_int_equal(kvet_object_labels(&t.l->arena, o, &labels), 0);
	assert_int_equal(labels.n, 1);
	tg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(state),
		cmocka_unit_test(spec_facts),
		cmocka_unit_test(container_facts),
		cmocka_unit_test(spec_keys_and_needs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

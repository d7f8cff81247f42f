/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gen_cluster - write a synthetic cluster dump for `kvet drain` to stdout.
 *
 * Usage: gen_cluster [--seed S] [--clean] [--full] NODES PODS
 *
 * One `kind: List` in the shape of `kubectl get nodes,pods,pdb,deploy,
 * sts,ds,rs,svc,pv,pvc,validatingwebhookconfigurations -A -o yaml`:
 *
 *   - NODES Nodes spread round-robin over 3 zones, with hostname, zone and
 *     os labels, 16 CPUs, 64 GiB and 110 pods allocatable, Ready;
 *   - two DaemonSets with one pod per node;
 *   - Deployments of 2 to 5 replicas (with their ReplicaSet), placed
 *     round-robin, Running and Ready, each with a Service; one in ten with
 *     required pod anti-affinity on the hostname, one in ten with a
 *     DoNotSchedule zone spread constraint; seven in ten with a
 *     PodDisruptionBudget whose status says what the disruption controller
 *     would (maxUnavailable 1, or minAvailable replicas - 1);
 *   - StatefulSets of 3 replicas, one per zone, whose claims are bound to
 *     zonal PersistentVolumes;
 *   - a fail-closed pod webhook served by a 2-replica Deployment;
 *   - what real clusters also hold: one Deployment in fifty runs a single
 *     replica under a minAvailable 1 budget (its node never drains), one
 *     in twenty keeps an emptyDir cache. --clean leaves them out, so
 *     that a rolling plan goes through every node.
 *
 * until the pods number PODS. --full sizes each node's allocatable CPU to
 * what its pods request, rounded up to 100m, so that the pool is nearly
 * full: almost no replacement of a drained node fits anywhere, the worst
 * case of placement. Its Nodes come last, once their pods are known.
 * The same arguments always give the same bytes: no clock, a PRNG seeded
 * from --seed.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const zones[] = { "zone-a", "zone-b", "zone-c" };

struct rng {
	uint64_t s;
};

static uint32_t next(struct rng *r)
{
	/* splitmix64 */
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static unsigned long nodes, pods_wanted, pods_made, node_cursor;
static bool clean, full;
/* --full: the CPU requested on each node, in millicores */
static unsigned long *node_cpu_m;

static void node_name(char *buf, size_t size, unsigned long i)
{
	snprintf(buf, size, "node-%05lu", i);
}

static void gen_nodes(void)
{
	char name[32], cpu[32];
	unsigned long i;

	for (i = 0; i < nodes; i++) {
		node_name(name, sizeof(name), i);
		if (full)
			snprintf(cpu, sizeof(cpu), "%lum",
				 (node_cpu_m[i] + 99) / 100 * 100);
		else
			snprintf(cpu, sizeof(cpu), "16");
		printf("- apiVersion: v1\n  kind: Node\n  metadata:\n"
		       "    name: %s\n    labels:\n"
		       "      kubernetes.io/hostname: %s\n"
		       "      kubernetes.io/os: linux\n"
		       "      topology.kubernetes.io/zone: %s\n"
		       "  spec:\n    podCIDR: 10.%lu.%lu.0/24\n"
		       "  status:\n    allocatable: {cpu: \"%s\", memory: 64Gi,"
		       " pods: \"110\", ephemeral-storage: 100Gi}\n"
		       "    capacity: {cpu: \"16\", memory: 66Gi, pods: \"110\"}\n"
		       "    conditions:\n    - {type: Ready, status: \"True\","
		       " reason: KubeletReady}\n",
		       name, name, zones[i % 3], i / 256, i % 256, cpu);
	}
}

/* A running, Ready pod of a controller on node @n. */
static void gen_pod(const char *ns, const char *name, const char *labels,
		    const char *owner_kind, const char *owner,
		    unsigned long n, unsigned int cpu_m, unsigned int mem_mi,
		    const char *spec_extra)
{
	char node[32];

	node_name(node, sizeof(node), n % nodes);
	if (full)
		node_cpu_m[n % nodes] += cpu_m;
	printf("- apiVersion: v1\n  kind: Pod\n  metadata:\n"
	       "    name: %s\n    namespace: %s\n    labels: {%s}\n"
	       "    ownerReferences:\n    - {apiVersion: apps/v1, kind: %s,"
	       " name: %s, controller: true, blockOwnerDeletion: true}\n"
	       "  spec:\n    nodeName: %s\n    containers:\n"
	       "    - name: main\n      image: registry.example.com/%s:1.0\n"
	       "      resources: {requests: {cpu: %um, memory: %uMi}}\n%s"
	       "  status:\n    phase: Running\n    conditions:\n"
	       "    - {type: Ready, status: \"True\"}\n"
	       "    - {type: ContainersReady, status: \"True\"}\n",
	       name, ns, labels, owner_kind, owner, node, owner, cpu_m, mem_mi,
	       spec_extra);
	pods_made++;
}

static void gen_daemonsets(void)
{
	static const char *const ds[] = { "node-exporter", "log-agent" };
	char name[64], labels[128];
	unsigned long i, d;

	for (d = 0; d < 2; d++) {
		printf("- apiVersion: apps/v1\n  kind: DaemonSet\n  metadata:"
		       " {name: %s, namespace: kube-system}\n  spec:\n"
		       "    selector: {matchLabels: {app: %s}}\n    template:\n"
		       "      metadata: {labels: {app: %s}}\n      spec:\n"
		       "        tolerations: [{operator: Exists}]\n"
		       "        containers: [{name: main, image: %s:1}]\n"
		       "  status: {desiredNumberScheduled: %lu, numberReady: %lu}\n",
		       ds[d], ds[d], ds[d], ds[d], nodes, nodes);
		snprintf(labels, sizeof(labels), "app: %s, controller-revision-hash: 6b7c8d", ds[d]);
		for (i = 0; i < nodes; i++) {
			snprintf(name, sizeof(name), "%s-%05lu", ds[d], i);
			gen_pod("kube-system", name, labels, "DaemonSet", ds[d],
				i, 50, 64,
				"    tolerations: [{operator: Exists}]\n");
		}
	}
}

static void gen_service(const char *ns, const char *app)
{
	printf("- apiVersion: v1\n  kind: Service\n  metadata: {name: %s,"
	       " namespace: %s}\n  spec:\n    selector: {app: %s}\n"
	       "    ports: [{port: 443, targetPort: 8443}]\n",
	       app, ns, app);
}

/* A budget over @replicas Ready pods, with the status the disruption
 * controller writes: maxUnavailable 1, or minAvailable @min. */
static void gen_pdb(const char *ns, const char *app, unsigned int replicas,
		    bool max_unavailable, unsigned int min)
{
	unsigned int desired = max_unavailable ? replicas - 1 : min;

	printf("- apiVersion: policy/v1\n  kind: PodDisruptionBudget\n"
	       "  metadata: {name: %s, namespace: %s, generation: 1}\n"
	       "  spec:\n    %s: %u\n    selector: {matchLabels: {app: %s}}\n"
	       "  status: {observedGeneration: 1, disruptionsAllowed: %u,"
	       " currentHealthy: %u, desiredHealthy: %u, expectedPods: %u}\n",
	       app, ns, max_unavailable ? "maxUnavailable" : "minAvailable",
	       max_unavailable ? 1 : min, app, replicas - desired, replicas,
	       desired, replicas);
}

/* Scheduling constraints of one in ten Deployments each. */
static const char *constraints(uint32_t roll, const char *app, char *buf,
			       size_t size, const char *indent)
{
	if (roll % 10 == 0)
		snprintf(buf, size,
			 "%saffinity:\n%s  podAntiAffinity:\n"
			 "%s    requiredDuringSchedulingIgnoredDuringExecution:\n"
			 "%s    - labelSelector: {matchLabels: {app: %s}}\n"
			 "%s      topologyKey: kubernetes.io/hostname\n",
			 indent, indent, indent, indent, app, indent);
	else if (roll % 10 == 1)
		snprintf(buf, size,
			 "%stopologySpreadConstraints:\n"
			 "%s- {maxSkew: 1, topologyKey: topology.kubernetes.io/zone,"
			 " whenUnsatisfiable: DoNotSchedule, labelSelector:"
			 " {matchLabels: {app: %s}}}\n",
			 indent, indent, app);
	else
		buf[0] = '\0';
	return buf;
}

static void gen_deployment(struct rng *r, unsigned long k)
{
	char ns[32], app[48], rs[64], name[96], labels[160], extra[512];
	char tmpl[512];
	bool single = !clean && k % 50 == 49;
	unsigned int replicas = single ? 1 : 2 + next(r) % 4, i;
	unsigned int cpu = 100 + 50 * (next(r) % 8), mem = 128 * (1 + next(r) % 4);
	uint32_t roll = next(r);

	snprintf(ns, sizeof(ns), "team-%03lu", k / 40);
	snprintf(app, sizeof(app), "app-%06lu", k);
	snprintf(rs, sizeof(rs), "%s-7f9c6d", app);
	constraints(roll, app, tmpl, sizeof(tmpl), "        ");
	printf("- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: %s,"
	       " namespace: %s, generation: 1}\n  spec:\n    replicas: %u\n"
	       "    selector: {matchLabels: {app: %s}}\n    template:\n"
	       "      metadata: {labels: {app: %s}}\n      spec:\n%s"
	       "        containers: [{name: main, image: %s:1, resources:"
	       " {requests: {cpu: %um, memory: %uMi}}}]\n"
	       "  status: {replicas: %u, readyReplicas: %u, observedGeneration: 1}\n",
	       app, ns, replicas, app, app, tmpl, app, cpu, mem, replicas,
	       replicas);
	printf("- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata:\n"
	       "    name: %s\n    namespace: %s\n    ownerReferences:\n"
	       "    - {apiVersion: apps/v1, kind: Deployment, name: %s,"
	       " controller: true}\n  spec:\n    replicas: %u\n"
	       "    selector: {matchLabels: {app: %s, pod-template-hash: 7f9c6d}}\n"
	       "    template:\n      metadata: {labels: {app: %s,"
	       " pod-template-hash: 7f9c6d}}\n      spec:\n"
	       "        containers: [{name: main, image: %s:1}]\n"
	       "  status: {replicas: %u, readyReplicas: %u}\n",
	       rs, ns, app, replicas, app, app, app, replicas, replicas);
	snprintf(labels, sizeof(labels), "app: %s, pod-template-hash: 7f9c6d",
		 app);
	constraints(roll, app, extra, sizeof(extra), "    ");
	if (!clean && k % 20 == 7)
		snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
			 "    volumes: [{name: cache, emptyDir: {}}]\n");
	for (i = 0; i < replicas; i++) {
		snprintf(name, sizeof(name), "%s-%c%c%c%c%c", rs,
			 'a' + next(r) % 26, 'a' + next(r) % 26,
			 'a' + next(r) % 26, 'a' + next(r) % 26, 'a' + i);
		gen_pod(ns, name, labels, "ReplicaSet", rs, node_cursor++, cpu,
			mem, extra);
	}
	gen_service(ns, app);
	if (single)
		gen_pdb(ns, app, 1, false, 1);
	else if (next(r) % 10 < 7)
		gen_pdb(ns, app, replicas, next(r) % 2, replicas - 1);
}

static void gen_statefulset(unsigned long k)
{
	char ns[32], app[48], name[64], labels[160], extra[256];
	unsigned int i;

	snprintf(ns, sizeof(ns), "data-%03lu", k / 20);
	snprintf(app, sizeof(app), "db-%05lu", k);
	printf("- apiVersion: apps/v1\n  kind: StatefulSet\n  metadata: {name: %s,"
	       " namespace: %s}\n  spec:\n    replicas: 3\n    serviceName: %s\n"
	       "    selector: {matchLabels: {app: %s}}\n    template:\n"
	       "      metadata: {labels: {app: %s}}\n      spec:\n"
	       "        containers: [{name: db, image: db:1, resources:"
	       " {requests: {cpu: 500m, memory: 1Gi}}}]\n"
	       "  status: {replicas: 3, readyReplicas: 3}\n",
	       app, ns, app, app, app);
	for (i = 0; i < 3; i++) {
		/* pod i in zone i: node_cursor moved to a node of that zone */
		unsigned long n = (node_cursor / 3) * 3 + i;

		snprintf(name, sizeof(name), "%s-%u", app, i);
		snprintf(labels, sizeof(labels),
			 "app: %s, statefulset.kubernetes.io/pod-name: %s",
			 app, name);
		snprintf(extra, sizeof(extra),
			 "    volumes: [{name: data, persistentVolumeClaim:"
			 " {claimName: data-%s}}]\n", name);
		gen_pod(ns, name, labels, "StatefulSet", app, n, 500, 1024,
			extra);
		printf("- apiVersion: v1\n  kind: PersistentVolumeClaim\n"
		       "  metadata: {name: data-%s, namespace: %s}\n"
		       "  spec: {accessModes: [ReadWriteOnce], volumeName: pv-%s-%s,"
		       " resources: {requests: {storage: 10Gi}}}\n"
		       "  status: {phase: Bound}\n", name, ns, ns, name);
		printf("- apiVersion: v1\n  kind: PersistentVolume\n"
		       "  metadata: {name: pv-%s-%s}\n  spec:\n"
		       "    capacity: {storage: 10Gi}\n"
		       "    claimRef: {namespace: %s, name: data-%s}\n"
		       "    nodeAffinity:\n      required:\n"
		       "        nodeSelectorTerms:\n        - matchExpressions:\n"
		       "          - {key: topology.kubernetes.io/zone, operator: In,"
		       " values: [%s]}\n  status: {phase: Bound}\n",
		       ns, name, ns, name, zones[n % 3]);
	}
	node_cursor += 3;
	gen_service(ns, app);
	gen_pdb(ns, app, 3, true, 0);
}

static void gen_webhook(void)
{
	char name[64];
	unsigned int i;

	printf("- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: guard,"
	       " namespace: guard-system}\n  spec:\n    replicas: 2\n"
	       "    selector: {matchLabels: {app: guard}}\n    template:\n"
	       "      metadata: {labels: {app: guard}}\n      spec:\n"
	       "        containers: [{name: main, image: guard:1}]\n"
	       "  status: {replicas: 2, readyReplicas: 2}\n");
	printf("- apiVersion: apps/v1\n  kind: ReplicaSet\n  metadata:\n"
	       "    name: guard-5d8f\n    namespace: guard-system\n"
	       "    ownerReferences: [{apiVersion: apps/v1, kind: Deployment,"
	       " name: guard, controller: true}]\n  spec:\n    replicas: 2\n"
	       "    selector: {matchLabels: {app: guard, pod-template-hash: 5d8f}}\n"
	       "    template:\n      metadata: {labels: {app: guard,"
	       " pod-template-hash: 5d8f}}\n      spec: {containers: [{name: main,"
	       " image: guard:1}]}\n");
	for (i = 0; i < 2; i++) {
		snprintf(name, sizeof(name), "guard-5d8f-%c", 'a' + i);
		gen_pod("guard-system", name, "app: guard, pod-template-hash: 5d8f",
			"ReplicaSet", "guard-5d8f", i * 7, 100, 128, "");
	}
	gen_service("guard-system", "guard");
	gen_pdb("guard-system", "guard", 2, true, 0);
	printf("- apiVersion: admissionregistration.k8s.io/v1\n"
	       "  kind: ValidatingWebhookConfiguration\n  metadata: {name: guard}\n"
	       "  webhooks:\n  - name: pods.guard.example.com\n"
	       "    failurePolicy: Fail\n    sideEffects: None\n"
	       "    admissionReviewVersions: [v1]\n"
	       "    clientConfig: {service: {namespace: guard-system, name: guard,"
	       " path: /validate}}\n"
	       "    namespaceSelector: {matchExpressions: [{key:"
	       " kubernetes.io/metadata.name, operator: NotIn, values:"
	       " [guard-system, kube-system]}]}\n"
	       "    rules:\n    - {operations: [CREATE], apiGroups: [\"\"],"
	       " apiVersions: [v1], resources: [pods]}\n");
}

int main(int argc, char **argv)
{
	struct rng r = { 42 };
	unsigned long k = 0;
	int i = 1;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--clean"))
			clean = true;
		else if (!strcmp(argv[i], "--full"))
			full = true;
		else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
			r.s = strtoull(argv[++i], NULL, 10);
		else
			break;
	}
	if (argc - i != 2) {
		fprintf(stderr, "usage: gen_cluster [--seed S] [--clean] [--full] NODES PODS\n");
		return 2;
	}
	nodes = strtoul(argv[i], NULL, 10);
	pods_wanted = strtoul(argv[i + 1], NULL, 10);
	if (!nodes || nodes > 100000 || pods_wanted < 2 * nodes) {
		fprintf(stderr, "gen_cluster: NODES from 1 to 100000, PODS at least 2 x NODES\n");
		return 2;
	}
	if (full && !(node_cpu_m = calloc(nodes, sizeof(*node_cpu_m)))) {
		fprintf(stderr, "gen_cluster: out of memory\n");
		return 1;
	}
	printf("apiVersion: v1\nkind: List\nmetadata: {resourceVersion: \"\"}\nitems:\n");
	if (!full)
		gen_nodes();
	gen_daemonsets();
	gen_webhook();
	while (pods_made + 3 <= pods_wanted) {
		if (k % 20 == 19)
			gen_statefulset(k);
		else
			gen_deployment(&r, k);
		k++;
	}
	if (full)
		gen_nodes();
	free(node_cpu_m);
	return ferror(stdout) ? 1 : 0;
}

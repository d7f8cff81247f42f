/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The synthetic pool of rendered manifests (SIMULATION.md, "Inputs"):
 * identical nodes, round-robin over zones, with what a kubelet reserves
 * taken off their capacity. install.c then puts the workloads' pods on
 * them; the plans run on the result as on a dump.
 */
#include "drain/pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drain/cluster.h"
#include "drain/journal.h"

#define GIB (INT64_C(1) << 30)
#define MIB (INT64_C(1) << 20)

/*
 * What the kubelet and the system keep for themselves, by GKE's published
 * formula (cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes),
 * which EKS and AKS approximate: a share of each band of capacity. A 4-CPU
 * 16 GiB node keeps 80m and 2.6 GiB, plus the kubelet's 100 MiB hard
 * eviction threshold.
 */
struct band {
	int64_t upto;		/* the band ends here (capacity units) */
	int64_t per_10000;	/* reserved share of the band */
};

static int64_t reserved(int64_t cap, const struct band *b, size_t n)
{
	int64_t from = 0, r = 0, top;
	size_t i;

	for (i = 0; i < n && cap > from; i++) {
		top = cap < b[i].upto ? cap : b[i].upto;
		r += (top - from) * b[i].per_10000 / 10000;
		from = b[i].upto;
	}
	return r;
}

void drain_pool_allocatable(const struct drain_pool *pool, int64_t *cpu,
			    int64_t *memory, int64_t *ephemeral)
{
	static const struct band cpu_bands[] = {
		{ 1000, 600 }, { 2000, 100 }, { 4000, 50 },
		{ INT64_MAX, 25 },
	};
	static const struct band mem_bands[] = {
		{ 4 * GIB, 2500 }, { 8 * GIB, 2000 }, { 16 * GIB, 1000 },
		{ 128 * GIB, 600 }, { INT64_MAX, 200 },
	};
	int64_t m;

	*cpu = pool->cpu - reserved(pool->cpu, cpu_bands, 4);
	m = pool->memory < GIB ? 255 * MIB
			       : reserved(pool->memory, mem_bands, 5);
	m += 100 * MIB;
	*memory = pool->memory > m ? pool->memory - m : 0;
	/* a 100 GiB boot disk less the kubelet's nodefs.available 10% */
	*ephemeral = 90 * GIB;
}

/* node-1 .. node-9, node-01 .. node-12: names sort like numbers. */
static const char *node_name(struct kvet_arena *arena, unsigned int i,
			     unsigned int n)
{
	int width = snprintf(NULL, 0, "%u", n);

	return kvet_arena_printf(arena, "node-%0*u", width, i + 1);
}

/* zone-a .. zone-z: zones are few (the CLI allows up to 26). */
static const char *zone_name(struct kvet_arena *arena, unsigned int z)
{
	if (z < 26)
		return kvet_arena_printf(arena, "zone-%c", 'a' + (int)z);
	return kvet_arena_printf(arena, "zone-%u", z + 1);
}

static int node_labels(struct kvet_arena *arena, const struct drain_pool *pool,
		       const char *name, const char *zone,
		       struct kvet_labels *out)
{
	/* what every kubelet sets; --node-label may change os and arch,
	 * never the node's name or zone */
	static const char *const defaults[][2] = {
		{ "kubernetes.io/os", "linux" },
		{ "kubernetes.io/arch", "amd64" },
		{ "beta.kubernetes.io/os", "linux" },
		{ "beta.kubernetes.io/arch", "amd64" },
	};
	size_t nd = sizeof(defaults) / sizeof(defaults[0]), n = 0, i, j;
	struct kvet_label *v;

	v = kvet_arena_array(arena, nd + pool->n_labels + 2, sizeof(*v));
	if (!v)
		return -1;
	v[n].key = kvet_slice_of("kubernetes.io/hostname");
	v[n++].value = kvet_slice_of(name);
	v[n].key = kvet_slice_of("topology.kubernetes.io/zone");
	v[n++].value = kvet_slice_of(zone);
	for (i = pool->n_labels; i-- > 0;) {
		/* the last of a key given twice wins */
		for (j = 0; j < n; j++)
			if (kvet_slice_eq(v[j].key, pool->labels[i].key))
				break;
		if (j == n)
			v[n++] = pool->labels[i];
	}
	for (i = 0; i < nd; i++) {
		for (j = 0; j < n; j++)
			if (kvet_slice_eq0(v[j].key, defaults[i][0]))
				break;
		if (j == n) {
			v[n].key = kvet_slice_of(defaults[i][0]);
			v[n++].value = kvet_slice_of(defaults[i][1]);
		}
	}
	kvet_labels_from_array(v, n, out);
	return 0;
}

static int add_nodes(struct drain_cluster *c, const struct drain_pool *pool)
{
	unsigned int i, n = pool->nodes;
	size_t cap = (size_t)n + c->opts.surge + (c->opts.surge ? n : 0);
	int64_t cpu, mem, eph;

	drain_pool_allocatable(pool, &cpu, &mem, &eph);
	c->nodes = kvet_arena_array(c->arena, cap + 1, sizeof(*c->nodes));
	if (!c->nodes)
		return -1;
	c->cap_nodes = (uint32_t)cap;
	for (i = 0; i < n; i++) {
		struct drain_node *node = &c->nodes[i];
		const char *zone = zone_name(c->arena, i % pool->zones);

		memset(node, 0, sizeof(*node));
		node->name = node_name(c->arena, i, n);
		node->first_pod = DRAIN_NONE;
		node->zone = DRAIN_NONE;
		node->taints.v = pool->taints;
		node->taints.n = pool->n_taints;
		node->alloc.v[KVET_RES_CPU] = cpu;
		node->alloc.v[KVET_RES_MEMORY] = mem;
		node->alloc.v[KVET_RES_EPHEMERAL] = eph;
		node->alloc.v[KVET_RES_PODS] = pool->pods;
		node->ext_used = kvet_arena_array(c->arena, 1,
						  sizeof(*node->ext_used));
		if (!node->name || !zone || !node->ext_used ||
		    node_labels(c->arena, pool, node->name, zone,
				&node->labels) < 0)
			return -1;
		c->n_nodes++;
	}
	return 0;
}

int drain_run_pool(struct kvet_arena *arena, struct kvet_diag *diag,
		   const struct kvet_graph *g, const struct drain_options *opts,
		   const struct drain_pool *pool, struct drain_result *out)
{
	struct drain_cluster c;
	struct drain_install inst;
	uint32_t *sel = NULL;
	long k = -1;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	memset(&c, 0, sizeof(c));
	memset(&inst, 0, sizeof(inst));
	out->plan = opts->plan;
	c.arena = arena;
	kvet_arena_init(&c.scratch);
	c.g = g;
	c.opts = *opts;
	c.zone_key = DRAIN_NONE;
	c.synthetic = true;
	c.journal = drain_journal_create();
	if (c.journal && pool->nodes && pool->zones &&
	    add_nodes(&c, pool) == 0 && drain_install_pods(&c, &inst) == 0 &&
	    drain_cluster_relate(&c) == 0) {
		if (c.refused) {
			kvet_diag_addf(diag, NULL, 0, 0, "%s", c.refused);
			rc = 1;
		} else {
			k = drain_run_prepare(&c, diag, out, &sel);
		}
	}
	/* the pods run before any node drains: their issues come first */
	if (k >= 0 && drain_install_place(&c, &inst, out) == 0)
		rc = drain_run_plan(&c, sel, (size_t)k);
	out->pool = true;
	free(sel);
	drain_install_release(&inst);
	drain_cluster_release(&c);
	return !rc && c.oom ? -1 : rc;
}

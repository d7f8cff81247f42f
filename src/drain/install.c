/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Rendered manifests on a synthetic pool: every workload gets the pods
 * it runs at its smallest (kvet_workload_install_pods(): N_min with an
 * HPA's minReplicas; a DaemonSet one per node it may run on), labelled
 * from its template and with the labels its controller adds, then the
 * pods are placed one by one by the scheduler's filters in a fixed order:
 * priority (highest first, as the scheduling queue pops them), DaemonSet
 * pods before the others (they belong on their nodes before anything
 * else claims the room), then kind, namespace, name and ordinal. The same
 * manifests always give the same placement.
 */
#include "drain/pool.h"

#include <stdlib.h>
#include <string.h>

#include "base/sat.h"
#include "base/vec.h"
#include "drain/cluster.h"
#include "drain/fit.h"
#include "drain/issue.h"
#include "model/node_affinity.h"
#include "model/priority.h"

struct entry {
	long long priority;
	const struct kvet_workload *wl;
	uint32_t ordinal;
	uint32_t pod;
	uint32_t node;		/* a DaemonSet pod's, or NONE */
};

struct build {
	struct drain_cluster *c;
	struct drain_install *inst;
	struct kvet_priorities *prios;
	struct entry *v;
	size_t n, cap;
};

static int cmp_entry(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	bool da = a->wl->kind == KVET_WL_DAEMONSET;
	bool db = b->wl->kind == KVET_WL_DAEMONSET;
	int r;

	if (a->priority != b->priority)
		return a->priority > b->priority ? -1 : 1;
	if (da != db)
		return da ? -1 : 1;
	r = strcmp(a->wl->obj->kind, b->wl->obj->kind);
	if (!r)
		r = strcmp(a->wl->obj->namespace, b->wl->obj->namespace);
	if (!r)
		r = strcmp(a->wl->obj->name, b->wl->obj->name);
	if (!r)
		r = (a->ordinal > b->ordinal) - (a->ordinal < b->ordinal);
	return r ? r : (a->pod > b->pod) - (a->pod < b->pod);
}

/* A StatefulSet's pods are NAME-0, NAME-1; a DaemonSet's NAME-NODE;
 * the others NAME-1, NAME-2 (their real suffixes are random). */
static const char *pod_name(struct drain_cluster *c,
			    const struct kvet_workload *wl, uint32_t ordinal,
			    uint32_t node)
{
	const char *name = wl->obj->name;

	if (wl->kind == KVET_WL_POD)
		return name;
	if (node != DRAIN_NONE)
		return kvet_arena_printf(c->arena, "%s-%s", name,
					 c->nodes[node].name);
	return kvet_arena_printf(c->arena, "%s-%u", name,
				 wl->kind == KVET_WL_STATEFULSET ? ordinal
								 : ordinal + 1);
}

/* A bare Pod's own metadata says whether anything recreates it. */
static enum drain_pod_kind kind_of(const struct kvet_workload *wl)
{
	struct kvet_pod_state st;

	if (wl->kind == KVET_WL_DAEMONSET)
		return DRAIN_POD_DAEMONSET;
	if (wl->kind != KVET_WL_POD)
		return DRAIN_POD_REPLICATED;
	kvet_pod_state_read(wl->obj->root, &st);
	return drain_pod_kind_of(&st);
}

static int new_pod(struct build *b, const struct kvet_workload *wl,
		   uint32_t ordinal, uint32_t node, long long priority)
{
	struct drain_cluster *c = b->c;
	struct kvet_pod_runtime rt;
	struct drain_pod *p;
	struct entry *e;

	if (drain_cluster_reserve(c, 1) < 0 ||
	    !kvet_vec_grow((void **)&b->v, &b->cap, b->n + 1, sizeof(*b->v)))
		return -1;
	p = &c->pods[c->n_pods];
	memset(p, 0, sizeof(*p));
	p->obj = wl->obj;
	p->origin = p->replaced_by = p->sts = p->group = DRAIN_NONE;
	p->next = p->prev = p->node = p->from_node = DRAIN_NONE;
	p->ns = wl->obj->namespace;
	p->name = pod_name(c, wl, ordinal, node);
	p->spec = wl->pod_spec;
	p->wl = wl->kind == KVET_WL_POD ? NULL : wl;
	p->kind = kind_of(wl);
	p->owner_kind = kvet_slice_of(wl->obj->kind);
	p->owner_name = kvet_slice_of(wl->obj->name);
	p->phase = KVET_PHASE_PENDING;
	p->state = DRAIN_POD_PENDING;
	kvet_workload_runtime(wl, 0, ordinal, &rt);
	if (!p->name ||
	    kvet_runtime_labels(c->arena, &wl->labels,
				wl->kind == KVET_WL_POD ? NULL : &rt,
				&p->labels) < 0 ||
	    kvet_pod_needs_read(c->arena, c->g, p->ns, p->spec,
				&p->needs) < 0)
		return -1;
	e = &b->v[b->n++];
	e->priority = priority;
	e->wl = wl;
	e->ordinal = ordinal;
	e->node = node;
	e->pod = c->n_pods++;
	return 0;
}

/* Does the DaemonSet controller run a pod of @wl on node @n? Its taints
 * and the pod's node affinity decide, not the room left. */
static bool eligible(const struct drain_cluster *c,
		     const struct kvet_workload *wl, uint32_t n)
{
	const struct drain_node *node = &c->nodes[n];

	return !kvet_pod_untolerated_taint(&node->taints, wl->pod_spec) &&
	       kvet_pod_node_affinity_matches(wl->pod_spec, &node->labels,
					      kvet_slice_of(node->name));
}

/* The pods the pool's nodes take in all (their allocatable "pods"). */
static long long room(const struct drain_cluster *c)
{
	long long sum = 0;
	uint32_t n;

	for (n = 0; n < c->n_nodes; n++)
		sum = kvet_sat_add_i64(sum, c->nodes[n].alloc.v[KVET_RES_PODS]);
	return sum;
}

/*
 * Of a workload's @n pods, those made: those the pool could ever run, and
 * one more that is sure to stay Pending. A workload's pods are placed in
 * turn and differ only in their names (and a StatefulSet's ordinal
 * labels), so the pods after its first Pending one meet the same pool and
 * stay Pending too; making them would only cost (replicas: 2147483647 of
 * a fuzzed Deployment ran for minutes). drain_install_place() counts the
 * others (unmade()). Only a term of another pod that names one ordinal
 * could tell them apart.
 */
static long long made_pods(const struct drain_cluster *c, long long n)
{
	long long most = kvet_sat_add_i64(room(c), 1);

	return n < most ? n : most;
}

static int workload_pods(struct build *b, const struct kvet_workload *wl)
{
	struct drain_cluster *c = b->c;
	struct kvet_priority prio;
	long long n = made_pods(c, kvet_workload_install_pods(wl)), i;
	uint32_t node, k = 0, first = c->n_pods, p;

	if (!wl->pod_spec)
		return 0;
	kvet_effective_priority(b->prios, wl, &prio);
	if (!prio.known)
		prio.value = 0;
	if (wl->kind != KVET_WL_DAEMONSET) {
		for (i = 0; i < n; i++)
			if (new_pod(b, wl, (uint32_t)i, DRAIN_NONE,
				    prio.value) < 0)
				return -1;
	} else {
		for (node = 0; node < c->n_nodes; node++)
			if (eligible(c, wl, node) &&
			    new_pod(b, wl, k++, node, prio.value) < 0)
				return -1;
	}
	/* one pod has no sibling to spread from (its replacement is
	 * placed after it stopped counting) */
	if (wl->kind == KVET_WL_DAEMONSET || c->n_pods - first < 2)
		return 0;
	c->siblings[c->n_siblings] = kvet_arena_array(
		c->arena, (size_t)c->cap_nodes + 1, sizeof(**c->siblings));
	if (!c->siblings[c->n_siblings])
		return -1;
	for (p = first; p < c->n_pods; p++)
		c->pods[p].group = c->n_siblings;
	c->n_siblings++;
	return 0;
}

int drain_install_pods(struct drain_cluster *c, struct drain_install *inst)
{
	struct kvet_workload *const *wls;
	struct build b;
	size_t n, i;
	int ret = -1;

	memset(&b, 0, sizeof(b));
	b.c = c;
	b.inst = inst;
	b.prios = kvet_priorities_create(c->arena, c->g);
	if (!b.prios)
		return -1;
	wls = kvet_graph_workloads(c->g, &n);
	c->siblings = kvet_arena_array(c->arena, n + 1, sizeof(*c->siblings));
	if (!c->siblings)
		goto out;
	for (i = 0; i < n; i++)
		if (kvet_object_runs(wls[i]->obj) &&
		    workload_pods(&b, wls[i]) < 0)
			goto out;
	if (b.n)
		qsort(b.v, b.n, sizeof(*b.v), cmp_entry);
	inst->order = malloc((b.n + 1) * sizeof(*inst->order));
	inst->target = malloc(((size_t)c->n_pods + 1) * sizeof(*inst->target));
	if (!inst->order || !inst->target)
		goto out;
	for (i = 0; i < c->n_pods; i++)
		inst->target[i] = DRAIN_NONE;
	for (i = 0; i < b.n; i++) {
		inst->order[i] = b.v[i].pod;
		inst->target[b.v[i].pod] = b.v[i].node;
	}
	inst->n = (uint32_t)b.n;
	ret = 0;
out:
	free(b.v);
	kvet_priorities_destroy(b.prios);
	return ret;
}

void drain_install_release(struct drain_install *inst)
{
	if (!inst)
		return;
	free(inst->order);
	free(inst->target);
	memset(inst, 0, sizeof(*inst));
}

/*
 * The field of the pod template that the scheduler's message blames,
 * found by the words of the filter that rejected the most nodes (the
 * message lists them): where a user would change something.
 */
static const struct kvet_node *blamed_field(const struct drain_pod *pod,
					    const char *why)
{
	static const struct {
		const char *words;
		const char *path[2];
	} blame[] = {
		{ "topology spread", { "topologySpreadConstraints" } },
		{ "anti-affinity", { "affinity", "podAntiAffinity" } },
		{ "pod affinity", { "affinity", "podAffinity" } },
		{ "affinity/selector", { "nodeSelector" } },
		{ "affinity/selector", { "affinity", "nodeAffinity" } },
		{ "untolerated taint", { "tolerations" } },
		{ "Insufficient", { "containers" } },
		{ "free ports", { "containers" } },
	};
	const struct kvet_node *key;
	size_t i;

	/* too many pods for the pool: the count that asks for them */
	if (why && strstr(why, "Too many pods") && pod->wl &&
	    pod->wl->replicas.spec_node)
		return pod->wl->replicas.spec_node;
	for (i = 0; why && i < sizeof(blame) / sizeof(blame[0]); i++) {
		if (!strstr(why, blame[i].words))
			continue;
		key = kvet_pod_spec_key(pod->spec, blame[i].path[0],
					blame[i].path[1]);
		if (key)
			return key;
	}
	/* what is missing (a toleration) belongs in the pod's spec */
	return kvet_pod_spec_holder_key(pod->wl ? pod->wl->template
						: pod->obj->root);
}

static void report(struct drain_cluster *c, uint32_t p, long long failed,
		   long long total)
{
	const struct drain_pod *pod = &c->pods[p];
	const struct kvet_object *obj = pod->obj;
	const struct kvet_node *at = blamed_field(pod, pod->why);
	struct drain_issue *is;

	if (total == 1)
		is = drain_issue_add(c, DRAIN_RULE_INSTALL_UNSCHEDULABLE,
				     KVET_SEV_ERROR, DRAIN_NONE, obj, at,
				     "pod \"%s\" of %s \"%s/%s\" cannot be scheduled on the pool, so the manifests cannot be installed: %s",
				     drain_pod_label(c, p), obj->kind,
				     obj->namespace, obj->name, pod->why);
	else
		is = drain_issue_add(c, DRAIN_RULE_INSTALL_UNSCHEDULABLE,
				     KVET_SEV_ERROR, DRAIN_NONE, obj, at,
				     "%lld of the %lld pods of %s \"%s/%s\" cannot be scheduled on the pool, so the manifests cannot be installed: pod \"%s\" stays Pending: %s",
				     failed, total, obj->kind, obj->namespace,
				     obj->name, drain_pod_label(c, p), pod->why);
	if (is)
		is->no_room = pod->no_room;
}

/* Pod @p runs on node @n, Ready: what counts ready pods counts it. */
static void start(struct drain_cluster *c, uint32_t p, uint32_t n)
{
	uint32_t i;

	c->pods[p].phase = KVET_PHASE_RUNNING;
	drain_pod_bind(c, p, n);
	drain_pod_set_ready(c, p, true);
	for (i = 0; i < c->pods[p].n_services; i++)
		c->services[c->pods[p].services[i]].total++;
}

/* The pods of @pod's workload that made_pods() left out, of the @made
 * made. */
static long long unmade(const struct drain_pod *pod, size_t made)
{
	long long n = pod->wl ? kvet_workload_install_pods(pod->wl) : -1;

	return n > (long long)made ? n - (long long)made : 0;
}

int drain_install_place(struct drain_cluster *c,
			const struct drain_install *inst,
			struct drain_result *out)
{
	size_t i, j;
	long long failed, more;
	uint32_t p, n, first;
	const char *why;

	/* the pods of one workload are next to each other in the order */
	for (i = 0; i < inst->n && !c->oom; i = j) {
		const struct kvet_object *obj = c->pods[inst->order[i]].obj;

		failed = 0;
		first = DRAIN_NONE;
		for (j = i; j < inst->n && c->pods[inst->order[j]].obj == obj;
		     j++) {
			p = inst->order[j];
			n = inst->target[p] == DRAIN_NONE
				    ? drain_place(c, p, &why)
				    : drain_place_on(c, p, inst->target[p],
						     &why);
			if (n != DRAIN_NONE) {
				start(c, p, n);
				out->pods_placed++;
				continue;
			}
			c->pods[p].why = why;
			out->pods_unplaced++;
			if (!failed++)
				first = p;
		}
		more = unmade(&c->pods[inst->order[i]], j - i);
		out->pods_unplaced += (size_t)more;
		if (failed)
			report(c, first, failed + more, (long long)(j - i) + more);
	}
	return c->oom ? -1 : 0;
}

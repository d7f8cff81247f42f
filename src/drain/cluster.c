/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/cluster.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "drain/journal.h"
#include "drain/keys.h"
#include "model/node_affinity.h"

/* What a dump must hold, and the kubectl get that makes one. */
#define DUMP_COMMAND \
	"kubectl get nodes,pods,pdb,deploy,sts,ds,rs,job,svc,pv,pvc," \
	"validatingwebhookconfigurations,mutatingwebhookconfigurations -A -o yaml"

static int cmp_obj_name(const void *a, const void *b)
{
	const struct kvet_object *x = *(const struct kvet_object *const *)a;
	const struct kvet_object *y = *(const struct kvet_object *const *)b;

	return strcmp(x->name, y->name);
}

uint32_t drain_node_find(const struct drain_cluster *c, struct kvet_slice name)
{
	uint32_t i;

	for (i = 0; i < c->n_nodes; i++)
		if (!c->nodes[i].gone && kvet_slice_eq0(name, c->nodes[i].name))
			return i;
	return DRAIN_NONE;
}

/* The dump's nodes are sorted by name: a binary search among them. */
static uint32_t dump_node_find(const struct drain_cluster *c, uint32_t n,
			       struct kvet_slice name)
{
	uint32_t lo = 0, hi = n;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int r = kvet_slice_cmp(kvet_slice_of(c->nodes[mid].name), name);

		if (!r)
			return mid;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return DRAIN_NONE;
}

static int read_node(struct drain_cluster *c, struct drain_node *n,
		     const struct kvet_object *obj)
{
	struct kvet_slice name;

	n->obj = obj;
	n->name = obj->name;
	n->root = obj->root;
	n->first_pod = DRAIN_NONE;
	n->zone = DRAIN_NONE;
	n->cordoned = kvet_cluster_node_unschedulable(obj->root);
	n->not_ready = !kvet_cluster_node_ready(obj->root);
	if (kvet_cluster_node_labels(c->arena, obj->root, &n->labels,
				     &name) < 0 ||
	    kvet_cluster_node_taints(c->arena, obj->root, &n->taints) < 0 ||
	    kvet_cluster_node_allocatable(c->arena, obj->root, &n->alloc) < 0)
		return -1;
	n->ext_used = kvet_arena_array(c->arena, n->alloc.n_ext + 1,
				       sizeof(*n->ext_used));
	return n->ext_used ? 0 : -1;
}

static int read_nodes(struct drain_cluster *c, struct kvet_object *const *objs,
		      size_t n)
{
	const struct kvet_object **sorted;
	size_t i, cap = n + c->opts.surge + (c->opts.surge ? n : 0);

	sorted = malloc((n ? n : 1) * sizeof(*sorted));
	c->nodes = kvet_arena_array(c->arena, cap, sizeof(*c->nodes));
	if (!sorted || !c->nodes) {
		free(sorted);
		return -1;
	}
	memcpy(sorted, objs, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_obj_name);
	c->cap_nodes = (uint32_t)cap;
	for (i = 0; i < n; i++) {
		/* a name twice (two dumps of one cluster): the first */
		if (i && !strcmp(sorted[i]->name, sorted[i - 1]->name))
			continue;
		if (read_node(c, &c->nodes[c->n_nodes], sorted[i]) < 0) {
			free(sorted);
			return -1;
		}
		c->n_nodes++;
	}
	free(sorted);
	return 0;
}

enum drain_pod_kind drain_pod_kind_of(const struct kvet_pod_state *st)
{
	if (st->mirror)
		return DRAIN_POD_MIRROR;
	if (!st->has_controller)
		return DRAIN_POD_BARE;
	if (kvet_slice_eq0(st->controller_kind, "DaemonSet"))
		return DRAIN_POD_DAEMONSET;
	return DRAIN_POD_REPLICATED;
}

static int read_pod(struct drain_cluster *c, struct drain_pod *p,
		    const struct kvet_object *obj, uint32_t n_dump_nodes)
{
	struct kvet_pod_state st;

	memset(p, 0, sizeof(*p));
	kvet_pod_state_read(obj->root, &st);
	p->obj = obj;
	p->origin = DRAIN_NONE;
	p->replaced_by = DRAIN_NONE;
	p->sts = DRAIN_NONE;
	p->group = DRAIN_NONE;
	p->next = p->prev = DRAIN_NONE;
	p->ns = obj->namespace;
	p->name = obj->name;
	p->spec = st.spec;
	p->wl = kvet_graph_workload_of(c->g, obj);
	if (p->wl && p->wl->obj == obj)
		p->wl = NULL;	/* a bare pod is its own workload */
	p->kind = drain_pod_kind_of(&st);
	p->owner_kind = st.controller_kind;
	p->owner_name = st.controller_name;
	p->phase = st.phase;
	p->terminating = st.terminating;
	/* seat_pods() binds it; a finished pod stays listed on its node
	 * until deleted, as kubectl drain lists it */
	p->node = st.node_name.len ? dump_node_find(c, n_dump_nodes,
						    st.node_name)
				   : DRAIN_NONE;
	if (p->node != DRAIN_NONE)
		p->state = DRAIN_POD_RUNNING;
	else if (kvet_pod_phase_terminal(st.phase))
		p->state = DRAIN_POD_GONE;
	else
		p->state = DRAIN_POD_PENDING;
	/* the disruption controller counts Ready pods not being deleted */
	p->ready = st.ready && st.phase == KVET_PHASE_RUNNING &&
		   !st.terminating;
	if (kvet_object_labels(c->arena, obj, &p->labels) < 0 ||
	    kvet_pod_needs_read(c->arena, c->g, p->ns, p->spec,
				&p->needs) < 0)
		return -1;
	return 0;
}

int drain_cluster_reserve(struct drain_cluster *c, uint32_t more)
{
	size_t cap = c->cap_pods;

	if (!kvet_vec_grow((void **)&c->pods, &cap, (size_t)c->n_pods + more,
			   sizeof(*c->pods)))
		return -1;
	c->cap_pods = (uint32_t)cap;
	return 0;
}

static int read_pods(struct drain_cluster *c, struct kvet_object *const *objs,
		     size_t n)
{
	uint32_t n_dump_nodes = c->n_nodes;
	size_t i;

	if (drain_cluster_reserve(c, (uint32_t)n + 64) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		struct drain_pod *p = &c->pods[c->n_pods];

		if (read_pod(c, p, objs[i], n_dump_nodes) < 0)
			return -1;
		c->n_pods++;
	}
	return 0;
}

/* Put the dump's pods on their nodes, with their requests counted. */
static void seat_pods(struct drain_cluster *c)
{
	uint32_t i, n;

	for (i = 0; i < c->n_pods; i++) {
		n = c->pods[i].node;
		c->pods[i].node = DRAIN_NONE;
		if (n == DRAIN_NONE)
			continue;
		if (kvet_pod_phase_terminal(c->pods[i].phase)) {
			/* listed on the node, using nothing (the scheduler's
			 * cache drops finished pods) */
			c->pods[i].node = n;
			c->pods[i].state = DRAIN_POD_RUNNING;
			c->pods[i].next = c->nodes[n].first_pod;
			if (c->nodes[n].first_pod != DRAIN_NONE)
				c->pods[c->nodes[n].first_pod].prev = i;
			c->nodes[n].first_pod = i;
			continue;
		}
		drain_pod_bind(c, i, n);
	}
}

static void say_missing(struct kvet_diag *diag, const char *what,
			const char *plural)
{
	kvet_diag_addf(diag, NULL, 0, 0,
		       "the input has no %s objects: kvet drain simulates a cluster dump and needs its Nodes and Pods; add %s to the kubectl get command, for example: " DUMP_COMMAND,
		       what, plural);
}

int drain_cluster_from_dump(struct drain_cluster *c, struct kvet_arena *arena,
			    struct kvet_diag *diag, const struct kvet_graph *g,
			    const struct drain_options *opts)
{
	struct kvet_object *const *nodes, *const *pods;
	size_t n_nodes, n_pods;

	memset(c, 0, sizeof(*c));
	c->arena = arena;
	kvet_arena_init(&c->scratch);
	c->g = g;
	c->opts = *opts;
	c->zone_key = DRAIN_NONE;
	nodes = kvet_graph_kind(g, "", "Node", &n_nodes);
	pods = kvet_graph_kind(g, "", "Pod", &n_pods);
	if (!n_nodes || !n_pods) {
		if (!n_nodes)
			say_missing(diag, "Node", "nodes");
		if (!n_pods)
			say_missing(diag, "Pod", "pods");
		return 1;
	}
	c->journal = drain_journal_create();
	if (!c->journal || read_nodes(c, nodes, n_nodes) < 0 ||
	    read_pods(c, pods, n_pods) < 0)
		return -1;
	seat_pods(c);
	if (drain_cluster_relate(c) < 0)
		return -1;
	if (c->refused) {
		kvet_diag_addf(diag, NULL, 0, 0, "%s", c->refused);
		return 1;
	}
	return c->oom ? -1 : 0;
}

void drain_cluster_release(struct drain_cluster *c)
{
	if (!c)
		return;
	kvet_webhooks_destroy(c->whs);
	kvet_arena_release(&c->scratch);
	kvet_hash_release(&c->messages);
	free(c->keys);
	drain_journal_destroy(c->journal);
	free(c->pods);
	free(c->order);
	free(c->waiting);
}

const char *drain_pod_label(const struct drain_cluster *c, uint32_t p)
{
	const char *s = kvet_arena_printf(c->arena, "%s/%s", c->pods[p].ns,
					  c->pods[p].name);

	return s ? s : "?";
}

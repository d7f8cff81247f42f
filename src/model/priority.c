/* SPDX-License-Identifier: Apache-2.0 */
#include "model/priority.h"

#include <stdlib.h>
#include <string.h>

#include "model/run.h"

#define SCHEDULING_GROUP "scheduling.k8s.io"

struct kvet_priorities {
	const struct kvet_graph *g;
	const struct kvet_object *global_default;
	const struct kvet_object **defaults;	/* every globalDefault class */
	size_t n_global_defaults;
	/* per workload index: a live Pod's spec.priority node, or NULL */
	const struct kvet_node **live;
	size_t n_wls;
};

bool kvet_priority_class_value(const struct kvet_object *pc, long long *out)
{
	return kvet_node_int(kvet_node_get(pc->root, "value"), out);
}

static bool is_true(const struct kvet_node *n)
{
	return n && n->type == KVET_NODE_BOOL &&
	       (kvet_node_text_eq(n, "true") || kvet_node_text_eq(n, "True") ||
		kvet_node_text_eq(n, "TRUE"));
}

static int find_global_default(struct kvet_arena *arena,
			       struct kvet_priorities *p)
{
	struct kvet_object *const *pcs;
	long long best = 0, v;
	size_t i, n;

	pcs = kvet_graph_kind(p->g, SCHEDULING_GROUP, "PriorityClass", &n);
	p->defaults = kvet_arena_array(arena, n + 1, sizeof(*p->defaults));
	if (!p->defaults)
		return -1;
	for (i = 0; i < n; i++) {
		if (!is_true(kvet_node_get(pcs[i]->root, "globalDefault")))
			continue;
		p->defaults[p->n_global_defaults++] = pcs[i];
		if (!kvet_priority_class_value(pcs[i], &v))
			continue;
		/* several defaults: the API server admits the lowest */
		if (!p->global_default || v < best) {
			p->global_default = pcs[i];
			best = v;
		}
	}
	return 0;
}

static void find_live_pods(struct kvet_priorities *p)
{
	struct kvet_object *const *pods;
	size_t i, n;
	long long v;

	pods = kvet_graph_kind(p->g, "", "Pod", &n);
	for (i = 0; i < n; i++) {
		const struct kvet_workload *wl;
		const struct kvet_node *prio;

		prio = kvet_node_path(pods[i]->root, "spec", "priority", NULL);
		if (!kvet_node_int(prio, &v))
			continue;
		wl = kvet_graph_workload_of(p->g, pods[i]);
		if (wl && wl->index < p->n_wls && !p->live[wl->index])
			p->live[wl->index] = prio;
	}
}

struct kvet_priorities *kvet_priorities_create(struct kvet_arena *arena,
					       const struct kvet_graph *g)
{
	struct kvet_priorities *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->g = g;
	if (find_global_default(arena, p)) {
		free(p);
		return NULL;
	}
	if (!kvet_graph_dump_mode(g))
		return p;
	kvet_graph_workloads(g, &p->n_wls);
	p->live = kvet_arena_array(arena, p->n_wls ? p->n_wls : 1,
				   sizeof(*p->live));
	if (!p->live) {
		free(p);
		return NULL;
	}
	find_live_pods(p);
	return p;
}

void kvet_priorities_destroy(struct kvet_priorities *p)
{
	free(p);
}

const struct kvet_object *
kvet_priorities_global_default(const struct kvet_priorities *p, size_t *count)
{
	if (count)
		*count = p->n_global_defaults;
	return p->global_default;
}

const struct kvet_object *const *
kvet_priorities_defaults(const struct kvet_priorities *p, size_t *n)
{
	*n = p->n_global_defaults;
	return p->defaults;
}

static void from_class(const struct kvet_object *pc,
		       enum kvet_priority_source source,
		       struct kvet_priority *out)
{
	out->source = source;
	out->priority_class = pc;
	out->value_node = kvet_node_get(pc->root, "value");
	/* a class without an integer value is rejected, so none exists */
	out->known = kvet_priority_class_value(pc, &out->value);
}

void kvet_effective_priority(const struct kvet_priorities *p,
			     const struct kvet_workload *wl,
			     struct kvet_priority *out)
{
	const struct kvet_node *name;
	const struct kvet_object *pc;
	char buf[256];

	memset(out, 0, sizeof(*out));
	name = kvet_node_get(wl->pod_spec, "priorityClassName");
	if (kvet_node_is_null(name) ||
	    (kvet_node_is_scalar(name) && !name->len))
		name = NULL;
	out->name_node = name;
	if (p->live && wl->index < p->n_wls && p->live[wl->index]) {
		/* the admission plugin already resolved it */
		out->source = KVET_PRIORITY_LIVE_POD;
		out->value_node = p->live[wl->index];
		out->known = kvet_node_int(out->value_node, &out->value);
		return;
	}
	if (!name) {
		if (p->global_default) {
			from_class(p->global_default,
				   KVET_PRIORITY_GLOBAL_DEFAULT, out);
			return;
		}
		out->source = KVET_PRIORITY_ZERO;
		out->known = true;
		return;
	}
	if (kvet_node_eq(name, "system-node-critical") ||
	    kvet_node_eq(name, "system-cluster-critical")) {
		out->source = KVET_PRIORITY_SYSTEM;
		out->known = true;
		out->value = kvet_node_eq(name, "system-node-critical") ?
			     KVET_SYSTEM_NODE_CRITICAL :
			     KVET_SYSTEM_CLUSTER_CRITICAL;
		return;
	}
	out->source = KVET_PRIORITY_MISSING;
	/* object names are at most 253 bytes */
	if (!kvet_node_is_string(name) || name->len >= sizeof(buf))
		return;
	memcpy(buf, name->u.str, name->len);
	buf[name->len] = '\0';
	pc = kvet_graph_find(p->g, SCHEDULING_GROUP, "PriorityClass", "", buf);
	if (pc)
		from_class(pc, KVET_PRIORITY_CLASS, out);
}

static void *priorities_build(struct kvet_run *run)
{
	return kvet_priorities_create(kvet_run_arena(run), kvet_run_graph(run));
}

static void priorities_free(void *p)
{
	kvet_priorities_destroy(p);
}

const struct kvet_priorities *kvet_run_priorities(struct kvet_run *run)
{
	return kvet_run_index(run, KVET_RUN_PRIORITIES, priorities_build,
			      priorities_free);
}

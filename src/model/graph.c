/* SPDX-License-Identifier: Apache-2.0 */
#include "model/graph.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "model/hash.h"

/* Longest ownerReferences chain followed; real ones are Pod, ReplicaSet,
 * Deployment. The bound also stops reference cycles. */
enum { MAX_OWNER_DEPTH = 16 };

/* What the identity index knows of one object. */
struct entry {
	struct kvet_object *obj;
	size_t pos;			/* its index in kvet_graph.objs */
	const struct kvet_object *top;	/* folded into this owner, or NULL */
	struct kvet_workload *wl;	/* the workload it is or belongs to */
	bool is_workload;
	enum kvet_workload_kind wk;
	const struct kvet_custom_workload *custom;	/* KVET_WL_CUSTOM */
};

struct kind_list {
	struct kvet_object **v;
	size_t n, fill;
};

struct seq_entry {
	const struct kvet_object *obj;	/* whose seq this is */
	struct entry *e;
};

struct hpa_list {
	const struct kvet_hpa *first;
	unsigned int n;
};

struct kvet_graph {
	struct kvet_arena *arena;
	struct kvet_graph_config cfg;
	bool dump_mode;
	const struct kvet_object *dump_cause;	/* what decided dump mode */
	struct kvet_duplicate *dups;	/* malloc'd */
	size_t n_dups, cap_dups;
	struct kvet_object **objs;	/* arena */
	size_t n_objs;
	struct kvet_hash by_id;		/* group, kind, ns, name -> entry */
	/* the same by the object's seq: rules ask for an object's entry
	 * (its workload) about a million times in a large run, and hashing
	 * four strings each time was 6% of it */
	struct seq_entry *by_seq;	/* arena */
	size_t n_seq;
	struct kvet_hash by_kind;	/* group, kind -> kind_list */
	struct kvet_hash by_ns;		/* name -> kvet_namespace */
	const struct kvet_namespace **ns_sorted;
	size_t n_ns;
	struct kvet_workload **wls;	/* arena */
	size_t n_wls;
	struct kvet_hpa *hpas;		/* arena */
	size_t n_hpas;
	struct kvet_hash hpa_by_target;	/* ns, group, kind, name -> hpa_list */
	struct kvet_label_index *labels;
};

/*
 * The groups the Kubernetes API server serves itself; any other group is
 * a custom resource (a CRD or an aggregated API).
 */
static const char *const builtin_groups[] = {
	"",
	"admissionregistration.k8s.io",
	"apiextensions.k8s.io",
	"apiregistration.k8s.io",
	"apps",
	"authentication.k8s.io",
	"authorization.k8s.io",
	"autoscaling",
	"batch",
	"certificates.k8s.io",
	"coordination.k8s.io",
	"discovery.k8s.io",
	"events.k8s.io",
	"extensions",
	"flowcontrol.apiserver.k8s.io",
	"internal.apiserver.k8s.io",
	"networking.k8s.io",
	"node.k8s.io",
	"policy",
	"rbac.authorization.k8s.io",
	"resource.k8s.io",
	"scheduling.k8s.io",
	"storage.k8s.io",
	"storagemigration.k8s.io",
};

bool kvet_group_is_builtin(const char *group)
{
	size_t i;

	for (i = 0; i < sizeof(builtin_groups) / sizeof(builtin_groups[0]); i++)
		if (strcmp(group ? group : "", builtin_groups[i]) == 0)
			return true;
	return false;
}

static struct entry *find_entry(const struct kvet_graph *g,
				struct kvet_slice group, struct kvet_slice kind,
				struct kvet_slice ns, struct kvet_slice name)
{
	struct kvet_slice parts[4] = { group, kind, ns, name };

	return kvet_hash_get(&g->by_id, parts, 4);
}

static struct entry *entry_of(const struct kvet_graph *g,
			      const struct kvet_object *obj)
{
	if (obj->seq < g->n_seq && g->by_seq[obj->seq].obj == obj)
		return g->by_seq[obj->seq].e;
	return find_entry(g, kvet_slice_of(obj->group),
			  kvet_slice_of(obj->kind),
			  kvet_slice_of(obj->namespace),
			  kvet_slice_of(obj->name));
}

/* The configured custom workload kind of @obj, or NULL. */
static const struct kvet_custom_workload *custom_kind(const struct kvet_graph *g,
						      const struct kvet_object *obj)
{
	return kvet_custom_workload_find(g->cfg.custom_workloads,
					 g->cfg.n_custom_workloads, obj->group,
					 obj->kind);
}

bool kvet_object_before(const struct kvet_object *a,
			const struct kvet_object *b)
{
	int c = strcmp(a->file, b->file);

	if (c)
		return c < 0;
	if (a->doc != b->doc)
		return a->doc < b->doc;
	if (a->line != b->line)
		return a->line < b->line;
	return a->col < b->col;
}

/*
 * 1.1: of two objects with one identity the rules see the one whose
 * place sorts first, whatever the order of the arguments; both places
 * are recorded for the warning.
 */
static int add_duplicate(struct kvet_graph *g, struct entry *e,
			 struct kvet_object *obj)
{
	struct kvet_duplicate *d;

	if (!kvet_vec_grow((void **)&g->dups, &g->cap_dups, g->n_dups + 1,
			   sizeof(*g->dups)))
		return -1;
	d = &g->dups[g->n_dups++];
	if (kvet_object_before(obj, e->obj)) {
		d->dropped = e->obj;
		e->obj = obj;
		g->objs[e->pos] = obj;
	} else {
		d->dropped = obj;
	}
	d->kept = e->obj;
	return 0;
}

/* 1.1: dump mode from Nodes, bound Pods and observed status; the cause
 * named is the one whose place sorts first. */
static void detect_dump_mode(struct kvet_graph *g)
{
	size_t i;

	for (i = 0; i < g->n_objs; i++) {
		const struct kvet_object *obj = g->objs[i];

		if (!(obj->flags & (KVET_OBJ_HAS_STATUS | KVET_OBJ_BOUND_POD)) &&
		    !kvet_object_is(obj, "", "Node"))
			continue;
		if (!g->dump_cause || kvet_object_before(obj, g->dump_cause))
			g->dump_cause = obj;
	}
	if (g->dump_cause)
		g->dump_mode = true;
}

/* Identity index, duplicates and Helm tests out. */
static int index_objects(struct kvet_graph *g, struct kvet_object *const *objs,
			 size_t n)
{
	size_t i;

	g->objs = kvet_arena_array(g->arena, n ? n : 1, sizeof(*g->objs));
	if (!g->objs)
		return -1;
	for (i = 0; i < n; i++)
		if (objs[i]->seq >= g->n_seq)
			g->n_seq = (size_t)objs[i]->seq + 1;
	g->by_seq = kvet_arena_array(g->arena, g->n_seq ? g->n_seq : 1,
				     sizeof(*g->by_seq));
	if (!g->by_seq)
		return -1;
	for (i = 0; i < n; i++) {
		struct kvet_object *obj = objs[i];
		struct kvet_slice parts[4];
		struct entry *e;
		bool created;
		void **slot;

		if (obj->flags & KVET_OBJ_HELM_TEST)
			continue;
		parts[0] = kvet_slice_of(obj->group);
		parts[1] = kvet_slice_of(obj->kind);
		parts[2] = kvet_slice_of(obj->namespace);
		parts[3] = kvet_slice_of(obj->name);
		slot = kvet_hash_put(&g->by_id, parts, 4, &created);
		if (!slot)
			return -1;
		/* a duplicate's entry is the kept copy's, as by identity */
		g->by_seq[obj->seq].obj = obj;
		if (!created) {
			g->by_seq[obj->seq].e = *slot;
			if (add_duplicate(g, *slot, obj))
				return -1;
			continue;
		}
		e = kvet_arena_alloc(g->arena, sizeof(*e));
		if (!e)
			return -1;
		e->obj = obj;
		e->pos = g->n_objs;
		e->is_workload = kvet_workload_kind_of(obj->group, obj->kind,
						       &e->wk);
		if (!e->is_workload)
			e->custom = custom_kind(g, obj);
		if (e->custom) {
			e->is_workload = true;
			e->wk = KVET_WL_CUSTOM;
		}
		*slot = e;
		g->by_seq[obj->seq].e = e;
		g->objs[g->n_objs++] = obj;
	}
	detect_dump_mode(g);
	return 0;
}

static int index_kinds(struct kvet_graph *g)
{
	struct kvet_hash_slot *s;
	size_t i, pos = 0;

	for (i = 0; i < g->n_objs; i++) {
		struct kvet_slice parts[2] = {
			kvet_slice_of(g->objs[i]->group),
			kvet_slice_of(g->objs[i]->kind),
		};
		void **slot = kvet_hash_put(&g->by_kind, parts, 2, NULL);

		if (!slot)
			return -1;
		if (!*slot)
			*slot = kvet_arena_alloc(g->arena,
						 sizeof(struct kind_list));
		if (!*slot)
			return -1;
		((struct kind_list *)*slot)->n++;
	}
	while ((s = kvet_hash_next(&g->by_kind, &pos)) != NULL) {
		struct kind_list *l = s->value;

		l->v = kvet_arena_array(g->arena, l->n, sizeof(*l->v));
		if (!l->v)
			return -1;
	}
	for (i = 0; i < g->n_objs; i++) {
		struct kind_list *l;
		struct kvet_slice parts[2] = {
			kvet_slice_of(g->objs[i]->group),
			kvet_slice_of(g->objs[i]->kind),
		};

		l = kvet_hash_get(&g->by_kind, parts, 2);
		l->v[l->fill++] = g->objs[i];
	}
	return 0;
}

static struct kvet_namespace *ns_entry(struct kvet_graph *g, const char *name)
{
	struct kvet_slice part = kvet_slice_of(name);
	struct kvet_namespace *ns;
	void **slot = kvet_hash_put(&g->by_ns, &part, 1, NULL);

	if (!slot)
		return NULL;
	if (*slot)
		return *slot;
	ns = kvet_arena_alloc(g->arena, sizeof(*ns));
	if (!ns)
		return NULL;
	ns->name = name;
	*slot = ns;
	g->n_ns++;
	return ns;
}

static int ns_cmp(const void *a, const void *b)
{
	const struct kvet_namespace *x = *(const struct kvet_namespace *const *)a;
	const struct kvet_namespace *y = *(const struct kvet_namespace *const *)b;

	return strcmp(x->name, y->name);
}

static int index_namespaces(struct kvet_graph *g)
{
	struct kvet_hash_slot *s;
	size_t i, k = 0, pos = 0;

	for (i = 0; i < g->n_objs; i++) {
		struct kvet_object *obj = g->objs[i];
		struct kvet_namespace *ns;

		if (kvet_object_is(obj, "", "Namespace")) {
			ns = ns_entry(g, obj->name);
			if (!ns)
				return -1;
			ns->obj = obj;
			if (kvet_labels_from_node(g->arena,
					kvet_node_path(obj->root, "metadata",
						       "labels", NULL),
					&ns->labels))
				return -1;
		}
		if (!obj->namespace[0])
			continue;
		ns = ns_entry(g, obj->namespace);
		if (!ns)
			return -1;
		ns->n_objects++;
		/* a declared workload kind's pods are modelled (1.2): it is
		 * no operator's unknown output */
		if (!kvet_group_is_builtin(obj->group) && !custom_kind(g, obj))
			ns->operator_populated = true;
		if (g->dump_mode && kvet_object_is(obj, "", "Pod"))
			ns->live_pods++;
	}
	g->ns_sorted = kvet_arena_array(g->arena, g->n_ns ? g->n_ns : 1,
					sizeof(*g->ns_sorted));
	if (!g->ns_sorted)
		return -1;
	while ((s = kvet_hash_next(&g->by_ns, &pos)) != NULL)
		g->ns_sorted[k++] = s->value;
	qsort(g->ns_sorted, k, sizeof(*g->ns_sorted), ns_cmp);
	return 0;
}

/* The entry of @obj's controller (ownerReferences[].controller: true). */
static struct entry *controller_of(const struct kvet_graph *g,
				   const struct kvet_object *obj)
{
	const struct kvet_node *refs = kvet_node_path(obj->root, "metadata",
						      "ownerReferences", NULL);
	uint32_t i;

	for (i = 0; kvet_node_is_seq(refs) && i < refs->len; i++) {
		const struct kvet_node *ref = &refs->u.items[i];
		struct kvet_slice av, group = { "", 0 };
		const char *slash;

		if (!kvet_node_true(kvet_node_get(ref, "controller")))
			continue;
		av = kvet_string_of(kvet_node_get(ref, "apiVersion"));
		slash = av.len ? memchr(av.s, '/', av.len) : NULL;
		if (slash) {
			group.s = av.s;
			group.len = (size_t)(slash - av.s);
		}
		/* owners are in the same namespace (or cluster-scoped,
		 * which no workload kind is) */
		return find_entry(g, group, kvet_string_of(kvet_node_get(ref, "kind")),
				  kvet_slice_of(obj->namespace),
				  kvet_string_of(kvet_node_get(ref, "name")));
	}
	return NULL;
}

/*
 * 1.2: in dump mode a Pod or ReplicaSet whose controller is in the input
 * belongs to that controller, transitively. The top is the furthest
 * owner that is itself a workload kind: a ReplicaSet of an unknown
 * custom resource (an Argo Rollout) stays the workload.
 */
static const struct kvet_object *top_owner(const struct kvet_graph *g,
					   const struct entry *e)
{
	const struct kvet_object *top = NULL;
	int depth;

	for (depth = 0; depth < MAX_OWNER_DEPTH; depth++) {
		struct entry *owner;

		if (!e->is_workload || (e->wk != KVET_WL_POD &&
					e->wk != KVET_WL_REPLICASET))
			break;
		owner = controller_of(g, e->obj);
		if (!owner || owner == e)
			break;
		if (owner->is_workload)
			top = owner->obj;
		e = owner;
	}
	return top;
}

static int add_workload(struct kvet_graph *g, struct entry *e, size_t cap)
{
	struct kvet_workload *wl;

	if (g->n_wls >= cap)
		return 0;
	wl = kvet_arena_alloc(g->arena, sizeof(*wl));
	if (!wl)
		return -1;
	if (e->custom ? kvet_workload_init_custom(g->arena, e->obj, e->custom,
						  (uint32_t)g->n_wls, wl)
		      : kvet_workload_init(g->arena, e->obj, e->wk,
					   (uint32_t)g->n_wls, wl))
		return -1;
	/* a Pod or ReplicaSet run by a controller that is not here */
	if ((e->wk == KVET_WL_POD || e->wk == KVET_WL_REPLICASET) &&
	    kvet_node_is_seq(kvet_node_path(e->obj->root, "metadata",
					    "ownerReferences", NULL))) {
		const struct kvet_node *refs = kvet_node_path(e->obj->root,
				"metadata", "ownerReferences", NULL);
		uint32_t i;

		for (i = 0; i < refs->len; i++)
			if (kvet_node_true(kvet_node_get(&refs->u.items[i],
						    "controller")))
				wl->orphan = true;
	}
	e->wl = wl;
	g->wls[g->n_wls++] = wl;
	return 0;
}

static int build_workloads(struct kvet_graph *g)
{
	size_t i, cap = 0;

	for (i = 0; i < g->n_objs; i++) {
		struct entry *e = entry_of(g, g->objs[i]);

		if (!e->is_workload)
			continue;
		cap++;
		if (g->dump_mode)
			e->top = top_owner(g, e);
	}
	g->wls = kvet_arena_array(g->arena, cap ? cap : 1, sizeof(*g->wls));
	if (!g->wls)
		return -1;
	/* roots first, in input order; an owner cycle keeps its members */
	for (i = 0; i < g->n_objs; i++) {
		struct entry *e = entry_of(g, g->objs[i]);

		if (e->is_workload &&
		    (!e->top || entry_of(g, e->top)->top) &&
		    add_workload(g, e, cap))
			return -1;
	}
	for (i = 0; i < g->n_objs; i++) {
		struct entry *e = entry_of(g, g->objs[i]);

		if (!e->is_workload || e->wl)
			continue;
		e->wl = entry_of(g, e->top)->wl;
		e->wl->n_folded++;
		if (e->wk == KVET_WL_POD)
			e->wl->live_pods++;
	}
	return 0;
}

static int index_hpas(struct kvet_graph *g)
{
	size_t i, n = 0;

	for (i = 0; i < g->n_objs; i++)
		n += kvet_object_is_scaler(g->objs[i]);
	g->hpas = kvet_arena_array(g->arena, n ? n : 1, sizeof(*g->hpas));
	if (!g->hpas)
		return -1;
	for (i = 0; i < g->n_objs; i++) {
		struct kvet_hpa *hpa = &g->hpas[g->n_hpas];
		struct kvet_slice parts[4];
		struct hpa_list *l;
		void **slot;

		if (!kvet_object_is_scaler(g->objs[i]))
			continue;
		if (kvet_hpa_parse(g->arena, g->objs[i], hpa))
			return -1;
		g->n_hpas++;
		parts[0] = kvet_slice_of(hpa->obj->namespace);
		parts[1] = kvet_slice_of(hpa->target_group);
		parts[2] = kvet_slice_of(hpa->target_kind);
		parts[3] = kvet_slice_of(hpa->target_name);
		slot = kvet_hash_put(&g->hpa_by_target, parts, 4, NULL);
		if (!slot)
			return -1;
		if (!*slot) {
			*slot = kvet_arena_alloc(g->arena, sizeof(*l));
			if (!*slot)
				return -1;
			((struct hpa_list *)*slot)->first = hpa;
		}
		l = *slot;
		/* an HPA and a ScaledObject on one target fight over its
		 * replicas (1.4): the larger minimum holds */
		if (l->first->keda != hpa->keda && hpa->min > l->first->min)
			l->first = hpa;
		l->n++;
	}
	for (i = 0; i < g->n_wls; i++) {
		struct kvet_workload *wl = g->wls[i];
		const struct kvet_hpa *hpa;
		unsigned int count;

		hpa = kvet_graph_hpa_for(g, wl->obj->group, wl->obj->kind,
					 wl->obj->namespace, wl->obj->name,
					 &count);
		kvet_workload_set_replicas(wl, hpa, count, g->dump_mode);
	}
	return 0;
}

struct kvet_graph *kvet_graph_create(struct kvet_arena *arena,
				     struct kvet_object *const *objs, size_t n,
				     const struct kvet_graph_config *cfg)
{
	struct kvet_graph *g = calloc(1, sizeof(*g));

	if (!g)
		return NULL;
	g->arena = arena;
	if (cfg)
		g->cfg = *cfg;
	g->dump_mode = (g->cfg.flags & KVET_GRAPH_DUMP) != 0;
	kvet_hash_init(&g->by_id, arena);
	kvet_hash_init(&g->by_kind, arena);
	kvet_hash_init(&g->by_ns, arena);
	kvet_hash_init(&g->hpa_by_target, arena);
	if (index_objects(g, objs, n) || index_kinds(g) ||
	    index_namespaces(g) || build_workloads(g) || index_hpas(g))
		goto fail;
	g->labels = kvet_label_index_create(arena, g->wls, g->n_wls);
	if (!g->labels)
		goto fail;
	return g;
fail:
	kvet_graph_destroy(g);
	return NULL;
}

void kvet_graph_destroy(struct kvet_graph *g)
{
	if (!g)
		return;
	kvet_label_index_destroy(g->labels);
	free(g->dups);
	kvet_hash_release(&g->hpa_by_target);
	kvet_hash_release(&g->by_ns);
	kvet_hash_release(&g->by_kind);
	kvet_hash_release(&g->by_id);
	free(g);
}

const struct kvet_graph_config *kvet_graph_config(const struct kvet_graph *g)
{
	return &g->cfg;
}

bool kvet_graph_dump_mode(const struct kvet_graph *g)
{
	return g->dump_mode;
}

const struct kvet_object *kvet_graph_dump_cause(const struct kvet_graph *g)
{
	return g->dump_cause;
}

const struct kvet_duplicate *kvet_graph_duplicates(const struct kvet_graph *g,
						   size_t *n)
{
	*n = g->n_dups;
	return g->dups;
}

bool kvet_graph_complete(const struct kvet_graph *g)
{
	return g->dump_mode || (g->cfg.flags & KVET_GRAPH_COMPLETE);
}

bool kvet_graph_kind_known(const struct kvet_graph *g, const char *group,
			   const char *kind)
{
	size_t n;

	if (!g->dump_mode || (g->cfg.flags & KVET_GRAPH_COMPLETE))
		return true;
	kvet_graph_kind(g, group, kind, &n);
	return n > 0;
}

struct kvet_object *const *kvet_graph_objects(const struct kvet_graph *g,
					      size_t *n)
{
	*n = g->n_objs;
	return g->objs;
}

const struct kvet_object *kvet_graph_find(const struct kvet_graph *g,
					  const char *group, const char *kind,
					  const char *ns, const char *name)
{
	const struct entry *e = find_entry(g, kvet_slice_of(group),
					   kvet_slice_of(kind),
					   kvet_slice_of(ns),
					   kvet_slice_of(name));

	return e ? e->obj : NULL;
}

struct kvet_object *const *kvet_graph_kind(const struct kvet_graph *g,
					   const char *group, const char *kind,
					   size_t *n)
{
	struct kvet_slice parts[2] = { kvet_slice_of(group),
				       kvet_slice_of(kind) };
	const struct kind_list *l = kvet_hash_get(&g->by_kind, parts, 2);

	*n = l ? l->n : 0;
	return l ? l->v : NULL;
}

const struct kvet_namespace *kvet_graph_namespace(const struct kvet_graph *g,
						  const char *name)
{
	struct kvet_slice part = kvet_slice_of(name);

	return kvet_hash_get(&g->by_ns, &part, 1);
}

const struct kvet_namespace *const *
kvet_graph_namespaces(const struct kvet_graph *g, size_t *n)
{
	*n = g->n_ns;
	return g->ns_sorted;
}

bool kvet_graph_ns_covered(const struct kvet_graph *g, const char *ns)
{
	return kvet_graph_namespace(g, ns) != NULL;
}

bool kvet_graph_ns_covered_besides(const struct kvet_graph *g,
				   const struct kvet_object *obj)
{
	const struct kvet_namespace *ns = kvet_graph_namespace(g,
							       obj->namespace);

	return ns && (ns->obj || ns->n_objects >= 2);
}

const struct kvet_object *kvet_graph_hpa_target(const struct kvet_graph *g,
						const struct kvet_hpa *hpa)
{
	if (!*hpa->target_kind || !*hpa->target_name)
		return NULL;
	return kvet_graph_find(g, hpa->target_group, hpa->target_kind,
			       hpa->obj->namespace, hpa->target_name);
}

bool kvet_graph_ns_operator_populated(const struct kvet_graph *g,
				      const char *ns)
{
	const struct kvet_namespace *n = kvet_graph_namespace(g, ns);

	return n && n->operator_populated;
}

struct kvet_workload *const *kvet_graph_workloads(const struct kvet_graph *g,
						  size_t *n)
{
	*n = g->n_wls;
	return g->wls;
}

const struct kvet_workload *kvet_graph_workload_of(const struct kvet_graph *g,
						   const struct kvet_object *obj)
{
	const struct entry *e = entry_of(g, obj);

	return e ? e->wl : NULL;
}

const struct kvet_hpa *kvet_graph_hpas(const struct kvet_graph *g, size_t *n)
{
	*n = g->n_hpas;
	return g->hpas;
}

const struct kvet_hpa *kvet_graph_hpa_for(const struct kvet_graph *g,
					  const char *group, const char *kind,
					  const char *ns, const char *name,
					  unsigned int *count)
{
	struct kvet_slice parts[4] = {
		kvet_slice_of(ns), kvet_slice_of(group), kvet_slice_of(kind),
		kvet_slice_of(name),
	};
	const struct hpa_list *l = kvet_hash_get(&g->hpa_by_target, parts, 4);

	if (count)
		*count = l ? l->n : 0;
	return l ? l->first : NULL;
}

const struct kvet_hpa *kvet_graph_rival_scaler(const struct kvet_graph *g,
					       const struct kvet_hpa *hpa)
{
	size_t i;

	for (i = 0; i < g->n_hpas; i++) {
		const struct kvet_hpa *o = &g->hpas[i];

		if (o->keda != hpa->keda &&
		    !strcmp(o->obj->namespace, hpa->obj->namespace) &&
		    !strcmp(o->target_group, hpa->target_group) &&
		    !strcmp(o->target_kind, hpa->target_kind) &&
		    !strcmp(o->target_name, hpa->target_name))
			return o;
	}
	return NULL;
}

int kvet_graph_select_workloads(const struct kvet_graph *g, const char *ns,
				const struct kvet_selector *sel,
				kvet_workload_fn fn, void *data)
{
	return kvet_label_index_select(g->labels, ns, sel, fn, data, NULL);
}

enum kvet_match kvet_graph_match_namespace(const struct kvet_graph *g,
					   const struct kvet_selector *sel,
					   const char *ns)
{
	const struct kvet_namespace *n = kvet_graph_namespace(g, ns);

	return kvet_selector_match_namespace(sel, ns,
					     n && n->obj ? &n->labels : NULL);
}

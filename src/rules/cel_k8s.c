/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Kubernetes functions of kvet's CEL: the shared definitions of
 * RULES-CATALOGUE section 1, written once in C on the model (src/model)
 * and exposed as one table, k8s_funcs[]. A new function is one row and
 * one static function. Names read like the English of a condition:
 *
 *   size(pdbsCovering(object)) == 0 && minReplicas(object) >= 2
 *
 * Objects are CEL maps that remember their kvet_object (kvet_cel_object());
 * functions that take a workload accept the object of any workload.
 */
#include "rules/cel_k8s.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "model/pdb.h"
#include "model/webhook.h"

struct pdb_entry {
	const struct kvet_object *obj;
	struct kvet_pdb pdb;
	const struct kvet_workload **wls;	/* selected, in workload order */
	size_t n;
	struct kvet_pdb_result res;		/* at N_min */
};

struct cel_k8s {
	struct kvet_arena *arena;
	const struct kvet_graph *g;
	bool built;
	bool oom;
	struct pdb_entry *pdbs;		/* sorted by object address */
	size_t n_pdbs;
	const struct kvet_object ***wl_pdbs;	/* per workload index */
	uint32_t *wl_npdbs;
	/* the topics' caches, see cel_k8s_cache() */
	void *slots[CEL_K8S_N_SLOTS];
	cel_k8s_destroy_fn destroy[CEL_K8S_N_SLOTS];
	bool slot_failed[CEL_K8S_N_SLOTS];
};

struct cel_k8s *cel_k8s_create(struct kvet_arena *arena,
			       const struct kvet_graph *g)
{
	struct cel_k8s *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->arena = arena;
	k->g = g;
	return k;
}

void cel_k8s_destroy(struct cel_k8s *k)
{
	size_t i;

	if (!k)
		return;
	for (i = 0; i < CEL_K8S_N_SLOTS; i++)
		if (k->slots[i] && k->destroy[i])
			k->destroy[i](k->slots[i]);
	free(k);
}

void *cel_k8s_cache(struct cel_eval *ev, enum cel_k8s_slot slot,
		    cel_k8s_create_fn create, cel_k8s_destroy_fn destroy)
{
	struct cel_k8s *k = kvet_cel_k8s(ev);

	if (!k || !k->g || k->slot_failed[slot])
		return NULL;
	if (!k->slots[slot]) {
		k->slots[slot] = create(k->arena, k->g);
		if (!k->slots[slot]) {
			k->slot_failed[slot] = true;
			return NULL;
		}
		k->destroy[slot] = destroy;
	}
	return k->slots[slot];
}

/* A growable vector of workloads for the select callbacks. */
struct wl_vec {
	const struct kvet_workload **v;
	size_t n, cap;
};

static int collect(void *data, const struct kvet_workload *wl)
{
	struct wl_vec *vec = data;

	if (!kvet_vec_grow((void **)&vec->v, &vec->cap, vec->n + 1,
			   sizeof(*vec->v)))
		return -1;
	vec->v[vec->n++] = wl;
	return 0;
}

static int cmp_pdb(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct pdb_entry *)a)->obj;
	uintptr_t y = (uintptr_t)((const struct pdb_entry *)b)->obj;

	return (x > y) - (x < y);
}

static void evaluate(struct pdb_entry *e)
{
	struct kvet_pdb_member local[16], *m = local;
	size_t i;

	if (e->n > 16)
		m = malloc(e->n * sizeof(*m));
	if (!m) {
		e->res.status = KVET_PDB_UNKNOWN;
		e->res.allowed = -1;
		return;
	}
	for (i = 0; i < e->n; i++)
		m[i] = kvet_workload_pdb_member(e->wls[i]);
	kvet_pdb_evaluate(&e->pdb.min_available, &e->pdb.max_unavailable, m,
			  e->n, &e->res);
	if (m != local)
		free(m);
}

/* PDB -> workloads through the label index, then workload -> PDBs. */
static int build(struct cel_k8s *k)
{
	struct kvet_object *const *objs;
	struct wl_vec vec = { 0 };
	size_t i, j, n, n_wls;
	int ret = -1;

	kvet_graph_workloads(k->g, &n_wls);
	objs = kvet_graph_kind(k->g, "policy", "PodDisruptionBudget", &n);
	k->pdbs = kvet_arena_array(k->arena, n + 1, sizeof(*k->pdbs));
	k->wl_pdbs = kvet_arena_array(k->arena, n_wls + 1, sizeof(*k->wl_pdbs));
	k->wl_npdbs = kvet_arena_array(k->arena, n_wls + 1, sizeof(*k->wl_npdbs));
	if (!k->pdbs || !k->wl_pdbs || !k->wl_npdbs)
		goto out;
	for (i = 0; i < n; i++) {
		struct pdb_entry *e = &k->pdbs[i];

		e->obj = objs[i];
		if (kvet_pdb_parse(k->arena, objs[i], &e->pdb))
			goto out;
		vec.n = 0;
		if (kvet_graph_select_workloads(k->g, objs[i]->namespace,
						&e->pdb.selector, collect, &vec))
			goto out;
		e->wls = kvet_arena_array(k->arena, vec.n + 1, sizeof(*e->wls));
		if (!e->wls)
			goto out;
		if (vec.n)
			memcpy(e->wls, vec.v, vec.n * sizeof(*e->wls));
		e->n = vec.n;
		evaluate(e);
		for (j = 0; j < e->n; j++)
			k->wl_npdbs[e->wls[j]->index]++;
	}
	k->n_pdbs = n;
	for (i = 0; i < n_wls; i++) {
		if (!k->wl_npdbs[i])
			continue;
		k->wl_pdbs[i] = kvet_arena_array(k->arena, k->wl_npdbs[i],
						 sizeof(**k->wl_pdbs));
		if (!k->wl_pdbs[i])
			goto out;
		k->wl_npdbs[i] = 0;
	}
	/* input order of PDBs is kept within each workload's list */
	for (i = 0; i < n; i++)
		for (j = 0; j < k->pdbs[i].n; j++) {
			uint32_t w = k->pdbs[i].wls[j]->index;

			k->wl_pdbs[w][k->wl_npdbs[w]++] = k->pdbs[i].obj;
		}
	qsort(k->pdbs, n, sizeof(*k->pdbs), cmp_pdb);
	ret = 0;
out:
	free(vec.v);
	return ret;
}

static struct cel_k8s *relations(struct cel_eval *ev)
{
	struct cel_k8s *k = kvet_cel_k8s(ev);

	if (!k || k->oom)
		return NULL;
	if (!k->built) {
		k->built = true;
		if (build(k)) {
			k->oom = true;
			return NULL;
		}
	}
	return k;
}

static const struct pdb_entry *pdb_entry(struct cel_eval *ev,
					 const struct kvet_object *obj)
{
	struct cel_k8s *k = relations(ev);
	struct pdb_entry key = { .obj = obj };

	if (!k)
		return NULL;
	return bsearch(&key, k->pdbs, k->n_pdbs, sizeof(key), cmp_pdb);
}

static void *webhooks_create(struct kvet_arena *arena,
			     const struct kvet_graph *g)
{
	return kvet_webhooks_create(arena, g);
}

static void webhooks_destroy(void *whs)
{
	kvet_webhooks_destroy(whs);
}

const struct kvet_webhooks *cel_k8s_webhooks(struct cel_eval *ev)
{
	return cel_k8s_cache(ev, CEL_K8S_SLOT_WEBHOOK, webhooks_create,
			     webhooks_destroy);
}

bool cel_k8s_is_kind(const struct kvet_object *obj, const char *group,
		     const char *kind)
{
	return !strcmp(obj->kind, kind) && !strcmp(obj->group, group);
}

/* The object behind an argument, or an error naming the function. */
#define OBJ_ARG(ev, v, name)						\
	if (!kvet_cel_object(v))					\
		return cel_eval_errorf(ev, "%s() needs an object, not %s", \
				       name, cel_type_name((v)->type))

struct cel_value cel_k8s_no_graph(struct cel_eval *ev, const char *name)
{
	return cel_eval_errorf(ev, "%s() needs the object graph of a run", name);
}

struct cel_value cel_k8s_object_list(struct cel_eval *ev,
				     const struct kvet_object *const *objs,
				     size_t n)
{
	struct cel_value v = { .type = CEL_LIST }, *items;
	size_t i;

	items = kvet_arena_array(ev->env->scratch, n + 1, sizeof(*items));
	if (!items)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < n; i++)
		items[i] = kvet_cel_from_object(objs[i]);
	v.u.items = items;
	v.len = (uint32_t)n;
	return v;
}

struct cel_value cel_k8s_workload_list(struct cel_eval *ev,
				       const struct kvet_workload *const *wls,
				       size_t n)
{
	struct cel_value v = { .type = CEL_LIST }, *items;
	size_t i;

	items = kvet_arena_array(ev->env->scratch, n + 1, sizeof(*items));
	if (!items)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < n; i++)
		items[i] = kvet_cel_from_object(wls[i]->obj);
	v.u.items = items;
	v.len = (uint32_t)n;
	return v;
}

const struct kvet_workload *cel_k8s_workload_arg(struct cel_eval *ev,
						 const struct cel_value *v,
						 const char *name,
						 struct cel_value *err)
{
	const struct kvet_workload *wl;

	if (!kvet_cel_object(v)) {
		*err = cel_eval_errorf(ev, "%s() needs an object, not %s", name,
				       cel_type_name(v->type));
		return NULL;
	}
	if (!kvet_cel_graph(ev)) {
		*err = cel_k8s_no_graph(ev, name);
		return NULL;
	}
	wl = kvet_graph_workload_of(kvet_cel_graph(ev), kvet_cel_object(v));
	if (!wl)
		*err = cel_eval_errorf(ev, "%s(): %s \"%s\" is not a workload",
				       name, kvet_cel_object(v)->kind,
				       kvet_cel_object(v)->name);
	return wl;
}

K8S_FN(fn_selected_by)
{
	const struct cel_value *c = &args[0];
	const struct pdb_entry *e;
	struct kvet_selector sel;
	struct wl_vec vec = { 0 };
	struct cel_value out;

	OBJ_ARG(ev, c, "workloadsSelectedBy");
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "workloadsSelectedBy");
	if (cel_k8s_is_kind(kvet_cel_object(c), "policy",
			    "PodDisruptionBudget")) {
		e = pdb_entry(ev, kvet_cel_object(c));
		if (!e)
			return cel_eval_errorf(ev, "out of memory");
		return cel_k8s_workload_list(ev, e->wls, e->n);
	}
	if (!cel_k8s_is_kind(kvet_cel_object(c), "", "Service"))
		return cel_eval_errorf(ev, "workloadsSelectedBy() takes a PodDisruptionBudget or a Service, not a %s",
				       kvet_cel_object(c)->kind);
	if (kvet_selector_parse(ev->env->scratch,
				kvet_node_path(kvet_cel_object(c)->root, "spec",
					       "selector", NULL),
				KVET_SEL_FIELD_SERVICE, &sel) ||
	    kvet_graph_select_workloads(kvet_cel_graph(ev),
					kvet_cel_object(c)->namespace, &sel,
					collect, &vec)) {
		free(vec.v);
		return cel_eval_errorf(ev, "out of memory");
	}
	out = cel_k8s_workload_list(ev, vec.v, vec.n);
	free(vec.v);
	return out;
}

K8S_FN(fn_pdbs_covering)
{
	struct cel_value err;
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, &args[0],
						      "pdbsCovering", &err);
	struct cel_k8s *k;

	if (!wl)
		return err;
	k = relations(ev);
	if (!k)
		return cel_eval_errorf(ev, "out of memory");
	return cel_k8s_object_list(ev, k->wl_pdbs[wl->index], k->wl_npdbs[wl->index]);
}

K8S_FN(fn_selects)
{
	struct cel_value err, list;
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, &args[1], "selects",
						      &err);
	size_t i;

	if (!wl)
		return err;
	list = fn_selected_by(ev, call, args, 1);
	if (list.type == CEL_ERROR)
		return list;
	for (i = 0; i < list.len; i++)
		if (kvet_cel_object(&list.u.items[i]) == wl->obj)
			return cel_bool(true);
	return cel_bool(false);
}

/* Only the top-level owner is the workload: a ReplicaSet folded into
 * its Deployment in dump mode is not one (1.2). */
K8S_FN(fn_is_workload)
{
	const struct kvet_workload *wl;

	OBJ_ARG(ev, &args[0], "isWorkload");
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "isWorkload");
	wl = kvet_graph_workload_of(kvet_cel_graph(ev),
				    kvet_cel_object(&args[0]));
	return cel_bool(wl && wl->obj == kvet_cel_object(&args[0]));
}

K8S_FN(fn_namespace_of)
{
	OBJ_ARG(ev, &args[0], "namespaceOf");
	return cel_string(kvet_cel_object(&args[0])->namespace,
			  strlen(kvet_cel_object(&args[0])->namespace));
}

K8S_FN(fn_is_scalable)
{
	struct cel_value err;
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, &args[0],
						      "isScalable", &err);

	if (!wl)
		return err;
	return cel_bool(kvet_workload_scalable(wl));
}

K8S_FN(fn_workload_of)
{
	const struct kvet_workload *wl;

	OBJ_ARG(ev, &args[0], "workloadOf");
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "workloadOf");
	wl = kvet_graph_workload_of(kvet_cel_graph(ev),
				    kvet_cel_object(&args[0]));
	return wl ? kvet_cel_from_object(wl->obj) : cel_null();
}

/* N_spec, N_min or N_max (1.4); unknown counts are errors, so a
 * condition on them does not fire. */
static struct cel_value replicas(struct cel_eval *ev, const struct cel_value *v,
				 const char *name, int which)
{
	struct cel_value err;
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, v, name, &err);

	if (!wl)
		return err;
	if (wl->replicas.state == KVET_REPLICAS_EXCLUDED)
		return cel_eval_errorf(ev, "%s(): a %s is not a long-running workload",
				       name, wl->obj->kind);
	if (wl->replicas.state != KVET_REPLICAS_KNOWN)
		return cel_eval_errorf(ev, "%s(): the replicas of %s \"%s\" are unknown",
				       name, wl->obj->kind, wl->obj->name);
	return cel_int(which < 0 ? wl->replicas.min
		       : which > 0 ? wl->replicas.max : wl->replicas.spec);
}

K8S_FN(fn_min_replicas)
{
	return replicas(ev, &args[0], "minReplicas", -1);
}

K8S_FN(fn_max_replicas)
{
	return replicas(ev, &args[0], "maxReplicas", 1);
}

K8S_FN(fn_spec_replicas)
{
	return replicas(ev, &args[0], "specReplicas", 0);
}

K8S_FN(fn_hpa_for)
{
	struct cel_value err;
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, &args[0], "hpaFor",
						      &err);

	if (!wl)
		return err;
	return wl->replicas.hpa ? kvet_cel_from_object(wl->replicas.hpa->obj)
				: cel_null();
}

K8S_FN(fn_template_labels)
{
	struct cel_value err;
	const struct kvet_workload *wl = cel_k8s_workload_arg(ev, &args[0],
						      "templateLabels", &err);
	const struct kvet_node *labels;

	if (!wl)
		return err;
	labels = kvet_node_path(wl->template, "metadata", "labels", NULL);
	if (!kvet_node_is_map(labels)) {
		struct cel_value empty = { .type = CEL_MAP };

		return empty;
	}
	return cel_from_node(labels, NULL);
}

static const struct pdb_entry *pdb_arg(struct cel_eval *ev,
				       const struct cel_value *v,
				       const char *name, struct cel_value *err)
{
	const struct pdb_entry *e;

	if (!kvet_cel_object(v) ||
	    !cel_k8s_is_kind(kvet_cel_object(v), "policy",
			     "PodDisruptionBudget")) {
		*err = cel_eval_errorf(ev, "%s() needs a PodDisruptionBudget",
				       name);
		return NULL;
	}
	if (!kvet_cel_graph(ev)) {
		*err = cel_k8s_no_graph(ev, name);
		return NULL;
	}
	e = pdb_entry(ev, kvet_cel_object(v));
	if (!e)
		*err = cel_eval_errorf(ev, "out of memory");
	return e;
}

/* A field of the budget at N_min; unknown pod counts are errors. */
static struct cel_value pdb_number(struct cel_eval *ev,
				   const struct cel_value *v, const char *name,
				   size_t field)
{
	struct cel_value err;
	const struct pdb_entry *e = pdb_arg(ev, v, name, &err);
	long long x;

	if (!e)
		return err;
	if (e->res.status == KVET_PDB_UNKNOWN)
		return cel_eval_errorf(ev, "%s(): the pod count is unknown", name);
	memcpy(&x, (const char *)&e->res + field, sizeof(x));
	return cel_int(x);
}

K8S_FN(fn_allowed)
{
	return pdb_number(ev, &args[0], "allowedDisruptions",
			  offsetof(struct kvet_pdb_result, allowed));
}

K8S_FN(fn_pods_total)
{
	return pdb_number(ev, &args[0], "podsTotal",
			  offsetof(struct kvet_pdb_result, pods_total));
}

K8S_FN(fn_expected)
{
	return pdb_number(ev, &args[0], "expectedPods",
			  offsetof(struct kvet_pdb_result, expected));
}

K8S_FN(fn_desired)
{
	return pdb_number(ev, &args[0], "desiredHealthy",
			  offsetof(struct kvet_pdb_result, desired));
}

K8S_FN(fn_pdb_status)
{
	struct cel_value err;
	const struct pdb_entry *e = pdb_arg(ev, &args[0], "pdbStatus", &err);
	const char *s;

	if (!e)
		return err;
	s = kvet_pdb_status_name(e->res.status);
	return cel_string(s, strlen(s));
}

/* The budget as if it selected one scalable workload of @n pods (1.9). */
K8S_FN(fn_allowed_at)
{
	struct cel_value err;
	const struct pdb_entry *e = pdb_arg(ev, &args[0],
					    "allowedDisruptionsAt", &err);
	struct kvet_pdb_member m;
	struct kvet_pdb_result r;

	if (!e)
		return err;
	if (args[1].type != CEL_INT || args[1].u.i < 0 ||
	    args[1].u.i > INT32_MAX)
		return cel_eval_errorf(ev, "allowedDisruptionsAt() needs a replica count from 0 to 2147483647");
	m.n = args[1].u.i;
	m.kind = KVET_PDB_SCALABLE;
	kvet_pdb_evaluate(&e->pdb.min_available, &e->pdb.max_unavailable, &m, 1,
			  &r);
	return cel_int(r.allowed);
}

/* Kinds rules name without their group, and the group they mean. */
static const struct {
	const char *kind, *group;
} kind_groups[] = {
	{ "APIService", "apiregistration.k8s.io" },
	{ "ClusterRole", "rbac.authorization.k8s.io" },
	{ "ClusterRoleBinding", "rbac.authorization.k8s.io" },
	{ "ConfigMap", "" },
	{ "CronJob", "batch" },
	{ "CustomResourceDefinition", "apiextensions.k8s.io" },
	{ "DaemonSet", "apps" },
	{ "Deployment", "apps" },
	{ "HorizontalPodAutoscaler", "autoscaling" },
	{ "Job", "batch" },
	{ "Lease", "coordination.k8s.io" },
	{ "MutatingWebhookConfiguration", "admissionregistration.k8s.io" },
	{ "Namespace", "" },
	{ "Node", "" },
	{ "Pod", "" },
	{ "PodDisruptionBudget", "policy" },
	{ "PriorityClass", "scheduling.k8s.io" },
	{ "ReplicaSet", "apps" },
	{ "ReplicationController", "" },
	{ "Role", "rbac.authorization.k8s.io" },
	{ "RoleBinding", "rbac.authorization.k8s.io" },
	{ "Secret", "" },
	{ "Service", "" },
	{ "ServiceAccount", "" },
	{ "StatefulSet", "apps" },
	{ "ValidatingWebhookConfiguration", "admissionregistration.k8s.io" },
};

K8S_FN(fn_objects)
{
	const struct cel_value *k = &args[0];
	struct kvet_object *const *objs;
	char group[128], kind[128];
	const char *slash;
	size_t i, cnt, glen;
	struct cel_value v = { .type = CEL_LIST }, *items;

	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "objects");
	if (k->type != CEL_STRING || k->len >= sizeof(kind))
		return cel_eval_errorf(ev, "objects() needs a kind such as \"Deployment\" or \"apps/Deployment\"");
	slash = memchr(k->u.s, '/', k->len);
	glen = slash ? (size_t)(slash - k->u.s) : 0;
	memcpy(group, k->u.s, glen);
	group[glen] = '\0';
	memcpy(kind, k->u.s + (slash ? glen + 1 : 0), k->len - (slash ? glen + 1 : 0));
	kind[k->len - (slash ? glen + 1 : 0)] = '\0';
	if (!slash) {
		for (i = 0; i < sizeof(kind_groups) / sizeof(kind_groups[0]); i++)
			if (!strcmp(kind_groups[i].kind, kind))
				break;
		if (i == sizeof(kind_groups) / sizeof(kind_groups[0]))
			return cel_eval_errorf(ev, "objects(): give the group of kind \"%s\" as \"group/%s\"",
					       kind, kind);
		memcpy(group, kind_groups[i].group,
		       strlen(kind_groups[i].group) + 1);
	}
	objs = kvet_graph_kind(kvet_cel_graph(ev), group, kind, &cnt);
	items = kvet_arena_array(ev->env->scratch, cnt + 1, sizeof(*items));
	if (!items)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < cnt; i++) {
		if (n == 2 && (args[1].type != CEL_STRING ||
			       strlen(objs[i]->namespace) != args[1].len ||
			       memcmp(objs[i]->namespace, args[1].u.s, args[1].len)))
			continue;
		items[v.len++] = kvet_cel_from_object(objs[i]);
	}
	v.u.items = items;
	return v;
}

/* A namespace name as a NUL-terminated string, or NULL. */
static const char *ns_arg(struct cel_eval *ev, const struct cel_value *v)
{
	if (v->type != CEL_STRING)
		return NULL;
	return kvet_arena_strndup(ev->env->scratch, v->u.s, v->len);
}

K8S_FN(fn_ns_covered)
{
	const char *ns = ns_arg(ev, &args[0]);

	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "namespaceCovered");
	if (!ns)
		return cel_eval_errorf(ev, "namespaceCovered() needs a namespace name");
	return cel_bool(kvet_graph_ns_covered(kvet_cel_graph(ev), ns));
}

K8S_FN(fn_ns_operator)
{
	const char *ns = ns_arg(ev, &args[0]);

	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "operatorPopulated");
	if (!ns)
		return cel_eval_errorf(ev, "operatorPopulated() needs a namespace name");
	return cel_bool(
		kvet_graph_ns_operator_populated(kvet_cel_graph(ev), ns));
}

K8S_FN(fn_dump_mode)
{
	return cel_bool(kvet_cel_graph(ev) &&
			kvet_graph_dump_mode(kvet_cel_graph(ev)));
}

K8S_FN(fn_complete)
{
	return cel_bool(kvet_cel_graph(ev) &&
			kvet_graph_complete(kvet_cel_graph(ev)));
}

#define G CEL_CALL_GLOBAL
#define DYN CEL_ST_DYN
#define MAP CEL_ST_MAP
#define INT CEL_ST_INT
#define STR CEL_ST_STRING
#define LIST CEL_ST_LIST
#define BOOL CEL_ST_BOOL

/*
 * The registry. Rows for the definitions of RULES-CATALOGUE 1.8 and 1.10
 * to 1.14 (spreading terms, webhook backends, interception, managers,
 * leader election, effective priority) are added here when the model
 * provides them.
 */
static const struct cel_func k8s_funcs[] = {
	/* 1.7 selection, through the label index */
	{ "workloadsSelectedBy", G, 1, 1, LIST, { MAP }, fn_selected_by,
	  "the workloads a PodDisruptionBudget or Service selects in its namespace" },
	{ "pdbsCovering", G, 1, 1, LIST, { MAP }, fn_pdbs_covering,
	  "the PodDisruptionBudgets that select a workload" },
	{ "selects", G, 2, 2, BOOL, { MAP, MAP }, fn_selects,
	  "selects(pdbOrService, workload)" },
	/* 1.2 workloads */
	{ "isWorkload", G, 1, 1, BOOL, { MAP }, fn_is_workload,
	  "the object is a top-level workload (not folded into its owner)" },
	{ "namespaceOf", G, 1, 1, STR, { MAP }, fn_namespace_of,
	  "the object's namespace, with the default applied; \"\" when cluster-scoped" },
	{ "isScalable", G, 1, 1, BOOL, { MAP }, fn_is_scalable,
	  "Deployment, ReplicaSet, StatefulSet or ReplicationController" },
	{ "workloadOf", G, 1, 1, MAP, { MAP }, fn_workload_of,
	  "the top-level workload an object is or belongs to, or null" },
	{ "templateLabels", G, 1, 1, MAP, { MAP }, fn_template_labels,
	  "L(W): the pod template's labels" },
	/* 1.4 replicas */
	{ "minReplicas", G, 1, 1, INT, { MAP }, fn_min_replicas,
	  "N_min: an HPA's minReplicas when one targets it, else N_spec" },
	{ "maxReplicas", G, 1, 1, INT, { MAP }, fn_max_replicas,
	  "N_max: an HPA's maxReplicas when one targets it, else N_spec" },
	{ "specReplicas", G, 1, 1, INT, { MAP }, fn_spec_replicas,
	  "N_spec: spec.replicas, default 1" },
	{ "hpaFor", G, 1, 1, MAP, { MAP }, fn_hpa_for,
	  "the first HPA targeting a workload, or null" },
	/* 1.9 PDB evaluation, at N_min */
	{ "allowedDisruptions", G, 1, 1, INT, { MAP }, fn_allowed,
	  "disruptionsAllowed of a PDB in steady state" },
	{ "allowedDisruptionsAt", G, 2, 2, INT, { MAP, INT }, fn_allowed_at,
	  "disruptionsAllowed if the PDB selected one scalable workload of N pods" },
	{ "podsTotal", G, 1, 1, INT, { MAP }, fn_pods_total,
	  "the pods a PDB selects" },
	{ "expectedPods", G, 1, 1, INT, { MAP }, fn_expected,
	  "expectedCount of the disruption controller" },
	{ "desiredHealthy", G, 1, 1, INT, { MAP }, fn_desired,
	  "desiredHealthy of the disruption controller" },
	{ "pdbStatus", G, 1, 1, STR, { MAP }, fn_pdb_status,
	  "\"ok\", \"no-policy\", \"invalid-both-set\", \"invalid-value\", \"sync-fails\" or \"unknown\"" },
	/* 1.1 and 1.3 the input */
	{ "objects", G, 1, 2, LIST, { STR, STR }, fn_objects,
	  "objects(kind[, namespace]): the objects of a kind, from the kind index" },
	{ "namespaceCovered", G, 1, 1, BOOL, { STR }, fn_ns_covered,
	  "the input covers the namespace (1.3)" },
	{ "operatorPopulated", G, 1, 1, BOOL, { STR }, fn_ns_operator,
	  "custom resources live in the namespace (1.3)" },
	{ "dumpMode", G, 0, 0, BOOL, { DYN }, fn_dump_mode,
	  "the input is a cluster dump (1.1)" },
	{ "completeInput", G, 0, 0, BOOL, { DYN }, fn_complete,
	  "the input is the whole cluster (1.3)" },
};

const struct cel_lib cel_k8s_lib = CEL_LIB("kvet.core", k8s_funcs);

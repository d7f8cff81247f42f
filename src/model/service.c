/* SPDX-License-Identifier: Apache-2.0 */
#include "model/service.h"

#include <string.h>

#include "model/pdb.h"
#include "model/run.h"
#include "model/webhook.h"

/* A list growing in an arena. */
struct list {
	struct kvet_arena *arena;
	const void **v;
	size_t n, cap;
};

static int list_add(struct list *l, const void *p)
{
	if (!kvet_arena_grow(l->arena, &l->v, &l->cap, l->n, sizeof(*l->v)))
		return -1;
	l->v[l->n++] = p;
	return 0;
}

static int add_workload(void *data, const struct kvet_workload *wl)
{
	return list_add(data, wl);
}

int kvet_service_parse(struct kvet_arena *arena, const struct kvet_object *svc,
		       struct kvet_service *out)
{
	const struct kvet_node *spec = kvet_node_get(svc->root, "spec");

	memset(out, 0, sizeof(*out));
	out->obj = svc;
	out->external_name = kvet_node_eq(kvet_node_get(spec, "type"),
					  "ExternalName");
	return kvet_selector_parse(arena, kvet_node_get(spec, "selector"),
				   KVET_SEL_FIELD_SERVICE, &out->selector);
}

int kvet_service_workloads(struct kvet_arena *arena,
			   const struct kvet_graph *g,
			   const struct kvet_service *svc,
			   const struct kvet_workload ***out, size_t *n)
{
	struct list l = { arena, NULL, 0, 0 };

	*out = NULL;
	*n = 0;
	if (kvet_graph_select_workloads(g, svc->obj->namespace,
					&svc->selector, add_workload, &l))
		return -1;
	*out = (const struct kvet_workload **)l.v;
	*n = l.n;
	return 0;
}

int kvet_run_selected_by(struct kvet_run *run, struct kvet_arena *arena,
			 const struct kvet_object *obj,
			 const struct kvet_workload *const **out, size_t *n)
{
	const struct kvet_budget *b;
	const struct kvet_workload **v;
	struct kvet_service svc;

	*out = NULL;
	*n = 0;
	if (kvet_object_is(obj, "policy", "PodDisruptionBudget")) {
		b = kvet_run_budget(run, obj);
		if (!b)
			return -1;
		*out = b->wls;
		*n = b->n;
		return 0;
	}
	if (!kvet_object_is(obj, "", "Service"))
		return -2;
	if (kvet_service_parse(arena, obj, &svc) ||
	    kvet_service_workloads(arena, kvet_run_graph(run), &svc, &v, n))
		return -1;
	*out = v;
	return 0;
}

static bool refers_to(const struct kvet_service_ref *ref,
		      const struct kvet_object *svc)
{
	return !strcmp(ref->namespace, svc->namespace) &&
	       !strcmp(ref->name, svc->name);
}

/* Add @obj once. */
static int add_once(struct list *l, const struct kvet_object *obj)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->v[i] == obj)
			return 0;
	return list_add(l, obj);
}

int kvet_run_callers_of(struct kvet_run *run, struct kvet_arena *arena,
			const struct kvet_object *svc,
			const struct kvet_object ***out, size_t *n)
{
	const struct kvet_webhooks *whs = kvet_run_webhooks(run);
	const struct kvet_webhook *const *entries;
	const struct kvet_apiservice *const *apis;
	struct list l = { arena, NULL, 0, 0 };
	size_t i, cnt;

	*out = NULL;
	*n = 0;
	if (!whs)
		return -1;
	entries = kvet_webhooks_entries(whs, &cnt);
	for (i = 0; i < cnt; i++)
		if (entries[i]->has_service &&
		    refers_to(&entries[i]->service, svc) &&
		    add_once(&l, entries[i]->obj))
			return -1;
	apis = kvet_webhooks_apiservices(whs, &cnt);
	for (i = 0; i < cnt; i++)
		if (refers_to(&apis[i]->service, svc) &&
		    add_once(&l, apis[i]->obj))
			return -1;
	*out = (const struct kvet_object **)l.v;
	*n = l.n;
	return 0;
}

bool kvet_service_is_apiserver(const char *namespace, const char *name)
{
	return namespace && name && !strcmp(namespace, "default") &&
	       !strcmp(name, "kubernetes");
}

bool kvet_service_has_endpoints(const struct kvet_graph *g,
				const struct kvet_object *svc)
{
	struct kvet_object *const *slices;
	const struct kvet_node *owner;
	size_t i, cnt;

	if (kvet_service_is_apiserver(svc->namespace, svc->name))
		return true;
	if (kvet_graph_find(g, "", "Endpoints", svc->namespace, svc->name))
		return true;
	slices = kvet_graph_kind(g, "discovery.k8s.io", "EndpointSlice", &cnt);
	for (i = 0; i < cnt; i++) {
		if (strcmp(slices[i]->namespace, svc->namespace))
			continue;
		owner = kvet_node_path(slices[i]->root, "metadata", "labels",
				       "kubernetes.io/service-name", NULL);
		if (kvet_node_text_eq(owner, svc->name))
			return true;
	}
	return false;
}

/* An Ingress backend ({service: {name}} or {serviceName}) names @name. */
static bool backend_names(const struct kvet_node *backend, const char *name)
{
	return kvet_node_text_eq(kvet_node_path(backend, "service", "name",
						NULL), name) ||
	       kvet_node_text_eq(kvet_node_get(backend, "serviceName"), name);
}

static bool ingress_routes_to(const struct kvet_object *ing, const char *name)
{
	const struct kvet_node *spec = kvet_node_get(ing->root, "spec");
	const struct kvet_node *rules = kvet_node_get(spec, "rules");
	const struct kvet_node *paths;
	uint32_t i, j;

	if (backend_names(kvet_node_get(spec, "defaultBackend"), name) ||
	    backend_names(kvet_node_get(spec, "backend"), name))
		return true;
	for (i = 0; kvet_node_is_seq(rules) && i < rules->len; i++) {
		paths = kvet_node_path(&rules->u.items[i], "http", "paths",
				       NULL);
		for (j = 0; kvet_node_is_seq(paths) && j < paths->len; j++)
			if (backend_names(kvet_node_get(&paths->u.items[j],
							"backend"), name))
				return true;
	}
	return false;
}

int kvet_service_ingresses(struct kvet_arena *arena,
			   const struct kvet_graph *g,
			   const struct kvet_object *svc,
			   const struct kvet_object ***out, size_t *n)
{
	static const char *const groups[] = { "networking.k8s.io",
					      "extensions" };
	struct list l = { arena, NULL, 0, 0 };
	struct kvet_object *const *ing;
	size_t k, i, cnt;

	for (k = 0; k < sizeof(groups) / sizeof(groups[0]); k++) {
		ing = kvet_graph_kind(g, groups[k], "Ingress", &cnt);
		for (i = 0; i < cnt; i++)
			if (!strcmp(ing[i]->namespace, svc->namespace) &&
			    ingress_routes_to(ing[i], svc->name) &&
			    list_add(&l, ing[i]))
				return -1;
	}
	*out = (const struct kvet_object **)l.v;
	*n = l.n;
	return 0;
}

int kvet_object_selector(struct kvet_arena *arena, const struct kvet_graph *g,
			 const struct kvet_object *obj,
			 struct kvet_selector *out)
{
	const struct kvet_workload *wl;
	struct kvet_service svc;
	struct kvet_pdb pdb;

	if (kvet_object_is(obj, "policy", "PodDisruptionBudget")) {
		if (kvet_pdb_parse(arena, obj, &pdb))
			return -1;
		*out = pdb.selector;
		return 0;
	}
	if (kvet_object_is(obj, "", "Service")) {
		if (kvet_service_parse(arena, obj, &svc))
			return -1;
		*out = svc.selector;
		return 0;
	}
	if (!g)
		return -3;
	wl = kvet_graph_workload_of(g, obj);
	if (!wl || wl->obj != obj)
		return -2;
	*out = wl->selector;
	return 0;
}

const struct kvet_node *kvet_service_port_item(const struct kvet_object *svc,
					       long long port)
{
	const struct kvet_node *ports = kvet_node_path(svc->root, "spec",
						       "ports", NULL);
	long long p;
	uint32_t i;

	for (i = 0; kvet_node_is_seq(ports) && i < ports->len; i++)
		if (kvet_node_int(kvet_node_get(&ports->u.items[i], "port"),
				  &p) && p == port)
			return &ports->u.items[i];
	return NULL;
}

bool kvet_service_ports_declared_by(const struct kvet_object *svc,
				    const struct kvet_workload *const *wls,
				    size_t n)
{
	const struct kvet_node *ports = kvet_node_path(svc->root, "spec",
						       "ports", NULL);
	const struct kvet_node *p, *target;
	struct kvet_slice name, protocol;
	uint32_t i;
	size_t k;

	if (!kvet_node_is_seq(ports) || !ports->len || !n)
		return false;
	for (i = 0; i < ports->len; i++) {
		p = &ports->u.items[i];
		target = kvet_node_get(p, "targetPort");
		/* an absent targetPort is the port's number */
		if (!kvet_node_is_string(target) ||
		    !kvet_node_slice(target, &name))
			return false;
		protocol = kvet_slice_of("TCP");
		kvet_node_slice(kvet_node_get(p, "protocol"), &protocol);
		for (k = 0; k < n; k++)
			if (!kvet_workload_declares_port(wls[k], name,
							 protocol))
				return false;
	}
	return true;
}

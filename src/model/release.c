/* SPDX-License-Identifier: Apache-2.0 */
#include "model/release.h"

#include <string.h>

#include "model/hash.h"

/* "s" and "are", or "" and "is", for a count of objects */
#define PLURAL(n) (n) == 1 ? "" : "s", (n) == 1 ? "is" : "are"

bool kvet_objects_helm_render(struct kvet_object *const *objs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (objs[i]->source)
			return true;
	return false;
}

void kvet_release_namespace_apply(struct kvet_object *const *objs, size_t n,
				  const char *ns)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (objs[i]->flags & KVET_OBJ_NS_UNSET)
			objs[i]->namespace = ns;
}

struct infer {
	struct kvet_arena *arena;
	struct kvet_hash unset;		/* kind, name of namespace-less objects */
	struct kvet_release_guess *out;
	int oom;
};

/* One reference to @ns, made by @from: the first namespace named is
 * kept, a second one makes the references disagree. */
static void vote(struct infer *in, const char *ns, size_t len,
		 const struct kvet_object *from, const char *why)
{
	struct kvet_release_guess *g = in->out;
	const char *copy;

	if (!len || g->state == KVET_RELEASE_DISAGREE)
		return;
	if (g->ns && strlen(g->ns) == len && !memcmp(g->ns, ns, len))
		return;
	copy = kvet_arena_strndup(in->arena, ns, len);
	if (!copy) {
		in->oom = 1;
		return;
	}
	if (!g->ns) {
		g->state = KVET_RELEASE_INFERRED;
		g->ns = copy;
		g->from = from;
		g->why = why;
		return;
	}
	g->state = KVET_RELEASE_DISAGREE;
	g->other_ns = copy;
	g->other_from = from;
	g->other_why = why;
}

/* Is there a namespace-less @kind (core group) called @name? */
static bool unset_named(const struct infer *in, const char *kind,
			const struct kvet_node *name)
{
	struct kvet_slice parts[2] = { kvet_slice_of(kind),
				       kvet_string_of(name) };

	return parts[1].len && kvet_hash_get(&in->unset, parts, 2) != NULL;
}

/* A service reference {namespace, name} of @from (a clientConfig's, an
 * APIService's spec). */
static void service_ref(struct infer *in, const struct kvet_object *from,
			const struct kvet_node *svc, const char *why)
{
	const struct kvet_node *ns = kvet_node_get(svc, "namespace");

	if (kvet_node_is_string(ns) &&
	    unset_named(in, "Service", kvet_node_get(svc, "name")))
		vote(in, ns->u.str, ns->len, from, why);
}

static void webhook_refs(struct infer *in, const struct kvet_object *obj)
{
	const struct kvet_node *whs = kvet_node_get(obj->root, "webhooks");
	uint32_t i;

	for (i = 0; kvet_node_is_seq(whs) && i < whs->len; i++)
		service_ref(in, obj,
			    kvet_node_path(&whs->u.items[i], "clientConfig",
					   "service", NULL),
			    "the service.namespace of its webhook for a Service of the render");
}

static void binding_refs(struct infer *in, const struct kvet_object *obj)
{
	const struct kvet_node *subs = kvet_node_get(obj->root, "subjects");
	uint32_t i;

	for (i = 0; kvet_node_is_seq(subs) && i < subs->len; i++) {
		const struct kvet_node *s = &subs->u.items[i];
		const struct kvet_node *ns = kvet_node_get(s, "namespace");

		if (kvet_node_eq(kvet_node_get(s, "kind"), "ServiceAccount") &&
		    kvet_node_is_string(ns) &&
		    unset_named(in, "ServiceAccount", kvet_node_get(s, "name")))
			vote(in, ns->u.str, ns->len, obj,
			     "the namespace of its subject, a ServiceAccount of the render");
	}
}

static void references(struct infer *in, const struct kvet_object *obj)
{
	const char *crd_v1 = "the service.namespace of its conversion webhook for a Service of the render";

	if (kvet_object_is(obj, "admissionregistration.k8s.io",
			   "ValidatingWebhookConfiguration") ||
	    kvet_object_is(obj, "admissionregistration.k8s.io",
			   "MutatingWebhookConfiguration"))
		webhook_refs(in, obj);
	else if (kvet_object_is(obj, "apiregistration.k8s.io", "APIService"))
		service_ref(in, obj, kvet_node_path(obj->root, "spec", "service",
						    NULL),
			    "its spec.service.namespace, a Service of the render");
	else if (kvet_object_is(obj, "apiextensions.k8s.io",
				"CustomResourceDefinition")) {
		service_ref(in, obj, kvet_node_path(obj->root, "spec",
				"conversion", "webhook", "clientConfig",
				"service", NULL), crd_v1);
		service_ref(in, obj, kvet_node_path(obj->root, "spec",
				"conversion", "webhookClientConfig",
				"service", NULL), crd_v1);
	} else if (kvet_object_is(obj, "rbac.authorization.k8s.io",
				  "RoleBinding") ||
		   kvet_object_is(obj, "rbac.authorization.k8s.io",
				  "ClusterRoleBinding"))
		binding_refs(in, obj);
}

/* The metadata.namespace every namespaced object naming one shares. */
static void shared_namespace(struct infer *in,
			     struct kvet_object *const *objs, size_t n)
{
	const struct kvet_object *first = NULL;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct kvet_object *obj = objs[i];

		if ((obj->flags & (KVET_OBJ_NS_UNSET | KVET_OBJ_CLUSTER_SCOPED)) ||
		    (obj->flags & KVET_OBJ_HELM_TEST))
			continue;
		if (!first)
			first = obj;
		else if (strcmp(first->namespace, obj->namespace))
			return;
	}
	if (first)
		vote(in, first->namespace, strlen(first->namespace), first,
		     "its metadata.namespace, which every object of the render that names one shares");
}

int kvet_release_namespace_infer(struct kvet_arena *arena,
				 struct kvet_object *const *objs, size_t n,
				 struct kvet_release_guess *out)
{
	struct infer in = { arena, { 0 }, out, 0 };
	size_t i;

	memset(out, 0, sizeof(*out));
	kvet_hash_init(&in.unset, arena);
	for (i = 0; i < n; i++) {
		const struct kvet_object *obj = objs[i];
		struct kvet_slice parts[2];
		void **slot;

		if (!(obj->flags & KVET_OBJ_NS_UNSET))
			continue;
		out->n_unset++;
		if (obj->group[0] || (strcmp(obj->kind, "Service") &&
				      strcmp(obj->kind, "ServiceAccount")))
			continue;
		parts[0] = kvet_slice_of(obj->kind);
		parts[1] = kvet_slice_of(obj->name);
		slot = kvet_hash_put(&in.unset, parts, 2, NULL);
		if (!slot)
			goto oom;
		*slot = (void *)obj;
	}
	for (i = 0; i < n && !in.oom; i++)
		if (!(objs[i]->flags & KVET_OBJ_HELM_TEST))
			references(&in, objs[i]);
	if (!in.oom)
		shared_namespace(&in, objs, n);
	if (in.oom)
		goto oom;
	kvet_hash_release(&in.unset);
	return 0;
oom:
	kvet_hash_release(&in.unset);
	return -1;
}

/* The first namespace-less object, where a notice about all goes. */
static const struct kvet_object *first_unset(struct kvet_object *const *objs,
					     size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (objs[i]->flags & KVET_OBJ_NS_UNSET)
			return objs[i];
	return NULL;
}

int kvet_release_namespace(struct kvet_arena *arena, struct kvet_diag *diag,
			   struct kvet_object *const *objs, size_t n,
			   const char *given, const char *fallback)
{
	struct kvet_release_guess g;
	const struct kvet_object *at = first_unset(objs, n);

	if (!at || !kvet_objects_helm_render(objs, n))
		return 0;
	if (given) {
		kvet_release_namespace_apply(objs, n, given);
		return 0;
	}
	if (kvet_release_namespace_infer(arena, objs, n, &g) < 0)
		return -1;
	switch (g.state) {
	case KVET_RELEASE_INFERRED:
		kvet_release_namespace_apply(objs, n, g.ns);
		kvet_diag_notef(diag, KVET_NOTICE_NOTE, g.from->file,
				g.from->line, g.from->col,
				"Helm render without --namespace: its release namespace is taken to be \"%s\", from %s/%s (%s); the %zu object%s without metadata.namespace %s put there",
				g.ns, g.from->kind, g.from->name, g.why,
				g.n_unset, PLURAL(g.n_unset));
		break;
	case KVET_RELEASE_DISAGREE:
		kvet_diag_notef(diag, KVET_NOTICE_WARNING, at->file, at->line,
				at->col,
				"Helm render without --namespace, and its references disagree on the release namespace (\"%s\" from %s/%s, \"%s\" from %s/%s): the %zu object%s without metadata.namespace %s put in \"%s\"; give --namespace, as to helm template -n",
				g.ns, g.from->kind, g.from->name, g.other_ns,
				g.other_from->kind, g.other_from->name,
				g.n_unset, PLURAL(g.n_unset), fallback);
		break;
	case KVET_RELEASE_UNNAMED:
		kvet_diag_notef(diag, KVET_NOTICE_NOTE, at->file, at->line,
				at->col,
				"Helm render without --namespace, and nothing in it names the release namespace: the %zu object%s without metadata.namespace %s put in \"%s\"; give --namespace, as to helm template -n",
				g.n_unset, PLURAL(g.n_unset), fallback);
		break;
	}
	return 0;
}

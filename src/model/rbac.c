/* SPDX-License-Identifier: Apache-2.0 */
#include "model/rbac.h"

#include <stdlib.h>
#include <string.h>

#include "model/hash.h"
#include "model/run.h"

#define RBAC_GROUP "rbac.authorization.k8s.io"
#define LEASE_GROUP "coordination.k8s.io"

/* Key tags, so that a group named like a namespace cannot collide. */
#define TAG_SA "s"		/* ns, name */
#define TAG_GROUP "g"		/* name */
#define TAG_USER "u"		/* name */

struct binding_list {
	const struct kvet_object **v;
	size_t n, cap;
};

struct kvet_rbac {
	struct kvet_arena *arena;
	const struct kvet_graph *g;
	struct kvet_hash by_subject;	/* subject -> binding_list */
};

static struct kvet_slice str_of(const struct kvet_node *n)
{
	struct kvet_slice s = { "", 0 };

	if (kvet_node_is_string(n)) {
		s.s = n->u.str;
		s.len = n->len;
	}
	return s;
}

static int add(struct kvet_rbac *r, const struct kvet_slice *parts,
	       size_t nparts, const struct kvet_object *binding)
{
	struct binding_list *l;
	void **slot = kvet_hash_put(&r->by_subject, parts, nparts, NULL);

	if (!slot)
		return -1;
	if (!*slot) {
		*slot = kvet_arena_alloc(r->arena, sizeof(*l));
		if (!*slot)
			return -1;
	}
	l = *slot;
	if (l->n && l->v[l->n - 1] == binding)
		return 0;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 4;
		const struct kvet_object **v;

		v = kvet_arena_array(r->arena, cap, sizeof(*v));
		if (!v)
			return -1;
		if (l->n)
			memcpy(v, l->v, l->n * sizeof(*v));
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = binding;
	return 0;
}

static int index_binding(struct kvet_rbac *r, const struct kvet_object *b)
{
	const struct kvet_node *subjects = kvet_node_get(b->root, "subjects");
	uint32_t i;

	for (i = 0; kvet_node_is_seq(subjects) && i < subjects->len; i++) {
		const struct kvet_node *s = &subjects->u.items[i];
		const struct kvet_node *kind = kvet_node_get(s, "kind");
		struct kvet_slice parts[3];

		parts[1] = str_of(kvet_node_get(s, "name"));
		if (kvet_node_eq(kind, "ServiceAccount")) {
			parts[0] = kvet_slice_of(TAG_SA);
			parts[2] = parts[1];
			parts[1] = str_of(kvet_node_get(s, "namespace"));
			/* the authorizer takes a RoleBinding's namespace
			 * for a ServiceAccount subject without one */
			if (!parts[1].len)
				parts[1] = kvet_slice_of(b->namespace);
			if (!parts[1].len)
				continue;
			if (add(r, parts, 3, b))
				return -1;
		} else if (kvet_node_eq(kind, "Group") ||
			   kvet_node_eq(kind, "User")) {
			parts[0] = kvet_slice_of(kvet_node_eq(kind, "Group") ?
						 TAG_GROUP : TAG_USER);
			if (add(r, parts, 2, b))
				return -1;
		}
	}
	return 0;
}

struct kvet_rbac *kvet_rbac_create(struct kvet_arena *arena,
				   const struct kvet_graph *g)
{
	static const char *const kinds[] = { "RoleBinding",
					     "ClusterRoleBinding" };
	struct kvet_rbac *r = calloc(1, sizeof(*r));
	struct kvet_object *const *v;
	size_t k, i, n;

	if (!r)
		return NULL;
	r->arena = arena;
	r->g = g;
	kvet_hash_init(&r->by_subject, arena);
	for (k = 0; k < 2; k++) {
		v = kvet_graph_kind(g, RBAC_GROUP, kinds[k], &n);
		for (i = 0; i < n; i++) {
			if (index_binding(r, v[i])) {
				kvet_rbac_destroy(r);
				return NULL;
			}
		}
	}
	return r;
}

void kvet_rbac_destroy(struct kvet_rbac *r)
{
	if (!r)
		return;
	kvet_hash_release(&r->by_subject);
	free(r);
}

/* @list contains @s or "*". */
static bool list_has(const struct kvet_node *list, const char *s)
{
	uint32_t i;

	for (i = 0; kvet_node_is_seq(list) && i < list->len; i++)
		if (kvet_node_text_eq(&list->u.items[i], "*") ||
		    kvet_node_text_eq(&list->u.items[i], s))
			return true;
	return false;
}

static unsigned int role_verbs(const struct kvet_object *role)
{
	const struct kvet_node *rules = kvet_node_get(role->root, "rules");
	unsigned int verbs = 0;
	uint32_t i;

	/* the cluster fills in an aggregated role's rules */
	if (kvet_node_is_map(kvet_node_get(role->root, "aggregationRule")))
		return KVET_LEASE_ALL;
	for (i = 0; kvet_node_is_seq(rules) && i < rules->len; i++) {
		const struct kvet_node *rule = &rules->u.items[i];
		const struct kvet_node *v = kvet_node_get(rule, "verbs");

		if (!list_has(kvet_node_get(rule, "apiGroups"), LEASE_GROUP) ||
		    !list_has(kvet_node_get(rule, "resources"), "leases"))
			continue;
		if (list_has(v, "get"))
			verbs |= KVET_LEASE_GET;
		if (list_has(v, "create"))
			verbs |= KVET_LEASE_CREATE;
		if (list_has(v, "update"))
			verbs |= KVET_LEASE_UPDATE;
	}
	return verbs;
}

/* The role @b refers to, when it applies in @ns and is in the input. */
static const struct kvet_object *bound_role(const struct kvet_rbac *r,
					    const struct kvet_object *b,
					    const char *ns)
{
	const struct kvet_node *ref = kvet_node_get(b->root, "roleRef");
	const struct kvet_node *kind = kvet_node_get(ref, "kind");
	const struct kvet_node *name = kvet_node_get(ref, "name");
	bool crb = strcmp(b->kind, "ClusterRoleBinding") == 0;
	char buf[256];

	/* a RoleBinding grants in its own namespace only */
	if (!crb && strcmp(b->namespace, ns) != 0)
		return NULL;
	if (!kvet_node_is_string(name) || name->len >= sizeof(buf))
		return NULL;
	memcpy(buf, name->u.str, name->len);
	buf[name->len] = '\0';
	if (kvet_node_eq(kind, "ClusterRole"))
		return kvet_graph_find(r->g, RBAC_GROUP, "ClusterRole", "",
				       buf);
	/* a ClusterRoleBinding can only refer to a ClusterRole */
	if (kvet_node_eq(kind, "Role") && !crb)
		return kvet_graph_find(r->g, RBAC_GROUP, "Role", b->namespace,
				       buf);
	return NULL;
}

static void grant(const struct kvet_rbac *r, const struct binding_list *l,
		  const char *ns, struct kvet_lease_access *out)
{
	size_t i;

	for (i = 0; l && i < l->n; i++) {
		const struct kvet_object *role = bound_role(r, l->v[i], ns);
		unsigned int v;

		out->bound = true;
		if (!out->subject_binding)
			out->subject_binding = l->v[i];
		if (!role)
			continue;
		v = role_verbs(role);
		if (v && !out->binding) {
			out->binding = l->v[i];
			out->role = role;
		}
		out->verbs |= v;
	}
}

int kvet_rbac_lease_access(const struct kvet_rbac *r, const char *sa_ns,
			   const char *sa_name, const char *ns,
			   struct kvet_lease_access *out)
{
	struct kvet_slice parts[3];
	char *group, *user;

	memset(out, 0, sizeof(*out));
	parts[0] = kvet_slice_of(TAG_SA);
	parts[1] = kvet_slice_of(sa_ns);
	parts[2] = kvet_slice_of(sa_name);
	grant(r, kvet_hash_get(&r->by_subject, parts, 3), ns, out);
	/* the names the API server authenticates a ServiceAccount as */
	group = kvet_arena_printf(r->arena, "system:serviceaccounts:%s", sa_ns);
	user = kvet_arena_printf(r->arena, "system:serviceaccount:%s:%s",
				 sa_ns, sa_name);
	if (!group || !user)
		return -1;
	parts[0] = kvet_slice_of(TAG_GROUP);
	parts[1] = kvet_slice_of(group);
	grant(r, kvet_hash_get(&r->by_subject, parts, 2), ns, out);
	parts[1] = kvet_slice_of("system:serviceaccounts");
	grant(r, kvet_hash_get(&r->by_subject, parts, 2), ns, out);
	parts[1] = kvet_slice_of("system:authenticated");
	grant(r, kvet_hash_get(&r->by_subject, parts, 2), ns, out);
	parts[0] = kvet_slice_of(TAG_USER);
	parts[1] = kvet_slice_of(user);
	grant(r, kvet_hash_get(&r->by_subject, parts, 2), ns, out);
	return 0;
}

struct kvet_slice kvet_workload_service_account(const struct kvet_workload *wl)
{
	const struct kvet_node *n = kvet_node_get(wl->pod_spec,
						  "serviceAccountName");

	if (!kvet_node_is_string(n) || !n->len)
		n = kvet_node_get(wl->pod_spec, "serviceAccount");
	if (kvet_node_is_string(n) && n->len)
		return str_of(n);
	return kvet_slice_of("default");
}

static void *rbac_build(struct kvet_run *run)
{
	return kvet_rbac_create(kvet_run_arena(run), kvet_run_graph(run));
}

static void rbac_free(void *r)
{
	kvet_rbac_destroy(r);
}

const struct kvet_rbac *kvet_run_rbac(struct kvet_run *run)
{
	return kvet_run_index(run, KVET_RUN_RBAC, rbac_build, rbac_free);
}

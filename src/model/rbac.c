/* SPDX-License-Identifier: Apache-2.0 */
#include "model/rbac.h"

#include <stdio.h>
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
	if (!kvet_arena_grow(r->arena, &l->v, &l->cap, l->n, sizeof(*l->v)))
		return -1;
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

		parts[1] = kvet_string_of(kvet_node_get(s, "name"));
		if (kvet_node_eq(kind, "ServiceAccount")) {
			parts[0] = kvet_slice_of(TAG_SA);
			parts[2] = parts[1];
			parts[1] = kvet_string_of(kvet_node_get(s, "namespace"));
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

/*
 * The binding lists that grant to ServiceAccount @sa_ns/@sa_name: its
 * own, then those of the names the API server authenticates it as (its
 * namespace's group and its user name) and, with @everyone, of the
 * groups every account is in. Returns how many are in @out (at most
 * 5, NULL for a subject nothing binds), or -1 when out of memory.
 */
/* The @n strings @v joined in @arena: what printf made of them, without
 * its parsing, for every workload asked about. */
static char *joined(struct kvet_arena *arena, const char *const *v, size_t n)
{
	size_t len[4], total = 0, i;
	char *s, *p;

	for (i = 0; i < n; i++)
		total += len[i] = strlen(v[i]);
	s = kvet_arena_alloc(arena, total + 1);
	if (!s)
		return NULL;
	for (p = s, i = 0; i < n; p += len[i], i++)
		memcpy(p, v[i], len[i]);
	*p = '\0';
	return s;
}

static int subject_lists(const struct kvet_rbac *r, const char *sa_ns,
			 const char *sa_name, bool everyone,
			 const struct binding_list **out)
{
	struct kvet_slice parts[3];
	char *group, *user;
	int n = 0;

	parts[0] = kvet_slice_of(TAG_SA);
	parts[1] = kvet_slice_of(sa_ns);
	parts[2] = kvet_slice_of(sa_name);
	out[n++] = kvet_hash_get(&r->by_subject, parts, 3);
	group = joined(r->arena,
		       (const char *const[]){ "system:serviceaccounts:", sa_ns },
		       2);
	user = joined(r->arena,
		      (const char *const[]){ "system:serviceaccount:", sa_ns,
					     ":", sa_name }, 4);
	if (!group || !user)
		return -1;
	parts[0] = kvet_slice_of(TAG_GROUP);
	parts[1] = kvet_slice_of(group);
	out[n++] = kvet_hash_get(&r->by_subject, parts, 2);
	if (everyone) {
		parts[1] = kvet_slice_of("system:serviceaccounts");
		out[n++] = kvet_hash_get(&r->by_subject, parts, 2);
		parts[1] = kvet_slice_of("system:authenticated");
		out[n++] = kvet_hash_get(&r->by_subject, parts, 2);
	}
	parts[0] = kvet_slice_of(TAG_USER);
	parts[1] = kvet_slice_of(user);
	out[n++] = kvet_hash_get(&r->by_subject, parts, 2);
	return n;
}

int kvet_rbac_lease_access(const struct kvet_rbac *r, const char *sa_ns,
			   const char *sa_name, const char *ns,
			   struct kvet_lease_access *out)
{
	const struct binding_list *lists[5];
	int i, n;

	memset(out, 0, sizeof(*out));
	n = subject_lists(r, sa_ns, sa_name, true, lists);
	for (i = 0; i < n; i++)
		grant(r, lists[i], ns, out);
	return n < 0 ? -1 : 0;
}

/*
 * The first item of @list that names a stored object other than an
 * event (or "*"), or NULL. Creating a review (tokenreviews,
 * subjectaccessreviews and the like, as kube-rbac-proxy does) stores
 * nothing: it is a question to the API server, not a write.
 */
static const struct kvet_node *not_events(const struct kvet_node *list)
{
	static const char *const asks[] = {
		"events", "tokenreviews", "subjectaccessreviews",
		"localsubjectaccessreviews", "selfsubjectaccessreviews",
		"selfsubjectrulesreviews", "selfsubjectreviews",
	};
	uint32_t i;
	size_t k;

	for (i = 0; kvet_node_is_seq(list) && i < list->len; i++) {
		if (!kvet_node_is_string(&list->u.items[i]))
			continue;
		for (k = 0; k < sizeof(asks) / sizeof(asks[0]); k++)
			if (kvet_node_eq(&list->u.items[i], asks[k]))
				break;
		if (k == sizeof(asks) / sizeof(asks[0]))
			return &list->u.items[i];
	}
	return NULL;
}

/* The first of @verbs' items among @want (NULL-terminated), or "*". */
static const struct kvet_node *verb_in(const struct kvet_node *verbs,
				       const char *const *want)
{
	uint32_t i;
	size_t k;

	for (i = 0; kvet_node_is_seq(verbs) && i < verbs->len; i++) {
		if (kvet_node_text_eq(&verbs->u.items[i], "*"))
			return &verbs->u.items[i];
		for (k = 0; want[k]; k++)
			if (kvet_node_text_eq(&verbs->u.items[i], want[k]))
				return &verbs->u.items[i];
	}
	return NULL;
}

static void controller_rules(const struct kvet_object *role,
			     struct kvet_controller_access *out)
{
	static const char *const watch[] = { "watch", NULL };
	static const char *const write[] = { "create", "update", "patch",
					     NULL };
	const struct kvet_node *rules = kvet_node_get(role->root, "rules");
	const struct kvet_node *res, *verbs, *v, *item, *names;
	uint32_t i;

	for (i = 0; kvet_node_is_seq(rules) && i < rules->len; i++) {
		res = kvet_node_get(&rules->u.items[i], "resources");
		verbs = kvet_node_get(&rules->u.items[i], "verbs");
		if (!kvet_node_is_seq(res) || !res->len)
			continue;	/* nonResourceURLs */
		if (!out->watch_role && verb_in(verbs, watch) &&
		    kvet_node_is_string(&res->u.items[0])) {
			out->watch_role = role;
			out->watch_resource = &res->u.items[0];
		}
		/* writing objects named in advance (resourceNames) keeps
		 * the program's own state, as a dashboard's key Secret:
		 * a controller writes objects it learns by watching */
		v = verb_in(verbs, write);
		names = kvet_node_get(&rules->u.items[i], "resourceNames");
		item = v && !(kvet_node_is_seq(names) && names->len) ?
			       not_events(res) : NULL;
		if (!out->write_role && item) {
			out->write_role = role;
			out->write_verb = v;
			out->write_resource = item;
		}
	}
}

static void controller_grant(const struct kvet_rbac *r,
			     const struct binding_list *l,
			     struct kvet_controller_access *out)
{
	const struct kvet_object *role;
	size_t i;

	for (i = 0; l && i < l->n; i++) {
		role = bound_role(r, l->v[i], l->v[i]->namespace);
		if (role)
			controller_rules(role, out);
	}
}

int kvet_rbac_controller_access(const struct kvet_rbac *r, const char *sa_ns,
				const char *sa_name,
				struct kvet_controller_access *out)
{
	const struct binding_list *lists[5];
	int i, n;

	memset(out, 0, sizeof(*out));
	/* grants to every account do not make one a controller */
	n = subject_lists(r, sa_ns, sa_name, false, lists);
	for (i = 0; i < n; i++)
		controller_grant(r, lists[i], out);
	return n < 0 ? -1 : 0;
}

struct kvet_slice kvet_workload_service_account(const struct kvet_workload *wl)
{
	const struct kvet_node *n = kvet_node_get(wl->pod_spec,
						  "serviceAccountName");

	if (!kvet_node_is_string(n) || !n->len)
		n = kvet_node_get(wl->pod_spec, "serviceAccount");
	if (kvet_node_is_string(n) && n->len)
		return kvet_string_of(n);
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

const struct kvet_node *
kvet_workload_service_account_at(const struct kvet_workload *wl)
{
	const struct kvet_pair *p = kvet_node_get_pair(wl->pod_spec,
						       "serviceAccountName");

	if (!p)
		p = kvet_node_get_pair(wl->pod_spec, "serviceAccount");
	return p ? &p->key : NULL;
}

/* ---- who may rewrite webhook configurations ---- */

#define ADMISSION_GROUP "admissionregistration.k8s.io"

static bool role_grants(const struct kvet_object *role, const char *resource)
{
	const struct kvet_node *rules = kvet_node_get(role->root, "rules");
	const struct kvet_node *r;
	uint32_t i;

	for (i = 0; kvet_node_is_seq(rules) && i < rules->len; i++) {
		r = &rules->u.items[i];
		if (list_has(kvet_node_get(r, "apiGroups"), ADMISSION_GROUP) &&
		    list_has(kvet_node_get(r, "resources"), resource) &&
		    (list_has(kvet_node_get(r, "verbs"), "update") ||
		     list_has(kvet_node_get(r, "verbs"), "patch")))
			return true;
	}
	return false;
}

/*
 * An aggregated ClusterRole gets the rules of every ClusterRole its
 * clusterRoleSelectors match (one level: the controller fills it in from
 * the roles of the cluster, here those of the input).
 */
static bool aggregate_matches(struct kvet_arena *arena,
			      const struct kvet_graph *g,
			      const struct kvet_object *role,
			      bool (*grants)(const struct kvet_object *role,
					     const void *ctx),
			      const void *ctx)
{
	const struct kvet_node *sels = kvet_node_path(role->root,
						      "aggregationRule",
						      "clusterRoleSelectors",
						      NULL);
	struct kvet_object *const *roles;
	struct kvet_selector sel;
	struct kvet_labels labels;
	size_t i, cnt;
	uint32_t k;

	if (!kvet_node_is_seq(sels))
		return false;
	roles = kvet_graph_kind(g, RBAC_GROUP, "ClusterRole", &cnt);
	for (k = 0; k < sels->len; k++) {
		/* a null selector matches nothing, {} everything */
		if (kvet_selector_parse(arena, &sels->u.items[k],
					KVET_SEL_FIELD_AFFINITY_TERM, &sel))
			return false;
		for (i = 0; i < cnt; i++) {
			if (roles[i] == role)
				continue;
			if (kvet_labels_from_node(arena,
						  kvet_node_path(roles[i]->root,
								 "metadata",
								 "labels", NULL),
						  &labels))
				return false;
			if (kvet_selector_matches(&sel, &labels, NULL) &&
			    grants(roles[i], ctx))
				return true;
		}
	}
	return false;
}

static bool grants_resource(const struct kvet_object *role, const void *ctx)
{
	return role_grants(role, ctx);
}

static bool aggregate_grants(struct kvet_arena *arena,
			     const struct kvet_graph *g,
			     const struct kvet_object *role,
			     const char *resource)
{
	return aggregate_matches(arena, g, role, grants_resource, resource);
}

static bool names_account(const struct kvet_node *subj, const char *ns,
			  struct kvet_slice sa)
{
	const struct kvet_node *kind = kvet_node_get(subj, "kind");
	const struct kvet_node *name = kvet_node_get(subj, "name");
	char buf[512];

	if (kvet_node_text_eq(kind, "ServiceAccount"))
		return kvet_node_is_string(name) && name->len == sa.len &&
		       !memcmp(name->u.str, sa.s, sa.len) &&
		       kvet_node_text_eq(kvet_node_get(subj, "namespace"), ns);
	if (kvet_node_text_eq(kind, "Group")) {
		snprintf(buf, sizeof(buf), "system:serviceaccounts:%s", ns);
		return kvet_node_text_eq(name, "system:serviceaccounts") ||
		       kvet_node_text_eq(name, buf);
	}
	if (kvet_node_text_eq(kind, "User")) {
		snprintf(buf, sizeof(buf), "system:serviceaccount:%s:%.*s", ns,
			 (int)sa.len, sa.s);
		return kvet_node_text_eq(name, buf);
	}
	return false;
}

/* The ClusterRoleBindings whose ClusterRole may update or patch
 * @resource, found once, so that accounts are then matched against a
 * handful of bindings. */
static int granting_bindings(struct kvet_arena *arena,
			     const struct kvet_graph *g, const char *resource,
			     struct kvet_config_writers *w)
{
	struct kvet_object *const *crbs;
	const struct kvet_object *role;
	const struct kvet_node *ref;
	char rname[256];
	size_t j, cnt;

	crbs = kvet_graph_kind(g, RBAC_GROUP, "ClusterRoleBinding", &cnt);
	w->crbs = kvet_arena_array(arena, cnt + 1, sizeof(*w->crbs));
	if (!w->crbs)
		return -1;
	for (j = 0; j < cnt; j++) {
		ref = kvet_node_path(crbs[j]->root, "roleRef", "name", NULL);
		if (!kvet_node_is_string(ref) || ref->len >= sizeof(rname))
			continue;
		memcpy(rname, ref->u.str, ref->len);
		rname[ref->len] = '\0';
		role = kvet_graph_find(g, RBAC_GROUP, "ClusterRole", "", rname);
		if (role && (role_grants(role, resource) ||
			     aggregate_grants(arena, g, role, resource)))
			w->crbs[w->n_crbs++] = crbs[j];
	}
	return 0;
}

bool kvet_config_writers_bind(const struct kvet_config_writers *w,
			      const struct kvet_workload *wl)
{
	struct kvet_slice sa = kvet_workload_service_account(wl);
	const struct kvet_node *subjs;
	size_t j;
	uint32_t k;

	for (j = 0; j < w->n_crbs; j++) {
		subjs = kvet_node_get(w->crbs[j]->root, "subjects");
		for (k = 0; kvet_node_is_seq(subjs) && k < subjs->len; k++)
			if (names_account(&subjs->u.items[k],
					  wl->obj->namespace, sa))
				return true;
	}
	return false;
}

bool kvet_config_writers_bind_any(const struct kvet_config_writers *w,
				  const struct kvet_workload *const *wls,
				  size_t n)
{
	size_t i;

	for (i = 0; w->n_crbs && i < n; i++)
		if (kvet_config_writers_bind(w, wls[i]))
			return true;
	return false;
}

static int find_jobs(struct kvet_arena *arena, const struct kvet_graph *g,
		     struct kvet_config_writers *w)
{
	static const char *const kinds[] = { "Job", "CronJob" };
	struct kvet_object *const *objs;
	const struct kvet_workload *wl;
	size_t i, k, cnt, cap = 0;

	for (k = 0; w->n_crbs && k < 2; k++) {
		objs = kvet_graph_kind(g, "batch", kinds[k], &cnt);
		for (i = 0; i < cnt; i++) {
			wl = kvet_graph_workload_of(g, objs[i]);
			if (!wl || wl->obj != objs[i] ||
			    !kvet_config_writers_bind(w, wl))
				continue;
			if (!kvet_arena_grow(arena, &w->jobs, &cap, w->n_jobs,
					     sizeof(*w->jobs)))
				return -1;
			w->jobs[w->n_jobs++] = wl;
		}
	}
	return 0;
}

/* The writers per configuration kind, each found on first use. */
static const char *const config_resources[] = {
	"validatingwebhookconfigurations",
	"mutatingwebhookconfigurations",
	"customresourcedefinitions",
};

struct config_writers {
	struct kvet_config_writers w[3];
	bool done[3];
};

static void *config_writers_build(struct kvet_run *run)
{
	return kvet_arena_alloc(kvet_run_arena(run),
				sizeof(struct config_writers));
}

const struct kvet_config_writers *
kvet_run_config_writers(struct kvet_run *run, const char *resource)
{
	struct config_writers *cw = kvet_run_index(run, KVET_RUN_CONFIG_WRITERS,
						   config_writers_build, NULL);
	struct kvet_arena *arena = kvet_run_arena(run);
	const struct kvet_graph *g = kvet_run_graph(run);
	size_t r;

	for (r = 0; r < 3 && strcmp(config_resources[r], resource); r++)
		;
	if (!cw || r == 3)
		return NULL;
	if (!cw->done[r]) {
		if (granting_bindings(arena, g, resource, &cw->w[r]) ||
		    find_jobs(arena, g, &cw->w[r]))
			return NULL;
		cw->done[r] = true;
	}
	return &cw->w[r];
}

/* ---- who may create or rewrite a webhook configuration, by name ---- */

static const char *const admission_kinds[][2] = {
	{ "validatingwebhookconfigurations", "ValidatingWebhookConfiguration" },
	{ "mutatingwebhookconfigurations", "MutatingWebhookConfiguration" },
};

/* Do @names (a rule's resourceNames) let the rule reach @name, or with
 * @name NULL a configuration of kind @kind that the input lacks? */
static bool names_reach(const struct kvet_graph *g, const struct kvet_node *names,
			const char *kind, const char *name)
{
	char buf[256];
	uint32_t i;

	if (!kvet_node_is_seq(names) || !names->len)
		return true;
	if (name)
		return list_has(names, name);
	for (i = 0; i < names->len; i++) {
		const struct kvet_node *n = &names->u.items[i];

		if (!kvet_node_is_string(n) || n->len >= sizeof(buf))
			continue;
		memcpy(buf, n->u.str, n->len);
		buf[n->len] = '\0';
		if (!kvet_graph_find(g, ADMISSION_GROUP, kind, "", buf))
			return true;
	}
	return false;
}

static bool role_grants_named(const struct kvet_graph *g,
			      const struct kvet_object *role,
			      const char *resource, const char *kind,
			      const char *const *verbs, const char *name)
{
	const struct kvet_node *rules = kvet_node_get(role->root, "rules");
	const struct kvet_node *r;
	uint32_t i;
	size_t v;

	for (i = 0; kvet_node_is_seq(rules) && i < rules->len; i++) {
		r = &rules->u.items[i];
		if (!list_has(kvet_node_get(r, "apiGroups"), ADMISSION_GROUP) ||
		    !list_has(kvet_node_get(r, "resources"), resource))
			continue;
		for (v = 0; verbs[v]; v++)
			if (list_has(kvet_node_get(r, "verbs"), verbs[v]))
				break;
		if (verbs[v] &&
		    names_reach(g, kvet_node_get(r, "resourceNames"), kind, name))
			return true;
	}
	return false;
}

struct named_ask {
	const struct kvet_graph *g;
	const char *resource, *kind, *name;
	const char *const *verbs;
};

static bool grants_named(const struct kvet_object *role, const void *ctx)
{
	const struct named_ask *a = ctx;

	return role_grants_named(a->g, role, a->resource, a->kind, a->verbs,
				 a->name);
}

int kvet_config_grantees(struct kvet_arena *arena, const struct kvet_graph *g,
			 const char *resource, const char *const *verbs,
			 const char *name,
			 const struct kvet_workload ***out, size_t *n)
{
	struct named_ask ask = { g, resource, NULL, name, verbs };
	struct kvet_config_writers w = { NULL, 0, NULL, 0 };
	struct kvet_object *const *crbs;
	struct kvet_workload *const *wls;
	const struct kvet_object *role;
	const struct kvet_node *ref;
	const char *kind = NULL;
	char rname[256];
	size_t i, cnt, cap = 0;

	*out = NULL;
	*n = 0;
	for (i = 0; i < 2; i++)
		if (!strcmp(admission_kinds[i][0], resource))
			kind = admission_kinds[i][1];
	if (!kind)
		return 0;
	ask.kind = kind;
	crbs = kvet_graph_kind(g, RBAC_GROUP, "ClusterRoleBinding", &cnt);
	w.crbs = kvet_arena_array(arena, cnt + 1, sizeof(*w.crbs));
	if (!w.crbs)
		return -1;
	for (i = 0; i < cnt; i++) {
		ref = kvet_node_path(crbs[i]->root, "roleRef", "name", NULL);
		if (!kvet_node_is_string(ref) || ref->len >= sizeof(rname))
			continue;
		memcpy(rname, ref->u.str, ref->len);
		rname[ref->len] = '\0';
		role = kvet_graph_find(g, RBAC_GROUP, "ClusterRole", "", rname);
		if (role && (grants_named(role, &ask) ||
			     aggregate_matches(arena, g, role, grants_named,
					       &ask)))
			w.crbs[w.n_crbs++] = crbs[i];
	}
	if (!w.n_crbs)
		return 0;
	wls = kvet_graph_workloads(g, &cnt);
	for (i = 0; i < cnt; i++) {
		/* a Job writes once, at install: configurationPatchJobs; a
		 * Helm hook runs only around a release operation */
		if (wls[i]->kind == KVET_WL_JOB || wls[i]->kind == KVET_WL_CRONJOB ||
		    !kvet_object_runs(wls[i]->obj) ||
		    !kvet_config_writers_bind(&w, wls[i]))
			continue;
		if (!kvet_arena_grow(arena, out, &cap, *n, sizeof(**out)))
			return -1;
		(*out)[(*n)++] = wls[i];
	}
	return 0;
}

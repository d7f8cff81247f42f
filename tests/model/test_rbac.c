/* SPDX-License-Identifier: Apache-2.0 */
/* Lease RBAC for leader-election-without-lease-rbac: bindings by subject,
 * Roles and ClusterRoles. */
#include "tgraph.h"

#include "model/rbac.h"

#define RB_API "apiVersion: rbac.authorization.k8s.io/v1\n"

#define ROLE(kind, ns, name, rules)                                         \
	RB_API "kind: " kind "\nmetadata: {name: " name ns "}\n"            \
	"rules: " rules "\n---\n"

#define BINDING(kind, ns, name, ref_kind, ref, subjects)                    \
	RB_API "kind: " kind "\nmetadata: {name: " name ns "}\n"            \
	"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: " ref_kind    \
	", name: " ref "}\nsubjects: " subjects "\n---\n"

#define LEASES_RW                                                           \
	"[{apiGroups: [coordination.k8s.io], resources: [leases],"          \
	" verbs: [get, list, watch, create, update, patch, delete]}]"

#define SA(ns, name) "{kind: ServiceAccount, name: " name ", namespace: " ns "}"

struct fixture {
	struct tgraph t;
	struct kvet_rbac *r;
};

static void setup(struct fixture *f, const char *yaml)
{
	f->t = tg_load(yaml, 0);
	f->r = kvet_rbac_create(&f->t.l->arena, f->t.g);
	assert_non_null(f->r);
}

static void teardown(struct fixture *f)
{
	kvet_rbac_destroy(f->r);
	tg_free(&f->t);
}

static struct kvet_lease_access access_of(struct fixture *f, const char *ns,
					  const char *sa, const char *in)
{
	struct kvet_lease_access a;

	assert_int_equal(kvet_rbac_lease_access(f->r, ns, sa, in, &a), 0);
	return a;
}

/* leader-election-without-lease-rbac's examples. */
static void role_in_election_namespace(void **state)
{
	struct kvet_lease_access a;
	struct fixture f;

	(void)state;
	setup(&f,
	      ROLE("Role", ", namespace: ops", "events-only",
		   "[{apiGroups: [\"\"], resources: [configmaps, events],"
		   " verbs: [\"*\"]}]")
	      BINDING("RoleBinding", ", namespace: ops", "weak", "Role",
		      "events-only", "[" SA("ops", "mgr") "]")
	      ROLE("Role", ", namespace: ops", "leases", LEASES_RW)
	      BINDING("RoleBinding", ", namespace: ops", "strong", "Role",
		      "leases", "[{kind: ServiceAccount, name: good}]"));
	a = access_of(&f, "ops", "mgr", "ops");
	assert_true(a.bound);
	assert_int_equal(a.verbs, 0);
	assert_null(a.binding);
	assert_string_equal(a.subject_binding->name, "weak");
	/* a subject without namespace takes the RoleBinding's */
	a = access_of(&f, "ops", "good", "ops");
	assert_true(a.bound);
	assert_int_equal(a.verbs, KVET_LEASE_ALL);
	assert_string_equal(a.binding->name, "strong");
	assert_string_equal(a.role->name, "leases");
	/* a RoleBinding grants only in its own namespace */
	a = access_of(&f, "ops", "good", "kube-system");
	assert_true(a.bound);
	assert_int_equal(a.verbs, 0);
	/* no RBAC object names this account: out of scope */
	a = access_of(&f, "ops", "other", "ops");
	assert_false(a.bound);
	assert_null(a.subject_binding);
	teardown(&f);
}

static void cluster_roles_and_wildcards(void **state)
{
	struct kvet_lease_access a;
	struct fixture f;

	(void)state;
	setup(&f,
	      ROLE("ClusterRole", "", "get-leases",
		   "[{apiGroups: [\"*\"], resources: [leases], verbs: [get]}]")
	      ROLE("ClusterRole", "", "write-any",
		   "[{apiGroups: [coordination.k8s.io], resources: [\"*\"],"
		   " verbs: [create, update]}]")
	      ROLE("ClusterRole", "", "wrong-group",
		   "[{apiGroups: [\"\"], resources: [leases], verbs: [\"*\"]}]")
	      ROLE("ClusterRole", "", "aggregated",
		   "[]\naggregationRule: {clusterRoleSelectors: [{matchLabels:"
		   " {x: z}}]}")
	      BINDING("ClusterRoleBinding", "", "crb", "ClusterRole",
		      "get-leases", "[" SA("ops", "a") "]")
	      /* a RoleBinding may bind a ClusterRole within its namespace */
	      BINDING("RoleBinding", ", namespace: infra", "rb", "ClusterRole",
		      "write-any", "[" SA("ops", "a") "]")
	      BINDING("ClusterRoleBinding", "", "wrong", "ClusterRole",
		      "wrong-group", "[" SA("ops", "b") "]")
	      BINDING("ClusterRoleBinding", "", "agg", "ClusterRole",
		      "aggregated", "[" SA("ops", "c") "]")
	      /* a ClusterRoleBinding cannot refer to a Role */
	      ROLE("Role", ", namespace: ops", "r", LEASES_RW)
	      BINDING("ClusterRoleBinding", "", "bad-ref", "Role", "r",
		      "[" SA("ops", "d") "]")
	      BINDING("ClusterRoleBinding", "", "group", "ClusterRole",
		      "write-any", "[{kind: Group, name: \"system:serviceaccounts:grp\"}]")
	      BINDING("ClusterRoleBinding", "", "user", "ClusterRole",
		      "get-leases", "[{kind: User, name: \"system:serviceaccount:dev:e\"}]"));
	/* verbs add up over bindings */
	a = access_of(&f, "ops", "a", "infra");
	assert_int_equal(a.verbs, KVET_LEASE_ALL);
	assert_string_equal(a.binding->name, "rb");
	/* the RoleBinding is in infra: only the ClusterRoleBinding here */
	a = access_of(&f, "ops", "a", "ops");
	assert_int_equal(a.verbs, KVET_LEASE_GET);
	assert_string_equal(a.binding->name, "crb");
	a = access_of(&f, "ops", "b", "ops");
	assert_true(a.bound);
	assert_int_equal(a.verbs, 0);
	assert_int_equal(access_of(&f, "ops", "c", "x").verbs, KVET_LEASE_ALL);
	a = access_of(&f, "ops", "d", "ops");
	assert_true(a.bound);
	assert_int_equal(a.verbs, 0);
	/* the service-account group of grp covers every account there */
	a = access_of(&f, "grp", "zzz", "ops");
	assert_int_equal(a.verbs, KVET_LEASE_CREATE | KVET_LEASE_UPDATE);
	a = access_of(&f, "dev", "e", "ops");
	assert_int_equal(a.verbs, KVET_LEASE_GET);
	assert_false(access_of(&f, "dev", "f", "ops").bound);
	teardown(&f);
}

static void service_account_of_workload(void **state)
{
	struct fixture f;

	(void)state;
	setup(&f,
	      "apiVersion: v1\nkind: Pod\nmetadata: {name: a, namespace: ops}\n"
	      "spec: {serviceAccountName: mgr}\n---\n"
	      "apiVersion: v1\nkind: Pod\nmetadata: {name: b, namespace: ops}\n"
	      "spec: {serviceAccount: old}\n---\n"
	      "apiVersion: v1\nkind: Pod\nmetadata: {name: c, namespace: ops}\n"
	      "spec: {}\n");
	assert_true(kvet_slice_eq0(kvet_workload_service_account(
		tg_wl(&f.t, "", "Pod", "ops", "a")), "mgr"));
	assert_true(kvet_slice_eq0(kvet_workload_service_account(
		tg_wl(&f.t, "", "Pod", "ops", "b")), "old"));
	assert_true(kvet_slice_eq0(kvet_workload_service_account(
		tg_wl(&f.t, "", "Pod", "ops", "c")), "default"));
	teardown(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(role_in_election_namespace),
		cmocka_unit_test(cluster_roles_and_wildcards),
		cmocka_unit_test(service_account_of_workload),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_RBAC_H
#define KVET_MODEL_RBAC_H

#include <stdbool.h>

#include "base/arena.h"
#include "model/graph.h"
#include "model/labels.h"
#include "model/object.h"
#include "model/workload.h"

/*
 * Just enough RBAC for rule leader-election-without-lease-rbac: may a
 * ServiceAccount get, create and update coordination.k8s.io Leases in a
 * namespace? Bindings are indexed by subject once per run.
 */
struct kvet_rbac;

/**
 * kvet_rbac_create() - index every RoleBinding and ClusterRoleBinding of
 * the graph by subject (ServiceAccount, the service-account groups, and
 * the service-account user name).
 * @arena: the run's arena.
 * @g: the graph; borrowed for the index's lifetime.
 *
 * Returns: an index freed with kvet_rbac_destroy(), or NULL when out of
 * memory.
 */
struct kvet_rbac *kvet_rbac_create(struct kvet_arena *arena,
				   const struct kvet_graph *g);

void kvet_rbac_destroy(struct kvet_rbac *r);

/* The verbs leader election needs on its Lease. */
enum kvet_lease_verbs {
	KVET_LEASE_GET = 1u << 0,
	KVET_LEASE_CREATE = 1u << 1,
	KVET_LEASE_UPDATE = 1u << 2,
	KVET_LEASE_ALL = (1u << 3) - 1,
};

struct kvet_lease_access {
	bool bound;			/* some binding names the account */
	unsigned int verbs;		/* enum kvet_lease_verbs granted in
					 * the namespace, summed over every
					 * applicable binding */
	const struct kvet_object *binding;	/* the first granting one */
	const struct kvet_object *role;		/* and its role */
	const struct kvet_object *subject_binding;	/* the first binding
							 * naming the account */
};

/**
 * kvet_rbac_lease_access() - what ServiceAccount @sa_ns/@sa_name may do
 * with Leases in @ns: through RoleBindings in @ns (to a Role in @ns or a
 * ClusterRole) and ClusterRoleBindings (to a ClusterRole). RBAC is
 * additive, so verbs of several roles add up. Rules restricted by
 * resourceNames count (the Lease's name is not known statically), and so
 * does an aggregated ClusterRole, whose rules the cluster fills in.
 * @out: the result.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_rbac_lease_access(const struct kvet_rbac *r, const char *sa_ns,
			   const char *sa_name, const char *ns,
			   struct kvet_lease_access *out);

/*
 * The structural signature of a controller (docs/model.md 1.12 M6): its
 * ServiceAccount may watch some resource and create, update or patch
 * some resource other than events (creating a review such as a
 * tokenreview stores nothing, and a rule limited by resourceNames writes
 * the program's own objects, not ones it reconciles). The evidence names
 * the first role and rule items that grant each.
 */
struct kvet_controller_access {
	const struct kvet_object *watch_role;	/* NULL: no watch granted */
	const struct kvet_node *watch_resource;	/* resources[] item */
	const struct kvet_object *write_role;	/* NULL: no write granted */
	const struct kvet_node *write_verb;	/* verbs[] item */
	const struct kvet_node *write_resource;	/* resources[] item */
};

/**
 * kvet_rbac_controller_access() - what ServiceAccount @sa_ns/@sa_name
 * may watch and write, through any RoleBinding (to its Role or a
 * ClusterRole) or ClusterRoleBinding naming the account, its user name
 * or its namespace's service-account group. Grants to every account
 * (system:serviceaccounts, system:authenticated) say nothing about this
 * one and are left out, as are aggregated ClusterRoles, whose rules the
 * cluster fills in.
 * @out: the evidence; both roles NULL when nothing is granted.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_rbac_controller_access(const struct kvet_rbac *r, const char *sa_ns,
				const char *sa_name,
				struct kvet_controller_access *out);

/* Both a watch and a write are granted (M6). */
static inline bool
kvet_controller_access_is(const struct kvet_controller_access *a)
{
	return a->watch_role && a->write_role;
}

/**
 * kvet_workload_service_account() - spec.serviceAccountName of the pod
 * template (or the deprecated serviceAccount), else "default".
 */
struct kvet_slice kvet_workload_service_account(const struct kvet_workload *wl);

/* The key of serviceAccountName (else serviceAccount) in the pod
 * template, or NULL when neither is set. */
const struct kvet_node *
kvet_workload_service_account_at(const struct kvet_workload *wl);

struct kvet_run;

/* The run's subject index, built on first use; NULL when out of memory. */
const struct kvet_rbac *kvet_run_rbac(struct kvet_run *run);

/*
 * Who may rewrite a webhook configuration (rule
 * webhook-ca-bundle-unverifiable): the ClusterRoleBindings whose
 * ClusterRole may update or patch the configuration's kind (webhook
 * configurations and CRDs are cluster-scoped, so only a
 * ClusterRoleBinding to a ClusterRole grants that), and the Jobs and
 * CronJobs they bind: certificate generators such as ingress-nginx's
 * kube-webhook-certgen "patch" Job, which write caBundle at install time.
 */
struct kvet_config_writers {
	const struct kvet_object **crbs;	/* the granting bindings */
	size_t n_crbs;
	const struct kvet_workload **jobs;	/* Jobs, CronJobs they bind */
	size_t n_jobs;
};

/**
 * kvet_run_config_writers() - the writers of @resource
 * ("validatingwebhookconfigurations", "mutatingwebhookconfigurations" or
 * "customresourcedefinitions"), found once per run: every entry of a
 * large dump asks the same question.
 * Returns: the writers, or NULL when out of memory.
 */
const struct kvet_config_writers *
kvet_run_config_writers(struct kvet_run *run, const char *resource);

/* Does one of the writers' bindings name @wl's ServiceAccount (as the
 * account, its namespace's group, all service accounts, or its user)? */
bool kvet_config_writers_bind(const struct kvet_config_writers *w,
			      const struct kvet_workload *wl);

/* ... the ServiceAccount of one of @wls (a webhook's backend)? */
bool kvet_config_writers_bind_any(const struct kvet_config_writers *w,
				  const struct kvet_workload *const *wls,
				  size_t n);

/**
 * kvet_config_grantees() - the running workloads (not Jobs or CronJobs)
 * whose ServiceAccount a ClusterRoleBinding in the input binds to a
 * ClusterRole that grants one of @verbs (NULL-terminated) on @resource
 * of admissionregistration.k8s.io ("validatingwebhookconfigurations" or
 * "mutatingwebhookconfigurations"), in workload order.
 * @name: the configuration asked about: a rule counts when its
 *        resourceNames are absent, empty or include @name. NULL: any
 *        configuration but those of the input, so a rule counts when its
 *        resourceNames are absent or empty or name one the input lacks
 *        (a configuration created at run time).
 * Returns: 0, or -1 when out of memory.
 */
int kvet_config_grantees(struct kvet_arena *arena, const struct kvet_graph *g,
			 const char *resource, const char *const *verbs,
			 const char *name,
			 const struct kvet_workload ***out, size_t *n);

#endif

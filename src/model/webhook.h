/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_WEBHOOK_H
#define KVET_MODEL_WEBHOOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/graph.h"
#include "model/object.h"
#include "model/selector.h"
#include "model/workload.h"

/*
 * Webhook entries and their backends (docs/model.md 1.10): every entry
 * of a Validating/MutatingWebhookConfiguration, every CRD conversion
 * webhook, and every APIService backed by a Service, resolved once per run
 * to the workloads that serve them.
 */
enum kvet_webhook_source {
	KVET_WEBHOOK_VALIDATING,	/* ValidatingWebhookConfiguration */
	KVET_WEBHOOK_MUTATING,		/* MutatingWebhookConfiguration */
	KVET_WEBHOOK_CONVERSION,	/* a CRD's conversion webhook */
};

enum kvet_failure_policy {
	KVET_FAILURE_FAIL,
	KVET_FAILURE_IGNORE,
	KVET_FAILURE_INVALID,	/* neither: the API server rejects it */
};

enum kvet_backend_state {
	KVET_BACKEND_NONE,	/* neither service nor url */
	KVET_BACKEND_URL,	/* clientConfig.url: no resolvable backend */
	KVET_BACKEND_MISSING,	/* the Service is not in the input */
	KVET_BACKEND_EXTERNAL,	/* an ExternalName Service */
	KVET_BACKEND_WORKLOADS,	/* resolved to B (possibly empty) */
	KVET_BACKEND_APISERVER,	/* default/kubernetes, absent from the input:
				 * the API servers, in every cluster */
};

/* clientConfig.service, or an APIService's spec.service. */
struct kvet_service_ref {
	const char *namespace;		/* "" when absent */
	const char *name;		/* "" when absent */
	const char *path;		/* NULL when absent */
	long long port;			/* effective: port, or 443 */
	const struct kvet_node *node;	/* the service mapping */
	const struct kvet_node *port_node;	/* NULL when defaulted */
};

/*
 * Where requests go. B is the workloads of the Service's namespace whose
 * pods the Service selector selects: template labels, plus the runtime
 * labels of 1.6 (a selector on statefulset.kubernetes.io/pod-name picks
 * a StatefulSet). Counts follow 1.4 and 1.10: N_min and N_max summed
 * over B; a DaemonSet whose count only a dump knows contributes 2 and
 * sets at_least; Jobs and CronJobs contribute 0.
 */
struct kvet_backend {
	enum kvet_backend_state state;
	const struct kvet_object *service;	/* the Service, when found */
	const struct kvet_workload *const *wls;	/* B, in workload order */
	size_t n_wls;
	long long n_min;		/* N_min(B) */
	long long n_max;		/* N_max(B) */
	bool at_least;			/* the counts are lower bounds */
};

/* One webhook entry; plain data in the run's arena. */
struct kvet_webhook {
	enum kvet_webhook_source source;
	const struct kvet_object *obj;	/* the configuration or the CRD */
	const char *id;			/* <kind>/<config>#<webhook-name> */
	const char *name;		/* webhooks[].name; the CRD's name */
	uint32_t index;			/* place in webhooks[] */
	const struct kvet_node *node;	/* the webhooks[] item, or the CRD's
					 * spec.conversion */
	bool v1beta1;			/* apiVersion .../v1beta1 */
	enum kvet_failure_policy failure_policy;	/* effective */
	const struct kvet_node *failure_policy_node;	/* NULL: implicit */
	const struct kvet_node *client_config;
	bool has_service;
	struct kvet_service_ref service;
	const struct kvet_node *url;	/* clientConfig.url, or NULL */
	struct kvet_backend backend;
	/* what it intercepts (1.11); unset for conversion webhooks */
	const struct kvet_node *rules;
	struct kvet_selector namespace_selector;
	struct kvet_selector object_selector;
	bool match_equivalent;		/* matchPolicy Equivalent */
	const struct kvet_node *match_conditions;	/* NULL when absent */
	/* conversion webhooks: the CRD's group and plural */
	const char *crd_group;
	const char *crd_plural;
};

/* An APIService served by a Service in the cluster (spec.service set). */
struct kvet_apiservice {
	const struct kvet_object *obj;
	struct kvet_service_ref service;
	struct kvet_backend backend;
};

/* The per-run index: entries, APIServices, and who backs what. */
struct kvet_webhooks;

/**
 * kvet_webhooks_create() - read every webhook entry and APIService of the
 * graph and resolve their backends, in one pass over the objects.
 * @arena: the run's arena: entries, backends and lists go here.
 * @g: the graph; borrowed for the index's lifetime.
 *
 * Returns: an index freed with kvet_webhooks_destroy(), or NULL when out
 * of memory.
 */
struct kvet_webhooks *kvet_webhooks_create(struct kvet_arena *arena,
					   const struct kvet_graph *g);

/* Free what the arena does not own. NULL is fine. */
void kvet_webhooks_destroy(struct kvet_webhooks *whs);

/* Every webhook entry, in input order (conversion webhooks included). */
const struct kvet_webhook *const *
kvet_webhooks_entries(const struct kvet_webhooks *whs, size_t *n);

/* The entry whose webhooks[] item (or CRD spec.conversion) is @node, or
 * NULL: how a rule's value finds its entry again. */
const struct kvet_webhook *kvet_webhooks_entry_at(const struct kvet_webhooks *whs,
						  const struct kvet_node *node);

/* Every APIService with a spec.service, in input order. */
const struct kvet_apiservice *const *
kvet_webhooks_apiservices(const struct kvet_webhooks *whs, size_t *n);

/* The webhook entries @wl is a backend of; *@n is 0 for none. */
const struct kvet_webhook *const *
kvet_webhooks_backed_by(const struct kvet_webhooks *whs,
			const struct kvet_workload *wl, size_t *n);

/* The APIServices @wl is a backend of; *@n is 0 for none. */
const struct kvet_apiservice *const *
kvet_apiservices_backed_by(const struct kvet_webhooks *whs,
			   const struct kvet_workload *wl, size_t *n);

/* Add @wl's pods to N_min(B) and N_max(B): a DaemonSet counts 2 (a
 * cluster that runs webhooks has at least two nodes), a Job nothing. */
void kvet_backend_count(struct kvet_backend *b, const struct kvet_workload *wl);

const char *kvet_failure_policy_name(enum kvet_failure_policy fp);
const char *kvet_backend_state_name(enum kvet_backend_state state);

struct kvet_run;

/* The run's webhook entries and backends, built on first use; NULL when
 * out of memory. */
const struct kvet_webhooks *kvet_run_webhooks(struct kvet_run *run);

/**
 * kvet_webhooks_of() - the entries of @obj: its webhooks[] items, or a
 * CRD's spec.conversion, in that order.
 * @arena: where the list goes.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_webhooks_of(struct kvet_arena *arena, const struct kvet_webhooks *whs,
		     const struct kvet_object *obj,
		     const struct kvet_webhook ***out, size_t *n);

/**
 * kvet_webhooks_served_by() - the webhook configurations, CRDs and
 * APIServices @wl is a backend of, each object once (several entries of
 * one configuration are one object), entries first.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_webhooks_served_by(struct kvet_arena *arena,
			    const struct kvet_webhooks *whs,
			    const struct kvet_workload *wl,
			    const struct kvet_object ***out, size_t *n);

/* The resource RBAC names the entry's configuration kind by:
 * "validatingwebhookconfigurations", "mutatingwebhookconfigurations" or
 * "customresourcedefinitions". */
const char *kvet_webhook_config_resource(const struct kvet_webhook *wh);

/* ---- what the backend is and does (backend.c) ---- */

/**
 * kvet_webhook_backend() - the backend of @wh. When its Service is
 * missing from an input that has no Service at all (a dump of a few
 * kinds: Services were not exported), the backend is inferred from the
 * convention that charts name the Service after its workload: the
 * Deployment, StatefulSet or DaemonSet of that name in the Service's
 * namespace. An inferred backend is WORKLOADS without a Service.
 * @arena: where an inferred backend goes.
 * Returns: the backend (the entry's own when nothing is inferred, or
 * when memory runs out).
 */
const struct kvet_backend *kvet_webhook_backend(struct kvet_arena *arena,
						const struct kvet_graph *g,
						const struct kvet_webhook *wh);

/* Was @b inferred from a workload's name (kvet_webhook_backend())? */
bool kvet_backend_inferred(const struct kvet_backend *b);

/* A container (an init container only as a sidecar, restartPolicy
 * Always, Kubernetes 1.29) of some backend workload declares a port of
 * that name. */
bool kvet_backend_declares_port(const struct kvet_backend *b,
				struct kvet_slice name);

/* A backend workload mounts Secret @name (a secret or projected volume). */
bool kvet_backend_mounts_secret(const struct kvet_backend *b,
				struct kvet_slice name);

/**
 * kvet_backend_unspread() - B is not empty and every backend workload
 * lacks spreading (kvet_workload_lacks_spreading(), rule
 * multi-replica-without-spread).
 * @arena: where the terms are built.
 * Returns: 0 with @out set, or -1 when out of memory.
 */
int kvet_backend_unspread(struct kvet_arena *arena, const struct kvet_graph *g,
			  const struct kvet_backend *b, bool *out);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_INTERCEPT_H
#define KVET_MODEL_INTERCEPT_H

#include "load/node.h"
#include "model/graph.h"
#include "model/labels.h"
#include "model/selector.h"
#include "model/webhook.h"

/*
 * The interception predicate (docs/model.md 1.11): would the API server
 * call webhook entry E for this request?
 */

/* One admission request, as a rule poses it. Strings are NUL-terminated. */
struct kvet_request {
	const char *operation;		/* CREATE, UPDATE, DELETE, CONNECT */
	const char *group;		/* "" for the core group */
	const char *version;		/* "v1" */
	const char *resource;		/* plural: "pods" */
	const char *subresource;	/* "eviction"; "" or NULL for none */
	const char *namespace;		/* "" or NULL when cluster-scoped */
	const struct kvet_labels *labels;	/* the object's labels */
	const struct kvet_pod_runtime *runtime;	/* its runtime labels (1.6),
						 * or NULL */
};

/* The answer with the steps that decided it, for messages and positions. */
struct kvet_interception {
	enum kvet_match result;
	const struct kvet_node *rule;	/* the first matching rule, or NULL */
	enum kvet_match namespace_step;	/* step 2 */
	enum kvet_match object_step;	/* step 3 */
	bool conditions;		/* step 4: non-empty matchConditions */
};

/**
 * kvet_webhook_intercepts() - evaluate the four steps of 1.11.
 * @g: the graph, for the namespace's labels.
 * @wh: the entry.
 * @req: the request.
 * @out: the result and its steps; may be NULL.
 *
 * Rules match by operation, API group, version (any version of the
 * resource under matchPolicy Equivalent), resource and subresource with
 * their wildcards, and scope. The namespaceSelector is not applied to
 * cluster-scoped requests; an absent Namespace object gives ASSUMED
 * results (1.5). Requests for webhook configuration and admission policy
 * objects are never sent to webhooks. A CRD conversion webhook intercepts
 * every request for its CRD's resource.
 *
 * Returns: TRUE, FALSE, ASSUMED_TRUE, ASSUMED_FALSE or UNKNOWN, combined
 * with kvet_match_and().
 */
enum kvet_match kvet_webhook_intercepts(const struct kvet_graph *g,
					const struct kvet_webhook *wh,
					const struct kvet_request *req,
					struct kvet_interception *out);

/**
 * kvet_webhook_rule_matches() - step 1 for one item of rules[].
 * @rule: the RuleWithOperations mapping.
 * @equivalent: matchPolicy Equivalent: the version is not compared.
 * @req: the request.
 */
bool kvet_webhook_rule_matches(const struct kvet_node *rule, bool equivalent,
			       const struct kvet_request *req);

/**
 * kvet_webhook_rules_text() - what the first @max items of @wh's rules[]
 * intercept, for a message: each rule's operations, then its resources,
 * "CREATE UPDATE pods, services; DELETE deployments".
 * @arena: where the text goes; a part is left out when memory runs out.
 * Returns: the text, "" when the rules name no operation or resource.
 */
const char *kvet_webhook_rules_text(struct kvet_arena *arena,
				    const struct kvet_webhook *wh, size_t max);

/* A request namespace meaning "some namespace, whichever" (rule
 * webhook-intercepts-system-critical). */
#define KVET_ANY_NAMESPACE "*"

/**
 * kvet_webhook_intercepts_any() - kvet_webhook_intercepts(), where a
 * request namespace of KVET_ANY_NAMESPACE asks about some namespace:
 * step 2 is TRUE when a namespace without labels of its own matches,
 * ASSUMED_TRUE when only a labelled one could, FALSE when the selector
 * matches nothing. @out must not be NULL.
 */
enum kvet_match kvet_webhook_intercepts_any(const struct kvet_graph *g,
					    const struct kvet_webhook *wh,
					    const struct kvet_request *req,
					    struct kvet_interception *out);

/**
 * kvet_webhook_intercepts_critical() - does @wh intercept what a cluster
 * cannot do without: the creation or update of pods (in any namespace),
 * of nodes or namespaces, of the leases of kube-node-lease (heartbeats),
 * or of what the control plane and its add-ons write in kube-system
 * (leases, ConfigMaps, Secrets, ServiceAccounts, Endpoints and
 * EndpointSlices, Deployments, DaemonSets)? A message that
 * lists some of many entries names these first, so that the entry
 * whose outage stops the cluster is never one of the "and N more".
 * @g: the graph, for the namespaces' labels.
 * @wh: the entry.
 *
 * Returns: true when one such request is intercepted for certain, by
 * assumption or unless matchConditions say otherwise (TRUE, ASSUMED_TRUE
 * or UNKNOWN), as rule webhook-intercepts-system-critical counts them.
 */
bool kvet_webhook_intercepts_critical(const struct kvet_graph *g,
				      const struct kvet_webhook *wh);

#endif

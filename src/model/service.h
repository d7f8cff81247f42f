/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_SERVICE_H
#define KVET_MODEL_SERVICE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "model/graph.h"

/*
 * What selects what: the workloads a Service or a PodDisruptionBudget
 * selects (docs/model.md, "Selection"), and the objects that call a
 * Service (webhook configurations, CRD conversion, APIServices).
 */
struct kvet_run;

/* What a Service says about the pods behind it, read once. */
struct kvet_service {
	const struct kvet_object *obj;
	/* spec.selector; absent or empty selects nothing (the endpoints
	 * controller makes no endpoints for a Service without one) */
	struct kvet_selector selector;
	/* spec.type ExternalName: a DNS alias, no pods and no endpoints */
	bool external_name;
};

/**
 * kvet_service_parse() - read Service @svc.
 * @arena: where the selector goes.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_service_parse(struct kvet_arena *arena, const struct kvet_object *svc,
		       struct kvet_service *out);

/**
 * kvet_service_workloads() - the workloads of a Service's namespace
 * whose pods its selector selects, through the label index, in workload
 * order.
 * @arena: where the array goes.
 * @svc: a Service read by kvet_service_parse().
 * Returns: 0, or -1 when out of memory.
 */
int kvet_service_workloads(struct kvet_arena *arena,
			   const struct kvet_graph *g,
			   const struct kvet_service *svc,
			   const struct kvet_workload ***out, size_t *n);

/**
 * kvet_run_selected_by() - the workloads a PodDisruptionBudget or a
 * Service selects in its namespace.
 * @arena: where a Service's list goes (a PDB's is the run's).
 * Returns: 0; -2 when @obj is neither; -1 when out of memory.
 */
int kvet_run_selected_by(struct kvet_run *run, struct kvet_arena *arena,
			 const struct kvet_object *obj,
			 const struct kvet_workload *const **out, size_t *n);

/**
 * kvet_run_callers_of() - the webhook configurations, CRDs (conversion
 * webhooks) and APIServices whose clientConfig.service or spec.service
 * is Service @svc, each once, entries first.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_run_callers_of(struct kvet_run *run, struct kvet_arena *arena,
			const struct kvet_object *svc,
			const struct kvet_object ***out, size_t *n);

/**
 * kvet_service_ingresses() - the Ingresses of Service @svc's namespace
 * (networking.k8s.io, or the older extensions group) whose
 * spec.defaultBackend or a rule's path backend names @svc
 * (service.name, or serviceName before networking.k8s.io/v1), each once,
 * in input order.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_service_ingresses(struct kvet_arena *arena,
			   const struct kvet_graph *g,
			   const struct kvet_object *svc,
			   const struct kvet_object ***out, size_t *n);

/*
 * Service @namespace/@name is "default/kubernetes", which every cluster
 * has and whose endpoints are the API servers themselves (kube-apiserver's
 * endpoint reconciler writes them: pkg/controlplane/reconcilers).
 */
bool kvet_service_is_apiserver(const char *namespace, const char *name);

/* An Endpoints or EndpointSlice object of Service @svc is in the input,
 * or @svc is default/kubernetes (kvet_service_is_apiserver()): a Service
 * without a selector is served by hand-made endpoints. */
bool kvet_service_has_endpoints(const struct kvet_graph *g,
				const struct kvet_object *svc);

/**
 * kvet_object_selector() - the selector an object selects pods with: a
 * PodDisruptionBudget's or Service's spec.selector, or a workload's.
 * @arena: where a parsed selector goes.
 * @g: the graph, for workloads; may be NULL for the others.
 * Returns: 0 with @out set; -2 when @obj selects no pods; -3 when it
 * takes @g to know and @g is NULL; -1 when out of memory.
 */
int kvet_object_selector(struct kvet_arena *arena, const struct kvet_graph *g,
			 const struct kvet_object *obj,
			 struct kvet_selector *out);

/**
 * kvet_service_ports_declared_by() - does every port of Service @svc
 * target a port by its name (targetPort a string) that each of @wls
 * declares with the port's protocol (kvet_workload_declares_port())?
 * Such a Service reaches the same named endpoint on every workload it
 * spans: a metrics Service over a system's components.
 * Returns: false when @svc has no port, or @n is 0.
 */
bool kvet_service_ports_declared_by(const struct kvet_object *svc,
				    const struct kvet_workload *const *wls,
				    size_t n);

/* The item of Service @svc's spec.ports whose port is @port, or NULL. */
const struct kvet_node *kvet_service_port_item(const struct kvet_object *svc,
					       long long port);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kubernetes functions of CEL for RULES-CATALOGUE 1.10 and 1.11: webhook
 * entries, their backends and interception (rules E1-E9).
 *
 * An entry is the webhooks[] item of a Validating/MutatingWebhookConfiguration
 * or the spec.conversion of a CRD, as the input's own node, so a rule reads
 * e.failurePolicy or e.clientConfig.service.port and `at:` points there.
 * The functions find the model's entry again by that node
 * (kvet_webhooks_entry_at()).
 */
#include "rules/cel_k8s.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/intercept.h"
#include "model/rbac.h"
#include "model/spread.h"
#include "model/webhook.h"

#define ADMISSION_GROUP "admissionregistration.k8s.io"
#define RBAC_GROUP "rbac.authorization.k8s.io"

/* A namespace argument meaning "some namespace, whichever" (E6 (d)). */
#define ANY_NAMESPACE "*"

/* The entry behind @v, or NULL with an error value in @err. */
static const struct kvet_webhook *entry_arg(struct cel_eval *ev,
					    const struct cel_value *v,
					    const char *name,
					    struct cel_value *err)
{
	const struct kvet_webhooks *whs;
	const struct kvet_webhook *wh = NULL;

	if (!kvet_cel_graph(ev)) {
		*err = cel_k8s_no_graph(ev, name);
		return NULL;
	}
	whs = cel_k8s_webhooks(ev);
	if (!whs) {
		*err = cel_eval_errorf(ev, "out of memory");
		return NULL;
	}
	if (v->type == CEL_MAP && (v->flags & CEL_V_NODE) &&
	    !kvet_cel_object(v))
		wh = kvet_webhooks_entry_at(whs, v->u.node);
	if (!wh)
		*err = cel_eval_errorf(ev, "%s() needs a webhook entry (an item of webhookEntries()), not %s",
				       name, cel_type_name(v->type));
	return wh;
}

#define ENTRY(wh, i, name)						\
	struct cel_value err_;						\
	const struct kvet_webhook *wh = entry_arg(ev, &args[i], name, &err_); \
	if (!wh)							\
		return err_

static struct cel_value str_value(const char *s)
{
	return cel_string(s, strlen(s));
}

static struct cel_value entry_value(const struct kvet_webhook *wh)
{
	return cel_from_node(wh->node, wh->node);
}

/*
 * The backend of @wh. When its Service is missing from an input that has
 * no Service at all (a dump of a few kinds: Services were not exported),
 * the backend is inferred from the convention that charts name the
 * Service after its workload: the Deployment, StatefulSet or DaemonSet of
 * that name in the Service's namespace. An inferred backend is WORKLOADS
 * without a Service.
 */
static const struct kvet_backend *backend_of(struct cel_eval *ev,
					     const struct kvet_webhook *wh)
{
	static const char *const kinds[] = { "Deployment", "StatefulSet",
					     "DaemonSet" };
	const struct kvet_graph *g = kvet_cel_graph(ev);
	const struct kvet_workload **wls;
	const struct kvet_object *obj;
	const struct kvet_workload *wl;
	struct kvet_backend *b;
	size_t i, n_svc;

	if (wh->backend.state != KVET_BACKEND_MISSING || !wh->has_service)
		return &wh->backend;
	kvet_graph_kind(g, "", "Service", &n_svc);
	if (n_svc)
		return &wh->backend;
	b = kvet_arena_alloc(ev->env->scratch, sizeof(*b));
	wls = kvet_arena_array(ev->env->scratch, 3, sizeof(*wls));
	if (!b || !wls)
		return &wh->backend;
	memset(b, 0, sizeof(*b));
	for (i = 0; i < 3; i++) {
		obj = kvet_graph_find(g, "apps", kinds[i], wh->service.namespace,
				      wh->service.name);
		wl = obj ? kvet_graph_workload_of(g, obj) : NULL;
		if (!wl || wl->obj != obj)
			continue;
		wls[b->n_wls++] = wl;
		switch (wl->replicas.state) {
		case KVET_REPLICAS_KNOWN:
			b->n_min += wl->replicas.min;
			b->n_max += wl->replicas.max;
			break;
		case KVET_REPLICAS_UNKNOWN:
			b->n_min += 2;
			b->n_max += 2;
			b->at_least = true;
			break;
		case KVET_REPLICAS_EXCLUDED:
			break;
		}
	}
	if (!b->n_wls)
		return &wh->backend;
	b->state = KVET_BACKEND_WORKLOADS;
	b->wls = wls;
	return b;
}

static bool inferred(const struct kvet_backend *b)
{
	return b->state == KVET_BACKEND_WORKLOADS && !b->service;
}

/* ---- entries and failure policy ---- */

/* The object's entries, found by their nodes: its webhooks[] items, or
 * a CRD's spec.conversion. */
K8S_FN(fn_entries)
{
	const struct kvet_webhooks *whs;
	const struct kvet_node *hooks, *conv;
	const struct kvet_webhook *wh;
	struct cel_value v = { .type = CEL_LIST }, *items;
	size_t k = 0;
	uint32_t i, n_hooks;

	if (!kvet_cel_object(&args[0]))
		return cel_eval_errorf(ev, "webhookEntries() needs an object, not %s",
				       cel_type_name(args[0].type));
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "webhookEntries");
	whs = cel_k8s_webhooks(ev);
	if (!whs)
		return cel_eval_errorf(ev, "out of memory");
	hooks = kvet_node_get(kvet_cel_object(&args[0])->root, "webhooks");
	n_hooks = kvet_node_is_seq(hooks) ? hooks->len : 0;
	conv = kvet_node_path(kvet_cel_object(&args[0])->root, "spec",
			      "conversion", NULL);
	items = kvet_arena_array(ev->env->scratch, (size_t)n_hooks + 2,
				 sizeof(*items));
	if (!items)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; i < n_hooks; i++) {
		wh = kvet_webhooks_entry_at(whs, &hooks->u.items[i]);
		if (wh && wh->obj == kvet_cel_object(&args[0]))
			items[k++] = entry_value(wh);
	}
	wh = kvet_webhooks_entry_at(whs, conv);
	if (wh && wh->obj == kvet_cel_object(&args[0]))
		items[k++] = entry_value(wh);
	v.u.items = items;
	v.len = (uint32_t)k;
	return v;
}

K8S_FN(fn_webhook_id)
{
	ENTRY(wh, 0, "webhookId");
	return str_value(wh->id);
}

K8S_FN(fn_failure_policy)
{
	ENTRY(wh, 0, "effectiveFailurePolicy");
	if (wh->failure_policy == KVET_FAILURE_INVALID &&
	    kvet_node_is_scalar(wh->failure_policy_node))
		return cel_string(wh->failure_policy_node->u.str,
				  wh->failure_policy_node->len);
	return str_value(kvet_failure_policy_name(wh->failure_policy));
}

K8S_FN(fn_failure_implicit)
{
	ENTRY(wh, 0, "failurePolicyImplicit");
	return cel_bool(wh->source != KVET_WEBHOOK_CONVERSION &&
			!wh->failure_policy_node);
}

K8S_FN(fn_is_conversion)
{
	ENTRY(wh, 0, "isConversionWebhook");
	return cel_bool(wh->source == KVET_WEBHOOK_CONVERSION);
}

K8S_FN(fn_client_config)
{
	ENTRY(wh, 0, "clientConfig");
	return wh->client_config ? cel_from_node(wh->client_config, NULL)
				 : cel_null();
}

/* ---- backends ---- */

K8S_FN(fn_backend_state)
{
	static const char *const names[] = {
		[KVET_BACKEND_NONE] = "none",
		[KVET_BACKEND_URL] = "url",
		[KVET_BACKEND_MISSING] = "missing",
		[KVET_BACKEND_EXTERNAL] = "external",
		[KVET_BACKEND_WORKLOADS] = "workloads",
	};
	ENTRY(wh, 0, "backendState");
	const struct kvet_backend *b = backend_of(ev, wh);
	/* a url next to a service is invalid; the service is what kvet
	 * resolves */
	return str_value(inferred(b) ? "inferred" : names[b->state]);
}

K8S_FN(fn_service)
{
	ENTRY(wh, 0, "webhookService");
	const struct kvet_backend *b = backend_of(ev, wh);
	return b->service ? kvet_cel_from_object(b->service) : cel_null();
}

K8S_FN(fn_service_port)
{
	ENTRY(wh, 0, "servicePort");
	if (!wh->has_service)
		return cel_eval_errorf(ev, "servicePort(): %s has no clientConfig.service",
				       wh->id);
	return cel_int(wh->service.port);
}

/* The ServicePort of the entry's Service whose port is the entry's. */
K8S_FN(fn_service_port_entry)
{
	const struct kvet_node *ports;
	long long p;
	uint32_t i;
	ENTRY(wh, 0, "servicePortEntry");
	const struct kvet_backend *b = backend_of(ev, wh);

	if (!wh->has_service || !b->service)
		return cel_null();
	ports = kvet_node_path(b->service->root, "spec", "ports",
			       NULL);
	for (i = 0; kvet_node_is_seq(ports) && i < ports->len; i++)
		if (kvet_node_int(kvet_node_get(&ports->u.items[i], "port"), &p) &&
		    p == wh->service.port)
			return cel_from_node(&ports->u.items[i],
					     &ports->u.items[i]);
	return cel_null();
}

/* spec.selector of the entry's Service; {} when absent or no map. */
K8S_FN(fn_service_selector)
{
	const struct kvet_node *sel;
	struct cel_value empty = { .type = CEL_MAP };
	ENTRY(wh, 0, "serviceSelector");
	const struct kvet_backend *b = backend_of(ev, wh);

	if (!b->service)
		return empty;
	sel = kvet_node_path(b->service->root, "spec", "selector",
			     NULL);
	return kvet_node_is_map(sel) ? cel_from_node(sel, NULL) : empty;
}

K8S_FN(fn_backend_workloads)
{
	ENTRY(wh, 0, "backendWorkloads");
	const struct kvet_backend *b = backend_of(ev, wh);
	return cel_k8s_workload_list(ev, b->wls, b->n_wls);
}

K8S_FN(fn_backend_min)
{
	ENTRY(wh, 0, "backendMinReplicas");
	const struct kvet_backend *b = backend_of(ev, wh);
	return cel_int(b->n_min);
}

K8S_FN(fn_backend_max)
{
	ENTRY(wh, 0, "backendMaxReplicas");
	const struct kvet_backend *b = backend_of(ev, wh);
	return cel_int(b->n_max);
}

K8S_FN(fn_backend_at_least)
{
	ENTRY(wh, 0, "backendReplicasAtLeast");
	const struct kvet_backend *b = backend_of(ev, wh);
	return cel_bool(b->at_least);
}

/* One workload's share of N_min(B), as a message says it. */
static int describe_one(struct kvet_arena *a, char **out,
			const struct kvet_workload *wl)
{
	const struct kvet_replicas *r = &wl->replicas;
	const char *s;

	if (r->state == KVET_REPLICAS_UNKNOWN)
		s = kvet_arena_printf(a, "%s \"%s\" (one pod per node)",
				      wl->obj->kind, wl->obj->name);
	else if (r->state == KVET_REPLICAS_EXCLUDED)
		s = kvet_arena_printf(a, "%s \"%s\" (not long-running)",
				      wl->obj->kind, wl->obj->name);
	else if (r->hpa)
		s = kvet_arena_printf(a, "%s \"%s\" (N_min %lld: HPA \"%s\" minReplicas%s)",
				      wl->obj->kind, wl->obj->name, r->min,
				      r->hpa->obj->name,
				      r->hpa->min_node ? "" : " unset");
	else
		s = kvet_arena_printf(a, "%s \"%s\" (N_min %lld%s)",
				      wl->obj->kind, wl->obj->name, r->min,
				      r->spec_node || wl->kind == KVET_WL_POD ?
				      "" : ": replicas unset");
	if (!s)
		return -1;
	*out = (char *)s;
	return 0;
}

K8S_FN(fn_describe_backends)
{
	char *buf = NULL, *one;
	size_t i;
	ENTRY(wh, 0, "describeBackends");
	const struct kvet_backend *b = backend_of(ev, wh);

	if (!b->n_wls) {
		const struct kvet_node *sel = b->service ?
			kvet_node_path(b->service->root, "spec",
				       "selector", NULL) : NULL;
		uint32_t k;

		buf = kvet_arena_printf(ev->env->scratch, "no workload");
		for (k = 0; buf && kvet_node_is_map(sel) && k < sel->len; k++) {
			const struct kvet_pair *p = &sel->u.pairs[k];

			buf = kvet_arena_printf(ev->env->scratch, "%s%s%.*s=%.*s",
						buf, k ? ", " : " labelled ",
						(int)p->key.len, p->key.u.str,
						kvet_node_is_scalar(&p->value) ?
						(int)p->value.len : 0,
						kvet_node_is_scalar(&p->value) ?
						p->value.u.str : "");
		}
		if (buf && b->service)
			buf = kvet_arena_printf(ev->env->scratch,
						"%s in namespace \"%s\"", buf,
						b->service->namespace);
		return buf ? str_value(buf) : cel_eval_errorf(ev, "out of memory");
	}
	for (i = 0; i < b->n_wls; i++) {
		if (describe_one(ev->env->scratch, &one, b->wls[i]))
			return cel_eval_errorf(ev, "out of memory");
		buf = i ? kvet_arena_printf(ev->env->scratch, "%s, %s", buf, one)
			: one;
		if (!buf)
			return cel_eval_errorf(ev, "out of memory");
	}
	if (inferred(b))
		buf = kvet_arena_printf(ev->env->scratch,
					"%s, assumed from its name: Service \"%s/%s\" is not in the input, which has no Service at all",
					buf, wh->service.namespace,
					wh->service.name);
	if (!buf)
		return cel_eval_errorf(ev, "out of memory");
	return str_value(buf);
}

/* The PodDisruptionBudgets selecting any backend workload, each once. */
K8S_FN(fn_backend_pdbs)
{
	const struct cel_func *covering;
	struct cel_value *items, l, w;
	size_t i, j, k, cnt = 0, cap = 0;
	bool known;
	ENTRY(wh, 0, "backendPdbs");
	const struct kvet_backend *b = backend_of(ev, wh);

	covering = cel_func_find(kvet_cel_libs, kvet_cel_n_libs, "pdbsCovering",
				 strlen("pdbsCovering"), CEL_CALL_GLOBAL, 1,
				 &known);
	if (!covering)
		return cel_eval_errorf(ev, "backendPdbs(): pdbsCovering() is missing");
	items = NULL;
	for (i = 0; i < b->n_wls; i++) {
		w = kvet_cel_from_object(b->wls[i]->obj);
		l = covering->fn(ev, call, &w, 1);
		if (l.type == CEL_ERROR)
			return l;
		for (j = 0; j < cel_len(&l); j++) {
			struct cel_value p = cel_list_at(&l, j);

			for (k = 0; k < cnt && kvet_cel_object(&items[k]) !=
					       kvet_cel_object(&p); k++)
				;
			if (k < cnt)
				continue;
			if (cnt == cap) {
				struct cel_value *v;

				cap = cap ? 2 * cap : 4;
				v = kvet_arena_array(ev->env->scratch, cap,
						     sizeof(*v));
				if (!v)
					return cel_eval_errorf(ev, "out of memory");
				if (cnt)
					memcpy(v, items, cnt * sizeof(*v));
				items = v;
			}
			items[cnt++] = p;
		}
	}
	l.type = CEL_LIST;
	l.flags = 0;
	l.len = (uint32_t)cnt;
	l.u.items = items;
	l.at = NULL;
	l.host_tag = CEL_HOST_NONE;
	l.host = NULL;
	return l;
}

/*
 * C1 for one workload, on the 1.8 model: scalable, N_max >= 2 and no
 * effective spreading term. A term whose scope rests on an assumption
 * counts as effective, so an assumption never raises a severity.
 */
static int lacks_spreading(struct cel_eval *ev, const struct kvet_workload *wl,
			   bool *out)
{
	struct kvet_terms terms;
	enum kvet_match m;
	size_t i;

	*out = false;
	if (!kvet_workload_kind_scalable(wl->kind) ||
	    wl->replicas.state != KVET_REPLICAS_KNOWN || wl->replicas.max < 2)
		return 0;
	if (kvet_workload_terms(ev->env->scratch, wl, &terms))
		return -1;
	for (i = 0; i < terms.n; i++) {
		m = kvet_term_effective(kvet_cel_graph(ev), &terms.v[i]);
		if (m == KVET_MATCH_TRUE || m == KVET_MATCH_ASSUMED_TRUE)
			return 0;
	}
	*out = true;
	return 0;
}

K8S_FN(fn_backends_unspread)
{
	bool lacks = false;
	size_t i;
	ENTRY(wh, 0, "backendsUnspread");
	const struct kvet_backend *b = backend_of(ev, wh);

	for (i = 0; i < b->n_wls; i++) {
		if (lacks_spreading(ev, b->wls[i], &lacks))
			return cel_eval_errorf(ev, "out of memory");
		if (!lacks)
			break;
	}
	return cel_bool(b->n_wls && lacks);
}

static bool declares_port(const struct kvet_node *containers,
			  const char *name, size_t len, bool sidecars_only)
{
	const struct kvet_node *c, *ports, *pn;
	uint32_t i, j;

	for (i = 0; kvet_node_is_seq(containers) && i < containers->len; i++) {
		c = &containers->u.items[i];
		/* an init container serves only as a sidecar (1.29) */
		if (sidecars_only &&
		    !kvet_node_eq(kvet_node_get(c, "restartPolicy"), "Always"))
			continue;
		ports = kvet_node_get(c, "ports");
		for (j = 0; kvet_node_is_seq(ports) && j < ports->len; j++) {
			pn = kvet_node_get(&ports->u.items[j], "name");
			if (kvet_node_is_string(pn) && pn->len == len &&
			    !memcmp(pn->u.str, name, len))
				return true;
		}
	}
	return false;
}

/* A container of some backend workload declares port @name (E4 (c)). */
K8S_FN(fn_backend_declares_port)
{
	const struct kvet_workload *wl;
	size_t i;
	ENTRY(wh, 0, "backendDeclaresPort");
	const struct kvet_backend *b = backend_of(ev, wh);

	if (args[1].type != CEL_STRING)
		return cel_eval_errorf(ev, "backendDeclaresPort() needs a port name");
	for (i = 0; i < b->n_wls; i++) {
		wl = b->wls[i];
		if (declares_port(kvet_node_get(wl->pod_spec, "containers"),
				  args[1].u.s, args[1].len, false) ||
		    declares_port(kvet_node_get(wl->pod_spec, "initContainers"),
				  args[1].u.s, args[1].len, true))
			return cel_bool(true);
	}
	return cel_bool(false);
}

/* A backend's pod template mounts Secret @name (E7 (b)). */
K8S_FN(fn_backend_mounts_secret)
{
	const struct kvet_node *vols, *v, *srcs, *sn;
	size_t i;
	uint32_t j, k;
	ENTRY(wh, 0, "backendMountsSecret");
	const struct kvet_backend *b = backend_of(ev, wh);

	if (args[1].type != CEL_STRING)
		return cel_eval_errorf(ev, "backendMountsSecret() needs a Secret name");
	for (i = 0; i < b->n_wls; i++) {
		vols = kvet_node_get(b->wls[i]->pod_spec, "volumes");
		for (j = 0; kvet_node_is_seq(vols) && j < vols->len; j++) {
			v = &vols->u.items[j];
			sn = kvet_node_path(v, "secret", "secretName", NULL);
			if (kvet_node_is_string(sn) && sn->len == args[1].len &&
			    !memcmp(sn->u.str, args[1].u.s, sn->len))
				return cel_bool(true);
			srcs = kvet_node_path(v, "projected", "sources", NULL);
			for (k = 0; kvet_node_is_seq(srcs) && k < srcs->len; k++) {
				sn = kvet_node_path(&srcs->u.items[k], "secret",
						    "name", NULL);
				if (kvet_node_is_string(sn) &&
				    sn->len == args[1].len &&
				    !memcmp(sn->u.str, args[1].u.s, sn->len))
					return cel_bool(true);
			}
		}
	}
	return cel_bool(false);
}

/* The input has Service objects at all: a dump of a few kinds may not. */
K8S_FN(fn_services_in_input)
{
	size_t cnt;

	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "servicesInInput");
	kvet_graph_kind(kvet_cel_graph(ev), "", "Service", &cnt);
	return cel_bool(cnt > 0);
}

/* An Endpoints or EndpointSlice object of Service @svc is in the input
 * (a Service without a selector is served by hand-made endpoints). */
K8S_FN(fn_service_endpoints)
{
	const struct kvet_object *svc = kvet_cel_object(&args[0]);
	struct kvet_object *const *slices;
	const struct kvet_node *owner;
	size_t i, cnt;

	if (!svc || !cel_k8s_is_kind(svc, "", "Service"))
		return cel_eval_errorf(ev, "serviceHasEndpoints() needs a Service");
	if (!kvet_cel_graph(ev))
		return cel_k8s_no_graph(ev, "serviceHasEndpoints");
	if (kvet_graph_find(kvet_cel_graph(ev), "", "Endpoints", svc->namespace,
			    svc->name))
		return cel_bool(true);
	slices = kvet_graph_kind(kvet_cel_graph(ev), "discovery.k8s.io",
				 "EndpointSlice", &cnt);
	for (i = 0; i < cnt; i++) {
		if (strcmp(slices[i]->namespace, svc->namespace))
			continue;
		owner = kvet_node_path(slices[i]->root, "metadata", "labels",
				       "kubernetes.io/service-name", NULL);
		if (kvet_node_text_eq(owner, svc->name))
			return cel_bool(true);
	}
	return cel_bool(false);
}

/* ---- RBAC: may a backend rewrite its own configuration (E7 (a))? ---- */

static bool list_has(const struct kvet_node *l, const char *s)
{
	uint32_t i;

	for (i = 0; kvet_node_is_seq(l) && i < l->len; i++)
		if (kvet_node_text_eq(&l->u.items[i], "*") ||
		    kvet_node_text_eq(&l->u.items[i], s))
			return true;
	return false;
}

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
static bool aggregate_grants(struct kvet_arena *arena,
			     const struct kvet_graph *g,
			     const struct kvet_object *role,
			     const char *resource)
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
			    role_grants(roles[i], resource))
				return true;
		}
	}
	return false;
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

static const char *config_resource(const struct kvet_webhook *wh)
{
	if (wh->source == KVET_WEBHOOK_CONVERSION)
		return "customresourcedefinitions";
	return wh->source == KVET_WEBHOOK_MUTATING ?
	       "mutatingwebhookconfigurations" :
	       "validatingwebhookconfigurations";
}

/*
 * The ClusterRoleBindings whose ClusterRole may update or patch
 * @resource: webhook configurations are cluster-scoped, so only a
 * ClusterRoleBinding to a ClusterRole grants that. Found once per call, so
 * the accounts are then matched against a handful of bindings.
 */
static int granting_bindings(struct kvet_arena *arena,
			     const struct kvet_graph *g, const char *resource,
			     const struct kvet_object ***out, size_t *n)
{
	struct kvet_object *const *crbs;
	const struct kvet_object *role;
	const struct kvet_node *ref;
	char rname[256];
	size_t j, cnt;

	*n = 0;
	crbs = kvet_graph_kind(g, RBAC_GROUP, "ClusterRoleBinding", &cnt);
	*out = kvet_arena_array(arena, cnt + 1, sizeof(**out));
	if (!*out)
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
			(*out)[(*n)++] = crbs[j];
	}
	return 0;
}

/* Does one of @crbs name @wl's ServiceAccount? */
static bool bound(const struct kvet_object *const *crbs, size_t n,
		  const struct kvet_workload *wl)
{
	struct kvet_slice sa = kvet_workload_service_account(wl);
	const struct kvet_node *subjs;
	size_t j;
	uint32_t k;

	for (j = 0; j < n; j++) {
		subjs = kvet_node_get(crbs[j]->root, "subjects");
		for (k = 0; kvet_node_is_seq(subjs) && k < subjs->len; k++)
			if (names_account(&subjs->u.items[k],
					  wl->obj->namespace, sa))
				return true;
	}
	return false;
}

/*
 * Per run, for each configuration kind: the granting bindings and the
 * Jobs and CronJobs they bind, computed on first use (every entry of a
 * large dump asks the same question).
 */
enum { RES_VALIDATING, RES_MUTATING, RES_CRD, N_RES };

struct rbac_answer {
	bool done;
	const struct kvet_object **crbs;
	size_t n_crbs;
	const struct kvet_workload **jobs;
	size_t n_jobs;
};

struct rbac_cache {
	struct kvet_arena *arena;
	const struct kvet_graph *g;
	struct rbac_answer res[N_RES];
};

static void *rbac_create(struct kvet_arena *arena, const struct kvet_graph *g)
{
	struct rbac_cache *c = kvet_arena_alloc(arena, sizeof(*c));

	if (c) {
		memset(c, 0, sizeof(*c));
		c->arena = arena;
		c->g = g;
	}
	return c;
}

static int find_jobs(struct rbac_cache *c, struct rbac_answer *a)
{
	static const char *const kinds[] = { "Job", "CronJob" };
	struct kvet_object *const *objs;
	const struct kvet_workload *wl;
	size_t i, k, cnt, cap = 0;

	for (k = 0; a->n_crbs && k < 2; k++) {
		objs = kvet_graph_kind(c->g, "batch", kinds[k], &cnt);
		for (i = 0; i < cnt; i++) {
			wl = kvet_graph_workload_of(c->g, objs[i]);
			if (!wl || wl->obj != objs[i] ||
			    !bound(a->crbs, a->n_crbs, wl))
				continue;
			if (a->n_jobs == cap) {
				const struct kvet_workload **v;

				cap = cap ? 2 * cap : 4;
				v = kvet_arena_array(c->arena, cap, sizeof(*v));
				if (!v)
					return -1;
				if (a->n_jobs)
					memcpy(v, a->jobs,
					       a->n_jobs * sizeof(*v));
				a->jobs = v;
			}
			a->jobs[a->n_jobs++] = wl;
		}
	}
	return 0;
}

static const struct rbac_answer *rbac_of(struct cel_eval *ev,
					 const struct kvet_webhook *wh)
{
	struct rbac_cache *c = cel_k8s_cache(ev, CEL_K8S_SLOT_WEBHOOK_RBAC,
					     rbac_create, NULL);
	struct rbac_answer *a;
	int r;

	if (!c)
		return NULL;
	r = wh->source == KVET_WEBHOOK_CONVERSION ? RES_CRD :
	    wh->source == KVET_WEBHOOK_MUTATING ? RES_MUTATING :
						  RES_VALIDATING;
	a = &c->res[r];
	if (!a->done) {
		if (granting_bindings(c->arena, c->g, config_resource(wh),
				      &a->crbs, &a->n_crbs) ||
		    find_jobs(c, a))
			return NULL;
		a->done = true;
	}
	return a;
}

K8S_FN(fn_backend_may_update)
{
	const struct rbac_answer *ans;
	size_t i;
	ENTRY(wh, 0, "backendMayUpdateConfiguration");
	const struct kvet_backend *b = backend_of(ev, wh);

	ans = rbac_of(ev, wh);
	if (!ans)
		return cel_eval_errorf(ev, "out of memory");
	for (i = 0; ans->n_crbs && i < b->n_wls; i++)
		if (bound(ans->crbs, ans->n_crbs, b->wls[i]))
			return cel_bool(true);
	return cel_bool(false);
}

/*
 * The Jobs and CronJobs of the input that may update or patch the entry's
 * configuration kind: certificate generators such as ingress-nginx's
 * kube-webhook-certgen "patch" Job, which write caBundle at install time.
 */
K8S_FN(fn_config_patch_jobs)
{
	const struct rbac_answer *ans;
	ENTRY(wh, 0, "configurationPatchJobs");

	ans = rbac_of(ev, wh);
	if (!ans)
		return cel_eval_errorf(ev, "out of memory");
	return cel_k8s_workload_list(ev, ans->jobs, ans->n_jobs);
}

/* ---- URLs (E9) ---- */

static void put(struct cel_entry *e, const char *key, struct cel_value v)
{
	e->key = str_value(key);
	e->value = v;
}

/*
 * clientConfig.url split as RFC 3986 does: scheme, user info, host (no
 * brackets), port, path, query and fragment; "hasQuery" and
 * "hasFragment" tell an empty "?" or "#" from none.
 */
K8S_FN(fn_url)
{
	const char *s, *end, *p, *auth, *auth_end, *at, *host_end, *colon;
	struct cel_entry *e;
	struct cel_value v = { .type = CEL_MAP };
	size_t len;
	ENTRY(wh, 0, "webhookUrl");

	if (!kvet_node_is_string(wh->url))
		return cel_null();
	s = wh->url->u.str;
	len = wh->url->len;
	end = s + len;
	e = kvet_arena_array(ev->env->scratch, 9, sizeof(*e));
	if (!e)
		return cel_eval_errorf(ev, "out of memory");
	p = memchr(s, ':', len);
	if (!p || memchr(s, '/', (size_t)(p - s)))
		p = s;
	put(&e[0], "scheme", p > s ? cel_string(s, (size_t)(p - s))
				   : str_value(""));
	auth = p > s ? p + 1 : s;
	if (end - auth >= 2 && auth[0] == '/' && auth[1] == '/')
		auth += 2;
	for (auth_end = auth; auth_end < end && *auth_end != '/' &&
	     *auth_end != '?' && *auth_end != '#'; auth_end++)
		;
	at = NULL;
	for (p = auth; p < auth_end; p++)
		if (*p == '@')
			at = p;
	put(&e[1], "userInfo", at ? cel_string(auth, (size_t)(at - auth))
				  : str_value(""));
	if (at)
		auth = at + 1;
	colon = NULL;
	if (auth < auth_end && *auth == '[') {
		host_end = memchr(auth, ']', (size_t)(auth_end - auth));
		if (!host_end)
			host_end = auth_end;
		put(&e[2], "host", cel_string(auth + 1,
					      (size_t)(host_end - auth - 1)));
		if (host_end < auth_end && host_end[1] == ':')
			colon = host_end + 1;
	} else {
		colon = memchr(auth, ':', (size_t)(auth_end - auth));
		host_end = colon ? colon : auth_end;
		put(&e[2], "host", cel_string(auth, (size_t)(host_end - auth)));
	}
	put(&e[3], "port", colon ? cel_string(colon + 1,
					      (size_t)(auth_end - colon - 1))
				 : str_value(""));
	for (p = auth_end; p < end && *p != '?' && *p != '#'; p++)
		;
	put(&e[4], "path", cel_string(auth_end, (size_t)(p - auth_end)));
	at = memchr(s, '#', len);
	colon = memchr(s, '?', at ? (size_t)(at - s) : len);
	put(&e[5], "query", colon ? cel_string(colon + 1,
					       (size_t)((at ? at : end) - colon - 1))
				  : str_value(""));
	put(&e[6], "fragment", at ? cel_string(at + 1, (size_t)(end - at - 1))
				  : str_value(""));
	put(&e[7], "hasQuery", cel_bool(colon != NULL));
	put(&e[8], "hasFragment", cel_bool(at != NULL));
	v.len = 9;
	v.u.entries = e;
	return v;
}

/* ---- cert-manager CA injection (E7) ---- */

static const char *const inject_annotations[] = {
	"cert-manager.io/inject-ca-from",
	"cert-manager.io/inject-ca-from-secret",
	"cert-manager.io/inject-apiserver-ca",
};

/*
 * How the entry's caBundle gets filled: the cert-manager cainjector
 * annotation of its configuration, split into namespace and name
 * (https://cert-manager.io/docs/concepts/ca-injector/), with the
 * Certificate or Secret it names when the input has it.
 */
K8S_FN(fn_ca_injection)
{
	const struct kvet_node *ann, *val = NULL;
	const char *kind = "none", *slash, *ns = "", *name = "";
	const struct kvet_object *target = NULL;
	struct cel_entry *e;
	struct cel_value v = { .type = CEL_MAP };
	bool valid = false;
	size_t i;
	ENTRY(wh, 0, "caInjection");

	ann = kvet_node_path(wh->obj->root, "metadata", "annotations", NULL);
	for (i = 0; i < 3 && !val; i++) {
		val = kvet_node_get(ann, inject_annotations[i]);
		if (!kvet_node_is_scalar(val) || kvet_node_is_null(val))
			val = NULL;
		else
			kind = i == 0 ? "certificate" : i == 1 ? "secret"
							    : "apiserver";
	}
	if (val && i <= 2) {
		slash = memchr(val->u.str, '/', val->len);
		valid = slash && slash > val->u.str &&
			slash + 1 < val->u.str + val->len &&
			!memchr(slash + 1, '/',
				(size_t)(val->u.str + val->len - slash - 1));
		if (valid) {
			ns = kvet_arena_strndup(ev->env->scratch, val->u.str,
						(size_t)(slash - val->u.str));
			name = kvet_arena_strndup(ev->env->scratch, slash + 1,
						  (size_t)(val->u.str + val->len -
							   slash - 1));
			if (!ns || !name)
				return cel_eval_errorf(ev, "out of memory");
			target = i == 1 ?
				kvet_graph_find(kvet_cel_graph(ev),
						"cert-manager.io",
						"Certificate", ns, name) :
				kvet_graph_find(kvet_cel_graph(ev), "",
						"Secret", ns, name);
		}
	}
	e = kvet_arena_array(ev->env->scratch, 6, sizeof(*e));
	if (!e)
		return cel_eval_errorf(ev, "out of memory");
	put(&e[0], "kind", str_value(kind));
	put(&e[1], "value", val ? cel_from_node(val, val) : str_value(""));
	put(&e[2], "valid", cel_bool(valid));
	put(&e[3], "namespace", str_value(ns));
	put(&e[4], "name", str_value(name));
	put(&e[5], "object",
	    target ? kvet_cel_from_object(target) : cel_null());
	v.len = 6;
	v.u.entries = e;
	return v;
}

/* ---- interception (1.11) ---- */

static const char *match_text(enum kvet_match m)
{
	static const char *const names[] = {
		[KVET_MATCH_FALSE] = "FALSE",
		[KVET_MATCH_TRUE] = "TRUE",
		[KVET_MATCH_ASSUMED_FALSE] = "ASSUMED-FALSE",
		[KVET_MATCH_ASSUMED_TRUE] = "ASSUMED-TRUE",
		[KVET_MATCH_UNKNOWN] = "UNKNOWN",
	};

	return (unsigned)m < sizeof(names) / sizeof(names[0]) ? names[m] : "?";
}

struct ask {
	struct kvet_request req;
	struct kvet_labels labels;
	struct kvet_pod_runtime rt;
	const struct kvet_workload *wl;
	bool any_ns;
};

static const char *cstr(struct cel_eval *ev, const struct cel_value *v)
{
	if (v->type != CEL_STRING)
		return NULL;
	return kvet_arena_strndup(ev->env->scratch, v->u.s, v->len);
}

/* Labels from a CEL map of strings, or a workload's pod labels. */
static int labels_arg(struct cel_eval *ev, const struct cel_value *v,
		      struct ask *q, struct cel_value *err)
{
	struct kvet_label *ls;
	struct cel_value k, x;
	size_t i, n;

	if (kvet_cel_object(v)) {
		q->wl = kvet_graph_workload_of(kvet_cel_graph(ev),
					       kvet_cel_object(v));
		if (q->wl && q->wl->obj == kvet_cel_object(v)) {
			/* L(W) and the runtime labels of 1.6 */
			q->labels = q->wl->labels;
			kvet_workload_runtime(q->wl, 0, 0, &q->rt);
			q->req.runtime = &q->rt;
			q->req.labels = &q->labels;
			return 0;
		}
		q->wl = NULL;
		if (kvet_labels_from_node(
			    ev->env->scratch,
			    kvet_node_path(kvet_cel_object(v)->root, "metadata",
					   "labels", NULL),
			    &q->labels))
			goto oom;
		q->req.labels = &q->labels;
		return 0;
	}
	if (v->type == CEL_NULL) {
		q->req.labels = &q->labels;
		return 0;
	}
	if (v->type != CEL_MAP) {
		*err = cel_eval_errorf(ev, "intercepts() needs the object's labels as a map or a workload, not %s",
				       cel_type_name(v->type));
		return -1;
	}
	n = cel_len(v);
	ls = kvet_arena_array(ev->env->scratch, n + 1, sizeof(*ls));
	if (!ls)
		goto oom;
	for (i = 0; i < n; i++) {
		k = cel_map_key_at(v, i);
		if (k.type != CEL_STRING || !cel_map_find(v, &k, &x) ||
		    x.type != CEL_STRING) {
			*err = cel_eval_errorf(ev, "intercepts(): labels must map strings to strings");
			return -1;
		}
		ls[i].key.s = k.u.s;
		ls[i].key.len = k.len;
		ls[i].value.s = x.u.s;
		ls[i].value.len = x.len;
	}
	kvet_labels_from_array(ls, n, &q->labels);
	q->req.labels = &q->labels;
	return 0;
oom:
	*err = cel_eval_errorf(ev, "out of memory");
	return -1;
}

static int request_arg(struct cel_eval *ev, const struct cel_value *args,
		       const char *name, struct ask *q, struct cel_value *err)
{
	const char *f[6];
	size_t i;

	memset(q, 0, sizeof(*q));
	for (i = 0; i < 6; i++) {
		f[i] = cstr(ev, &args[1 + i]);
		if (!f[i]) {
			*err = cel_eval_errorf(ev, "%s() needs strings: operation, group, version, resource, subresource, namespace",
					       name);
			return -1;
		}
	}
	q->req.operation = f[0];
	q->req.group = f[1];
	q->req.version = f[2];
	q->req.resource = f[3];
	q->req.subresource = f[4];
	q->req.namespace = f[5];
	q->any_ns = !strcmp(f[5], ANY_NAMESPACE);
	return labels_arg(ev, &args[7], q, err);
}

/*
 * "*" asks about some namespace: step 2 is TRUE when a namespace without
 * labels of its own matches, ASSUMED-TRUE when only a labelled one could,
 * FALSE when the selector matches nothing.
 */
static enum kvet_match evaluate(struct cel_eval *ev,
				const struct kvet_webhook *wh, struct ask *q,
				struct kvet_interception *r)
{
	enum kvet_match m;

	if (!q->any_ns)
		return kvet_webhook_intercepts(kvet_cel_graph(ev), wh, &q->req,
					       r);
	q->req.namespace = "kvet-any-namespace";
	kvet_webhook_intercepts(kvet_cel_graph(ev), wh, &q->req, r);
	q->req.namespace = ANY_NAMESPACE;
	if (wh->source == KVET_WEBHOOK_CONVERSION ||
	    wh->namespace_selector.meaning == KVET_SEL_EVERYTHING)
		r->namespace_step = KVET_MATCH_TRUE;
	else if (wh->namespace_selector.meaning != KVET_SEL_MATCH)
		r->namespace_step = KVET_MATCH_FALSE;
	else {
		struct kvet_labels none = { NULL, 0 };

		/* a namespace with no labels of its own */
		r->namespace_step = kvet_selector_match_namespace(
			&wh->namespace_selector, "kvet-any-namespace", &none) ==
			KVET_MATCH_TRUE ? KVET_MATCH_TRUE :
			KVET_MATCH_ASSUMED_TRUE;
	}
	m = kvet_match_and(r->rule ? KVET_MATCH_TRUE : KVET_MATCH_FALSE,
			   kvet_match_and(r->namespace_step, r->object_step));
	if (r->conditions)
		m = kvet_match_and(m, KVET_MATCH_UNKNOWN);
	r->result = m;
	return m;
}

K8S_FN(fn_intercepts)
{
	struct kvet_interception r;
	struct ask q;
	ENTRY(wh, 0, "intercepts");

	if (request_arg(ev, args, "intercepts", &q, &err_))
		return err_;
	return str_value(match_text(evaluate(ev, wh, &q, &r)));
}

/* The keys of a namespaceSelector an absent Namespace object leaves to
 * assumption, as "key Op" pieces. */
static char *assumed_keys(struct kvet_arena *a, const struct kvet_selector *sel)
{
	char *s = NULL;
	size_t i;

	for (i = 0; i < sel->n_reqs; i++) {
		const struct kvet_requirement *r = &sel->reqs[i];

		if (kvet_slice_eq0(r->key, "kubernetes.io/metadata.name"))
			continue;
		s = kvet_arena_printf(a, "%s%s%.*s %s", s ? s : "",
				      s ? ", " : "", (int)r->key.len, r->key.s,
				      kvet_sel_op_name(r->op));
		if (!s)
			return NULL;
	}
	return s ? s : (char *)"";
}

static const char *rule_index(const struct kvet_webhook *wh,
			      const struct kvet_node *rule, char *buf,
			      size_t len)
{
	if (wh->source == KVET_WEBHOOK_CONVERSION || !rule ||
	    !kvet_node_is_seq(wh->rules))
		return "the conversion webhook";
	snprintf(buf, len, "rules[%u]",
		 (unsigned)(rule - wh->rules->u.items));
	return buf;
}

static char *why(struct kvet_arena *a, const struct kvet_webhook *wh,
		 const struct ask *q, const struct kvet_interception *r)
{
	const struct kvet_request *req = &q->req;
	const char *ns = req->namespace ? req->namespace : "";
	char idx[32], *s, *keys;
	const char *what;

	what = kvet_arena_printf(a, "%s %s%s%s%s%s", req->operation,
				 *req->group ? req->group : "core", "/",
				 req->resource,
				 req->subresource && *req->subresource ? "/" : "",
				 req->subresource ? req->subresource : "");
	if (!what)
		return NULL;
	if (!r->rule)
		return kvet_arena_printf(a, "no rule matches %s", what);
	s = kvet_arena_printf(a, "%s matches %s", rule_index(wh, r->rule, idx,
							     sizeof(idx)),
			      what);
	if (!s)
		return NULL;
	if (wh->source == KVET_WEBHOOK_CONVERSION)
		return s;
	keys = assumed_keys(a, &wh->namespace_selector);
	if (!keys)
		return NULL;
	if (!*ns)
		s = kvet_arena_printf(a, "%s (cluster-scoped: namespaceSelector does not apply)", s);
	else if (!strcmp(ns, ANY_NAMESPACE))
		s = kvet_arena_printf(a, "%s in %s namespace", s,
				      r->namespace_step == KVET_MATCH_TRUE ?
				      "any" : "a namespace labelled to match: some");
	else if (r->namespace_step == KVET_MATCH_ASSUMED_TRUE ||
		 r->namespace_step == KVET_MATCH_ASSUMED_FALSE)
		s = kvet_arena_printf(a, "%s in namespace \"%s\"; no Namespace object in the input, assumed to carry only kubernetes.io/metadata.name, so the namespaceSelector (%s) %s",
				      s, ns, keys,
				      r->namespace_step == KVET_MATCH_ASSUMED_TRUE ?
				      "matches unless an administrator labels it" :
				      "does not match unless an administrator labels it");
	else if (r->namespace_step == KVET_MATCH_FALSE)
		s = kvet_arena_printf(a, "%s but the namespaceSelector excludes namespace \"%s\"",
				      s, ns);
	else if (wh->namespace_selector.meaning == KVET_SEL_EVERYTHING)
		s = kvet_arena_printf(a, "%s in namespace \"%s\" (the namespaceSelector selects every namespace)",
				      s, ns);
	else
		s = kvet_arena_printf(a, "%s in namespace \"%s\" (the namespaceSelector matches it)",
				      s, ns);
	if (s && r->object_step == KVET_MATCH_FALSE)
		s = kvet_arena_printf(a, "%s; the objectSelector excludes %s",
				      s, q->wl ? "its pods' labels" : "the object");
	else if (s && wh->object_selector.meaning == KVET_SEL_MATCH)
		s = kvet_arena_printf(a, "%s; the objectSelector matches %s",
				      s, q->wl ? "its pods' labels" : "the object");
	if (s && r->conditions)
		s = kvet_arena_printf(a, "%s; its matchConditions (CEL) are not evaluated, so kvet cannot tell whether they exclude the request",
				      s);
	return s;
}

K8S_FN(fn_interception)
{
	struct kvet_interception r;
	struct cel_entry *e;
	struct cel_value v = { .type = CEL_MAP };
	struct ask q;
	char *w;
	ENTRY(wh, 0, "interception");

	if (request_arg(ev, args, "interception", &q, &err_))
		return err_;
	evaluate(ev, wh, &q, &r);
	w = why(ev->env->scratch, wh, &q, &r);
	e = kvet_arena_array(ev->env->scratch, 5, sizeof(*e));
	if (!w || !e)
		return cel_eval_errorf(ev, "out of memory");
	put(&e[0], "result", str_value(match_text(r.result)));
	put(&e[1], "why", str_value(w));
	put(&e[2], "rule", r.rule ? cel_from_node(r.rule, r.rule) : cel_null());
	put(&e[3], "namespaceStep", str_value(match_text(r.namespace_step)));
	put(&e[4], "objectStep", str_value(match_text(r.object_step)));
	v.len = 5;
	v.u.entries = e;
	return v;
}

#define G CEL_CALL_GLOBAL
#define DYN CEL_ST_DYN
#define MAP CEL_ST_MAP
#define INT CEL_ST_INT
#define STR CEL_ST_STRING
#define LIST CEL_ST_LIST
#define BOOL CEL_ST_BOOL

static const struct cel_func webhook_funcs[] = {
	/* 1.10 entries */
	{ "webhookEntries", G, 1, 1, LIST, { MAP }, fn_entries,
	  "the webhook entries of a Validating/MutatingWebhookConfiguration (its webhooks[] items) or a CRD (its spec.conversion when strategy is Webhook), as input nodes" },
	{ "webhookId", G, 1, 1, STR, { MAP }, fn_webhook_id,
	  "\"<kind>/<config>#<webhook-name>\" (\"#conversion\" for a CRD)" },
	{ "effectiveFailurePolicy", G, 1, 1, STR, { MAP }, fn_failure_policy,
	  "\"Fail\" or \"Ignore\": the field, else Fail (v1) or Ignore (v1beta1); Fail for conversion webhooks; an invalid value as written" },
	{ "failurePolicyImplicit", G, 1, 1, BOOL, { MAP }, fn_failure_implicit,
	  "an admission entry without failurePolicy" },
	{ "isConversionWebhook", G, 1, 1, BOOL, { MAP }, fn_is_conversion,
	  "the entry is a CRD conversion webhook" },
	{ "clientConfig", G, 1, 1, DYN, { MAP }, fn_client_config,
	  "the entry's clientConfig node (a CRD's conversion.webhook.clientConfig), or null" },
	/* 1.10 backends */
	{ "backendState", G, 1, 1, STR, { MAP }, fn_backend_state,
	  "\"workloads\" (Service resolved), \"inferred\" (no Service in the input at all: the workload named like the Service), \"missing\" (Service not in the input), \"external\" (ExternalName), \"url\", \"none\"" },
	{ "webhookService", G, 1, 1, DYN, { MAP }, fn_service,
	  "the Service of clientConfig.service, or null" },
	{ "servicePort", G, 1, 1, INT, { MAP }, fn_service_port,
	  "clientConfig.service.port, default 443" },
	{ "servicePortEntry", G, 1, 1, DYN, { MAP }, fn_service_port_entry,
	  "the item of the Service's spec.ports whose port is servicePort(e), or null" },
	{ "serviceSelector", G, 1, 1, MAP, { MAP }, fn_service_selector,
	  "the Service's spec.selector; {} when absent or without a Service" },
	{ "backendWorkloads", G, 1, 1, LIST, { MAP }, fn_backend_workloads,
	  "B: the workloads the Service selects in its namespace" },
	{ "backendMinReplicas", G, 1, 1, INT, { MAP }, fn_backend_min,
	  "N_min(B), a DaemonSet counting 2 outside dump mode" },
	{ "backendMaxReplicas", G, 1, 1, INT, { MAP }, fn_backend_max,
	  "N_max(B)" },
	{ "backendReplicasAtLeast", G, 1, 1, BOOL, { MAP }, fn_backend_at_least,
	  "the counts are lower bounds (a DaemonSet outside dump mode)" },
	{ "describeBackends", G, 1, 1, STR, { MAP }, fn_describe_backends,
	  "B for a message: each workload with its N_min and where it comes from" },
	{ "backendPdbs", G, 1, 1, LIST, { MAP }, fn_backend_pdbs,
	  "the PodDisruptionBudgets selecting any backend workload, each once" },
	{ "backendsUnspread", G, 1, 1, BOOL, { MAP }, fn_backends_unspread,
	  "B is not empty and every backend workload fires C1 (1.8: no effective spreading term)" },
	{ "backendDeclaresPort", G, 2, 2, BOOL, { MAP, STR },
	  fn_backend_declares_port,
	  "a container (or sidecar) of a backend workload declares a port of that name" },
	{ "backendMountsSecret", G, 2, 2, BOOL, { MAP, STR },
	  fn_backend_mounts_secret,
	  "a backend workload mounts the Secret (secret or projected volume)" },
	{ "backendMayUpdateConfiguration", G, 1, 1, BOOL, { MAP },
	  fn_backend_may_update,
	  "a backend's ServiceAccount may update or patch the entry's configuration kind (ClusterRoleBinding to ClusterRole)" },
	{ "configurationPatchJobs", G, 1, 1, LIST, { MAP }, fn_config_patch_jobs,
	  "the Jobs and CronJobs whose ServiceAccount may update or patch the entry's configuration kind (a caBundle generator such as kube-webhook-certgen)" },
	{ "servicesInInput", G, 0, 0, BOOL, { DYN }, fn_services_in_input,
	  "the input has Service objects (a dump of a few kinds may have none)" },
	{ "serviceHasEndpoints", G, 1, 1, BOOL, { MAP }, fn_service_endpoints,
	  "an Endpoints or EndpointSlice object of the Service is in the input" },
	{ "webhookUrl", G, 1, 1, DYN, { MAP }, fn_url,
	  "clientConfig.url split: scheme, userInfo, host, port, path, query, fragment, hasQuery, hasFragment; null without url" },
	{ "caInjection", G, 1, 1, MAP, { MAP }, fn_ca_injection,
	  "the cert-manager CA injection annotation of the entry's configuration: kind (\"certificate\", \"secret\", \"apiserver\", \"none\"), value, valid (<namespace>/<name>), namespace, name, object (the Certificate or Secret, or null)" },
	/* 1.11 interception */
	{ "intercepts", G, 8, 8, STR, { MAP, STR, STR, STR }, fn_intercepts,
	  "intercepts(e, op, group, version, resource, sub, ns, labels): \"TRUE\", \"FALSE\", \"ASSUMED-TRUE\", \"ASSUMED-FALSE\" or \"UNKNOWN\"; ns \"\" is cluster-scoped, \"*\" some namespace; labels a map, or a workload for L(W) plus its runtime labels" },
	{ "interception", G, 8, 8, MAP, { MAP, STR, STR, STR }, fn_interception,
	  "the same as a map: result, why (a sentence), rule (the matching rules[] item), namespaceStep, objectStep" },
};

const struct cel_lib cel_k8s_webhook_lib =
	CEL_LIB("kvet.webhook", webhook_funcs);

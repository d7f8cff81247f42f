/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet.webhook: webhook entries and their backends (the webhook-* rules;
 * docs/model.md 1.10; interception is kvet.intercept, bind_intercept.c).
 * The meaning is in model/webhook.h, model/client_config.h and
 * model/rbac.h.
 *
 * An entry is the webhooks[] item of a Validating/MutatingWebhookConfiguration
 * or the spec.conversion of a CRD, as the input's own node, so a rule reads
 * e.failurePolicy or e.clientConfig.service.port and `at:` points there.
 *
 *   webhookEntries(o) list, webhookId(e) string,
 *   effectiveFailurePolicy(e) string, failurePolicyImplicit(e) bool,
 *   isConversionWebhook(e) bool, clientConfig(e) map
 *   backendState(e) string, webhookService(e) map, servicePort(e) int,
 *   servicePortEntry(e) map, serviceSelector(e) map
 *   backendWorkloads(e) list, backendMinReplicas(e) int,
 *   backendMaxReplicas(e) int, backendReplicasAtLeast(e) bool,
 *   describeBackends(e) string, backendPdbs(e) list, backendsUnspread(e) bool
 *   backendDeclaresPort(e, name) bool, backendMountsSecret(e, name) bool
 *   backendMayUpdateConfiguration(e) bool, configurationPatchJobs(e) list
 *   webhookUrl(e) map, caInjection(e) map
 *
 * Whether an entry intercepts a request is kvet.intercept's
 * (bind_intercept.c).
 */
#include "rules/bind.h"

#include <string.h>

#include "model/client_config.h"
#include "model/pdb.h"
#include "model/rbac.h"
#include "model/service.h"
#include "rules/explain.h"

#define ENTRY (c->arg[0].entry)

/* The entry's backend, an inferred one included. */
static const struct kvet_backend *backend(struct bind_call *c)
{
	return kvet_webhook_backend(c->scratch, c->g, ENTRY);
}

static struct cel_value webhook_entries(struct bind_call *c)
{
	const struct kvet_webhooks *whs = kvet_run_webhooks(c->run);
	const struct kvet_webhook **v;
	struct cel_value *items;
	size_t i, n;

	if (!whs || kvet_webhooks_of(c->scratch, whs, c->arg[0].obj, &v, &n) ||
	    !(items = kvet_arena_array(c->scratch, n + 1, sizeof(*items))))
		return bind_oom(c);
	for (i = 0; i < n; i++)
		items[i] = bind_node(v[i]->node);
	return bind_list(c, items, n);
}

BIND_FN(webhook_id, bind_str(ENTRY->id))

/* An invalid value as written. */
static struct cel_value effective_failure_policy(struct bind_call *c)
{
	const struct kvet_node *n = ENTRY->failure_policy_node;

	if (ENTRY->failure_policy == KVET_FAILURE_INVALID &&
	    kvet_node_is_scalar(n))
		return cel_string(n->u.str, n->len);
	return bind_str(kvet_failure_policy_name(ENTRY->failure_policy));
}

BIND_FN(failure_policy_implicit,
	cel_bool(ENTRY->source != KVET_WEBHOOK_CONVERSION &&
		 !ENTRY->failure_policy_node))

BIND_FN(is_conversion_webhook,
	cel_bool(ENTRY->source == KVET_WEBHOOK_CONVERSION))

BIND_FN(client_config, ENTRY->client_config ?
	cel_from_node(ENTRY->client_config, NULL) : cel_null())

static struct cel_value backend_state(struct bind_call *c)
{
	static const char *const names[] = {
		[KVET_BACKEND_NONE] = "none",
		[KVET_BACKEND_URL] = "url",
		[KVET_BACKEND_MISSING] = "missing",
		[KVET_BACKEND_EXTERNAL] = "external",
		[KVET_BACKEND_WORKLOADS] = "workloads",
		[KVET_BACKEND_APISERVER] = "apiserver",
	};
	const struct kvet_backend *b = backend(c);

	/* a url next to a service is invalid; the service is what kvet
	 * resolves */
	return bind_str(kvet_backend_inferred(b) ? "inferred" :
			names[b->state]);
}

BIND_FN(webhook_service, bind_object(backend(c)->service))

static struct cel_value service_port(struct bind_call *c)
{
	if (!ENTRY->has_service)
		return bind_fail(c, "%s has no clientConfig.service",
				 ENTRY->id);
	return cel_int(ENTRY->service.port);
}

static struct cel_value service_port_entry(struct bind_call *c)
{
	const struct kvet_backend *b = backend(c);
	const struct kvet_node *item = NULL;

	if (ENTRY->has_service && b->service)
		item = kvet_service_port_item(b->service, ENTRY->service.port);
	return item ? bind_node(item) : cel_null();
}

/* {} when absent or without a Service. */
static struct cel_value service_selector(struct bind_call *c)
{
	const struct kvet_backend *b = backend(c);
	const struct kvet_node *sel = b->service ?
		kvet_node_path(b->service->root, "spec", "selector", NULL) :
		NULL;

	return kvet_node_is_map(sel) ? cel_from_node(sel, NULL)
				     : bind_empty_map();
}

BIND_FN(backend_workloads,
	bind_workloads(c, backend(c)->wls, backend(c)->n_wls))

BIND_FN(backend_min_replicas, cel_int(backend(c)->n_min))

BIND_FN(backend_max_replicas, cel_int(backend(c)->n_max))

BIND_FN(backend_replicas_at_least, cel_bool(backend(c)->at_least))

static struct cel_value describe_backends(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);

	explain_backend(&sb, ENTRY, backend(c));
	return bind_strbuf(c, &sb);
}

static struct cel_value backend_pdbs(struct bind_call *c)
{
	const struct kvet_backend *b = backend(c);
	const struct kvet_object **v;
	size_t n;

	if (kvet_run_pdbs_covering_any(c->run, c->scratch, b->wls, b->n_wls,
				       &v, &n))
		return bind_oom(c);
	return bind_objects(c, v, n);
}

static struct cel_value backends_unspread(struct bind_call *c)
{
	bool out;

	if (kvet_backend_unspread(c->scratch, c->g, backend(c), &out))
		return bind_oom(c);
	return cel_bool(out);
}

BIND_FN(backend_declares_port,
	cel_bool(kvet_backend_declares_port(backend(c),
					    kvet_slice_of(c->arg[1].s))))

BIND_FN(backend_mounts_secret,
	cel_bool(kvet_backend_mounts_secret(backend(c),
					    kvet_slice_of(c->arg[1].s))))

/* Who may rewrite the entry's configuration kind (model/rbac.h). */
static const struct kvet_config_writers *writers(struct bind_call *c)
{
	return kvet_run_config_writers(c->run,
				       kvet_webhook_config_resource(ENTRY));
}

static struct cel_value backend_may_update_configuration(struct bind_call *c)
{
	const struct kvet_config_writers *w = writers(c);
	const struct kvet_backend *b = backend(c);

	return w ? cel_bool(kvet_config_writers_bind_any(w, b->wls, b->n_wls))
		 : bind_oom(c);
}

static struct cel_value configuration_patch_jobs(struct bind_call *c)
{
	const struct kvet_config_writers *w = writers(c);

	return w ? bind_workloads(c, w->jobs, w->n_jobs) : bind_oom(c);
}

/* Running workloads that may update or patch this configuration */
static struct cel_value configuration_writers(struct bind_call *c)
{
	static const char *const verbs[] = { "update", "patch", NULL };
	const struct kvet_object *cfg = ENTRY->obj;
	const struct kvet_workload **v;
	size_t n;
	const char *res = !strcmp(cfg->kind, "MutatingWebhookConfiguration") ?
			  "mutatingwebhookconfigurations" :
			  "validatingwebhookconfigurations";

	if (!strcmp(cfg->kind, "CustomResourceDefinition"))
		return bind_workloads(c, NULL, 0);
	if (kvet_config_grantees(c->scratch, c->g, res, verbs, cfg->name, &v,
				 &n))
		return bind_oom(c);
	return bind_workloads(c, v, n);
}

static struct cel_value slice_value(struct kvet_slice s)
{
	return s.len ? cel_string(s.s, s.len) : bind_str("");
}

/* null without url */
static struct cel_value webhook_url(struct bind_call *c)
{
	const struct kvet_node *url = ENTRY->url;
	struct kvet_slice s;
	struct kvet_url u;
	struct bind_map m;

	if (!kvet_node_is_string(url))
		return cel_null();
	s.s = url->u.str;
	s.len = url->len;
	kvet_url_split(s, &u);
	if (!bind_map_init(c, &m, 9))
		return bind_oom(c);
	bind_map_put(&m, "scheme", slice_value(u.scheme));
	bind_map_put(&m, "userInfo", slice_value(u.user_info));
	bind_map_put(&m, "host", slice_value(u.host));
	bind_map_put(&m, "port", slice_value(u.port));
	bind_map_put(&m, "path", slice_value(u.path));
	bind_map_put(&m, "query", slice_value(u.query));
	bind_map_put(&m, "fragment", slice_value(u.fragment));
	bind_map_put(&m, "hasQuery", cel_bool(u.has_query));
	bind_map_put(&m, "hasFragment", cel_bool(u.has_fragment));
	return bind_map_done(&m, NULL);
}

static struct cel_value ca_injection(struct bind_call *c)
{
	struct kvet_ca_injection ca;
	struct bind_map m;

	if (kvet_webhook_ca_injection(c->scratch, c->g, ENTRY, &ca) ||
	    !bind_map_init(c, &m, 6))
		return bind_oom(c);
	bind_map_put(&m, "kind", bind_str(kvet_ca_injection_kind_name(ca.kind)));
	bind_map_put(&m, "value", ca.value ? bind_node(ca.value) : bind_str(""));
	bind_map_put(&m, "valid", cel_bool(ca.valid));
	bind_map_put(&m, "namespace", bind_str(ca.namespace));
	bind_map_put(&m, "name", bind_str(ca.name));
	bind_map_put(&m, "object", bind_object(ca.object));
	return bind_map_done(&m, NULL);
}

#define E (BIND_ENTRY)
#define S BIND_STRING
#define VWC "admissionregistration.k8s.io/ValidatingWebhookConfiguration /"
#define ENTRY0 "webhookEntries(object)[0]"

static const struct cel_func webhook_funcs[] = {
	/* entries (1.10) */
	BIND_ROW("webhookEntries", CEL_ST_LIST, 1, 1, (BIND_OBJECT),
		 webhook_entries, BIND_RUN,
		 "the webhook entries of a Validating/MutatingWebhookConfiguration (its `webhooks[]` items) or a CRD (its `spec.conversion` when strategy is Webhook), as input nodes",
		 VWC "guard", "size(webhookEntries(object)) == 2"),
	BIND_ROW("webhookId", CEL_ST_STRING, 1, 1, E, webhook_id, 0,
		 "`\"<kind>/<config>#<webhook-name>\"` (`\"#conversion\"` for a CRD)",
		 VWC "guard", "webhookId(" ENTRY0 ") == 'ValidatingWebhookConfiguration/guard#pods.guard.io'"),
	BIND_ROW("effectiveFailurePolicy", CEL_ST_STRING, 1, 1, E,
		 effective_failure_policy, 0,
		 "`\"Fail\"` or `\"Ignore\"`: the field, else Fail (v1) or Ignore (v1beta1); Fail for conversion webhooks; an invalid value as written",
		 VWC "guard", "effectiveFailurePolicy(" ENTRY0 ") == 'Fail'"),
	BIND_ROW("failurePolicyImplicit", CEL_ST_BOOL, 1, 1, E,
		 failure_policy_implicit, 0,
		 "an admission entry without `failurePolicy`",
		 VWC "guard", "failurePolicyImplicit(" ENTRY0 ")"),
	BIND_ROW("isConversionWebhook", CEL_ST_BOOL, 1, 1, E,
		 is_conversion_webhook, 0,
		 "the entry is a CRD conversion webhook",
		 VWC "guard", "!isConversionWebhook(" ENTRY0 ")"),
	BIND_ROW("clientConfig", CEL_ST_DYN, 1, 1, E, client_config, 0,
		 "the entry's `clientConfig` node (a CRD's `conversion.webhook.clientConfig`), or null",
		 VWC "guard", "clientConfig(" ENTRY0 ").service.name == 'guard'"),
	/* backends (1.10) */
	BIND_ROW("backendState", CEL_ST_STRING, 1, 1, E, backend_state, 0,
		 "`\"workloads\"` (Service resolved), `\"inferred\"` (no Service in the input at all: the workload named like the Service), `\"missing\"` (Service not in the input), `\"apiserver\"` (`default/kubernetes`, not in the input: the API servers, in every cluster), `\"external\"` (ExternalName), `\"url\"`, `\"none\"`",
		 VWC "guard", "backendState(" ENTRY0 ") == 'workloads'"),
	BIND_ROW("webhookService", CEL_ST_DYN, 1, 1, E, webhook_service, 0,
		 "the Service of `clientConfig.service`, or null",
		 VWC "guard", "webhookService(" ENTRY0 ").metadata.name == 'guard'"),
	BIND_ROW("servicePort", CEL_ST_INT, 1, 1, E, service_port, 0,
		 "`clientConfig.service.port`, default 443",
		 VWC "guard", "servicePort(" ENTRY0 ") == 443"),
	BIND_ROW("servicePortEntry", CEL_ST_DYN, 1, 1, E, service_port_entry,
		 0,
		 "the item of the Service's `spec.ports` whose `port` is `servicePort(e)`, or null",
		 VWC "guard", "servicePortEntry(" ENTRY0 ").targetPort == 'https'"),
	BIND_ROW("serviceSelector", CEL_ST_MAP, 1, 1, E, service_selector, 0,
		 "the Service's `spec.selector`; `{}` when absent or without a Service",
		 VWC "guard", "serviceSelector(" ENTRY0 ") == {'app': 'guard'}"),
	BIND_ROW("backendWorkloads", CEL_ST_LIST, 1, 1, E, backend_workloads,
		 0, "B: the workloads the Service selects in its namespace",
		 VWC "guard", "backendWorkloads(" ENTRY0 ").map(w, w.metadata.name) == ['guard']"),
	BIND_ROW("backendMinReplicas", CEL_ST_INT, 1, 1, E,
		 backend_min_replicas, 0,
		 "N_min(B), a DaemonSet counting 2 outside dump mode",
		 VWC "guard", "backendMinReplicas(" ENTRY0 ") == 1"),
	BIND_ROW("backendMaxReplicas", CEL_ST_INT, 1, 1, E,
		 backend_max_replicas, 0, "N_max(B)",
		 VWC "guard", "backendMaxReplicas(" ENTRY0 ") == 1"),
	BIND_ROW("backendReplicasAtLeast", CEL_ST_BOOL, 1, 1, E,
		 backend_replicas_at_least, 0,
		 "the counts are lower bounds (a DaemonSet outside dump mode)",
		 VWC "guard", "!backendReplicasAtLeast(" ENTRY0 ")"),
	BIND_ROW("describeBackends", CEL_ST_STRING, 1, 1, E,
		 describe_backends, 0,
		 "B for a message: each workload with its N_min and where it comes from",
		 VWC "guard", "describeBackends(" ENTRY0 ") == 'Deployment \"guard\" (N_min 1: replicas unset)'"),
	BIND_ROW("backendPdbs", CEL_ST_LIST, 1, 1, E, backend_pdbs, 0,
		 "the PodDisruptionBudgets selecting any backend workload, each once",
		 VWC "guard", "size(backendPdbs(" ENTRY0 ")) == 0"),
	BIND_ROW("backendsUnspread", CEL_ST_BOOL, 1, 1, E, backends_unspread,
		 0,
		 "B is not empty and rule `multi-replica-without-spread` would report every backend workload: scalable, N_max at least 2 and no effective spreading term (1.8)",
		 VWC "guard", "!backendsUnspread(" ENTRY0 ")"),
	BIND_ROW("backendDeclaresPort", CEL_ST_BOOL, 2, 2, (E, S),
		 backend_declares_port, 0,
		 "backendDeclaresPort(e, name): a container (or sidecar) of a backend workload declares a port of that name",
		 VWC "guard", "backendDeclaresPort(" ENTRY0 ", 'https') && !backendDeclaresPort(" ENTRY0 ", 'http')"),
	BIND_ROW("backendMountsSecret", CEL_ST_BOOL, 2, 2, (E, S),
		 backend_mounts_secret, 0,
		 "backendMountsSecret(e, name): a backend workload mounts the Secret (secret or projected volume)",
		 VWC "guard", "backendMountsSecret(" ENTRY0 ", 'guard-tls')"),
	BIND_ROW("backendMayUpdateConfiguration", CEL_ST_BOOL, 1, 1, E,
		 backend_may_update_configuration, 0,
		 "a backend's ServiceAccount may update or patch the entry's configuration kind (ClusterRoleBinding to ClusterRole)",
		 VWC "guard", "!backendMayUpdateConfiguration(" ENTRY0 ")"),
	BIND_ROW("configurationPatchJobs", CEL_ST_LIST, 1, 1, E,
		 configuration_patch_jobs, 0,
		 "the Jobs and CronJobs whose ServiceAccount may update or patch the entry's configuration kind (a caBundle generator such as kube-webhook-certgen)",
		 VWC "guard", "configurationPatchJobs(" ENTRY0 ").map(j, j.metadata.name) == ['guard-patch']"),
	BIND_ROW("configurationWriters", CEL_ST_LIST, 1, 1, E,
		 configuration_writers, BIND_RUN,
		 "the running workloads (not Jobs) whose ServiceAccount may update or patch the entry's configuration: a ClusterRole rule with no resourceNames, or naming it",
		 VWC "guard", "configurationWriters(" ENTRY0 ") == []"),
	BIND_ROW("webhookUrl", CEL_ST_DYN, 1, 1, E, webhook_url, 0,
		 "`clientConfig.url` split: scheme, userInfo, host, port, path, query, fragment, hasQuery, hasFragment; null without url",
		 VWC "guard", "webhookUrl(webhookEntries(object)[1]).host == 'guard.example.com'"),
	BIND_ROW("caInjection", CEL_ST_MAP, 1, 1, E, ca_injection, 0,
		 "the cert-manager CA injection annotation of the entry's configuration: kind (`\"certificate\"`, `\"secret\"`, `\"apiserver\"`, `\"none\"`), value, valid (`<namespace>/<name>`), namespace, name, object (the Certificate or Secret, or null)",
		 VWC "guard", "caInjection(" ENTRY0 ").kind == 'certificate' && caInjection(" ENTRY0 ").name == 'guard-cert'"),
};

const struct cel_lib bind_webhook_lib = CEL_LIB("kvet.webhook", webhook_funcs);

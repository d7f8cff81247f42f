/* SPDX-License-Identifier: Apache-2.0 */
/*
 * kvet.intercept: would the API server call a webhook entry for a
 * request (docs/model.md 1.11)? The meaning is in model/intercept.h; the
 * entries are kvet.webhook's (bind_webhook.c), items of webhookEntries().
 *
 *   intercepts(e, op, group, version, resource, sub, ns, labels) string
 *   interception(e, op, group, version, resource, sub, ns, labels) map
 *   criticalFirst(list) list
 *
 *   intercepts(e, "CREATE", "", "v1", "pods", "", "*", null) == "TRUE"
 */
#include "rules/bind.h"

#include "model/intercept.h"
#include "rules/explain.h"

#define ENTRY (c->arg[0].entry)

/* The request of intercepts() and interception(): arguments 1 to 7. */
static void request(struct bind_call *c, struct kvet_request *req)
{
	const struct bind_labels *l = c->arg[7].labels;

	req->operation = c->arg[1].s;
	req->group = c->arg[2].s;
	req->version = c->arg[3].s;
	req->resource = c->arg[4].s;
	req->subresource = c->arg[5].s;
	req->namespace = c->arg[6].s;
	req->labels = &l->labels;
	req->runtime = l->wl ? &l->rt : NULL;
}

static struct cel_value intercepts(struct bind_call *c)
{
	struct kvet_interception r;
	struct kvet_request req;

	request(c, &req);
	return bind_str(kvet_match_verdict(
		kvet_webhook_intercepts_any(c->g, ENTRY, &req, &r)));
}

static struct cel_value interception(struct bind_call *c)
{
	struct kvet_strbuf sb = KVET_STRBUF_ARENA(c->scratch);
	struct kvet_interception r;
	struct kvet_request req;
	struct bind_map m;

	request(c, &req);
	kvet_webhook_intercepts_any(c->g, ENTRY, &req, &r);
	explain_interception(&sb, ENTRY, &req, &r, c->arg[7].labels->wl);
	if (!bind_map_init(c, &m, 5))
		return bind_oom(c);
	bind_map_put(&m, "result", bind_str(kvet_match_verdict(r.result)));
	bind_map_put(&m, "why", bind_strbuf(c, &sb));
	bind_map_put(&m, "rule", r.rule ? bind_node(r.rule) : cel_null());
	bind_map_put(&m, "namespaceStep",
		     bind_str(kvet_match_verdict(r.namespace_step)));
	bind_map_put(&m, "objectStep",
		     bind_str(kvet_match_verdict(r.object_step)));
	return cel_is_error(&m.e[1].value) ? m.e[1].value
					   : bind_map_done(&m, NULL);
}

/*
 * The entries of @list, those that intercept what the cluster cannot do
 * without first, each half in its order: a message that names the first
 * few of a group never hides the pods webhook among the "and N more".
 */
static struct cel_value critical_first(struct bind_call *c)
{
	const struct kvet_webhooks *whs = kvet_run_webhooks(c->run);
	const struct kvet_webhook *wh;
	struct cel_value *items, it;
	bool *crit;
	size_t n = cel_len(&c->arg[0].v), i, k = 0;

	if (!whs ||
	    !(items = kvet_arena_array(c->scratch, n + 1, sizeof(*items))) ||
	    !(crit = kvet_arena_array(c->scratch, n + 1, sizeof(*crit))))
		return bind_oom(c);
	for (i = 0; i < n; i++) {
		it = cel_list_at(&c->arg[0].v, i);
		wh = it.type == CEL_MAP && (it.flags & CEL_V_NODE)
			     ? kvet_webhooks_entry_at(whs, it.u.node)
			     : NULL;
		if (!wh)
			return cel_eval_errorf(
				c->ev,
				"%s() needs a list of webhook entries (items of webhookEntries())",
				c->name);
		crit[i] = kvet_webhook_intercepts_critical(c->g, wh);
	}
	for (i = 0; i < n; i++)
		if (crit[i])
			items[k++] = cel_list_at(&c->arg[0].v, i);
	for (i = 0; i < n; i++)
		if (!crit[i])
			items[k++] = cel_list_at(&c->arg[0].v, i);
	return bind_list(c, items, n);
}

#define S BIND_STRING
#define REQUEST (BIND_ENTRY, S, S, S, S, S, S, BIND_LABELS)
#define VWC "admissionregistration.k8s.io/ValidatingWebhookConfiguration /"
#define ENTRY0 "webhookEntries(object)[0]"

static const struct cel_func intercept_funcs[] = {
	BIND_ROW("intercepts", CEL_ST_STRING, 8, 8, REQUEST, intercepts, 0,
		 "intercepts(e, op, group, version, resource, sub, ns, labels): would the API server call the entry (1.11)? `\"TRUE\"`, `\"FALSE\"`, `\"ASSUMED-TRUE\"`, `\"ASSUMED-FALSE\"` or `\"UNKNOWN\"`; ns `\"\"` is cluster-scoped, `\"*\"` some namespace; labels a map, null, or a workload for L(W) plus its runtime labels",
		 VWC "guard", "intercepts(" ENTRY0 ", 'CREATE', '', 'v1', 'pods', '', '*', null) == 'TRUE'"),
	BIND_ROW("interception", CEL_ST_MAP, 8, 8, REQUEST, interception, 0,
		 "interception(e, op, group, version, resource, sub, ns, labels): the same as a map: result, why (a sentence), rule (the matching `rules[]` item), namespaceStep, objectStep",
		 VWC "guard", "interception(" ENTRY0 ", 'CREATE', '', 'v1', 'pods', '', 'wh', {}).why == 'rules[0] matches CREATE core/pods in namespace \"wh\" (the namespaceSelector selects every namespace)'"),
	BIND_ROW("criticalFirst", CEL_ST_LIST, 1, 1, (BIND_LIST),
		 critical_first, BIND_RUN,
		 "the webhook entries of a list (a rule's `group`), those that intercept (TRUE, ASSUMED-TRUE or UNKNOWN) CREATE or UPDATE of pods in any namespace, of nodes or namespaces, of leases in kube-node-lease, or of leases, ConfigMaps, Secrets, ServiceAccounts, Endpoints, EndpointSlices, Deployments or DaemonSets in kube-system first, each half in its order: a message naming the first few names these",
		 VWC "guard", "criticalFirst([webhookEntries(object)[1], " ENTRY0 "]).map(x, x.name) == ['pods.guard.io', 'url.guard.io']"),
};

const struct cel_lib bind_intercept_lib = CEL_LIB("kvet.intercept",
						  intercept_funcs);

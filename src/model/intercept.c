/* SPDX-License-Identifier: Apache-2.0 */
#include "model/intercept.h"

#include <string.h>

/*
 * Objects the API server never sends to admission webhooks, so that a
 * webhook cannot lock out its own repair
 * (k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/rules,
 * IsExemptAdmissionConfigurationResource).
 */
static const char *const exempt_resources[] = {
	"validatingwebhookconfigurations",
	"mutatingwebhookconfigurations",
	"validatingadmissionpolicies",
	"validatingadmissionpolicybindings",
	"mutatingadmissionpolicies",
	"mutatingadmissionpolicybindings",
};

static const char *or_empty(const char *s)
{
	return s ? s : "";
}

/*
 * The text of a list item. A null item decodes to "" in a Go []string,
 * so `apiGroups: [null]` means the core group, while the quoted "null"
 * is a group of that name that does not exist.
 */
static bool item_eq(const struct kvet_node *n, const char *s)
{
	if (n->type == KVET_NODE_NULL)
		return !*s;
	return kvet_node_text_eq(n, s);
}

/* @list contains @s or the wildcard "*". */
static bool list_has(const struct kvet_node *list, const char *s)
{
	uint32_t i;

	for (i = 0; kvet_node_is_seq(list) && i < list->len; i++)
		if (item_eq(&list->u.items[i], "*") ||
		    item_eq(&list->u.items[i], s))
			return true;
	return false;
}

/* "<a>/<b>" as one item; @a and @b are not NUL-joined anywhere. */
static bool item_eq2(const struct kvet_node *n, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	return kvet_node_is_scalar(n) && n->type != KVET_NODE_NULL &&
	       n->len == la + 1 + lb && memcmp(n->u.str, a, la) == 0 &&
	       n->u.str[la] == '/' && memcmp(n->u.str + la + 1, b, lb) == 0;
}

/*
 * A lone star means every resource but no subresource; star-slash-star
 * means everything; "pods/" plus a star every subresource of pods; a star
 * plus "/scale" the scale subresource of every resource.
 */
static bool resources_match(const struct kvet_node *list, const char *res,
			    const char *sub)
{
	uint32_t i;

	for (i = 0; kvet_node_is_seq(list) && i < list->len; i++) {
		const struct kvet_node *n = &list->u.items[i];

		if (item_eq(n, "*/*"))
			return true;
		if (!*sub) {
			if (item_eq(n, "*") || item_eq(n, res))
				return true;
			continue;
		}
		if (item_eq2(n, res, sub) || item_eq2(n, res, "*") ||
		    item_eq2(n, "*", sub))
			return true;
	}
	return false;
}

static bool scope_matches(const struct kvet_node *scope, const char *ns)
{
	if (kvet_node_is_null(scope) || kvet_node_text_eq(scope, "*"))
		return true;
	if (kvet_node_text_eq(scope, "Namespaced"))
		return *ns != '\0';
	if (kvet_node_text_eq(scope, "Cluster"))
		return *ns == '\0';
	/* any other value is rejected by validation */
	return false;
}

/* "A B" joined by @sep onto *@acc. */
static void append(struct kvet_arena *arena, const char **acc,
		   const char *sep, const struct kvet_node *n)
{
	const char *s;

	if (!kvet_node_is_scalar(n))
		return;
	s = kvet_arena_printf(arena, "%s%s%.*s", *acc, **acc ? sep : "",
			      (int)n->len, n->u.str);
	if (s)
		*acc = s;
}

const char *kvet_webhook_rules_text(struct kvet_arena *arena,
				    const struct kvet_webhook *wh, size_t max)
{
	const struct kvet_node *rules = wh->rules;
	const char *all = "", *s;
	uint32_t i, j;

	for (i = 0; kvet_node_is_seq(rules) && i < rules->len && i < max;
	     i++) {
		const struct kvet_node *r = &rules->u.items[i];
		const struct kvet_node *ops = kvet_node_get(r, "operations");
		const struct kvet_node *res = kvet_node_get(r, "resources");
		const char *o = "", *rs = "";

		for (j = 0; kvet_node_is_seq(ops) && j < ops->len; j++)
			append(arena, &o, " ", &ops->u.items[j]);
		for (j = 0; kvet_node_is_seq(res) && j < res->len; j++)
			append(arena, &rs, ", ", &res->u.items[j]);
		if (!*o && !*rs)
			continue;
		s = kvet_arena_printf(arena, "%s%s%s %s", all,
				      *all ? "; " : "", o, rs);
		if (s)
			all = s;
	}
	return all;
}

bool kvet_webhook_rule_matches(const struct kvet_node *rule, bool equivalent,
			       const struct kvet_request *req)
{
	const struct kvet_node *versions = kvet_node_get(rule, "apiVersions");

	if (!list_has(kvet_node_get(rule, "operations"),
		      or_empty(req->operation)) ||
	    !list_has(kvet_node_get(rule, "apiGroups"), or_empty(req->group)))
		return false;
	/*
	 * Equivalent: the API server converts the request to a version the
	 * rule lists, so any version of the resource is sent, provided the
	 * rule lists one at all.
	 */
	if (equivalent) {
		if (!kvet_node_is_seq(versions) || !versions->len)
			return false;
	} else if (!list_has(versions, or_empty(req->version))) {
		return false;
	}
	return resources_match(kvet_node_get(rule, "resources"),
			       or_empty(req->resource),
			       or_empty(req->subresource)) &&
	       scope_matches(kvet_node_get(rule, "scope"),
			     or_empty(req->namespace));
}

static bool exempt(const struct kvet_request *req)
{
	size_t i;

	if (strcmp(or_empty(req->group), "admissionregistration.k8s.io") != 0)
		return false;
	for (i = 0; i < sizeof(exempt_resources) / sizeof(exempt_resources[0]);
	     i++)
		if (strcmp(or_empty(req->resource), exempt_resources[i]) == 0)
			return true;
	return false;
}

static enum kvet_match rules_step(const struct kvet_webhook *wh,
				  const struct kvet_request *req,
				  const struct kvet_node **rule)
{
	uint32_t i;

	*rule = NULL;
	if (wh->source == KVET_WEBHOOK_CONVERSION) {
		/* every request for the CRD's resource, any subresource */
		if (wh->crd_group && wh->crd_plural &&
		    strcmp(or_empty(req->group), wh->crd_group) == 0 &&
		    strcmp(or_empty(req->resource), wh->crd_plural) == 0) {
			*rule = wh->node;
			return KVET_MATCH_TRUE;
		}
		return KVET_MATCH_FALSE;
	}
	for (i = 0; kvet_node_is_seq(wh->rules) && i < wh->rules->len; i++) {
		if (kvet_webhook_rule_matches(&wh->rules->u.items[i],
					      wh->match_equivalent, req)) {
			*rule = &wh->rules->u.items[i];
			return KVET_MATCH_TRUE;
		}
	}
	return KVET_MATCH_FALSE;
}

enum kvet_match kvet_webhook_intercepts(const struct kvet_graph *g,
					const struct kvet_webhook *wh,
					const struct kvet_request *req,
					struct kvet_interception *out)
{
	struct kvet_interception r;
	const char *ns = or_empty(req->namespace);
	enum kvet_match step1;

	memset(&r, 0, sizeof(r));
	r.namespace_step = KVET_MATCH_TRUE;
	r.object_step = KVET_MATCH_TRUE;
	step1 = exempt(req) ? KVET_MATCH_FALSE : rules_step(wh, req, &r.rule);
	if (wh->source != KVET_WEBHOOK_CONVERSION) {
		/* cluster-scoped requests are never skipped by it */
		if (*ns)
			r.namespace_step = kvet_graph_match_namespace(
				g, &wh->namespace_selector, ns);
		r.object_step = kvet_selector_matches(&wh->object_selector,
						      req->labels,
						      req->runtime) ?
				KVET_MATCH_TRUE : KVET_MATCH_FALSE;
		r.conditions = kvet_node_is_seq(wh->match_conditions) &&
			       wh->match_conditions->len > 0;
	}
	r.result = kvet_match_and(step1, kvet_match_and(r.namespace_step,
							r.object_step));
	/* kvet does not evaluate CEL: a TRUE result becomes UNKNOWN */
	if (r.conditions)
		r.result = kvet_match_and(r.result, KVET_MATCH_UNKNOWN);
	if (out)
		*out = r;
	return r.result;
}

enum kvet_match kvet_webhook_intercepts_any(const struct kvet_graph *g,
					    const struct kvet_webhook *wh,
					    const struct kvet_request *req,
					    struct kvet_interception *out)
{
	struct kvet_request some = *req;
	struct kvet_labels none = { NULL, 0 };
	enum kvet_match m;

	if (!req->namespace || strcmp(req->namespace, KVET_ANY_NAMESPACE))
		return kvet_webhook_intercepts(g, wh, req, out);
	some.namespace = "kvet-any-namespace";
	kvet_webhook_intercepts(g, wh, &some, out);
	if (wh->source == KVET_WEBHOOK_CONVERSION ||
	    wh->namespace_selector.meaning == KVET_SEL_EVERYTHING)
		out->namespace_step = KVET_MATCH_TRUE;
	else if (wh->namespace_selector.meaning != KVET_SEL_MATCH)
		out->namespace_step = KVET_MATCH_FALSE;
	else	/* a namespace with no labels of its own */
		out->namespace_step = kvet_selector_match_namespace(
			&wh->namespace_selector, "kvet-any-namespace", &none) ==
			KVET_MATCH_TRUE ? KVET_MATCH_TRUE :
			KVET_MATCH_ASSUMED_TRUE;
	m = kvet_match_and(out->rule ? KVET_MATCH_TRUE : KVET_MATCH_FALSE,
			   kvet_match_and(out->namespace_step,
					  out->object_step));
	if (out->conditions)
		m = kvet_match_and(m, KVET_MATCH_UNKNOWN);
	out->result = m;
	return m;
}

bool kvet_webhook_intercepts_critical(const struct kvet_graph *g,
				      const struct kvet_webhook *wh)
{
	/* group, resource, namespace: each asked for CREATE and UPDATE, in
	 * version v1; in kube-system, what its add-ons and the control
	 * plane write there (leader leases, their configuration, their
	 * tokens, their controllers, their endpoints) */
	static const char *const asked[][3] = {
		{ "", "pods", KVET_ANY_NAMESPACE },
		{ "", "nodes", "" },
		{ "", "namespaces", "" },
		{ "coordination.k8s.io", "leases", "kube-system" },
		{ "coordination.k8s.io", "leases", "kube-node-lease" },
		{ "", "configmaps", "kube-system" },
		{ "", "secrets", "kube-system" },
		{ "", "serviceaccounts", "kube-system" },
		{ "", "endpoints", "kube-system" },
		{ "discovery.k8s.io", "endpointslices", "kube-system" },
		{ "apps", "deployments", "kube-system" },
		{ "apps", "daemonsets", "kube-system" },
	};
	static const char *const ops[] = { "CREATE", "UPDATE" };
	struct kvet_labels none = { NULL, 0 };
	struct kvet_interception r;
	struct kvet_request req;
	size_t i, k;

	for (i = 0; i < sizeof(asked) / sizeof(asked[0]); i++)
		for (k = 0; k < sizeof(ops) / sizeof(ops[0]); k++) {
			memset(&req, 0, sizeof(req));
			req.operation = ops[k];
			req.group = asked[i][0];
			req.version = "v1";
			req.resource = asked[i][1];
			req.subresource = "";
			req.namespace = asked[i][2];
			req.labels = &none;
			switch (kvet_webhook_intercepts_any(g, wh, &req, &r)) {
			case KVET_MATCH_TRUE:
			case KVET_MATCH_ASSUMED_TRUE:
			case KVET_MATCH_UNKNOWN:
				return true;
			case KVET_MATCH_FALSE:
			case KVET_MATCH_ASSUMED_FALSE:
				break;
			}
		}
	return false;
}

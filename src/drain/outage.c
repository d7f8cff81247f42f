/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/outage.h"

#include <string.h>

#include "drain/relate.h"
#include "model/intercept.h"

struct svc_collect {
	struct drain_cluster *c;
	struct drain_pairs *pairs;
	uint32_t service;
};

static int collect_svc(void *data, uint32_t pod)
{
	struct svc_collect *k = data;
	struct drain_service *s = &k->c->services[k->service];
	const struct drain_pod *p = &k->c->pods[pod];

	drain_pairs_add(k->pairs, pod, k->service);
	if (p->node != DRAIN_NONE && !kvet_pod_phase_terminal(p->phase)) {
		s->total++;
		s->ready += p->ready;
	}
	return 0;
}

int drain_services_build(struct drain_cluster *c,
			 const struct drain_pod_index *idx)
{
	struct kvet_object *const *objs;
	struct drain_pairs pairs = { 0 };
	struct svc_collect k = { c, &pairs, 0 };
	size_t n, i;

	objs = kvet_graph_kind(c->g, "", "Service", &n);
	c->services = kvet_arena_array(c->arena, n + 1, sizeof(*c->services));
	if (!c->services)
		return -1;
	for (i = 0; i < n; i++) {
		struct drain_service *s = &c->services[c->n_services];
		const struct kvet_node *spec = kvet_node_get(objs[i]->root,
							     "spec");

		memset(s, 0, sizeof(*s));
		s->obj = objs[i];
		if (kvet_selector_parse(c->arena, kvet_node_get(spec, "selector"),
					KVET_SEL_FIELD_SERVICE, &s->sel) < 0) {
			drain_pairs_finish(c, &pairs, 0, 0);
			return -1;
		}
		k.service = c->n_services++;
		if (kvet_node_eq(kvet_node_get(spec, "type"), "ExternalName"))
			continue;
		drain_pod_index_select(idx, c, objs[i]->namespace, &s->sel,
				       collect_svc, &k);
	}
	return drain_pairs_finish(c, &pairs,
				  offsetof(struct drain_pod, services),
				  offsetof(struct drain_pod, n_services));
}

static uint32_t service_of(const struct drain_cluster *c,
			   const struct kvet_object *obj)
{
	uint32_t i;

	for (i = 0; i < c->n_services; i++)
		if (c->services[i].obj == obj)
			return i;
	return DRAIN_NONE;
}

int drain_webhooks_build(struct drain_cluster *c)
{
	const struct kvet_webhook *const *whs;
	size_t n, i;

	c->whs = kvet_webhooks_create(c->arena, c->g);
	if (!c->whs)
		return -1;
	whs = kvet_webhooks_entries(c->whs, &n);
	c->webhooks = kvet_arena_array(c->arena, n + 1, sizeof(*c->webhooks));
	if (!c->webhooks)
		return -1;
	for (i = 0; i < n; i++) {
		const struct kvet_webhook *wh = whs[i];
		uint32_t s;

		/* CRD conversion webhooks intercept custom resources, not
		 * pods: they are outages, not blockers, and not modelled */
		if (wh->failure_policy != KVET_FAILURE_FAIL ||
		    wh->source == KVET_WEBHOOK_CONVERSION ||
		    !wh->backend.service)
			continue;
		s = service_of(c, wh->backend.service);
		if (s == DRAIN_NONE)
			continue;
		c->webhooks[c->n_webhooks].wh = wh;
		c->webhooks[c->n_webhooks].service = s;
		c->n_webhooks++;
	}
	return 0;
}

int drain_sts_build(struct drain_cluster *c)
{
	struct kvet_workload *const *wls;
	size_t n, i;
	uint32_t p;

	wls = kvet_graph_workloads(c->g, &n);
	c->sts = kvet_arena_array(c->arena, n + 1, sizeof(*c->sts));
	if (!c->sts)
		return -1;
	for (i = 0; i < n; i++) {
		if (wls[i]->kind != KVET_WL_STATEFULSET ||
		    wls[i]->replicas.state != KVET_REPLICAS_KNOWN)
			continue;
		c->sts[c->n_sts].wl = wls[i];
		c->sts[c->n_sts].replicas = wls[i]->replicas.spec;
		c->n_sts++;
	}
	for (p = 0; p < c->n_pods; p++) {
		struct drain_pod *pod = &c->pods[p];

		if (!pod->wl || pod->wl->kind != KVET_WL_STATEFULSET)
			continue;
		for (i = 0; i < c->n_sts; i++)
			if (c->sts[i].wl == pod->wl) {
				pod->sts = (uint32_t)i;
				c->sts[i].ready += pod->ready;
			}
	}
	return 0;
}

bool drain_pod_backs(const struct drain_cluster *c, uint32_t p, uint32_t w)
{
	const struct drain_pod *pod = &c->pods[p];
	uint32_t i;

	for (i = 0; i < pod->n_services; i++)
		if (pod->services[i] == c->webhooks[w].service)
			return true;
	return false;
}

uint32_t drain_webhook_refusing(struct drain_cluster *c, uint32_t p,
				const char *sub)
{
	const struct drain_pod *pod = &c->pods[p];
	struct kvet_request req;
	enum kvet_match m;
	uint32_t i;

	memset(&req, 0, sizeof(req));
	req.operation = "CREATE";
	req.group = "";
	req.version = "v1";
	req.resource = "pods";
	req.subresource = sub;
	req.namespace = pod->ns;
	req.labels = &pod->labels;
	for (i = 0; i < c->n_webhooks; i++) {
		if (!drain_webhook_down(c, &c->webhooks[i]))
			continue;
		m = kvet_webhook_intercepts(c->g, c->webhooks[i].wh, &req,
					    NULL);
		/* an opt-out namespaceSelector on a namespace the dump does
		 * not label, and matchConditions kvet does not evaluate,
		 * count as intercepting: the outage is the risk to show */
		if (m == KVET_MATCH_TRUE || m == KVET_MATCH_ASSUMED_TRUE ||
		    m == KVET_MATCH_UNKNOWN)
			return i;
	}
	return DRAIN_NONE;
}

const char *drain_webhook_error(struct drain_cluster *c, uint32_t w)
{
	const struct kvet_webhook *wh = c->webhooks[w].wh;
	const struct kvet_service_ref *s = &wh->service;
	const char *m;

	m = kvet_arena_printf(c->arena,
		"Internal error occurred: failed calling webhook \"%s\": failed to call webhook: Post \"https://%s.%s.svc:%lld%s?timeout=10s\": no endpoints available for service \"%s\"",
		wh->name, s->name, s->namespace, (long long)s->port,
		s->path ? s->path : "", s->name);
	if (!m)
		c->oom = true;
	return m ? m : "";
}

/* "A B" joined by @sep onto *@acc. */
static void append(struct drain_cluster *c, const char **acc, const char *sep,
		   const struct kvet_node *n)
{
	const char *s;

	if (!kvet_node_is_scalar(n))
		return;
	s = kvet_arena_printf(c->arena, "%s%s%.*s", *acc, **acc ? sep : "",
			      (int)n->len, n->u.str);
	if (s)
		*acc = s;
}

const char *drain_webhook_operations(struct drain_cluster *c, uint32_t w)
{
	const struct kvet_node *rules = c->webhooks[w].wh->rules;
	const char *all = "", *s;
	uint32_t i, j;

	for (i = 0; kvet_node_is_seq(rules) && i < rules->len && i < 4; i++) {
		const struct kvet_node *r = &rules->u.items[i];
		const struct kvet_node *ops = kvet_node_get(r, "operations");
		const struct kvet_node *res = kvet_node_get(r, "resources");
		const char *o = "", *rs = "";

		for (j = 0; kvet_node_is_seq(ops) && j < ops->len; j++)
			append(c, &o, " ", &ops->u.items[j]);
		for (j = 0; kvet_node_is_seq(res) && j < res->len; j++)
			append(c, &rs, ", ", &res->u.items[j]);
		if (!*o && !*rs)
			continue;
		s = kvet_arena_printf(c->arena, "%s%s%s %s", all,
				      *all ? "; " : "", o, rs);
		if (s)
			all = s;
	}
	return *all ? all : "every request it matches";
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "drain/outage.h"

#include <stdlib.h>
#include <string.h>

#include "base/vec.h"
#include "drain/quorum.h"
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

		memset(s, 0, sizeof(*s));
		s->obj = objs[i];
		if (kvet_service_parse(c->arena, objs[i], &s->svc) < 0) {
			drain_pairs_finish(c, &pairs, 0, 0);
			return -1;
		}
		k.service = c->n_services++;
		if (s->svc.external_name)
			continue;
		drain_pod_index_select(idx, c, objs[i]->namespace,
				       &s->svc.selector, collect_svc, &k);
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

static int cmp_hook_key(const void *pa, const void *pb)
{
	const struct drain_hook_key *a = pa, *b = pb;
	int r = kvet_slice_cmp(a->key, b->key);

	if (!r)
		r = kvet_slice_cmp(a->value, b->value);
	return r ? r : (a->webhook > b->webhook) - (a->webhook < b->webhook);
}

/* The first requirement of @w's objectSelector a pod must meet with one
 * of a few values (matchLabels, In), or NULL. */
static const struct kvet_requirement *key_of(const struct drain_webhook *w)
{
	const struct kvet_selector *sel = &w->wh->object_selector;
	size_t i;

	if (sel->meaning != KVET_SEL_MATCH)
		return NULL;
	for (i = 0; i < sel->n_reqs; i++)
		if (sel->reqs[i].op == KVET_SEL_IN && sel->reqs[i].n_values)
			return &sel->reqs[i];
	return NULL;
}

/* Webhooks by the label value their objectSelector requires, the others
 * in c->hook_any: which may intercept a pod is then its labels' lookup. */
static int index_object_selectors(struct drain_cluster *c)
{
	const struct kvet_requirement *r;
	size_t n = 0, k = 0, i;
	uint32_t w;

	c->hook_any = kvet_arena_array(c->arena, c->n_webhooks + 1,
				       sizeof(*c->hook_any));
	if (!c->hook_any)
		return -1;
	for (w = 0; w < c->n_webhooks; w++) {
		r = key_of(&c->webhooks[w]);
		if (r)
			n += r->n_values;
		else
			c->hook_any[c->n_hook_any++] = w;
	}
	if (n >= DRAIN_NONE)
		return -1;
	c->hook_keys = kvet_arena_array(c->arena, n + 1, sizeof(*c->hook_keys));
	if (!c->hook_keys)
		return -1;
	for (w = 0; w < c->n_webhooks; w++) {
		r = key_of(&c->webhooks[w]);
		for (i = 0; r && i < r->n_values; i++) {
			c->hook_keys[k].key = r->key;
			c->hook_keys[k].value = r->values[i];
			c->hook_keys[k++].webhook = w;
		}
	}
	if (k)
		qsort(c->hook_keys, k, sizeof(*c->hook_keys), cmp_hook_key);
	c->n_hook_keys = (uint32_t)k;
	return 0;
}

/*
 * Each Service's webhooks, and room for each pod's: a pod's going or a
 * replacement's creation then costs the webhooks it meets, not every
 * webhook of the cluster (a chain of 1,600 webhooks was N^2.5).
 */
static int index_webhooks(struct drain_cluster *c)
{
	uint32_t *all, w, s, at = 0;

	all = kvet_arena_array(c->arena, c->n_webhooks + 1, sizeof(*all));
	c->hooks = kvet_arena_array(c->arena, c->n_pods + 1, sizeof(*c->hooks));
	if (!all || !c->hooks)
		return -1;
	c->n_hooks = c->n_pods;
	for (w = 0; w < c->n_webhooks; w++)
		c->services[c->webhooks[w].service].n_webhooks++;
	for (s = 0; s < c->n_services; s++) {
		c->services[s].webhooks = all + at;
		at += c->services[s].n_webhooks;
		c->services[s].n_webhooks = 0;
	}
	for (w = 0; w < c->n_webhooks; w++) {
		struct drain_service *svc;

		svc = &c->services[c->webhooks[w].service];
		((uint32_t *)svc->webhooks)[svc->n_webhooks++] = w;
	}
	return index_object_selectors(c);
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
	return index_webhooks(c);
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
		c->sts[c->n_sts].ordered =
			kvet_statefulset_ordered_ready(wls[i]);
		/* a pool runs N_min of them */
		c->sts[c->n_sts].replicas = c->synthetic
						    ? wls[i]->replicas.min
						    : wls[i]->replicas.spec;
		c->sts[c->n_sts].quorum_why = drain_quorum_why(
			c->arena, wls[i], c->sts[c->n_sts].replicas);
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
				c->sts[i].n_members++;
			}
	}
	for (i = 0; i < c->n_sts; i++) {
		c->sts[i].members = kvet_arena_array(c->arena,
						     c->sts[i].n_members + 1,
						     sizeof(uint32_t));
		if (!c->sts[i].members)
			return -1;
		c->sts[i].n_members = 0;
	}
	for (p = 0; p < c->n_pods; p++) {
		struct drain_sts *s;

		if (c->pods[p].sts == DRAIN_NONE)
			continue;
		s = &c->sts[c->pods[p].sts];
		s->members[s->n_members++] = p;
	}
	return 0;
}

/* Does webhook @w intercept @sub ("" or "eviction") of pod @p? */
static bool intercepts(struct drain_cluster *c, uint32_t p, uint32_t w,
		       const char *sub)
{
	const struct drain_pod *pod = &c->pods[p];
	struct kvet_request req;
	enum kvet_match m;

	memset(&req, 0, sizeof(req));
	req.operation = "CREATE";
	req.group = "";
	req.version = "v1";
	req.resource = "pods";
	req.subresource = sub;
	req.namespace = pod->ns;
	req.labels = &pod->labels;
	m = kvet_webhook_intercepts(c->g, c->webhooks[w].wh, &req, NULL);
	/* an opt-out namespaceSelector on a namespace the dump does not
	 * label, and matchConditions kvet does not evaluate, count as
	 * intercepting: the outage is the risk to show */
	return m == KVET_MATCH_TRUE || m == KVET_MATCH_ASSUMED_TRUE ||
	       m == KVET_MATCH_UNKNOWN;
}

static int cmp_u32(const void *pa, const void *pb)
{
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;

	return (a > b) - (a < b);
}

/* The webhooks whose objectSelector pod @p may meet: those indexed
 * under one of its labels, and those not indexed; sorted, into *@out
 * (malloc'd). Returns how many, or -1 when out of memory. */
static long candidates(struct drain_cluster *c, uint32_t p, uint32_t **out)
{
	const struct kvet_labels *labels = &c->pods[p].labels;
	uint32_t *v = NULL;
	size_t n = 0, cap = 0, i, lo, hi, mid;
	struct drain_hook_key want;

	for (i = 0; i < labels->n; i++) {
		want.key = labels->v[i].key;
		want.value = labels->v[i].value;
		want.webhook = 0;
		for (lo = 0, hi = c->n_hook_keys; lo < hi;) {
			mid = lo + (hi - lo) / 2;
			if (cmp_hook_key(&c->hook_keys[mid], &want) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (; lo < c->n_hook_keys &&
		       kvet_slice_eq(c->hook_keys[lo].key, want.key) &&
		       kvet_slice_eq(c->hook_keys[lo].value, want.value);
		     lo++) {
			if (!kvet_vec_grow((void **)&v, &cap, n + 1,
					   sizeof(*v)))
				goto oom;
			v[n++] = c->hook_keys[lo].webhook;
		}
	}
	if (!kvet_vec_grow((void **)&v, &cap, n + c->n_hook_any + 1,
			   sizeof(*v)))
		goto oom;
	if (c->n_hook_any)
		memcpy(v + n, c->hook_any, c->n_hook_any * sizeof(*v));
	n += c->n_hook_any;
	qsort(v, n, sizeof(*v), cmp_u32);
	*out = v;
	return (long)n;
oom:
	free(v);
	return -1;
}

/* The webhooks that intercept @sub of pod @p, into *@out; false when
 * out of memory. */
static bool hooks_of(struct drain_cluster *c, uint32_t p, const char *sub,
		     const uint32_t **out, uint32_t *n)
{
	uint32_t *cand = NULL, *v;
	long k, i;
	uint32_t m = 0;

	k = candidates(c, p, &cand);
	if (k < 0)
		return false;
	v = kvet_arena_array(c->arena, (size_t)k + 1, sizeof(*v));
	if (!v) {
		free(cand);
		return false;
	}
	for (i = 0; i < k; i++)
		if ((!i || cand[i] != cand[i - 1]) &&
		    intercepts(c, p, cand[i], sub))
			v[m++] = cand[i];
	free(cand);
	*out = v;
	*n = m;
	return true;
}

bool drain_webhooks_creating(struct drain_cluster *c, uint32_t p,
			     const uint32_t **v, uint32_t *n)
{
	uint32_t o = c->pods[p].origin != DRAIN_NONE ? c->pods[p].origin : p;
	struct drain_pod_hooks *h;

	if (!c->n_webhooks || o >= c->n_hooks)
		return false;
	h = &c->hooks[o];
	if (!h->create_known)
		h->create_known = hooks_of(c, o, "", &h->create, &h->n_create);
	if (!h->create_known) {
		c->oom = true;
		return false;
	}
	*v = h->create;
	*n = h->n_create;
	return true;
}

uint32_t drain_webhook_refusing(struct drain_cluster *c, uint32_t p,
				const char *sub)
{
	uint32_t o = c->pods[p].origin != DRAIN_NONE ? c->pods[p].origin : p;
	bool evict = *sub != '\0';
	struct drain_pod_hooks *h;
	const uint32_t *v;
	uint32_t i, n;

	if (!c->n_webhooks)
		return DRAIN_NONE;
	if (o >= c->n_hooks) {
		/* a pod the index has no room for: ask every webhook */
		for (i = 0; i < c->n_webhooks; i++)
			if (drain_webhook_down(c, &c->webhooks[i]) &&
			    intercepts(c, p, i, sub))
				return i;
		return DRAIN_NONE;
	}
	h = &c->hooks[o];
	if (evict && !h->evict_known)
		h->evict_known = hooks_of(c, o, sub, &h->evict, &h->n_evict);
	else if (!evict && !h->create_known)
		h->create_known = hooks_of(c, o, sub, &h->create, &h->n_create);
	if (!(evict ? h->evict_known : h->create_known)) {
		c->oom = true;
		return DRAIN_NONE;
	}
	v = evict ? h->evict : h->create;
	n = evict ? h->n_evict : h->n_create;
	for (i = 0; i < n; i++)
		if (drain_webhook_down(c, &c->webhooks[v[i]]))
			return v[i];
	return DRAIN_NONE;
}

const char *drain_webhook_error(struct drain_cluster *c, uint32_t w)
{
	const struct kvet_webhook *wh = c->webhooks[w].wh;
	const struct kvet_service_ref *s = &wh->service;
	const char *m;

	/* the same words every time: made once, not once per retry */
	if (c->webhooks[w].error)
		return c->webhooks[w].error;
	m = kvet_arena_printf(c->arena,
		"Internal error occurred: failed calling webhook \"%s\": failed to call webhook: Post \"https://%s.%s.svc:%lld%s?timeout=10s\": no endpoints available for service \"%s\"",
		wh->name, s->name, s->namespace, (long long)s->port,
		s->path ? s->path : "", s->name);
	if (!m)
		c->oom = true;
	c->webhooks[w].error = m;
	return m ? m : "";
}

const char *drain_webhook_operations(struct drain_cluster *c, uint32_t w)
{
	const char *all = kvet_webhook_rules_text(c->arena,
						  c->webhooks[w].wh, 4);

	return *all ? all : "every request it matches";
}

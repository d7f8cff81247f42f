/* SPDX-License-Identifier: Apache-2.0 */
#include "model/webhook.h"

#include <stdlib.h>
#include <string.h>

#include "model/hash.h"
#include "model/service.h"
#include "model/run.h"

#define ADMISSION_GROUP "admissionregistration.k8s.io"
#define CRD_GROUP "apiextensions.k8s.io"
#define APISERVICE_GROUP "apiregistration.k8s.io"

/* The port the API server dials when clientConfig.service.port is unset. */
enum { DEFAULT_WEBHOOK_PORT = 443 };

/* What one workload serves. */
struct backs {
	const struct kvet_webhook **entries;
	const struct kvet_apiservice **apis;
	uint32_t n_entries, n_apis;
	uint32_t fill_entries, fill_apis;
};

struct kvet_webhooks {
	struct kvet_arena *arena;
	const struct kvet_graph *g;
	const struct kvet_webhook **entries;
	size_t n_entries;
	const struct kvet_webhook **by_node;	/* entries by node address */
	const struct kvet_apiservice **apis;
	size_t n_apis;
	struct backs *by_wl;		/* indexed by workload index */
	size_t n_wls;
	struct kvet_hash services;	/* ns, name -> resolved kvet_backend */
};

const char *kvet_failure_policy_name(enum kvet_failure_policy fp)
{
	switch (fp) {
	case KVET_FAILURE_FAIL:
		return "Fail";
	case KVET_FAILURE_IGNORE:
		return "Ignore";
	case KVET_FAILURE_INVALID:
		return "invalid";
	}
	return "?";
}

const char *kvet_backend_state_name(enum kvet_backend_state state)
{
	static const char *const names[] = {
		[KVET_BACKEND_NONE] = "none",
		[KVET_BACKEND_URL] = "url",
		[KVET_BACKEND_MISSING] = "missing service",
		[KVET_BACKEND_EXTERNAL] = "external",
		[KVET_BACKEND_WORKLOADS] = "workloads",
		[KVET_BACKEND_APISERVER] = "apiserver",
	};

	return (unsigned)state < sizeof(names) / sizeof(names[0]) ?
	       names[state] : "?";
}

/* A NUL-terminated copy of a string scalar, or @dflt. */
static const char *str_dup(struct kvet_arena *arena, const struct kvet_node *n,
			   const char *dflt, bool *oom)
{
	char *s;

	if (!kvet_node_is_string(n))
		return dflt;
	s = kvet_arena_strndup(arena, n->u.str, n->len);
	if (!s)
		*oom = true;
	return s ? s : dflt;
}

static int parse_service_ref(struct kvet_arena *arena,
			     const struct kvet_node *svc,
			     struct kvet_service_ref *out)
{
	const struct kvet_node *port = kvet_node_get(svc, "port");
	bool oom = false;
	long long v;

	memset(out, 0, sizeof(*out));
	out->node = svc;
	out->namespace = str_dup(arena, kvet_node_get(svc, "namespace"), "",
				 &oom);
	out->name = str_dup(arena, kvet_node_get(svc, "name"), "", &oom);
	out->path = str_dup(arena, kvet_node_get(svc, "path"), NULL, &oom);
	out->port = DEFAULT_WEBHOOK_PORT;
	if (!kvet_node_is_null(port)) {
		out->port_node = port;
		/* a port of the wrong type is check_types' to report */
		if (kvet_node_int(port, &v))
			out->port = v;
	}
	return oom ? -1 : 0;
}

void kvet_backend_count(struct kvet_backend *b, const struct kvet_workload *wl)
{
	switch (wl->replicas.state) {
	case KVET_REPLICAS_KNOWN:
		b->n_min += wl->replicas.min;
		b->n_max += wl->replicas.max;
		break;
	case KVET_REPLICAS_UNKNOWN:
		/* a DaemonSet runs one pod per eligible node; a cluster
		 * that runs webhooks has at least two nodes (1.10) */
		b->n_min += 2;
		b->n_max += 2;
		b->at_least = true;
		break;
	case KVET_REPLICAS_EXCLUDED:
		/* Jobs finish: they serve nobody for long */
		break;
	}
}

/*
 * Resolve Service @ref->namespace/@ref->name once per run: several
 * entries of one configuration usually share a Service.
 */
static int resolve(struct kvet_webhooks *whs,
		   const struct kvet_service_ref *ref, struct kvet_backend *out)
{
	struct kvet_slice parts[2] = { kvet_slice_of(ref->namespace),
				       kvet_slice_of(ref->name) };
	const struct kvet_workload **wls;
	struct kvet_service svc;
	struct kvet_backend *b;
	void **slot;
	size_t i, n;

	slot = kvet_hash_put(&whs->services, parts, 2, NULL);
	if (!slot)
		return -1;
	if (*slot) {
		*out = *(struct kvet_backend *)*slot;
		return 0;
	}
	b = kvet_arena_alloc(whs->arena, sizeof(*b));
	if (!b)
		return -1;
	*slot = b;
	b->service = kvet_graph_find(whs->g, "", "Service", ref->namespace,
				     ref->name);
	if (!b->service) {
		b->state = kvet_service_is_apiserver(ref->namespace, ref->name)
				   ? KVET_BACKEND_APISERVER
				   : KVET_BACKEND_MISSING;
		goto out;
	}
	if (kvet_service_parse(whs->arena, b->service, &svc))
		return -1;
	if (svc.external_name) {
		b->state = KVET_BACKEND_EXTERNAL;
		goto out;
	}
	b->state = KVET_BACKEND_WORKLOADS;
	if (kvet_service_workloads(whs->arena, whs->g, &svc, &wls, &n))
		return -1;
	b->wls = wls;
	b->n_wls = n;
	for (i = 0; i < n; i++)
		kvet_backend_count(b, wls[i]);
out:
	*out = *b;
	return 0;
}

static int read_client_config(struct kvet_webhooks *whs,
			      struct kvet_webhook *wh,
			      const struct kvet_node *cc)
{
	const struct kvet_node *svc = kvet_node_get(cc, "service");
	const struct kvet_node *url = kvet_node_get(cc, "url");

	wh->client_config = cc;
	if (!kvet_node_is_null(url))
		wh->url = url;
	if (kvet_node_is_map(svc)) {
		wh->has_service = true;
		if (parse_service_ref(whs->arena, svc, &wh->service))
			return -1;
		return resolve(whs, &wh->service, &wh->backend);
	}
	wh->backend.state = wh->url ? KVET_BACKEND_URL : KVET_BACKEND_NONE;
	return 0;
}

static int read_entry(struct kvet_webhooks *whs, const struct kvet_object *obj,
		      const struct kvet_node *n, uint32_t index,
		      struct kvet_webhook *wh)
{
	struct kvet_arena *arena = whs->arena;
	const struct kvet_node *fp, *mp;
	bool oom = false;

	wh->source = kvet_object_is(obj, ADMISSION_GROUP,
			     "MutatingWebhookConfiguration") ?
		     KVET_WEBHOOK_MUTATING : KVET_WEBHOOK_VALIDATING;
	wh->obj = obj;
	wh->index = index;
	wh->node = n;
	wh->v1beta1 = strcmp(obj->version, "v1beta1") == 0;
	wh->name = str_dup(arena, kvet_node_get(n, "name"), "", &oom);
	if (oom)
		return -1;
	wh->id = kvet_arena_printf(arena, "%s/%s#%s", obj->kind, obj->name,
				   wh->name);
	if (!wh->id)
		return -1;
	/* "Default to Fail" in v1; v1beta1 defaulted to Ignore */
	fp = kvet_node_get(n, "failurePolicy");
	if (kvet_node_is_null(fp)) {
		wh->failure_policy = wh->v1beta1 ? KVET_FAILURE_IGNORE :
						   KVET_FAILURE_FAIL;
	} else {
		wh->failure_policy_node = fp;
		if (kvet_node_eq(fp, "Fail"))
			wh->failure_policy = KVET_FAILURE_FAIL;
		else if (kvet_node_eq(fp, "Ignore"))
			wh->failure_policy = KVET_FAILURE_IGNORE;
		else
			wh->failure_policy = KVET_FAILURE_INVALID;
	}
	/* matchPolicy defaults to Equivalent in v1, Exact in v1beta1 */
	mp = kvet_node_get(n, "matchPolicy");
	wh->match_equivalent = kvet_node_is_null(mp) ? !wh->v1beta1 :
			       kvet_node_eq(mp, "Equivalent");
	wh->rules = kvet_node_get(n, "rules");
	wh->match_conditions = kvet_node_get(n, "matchConditions");
	if (kvet_node_is_null(wh->match_conditions))
		wh->match_conditions = NULL;
	if (kvet_selector_parse(arena, kvet_node_get(n, "namespaceSelector"),
				KVET_SEL_FIELD_WEBHOOK,
				&wh->namespace_selector) ||
	    kvet_selector_parse(arena, kvet_node_get(n, "objectSelector"),
				KVET_SEL_FIELD_WEBHOOK, &wh->object_selector))
		return -1;
	return read_client_config(whs, wh, kvet_node_get(n, "clientConfig"));
}

/*
 * A CRD with spec.conversion.strategy Webhook: the API server calls it to
 * convert stored objects between versions, on every request for the CRD,
 * and a failed call fails the request.
 */
static int read_conversion(struct kvet_webhooks *whs,
			   const struct kvet_object *obj,
			   struct kvet_webhook *wh)
{
	const struct kvet_node *spec = kvet_node_get(obj->root, "spec");
	const struct kvet_node *conv = kvet_node_get(spec, "conversion");
	const struct kvet_node *cc;
	bool oom = false;

	wh->source = KVET_WEBHOOK_CONVERSION;
	wh->obj = obj;
	wh->node = conv;
	wh->name = obj->name;
	wh->v1beta1 = strcmp(obj->version, "v1beta1") == 0;
	wh->failure_policy = KVET_FAILURE_FAIL;
	wh->namespace_selector.meaning = KVET_SEL_EVERYTHING;
	wh->object_selector.meaning = KVET_SEL_EVERYTHING;
	wh->id = kvet_arena_printf(whs->arena, "%s/%s#conversion", obj->kind,
				   obj->name);
	wh->crd_group = str_dup(whs->arena, kvet_node_get(spec, "group"), "",
				&oom);
	wh->crd_plural = str_dup(whs->arena,
				 kvet_node_path(spec, "names", "plural", NULL),
				 "", &oom);
	if (!wh->id || oom)
		return -1;
	/* v1 nests it under webhook; v1beta1 has webhookClientConfig */
	cc = kvet_node_path(conv, "webhook", "clientConfig", NULL);
	if (!cc)
		cc = kvet_node_get(conv, "webhookClientConfig");
	return read_client_config(whs, wh, cc);
}

static bool is_config(const struct kvet_object *obj)
{
	return kvet_object_is(obj, ADMISSION_GROUP,
		       "ValidatingWebhookConfiguration") ||
	       kvet_object_is(obj, ADMISSION_GROUP, "MutatingWebhookConfiguration");
}

/* The webhooks of a webhook configuration, NULL for any other object:
 * the kind first, as the index reads every object of the graph and a
 * lookup in each root was 2% of a lint of 100,000 objects. */
static const struct kvet_node *config_hooks(const struct kvet_object *obj)
{
	const struct kvet_node *hooks;

	if (!is_config(obj))
		return NULL;
	hooks = kvet_node_get(obj->root, "webhooks");
	return kvet_node_is_seq(hooks) ? hooks : NULL;
}

static bool is_conversion(const struct kvet_object *obj)
{
	return kvet_object_is(obj, CRD_GROUP, "CustomResourceDefinition") &&
	       kvet_node_eq(kvet_node_path(obj->root, "spec", "conversion",
					   "strategy", NULL), "Webhook");
}

static const struct kvet_node *apiservice_ref(const struct kvet_object *obj)
{
	const struct kvet_node *svc;

	if (!kvet_object_is(obj, APISERVICE_GROUP, "APIService"))
		return NULL;
	/* a null service means the API server serves it locally */
	svc = kvet_node_path(obj->root, "spec", "service", NULL);
	return kvet_node_is_map(svc) ? svc : NULL;
}

static int read_all(struct kvet_webhooks *whs)
{
	struct kvet_object *const *objs;
	struct kvet_webhook *entries;
	struct kvet_apiservice *apis;
	size_t i, n, n_entries = 0, n_apis = 0, e = 0, a = 0;
	uint32_t k;

	objs = kvet_graph_objects(whs->g, &n);
	for (i = 0; i < n; i++) {
		const struct kvet_node *hooks = config_hooks(objs[i]);

		if (hooks)
			n_entries += hooks->len;
		n_entries += is_conversion(objs[i]);
		n_apis += apiservice_ref(objs[i]) != NULL;
	}
	entries = kvet_arena_array(whs->arena, n_entries ? n_entries : 1,
				   sizeof(*entries));
	apis = kvet_arena_array(whs->arena, n_apis ? n_apis : 1, sizeof(*apis));
	whs->entries = kvet_arena_array(whs->arena, n_entries ? n_entries : 1,
					sizeof(*whs->entries));
	whs->apis = kvet_arena_array(whs->arena, n_apis ? n_apis : 1,
				     sizeof(*whs->apis));
	if (!entries || !apis || !whs->entries || !whs->apis)
		return -1;
	for (i = 0; i < n; i++) {
		const struct kvet_object *obj = objs[i];
		const struct kvet_node *hooks = config_hooks(obj);
		const struct kvet_node *svc = apiservice_ref(obj);

		for (k = 0; hooks && k < hooks->len; k++) {
			if (!kvet_node_is_map(&hooks->u.items[k]))
				continue;
			if (read_entry(whs, obj, &hooks->u.items[k], k,
				       &entries[e]))
				return -1;
			whs->entries[e] = &entries[e];
			e++;
		}
		if (is_conversion(obj)) {
			if (read_conversion(whs, obj, &entries[e]))
				return -1;
			whs->entries[e] = &entries[e];
			e++;
		}
		if (svc) {
			apis[a].obj = obj;
			if (parse_service_ref(whs->arena, svc,
					      &apis[a].service) ||
			    resolve(whs, &apis[a].service, &apis[a].backend))
				return -1;
			whs->apis[a] = &apis[a];
			a++;
		}
	}
	whs->n_entries = e;
	whs->n_apis = a;
	return 0;
}

/* workload -> what it backs, in two passes so the lists are exact. */
static int index_backends(struct kvet_webhooks *whs)
{
	size_t i, j;

	kvet_graph_workloads(whs->g, &whs->n_wls);
	whs->by_wl = kvet_arena_array(whs->arena, whs->n_wls ? whs->n_wls : 1,
				      sizeof(*whs->by_wl));
	if (!whs->by_wl)
		return -1;
	for (i = 0; i < whs->n_entries; i++)
		for (j = 0; j < whs->entries[i]->backend.n_wls; j++)
			whs->by_wl[whs->entries[i]->backend.wls[j]->index]
				.n_entries++;
	for (i = 0; i < whs->n_apis; i++)
		for (j = 0; j < whs->apis[i]->backend.n_wls; j++)
			whs->by_wl[whs->apis[i]->backend.wls[j]->index]
				.n_apis++;
	for (i = 0; i < whs->n_wls; i++) {
		struct backs *b = &whs->by_wl[i];

		if (b->n_entries &&
		    !(b->entries = kvet_arena_array(whs->arena, b->n_entries,
						    sizeof(*b->entries))))
			return -1;
		if (b->n_apis &&
		    !(b->apis = kvet_arena_array(whs->arena, b->n_apis,
						 sizeof(*b->apis))))
			return -1;
	}
	for (i = 0; i < whs->n_entries; i++) {
		const struct kvet_backend *be = &whs->entries[i]->backend;

		for (j = 0; j < be->n_wls; j++) {
			struct backs *b = &whs->by_wl[be->wls[j]->index];

			b->entries[b->fill_entries++] = whs->entries[i];
		}
	}
	for (i = 0; i < whs->n_apis; i++) {
		const struct kvet_backend *be = &whs->apis[i]->backend;

		for (j = 0; j < be->n_wls; j++) {
			struct backs *b = &whs->by_wl[be->wls[j]->index];

			b->apis[b->fill_apis++] = whs->apis[i];
		}
	}
	return 0;
}

static int cmp_node(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)(*(const struct kvet_webhook *const *)a)->node;
	uintptr_t y = (uintptr_t)(*(const struct kvet_webhook *const *)b)->node;

	return (x > y) - (x < y);
}

static int index_nodes(struct kvet_webhooks *whs)
{
	whs->by_node = kvet_arena_array(whs->arena,
					whs->n_entries ? whs->n_entries : 1,
					sizeof(*whs->by_node));
	if (!whs->by_node)
		return -1;
	if (whs->n_entries)
		memcpy(whs->by_node, whs->entries,
		       whs->n_entries * sizeof(*whs->by_node));
	qsort(whs->by_node, whs->n_entries, sizeof(*whs->by_node), cmp_node);
	return 0;
}

struct kvet_webhooks *kvet_webhooks_create(struct kvet_arena *arena,
					   const struct kvet_graph *g)
{
	struct kvet_webhooks *whs = calloc(1, sizeof(*whs));

	if (!whs)
		return NULL;
	whs->arena = arena;
	whs->g = g;
	kvet_hash_init(&whs->services, arena);
	if (read_all(whs) || index_backends(whs) || index_nodes(whs)) {
		kvet_webhooks_destroy(whs);
		return NULL;
	}
	return whs;
}

void kvet_webhooks_destroy(struct kvet_webhooks *whs)
{
	if (!whs)
		return;
	kvet_hash_release(&whs->services);
	free(whs);
}

const struct kvet_webhook *const *
kvet_webhooks_entries(const struct kvet_webhooks *whs, size_t *n)
{
	*n = whs->n_entries;
	return whs->entries;
}

const struct kvet_apiservice *const *
kvet_webhooks_apiservices(const struct kvet_webhooks *whs, size_t *n)
{
	*n = whs->n_apis;
	return whs->apis;
}

const struct kvet_webhook *const *
kvet_webhooks_backed_by(const struct kvet_webhooks *whs,
			const struct kvet_workload *wl, size_t *n)
{
	if (wl->index >= whs->n_wls) {
		*n = 0;
		return NULL;
	}
	*n = whs->by_wl[wl->index].n_entries;
	return whs->by_wl[wl->index].entries;
}

const struct kvet_apiservice *const *
kvet_apiservices_backed_by(const struct kvet_webhooks *whs,
			   const struct kvet_workload *wl, size_t *n)
{
	if (wl->index >= whs->n_wls) {
		*n = 0;
		return NULL;
	}
	*n = whs->by_wl[wl->index].n_apis;
	return whs->by_wl[wl->index].apis;
}

const struct kvet_webhook *kvet_webhooks_entry_at(const struct kvet_webhooks *whs,
						  const struct kvet_node *node)
{
	struct kvet_webhook key = { .node = node };
	const struct kvet_webhook *kp = &key, *const *hit;

	if (!node)
		return NULL;
	hit = bsearch(&kp, whs->by_node, whs->n_entries, sizeof(*whs->by_node),
		      cmp_node);
	return hit ? *hit : NULL;
}

static void *webhooks_build(struct kvet_run *run)
{
	return kvet_webhooks_create(kvet_run_arena(run), kvet_run_graph(run));
}

static void webhooks_free(void *whs)
{
	kvet_webhooks_destroy(whs);
}

const struct kvet_webhooks *kvet_run_webhooks(struct kvet_run *run)
{
	return kvet_run_index(run, KVET_RUN_WEBHOOKS, webhooks_build,
			      webhooks_free);
}

int kvet_webhooks_of(struct kvet_arena *arena, const struct kvet_webhooks *whs,
		     const struct kvet_object *obj,
		     const struct kvet_webhook ***out, size_t *n)
{
	const struct kvet_node *hooks = kvet_node_get(obj->root, "webhooks");
	uint32_t i, n_hooks = kvet_node_is_seq(hooks) ? hooks->len : 0;
	const struct kvet_webhook *wh;

	*n = 0;
	*out = kvet_arena_array(arena, (size_t)n_hooks + 2, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < n_hooks; i++) {
		wh = kvet_webhooks_entry_at(whs, &hooks->u.items[i]);
		if (wh && wh->obj == obj)
			(*out)[(*n)++] = wh;
	}
	wh = kvet_webhooks_entry_at(whs, kvet_node_path(obj->root, "spec",
							"conversion", NULL));
	if (wh && wh->obj == obj)
		(*out)[(*n)++] = wh;
	return 0;
}

const char *kvet_webhook_config_resource(const struct kvet_webhook *wh)
{
	if (wh->source == KVET_WEBHOOK_CONVERSION)
		return "customresourcedefinitions";
	return wh->source == KVET_WEBHOOK_MUTATING ?
	       "mutatingwebhookconfigurations" :
	       "validatingwebhookconfigurations";
}

int kvet_webhooks_served_by(struct kvet_arena *arena,
			    const struct kvet_webhooks *whs,
			    const struct kvet_workload *wl,
			    const struct kvet_object ***out, size_t *n)
{
	const struct kvet_webhook *const *es;
	const struct kvet_apiservice *const *as;
	const struct kvet_object *o;
	size_t n_e, n_a, i, j;

	es = kvet_webhooks_backed_by(whs, wl, &n_e);
	as = kvet_apiservices_backed_by(whs, wl, &n_a);
	*n = 0;
	*out = kvet_arena_array(arena, n_e + n_a + 1, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < n_e + n_a; i++) {
		o = i < n_e ? es[i]->obj : as[i - n_e]->obj;
		for (j = 0; j < *n && (*out)[j] != o; j++)
			;
		if (j == *n)
			(*out)[(*n)++] = o;
	}
	return 0;
}

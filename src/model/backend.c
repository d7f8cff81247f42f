/* SPDX-License-Identifier: Apache-2.0 */
/* What a webhook's backend is and does (model/webhook.h). */
#include "model/webhook.h"

#include <string.h>

#include "model/spread.h"

const struct kvet_backend *kvet_webhook_backend(struct kvet_arena *arena,
						const struct kvet_graph *g,
						const struct kvet_webhook *wh)
{
	static const char *const kinds[] = { "Deployment", "StatefulSet",
					     "DaemonSet" };
	const struct kvet_workload **wls;
	const struct kvet_workload *wl;
	const struct kvet_object *obj;
	struct kvet_backend *b;
	size_t i, n_svc;

	if (wh->backend.state != KVET_BACKEND_MISSING || !wh->has_service)
		return &wh->backend;
	kvet_graph_kind(g, "", "Service", &n_svc);
	if (n_svc)
		return &wh->backend;
	b = kvet_arena_alloc(arena, sizeof(*b));
	wls = kvet_arena_array(arena, 3, sizeof(*wls));
	if (!b || !wls)
		return &wh->backend;
	for (i = 0; i < 3; i++) {
		obj = kvet_graph_find(g, "apps", kinds[i], wh->service.namespace,
				      wh->service.name);
		wl = obj ? kvet_graph_workload_of(g, obj) : NULL;
		if (!wl || wl->obj != obj)
			continue;
		wls[b->n_wls++] = wl;
		kvet_backend_count(b, wl);
	}
	if (!b->n_wls)
		return &wh->backend;
	b->state = KVET_BACKEND_WORKLOADS;
	b->wls = wls;
	return b;
}

bool kvet_backend_inferred(const struct kvet_backend *b)
{
	return b->state == KVET_BACKEND_WORKLOADS && !b->service;
}

bool kvet_backend_declares_port(const struct kvet_backend *b,
				struct kvet_slice name)
{
	struct kvet_slice any = { "", 0 };
	size_t i;

	for (i = 0; i < b->n_wls; i++)
		if (kvet_workload_declares_port(b->wls[i], name, any))
			return true;
	return false;
}

static bool names_secret(const struct kvet_node *n, struct kvet_slice name)
{
	return kvet_node_is_string(n) && n->len == name.len &&
	       !memcmp(n->u.str, name.s, name.len);
}

bool kvet_backend_mounts_secret(const struct kvet_backend *b,
				struct kvet_slice name)
{
	const struct kvet_node *vols, *v, *srcs;
	size_t i;
	uint32_t j, k;

	for (i = 0; i < b->n_wls; i++) {
		vols = kvet_node_get(b->wls[i]->pod_spec, "volumes");
		for (j = 0; kvet_node_is_seq(vols) && j < vols->len; j++) {
			v = &vols->u.items[j];
			if (names_secret(kvet_node_path(v, "secret",
							"secretName", NULL),
					 name))
				return true;
			srcs = kvet_node_path(v, "projected", "sources", NULL);
			for (k = 0; kvet_node_is_seq(srcs) && k < srcs->len;
			     k++)
				if (names_secret(kvet_node_path(
						&srcs->u.items[k], "secret",
						"name", NULL), name))
					return true;
		}
	}
	return false;
}

int kvet_backend_unspread(struct kvet_arena *arena, const struct kvet_graph *g,
			  const struct kvet_backend *b, bool *out)
{
	bool lacks = false;
	size_t i;

	for (i = 0; i < b->n_wls; i++) {
		if (kvet_workload_lacks_spreading(arena, g, b->wls[i], &lacks))
			return -1;
		if (!lacks)
			break;
	}
	*out = b->n_wls && lacks;
	return 0;
}

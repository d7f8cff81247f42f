/* SPDX-License-Identifier: Apache-2.0 */
#include "model/evict.h"

#include <string.h>

#include "model/pod.h"

static const struct kvet_node *annotation(const struct kvet_workload *wl,
					  const char *key)
{
	return kvet_node_get(kvet_node_path(wl->template, "metadata",
					    "annotations", NULL), key);
}

enum kvet_safe_to_evict
kvet_workload_safe_to_evict(const struct kvet_workload *wl,
			    const struct kvet_node **node)
{
	const struct kvet_node *n = annotation(wl, KVET_SAFE_TO_EVICT);

	if (node)
		*node = n;
	/* the autoscaler compares the string with "true" and "false" */
	if (kvet_node_eq(n, "true"))
		return KVET_EVICT_TRUE;
	if (kvet_node_eq(n, "false"))
		return KVET_EVICT_FALSE;
	return KVET_EVICT_UNSET;
}

enum kvet_autoscaler_skip
kvet_workload_autoscaler_skips(const struct kvet_workload *wl)
{
	const struct kvet_node *refs = kvet_node_path(wl->template, "metadata",
						      "ownerReferences", NULL);
	const struct kvet_node *ref;
	uint32_t i;

	if (kvet_node_get(kvet_node_path(wl->template, "metadata",
					 "annotations", NULL),
			  "kubernetes.io/config.mirror"))
		return KVET_CA_MIRROR;
	if (kvet_node_eq(annotation(wl, "cluster-autoscaler.kubernetes.io/daemonset-pod"),
			 "true"))
		return KVET_CA_DAEMONSET;
	/* metav1.GetControllerOf: the reference with controller: true */
	for (i = 0; kvet_node_is_seq(refs) && i < refs->len; i++) {
		ref = &refs->u.items[i];
		if (kvet_node_text_eq(kvet_node_get(ref, "controller"), "true") &&
		    kvet_node_eq(kvet_node_get(ref, "kind"), "DaemonSet"))
			return KVET_CA_DAEMONSET;
	}
	return KVET_CA_CONSIDERED;
}

/* Is @name one of the comma-separated names in @list? */
static bool listed(const struct kvet_node *list, struct kvet_slice name)
{
	size_t p = 0, start;

	if (!kvet_node_is_string(list))
		return false;
	while (p <= list->len) {
		start = p;
		while (p < list->len && list->u.str[p] != ',')
			p++;
		if (p - start == name.len && name.len &&
		    memcmp(list->u.str + start, name.s, name.len) == 0)
			return true;
		p++;
	}
	return false;
}

int kvet_workload_blocking_volumes(struct kvet_arena *arena,
				   const struct kvet_workload *wl,
				   struct kvet_local_volumes *out)
{
	const struct kvet_node *safe;
	struct kvet_local_volume *v;
	struct kvet_volume vol;
	uint32_t i = 0;
	size_t n = 0;
	bool oom;

	out->v = NULL;
	out->n = 0;
	v = kvet_pod_volume_array(arena, wl->pod_spec, sizeof(*v), &oom);
	if (!v)
		return oom ? -1 : 0;
	safe = annotation(wl, KVET_SAFE_TO_EVICT_LOCAL_VOLUMES);
	while (kvet_pod_volume_next(wl->pod_spec, &i, &vol)) {
		if (!vol.host_path && (!vol.empty_dir || vol.memory))
			continue;
		if (listed(safe, vol.name))
			continue;
		v[n].name = vol.name;
		v[n].node = vol.node;
		v[n].host_path = vol.host_path;
		n++;
	}
	out->v = v;
	out->n = n;
	return 0;
}

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The filters that read only the pod's spec and the node: cordoned
 * (NodeUnschedulable), taints (TaintToleration), nodeSelector and node
 * affinity (NodeAffinity), and the node affinity of bound
 * PersistentVolumes (VolumeBinding): a zonal disk keeps its pod in its
 * zone, a local volume on its node; and their zone and region labels
 * (VolumeZone), which older and in-tree volumes carry instead.
 */
#include "drain/fit.h"

#include <string.h>

#include "model/node_affinity.h"

bool drain_fit_unschedulable(const struct drain_cluster *c, uint32_t p,
			     uint32_t n, struct drain_reasons *r)
{
	if (!c->nodes[n].cordoned ||
	    kvet_tolerates_unschedulable(kvet_node_get(c->pods[p].spec,
						       "tolerations")))
		return true;
	drain_reason(r, "node(s) were unschedulable");
	return false;
}

bool drain_fit_taints(struct drain_cluster *c, uint32_t p, uint32_t n,
		      struct drain_reasons *r)
{
	const struct kvet_taint *t;
	const char *s;

	if (!c->nodes[n].taints.n)
		return true;
	t = kvet_untolerated_taint(&c->nodes[n].taints,
				   kvet_node_get(c->pods[p].spec,
						 "tolerations"));
	if (!t)
		return true;
	if (r) {
		/* the placement's scratch: place.c keeps only the counts
		 * per reason */
		s = kvet_arena_printf(&c->scratch,
				      "node(s) had untolerated taint {%.*s: %.*s}",
				      (int)t->key.len, t->key.s,
				      (int)t->value.len, t->value.s);
		drain_reason(r, s ? s : "node(s) had untolerated taint");
	}
	return false;
}

bool drain_fit_node_affinity(const struct drain_cluster *c, uint32_t p,
			     uint32_t n, struct drain_reasons *r)
{
	const struct drain_node *node = &c->nodes[n];

	if (kvet_pod_node_affinity_matches(c->pods[p].spec, &node->labels,
					   kvet_slice_of(node->name)))
		return true;
	drain_reason(r, "node(s) didn't match Pod's node affinity/selector");
	return false;
}

bool drain_fit_volumes(const struct drain_cluster *c, uint32_t p, uint32_t n,
		       struct drain_reasons *r)
{
	const struct drain_pod *pod = &c->pods[p];
	const struct drain_node *node = &c->nodes[n];
	size_t i;

	for (i = 0; i < pod->vols.n; i++) {
		if (kvet_node_selector_matches(pod->vols.v[i].node_affinity,
					       &node->labels,
					       kvet_slice_of(node->name)))
			continue;
		drain_reason(r, "node(s) had volume node affinity conflict");
		return false;
	}
	return true;
}

/*
 * VolumeZone (pkg/scheduler/framework/plugins/volumezone, Filter): each
 * zone or region label of a bound PersistentVolume must be met by the
 * node's label of the same key, a beta key also by its GA twin; the
 * volume's value may list several zones joined by "__". A node with no
 * zone or region label at all passes.
 */
static const char *const zone_keys[] = {
	"failure-domain.beta.kubernetes.io/zone",
	"failure-domain.beta.kubernetes.io/region",
	"topology.kubernetes.io/zone",
	"topology.kubernetes.io/region",
};
enum { N_ZONE_KEYS = 4, N_BETA_KEYS = 2 };

static bool zone_has(const struct kvet_node *v, struct kvet_slice want)
{
	const char *s, *end, *at;

	if (!kvet_node_is_string(v))
		return false;
	s = v->u.str;
	end = s + v->len;
	for (;;) {
		for (at = s; at + 1 < end && (at[0] != '_' || at[1] != '_');
		     at++)
			;
		if (at + 1 >= end)
			at = end;
		if ((size_t)(at - s) == want.len && !memcmp(s, want.s, want.len))
			return true;
		if (at == end)
			return false;
		s = at + 2;
	}
}

bool drain_fit_volume_zone(const struct drain_cluster *c, uint32_t p,
			   uint32_t n, struct drain_reasons *r)
{
	const struct drain_pod *pod = &c->pods[p];
	const struct drain_node *node = &c->nodes[n];
	struct kvet_slice v;
	size_t i, k;
	bool any = false;

	for (k = 0; k < N_ZONE_KEYS && !any; k++)
		any = kvet_labels_get(&node->labels, kvet_slice_of(zone_keys[k]),
				      &v);
	if (!any)
		return true;
	for (i = 0; i < pod->vols.n; i++) {
		const struct kvet_object *pv = pod->vols.v[i].pv;
		const struct kvet_node *labels =
			pv ? kvet_node_path(pv->root, "metadata", "labels", NULL)
			   : NULL;

		for (k = 0; labels && k < N_ZONE_KEYS; k++) {
			const struct kvet_node *want =
				kvet_node_get(labels, zone_keys[k]);

			if (!want)
				continue;
			if ((kvet_labels_get(&node->labels,
					     kvet_slice_of(zone_keys[k]), &v) ||
			     (k < N_BETA_KEYS &&
			      kvet_labels_get(&node->labels,
					      kvet_slice_of(zone_keys[k + 2]),
					      &v))) &&
			    zone_has(want, v))
				continue;
			drain_reason(r, "node(s) had no available volume zone");
			return false;
		}
	}
	return true;
}

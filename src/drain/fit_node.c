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

#include "model/node_affinity.h"
#include "model/volume_zone.h"

bool drain_fit_unschedulable(const struct drain_cluster *c, uint32_t p,
			     uint32_t n, struct drain_reasons *r)
{
	if (!c->nodes[n].cordoned ||
	    kvet_pod_tolerates_unschedulable(c->pods[p].spec))
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
	t = kvet_pod_untolerated_taint(&c->nodes[n].taints, c->pods[p].spec);
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

	for (i = 0; i < pod->needs.vols.n; i++) {
		if (kvet_node_selector_matches(pod->needs.vols.v[i].node_affinity,
					       &node->labels,
					       kvet_slice_of(node->name)))
			continue;
		drain_reason(r, "node(s) had volume node affinity conflict");
		return false;
	}
	return true;
}

bool drain_fit_volume_zone(const struct drain_cluster *c, uint32_t p,
			   uint32_t n, struct drain_reasons *r)
{
	const struct drain_pod *pod = &c->pods[p];
	size_t i;

	for (i = 0; i < pod->needs.vols.n; i++) {
		if (kvet_volume_zone_matches(pod->needs.vols.v[i].pv,
					     &c->nodes[n].labels))
			continue;
		drain_reason(r, "node(s) had no available volume zone");
		return false;
	}
	return true;
}

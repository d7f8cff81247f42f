/* SPDX-License-Identifier: Apache-2.0 */
#include "model/volume_zone.h"

#include <string.h>

/* The beta keys first: key k < N_BETA_KEYS has its GA twin at k + 2. */
static const char *const zone_keys[] = {
	"failure-domain.beta.kubernetes.io/zone",
	"failure-domain.beta.kubernetes.io/region",
	"topology.kubernetes.io/zone",
	"topology.kubernetes.io/region",
};
enum { N_ZONE_KEYS = 4, N_BETA_KEYS = 2 };

/* Is @want one of the "__"-joined zones of label value @v? Only a string
 * value names zones (volumehelpers.LabelZonesToSet splits a string). */
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

bool kvet_volume_zone_matches(const struct kvet_object *pv,
			      const struct kvet_labels *node_labels)
{
	const struct kvet_node *labels;
	struct kvet_slice v;
	size_t k;
	bool any = false;

	for (k = 0; k < N_ZONE_KEYS && !any; k++)
		any = kvet_labels_get(node_labels, kvet_slice_of(zone_keys[k]),
				      &v);
	if (!any || !pv)
		return true;
	labels = kvet_node_path(pv->root, "metadata", "labels", NULL);
	for (k = 0; labels && k < N_ZONE_KEYS; k++) {
		const struct kvet_node *want = kvet_node_get(labels,
							     zone_keys[k]);

		if (!want)
			continue;
		if ((kvet_labels_get(node_labels, kvet_slice_of(zone_keys[k]),
				     &v) ||
		     (k < N_BETA_KEYS &&
		      kvet_labels_get(node_labels,
				      kvet_slice_of(zone_keys[k + 2]), &v))) &&
		    zone_has(want, v))
			continue;
		return false;
	}
	return true;
}

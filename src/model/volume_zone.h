/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_VOLUME_ZONE_H
#define KVET_MODEL_VOLUME_ZONE_H

#include <stdbool.h>

#include "model/labels.h"
#include "model/object.h"

/**
 * kvet_volume_zone_matches() - the scheduler's VolumeZone filter for one
 * bound PersistentVolume (pkg/scheduler/framework/plugins/volumezone,
 * Filter): each zone or region label of @pv must be met by the node's
 * label of the same key, a beta key also by its GA twin; the volume's
 * value may list several zones joined by "__". A node with no zone or
 * region label at all passes, and so does a NULL @pv.
 */
bool kvet_volume_zone_matches(const struct kvet_object *pv,
			      const struct kvet_labels *node_labels);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Quorum: a consensus system (etcd, ZooKeeper, Raft) stops accepting
 * writes when fewer than a majority of its members are up. kvet cannot
 * see what a StatefulSet runs, so it says why it believes one needs a
 * majority: an odd replica count of 3 or more (how consensus systems are
 * sized), or an image it knows as one. Two replicas, or an operator's
 * single-purpose StatefulSet, are left alone. The count reported is the
 * lowest the step reaches, not the first below a majority.
 */
#include "drain/quorum.h"

#include <string.h>

#include "drain/issue.h"
#include "drain/journal.h"
#include "model/pod.h"

static const char *const consensus_images[] = {
	"etcd", "zookeeper", "consul", "cockroach",
};

/* The image's name without registry, path or tag: "etcd" of
 * "registry.k8s.io/etcd:3.5.9-0". */
static bool known_image(const char *image, size_t *which)
{
	const char *name = strrchr(image, '/');
	size_t i, len;

	name = name ? name + 1 : image;
	for (i = 0; i < sizeof(consensus_images) / sizeof(*consensus_images);
	     i++) {
		len = strlen(consensus_images[i]);
		if (!strncmp(name, consensus_images[i], len)) {
			*which = i;
			return true;
		}
	}
	return false;
}

const char *drain_quorum_why(struct kvet_arena *arena,
			     const struct kvet_workload *wl, int64_t replicas)
{
	struct kvet_slice im;
	uint32_t i = 0;
	size_t which;
	char image[256];

	if (replicas < 2)
		return NULL;
	if (replicas >= 3 && replicas % 2)
		return kvet_arena_printf(arena,
			"it runs an odd number of replicas, %lld, as consensus systems are sized",
			(long long)replicas);
	while (kvet_pod_image_next(wl->pod_spec, &i, &im)) {
		if (im.len >= sizeof(image))
			continue;
		memcpy(image, im.s, im.len);
		image[im.len] = '\0';
		if (known_image(image, &which))
			return kvet_arena_printf(arena,
				"its image \"%s\" is %s, a consensus system",
				image, consensus_images[which]);
	}
	return NULL;
}

void drain_quorum_note(struct drain_cluster *c, uint32_t s, uint32_t n)
{
	struct drain_sts *sts = &c->sts[s];

	if (sts->reported || !sts->quorum_why)
		return;
	if (sts->low_set && sts->ready >= sts->lowest)
		return;
	drain_set_bool(c, &sts->low_set, true);
	drain_set_i64(c, &sts->lowest, sts->ready);
	drain_set_u32(c, &sts->low_node, n);
}

void drain_quorum_report(struct drain_cluster *c)
{
	uint32_t s;

	for (s = 0; s < c->n_sts; s++) {
		struct drain_sts *sts = &c->sts[s];
		int64_t majority = sts->replicas / 2 + 1;

		if (!sts->low_set)
			continue;
		drain_set_bool(c, &sts->low_set, false);
		if (sts->reported || sts->lowest >= majority)
			continue;
		drain_set_bool(c, &sts->reported, true);
		drain_issue_add(c, DRAIN_RULE_QUORUM_LOSS, KVET_SEV_INFO,
				sts->low_node, sts->wl->obj,
				sts->wl->replicas.spec_node,
				"StatefulSet \"%s/%s\" has %lld of %lld replicas ready while node \"%s\" drains, below a majority of %lld: kvet takes it for a quorum-based system (etcd, ZooKeeper, Raft), which then stops accepting writes, because %s",
				sts->wl->obj->namespace, sts->wl->obj->name,
				(long long)sts->lowest,
				(long long)sts->replicas,
				c->nodes[sts->low_node].name,
				(long long)majority, sts->quorum_why);
	}
}

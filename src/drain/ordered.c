/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The StatefulSet controller's order (pkg/controller/statefulset/
 * stateful_set_control.go, the monotonic mode of
 * updateStatefulSet/processReplica): with podManagementPolicy OrderedReady
 * it walks the members by ordinal and stops at the first one that is not
 * Running and Ready (or is terminating), creating nothing above it. A
 * replacement of ordinal k therefore waits while some ordinal below k is
 * missing, Pending, refused or not Ready; Parallel creates at once.
 */
#include "drain/ordered.h"

#include <stdlib.h>
#include <string.h>

#include "drain/cluster.h"

/* The ordinal of a member: the digits after "<StatefulSet name>-". */
static long ordinal(const struct drain_cluster *c, uint32_t p)
{
	const struct drain_pod *pod = &c->pods[p];
	const char *sts = c->sts[pod->sts].wl->obj->name;
	size_t n = strlen(sts);
	const char *s;
	char *end;
	long v;

	if (strncmp(pod->name, sts, n) || pod->name[n] != '-')
		return -1;
	s = pod->name + n + 1;
	if (*s < '0' || *s > '9')
		return -1;
	v = strtol(s, &end, 10);
	return *end ? -1 : v;
}

static bool running_and_ready(const struct drain_pod *pod)
{
	return pod->state == DRAIN_POD_RUNNING && pod->ready &&
	       !pod->terminating && pod->phase == KVET_PHASE_RUNNING;
}

uint32_t drain_sts_holds(const struct drain_cluster *c, uint32_t r)
{
	const struct drain_pod *pod = &c->pods[r];
	const struct drain_sts *s;
	uint32_t i, q, best = DRAIN_NONE;
	long k, o, best_o = 0;

	if (pod->sts == DRAIN_NONE || !c->sts[pod->sts].ordered)
		return DRAIN_NONE;
	s = &c->sts[pod->sts];
	k = ordinal(c, r);
	if (k < 0)
		return DRAIN_NONE;
	for (i = 0; i < s->n_members; i++) {
		q = s->members[i];
		/* a member stands as its latest replacement */
		while (c->pods[q].replaced_by != DRAIN_NONE)
			q = c->pods[q].replaced_by;
		if (q == r || running_and_ready(&c->pods[q]))
			continue;
		o = ordinal(c, q);
		if (o < 0 || o >= k || (best != DRAIN_NONE && o >= best_o))
			continue;
		best = q;
		best_o = o;
	}
	return best;
}

const char *drain_sts_hold_reason(struct drain_cluster *c, uint32_t r,
				  uint32_t q)
{
	const struct kvet_object *sts = c->sts[c->pods[r].sts].wl->obj;

	return kvet_arena_printf(c->arena,
		"StatefulSet \"%s/%s\" creates its pods in order (podManagementPolicy OrderedReady) and waits for pod \"%s\" to be Running and Ready",
		sts->namespace, sts->name, drain_pod_label(c, q));
}

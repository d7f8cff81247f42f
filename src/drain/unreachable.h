/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_UNREACHABLE_H
#define KVET_DRAIN_UNREACHABLE_H

/*
 * Draining a node whose Ready condition is not True (Unknown: the node
 * controller has heard nothing from its kubelet; False: the kubelet says
 * the node is not Ready). The API server grants the evictions, but a
 * graceful deletion ends only when the kubelet has stopped the pod's
 * containers and removes the object (pkg/registry/core/pod/strategy.go,
 * CheckGracefulDelete): no kubelet answers, so the pods keep their
 * deletionTimestamp until the node returns or its Node object is deleted
 * and the pod garbage collector removes them. kubectl drain waits for
 * every pod it evicted to be gone (pkg/drain/drain.go, waitForDelete),
 * which is forever, unless --skip-wait-for-delete-timeout=N tells it to
 * give up on a pod whose deletionTimestamp is older than N seconds, in
 * waitForDelete and, for the pods already terminating, in
 * skipDeletedFilter before any eviction (pkg/drain/filters.go).
 */
#include "drain/state.h"
#include "drain/wave.h"

/* skipDeletedFilter, kubectl's first filter: with the switch, pod @p is
 * already terminating on a node that is not Ready, and is skipped (kvet
 * takes a dump's deletionTimestamp to be older than the timeout by the
 * time the drain runs). */
bool drain_unready_skips(const struct drain_cluster *c, uint32_t p);

/* Pod @p, evicted or deleted from node @n, stays in the API: @n is not
 * Ready, and the deletion is graceful (not a finished pod, not a
 * terminationGracePeriodSeconds of 0, which the API server carries out
 * at once). */
bool drain_unready_waits(const struct drain_cluster *c, uint32_t p,
			 uint32_t n);

/* Whether the controller of pod @p, evicted from node @n, replaces it
 * now: a StatefulSet creates a pod of the same name only once the old
 * object is gone, which on a node that is not Ready it is not. */
bool drain_unready_replaces(const struct drain_cluster *c, uint32_t p,
			    uint32_t n);

/* Why replacement @r is not created while drain_unready_replaces() says
 * no (arena). */
const char *drain_unready_hold_reason(struct drain_cluster *c, uint32_t r);

/**
 * drain_unready_report() - the issue of node @n that is not Ready: the
 * @n_wait pods @wait evicted there that kubectl drain waits for, and
 * the @n_skip pods @skip it skipped. An error, with its cause in @why
 * (may be NULL), unless kubectl was told to stop waiting.
 *
 * Returns: whether kubectl drain completes on the node.
 */
bool drain_unready_report(struct drain_cluster *c, uint32_t n,
			  const uint32_t *wait, size_t n_wait,
			  const uint32_t *skip, size_t n_skip,
			  struct drain_causes *why);

#endif

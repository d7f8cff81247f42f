/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_DRAIN_KUBECTL_H
#define KVET_DRAIN_KUBECTL_H

/*
 * kubectl drain's pod filters (staging/src/k8s.io/kubectl/pkg/drain/
 * filters.go), applied in its order: DaemonSet, mirror, local storage,
 * unreplicated. The first filter that keeps a pod decides; a pod that
 * passes them all takes the last filter's status.
 */
#include "drain/state.h"

enum drain_filter_status {
	DRAIN_FILTER_OKAY,	/* deleted (evicted) */
	DRAIN_FILTER_SKIP,	/* left alone, silently (mirror pods) */
	DRAIN_FILTER_WARNING,	/* deleted or left, with a warning */
	DRAIN_FILTER_ERROR,	/* kubectl refuses to drain the node */
};

struct drain_filter {
	enum drain_filter_status status;
	bool delete;
	const char *message;	/* kubectl's words, or NULL */
};

void drain_kubectl_filter(const struct drain_cluster *c, uint32_t p,
			  struct drain_filter *out);

#endif

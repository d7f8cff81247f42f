/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_POD_H
#define KVET_MODEL_POD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/graph.h"
#include "model/labels.h"
#include "model/resources.h"

/*
 * What a live Pod's object says about its state, and what a pod spec
 * (a Pod's or a template's) says about the node it needs: the facts the
 * eviction subresource, kubectl drain and the scheduler's filters read.
 */
enum kvet_pod_phase {
	KVET_PHASE_PENDING,
	KVET_PHASE_RUNNING,
	KVET_PHASE_SUCCEEDED,
	KVET_PHASE_FAILED,
	KVET_PHASE_UNKNOWN,	/* "Unknown", absent or anything else */
};

/* The annotation the kubelet puts on the API mirror of a static pod. */
#define KVET_MIRROR_ANNOTATION "kubernetes.io/config.mirror"

struct kvet_pod_state {
	enum kvet_pod_phase phase;
	bool ready;		/* condition Ready is True (podutil.IsPodReady) */
	bool terminating;	/* metadata.deletionTimestamp is set */
	bool mirror;		/* a static pod's mirror */
	const struct kvet_node *spec;	/* the pod spec, or NULL */
	struct kvet_slice node_name;	/* spec.nodeName; empty when unbound */
	/* the ownerReference with controller: true (metav1.GetControllerOf) */
	bool has_controller;
	struct kvet_slice controller_kind;
	struct kvet_slice controller_name;
	struct kvet_slice controller_api_version;
	const struct kvet_node *controller_node;
};

/**
 * kvet_pod_state_read() - read the state of a Pod object.
 * @pod_root: the Pod's mapping.
 * @out: the state; absent fields give Unknown, not ready, no controller.
 */
void kvet_pod_state_read(const struct kvet_node *pod_root,
			 struct kvet_pod_state *out);

const char *kvet_pod_phase_name(enum kvet_pod_phase phase);

/* Succeeded or Failed: nothing runs any more. */
static inline bool kvet_pod_phase_terminal(enum kvet_pod_phase p)
{
	return p == KVET_PHASE_SUCCEEDED || p == KVET_PHASE_FAILED;
}

/*
 * One item of a pod spec's volumes, as the readers of volumes need it:
 * the one walk over spec.volumes (kvet_pod_volume_next()).
 */
struct kvet_volume {
	const struct kvet_node *node;	/* the volumes[] item */
	struct kvet_slice name;		/* empty when absent or no string */
	/* an emptyDir source: "emptyDir: {}" and "emptyDir:" (null) alike
	 * (the field is set, whatever its medium) */
	bool empty_dir;
	bool memory;			/* emptyDir.medium Memory */
	bool host_path;			/* a hostPath field */
	struct kvet_slice claim;	/* persistentVolumeClaim.claimName;
					 * empty when none */
};

/* Start with *@i = 0; each call reads the next item of @pod_spec's
 * spec.volumes into @out, false at the end. */
bool kvet_pod_volume_next(const struct kvet_node *pod_spec, uint32_t *i,
			  struct kvet_volume *out);

/* An array of @size-byte records in @arena, one for each item of
 * @pod_spec's spec.volumes, for a reader that keeps some of them; NULL
 * when there is none, or with *@oom set when out of memory. */
void *kvet_pod_volume_array(struct kvet_arena *arena,
			    const struct kvet_node *pod_spec, size_t size,
			    bool *oom);

/**
 * kvet_pod_emptydir() - the first volume with an emptyDir source (any
 * medium: kubectl drain's hasLocalStorage), or NULL.
 */
const struct kvet_node *kvet_pod_emptydir(const struct kvet_node *pod_spec);

/* spec.hostNetwork: true, the pod uses the node's network namespace
 * (so the network-unavailable taint concerns it). */
bool kvet_pod_host_network(const struct kvet_node *pod_spec);

/* spec.terminationGracePeriodSeconds into *@out; false when it is absent
 * or no integer (the API server then defaults it to 30). */
bool kvet_pod_grace_period(const struct kvet_node *pod_spec, long long *out);

/* Start with *@i = 0; each call gives the image of the next item of
 * @pod_spec's spec.containers that has a string image, false at the end. */
bool kvet_pod_image_next(const struct kvet_node *pod_spec, uint32_t *i,
			 struct kvet_slice *out);

/* One host port a container asks for (the scheduler's NodePorts). */
struct kvet_host_port {
	int32_t port;
	struct kvet_slice protocol;	/* "TCP" when absent */
	struct kvet_slice ip;		/* "0.0.0.0" when absent */
	const struct kvet_node *node;	/* the ports[] item */
};

struct kvet_host_ports {
	const struct kvet_host_port *v;
	size_t n;
};

/**
 * kvet_pod_host_ports() - the hostPorts of the containers and of the
 * restartable init containers (sidecars), which keep running.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_pod_host_ports(struct kvet_arena *arena,
			const struct kvet_node *pod_spec,
			struct kvet_host_ports *out);

/* Do two host ports clash: same port and protocol, and the same IP or
 * either one on every address (0.0.0.0)? */
bool kvet_host_ports_conflict(const struct kvet_host_port *a,
			      const struct kvet_host_port *b);

/* A PersistentVolume a pod's volume is bound to, through its claim. */
struct kvet_pod_volume {
	const struct kvet_node *volume;		/* the volumes[] item */
	const struct kvet_object *claim;	/* the PVC, or NULL */
	const struct kvet_object *pv;		/* its bound PV, or NULL */
	const struct kvet_node *node_affinity;	/* pv spec.nodeAffinity.required */
	bool local;				/* pv spec.local */
};

struct kvet_pod_volumes {
	const struct kvet_pod_volume *v;
	size_t n;
};

/**
 * kvet_pod_bound_volumes() - the persistentVolumeClaim volumes of a pod
 * in namespace @ns whose claim and bound volume (spec.volumeName) the
 * input has, with the volume's required node affinity: a zonal disk keeps
 * the pod in its zone, a local volume on its node.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_pod_bound_volumes(struct kvet_arena *arena,
			   const struct kvet_graph *g, const char *ns,
			   const struct kvet_node *pod_spec,
			   struct kvet_pod_volumes *out);

/* The key of @pod_spec's field @field, or of @field.@sub when @sub is
 * not NULL, when the field is set and not null: where a message about
 * the field points. NULL otherwise. */
const struct kvet_node *kvet_pod_spec_key(const struct kvet_node *pod_spec,
					  const char *field, const char *sub);

/* The key "spec" of a Pod object or a pod template (@holder): where a
 * message about a field the spec lacks points. NULL when it has none. */
const struct kvet_node *kvet_pod_spec_holder_key(const struct kvet_node *holder);

/*
 * What a pod spec asks of a node, read once for each pod the drain
 * places (a dumped Pod's or a template's): the scheduler's Fit,
 * NodePorts and VolumeBinding filters, and kubectl drain's local storage.
 */
struct kvet_pod_needs {
	const struct kvet_node *emptydir;	/* kvet_pod_emptydir() */
	struct kvet_resources req;		/* kvet_pod_requests() */
	struct kvet_host_ports ports;		/* kvet_pod_host_ports() */
	struct kvet_pod_volumes vols;		/* kvet_pod_bound_volumes() */
};

/**
 * kvet_pod_needs_read() - read @pod_spec's needs, its claims resolved in
 * namespace @ns of @g.
 * @arena: where the arrays go.
 * Returns: 0, or -1 when out of memory.
 */
int kvet_pod_needs_read(struct kvet_arena *arena, const struct kvet_graph *g,
			const char *ns, const struct kvet_node *pod_spec,
			struct kvet_pod_needs *out);

#endif

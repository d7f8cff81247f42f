/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_LEADER_H
#define KVET_MODEL_LEADER_H

#include <stdbool.h>

#include "base/arena.h"
#include "load/node.h"
#include "model/graph.h"
#include "model/labels.h"
#include "model/object.h"
#include "model/workload.h"

/*
 * Leader election detection (docs/model.md 1.13): does a workload's
 * process elect a leader, judged from its containers' command and args,
 * its mounted configuration, and components known to elect by default?
 */
enum kvet_leader_state {
	KVET_LEADER_UNKNOWN,
	KVET_LEADER_ON,
	KVET_LEADER_OFF,
};

enum kvet_leader_source {
	KVET_LEADER_FROM_NOTHING,	/* UNKNOWN */
	KVET_LEADER_FROM_FLAG,		/* a command or args token */
	KVET_LEADER_FROM_CONFIG,	/* leaderElect in a mounted ConfigMap */
	KVET_LEADER_FROM_COMPONENT,	/* a component whose default is on */
	KVET_LEADER_FROM_ENV,		/* a container's env item */
};

/* Plain data; strings in the run's arena or the graph. */
struct kvet_leader {
	enum kvet_leader_state state;
	enum kvet_leader_source source;
	const struct kvet_node *container;	/* the deciding container */
	/* the command/args item holding the flag, the ConfigMap data value,
	 * the env item, or the image or command naming the component; NULL
	 * when UNKNOWN */
	const struct kvet_node *evidence;
	const struct kvet_object *config_map;	/* FROM_CONFIG */
	const char *setting;	/* FROM_CONFIG: the key, e.g. leaderElect */
	const char *component;			/* FROM_COMPONENT */
	const char *namespace;		/* the election namespace */
	const struct kvet_node *namespace_node;	/* where it is set; NULL
						 * for the workload's own */
};

/**
 * kvet_leader_election() - detect leader election for @wl.
 * @arena: where the election namespace is copied.
 * @g: the graph, to find mounted ConfigMaps in @wl's namespace.
 * @wl: the workload.
 * @out: the result.
 *
 * Per container, a flag that switches election wins over a mounted
 * configuration, over an environment variable, over a flag that tunes an
 * election (another --leader-elect*, --election-id), over a component's
 * default; the last of repeated flags wins, as in Go's
 * flag package. The workload is ON when any container is, else OFF when
 * any container is, else UNKNOWN.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_leader_election(struct kvet_arena *arena, const struct kvet_graph *g,
			 const struct kvet_workload *wl,
			 struct kvet_leader *out);

/**
 * kvet_go_bool() - Go's strconv.ParseBool: 1 t T TRUE true True, 0 f F
 * FALSE false False.
 * Returns: true and sets @out when @s is one of them.
 */
bool kvet_go_bool(struct kvet_slice s, bool *out);

const char *kvet_leader_state_name(enum kvet_leader_state state);

/* The token of the evidence that sets leader election
 * ("--leader-elect=false"), for a FROM_FLAG result; else empty. */
struct kvet_slice kvet_leader_flag(const struct kvet_leader *le);

/* The data key of the ConfigMap whose value is the evidence, for a
 * FROM_CONFIG result; else empty. */
struct kvet_slice kvet_leader_config_key(const struct kvet_leader *le);

/*
 * Where the evidence is in the workload: the flag's args entry, the image
 * or command naming the component, or, for a mounted ConfigMap (whose
 * text is in another object), the pod volume naming it; NULL when none.
 */
const struct kvet_node *kvet_leader_at(const struct kvet_workload *wl,
				       const struct kvet_leader *le);

/* A container's name, empty when it has none. */
struct kvet_slice kvet_container_name(const struct kvet_node *c);

#endif

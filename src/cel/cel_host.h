/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CEL_CEL_HOST_H
#define KVET_CEL_CEL_HOST_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The one seam between the CEL engine and the program that embeds it
 * (git's reftable/system.h: "the interface that is to be implemented by
 * the project"). The engine takes three things from its host, and
 * nothing else:
 *
 * - memory: arenas (base/arena.h) for programs and for the values of an
 *   evaluation, freed by the host in one call;
 * - documents: values read from the input are views of the loader's
 *   node trees (load/node.h), with the node each came from, so that a
 *   value knows its file:line:column;
 * - host objects: a value may stand for an object of the host (for
 *   kvet, a Kubernetes object). The engine carries an opaque pointer
 *   and a tag saying what it points at, copies them with the value, and
 *   never looks inside; the host's functions (struct cel_lib) and the
 *   hooks below do.
 *
 * The engine names no library of the host: the host passes its
 * libraries in when it compiles (struct cel_scope).
 */
#include "base/arena.h"
#include "load/node.h"

/* The tag of a value that stands for no host object. Host tags are 1..255. */
enum { CEL_HOST_NONE = 0 };

struct cel_value;

/*
 * The host's hooks, in the environment of an evaluation (struct
 * cel_env). A host embeds this in its own structure and finds that
 * again with container_of-style arithmetic, so the engine holds no
 * pointer typed by the host.
 */
struct cel_host {
	/*
	 * field() - a field that the map of host value @v does not hold,
	 * or false when there is none (the evaluator then says "no such
	 * key"). kvet: an item of a typed list (DeploymentList) has its
	 * kind and apiVersion from the list. May be NULL.
	 */
	bool (*field)(const struct cel_host *host, const struct cel_value *v,
		      const char *name, size_t len, struct cel_value *out);
};

#endif

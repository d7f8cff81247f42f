/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_ENV_H
#define KVET_RULES_ENV_H

#include <stdbool.h>
#include <stddef.h>

#include "cel/cel.h"
#include "model/graph.h"
#include "model/object.h"

/*
 * kvet as the host of the CEL engine (cel/cel_host.h): which values are
 * Kubernetes objects, the run whose graph the Kubernetes functions read,
 * and the libraries rule expressions may call. The engine knows none of
 * it; rules/ hands it over through the scope and the environment.
 */

/* The host tags of kvet's values. */
enum kvet_cel_tag {
	KVET_CEL_OBJECT = 1,	/* a struct kvet_object */
};

struct kvet_run;

/*
 * The run an evaluation belongs to, for kvet's functions. Attach it to
 * an environment with kvet_cel_host_attach(); without one, functions
 * that need the graph say so, as outside a run.
 */
struct kvet_cel_host {
	struct cel_host host;		/* the engine's hooks */
	const struct kvet_graph *graph;	/* NULL outside a run */
	struct kvet_run *run;		/* its indexes (model/run.h), or NULL */
};

/* Attach @h, which holds @run (borrowed, may be NULL), to @env. */
void kvet_cel_host_attach(struct cel_env *env, struct kvet_cel_host *h,
			  struct kvet_run *run);

/* The host's field() hook (struct cel_host), which also tells kvet's
 * host from another. */
bool kvet_cel_object_field(const struct cel_host *host,
			   const struct cel_value *v, const char *name,
			   size_t len, struct cel_value *out);

/* The kvet host of @ev's environment, or NULL when it has another;
 * inline: every call of kvet's functions asks. */
static inline const struct kvet_cel_host *
kvet_cel_host_of(const struct cel_eval *ev)
{
	const struct cel_host *h = ev->env->host;

	if (!h || h->field != kvet_cel_object_field)
		return NULL;
	return (const struct kvet_cel_host *)
		((const char *)h - offsetof(struct kvet_cel_host, host));
}

/* The graph and indexes of the evaluation's run, or NULL. */
const struct kvet_graph *kvet_cel_graph(const struct cel_eval *ev);
struct kvet_run *kvet_cel_run(const struct cel_eval *ev);

/* A whole object: its mapping, standing for the object. */
static inline struct cel_value
kvet_cel_from_object(const struct kvet_object *obj)
{
	return cel_with_host(cel_from_node(obj->root, obj->root),
			     KVET_CEL_OBJECT, obj);
}

/* The object @v stands for, or NULL when it stands for none. */
static inline const struct kvet_object *
kvet_cel_object(const struct cel_value *v)
{
	return v->host_tag == KVET_CEL_OBJECT ? v->host : NULL;
}

/* The libraries of rule expressions, in search order: CEL's standard
 * library and strings extension, then the Kubernetes ones. */
extern const struct cel_lib *const kvet_cel_libs[];
extern const size_t kvet_cel_n_libs;

#endif

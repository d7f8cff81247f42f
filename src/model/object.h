/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_OBJECT_H
#define KVET_MODEL_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "load/load.h"
#include "load/node.h"

enum kvet_object_flags {
	KVET_OBJ_CLUSTER_SCOPED = 1u << 0,
	KVET_OBJ_HAS_STATUS = 1u << 1,	/* non-empty status: a live object */
	KVET_OBJ_HELM_TEST = 1u << 2,	/* helm.sh/hook contains "test" */
	KVET_OBJ_LIST_ITEM = 1u << 3,	/* came from the items of a *List */
	/* any other helm.sh/hook: runs only around an install, upgrade,
	 * rollback or delete (docs/model.md 1.1) */
	KVET_OBJ_HELM_HOOK = 1u << 4,
	/* namespaced, without metadata.namespace: its namespace is the
	 * loader's fallback until kvet_release_namespace() settles it */
	KVET_OBJ_NS_UNSET = 1u << 5,
	/* a Pod bound to a node (spec.nodeName): observed state, as a
	 * status is */
	KVET_OBJ_BOUND_POD = 1u << 6,
};

/*
 * One Kubernetes object of the input. Strings are NUL-terminated and live
 * in the run's arena; namespace is "" for cluster-scoped objects and, for
 * namespaced objects that name none (KVET_OBJ_NS_UNSET), the loader's
 * fallback, which kvet_release_namespace() may replace before the graph
 * is built: no other code defaults a namespace.
 */
struct kvet_object {
	const struct kvet_node *root;	/* the object's mapping */
	const char *file;		/* input name */
	const char *source;		/* Helm "# Source:" path, or NULL */
	const char *api_version;	/* "apps/v1", "v1" */
	const char *group;		/* "apps", "" for the core group */
	const char *version;		/* "v1" */
	const char *kind;
	const char *namespace;
	const char *name;
	uint32_t line, col;		/* the object's first key */
	uint32_t doc;			/* document index within the file */
	uint32_t seq;			/* order of the object in the run */
	unsigned int flags;		/* enum kvet_object_flags */
};

/* A growable vector of object pointers (malloc'd; objects in the arena). */
struct kvet_objects {
	struct kvet_object **v;
	size_t n, cap;
	/* documents skipped by kvet_objects_from_docs() because they are not
	 * Kubernetes objects (values.yaml, CI files, a playbook) */
	size_t skipped;
};

void kvet_objects_release(struct kvet_objects *objs);

/* Append @obj. Returns 0, or -1 when out of memory. */
int kvet_objects_push(struct kvet_objects *objs, struct kvet_object *obj);

/**
 * kvet_objects_from_docs() - turn the documents of one input into objects.
 * @arena: the run's arena.
 * @diag: errors (not a mapping; no kind, apiVersion or metadata.name)
 *        are recorded here with the document's position.
 * @file: the input name.
 * @docs: its documents.
 * @default_ns: namespace for namespaced objects without one.
 * @out: objects are appended here. A List or *List document with items
 *       gives its items; items of a typed list (DeploymentList) without a
 *       kind or apiVersion take them from the list. A top-level sequence
 *       gives its items too, when one of them has an apiVersion or kind.
 *
 * A document that is plainly not Kubernetes (a mapping with neither
 * apiVersion nor kind, a scalar, a sequence none of whose items has
 * either) is skipped: counted in @out->skipped and recorded as a detail
 * notice at its position, never as an error. One that looks like an
 * object but is broken (only one of the two, no name) is an error.
 *
 * Returns: the number of objects added, or -1 when out of memory.
 */
long kvet_objects_from_docs(struct kvet_arena *arena, struct kvet_diag *diag,
			    const char *file, const struct kvet_docs *docs,
			    const char *default_ns, struct kvet_objects *out);

/* True for the cluster-scoped kinds kvet knows (Namespace, Node, ...). */
bool kvet_kind_is_cluster_scoped(const char *group, const char *kind);

/* Is @obj (may be NULL) of API group @group ("" for core) and @kind? */
static inline bool kvet_object_is(const struct kvet_object *obj,
				  const char *group, const char *kind)
{
	return obj && strcmp(obj->kind, kind) == 0 &&
	       strcmp(obj->group, group) == 0;
}

/*
 * Is @obj a running workload, when it is a workload at all? A Helm hook
 * (KVET_OBJ_HELM_HOOK) is validated like any object but runs only
 * around a release operation: it is no manager, no backend of a Service
 * or webhook, no pod a budget counts, never placed on a pool (1.1).
 */
static inline bool kvet_object_runs(const struct kvet_object *obj)
{
	return !(obj->flags & KVET_OBJ_HELM_HOOK);
}

/*
 * Does @status (may be NULL) carry observed state? A status whose every
 * value is empty ("", [], {}, null, or maps and lists of only such) is
 * a stub: older controller-gen CRDs ship one (1.1).
 */
bool kvet_status_observed(const struct kvet_node *status);

#endif

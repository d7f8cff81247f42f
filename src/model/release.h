/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_RELEASE_H
#define KVET_MODEL_RELEASE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "model/object.h"

/*
 * The release namespace of a Helm render (docs/model.md 1.1): the one
 * place where a namespaced object without metadata.namespace
 * (KVET_OBJ_NS_UNSET) gets a namespace other than the loader's fallback.
 */

/* Does one of the objects come from a Helm render (a "# Source:")? */
bool kvet_objects_helm_render(struct kvet_object *const *objs, size_t n);

/* Put every KVET_OBJ_NS_UNSET object of @objs in @ns (borrowed). */
void kvet_release_namespace_apply(struct kvet_object *const *objs, size_t n,
				  const char *ns);

/* What a render says of its own release namespace. */
enum kvet_release_state {
	KVET_RELEASE_UNNAMED,	/* no reference names one */
	KVET_RELEASE_INFERRED,	/* every reference names @ns */
	KVET_RELEASE_DISAGREE,	/* @ns and @other_ns, at least */
};

struct kvet_release_guess {
	enum kvet_release_state state;
	const char *ns;			/* the first namespace named */
	const struct kvet_object *from;	/* the object that names it */
	const char *why;		/* how, in words */
	const char *other_ns;		/* KVET_RELEASE_DISAGREE */
	const struct kvet_object *other_from;
	const char *other_why;
	size_t n_unset;			/* objects without a namespace */
};

/**
 * kvet_release_namespace_infer() - read the release namespace off a
 * piped render: a webhook, CRD conversion or APIService
 * service.namespace naming a namespace-less Service of the render, a
 * (Cluster)RoleBinding subject naming a namespace-less ServiceAccount of
 * it, and a metadata.namespace that every namespaced object naming one
 * shares.
 * @arena: for the words of @out.
 * @objs: the objects of one unit of input, in input order.
 * @n: how many.
 * @out: the result.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_release_namespace_infer(struct kvet_arena *arena,
				 struct kvet_object *const *objs, size_t n,
				 struct kvet_release_guess *out);

/**
 * kvet_release_namespace() - settle the namespaces of one unit.
 * @arena: the run's arena.
 * @diag: the notice of an inference, or of a render that should have
 *        been given --namespace, goes here.
 * @objs: the unit's objects.
 * @n: how many.
 * @given: the release namespace kvet gave helm, or the one the user gave
 *         (--namespace, the configuration); NULL when none was given.
 * @fallback: the namespace the objects keep when none is known.
 *
 * Outside a Helm render nothing changes. In one, the objects without
 * metadata.namespace go to @given, or to the inferred namespace, said
 * in one notice; when the render's references disagree or name none,
 * they keep @fallback and a notice says that --namespace should be given.
 *
 * Returns: 0, or -1 when out of memory.
 */
int kvet_release_namespace(struct kvet_arena *arena, struct kvet_diag *diag,
			   struct kvet_object *const *objs, size_t n,
			   const char *given, const char *fallback);

#endif

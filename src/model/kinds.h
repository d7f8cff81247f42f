/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_MODEL_KINDS_H
#define KVET_MODEL_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "model/graph.h"

/*
 * Kinds as rules name them: "Deployment" for the kinds whose group
 * everyone knows, "group/Kind" for any kind ("apps/Deployment",
 * "cert-manager.io/Certificate").
 */

/* The API group of @kind when rules may name it without one, or NULL. */
const char *kvet_kind_group(const char *kind);

/**
 * kvet_graph_objects_named() - the objects of a kind named as rules name
 * it, in input order, optionally of one namespace.
 * @arena: where the array goes.
 * @name: "Kind" (a kind of kvet_kind_group()) or "group/Kind".
 * @ns: the namespace, or NULL for every one.
 * @out: the objects, borrowed from @arena.
 *
 * Returns: 0; -2 when @name is a kind without its group that
 * kvet_kind_group() does not know; -1 when out of memory.
 */
int kvet_graph_objects_named(struct kvet_arena *arena,
			     const struct kvet_graph *g, const char *name,
			     const char *ns, const struct kvet_object ***out,
			     size_t *n);

/**
 * kvet_graph_kind_named_known() - kvet_graph_kind_known() for a kind
 * named as rules name it.
 * @out: the answer.
 * Returns: 0; -2 when @name is a kind without its group that
 * kvet_kind_group() does not know; -1 when out of memory.
 */
int kvet_graph_kind_named_known(struct kvet_arena *arena,
				const struct kvet_graph *g, const char *name,
				bool *out);

#endif

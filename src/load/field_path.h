/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_FIELD_PATH_H
#define KVET_LOAD_FIELD_PATH_H

#include "base/arena.h"
#include "load/node.h"

/*
 * kvet_node_field_path() - where @at lies in the tree of @root, written
 * as a field path from the root: "spec.template.spec.containers[name=web]
 * .resources", "metadata.labels[\"app.kubernetes.io/name\"]", "" for the
 * root itself. A list item that is a mapping with a scalar "name" is
 * named by it, as Kubernetes merges such lists by name, so reordering
 * containers or ports keeps the path; other items by their index.
 * @arena: where the path is written.
 * @root: the tree (an object's mapping).
 * @at: a node of @root's tree, NULL, or a node elsewhere.
 *
 * The tree is a DAG whose nodes know only their start: the walk goes
 * down by position, one child per level, so it costs the depth of @at
 * times the widths on the way, never a search of the whole tree.
 *
 * Returns: the path in @arena; "" when @at is NULL, @root, or not found
 * in @root's tree; NULL when out of memory.
 */
const char *kvet_node_field_path(struct kvet_arena *arena,
				 const struct kvet_node *root,
				 const struct kvet_node *at);

#endif

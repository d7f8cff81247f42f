/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_COLLECTION_H
#define KVET_LOAD_COLLECTION_H

#include <stddef.h>

#include "base/arena.h"
#include "load/keyset.h"
#include "load/node.h"

/*
 * kvet_collection_fill() - make @n, whose type (KVET_NODE_MAP or
 * KVET_NODE_SEQ), flags, line and column are set, the collection of the
 * @count children at @v (a mapping's keys and values alternating; NULL
 * when @count is 0) that a scanner read, copied into @arena. The readers
 * that build trees without libfyaml (json.c, block.c) share it; the
 * libfyaml builder has its own, with merge keys (build_map.c).
 * @keys: scratch for telling the keys of a large mapping apart.
 *
 * Returns: 0; 1 when the collection is refused (a mapping with a key
 * twice or an odd number of children, more than UINT32_MAX children);
 * -1 when out of memory.
 */
int kvet_collection_fill(struct kvet_arena *arena, struct kvet_keyset *keys,
			 struct kvet_node *n, const struct kvet_node *v,
			 size_t count);

#endif

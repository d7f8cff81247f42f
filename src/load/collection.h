/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_COLLECTION_H
#define KVET_LOAD_COLLECTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* A collection a reader without libfyaml has opened and not closed. */
struct kvet_scan_frame {
	size_t start;		/* its first child on the stack */
	uint32_t line, col;
	uint8_t type;		/* KVET_NODE_MAP or KVET_NODE_SEQ */
	uint8_t role;		/* enum kvet_build_role */
	bool skip;		/* read, but not built (managedFields) */
};

/*
 * kvet_scan_frame_open() - set up @f, a collection of @type at @line:@col,
 * opened below @parent (NULL: the document's root) when the reader's
 * stack holds @n nodes, the last of them its key when @parent is a
 * mapping. Returns the stack's size from then on: one less when the
 * collection is dropped with its key (kvet_build_drops()).
 */
size_t kvet_scan_frame_open(struct kvet_scan_frame *f,
			    const struct kvet_scan_frame *parent, uint8_t type,
			    uint32_t line, uint32_t col,
			    const struct kvet_node *stack, size_t n);

/*
 * kvet_scan_frame_node() - the node of the closed frame @f (not skipped),
 * whose children are @stack[f->start, @n), with @flags: as
 * kvet_collection_fill() returns.
 */
int kvet_scan_frame_node(struct kvet_arena *arena, struct kvet_keyset *keys,
			 const struct kvet_scan_frame *f, uint8_t flags,
			 const struct kvet_node *stack, size_t n,
			 struct kvet_node *out);

#endif

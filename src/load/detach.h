/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_DETACH_H
#define KVET_LOAD_DETACH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "load/node.h"

/*
 * Detaching a tree from its input: the text of every scalar that points
 * into the input is copied into the arena, so that the input's pages can
 * be given back to the kernel once a piece is parsed (job.c; the input is
 * then a private mapping of its file). Keys are interned, one copy per
 * distinct key (a dump has about a hundred distinct keys and millions of
 * keys), and so are short values; the copies are packed in chunks, one
 * NUL after each and no padding, where the arena would round each string
 * up to 16 bytes. Copies may thus be shared: the text is read-only.
 */
struct kvet_detach_entry {
	const char *s;			/* the copy; NULL: an empty slot */
	uint32_t len, hash;
};

#define KVET_DETACH_RECENT_BITS 9

struct kvet_detach_recent {
	const char *s;			/* the copy; NULL: empty */
	uint64_t head;			/* its first bytes (detach.c) */
	uint32_t len;
};

struct kvet_detach {
	struct kvet_arena *arena;
	const char *lo, *hi;		/* the input: text in here is copied */
	struct kvet_detach_entry *slot;	/* interned texts; malloc'd */
	size_t ntext, captext;		/* captext a power of two, or 0 */
	size_t firstcap;		/* the table's first size */
	/* the texts interned last, by length and first bytes */
	struct kvet_detach_recent recent[1u << KVET_DETACH_RECENT_BITS];
	char *chunk;			/* the values' chunk, in the arena */
	size_t left;			/* bytes free in it */
	struct kvet_node **stack;	/* collections to walk; malloc'd */
	size_t n, cap;
};

/* Set up @d to copy text of @buf[0, @len) into @arena. */
void kvet_detach_init(struct kvet_detach *d, struct kvet_arena *arena,
		      const char *buf, size_t len);

/*
 * kvet_detach_reserve() - make the table's first size room for about @n
 * distinct texts. A reader that detaches as it reads (json.c) grew the
 * table between its arena's blocks, and malloc kept the tables freed in
 * the middle of its heap: 1.2% more peak RSS on a 316 MB dump, where one
 * table of the right size costs nothing.
 */
void kvet_detach_reserve(struct kvet_detach *d, size_t n);

/*
 * kvet_detach_tree() - copy the text of every scalar of @root's tree
 * (@root too) that lies in the input, and point the nodes at the copies.
 * The tree must be a tree (no shared subtrees: the readers without
 * libfyaml build no aliases) in writable arena memory, and no rule may
 * have read it yet. Walks iteratively, whatever the depth.
 * Returns: 0, or -1 when out of memory (the tree is then partly copied,
 * still valid).
 */
int kvet_detach_tree(struct kvet_detach *d, struct kvet_node *root);

/*
 * kvet_detach_scalar() - what kvet_detach_tree() does to the scalar @n,
 * a mapping's key when @key, for a reader that detaches each scalar as it
 * reads it (json.c): its text is then still in the cache, where a walk
 * of the finished tree reads every node and every text a second time
 * from memory.
 * Returns: 0, or -1 when out of memory (@n is then as it was).
 */
int kvet_detach_scalar(struct kvet_detach *d, struct kvet_node *n, bool key);

/* Free @d's scratch; the copies stay in the arena. */
void kvet_detach_release(struct kvet_detach *d);

#endif

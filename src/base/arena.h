/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_ARENA_H
#define KVET_BASE_ARENA_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * A bump allocator for memory that lives exactly as long as one run or one
 * rule set: the object graph, findings and messages. Nothing in it is freed
 * on its own; kvet_arena_release() frees it all at once.
 */
struct kvet_arena_block;

struct kvet_arena {
	struct kvet_arena_block *head;
	size_t total;		/* bytes obtained from malloc, for limits */
	size_t blocks;		/* blocks ever made: the serial of the next */
};

/* A point to return to with kvet_arena_reset(); plain data. */
struct kvet_arena_mark {
	struct kvet_arena_block *head;
	size_t used;
	size_t blocks;
};

void kvet_arena_init(struct kvet_arena *arena);
void kvet_arena_release(struct kvet_arena *arena);

/*
 * kvet_arena_mark() - remember the arena's fill, so that scratch memory
 * (one rule evaluation) can be given back with kvet_arena_reset().
 */
void kvet_arena_mark(const struct kvet_arena *arena,
		     struct kvet_arena_mark *mark);

/*
 * kvet_arena_reset() - free everything allocated since @mark. Blocks made
 * since then are freed, except that the newest is kept for reuse when it
 * is of the normal size, so a loop that marks and resets stops calling
 * malloc once it has warmed up.
 */
void kvet_arena_reset(struct kvet_arena *arena,
		      const struct kvet_arena_mark *mark);

/*
 * kvet_arena_alloc() - allocate @size bytes aligned for any object type.
 * Returns: zeroed memory owned by @arena, or NULL when out of memory.
 */
void *kvet_arena_alloc(struct kvet_arena *arena, size_t size);

/* Like kvet_arena_alloc() for @n elements of @size bytes, checking overflow. */
void *kvet_arena_array(struct kvet_arena *arena, size_t n, size_t size);

/*
 * kvet_arena_grow() - make room for element @n of the vector *@v of
 * capacity *@cap, @size bytes each, in @arena: when it is full, a copy
 * twice as large is taken and the old one left in the arena (which
 * frees everything at once). For lists built once per run or call.
 * Returns: true, or false when out of memory (the vector is unchanged).
 */
bool kvet_arena_grow(struct kvet_arena *arena, void *v, size_t *cap,
		     size_t n, size_t size);

/* A NUL-terminated copy of @len bytes at @s; NULL when out of memory. */
char *kvet_arena_strndup(struct kvet_arena *arena, const char *s, size_t len);
char *kvet_arena_strdup(struct kvet_arena *arena, const char *s);
char *kvet_arena_printf(struct kvet_arena *arena, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *kvet_arena_vprintf(struct kvet_arena *arena, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif

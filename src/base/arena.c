/* SPDX-License-Identifier: Apache-2.0 */
#include "base/arena.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Most runs allocate tens of megabytes; large blocks keep malloc out of
 * the loader's hot path while small runs waste at most one block. */
enum { ARENA_BLOCK_SIZE = 256 * 1024 };

struct kvet_arena_block {
	struct kvet_arena_block *next;
	size_t used;
	size_t size;
	size_t serial;		/* order of creation in its arena */
	max_align_t data[];
};

void kvet_arena_init(struct kvet_arena *arena)
{
	arena->head = NULL;
	arena->total = 0;
	arena->blocks = 0;
}

void kvet_arena_release(struct kvet_arena *arena)
{
	struct kvet_arena_block *blk, *next;

	if (!arena)
		return;
	for (blk = arena->head; blk; blk = next) {
		next = blk->next;
		free(blk);
	}
	kvet_arena_init(arena);
}

static struct kvet_arena_block *new_block(struct kvet_arena *arena,
					  size_t want)
{
	struct kvet_arena_block *blk;
	size_t size = want > ARENA_BLOCK_SIZE ? want : ARENA_BLOCK_SIZE;

	if (size > SIZE_MAX - sizeof(*blk))
		return NULL;
	blk = malloc(sizeof(*blk) + size);
	if (!blk)
		return NULL;
	blk->used = 0;
	blk->size = size;
	blk->serial = arena->blocks++;
	arena->total += size;
	/* An oversized request gets a block of its own behind the current
	 * one, so the rest of the current block stays usable. */
	if (want > ARENA_BLOCK_SIZE && arena->head) {
		blk->next = arena->head->next;
		arena->head->next = blk;
	} else {
		blk->next = arena->head;
		arena->head = blk;
	}
	return blk;
}

void kvet_arena_mark(const struct kvet_arena *arena,
		     struct kvet_arena_mark *mark)
{
	mark->head = arena->head;
	mark->used = arena->head ? arena->head->used : 0;
	mark->blocks = arena->blocks;
}

void kvet_arena_reset(struct kvet_arena *arena,
		      const struct kvet_arena_mark *mark)
{
	struct kvet_arena_block **link = &arena->head, *blk, *keep = NULL;

	/* newer blocks may sit behind the marked head (oversized ones), so
	 * the whole list is walked; scratch arenas hold few blocks */
	while ((blk = *link)) {
		if (blk->serial < mark->blocks) {
			link = &blk->next;
			continue;
		}
		*link = blk->next;
		if (!keep && blk->size == ARENA_BLOCK_SIZE && !mark->head) {
			keep = blk;
			continue;
		}
		arena->total -= blk->size;
		free(blk);
	}
	if (mark->head) {
		mark->head->used = mark->used;
		return;
	}
	/* an arena marked empty keeps one block: the loop's working set */
	if (keep) {
		keep->used = 0;
		keep->next = arena->head;
		keep->serial = arena->blocks > 0 ? arena->blocks - 1 : 0;
		arena->head = keep;
	}
}

void *kvet_arena_alloc(struct kvet_arena *arena, size_t size)
{
	const size_t align = sizeof(max_align_t);
	struct kvet_arena_block *blk = arena->head;
	size_t rounded;
	void *p;

	if (size > SIZE_MAX - align)
		return NULL;
	rounded = (size + align - 1) & ~(align - 1);
	if (!blk || blk->size - blk->used < rounded) {
		blk = new_block(arena, rounded);
		if (!blk)
			return NULL;
	}
	p = (char *)blk->data + blk->used;
	blk->used += rounded;
	memset(p, 0, size);
	return p;
}

void *kvet_arena_array(struct kvet_arena *arena, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kvet_arena_alloc(arena, n * size);
}

bool kvet_arena_grow(struct kvet_arena *arena, void *v, size_t *cap,
		     size_t n, size_t size)
{
	void **vp = v;
	size_t c = *cap ? 2 * *cap : 4;
	void *nv;

	if (n < *cap)
		return true;
	nv = kvet_arena_array(arena, c, size);
	if (!nv)
		return false;
	if (n)
		memcpy(nv, *vp, n * size);
	*vp = nv;
	*cap = c;
	return true;
}

char *kvet_arena_strndup(struct kvet_arena *arena, const char *s, size_t len)
{
	char *p;

	if (len == SIZE_MAX)
		return NULL;
	p = kvet_arena_alloc(arena, len + 1);
	if (!p)
		return NULL;
	if (len)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

char *kvet_arena_strdup(struct kvet_arena *arena, const char *s)
{
	return kvet_arena_strndup(arena, s, strlen(s));
}

char *kvet_arena_vprintf(struct kvet_arena *arena, const char *fmt,
			 va_list ap)
{
	va_list cp;
	char *p;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return NULL;
	p = kvet_arena_alloc(arena, (size_t)n + 1);
	if (!p)
		return NULL;
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *kvet_arena_printf(struct kvet_arena *arena, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = kvet_arena_vprintf(arena, fmt, ap);
	va_end(ap);
	return p;
}

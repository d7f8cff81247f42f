/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_STRBUF_H
#define KVET_BASE_STRBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"

/*
 * The one growable string (git's strbuf): messages and notations built
 * piece by piece. The text is always NUL-terminated once anything was
 * added. Running out of memory is sticky: @oom is set, later additions
 * are dropped, and the caller checks it once at the end, so a builder of
 * many pieces needs no error path per piece.
 *
 * Memory comes from malloc, or from an arena when @arena is set
 * (KVET_STRBUF_ARENA): then a larger buffer is taken from the arena as
 * it grows, the old one is left there, and nothing needs releasing,
 * which suits code that returns early from many places and whose arena
 * is reset soon (one CEL evaluation).
 */
struct kvet_strbuf {
	char *buf;		/* NULL until something is added */
	size_t len, cap;
	struct kvet_arena *arena;	/* NULL: malloc */
	bool oom;
};

#define KVET_STRBUF_INIT { NULL, 0, 0, NULL, false }
#define KVET_STRBUF_ARENA(a) { NULL, 0, 0, (a), false }

void kvet_strbuf_init(struct kvet_strbuf *sb, struct kvet_arena *arena);

/* Free a malloc'd buffer and empty @sb; a no-op for an arena's. */
void kvet_strbuf_release(struct kvet_strbuf *sb);

void kvet_strbuf_add(struct kvet_strbuf *sb, const char *s, size_t len);
void kvet_strbuf_adds(struct kvet_strbuf *sb, const char *s);
void kvet_strbuf_addf(struct kvet_strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void kvet_strbuf_vaddf(struct kvet_strbuf *sb, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* The text so far: "" when nothing was added. */
static inline const char *kvet_strbuf_str(const struct kvet_strbuf *sb)
{
	return sb->buf ? sb->buf : "";
}

/*
 * kvet_strbuf_to_arena() - the text as a NUL-terminated string in
 * @arena, and @sb released.
 * Returns: the string, or NULL when @sb ran out of memory or @arena does
 * (an arena buffer of @arena itself is returned as it is).
 */
char *kvet_strbuf_to_arena(struct kvet_strbuf *sb, struct kvet_arena *arena);

#endif

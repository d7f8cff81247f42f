/* SPDX-License-Identifier: Apache-2.0 */
#include "base/strbuf.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void kvet_strbuf_init(struct kvet_strbuf *sb, struct kvet_arena *arena)
{
	memset(sb, 0, sizeof(*sb));
	sb->arena = arena;
}

void kvet_strbuf_release(struct kvet_strbuf *sb)
{
	struct kvet_arena *arena = sb->arena;

	if (!arena)
		free(sb->buf);
	kvet_strbuf_init(sb, arena);
}

/* Room for @more bytes and the NUL; false (and @oom) when there is none. */
static bool grow(struct kvet_strbuf *sb, size_t more)
{
	size_t need = sb->len + more + 1, cap = sb->cap ? sb->cap : 64;
	char *b;

	if (sb->oom)
		return false;
	if (need < more) {
		sb->oom = true;
		return false;
	}
	if (need <= sb->cap)
		return true;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	if (sb->arena) {
		b = kvet_arena_alloc(sb->arena, cap);
		if (b && sb->len)
			memcpy(b, sb->buf, sb->len);
	} else {
		b = realloc(sb->buf, cap);
	}
	if (!b) {
		sb->oom = true;
		return false;
	}
	sb->buf = b;
	sb->cap = cap;
	return true;
}

void kvet_strbuf_add(struct kvet_strbuf *sb, const char *s, size_t len)
{
	if (!grow(sb, len))
		return;
	if (len)
		memcpy(sb->buf + sb->len, s, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void kvet_strbuf_adds(struct kvet_strbuf *sb, const char *s)
{
	kvet_strbuf_add(sb, s, strlen(s));
}

void kvet_strbuf_vaddf(struct kvet_strbuf *sb, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	if (sb->oom)
		return;
	/* most pieces fit in the room left: format once */
	va_copy(cp, ap);
	n = vsnprintf(sb->buf ? sb->buf + sb->len : NULL,
		      sb->buf ? sb->cap - sb->len : 0, fmt, cp);
	va_end(cp);
	if (n < 0) {
		sb->oom = true;
		return;
	}
	if (!sb->buf || sb->len + (size_t)n >= sb->cap) {
		if (!grow(sb, (size_t)n))
			return;
		vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
	}
	sb->len += (size_t)n;
}

void kvet_strbuf_addf(struct kvet_strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	kvet_strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
}

char *kvet_strbuf_to_arena(struct kvet_strbuf *sb, struct kvet_arena *arena)
{
	char *s = NULL;

	if (!sb->oom && sb->arena == arena && sb->buf)
		s = sb->buf;
	else if (!sb->oom)
		s = kvet_arena_strndup(arena, kvet_strbuf_str(sb), sb->len);
	kvet_strbuf_release(sb);
	return s;
}

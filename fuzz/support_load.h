/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_FUZZ_SUPPORT_LOAD_H
#define KVET_FUZZ_SUPPORT_LOAD_H

/* Load a fixed text into objects, for the harnesses that need some. */
#include "base/arena.h"
#include "base/diag.h"
#include "load/load.h"
#include "model/object.h"

struct fuzz_loaded {
	struct kvet_arena arena;
	struct kvet_diag diag;
	struct kvet_docs docs;
	struct kvet_objects objs;
	char *buf;
};

static void fuzz_load_text(struct fuzz_loaded *l, const char *text,
			   size_t len)
{
	memset(l, 0, sizeof(*l));
	kvet_arena_init(&l->arena);
	kvet_diag_init(&l->diag, &l->arena);
	l->buf = malloc(len + 1);
	if (!l->buf)
		abort();
	memcpy(l->buf, text, len);
	l->buf[len] = '\0';
	if (kvet_load_buffer(&l->arena, &l->diag, "fixture.yaml", l->buf,
			     len, &l->docs) < 0 ||
	    kvet_objects_from_docs(&l->arena, &l->diag, "fixture.yaml",
				   &l->docs, "default", &l->objs) < 0)
		abort();
}

#endif

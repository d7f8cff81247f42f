/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_SUPPORT_H
#define KVET_TESTS_SUPPORT_H

/* cmocka wants these four first */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/diag.h"
#include "load/load.h"
#include "model/object.h"

/* One loaded test input: documents, objects and errors, freed at once. */
struct loaded {
	struct kvet_arena arena;
	struct kvet_diag diag;
	struct kvet_docs docs;
	struct kvet_objects objs;
	char *buf;
};

static inline struct loaded *load_bytes(const char *text, size_t len)
{
	struct loaded *l = calloc(1, sizeof(*l));

	assert_non_null(l);
	kvet_arena_init(&l->arena);
	kvet_diag_init(&l->diag, &l->arena);
	l->buf = malloc(len + 1);
	assert_non_null(l->buf);
	memcpy(l->buf, text, len);
	l->buf[len] = '\0';
	assert_int_equal(kvet_load_buffer(&l->arena, &l->diag, "t.yaml",
					  l->buf, len, &l->docs),
			 0);
	assert_true(kvet_objects_from_docs(&l->arena, &l->diag, "t.yaml",
					   &l->docs, "default", &l->objs) >= 0);
	return l;
}

static inline struct loaded *load_str(const char *text)
{
	return load_bytes(text, strlen(text));
}

static inline void loaded_free(struct loaded *l)
{
	if (!l)
		return;
	kvet_objects_release(&l->objs);
	kvet_docs_release(&l->docs);
	kvet_diag_release(&l->diag);
	kvet_arena_release(&l->arena);
	free(l->buf);
	free(l);
}

/* Assert that error @i is at @line:@col and its message contains @part. */
static inline void assert_error(const struct loaded *l, size_t i,
				unsigned int line, unsigned int col,
				const char *part)
{
	assert_true(i < l->diag.n);
	assert_int_equal(l->diag.errors[i].pos.line, line);
	assert_int_equal(l->diag.errors[i].pos.column, col);
	if (!strstr(l->diag.errors[i].message, part))
		fail_msg("error \"%s\" lacks \"%s\"",
			 l->diag.errors[i].message, part);
}

#endif

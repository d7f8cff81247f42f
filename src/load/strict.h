/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_STRICT_H
#define KVET_LOAD_STRICT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "load/node.h"

/*
 * Reading kvet's own YAML files (configuration, baselines) strictly: a
 * misspelt key or a value of the wrong type is an error at its line and
 * column, never silently ignored. Each function reports to @s->diag and
 * returns false (or NULL) on a problem.
 */
struct kvet_strict {
	struct kvet_arena *arena;
	struct kvet_diag *diag;
	const char *file;
	bool failed;		/* some error was reported */
};

/* @map must be a mapping whose keys are all in the NULL-terminated
 * @allowed; @what names it in messages ("configuration", "rules"). */
bool kvet_strict_map(struct kvet_strict *s, const struct kvet_node *map,
		     const char *what, const char *const *allowed);

/* A string (a NUL-terminated copy), or NULL after an error. */
const char *kvet_strict_string(struct kvet_strict *s,
			       const struct kvet_node *n, const char *what);

bool kvet_strict_bool(struct kvet_strict *s, const struct kvet_node *n,
		      const char *what, bool *out);

/* A sequence of strings: *@out is an arena array of *@n copies. */
bool kvet_strict_strings(struct kvet_strict *s, const struct kvet_node *n,
			 const char *what, const char **out[], size_t *nout);

/* Report @fmt at @n (at the start of the file when @n is NULL). */
void kvet_strict_errorf(struct kvet_strict *s, const struct kvet_node *n,
			const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * kvet_strict_load() - read @path and return the root of its single
 * document. The text is kept in @s->arena, which the tree points into.
 * Returns: the root, or NULL after reporting why.
 */
const struct kvet_node *kvet_strict_load(struct kvet_strict *s,
					 const char *path);

#endif

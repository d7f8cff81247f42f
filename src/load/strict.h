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

/* The value of @key in @map, or NULL after reporting the missing key at
 * @map, the entry that lacks it; @what names @map ("a baseline entry"). */
const struct kvet_node *kvet_strict_required(struct kvet_strict *s,
					     const struct kvet_node *map,
					     const char *key, const char *what);

/* The string value of @key in @map (kvet_strict_required(), then
 * kvet_strict_string()), or NULL after an error. */
const char *kvet_strict_required_string(struct kvet_strict *s,
					const struct kvet_node *map,
					const char *key, const char *what);

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

/* Size limits of kvet's own files (docs/reliability.md). A configuration
 * is a few kilobytes; a baseline holds one entry of ~300 bytes per
 * accepted finding, so 64 MiB is 200,000 of them. */
#define KVET_CONFIG_MAX_SIZE ((size_t)4 * 1024 * 1024)
#define KVET_BASELINE_MAX_SIZE ((size_t)64 * 1024 * 1024)

/*
 * kvet_strict_load() - read @path, at most @limit bytes, and return the
 * root of its single document. The text is kept in @s->arena, which the
 * tree points into. A larger file is an error at the byte past the
 * limit, naming @what ("configuration file"); a FIFO nobody writes to is
 * an error at once (kvet_file_read()).
 * Returns: the root, or NULL after reporting why.
 */
const struct kvet_node *kvet_strict_load(struct kvet_strict *s,
					 const char *path, size_t limit,
					 const char *what);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_SUPPRESS_H
#define KVET_RULES_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "kvet/kvet.h"
#include "model/object.h"

/* The annotations a primary object silences its own findings with. */
#define KVET_ANNOTATION_IGNORE "kvet.dev/ignore"
#define KVET_ANNOTATION_IGNORE_REASON "kvet.dev/ignore-reason"

/*
 * kvet_suppressed_by_annotation() - does @obj carry
 * `kvet.dev/ignore: "rule-a,rule-b"` (or "*") naming @rule?
 * @justification: set to `kvet.dev/ignore-reason` when it is given, else
 *                 NULL; a NUL-terminated copy in @arena.
 */
bool kvet_suppressed_by_annotation(struct kvet_arena *arena,
				   const struct kvet_object *obj,
				   const char *rule, const char **justification);

/* One `suppress:` entry of the configuration file. NULL fields match
 * anything; rule, namespace and name are shell globs (fnmatch). */
struct kvet_suppress_entry {
	const char *rule;
	const char *kind;
	const char *namespace;
	const char *name;
	const char *reason;
};

bool kvet_suppress_entry_matches(const struct kvet_suppress_entry *e,
				 const struct kvet_finding *f);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_FINDINGS_SUPPRESS_H
#define KVET_FINDINGS_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "kvet/common.h"
#include "base/diag.h"
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

/*
 * kvet_ignore_check() - a typo in kvet.dev/ignore would hide nothing and
 * say nothing: record a warning notice in @diag, at the annotation's
 * value, for each id of @obj's annotation that @known does not know.
 */
void kvet_ignore_check(const struct kvet_object *obj,
		       bool (*known)(const void *user, const char *id),
		       const void *user, struct kvet_diag *diag);

/* One `suppress:` entry of the configuration file. NULL fields match
 * anything; rule, namespace and name are shell globs (fnmatch). */
struct kvet_suppress_entry {
	const char *rule;
	const char *kind;
	const char *namespace;
	const char *name;
	const char *reason;
	struct kvet_position pos;	/* of @rule in its file; line 0: none */
};

bool kvet_suppress_entry_matches(const struct kvet_suppress_entry *e,
				 const struct kvet_finding *f);

#endif

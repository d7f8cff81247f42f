/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_RULES_FINDINGS_H
#define KVET_RULES_FINDINGS_H

#include <stddef.h>

#include "kvet/kvet.h"
#include "base/arena.h"
#include "load/node.h"
#include "model/object.h"

/* The findings of a run: a malloc'd vector of plain records whose
 * strings live in the run's arena. */
struct kvet_findings {
	struct kvet_arena *arena;
	struct kvet_finding *v;
	size_t n, cap;
	size_t *order;		/* input index of each finding's file */
	const struct kvet_object **objs;	/* each finding's object */
	int oom;
};

void kvet_findings_init(struct kvet_findings *fs, struct kvet_arena *arena);
void kvet_findings_release(struct kvet_findings *fs);

/* Fill @ref with the identity and place of @obj (strings borrowed). */
void kvet_object_ref_set(struct kvet_object_ref *ref,
			 const struct kvet_object *obj);

/*
 * The words of a finding (struct kvet_finding): @headline, and @reason
 * and @help or NULL ("" counts as NULL). @message is the full sentence
 * when the rule writes one (a rule file's `message:`); NULL joins the
 * headline and the reason with ": ".
 */
struct kvet_finding_text {
	const char *message;
	const char *headline;
	const char *reason;
	const char *help;
};

/*
 * kvet_findings_add() - record a finding of @rule on @obj at node @at (or
 * at the object when @at is NULL), its words copied into the run's arena.
 * @file_order sorts the files as the inputs were given. Returns the
 * finding so related objects can be attached, or NULL when out of
 * memory.
 */
struct kvet_finding *kvet_findings_add(struct kvet_findings *fs,
				       const char *rule,
				       enum kvet_severity sev,
				       const struct kvet_object *obj,
				       size_t file_order,
				       const struct kvet_node *at,
				       const struct kvet_finding_text *text);

/* Sort by file (input order), line, column, rule, then message. */
void kvet_findings_sort(struct kvet_findings *fs);

#endif

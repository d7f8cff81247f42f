/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_FINDINGS_FINDINGS_H
#define KVET_FINDINGS_FINDINGS_H

#include <stddef.h>

#include "kvet/common.h"
#include "base/arena.h"
#include "load/node.h"
#include "model/object.h"

/* A rule's help is most often the same text on each of its findings:
 * the last one kept per rule is found again here instead of copied. */
#define KVET_FINDINGS_HELPS 64

/* The findings of a run: a malloc'd vector of plain records whose
 * strings live in the run's arena. */
struct kvet_findings {
	struct kvet_arena *arena;
	struct kvet_finding *v;
	size_t n, cap;
	size_t *order;		/* input index of each finding's file */
	const struct kvet_object **objs;	/* each finding's object */
	int oom;
	struct {
		const char *rule;
		const char *help;	/* in the arena */
	} helps[KVET_FINDINGS_HELPS];
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
 * at the object when @at is NULL), its words copied into the run's arena:
 * a joined message holds the reason as its tail, and a help equal to the
 * rule's last one is shared.
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

/* Move the findings of @from after those of @to, in their order; their
 * strings stay where they are. Returns 0, or -1 when out of memory. */
int kvet_findings_append(struct kvet_findings *to, struct kvet_findings *from);

/*
 * The fingerprints of baselines before version 3: FNV-1a, 64 bits, over
 * @f's rule and object identity (apiVersion, kind, namespace, name) and
 * @text, each followed by a NUL. Version 2 hashed the headline, version 1
 * the message; kvet_finding_fingerprint() is today's.
 */
uint64_t kvet_finding_hash(const struct kvet_finding *f, const char *text);

/* Sort by file (input order), line, column, rule, then message. */
void kvet_findings_sort(struct kvet_findings *fs);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_FINDINGS_FINDINGS_H
#define KVET_FINDINGS_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kvet/common.h"
#include "base/arena.h"
#include "load/node.h"
#include "model/object.h"

/* What the run keeps beside each public finding; it moves with it when
 * findings are sorted, appended or held back. */
struct kvet_finding_meta {
	const struct kvet_object *obj;	/* the finding's object */
	size_t file_order;		/* input index of its file */
	/* what the check that reported it keeps with it (kvet drain: the
	 * node's index), KVET_FINDING_NO_TAG when nothing */
	uint32_t tag;
};
#define KVET_FINDING_NO_TAG UINT32_MAX

/* The findings of a run: a malloc'd vector of plain records whose
 * strings live in the run's arena. */
struct kvet_findings {
	struct kvet_arena *arena;
	struct kvet_finding *v;
	struct kvet_finding_meta *meta;	/* one per finding */
	size_t n, cap;
	int oom;
	/* kvet_findings_invalidate(): when set (a pass on several threads),
	 * the nodes a check finds unusable are kept here, malloc'd, for the
	 * caller to invalidate once every thread is done */
	bool defer_invalid;
	const struct kvet_node **invalid;
	size_t n_invalid, cap_invalid;
	/* the texts and related lists kept so far, each once: messages,
	 * reasons and helps repeat (a Service's reason on each of the six
	 * Services of its selector, a rule's help on each of its findings),
	 * and 200,000 findings held a kilobyte each (issue 28). An open
	 * hash table, malloc'd, of kvet_findings_kept (findings.c) */
	struct kvet_findings_kept *kept;
	size_t n_kept, cap_kept;
	/* a field path is written here first, and kept once */
	struct kvet_arena scratch;
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
 * headline and the reason with ": ", and the finding keeps no message
 * (its @message is NULL) when it has both.
 */
struct kvet_finding_text {
	const char *message;
	const char *headline;
	const char *reason;
	const char *help;
};

/*
 * kvet_findings_add() - record a finding of @rule on @obj at node @at (or
 * at the object when @at is NULL), its words copied into the run's arena
 * once each (a joined message holds the reason as its tail; a text kept
 * before is shared).
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

/*
 * kvet_findings_keep_refs() - @n related objects in the run's arena, for
 * a finding's @related: the list already kept when one of the same
 * objects, in the same order, is. Users copy a list before they change
 * it. Returns the list, or NULL when out of memory.
 */
const struct kvet_object_ref *
kvet_findings_keep_refs(struct kvet_findings *fs,
			const struct kvet_object_ref *refs, size_t n);

/* Findings [@first, @end) of @from, the lane of a pass that made them
 * (kvet_findings_join()). */
struct kvet_findings_part {
	uint32_t from;
	size_t first, end;
};

/*
 * kvet_findings_join() - put the findings of @parts, in their order,
 * after those of @to; *@lanes[part.from] holds each. A lane's parts
 * are in its order and hold all its findings. The lanes' lists are
 * emptied, and their strings stay where they are.
 *
 * The largest lane's list becomes @to's, and the parts are moved into it
 * from the last to the first: each of its own parts only moves up, and
 * the others' lists give back what has been copied as they go. A second
 * list of every finding beside the lanes' was 34 MB at the peak of a
 * 200,000-finding run on two threads.
 *
 * Returns 0, or -1 when out of memory (@to and the lanes unchanged).
 */
int kvet_findings_join(struct kvet_findings *to,
		       struct kvet_findings *const *lanes, size_t nl,
		       const struct kvet_findings_part *parts, size_t n_parts);

/*
 * kvet_findings_invalidate() - a check found @n unusable for the rules
 * (kvet_node_invalidate()): at once, or, when @fs defers it, once the
 * threads of the pass are done. Another thread's object may share @n
 * through an alias, and what it reads must not depend on timing; a check
 * that reaches @n by the same key judges its value the same either way.
 * Returns 0, or -1 when out of memory.
 */
int kvet_findings_invalidate(struct kvet_findings *fs,
			     const struct kvet_node *n);

/*
 * The fingerprints of baselines before version 3: FNV-1a, 64 bits, over
 * @f's rule and object identity (apiVersion, kind, namespace, name) and
 * @text, each followed by a NUL. Version 2 hashed the headline, version 1
 * the message; kvet_finding_fingerprint() is today's.
 */
uint64_t kvet_finding_hash(const struct kvet_finding *f, const char *text);

/* kvet_finding_hash() of @f's full sentence (version 1), joined or not. */
uint64_t kvet_finding_hash_message(const struct kvet_finding *f);

/* Sort by file (input order), line, column, rule, then message; the
 * table of kept texts is freed. */
void kvet_findings_sort(struct kvet_findings *fs);

#endif

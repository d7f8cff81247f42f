/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_REPORT_REPORT_INDEX_H
#define KVET_REPORT_REPORT_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "kvet/kvet.h"

/*
 * The findings of a run regrouped by rule and object, for reports that
 * show every rule with the objects it looked at (JUnit) or need a rule's
 * index (SARIF). Built from the public API only.
 */

/* A finding or a suppressed finding (@reason non-NULL). */
struct kvet_report_entry {
	const struct kvet_finding *finding;
	const char *reason;
	const char *justification;	/* of a suppression, or NULL */
	size_t object;		/* its index in the context, or SIZE_MAX */
	size_t order;		/* its place in the context's lists */
};

/*
 * One rule: the context's rules, and any rule a finding names that the
 * context does not list (@rule NULL). Sorted by id.
 */
struct kvet_report_suite {
	const char *id;
	const struct kvet_rule_info *rule;
	size_t lo, hi;		/* its entries */
	bool *applies;		/* per object; NULL: applies to none */
	size_t tests;		/* objects it applies to, or has entries for */
	size_t failures;	/* of those, with a finding that fails */
	size_t skipped;		/* with suppressed findings only */
};

struct kvet_report_index {
	/* sorted by rule id, object, findings before suppressed, order */
	struct kvet_report_entry *entries;
	size_t n_entries;
	struct kvet_report_suite *suites;
	size_t n_suites;
	size_t tests, failures, skipped;	/* sums over the suites */
	const struct kvet_render_options *gate;	/* what fails */
};

/* @gate: which findings fail (kvet_finding_fails()); borrowed.
 * Returns 0, or -1 when out of memory (nothing to release then). */
int kvet_report_index_init(struct kvet_report_index *idx,
			   const struct kvet_ctx *ctx,
			   const struct kvet_render_options *gate);
void kvet_report_index_release(struct kvet_report_index *idx);

/* The end of the reported findings among entries [lo, hi) of one test
 * case (suppressed ones follow them). */
size_t kvet_report_reported_end(const struct kvet_report_index *idx,
				size_t lo, size_t hi);

/* Whether one of entries [lo, hi) is a reported finding that fails the
 * gate: the test case is then a failure, else it passes. */
bool kvet_report_fails(const struct kvet_report_index *idx, size_t lo,
		       size_t hi);

/* Whether @suite's rule applies to object @i. */
bool kvet_report_applies(const struct kvet_report_index *idx,
			 const struct kvet_report_suite *suite, size_t i);

#endif

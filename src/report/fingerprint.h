/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_REPORT_FINGERPRINT_H
#define KVET_REPORT_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kvet/kvet.h"

/*
 * A finding's fingerprint where a report needs it unique (SARIF
 * partialFingerprints, GitLab Code Quality's fingerprint, which GitLab
 * keeps only the first of): kvet_finding_fingerprint() of the finding,
 * then its occurrence among the findings of the report with the same
 * hash (two findings of one rule at one field of one object), counted by
 * their words and then in report order, which neither line shifts nor
 * reordered inputs change. Written "%016x:N".
 */
struct kvet_report_fp {
	uint64_t hash;
	size_t occurrence;	/* 1 + earlier ones with the same hash */
};

/**
 * kvet_report_fps_create() - the fingerprints of @n findings.
 * @findings: the findings, in report order.
 * @n: their number.
 *
 * Returns: an array of @n the caller frees, or NULL when out of memory.
 */
struct kvet_report_fp *kvet_report_fps_create(
	const struct kvet_finding *const *findings, size_t n);

/* Write @p as a JSON string, quotes included. */
void kvet_report_fp_write(FILE *fp, const struct kvet_report_fp *p);

#endif

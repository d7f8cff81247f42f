/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_DIAG_H
#define KVET_BASE_DIAG_H

#include <stdarg.h>
#include <stddef.h>

#include "kvet/common.h"
#include "base/arena.h"

/*
 * The sink for failures: inputs kvet could not read or use. Findings are a
 * different thing and never go here. Messages follow git's wording rules:
 * lowercase, no final period, what is wrong first.
 */
struct kvet_diag {
	struct kvet_arena *arena;	/* messages live here */
	struct kvet_error *errors;	/* malloc'd vector */
	size_t n, cap;
	struct kvet_notice *notices;	/* malloc'd vector */
	size_t n_notices, cap_notices;
	int oom;			/* a record could not be made */
	size_t limit;			/* errors kept at most; 0: all */
	size_t dropped;			/* errors past the limit */
};

void kvet_diag_init(struct kvet_diag *diag, struct kvet_arena *arena);
void kvet_diag_release(struct kvet_diag *diag);

/* Record an error at @file:@line:@col (1-based; line 0: no position). */
void kvet_diag_addf(struct kvet_diag *diag, const char *file,
		    unsigned int line, unsigned int col, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

void kvet_diag_vaddf(struct kvet_diag *diag, const char *file,
		     unsigned int line, unsigned int col, const char *fmt,
		     va_list ap) __attribute__((format(printf, 5, 0)));

/* Record a notice (never an error: the exit status stays). */
void kvet_diag_notef(struct kvet_diag *diag, enum kvet_notice_level level,
		     const char *file, unsigned int line, unsigned int col,
		     const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * kvet_diag_set_limit() - keep at most @limit errors (0: no limit); the
 * ones past it are only counted in @diag->dropped, without formatting,
 * so that a file of a million bad lines costs a counter, not a report.
 */
void kvet_diag_set_limit(struct kvet_diag *diag, size_t limit);

/*
 * kvet_diag_close_limit() - if errors were dropped, record one more at
 * @file (no position) saying how many, and lift the limit.
 */
void kvet_diag_close_limit(struct kvet_diag *diag, const char *file);

/* Move every record of @from to the end of @to, leaving @from empty. */
int kvet_diag_append(struct kvet_diag *to, struct kvet_diag *from);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_LOAD_SANITIZE_H
#define KVET_LOAD_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One invalid byte sequence or NUL byte found in an input. */
struct kvet_utf8_bad {
	size_t offset;
	uint32_t line, col;	/* 1-based; col counts characters */
	bool is_nul;
};

struct kvet_utf8_fix {
	struct kvet_utf8_bad *v;	/* the first max_detail, in order */
	size_t *offsets;	/* every offset, sorted */
	size_t n, cap;		/* of offsets */
	size_t ndetail, capdetail;	/* of v */
	/* byte order marks that start a document in the middle of a
	 * stream (files joined with "---"): offsets, sorted */
	size_t *boms;
	size_t nboms, capboms;
};

/*
 * kvet_utf8_sanitize() - find invalid UTF-8 and NUL bytes and overwrite
 * each with '?', so that the parser can go on and every other document of
 * the input still loads; positions stay as they were because the length
 * does not change. Overlong forms and surrogates are invalid (RFC 3629).
 * One per line is recorded; positions of the first @max_detail only (the
 * rest are not reported), so a binary file costs 8 bytes a line at most.
 * Returns: 0, or -1 when out of memory. Free @fix with
 * kvet_utf8_fix_release().
 */
int kvet_utf8_sanitize(char *buf, size_t len, size_t max_detail,
		       struct kvet_utf8_fix *fix);
void kvet_utf8_fix_release(struct kvet_utf8_fix *fix);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_SAT_H
#define KVET_BASE_SAT_H

#include <stdint.h>

/*
 * Sums that stop at the type's largest value instead of overflowing:
 * counts and quantities an input can make as large as it likes (alias
 * expansions, resource requests), where "more than fits" is the answer.
 */

/* @a + @b, at most INT64_MAX; @b is not negative. */
static inline int64_t kvet_sat_add_i64(int64_t a, int64_t b)
{
	return a > INT64_MAX - b ? INT64_MAX : a + b;
}

static inline uint64_t kvet_sat_add_u64(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

#endif

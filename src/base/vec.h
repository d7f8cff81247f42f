/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_BASE_VEC_H
#define KVET_BASE_VEC_H

#include <stdbool.h>
#include <stddef.h>

/*
 * kvet_vec_grow() - make room for @need elements of @elem bytes in the
 * malloc'd vector *@v of capacity *@cap, doubling it as needed.
 * Returns: true, or false when out of memory (the vector is unchanged).
 */
bool kvet_vec_grow(void **v, size_t *cap, size_t need, size_t elem);

#endif

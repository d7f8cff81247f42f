/* SPDX-License-Identifier: Apache-2.0 */
#include "base/vec.h"

#include <stdint.h>
#include <stdlib.h>

bool kvet_vec_grow(void **v, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *p;

	if (need <= *cap)
		return true;
	ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return false;
		ncap *= 2;
	}
	if (elem && ncap > SIZE_MAX / elem)
		return false;
	p = realloc(*v, ncap * elem);
	if (!p)
		return false;
	*v = p;
	*cap = ncap;
	return true;
}

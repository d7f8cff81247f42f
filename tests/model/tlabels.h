/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_TESTS_TLABELS_H
#define KVET_TESTS_TLABELS_H

#include <stdarg.h>

#include "base/arena.h"
#include "model/labels.h"

/* tl_labels(arena, n, "key", "value", ...): a label set built in C. */
static inline struct kvet_labels tl_labels(struct kvet_arena *a,
					   unsigned int n, ...)
{
	struct kvet_label *v = kvet_arena_array(a, n ? n : 1, sizeof(*v));
	struct kvet_labels set;
	unsigned int i;
	va_list ap;

	va_start(ap, n);
	for (i = 0; i < n; i++) {
		v[i].key = kvet_slice_of(va_arg(ap, const char *));
		v[i].value = kvet_slice_of(va_arg(ap, const char *));
	}
	va_end(ap);
	kvet_labels_from_array(v, n, &set);
	return set;
}

#endif

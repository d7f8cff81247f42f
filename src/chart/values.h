/* SPDX-License-Identifier: Apache-2.0 */
#ifndef KVET_CHART_VALUES_H
#define KVET_CHART_VALUES_H

#include <stdbool.h>
#include <stddef.h>

/*
 * A chart's values file, read with libfyaml once per run, for the line of
 * the key that sets a value.
 */
struct kvet_values;

/* Returns: the file's tree, or NULL when it cannot be read or parsed
 * (then no finding names a values line in it). */
struct kvet_values *kvet_values_load(const char *path);
void kvet_values_destroy(struct kvet_values *vals);

/*
 * kvet_values_line() - the 1-based line of the key @path ("a.b.c": keys
 * joined by dots, a key may itself hold a dot when no shorter key
 * matches) in @vals, or 0 when the file does not set it. When the value
 * is a scalar, *@text and *@len are its text (owned by @vals), else
 * *@text is NULL.
 */
unsigned int kvet_values_line(struct kvet_values *vals, const char *path,
			      const char **text, size_t *len);

#endif

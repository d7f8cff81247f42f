/* SPDX-License-Identifier: Apache-2.0 */
/*
 * "Did you mean": the known word closest to a misspelt one, for commands,
 * options and rule ids. The distance is Damerau-Levenshtein in its
 * optimal-string-alignment form, so a swap of two neighbours ("fial")
 * costs one edit, as in git's help.autocorrect (help.c uses a weighted
 * Levenshtein with swaps). Words are short, so one row set on the stack
 * does; longer words are never close to anything kvet knows.
 */
#include "kvet/common.h"

#include <string.h>

/* Longer words are compared by their first MAX_WORD bytes. */
#define MAX_WORD 128

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

static size_t distance(const char *a, const char *b)
{
	size_t rows[3][MAX_WORD + 1];
	size_t *prev2 = rows[0], *prev = rows[1], *cur = rows[2], *t;
	size_t la = strnlen(a, MAX_WORD), lb = strnlen(b, MAX_WORD), i, j;

	for (j = 0; j <= lb; j++)
		prev[j] = j;
	for (i = 1; i <= la; i++) {
		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];

			cur[j] = min3(prev[j] + 1, cur[j - 1] + 1,
				      prev[j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && prev2[j - 2] + 1 < cur[j])
				cur[j] = prev2[j - 2] + 1;
		}
		t = prev2;
		prev2 = prev;
		prev = cur;
		cur = t;
	}
	return prev[lb];
}

KVET_API const char *kvet_suggest(const char *word,
				  const char *const *candidates, size_t n)
{
	size_t i, d, best_d = SIZE_MAX, len = strlen(word);
	size_t limit = len <= 5 ? 1 : len / 3;
	const char *best = NULL;

	for (i = 0; i < n; i++) {
		if (!candidates[i])
			continue;
		d = distance(word, candidates[i]);
		if (d == 0)
			return NULL;
		if (d < best_d) {
			best_d = d;
			best = candidates[i];
		}
	}
	return best_d <= limit ? best : NULL;
}

/* SPDX-License-Identifier: Apache-2.0 */
#include "load/fytext.h"

#include <string.h>

int kvet_fytext(struct kvet_arena *arena, struct fy_token *tok,
		const char **text, size_t *len)
{
	const struct fy_iter_chunk *ic = NULL;
	struct fy_token_iter *it;
	size_t at = 0, n;
	char *out;
	int err = 0;

	*text = "";
	*len = 0;
	if (!tok)
		return 0;
	/* the length the scanner worked out, as fy_token_get_text() has it;
	 * the text is cut there, as that call cuts it */
	n = fy_token_get_text_length(tok);
	if (!n || n == (size_t)-1)
		return 0;
	out = kvet_arena_alloc(arena, n + 1);
	it = out ? fy_token_iter_create(NULL) : NULL;
	if (!it)
		return -1;
	fy_token_iter_start(tok, it);
	while (at < n && (ic = fy_token_iter_chunk_next(it, ic, &err))) {
		size_t k = ic->len < n - at ? ic->len : n - at;

		memcpy(out + at, ic->str, k);
		at += k;
	}
	fy_token_iter_finish(it);
	fy_token_iter_destroy(it);
	if (err)
		return 0;
	out[at] = '\0';
	*text = out;
	*len = at;
	return 0;
}

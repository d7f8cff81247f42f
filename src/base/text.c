/* SPDX-License-Identifier: Apache-2.0 */
#include "base/text.h"

#include <stdbool.h>
#include <stdint.h>

#include <string.h>

#include "base/utf8.h"

/* The one escaping of text for a terminal: tabs (and line feeds when
 * @lines) stay, every other C0 control, DEL, C1 control and invalid byte
 * becomes U+FFFD, one code point for one, so carets still line up. */
static void text_write(FILE *fp, const char *s, size_t len, bool lines)
{
	size_t i, n;
	uint32_t cp;

	for (i = 0; i < len; i += n) {
		n = kvet_utf8_next(s + i, len - i, &cp);
		if (cp == '\t' || (cp == '\n' && lines) ||
		    (cp >= 0x20 && cp < 0x7f))
			putc((int)cp, fp);
		else if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0))
			kvet_utf8_put(fp, KVET_UTF8_REPLACEMENT);
		else
			kvet_utf8_put(fp, cp);
	}
}

KVET_API void kvet_text_write(FILE *fp, const char *s, size_t len)
{
	text_write(fp, s, len, false);
}

void kvet_text_write_lines(FILE *fp, const char *s, size_t len)
{
	text_write(fp, s, len, true);
}

const char *kvet_a_an(const char *word)
{
	return word && *word && strchr("aeiouAEIOU", *word) ? "an" : "a";
}
